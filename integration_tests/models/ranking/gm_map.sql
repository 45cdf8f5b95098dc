{{ sqlmetrics.gm_map(ref('run'), ref('qrels'), query='query_id') }}
