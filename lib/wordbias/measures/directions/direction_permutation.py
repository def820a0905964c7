"""The direction permutation test: the cosine of two mean-difference directions, measured once.

From the report "Racial bias in pre-trained word embeddings" (Section 3, Appendix A), and generic: the bias is
the cosine of the attribute direction r = mean(A1) − mean(A2) and the target direction s = mean(T1) − mean(T2)
(:func:`cosine_bias`), tested by permuting the attribute words between A1 and A2, with Appendix A's Wald
interval on the Monte Carlo p (:func:`direction_permutation_test`, :func:`p_value_ci`; on vectors).
:func:`direction_test` measures one such test on an embedding's words once, into a
:class:`~wordbias.result.Result`: the cosine with its bootstrap interval over the words
(:func:`wordbias.measures.directions.bootstrap_direction.direction_bootstrap_from_vectors`), p one- and two-sided from the same
permutations with the method and their number, the words asked, used and missing per set, the coverage and
its flag, and (``result``, :class:`DirectionDetails`) the permutations and the projections of the target
words on r. :func:`direction_tests` runs a list of them (the report's three:
:func:`wordbias.datasets.stimuli.direction_tests`) with adjusted p. The report's Table 1 and figures
(:mod:`wordbias.papers.racial_bias_report`) and the tidy rows (:mod:`wordbias.battery.direction`) are views of
these results: none measures again.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from wordbias.core import lookup
from wordbias.core.costs import MAX_SECONDS, check_cost
from wordbias.core.errors import InvalidParameterError
from wordbias.core.identity import apply_policy, identity_notes, with_identity
from wordbias.core.tidy import (
    coverage,
    not_run_note,
    part_missing_note,
)
from wordbias.core.validation import check_bool, check_int, check_option, check_seed
from wordbias.datasets.stimuli import DirectionSpec
from wordbias.measures.directions.bootstrap_direction import DIRECTION_SETS as SETS
from wordbias.measures.directions.bootstrap_direction import direction_bootstrap_from_vectors
from wordbias.measures.directions.direction import mean_difference_direction, projections, unit_vector, vector_set
from wordbias.measures.directions.ripa import warn_again
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words
from wordbias.stats.permutation import ALTERNATIVES

__all__ = [
    "SETS",
    "DEFAULT_RESAMPLING",
    "CosineBias",
    "cosine_bias",
    "p_value_ci",
    "PermutationResult",
    "direction_permutation_test",
    "DirectionDetails",
    "direction_test",
    "direction_tests",
]

#: the direction test's resampling options when the call gives none
DEFAULT_RESAMPLING = Resampling()


# --------------------------------------------------------------------------------------------------
# the cosine of two mean-difference directions and its permutation test (the racial bias report)
# --------------------------------------------------------------------------------------------------

#: seconds per permutation of :func:`direction_permutation_test` per attribute word, and per attribute word
#: and dimension (measured: 2 µs for 40 words of 50 dimensions, 11 µs for 200 words of 300 dimensions)
SECONDS_PER_WORD, SECONDS_PER_WORD_DIM = 4.8e-8, 2.5e-11


@dataclass(frozen=True)
class CosineBias:
    """cos(r, s) and the angle between r and s in degrees (the result of :func:`cosine_bias`).

    Attributes
    ----------
    cosine : float
        cos(r, s), in [-1, 1].
    angle : float
        The angle between r and s in degrees (arccos of the cosine).
    """

    cosine: float
    angle: float


def cosine_bias(racial_direction, semantic_direction) -> CosineBias:
    """The report's bias: the cosine of the racial direction r and the semantic direction s, and its angle.

    The cosine is Section 3, step 7 (Appendix A's ``inner_product``); the angle in degrees is the "linear
    scale" of Section 3. A positive cosine is a bias in favour of A1 (white) when r = mean(A1) − mean(A2)
    and s points from the negative to the positive target words.

    Parameters
    ----------
    racial_direction : array-like of shape (d,)
        The attribute direction r, of any non-zero length.
    semantic_direction : array-like of shape (d,)
        The target direction s, of any non-zero length.

    Returns
    -------
    CosineBias
        cos(r, s) and the angle between r and s in degrees.

    Raises
    ------
    DegenerateSetError
        If either direction is a zero (or non-finite) vector.
    ValueError
        If the two directions differ in dimension.

    Examples
    --------
    >>> b = cosine_bias([1.0, 0.0], [1.0, 1.0])
    >>> round(b.cosine, 4), round(b.angle, 1)
    (0.7071, 45.0)
    """
    r = unit_vector(racial_direction, "racial direction")
    s = unit_vector(semantic_direction, "semantic direction")
    if r.shape != s.shape:
        raise ValueError(f"directions of different dimensions: {r.shape[0]} and {s.shape[0]}")
    c = float(np.clip(r @ s, -1.0, 1.0))
    return CosineBias(c, float(np.degrees(np.arccos(c))))


def p_value_ci(hits, n_permutations: int | None = None, *, level: float = 0.95) -> tuple[float, float]:
    """The report's confidence interval on a permutation p-value (Appendix A).

    Appendix A computes ``pval + sd(results)/sqrt(N) * qnorm(c(0.025, 0.975))``: a Wald interval
    p ± z·sd/√N where sd is the sample standard deviation (R's ``sd``, denominator N − 1) of the N 0/1
    outcomes. The interval is not clipped to [0, 1]; when every outcome is the same (p = 0 or 1) it is the
    point p.

    Parameters
    ----------
    hits : int or array-like of 0/1
        The count of permutations at least as extreme (with ``n_permutations``), or the array of the 0/1
        outcomes (with ``n_permutations`` omitted).
    n_permutations : int, optional
        The number of permutations N, when ``hits`` is a count.
    level : float, default 0.95
        The confidence level.

    Returns
    -------
    tuple of (float, float)
        The lower and upper ends of the interval.

    Raises
    ------
    ValueError
        If there are fewer than 2 permutations, or the count is not between 0 and N.

    Examples
    --------
    The report's Table 1, Google (implicit): p = 0.0748 over 10,000 permutations.

    >>> [round(x, 4) for x in p_value_ci(748, 10_000)]
    [0.0696, 0.08]
    """
    n = n_permutations
    if n is None:
        x = np.asarray(hits, dtype=np.float64)
        n, k = x.size, float(x.sum())
    else:
        k = float(hits)
    if n < 2:
        raise ValueError(f"a CI on p needs at least 2 permutations, not {n}")
    if not 0 <= k <= n:
        raise ValueError(f"count {k} is not between 0 and n = {n}")
    p = k / n
    sd = np.sqrt((k * (1 - p) ** 2 + (n - k) * p**2) / (n - 1))
    if sd == 0:  # p = 0 or p = 1: every outcome the same, the interval is the point
        return float(p), float(p)
    lo, hi = stats.norm.interval(level, loc=p, scale=sd / np.sqrt(n))
    return float(lo), float(hi)


@dataclass(frozen=True)
class PermutationResult:
    """The result of :func:`direction_permutation_test`; ``alternative`` names the tail of ``p``.

    Attributes
    ----------
    cosine : float
        The observed cos(r, s).
    angle : float
        The angle between r and s in degrees.
    p : float
        The permutation p-value of ``alternative`` (Appendix A's rule: no add-one, p may be 0).
    ci : tuple of (float, float)
        Appendix A's Wald interval on ``p`` (:func:`p_value_ci`; twice the smaller tail's when two-sided).
    n_extreme : int
        The permutations with a cosine at least the observed one (at most the observed one when "less"; the
        smaller tail's count when two-sided).
    n_permutations : int
        The permutations drawn.
    null : numpy.ndarray
        The cosine of each permutation, in the order drawn.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of ``p``; "greater" is the report's test.
    """

    cosine: float
    angle: float
    p: float
    ci: tuple[float, float]
    #: permutations with a cosine at least the observed one (the smaller tail's count when two-sided, at most
    #: the observed one when "less"), and permutations drawn
    n_extreme: int
    n_permutations: int
    #: the cosine of each permutation, in the order drawn
    null: np.ndarray = field(repr=False)
    #: "greater" (the report's), "less" or "two-sided"
    alternative: str = "greater"


def _disjoint(X, Y, nx: str, ny: str) -> None:
    same = np.flatnonzero((X[:, None, :] == Y[None, :, :]).all(axis=2).any(axis=1))
    if same.size:
        raise ValueError(f"sets {nx} and {ny} share vectors (rows {same.tolist()} of {nx}): a word may not be in "
                         "both sets of a pair (the report removes the intersection)")


def _null_cosines(A: np.ndarray, l1: int, s: np.ndarray, n_permutations: int, seed, batch_size: int) -> np.ndarray:
    """cos(r_perm, s) for ``n_permutations`` random reassignments of the rows of ``A`` to sets of sizes ``l1``
    and ``len(A) - l1``. Each batch is a (batch, |A|) matrix of weights ±1/|A_i|, so that all its mean
    differences are one matrix product with ``A``."""
    m = len(A)
    proj = A @ s
    rng = np.random.default_rng(seed)
    null = np.empty(n_permutations)
    for start in range(0, n_permutations, batch_size):
        k = min(batch_size, n_permutations - start)
        perm = rng.permuted(np.tile(np.arange(m), (k, 1)), axis=1)
        W = np.empty((k, m))
        rows = np.arange(k)[:, None]
        W[rows, perm[:, :l1]] = 1.0 / l1
        W[rows, perm[:, l1:]] = -1.0 / (m - l1)
        diffs = W @ A
        norms = np.linalg.norm(diffs, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            null[start:start + k] = np.where(norms > 0, (W @ proj) / norms, 0.0)
    return null


def _check_test_cost(m: int, d: int, n_permutations: int, batch_size: int, max_seconds: float) -> None:
    """Refuse a permutation test out of proportion before drawing (time and memory estimates)."""
    seconds = n_permutations * (SECONDS_PER_WORD * m + SECONDS_PER_WORD_DIM * m * d)
    n_bytes = 8.0 * n_permutations + 8.0 * min(batch_size, n_permutations) * (3 * m + d)
    check_cost(f"the direction permutation test with n_permutations={n_permutations:,} ({m} attribute words, "
               f"{d} dimensions)", seconds, n_bytes, max_seconds,
               "Use fewer permutations (10,000 as in the report resolves p to about ±0.004 near 0.05), or pass a "
               "larger max_seconds if you mean it.")


def _draw(T1, T2, A1, A2, *, n_permutations: int, seed, normalize: bool, batch_size: int,
          max_seconds: float) -> tuple[CosineBias, np.ndarray]:
    """The observed cos(r, s) and the cosines of ``n_permutations`` permutations of the attribute words
    (fewer than 2 permutations give no p: an error, so that a battery reports the test as not run)."""
    n_permutations = check_int("n_permutations", n_permutations, min=2)
    T1, T2 = vector_set(T1, "T1", normalize), vector_set(T2, "T2", normalize)
    A1, A2 = vector_set(A1, "A1", normalize), vector_set(A2, "A2", normalize)
    if len({X.shape[1] for X in (T1, T2, A1, A2)}) != 1:
        raise ValueError("the four sets have vectors of different dimensions")
    _check_test_cost(len(A1) + len(A2), A1.shape[1], n_permutations, batch_size, max_seconds)
    _disjoint(T1, T2, "T1", "T2")
    _disjoint(A1, A2, "A1", "A2")
    s = unit_vector(T1.mean(axis=0) - T2.mean(axis=0), "semantic direction mean(T1) - mean(T2)")
    r = A1.mean(axis=0) - A2.mean(axis=0)
    observed = cosine_bias(unit_vector(r, "racial direction mean(A1) - mean(A2)"), s)
    return observed, _null_cosines(np.vstack([A1, A2]), len(A1), s, n_permutations, seed, batch_size)


def _tail(observed: CosineBias, null: np.ndarray, alternative: str) -> PermutationResult:
    """The p of ``alternative`` over the permutations drawn (Appendix A's rule: no add-one, p may be 0), with
    its Wald interval; a permutation equal to the observed split (within 1e-12) counts as extreme."""
    n = len(null)
    high = int(np.sum(null >= observed.cosine - 1e-12))
    if alternative == "greater":
        return PermutationResult(observed.cosine, observed.angle, high / n, p_value_ci(high, n), high, n, null)
    low = int(np.sum(null <= observed.cosine + 1e-12))
    if alternative == "less":
        return PermutationResult(observed.cosine, observed.angle, low / n, p_value_ci(low, n), low, n, null, "less")
    count = min(high, low)
    ci = tuple(2 * x for x in p_value_ci(count, n))
    return PermutationResult(observed.cosine, observed.angle, min(1.0, 2 * count / n), ci, count, n, null,
                             "two-sided")


def direction_permutation_test(T1, T2, A1, A2, *, n_permutations: int = 10_000, seed: int = 0,
                               normalize: bool = False, batch_size: int = 2_000,
                               max_seconds: float = MAX_SECONDS, alternative: str = "greater") -> PermutationResult:
    """The report's bias and permutation test (Section 3, steps 1-8; Appendix A ``bias``/``permutation_test``).

    r = mean(A1) − mean(A2) (racial direction, attribute sets), s = mean(T1) − mean(T2) (semantic direction,
    target sets); the sets may differ in size. The bias is cos(r, s). Under the null the attribute words are
    exchangeable between A1 and A2: each of ``n_permutations`` random permutations (``numpy`` generator seeded
    by ``seed``, drawn ``batch_size`` at a time) reassigns the ``|A1| + |A2|`` attribute vectors to sets of the same
    sizes, and p = (number of permutations with cos(r_perm, s) ≥ cos(r, s)) / n_permutations, one-sided as in
    Appendix A (p may be 0). The 95% CI is :func:`p_value_ci`. ``normalize=False`` (default) uses the raw
    vectors like Appendix A (gensim ``get_vector``); ``True`` normalises each vector first.

    ``alternative``: ``"greater"`` (the report's test, the default), ``"less"`` (p = #{cos(r_perm, s) ≤
    cos(r, s)} / n_permutations) or ``"two-sided"``: min(1, 2·min of the two one-sided p) over the same
    permutations, the doubling rule of :func:`scipy.stats.permutation_test` (see
    :mod:`wordbias.stats.permutation`); then ``n_extreme`` is the smaller tail's count and the CI is twice
    that tail's Wald interval.

    Parameters
    ----------
    T1, T2 : array-like of shape (n_T1, d) and (n_T2, d)
        The vectors of the target words, one row per word; s = mean(T1) − mean(T2).
    A1, A2 : array-like of shape (n_A1, d) and (n_A2, d)
        The vectors of the attribute words, one row per word; r = mean(A1) − mean(A2). The permutations
        reassign these rows.
    n_permutations : int, default 10_000
        The number of random permutations; an integer >= 2.
    seed : int or numpy.random.Generator, default 0
        Seeds the permutations; an integer >= 0 or a generator.
    normalize : bool, default False
        Normalise each vector to unit length first (Appendix A uses the raw vectors).
    batch_size : int, default 2_000
        Permutations drawn at a time; an integer >= 1 (the result does not depend on it).
    max_seconds : float, default MAX_SECONDS
        The time budget: a request estimated (from the measured :data:`SECONDS_PER_WORD`,
        :data:`SECONDS_PER_WORD_DIM`) to take longer, or to need more memory than
        :func:`wordbias.core.costs.memory_limit` (8 bytes a permutation), is refused before any work.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of p.

    Returns
    -------
    PermutationResult
        The cosine and angle, p and its interval, the counts and the null distribution.

    Raises
    ------
    InvalidParameterError
        If an option is out of range or a set is not a 2-D array of finite numbers.
    DegenerateSetError
        If a set is empty or holds a zero vector, or a mean difference is zero.
    ValueError
        If the sets differ in dimension, or T1 and T2 (or A1 and A2) share a vector.
    TooCostlyError
        If the request is estimated to exceed ``max_seconds`` or the memory limit.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> T1, T2 = rng.normal(size=(4, 5)) + [2, 0, 0, 0, 0], rng.normal(size=(4, 5)) - [2, 0, 0, 0, 0]
    >>> A1, A2 = rng.normal(size=(6, 5)) + [2, 0, 0, 0, 0], rng.normal(size=(6, 5)) - [2, 0, 0, 0, 0]
    >>> res = direction_permutation_test(T1, T2, A1, A2, n_permutations=1_000, seed=0)
    >>> round(res.cosine, 3), res.p, res.n_extreme, res.n_permutations
    (0.914, 0.053, 53, 1000)
    >>> two = direction_permutation_test(T1, T2, A1, A2, n_permutations=1_000, seed=0, alternative="two-sided")
    >>> two.p, two.n_extreme, two.alternative                  # 2 · 53 / 1000, the same permutations
    (0.106, 53, 'two-sided')
    """
    check_option("alternative", alternative, ALTERNATIVES)
    observed, null = _draw(T1, T2, A1, A2, n_permutations=n_permutations,
                           seed=check_seed("seed", seed), normalize=check_bool("normalize", normalize),
                           batch_size=check_int("batch_size", batch_size, min=1), max_seconds=max_seconds)
    return _tail(observed, null, alternative)


# --------------------------------------------------------------------------------------------------
# a direction test on an embedding's words, measured once
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DirectionDetails:
    """The details of a direction test: its permutation tests and the projections of its target words.

    This is what :func:`direction_test` keeps beyond its :class:`~wordbias.result.Result`'s
    numbers (its ``result``): the permutation test by the alternative asked and two-sided, both over the same
    permutations (``null``), and the projection x·r/‖r‖ of each used target word on the attribute direction r
    (T1's, T2's; the report's Figures 1-2).

    Attributes
    ----------
    test : PermutationResult
        The permutation test by the alternative asked.
    two_sided : PermutationResult
        The two-sided test over the same permutations (``test`` itself when that is two-sided).
    projections : tuple of (numpy.ndarray, numpy.ndarray)
        The projections x·r/‖r‖ of the used words of T1 and of T2 on the attribute direction r.
    """

    test: PermutationResult
    two_sided: PermutationResult
    projections: tuple[np.ndarray, np.ndarray] = field(repr=False)

    @property
    def angle(self) -> float:
        """The angle between r and s in degrees."""
        return self.test.angle


def _options(resampling, words) -> tuple:
    """(resampling, words) of a call, checked (None: :data:`DEFAULT_RESAMPLING`, ``Words()``); the permutation
    test needs at least 2 draws."""
    from wordbias.measures.sets.set_measures import options

    resampling, words = options(resampling, words, DEFAULT_RESAMPLING)
    check_int("n_permutations", resampling.n_permutations, min=2)
    return resampling, words


def _test_options(options: Mapping) -> dict:
    """The permutation test's keywords given to :func:`direction_test`, checked, with their defaults."""
    unknown = sorted(set(options) - {"alternative", "normalize", "max_seconds", "batch_size"})
    if unknown:
        raise InvalidParameterError(f"direction_test takes no option {', '.join(map(repr, unknown))}; the "
                                    "permutation test's options are alternative, normalize, max_seconds and batch_size")
    alternative = options.get("alternative", "greater")
    check_option("alternative", alternative, ALTERNATIVES)
    return dict(alternative=alternative, normalize=check_bool("normalize", options.get("normalize", False)),
                max_seconds=options.get("max_seconds", MAX_SECONDS),
                batch_size=check_int("batch_size", options.get("batch_size", 2_000), min=1))


def _interval(mats, *, resampling: Resampling, normalize: bool):
    """The bootstrap interval of the cosine over the words, each set with two words or more resampled (a set
    of one word cannot be: it is held fixed, and the interval says so in ``resampled``); (None, note) when it
    cannot be computed."""
    from wordbias.measures.association.measurement import NO_INTERVAL_ERRORS

    resample = tuple(k for k, m in zip(SETS, mats) if len(m) >= 2)
    try:
        return direction_bootstrap_from_vectors(
            *mats, n_resamples=resampling.n_resamples, confidence_level=resampling.confidence_level,
            method=resampling.ci_method, seed=resampling.seed, resample=resample, normalize=normalize), None
    except NO_INTERVAL_ERRORS as exc:
        return None, part_missing_note("bootstrap interval", exc)


def _measure(kv, spec, *, resampling: Resampling, words: Words, case_fold: bool, alternative: str, normalize: bool,
             max_seconds: float, batch_size: int):
    """One direction test on loaded vectors, measured once; the warnings it gave are kept, not given."""
    from wordbias.result import Caught, Result, SetCoverage

    identity, kept = apply_policy(kv, {k: getattr(spec, k) for k in SETS}, words.shared_vectors, case_fold=case_fold)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = lookup.set_vectors(kv, kept["T1"], kept["T2"], name="targets", case_fold=case_fold,
                               on_missing=words.on_missing)
        a = lookup.set_vectors(kv, kept["A1"], kept["A2"], name=spec.id or "attributes", case_fold=case_fold,
                               on_missing=words.on_missing)
        mats = (t.A, t.B, a.A, a.B)
        observed, null = _draw(*mats, n_permutations=resampling.n_permutations, seed=resampling.seed,
                               normalize=normalize, batch_size=batch_size, max_seconds=max_seconds)
    one = _tail(observed, null, alternative)
    two = one if alternative == "two-sided" else _tail(observed, null, "two-sided")
    interval, no_interval = (_interval(mats, resampling=resampling, normalize=normalize) if resampling.n_resamples
                             else (None, None))
    confidence_level = resampling.confidence_level
    r = mean_difference_direction(a.A, a.B, normalize=normalize)
    projected = (projections(t.A, r, normalize=normalize), projections(t.B, r, normalize=normalize))
    used = (*t.words, *a.words)
    missing = (*t.missing, *a.missing)
    sets = with_identity([SetCoverage(k, spec.names.get(k, k), _folded(words, case_fold), u, m)
                          for k, words, u, m in zip(SETS, (spec.T1, spec.T2, spec.A1, spec.A2), used, missing)],
                         identity, words.shared_vectors)
    notes = (no_interval, f"angle {observed.angle:.1f} degrees",
             f"p as the report computes it (no add-one rule, may be 0), Appendix A's Wald interval on p "
             f"[{one.ci[0]:.4f}, {one.ci[1]:.4f}]")
    return Result(
        measure="direction", test=spec.id, title=spec.title, statistic_name="cos(r, s)", statistic=observed.cosine,
        effect_size_name="cos", effect_size=observed.cosine,
        ci_low=interval.low if interval else math.nan, ci_high=interval.high if interval else math.nan,
        ci_level=confidence_level, interval=interval,
        ci_method=(f"{interval.method} {confidence_level:.0%}, {interval.n_resamples:,} resamples of "
                   f"{', '.join(interval.resampled)}") if interval else "none",
        effect_size_se=interval.standard_error if interval else math.nan,
        p_value=one.p, alternative=alternative, p_method="monte-carlo", p_two_sided=two.p,
        p_values={"monte-carlo": one.p}, n_permutations=resampling.n_permutations,
        n_resamples=resampling.n_resamples if interval else 0, seed=resampling.seed, sets=sets,
        flagged=_flagged(sets, words),
        warnings=tuple(Caught(w.category, str(w.message)) for w in caught),
        notes=tuple(n for n in notes if n) + identity_notes(identity), result=DirectionDetails(one, two, projected))


def _folded(words, case_fold: bool) -> tuple[str, ...]:
    return tuple(w.lower() for w in words) if case_fold else tuple(words)


def _flagged(sets, words: Words) -> tuple[str, ...]:
    return coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=words.min_words,
                    min_fraction=words.min_fraction).low


def _not_measured(kv, spec, err: BaseException, *, resampling: Resampling, words: Words, case_fold: bool,
                  alternative: str):
    """The result of a direction test that could not run: NaN numbers, the reason, and per set the words the
    embedding lacks."""
    from wordbias.result import Result, SetCoverage

    sets = []
    for k in SETS:
        asked = _folded(getattr(spec, k), case_fold)
        sets.append(SetCoverage(k, spec.names.get(k, k), asked, (), tuple(w for w in asked if w not in kv.key_to_index)))
    return Result(
        measure="direction", test=spec.id, title=spec.title, statistic_name="cos(r, s)", statistic=math.nan,
        effect_size_name="cos", effect_size=math.nan, ci_low=math.nan, ci_high=math.nan, ci_level=math.nan,
        ci_method="none", p_value=math.nan, alternative=alternative, p_method="none", p_two_sided=math.nan,
        n_permutations=None, n_resamples=0, seed=resampling.seed, sets=tuple(sets), flagged=_flagged(sets, words),
        not_run=not_run_note(err))


def _as_spec(spec) -> DirectionSpec:
    """A :class:`~wordbias.datasets.stimuli.DirectionSpec`, or an object or mapping with ``T1``, ``T2``, ``A1``,
    ``A2`` (and optionally ``id``, ``title``, ``names``), as one."""
    if isinstance(spec, DirectionSpec):
        return spec
    get = spec.get if isinstance(spec, Mapping) else (lambda k, d=None: getattr(spec, k, d))
    lacking = [k for k in SETS if get(k) is None]
    if lacking:
        raise InvalidParameterError(f"a direction test needs T1, T2, A1 and A2; {spec!r:.80} lacks {lacking}")
    names = {k: k for k in SETS} | dict(get("names") or {})
    title = get("title") or f"{names['A1']} vs {names['A2']} on {names['T1']} vs {names['T2']}"
    return DirectionSpec(str(get("id") or ""), str(title), *(tuple(get(k)) for k in SETS), names=names)


def direction_test(embedding, T1: Sequence[str], T2: Sequence[str], A1: Sequence[str], A2: Sequence[str], *,
                   test: str = "", title: str | None = None, names: Mapping[str, str] | None = None,
                   resampling: Resampling | None = None, words: Words | None = None, warn: bool = True,
                   **options):
    """A direction test measured once on ``embedding``'s words.

    The result is a :class:`~wordbias.result.Result`.

    The test is that of the report "Racial bias in pre-trained word embeddings" (Section 3 and Appendix A).
    The words of the target sets ``T1``, ``T2`` and the attribute sets ``A1``, ``A2`` are looked up
    (:func:`wordbias.core.lookup.set_vectors`: unknown words dropped with a warning, or refused with
    ``on_missing="raise"``; ``case_fold=None`` folding case for an uncased vocabulary); the statistic is cos(r, s), r = mean(A1) − mean(A2), s = mean(T1) −
    mean(T2), with its angle (:func:`cosine_bias`); p is the permutation test of the attribute words
    (:func:`direction_permutation_test`: ``n_permutations`` draws, seeded by ``seed``, Appendix A's rule without
    the add-one correction, so p may be 0) by ``alternative`` and two-sided, both from the same permutations,
    with Appendix A's Wald interval on p in the notes; the interval of the cosine is a bootstrap over the words
    (:func:`wordbias.measures.directions.bootstrap_direction.direction_bootstrap_from_vectors`, ``ci_method``
    (BCa by default), ``n_resamples`` resamples of
    each set of two words or more, seeded by ``seed``; ``n_resamples=0``: none). Each set reports its words
    asked, used and missing; a set keeping fewer than ``min_words`` words or less than ``min_fraction`` of its
    list is flagged (:func:`wordbias.core.tidy.coverage_flag`) and warns
    :class:`~wordbias.core.errors.LowCoverageWarning`. ``warn=False`` keeps every warning in the result only.
    The measurement's ``result`` is a :class:`DirectionDetails`.

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding: loaded vectors (anything with ``key_to_index``), or a registry name, path, model or
        mapping that :func:`wordbias.embeddings.load` loads.
    T1, T2 : sequence of str
        The target words (the semantic direction s = mean(T1) − mean(T2)).
    A1, A2 : sequence of str
        The attribute words (the racial direction r = mean(A1) − mean(A2)).
    test : str, default ""
        An id for the test, kept in the result.
    title : str, optional
        A title for the test; by default built from ``names``.
    names : mapping of str to str, optional
        Display names of the sets, keyed by ``"T1"``, ``"T2"``, ``"A1"``, ``"A2"`` (default: the keys).
    resampling : Resampling, optional
        ``n_permutations``: the permutations of the attribute words (>= 2); ``n_resamples``: the bootstrap
        resamples of the interval of the cosine (0 for none), with its ``confidence_level`` and ``ci_method``;
        ``seed``: the seed of both. None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        Case folding (None: fold for an uncased vocabulary), unknown words (``on_missing``) and the low-coverage
        thresholds ``min_words``, ``min_fraction``; None: ``Words()``.
    warn : bool, default True
        Give the warnings (missing words, low coverage); ``False`` keeps them in the result only.
    **options
        The permutation test's keywords, as :func:`direction_permutation_test` takes them: ``alternative``
        ({"greater", "less", "two-sided"}, default "greater": the tail of the p-value; the two-sided p is always
        reported too), ``normalize`` (default False: the report uses the raw vectors), ``max_seconds`` (default
        :data:`~wordbias.core.costs.MAX_SECONDS`: its time budget) and ``batch_size`` (default 2_000:
        permutations drawn at a time).

    Returns
    -------
    wordbias.result.Result
        The test measured once; its ``result`` is a :class:`DirectionDetails`.

    Raises
    ------
    InvalidParameterError
        If an option is out of range, or unknown.
    DegenerateSetError
        If a set is left empty (no word of it in the vocabulary).
    KeyError
        If ``on_missing="raise"`` and a word is unknown.
    ValueError
        If T1 and T2 (or A1 and A2) share a word's vector.
    TooCostlyError
        If the permutation test is estimated to exceed ``max_seconds`` or the memory limit.

    Warns
    -----
    LowCoverageWarning
        When a set is flagged (with ``warn``).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = [f"t{i}" for i in range(8)] + [f"a{i}" for i in range(12)]
    >>> V = rng.normal(size=(20, 5)) + 2 * np.outer([1] * 4 + [-1] * 4 + [1] * 6 + [-1] * 6, np.eye(5)[0])
    >>> kv = to_keyed_vectors(words, V.astype(np.float32))
    >>> r = direction_test(kv, words[:4], words[4:8], words[8:14], words[14:] + ["zz"],
    ...                    resampling=Resampling(n_permutations=1000, n_resamples=500), warn=False)
    >>> round(r.effect_size, 3), r.p_value, r.p_two_sided, r.coverage   # as direction_permutation_test's example
    (0.914, 0.053, 0.106, 'T1 4/4; T2 4/4; A1 6/6; A2 6/7')
    >>> bool(r.ci_low < r.effect_size < r.ci_high), r.dropped, round(r.result.angle, 1)
    (True, 'A2: zz', 24.0)
    """
    resampling, words = _options(resampling, words)
    how, warn = _test_options(options), check_bool("warn", warn)
    kv = _sm._vectors(embedding)
    spec = _as_spec({"id": test, "title": title, "names": names, "T1": T1, "T2": T2, "A1": A1, "A2": A2})
    m = _measure(kv, spec, resampling=resampling, words=words, case_fold=_sm._case_fold(kv, words.case_fold), **how)
    if warn:
        warn_again(m, stacklevel=2)
    return m


def direction_tests(embedding, specs: Sequence, *, family: str | None = None, resampling: Resampling | None = None,
                    words: Words | None = None, normalize: bool = False, max_seconds: float = MAX_SECONDS) -> list:
    """A battery of direction tests, each measured once, with Holm's and Benjamini-Hochberg's adjusted p.

    Each test runs as :func:`direction_test` (one-sided "greater" as in the report); the p-values of those
    that ran are adjusted together (:func:`wordbias.measures.association.measurement.adjusted`; the family is named in
    ``p_family``).

    ``specs`` are :class:`~wordbias.datasets.stimuli.DirectionSpec` (the report's:
    :func:`wordbias.datasets.stimuli.direction_tests`) or mappings with ``T1``, ``T2``, ``A1``, ``A2`` (and
    optionally ``id``, ``title``, ``names``). A test that cannot run (a set left empty, a shared word, a cost
    refused: :data:`~wordbias.measures.association.measurement.NOT_RUN_ERRORS`) gives a result with NaN numbers and the
    reason in ``not_run`` instead of stopping the battery. The warnings are kept in each result, not given.

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding: loaded vectors, or a registry name, path, model or mapping that
        :func:`wordbias.embeddings.load` loads.
    specs : sequence of DirectionSpec or mapping
        The tests, a non-empty list.
    family : str, optional
        The name of the family of the adjusted p-values (``p_family``); by default one that counts the tests.
    resampling : Resampling, optional
        The permutations of each test, the bootstrap resamples of each interval (0 for none), their level and
        method, and the seed; None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        Case folding (None: fold for an uncased vocabulary), unknown words (``on_missing``) and the low-coverage
        thresholds; None: ``Words()``.
    normalize : bool, default False
        Normalise each vector to unit length first.
    max_seconds : float, default MAX_SECONDS
        The time budget of each permutation test.

    Returns
    -------
    list of wordbias.result.Result
        One result per spec, in order, with ``p_holm``, ``p_bh`` and ``p_family`` set on those with a p-value.

    Raises
    ------
    InvalidParameterError
        If ``specs`` is not a non-empty list, a spec lacks a set, or an option is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(30)], np.random.default_rng(0).normal(size=(30, 5)))
    >>> ok = {"id": "ok", "T1": ["w0", "w1"], "T2": ["w2", "w3"], "A1": ["w4", "w5", "w6"], "A2": ["w7", "w8"]}
    >>> a, b = direction_tests(kv, [ok, {**ok, "id": "none", "A1": ["lily"]}], resampling=Resampling(n_resamples=0))
    >>> round(a.effect_size, 3), a.p_holm == a.p_value, b.not_run[:30], b.coverage
    (-0.546, True, 'not run: DegenerateSetError: s', 'T1 2/2; T2 2/2; A1 0/1; A2 2/2')
    """
    from wordbias.measures.association.measurement import NOT_RUN_ERRORS, adjusted

    resampling, words = _options(resampling, words)
    how = _test_options({"alternative": "greater", "normalize": normalize, "max_seconds": max_seconds})
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence) or not specs:
        raise InvalidParameterError(f"specs must be a non-empty list of direction tests, not {type(specs).__name__}")
    specs = [_as_spec(s) for s in specs]
    kv = _sm._vectors(embedding)
    given = dict(resampling=resampling, words=words, case_fold=_sm._case_fold(kv, words.case_fold))
    out = []
    for spec in specs:
        try:
            out.append(_measure(kv, spec, **given, **how))
        except NOT_RUN_ERRORS as err:
            out.append(_not_measured(kv, spec, err, alternative=how["alternative"], **given))
    n_p = sum(math.isfinite(m.p_value) for m in out)
    return adjusted(out, family=family or f"the {n_p} direction tests with a p-value (one-sided p)")
