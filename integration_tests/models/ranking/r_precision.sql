{{ sqlmetrics.r_precision(ref('run'), ref('qrels'), query='query_id') }}
