{{ sqlmetrics.precision(ref('classes'), label='true_class', prediction='predicted_class', average=none,
                        zero_division=0, by=['country']) }}
