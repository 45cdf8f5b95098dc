{#- The uplift curve (scikit-uplift's uplift_curve): after a first point (0, 0) at threshold +inf,
    one point per distinct score of non-zero weight, descending. -#}
{% macro uplift_curve(relation, label, treatment, score, weight=none, by=[], plan=none) %}
{{ sqlmetrics.uplift_curve_points(relation, label, treatment, score, weight, by, 'uplift', plan or sqlmetrics.default_plan()) }}
{% endmacro %}
