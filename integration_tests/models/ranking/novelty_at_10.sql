{{ sqlmetrics.novelty(ref('run'), ref('interactions'), query='query_id', k=10) }}
