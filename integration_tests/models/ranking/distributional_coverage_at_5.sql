{{ sqlmetrics.distributional_coverage(ref('run'), query='query_id', k=5) }}
