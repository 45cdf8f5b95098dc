{#- A confidence interval for a metric by the Poisson bootstrap (Hanley & MacGibbon 2006; the
    resampling of TFMA and Fairlearn's n_boot), done by the engine: in replicate b every resampling
    unit weighs k ~ Poisson(1), drawn from the unit and (b, seed) by arithmetic, with no random state,
    so the same call gives the same interval; replicate 0, every unit weighing 1, gives the metric on
    the data. Returned per slice `by`: estimate (the metric on the data), std_error (the replicates'
    standard deviation), the percentile interval ci_low, ci_high (numpy's linear interpolation
    between order statistics), n_boot (the replicates that gave a value: a replicate that leaves a
    slice without one class gives none) and n_undefined (those that did not). The unit: the
    `cluster` column when given (rows of a user resample together), else the row: a row is its
    columns and its place among the rows equal to it (identical rows are exchangeable, so which of
    them is first does not matter, and each resamples on its own; the numbering's ORDER BY, which
    Spark requires, orders equal values). For a metric of a long table of class scores
    (per_example_metric) the unit is the example within its slice, every row of which holds one of
    its scores: all of them take its draw, which weighs the example as its weight does (class_rows);
    a cluster must then hold whole examples (the query fails on one split between clusters). How
    each metric's replicates are computed: bootstrap_path.
    With replicates=[first, last], the values of those replicates only (`by`, sm_replicate and the
    metric's column), for a caller that runs them in batches and takes the interval of all of them
    (bootstrap_interval): the Python layer on DuckDB, which holds a statement in memory, where one
    statement of every replicate would need memory in proportion to n_boot. With `other`, a second
    column of the rows in place of the metric's `score` (or `prediction`, where it takes no score),
    the paired bootstrap of compare's test='bootstrap': each replicate computes the metric under
    both columns with the same weights (the rows of both, a slice sm_cmp_system each) and gives
    their difference; its outputs are bootstrap_interval's with paired=true. The other keywords are
    the metric's own. -#}
{% macro bootstrap(metric, relation, n_boot=1000, confidence=0.95, seed=0, cluster=none, weight=none, by=[], replicates=none, other=none) %}
{%- set span = replicates or [0, n_boot] %}
{%- set path = sqlmetrics.bootstrap_path(metric, cluster, kwargs, other) %}
{%- if other and path != 'rows' %}{{ sqlmetrics.fail('the paired bootstrap (other=) resamples rows: a metric of one value over rows') }}{% endif %}
{%- set read = namespace(columns=by + ([weight] if weight else []) + ([cluster] if cluster else []) + ([other] if other else [])) %}
{%- for p in ('label', 'score', 'prediction', 'target', 'group', 'base_score', 'other_score') %}
{%- if kwargs.get(p) %}{% set read.columns = read.columns + [kwargs[p]] %}{% endif %}
{%- endfor %}
{#- the fairness metrics' groups: a list of columns -#}
{%- if kwargs.get('sensitive') %}{% set read.columns = read.columns + kwargs['sensitive'] %}{% endif %}
{%- set examples = sqlmetrics.per_example_metric(metric) %}
{%- if examples %}
{%- set example = kwargs.get('example', 'example') %}
{%- set read.columns = read.columns + [example, kwargs.get('class_', 'class'), kwargs.get('score', 'score')] %}
{%- endif %}
{%- set carried = read.columns | unique | list %}
{%- set unit = [cluster] if cluster else by + [example] if examples else carried + ['sm_occurrence'] %}
{%- set draw %}CASE WHEN sm_replicate = 0 THEN 1 ELSE {{ sqlmetrics.poisson_one('sm_uniform') }} END{% endset %}
{%- set replicated %}
{%- set numbered %}sm_replicates AS (
  {{ sqlmetrics.replicate_numbers(span[1], span[0]) }}
),{% endset %}
WITH
{%- if path in ('queries', 'groups') %}
{%- set unit_column = kwargs.get('query', 'query') if path == 'queries' else kwargs.get('group') %}
{{ numbered }}
sm_parts AS (
  {%- if path == 'queries' %}
  {{ sqlmetrics.metric(metric, relation, by=by, per_query='parts', **kwargs) }}
  {%- else %}
  {{ sqlmetrics.gauc_groups(relation, weight=weight, by=by, **kwargs) }}
  {%- endif %}
),
sm_units AS (
  SELECT sm_parts.*, {{ sqlmetrics.unit_hash((by if path == 'queries' else []) + [unit_column]) }} AS sm_unit FROM sm_parts
)
SELECT {{ sqlmetrics.cols(by) }} sm_replicate,
       {%- if path == 'queries' %}
       CASE WHEN MAX(sm_relevant_rule) = 0 OR SUM(sm_k * sm_n_relevant) > 0
            THEN {{ sqlmetrics.fdiv('SUM(sm_k * sm_numerator)', 'SUM(sm_k * sm_denominator)') }} END
       {%- else %}
       {{ sqlmetrics.fdiv('SUM(sm_k * sm_v * sm_auc)', 'SUM(sm_k * sm_v)') }}
       {%- endif %} AS {{ sqlmetrics.ident(metric) }}
FROM (
  SELECT sm_drawn.*, {{ draw }} AS sm_k
  FROM ({{ sqlmetrics.unit_uniform('sm_units', 'sm_replicates', seed) }}) AS sm_drawn
  {{ sqlmetrics.computed_once() }}
) AS sm_weighted
{{ sqlmetrics.group_by(by + ['sm_replicate']) }}
{%- else %}
{%- set split = examples and cluster %}
sm_units AS (
  SELECT sm_occurrences.*,
         {%- if split %}
         {#- one cluster on every row of the example (or NULL on all of them), checked in the unit's hash,
             which every replicate reads (a column of its own the engine could leave uncomputed); an
             integer still where the failing branch is text (MariaDB's JSON path) #}
         {%- set whole %}sm_clustered = 0 OR (sm_clustered = sm_example_rows AND sm_cluster_lo = sm_cluster_hi){% endset %}
         CAST(CASE WHEN {{ whole }} THEN {{ sqlmetrics.unit_hash(unit) }}
                   ELSE {{ sqlmetrics.invalid_value('the cluster differs between the rows of an example (the bootstrap resamples its rows together: a cluster must hold whole examples); example', sqlmetrics.ident(example), 'NOT (' ~ whole ~ ')') }}
                   END AS BIGINT) AS sm_unit
         {%- else %}
         {{ sqlmetrics.unit_hash(unit) }} AS sm_unit
         {%- endif %}
  FROM (
    SELECT {{ sqlmetrics.col_list(carried) }}
           {%- if 'sm_occurrence' in unit %},
           ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(carried) }} ORDER BY {{ sqlmetrics.ident(carried[0]) }}) AS sm_occurrence
           {%- endif %}
           {%- if split %}
           {#- the windows as columns, compared outside: MariaDB 10.11 misreads a comparison of windows
               within OR and AND #}
           {%- set c = sqlmetrics.ident(cluster) %}
           {%- set per_example %}OVER ({{ sqlmetrics.partition_by(by + [example]) }}){% endset %},
           COUNT({{ c }}) {{ per_example }} AS sm_clustered, COUNT(*) {{ per_example }} AS sm_example_rows,
           MIN({{ c }}) {{ per_example }} AS sm_cluster_lo, MAX({{ c }}) {{ per_example }} AS sm_cluster_hi
           {%- endif %}
    FROM {{ relation }}
  ) AS sm_occurrences
),
{%- if path == 'ranks' %}
{{ sqlmetrics.auc_replicates('sm_units', kwargs.get('label'), kwargs.get('score'), weight, by, span, seed, kwargs.get('plan')) }}
{%- else %}
{{ numbered }}
sm_resampled AS (
  SELECT {{ sqlmetrics.cols(carried) }} sm_replicate,
         {{ draw }} * {{ sqlmetrics.row_weight(weight) }} AS sm_boot_weight
  FROM ({{ sqlmetrics.unit_uniform('sm_units', 'sm_replicates', seed) }}) AS sm_drawn
  {{ sqlmetrics.computed_once() }}
),
{%- if other %}
{%- set compared = kwargs['score'] if kwargs.get('score') else kwargs['prediction'] %}
sm_systems AS (
  SELECT {{ sqlmetrics.cols(carried) }} sm_replicate, sm_boot_weight, 0 AS sm_cmp_system FROM sm_resampled
  UNION ALL
  SELECT {% for c in carried %}{{ sqlmetrics.ident(other if c == compared else c) }} AS {{ sqlmetrics.ident(c) }}, {% endfor -%}
         sm_replicate, sm_boot_weight, 1 AS sm_cmp_system
  FROM sm_resampled
),
sm_metric AS (
  {{ sqlmetrics.resampled_metric(metric, 'sm_systems', weight, by + ['sm_replicate', 'sm_cmp_system'], kwargs) }}
)
SELECT {{ sqlmetrics.cols(by) }} sm_replicate,
       MAX(CASE WHEN sm_cmp_system = 0 THEN sm_metric.{{ sqlmetrics.ident(metric) }} END) AS {{ sqlmetrics.ident(metric) }},
       MAX(CASE WHEN sm_cmp_system = 1 THEN sm_metric.{{ sqlmetrics.ident(metric) }} END) AS sm_other_value
FROM sm_metric
{{ sqlmetrics.group_by(by + ['sm_replicate']) }}
{%- else %}
sm_metric AS (
  {{ sqlmetrics.resampled_metric(metric, 'sm_resampled', weight, by + ['sm_replicate'], kwargs) }}
)
SELECT * FROM sm_metric
{%- endif %}
{%- endif %}
{%- endif %}
{%- endset %}
{%- if replicates %}
{{ replicated }}
{%- else %}
{{ sqlmetrics.bootstrap_interval(replicated, metric, by, n_boot, confidence, paired=other is not none) }}
{%- endif %}
{% endmacro %}

{#- `metric` over the replicates' rows `relation`, each weighing sm_boot_weight (its draw times the
    row's `weight`), as its weight; multiclass_auc's ovo, which takes no weight (Hand and Till's AUC,
    as sklearn's, has none), as its counts: an example drawn k times is k copies of it. -#}
{% macro resampled_metric(metric, relation, weight, by, kwargs) %}
{%- if metric == 'multiclass_auc' and kwargs.get('multi_class') == 'ovo' %}
{{ sqlmetrics.metric(metric, relation, weight=weight, counts='sm_boot_weight', by=by, **kwargs) }}
{%- else %}
{{ sqlmetrics.metric(metric, relation, weight='sm_boot_weight', by=by, **kwargs) }}
{%- endif %}
{% endmacro %}

{#- How the bootstrap of `metric` computes its replicates (the Python layer asks, to batch them):
    'queries'  a ranking metric: it runs once, per query (mean_over_queries' per_query='parts'), and
               each replicate recombines the queries' parts with their weights: n_boot times the
               work of the number of queries, not of rows;
    'groups'   gauc over its groups (`cluster` is the group): a group's AUC is the same when all its
               rows weigh k times as much, so the groups' AUCs come from one call (gauc_groups), and
               each replicate reweighs them;
    'ranks'    auc (exact, of the whole curve): one order of the rows serves every replicate
               (auc_replicates);
    'rows'     any other metric, and the paired bootstrap (`other`) of one over rows: it runs over
               every replicate's rows, as a slice of its own each (`by` + sm_replicate), with the
               row weights times k (of a long table of class scores, the example's k on each of its
               rows): n_boot times its work. -#}
{% macro bootstrap_path(metric, cluster, kwargs, other=none) -%}
{%- if sqlmetrics.per_query_metric(metric) %}{{ return('queries') }}
{%- elif metric == 'gauc' and cluster == kwargs.get('group') %}{{ return('groups') }}
{%- elif metric == 'auc' and not other and not kwargs.get('bins') and (kwargs.get('max_fpr') is none or kwargs.get('max_fpr') >= 1) %}{{ return('ranks') }}
{%- else %}{{ return('rows') }}
{%- endif %}
{%- endmacro %}

{#- Replicates per row of auc_replicates' running sums, each a column of its SQL (the Python layer
    batches the replicates by as many): on 1M rows, 200 replicates took 16 s of CPU with 8 columns,
    17 with 16 and 20 with 32 (each batch's statement is longer to read). PostgreSQL's chunks in turn
    took the same 5 s with 6, 8, 12 and 16 (200,000 rows): a wider row saves per-row work that its
    longer expressions' compilation (JIT) takes back. -#}
{% macro bootstrap_width() -%}
{{ return(8) }}
{%- endmacro %}

{#- CTEs ending in the replicates span[0] .. span[1] of the exact AUC (`by`, sm_replicate, auc; as
    auc_parts: pairs weighted w_i * w_j, a tie counting 1/2) of the rows `units` (`by`, label, score,
    weight and sm_unit), whose one order serves every replicate, so that a replicate costs a hash
    aggregation of the rows and a running sum over far fewer keys, not a sort of the rows:
    - In each slice the class with fewer rows anchors the order (sm_a = 1; where that is the
      negatives, AUC = 1 - the AUC of the negatives as positives). The rows sorted by score, a row's
      key numbers the runs of that order: the rows of a score that both classes have are a run (its
      anchor rows tie with its other rows), and between such scores the rows of one class in a row
      are one (their scores are no other class's). An anchor row wins against the other rows of
      smaller keys and ties with those of its own; there are about as many keys as changes of class
      along the order (1M rows of distinct scores: 430,000 keys for balanced classes, 91,000 at 5%
      positives; a key per anchor score and per run of other rows made 714,000 and 96,000).
    - Per replicate, the anchor and the other weight of each key (rows' weights times k; in a hash
      aggregation) and a running sum of the other weight over the keys give the anchor weight's
      wins. The replicates are columns, bootstrap_width per row of a chunk (replicate sm_chunk *
      width + column): one sort of a chunk's keys serves its columns' running sums.
    - Where the chunks run in turn (chunks_in_turn: PostgreSQL), each is a LATERAL subquery over the
      keyed rows (computed once, MATERIALIZED), sorted by key, which draws a unit's k by one hash of
      it with the replicate (hashint8extended, poisson_of_hash: the shared arithmetic's steps took
      6.2 s where the hash took 5.2) and sums it per key and class (a NULL where the key has no row
      of the class), its running sums and its wins following that order without another sort.
    plan='parallel' (a distributed engine, where a window over a slice's order runs in one task):
    the keys are numbered within each monotone_bucket of the score, whose order is the slice's, and
    the running sums over the keys are running_sums' parallel ones; the per-slice values join the
    rows by (slice, bucket) (spread_slices).
    The weights are shares of the slice's largest, so that no product of sums overflows a double.
    With each replicate: sm_rows and sm_keys, the slice's rows and keys (how many replicates a
    batch can hold: the Python layer's). -#}
{% macro auc_replicates(units, label, score, weight, by, span, seed, plan) %}
{%- set width = sqlmetrics.bootstrap_width() %}
{%- set parallel = plan == 'parallel' %}
{#- a slice's order, or on the parallel plan the order within each of its score buckets -#}
{%- set ordered = by + (['sm_bucket'] if parallel else []) %}
{%- set key = sqlmetrics.spread_key(by, plan) %}
{%- set keyed = by + ['sm_chunk', 'sm_anchor_positive', 'sm_rows'] %}
{%- set in_order %}{{ sqlmetrics.partition_by(ordered) }} ORDER BY sm_s{% endset %}
{%- set sorted %}{{ in_order }} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW{% endset %}
{%- set labelled %}
SELECT {{ sqlmetrics.cols(by) }} sm_unit, {{ sqlmetrics.ident(score) }} AS sm_s,
       {{ sqlmetrics.is_positive(label) }} AS sm_pos, {{ sqlmetrics.row_weight(weight) }} AS sm_weight
FROM {{ units }}
{%- endset %}
sm_labelled AS (
  {{ sqlmetrics.with_bucket(labelled, 'sm_s') if parallel else labelled }}
),
sm_slices AS (
  SELECT {{ sqlmetrics.cols(by) }} CASE WHEN 2 * SUM(sm_pos) <= COUNT(*) THEN 1 ELSE 0 END AS sm_anchor_positive,
         COUNT(*) AS sm_rows, MAX(sm_weight) AS sm_largest
  FROM sm_labelled
  {{ sqlmetrics.group_by(by) }}
){{ sqlmetrics.spread_cte('sm_slices', 'sm_labelled', by, key) }},
sm_anchored AS (
  SELECT {{ sqlmetrics.qualified_cols(ordered, 'sm_labelled') }} sm_unit, sm_s,
         {{ sqlmetrics.fdiv('sm_weight', 'sm_largest') }} AS sm_share, sm_anchor_positive, sm_rows,
         CASE WHEN sm_anchor_positive = 1 THEN sm_pos ELSE 1 - sm_pos END AS sm_a
  FROM sm_labelled
  {{ sqlmetrics.join_slices('sm_labelled', 'sm_slices', by, key) }}
),
sm_scored AS (
  SELECT sm_anchored.*,
         {#- the anchor rows' share of the rows of the score: strictly between 0 and 1 where both classes have it #}
         {{ sqlmetrics.peer_mean(sqlmetrics.as_double('sm_a'), ordered, 'sm_s') }} AS sm_score_anchors,
         RANK() OVER ({{ in_order }}) AS sm_rank
  FROM sm_anchored
),
sm_typed AS (
  {#- 0: an anchor row of a score only anchor rows have, 1: an other row of a score only other rows have,
      2: a row of a score of both #}
  SELECT sm_scored.*, CASE WHEN sm_score_anchors > 0 AND sm_score_anchors < 1 THEN 2 ELSE 1 - sm_a END AS sm_type
  FROM sm_scored
),
sm_keyed AS (
  SELECT {{ sqlmetrics.cols(ordered) }} sm_unit, sm_s, sm_anchor_positive, sm_rows,
         sm_a, {#- the row's class, which chunks in turn sum by #}
         {#- a row's anchor and other weight: one of them 0 #}
         sm_a * sm_share AS sm_anchor_share, (1 - sm_a) * sm_share AS sm_other_share,
         {{ sqlmetrics.unit_seeded('sm_unit', seed) }} AS sm_unit_seeded,
         {#- a score of both classes: twice its RANK; a run of one class: twice the RANK of the last row of
             another type before it (0 before any), plus 1. A running MAX that the rows tied with a row
             leave as it is (they are of its type), so that they share its key whatever their order. #}
         CASE sm_type
           WHEN 2 THEN 2 * sm_rank
           WHEN 0 THEN 2 * COALESCE(MAX(CASE WHEN sm_type <> 0 THEN sm_rank END) OVER ({{ sorted }}), 0) + 1
           ELSE 2 * COALESCE(MAX(CASE WHEN sm_type <> 1 THEN sm_rank END) OVER ({{ sorted }}), 0) + 1 END AS sm_key
  FROM sm_typed
),
sm_chunks AS (
  SELECT sm_replicate AS sm_chunk,
         {%- for i in range(width) %}
         {{ sqlmetrics.replicate_seeded('sm_replicate * ' ~ width ~ ' + ' ~ i) }} AS sm_offset{{ i }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM ({{ sqlmetrics.replicate_numbers(span[1] // width, span[0] // width) }}) AS sm_chunk_numbers
  {#- computed once: each draw of a chunk reads its seeds (PostgreSQL would compute them at each: 6.5 s
      of PostgreSQL's chunks in turn instead of 5.2) #}
  {{ sqlmetrics.computed_once() }}
),
{%- if sqlmetrics.chunks_in_turn() and not parallel %}
{%- set grouped = by + ['sm_key'] %}
{#- the rows the chunks read, computed once for them all (else each chunk would compute them anew) -#}
sm_key_rows AS MATERIALIZED (
  SELECT {{ sqlmetrics.cols(grouped) }} sm_a,{% if weight %} sm_anchor_share + sm_other_share AS sm_share,{% endif %} sm_unit_seeded
  FROM sm_keyed
),
sm_chunked AS (
  SELECT sm_chunk_wins.*, sm_slices.sm_anchor_positive, sm_slices.sm_rows
  FROM sm_chunks
  CROSS JOIN LATERAL (
    SELECT {{ sqlmetrics.cols(by) }} sm_chunks.sm_chunk AS sm_chunk, CAST(COUNT(*) AS BIGINT) AS sm_keys,
           {%- for i in range(width) %}
           {#- sm_through: the other weight up to the key, its own included (a key of one class has no weight of the other: NULL) #}
           {{ sqlmetrics.fdiv('SUM(sm_anchor' ~ i ~ ' * (COALESCE(sm_through' ~ i ~ ', 0) - 0.5 * COALESCE(sm_other' ~ i ~ ', 0)))',
                              'SUM(sm_anchor' ~ i ~ ') * SUM(sm_other' ~ i ~ ')') }} AS sm_wins{{ i }}{{ "," if not loop.last }}
           {%- endfor %}
    FROM (
      SELECT sm_key_sums.*,
             {%- for i in range(width) %}
             SUM(sm_other{{ i }}) OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_key ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_through{{ i }}{{ "," if not loop.last }}
             {%- endfor %}
      FROM (
        SELECT {{ sqlmetrics.cols(grouped) }}
               {%- for i in range(width) %}
               {%- set k %}sm_k{{ i }}{% if weight %} * sm_share{% endif %}{% endset %}
               SUM(CASE WHEN sm_a = 1 THEN {{ k }} END) AS sm_anchor{{ i }}, SUM(CASE WHEN sm_a = 0 THEN {{ k }} END) AS sm_other{{ i }}{{ "," if not loop.last }}
               {%- endfor %}
        FROM (
          SELECT {{ sqlmetrics.cols(grouped) }} sm_a,{% if weight %} sm_share,{% endif %}
                 {%- for i in range(width) %}
                 {% if i == 0 %}CASE WHEN sm_chunks.sm_chunk = 0 THEN {{ sqlmetrics.as_double(1) }} ELSE {{ sqlmetrics.poisson_of_hash('sm_h0') }} END
                 {%- else %}{{ sqlmetrics.poisson_of_hash('sm_h' ~ i) }}{% endif %} AS sm_k{{ i }}{{ "," if not loop.last }}
                 {%- endfor %}
          FROM (
            {#- ordered as the aggregation and the running sums read them: PostgreSQL's planner knows a subquery's
                order only where the query around it asks for one, and would sort each chunk's rows again.
                A unit's draw in a replicate: the seeded parts of both hashed together (poisson_of_hash) #}
            SELECT sm_sorted.*,
                   {%- for i in range(width) %}
                   hashint8extended(sm_unit_seeded, sm_chunks.sm_offset{{ i }}) AS sm_h{{ i }}{{ "," if not loop.last }}
                   {%- endfor %}
            FROM (SELECT * FROM sm_key_rows ORDER BY {{ sqlmetrics.col_list(grouped) }}) AS sm_sorted
            ORDER BY {{ sqlmetrics.col_list(grouped) }}
            {{ sqlmetrics.computed_once() }}
          ) AS sm_hashed
        ) AS sm_drawn
        GROUP BY {{ sqlmetrics.col_list(grouped) }}
      ) AS sm_key_sums
    ) AS sm_running
    {{ sqlmetrics.group_by(by) }}
  ) AS sm_chunk_wins
  {{ sqlmetrics.join_slices('sm_chunk_wins', 'sm_slices', by) }}
)
{%- else %}
{#- each step's columns computed once (computed_once): the next reads them more than once -#}
sm_key_sums AS (
  SELECT {{ sqlmetrics.cols(keyed + ordered[by | length:]) }} sm_key,{% if parallel %} MIN(sm_s) AS sm_key_s,{% endif %}
         {%- for i in range(width) %}
         SUM(sm_k{{ i }} * sm_anchor_share) AS sm_anchor{{ i }}, SUM(sm_k{{ i }} * sm_other_share) AS sm_other{{ i }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM (
    SELECT {{ sqlmetrics.cols(keyed + ordered[by | length:]) }} sm_key, sm_s, sm_anchor_share, sm_other_share,
           {%- for i in range(width) %}
           {% if i == 0 %}CASE WHEN sm_chunk = 0 THEN 1 ELSE {{ sqlmetrics.poisson_one('sm_u0') }} END
           {%- else %}{{ sqlmetrics.poisson_one('sm_u' ~ i) }}{% endif %} AS sm_k{{ i }}{{ "," if not loop.last }}
           {%- endfor %}
    FROM (
      SELECT {{ sqlmetrics.cols(keyed + ordered[by | length:]) }} sm_key, sm_s, sm_anchor_share, sm_other_share,
             {%- for i in range(width) %}
             {{ sqlmetrics.uniform_of('sm_m' ~ i) }} AS sm_u{{ i }}{{ "," if not loop.last }}
             {%- endfor %}
      FROM (
        SELECT {{ sqlmetrics.cols(keyed + ordered[by | length:]) }} sm_key, sm_s, sm_anchor_share, sm_other_share,
               {%- for i in range(width) %}
               {{ sqlmetrics.uniform_mixed('sm_r' ~ i, 'sm_unit') }} AS sm_m{{ i }}{{ "," if not loop.last }}
               {%- endfor %}
        FROM (
          SELECT sm_keyed.*, sm_chunks.sm_chunk,
                 {%- for i in range(width) %}
                 {{ sqlmetrics.uniform_seeded('sm_unit_seeded', 'sm_offset' ~ i) }} AS sm_r{{ i }}{{ "," if not loop.last }}
                 {%- endfor %}
          FROM sm_keyed
          CROSS JOIN sm_chunks
          {{ sqlmetrics.computed_once() }}
        ) AS sm_seeded
        {{ sqlmetrics.computed_once() }}
      ) AS sm_mixed
      {{ sqlmetrics.computed_once() }}
    ) AS sm_uniforms
    {{ sqlmetrics.computed_once() }}
  ) AS sm_drawn
  GROUP BY {{ sqlmetrics.cols(keyed + ordered[by | length:]) }}sm_key
),
{%- if parallel %}
{#- the keys' order is that of their scores (those of a key lie between the next keys'), in their bucket -#}
sm_key_rows AS (
  SELECT {{ sqlmetrics.cols(keyed) }} sm_key_s,
         {%- for i in range(width) %}
         sm_anchor{{ i }}, sm_other{{ i }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM sm_key_sums
),
{%- set anchors, others = [], [] %}
{%- for i in range(width) %}{% set _ = anchors.append('sm_anchor' ~ i) %}{% set _ = others.append('sm_other' ~ i) %}{% endfor %}
{{ sqlmetrics.running_sums('sm_key_runs', 'sm_key_rows', keyed, 'sm_key_s', false, anchors, others, plan) }},
sm_running AS (
  SELECT sm_key_runs.*,
         {%- for i in range(width) %}
         sm_other{{ i }}_run - sm_other{{ i }} AS sm_below{{ i }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM sm_key_runs
),
{%- else %}
sm_running AS (
  SELECT sm_key_sums.*,
         {%- for i in range(width) %}
         SUM(sm_other{{ i }}) OVER (PARTITION BY {{ sqlmetrics.col_list(by + ['sm_chunk']) }} ORDER BY sm_key
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_below{{ i }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM sm_key_sums
),
{%- endif %}
sm_chunked AS (
  SELECT {{ sqlmetrics.cols(keyed) }} CAST(COUNT(*) AS BIGINT) AS sm_keys,
         {%- for i in range(width) %}
         {{ sqlmetrics.fdiv('SUM(sm_anchor' ~ i ~ ' * (COALESCE(sm_below' ~ i ~ ', 0) + 0.5 * sm_other' ~ i ~ '))',
                            'SUM(sm_anchor' ~ i ~ ') * SUM(sm_other' ~ i ~ ')') }} AS sm_wins{{ i }}{{ "," if not loop.last }}
         {%- endfor %}
  FROM sm_running
  GROUP BY {{ sqlmetrics.col_list(keyed) }}
)
{%- endif %}
SELECT {{ sqlmetrics.cols(by) }} sm_replicate,
       CASE WHEN sm_anchor_positive = 1 THEN sm_wins ELSE 1 - sm_wins END AS auc, sm_rows, sm_keys
FROM (
  SELECT {{ sqlmetrics.cols(by) }} sm_anchor_positive, sm_rows, sm_keys, sm_chunk * {{ width }} + sm_column AS sm_replicate,
         CASE sm_column {% for i in range(width) %}WHEN {{ i }} THEN sm_wins{{ i }} {% endfor %}END AS sm_wins
  FROM sm_chunked
  CROSS JOIN (SELECT sm_replicate AS sm_column FROM ({{ sqlmetrics.replicate_numbers(width - 1) }}) AS sm_column_numbers) AS sm_columns
) AS sm_unpivoted
WHERE sm_replicate BETWEEN {{ span[0] }} AND {{ span[1] }}
{% endmacro %}

{#- bootstrap's outputs: the interval of each slice's replicates, from `replicated`, a SELECT of
    `by`, sm_replicate and the column `metric` (a CTE's: a WITH of its own goes to the top where the
    engine needs it so, MariaDB).
    paired: `replicated` also holds sm_other_value, the metric under the other column, and the
    replicates' values are the differences d = metric - sm_other_value (NULL where either is); the
    outputs are compare's: estimate and other_estimate (replicate 0's two values), difference (their
    difference), std_error and the percentile interval of the B replicates' d that have one,
    statistic = difference / std_error (0 when both are 0), and the two-sided p-value of the
    percentile bootstrap, p = min(1, 2 min(1 + #{d <= 0}, 1 + #{d >= 0}) / (1 + B)): the largest
    level whose percentile interval holds 0, kept at least 2 / (1 + B) as a resampling test's
    p-value is (the data count as one of the replicates), and 1 when every d is 0. -#}
{% macro bootstrap_interval(replicated, metric, by, n_boot, confidence, paired=false) %}
{%- set tail = (1 - confidence) / 2 %}
WITH sm_replicated AS (
  {{ replicated }}
),
sm_replicate_values AS (
  {%- if paired %}
  SELECT {{ sqlmetrics.cols(by) }} sm_replicate, {{ sqlmetrics.ident(metric) }} - sm_other_value AS sm_value,
         {{ sqlmetrics.ident(metric) }} AS sm_a, sm_other_value AS sm_b
  FROM sm_replicated
  {%- else %}
  SELECT {{ sqlmetrics.cols(by) }} sm_replicate, {{ sqlmetrics.ident(metric) }} AS sm_value FROM sm_replicated
  {%- endif %}
),
sm_estimated AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_value AS sm_estimate{% if paired %}, sm_a, sm_b{% endif %} FROM sm_replicate_values WHERE sm_replicate = 0
),
sm_ordered AS (
  SELECT {{ sqlmetrics.cols(by) }} sm_value,
         ROW_NUMBER() OVER ({{ sqlmetrics.partition_by(by) }} ORDER BY sm_value) AS sm_rank,
         COUNT(*) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_n,
         AVG(sm_value) OVER ({{ sqlmetrics.partition_by(by) }}) AS sm_mean
  FROM sm_replicate_values
  WHERE sm_replicate > 0 AND sm_value IS NOT NULL
),
sm_spread AS (
  SELECT {{ sqlmetrics.cols(by) }}
         CAST(MAX(sm_n) AS BIGINT) AS sm_replicates_with_value,
         SQRT({{ sqlmetrics.fdiv('SUM((sm_value - sm_mean) * (sm_value - sm_mean))', 'MAX(sm_n) - 1') }}) AS sm_se,
         {{ sqlmetrics.order_statistic(tail) }} AS sm_low,
         {{ sqlmetrics.order_statistic(1 - tail) }} AS sm_high
         {%- if paired %},
         CASE WHEN SUM(CASE WHEN sm_value <= 0 THEN 1 ELSE 0 END) < SUM(CASE WHEN sm_value >= 0 THEN 1 ELSE 0 END)
              THEN SUM(CASE WHEN sm_value <= 0 THEN 1 ELSE 0 END) ELSE SUM(CASE WHEN sm_value >= 0 THEN 1 ELSE 0 END)
         END AS sm_fewer_side
         {%- endif %}
  FROM sm_ordered
  {{ sqlmetrics.group_by(by) }}
)
SELECT {{ sqlmetrics.qualified_cols(by, 'sm_estimated') }}
       {%- if paired %}
       sm_estimated.sm_a AS estimate, sm_estimated.sm_b AS other_estimate, sm_estimated.sm_estimate AS difference,
       sm_spread.sm_se AS std_error,
       CASE WHEN sm_spread.sm_se > 0 THEN {{ sqlmetrics.fdiv('sm_estimated.sm_estimate', 'sm_spread.sm_se') }}
            WHEN sm_spread.sm_se = 0 AND sm_estimated.sm_estimate = 0 THEN 0 END AS statistic,
       CASE WHEN 2 * (1 + sm_spread.sm_fewer_side) < 1 + sm_spread.sm_replicates_with_value
            THEN {{ sqlmetrics.fdiv('2 * (1 + sm_spread.sm_fewer_side)', '1 + sm_spread.sm_replicates_with_value') }}
            WHEN sm_spread.sm_replicates_with_value > 0 THEN 1 END AS p_value,
       {%- else %}
       sm_estimated.sm_estimate AS estimate,
       sm_spread.sm_se AS std_error,
       {%- endif %}
       sm_spread.sm_low AS ci_low, sm_spread.sm_high AS ci_high,
       COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_boot,
       {{ n_boot }} - COALESCE(sm_spread.sm_replicates_with_value, 0) AS n_undefined
FROM sm_estimated
LEFT JOIN sm_spread
  {% if by %}ON {{ sqlmetrics.null_safe_join_on(by, 'sm_estimated', 'sm_spread') }}{% else %}ON 1 = 1{% endif %}
{% endmacro %}

{#- The p-quantile of the sm_value of a group of sm_ordered (sm_rank 1..sm_n), as numpy's default:
    h = p (sm_n - 1), the order statistic at floor(h) plus the fraction of the way to the next. -#}
{% macro order_statistic(p) -%}
{%- set h %}({{ p }} * (MAX(sm_n) - 1)){% endset -%}
{%- set floor_h %}FLOOR({{ p }} * (sm_n - 1)){% endset -%}
(MAX(CASE WHEN sm_rank = {{ floor_h }} + 1 THEN sm_value END)
 + ({{ h }} - MAX(FLOOR({{ p }} * (sm_n - 1))))
   * (COALESCE(MAX(CASE WHEN sm_rank = {{ floor_h }} + 2 THEN sm_value END),
               MAX(CASE WHEN sm_rank = {{ floor_h }} + 1 THEN sm_value END))
      - MAX(CASE WHEN sm_rank = {{ floor_h }} + 1 THEN sm_value END)))
{%- endmacro %}

{#- One row per replicate, sm_replicate = first .. n: crossed tables of the ten digits (no series
    function is common to every engine). -#}
{% macro replicate_numbers(n, first=0) %}
{%- set places = (n | string) | length %}
SELECT sm_replicate FROM (
  SELECT {% for i in range(places) %}sm_d{{ i }}.sm_digit * {{ 10 ** i }}{{ " + " if not loop.last }}{% endfor %} AS sm_replicate
  FROM {% for i in range(places) %}(SELECT 0 AS sm_digit{% for d in range(1, 10) %} UNION ALL SELECT {{ d }}{% endfor %}) AS sm_d{{ i }}
       {{- " CROSS JOIN " if not loop.last }}{% endfor %}
) AS sm_numbers
WHERE sm_replicate <= {{ n }}{% if first %} AND sm_replicate >= {{ first }}{% endif %}
{% endmacro %}

{#- The rows of `units` (with sm_unit, the unit's hash: an integer in [0, M), M = 2^31 - 1) for each
    row of `replicates` (sm_replicate), with sm_uniform in [0, 1) drawn from the unit, the replicate
    and the seed: the three combined, then two rounds of squaring modulo M between multiplications
    (Park & Miller's 48271 and 16807). Integer arithmetic below 2^63 on
    every engine, and no longer linear in the replicate, so that a unit's draws in successive
    replicates are not shifted copies of each other. The unit's and the replicate's parts of the
    first step are computed once each (unit_seeded, replicate_seeded), not once per pair (PostgreSQL's
    AUC replicates hash those two parts together instead: auc_replicates). -#}
{% macro unit_uniform(units, replicates, seed) -%}
SELECT sm_second.*, {{ sqlmetrics.uniform_of('sm_r3') }} AS sm_uniform
FROM (
  SELECT sm_first.*, {{ sqlmetrics.uniform_mixed('sm_r1', 'sm_unit') }} AS sm_r3
  FROM (
    SELECT sm_seeded_units.*, sm_seeds.sm_replicate,
           {{ sqlmetrics.uniform_seeded('sm_seeded_units.sm_unit_seeded', 'sm_seeds.sm_offset') }} AS sm_r1
    FROM (
      SELECT {{ units }}.*, {{ sqlmetrics.unit_seeded('sm_unit', seed) }} AS sm_unit_seeded FROM {{ units }}
    ) AS sm_seeded_units
    CROSS JOIN (
      SELECT sm_replicate, {{ sqlmetrics.replicate_seeded('sm_replicate') }} AS sm_offset FROM {{ replicates }}
    ) AS sm_seeds
    {{ sqlmetrics.computed_once() }}
  ) AS sm_first
  {{ sqlmetrics.computed_once() }}
) AS sm_second
{{ sqlmetrics.computed_once() }}
{%- endmacro %}

{#- unit_uniform's steps as expressions, each of a column holding the step before (which it reads
    twice): the first, MOD(MOD(unit + replicate * 1000003 + the seed's, M) * 48271, M), as the sum
    modulo M of its unit's part and its replicate's (equal modulo M: every product stays below
    2^63); of that and the unit's hash; the uniform. -#}
{% macro unit_seeded(unit, seed) -%}
MOD(({{ unit }} + {{ (seed * 999983 + 1) % 2147483647 }}) * 48271, 2147483647)
{%- endmacro %}

{% macro replicate_seeded(replicate) -%}
MOD(CAST({{ replicate }} AS BIGINT) * 1000003 * 48271, 2147483647)
{%- endmacro %}

{% macro uniform_seeded(unit_seeded, replicate_seeded) -%}
MOD({{ unit_seeded }} + {{ replicate_seeded }}, 2147483647)
{%- endmacro %}

{% macro uniform_mixed(r, unit) -%}
MOD(MOD({{ r }} * {{ r }} + 12345, 2147483647) * 16807 + {{ unit }}, 2147483647)
{%- endmacro %}

{% macro uniform_of(r) -%}
{{ sqlmetrics.as_double('MOD(MOD(' ~ r ~ ' * ' ~ r ~ ' + 54321, 2147483647) * 48271, 2147483647)') }} / 2147483647
{%- endmacro %}

{#- The Poisson(1) distribution function at 0 .. 12, e^-1 * sum_{j <= k} 1/j! (computed here, at render
    time): k = 13 beyond, a chance below 1e-10. -#}
{% macro poisson_distribution() -%}
{%- set ns = namespace(term=2.718281828459045 ** -1, total=0.0, at=[]) -%}
{%- for k in range(13) %}
{%- set ns.total = ns.total + ns.term %}
{%- set ns.at = ns.at + [ns.total] %}
{%- set ns.term = ns.term / (k + 1) %}
{%- endfor %}
{{- return(ns.at) }}
{%- endmacro %}

{#- k ~ Poisson(1) from a uniform u in [0, 1): the smallest k whose distribution function exceeds u. -#}
{% macro poisson_one(u) -%}
CASE
{%- for total in sqlmetrics.poisson_distribution() %}
  WHEN {{ u }} < {{ '%.17g' | format(total) }} THEN {{ loop.index0 }}
{%- endfor %}
  ELSE 13 END
{%- endmacro %}

{#- k ~ Poisson(1), a DOUBLE, from h, a 64-bit hash taken as uniform over the BIGINTs: u = (h + 2^63) / 2^64
    compared as poisson_one compares it, h with the thresholds 2^64 F(k) - 2^63 (integers: F(k) >= 1/4
    has no bit below 2^-55). -#}
{% macro poisson_of_hash(h) -%}
CASE
{%- for total in sqlmetrics.poisson_distribution() %}
  WHEN {{ h }} < {{ (total * 2 ** 64) | int - 2 ** 63 }} THEN {{ sqlmetrics.as_double(loop.index0) }}
{%- endfor %}
  ELSE {{ sqlmetrics.as_double(13) }} END
{%- endmacro %}

{#- Ends a derived table whose columns the query around it reads more than once (a draw's steps,
    each read twice or, by poisson_one, 13 times). PostgreSQL pulls such a subquery up into the
    query and evaluates its expression at each reference, so that a Poisson draw computed its hash
    chain 52 times, and its JIT compiled every copy (24 s of a 27 s bootstrap of 200,000 rows):
    there OFFSET 0, which keeps the subquery, its columns computed once; elsewhere nothing. -#}
{% macro computed_once() -%}
{{ 'OFFSET 0' if sqlmetrics.substitutes_subqueries() }}
{%- endmacro %}

{#- Whether auc_replicates computes its chunks of replicates one after the other, a LATERAL subquery each
    (a fact, not SQL), rather than all in one aggregation. PostgreSQL's one aggregation of every chunk's
    keys (200 replicates of 200,000 distinct scores: 850,000 groups at 10% positives, 3.7M for balanced
    classes) outgrows its work_mem and spills (390 MB), and its running sums sort them all again: 8.7 s
    and 14.6 s. One chunk at a time, sorted by key, is aggregated and summed as it streams: 3.9 s and
    5.5 s (with the fewer keys and the hashed draws of auc_replicates). -#}
{% macro chunks_in_turn() -%}
{{ return(adapter.dispatch('chunks_in_turn', 'sqlmetrics')()) }}
{%- endmacro %}

{% macro default__chunks_in_turn() -%}
{{ return(false) }}
{%- endmacro %}

{% macro postgres__chunks_in_turn() -%}
{{ return(true) }}
{%- endmacro %}

{#- built on PostgreSQL's adapter, without its LATERAL or hashint8extended -#}
{% macro redshift__chunks_in_turn() -%}
{{ return(false) }}
{%- endmacro %}

{#- Whether the engine evaluates a derived table's column at each reference of the query around it
    (a fact, not SQL). DuckDB, Spark and ClickHouse compute a common expression once. -#}
{% macro substitutes_subqueries() -%}
{{ return(adapter.dispatch('substitutes_subqueries', 'sqlmetrics')()) }}
{%- endmacro %}

{% macro default__substitutes_subqueries() -%}
{{ return(false) }}
{%- endmacro %}

{% macro postgres__substitutes_subqueries() -%}
{{ return(true) }}
{%- endmacro %}

{#- built on PostgreSQL's adapter; a cluster, where OFFSET would gather the rows to one node -#}
{% macro redshift__substitutes_subqueries() -%}
{{ return(false) }}
{%- endmacro %}

{#- A resampling unit (the `columns` of a row; a slice column may be NULL) as an integer in
    [0, 2^31 - 1): the engine's own hash of the values, so that it is computed row by row, in
    parallel; the unit's draws are the same on every run of one engine, not across engines (their
    hash functions differ). -#}
{% macro unit_hash(columns) -%}
{{ return(adapter.dispatch('unit_hash', 'sqlmetrics')(columns)) }}
{%- endmacro %}

{% macro default__unit_hash(columns) -%}
CAST(hash({{ sqlmetrics.col_list(columns) }}) % 2147483647 AS BIGINT)
{%- endmacro %}

{% macro spark__unit_hash(columns) -%}
pmod(xxhash64({{ sqlmetrics.col_list(columns) }}), 2147483647)
{%- endmacro %}

{#- ClickHouse's hash of a NULL argument is NULL; of a tuple holding one, a number. -#}
{% macro clickhouse__unit_hash(columns) -%}
CAST(cityHash64(tuple({{ sqlmetrics.col_list(columns) }})) % 2147483647 AS BIGINT)
{%- endmacro %}

{#- PostgreSQL (and Redshift) hash text: the values joined with a separator no value has. -#}
{% macro postgres__unit_hash(columns) -%}
MOD(MOD(hashtextextended(CONCAT_WS(CHR(31){% for c in columns %}, CAST({{ sqlmetrics.ident(c) }} AS TEXT){% endfor %}), 0), 2147483647) + 2147483647, 2147483647)
{%- endmacro %}

{#- SQLite has no hash function: a unit's rank among the distinct units instead (a sort of the
    units, which a single-machine engine can afford). -#}
{% macro sqlite__unit_hash(columns) -%}
DENSE_RANK() OVER (ORDER BY {% for c in columns %}{{ sqlmetrics.ident(c) }} NULLS LAST{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}

{% macro bigquery__unit_hash(columns) -%}
ABS(MOD(FARM_FINGERPRINT(TO_JSON_STRING(STRUCT({{ sqlmetrics.col_list(columns) }}))), 2147483647))
{%- endmacro %}

{% macro snowflake__unit_hash(columns) -%}
ABS(MOD(HASH({{ sqlmetrics.col_list(columns) }}), 2147483647))
{%- endmacro %}

{% macro trino__unit_hash(columns) -%}
ABS(MOD(from_big_endian_64(xxhash64(to_utf8(CONCAT_WS(CHR(31){% for c in columns %}, CAST({{ sqlmetrics.ident(c) }} AS VARCHAR){% endfor %})))), 2147483647))
{%- endmacro %}

{#- Redshift's FNV_HASH takes one value and chains: FNV_HASH(b, FNV_HASH(a)); each value as text,
    '' for NULL (a slice may be NULL; FNV_HASH of NULL is not documented). -#}
{% macro redshift__unit_hash(columns) -%}
{%- set text = [] %}
{%- for c in columns %}{% set _ = text.append('NVL(CAST(' ~ sqlmetrics.ident(c) ~ ' AS VARCHAR(MAX)), \'\')') %}{% endfor %}
{%- set chain = namespace(hash='FNV_HASH(' ~ text[0] ~ ')') %}
{%- for t in text[1:] %}{% set chain.hash = 'FNV_HASH(' ~ t ~ ', ' ~ chain.hash ~ ')' %}{% endfor -%}
ABS(MOD({{ chain.hash }}, 2147483647))
{%- endmacro %}

{% macro mysql__unit_hash(columns) -%}
MOD(CRC32(CONCAT_WS(CHAR(31){% for c in columns %}, {{ sqlmetrics.ident(c) }}{% endfor %})), 2147483647)
{%- endmacro %}
