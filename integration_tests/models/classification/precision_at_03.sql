{{ sqlmetrics.precision(ref('predictions'), label='clicked', score='pctr', threshold=0.3) }}
