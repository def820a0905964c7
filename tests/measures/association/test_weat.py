from math import sqrt

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError
from wordbias.measures.association import weat
from wordbias.options import Resampling, Words

# hand computation for the `tiny` fixture (A = {a}, B = {b}):
#   s(x1) = cos((1,0),a) - cos((1,0),b) = 1 - 0 = 1
#   s(x2) = 1/sqrt2 - 1/sqrt2 = 0
#   s(y1) = 0 - 1 = -1
#   s(y2) = 1/sqrt5 - 2/sqrt5 = -1/sqrt5
S_X = [1.0, 0.0]
S_Y = [-1.0, -1 / sqrt(5)]


def test_association_by_hand(tiny):
    X = np.array([tiny["x1"], tiny["x2"], tiny["y1"], tiny["y2"]])
    s = weat.association(X, np.array([tiny["a"]]), np.array([tiny["b"]]))
    np.testing.assert_allclose(s, S_X + S_Y, atol=1e-15)


def test_weat_by_hand(tiny):
    r = weat.weat(tiny, ["x1", "x2"], ["y1", "y2"], ["a"], ["b"])
    assert r.statistic == pytest.approx(1 + 0 - (-1 - 1 / sqrt(5)))
    pooled = np.array(S_X + S_Y)
    mean = pooled.mean()
    sample_sd = sqrt(((pooled - mean) ** 2).sum() / 3)
    assert r.effect_size == pytest.approx((0.5 - (-1 - 1 / sqrt(5)) / 2) / sample_sd)
    assert r.effect_size == pytest.approx(1.445384, abs=1e-6)
    # the 6 partitions of {1, 0, -1, -1/sqrt5} into 2+2 have X-sums 1, 0, .553, -1, -.447, -1.447:
    # only the observed one reaches 1
    assert r.p_method == "exact"
    assert r.p_value == pytest.approx(1 / 6)
    assert r.p.n_partitions == 6


def test_effect_size_population_std(tiny):
    d1 = weat.effect_size(S_X, S_Y, ddof=1)
    d0 = weat.effect_size(S_X, S_Y, ddof=0)
    assert d0 == pytest.approx(d1 * sqrt(4 / 3))


def test_swapping_targets_or_attributes_negates_d(random_embedding):
    X = [f"w{i}" for i in range(10)]
    Y = [f"w{i}" for i in range(10, 20)]
    A = [f"w{i}" for i in range(40, 45)]
    B = [f"w{i}" for i in range(45, 50)]
    r = weat.weat(random_embedding, X, Y, A, B)
    assert r.effect_size > 1  # the planted lean of X towards A
    assert r.p_value < 0.01
    assert weat.weat(random_embedding, Y, X, A, B).effect_size == pytest.approx(-r.effect_size)
    assert weat.weat(random_embedding, X, Y, B, A).effect_size == pytest.approx(-r.effect_size)
    assert weat.weat(random_embedding, Y, X, B, A).effect_size == pytest.approx(r.effect_size)
    assert abs(r.effect_size) <= 2.0 + 1e-12  # bounded (paper footnote: at most 2 for equal sizes)


def test_p_methods_agree(random_embedding):
    X = [f"w{i}" for i in range(10)]
    Y = [f"w{i}" for i in range(10, 20)]
    A = [f"w{i}" for i in range(40, 45)]
    B = [f"w{i}" for i in range(45, 50)]
    ex = weat.weat(random_embedding, X, Y, A, B, p_method="exact")
    mc = weat.weat(random_embedding, X, Y, A, B, p_method="monte-carlo",
                   resampling=Resampling(n_permutations=100_000, seed=1))
    nm = weat.weat(random_embedding, X, Y, A, B, p_method="normal")
    assert (ex.p_method, mc.p_method, nm.p_method) == ("exact", "monte-carlo", "normal")
    assert abs(mc.p_value - ex.p_value) <= 4 * mc.p.se + 2 / 100_001
    assert ex.effect_size == mc.effect_size == nm.effect_size
    assert nm.p_value == pytest.approx(ex.p_value, abs=0.01)


