{{ sqlmetrics.mae(ref('predictions'), target='revenue', prediction='predicted_revenue') }}
