{{ sqlmetrics.tail_share(ref('run'), ref('interactions'), query='query_id', k=10, tail=2) }}
