{#- Written by `python -m sqlmetrics.codegen` from the registry: do not edit (tests/test_codegen.py
    fails while it is stale). Any metric by name: {{ sqlmetrics.metric('ndcg', ref('run'), qrels=ref('qrels'),
    k=10) }} is {{ sqlmetrics.ndcg(ref('run'), qrels=ref('qrels'), k=10) }} (as sm.render(name, data, ...) in
    Python); the parameters are keywords. The generic tests call metrics through it. Every metric
    is named in a call of its own: dbt finds the macros a test depends on by reading their calls,
    and a call through a computed name such as sqlmetrics[name](...) would be invisible to it. -#}
{% macro metric(name, relation) %}
{%- set name = sqlmetrics.metric_name(name) %}
{%- if name == 'auc' %}{{ sqlmetrics.auc(relation, **kwargs) }}
{%- elif name == 'auc_ci' %}{{ sqlmetrics.auc_ci(relation, **kwargs) }}
{%- elif name == 'auc_compare' %}{{ sqlmetrics.auc_compare(relation, **kwargs) }}
{%- elif name == 'gauc' %}{{ sqlmetrics.gauc(relation, **kwargs) }}
{%- elif name == 'score_histogram' %}{{ sqlmetrics.score_histogram(relation, **kwargs) }}
{%- elif name == 'histogram_auc' %}{{ sqlmetrics.histogram_auc(relation, **kwargs) }}
{%- elif name == 'roc_curve' %}{{ sqlmetrics.roc_curve(relation, **kwargs) }}
{%- elif name == 'pr_curve' %}{{ sqlmetrics.pr_curve(relation, **kwargs) }}
{%- elif name == 'average_precision' %}{{ sqlmetrics.average_precision(relation, **kwargs) }}
{%- elif name == 'log_loss' %}{{ sqlmetrics.log_loss(relation, **kwargs) }}
{%- elif name == 'brier_score' %}{{ sqlmetrics.brier_score(relation, **kwargs) }}
{%- elif name == 'calibration' %}{{ sqlmetrics.calibration(relation, **kwargs) }}
{%- elif name == 'confusion_matrix' %}{{ sqlmetrics.confusion_matrix(relation, **kwargs) }}
{%- elif name == 'precision' %}{{ sqlmetrics.precision(relation, **kwargs) }}
{%- elif name == 'recall' %}{{ sqlmetrics.recall(relation, **kwargs) }}
{%- elif name == 'specificity' %}{{ sqlmetrics.specificity(relation, **kwargs) }}
{%- elif name == 'accuracy' %}{{ sqlmetrics.accuracy(relation, **kwargs) }}
{%- elif name == 'error_rate' %}{{ sqlmetrics.error_rate(relation, **kwargs) }}
{%- elif name == 'f_beta' %}{{ sqlmetrics.f_beta(relation, **kwargs) }}
{%- elif name == 'f1' %}{{ sqlmetrics.f1(relation, **kwargs) }}
{%- elif name == 'gini' %}{{ sqlmetrics.gini(relation, **kwargs) }}
{%- elif name == 'rela_impr' %}{{ sqlmetrics.rela_impr(relation, **kwargs) }}
{%- elif name == 'calibration_curve' %}{{ sqlmetrics.calibration_curve(relation, **kwargs) }}
{%- elif name == 'ece' %}{{ sqlmetrics.ece(relation, **kwargs) }}
{%- elif name == 'multiclass_confusion_matrix' %}{{ sqlmetrics.multiclass_confusion_matrix(relation, **kwargs) }}
{%- elif name == 'classification_report' %}{{ sqlmetrics.classification_report(relation, **kwargs) }}
{%- elif name == 'balanced_accuracy' %}{{ sqlmetrics.balanced_accuracy(relation, **kwargs) }}
{%- elif name == 'cohen_kappa' %}{{ sqlmetrics.cohen_kappa(relation, **kwargs) }}
{%- elif name == 'mcc' %}{{ sqlmetrics.mcc(relation, **kwargs) }}
{%- elif name == 'multiclass_auc' %}{{ sqlmetrics.multiclass_auc(relation, **kwargs) }}
{%- elif name == 'top_k_accuracy' %}{{ sqlmetrics.top_k_accuracy(relation, **kwargs) }}
{%- elif name == 'multiclass_log_loss' %}{{ sqlmetrics.multiclass_log_loss(relation, **kwargs) }}
{%- elif name == 'det_curve' %}{{ sqlmetrics.det_curve(relation, **kwargs) }}
{%- elif name == 'normalized_entropy' %}{{ sqlmetrics.normalized_entropy(relation, **kwargs) }}
{%- elif name == 'relative_information_gain' %}{{ sqlmetrics.relative_information_gain(relation, **kwargs) }}
{%- elif name == 'copc' %}{{ sqlmetrics.copc(relation, **kwargs) }}
{%- elif name == 'ks_statistic' %}{{ sqlmetrics.ks_statistic(relation, **kwargs) }}
{%- elif name == 'best_threshold' %}{{ sqlmetrics.best_threshold(relation, **kwargs) }}
{%- elif name == 'gain_curve' %}{{ sqlmetrics.gain_curve(relation, **kwargs) }}
{%- elif name == 'lift_curve' %}{{ sqlmetrics.lift_curve(relation, **kwargs) }}
{%- elif name == 'mae' %}{{ sqlmetrics.mae(relation, **kwargs) }}
{%- elif name == 'mse' %}{{ sqlmetrics.mse(relation, **kwargs) }}
{%- elif name == 'rmse' %}{{ sqlmetrics.rmse(relation, **kwargs) }}
{%- elif name == 'r2' %}{{ sqlmetrics.r2(relation, **kwargs) }}
{%- elif name == 'mape' %}{{ sqlmetrics.mape(relation, **kwargs) }}
{%- elif name == 'msle' %}{{ sqlmetrics.msle(relation, **kwargs) }}
{%- elif name == 'rmsle' %}{{ sqlmetrics.rmsle(relation, **kwargs) }}
{%- elif name == 'median_absolute_error' %}{{ sqlmetrics.median_absolute_error(relation, **kwargs) }}
{%- elif name == 'explained_variance' %}{{ sqlmetrics.explained_variance(relation, **kwargs) }}
{%- elif name == 'max_error' %}{{ sqlmetrics.max_error(relation, **kwargs) }}
{%- elif name == 'd2_absolute_error' %}{{ sqlmetrics.d2_absolute_error(relation, **kwargs) }}
{%- elif name == 'dcg' %}{{ sqlmetrics.dcg(relation, **kwargs) }}
{%- elif name == 'ndcg' %}{{ sqlmetrics.ndcg(relation, **kwargs) }}
{%- elif name == 'mean_average_precision' %}{{ sqlmetrics.mean_average_precision(relation, **kwargs) }}
{%- elif name == 'mrr' %}{{ sqlmetrics.mrr(relation, **kwargs) }}
{%- elif name == 'precision_at_k' %}{{ sqlmetrics.precision_at_k(relation, **kwargs) }}
{%- elif name == 'recall_at_k' %}{{ sqlmetrics.recall_at_k(relation, **kwargs) }}
{%- elif name == 'relative_precision' %}{{ sqlmetrics.relative_precision(relation, **kwargs) }}
{%- elif name == 'hit_rate' %}{{ sqlmetrics.hit_rate(relation, **kwargs) }}
{%- elif name == 'r_precision' %}{{ sqlmetrics.r_precision(relation, **kwargs) }}
{%- elif name == 'interpolated_precision' %}{{ sqlmetrics.interpolated_precision(relation, **kwargs) }}
{%- elif name == 'precision_11pt' %}{{ sqlmetrics.precision_11pt(relation, **kwargs) }}
{%- elif name == 'gm_map' %}{{ sqlmetrics.gm_map(relation, **kwargs) }}
{%- elif name == 'err' %}{{ sqlmetrics.err(relation, **kwargs) }}
{%- elif name == 'bpref' %}{{ sqlmetrics.bpref(relation, **kwargs) }}
{%- elif name == 'infap' %}{{ sqlmetrics.infap(relation, **kwargs) }}
{%- elif name == 'rbp' %}{{ sqlmetrics.rbp(relation, **kwargs) }}
{%- elif name == 'set_precision' %}{{ sqlmetrics.set_precision(relation, **kwargs) }}
{%- elif name == 'set_recall' %}{{ sqlmetrics.set_recall(relation, **kwargs) }}
{%- elif name == 'set_f' %}{{ sqlmetrics.set_f(relation, **kwargs) }}
{%- elif name == 'set_map' %}{{ sqlmetrics.set_map(relation, **kwargs) }}
{%- elif name == 'num_rel_ret' %}{{ sqlmetrics.num_rel_ret(relation, **kwargs) }}
{%- elif name == 'num_ret' %}{{ sqlmetrics.num_ret(relation, **kwargs) }}
{%- elif name == 'num_rel' %}{{ sqlmetrics.num_rel(relation, **kwargs) }}
{%- elif name == 'judged_at_k' %}{{ sqlmetrics.judged_at_k(relation, **kwargs) }}
{%- elif name == 'unjudged_at_k' %}{{ sqlmetrics.unjudged_at_k(relation, **kwargs) }}
{%- elif name == 'rank_correlation' %}{{ sqlmetrics.rank_correlation(relation, **kwargs) }}
{%- elif name == 'kendall_tau' %}{{ sqlmetrics.kendall_tau(relation, **kwargs) }}
{%- elif name == 'ils' %}{{ sqlmetrics.ils(relation, **kwargs) }}
{%- elif name == 'coverage' %}{{ sqlmetrics.coverage(relation, **kwargs) }}
{%- elif name == 'novelty' %}{{ sqlmetrics.novelty(relation, **kwargs) }}
{%- elif name == 'serendipity' %}{{ sqlmetrics.serendipity(relation, **kwargs) }}
{%- elif name == 'distributional_coverage' %}{{ sqlmetrics.distributional_coverage(relation, **kwargs) }}
{%- elif name == 'gini_index' %}{{ sqlmetrics.gini_index(relation, **kwargs) }}
{%- elif name == 'average_popularity' %}{{ sqlmetrics.average_popularity(relation, **kwargs) }}
{%- elif name == 'tail_share' %}{{ sqlmetrics.tail_share(relation, **kwargs) }}
{%- elif name == 'demographic_parity_difference' %}{{ sqlmetrics.demographic_parity_difference(relation, **kwargs) }}
{%- elif name == 'demographic_parity_ratio' %}{{ sqlmetrics.demographic_parity_ratio(relation, **kwargs) }}
{%- elif name == 'equal_opportunity_difference' %}{{ sqlmetrics.equal_opportunity_difference(relation, **kwargs) }}
{%- elif name == 'equal_opportunity_ratio' %}{{ sqlmetrics.equal_opportunity_ratio(relation, **kwargs) }}
{%- elif name == 'equalized_odds_difference' %}{{ sqlmetrics.equalized_odds_difference(relation, **kwargs) }}
{%- elif name == 'equalized_odds_ratio' %}{{ sqlmetrics.equalized_odds_ratio(relation, **kwargs) }}
{%- elif name == 'concordance_index' %}{{ sqlmetrics.concordance_index(relation, **kwargs) }}
{%- elif name == 'concordance_index_ipcw' %}{{ sqlmetrics.concordance_index_ipcw(relation, **kwargs) }}
{%- elif name == 'cumulative_dynamic_auc' %}{{ sqlmetrics.cumulative_dynamic_auc(relation, **kwargs) }}
{%- elif name == 'uplift_curve' %}{{ sqlmetrics.uplift_curve(relation, **kwargs) }}
{%- elif name == 'qini_curve' %}{{ sqlmetrics.qini_curve(relation, **kwargs) }}
{%- elif name == 'uplift_auc' %}{{ sqlmetrics.uplift_auc(relation, **kwargs) }}
{%- elif name == 'qini_auc' %}{{ sqlmetrics.qini_auc(relation, **kwargs) }}
{%- elif name == 'uplift_at_k' %}{{ sqlmetrics.uplift_at_k(relation, **kwargs) }}
{%- elif name == 'treatment_balance_curve' %}{{ sqlmetrics.treatment_balance_curve(relation, **kwargs) }}
{%- elif name == 'drift_statistics' %}{{ sqlmetrics.drift_statistics(relation, **kwargs) }}
{%- elif name == 'drift_bins' %}{{ sqlmetrics.drift_bins(relation, **kwargs) }}
{%- else %}{{ sqlmetrics.fail('unknown metric ' ~ name) }}
{%- endif %}
{% endmacro %}

