"""Differential check of our WEAT against WEFE 1.0.1, after accounting for the documented differences.

Run by ``make bench`` (it needs ``.venv-wefe``). On synthetic problems of 8x2 and 25x2 targets with a
moderate bias (``weat_data.py``), WEFE runs in its own interpreter on the same float32 vectors and this
script asserts, reading WEFE's ``wefe/metrics/WEAT.py``:

1. the statistic: WEFE's ``weat`` equals our s(X, Y, A, B) up to float32 rounding (WEFE's cosines come
   from ``sklearn.metrics.pairwise.cosine_similarity``, which keeps the float32 of the vectors);
2. the default result: ``run_query`` returns the statistic s as ``result`` unless
   ``return_effect_size=True`` (``return_effect_size=False`` by default);
3. the effect size: WEFE divides by ``np.std`` (population std, ddof = 0), so its d is ours
   (sample std, ddof = 1, which reproduces Caliskan et al.'s Table 1) times sqrt(N / (N − 1));
4. the p-value: WEFE's draws are ``rng.choice(pool, size=N)``, i.e. N words *with* replacement (the
   check counts draws that repeat a word), split into the first |X| and the rest, counted when
   strictly greater (``calculated > original``), p = (count + 1) / (runs + 1). That null is not the
   permutation null of the paper: its statistic has variance smaller by (N − 1)/N, so upper-tail
   p-values are smaller. The check simulates WEFE's null here (2·10^6 draws with replacement, numpy)
   and asserts that WEFE's count agrees with it (binomial test), and that it differs from our exact
   permutation p in the predicted direction.

Prints a table and writes ``results/benchmarks/wefe_check.csv``; exits non-zero if an assertion fails.

    python benchmarks/check_wefe.py [--iterations 2000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from math import sqrt
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from weat_data import keyed_vectors, make_problem, save_problem  # noqa: E402

from wordbias.core import paths  # noqa: E402
from wordbias.measures.association import weat

ROOT = Path(__file__).resolve().parent.parent
WEFE_PYTHON = ROOT / ".venv-wefe" / "bin" / "python"


def run_wefe(folder: Path, iterations: int, seed: int, effect_size: bool = False) -> dict:
    out = folder / f"wefe_{iterations}_{seed}_{int(effect_size)}.json"
    cmd = [str(WEFE_PYTHON), str(Path(__file__).with_name("wefe_weat.py")), str(folder),
           "--iterations", str(iterations), "--seed", str(seed), "--out", str(out)]
    subprocess.run(cmd + (["--return-effect-size"] if effect_size else []), check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def with_replacement_tail(scores: np.ndarray, k: int, observed: float, draws: int, seed: int) -> float:
    """Pr[Σ first k − Σ other N − k > observed] when the N words are drawn with replacement (WEFE's null)."""
    rng = np.random.default_rng(seed)
    n, hits, chunk = scores.size, 0, 100_000
    sign = np.where(np.arange(n) < k, 1.0, -1.0)
    for start in range(0, draws, chunk):
        idx = rng.integers(0, n, size=(min(chunk, draws - start), n))
        hits += int(np.count_nonzero(scores[idx] @ sign > observed))
    return hits / draws


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=2000, help="WEFE's p_value_iterations")
    ap.add_argument("--null-draws", type=int, default=2_000_000, help="draws of WEFE's null simulated here")
    ap.add_argument("--out", type=Path, default=paths.RESULTS / "benchmarks" / "wefe_check.csv")
    args = ap.parse_args()
    if not WEFE_PYTHON.exists():
        sys.exit(f"{WEFE_PYTHON} not found: run `make wefe-venv`")
    rows, failures = [], []

    def check(ok: bool, what: str) -> str:
        if not ok:
            failures.append(what)
        return "ok" if ok else "FAILED"

    with tempfile.TemporaryDirectory(prefix="wordbias-check-wefe-") as tmp:
        for n, shift in ((8, 0.035), (25, 0.02)):   # p about 0.03: where the two nulls part
            vectors, sets = make_problem(n, target_shift=shift, seed=100 + n)
            folder = save_problem(Path(tmp) / f"{n}x2", vectors, sets)
            kv = keyed_vectors(vectors, sets["words"])
            ours = weat.weat(kv, sets["X"], sets["Y"], sets["A"], sets["B"], p_method="exact")
            N = 2 * n
            w = run_wefe(folder, args.iterations, seed=2)
            w_es = run_wefe(folder, 1, seed=2, effect_size=True)
            scores = np.concatenate([ours.s_x, ours.s_y])
            tol = 1e-6 * N                                   # float32 cosines, summed over N words
            d_pop = weat.effect_size(ours.s_x, ours.s_y, ddof=0)
            q = with_replacement_tail(scores, n, w["weat"], args.null_draws, seed=3)
            q_se = sqrt(q * (1 - q) / args.null_draws)
            count = round(w["p_value"] * (w["iterations"] + 1) - 1)
            agrees_with_null = sps.binomtest(count, w["iterations"], q).pvalue
            vs_exact = sps.binomtest(count, w["iterations"], ours.p_value).pvalue
            r = {
                "targets": f"{n}x2",
                "statistic_ours": ours.statistic, "statistic_wefe": w["weat"],
                "statistic": check(abs(w["weat"] - ours.statistic) <= tol, f"{n}x2 statistic"),
                "default_result_is_statistic": check(w["result"] == w["weat"] and w_es["result"] == w_es["effect_size"],
                                                     f"{n}x2 default result"),
                "d_ours_ddof1": ours.effect_size, "d_ours_ddof0": d_pop, "d_wefe": w["effect_size"],
                "d_wefe_over_ours": w["effect_size"] / ours.effect_size, "sqrt_N_over_N_minus_1": sqrt(N / (N - 1)),
                "effect_size_population_std": check(
                    abs(w["effect_size"] - d_pop) <= 1e-5 * abs(d_pop)
                    and abs(w["effect_size"] - ours.effect_size) > 1e-3 * abs(d_pop), f"{n}x2 effect size"),
                "wefe_draws": w["draws"], "wefe_draws_repeating_a_word": w["draws_with_repeated_words"],
                "draws_with_replacement": check(w["draws"] == w["iterations"]
                                                and w["draws_with_repeated_words"] > 0.9 * w["draws"],
                                                f"{n}x2 draws with replacement"),
                "p_wefe": w["p_value"], "wefe_iterations": w["iterations"],
                "p_with_replacement_null": q, "p_with_replacement_null_se": q_se,
                "p_ours_exact": ours.p_value,
                "binomial_p_wefe_vs_with_replacement_null": agrees_with_null,
                "binomial_p_wefe_vs_our_exact": vs_exact,
                "p_wefe_consistent_with_its_null": check(agrees_with_null > 1e-3, f"{n}x2 WEFE p vs its null"),
                "with_replacement_null_below_exact": check(q < ours.p_value - 5 * q_se, f"{n}x2 null direction"),
            }
            rows.append(r)
            print(json.dumps({k: (round(v, 6) if isinstance(v, float) else v) for k, v in r.items()}), flush=True)
    df = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out, index=False, float_format="%.6g")
    with pd.option_context("display.width", 200, "display.max_columns", 40):
        print(df.T.to_string(header=False))
    print(f"written to {args.out}")
    if failures:
        sys.exit("WEFE check FAILED: " + "; ".join(failures))
    print("WEFE check passed: same statistic; d differs by sqrt(N/(N-1)) (population std); default result is s; "
          "p-values follow WEFE's with-replacement null")


if __name__ == "__main__":
    main()
