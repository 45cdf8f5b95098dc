{{ sqlmetrics.top_k_accuracy(ref('class_scores'), example='example_id', label='true_class', k=2) }}
