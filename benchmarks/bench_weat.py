"""Benchmark the WEAT p-value against WEFE and SciPy, in one run, on the same data.

For 8x2, 25x2 and 50x2 target words (25 attribute words a side, d = 300, a planted bias; see
``weat_data.py``) this times:

- **WEFE** 1.0.1, ``WEAT().run_query(..., calculate_p_value=True, p_value_iterations=R_wefe)``, run by its
  own interpreter (``.venv-wefe``, built by ``make wefe-venv``: WEFE pins numpy ≤ 1.26) on the same
  vectors, passed as ``.npy``/``.json``; it times itself, so interpreter start-up and imports are left out
  on both sides; against **ours** from the vectors, ``wordbias.measures.association.weat.weat(..., p_method="monte-carlo",
  n_permutations=R_wefe)``: equal numbers of permutations, everything from word vectors to p included;
- **SciPy** ``scipy.stats.permutation_test`` on the per-word scores s(w, A, B) (statistic Σx − Σy,
  ``vectorized=True``, ``permutation_type="independent"``, one-sided, in batches of 100,000) against
  ours, ``wordbias.stats.permutation.subset_sum_tail_mc``, on the same scores and the same number of permutations
  R, on one thread and on every CPU (for 8x2, whose 12,870 partitions are fewer than R, SciPy enumerates
  them all instead of sampling: there the random-partition comparison is made at 10,000, and SciPy's
  enumeration is compared with our exact count);
- our Monte Carlo throughput at 10^7 partitions, and our exact count
  (``wordbias.stats.permutation.subset_sum_tail_exact``, where it is within its default budget).

Writes ``results/benchmarks/weat_pvalue.csv`` and prints it; ``speedup`` is the baseline's seconds over
the row's seconds, both measured in this run. Ours and SciPy: best of 3 (our exact count: one run when
it takes more than a second); WEFE: one run.

    python benchmarks/bench_weat.py [--permutations 1000000] [--wefe-permutations 1000] [--skip-wefe]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from weat_data import keyed_vectors, make_problem, save_problem  # noqa: E402

from wordbias.core import (  # noqa: E402
    montecarlo,
    paths,  # noqa: E402
    permutation,
)
from wordbias.core.errors import ExactCountTooLarge
from wordbias.core.parallel import default_workers  # noqa: E402
from wordbias.measures.association import weat
from wordbias.options import Resampling

ROOT = Path(__file__).resolve().parent.parent
WEFE_PYTHON = ROOT / ".venv-wefe" / "bin" / "python"
SIZES = (8, 25, 50)
TARGET_SHIFT = 0.03   # effect sizes about 0.9-1.3, as in Caliskan et al.'s Table 1


def timed(fn, repeat: int = 3):
    """(best seconds, last result) over ``repeat`` calls."""
    best, out = np.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def run_wefe(folder: Path, iterations: int, seed: int) -> dict:
    out = folder / "wefe.json"
    subprocess.run([str(WEFE_PYTHON), str(Path(__file__).with_name("wefe_weat.py")), str(folder),
                    "--iterations", str(iterations), "--seed", str(seed), "--out", str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--permutations", type=int, default=1_000_000, help="R for SciPy vs ours on the scores")
    ap.add_argument("--wefe-permutations", type=int, default=1000, help="R for WEFE vs ours on the vectors")
    ap.add_argument("--throughput-permutations", type=int, default=10_000_000)
    ap.add_argument("--skip-wefe", action="store_true", help="leave WEFE out (no .venv-wefe)")
    ap.add_argument("--out", type=Path, default=paths.RESULTS / "benchmarks" / "weat_pvalue.csv")
    args = ap.parse_args()
    if not args.skip_wefe and not WEFE_PYTHON.exists():
        sys.exit(f"{WEFE_PYTHON} not found: run `make wefe-venv` (or pass --skip-wefe)")
    R, Rw = args.permutations, args.wefe_permutations
    cpus = default_workers()
    permutation.subset_sum_tail_mc(np.arange(4.0), 2, 1.0, n_permutations=10)  # compile / load the kernels first
    permutation.subset_sum_tail_exact(np.arange(4.0), 2, 1.0)
    rows = []

    def row(targets, implementation, data, method, threads, permutations, seconds, p, baseline, base_seconds):
        rows.append({"targets": targets, "implementation": implementation, "input": data, "method": method,
                     "threads": threads, "permutations": permutations, "seconds": seconds,
                     "partitions_per_s": permutations / seconds, "p_value": p, "baseline": baseline,
                     "speedup": base_seconds / seconds if base_seconds else np.nan})

    with tempfile.TemporaryDirectory(prefix="wordbias-bench-weat-") as tmp:
        for n in SIZES:
            label = f"{n}x2"
            vectors, sets = make_problem(n, target_shift=TARGET_SHIFT, seed=n)
            kv = keyed_vectors(vectors, sets["words"])
            X, Y, A, B = sets["X"], sets["Y"], sets["A"], sets["B"]

            # WEFE vs ours, from the word vectors, at equal permutations
            t_ours_vec, res = timed(lambda: weat.weat(kv, X, Y, A, B, p_method="monte-carlo",
                                                      resampling=Resampling(n_permutations=Rw, seed=1)))
            if not args.skip_wefe:
                wefe = run_wefe(save_problem(Path(tmp) / label, vectors, sets), Rw, seed=1)
                row(label, f"WEFE {wefe['wefe_version']} WEAT.run_query", "vectors", "monte-carlo", 1, Rw,
                    wefe["seconds"], wefe["p_value"], "WEFE", wefe["seconds"])
                t_wefe = wefe["seconds"]
            else:
                t_wefe = None
            row(label, "wordbias weat.weat", "vectors", "monte-carlo", 1 if Rw <= montecarlo.MC_BLOCK else cpus, Rw,
                t_ours_vec, res.p_value, "WEFE" if t_wefe else "", t_wefe)

            # SciPy vs ours, on the scores, at equal permutations
            s_x, s_y = res.s_x, res.s_y
            pooled, obs = np.concatenate([s_x, s_y]), float(s_x.sum())

            total = comb(2 * n, n)
            # SciPy enumerates every partition instead when n_resamples >= their number (12,870 for 8x2), so
            # there the Monte Carlo comparison is made at the largest power of ten below that number
            Req = R if total > R else 10 ** int(np.log10(total - 1))

            def scipy_perm(resamples):
                return sps.permutation_test((s_x, s_y), lambda a, b, axis: a.sum(axis=axis) - b.sum(axis=axis),
                                            permutation_type="independent", alternative="greater",
                                            n_resamples=resamples, vectorized=True, batch=100_000, random_state=1)

            t_scipy, sp = timed(lambda: scipy_perm(Req))
            row(label, "SciPy permutation_test", "scores", "monte-carlo", 1, Req, t_scipy, sp.pvalue, "SciPy",
                t_scipy)
            for w in sorted({1, cpus}):
                t, mc = timed(lambda: permutation.subset_sum_tail_mc(pooled, n, obs, n_permutations=Req, seed=1, workers=w))
                row(label, "wordbias stats.subset_sum_tail_mc", "scores", "monte-carlo", w, Req, t, mc.p_value,
                    "SciPy", t_scipy)
            t_scipy_exact = None
            if total <= R:
                t_scipy_exact, sp = timed(lambda: scipy_perm(R))
                row(label, "SciPy permutation_test", "scores", "exact (all partitions)", 1, total, t_scipy_exact,
                    sp.pvalue, "SciPy exact", t_scipy_exact)
            Rt = args.throughput_permutations
            t, mc = timed(lambda: permutation.subset_sum_tail_mc(pooled, n, obs, n_permutations=Rt, seed=1), 1)
            row(label, "wordbias stats.subset_sum_tail_mc", "scores", "monte-carlo", cpus, Rt, t, mc.p_value, "", None)

            # our exact count (all C(N, k) partitions), where the default budget allows it (one run)
            t = time.perf_counter()
            try:
                ex = permutation.subset_sum_tail_exact(pooled, n, obs)
                method, p_exact = "exact", ex.p_value
            except ExactCountTooLarge:
                method, p_exact = "exact: over budget (ExactCountTooLarge)", np.nan
            t = time.perf_counter() - t
            if t < 1 and method == "exact":   # quick: best of 3, like the other rows
                t = min(t, timed(lambda: permutation.subset_sum_tail_exact(pooled, n, obs), 2)[0])
            row(label, "wordbias stats.subset_sum_tail_exact", "scores", method, cpus, total, t, p_exact,
                "SciPy exact" if t_scipy_exact else "", t_scipy_exact)
            if np.isnan(p_exact):
                rows[-1]["partitions_per_s"] = np.nan
            print(f"{label} done", flush=True)

    df = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out, index=False, float_format="%.4g")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(df.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    print()
    for n in SIZES:
        sub = df[df.targets == f"{n}x2"]
        if not args.skip_wefe:
            wv = sub[(sub.baseline == "WEFE") & sub.implementation.str.startswith("wordbias")].speedup.iloc[0]
            print(f"{n}x2: ours {wv:,.0f}x faster than WEFE at {Rw:,} permutations (from the vectors)")
        sc = sub[(sub.baseline == "SciPy") & sub.implementation.str.startswith("wordbias")]
        print(f"{n}x2: ours " + ", ".join(f"{r.speedup:.1f}x ({r.threads} thread{'s' * (r.threads > 1)})"
                                          for r in sc.itertuples())
              + f" faster than SciPy at {sc.permutations.iloc[0]:,} permutations (from the scores)")
        se = sub[(sub.baseline == "SciPy exact") & sub.implementation.str.startswith("wordbias")]
        if len(se):
            print(f"{n}x2: our exact count {se.speedup.iloc[0]:.1f}x faster than SciPy's enumeration")
        top = sub[sub.permutations == args.throughput_permutations]
        ex = sub[sub.implementation.str.endswith("exact")].iloc[0]
        print(f"{n}x2: our Monte Carlo {top.partitions_per_s.iloc[0] / 1e6:.1f} million partitions/s; exact count "
              + (f"of all {ex.permutations:.3g} partitions in {ex.seconds:.3g} s" if ex.method == "exact"
                 else f"over budget (found out in {ex.seconds:.2f} s)"))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
