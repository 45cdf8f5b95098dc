{{ sqlmetrics.cohen_kappa(ref('classes'), label='grade', prediction='predicted_grade', weights='quadratic') }}
