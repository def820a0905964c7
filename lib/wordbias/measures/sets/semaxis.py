"""SemAxis: words scored on a semantic axis between two poles, and two target sets compared on it.

An, J., Kwak, H. & Ahn, Y.-Y. (2018). SemAxis: A Lightweight Framework to Characterize Domain-Specific Word
Semantics Beyond Sentiment. *Proceedings of the 56th Annual Meeting of the Association for Computational
Linguistics (ACL)*, 2450-2461, https://doi.org/10.18653/v1/P18-1210, Section 3.

The axis between a positive pole S⁺ and a negative pole S⁻ is the difference of their mean vectors,
V_axis = mean(S⁺) − mean(S⁻) (:func:`semaxis_axis`), and a word's score is its cosine with the axis,
score(w) = cos(v_w, V_axis) (:func:`semaxis_scores`): positive towards S⁺. :func:`semaxis` compares two target
sets on an axis: the difference of their mean scores, with a bootstrap interval over the words of the four sets
and a permutation test of the target words (the WEAT's null; the scores do not depend on the targets, so the
test is the subset-sum test of :mod:`wordbias.stats.permutation`, exact where the splits can be counted).

The paper builds each pole from a few seed words and augments it with the l nearest neighbours of each in the
embedding (Section 3); that step is not done here: the poles are the lists given (pass augmented lists to
follow the paper). sweater's ``semaxis`` (Chan 2022, R package, ``l`` parameter) does the augmentation.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from wordbias.core.errors import DegenerateSetError
from wordbias.core.validation import as_float_array
from wordbias.measures.directions.direction import unit_vector, vector_set
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words
from wordbias.stats.permutation import subset_sum_tail

__all__ = ["DEFAULT_RESAMPLING", "semaxis_axis", "semaxis_scores", "semaxis"]

#: SemAxis's resampling options when the call gives none: 100,000 Monte Carlo draws when the splits cannot be
#: counted
DEFAULT_RESAMPLING = Resampling(n_permutations=100_000)


def _unit(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=-1, keepdims=True)


def semaxis_axis(A_pos, A_neg) -> np.ndarray:
    """The semantic axis V_axis = mean(S⁺) − mean(S⁻) of two pole word sets (An et al. 2018, Section 3).

    Parameters
    ----------
    A_pos, A_neg : array-like of shape (n_pos, d) and (n_neg, d)
        The vectors of the positive and the negative pole words, one row per word.

    Returns
    -------
    numpy.ndarray of shape (d,)
        The axis (not scaled to unit length).

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, or the sets differ in dimension.
    DegenerateSetError
        If a set is empty or holds a zero vector, or the two means are equal (no axis).
    ValueError
        If the poles share a vector.

    Examples
    --------
    >>> semaxis_axis([[2.0, 0.0], [0.0, 2.0]], [[0.0, -1.0]])
    array([1., 2.])
    """
    m = _sm.vector_sets({"A_pos": A_pos, "A_neg": A_neg}, disjoint=[("A_pos", "A_neg")])
    axis = m["A_pos"].mean(axis=0) - m["A_neg"].mean(axis=0)
    if not np.linalg.norm(axis) > 0:
        raise DegenerateSetError("the two poles have the same mean: there is no axis")
    return axis


def semaxis_scores(W, A_pos, A_neg) -> np.ndarray:
    """SemAxis scores, score(w) = cos(v_w, mean(S⁺) − mean(S⁻)) (An et al. 2018, Section 3), of each row of ``W``.

    Parameters
    ----------
    W : array-like of shape (n, d)
        The vectors of the words to score, one row per word.
    A_pos, A_neg : array-like of shape (n_pos, d) and (n_neg, d)
        The vectors of the positive and negative pole words.

    Returns
    -------
    numpy.ndarray of shape (n,)
        The scores, in [-1, 1]: positive towards the positive pole.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, or the sets differ in dimension.
    DegenerateSetError
        If a set is empty or holds a zero vector, or the poles have the same mean.
    ValueError
        If the poles share a vector.

    Examples
    --------
    >>> semaxis_scores([[1.0, 0.0], [0.0, 3.0], [1.0, 1.0]], [[1.0, 0.0]], [[-1.0, 0.0]]).round(4)
    array([1.    , 0.    , 0.7071])
    """
    axis = semaxis_axis(A_pos, A_neg)
    W = vector_set(as_float_array("W", W, what="a set of word vectors (one row per word)"), "W")
    if W.shape[1] != axis.shape[0]:
        from wordbias.core.errors import InvalidParameterError

        raise InvalidParameterError(f"W has vectors of dimension {W.shape[1]}, the poles {axis.shape[0]}")
    return _unit(W) @ unit_vector(axis, "axis")


def semaxis(embedding, T1: Sequence[str], T2: Sequence[str], A_pos: Sequence[str], A_neg: Sequence[str], *,
            names: Mapping[str, str] | None = None, title: str | None = None, test: str = "",
            alternative: str = "two-sided", resampling: Resampling | None = None, words: Words | None = None,
            warn: bool = True):
    """Two target sets compared on a SemAxis axis (An et al. 2018), measured once on an embedding's words.

    The statistic is mean score(T1) − mean score(T2), the scores those of :func:`semaxis_scores` on the axis
    mean(A_pos) − mean(A_neg): positive when T1 lies further towards the positive pole than T2. The interval is a
    bootstrap over the words of the four sets (the axis re-estimated in each resample; BCa by default). The test
    permutes the target words between T1 and T2 (the WEAT's null): the difference is increasing in the sum of
    T1's scores, so p is the subset-sum tail of :func:`wordbias.stats.permutation.subset_sum_tail` (exact where
    the splits can be counted, else ``n_permutations`` Monte Carlo draws).

    Parameters
    ----------
    embedding, names, title, test, alternative, words, warn
        As every set measure takes them (:mod:`~wordbias.measures.sets.set_measures`); the sets are ``"T1"``,
        ``"T2"``, ``"A_pos"`` and ``"A_neg"``; ``alternative`` is "two-sided" by default.
    T1, T2 : sequence of str
        The two target lists.
    A_pos, A_neg : sequence of str
        The positive and the negative pole's words.
    resampling : Resampling, optional
        The bootstrap, and the Monte Carlo draws when the splits cannot be counted
        (:class:`~wordbias.options.Resampling`); None: :data:`DEFAULT_RESAMPLING`.

    Returns
    -------
    wordbias.result.Result
        The difference of mean scores (``effect_size``) with its interval, p one- and two-sided, the coverage;
        ``result`` holds the scores of T1 and T2.

    Raises
    ------
    InvalidParameterError, DegenerateSetError, KeyError
        As every set measure (:mod:`~wordbias.measures.sets.set_measures`); DegenerateSetError also if the poles
        have the same mean.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> emb = {"rose": [1, .2], "tulip": [.9, .4], "lily": [.8, .1], "ant": [.1, 1], "wasp": [.3, .9],
    ...        "moth": [.2, .8], "love": [1, 0], "joy": [.9, .1], "hate": [0, 1], "war": [.1, .9]}
    >>> r = semaxis(emb, ["rose", "tulip", "lily"], ["ant", "wasp", "moth"], ["love", "joy"], ["hate", "war"],
    ...             resampling=Resampling(n_resamples=500), warn=False)
    >>> round(r.effect_size, 3), r.p_method, r.p_value     # the largest of the 20 splits, doubled
    (1.041, 'exact', 0.1)
    """
    c = _sm.call(resampling, words, default=DEFAULT_RESAMPLING, alternative=alternative, test=test, warn=warn)
    n_permutations, seed = c.resampling.n_permutations, c.resampling.seed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _sm.look_up(embedding, {"T1": T1, "T2": T2, "A_pos": A_pos, "A_neg": A_neg}, names=names,
                          case_fold=c.words.case_fold, on_missing=c.words.on_missing,
                          shared_vectors=c.words.shared_vectors)
        m = got.mats
        s1 = semaxis_scores(m["T1"], m["A_pos"], m["A_neg"])
        s2 = semaxis_scores(m["T2"], m["A_pos"], m["A_neg"])
    value = float(s1.mean() - s2.mean())
    tail = subset_sum_tail(np.concatenate([s1, s2]), len(s1), float(s1.sum()), p_method="auto",
                           n_permutations=n_permutations, seed=seed, alternative=alternative)
    two = tail if alternative == "two-sided" else subset_sum_tail(
        np.concatenate([s1, s2]), len(s1), float(s1.sum()), p_method="auto", n_permutations=n_permutations,
        seed=seed, alternative="two-sided")
    perm = _sm.PermutationTest(value, tail.p_value, two.p_value, alternative, tail.p_method,
                               tail.n_permutations or tail.n_partitions)
    U = {k: _unit(v) for k, v in m.items()}

    def stat(T1, T2, A_pos, A_neg):
        axis = _unit(_sm.resampled_means(m["A_pos"], A_pos) - _sm.resampled_means(m["A_neg"], A_neg))
        return (_sm.gather(axis @ U["T1"].T, T1).mean(axis=-1) - _sm.gather(axis @ U["T2"].T, T2).mean(axis=-1))

    interval, note = _sm.bootstrap(stat, {k: len(v) for k, v in m.items()}, estimate=value,
                                   name="semaxis_difference", resampling=c.resampling)
    n = got.names
    return _sm.measured(
        "semaxis", got, c, title=title or f"{n['T1']} vs {n['T2']} on the axis {n['A_pos']} - {n['A_neg']}",
        statistic_name="mean score(T1) - mean score(T2)", statistic=value, interval=interval, test=perm,
        caught=caught, notes=(note, f"positive: {n['T1']} further towards {n['A_pos']} than {n['T2']}"),
        result=(s1, s2))
