"""Benchmark the WEAT p-value (the hot path of every WEAT table).

For target sets of 8x2, 22x2 and 25x2 random associations s(w, A, B), times in one run:
ours exact (meet in the middle, where |X ∪ Y| <= 44), ours Monte Carlo, and
``scipy.stats.permutation_test`` at the same number of permutations. Writes
``results/benchmarks/weat_pvalue.csv`` and prints partitions per second and the ratio to SciPy.

    python benchmarks/bench_weat.py [--permutations 100000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from wordbias import paths, stats


def timed(fn, repeat: int = 3) -> float:
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--permutations", type=int, default=100_000)
    args = ap.parse_args()
    R = args.permutations
    rows = []
    rng = np.random.default_rng(0)
    for n in (8, 22, 25):
        s_x, s_y = rng.normal(0.2, 1, n), rng.normal(0, 1, n)
        pooled = np.concatenate([s_x, s_y])
        obs = s_x.sum()

        def scipy_mc():
            sps.permutation_test((s_x, s_y), lambda a, b, axis: a.sum(axis=axis) - b.sum(axis=axis),
                                 permutation_type="independent", alternative="greater", n_resamples=R,
                                 vectorized=True, random_state=1)

        t_scipy = timed(scipy_mc, 1)
        t_mc = timed(lambda: stats.subset_sum_tail_mc(pooled, n, obs, n_samples=R, seed=1))
        rows.append({"targets": f"{n}x2", "method": "scipy.permutation_test", "permutations": R,
                     "seconds": t_scipy, "partitions_per_s": R / t_scipy, "ratio_vs_scipy": 1.0})
        rows.append({"targets": f"{n}x2", "method": "wordbias monte-carlo", "permutations": R,
                     "seconds": t_mc, "partitions_per_s": R / t_mc, "ratio_vs_scipy": t_scipy / t_mc})
        if 2 * n <= stats.EXACT_MAX_N:
            t_ex = timed(lambda: stats.subset_sum_tail_exact(pooled, n, obs), 1)
            total = stats.subset_sum_tail_exact(pooled, n, obs).n_partitions
            rows.append({"targets": f"{n}x2", "method": "wordbias exact (all partitions)", "permutations": total,
                         "seconds": t_ex, "partitions_per_s": total / t_ex, "ratio_vs_scipy": t_scipy / t_ex})
    df = pd.DataFrame(rows)
    out = paths.RESULTS / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "weat_pvalue.csv", index=False, float_format="%.4g")
    with pd.option_context("display.width", 160):
        print(df.to_string(index=False, float_format=lambda v: f"{v:.4g}"))


if __name__ == "__main__":
    main()
