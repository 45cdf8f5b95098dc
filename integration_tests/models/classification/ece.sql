{{ sqlmetrics.ece(ref('predictions'), label='clicked', score='pctr', n_bins=5) }}
