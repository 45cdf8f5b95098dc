{{ sqlmetrics.gini_index(ref('run'), query='query_id', k=5, n_items=40) }}
