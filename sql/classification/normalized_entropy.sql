{#- Normalized entropy (He et al. 2014, "Practical lessons from predicting clicks on ads at
    Facebook"): the log loss over the entropy of the base rate, NE = log_loss / H(p),
    p = sum w*y / sum w and H(p) = -p*ln(p) - (1-p)*ln(1-p) (nats, as the log loss): the log loss of
    always predicting the base rate. Below 1: better than that constant. NULL when p is 0 or 1 (one
    class: H(p) = 0) or the slice weighs nothing. base_rate is p. -#}
{% macro normalized_entropy(relation, label, score, weight=none, by=[]) %}
{#- 1 - p from the negatives' own weight: rounding cannot make it 0 (LN(0) fails on PostgreSQL) -#}
SELECT {{ sqlmetrics.cols(by) }}
       CASE WHEN sm_rate > 0 AND sm_other > 0
            THEN {{ sqlmetrics.fdiv('log_loss', '-(sm_rate * LN(sm_rate) + sm_other * LN(sm_other))') }} END
         AS normalized_entropy,
       log_loss, sm_rate AS base_rate, n, n_pos, n_neg
FROM (
  SELECT {{ sqlmetrics.cols(by) }}
         {{ sqlmetrics.fdiv('sm_loss', 'sm_weight') }} AS log_loss,
         {{ sqlmetrics.fdiv('sm_pos_weight', 'sm_weight') }} AS sm_rate,
         {{ sqlmetrics.fdiv('sm_weight - sm_pos_weight', 'sm_weight') }} AS sm_other,
         n, n_pos, n_neg
  FROM ({{ sqlmetrics.probability_sums(relation, label, score, weight, by, sqlmetrics.log_loss_term()) }}) AS sm_sums
) AS sm_rates
{% endmacro %}
