{{ sqlmetrics.pr_curve(ref('predictions'), label='clicked', score='pctr') }}
