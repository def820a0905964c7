"""Reconcile our ECT, RND, RNSB and MAC with WEFE 1.0.1's on real word sets, and time both.

WEFE runs in its own interpreter (``.venv-wefe``, ``make wefe-venv``: it pins numpy <= 1.26) on the same float32
vectors of GloVe 6B 50d (``glove-6b-50d``, the bundled embedding), handed over as ``vectors.npy`` +
``queries.json`` (``benchmarks/wefe_metrics.py``). The word sets are Caliskan et al.'s (2017) Table 1 lists
(:func:`wordbias.datasets.stimuli.weat_tests`, lower-cased for the uncased GloVe 6B, words it lacks dropped), cast
as WEFE casts them, social groups as the targets T1, T2 and the two attribute sets A1, A2:

- WEAT1: T1 flowers, T2 insects; A1 pleasant, A2 unpleasant;
- WEAT3: T1 European American names, T2 African American names; A1 pleasant, A2 unpleasant;
- WEAT6: T1 male names, T2 female names; A1 career, A2 family;
- WEAT7: T1 male terms, T2 female terms (Caliskan's A, B); A1 math, A2 arts (Caliskan's X, Y).

ECT and RND take one attribute set, A1 ∪ A2 (as the neutral words of Dev & Phillips and Garg et al.); MAC the
two; RNSB (WEAT1 and WEAT3 only: it needs a positive and a negative set) A1 = pleasant as WEFE's positive
(label +1) and A2 = unpleasant as the negative set.

For every metric and word set, ``reconciliation.csv`` gives WEFE's value with its defaults, ours with our defaults,
the difference and an explanation of any difference beyond float32 rounding; then, where the difference is a
convention, ours with the option that gives WEFE's variant, which must match to float tolerance (the script exits
non-zero if one does not). RNSB trains a classifier on a random split (WEFE issue #5): its rows compare WEFE and
ours over the same seeds, as distributions (mean, sd, range, and a two-sample Kolmogorov-Smirnov test), and with
the split switched off (``holdout=False``), where WEFE is deterministic. ``timings.csv``: each side's median time
of ``--repeats`` calls from the embedding's words (WEFE's ``run_query``: look-up and metric; ours: the
look-up, :func:`wordbias.core.lookup.set_matrix`, and the array-level statistic), measured in one run, and
their ratio.

    python benchmarks/check_wefe_metrics.py [--seeds 50] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from wordbias import embeddings
from wordbias.core import lookup
from wordbias.datasets import stimuli

ROOT = Path(__file__).resolve().parent.parent
WEFE_PYTHON = ROOT / ".venv-wefe" / "bin" / "python"
OUT = Path(__file__).resolve().parent / "results" / "check_wefe_metrics"
EMBEDDING = "glove-6b-50d"
#: (word set, Caliskan's test, (T1, T2, A1, A2) as Caliskan's roles, RNSB applies)
WORD_SETS = (("WEAT1", "WEAT1", ("X", "Y", "A", "B"), True),
             ("WEAT3", "WEAT3", ("X", "Y", "A", "B"), True),
             ("WEAT6", "WEAT6", ("X", "Y", "A", "B"), False),
             ("WEAT7", "WEAT7", ("A", "B", "X", "Y"), False))
#: float32 vectors, float64 (ours) against float32/float64 mixes (WEFE): differences below this are rounding
ATOL = 1e-5


def word_sets(kv) -> dict[str, dict[str, list[str]]]:
    specs = {t.id: t for t in stimuli.weat_tests()}
    out = {}
    for name, test_id, roles, _ in WORD_SETS:
        t = specs[test_id]
        out[name] = {k: [w.lower() for w in getattr(t, r) if w.lower() in kv] for k, r in zip(("T1", "T2", "A1", "A2"),
                                                                                              roles)}
    return out


def run_wefe(folder: Path) -> dict:
    out = folder / "wefe.json"
    subprocess.run([str(WEFE_PYTHON), str(Path(__file__).with_name("wefe_metrics.py")), str(folder), "--out", str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def wefe_rnsb_replay(targets, pos, neg, seed: int) -> float:
    """One WEFE 1.0.1 RNSB run, its procedure replayed with the same scikit-learn (``wefe/metrics/RNSB.py``
    lines 141-166, 187-188, 238-266): the positive rows first with label +1, the negative ones with -1, a
    stratified ``train_test_split(test_size=0.2, shuffle=True, random_state=seed)``, ``LogisticRegression(solver=
    "liblinear", max_iter=10000, random_state=seed)``, the probability of class -1 of every target word,
    normalised, its KL divergence from uniform (``scipy.stats.entropy``)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    X = np.concatenate([pos, neg])
    y = np.concatenate([np.ones(len(pos)), -np.ones(len(neg))])
    Xtr, _, ytr, _ = train_test_split(X, y, shuffle=True, random_state=seed, test_size=0.2, stratify=y)
    clf = LogisticRegression(solver="liblinear", max_iter=10000, random_state=seed).fit(Xtr, ytr)
    p = np.concatenate([clf.predict_proba(t)[:, np.where(clf.classes_ == -1)[0][0]] for t in targets])
    P = p / p.sum()
    return float(sps.entropy(P, np.full(len(P), 1 / len(P))))


