{#- The normalized area under the uplift curve: scikit-uplift's uplift_auc_score (convention
    'sklift') or causalml's auuc_score (convention 'causalml'); uplift_area has the definitions. -#}
{% macro uplift_auc(relation, label, treatment, score, weight=none, convention='sklift', by=[], plan=none) %}
{{ sqlmetrics.uplift_area(relation, label, treatment, score, weight, by, 'uplift', convention, true, plan or sqlmetrics.default_plan(), 'uplift_auc') }}
{% endmacro %}

{#- auuc: the short name of uplift_auc (as sm.auuc), same arguments. -#}
{% macro auuc(relation) %}
{{- sqlmetrics.uplift_auc(relation, *varargs, **kwargs) -}}
{% endmacro %}
