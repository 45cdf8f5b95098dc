{{ sqlmetrics.judged_at_k(ref('run'), ref('qrels'), query='query_id', k=5, ties='item_asc') }}
