{{ sqlmetrics.catalog_coverage(ref('run'), query='query_id', k=2, items=ref('interactions')) }}
