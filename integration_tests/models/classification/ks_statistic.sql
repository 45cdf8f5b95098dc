{{ sqlmetrics.ks_statistic(ref('predictions'), label='clicked', score='pctr') }}
