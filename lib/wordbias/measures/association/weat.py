"""The Word Embedding Association Test (WEAT) of Caliskan, Bryson & Narayanan (2017), Methods.

X, Y are the target word sets and A, B the attribute sets, in the paper's notation. Three layers: the
statistics on vectors and scores (:func:`association`, :func:`test_statistic`, :func:`effect_size`,
:func:`p_value`, whose permutation engine is :mod:`wordbias.stats.permutation`; the cosines are
:func:`wordbias.core.vectors.cosine_matrix`'s), the balancing of the target
sets (:func:`balance`; words are looked up by :mod:`wordbias.core.lookup`), and the whole test (:func:`weat`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

import numpy as np

from wordbias.core import costs as _costs
from wordbias.core import lookup
from wordbias.core.errors import BalancedOutWarning, DegenerateSetError, InvalidParameterError, LowPowerWarning
from wordbias.core.lookup import WordSet
from wordbias.core.validation import (
    as_float_array,
    check_bool,
    check_ddof,
    check_disjoint,
    check_finite,
    check_int,
    check_option,
    check_probability,
    check_real,
    check_seed,
    check_spread,
    check_targets_not_attributes,
    float_eps,
)
from wordbias.core.vectors import cosine_matrix
from wordbias.options import BALANCE_POLICIES, Resampling, Words, options_or_default
from wordbias.stats import permutation as _stats

__all__ = [
    "MIN_TARGET_SIZE",
    "MIN_ATTRIBUTE_SIZE",
    "WordSet",
    "WeatResult",
    "association",
    "vector_eps",
    "test_statistic",
    "effect_size",
    "p_value",
    "BALANCE_POLICIES",
    "ALPHA",
    "check_names",
    "check_sets",
    "check_targets_not_attributes",
    "balance",
    "BALANCE_DRAWS",
    "BalanceSpread",
    "balance_spread",
    "smallest_p",
    "warn_low_power",
    "weat_from_scores",
    "weat",
    "DEFAULT_RESAMPLING",
    "DEFAULT_WORDS",
    "options_or_default",
    "case_folded",
]

#: the resampling of :func:`weat` when none is given: 100,000 Monte Carlo permutations, seed 0
DEFAULT_RESAMPLING = Resampling(n_permutations=100_000)
#: the word policy of :func:`weat` when none is given: unknown words dropped, no case folding, random balancing
DEFAULT_WORDS = Words(case_fold=False)


def case_folded(embedding, case_fold: bool | None) -> bool:
    """Whether a measure folds the case of its words: ``case_fold``, or when None whether the vocabulary is
    uncased (no upper-case letter among its first 50,000 words, :func:`wordbias.embeddings.is_cased`).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The vectors.
    case_fold : bool or None
        The caller's choice (``Words.case_fold``).

    Returns
    -------
    bool
        True to lower-case every word.

    Examples
    --------
    >>> case_folded({"Paris": [0.0], "london": [1.0]}, None), case_folded({"paris": [0.0]}, None)
    (False, True)
    """
    if case_fold is not None:
        return check_bool("case_fold", case_fold)
    keys = getattr(embedding, "index_to_key", None)
    keys = list(embedding)[:50_000] if keys is None else keys[:50_000]
    return not any(isinstance(w, str) and w != w.lower() for w in keys)

#: smallest target set (each of X, Y) after unknown words are dropped
MIN_TARGET_SIZE = 2
#: smallest attribute set (each of A, B) after unknown words are dropped
MIN_ATTRIBUTE_SIZE = 1


#: the significance level under which :func:`weat` warns that the test cannot reach significance
ALPHA = 0.05


# --------------------------------------------------------------------------------------------------
# the pure statistics, on vectors and association scores
# --------------------------------------------------------------------------------------------------

def association(W, A, B) -> np.ndarray:
    """Association s(w, A, B) of each word vector with two attribute sets (Methods, WEAT).

    s(w, A, B) = mean_a cos(w, a) − mean_b cos(w, b) for every row w of W; the cosines are
    :func:`wordbias.core.vectors.cosine_matrix`'s.

    Parameters
    ----------
    W : array_like of float, shape (n_words, dim)
        The word vectors, one row per word.
    A, B : array_like of float, shape (n_a, dim) and (n_b, dim)
        The vectors of the two attribute sets.

    Returns
    -------
    numpy.ndarray of float, shape (n_words,)
        s(w, A, B) for each row w of ``W``.

    Raises
    ------
    DegenerateSetError
        When a vector is zero or not finite (its cosine is undefined).
    InvalidParameterError
        When a set is not a 2-D array of numbers, or the sets differ in dimension.

    See Also
    --------
    test_statistic, effect_size

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> association(W, np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])).round(6)
    array([ 1.,  0., -1.])
    """
    return cosine_matrix(W, A).mean(axis=1) - cosine_matrix(W, B).mean(axis=1)


def vector_eps(embedding, words: Sequence[str] = ()) -> float:
    """The precision of ``embedding``'s word vectors: the machine epsilon of their dtype.

    The rounding every score computed from them carries (:func:`wordbias.core.validation.spread_tolerance`):
    1.19e-7 for float32 vectors (every embedding :func:`wordbias.embeddings.load` returns), 2.2e-16 for float64
    ones (a mapping of Python numbers); float16 or bfloat16 coarser still. A ``KeyedVectors`` is read by its
    matrix's dtype, a mapping by those of the vectors of ``words``.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The embedding.
    words : sequence of str, default ()
        The words whose vectors a mapping is read by (each in ``embedding``).

    Returns
    -------
    float
        The epsilon of the coarsest dtype among the vectors (float64's when none is coarser).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> vector_eps(to_keyed_vectors(["a"], np.ones((1, 2), dtype=np.float32)))
    1.1920928955078125e-07
    >>> vector_eps({"a": [1.0, 0.0]}, ["a"])
    2.220446049250313e-16
    """
    matrix = getattr(embedding, "vectors", None)
    arrays = [matrix] if matrix is not None else [embedding[w] for w in words]
    return float_eps(*arrays) or float(np.finfo(np.float64).eps)


def test_statistic(s_x, s_y) -> float:
    """The WEAT test statistic s(X, Y, A, B) = Σ_x s(x, A, B) − Σ_y s(y, A, B) (Methods, WEAT).

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of the words of X and of Y (:func:`association`): finite 1-D scores.

    Returns
    -------
    float
        The sum of ``s_x`` minus the sum of ``s_y``.

    Raises
    ------
    InvalidParameterError
        When the scores are not a 1-D list of numbers, or hold NaN or infinity.

    Examples
    --------
    >>> test_statistic([1.0, 0.0], [-1.0, -0.5])
    2.5
    """
    return float(np.sum(scores("s_x", s_x)) - np.sum(scores("s_y", s_y)))


def scores(name: str, values, min_size: int = 0) -> np.ndarray:
    """Association scores s(w, A, B) as a finite 1-D float64 array (:func:`wordbias.core.validation.as_float_array`:
    a torch tensor or a pandas Series is converted, a DataFrame, a dict or a ragged list refused, naming
    ``name``; NaN or infinity is refused naming the positions, :func:`wordbias.core.validation.check_finite`),
    of at least ``min_size`` scores (:class:`DegenerateSetError`).

    Examples
    --------
    >>> scores("s_x", [float("nan"), 1.0])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: s_x holds non-finite scores at positions [0]
    """
    v = check_finite(name, as_float_array(name, values, ndim=1, what="a 1-D list of association scores"), "scores")
    if v.size < min_size:
        raise DegenerateSetError(f"{name} has {v.size} score(s); it needs at least {min_size} (one per target word)")
    return v


test_statistic.__test__ = False  # not a pytest test


def effect_size(s_x, s_y, ddof: int = 1, *, convention: str | None = None, input_eps: float | None = None) -> float:
    """The WEAT effect size d (Methods, WEAT).

    d = [mean_{x∈X} s(x, A, B) − mean_{y∈Y} s(y, A, B)] / std-dev_{w∈X∪Y} s(w, A, B).

    The standard deviation is the *sample* one by default (``ddof=1``, as R's ``sd``): it is the one that
    reproduces Table 1 on the authors' GloVe vectors; the population std (``ddof=0``) gives values larger by
    the factor sqrt(N/(N−1)). Scores equal up to rounding (a standard deviation at or below
    :func:`wordbias.core.validation.spread_tolerance`) make d a ratio of noise: a
    :class:`DegenerateSetError`, as exactly equal scores. The rounding counted is that of the word vectors the
    scores come from (``input_eps``; :func:`weat` passes its embedding's, :func:`vector_eps`): target vectors
    equal up to float32 rounding give scores 1e-8 apart, noise and no effect.

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of the words of X and of Y (:func:`association`): finite 1-D scores, at
        least one each.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the pooled standard deviation: 1 (sample) or 0 (population).
    convention : str, optional
        d as another tool computes it (a key of :data:`wordbias.measures.association.conventions.CONVENTIONS`: ``"wefe"``,
        ``"sweater"``, ``"allennlp"``, ...; :func:`wordbias.measures.association.conventions.effect_size_as`), so that a
        number from a paper that used it can be lined up. ``None`` (default): the formula above with ``ddof``.
        Give ``ddof`` or ``convention``, not both.
    input_eps : float, optional
        The precision of the word vectors the scores were computed from (:func:`vector_eps`; float32 vectors:
        1.19e-7): each score, a difference of two means of cosines, may then be off by a few ``input_eps``
        whatever its size, and a spread within :data:`~wordbias.core.validation.SPREAD_SLACK` of them is
        rounding. Default: the scores' own precision (float32 arrays: float32's; otherwise float64's). Not
        with ``convention``.

    Returns
    -------
    float
        The effect size d.

    Raises
    ------
    DegenerateSetError
        When a set has no score, or all scores are equal (up to rounding).
    InvalidParameterError
        When ``ddof`` is not 0 or 1, or the scores are not a 1-D list of finite numbers, or ``convention`` is not
        a known one or comes with ``ddof=0``.

    See Also
    --------
    wordbias.measures.association.bootstrap.effect_size_bootstrap : a bootstrap confidence interval for d.
    wordbias.measures.association.conventions : how each tool computes d, with the file and line read.

    Examples
    --------
    >>> round(effect_size([1.0, 0.0], [-1.0, -0.5]), 6)
    1.46385
    >>> round(effect_size([1.0, 0.0], [-1.0, -0.5], ddof=0), 6)
    1.690309
    >>> round(effect_size([1.0, 0.0], [-1.0, -0.5, 0.0], convention="sweater"), 6)
    1.732051
    """
    ddof = check_ddof(ddof)
    if convention is not None:
        if ddof != 1:
            raise InvalidParameterError(f"give ddof or convention, not both (ddof={ddof}, convention={convention!r}): "
                                        f"each convention fixes its own standard deviation")
        if input_eps is not None:
            raise InvalidParameterError(f"give input_eps or convention, not both (convention={convention!r}): a "
                                        f"convention's d is checked on the scores as given")
        from wordbias.measures.association.conventions import effect_size_as  # here: conventions is a leaf of weat

        return effect_size_as(s_x, s_y, convention)
    scale = None if input_eps is None else 1.0       # from vectors: cosines' rounding, relative to 1
    input_eps = float_eps(s_x, s_y) if input_eps is None else check_real("input_eps", input_eps, low=0)
    s_x, s_y = scores("s_x", s_x, 1), scores("s_y", s_y, 1)
    pooled = np.concatenate([s_x, s_y])
    sd = pooled.std(ddof=ddof)
    check_spread(pooled, sd, "all target words have the same association s(w, A, B): the effect size is undefined",
                 input_eps=input_eps, scale=scale)
    return float((s_x.mean() - s_y.mean()) / sd)


def p_value(s_x, s_y, p_method: str = "auto", n_permutations: int = 100_000, seed=0,
            exact_max_n: int = _stats.EXACT_MAX_N, progress: bool = False,
            max_seconds: float = _costs.MAX_SECONDS, alternative: str = "greater") -> _stats.TailProbability:
    """The permutation p-value of the WEAT, by default one-sided Pr_i[s(X_i, Y_i, A, B) ≥ s(X, Y, A, B)].

    The test of Methods, WEAT. Partitions keep the sizes of X and Y. ``p_method`` is ``"exact"`` (count all partitions),
    ``"monte-carlo"`` (seeded, add-one rule), ``"normal"`` (normal approximation with the exact moments of
    the permutation distribution) or ``"auto"`` (exact when affordable, otherwise Monte Carlo). A Monte Carlo
    request estimated to take more than ``max_seconds`` is refused up front
    (:class:`~wordbias.core.errors.TooCostlyError`, :func:`wordbias.stats.montecarlo.check_mc_cost`).

    ``alternative``: ``"greater"`` (the paper's test, the default), ``"less"`` (Pr_i[s(X_i, Y_i, A, B) ≤
    s(X, Y, A, B)]: is Y the one closer to A?) or ``"two-sided"``, min(1, 2·min of the two), the doubling
    rule of :func:`scipy.stats.permutation_test` (see :mod:`wordbias.stats.permutation`). The paper reports
    only the one-sided p, so a negative effect size gives p near 1 there; the two-sided p is small for a
    large ``|d|`` of either sign. The result's ``alternative`` names the tail.

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of the words of X and of Y (:func:`association`), at least one each.
    p_method : {"auto", "exact", "monte-carlo", "mc", "normal"}, default "auto"
        How the p-value is computed (``"mc"`` is an alias of ``"monte-carlo"``).
    n_permutations : int, default 100000
        The number of random partitions drawn by Monte Carlo (>= 1); ``"auto"`` also counts exactly when
        there are no more partitions than this.
    seed : int or numpy.random.Generator, default 0
        Seed (an integer >= 0) or generator of the Monte Carlo draws.
    exact_max_n : int, default 50
        ``"auto"`` counts exactly when ``|X| + |Y|`` is at most this
        (:data:`wordbias.stats.permutation.EXACT_MAX_N`).
    progress : bool, default False
        Show a progress bar while counting or sampling.
    max_seconds : float, default 600.0
        The longest a Monte Carlo request may be estimated to take (:data:`wordbias.core.costs.MAX_SECONDS`);
        ``float("inf")`` sets no limit.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of the test.

    Returns
    -------
    wordbias.stats.permutation.TailProbability
        The p-value with how it was obtained (``p_value``, ``p_method``, ``n_partitions``, ``n_extreme``,
        ``alternative``, ...).

    Raises
    ------
    InvalidParameterError
        When an option or number is out of range, or the scores are not a 1-D list of finite numbers.
    DegenerateSetError
        When a set has no score.
    TooCostlyError
        When a Monte Carlo request is estimated to take more than ``max_seconds``.
    ExactCountTooLarge
        When ``p_method="exact"`` and the exact count is beyond its budget.

    Examples
    --------
    Of the 6 partitions of {1, 0, −1, −0.5} into two pairs only the observed one reaches s = 1 − (−1.5):

    >>> p = p_value([1.0, 0.0], [-1.0, -0.5])
    >>> p.p_method, p.n_extreme, p.n_partitions, round(p.p_value, 4)
    ('exact', 1, 6, 0.1667)
    >>> p_value([-1.0, -0.5], [1.0, 0.0]).p_value, p_value([-1.0, -0.5], [1.0, 0.0], alternative="two-sided").p_value
    (1.0, 0.3333333333333333)
    """
    s_x = scores("s_x", s_x, 1)
    pooled = np.concatenate([s_x, scores("s_y", s_y, 1)])
    return _stats.subset_sum_tail(pooled, s_x.size, float(s_x.sum()), p_method=p_method, n_permutations=n_permutations,
                                  seed=seed, exact_max_n=exact_max_n, progress=progress, max_seconds=max_seconds,
                                  alternative=alternative)


# --------------------------------------------------------------------------------------------------
# balancing the target sets
# --------------------------------------------------------------------------------------------------

def balance(x: WordSet, y: WordSet, policy: str = "random", seed=0) -> tuple[WordSet, WordSet]:
    """Equalize the sizes of two target sets (Supplementary, WEAT 3).

    ``policy="random"`` deletes words chosen at random (seeded) from the larger set, as the authors did
    for the European American names; ``"none"`` keeps unequal sets (the permutation test then uses
    partitions of the same unequal sizes); ``"raise"`` raises if the sizes differ. Words deleted warn
    :class:`~wordbias.core.errors.BalancedOutWarning` naming them (they are also in ``balanced_out``).

    Parameters
    ----------
    x, y : WordSet
        The two target sets, after the unknown-word policy (:func:`wordbias.core.lookup.word_set`).
    policy : {"random", "none", "raise"}, default "random"
        What to do when the sizes differ (:data:`BALANCE_POLICIES`).
    seed : int or numpy.random.Generator, default 0
        Seed or generator of the random deletion.

    Returns
    -------
    x, y : WordSet
        The two sets, in the order given, of equal size under ``"random"``; the larger one lists the words
        deleted in its ``balanced_out``.

    Raises
    ------
    InvalidParameterError
        When ``policy`` is not one of :data:`BALANCE_POLICIES`.
    DegenerateSetError
        When ``policy="raise"`` and the sizes differ.

    Examples
    --------
    >>> x = WordSet("flowers", ("rose", "tulip"), ("rose", "tulip"))
    >>> y = WordSet("insects", ("ant", "wasp", "moth"), ("ant", "wasp", "moth"))
    >>> bx, by = balance(x, y, policy="none")
    >>> len(bx.words), len(by.words)
    (2, 3)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     bx, by = balance(x, y, seed=0)
    >>> len(by.words), len(by.balanced_out)
    (2, 1)
    """
    check_option("balance_targets", policy, BALANCE_POLICIES)
    if policy == "none" or len(x.words) == len(y.words):
        return x, y
    if policy == "raise":
        raise DegenerateSetError(
            f"target sets {x.name!r} ({len(x.words)} words) and {y.name!r} ({len(y.words)} words) differ in size")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    x_larger = len(x.words) > len(y.words)
    big, small = (x, y) if x_larger else (y, x)
    drop = set(rng.choice(len(big.words), size=len(big.words) - len(small.words), replace=False).tolist())
    kept = tuple(w for i, w in enumerate(big.words) if i not in drop)
    gone = tuple(w for i, w in enumerate(big.words) if i in drop)
    big = WordSet(big.name, big.requested, kept, big.missing, gone)
    lookup.warn_user(BalancedOutWarning(
        f"target set {big.name!r} had {len(big.words) + len(gone)} words and {small.name!r} {len(small.words)}: "
        f"{len(gone)} word(s) of {big.name!r} deleted at random to balance them: {list(gone)} (the result depends "
        f"on the seed; balance_targets='none' keeps both sets whole)"))
    return (big, small) if x_larger else (small, big)


#: the balancing draws :func:`balance_spread` computes d over when target sets of unequal size are balanced at
#: random (every subset instead when the larger set has no more subsets of the smaller one's size than this)
BALANCE_DRAWS = 100


@dataclass(frozen=True)
class BalanceSpread:
    """How far d moves with the words that random balancing deletes (Supplementary, WEAT 3).

    Caliskan et al. (2017, Methods) define the test for target sets of equal size and, when words are missing,
    delete words of the larger set at random. Which words go is a choice of the seed; this records the d the
    test reported, the d over ``n_draws`` balancing draws (the test's own among them, so ``d_min <= d <=
    d_max``), and the d of the unbalanced sets (``balance_targets="none"``).

    Attributes
    ----------
    deleted : dict of str to tuple of str
        The words deleted, under the name of the set they were deleted from.
    seed : int or None
        The seed of the balancing (None when a ``numpy.random.Generator`` was given).
    d : float
        The effect size of the test, on the balanced sets.
    d_none : float
        The effect size on the whole target sets (no balancing).
    n_draws : int
        The balancing draws d was computed over.
    exhaustive : bool
        Whether the draws are every subset of the larger set (then the range is exact), else random (seeded
        from the test's seed) with the test's own draw first.
    d_min, d_max : float
        The smallest and largest d over the draws.
    d_low, d_high : float
        The middle 95% of d over the draws (the 2.5th and 97.5th percentiles).
    d_sd : float
        The standard deviation of d over the draws.
    """

    deleted: dict
    seed: int | None
    d: float
    d_none: float
    n_draws: int
    exhaustive: bool
    d_min: float
    d_max: float
    d_low: float
    d_high: float
    d_sd: float

    def spread_text(self) -> str:
        """How far d moves with the balancing.

        Returns
        -------
        str
            d over the draws, the test's own d and seed, and the unbalanced d.
        """
        seed = f"seed {self.seed}" if self.seed is not None else "the generator given"
        draws = (f"over all {self.n_draws} ways to balance" if self.exhaustive
                 else f"over {self.n_draws} balancing draws")
        return (f"d {draws} ranges {self.d_min:.3f} to {self.d_max:.3f} (middle 95% {self.d_low:.3f} to "
                f"{self.d_high:.3f}, SD {self.d_sd:.3f}); this test's draw ({seed}) gives d = {self.d:.3f}; without "
                f"balancing (balance_targets='none') d = {self.d_none:.3f}")

    def text(self) -> str:
        """The balancing in one line.

        Returns
        -------
        str
            The words deleted and the seed, then :meth:`spread_text`.
        """
        gone = "; ".join(f"{name}: {' '.join(words)}" for name, words in self.deleted.items())
        return f"target sets balanced by deleting words at random, {gone}; {self.spread_text()}"


def _subsets(n_big: int, used: np.ndarray, n_draws: int, rng) -> tuple[np.ndarray, int, bool]:
    """Row indices of the larger set, one balancing draw a row, the row of the words ``used`` and whether the rows
    are every subset: every subset when there are at most ``n_draws``, else ``used`` then ``n_draws - 1`` random
    subsets."""
    used = np.sort(used)
    if comb(n_big, used.size) <= n_draws:
        rows = np.array(list(combinations(range(n_big), used.size)), dtype=np.intp)
        return rows, int(np.flatnonzero((rows == used).all(axis=1))[0]), True
    drawn = np.sort(np.argsort(rng.random((n_draws - 1, n_big)), axis=1)[:, :used.size], axis=1)
    return np.vstack([used[None, :], drawn]), 0, False


def balance_spread(s_x, s_y, kept_x, kept_y, *, n_draws: int = BALANCE_DRAWS, seed=0,
                   ddof: int = 1) -> dict:
    """d over balancing draws: the effect size of every way (or of ``n_draws`` random ways) to delete words of
    the larger target set down to the smaller one's size (Supplementary, WEAT 3; d as in Methods).

    The associations s(w, A, B) are computed once, for every word of both whole sets; each draw only takes a
    subset of the larger set's rows, so the draws cost one small array operation.

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations of every word of the whole target sets X and Y (before balancing).
    kept_x, kept_y : array_like of int
        The positions in ``s_x`` and ``s_y`` of the words the test kept (one of them is every position).
    n_draws : int, default BALANCE_DRAWS
        The balancing draws (>= 2); every subset is taken instead when there are no more than this.
    seed : int or numpy.random.Generator, default 0
        Seed of the random draws.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d (:func:`effect_size`).

    Returns
    -------
    dict
        ``d_draws`` (d of each draw), ``used_row`` (the draw of the kept words: the first when the draws are
        random), ``d_none`` (d of the whole sets), ``exhaustive`` (bool) and ``n_draws``.

    Raises
    ------
    InvalidParameterError
        When the scores are not 1-D lists of finite numbers, the positions are out of range, or ``n_draws``,
        ``seed`` or ``ddof`` is invalid.

    Examples
    --------
    >>> out = balance_spread([1.0, 0.8, 0.1], [-1.0, -0.6], [0, 1], [0, 1])
    >>> out["exhaustive"], out["n_draws"], out["used_row"], [round(float(d), 3) for d in out["d_draws"]]
    (True, 3, 0, [1.703, 1.539, 1.576])
    """
    s_x, s_y = scores("s_x", s_x, 1), scores("s_y", s_y, 1)
    n_draws, ddof = check_int("n_draws", n_draws, min=2), check_ddof(ddof)
    kept = [np.asarray(k, dtype=np.intp) for k in (kept_x, kept_y)]
    if any(k.ndim != 1 or k.size < 1 or k.min() < 0 or k.max() >= s.size for k, s in zip(kept, (s_x, s_y))):
        raise InvalidParameterError("kept_x and kept_y must be positions in s_x and s_y")
    rng = np.random.default_rng(check_seed("seed", seed))
    x_big = s_x.size > s_y.size
    big, small, used = (s_x, s_y, kept[0]) if x_big else (s_y, s_x, kept[1])
    if used.size != small.size:
        raise InvalidParameterError(f"the kept words of the larger set ({used.size}) must be as many as the smaller "
                                    f"set's ({small.size})")
    rows, used_row, exhaustive = _subsets(big.size, used, n_draws, rng)
    drawn = big[rows]                                             # (draws, |small|): the rows of each draw
    fixed = np.broadcast_to(small, drawn.shape)
    sx, sy = (drawn, fixed) if x_big else (fixed, drawn)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = (sx.mean(axis=1) - sy.mean(axis=1)) / np.concatenate([sx, sy], axis=1).std(axis=1, ddof=ddof)
        d_none = (s_x.mean() - s_y.mean()) / np.concatenate([s_x, s_y]).std(ddof=ddof)
    return {"d_draws": d, "used_row": used_row, "d_none": float(d_none), "exhaustive": exhaustive,
            "n_draws": len(rows)}


def _spread(x0: WordSet, y0: WordSet, x: WordSet, y: WordSet, scores_of, d: float, seed, ddof: int):
    """The :class:`BalanceSpread` of a test whose target sets ``x0``, ``y0`` were balanced to ``x``, ``y``
    (None when no word was deleted); ``scores_of(words)`` gives the associations of words."""
    deleted = {s.name: s.balanced_out for s in (x, y) if s.balanced_out}
    if not deleted:
        return None
    kept = [[whole.words.index(w) for w in part.words] for whole, part in ((x0, x), (y0, y))]
    seq = seed.bit_generator.seed_seq if isinstance(seed, np.random.Generator) else np.random.SeedSequence(seed)
    out = balance_spread(scores_of(x0.words), scores_of(y0.words), *kept, seed=np.random.default_rng(seq.spawn(1)[0]),
                         ddof=ddof)                          # a stream of its own: the test's draws stay as they are
    draws = out["d_draws"]
    draws[out["used_row"]] = d                               # the test's own d, to the last bit
    low, high = np.nanpercentile(draws, [2.5, 97.5])
    return BalanceSpread(deleted=deleted, seed=seed if isinstance(seed, (int, np.integer)) else None, d=float(d),
                         d_none=out["d_none"], n_draws=out["n_draws"], exhaustive=out["exhaustive"],
                         d_min=float(np.nanmin(draws)), d_max=float(np.nanmax(draws)), d_low=float(low),
                         d_high=float(high), d_sd=float(np.nanstd(draws, ddof=1)))


# --------------------------------------------------------------------------------------------------
# the whole test
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WeatResult:
    """Everything a WEAT reports: sizes, statistic, effect size, p-value and how it was obtained.

    ``alternative`` (from ``p``) names the tail of the p-value: "greater" (the paper's), "less" or
    "two-sided". :meth:`summary` keeps its columns (the committed tables are built from it); read the
    alternative from the result.

    Attributes
    ----------
    X, Y : WordSet
        The target sets, after the unknown-word policy and balancing.
    A, B : WordSet
        The attribute sets, after the unknown-word policy.
    s_x, s_y : numpy.ndarray
        The associations s(w, A, B) of the words of X and of Y, in the order of their ``words``.
    statistic : float
        The test statistic s(X, Y, A, B) (:func:`test_statistic`).
    effect_size : float
        The effect size d (:func:`effect_size`).
    p : wordbias.stats.permutation.TailProbability
        The p-value and how it was obtained (:func:`p_value`).
    balancing : BalanceSpread or None, default None
        When words were deleted at random to balance the target sets: which, the seed, d over the balancing
        draws and d without balancing (:func:`balance_spread`); None otherwise.
    """

    X: WordSet
    Y: WordSet
    A: WordSet
    B: WordSet
    s_x: np.ndarray = field(repr=False)
    s_y: np.ndarray = field(repr=False)
    statistic: float
    effect_size: float
    p: _stats.TailProbability
    balancing: BalanceSpread | None = field(default=None, compare=False)

    @property
    def p_value(self) -> float:
        """The p-value, ``p.p_value``."""
        return self.p.p_value

    @property
    def p_method(self) -> str:
        """How the p-value was obtained: "exact", "monte-carlo" or "normal"."""
        return self.p.p_method

    @property
    def alternative(self) -> str:
        """The alternative of the p-value: "greater", "less" or "two-sided"."""
        return self.p.alternative

    @property
    def missing(self) -> dict[str, tuple[str, ...]]:
        """Unknown words dropped from each set (only sets that lost words)."""
        return {s.name: s.missing for s in (self.X, self.Y, self.A, self.B) if s.missing}

    @property
    def balanced_out(self) -> dict[str, tuple[str, ...]]:
        """Words deleted at random to balance the target sets."""
        return {s.name: s.balanced_out for s in (self.X, self.Y) if s.balanced_out}

    def summary(self) -> dict:
        """A flat dict for one table row.

        Returns
        -------
        dict
            ``n_target`` and ``n_attribute`` (a size, or "nxm" when the two sets differ), ``statistic``,
            ``effect_size``, ``p_value``, ``p_method``, ``p_resolution`` and the words ``missing`` and
            ``balanced_out``, each as one string.
        """
        return {
            "n_target": f"{len(self.X.words)}x{len(self.Y.words)}" if len(self.X.words) != len(self.Y.words)
            else len(self.X.words),
            "n_attribute": f"{len(self.A.words)}x{len(self.B.words)}" if len(self.A.words) != len(self.B.words)
            else len(self.A.words),
            "statistic": self.statistic,
            "effect_size": self.effect_size,
            "p_value": self.p.p_value,
            "p_method": self.p.p_method,
            "p_resolution": self.p.resolution,
            "missing": "; ".join(f"{k}: {' '.join(v)}" for k, v in self.missing.items()),
            "balanced_out": "; ".join(f"{k}: {' '.join(v)}" for k, v in self.balanced_out.items()),
        }


def weat_from_scores(s_x, s_y, *, p_method: str = "auto", n_permutations: int = 100_000, seed=0,
                     ddof: int = 1, progress: bool = False, max_seconds: float = _costs.MAX_SECONDS,
                     alternative: str = "greater", input_eps: float | None = None):
    """Statistic, effect size and p-value of a WEAT from the per-word associations s(x, A, B), s(y, A, B).

    The p-value is :func:`p_value`'s, with its ``alternative``.

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of the words of X and of Y (:func:`association`), at least one each.
    p_method : {"auto", "exact", "monte-carlo", "mc", "normal"}, default "auto"
        How the p-value is computed (:func:`p_value`).
    n_permutations : int, default 100000
        The number of random partitions drawn by Monte Carlo.
    seed : int or numpy.random.Generator, default 0
        Seed or generator of the Monte Carlo draws.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of the effect size (:func:`effect_size`).
    progress : bool, default False
        Show a progress bar while computing the p-value.
    max_seconds : float, default 600.0
        The longest a Monte Carlo request may be estimated to take.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of the p-value.
    input_eps : float, optional
        The precision of the word vectors the scores come from (:func:`effect_size`, :func:`vector_eps`).

    Returns
    -------
    statistic : float
        The test statistic (:func:`test_statistic`).
    effect_size : float
        The effect size d (:func:`effect_size`).
    p : wordbias.stats.permutation.TailProbability
        The p-value and how it was obtained (:func:`p_value`).

    Raises
    ------
    InvalidParameterError
        When an option or number is out of range, or the scores are not a 1-D list of finite numbers.
    DegenerateSetError
        When a set has no score, or all scores are equal (up to rounding).
    TooCostlyError
        When a Monte Carlo p-value is estimated to take more than ``max_seconds``.

    Examples
    --------
    >>> s, d, p = weat_from_scores([1.0, 0.0], [-1.0, -0.5], alternative="two-sided")
    >>> s, round(d, 4), p.alternative, round(p.p_value, 4)
    (2.5, 1.4639, 'two-sided', 0.3333)
    """
    check_option("alternative", alternative, _stats.ALTERNATIVES)
    x, y = scores("s_x", s_x, 1), scores("s_y", s_y, 1)
    d = effect_size(s_x, s_y, ddof=ddof, input_eps=input_eps)     # given as they came: their dtype is their precision
    return (test_statistic(x, y), d,
            p_value(x, y, p_method=p_method, n_permutations=n_permutations, seed=seed, progress=progress,
                    max_seconds=max_seconds, alternative=alternative))


def smallest_p(n_x: int, n_y: int) -> float:
    """The smallest p-value a permutation test over the partitions of X ∪ Y can give: ``1 / C(|X|+|Y|, |X|)``.

    The count is a Python integer, exact at any size; the ratio is rounded once
    (:func:`wordbias.core.costs.ratio`), so 515 words a side give 7e-309 and 5,000 a side 0.0 (the true
    value, 10^-3008, is below the smallest float) instead of an ``OverflowError``.

    Parameters
    ----------
    n_x, n_y : int
        The sizes ``|X|`` and ``|Y|`` of the target sets (integers >= 0).

    Returns
    -------
    float
        ``1 / C(|X|+|Y|, |X|)``, rounded once to a float.

    Raises
    ------
    InvalidParameterError
        When a size is not an integer >= 0.

    Examples
    --------
    >>> smallest_p(3, 3)
    0.05
    >>> smallest_p(5_000, 5_000)
    0.0
    """
    n_x, n_y = check_int("n_x", n_x, min=0), check_int("n_y", n_y, min=0)
    return _costs.ratio(1.0, comb(n_x + n_y, n_x))


def warn_low_power(x: WordSet, y: WordSet, alpha: float = ALPHA) -> None:
    """Warn when the target sets are so small that no partition can reach significance.

    :class:`~wordbias.core.errors.LowPowerWarning` is warned when p < ``alpha`` is out of reach: the smallest
    attainable p, ``1/C(|X|+|Y|, |X|)``, is at least ``alpha`` (3 targets a side: 1/20 = 0.05). The count is
    compared in integers first, so any set size works.

    Parameters
    ----------
    x, y : WordSet
        The two target sets.
    alpha : float, default 0.05
        The significance level, a probability in (0, 1) (:data:`ALPHA`).

    Raises
    ------
    InvalidParameterError
        When ``alpha`` is not a probability.

    See Also
    --------
    smallest_p

    Examples
    --------
    >>> import warnings
    >>> x = WordSet("X", ("a", "b", "c"), ("a", "b", "c"))
    >>> y = WordSet("Y", ("d", "e", "f"), ("d", "e", "f"))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_low_power(x, y)
    >>> [w.category.__name__ for w in caught]
    ['LowPowerWarning']
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_low_power(x, y, alpha=0.1)
    >>> caught
    []
    """
    alpha = check_probability("alpha", alpha)
    n_x, n_y = len(x.words), len(y.words)
    if n_x and n_y and n_x + n_y > 2.0 / alpha:   # C(n, k) >= n for 0 < k < n: no need to count (100,000 a side)
        return
    if comb(n_x + n_y, n_x) > 2.0 / alpha:        # clearly enough partitions (integers)
        return
    floor = smallest_p(len(x.words), len(y.words))
    if floor >= alpha:
        lookup.warn_user(LowPowerWarning(
            f"target sets {x.name!r} ({len(x.words)} words) and {y.name!r} ({len(y.words)} words) are so small that "
            f"the smallest attainable p is 1/C({len(x.words) + len(y.words)}, {len(x.words)}) = {floor:.3g} >= "
            f"alpha = {alpha}: the test cannot reach significance (p < alpha)"))


#: the WEAT word sets, in the paper's notation (the keys of ``names``)
SETS = ("X", "Y", "A", "B")


def check_names(names) -> dict[str, str]:
    """Check the display names of the four WEAT sets and complete them.

    ``names`` (display names of the sets, used in messages and results) becomes a dict of all four sets: a set
    left out keeps its letter.

    Parameters
    ----------
    names : mapping of str to str or None
        ``None``, or a mapping of some of "X", "Y", "A", "B" to non-empty strings.

    Returns
    -------
    dict of str to str
        The display name of each of "X", "Y", "A", "B", in that order.

    Raises
    ------
    InvalidParameterError
        When ``names`` is anything else: a string, a list, another key, a name that is not a non-empty string.

    Examples
    --------
    >>> check_names({"X": "flowers"})
    {'X': 'flowers', 'Y': 'Y', 'A': 'A', 'B': 'B'}
    >>> check_names("XYAB")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: names must be a mapping of the sets 'X', 'Y', 'A', 'B' to display names (e.g. {'X': 'flowers'}), not str 'XYAB'
    """
    if names is None:
        return {k: k for k in SETS}
    if not isinstance(names, Mapping):
        shown = repr(names)
        raise InvalidParameterError(
            f"names must be a mapping of the sets 'X', 'Y', 'A', 'B' to display names (e.g. {{'X': 'flowers'}}), "
            f"not {type(names).__name__} {shown if len(shown) <= 60 else shown[:57] + '...'}")
    unknown = [k for k in names if k not in SETS]
    if unknown:
        raise InvalidParameterError(f"names may map only the sets 'X', 'Y', 'A', 'B' to display names; not "
                                    f"{unknown[:5]!r}")
    bad = {k: v for k, v in names.items() if not isinstance(v, str) or not v.strip()}
    if bad:
        raise InvalidParameterError(f"names must give each set a non-empty string as its display name, not {bad!r:.100}")
    return {k: names.get(k, k) for k in SETS}


def check_sets(X, Y, A, B, names: Mapping[str, str] | None = None, case_fold: bool = False) -> tuple[tuple[str, ...], ...]:
    """Check the four word lists of a WEAT.

    Each list is checked by :func:`wordbias.core.lookup.check_word_list` (a string refused, a set sorted,
    duplicates refused), then X, Y must be disjoint and A, B disjoint, and no target word may be an attribute
    word (:func:`check_targets_not_attributes`); the errors name the shared words.

    Parameters
    ----------
    X, Y, A, B : sequence of str
        The target sets X, Y and the attribute sets A, B.
    names : mapping of str to str, optional
        The display names of the sets, used in the messages (:func:`check_names`).
    case_fold : bool, default False
        Lower-case every word first (uncased embeddings).

    Returns
    -------
    tuple of tuple of str
        The four lists X, Y, A, B, checked (and lower-cased if asked).

    Raises
    ------
    InvalidParameterError
        When a list is not a list of distinct strings, X and Y (or A and B) share words, or a target set shares
        words with an attribute set.

    Examples
    --------
    >>> check_sets(["rose"], {"tulip", "daisy"}, ["love"], ["hate"])
    (('rose',), ('daisy', 'tulip'), ('love',), ('hate',))
    >>> check_sets(["rose"], ["rose"], ["love"], ["hate"], names={"X": "flowers"})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: target sets X ('flowers') and Y share words: ['rose']
    """
    names = check_names(names)
    label = {k: f"{k} ({names[k]!r})" if names[k] != k else k for k in "XYAB"}
    x, y, a, b = (lookup.check_word_list(label[k], words, case_fold) for k, words in zip("XYAB", (X, Y, A, B)))
    check_disjoint(f"target sets {label['X']}", x, label["Y"], y)
    check_disjoint(f"attribute sets {label['A']}", a, label["B"], b)
    check_targets_not_attributes({label["X"]: x, label["Y"]: y}, {label["A"]: a, label["B"]: b})
    return x, y, a, b


def weat(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
         names: Mapping[str, str] | None = None, resampling: Resampling | None = None, words: Words | None = None,
         p_method: str = "auto", ddof: int = 1, progress: bool = False,
         alternative: str = "greater") -> WeatResult:
    """Run one WEAT on ``embedding``.

    Unknown words follow the paper's policy (Supplementary, WEAT 3): with ``words.on_missing="drop"`` they are
    dropped and reported (:func:`wordbias.core.lookup.word_set`), and the target sets are balanced by
    deleting words at random from the larger one (``words.balance_targets``, :func:`balance`). A set left with
    fewer than ``MIN_TARGET_SIZE`` (targets) or ``MIN_ATTRIBUTE_SIZE`` (attributes) words fails with a
    :class:`DegenerateSetError` naming it. ``names`` maps "X", "Y", "A", "B" to display names used in
    messages and in the result (a mapping of some of the four letters to non-empty strings, :func:`check_names`;
    anything else is an :class:`~wordbias.core.errors.InvalidParameterError`). ``resampling.seed`` drives both the
    random balancing and the Monte Carlo p-value, from one generator, so the same call always gives the same
    result. ``words.case_fold`` lower-cases all words (uncased embeddings).

    Checked on entry: each word list is a list of distinct strings (a string is refused, a ``set``
    is sorted so the result does not depend on ``PYTHONHASHSEED``), X and Y share no word, nor A and B, nor a
    target set an attribute set (:func:`check_targets_not_attributes`);
    ``ddof`` is 0 or 1, ``p_method`` one of :data:`wordbias.stats.permutation.P_METHODS` (the options of
    ``resampling`` and ``words`` are checked when those are made). Nothing is silent: dropped words warn
    :class:`~wordbias.core.errors.MissingWordsWarning`, balanced-out words
    :class:`~wordbias.core.errors.BalancedOutWarning`, and target sets so small that the smallest attainable
    p exceeds :data:`ALPHA` :class:`~wordbias.core.errors.LowPowerWarning`. A Monte Carlo p-value estimated
    to take more than :data:`wordbias.core.costs.MAX_SECONDS` is refused before any work
    (:class:`~wordbias.core.errors.TooCostlyError`). ``alternative`` ("greater", the paper's one-sided test;
    "less"; "two-sided") is passed to :func:`p_value` and shown by the result.

    Which words random balancing deletes is the seed's choice, and d can move with it. So when words are
    deleted, d is also computed over :data:`BALANCE_DRAWS` balancing draws (every way to balance when there are
    no more; the test's own draw among them; a random stream of its own, spawned from ``seed``) and without
    balancing; the result's ``balancing`` (:class:`BalanceSpread`, :meth:`BalanceSpread.text`) holds them (the
    ``wordbias weat`` command prints them on stderr). ``Words(balance_targets="none")`` keeps the
    sets whole: the statistic, d and the permutation test are defined for unequal sizes too, the permutations
    then partitioning X ∪ Y into sets of the sizes given.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        A gensim ``KeyedVectors`` or any word → vector mapping.
    X, Y : sequence of str
        The target word sets.
    A, B : sequence of str
        The attribute word sets.
    names : mapping of str to str, optional
        Display names of some of "X", "Y", "A", "B" (:func:`check_names`).
    resampling : Resampling, optional
        ``n_permutations``, the random partitions drawn by Monte Carlo, and ``seed``, the seed of the random
        balancing and of the Monte Carlo p-value (:class:`~wordbias.options.Resampling`; no interval is computed
        here). None: :data:`DEFAULT_RESAMPLING` (100,000 permutations, seed 0).
    words : Words, optional
        ``on_missing`` (drop and report the unknown words, or raise ``KeyError``), ``case_fold`` (lower-case
        all words; None decides from the vocabulary) and ``balance_targets`` (how target sets of different
        sizes are balanced, :func:`balance`) (:class:`~wordbias.options.Words`). None: :data:`DEFAULT_WORDS`
        (drop, no case folding, random balancing).
    p_method : {"auto", "exact", "monte-carlo", "mc", "normal"}, default "auto"
        How the p-value is computed (:func:`p_value`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of the effect size (:func:`effect_size`).
    progress : bool, default False
        Show a progress bar while computing the p-value.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of the p-value.

    Returns
    -------
    WeatResult
        The word sets as used, the per-word associations, the statistic, the effect size, the p-value, and the
        spread of d over balancing draws when words were deleted to balance the target sets (``balancing``).

    Raises
    ------
    InvalidParameterError
        When a word list, an option or a number is not valid (see above).
    KeyError
        When ``on_missing="raise"`` and a word is not in ``embedding``.
    DegenerateSetError
        When a set is left too small, ``balance_targets="raise"`` and the target sets differ in size, or all
        target words have the same association (up to the rounding of the vectors, :func:`vector_eps`).
    TooCostlyError
        When a Monte Carlo p-value is estimated to take more than :data:`wordbias.core.costs.MAX_SECONDS`.

    See Also
    --------
    wordbias.measures.association.bootstrap.weat_bootstrap : confidence intervals for the effect size.
    wordbias.measures.diagnostics.sensitivity.influence : how much each word moves the effect size.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "ant", "wasp", "love", "hate"]
    >>> kv = to_keyed_vectors(words, np.array([[1.0, 0.1], [0.9, 0.3], [0.1, 1.0], [0.2, 0.8],
    ...                                         [1.0, 0.0], [0.0, 1.0]], dtype=np.float32))
    >>> r = weat(kv, ["rose", "tulip", "daisy"], ["ant", "wasp"], ["love"], ["hate"])
    >>> round(r.effect_size, 4), round(r.p_value, 4), r.p_method, r.missing
    (1.7153, 0.1667, 'exact', {'X': ('daisy',)})
    >>> r.alternative
    'greater'
    """
    names = check_names(names)
    resampling, words = options_or_default(resampling, words, DEFAULT_RESAMPLING, DEFAULT_WORDS)
    n_permutations, seed, balance_targets = resampling.n_permutations, resampling.seed, words.balance_targets
    case_fold = case_folded(embedding, words.case_fold)
    X, Y, A, B = check_sets(X, Y, A, B, names, case_fold)
    check_option("p_method", p_method, _stats.P_METHODS)
    check_option("alternative", alternative, _stats.ALTERNATIVES)
    ddof = check_ddof(ddof)
    policy = dict(on_missing=words.on_missing)     # already folded above
    x = lookup.word_set(embedding, X, name=names["X"], min_size=MIN_TARGET_SIZE, **policy)
    y = lookup.word_set(embedding, Y, name=names["Y"], min_size=MIN_TARGET_SIZE, **policy)
    a = lookup.word_set(embedding, A, name=names["A"], min_size=MIN_ATTRIBUTE_SIZE, **policy)
    b = lookup.word_set(embedding, B, name=names["B"], min_size=MIN_ATTRIBUTE_SIZE, **policy)
    rng = np.random.default_rng(seed)
    x0, y0 = x, y
    x, y = balance(x, y, balance_targets, rng)
    warn_low_power(x, y)
    A_vec, B_vec = (lookup.set_matrix(embedding, s.words, s.name) for s in (a, b))
    s_x = association(lookup.set_matrix(embedding, x.words, x.name), A_vec, B_vec)
    s_y = association(lookup.set_matrix(embedding, y.words, y.name), A_vec, B_vec)
    eps = vector_eps(embedding, x.words + y.words + a.words + b.words)     # scores 1e-8 apart from float32 vectors: noise
    statistic, d, p = weat_from_scores(s_x, s_y, p_method=p_method, n_permutations=n_permutations, seed=rng,
                                       ddof=ddof, progress=progress, max_seconds=_costs.MAX_SECONDS,
                                       alternative=alternative, input_eps=eps)
    spread = _spread(x0, y0, x, y, lambda words: association(lookup.set_matrix(embedding, words, "targets"), A_vec,
                                                             B_vec), d, seed, ddof)
    return WeatResult(X=x, Y=y, A=a, B=b, s_x=s_x, s_y=s_y, statistic=statistic, effect_size=d, p=p,
                      balancing=spread)
