"""SEAT (May et al. 2019): the measure agrees with WEAT on the same vectors; the battery's adjusted p."""
import math

import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import seat as ms
from wordbias.models import sentence
from wordbias.options import Resampling, Words

WORDS = ["rose", "tulip", "lily", "daisy", "ant", "wasp", "moth", "flea", "love", "joy", "peace", "hate", "ugly",
         "war", "this", "is", "."]


@pytest.fixture
def kv():
    rng = np.random.default_rng(3)
    V = rng.normal(size=(len(WORDS), 6)).astype(np.float32)
    V[:4, 0] += 2      # flowers near pleasant
    V[8:11, 0] += 2
    return to_keyed_vectors(WORDS, V)


def _sets():
    s = lambda ws: [f"This is {w}." for w in ws]  # noqa: E731
    return {"X": s(WORDS[:4]), "Y": s(WORDS[4:8]), "A": s(WORDS[8:11]), "B": s(WORDS[11:14])}


def test_seat_equals_weat_on_the_same_sentence_vectors(kv):
    sets = _sets()
    r = ms.seat(kv, sets, resampling=Resampling(n_resamples=500, seed=1, n_permutations=100_000), cache=False)
    sv = sentence.encode(kv, [s for v in sets.values() for s in v], cache=False)
    w = wb.weat(sv.as_dict(), sets["X"], sets["Y"], sets["A"], sets["B"],
                resampling=Resampling(n_resamples=500, seed=1, n_permutations=100_000), words=Words(case_fold=False))
    assert r.measure == "seat" and w.measure == "weat"
    assert r.effect_size == pytest.approx(w.effect_size, abs=1e-12)
    assert r.p_value == pytest.approx(w.p_value) and r.p_two_sided == pytest.approx(w.p_two_sided)
    assert r.p_method == "exact" and r.ci_low == pytest.approx(w.ci_low) and r.ci_high == pytest.approx(w.ci_high)
    assert r.ci_low < r.effect_size < r.ci_high


def test_seat_effect_size_is_the_hand_computed_one(kv):
    sets = _sets()
    sv = sentence.encode(kv, [s for v in sets.values() for s in v], cache=False).as_dict()
    M = {k: np.array([sv[s] for s in v], dtype=float) for k, v in sets.items()}
    unit = {k: m / np.linalg.norm(m, axis=1, keepdims=True) for k, m in M.items()}
    s_w = lambda W: (W @ unit["A"].T).mean(1) - (W @ unit["B"].T).mean(1)  # noqa: E731
    sx, sy = s_w(unit["X"]), s_w(unit["Y"])
    d = (sx.mean() - sy.mean()) / np.concatenate([sx, sy]).std(ddof=1)
    r = ms.seat(kv, sets, resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False)
    assert r.effect_size == pytest.approx(d, rel=1e-5)
    assert d > 0.5                     # the planted association shows


def test_two_sided_and_alternative(kv):
    r = ms.seat(kv, _sets(), resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False,
                alternative="less")
    assert r.alternative == "less" and r.p_value > 0.5 and math.isfinite(r.p_two_sided)


def test_seats_battery_adjusts_and_encodes_once(kv):
    sets = _sets()
    swapped = {"X": sets["Y"], "Y": sets["X"], "A": sets["A"], "B": sets["B"]}
    res, vec = ms.seats(kv, [sets, swapped], resampling=Resampling(n_resamples=0, n_permutations=100_000),
                        cache=False, family="toy")
    assert len(vec.sentences) == 14
    assert res[0].p_holm >= res[0].p_value and res[0].p_family.startswith("toy")
    assert res[1].effect_size == pytest.approx(-res[0].effect_size)


def test_dropped_sentence_is_reported_as_missing(kv):
    sets = _sets()
    sets["X"] = sets["X"] + ["Zzz qqq!"]
    sets["Y"] = sets["Y"] + ["Xyzzy!"]
    r = ms.seat(kv, sets, resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False)
    x = r.sets[0]
    assert "Zzz qqq" in x.missing and len(x.used) == 4
    assert any(n.startswith("2 sentence(s) left out: the encoder (cbow) does not see their test word")
               for n in r.notes)


def test_bad_inputs():
    with pytest.raises(InvalidParameterError, match="set X"):
        ms.as_test({"X": "This is a string.", "Y": ["b"], "A": ["c"], "B": ["d"]})
    with pytest.raises(InvalidParameterError, match="no SEAT test"):
        ms.as_test("sent-weat66")
    with pytest.raises(InvalidParameterError):
        ms.seats({"X": ["a"]}, "weat1")


def test_words_set_the_balancing_and_refuse_what_a_seat_cannot_do(kv):
    """``words.balance_targets`` reaches the SEAT (unequal target sets kept whole with ``"none"``); case folding and
    ``on_missing="raise"`` are refused, not ignored."""
    sets = {**_sets(), "Y": _sets()["Y"][:3]}
    with pytest.warns(Warning):
        whole = ms.seat(kv, sets, resampling=Resampling(n_resamples=0), words=Words(balance_targets="none"),
                        cache=False)
        balanced = ms.seat(kv, sets, resampling=Resampling(n_resamples=0), cache=False)
    assert [len(s.used) for s in whole.sets[:2]] == [4, 3]
    assert [len(s.used) for s in balanced.sets[:2]] == [3, 3]
    for words in (Words(case_fold=True), Words(on_missing="raise")):
        with pytest.raises(InvalidParameterError, match="words"):
            ms.seat(kv, sets, resampling=Resampling(n_resamples=0), words=words, cache=False)
