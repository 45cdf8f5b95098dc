{{ sqlmetrics.auc(ref('predictions'), label='clicked', score='pctr', weight='weight', by=['country']) }}
