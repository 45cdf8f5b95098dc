{#- Harrell's concordance index (Harrell et al. 1982) of a risk score under right censoring, as
    scikit-survival's concordance_index_censored and lifelines' concordance_index.

    A pair (i, j) is comparable when i's event is observed and j is still at risk after it:
    T_i < T_j, or T_i = T_j with j censored (both references count an event against a row censored at
    its time, and never two events of one time). It is concordant when i, the earlier event, has the
    higher risk; a tie of risks counts 1/2 (tied_risk). C = (concordant + tied_risk/2) / comparable;
    NULL (undefined) when there is no comparable pair (no observed event, or every event is the last
    time of its slice).

    Counted by concordance_pairs (no pair is enumerated: O(n log^2 n)).

    higher='risk': a higher score predicts an earlier event (scikit-survival's estimate);
    higher='survival': a longer survival (lifelines' predicted_scores). -#}
{% macro concordance_index(relation, duration, event, score, higher='risk', by=[], plan=none) %}
WITH {{ sqlmetrics.concordance_cells(relation, duration, event, score, higher, by) }},
{{ sqlmetrics.concordance_pairs('sm_cells', by, plan or sqlmetrics.default_plan()) }}
SELECT {{ sqlmetrics.cols(by) }}
       {{ sqlmetrics.fdiv('concordant + 0.5 * tied_risk', 'comparable') }} AS concordance_index,
       concordant, comparable - concordant - tied_risk AS discordant, tied_risk, comparable
FROM sm_pairs
{% endmacro %}
