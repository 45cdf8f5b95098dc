{{ sqlmetrics.compare('ndcg', ref('run'), ref('run_baseline'), qrels=ref('qrels'), query='query_id', k=10, gain='linear', by=['country']) }}