def timed(fn, repeats: int):
    seconds, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        seconds.append(time.perf_counter() - start)
    return out, statistics.median(seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=50, help="RNSB seeds on each side")
    ap.add_argument("--repeats", type=int, default=21, help="timed calls per metric (the median is kept)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    if not WEFE_PYTHON.exists():
        sys.exit(f"{WEFE_PYTHON} not found: run `make wefe-venv`")
    from wordbias.measures.sets import ect, mac, rnd  # the array-level statistics
    try:
        from wordbias.measures.sets import rnsb
    except ImportError:            # written alongside this check: the rest runs without it
        rnsb = None

    kv = embeddings.load(EMBEDDING)
    sets = word_sets(kv)
    seeds = list(range(args.seeds))
    words = sorted({w for s in sets.values() for ws in s.values() for w in ws})
    rnsb_sets = {name for name, _, _, has in WORD_SETS if has} if rnsb is not None else set()
    with tempfile.TemporaryDirectory(prefix="wordbias-check-wefe-metrics-") as tmp:
        folder = Path(tmp)
        np.save(folder / "vectors.npy", np.stack([kv[w] for w in words]).astype(np.float32))
        queries = [{"name": n, **s} for n, s in sets.items()]
        (folder / "queries.json").write_text(json.dumps({"words": words, "queries": queries, "rnsb_seeds": seeds,
                                                         "repeats": args.repeats}), encoding="utf-8")
        wefe = run_wefe(folder)

    rows, times, failures = [], [], []

    def row(metric, word_set, variant, w, o, explanation="", must_match=False):
        diff = w - o
        ok = abs(diff) <= ATOL * max(1.0, abs(w))
        if must_match and not ok:
            failures.append(f"{metric} {word_set} {variant}: WEFE {w:.10g}, ours {o:.10g}")
        rows.append({"metric": metric, "word_set": word_set, "variant": variant, "wefe": w, "ours": o,
                     "difference": diff, "within_float32_rounding": ok,
                     "explanation": "" if ok else explanation})

    for name, s in sets.items():
        W = wefe["queries"][name]
        n_words = {k: len(v) for k, v in s.items()}

        def mats(*keys):
            return [lookup.set_matrix(kv, s[k], k) for k in keys]

        T1, T2, A1, A2 = mats("T1", "T2", "A1", "A2")
        A = np.vstack([A1, A2])
        # ---- ECT
        for normalize in (False, True):
            o = ect.ect_statistic(T1, T2, A, normalize=normalize)
            row("ECT", name, f"normalize={normalize}" + (" (both defaults)" if not normalize else ""),
                W[f"ect_normalize={normalize}"]["value"], o, must_match=True)
        # ---- RND
        nA = len(A)
        o = rnd.rnd_statistic(T1, T2, A)
        row("RND", name, "defaults: WEFE norm, raw vectors, mean; ours norm, unit vectors, sum",
            W["rnd_norm_normalize=False"]["value"], o,
            "convention: ours follows Garg et al. 2018 (the sum over the neutral words, of unit-length word vectors, "
            "as the authors' code); WEFE averages over the words and leaves the vectors as given (its "
            f"normalize=False); ours/|A| with normalize=True is WEFE's normalize=True value, |A| = {nA}")
        for normalize in (False, True):
            o = rnd.rnd_statistic(T1, T2, A, normalize=normalize, aggregate="mean")
            row("RND", name, f"WEFE's variant: norm, normalize={normalize}, mean",
                W[f"rnd_norm_normalize={normalize}"]["value"], o, must_match=True)
            o = rnd.rnd_statistic(T1, T2, A, distance="cosine", normalize=normalize, aggregate="mean")
            row("RND", name, f"distance cos, normalize={normalize}, mean: WEFE's value against minus ours",
                W[f"rnd_cos_normalize={normalize}"]["value"], -o, must_match=True)
        # ---- MAC
        row("MAC", name, "defaults", W["mac"]["value"], mac.mac_statistic([T1, T2], [A1, A2]), must_match=True)
        # ---- RNSB
        if name in rnsb_sets:
            neg, pos = A2, A1
            w_vals = np.array(W["rnsb_holdout"]["values"])
            row("RNSB", name, f"defaults: WEFE's mean over {len(seeds)} seeds (holdout 0.2, liblinear); ours "
                "(no holdout, newton-cholesky)", float(w_vals.mean()), rnsb.rnsb_statistic([T1, T2], neg, pos),
                "convention: ours trains on every sentiment word (Sweeney & Najafian) with an unpenalised intercept "
                "(newton-cholesky); WEFE holds out a random stratified 20 % of them (WEFE issue #5: a different value "
                "each run) and uses liblinear, which penalises the intercept")
            o = rnsb.rnsb_statistic([T1, T2], neg, pos, solver="liblinear", max_iter=10000)
            row("RNSB", name, "no holdout, liblinear (WEFE holdout=False; ours solver='liblinear')",
                W["rnsb_no_holdout"]["value"], o, must_match=True)
            o = rnsb.rnsb_statistic([T1, T2], neg, pos)
            row("RNSB", name, "no holdout; WEFE liblinear, ours newton-cholesky", W["rnsb_no_holdout"]["value"], o,
                "convention: liblinear penalises the intercept like a weight (C = 1), newton-cholesky does not: "
                "a slightly different classifier, so slightly different probabilities")
            replay = np.array([wefe_rnsb_replay([T1, T2], pos, neg, sd) for sd in seeds])
            row("RNSB", name, f"holdout 0.2: WEFE against WEFE's procedure replayed here, largest gap over "
                f"{len(seeds)} seeds", float(w_vals[np.argmax(abs(w_vals - replay))]),
                float(replay[np.argmax(abs(w_vals - replay))]), must_match=True)
            o_vals = np.array([rnsb.rnsb_statistic([T1, T2], neg, pos, seed=sd, solver="liblinear", holdout=0.2,
                                                   max_iter=10000) for sd in seeds])
            same = int(np.sum(abs(w_vals - o_vals) <= ATOL * np.maximum(1, abs(w_vals))))
            ks = sps.ks_2samp(w_vals, o_vals)
            why = ("split: with the same seed ours and WEFE hold out different words (same at "
                   f"{same} of {len(seeds)} seeds): ours stacks the negative words first (labels 1, 0), WEFE the "
                   "positive ones (labels +1, -1), and scikit-learn's stratified split permutes the classes in "
                   "the order of their labels; over seeds the two are draws of one distribution "
                   f"(two-sample KS p = {ks.pvalue:.3g})")
            for stat, f in (("mean", np.mean), ("sd", lambda v: np.std(v, ddof=1)), ("min", np.min),
                            ("max", np.max)):
                row("RNSB", name, f"holdout 0.2, liblinear, seeds 0-{len(seeds) - 1}: {stat} over seeds",
                    float(f(w_vals)), float(f(o_vals)), why)
                rows[-1]["ks_p"] = ks.pvalue
                rows[-1]["same_seed_equal"] = same
        # ---- timings, ours from the embedding's words, as WEFE's run_query
        ours_fns = {
            "ECT": lambda: ect.ect_statistic(*mats("T1", "T2"), np.vstack(mats("A1", "A2"))),
            "RND": lambda: rnd.rnd_statistic(*mats("T1", "T2"), np.vstack(mats("A1", "A2")), normalize=False,
                                             aggregate="mean"),
            "MAC": lambda: mac.mac_statistic(mats("T1", "T2"), mats("A1", "A2")),
        }
        wefe_secs = {"ECT": W["ect_normalize=False"]["seconds"], "RND": W["rnd_norm_normalize=False"]["seconds"],
                     "MAC": W["mac"]["seconds"]}
        if name in rnsb_sets:
            ours_fns["RNSB"] = lambda: rnsb.rnsb_statistic(mats("T1", "T2"), *mats("A2", "A1"), seed=0)
            wefe_secs["RNSB"] = W["rnsb_holdout"]["seconds"]
        for metric, fn in ours_fns.items():
            _, sec = timed(fn, args.repeats)
            times.append({"metric": metric, "word_set": name, **{f"n_{k}": v for k, v in n_words.items()},
                          "wefe_seconds": wefe_secs[metric], "ours_seconds": sec,
                          "wefe_over_ours": wefe_secs[metric] / sec})

    args.out.mkdir(parents=True, exist_ok=True)
    df, tf = pd.DataFrame(rows), pd.DataFrame(times)
    df.to_csv(args.out / "reconciliation.csv", index=False, float_format="%.10g")
    tf.to_csv(args.out / "timings.csv", index=False, float_format="%.6g")
    meta = {"embedding": EMBEDDING, "wefe_version": wefe["wefe_version"], "wefe_numpy": wefe["numpy_version"],
            "seeds": len(seeds), "repeats": args.repeats,
            "word_sets": {n: {k: len(v) for k, v in s.items()} for n, s in sets.items()}}
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    with pd.option_context("display.width", 250, "display.max_columns", 20, "display.max_colwidth", 60):
        print(df.drop(columns=["explanation"]).to_string(index=False))
        print(tf.to_string(index=False))
    print(f"written to {args.out}")
    if rnsb is None:
        failures.append("wordbias.measures.sets.rnsb is missing: RNSB not compared")
    if failures:
        sys.exit("WEFE metrics check FAILED: " + "; ".join(failures))
    print("WEFE metrics check passed: every difference is a documented convention or RNSB's random split")


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main()
