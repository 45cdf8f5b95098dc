"""Evidently 0.4.40's stat tests on the two windows tests/test_evidently.py wrote, run in an environment
of Evidently's own (it pins numpy and pandas series of its own: .ci/run builds .venv-evidently):

    python tests/evidently_reference.py DIR   (DIR holds reference.parquet and current.parquet)

prints JSON: per case, the stat test's drift_score (a p-value for a test, the statistic for a distance),
its drifted flag and the threshold it used (its default), and for the numeric columns the inner cuts of
the bins Evidently made (numpy's 'sturges' edges of the pooled values; of the distinct values for
Hellinger), which the test gives sqlmetrics as edges=."""
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from evidently.calculations.stattests import (chisquare_stattest, cramer_von_mises_stattest, energy_distance,
                                              g_stattest, hellinger_distance, jensenshannon, kl_div, ks_stattest,
                                              psi, wasserstein_distance_norm, z_stattest)
from evidently.core import ColumnType

#: sqlmetrics' method -> Evidently's stat test
TESTS = {"ks": ks_stattest.ks_stat_test, "cramervonmises": cramer_von_mises_stattest.cramer_von_mises,
         "wasserstein_normed": wasserstein_distance_norm.wasserstein_stat_test,
         "energy": energy_distance.energy_dist_test, "psi": psi.psi_stat_test, "kl_divergence": kl_div.kl_div_stat_test,
         "jensenshannon": jensenshannon.jensenshannon_stat_test, "hellinger": hellinger_distance.hellinger_stat_test,
         "chisquare": chisquare_stattest.chi_stat_test, "g_test": g_stattest.g_test,
         "two_proportion_z": z_stattest.z_stat_test}
#: (column, its type, the methods compared on it)
CASES = [("x", ColumnType.Numerical, ["ks", "cramervonmises", "wasserstein_normed", "energy", "psi", "kl_divergence",
                                      "jensenshannon", "hellinger"]),
         *((column, ColumnType.Categorical, ["psi", "kl_divergence", "jensenshannon", "hellinger", "chisquare", "g_test"])
           for column in ("country", "device")),
         ("flag", ColumnType.Categorical, ["two_proportion_z", "chisquare"])]


def main(folder: Path) -> dict:
    reference, current = (pd.read_parquet(folder / f"{w}.parquet") for w in ("reference", "current"))
    out = {}
    for column, kind, methods in CASES:
        x, y = reference[column].dropna(), current[column].dropna()
        for method in methods:
            result = TESTS[method](x.copy(), y.copy(), kind, None)  # Hellinger drops NaN in place
            out[f"{column} {method}"] = {"score": float(result.drift_score), "drifted": bool(result.drifted),
                                         "threshold": result.actual_threshold}
        if kind == ColumnType.Numerical:
            out[f"{column} cuts"] = np.histogram_bin_edges(pd.concat([x, y]).values, bins="sturges")[1:-1].tolist()
            distinct = list(set(x.unique()) | set(y.unique()))
            out[f"{column} hellinger cuts"] = np.histogram_bin_edges(distinct, bins="sturges")[1:-1].tolist()
    return out


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
