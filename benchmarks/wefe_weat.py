"""WEFE's WEAT on a problem saved by ``weat_data.save_problem``; run by WEFE's own interpreter,
``.venv-wefe/bin/python benchmarks/wefe_weat.py DATA_DIR --iterations R --seed S --out result.json``.

It must not import wordbias (wordbias needs numpy ≥ 2, WEFE pins numpy ≤ 1.26). It times
``WEAT().run_query(query, model, calculate_p_value=True, p_value_iterations=R)`` (the embedding
lookup, the statistic, the effect size and the p-value) and writes what WEFE returned to a JSON file.

WEFE draws its permutations from ``np.random.default_rng()`` with no seed; to make a run reproducible
this script makes that call return ``default_rng(S)`` instead (nothing else is changed), and it
records the draws (``rng.choice(pool, size=N)``) to count how many contain a word more than once.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from weat_data import keyed_vectors, load_problem  # noqa: E402


class _RecordingRng:
    """Forwards to a numpy Generator; records what ``choice`` returns (WEFE's permutations)."""

    def __init__(self, rng):
        self._rng = rng
        self.draws = 0
        self.with_repeats = 0

    def choice(self, *args, **kwargs):
        out = self._rng.choice(*args, **kwargs)
        self.draws += 1
        self.with_repeats += len(set(np.asarray(out).tolist())) < len(out)
        return out

    def __getattr__(self, name):
        return getattr(self._rng, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--return-effect-size", action="store_true")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    import wefe
    from wefe.metrics import WEAT
    from wefe.query import Query
    from wefe.word_embedding_model import WordEmbeddingModel

    vectors, sets = load_problem(args.data)
    model = WordEmbeddingModel(keyed_vectors(vectors, sets["words"]), "synthetic")
    query = Query([sets["X"], sets["Y"]], [sets["A"], sets["B"]], ["X", "Y"], ["A", "B"])

    original = np.random.default_rng
    recorder = {}

    def seeded(seed=None, *a, **k):
        rng = _RecordingRng(original(args.seed if seed is None else seed, *a, **k))
        recorder["rng"] = rng
        return rng

    np.random.default_rng = seeded
    try:
        start = time.perf_counter()
        res = WEAT().run_query(query, model, calculate_p_value=True, p_value_iterations=args.iterations,
                               return_effect_size=args.return_effect_size)
        seconds = time.perf_counter() - start
    finally:
        np.random.default_rng = original
    rng = recorder.get("rng")
    out = {
        "wefe_version": wefe.__version__,
        "numpy_version": np.__version__,
        "iterations": args.iterations,
        "seed": args.seed,
        "return_effect_size": args.return_effect_size,
        "seconds": seconds,
        "result": float(res["result"]),
        "weat": float(res["weat"]),
        "effect_size": float(res["effect_size"]),
        "p_value": float(res["p_value"]),
        "draws": rng.draws if rng else 0,
        "draws_with_repeated_words": rng.with_repeats if rng else 0,
    }
    args.out.write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
