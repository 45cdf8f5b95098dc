{{ sqlmetrics.best_threshold(ref('predictions'), label='clicked', score='pctr') }}
