{#- The pairs (a ranked above b) of the top-k rows of each query of sm_ranked (ranked_rows), as a
    FROM clause of the aliases sm_a and sm_b: the correlation metrics' self-join. O(n^2) per query,
    so meant for ranked lists, not whole catalogues. -#}
{% macro ranked_pairs(keys) -%}
sm_ranked AS sm_a
JOIN sm_ranked AS sm_b
  ON {{ sqlmetrics.join_on(keys, 'sm_a', 'sm_b') }} AND sm_a.sm_pos < sm_b.sm_pos
WHERE sm_a.sm_in_k = 1 AND sm_b.sm_in_k = 1
{%- endmacro %}

{#- sign(x_a - x_b) without subtracting (infinite scores stay comparable). -#}
{% macro sign_of(a, b) -%}
CASE WHEN {{ a }} > {{ b }} THEN 1 WHEN {{ a }} < {{ b }} THEN -1 ELSE 0 END
{%- endmacro %}
