{{ sqlmetrics.auc_ci(ref('predictions'), label='clicked', score='pctr', by=['country']) }}
