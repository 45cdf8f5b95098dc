{#- The normalized area under the Qini curve (the Qini coefficient): scikit-uplift's
    qini_auc_score (convention 'sklift', with negative_effect) or causalml's qini_score
    (convention 'causalml'); uplift_area has the definitions. -#}
{% macro qini_auc(relation, label, treatment, score, weight=none, negative_effect=true, convention='sklift', by=[], plan=none) %}
{{ sqlmetrics.uplift_area(relation, label, treatment, score, weight, by, 'qini', convention, negative_effect, plan or sqlmetrics.default_plan(), 'qini_auc') }}
{% endmacro %}

{#- qini_coefficient: scikit-uplift's other name of qini_auc (as sm.qini_coefficient), same arguments. -#}
{% macro qini_coefficient(relation) %}
{{- sqlmetrics.qini_auc(relation, *varargs, **kwargs) -}}
{% endmacro %}
