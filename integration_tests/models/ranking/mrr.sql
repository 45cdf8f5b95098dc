{{ sqlmetrics.mrr(ref('run'), ref('qrels'), query='query_id') }}
