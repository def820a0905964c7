"""A quick sanity table of the four debiasing methods on GloVe 6B 50d: WEAT 6 of Caliskan et al. (2017; male vs
female names, career vs family words; ``wordbias.weat``, 2,000 bootstrap resamples) and Bolukbasi et al.'s direct
bias (c = 1) of the debiaswe professions that are not gender-specific, along the gender direction recomputed from
the definitional pairs on each embedding (``wordbias.measures.debiasing.debias.gender_direction``). Methods with their
defaults; INLP with 6 iterations (35 on 300 dimensions; see ``bench_debias.py``). Writes
``benchmarks/results/bench_debias/sanity.csv``. Run from the repository root: ``python benchmarks/debias_sanity.py``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd

import wordbias as wb
from wordbias import embeddings
from wordbias.core import lookup
from wordbias.datasets import stimuli
from wordbias.measures.debiasing.debias import gender_direction, hard_debias, word_lists_for
from wordbias.measures.debiasing.double_hard import double_hard_debias
from wordbias.measures.debiasing.inlp import inlp_debias
from wordbias.measures.debiasing.leace import leace_debias
from wordbias.measures.directions.direction import direct_bias
from wordbias.options import Resampling

OUT = Path(__file__).resolve().parent / "results" / "bench_debias" / "sanity.csv"


def main() -> None:
    warnings.simplefilter("ignore")
    kv = embeddings.load("glove-6b-50d", progress=False)
    spec = next(s for s in stimuli.weat_tests("caliskan2017", "glove") if s.id == "WEAT6")
    lists = word_lists_for(kv)
    specific = set(lists.gender_specific)
    professions = [w for w in lists.professions if w in kv.key_to_index and w not in specific]
    label = "glove-6b-50d"
    runs = {label: kv,
            f"{label}+hard": hard_debias(kv)[0],
            f"{label}+double-hard": double_hard_debias(kv, label=label)[0],
            f"{label}+inlp": inlp_debias(kv, n_iterations=6, label=label)[0],
            f"{label}+leace": leace_debias(kv, label=label)[0]}
    rows = []
    for name, e in runs.items():
        r = wb.weat(e, spec.X, spec.Y, spec.A, spec.B,
                    resampling=Resampling(n_resamples=2000, seed=0, n_permutations=100_000))
        (g, _), _ = gender_direction(e)
        rows.append({"embedding": name, "weat6_d": r.effect_size, "weat6_ci_low": r.ci_low,
                     "weat6_ci_high": r.ci_high, "weat6_p": r.p_value,
                     "direct_bias": direct_bias(lookup.vectors(e, professions), g),
                     "n_professions": len(professions)})
    table = pd.DataFrame(rows)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False, float_format="%.4f")
    print(table.round(3).to_string(index=False))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
