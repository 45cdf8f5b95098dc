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

{#- The z with P(Z > z) = `tail` (0 < tail < 1/2), as the text of a number: computed here, at render
    time, by bisection on the same approximation of the tail as normal_tail (so an interval and a
    p-value agree): within 1e-15 of the exact quantile for the usual confidence levels. Jinja has no
    math library; `e ** y` is its exponential. -#}
{% macro normal_quantile_value(tail) -%}
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
{{- '%.17e' | format((ns.lo + ns.hi) / 2) }}
{%- endmacro %}

{#- normal_quantile_value as a DOUBLE literal. -#}
{% macro normal_quantile(tail) -%}
{{ sqlmetrics.as_double(sqlmetrics.normal_quantile_value(tail)) }}
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

{#- Student's t distribution with `df` (an integer column, >= 1) degrees of freedom: the two-sided
    p-value P(|T| > |t|) for a row per slice with columns t and df. Exact for df < 300, from the
    finite sums of Abramowitz & Stegun 26.7.3-4, y = df / (df + t^2), m = floor(df / 2):
      even df: P(|T| < t) = sqrt(1 - y) * sum_{k<m} c_k y^k,          c_k = prod_{j<=k} (2j-1)/(2j)
      odd df:  P(|T| < t) = 2/pi * (atan(|t| / sqrt(df)) + sqrt(y (1 - y)) * sum_{k<m} d_k y^k),
                                                                       d_k = prod_{j<=k} (2j)/(2j+1)
    whose full series sum to 1, so that the p-value is also the rest of the series from k = m:
      even: sqrt(1 - y) * sum_{k>=m} c_k y^k,   odd: 2/pi * sqrt(y (1 - y)) * sum_{k>=m} d_k y^k;
    the rest (to k < 1200) where it has converged, no cancellation for small p-values; else 1 minus
    the head (p large). For df >= 300, Hill's (1970, CACM algorithm 395) normal transform: relative
    error below 1e-12 against scipy while p > 1e-12 (further out, normal_tail's own, below 1e-8).
    The terms' running sums are a window over 1200 generated rows, never over the data.
    Use: the slice's row crossed with student_t_terms(), grouped back by the slice, with
    student_t_sums(y, df) among the select items; then student_t_p over those sums. -#}
{% macro student_t_terms() %}
SELECT sm_k,
       SUM(CASE WHEN sm_k = 0 THEN 0 ELSE LN({{ sqlmetrics.fdiv('2.0 * sm_k - 1', '2.0 * sm_k') }}) END)
         OVER (ORDER BY sm_k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_ln_even,
       SUM(CASE WHEN sm_k = 0 THEN 0 ELSE LN({{ sqlmetrics.fdiv('2.0 * sm_k', '2.0 * sm_k + 1') }}) END)
         OVER (ORDER BY sm_k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sm_ln_odd
FROM (SELECT sm_replicate AS sm_k FROM ({{ sqlmetrics.replicate_numbers(1199) }}) AS sm_numbers) AS sm_term_numbers
{% endmacro %}

{#- The head (k < m) and the rest (m <= k < 1200) of the series, as two aggregate select items. A
    term is exp(ln c_k + k ln y), taken as 0 below e^-700: PostgreSQL fails on an underflow. -#}
{% macro student_t_sums(y, df) -%}
{%- set exponent %}(CASE WHEN MOD({{ df }}, 2) = 0 THEN sm_ln_even ELSE sm_ln_odd END) + sm_k * LN({{ y }}){% endset -%}
{%- set term %}CASE WHEN {{ y }} > 0 AND {{ exponent }} > -700 THEN EXP({{ exponent }}) ELSE 0 END{% endset -%}
SUM(CASE WHEN sm_k < FLOOR({{ df }} / 2) THEN {{ term }} ELSE 0 END) AS sm_t_head,
SUM(CASE WHEN sm_k >= FLOOR({{ df }} / 2) THEN {{ term }} ELSE 0 END) AS sm_t_rest
{%- endmacro %}

{#- The two-sided p-value from student_t_sums' columns, `abs_t` = |t|, `y`, `df` and `hill_z`
    (student_t_hill_z(abs_t, df)), all columns. The rest has converged when its last terms, from
    k = 1200 - m on, are below 2^-57 of its first: (1199 - m) ln(1 / y) > 40. -#}
{% macro student_t_p(abs_t, y, df, hill_z) -%}
{%- set factor %}(CASE WHEN MOD({{ df }}, 2) = 0 THEN SQRT(1 - {{ y }}) ELSE 0.6366197723675814 * SQRT({{ y }} * (1 - {{ y }})) END){% endset -%}
CASE WHEN {{ df }} >= 300 THEN 2 * {{ sqlmetrics.normal_tail(hill_z) }}
     WHEN {{ y }} < 1 AND (1199 - FLOOR({{ df }} / 2)) * -LN({{ y }}) > 40 THEN {{ factor }} * sm_t_rest
     WHEN MOD({{ df }}, 2) = 0 THEN {{ sqlmetrics.nonnegative('1 - ' ~ factor ~ ' * sm_t_head') }}
     ELSE {{ sqlmetrics.nonnegative('1 - 0.6366197723675814 * ATAN(' ~ sqlmetrics.fdiv(abs_t, 'SQRT(' ~ df ~ ')') ~ ') - ' ~ factor ~ ' * sm_t_head') }}
END
{%- endmacro %}

{#- Hill's normal deviate for |t| = `abs_t` with `df` degrees of freedom (used from df = 300). -#}
{% macro student_t_hill_z(abs_t, df) -%}
{%- set a %}({{ df }} - 0.5){% endset -%}
{%- set b %}(48 * {{ a }} * {{ a }}){% endset -%}
{%- set ratio %}{{ sqlmetrics.fdiv(abs_t ~ ' * ' ~ abs_t, df) }}{% endset -%}
{#- a ln(1 + ratio): below 1e-3 by its series (LN(1 + x) would lose the digits of x lost in 1 + x) -#}
{%- set y %}({{ a }} * CASE WHEN {{ ratio }} > 1e-3 THEN LN(1 + {{ ratio }})
     ELSE {{ ratio }} * (1 - {{ ratio }} * (0.5 - {{ ratio }} * (1.0 / 3 - {{ ratio }} * (0.25 - {{ ratio }} * 0.2)))) END){% endset -%}
({{ sqlmetrics.fdiv(sqlmetrics.fdiv('((-0.4 * ' ~ y ~ ' - 3.3) * ' ~ y ~ ' - 24) * ' ~ y ~ ' - 85.5', '0.8 * ' ~ y ~ ' * ' ~ y ~ ' + 100 + ' ~ b) ~ ' + ' ~ y ~ ' + 3', b) }} + 1) * SQRT({{ y }})
{%- endmacro %}

{#- The t with P(T > t) = `tail` (0 < tail < 1/2) for `df` degrees of freedom (an integer column),
    as SQL: for df < 100 a value computed here, at render time, by Newton's method on the exact
    distribution function above (the density is df^(-1/2) m c_m y^((df+1)/2) for even df = 2m,
    sqrt(df) d_m y^((df+1)/2) / pi for odd df = 2m + 1); from df = 100 the Cornish-Fisher
    expansion in 1/df to the fifth order (Abramowitz & Stegun 26.7.5), whose error falls as
    df^-6: at df = 100, below 3e-11 relative for 99.9% and 4e-13 for 95%. -#}
{% macro student_t_quantile(tail, df) -%}
{%- set z = sqlmetrics.normal_quantile_value(tail) | float %}
{%- set g = [(z ** 3 + z) / 4,
             (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
             (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
             (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160,
             (27 * z ** 11 + 339 * z ** 9 + 930 * z ** 7 - 1782 * z ** 5 - 765 * z ** 3 + 17955 * z) / 368640] %}
CASE
{%- for nu in range(1, 100) %}
{%- set m = nu // 2 %}
{%- set ns = namespace(t=z + g[0] / nu + g[1] / nu ** 2 + g[2] / nu ** 3 + g[3] / nu ** 4 + g[4] / nu ** 5, done=false) %}
{#- from df = 20 the expansion is within 4e-7: two steps reach the rounding of the sums -#}
{%- for step in range(2 if nu >= 20 else 30) if not ns.done %}
{%- set y = nu / (nu + ns.t * ns.t) %}
{#- the sum to k < m, and c_m (or d_m) from the same products -#}
{%- set sums = namespace(series=0.0, c=1.0, power=1.0) %}
{%- for k in range(m + 1) %}
{%- if k > 0 and nu % 2 == 0 %}{% set sums.c = sums.c * (2 * k - 1) / (2 * k) %}{% endif %}
{%- if k > 0 and nu % 2 == 1 %}{% set sums.c = sums.c * (2 * k) / (2 * k + 1) %}{% endif %}
{%- if k < m %}{% set sums.series = sums.series + sums.c * sums.power %}{% set sums.power = sums.power * y %}{% endif %}
{%- endfor %}
{%- if nu % 2 == 0 %}
{%- set inside = (1 - y) ** 0.5 * sums.series %}
{%- set density = m * sums.c / nu ** 0.5 * y ** ((nu + 1) / 2) %}
{%- else %}
{#- atan by halving the angle five times, then its Taylor series (signs as 1 - 2 (j % 2): Jinja
    reads (-1) ** j * x as -(1 ** j * x)) -#}
{%- set at = namespace(x=ns.t / nu ** 0.5, sum=0.0) %}
{%- for i in range(5) %}{% set at.x = at.x / (1 + (1 + at.x * at.x) ** 0.5) %}{% endfor %}
{%- for j in range(12) %}{% set at.sum = at.sum + (1 - 2 * (j % 2)) * at.x ** (2 * j + 1) / (2 * j + 1) %}{% endfor %}
{%- set inside = 0.6366197723675814 * (32 * at.sum + (y * (1 - y)) ** 0.5 * sums.series) %}
{%- set density = nu ** 0.5 * sums.c / 3.141592653589793 * y ** ((nu + 1) / 2) %}
{%- endif %}
{%- set step_size = ((1 - inside) / 2 - tail) / density %}
{%- set ns.t = ns.t + step_size %}
{#- rounding in 1 - inside leaves steps of ~1e-15 t: stop below 1e-13 t -#}
{%- if step_size < 1e-13 * ns.t and step_size > -1e-13 * ns.t %}{% set ns.done = true %}{% endif %}
{%- endfor %}
  WHEN {{ df }} = {{ nu }} THEN {{ '%.17e' | format(ns.t) }}
{%- endfor %}
  ELSE {{ z }}{% for i in range(5) %} + {{ sqlmetrics.fdiv(g[i], 'POWER(' ~ df ~ ', ' ~ (i + 1) ~ ')') }}{% endfor %}
END
{%- endmacro %}
