{{ sqlmetrics.multiclass_log_loss(ref('class_scores'), example='example_id', label='true_class') }}
