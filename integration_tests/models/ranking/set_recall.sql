{{ sqlmetrics.set_recall(ref('run'), ref('qrels'), query='query_id', missing='skip') }}
