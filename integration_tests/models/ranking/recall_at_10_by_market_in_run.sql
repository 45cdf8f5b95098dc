{{ sqlmetrics.recall_at_k(ref('run'), ref('qrels'), query='query_id', k=10, by=['market']) }}
