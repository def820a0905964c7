"""The vector-identity check in every static measure's coverage: two words given one vector are flagged
(``Words(shared_vectors="keep")``), left out (``"drop"``) or refused (``"raise"``), and an embedding with a
vector of its own for every word gives the same tidy row under all three."""
from __future__ import annotations

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError
from wordbias.core.identity import apply_pair_policy
from wordbias.core.tidy import tidy_frame
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import measurement, scweat
from wordbias.measures.directions import direction, indirect_bias, ripa
from wordbias.measures.directions.direction_permutation import direction_test
from wordbias.measures.sets import ect, mac, rnd, rnsb, semaxis
from wordbias.options import Resampling, Words

X, Y, A, B = ([f"{s}{i}" for i in range(5)] for s in "xyab")
PROPERTY = {w: float(i) for i, w in enumerate(X + Y)}
PAIRS = list(zip(X, Y))
RESAMPLING = Resampling(n_resamples=40, n_permutations=60, seed=0)
#: RNSB's interval is a percentile one of classifier retrainings
RNSB_RESAMPLING = RESAMPLING.replace(n_resamples=8, ci_method="percentile")

#: each static measure's call on the lists X, Y, A, B (the pair measures: X/Y the pairs, A + B the words)
RUNNERS = {
    "weat": lambda kv, w: measurement.weat(kv, X, Y, A, B, words=w, resampling=RESAMPLING),
    "wefat": lambda kv, w: measurement.wefat(kv, X + Y, A, B, PROPERTY, words=w, resampling=RESAMPLING),
    "sc_weat": lambda kv, w: scweat.sc_weat(kv, X, A, B, words=w, resampling=RESAMPLING, warn=False),
    "direction": lambda kv, w: direction_test(kv, X, Y, A, B, words=w, resampling=RESAMPLING, warn=False),
    "ect": lambda kv, w: ect.ect(kv, X, Y, A + B, words=w, resampling=RESAMPLING, warn=False),
    "rnd": lambda kv, w: rnd.rnd(kv, X, Y, A, words=w, resampling=RESAMPLING, warn=False),
    "rnsb": lambda kv, w: rnsb.rnsb(kv, [X, Y], B, A, words=w, resampling=RNSB_RESAMPLING, warn=False),
    "mac": lambda kv, w: mac.mac(kv, [X, Y], [A, B], words=w, resampling=RESAMPLING, warn=False),
    "semaxis": lambda kv, w: semaxis.semaxis(kv, X, Y, A, B, words=w, resampling=RESAMPLING, warn=False),
    "indirect_bias": lambda kv, w: indirect_bias.mean_indirect_bias(kv, A, B, pairs=PAIRS, words=w,
                                                                    resampling=RESAMPLING, warn=False),
    "ripa": lambda kv, w: ripa.ripa(kv, A + B, PAIRS, words=w, resampling=RESAMPLING, warn=False),
    "direct_bias": lambda kv, w: direction.direct_bias_test(kv, A + B, PAIRS, words=w, resampling=RESAMPLING,
                                                            warn=False),
}
#: per measure, the words (or pairs) the twins x0 = x1 and a0 = a1 flag, by set
TWO_X, TWO_A, TWO_PAIRS = ("x0", "x1"), ("a0", "a1"), ("x0/y0", "x1/y1")
FLAGGED = {
    "weat": {"X": TWO_X, "A": TWO_A},
    "wefat": {"W": TWO_X, "A": TWO_A},
    "sc_weat": {"W": TWO_X, "A": TWO_A},
    "direction": {"T1": TWO_X, "A1": TWO_A},
    "ect": {"T1": TWO_X, "A": TWO_A},
    "rnd": {"T1": TWO_X, "A": TWO_A},
    "rnsb": {"T1": TWO_X, "A_positive": TWO_A},
    "mac": {"T1": TWO_X, "A1": TWO_A},
    "semaxis": {"T1": TWO_X, "A_pos": TWO_A},
    "indirect_bias": {"W": TWO_A},
    "ripa": {"N": TWO_A, "pairs": TWO_PAIRS},
    "direct_bias": {"N": TWO_A, "pairs": TWO_PAIRS},
}


