{{ sqlmetrics.set_precision(ref('run'), ref('qrels'), query='query_id') }}
