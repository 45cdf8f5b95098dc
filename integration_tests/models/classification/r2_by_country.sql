{{ sqlmetrics.r2(ref('predictions'), target='revenue', prediction='predicted_revenue', by=['country']) }}
