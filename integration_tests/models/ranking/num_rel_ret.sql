{{ sqlmetrics.num_rel_ret(ref('run'), ref('qrels'), query='query_id') }}
