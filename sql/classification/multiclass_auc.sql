{#- Multi-class AUC from a long table of class scores (class_rows), as
    sklearn.metrics.roc_auc_score(y, P, multi_class=..., average=..., labels=classes): AUCs of
    binary slices of the rows, each auc_parts over a key (its plans, parallel on distributed
    engines), then averaged.
    'ovr': per class c, the AUC of [label = c] by the score of c (every example has a row per
    class); macro: their mean, NULL when a class has no positive or no negative weight; weighted:
    the mean weighted by the classes' positive weight, classes of zero weight left out (sklearn
    forces their score to 0 with weight 0).
    'ovo' (Hand & Till 2001): per ordered pair (j, k) of classes, A(j|k) = the AUC of the examples
    of class j (positives) against those of class k (negatives) by the score of j. A row
    (example, c, s) of true class t is a positive of every pair (t, k), k <> t, when c = t (a join
    with the table of pairs), and a negative of the pair (c, t) when c <> t: about twice the rows,
    no join of examples with examples. Pairs of classes both true in the slice are averaged (both
    orders equally often: the mean of (A(j|k) + A(k|j)) / 2 over unordered pairs), weighted by the
    pair's examples n_j + n_k for 'weighted'; unweighted, as sklearn, which takes no sample weight
    for 'ovo'. `counts` instead of weight: a column of the example's whole number of copies (equal on
    its rows), for ovo too: the AUCs and n_j of the examples so repeated, as the bootstrap's
    replicates count them (sql/bootstrap.sql resampled_metric). -#}
{% macro multiclass_auc(relation, example='example', class_='class', score='score', label=none, labels=none,
                        weight=none, multi_class='ovr', average='macro', by=[], plan=none, counts=none) %}
{%- if multi_class == 'ovo' and weight %}{{ sqlmetrics.fail("multi_class='ovo' takes no weight (Hand and Till's AUC, as sklearn's, has no sample weights): use multi_class='ovr'") }}{% endif %}
{%- if weight and counts %}{{ sqlmetrics.fail('give weight or counts, not both') }}{% endif %}
{%- set weight = weight or counts %}
{%- set plan = plan or sqlmetrics.default_plan() %}
{%- if multi_class == 'ovr' %}
{%- set rows %}({{ sqlmetrics.class_rows(relation, example, class_, score, label, labels, weight, by) }}) AS sm_class_rows{% endset %}
{%- set parts = sqlmetrics.auc_parts(rows, 'sm_true', 'sm_score', 'sm_w' if weight else none, by + ['sm_class'], plan) %}
{%- set used %}sm_w_pos > 0{% endset %}
{%- set n %}MAX(sm_n){% endset %}
{%- else %}
{%- set classes %}(SELECT DISTINCT {{ sqlmetrics.ident(class_) }} AS sm_k FROM {{ relation }}){% endset %}
{#- (row class, row label) -> negative class: (j, j) -> every k <> j (positives), (j, k) -> k (negatives) #}
{%- set pairs %}
SELECT sm_j.sm_k AS sm_a, sm_j.sm_k AS sm_b, sm_other.sm_k AS sm_neg
FROM {{ classes }} AS sm_j CROSS JOIN {{ classes }} AS sm_other
WHERE sm_j.sm_k <> sm_other.sm_k
UNION ALL
SELECT sm_j.sm_k AS sm_a, sm_other.sm_k AS sm_b, sm_other.sm_k AS sm_neg
FROM {{ classes }} AS sm_j CROSS JOIN {{ classes }} AS sm_other
WHERE sm_j.sm_k <> sm_other.sm_k
{%- endset %}
{%- set paired %}({{ sqlmetrics.class_rows(relation, example, class_, score, label, labels, weight, by, pairs=pairs) }}) AS sm_paired{% endset %}
{%- set parts = sqlmetrics.auc_parts(paired, 'sm_true', 'sm_score', 'sm_w' if weight else none, by + ['sm_class', 'sm_neg'], plan) %}
{#- both classes of the pair true: of weight above 0 (the counts of the rows, unweighted) -#}
{%- set used %}sm_w_pos > 0 AND sm_w_neg > 0{% endset %}
{#- the positives of class j are counted once in each of its k - 1 pairs -#}
{%- set n %}ROUND({{ sqlmetrics.fdiv('SUM(sm_n_pos)', sqlmetrics.class_count(relation, class_) ~ ' - 1') }}){% endset %}
{%- endif %}
{%- set auc = sqlmetrics.fdiv('sm_wins', 'sm_w_pos') %}
SELECT {{ sqlmetrics.cols(by) }}
       {%- if average == 'macro' and multi_class == 'ovr' %}
       CASE WHEN COUNT({{ auc }}) = COUNT(*) THEN AVG({{ auc }}) END AS multiclass_auc,
       {%- elif average == 'macro' %}
       AVG(CASE WHEN {{ used }} THEN {{ auc }} END) AS multiclass_auc,
       {%- else %}
       {%- set prevalence = 'sm_w_pos' if multi_class == 'ovr' else '(sm_w_pos + sm_w_neg)' %}
       CASE WHEN COUNT(CASE WHEN {{ used }} AND {{ auc }} IS NULL THEN 1 END) = 0
            THEN {{ sqlmetrics.fdiv('SUM(CASE WHEN ' ~ used ~ ' THEN ' ~ prevalence ~ ' * ' ~ auc ~ ' END)',
                                    'SUM(CASE WHEN ' ~ used ~ ' THEN ' ~ prevalence ~ ' END)') }} END AS multiclass_auc,
       {%- endif %}
       CAST({{ n }} AS BIGINT) AS n,
       CAST({{ sqlmetrics.class_count(relation, class_) }} AS BIGINT) AS n_classes
{#- no subquery more than needed: SQLite's parser fails on deeper nesting of the parallel plan #}
FROM ({{ parts }}) AS sm_parts
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
