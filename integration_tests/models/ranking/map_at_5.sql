{{ sqlmetrics.mean_average_precision(ref('run'), ref('qrels'), query='query_id', k=5, missing='skip') }}
