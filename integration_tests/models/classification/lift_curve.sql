{{ sqlmetrics.lift_curve(ref('predictions'), label='clicked', score='pctr') }}
