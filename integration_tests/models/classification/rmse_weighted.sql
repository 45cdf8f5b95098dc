{{ sqlmetrics.rmse(ref('predictions'), target='revenue', prediction='predicted_revenue', weight='weight') }}
