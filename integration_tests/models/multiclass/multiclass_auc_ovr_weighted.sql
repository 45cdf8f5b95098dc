{{ sqlmetrics.multiclass_auc(ref('class_scores'), example='example_id', label='true_class', average='weighted') }}
