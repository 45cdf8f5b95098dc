{{ sqlmetrics.msle(ref('predictions'), target='revenue', prediction='pctr', weight='weight') }}
