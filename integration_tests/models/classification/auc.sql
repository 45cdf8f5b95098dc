{{ sqlmetrics.auc(ref('predictions'), label='clicked', score='pctr') }}
