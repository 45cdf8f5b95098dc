{{ sqlmetrics.det_curve(ref('predictions'), label='clicked', score='pctr') }}
