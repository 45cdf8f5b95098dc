{{ sqlmetrics.normalized_entropy(ref('predictions'), label='clicked', score='pctr', by=['country']) }}
