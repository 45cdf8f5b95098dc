{{ sqlmetrics.accuracy(ref('predictions'), label='clicked', score='pctr') }}
