{{ sqlmetrics.auc_compare(ref('predictions'), label='clicked', score='pctr', other_score='pctr_baseline') }}
