{{ sqlmetrics.group_disparity(ref('predictions'), 'mae', ['country'], method='to_overall', target='revenue', prediction='predicted_revenue', weight='weight') }}
