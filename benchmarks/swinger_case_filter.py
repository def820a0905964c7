"""What the stand-in for Appendix C.4 changes in Swinger et al. (2019)'s UBE on the uncased GloVe 6B 50d.

Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are the biases in my word embedding?", AIES 2019,
https://doi.org/10.1145/3306618.3314270. Appendix C.4 keeps proper nouns out of the candidate words by their
capitalisation in the (cased) embedding; on an uncased vocabulary ``wordbias`` takes case from a cased word list
instead (``case_source="wordlist"``, SCOWL size 50; :mod:`wordbias.datasets.casing`). This script runs the
notebook's three runs (first names, first names on the hard-debiased embedding, last names; Table 2's parameters,
seed 0) twice, with the stand-in and with no case rule, and reports for each:

* Table 4: the number of significant associations, beside the paper's (w2v 235, fast 160, glove 442);
* the share of proper nouns among the words of Table 5 (the significant cells of the top 12 categories) and among
  the words of every significant cell, judged by their capitalisation in the middle of sentences of the GAP
  passages (Wikipedia; :func:`wordbias.datasets.casing.judge_proper_nouns`), which the filter does not use;
* the first three rows of Table 5, beside the paper's (w2v);
* the judge's error rate against a hand-checked random sample of 50 of those words
  (``data/casing/hand_check.csv``; ``--draw-sample`` prints the draw, seed 0, to judge by hand), and the share
  of proper nouns by that hand judgement among the sampled words of each run's Table 5.

Writes ``results/benchmarks/swinger_case_filter.csv`` (long form: section, run, case_rule, item, value), or
``--out``. About 3-4 minutes on 2 cores (six UBE runs with R = 10,000).

    python benchmarks/swinger_case_filter.py [--out FILE] [--rotations 10000] [--draw-sample] [--cache FILE]
"""

from __future__ import annotations

import argparse
import pickle
import time
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias import embeddings
from wordbias.core import paths
from wordbias.datasets import casing, stimuli
from wordbias.measures.enumeration import ube
from wordbias.papers import swinger2019 as sw

RULES = {"wordlist": "stand-in (word list)", None: "no case rule"}
SAMPLE_SIZE, SAMPLE_SEED = 50, 0