def test_determinism_bit_for_bit(random_embedding):
    words = [f"w{i}" for i in range(60)]
    X, Y, A, B = words[:30], words[30:40] + words[50:60], words[40:45], words[45:50]
    r1 = weat.weat(random_embedding, X, Y, A, B, resampling=Resampling(seed=5, n_permutations=20_000))
    r2 = weat.weat(random_embedding, X, Y, A, B, resampling=Resampling(seed=5, n_permutations=20_000))
    r3 = weat.weat(random_embedding, X, Y, A, B, resampling=Resampling(seed=6, n_permutations=20_000))
    assert r1.balanced_out == r2.balanced_out and r1.p == r2.p and r1.effect_size == r2.effect_size
    assert r1.balanced_out != r3.balanced_out  # seed drives the random balancing too
    assert len(r1.X.words) == len(r1.Y.words) == 20


def test_unknown_words_dropped_and_reported(tiny):
    r = weat.weat(tiny, ["x1", "x2", "zz"], ["y1", "y2"], ["a", "qq"], ["b"])
    assert r.missing == {"X": ("zz",), "A": ("qq",)}
    assert r.X.words == ("x1", "x2")
    assert r.summary()["missing"] == "X: zz; A: qq"


def test_unknown_words_fail_policy(tiny):
    with pytest.raises(KeyError, match=r"'Flowers'.*zz"):
        weat.weat(tiny, ["x1", "x2", "zz"], ["y1", "y2"], ["a"], ["b"],
                  words=Words(on_missing="raise", case_fold=False), names={"X": "Flowers"})
    with pytest.raises(ValueError, match="on_missing"):
        weat.weat(tiny, ["x1"], ["y1"], ["a"], ["b"], words=Words(on_missing="ignore", case_fold=False))


def test_balance_random_deletion(tiny):
    tiny = dict(tiny, x3=np.array([3.0, 1.0]))
    r = weat.weat(tiny, ["x1", "x2", "x3"], ["y1", "y2"], ["a"], ["b"],
                  resampling=Resampling(seed=0, n_permutations=100_000))
    assert len(r.X.words) == 2 and len(r.X.balanced_out) == 1
    assert r.balanced_out == {"X": r.X.balanced_out}
    unequal = weat.weat(tiny, ["x1", "x2", "x3"], ["y1", "y2"], ["a"], ["b"],
                        words=Words(balance_targets="none", case_fold=False))
    assert unequal.p.n_partitions == 10 and unequal.summary()["n_target"] == "3x2"
    with pytest.raises(DegenerateSetError, match="differ in size"):
        weat.weat(tiny, ["x1", "x2", "x3"], ["y1", "y2"], ["a"], ["b"],
                  words=Words(balance_targets="raise", case_fold=False))


@pytest.mark.parametrize("sets,match", [
    ((["zz", "qq"], ["y1", "y2"], ["a"], ["b"]), r"set 'X' is empty"),
    ((["x1", "qq"], ["y1", "y2"], ["a"], ["b"]), r"set 'X' is left with 1 word"),
    ((["x1", "x2"], ["y1", "y2"], ["zz"], ["b"]), r"set 'A' is empty"),
    ((["x1", "x2"], ["y1", "y2"], ["a"], []), r"set 'B' is empty"),
])
def test_empty_or_too_small_sets_fail(tiny, sets, match):
    with pytest.raises(DegenerateSetError, match=match):
        weat.weat(tiny, *sets)


def test_degenerate_inputs(tiny):
    with pytest.raises(ValueError, match="more than once"):
        weat.weat(tiny, ["x1", "x1"], ["y1", "y2"], ["a"], ["b"])
    with pytest.raises(ValueError, match="share words"):
        weat.weat(tiny, ["x1", "x2"], ["x2", "y2"], ["a"], ["b"])
    zero = dict(tiny, x0=np.zeros(2))
    with pytest.raises(DegenerateSetError, match="zero"):
        weat.weat(zero, ["x0", "x2"], ["y1", "y2"], ["a"], ["b"])
    same = dict(tiny, u1=np.array([1.0, 1.0]), u2=np.array([2.0, 2.0]), u3=np.array([3.0, 3.0]))
    with pytest.raises(DegenerateSetError, match="effect size is undefined"):
        weat.weat(same, ["x2", "u1"], ["u2", "u3"], ["a"], ["b"])


