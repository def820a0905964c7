"""Benchmark the WEAT Monte Carlo permutation test against SciPy's ``permutation_test``, in one run.

For 8x2, 25x2 and 50x2 target words (25 attribute words a side, d = 300, a planted bias; ``weat_data.py``),
on the per-word scores s(w, A, B), at the same number of resamples R (10,000 for 8x2, whose 12,870
partitions SciPy would enumerate instead of sampling at R = 10⁶; 10⁶ otherwise), this times:

- **SciPy** ``scipy.stats.permutation_test`` (statistic Σx − Σy, ``vectorized=True``,
  ``permutation_type="independent"``, one-sided, batches of 100,000): single-threaded (NumPy's reductions
  here use one core);
- **ours**, ``wordbias.stats.permutation.subset_sum_tail_mc``, on 1 and 2 threads (``workers``; the p is the
  same on any number), with the draws it makes today (bit masks for N ≤ 128, :func:`mc_uses_mask`);
- **ours, Fisher–Yates**: the same call with every draw a partial Fisher–Yates shuffle (the method used
  for every N before the bit masks, and still for N > 128 or a small side under N/4): the "before".

Every time is the best of ``--repeat`` (default 5) in this process; ``speedup`` is SciPy's seconds over the
row's. Each row records the CPU, the kernel setting (``WORDBIAS_KERNELS``, ``NUMBA_CPU_NAME``: run
``eval "$(make -s kernel-env)"`` first) and the load average before and after the run, so a disturbed run
can be told from a quiet one.

Writes ``benchmarks/results/bench_montecarlo/montecarlo_vs_scipy.csv`` (``--out``) and prints it.

    python benchmarks/bench_montecarlo.py [--repeat 5] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from math import comb
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model  # noqa: E402
from weat_data import keyed_vectors, make_problem  # noqa: E402

from wordbias.measures.association import weat  # noqa: E402
from wordbias.stats import montecarlo, permutation  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZES = (8, 25, 50)
TARGET_SHIFT = 0.03   # effect sizes about 0.9-1.3, as in Caliskan et al.'s Table 1 (as bench_weat.py)



def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return ""


def best_of(fn, repeat: int):
    best, out = np.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--permutations", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "bench_montecarlo" / "montecarlo_vs_scipy.csv")
    args = ap.parse_args()
    permutation.subset_sum_tail_mc(np.arange(4.0), 2, 1.0, n_permutations=10)      # compile / load the kernels
    permutation.subset_sum_tail_mc(np.arange(40.0), 2, 1.0, n_permutations=10)
    setting = {"cpu": cpu_model(), "cores": os.cpu_count(),
               "wordbias_kernels": os.environ.get("WORDBIAS_KERNELS", ""),
               "numba_cpu_name": os.environ.get("NUMBA_CPU_NAME", "")}
    rows = []
    for n in SIZES:
        label = f"{n}x2"
        vectors, sets = make_problem(n, target_shift=TARGET_SHIFT, seed=n)
        kv = keyed_vectors(vectors, sets["words"])
        res = weat.weat(kv, sets["X"], sets["Y"], sets["A"], sets["B"], p_method="normal")
        s_x, s_y = res.s_x, res.s_y
        pooled, obs = np.concatenate([s_x, s_y]), float(s_x.sum())
        R = args.permutations if comb(2 * n, n) > args.permutations else 10 ** int(np.log10(comb(2 * n, n) - 1))
        load_before = load()

        def scipy_perm():
            return sps.permutation_test((s_x, s_y), lambda a, b, axis: a.sum(axis=axis) - b.sum(axis=axis),
                                        permutation_type="independent", alternative="greater", n_resamples=R,
                                        vectorized=True, batch=100_000, random_state=1)

        def ours(w):
            return permutation.subset_sum_tail_mc(pooled, n, obs, n_permutations=R, seed=1, workers=w)

        t_scipy, sp = best_of(scipy_perm, max(1, min(args.repeat, 3)))
        found = [("SciPy permutation_test", "", 1, t_scipy, sp.pvalue)]
        for w in (1, 2):
            t, mc = best_of(lambda: ours(w), args.repeat)
            found.append(("wordbias subset_sum_tail_mc", "bit masks" if montecarlo.mc_uses_mask(2 * n, n)
                          else "Fisher-Yates", w, t, mc.p_value))
        with mock.patch.object(montecarlo, "mc_uses_mask", lambda n_, k_: False):
            for w in (1, 2):
                t, mc = best_of(lambda: ours(w), args.repeat)
                found.append(("wordbias subset_sum_tail_mc, Fisher-Yates (before)", "Fisher-Yates", w, t,
                              mc.p_value))
        load_after = load()
        for impl, draws, w, t, p in found:
            rows.append({"targets": label, "N": 2 * n, "permutations": R, "implementation": impl, "draws": draws,
                         "threads": w, "seconds": t, "partitions_per_s": R / t, "p_value": p,
                         "speedup_vs_scipy": t_scipy / t, "load_before": load_before, "load_after": load_after,
                         **setting})
        print(f"{label} done (load {load_before} -> {load_after})", flush=True)
    df = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out, index=False, float_format="%.4g")
    with pd.option_context("display.width", 250, "display.max_columns", 20):
        print(df.drop(columns=["cpu", "cores", "wordbias_kernels", "numba_cpu_name"]).to_string(
            index=False, float_format=lambda v: f"{v:.4g}"))
    print(f"{setting}\nwritten to {args.out}")


if __name__ == "__main__":
    main()