{#- The name a metric is known by, for one of its other names (the registry's aliases). -#}
{% macro metric_name(name) -%}
{{ return({'auuc': 'uplift_auc', 'catalog_coverage': 'coverage', 'map': 'mean_average_precision', 'qini_coefficient': 'qini_auc'}.get(name, name)) }}
{%- endmacro %}

{#- Whether a metric is evaluated per query (the registry's per_query: a ranking metric), so that
    bootstrap and compare resample and pair queries, recombining the metric's per-query parts. -#}
{% macro per_query_metric(name) -%}
{{ return(name in ['dcg', 'ndcg', 'mean_average_precision', 'mrr', 'precision_at_k', 'recall_at_k', 'relative_precision', 'hit_rate', 'r_precision', 'interpolated_precision', 'precision_11pt', 'gm_map', 'err', 'bpref', 'infap', 'rbp', 'set_precision', 'set_recall', 'set_f', 'set_map', 'num_rel_ret', 'num_ret', 'num_rel', 'judged_at_k', 'unjudged_at_k', 'rank_correlation', 'kendall_tau', 'ils', 'serendipity', 'average_popularity', 'tail_share']) }}
{%- endmacro %}

{#- Whether a metric reads a long table of class scores (the registry's resampling unit 'example'), so
    that bootstrap and compare resample its examples, every row of one with the example's draw. -#}
{% macro per_example_metric(name) -%}
{{ return(name in ['multiclass_auc', 'top_k_accuracy', 'multiclass_log_loss']) }}
{%- endmacro %}

{#- Which way a metric compare takes is better ('higher', 'lower', or 'neither': best at 1), compare's
    default paired test of it and that test's default replicates, as the Python API and the command
    line have them: what the regression gate expect_no_regression reads. None: compare takes no such metric. -#}
{% macro comparison_defaults(name) -%}
{{ return({'auc': ['higher', 'delong', 1000], 'gauc': ['higher', 'paired_t', 10000], 'average_precision': ['higher', 'bootstrap', 1000], 'log_loss': ['lower', 'bootstrap', 1000], 'brier_score': ['lower', 'bootstrap', 1000], 'calibration': ['neither', 'bootstrap', 1000], 'precision': ['higher', 'bootstrap', 1000], 'recall': ['higher', 'bootstrap', 1000], 'specificity': ['higher', 'bootstrap', 1000], 'accuracy': ['higher', 'bootstrap', 1000], 'error_rate': ['lower', 'bootstrap', 1000], 'f_beta': ['higher', 'bootstrap', 1000], 'f1': ['higher', 'bootstrap', 1000], 'gini': ['higher', 'bootstrap', 1000], 'rela_impr': ['higher', 'bootstrap', 1000], 'ece': ['lower', 'bootstrap', 1000], 'balanced_accuracy': ['higher', 'bootstrap', 1000], 'cohen_kappa': ['higher', 'bootstrap', 1000], 'mcc': ['higher', 'bootstrap', 1000], 'multiclass_auc': ['higher', 'bootstrap', 1000], 'top_k_accuracy': ['higher', 'bootstrap', 1000], 'multiclass_log_loss': ['lower', 'bootstrap', 1000], 'normalized_entropy': ['lower', 'bootstrap', 1000], 'relative_information_gain': ['higher', 'bootstrap', 1000], 'copc': ['neither', 'bootstrap', 1000], 'mae': ['lower', 'bootstrap', 1000], 'mse': ['lower', 'bootstrap', 1000], 'rmse': ['lower', 'bootstrap', 1000], 'r2': ['higher', 'bootstrap', 1000], 'mape': ['lower', 'bootstrap', 1000], 'msle': ['lower', 'bootstrap', 1000], 'rmsle': ['lower', 'bootstrap', 1000], 'median_absolute_error': ['lower', 'bootstrap', 1000], 'explained_variance': ['higher', 'bootstrap', 1000], 'd2_absolute_error': ['higher', 'bootstrap', 1000], 'dcg': ['higher', 'paired_t', 10000], 'ndcg': ['higher', 'paired_t', 10000], 'mean_average_precision': ['higher', 'paired_t', 10000], 'mrr': ['higher', 'paired_t', 10000], 'precision_at_k': ['higher', 'paired_t', 10000], 'recall_at_k': ['higher', 'paired_t', 10000], 'relative_precision': ['higher', 'paired_t', 10000], 'hit_rate': ['higher', 'paired_t', 10000], 'r_precision': ['higher', 'paired_t', 10000], 'precision_11pt': ['higher', 'paired_t', 10000], 'err': ['higher', 'paired_t', 10000], 'bpref': ['higher', 'paired_t', 10000], 'infap': ['higher', 'paired_t', 10000], 'rbp': ['higher', 'paired_t', 10000], 'set_precision': ['higher', 'paired_t', 10000], 'set_recall': ['higher', 'paired_t', 10000], 'set_f': ['higher', 'paired_t', 10000], 'set_map': ['higher', 'paired_t', 10000], 'judged_at_k': ['higher', 'paired_t', 10000], 'unjudged_at_k': ['lower', 'paired_t', 10000], 'rank_correlation': ['higher', 'paired_t', 10000], 'kendall_tau': ['higher', 'paired_t', 10000], 'ils': ['higher', 'paired_t', 10000], 'serendipity': ['higher', 'paired_t', 10000], 'average_popularity': ['higher', 'paired_t', 10000], 'tail_share': ['higher', 'paired_t', 10000], 'demographic_parity_difference': ['lower', 'bootstrap', 1000], 'demographic_parity_ratio': ['higher', 'bootstrap', 1000], 'equal_opportunity_difference': ['lower', 'bootstrap', 1000], 'equal_opportunity_ratio': ['higher', 'bootstrap', 1000], 'equalized_odds_difference': ['lower', 'bootstrap', 1000], 'equalized_odds_ratio': ['higher', 'bootstrap', 1000], 'uplift_auc': ['higher', 'bootstrap', 1000], 'qini_auc': ['higher', 'bootstrap', 1000]}.get(sqlmetrics.metric_name(name))) }}
{%- endmacro %}

{#- A ranking metric's per-query parts (its <name>_parts macro), for evaluate's one pass: the metrics
    the registry marks one_pass. -#}
{% macro ranking_parts(metric, v, in_k, within, k, options) -%}
{%- if metric == 'dcg' %}{{ return(sqlmetrics.dcg_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'ndcg' %}{{ return(sqlmetrics.ndcg_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'mean_average_precision' %}{{ return(sqlmetrics.mean_average_precision_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'mrr' %}{{ return(sqlmetrics.mrr_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'precision_at_k' %}{{ return(sqlmetrics.precision_at_k_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'recall_at_k' %}{{ return(sqlmetrics.recall_at_k_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'relative_precision' %}{{ return(sqlmetrics.relative_precision_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'hit_rate' %}{{ return(sqlmetrics.hit_rate_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'r_precision' %}{{ return(sqlmetrics.r_precision_parts(v, in_k, within, k, options)) }}
{%- elif metric == 'rbp' %}{{ return(sqlmetrics.rbp_parts(v, in_k, within, k, options)) }}
{%- else %}{{ sqlmetrics.fail('evaluate computes in one pass the metrics the registry marks one_pass; not ' ~ metric ~ ' (marked after sql/metric.sql was written? run python -m sqlmetrics.codegen)') }}
{%- endif %}
{%- endmacro %}

{#- The own call of each metric the registry marks one_pass: evaluate's pass with that one measure
    (one_measure), its parameters as its entry declares them. `name`: the output column. -#}
{% macro dcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='dcg') %}
{{ sqlmetrics.one_measure('dcg', relation, qrels, query, item, score, relevance, k, ties, gain, relevance_threshold, missing, empty, by, per_query, name, {}) }}
{%- endmacro %}

{% macro ndcg(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', gain='exponential', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='ndcg') %}
{{ sqlmetrics.one_measure('ndcg', relation, qrels, query, item, score, relevance, k, ties, gain, relevance_threshold, missing, empty, by, per_query, name, {}) }}
{%- endmacro %}

{% macro mean_average_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', denominator='r', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='mean_average_precision') %}
{{ sqlmetrics.one_measure('mean_average_precision', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {'denominator': denominator}) }}
{%- endmacro %}

{% macro mrr(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='mrr') %}
{{ sqlmetrics.one_measure('mrr', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {}) }}
{%- endmacro %}

{% macro precision_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='precision_at_k') %}
{%- if k is sameas false %}{{ sqlmetrics.fail('precision_at_k needs k, which has no default. k: cut-off: only the top k of each ranked list count; None: the whole retrieved list (as trec_eval\'s set_ measures). Required: pass k=None for the whole list.') }}{% endif %}
{{ sqlmetrics.one_measure('precision_at_k', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {}) }}
{%- endmacro %}

{% macro recall_at_k(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', average='macro', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='recall_at_k') %}
{%- if k is sameas false %}{{ sqlmetrics.fail('recall_at_k needs k, which has no default. k: cut-off: only the top k of each ranked list count; None: the whole retrieved list (as trec_eval\'s set_ measures). Required: pass k=None for the whole list.') }}{% endif %}
{{ sqlmetrics.one_measure('recall_at_k', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {'average': average}) }}
{%- endmacro %}

{% macro relative_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='relative_precision') %}
{%- if k is sameas false %}{{ sqlmetrics.fail('relative_precision needs k, which has no default. k: cut-off: only the top k of each ranked list count; None: the whole retrieved list (as trec_eval\'s set_ measures). Required: pass k=None for the whole list.') }}{% endif %}
{{ sqlmetrics.one_measure('relative_precision', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {}) }}
{%- endmacro %}

{% macro hit_rate(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=false, ties='item_desc', relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='hit_rate') %}
{%- if k is sameas false %}{{ sqlmetrics.fail('hit_rate needs k, which has no default. k: cut-off: only the top k of each ranked list count; None: the whole retrieved list (as trec_eval\'s set_ measures). Required: pass k=None for the whole list.') }}{% endif %}
{{ sqlmetrics.one_measure('hit_rate', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {}) }}
{%- endmacro %}

{% macro r_precision(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', ties='item_desc', multiple=1.0, relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='r_precision') %}
{{ sqlmetrics.one_measure('r_precision', relation, qrels, query, item, score, relevance, none, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {'multiple': multiple}) }}
{%- endmacro %}

{% macro rbp(relation, qrels=none, query='query', item='item', score='score', relevance='relevance', k=none, ties='item_desc', persistence=0.9, graded=true, relevance_threshold=1.0, missing='zero', empty='zero', by=[], per_query=false, name='rbp') %}
{{ sqlmetrics.one_measure('rbp', relation, qrels, query, item, score, relevance, k, ties, 'linear', relevance_threshold, missing, empty, by, per_query, name, {'persistence': persistence, 'graded': graded}) }}
{%- endmacro %}
