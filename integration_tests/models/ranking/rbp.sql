{{ sqlmetrics.rbp(ref('run'), ref('qrels'), query='query_id') }}
