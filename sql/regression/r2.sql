{#- R^2 = 1 - sum w*(y - p)^2 / sum w*(y - mean_w(y))^2, with the weighted mean taken first (two
    passes: no cancellation). As sklearn (force_finite): a constant target gives 1.0 when predicted
    exactly, else 0.0; fewer than two rows give NULL. Reference: sklearn r2_score. -#}
{% macro r2(relation, target, prediction, weight=none, by=[]) %}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN n < 2 OR sm_weight = 0 THEN NULL
            WHEN sm_constant = 1 THEN CASE WHEN sm_residual = 0 THEN 1.0 ELSE 0.0 END
            ELSE 1 - sm_residual / sm_total END AS r2,
       n
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         SUM(sm_w * (sm_t - sm_p) * (sm_t - sm_p)) AS sm_residual,
         SUM(sm_w * (sm_t - sm_mean) * (sm_t - sm_mean)) AS sm_total,
         SUM(sm_w) AS sm_weight,
         {#- a constant target, tested exactly: its computed variance may be a rounding residue #}
         CASE WHEN MIN(CASE WHEN sm_w > 0 THEN sm_t END) = MAX(CASE WHEN sm_w > 0 THEN sm_t END)
              THEN 1 ELSE 0 END AS sm_constant,
         COUNT(*) AS n
  FROM (
    SELECT sm_rows.*,
           SUM(sm_w * sm_t) OVER ({{ sqlmetrics.partition_by(by) }})
             / NULLIF(SUM(sm_w) OVER ({{ sqlmetrics.partition_by(by) }}), 0) AS sm_mean
    FROM ({{ sqlmetrics.regression_rows(relation, target, prediction, weight, by) }}) AS sm_rows
  ) AS sm_centered
  {{ sqlmetrics.group_by(by) }}
) AS sm_sums
{% endmacro %}
