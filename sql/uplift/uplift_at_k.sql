{#- Uplift at k (scikit-uplift's uplift_at_k): the response rate of the treated rows less that of
    the control rows, among the top share k of the rows by score ('overall': the first
    floor(n * k) rows of all; 'by_group': the first floor(n_t * k) treated rows and floor(n_c * k)
    control rows, each group ordered on its own). A tie group straddling a cut-off is in it by its
    share (the cut-off's rows left in it over its rows): the expectation of the counts over the
    orders of its rows, which scikit-uplift leaves to its sort. NULL where the top holds no
    treated or no control row. -#}
{% macro uplift_at_k(relation, label, treatment, score, k=0.3, strategy='overall', by=[], plan=none) %}
{%- if strategy not in ('overall', 'by_group') %}{{ sqlmetrics.fail("strategy must be 'overall' or 'by_group'") }}{% endif %}
{%- if not (k > 0 and k < 1) %}{{ sqlmetrics.fail('k is the share of the rows at the top, between 0 and 1 (exclusive)') }}{% endif %}
{#- by_group orders each slice's treated and its control rows apart: the treatment is a key -#}
{%- set keys = by + (['sm_t'] if strategy == 'by_group' else []) %}
WITH {{ sqlmetrics.uplift_points(relation, label, treatment, score, none, keys, plan or sqlmetrics.default_plan()) }},
sm_top AS (
  SELECT {{ sqlmetrics.cols(by) }}
         {#- the share of the point's rows (sm_wt + sm_wc of them, after sm_before) above the cut-off -#}
         CASE WHEN sm_wt_run + sm_wc_run <= sm_cut THEN 1.0
              WHEN sm_wt_run + sm_wc_run - sm_wt - sm_wc >= sm_cut THEN 0.0
              ELSE {{ sqlmetrics.fdiv('sm_cut - (sm_wt_run + sm_wc_run - sm_wt - sm_wc)', 'sm_wt + sm_wc') }} END AS sm_in,
         sm_wt, sm_wc, sm_yt, sm_yc, sm_cut, sm_wt_all + sm_wc_all AS sm_n_all
  FROM (
    {#- scikit-uplift's int(n * k): the product rounded as a float, then truncated -#}
    SELECT sm_points.*, FLOOR({{ sqlmetrics.as_double("sm_wt_all + sm_wc_all") }} * {{ sqlmetrics.as_double(k) }}) AS sm_cut
    FROM sm_points
  ) AS sm_cut_points
)
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('SUM(sm_in * sm_yt)', 'SUM(sm_in * sm_wt)') }}
         - {{ sqlmetrics.fdiv('SUM(sm_in * sm_yc)', 'SUM(sm_in * sm_wc)') }} AS uplift_at_k,
       {{ sqlmetrics.fdiv('SUM(sm_in * sm_yt)', 'SUM(sm_in * sm_wt)') }} AS treatment_rate,
       {{ sqlmetrics.fdiv('SUM(sm_in * sm_yc)', 'SUM(sm_in * sm_wc)') }} AS control_rate,
       CAST(ROUND(SUM(sm_in * (sm_wt + sm_wc))) AS BIGINT) AS n_top,
       CAST(SUM(sm_wt + sm_wc) AS BIGINT) AS n
FROM sm_top
{{ sqlmetrics.group_by(by) }}
{% endmacro %}
