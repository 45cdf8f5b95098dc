{{ sqlmetrics.hit_rate(ref('run'), ref('qrels'), query='query_id', k=3) }}
