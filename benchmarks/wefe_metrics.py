"""WEFE 1.0.1's ECT, RND, RNSB and MAC on word sets handed over by ``check_wefe_metrics.py``; run by WEFE's
own interpreter: ``.venv-wefe/bin/python benchmarks/wefe_metrics.py DATA_DIR --out result.json``.

It must not import wordbias (wordbias needs numpy >= 2, WEFE pins numpy <= 1.26): it imports wefe, numpy and
(through ``weat_data.keyed_vectors``) gensim, a WEFE dependency. ``DATA_DIR`` holds ``vectors.npy`` (float32, one
row per word) and ``queries.json`` (``{"words": [...], "queries": [{"name", "T1", "T2", "A1", "A2"}, ...],
"rnsb_seeds": [...], "repeats": R}``). For each query it runs, on one ``WordEmbeddingModel``:

- ``ECT().run_query(Query([T1, T2], [A1 ∪ A2]))``, ``normalize`` False (WEFE's default) and True;
- ``RND().run_query(Query([T1, T2], [A1 ∪ A2]))``, ``distance`` "norm" (default) and "cos", ``normalize`` False
  (default) and True;
- ``MAC().run_query(Query([T1, T2], [A1, A2]))``;
- ``RNSB().run_query(Query([T1, T2], [A1, A2]))``: WEFE labels attribute set 0 +1 ("positive") and set 1 −1
  ("negative", ``wefe/metrics/RNSB.py`` lines 144-151), so A1 is the positive set and A2 the negative one; once
  with ``holdout=False, random_state=0`` (the classifier trained on every attribute word: deterministic), with the
  per-word negative probabilities, and once per seed of ``rnsb_seeds`` with WEFE's defaults
  (``holdout=True``: a stratified 80/20 split, ``random_state`` = the seed). ``estimator_params`` is passed
  fresh each call with WEFE's default values ({"solver": "liblinear", "max_iter": 10000}): WEFE's default dict is
  shared between calls and ``_train_classifier`` writes ``random_state`` into it (line 142).

Each run is timed (``time.perf_counter`` around ``run_query``: the embedding look-up and the metric), the
median of ``repeats`` calls. Writes the values and timings as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from weat_data import keyed_vectors  # noqa: E402

RNSB_PARAMS = {"solver": "liblinear", "max_iter": 10000}   # WEFE 1.0.1's default estimator_params


def timed(fn, repeats: int):
    """(the last result, the median seconds of ``repeats`` calls)."""
    seconds, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        seconds.append(time.perf_counter() - start)
    return out, statistics.median(seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    import wefe
    from wefe.metrics import ECT, MAC, RND, RNSB
    from wefe.query import Query
    from wefe.word_embedding_model import WordEmbeddingModel

    spec = json.loads((args.data / "queries.json").read_text(encoding="utf-8"))
    vectors = np.load(args.data / "vectors.npy")
    model = WordEmbeddingModel(keyed_vectors(vectors, spec["words"]), "handed over")
    repeats, seeds = spec["repeats"], spec["rnsb_seeds"]
    out = {"wefe_version": wefe.__version__, "numpy_version": np.__version__, "queries": {}}
    for q in spec["queries"]:
        name, T1, T2, A1, A2 = q["name"], q["T1"], q["T2"], q["A1"], q["A2"]
        one_attribute = Query([T1, T2], [A1 + A2], ["T1", "T2"], ["A"])
        two_attributes = Query([T1, T2], [A1, A2], ["T1", "T2"], ["A1", "A2"])
        r = {}
        for normalize in (False, True):
            res, sec = timed(lambda: ECT().run_query(one_attribute, model, normalize=normalize), repeats)
            r[f"ect_normalize={normalize}"] = {"value": float(res["result"]), "seconds": sec}
            for distance in ("norm", "cos"):
                res, sec = timed(lambda: RND().run_query(one_attribute, model, distance=distance,
                                                         normalize=normalize), repeats)
                r[f"rnd_{distance}_normalize={normalize}"] = {
                    "value": float(res["result"]), "seconds": sec,
                    "distance_by_word": {w: float(v) for w, v in res["distance_by_word"].items()}}
        res, sec = timed(lambda: MAC().run_query(two_attributes, model), repeats)
        r["mac"] = {"value": float(res["result"]), "seconds": sec}
        res, sec = timed(lambda: RNSB().run_query(two_attributes, model, holdout=False, random_state=0,
                                                  estimator_params=dict(RNSB_PARAMS)), repeats)
        r["rnsb_no_holdout"] = {"value": float(res["result"]), "seconds": sec,
                                "negative_probabilities": {w: float(v) for w, v in
                                                           res["negative_sentiment_probabilities"].items()}}
        values, secs = [], []
        for seed in seeds:
            res, sec = timed(lambda: RNSB().run_query(two_attributes, model, random_state=seed,
                                                      estimator_params=dict(RNSB_PARAMS)), 1)
            values.append(float(res["result"]))
            secs.append(sec)
        r["rnsb_holdout"] = {"values": values, "seeds": seeds, "seconds": statistics.median(secs)}
        out["queries"][name] = r
    args.out.write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(json.dumps({k: {m: v.get("value") for m, v in r.items()} for k, r in out["queries"].items()}))


if __name__ == "__main__":
    main()
