"""WEFE's conventions (Badilla et al. 2020, doi:10.24963/ijcai.2020/60) reached from the one-call functions: WEAT's
d with WEFE's standard deviation, RNSB's split as WEFE makes it, RIPA's normalisation as WEFE means it, and a word in
two lists refused with the reason."""
import warnings

import numpy as np
import pytest
import scipy.stats as sps

import wordbias as wb
from wordbias.core.errors import InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import conventions
from wordbias.measures.directions.ripa import ripa
from wordbias.measures.sets.rnsb import rnsb, rnsb_statistic
from wordbias.options import Resampling, Words

RNG = np.random.default_rng(7)
WORDS = [f"w{i}" for i in range(40)]
KV = to_keyed_vectors(WORDS, RNG.normal(size=(40, 6)).astype(np.float32))
X, Y, A, B = WORDS[:5], WORDS[5:11], WORDS[11:16], WORDS[16:21]


def _cos(u, v):
    return u @ v / (np.linalg.norm(u) * np.linalg.norm(v))


def _wefe_weat_d(X, Y, A, B):
    """WEFE 1.0.1's ``WEAT._calc_effect_size``: the means of s(w, A, B) over X and Y, divided by ``np.std``."""
    def s(w):
        return (np.mean([_cos(KV[w], KV[a]) for a in A]) - np.mean([_cos(KV[w], KV[b]) for b in B]))
    sx, sy = [s(w) for w in X], [s(w) for w in Y]
    return (np.mean(sx) - np.mean(sy)) / np.std(sx + sy)


