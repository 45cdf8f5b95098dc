{{ sqlmetrics.d2_absolute_error(ref('predictions'), target='revenue', prediction='predicted_revenue', weight='weight') }}
