{{ sqlmetrics.log_loss(ref('predictions'), label='clicked', score='pctr', weight='weight', by=['country']) }}
