{{ sqlmetrics.auc(ref('predictions'), label='clicked_flag', score='pctr') }}
