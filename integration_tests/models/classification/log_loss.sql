{{ sqlmetrics.log_loss(ref('predictions'), label='clicked', score='pctr') }}
