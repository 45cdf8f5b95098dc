{{ sqlmetrics.ndcg(ref('run'), ref('qrels'), query='query_id', k=10, gain='linear', by=['market']) }}
