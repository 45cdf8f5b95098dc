{#- The normal distribution, for intervals and p-values.

    normal_tail(x): P(Z > x) for a column or expression x >= 0, as SQL (every engine has EXP): Hart's
    algorithm 5666 (Hart et al., Computer Approximations, 1968; as given by West, "Better
    approximations to cumulative normal functions", Wilmott 2005): absolute error below 1e-15,
    relative error below 1e-13 up to x = 3 (p = 0.0013) and below 1e-8 up to x = 37; beyond, where
    the tail is below 6e-300, 0. `x` is read many times: pass a column. -#}
{% macro normal_tail(x) -%}
{%- set numerator -%}
((((((0.03526249659989109 * {{ x }} + 0.7003830644436881) * {{ x }} + 6.373962203531650) * {{ x }} + 33.91286607838300)
   * {{ x }} + 112.0792914978709) * {{ x }} + 221.2135961699311) * {{ x }} + 220.2068679123761)
{%- endset -%}
{%- set denominator -%}
(((((((0.08838834764831844 * {{ x }} + 1.755667163182642) * {{ x }} + 16.06417757920695) * {{ x }} + 86.78073220294608)
    * {{ x }} + 296.5642487796737) * {{ x }} + 637.3336333788311) * {{ x }} + 793.8265125199484) * {{ x }} + 440.4137358247522)
{%- endset -%}
{#- for x >= 7.07: the continued fraction x + 1/(x + 2/(x + 3/(x + 4/(x + 0.65)))), every part > 0 -#}
{%- set cf = namespace(fraction=sqlmetrics.fdiv(4, x ~ ' + 0.65')) %}
{%- for i in (3, 2, 1) %}{% set cf.fraction = sqlmetrics.fdiv(i, x ~ ' + ' ~ cf.fraction) %}{% endfor -%}
CASE WHEN {{ x }} > 37 THEN 0
     WHEN {{ x }} < 7.07106781186547
     THEN EXP(-{{ x }} * {{ x }} / 2) * {{ sqlmetrics.fdiv(numerator, denominator) }}
     ELSE {{ sqlmetrics.fdiv('EXP(-' ~ x ~ ' * ' ~ x ~ ' / 2)', '(' ~ x ~ ' + ' ~ cf.fraction ~ ') * 2.506628274631001') }}
END
{%- endmacro %}

{#- The z with P(Z > z) = `tail` (0 < tail < 1/2), as a DOUBLE literal: computed here, at render
    time, by bisection on the same approximation of the tail as normal_tail (so an interval and a
    p-value agree): within 1e-15 of the exact quantile for the usual confidence levels. Jinja has no math library; `e ** y` is its exponential. -#}
{% macro normal_quantile(tail) -%}
{%- set ns = namespace(lo=0.0, hi=37.0) %}
{%- for i in range(80) %}
{%- set x = (ns.lo + ns.hi) / 2 %}
{%- set density = 2.718281828459045 ** (-x * x / 2) %}
{%- if x < 7.07106781186547 %}
{%- set above = density * ((((((0.03526249659989109 * x + 0.7003830644436881) * x + 6.373962203531650) * x
                               + 33.91286607838300) * x + 112.0792914978709) * x + 221.2135961699311) * x
                            + 220.2068679123761)
                / (((((((0.08838834764831844 * x + 1.755667163182642) * x + 16.06417757920695) * x
                       + 86.78073220294608) * x + 296.5642487796737) * x + 637.3336333788311) * x
                    + 793.8265125199484) * x + 440.4137358247522) %}
{%- else %}
{%- set above = density / (x + 1 / (x + 2 / (x + 3 / (x + 4 / (x + 0.65))))) / 2.506628274631001 %}
{%- endif %}
{%- if above > tail %}{% set ns.lo = x %}{% else %}{% set ns.hi = x %}{% endif %}
{%- endfor %}
{{- sqlmetrics.as_double('%.17e' | format((ns.lo + ns.hi) / 2)) }}
{%- endmacro %}

{#- The rows of `source` (a CTE of one row per slice `by`, with a p-value column `p`) with
    p_value_holm: Holm's (1979) step-down adjustment across the slices. With the m non-NULL p-values
    in ascending order, the i-th becomes min(1, max over j <= i of (m - j + 1) p_(j)); equal p-values
    get the same adjusted value whichever comes first. Windows over the result rows (one per slice),
    not over the data. -#}
{% macro with_holm(source, p) -%}
{%- set ordered %}ORDER BY CASE WHEN {{ p }} IS NULL THEN 1 ELSE 0 END, {{ p }}{% endset -%}
{%- set running %}MAX(sm_holm_term) OVER ({{ ordered }} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW){% endset -%}
SELECT sm_holm_terms.*,
       CASE WHEN {{ p }} IS NULL THEN NULL WHEN {{ running }} > 1 THEN 1 ELSE {{ running }} END AS p_value_holm
FROM (
  SELECT {{ source }}.*,
         CASE WHEN {{ p }} IS NOT NULL THEN (COUNT({{ p }}) OVER () - ROW_NUMBER() OVER ({{ ordered }}) + 1) * {{ p }}
         END AS sm_holm_term
  FROM {{ source }}
) AS sm_holm_terms
{%- endmacro %}

{#- `x`, or 0 where rounding left a sum of squared deviations a hair below 0 (SQRT would fail on
    PostgreSQL and give NaN elsewhere). -#}
{% macro nonnegative(x) -%}
CASE WHEN {{ x }} > 0 THEN {{ x }} ELSE 0 END
{%- endmacro %}
