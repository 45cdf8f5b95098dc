{{ sqlmetrics.map(ref('run'), ref('qrels'), query='query_id') }}