def runs(R: int):
    """The six UBE results: {(run name, case rule): result}."""
    kv = embeddings.load("glove-6b-50d", progress=False)
    deb_kv, _ = sw.debiased_embedding("auto", kv)
    setups = {"first names": (kv, "first"), "first names, hard-debiased": (deb_kv, "first"),
              "last names": (kv, "last")}
    out = {}
    for name, (emb, kind) in setups.items():
        names = ube.name_list(kind, emb, cased=False)
        for rule in RULES:
            t0 = time.perf_counter()
            out[name, rule] = sw.run(emb, names, cased=False, n=12, m=64, M=30_000, t=3, alpha=0.05, R=R, seed=0,
                                     case_source=rule)
            print(f"{name:28s} {RULES[rule]:22s} {out[name, rule].n_significant():4d} significant "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return out


def draw_sample(results) -> list[str]:
    """The hand-check sample: SAMPLE_SIZE distinct words drawn (seed SAMPLE_SEED) from the Table 5 words of all
    runs, so both case rules contribute."""
    pool = sorted({w for res in results.values() for w in sw.table_words(res)})
    rng = np.random.default_rng(SAMPLE_SEED)
    return [pool[i] for i in np.sort(rng.choice(len(pool), size=SAMPLE_SIZE, replace=False))]


def hand_check_rows(sample: list[str]) -> list[dict]:
    """The judge (GAP) and the filter (the word list) against our hand judgement of the sample."""
    hand = casing.hand_check()
    missing = [w for w in sample if w not in hand.index]
    if missing:
        raise SystemExit(f"{casing.HAND_CHECK_FILE} lacks a judgement for {missing}: the sample changed; judge "
                         "the new draw (--draw-sample) by hand")
    hand = hand.loc[sample]
    e = casing.judge_errors(hand)
    truth = hand["hand"]
    lower = casing.lowercase_words()
    kept = pd.Series([casing.attested_lower(w, lower) for w in sample], index=sample)
    rows = [("sample size", e["sample"]), ("hand: proper", int((truth == "proper").sum())),
            ("hand: common", int((truth == "common").sum())),
            ("GAP judge: judged", e["judged"]), ("GAP judge: errors among judged", e["errors"]),
            ("GAP judge: error rate among judged", round(e["error_rate"], 3)),
            ("GAP judge: proper nouns called common", e["proper_called_common"]),
            ("GAP judge: common words called proper", e["common_called_proper"]),
            ("word list: errors (kept a proper noun or dropped a common word)",
             int(((kept & (truth == "proper")) | (~kept & (truth == "common"))).sum())),
            ("word list: proper nouns kept", int((kept & (truth == "proper")).sum())),
            ("word list: common words dropped", int((~kept & (truth == "common")).sum()))]
    return [dict(section="hand check", run="sample of Table 5 words, all runs", case_rule="", item=k, value=v)
            for k, v in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(paths.RESULTS / "benchmarks" / "swinger_case_filter.csv"))
    parser.add_argument("--rotations", type=int, default=10_000)
    parser.add_argument("--draw-sample", action="store_true", help="print the hand-check sample and stop")
    parser.add_argument("--cache", help="a pickle file: the six runs are read from it if it exists, else written")
    args = parser.parse_args()

    if args.cache and Path(args.cache).is_file():
        results = pickle.loads(Path(args.cache).read_bytes())
    else:
        results = runs(args.rotations)
        if args.cache:
            Path(args.cache).write_bytes(pickle.dumps(results))
    sample = draw_sample(results)
    if args.draw_sample:
        judge = casing.judge_proper_nouns(sample)
        print("token,gap_judge")
        print("\n".join(f"{w},{judge[w]}" for w in sample))
        return
    paper = stimuli.load_stimuli("swinger2019")
    paper4 = {r["embedding"]: r["n_significant"] for r in paper["table4"]}
    hand = casing.hand_check()["hand"]
    rows = []
    for (name, rule), res in results.items():
        base = dict(run=name, case_rule=RULES[rule])
        stats = {"candidate words": len(res.words), "# significant (Table 4)": res.n_significant(),
                 "# significant, paper (w2v / fast / glove)":
                     " / ".join(str(paper4[e]) for e in ("w2v", "fast", "glove"))}
        for scope, top in (("Table 5 words", 12), ("words of all significant cells", None)):
            share = casing.proper_noun_share(casing.judge_proper_nouns(sw.table_words(res, top=top)))
            stats |= {f"{scope}: count": share["proper"] + share["common"] + share["unknown"],
                      f"{scope}: judged by GAP": share["judged"],
                      f"{scope}: % proper nouns (GAP)": round(100 * share["share"], 1)}
        table5 = set(sw.table_words(res))
        in_sample = hand.loc[[w for w in sample if w in table5]]
        stats |= {"Table 5 words in the hand-checked sample": len(in_sample),
                  "Table 5 words in the sample: % proper nouns (hand)":
                      round(100 * float((in_sample == "proper").mean()), 1) if len(in_sample) else float("nan")}
        rows += [dict(section="summary", **base, item=k, value=v) for k, v in stats.items()]
        kind = "last" if name.startswith("last") else "first"
        grid = sw.grid(res, kind)
        for k, (label, row) in enumerate(grid.head(3).iterrows(), start=1):
            cells = " | ".join(f"{g}: {v}" for g, v in row.items() if v)
            rows.append(dict(section="table 5", **base, item=f"row {k}: {label}", value=cells))
    for k, row in enumerate(paper["table5"]["rows"][:3], start=1):
        cells = " | ".join(f"{g}: {', '.join(ws)}" for g, ws in row["cells"].items())
        rows.append(dict(section="table 5", run="paper (w2v), first names", case_rule="Appendix C.4 (cased)",
                         item=f"row {k}: ({row['topic_ours']}, our label)", value=cells))
    rows += hand_check_rows(sample)
    table = pd.DataFrame(rows)
    table.to_csv(args.out, index=False)
    with pd.option_context("display.width", 250, "display.max_colwidth", 160, "display.max_rows", 200):
        print(table.to_string(index=False))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
