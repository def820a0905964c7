"""The exact p of a subset-sum test as a report asks for it: one-sided, then two-sided, two ways, one run.

A WEAT (or a masked LM's log-probability test) reports its one-sided and its two-sided p. Counted separately (the
rows "before"), they are three exact counts, each building the two halves' subset sums
(``wordbias.stats.exact_count``): the upper tail for the one-sided p, then the lower and the upper tail again for the
two-sided one. As the library counts them (the rows "now"), the two tails share one build where they are counted on
the same values (the usual case: the observed sum not within the tie tolerance of the mean), the one-sided p counts
the other tail beside its own (one more sweep of the pairs), and counts are remembered, so the two-sided p that
follows is already known (``wordbias.stats.exact_count.tail_counts``). "Before" is replayed here with the memory
cleared before each count, which is exactly the sequence of three separate builds; the counts of both must be the
same integers (checked). Cases of N = 50 (25 + 25): the observed sum at the median (nothing pruned: the worst case),
at p about 0.15 (the tiny masked LM's Kurita tests), and at p about 0.01. Each timing is the best of ``--repeats``,
the two ways alternated.

Writes ``benchmarks/results/bench_exact_two_sided/timings.csv``, each row with the CPU and the kernel setting
(``WORDBIAS_KERNELS``: run ``eval "$(make -s kernel-env)"`` first).

    python benchmarks/bench_exact_two_sided.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.stats import exact_count, permutation

OUT = Path(__file__).resolve().parent / "results" / "bench_exact_two_sided"


def before(values: np.ndarray, k: int, obs: float) -> tuple[int, int]:
    """Three separate counts: upper (one-sided p), then lower and upper (two-sided p), each built alone."""
    counts = []
    for v, t in ((values, obs), (-values, -obs), (values, obs)):
        exact_count._MEMO.clear()
        counts.append(exact_count.count_subsets_at_least(v, k, t, workers=1))
    exact_count._MEMO.clear()
    return counts[2], counts[1]


def now(values: np.ndarray, k: int, obs: float) -> tuple[int, int]:
    """The p-values a report asks for, as the library computes them (memory cleared first)."""
    exact_count._MEMO.clear()
    one = permutation.subset_sum_tail_exact(values, k, obs, workers=1)
    two = permutation.subset_sum_tail_exact(values, k, obs, alternative="two-sided", workers=1)
    upper, lower = exact_count.count_both_tails(values, k, obs, workers=1)     # from the memory: no build
    assert one.n_extreme == upper and two.n_extreme == min(upper, lower)
    exact_count._MEMO.clear()
    return upper, lower


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from machine import cpu_model  # benchmarks/machine.py

    rng = np.random.default_rng(0)
    pooled = rng.normal(size=50)
    sums = np.sort([rng.permutation(pooled)[:25].sum() for _ in range(9999)])
    cases = {"median (worst case)": sums[len(sums) // 2], "p about 0.15": sums[int(0.85 * len(sums))],
             "p about 0.01": sums[int(0.99 * len(sums))]}
    now(np.arange(4.0), 2, 3.0)                                        # load the compiled kernels
    rows = []
    for name, obs in cases.items():
        times = {"before": [], "now": []}
        for _ in range(args.repeats):
            for label, fn in (("before", before), ("now", now)):
                t = time.perf_counter()
                counts = fn(pooled, 25, float(obs))
                times[label].append(time.perf_counter() - t)
                if label == "before":
                    expected = counts
                else:
                    assert counts == expected, (name, counts, expected)
        b, n = min(times["before"]), min(times["now"])
        rows.append({"case": name, "N": 50, "k": 25, "upper": expected[0], "lower": expected[1],
                     "before_s": b, "now_s": n, "ratio": b / n, "cpu": cpu_model(),
                     "kernels": os.environ.get("WORDBIAS_KERNELS", "unset")})
        print(f"{name:20s} before {b:6.3f} s  now {n:6.3f} s  ({b / n:.2f}x)  same counts", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT / "timings.csv", index=False, float_format="%.4g")
    print(f"written to {OUT / 'timings.csv'}")


if __name__ == "__main__":
    main()