def embedding(twins: bool):
    """X near A, Y near B in 12 dimensions; with ``twins``, x1 a copy of x0 and a1 one of a0."""
    rng = np.random.default_rng(3)
    axis = np.eye(12)[0]
    rows = {w: rng.normal(size=12) * 0.5 + sign * axis for ws, sign in ((X, 1), (A, 1), (Y, -1), (B, -1))
            for w in ws}
    if twins:
        rows["x1"], rows["a1"] = rows["x0"], rows["a0"]
    return to_keyed_vectors(list(rows), np.array(list(rows.values()), dtype=np.float32))


@pytest.fixture(scope="module")
def clean():
    return embedding(False)


@pytest.fixture(scope="module")
def twins():
    return embedding(True)


def _shared(result) -> dict:
    return {s.letter: s.shared for s in result.sets if s.shared}


@pytest.mark.parametrize("measure", sorted(RUNNERS))
def test_an_embedding_without_shared_vectors_gives_one_row_under_every_policy(measure, clean):
    rows = []
    for policy in ("keep", "drop", "raise"):
        r = RUNNERS[measure](clean, Words(case_fold=False, shared_vectors=policy))
        assert _shared(r) == {} and not any("shared vector" in n for n in r.notes)
        rows.append(tidy_frame([r.to_row({"embedding": "planted", "paper": "user"})]).to_csv(index=False))
    assert rows[0] == rows[1] == rows[2]


@pytest.mark.parametrize("measure", sorted(RUNNERS))
def test_keep_flags_the_words_with_one_vector(measure, twins):
    r = RUNNERS[measure](twins, Words(case_fold=False, shared_vectors="keep"))
    note = " ".join(r.notes)
    assert "shared vectors" in note
    if measure == "indirect_bias":                 # its definitional pairs are no set of its coverage
        assert "definitional pairs' shared vectors: pairs: x0/y0 (x0: one vector with 'x1' (pairs))" in note
    assert _shared(r) == FLAGGED[measure]
    assert all(not s.shared_out for s in r.sets) and "shared vector" not in r.dropped
    used = {w for s in r.sets for w in s.used}
    assert {w for ws in FLAGGED[measure].values() for w in ws} <= used


@pytest.mark.parametrize("measure", sorted(RUNNERS))
def test_drop_leaves_them_out_and_says_so(measure, twins, clean):
    r = RUNNERS[measure](twins, Words(case_fold=False, shared_vectors="drop"))
    assert {s.letter: s.shared_out for s in r.sets if s.shared_out} == FLAGGED[measure]
    gone = {w for ws in FLAGGED[measure].values() for w in ws}
    assert not gone & {w for s in r.sets for w in s.used}
    assert all(f"{k} shared vector: {' '.join(ws)}" in r.dropped for k, ws in FLAGGED[measure].items())
    assert all(s.in_vocabulary == len(s.asked) - len(s.shared_out) for s in r.sets)
    if measure == "indirect_bias":
        assert "direction of 3 definitional pairs" in " ".join(r.notes)


@pytest.mark.parametrize("measure", sorted(RUNNERS))
def test_raise_names_the_words(measure, twins):
    with pytest.raises(DegenerateSetError, match="shared vectors: .*one vector with") as err:
        RUNNERS[measure](twins, Words(case_fold=False, shared_vectors="raise"))
    assert "a0 (one vector with 'a1'" in str(err.value)


def test_one_word_in_two_sets_or_pairs_is_not_flagged():
    kv = embedding(False)
    check, sets, pairs = apply_pair_policy(kv, {"N": ["a0", "x0"]}, [("x0", "y0"), ("x0", "y1")], "raise")
    assert not check and sets == {"N": ["a0", "x0"]} and pairs == [("x0", "y0"), ("x0", "y1")]


def test_a_pair_is_flagged_by_either_word_and_dropped_whole():
    kv = embedding(True)
    check, sets, pairs = apply_pair_policy(kv, {"N": ["a0", "a2"]}, [("y1", "a1"), ("x2", "y2")], "drop")
    assert check.shared("pairs") == ("y1/a1",) and check.shared("N") == ("a0",)
    assert sets == {"N": ["a2"]} and pairs == [("x2", "y2")]
