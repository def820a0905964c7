"""wordbias.battery.debias: every method x every check in one table, and its figure, on a toy embedding that
holds the WEAT 6 words, the debiaswe professions and pairs, and random words with a planted gender axis."""
from __future__ import annotations

import string
import warnings

import matplotlib
import numpy as np
import pytest

from wordbias.battery import debias as battery
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import stimuli
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures import debias

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def toy():
    rng = np.random.default_rng(0)
    lists = debias.word_lists(False)
    spec = next(s for s in stimuli.weat_tests() if s.id == "WEAT6")
    named = list(dict.fromkeys([w.lower() for w in spec.X + spec.Y + spec.A + spec.B] + list(lists.professions)
                               + [w for p in lists.definitional_pairs for w in p]))
    named = [w for w in named if "_" not in w]
    extra: dict[str, None] = {}
    while len(extra) < 240:
        extra["".join(rng.choice(list(string.ascii_lowercase), 7))] = None
    words = named + list(extra)
    V = rng.normal(size=(len(words), 12))
    female = {"she", "her", "woman", "girl", "mother", "daughter", "gal", "female", "herself", "mary"}
    male = {"he", "his", "man", "boy", "father", "son", "guy", "male", "himself", "john"}
    for i, w in enumerate(words):
        V[i, 0] += 3 if w in male else -3 if w in female else 0
    V[len(named):, 0] += np.linspace(-2, 2, len(extra))
    kv = to_keyed_vectors(words, V.astype(np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                       # most equalize pairs are not in the toy vocabulary
        return kv, debias.hard_debias(kv)[0]


def test_table_and_figure(toy):
    kv, hard = toy
    table = battery.debias_table(kv, {"hard": hard}, n_per_side=60, n_cluster_per_side=30, n_train=40,
                                 n_resamples=50)
    assert list(table.index) == ["original", "hard"]
    for key in battery.CHECKS:
        assert {key, f"{key}_low", f"{key}_high"} <= set(table.columns)
    assert table.loc["original", "cluster_acc"] > 0.9
    assert table.loc["hard", "direct_bias"] < 0.01 < table.loc["original", "direct_bias"]
    assert 0 <= table.loc["original", "analogy_acc"] < 0.5             # random vectors: few analogies solved
    errors = table.attrs["errors"].get("original", {})
    assert all(np.isnan(table.loc["original", key]) for key in errors)   # a check that cannot run gives NaN
    assert set(table.attrs["seconds"]["hard"]) == set(battery.CHECKS)
    fig = battery.debias_figure(table)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == len(battery.CHECKS)
    assert [t.get_text() for t in visible[0].get_yticklabels()] == ["original", "hard"]


def test_a_lopsided_vocabulary_uses_as_many_words_a_side_as_it_has(toy):
    kv, hard = toy
    bias = battery.debias_checks.most_biased_words(kv, 1, restrict=None).bias
    side = int(min((bias > 0).sum(), (bias < 0).sum()))
    table = battery.debias_table(kv, {"hard": hard}, n_per_side=side + 40, n_cluster_per_side=30, n_train=40,
                                 n_resamples=50, restrict=None)
    assert any(f"the checks use {side} a side" in note for note in table.attrs["notes"]), table.attrs["notes"]
    assert np.isfinite(table.loc["original", "cluster_acc"])


def test_validation(toy):
    kv, hard = toy
    with pytest.raises(InvalidParameterError, match="reserved"):
        battery.debias_table(kv, {"original": hard})
    with pytest.raises(InvalidParameterError, match="mapping"):
        battery.debias_table(kv, [hard])
    import pandas as pd

    with pytest.raises(InvalidParameterError, match="none of the checks"):
        battery.debias_figure(pd.DataFrame({"x": [1.0]}))
