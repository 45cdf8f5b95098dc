{{ sqlmetrics.balanced_accuracy(ref('classes'), label='true_class', prediction='predicted_class') }}
