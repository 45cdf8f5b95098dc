{{ sqlmetrics.confusion_matrix(ref('predictions'), label='clicked', score='pctr', threshold=0.5) }}
