"""Benchmark the WEAT bootstrap intervals: all ten tests of Caliskan et al. (2017), Table 1, on their GloVe
840B vectors (``embeddings.load("glove-840b-caliskan")``), 10,000 resamples each (the goal: under 2 s together
on 2 cores).

For each test, :func:`wordbias.measures.association.weat.weat` first applies the paper's unknown-word policy (normal p,
it is not timed), then :func:`wordbias.measures.association.bootstrap.weat_bootstrap` computes the BCa and the percentile
95% intervals of d and of s(X, Y, A, B), resampling X, Y, A and B separately (seed 0). Timed: everything from
the :class:`~wordbias.measures.association.weat.WeatResult` and the embedding to the intervals (look-up of the vectors,
the cosine matrix, SciPy's resampling, the BCa jackknife), best of ``--repeat`` runs of all ten tests, per
method. A baseline for scale: the same percentile interval of one test by SciPy with a statistic that looks
the resampled words' vectors up and recomputes s(w, A, B) on each resample (``vectorized=False``), timed on
``--baseline-resamples`` resamples and scaled to 10,000.

Prints the table; writes ``results/benchmarks/bootstrap.csv`` only with ``--write`` (``--out PATH`` writes it
elsewhere, e.g. under /tmp).

    python benchmarks/bench_bootstrap.py [--resamples 10000] [--repeat 3] [--out /tmp/bootstrap.csv] [--write]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from scipy import stats as sps

from wordbias import embeddings
from wordbias.core import paths
from wordbias.datasets import stimuli
from wordbias.measures.association import bootstrap as bs
from wordbias.measures.association import weat
from wordbias.options import Resampling

METHODS = ("BCa", "percentile")


def weat_results(kv):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [(t.id, weat.weat(kv, t.X, t.Y, t.A, t.B, names=t.names, p_method="normal"))
                for t in stimuli.weat_tests("caliskan2017")]


def run_all(kv, results, method, n_resamples, seed=0):
    out, times = [], []
    for _, r in results:
        t0 = time.perf_counter()
        out.append(bs.weat_bootstrap(kv, r,
                                     resampling=Resampling(n_resamples=n_resamples, ci_method=method, seed=seed)))
        times.append(time.perf_counter() - t0)
    return out, times


def baseline_seconds(kv, r, n_resamples):
    """SciPy, percentile, a statistic that looks the vectors up on every resample (no cosine matrix)."""
    sets = [list(s.words) for s in (r.X, r.Y, r.A, r.B)]

    def d_of(ix, iy, ia, ib):
        X, Y, A, B = (np.asarray(kv[[w[int(i)] for i in idx]], dtype=np.float64)
                      for w, idx in zip(sets, (ix, iy, ia, ib)))
        return weat.effect_size(weat.association(X, A, B), weat.association(Y, A, B))

    t0 = time.perf_counter()
    sps.bootstrap(tuple(np.arange(len(s)) for s in sets), d_of, n_resamples=n_resamples, vectorized=False,
                  method="percentile", rng=np.random.default_rng(0))
    return (time.perf_counter() - t0) * 10_000 / n_resamples


def main(argv=None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline-resamples", type=int, default=500)
    ap.add_argument("--out", help="write the CSV here")
    ap.add_argument("--write", action="store_true", help="write results/benchmarks/bootstrap.csv")
    a = ap.parse_args(argv)
    kv = embeddings.load("glove-840b-caliskan", progress=False)
    results = weat_results(kv)
    rows, totals = {}, {}
    for method in METHODS:
        best = None
        for _ in range(a.repeat):
            out, times = run_all(kv, results, method, a.resamples)
            if best is None or sum(times) < sum(best[1]):
                best = (out, times)
        totals[method] = sum(best[1])
        for (tid, r), b, sec in zip(results, *best):
            row = rows.setdefault(tid, {"test": tid, "sizes": "x".join(map(str, b.sizes)),
                                        "d": r.effect_size, "statistic": r.statistic})
            row.update({f"d_low_{method}": b.effect_size.low, f"d_high_{method}": b.effect_size.high,
                        f"s_low_{method}": b.statistic.low, f"s_high_{method}": b.statistic.high,
                        f"se_d_{method}": b.effect_size.standard_error, f"seconds_{method}": sec})
    table = pd.DataFrame(list(rows.values()))
    table["n_resamples"] = a.resamples
    base = baseline_seconds(kv, results[0][1], a.baseline_resamples)
    pd.set_option("display.width", 200)
    print(table.round(4).to_string(index=False))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nall ten tests, {a.resamples} resamples each, best of {a.repeat}: "
          + ", ".join(f"{m} {t:.3f} s" for m, t in totals.items())
          + f"  (CPUs {os.cpu_count()}, load average {load:.2f})")
    print(f"baseline, SciPy with a look-up on every resample, {results[0][0]}, percentile, scaled to 10,000 "
          f"resamples: {base:.1f} s (ours {table['seconds_percentile'].iloc[0]:.3f} s)")
    target = paths.RESULTS / "benchmarks" / "bootstrap.csv" if a.write else a.out
    if target:
        os.makedirs(os.path.dirname(str(target)) or ".", exist_ok=True)
        table.to_csv(target, index=False)
        print(f"wrote {target}")
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
