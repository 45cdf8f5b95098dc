{{ sqlmetrics.rela_impr(ref('predictions'), label='clicked', score='pctr', base_score='pctr_baseline') }}
