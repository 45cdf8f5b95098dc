{{ sqlmetrics.mape(ref('predictions'), target='revenue', prediction='predicted_revenue') }}
