{{ sqlmetrics.serendipity(ref('run'), ref('interactions'), ref('item_similarity'), query='query_id', k=5, by=['country']) }}
