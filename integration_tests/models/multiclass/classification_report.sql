{{ sqlmetrics.classification_report(ref('classes'), label='true_class', prediction='predicted_class', zero_division=0) }}
