{{ sqlmetrics.compare('gauc', ref('predictions'), 'pctr_baseline', label='clicked', score='pctr', group='user_id', weighting='uniform', test='wilcoxon') }}
