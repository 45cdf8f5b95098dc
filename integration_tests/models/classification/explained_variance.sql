{{ sqlmetrics.explained_variance(ref('predictions'), target='revenue', prediction='predicted_revenue') }}
