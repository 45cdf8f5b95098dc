{{ sqlmetrics.serendipity(ref('run'), ref('interactions'), similarity=ref('item_similarity'), query='query_id', k=5, by=['country']) }}