def test_case_fold(tiny):
    r = weat.weat(tiny, ["X1", "X2"], ["Y1", "y2"], ["A"], ["b"], words=Words(case_fold=True))
    assert r.X.words == ("x1", "x2") and r.missing == {}
    with pytest.raises(DegenerateSetError, match="set 'X' is empty"):
        weat.weat(tiny, ["X1", "X2"], ["Y1", "y2"], ["A"], ["b"])  # without folding X1, X2 are unknown
    with pytest.raises(ValueError, match="more than once"):
        weat.weat(tiny, ["X1", "x1", "x2"], ["y1", "y2"], ["a"], ["b"], words=Words(case_fold=True))


def test_works_with_keyedvectors(tiny):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=2)
    kv.add_vectors(list(tiny), np.array(list(tiny.values()), dtype=np.float32))
    r = weat.weat(kv, ["x1", "x2"], ["y1", "y2"], ["a"], ["b"])
    assert r.effect_size == pytest.approx(1.445384, abs=1e-6)


# --------------------------------------------------------------------------------------------------
# sets as word lists do not depend on the hash seed; nothing dropped or balanced out silently
# --------------------------------------------------------------------------------------------------

_HASH_SCRIPT = """
import warnings
import numpy as np
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association.weat import weat
from wordbias.options import Resampling
words = ["rose", "tulip", "daisy", "lily", "iris", "ant", "wasp", "flea", "love", "joy", "hate", "war"]
kv = to_keyed_vectors(words, np.random.default_rng(3).normal(size=(len(words), 5)).astype(np.float32))
warnings.simplefilter("ignore")
r = weat(kv, {"rose", "tulip", "daisy", "lily", "iris"}, {"ant", "wasp", "flea"}, {"love", "joy"}, {"hate", "war"},
         p_method="monte-carlo", resampling=Resampling(n_permutations=2000))
print(r.X.words, r.effect_size, r.p_value)
"""


