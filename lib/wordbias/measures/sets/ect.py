"""ECT, the Embedding Coherence Test: does an attribute list rank the same way against two target groups?

Dev, S. & Phillips, J. M. (2019). Attenuating Bias in Word Vectors. *Proceedings of the 22nd International
Conference on Artificial Intelligence and Statistics (AISTATS)*, PMLR 89, 879-887,
https://proceedings.mlr.press/v89/dev19a.html (arXiv:1901.07656), Section 4 ("Embedding Coherence Test").

The test takes two target sets (e.g. male and female names) and one attribute list (e.g. professions), computes
the mean vector of each target set, the cosine of every attribute word with each mean, and reports Spearman's
rank correlation ρ of the two lists of cosines (:func:`ect_statistic`). ρ = 1 when the attribute words are
ordered alike by both groups (no bias in the paper's sense); lower values mean the groups rank the attributes
differently. :func:`ect` measures it once on an embedding's words, with a bootstrap interval over the words of
the three sets and a permutation test of the target words (the WEAT's null: the target words are exchangeable
between the two sets; bias lowers ρ, so the default alternative is ``"less"``).

Reconciling with WEFE 1.0.1 (``wefe.metrics.ECT``): the same statistic (``scipy.stats.spearmanr`` of the
cosines with the two means), on the vectors as given (``normalize=False``, WEFE's default). The paper does not
say whether the vectors are normalised before the means; ``normalize=True`` scales every vector to unit length
first.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import stats as _sps

from wordbias.core.errors import DegenerateSetError
from wordbias.core.validation import check_bool
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words

__all__ = ["DEFAULT_RESAMPLING", "ect_statistic", "ect"]

#: ECT's resampling options when the call gives none
DEFAULT_RESAMPLING = Resampling()


def _unit(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=-1, keepdims=True)


def _spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's ρ of x and y along the last axis (average ranks for ties, as scipy.stats.spearmanr); NaN where
    either is constant."""
    rx, ry = _sps.rankdata(x, axis=-1), _sps.rankdata(y, axis=-1)
    rx = rx - rx.mean(axis=-1, keepdims=True)
    ry = ry - ry.mean(axis=-1, keepdims=True)
    den = np.sqrt((rx * rx).sum(axis=-1) * (ry * ry).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (rx * ry).sum(axis=-1) / den, np.nan)


def _rho(Au: np.ndarray, M1: np.ndarray, M2: np.ndarray, idx=None) -> np.ndarray:
    """ρ of the cosines of the unit attribute rows ``Au`` (shape (nA, d); the rows ``idx`` of it, shape (..., k),
    when given) with the means M1, M2 (shape (..., d))."""
    c1, c2 = _unit(M1) @ Au.T, _unit(M2) @ Au.T
    if idx is not None:
        c1, c2 = _sm.gather(c1, idx), _sm.gather(c2, idx)
    return _spearman_rows(c1, c2)


def ect_statistic(T1, T2, A, *, normalize: bool = False) -> float:
    """ECT's Spearman ρ (Dev & Phillips 2019, Section 4): the rank correlation, over the attribute words, of their
    cosines with the mean of T1 and with the mean of T2.

    s_i(a) = cos(a, mean(T_i)) for each attribute word a; ECT = ρ_Spearman(s_1, s_2), with average ranks for
    ties (as :func:`scipy.stats.spearmanr`). Scaling a row of ``A`` changes nothing; scaling a row of a target
    set moves its mean unless ``normalize``.

    Parameters
    ----------
    T1, T2 : array-like of shape (n1, d) and (n2, d)
        The vectors of the two target sets (e.g. male and female names), one row per word.
    A : array-like of shape (nA, d)
        The vectors of the attribute words (e.g. professions), one row per word; at least 2.
    normalize : bool, default False
        Scale every vector to unit length first (WEFE's ``normalize``; the paper does not say).

    Returns
    -------
    float
        ρ in [-1, 1]: 1 when both groups rank the attributes alike.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, or the sets differ in dimension.
    DegenerateSetError
        If a set is empty or holds a zero vector, A has fewer than 2 rows, a mean is zero, or the cosines with a
        mean are all equal (ρ undefined).
    ValueError
        If T1 and T2 share a vector.

    Examples
    --------
    The attributes' cosines with the two means, (1, .8, .6) and (.6, .8, 1)·c, are in opposite orders:

    >>> T1, T2 = [[1.0, 0.0]], [[0.0, 1.0]]
    >>> A = [[1.0, 0.0], [0.8, 0.6], [0.6, 0.8]]
    >>> ect_statistic(T1, T2, A)
    -1.0
    >>> ect_statistic(T1, [[1.0, 0.1]], A)        # both means near the first axis: the same order
    1.0
    """
    normalize = check_bool("normalize", normalize)
    m = _sm.vector_sets({"T1": T1, "T2": T2, "A": A}, disjoint=[("T1", "T2")], least={"A": 2})
    if normalize:
        m = {k: _unit(v) for k, v in m.items()}
    M1, M2 = m["T1"].mean(axis=0), m["T2"].mean(axis=0)
    for k, M in (("T1", M1), ("T2", M2)):
        if not np.linalg.norm(M) > 0:
            raise DegenerateSetError(f"the mean of set {k} is the zero vector: its cosines are undefined")
    rho = float(_rho(_unit(m["A"]), M1, M2))
    if not np.isfinite(rho):
        raise DegenerateSetError("the attribute words' cosines with a target mean are all equal: Spearman's rho "
                                 "is undefined")
    return rho


