{{ sqlmetrics.interpolated_precision(ref('run'), ref('qrels'), query='query_id', by=['country']) }}
