{{ sqlmetrics.precision_11pt(ref('run'), ref('qrels'), query='query_id', missing='skip') }}