def test_python_sets_do_not_depend_on_the_hash_seed():
    """Sets of unequal size are sorted before balancing, so two processes with different PYTHONHASHSEED give
    the same words, effect size and p (unsorted, three hash seeds gave p = 0.511, 0.378 and 0.493)."""
    import os
    import subprocess
    import sys

    out = []
    for hash_seed in ("1", "2", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out.append(subprocess.run([sys.executable, "-c", _HASH_SCRIPT], env=env, capture_output=True, text=True,
                                  check=True).stdout)
    assert out[0] == out[1] == out[2], out


def test_warnings_name_dropped_and_balanced_words(tiny):
    from wordbias.core.errors import BalancedOutWarning, MissingWordsWarning

    with pytest.warns(MissingWordsWarning, match=r"set 'X': 1 of 3 word\(s\) not in the embedding, dropped: \['zz'\]"):
        weat.weat(tiny, ["x1", "x2", "zz"], ["y1", "y2"], ["a"], ["b"])
    with pytest.warns(BalancedOutWarning) as rec:
        r = weat.weat(dict(tiny, x3=np.array([2.0, 1.0])), ["x1", "x2", "x3"], ["y1", "y2"], ["a"], ["b"],
                      words=Words(balance_targets="random", case_fold=False))
    assert str(list(r.balanced_out["X"])) in str(rec[0].message)


# --------------------------------------------------------------------------------------------------
# alternatives: "less" and "two-sided" named in the result; the default is unchanged
# --------------------------------------------------------------------------------------------------

def test_p_value_alternatives_by_hand():
    # pooled {1, 0, -1, -1/sqrt5}, k = 2: the 6 pair sums are 1, 1 - 1/sqrt5, 0, -1/sqrt5, -1, -1 - 1/sqrt5;
    # the observed X = {1, 0} has the largest sum: greater 1/6, less 6/6, two-sided 2/6
    got = {a: weat.p_value(S_X, S_Y, alternative=a) for a in ("greater", "less", "two-sided")}
    assert got["greater"].p_value == 1 / 6 and got["less"].p_value == 1.0 and got["two-sided"].p_value == 2 / 6
    assert [g.alternative for g in got.values()] == ["greater", "less", "two-sided"]
    # swapping X and Y mirrors the tails: the negative d has p near 1 one-sided, small two-sided
    swapped = weat.p_value(S_Y, S_X, alternative="two-sided")
    assert weat.p_value(S_Y, S_X).p_value == 1.0 and swapped.p_value == 2 / 6


def test_weat_default_unchanged_and_alternative_named(tiny):
    base = weat.weat(tiny, ["x1", "x2"], ["y1", "y2"], ["a"], ["b"])
    same = weat.weat(tiny, ["x1", "x2"], ["y1", "y2"], ["a"], ["b"], alternative="greater")
    assert base.p == same.p and base.alternative == "greater"
    assert set(base.summary()) == set(same.summary()) and "alternative" not in base.summary()  # tables unchanged
    rev = weat.weat(tiny, ["y1", "y2"], ["x1", "x2"], ["a"], ["b"], alternative="two-sided")
    assert rev.effect_size < 0 and rev.alternative == "two-sided" and rev.p_value == pytest.approx(2 / 6)
    with pytest.raises(ValueError, match="alternative"):
        weat.weat(tiny, ["x1", "x2"], ["y1", "y2"], ["a"], ["b"], alternative="both")


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_weat_from_scores_alternatives_match_scipy(alternative):
    from scipy import stats as sps

    rng = np.random.default_rng(5)
    x, y = rng.normal(-0.3, 1, size=8), rng.normal(0, 1, size=7)
    s, d, p = weat.weat_from_scores(x, y, alternative=alternative)
    res = sps.permutation_test((x, y), lambda a, b, axis: a.sum(axis=axis) - b.sum(axis=axis),
                               permutation_type="independent", alternative=alternative, n_resamples=10**6,
                               vectorized=True)
    assert p.p_method == "exact" and p.alternative == alternative
    assert p.p_value == pytest.approx(res.pvalue, rel=1e-12)


def test_monte_carlo_two_sided_same_draws_as_one_sided():
    rng = np.random.default_rng(6)
    x, y = rng.normal(0.2, 1, size=40), rng.normal(0, 1, size=40)
    kw = dict(p_method="monte-carlo", n_permutations=5000, seed=3)
    g, le, two = (weat.p_value(x, y, alternative=a, **kw) for a in ("greater", "less", "two-sided"))
    assert g == weat.p_value(x, y, **kw)                                   # default bit for bit
    assert two.p_value == min(1.0, 2 * min(g.p_value, le.p_value))
    assert g.n_extreme + le.n_extreme >= 5000                               # the two tails cover every draw


def test_names_are_checked():
    """Found by the fuzzing pass: names="XYAB" failed with AttributeError deep inside weat()."""
    from wordbias.core.errors import InvalidParameterError

    assert weat.check_names(None) == {"X": "X", "Y": "Y", "A": "A", "B": "B"}
    assert weat.check_names({}) == weat.check_names(None)
    assert weat.check_names({"B": "bad"})["B"] == "bad"
    for bad, match in (("XYAB", r"not str 'XYAB'"), (["X"], r"not list"), ({"X": 1}, r"not \{'X': 1\}"),
                       ({"X": ""}, r"non-empty string"), ({"W": "w"}, r"not \['W'\]")):
        with pytest.raises(InvalidParameterError, match=match):
            weat.check_names(bad)
    # check_sets with a partial mapping (the sets left out keep their default names, no KeyError)
    x, y, a, b = weat.check_sets(["rose"], ["ant"], ["love"], ["hate"], {"X": "flowers"})
    assert x == ("rose",)


def test_scores_are_finite_and_not_empty():
    from wordbias.core.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match=r"s_x holds non-finite scores at positions \[0\]"):
        weat.weat_from_scores([float("nan"), 1.0], [0.0, 1.0])
    with pytest.raises(DegenerateSetError, match=r"s_x has 0 score\(s\)"):
        weat.weat_from_scores([], [0.0, 1.0])
    with pytest.raises(DegenerateSetError, match=r"s_y has 0 score\(s\)"):
        weat.effect_size([0.0, 1.0], [])
