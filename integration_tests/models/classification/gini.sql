{{ sqlmetrics.gini(ref('predictions'), label='clicked', score='pctr') }}