def ect(embedding, T1: Sequence[str], T2: Sequence[str], A: Sequence[str], *, names: Mapping[str, str] | None = None,
        title: str | None = None, test: str = "", alternative: str = "less", normalize: bool = False,
        resampling: Resampling | None = None, words: Words | None = None, warn: bool = True):
    """ECT (Dev & Phillips 2019, Section 4) measured once on an embedding's words.

    The statistic is :func:`ect_statistic` on the words found. The interval is a bootstrap over the words of T1,
    T2 and A, each resampled separately (BCa by default; ties among resampled attribute words take average
    ranks). The test permutes the target words between T1 and T2 (exchangeable under H0, the WEAT's null):
    exact over every split when there are at most ``n_permutations``, else Monte Carlo; the default alternative
    ``"less"`` asks whether ρ is lower than such splits give (bias makes the groups rank the attributes
    differently); the two-sided p is always given too.

    Parameters
    ----------
    embedding, names, title, test, warn
        As every set measure takes them (:mod:`~wordbias.measures.sets.set_measures`); the sets are ``"T1"``,
        ``"T2"`` and ``"A"``.
    T1, T2 : sequence of str
        The two target lists (e.g. male and female names).
    A : sequence of str
        The attribute list (e.g. professions); at least 2 words found.
    alternative : {"less", "greater", "two-sided"}, default "less"
        The tail of ``p_value``.
    normalize : bool, default False
        Scale every vector to unit length first.
    resampling : Resampling, optional
        The bootstrap, and the most splits counted exactly (the random splits beyond):
        :class:`~wordbias.options.Resampling`; None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        See :class:`~wordbias.options.Words`; None: ``Words()``.

    Returns
    -------
    wordbias.result.Result
        ρ (``effect_size``) with its interval, p one- and two-sided with the method, the sets' coverage.

    Raises
    ------
    InvalidParameterError, DegenerateSetError, KeyError
        As every set measure (:mod:`~wordbias.measures.sets.set_measures`); DegenerateSetError also if A keeps
        fewer than 2 words, or ρ is undefined.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = [f"m{i}" for i in range(4)] + [f"f{i}" for i in range(4)] + [f"a{i}" for i in range(8)]
    >>> kv = to_keyed_vectors(words, rng.normal(size=(16, 6)))
    >>> r = ect(kv, words[:4], words[4:8], words[8:], resampling=Resampling(n_resamples=200))
    >>> r.measure, r.p_method, r.coverage
    ('ect', 'exact', 'T1 4/4; T2 4/4; A 8/8')
    >>> bool(-1 <= r.effect_size <= 1), bool(0 < r.p_value <= 1)
    (True, True)
    """
    c = _sm.call(resampling, words, default=DEFAULT_RESAMPLING, alternative=alternative, test=test, warn=warn)
    normalize = check_bool("normalize", normalize)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _sm.look_up(embedding, {"T1": T1, "T2": T2, "A": A}, names=names, case_fold=c.words.case_fold,
                          on_missing=c.words.on_missing, shared_vectors=c.words.shared_vectors)
        rho = ect_statistic(got.mats["T1"], got.mats["T2"], got.mats["A"], normalize=normalize)
    m = {k: (_unit(v) if normalize else v) for k, v in got.mats.items()}
    Au = _unit(m["A"])
    perm = _sm.permutation_test(m["T1"], m["T2"], lambda M1, M2: _rho(Au, M1, M2), c)

    def stat(T1, T2, A):
        return _rho(Au, _sm.resampled_means(m["T1"], T1), _sm.resampled_means(m["T2"], T2), A)

    interval, note = _sm.bootstrap(stat, {k: len(v) for k, v in m.items()}, estimate=rho, name="ect_rho",
                                   resampling=c.resampling)
    n = got.names
    return _sm.measured(
        "ect", got, c, title=title or f"{n['T1']} vs {n['T2']} on {n['A']}", statistic_name="Spearman rho",
        statistic=rho, interval=interval, test=perm, caught=caught,
        notes=(note, "rho = 1: both groups rank the attributes alike (no bias in ECT's sense)"))
