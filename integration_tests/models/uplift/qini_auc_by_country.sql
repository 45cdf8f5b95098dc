{{ sqlmetrics.qini_auc(ref('predictions'), label='clicked', treatment='treated', score='pctr', by=['country']) }}
