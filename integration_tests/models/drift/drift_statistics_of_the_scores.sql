{{ sqlmetrics.drift_statistics(ref('predictions'), ref('predictions_current'), columns=['pctr', 'revenue'],
                               categorical=['country']) }}
