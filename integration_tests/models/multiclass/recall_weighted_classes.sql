{{ sqlmetrics.recall(ref('classes'), label='true_class', prediction='predicted_class', weight='weight',
                     average='weighted', zero_division=0) }}
