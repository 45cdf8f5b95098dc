{#- Reciprocal rank = 1 / rank of the first relevant item within k, else 0; MRR is the mean over
    queries. Reference: pytrec_eval recip_rank. Its parts: the one definition its own call and
    evaluate share (see evaluate). -#}
{% macro mrr_parts(v, in_k, within, k, options={}) -%}
{%- set first %}MAX(CASE WHEN {% if within %}{{ within }} AND {% endif %}sm_relevant = 1 THEN 1 / {{ sqlmetrics.as_double('sm_pos') }} ELSE 0 END) AS {{ v }}{% endset %}
{{ return({'aggregates': [first], 'value': v, 'nonempty': 'sm_n_relevant', 'needs': []}) }}
{%- endmacro %}