def _weat(**kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return wb.weat(KV, X, Y, A, B, resampling=Resampling(n_resamples=300, n_permutations=100_000),
                       words=Words(balance_targets="none"), **kw)


def test_weat_convention_wefe_is_wefes_d():
    default, w = _weat(), _weat(convention="wefe")
    assert w.effect_size == pytest.approx(_wefe_weat_d(X, Y, A, B), abs=1e-6)
    assert w.effect_size == conventions.effect_size_as(w.result.s_x, w.result.s_y, "wefe")
    n = len(X) + len(Y)
    assert w.effect_size == pytest.approx(default.effect_size * np.sqrt(n / (n - 1)), rel=1e-12)
    assert w.p_value == default.p_value                         # the permutation p does not depend on the sd
    assert (w.ci_low, w.ci_high) != (default.ci_low, default.ci_high)   # the interval resamples WEFE's d
    assert any("WEFE 1.0.1" in note for note in w.notes)
    assert not any("WEFE" in note for note in default.notes)
    assert _weat(convention="caliskan").effect_size == default.effect_size


def test_weat_convention_refused_with_the_way_to_compute_it():
    with pytest.raises(InvalidParameterError, match=r"'sweater'.*effect_size_as\(r\.result\.s_x"):
        _weat(convention="sweater")
    with pytest.raises(InvalidParameterError, match=r"convention must be one of 'caliskan', 'cbn', 'wefe'"):
        _weat(convention="WEFE")


def _wefe_rnsb_replay(targets, pos, neg, seed):
    """WEFE 1.0.1's RNSB run (``wefe/metrics/RNSB.py``), as ``benchmarks/check_wefe_metrics.py`` replays it."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    Xa = np.concatenate([pos, neg])
    y = np.concatenate([np.ones(len(pos)), -np.ones(len(neg))])
    Xtr, _, ytr, _ = train_test_split(Xa, y, shuffle=True, random_state=seed, test_size=0.2, stratify=y)
    clf = LogisticRegression(solver="liblinear", max_iter=10000, random_state=seed).fit(Xtr, ytr)
    p = np.concatenate([clf.predict_proba(t)[:, np.where(clf.classes_ == -1)[0][0]] for t in targets])
    P = p / p.sum()
    return float(sps.entropy(P, np.full(len(P), 1 / len(P))))


def _sentiment():
    rng = np.random.default_rng(1)
    neg, pos = rng.normal(size=(12, 6)) + 0.7, rng.normal(size=(13, 6)) - 0.7
    return [rng.normal(size=(5, 6)), rng.normal(size=(4, 6))], neg, pos


@pytest.mark.parametrize("seed", range(8))
def test_rnsb_convention_wefe_holds_out_wefes_words(seed):
    T, neg, pos = _sentiment()
    wefe = _wefe_rnsb_replay(T, pos, neg, seed)
    assert rnsb_statistic(T, neg, pos, seed=seed, convention="wefe") == pytest.approx(wefe, abs=1e-12)


def test_rnsb_conventions_defaults_and_overrides():
    T, neg, pos = _sentiment()
    assert rnsb_statistic(T, neg, pos) == rnsb_statistic(T, neg, pos, solver="newton", holdout=0.0, max_iter=1000)
    # WEFE's holdout=False: every sentiment word, liblinear
    no_holdout = rnsb_statistic(T, neg, pos, convention="wefe", holdout=0)
    assert no_holdout == pytest.approx(rnsb_statistic(T, neg, pos, solver="liblinear", max_iter=10000), abs=1e-12)
    with pytest.raises(InvalidParameterError, match="convention must be one of 'sweeney', 'wefe'"):
        rnsb_statistic(T, neg, pos, convention="WEFE")


def test_rnsb_measurement_takes_wefes_convention():
    kv = to_keyed_vectors(WORDS, np.vstack(_sentiment()[0] + list(_sentiment()[1:]) + [np.ones((6, 6))]))
    T, neg, pos = [WORDS[:5], WORDS[5:9]], WORDS[9:21], WORDS[21:34]
    m = rnsb(kv, T, neg, pos, resampling=Resampling(n_resamples=0, seed=3), convention="wefe", warn=False)
    t, n, p = _sentiment()
    assert m.effect_size == pytest.approx(_wefe_rnsb_replay(t, p, n, 3), abs=1e-12)


def _wefe_ripa(words, pairs):
    """WEFE 1.0.1's RIPA with ``normalize=True``: every vector to unit length, b = x - y to unit length, the dot
    product with each word; ``result`` the mean, ``std`` per word over the pairs (``np.std``)."""
    def unit(w):
        return KV[w] / np.linalg.norm(KV[w])
    S = np.array([[unit(w) @ ((unit(x) - unit(y)) / np.linalg.norm(unit(x) - unit(y))) for x, y in pairs]
                  for w in words])
    return S.mean(), S.std(axis=1)


def test_ripa_normalize_true_is_wefes():
    words, pairs = WORDS[:6], [(WORDS[10], WORDS[11]), (WORDS[12], WORDS[13]), (WORDS[14], WORDS[15])]
    mean, sd = _wefe_ripa(words, pairs)
    for normalize in (True, "all"):
        r = ripa(KV, words, pairs, normalize=normalize, warn=False).result
        assert r.mean == pytest.approx(mean, abs=1e-6) and r.normalize == "all"
        np.testing.assert_allclose(r.per_word_sd, sd, atol=1e-6)
    assert ripa(KV, words, pairs, normalize="words", warn=False).effect_size != pytest.approx(mean, abs=1e-6)
    assert ripa(KV, words, pairs, normalize=False, warn=False).result.normalize == "none"
    with pytest.raises(InvalidParameterError, match="normalize must be one of"):
        ripa(KV, words, pairs, normalize="unit")


@pytest.mark.parametrize("call, match", [
    (lambda: wb.weat(KV, X, Y + [X[0]], A, B, resampling=Resampling(n_resamples=0, n_permutations=100_000)), r"share words: \['w0'\]: a word in both target sets"),
    (lambda: wb.weat(KV, X, Y, A, B + [A[0]], resampling=Resampling(n_resamples=0, n_permutations=100_000)), r"share words: \['w11'\]: a word in both attribute"),
    (lambda: rnsb(KV, [X, Y], A, A[:1] + B, resampling=Resampling(n_resamples=0)), r"share words: \['w11'\]: a word in both sentiment"),
    (lambda: rnsb(KV, [X, X[:1] + Y], A, B, resampling=Resampling(n_resamples=0)), r"share words: \['w0'\]: RNSB pools the target sets"),
    (lambda: rnsb(KV, [X, Y], A + X[:1], B, resampling=Resampling(n_resamples=0)), r"share words: \['w0'\]: a target word that is also"),
])
def test_a_word_in_two_lists_is_refused_saying_why_and_what_wefe_does(call, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InvalidParameterError, match=match) as err:
            call()
    assert "WEFE 1.0.1 does not check" in str(err.value)


def test_case_hint_does_not_send_the_user_to_a_missing_option():
    from wordbias.measures.debiasing.debias import gender_direction

    emb = {"she": [1.0, 0.1], "he": [0.1, 1.0], "her": [0.9, 0.2], "his": [0.2, 0.9]}
    with pytest.warns(MissingWordsWarning) as rec:
        gender_direction(emb, [("she", "he"), ("Her", "His")])     # gender_direction takes no case_fold
    message = " ".join(str(w.message) for w in rec)
    assert "lower-case the words" in message
