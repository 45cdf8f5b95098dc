{{ sqlmetrics.gain_curve(ref('predictions'), label='clicked', score='pctr') }}
