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
from wordbias.measures.debiasing import debias

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


def test_the_cache_gives_the_same_table_and_misses_on_any_change(toy, tmp_path, monkeypatch):
    import pandas as pd

    from wordbias.core.errors import CacheRebuiltWarning
    from wordbias.embeddings import to_keyed_vectors

    kv, hard = toy
    options = dict(n_per_side=60, n_cluster_per_side=30, n_train=40, n_resamples=50)
    fresh = battery.debias_table(kv, {"hard": hard}, cache_dir=tmp_path, **options)
    files = list(tmp_path.glob("checks-*.npz"))
    assert len(files) == 1 and fresh.attrs["cached"] is False
    measured = []
    real = battery.debias_checks.cluster_accuracy
    monkeypatch.setattr(battery.debias_checks, "cluster_accuracy",
                        lambda *a, **k: measured.append(1) or real(*a, **k))
    again = battery.debias_table(kv, {"hard": hard}, cache_dir=tmp_path, **options)
    assert measured == [] and again.attrs["cached"] is True             # read back, nothing measured
    pd.testing.assert_frame_equal(again, fresh)
    assert {k: v for k, v in again.attrs.items() if k != "cached"} == \
        {k: v for k, v in fresh.attrs.items() if k != "cached"}
    # one vector's last bit, one option, the method's name: each is another table
    V = hard.vectors.copy()
    V[-1, 0] = np.nextafter(V[-1, 0], np.inf)
    other = to_keyed_vectors(list(hard.index_to_key), V)
    for debiased, opts in [({"hard": other}, options), ({"hard": hard}, {**options, "n_resamples": 60}),
                           ({"hard2": hard}, options)]:
        measured.clear()
        battery.debias_table(kv, debiased, cache_dir=tmp_path, **opts)
        assert measured == [1, 1]
    assert len(list(tmp_path.glob("checks-*.npz"))) == 4
    # a damaged file is said, measured again and rewritten
    files[0].write_bytes(files[0].read_bytes()[:200])
    measured.clear()
    with pytest.warns(CacheRebuiltWarning, match="debiasing checks cache .*unreadable"):
        rebuilt = battery.debias_table(kv, {"hard": hard}, cache_dir=tmp_path, **options)
    assert measured == [1, 1]
    pd.testing.assert_frame_equal(rebuilt, fresh)
    assert battery.debias_table(kv, {"hard": hard}, cache_dir=tmp_path, **options).attrs["cached"] is True


def test_the_cache_key_tells_apart_vocabularies_whose_words_join_alike():
    from wordbias.embeddings import to_keyed_vectors

    V = np.eye(2, dtype=np.float32)
    one = to_keyed_vectors(["a\nb", "c"], V)
    two = to_keyed_vectors(["a", "b\nc"], V)
    assert battery._table_key([("original", one)], {}) != battery._table_key([("original", two)], {})
    assert battery._table_key([("original", one)], {}) == battery._table_key([("original", one)], {})
