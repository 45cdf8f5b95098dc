{{ sqlmetrics.bpref(ref('run'), ref('qrels'), query='query_id') }}
