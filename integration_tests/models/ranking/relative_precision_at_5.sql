{{ sqlmetrics.relative_precision(ref('run'), ref('qrels'), query='query_id', k=5) }}
