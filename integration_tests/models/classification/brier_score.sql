{{ sqlmetrics.brier_score(ref('predictions'), label='clicked', score='pctr') }}
