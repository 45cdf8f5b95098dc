{{ sqlmetrics.auc(ref('predictions'), label='clicked', score='pctr', max_fpr=0.3) }}
