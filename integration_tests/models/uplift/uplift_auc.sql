{{ sqlmetrics.uplift_auc(ref('predictions'), label='clicked', treatment='treated', score='pctr') }}
