{{ sqlmetrics.max_error(ref('predictions'), target='revenue', prediction='predicted_revenue', by=['country']) }}
