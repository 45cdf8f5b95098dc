{{ sqlmetrics.score_histogram(ref('predictions'), label='clicked', score='pctr', bins=10, by=['country']) }}
