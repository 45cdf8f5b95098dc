{{ sqlmetrics.copc(ref('predictions'), label='clicked', score='pctr', weight='weight') }}
