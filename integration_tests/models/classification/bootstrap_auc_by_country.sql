{{ sqlmetrics.bootstrap('auc', ref('predictions'), label='clicked', score='pctr', by=['country'], n_boot=200) }}
