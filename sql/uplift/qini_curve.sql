{#- The Qini curve (scikit-uplift's qini_curve): after a first point (0, 0) at threshold +inf,
    one point per distinct score of non-zero weight, descending. -#}
{% macro qini_curve(relation, label, treatment, score, weight=none, by=[], plan=none) %}
{{ sqlmetrics.uplift_curve_points(relation, label, treatment, score, weight, by, 'qini', plan or sqlmetrics.default_plan()) }}
{% endmacro %}
