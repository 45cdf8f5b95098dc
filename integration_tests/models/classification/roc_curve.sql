{{ sqlmetrics.roc_curve(ref('predictions'), label='clicked', score='pctr') }}
