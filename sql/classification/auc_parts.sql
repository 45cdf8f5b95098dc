{#- Mann-Whitney parts of AUC per partition `keys`: sm_n, sm_n_pos, sm_w_pos, sm_w_neg, and
    U = sum over (pos i, neg j) of w_i*w_j*([s_i > s_j] + 1/2*[s_i = s_j]) divided by the negative
    weight: sm_wins = U / sm_w_neg, so AUC = sm_wins / sm_w_pos (NULL when either weight is 0).
    Dividing before the sums keeps every term below a positive row's weight: U itself and
    W_pos*W_neg overflow a double with weights near 1e155 (and underflow to 0 near 1e-155).
    sm_ties (aggregate plan): the weight of positive-negative pairs with equal scores, also over sm_w_neg.
    plan='aggregate' (any engine, weights): one row per distinct score, then a running sum of the
      negative weight strictly below it. Cheap when scores repeat: the window sorts distinct scores only.
    plan='parallel' (any engine, weights): as 'aggregate', but no window spans all the distinct
      scores of a partition (auc_parts_from_buckets): for distributed engines.
    plan='rank' (unweighted): U = (sum over positives of (min rank + max rank)) / 2 - n_pos*(n_pos+1)/2
      from one sort of the rows (rank_sums); cheaper when nearly every score is distinct, and than a
      peer-aware window frame (RANGE/GROUPS) when ties are rare.
    plan='pairs' (unweighted, with `keys`: GAUC's groups): U counted pair by pair, each positive
      against each negative of its partition (a hash join on the keys), the counts from one
      aggregate: no sort, so cheaper than 'rank' when partitions are small (a million users'
      impressions on 10M rows: 1.1 s against 1.6 s, benchmarks/formulations.py), and quadratic in a partition's size: chosen
      only where the pairs are few (plans.PairsWhenGroupsSmall).
    plan='rank_buckets' (unweighted): 'rank' within buckets of the score, for more rows than one
      sort holds in memory (auc_parts_by_buckets). -#}
{#- Inputs are qualified where an output alias reuses their name: ClickHouse resolves a bare name
    to the alias of the same SELECT. -#}
{% macro auc_parts(relation, label, score, weight=none, keys=[], plan='aggregate') %}
{%- if plan == 'rank' and not weight %}
{%- set rows %}(SELECT {{ sqlmetrics.cols(keys) }} {{ sqlmetrics.is_positive(label) }} AS sm_pos, {{ sqlmetrics.ident(score) }} AS sm_x FROM {{ relation }}) AS sm_labelled{% endset %}
SELECT {{ sqlmetrics.cols(keys) }}
       CAST(sm_rank_sums.sm_n AS BIGINT) AS sm_n,
       CAST(COALESCE(sm_p, 0) AS BIGINT) AS sm_n_pos,
       {{ sqlmetrics.as_double('sm_p') }} AS sm_w_pos,
       {{ sqlmetrics.as_double('sm_rank_sums.sm_n - sm_p') }} AS sm_w_neg,
       {{ sqlmetrics.fdiv('sm_rank2 - sm_p * (sm_p + 1)', '2 * (sm_rank_sums.sm_n - sm_p)') }} AS sm_wins
FROM ({{ sqlmetrics.rank_sums(rows, keys) }}) AS sm_rank_sums
{%- elif plan == 'rank_buckets' and not weight %}
{{ sqlmetrics.auc_parts_by_buckets(relation, label, score, keys) }}
{%- elif plan == 'pairs' and not weight and keys %}
{%- set y = sqlmetrics.is_positive(label) %}
{%- set class_scores %}SELECT {{ sqlmetrics.cols(keys) }} {{ sqlmetrics.ident(score) }} AS sm_s FROM {{ relation }} WHERE {{ y }} = {% endset %}
SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_counts') }}
       sm_counts.sm_n AS sm_n,
       sm_counts.sm_n_pos AS sm_n_pos,
       {{ sqlmetrics.as_double('sm_counts.sm_n_pos') }} AS sm_w_pos,
       {{ sqlmetrics.as_double('sm_counts.sm_n - sm_counts.sm_n_pos') }} AS sm_w_neg,
       {{ sqlmetrics.fdiv('COALESCE(sm_pairs.sm_u2, 0)', '2 * (sm_counts.sm_n - sm_counts.sm_n_pos)') }} AS sm_wins
FROM (
  SELECT {{ sqlmetrics.cols(keys) }} CAST(COUNT(*) AS BIGINT) AS sm_n, CAST(SUM({{ y }}) AS BIGINT) AS sm_n_pos
  FROM {{ relation }}
  {{ sqlmetrics.group_by(keys) }}
) AS sm_counts
LEFT JOIN (
  SELECT {{ sqlmetrics.qualified_cols(keys, 'sm_p') }}
         SUM(CASE WHEN sm_p.sm_s > sm_q.sm_s THEN 2 WHEN sm_p.sm_s = sm_q.sm_s THEN 1 ELSE 0 END) AS sm_u2
  FROM ({{ class_scores }}1) AS sm_p
  JOIN ({{ class_scores }}0) AS sm_q ON {{ sqlmetrics.null_safe_join_on(keys, 'sm_p', 'sm_q') }}
  GROUP BY {{ sqlmetrics.col_list_of(keys, 'sm_p') }}
) AS sm_pairs ON {{ sqlmetrics.null_safe_join_on(keys, 'sm_counts', 'sm_pairs') }}
{%- else %}
{%- set weight_sum %}{% if weight %}SUM({{ sqlmetrics.row_weight(weight) }}){% else %}COUNT(*){% endif %}{% endset %}
{%- set sums %}
SELECT {{ sqlmetrics.cols(keys) }}
       sm_s,
       SUM(sm_rows) AS sm_n,
       SUM(sm_pos * sm_rows) AS sm_n_pos,
       {{ sqlmetrics.as_double('SUM(sm_pos * sm_weight)') }} AS sm_w_pos,
       {{ sqlmetrics.as_double('SUM((1 - sm_pos) * sm_weight)') }} AS sm_w_neg
FROM ({{ sqlmetrics.labelled_groups(relation, label, score, keys, 'sm_s', weight_sum,
                                  sqlmetrics.row_weight(weight) if plan == 'parallel' else none) }}) AS sm_by_label
GROUP BY {{ sqlmetrics.cols(keys) }}sm_s
{%- endset %}
{%- if plan == 'parallel' %}
{{ sqlmetrics.auc_parts_from_buckets(sums, keys) }}
{%- else %}
{{ sqlmetrics.auc_parts_from_sums(sums, keys) }}
{%- endif %}
{%- endif %}
{% endmacro %}

{#- auc_parts' rank plan with the rows ranked within buckets of their score (parallel.sql's
    monotone_bucket: about 1024 per power of two), a window partitioned by (keys, bucket): DuckDB
    partitions such a window's rows by a hash of that key and sorts each partition on its own, in
    memory, where one sort of more rows than its memory limit holds merges its runs from disk (a
    billion rows: benchmarks/spill.py). Exact as the rank plan: ties never straddle two buckets, a
    positive outranks every negative of the buckets below its own (a window over the small table of
    one row per bucket), and its rank within its bucket orders it against the rest. -#}
{% macro auc_parts_by_buckets(relation, label, score, keys) %}
{%- set rows %}SELECT {{ sqlmetrics.cols(keys) }} {{ sqlmetrics.is_positive(label) }} AS sm_pos, {{ sqlmetrics.ident(score) }} AS sm_s FROM {{ relation }}{% endset %}
{%- set n = 'sm_ranked_buckets.sm_n' %}
SELECT {{ sqlmetrics.cols(keys) }}
       CAST(SUM({{ n }}) AS BIGINT) AS sm_n,
       CAST(COALESCE(SUM(sm_p), 0) AS BIGINT) AS sm_n_pos,
       {{ sqlmetrics.as_double('SUM(sm_p)') }} AS sm_w_pos,
       {{ sqlmetrics.as_double('SUM(' ~ n ~ ') - SUM(sm_p)') }} AS sm_w_neg,
       {{ sqlmetrics.fdiv('SUM(sm_rank2 - sm_p * (sm_p + 1) + 2 * sm_p * COALESCE(sm_below, 0))', '2 * (SUM(' ~ n ~ ') - SUM(sm_p))') }} AS sm_wins
FROM (
  SELECT sm_buckets.*,
         SUM(sm_n - sm_p) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_bucket
                                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_below
  FROM ({{ sqlmetrics.rank_sums('(' ~ sqlmetrics.with_bucket(rows, 'sm_s') ~ ') AS sm_bucketed', keys + ['sm_bucket']) }}) AS sm_buckets
) AS sm_ranked_buckets
{{ sqlmetrics.group_by(keys) }}
{% endmacro %}

{#- Per partition `keys` of `rows` (a FROM item with the keys, sm_pos: 1 for a positive, 0 for a
    negative, and the score sm_x): sm_n, sm_p (the positives) and sm_rank2, twice the positives' rank
    sum, ranked by sm_x within the partition. A row's rank is its row number unless a neighbour in the
    sort shares its score (sm_tie): such rows are grouped by score, each group's ranks consecutive,
    each row taking their mean (its smallest row number plus (size - 1) / 2). Exact whatever the
    ties: integer sums. -#}
{% macro rank_sums(rows, keys) %}
{%- set w %}OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_x){% endset %}
SELECT {{ sqlmetrics.cols(keys) }}
       SUM(sm_tie_groups.sm_n) AS sm_n, SUM(sm_tie_groups.sm_p) AS sm_p, SUM(sm_tie_groups.sm_rank2) AS sm_rank2
FROM (
  SELECT {{ sqlmetrics.cols(keys) }} COUNT(*) AS sm_n, SUM(sm_pos) AS sm_p,
         CASE WHEN sm_tie IS NULL THEN 2 * SUM(sm_pos * sm_rn)
              ELSE SUM(sm_pos) * (2 * MIN(sm_rn) + COUNT(*) - 1) END AS sm_rank2
  FROM (
    SELECT {{ sqlmetrics.cols(keys) }} sm_pos,
           ROW_NUMBER() {{ w }} AS sm_rn,
           CASE WHEN LAG(sm_x) {{ w }} = sm_x OR LEAD(sm_x) {{ w }} = sm_x THEN sm_x END AS sm_tie
    FROM {{ rows }}
  ) AS sm_ranked
  GROUP BY {{ sqlmetrics.cols(keys) }}sm_tie
) AS sm_tie_groups
{{ sqlmetrics.group_by(keys) }}
{% endmacro %}

{#- auc_parts_from_sums in parallel: each distinct score gets its monotone_bucket (with_bucket), and the running sums run within each bucket (a window partitioned by keys and bucket, which a
    distributed engine spreads over its workers), while the negative weight of the buckets below
    comes from a window over the small table of one row per bucket. A pair in one bucket is decided
    by the scores, a pair across buckets by the bucket order. Each term is divided by a weight at
    least as large as its factor (the bucket's, then the partition's negative weight): no overflow. -#}
{% macro auc_parts_from_buckets(sums, keys) %}
{%- set in_bucket = keys + ['sm_bucket'] %}
SELECT {{ sqlmetrics.cols(keys) }}
       CAST(COALESCE(SUM(sm_cumulative.sm_n), 0) AS BIGINT) AS sm_n,
       CAST(COALESCE(SUM(sm_cumulative.sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
       SUM(sm_cumulative.sm_w_pos) AS sm_w_pos,
       SUM(sm_cumulative.sm_w_neg) AS sm_w_neg,
       SUM(COALESCE(sm_cumulative.sm_wins_in, 0) * (sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0))
           + sm_cumulative.sm_w_pos * (COALESCE(sm_cumulative.sm_w_neg_before, 0)
                                       / NULLIF(sm_cumulative.sm_w_neg_all, 0))) AS sm_wins,
       SUM(COALESCE(sm_cumulative.sm_ties_in, 0)
           * (sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0))) AS sm_ties
FROM (
  SELECT sm_buckets.*,
         SUM(sm_w_neg) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_bucket
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_w_neg_before,
         SUM(sm_w_neg) OVER ({{ sqlmetrics.partition_by(keys) }}) AS sm_w_neg_all
  FROM (
    SELECT {{ sqlmetrics.cols(in_bucket) }}
           SUM(sm_in_bucket.sm_n) AS sm_n,
           SUM(sm_in_bucket.sm_n_pos) AS sm_n_pos,
           SUM(sm_in_bucket.sm_w_pos) AS sm_w_pos,
           SUM(sm_in_bucket.sm_w_neg) AS sm_w_neg,
           SUM(sm_in_bucket.sm_w_pos * ((COALESCE(sm_in_bucket.sm_w_neg_below, 0) + 0.5 * sm_in_bucket.sm_w_neg)
                                        / NULLIF(sm_in_bucket.sm_w_neg_bucket, 0))) AS sm_wins_in,
           SUM(sm_in_bucket.sm_w_pos * (sm_in_bucket.sm_w_neg / NULLIF(sm_in_bucket.sm_w_neg_bucket, 0))) AS sm_ties_in
    FROM (
      SELECT sm_by_score.*,
             SUM(sm_w_neg) OVER ({{ sqlmetrics.partition_by(in_bucket) }} ORDER BY sm_s
                                 ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_w_neg_below,
             SUM(sm_w_neg) OVER ({{ sqlmetrics.partition_by(in_bucket) }}) AS sm_w_neg_bucket
      FROM ({{ sqlmetrics.with_bucket(sums, 'sm_s') }}) AS sm_by_score
    ) AS sm_in_bucket
    {{ sqlmetrics.group_by(in_bucket) }}
  ) AS sm_buckets
) AS sm_cumulative
{{ sqlmetrics.group_by(keys) }}
{% endmacro %}

{#- auc_parts from `sums`, a SELECT of one row per partition `keys` and distinct score sm_s with
    sm_n, sm_n_pos, sm_w_pos, sm_w_neg: a running sum of the negative weight strictly below each
    score, as a share of the partition's. Also what histogram_auc applies to stored bucket counts. -#}
{% macro auc_parts_from_sums(sums, keys) %}
SELECT {{ sqlmetrics.cols(keys) }}
       CAST(COALESCE(SUM(sm_n), 0) AS BIGINT) AS sm_n,
       CAST(COALESCE(SUM(sm_n_pos), 0) AS BIGINT) AS sm_n_pos,
       SUM(sm_w_pos) AS sm_w_pos,
       SUM(sm_w_neg) AS sm_w_neg,
       SUM(sm_cumulative.sm_w_pos * ((COALESCE(sm_cumulative.sm_w_neg_below, 0) + 0.5 * sm_cumulative.sm_w_neg)
                                     / NULLIF(sm_cumulative.sm_w_neg_all, 0))) AS sm_wins,
       SUM(sm_cumulative.sm_w_pos * (sm_cumulative.sm_w_neg / NULLIF(sm_cumulative.sm_w_neg_all, 0))) AS sm_ties
FROM (
  SELECT sm_by_score.*,
         SUM(sm_w_neg) OVER ({{ sqlmetrics.partition_by(keys) }} ORDER BY sm_s
                             ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS sm_w_neg_below,
         SUM(sm_w_neg) OVER ({{ sqlmetrics.partition_by(keys) }}) AS sm_w_neg_all
  FROM ({{ sums }}) AS sm_by_score
) AS sm_cumulative
{{ sqlmetrics.group_by(keys) }}
{% endmacro %}
