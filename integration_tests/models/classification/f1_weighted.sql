{{ sqlmetrics.f1(ref('predictions'), label='clicked', score='pctr', weight='weight') }}
