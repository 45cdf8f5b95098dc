{{ sqlmetrics.mcc(ref('classes'), label='true_class', prediction='predicted_class', by=['country']) }}
