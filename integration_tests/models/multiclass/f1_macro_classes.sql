{{ sqlmetrics.f1(ref('classes'), label='true_class', prediction='predicted_class', average='macro', zero_division=0) }}
