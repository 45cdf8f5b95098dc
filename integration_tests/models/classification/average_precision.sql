{{ sqlmetrics.average_precision(ref('predictions'), label='clicked', score='pctr') }}
