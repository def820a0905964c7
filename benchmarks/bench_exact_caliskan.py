"""Exact WEAT p-values for every test of Caliskan et al.'s Table 1, timed, beside Monte Carlo.

On ``glove-840b-caliskan`` (the authors' GloVe 840B vectors of the stimuli), for each of the ten WEATs:
the exact p (``wordbias.stats.permutation.subset_sum_tail_exact``: every partition counted) and its time, the
Monte Carlo p with R = 10^7 seeded random partitions and its rate, the two-sided binomial test of the
Monte Carlo count against the exact p, and the normal approximation. Where the exact count is at most
3·10^8, it is checked against an independent count: a depth-first enumeration of the extreme
partitions one by one (values sorted, a branch cut when even the largest remaining values cannot reach
the observed sum; no meet in the middle), compiled here. Then the worst case for a 25+25
test: scores whose observed sum sits at the median, where the tail pruning removes nothing and all
2 × 2^25 half-sums are built. Writes ``results/benchmarks/caliskan_exact.csv``.

    python benchmarks/bench_exact_caliskan.py [--embedding glove-840b-caliskan] [--permutations 10000000]
"""

from __future__ import annotations

import argparse
import time
from math import comb

import numpy as np
import pandas as pd
from scipy import stats as sps

from wordbias import embeddings
from wordbias.core import paths
from wordbias.core.errors import ExactCountTooLarge
from wordbias.core.parallel import default_workers
from wordbias.datasets import stimuli
from wordbias.measures.association import weat
from wordbias.options import Resampling, Words
from wordbias.stats import permutation, subset_sums

_DFS = []


def dfs_count(values: np.ndarray, k: int, threshold: float, limit: int) -> int:
    """#{size-k subsets with sum ≥ threshold}, enumerated one by one (−1 past ``limit``)."""
    if not _DFS:
        _DFS.append(_compile_dfs())
    v = np.sort(values)[::-1].copy()
    return int(_DFS[0](v, k, threshold, limit))


def _compile_dfs():
    from numba import njit

    @njit
    def count(v, k, thr, limit):  # pragma: no cover - compiled
        n = v.size
        pre = np.zeros(n + 1)
        for i in range(n):
            pre[i + 1] = pre[i] + v[i]
        idx = np.zeros(k + 1, np.int64)
        c, i, s, found = 0, 0, 0.0, 0
        while True:
            if c == k or n - i < k - c or s + pre[i + k - c] - pre[i] < thr:
                if c == k and s >= thr:
                    found += 1
                    if found > limit:
                        return -1
                if c == 0:
                    return found
                c -= 1                      # backtrack: drop the last chosen value, try the next one
                s -= v[idx[c]]
                i = idx[c] + 1
                continue
            idx[c] = i
            s += v[i]
            c += 1
            i += 1

    return count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedding", default="glove-840b-caliskan")
    ap.add_argument("--permutations", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    kv = embeddings.load(args.embedding, progress=False)
    case_fold = not embeddings.is_cased(kv)
    t = time.perf_counter()
    permutation.subset_sum_tail_exact(np.arange(4.0), 2, 1.0)          # load the compiled kernels (disk cache)
    permutation.subset_sum_tail_mc(np.arange(4.0), 2, 1.0, n_permutations=10)
    print(f"kernels loaded in {time.perf_counter() - t:.2f} s; {default_workers()} CPUs")
    rows = []
    for spec in stimuli.weat_tests("caliskan2017"):
        res = weat.weat(kv, spec.X, spec.Y, spec.A, spec.B,
                        resampling=Resampling(seed=args.seed, n_permutations=100_000),
                        words=Words(case_fold=case_fold), p_method="normal")
        pooled, k, obs = np.concatenate([res.s_x, res.s_y]), len(res.s_x), float(res.s_x.sum())
        t = time.perf_counter()
        try:
            ex = permutation.subset_sum_tail_exact(pooled, k, obs)
            p_exact, count = ex.p_value, ex.n_extreme
        except ExactCountTooLarge:
            p_exact, count = np.nan, None
        t_exact = time.perf_counter() - t
        dfs = (dfs_count(pooled, k, obs - subset_sums.TIE_RTOL * np.abs(pooled).sum(), 300_000_000)
               if count is not None and count <= 300_000_000 else None)
        t = time.perf_counter()
        mc = permutation.subset_sum_tail_mc(pooled, k, obs, n_permutations=args.permutations, seed=args.seed)
        t_mc = time.perf_counter() - t
        rows.append({
            "test": spec.id, "n_target": f"{len(res.s_x)}x{len(res.s_y)}", "partitions": comb(pooled.size, k),
            "p_exact": p_exact, "extreme_partitions": count, "exact_seconds": t_exact,
            "depth_first_count": dfs, "depth_first_agrees": (dfs == count) if dfs is not None else None,
            "p_monte_carlo": mc.p_value, "monte_carlo_se": mc.se, "monte_carlo_hits": mc.n_extreme,
            "monte_carlo_seconds": t_mc, "monte_carlo_partitions_per_s": args.permutations / t_mc,
            "mc_vs_exact_binomial_p": (sps.binomtest(mc.n_extreme, mc.n_permutations, p_exact).pvalue
                                       if count is not None else np.nan),
            "p_normal": res.p_value,
        })
        print(f"{spec.id:7s} N={pooled.size:3d}  exact p = {p_exact:.3e} in {t_exact:6.3f} s   "
              f"MC p = {mc.p_value:.2e} ± {mc.se:.1e} ({args.permutations / t_mc / 1e6:.0f} M/s)   "
              f"binomial p = {rows[-1]['mc_vs_exact_binomial_p']:.2f}   depth-first count agrees: "
              f"{rows[-1]['depth_first_agrees']}", flush=True)
    # the worst case for 25+25: the observed sum at the median, no pruning possible
    rng = np.random.default_rng(args.seed)
    pooled = rng.normal(size=50)
    obs = float(np.median([rng.permutation(pooled)[:25].sum() for _ in range(999)]))
    t = time.perf_counter()
    ex = permutation.subset_sum_tail_exact(pooled, 25, obs)
    t_exact = time.perf_counter() - t
    rows.append({"test": "worst case (random scores, median)", "n_target": "25x25", "partitions": comb(50, 25),
                 "p_exact": ex.p_value, "extreme_partitions": ex.n_extreme, "exact_seconds": t_exact})
    print(f"worst case 25+25 (p = {ex.p_value:.3f}): exact in {t_exact:.2f} s")
    df = pd.DataFrame(rows)
    for col in ("extreme_partitions", "depth_first_count", "depth_first_agrees"):  # exact integers, blanks
        df[col] = pd.Series([r.get(col) for r in rows], dtype=object)
    out = paths.RESULTS / "benchmarks" / "caliskan_exact.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False, float_format="%.4g")
    print(f"slowest Table 1 exact p: {df.exact_seconds[:-1].max():.3f} s; all consistent with Monte Carlo "
          f"(binomial p > 0.001): {bool((df.mc_vs_exact_binomial_p[:-1] > 1e-3).all())}; depth-first counts "
          f"agree: {int(df.depth_first_agrees.eq(True).sum())} of {int(df.depth_first_agrees.notna().sum())}")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
