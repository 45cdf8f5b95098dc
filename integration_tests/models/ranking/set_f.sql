{{ sqlmetrics.set_f(ref('run'), ref('qrels'), query='query_id') }}
