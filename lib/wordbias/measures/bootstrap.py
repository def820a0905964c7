"""Confidence intervals for WEAT by a bootstrap over the words (issue 14, item 1).

Caliskan, Bryson & Narayanan (2017, *Science* 356:183, doi:10.1126/science.aal4230, Methods) define, for
target sets X, Y and attribute sets A, B, the association s(w, A, B), the test statistic s(X, Y, A, B) and
the effect size d (:mod:`wordbias.measures.weat`). Their permutation p-value asks only whether the target
labels could be shuffled; it says nothing about how d would move with other, equally valid word lists.
Here each of the four word lists is treated as a sample of words from a larger population of words that
could have been chosen, and resampled separately with replacement: the *multi-sample* nonparametric
bootstrap (Efron & Tibshirani 1993, *An Introduction to the Bootstrap*, Chapman & Hall, ch. 8 and 14,
doi:10.1201/9780429246593), the same resampling unit as the R package cbn's ``weat_boot`` (Lowe, 2018,
https://github.com/conjugateprior/cbn), which resamples words but gives only the raw statistic.

The intervals are computed by :func:`scipy.stats.bootstrap` (multi-sample, ``vectorized=True``, methods
``"BCa"``, ``"percentile"`` and ``"basic"``, ``rng`` from ``seed``). SciPy resamples the data it is given;
here the data are the *indices* 0..n-1 of each word set, and the statistic maps a batch of index arrays to
d by gathers on the cosine matrix of every target word with every attribute word, computed once
(:func:`target_attribute_cosines`). A resampled mean over an attribute set is a product with the counts of
each index (:func:`resampled_association`), so 10,000 resamples of a 25x25 test cost a few million
multiply-adds and no look-up.

**What the interval estimates.** The bootstrap estimates the sampling distribution of d for lists of the
sizes used, drawn from the empirical distribution of the lists given. Its target is therefore the
*population* d: the same formula with infinitely many words from each population (with equal target
sets, d computed on the whole pools; :func:`pool_effect_size`). d is not unbiased for it: with few
attribute words s(w, A, B) is noisy, which inflates the standard deviation in d's denominator and shrinks d
towards 0; the expected d of lists of size n, E[d_n], is smaller in magnitude than the pool's d. The
coverage study (``benchmarks/coverage_bootstrap.py``, ``tests/measures/test_bootstrap_coverage.py``)
measures the actual coverage of both estimands per set size.

WEFAT (:func:`wefat_bootstrap`): the correlation between s(w, A, B) and the property p_w is resampled over
the target words W, each word keeping its property (pairs (s_w, p_w), as for any correlation; Efron &
Tibshirani 1993, §6.3), and, by default, over the attribute words A and B as well, since they are a sample
of words in the same sense as W and change every s(w, A, B).

The report "Racial bias in pre-trained word embeddings" (:func:`direction_bootstrap_from_vectors`): its bias
cos(r, s) of the direction r = mean(A1) − mean(A2) with s = mean(T1) − mean(T2) (Section 3, Appendix A) is
resampled over the words of the four sets in the same way; the vectors are first written in an orthonormal
basis of their span (at most as many coordinates as words), so the cost does not grow with the dimension.

Scores already computed (:func:`effect_size_bootstrap`): the two-sample bootstrap of the effect size of two
score arrays and of their mean difference, e.g. Kurita et al.'s (2019) attribute test over the bias scores of
the attributes (:func:`wordbias.measures.mlm.attribute_test`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sps

from wordbias.core import lookup
from wordbias.core import permutation as _perm
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import (SPREAD_SLACK, as_float_array, check_bool, check_finite, check_int, check_option,
                                     check_probability, check_same_dimension, check_seed, check_spread,
                                     degenerate_spread, spread_tolerance)
from wordbias.measures import weat as _weat
from wordbias.measures.direction import vector_set
from wordbias.measures import wefat as _wefat

__all__ = [
    "BOOTSTRAP_METHODS",
    "BootstrapInterval",
    "WeatBootstrap",
    "target_attribute_cosines",
    "index_counts",
    "resampled_association",
    "resampled_weat",
    "pool_effect_size",
    "pool_effect_size_from_cosines",
    "weat_bootstrap_from_vectors",
    "weat_bootstrap",
    "weat_bootstrap_from_cosines",
    "resampled_normalized_association",
    "wefat_bootstrap_from_vectors",
    "wefat_bootstrap",
    "effect_size_bootstrap",
    "resampled_mean_difference_cosine",
    "direction_bootstrap_from_vectors",
]

#: the interval methods of :func:`scipy.stats.bootstrap`
BOOTSTRAP_METHODS = ("BCa", "percentile", "basic")
#: the WEAT word sets, in the paper's notation
WEAT_SETS = ("X", "Y", "A", "B")


@dataclass(frozen=True)
class BootstrapInterval:
    """A bootstrap confidence interval for one statistic.

    ``estimate`` is the statistic on the word lists given; [``low``, ``high``] the two-sided interval at
    ``confidence_level`` by ``method``; ``standard_error`` the standard deviation of the ``n_resamples``
    bootstrap replicates; ``resampled`` the word sets resampled (each separately, with replacement);
    ``n_undefined`` the replicates where the statistic was undefined (a zero standard deviation); when there
    are any, SciPy's interval is NaN.
    """

    statistic: str
    estimate: float
    low: float
    high: float
    confidence_level: float
    method: str
    n_resamples: int
    resampled: tuple[str, ...]
    standard_error: float
    n_undefined: int = 0

    def to_dict(self) -> dict:
        """A flat dict for one table row."""
        return {"statistic": self.statistic, "estimate": self.estimate, "low": self.low, "high": self.high,
                "confidence_level": self.confidence_level, "method": self.method, "n_resamples": self.n_resamples,
                "resampled": "".join(self.resampled), "standard_error": self.standard_error,
                "n_undefined": self.n_undefined}


@dataclass(frozen=True)
class WeatBootstrap:
    """Bootstrap intervals of one WEAT: the effect size d and the test statistic s(X, Y, A, B); or, from
    :func:`effect_size_bootstrap`, of the effect size of two score samples and of their mean difference.
    ``sizes``: the sizes of X, Y, A, B (or of the two samples)."""

    effect_size: BootstrapInterval
    statistic: BootstrapInterval
    sizes: tuple[int, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per statistic."""
        return pd.DataFrame([self.effect_size.to_dict(), self.statistic.to_dict()])


# --------------------------------------------------------------------------------------------------
# the vectorised statistic on index arrays
# --------------------------------------------------------------------------------------------------

def target_attribute_cosines(X, Y, A, B) -> np.ndarray:
    """cos(w, v) for every target word w of X ∪ Y (rows: X then Y) and attribute word v of A ∪ B (columns:
    A then B), the only quantity WEAT needs from the vectors (Caliskan et al. 2017, Methods). The four sets must
    have vectors of one dimension (:func:`wordbias.core.validation.check_same_dimension`, naming each set's).

    Examples
    --------
    >>> C = target_attribute_cosines([[1, 0]], [[0, 1]], [[1, 0]], [[1, 1]])
    >>> np.round(C, 4).tolist()
    [[1.0, 0.7071], [0.0, 0.7071]]
    """
    X, Y, A, B = (_vectors(k, v) for k, v in zip(WEAT_SETS, (X, Y, A, B)))
    check_same_dimension(dict(zip(WEAT_SETS, (X, Y, A, B))), "the four sets")
    return _weat.cosine_matrix(np.vstack([X, Y]), np.vstack([A, B]))


def _vectors(name: str, vectors) -> np.ndarray:
    """One set of word vectors (rows) as float64 (:func:`wordbias.core.validation.as_float_array`)."""
    return as_float_array(f"set {name}", vectors, what="a set of word vectors (one row per word)")


def _vector_sets(names: Sequence[str], values: Sequence, least: Sequence[int], what: str, who: str) -> list[np.ndarray]:
    """Several sets of word vectors, each as a 2-D float64 array of rows (one vector, 1-D, is one row), checked
    on entry: another shape (:class:`~wordbias.core.errors.InvalidParameterError`), fewer rows than ``least``
    (:class:`~wordbias.core.errors.DegenerateSetError`, naming the set and ``who`` needs them), and vectors of
    different dimensions (:func:`wordbias.core.validation.check_same_dimension`, naming each set's, as
    ``what``)."""
    mats = []
    for k, v, n_min in zip(names, values, least):
        m = _vectors(k, v)
        if m.ndim > 2:
            raise InvalidParameterError(f"set {k}: expected a 2-D array of word vectors (one row per word), got "
                                        f"shape {m.shape}")
        n = 0 if m.size == 0 else np.atleast_2d(m).shape[0]
        if n < n_min:
            raise DegenerateSetError(f"set {k} has {n} word(s); {who} needs at least {n_min}")
        mats.append(np.atleast_2d(m))
    check_same_dimension(dict(zip(names, mats)), what)
    return mats


def index_counts(idx, n: int) -> np.ndarray:
    """How many times each of 0..n-1 occurs in each row of the integer array ``idx`` (shape (..., k)):
    shape (..., n). A resample given as indices, as counts (one bincount for all rows).

    Examples
    --------
    >>> index_counts(np.array([[0, 0, 2], [1, 2, 2]]), 3).tolist()
    [[2, 0, 1], [0, 1, 2]]
    """
    idx = np.asarray(idx)
    lead = idx.shape[:-1]
    flat = idx.reshape(-1, idx.shape[-1])
    rows = flat.shape[0]
    counts = np.bincount((flat + n * np.arange(rows)[:, None]).ravel(), minlength=rows * n)
    return counts.reshape(*lead, n)


def resampled_association(C_a, C_b, ia, ib) -> np.ndarray:
    """s(w, A*, B*) = mean_{a∈A*} cos(w, a) − mean_{b∈B*} cos(w, b) (Methods, WEAT) for every target word
    w (the rows of ``C_a`` = cos(w, A), ``C_b`` = cos(w, B)) and every resample A*, B* given as index arrays
    ``ia`` (shape (..., k_a)) and ``ib`` (shape (..., k_b)) of the same leading shape: shape (..., n_w).
    The mean over a resample is a product with its index counts.

    Examples
    --------
    >>> C_a, C_b = np.array([[0.5, 0.1]]), np.array([[0.2]])
    >>> resampled_association(C_a, C_b, np.array([[0, 0], [0, 1]]), np.array([[0], [0]])).round(4).tolist()
    [[0.3], [0.1]]
    """
    ia, ib = np.asarray(ia), np.asarray(ib)
    ca = index_counts(ia, C_a.shape[1]) / ia.shape[-1]
    cb = index_counts(ib, C_b.shape[1]) / ib.shape[-1]
    return ca @ C_a.T - cb @ C_b.T


def resampled_weat(C, n_x: int, n_a: int, ix, iy, ia, ib, ddof: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The test statistic s(X*, Y*, A*, B*) and the effect size d* (Methods, WEAT) of each resample, given
    the cosine matrix ``C`` of :func:`target_attribute_cosines` (the first ``n_x`` rows are X, the first
    ``n_a`` columns A) and index arrays into X, Y, A and B whose leading shapes broadcast. A resample whose
    s(w, A*, B*) are all equal, up to rounding (:func:`wordbias.core.validation.degenerate_spread`), has
    d* = NaN.

    Examples
    --------
    Without resampling (the identity indices) it is :func:`wordbias.measures.weat.effect_size`:

    >>> rng = np.random.default_rng(0)
    >>> C = rng.uniform(-1, 1, (5, 4))
    >>> s, d = resampled_weat(C, 2, 2, np.arange(2), np.arange(3), np.arange(2), np.arange(2))
    >>> sw = C[:, :2].mean(1) - C[:, 2:].mean(1)
    >>> bool(np.isclose(d, _weat.effect_size(sw[:2], sw[2:])))
    True
    """
    ddof = _weat.check_ddof(ddof)
    lead = np.broadcast_shapes(*(np.shape(i)[:-1] for i in (ix, iy, ia, ib)))
    ix, iy, ia, ib = (np.broadcast_to(i, lead + np.shape(i)[-1:]) for i in (ix, iy, ia, ib))
    s = resampled_association(C[:, :n_a], C[:, n_a:], ia, ib)            # (..., n_x + n_y)
    s_x = np.take_along_axis(s, ix, axis=-1)
    s_y = np.take_along_axis(s, iy + n_x, axis=-1)
    stat = s_x.sum(-1) - s_y.sum(-1)
    pooled = np.concatenate([s_x, s_y], axis=-1)
    sd = pooled.std(axis=-1, ddof=ddof)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = (s_x.mean(-1) - s_y.mean(-1)) / np.where(degenerate_spread(sd, pooled, axis=-1), np.nan, sd)
    return stat, d


def pool_effect_size(X, Y, A, B, ddof: int = 0) -> float:
    """The population effect size: d (Methods, WEAT) with each set the whole pool of words it is drawn from,
    the standard deviation taken over X ∪ Y with *equal weight* for the two target populations (the limit
    of d for equal target sets of growing size). It is the target of the bootstrap interval, and not
    E[d] of small lists drawn from the pools (see the module docstring).

    Examples
    --------
    >>> X, Y = [[1, 0], [1, 0.2]], [[0, 1], [0.2, 1]]
    >>> round(pool_effect_size(X, Y, [[1, 0]], [[0, 1]]), 4)
    1.9856
    """
    return pool_effect_size_from_cosines(target_attribute_cosines(X, Y, A, B), len(X), len(A), ddof)


def pool_effect_size_from_cosines(C, n_x: int, n_a: int, ddof: int = 0) -> float:
    """:func:`pool_effect_size` from the cosine matrix of :func:`target_attribute_cosines` (the first ``n_x``
    rows are the X pool, the first ``n_a`` columns the A pool).

    Examples
    --------
    With pools of equal sizes it is d with the population standard deviation:

    >>> C = np.array([[.9, .1], [.7, .2], [.2, .8], [.1, .5]])
    >>> s = C[:, 0] - C[:, 1]
    >>> bool(np.isclose(pool_effect_size_from_cosines(C, 2, 1), _weat.effect_size(s[:2], s[2:], ddof=0)))
    True
    """
    ddof = _weat.check_ddof(ddof)
    C = as_float_array("C", C, ndim=2, what="a cosine matrix (targets x attributes)")
    s = C[:, :n_a].mean(1) - C[:, n_a:].mean(1)
    s_x, s_y = s[:n_x], s[n_x:]
    mean = (s_x.mean() + s_y.mean()) / 2
    var = (((s_x - mean) ** 2).mean() + ((s_y - mean) ** 2).mean()) / 2
    if ddof:
        var *= s.size / (s.size - ddof)
    check_spread(s, np.sqrt(var), "all target words have the same association s(w, A, B): the pool's effect size "
                                  "is undefined")
    return float((s_x.mean() - s_y.mean()) / np.sqrt(var))


# --------------------------------------------------------------------------------------------------
# the intervals
# --------------------------------------------------------------------------------------------------

def _check_resample(resample, sets: Sequence[str]) -> tuple[str, ...]:
    if isinstance(resample, str):
        resample = tuple(resample)
    try:
        out = tuple(resample)
    except TypeError:
        raise InvalidParameterError(f"resample must be a sequence of set names from {list(sets)}, "
                                    f"not {resample!r}") from None
    for k in out:
        check_option("resample", k, sets)
    if not out or len(set(out)) != len(out):
        raise InvalidParameterError(f"resample must name at least one of {list(sets)}, each once; not {resample!r}")
    return tuple(k for k in sets if k in out)


def _rng(seed):
    seed = check_seed("seed", seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _check_options(n_resamples, confidence_level, method, ddof, resample, seed, sets: Sequence[str]):
    """The bootstrap options checked once: (n_resamples, confidence_level, ddof, resampled sets, generator)."""
    check_option("method", method, BOOTSTRAP_METHODS)
    return (check_int("n_resamples", n_resamples, min=2), check_probability("confidence_level", confidence_level),
            _weat.check_ddof(ddof), _check_resample(resample, sets), _rng(seed))


def check_bootstrap_cost(what: str, n_resamples: int, sizes: Sequence[int], ops_per_draw: float,
                         bytes_per_draw: float, *, method: str, max_seconds: float, batch: int | None = None) -> None:
    """Refuse a bootstrap out of proportion before any resample
    (:func:`wordbias.core.permutation.check_resampling_cost`, :class:`~wordbias.core.errors.TooCostlyError`).

    :func:`scipy.stats.bootstrap` holds ``batch`` resamples at once (all of them by default), each an index
    array per resampled set (``sizes``) and the statistic's intermediates (``bytes_per_draw``), plus one float
    per replicate; BCa adds a jackknife over each set, as many leave-one-out samples as the largest set.

    Examples
    --------
    >>> check_bootstrap_cost("a WEAT bootstrap", 10 ** 9, [25, 25], 5_000, 8_000, method="BCa", max_seconds=600)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.TooCostlyError: a WEAT bootstrap with n_resamples=1,000,000,000 is estimated to take 6.94 h and 7.65 TiB of memory, over the budget (max_seconds=600, memory 4 GiB: wordbias.core.permutation.MAX_BYTES or half this machine's); refused before any work. Use a smaller n_resamples (10,000 is the usual number), or pass a larger max_seconds if you mean it.
    """
    held = n_resamples if batch is None else min(batch, n_resamples)
    if method == "BCa":
        held = max(held, max(sizes))
    per_draw = bytes_per_draw + 8.0 * sum(sizes)
    _perm.check_resampling_cost(what, "n_resamples", n_resamples, ops_per_draw, per_draw, max_seconds=max_seconds,
                                held_draws=held, fixed_bytes=8.0 * _perm._as_float(n_resamples),
                                way_out="a batch (resamples held at once)" if batch is not None else "")


class _Row:
    """Row ``i`` of a multi-output :class:`scipy.stats.BootstrapResult`."""

    def __init__(self, res, i):
        self.bootstrap_distribution = np.asarray(res.bootstrap_distribution)[i]
        self.confidence_interval = type(res.confidence_interval)(res.confidence_interval.low[i],
                                                                 res.confidence_interval.high[i])


def _interval(name, estimate, res, confidence_level, method, n_resamples, resampled) -> BootstrapInterval:
    dist = np.asarray(res.bootstrap_distribution)
    ok = np.isfinite(dist)
    return BootstrapInterval(statistic=name, estimate=float(estimate), low=float(res.confidence_interval.low),
                             high=float(res.confidence_interval.high), confidence_level=confidence_level,
                             method=method, n_resamples=n_resamples, resampled=resampled,
                             standard_error=float(dist[ok].std(ddof=1)) if ok.sum() > 1 else float("nan"),
                             n_undefined=int((~ok).sum()))


def weat_bootstrap_from_cosines(C, n_x: int, n_a: int, *, n_resamples: int = 10_000,
                                confidence_level: float = 0.95, method: str = "BCa",
                                resample: Sequence[str] = WEAT_SETS, seed=0, ddof: int = 1,
                                max_seconds: float = _perm.MAX_SECONDS) -> WeatBootstrap:
    """:func:`weat_bootstrap_from_vectors` from the cosine matrix ``C`` of :func:`target_attribute_cosines`
    (rows: the ``n_x`` words of X, then Y; columns: the ``n_a`` words of A, then B).

    Examples
    --------
    >>> C = np.array([[.9, .8, .1, .2], [.7, .9, .3, .1], [.2, .1, .8, .9], [.3, .2, .7, .6]])
    >>> r = weat_bootstrap_from_cosines(C, 2, 2, n_resamples=500, method="percentile", seed=3)
    >>> round(r.statistic.estimate, 4), r.sizes
    (2.4, (2, 2, 2, 2))
    """
    n_resamples, confidence_level, ddof, resampled, rng = _check_options(
        n_resamples, confidence_level, method, ddof, resample, seed, WEAT_SETS)
    C = as_float_array("C", C, what="a cosine matrix (targets x attributes)")
    if C.ndim != 2 or not np.all(np.isfinite(C)):
        raise InvalidParameterError(f"C must be a finite 2-D cosine matrix, not an array of shape {C.shape}")
    n_x = check_int("n_x", n_x, min=2, max=C.shape[0] - 2)
    n_a = check_int("n_a", n_a, min=1, max=C.shape[1] - 1)
    sizes = (n_x, C.shape[0] - n_x, n_a, C.shape[1] - n_a)
    n_t, n_v = C.shape
    check_bootstrap_cost("a WEAT bootstrap", n_resamples, [n for k, n in zip(WEAT_SETS, sizes) if k in resampled],
                         n_v * n_t + 10 * n_t, 8.0 * (3 * n_v + 8 * n_t), method=method, max_seconds=max_seconds)
    full = {k: np.arange(n) for k, n in zip(WEAT_SETS, sizes)}
    stat0, d0 = resampled_weat(C, n_x, n_a, *full.values(), ddof=ddof)
    if not np.isfinite(d0):
        raise DegenerateSetError("all target words have the same association s(w, A, B): the effect size is undefined")

    def indices(args):
        got = dict(zip(resampled, args))
        return [got.get(k, full[k]) for k in WEAT_SETS]

    def both(*args, axis=-1):               # one call, the same resamples for d and s(X, Y, A, B)
        stat, d = resampled_weat(C, n_x, n_a, *indices(args), ddof=ddof)
        return np.stack([d, stat])

    data = tuple(full[k] for k in resampled)
    with np.errstate(invalid="ignore"):
        res = _sps.bootstrap(data, both, n_resamples=n_resamples, vectorized=True, paired=False, axis=-1,
                             confidence_level=confidence_level, method=method, rng=rng)
    out = {name: _interval(name, est, _Row(res, i), confidence_level, method, n_resamples, resampled)
           for i, (name, est) in enumerate((("effect_size", d0), ("statistic", stat0)))}
    return WeatBootstrap(effect_size=out["effect_size"], statistic=out["statistic"], sizes=sizes)


def weat_bootstrap_from_vectors(X, Y, A, B, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                                method: str = "BCa", resample: Sequence[str] = WEAT_SETS, seed=0,
                                ddof: int = 1, max_seconds: float = _perm.MAX_SECONDS) -> WeatBootstrap:
    """Bootstrap intervals of WEAT's effect size d and test statistic s(X, Y, A, B) (Caliskan et al. 2017,
    Methods) from the vectors of the four word sets (rows), resampling each set named in ``resample``
    separately, with replacement (multi-sample bootstrap; Efron & Tibshirani 1993, ch. 8), by
    :func:`scipy.stats.bootstrap` with ``vectorized=True`` on index arrays (see the module docstring).

    ``method`` is ``"BCa"`` (bias-corrected and accelerated; Efron 1987, JASA 82:171,
    doi:10.1080/01621459.1987.10478410), ``"percentile"`` or ``"basic"``. The same ``seed`` gives the same
    intervals. A resample where d is undefined (all s(w, A*, B*) equal; possible only with tiny sets) makes
    SciPy's interval of d NaN (with its ``DegenerateDataWarning``); ``n_undefined`` counts them. A request
    estimated to take more than ``max_seconds`` or more memory than
    :func:`wordbias.core.permutation.memory_limit` is refused before any resample
    (:func:`check_bootstrap_cost`, :class:`~wordbias.core.errors.TooCostlyError`).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X, Y = rng.normal(0.3, 1, (8, 5)), rng.normal(-0.3, 1, (8, 5))
    >>> A, B = rng.normal(0.3, 1, (8, 5)), rng.normal(-0.3, 1, (8, 5))
    >>> r = weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=2000, seed=0)
    >>> r.effect_size.low < r.effect_size.estimate < r.effect_size.high, r.effect_size.method
    (True, 'BCa')
    """
    mats = _vector_sets(WEAT_SETS, (X, Y, A, B), (2, 2, 1, 1), "the four sets", "WEAT's bootstrap")
    return weat_bootstrap_from_cosines(target_attribute_cosines(*mats), mats[0].shape[0], mats[2].shape[0],
                                       n_resamples=n_resamples, confidence_level=confidence_level, method=method,
                                       resample=resample, seed=seed, ddof=ddof, max_seconds=max_seconds)


def weat_bootstrap(embedding, X, Y: Sequence[str] | None = None, A: Sequence[str] | None = None,
                   B: Sequence[str] | None = None, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                   method: str = "BCa", resample: Sequence[str] = WEAT_SETS, seed=0, ddof: int = 1,
                   case_fold: bool = False, max_seconds: float = _perm.MAX_SECONDS) -> WeatBootstrap:
    """Bootstrap intervals of a WEAT's d and s(X, Y, A, B) on ``embedding`` (Caliskan et al. 2017, Methods;
    :func:`weat_bootstrap_from_vectors`).

    ``X`` is either a :class:`~wordbias.measures.weat.WeatResult` (its words, after unknown words were
    dropped and the targets balanced, are used; ``Y``, ``A``, ``B`` stay ``None``) or the first of four word
    lists, which must then all be in ``embedding`` (run :func:`wordbias.measures.weat.weat` first to apply
    the unknown-word policy).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "lily", "ant", "wasp", "moth", "love", "joy", "hate", "ugly"]
    >>> V = np.array([[1, .1], [.9, .3], [.8, .2], [.1, 1], [.2, .8], [.3, .9], [1, 0], [.9, .1], [0, 1], [.1, .9]])
    >>> kv = to_keyed_vectors(words, V.astype(np.float32))
    >>> r = weat_bootstrap(kv, words[:3], words[3:6], words[6:8], words[8:], n_resamples=1000, method="percentile")
    >>> r.sizes, round(r.effect_size.estimate, 4), r.effect_size.resampled
    ((3, 3, 2, 2), 1.8069, ('X', 'Y', 'A', 'B'))
    """
    if isinstance(X, _weat.WeatResult):
        if not (Y is None and A is None and B is None):
            raise InvalidParameterError("with a WeatResult, give no other word list (Y, A, B must be None)")
        sets = [X.X, X.Y, X.A, X.B]
        lists, names = [s.words for s in sets], [s.name for s in sets]
    else:
        if Y is None or A is None or B is None:
            raise InvalidParameterError("give a WeatResult, or the four word lists X, Y, A, B")
        names = list(WEAT_SETS)
        lists = list(_weat.check_sets(X, Y, A, B, dict(zip(WEAT_SETS, WEAT_SETS)), case_fold))
    vecs = []
    for words, name in zip(lists, names):
        missing = [w for w in words if w not in embedding]
        if missing:
            raise KeyError(f"set {name!r}: {missing} not in the embedding (run weat() first to drop them)")
        vecs.append(lookup.set_matrix(embedding, list(words), name))
    return weat_bootstrap_from_vectors(*vecs, n_resamples=n_resamples, confidence_level=confidence_level,
                                       method=method, resample=resample, seed=seed, ddof=ddof,
                                       max_seconds=max_seconds)


# --------------------------------------------------------------------------------------------------
# WEFAT's correlation
# --------------------------------------------------------------------------------------------------

#: the WEFAT word sets, in the paper's notation
WEFAT_SETS = ("W", "A", "B")


def resampled_normalized_association(C_a, C_b, ia, ib, ddof: int = 1) -> np.ndarray:
    """WEFAT's s(w, A*, B*) = [mean_{a∈A*} cos(w, a) − mean_{b∈B*} cos(w, b)] / std-dev_{x∈A*∪B*} cos(w, x)
    (Caliskan et al. 2017, Methods, WEFAT) for every target word w (rows of ``C_a``, ``C_b``) and every
    resample A*, B* given as index arrays (a repeated word counts as often as it is drawn): shape
    (..., n_w). A standard deviation at rounding level (:func:`wordbias.core.validation.spread_tolerance`)
    gives NaN.

    Examples
    --------
    Without resampling it is :func:`wordbias.measures.wefat.normalized_association`:

    >>> rng = np.random.default_rng(0)
    >>> W, A, B = rng.normal(size=(3, 4)), rng.normal(size=(2, 4)), rng.normal(size=(3, 4))
    >>> s = resampled_normalized_association(_weat.cosine_matrix(W, A), _weat.cosine_matrix(W, B),
    ...                                      np.arange(2), np.arange(3))
    >>> bool(np.allclose(s, _wefat.normalized_association(W, A, B)))
    True
    """
    ddof = _weat.check_ddof(ddof)
    ia, ib = np.asarray(ia), np.asarray(ib)
    k_a, k_b = ia.shape[-1], ib.shape[-1]
    ca, cb = index_counts(ia, C_a.shape[1]), index_counts(ib, C_b.shape[1])
    sum_a, sum_b = ca @ C_a.T, cb @ C_b.T
    sq = ca @ (C_a ** 2).T + cb @ (C_b ** 2).T
    n = k_a + k_b
    mean = (sum_a + sum_b) / n
    var = np.maximum(sq / n - mean ** 2, 0.0) * n / (n - ddof)
    sd = np.sqrt(var)
    # the rounding level of each word's spread: (k_a + k_b + slack)·eps·max |cos(w, ·)| (one tolerance for all)
    tol = spread_tolerance(np.concatenate([C_a, C_b], axis=1), axis=1) * (n + SPREAD_SLACK) / (
        C_a.shape[1] + C_b.shape[1] + SPREAD_SLACK)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (sum_a / k_a - sum_b / k_b) / np.where(sd > tol, sd, np.nan)


def _pearson(s, p) -> np.ndarray:
    """Pearson's r along the last axis (NaN where either is constant, up to rounding:
    :func:`wordbias.core.validation.degenerate_spread` of each standard deviation)."""
    flat = [degenerate_spread(np.sqrt(((v - v.mean(-1, keepdims=True)) ** 2).mean(-1)), v, axis=-1) for v in (s, p)]
    s = s - s.mean(-1, keepdims=True)
    p = p - p.mean(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (s * p).sum(-1) / np.sqrt((s * s).sum(-1) * (p * p).sum(-1))
    return np.where(flat[0] | flat[1], np.nan, r)


def wefat_bootstrap_from_vectors(W, A, B, prop, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                                 method: str = "BCa", resample: Sequence[str] = WEFAT_SETS, seed=0,
                                 ddof: int = 1, max_seconds: float = _perm.MAX_SECONDS) -> BootstrapInterval:
    """Bootstrap interval of WEFAT's Pearson correlation between s(w, A, B) and the property p_w (Caliskan et
    al. 2017, Methods, WEFAT) from the vectors of W, A, B (rows) and ``prop`` (one value per row of W).

    The target words W are resampled as pairs (w, p_w) (the correlation's sampling unit; Efron & Tibshirani
    1993, §6.3); the attribute words A and B, by default, separately as well: they are a sample of words
    like W, and every s(w, A, B) depends on them (``resample="W"`` keeps them fixed, as the paper's
    regression p-value does). :func:`scipy.stats.bootstrap`, ``vectorized=True``, on index arrays.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A, B = rng.normal(0.5, 1, (8, 5)), rng.normal(-0.5, 1, (8, 5))
    >>> t = rng.uniform(-1, 1, 30)
    >>> W = np.outer(t, np.ones(5)) * 0.5 + rng.normal(size=(30, 5))
    >>> r = wefat_bootstrap_from_vectors(W, A, B, t, n_resamples=1000, seed=0)
    >>> r.statistic, r.low < r.estimate < r.high, r.resampled
    ('pearson_r', True, ('W', 'A', 'B'))
    """
    n_resamples, confidence_level, ddof, resampled, rng = _check_options(
        n_resamples, confidence_level, method, ddof, resample, seed, WEFAT_SETS)
    W, A, B = _vector_sets(WEFAT_SETS, (W, A, B), (1, 1, 1), "the three sets", "WEFAT's bootstrap")
    prop = as_float_array("prop", prop, what="one property value per row of W")
    if prop.shape != (W.shape[0],) or not np.all(np.isfinite(prop)):
        raise InvalidParameterError(f"prop must hold one finite value per row of W ({W.shape[0]}), "
                                    f"not shape {prop.shape}")
    if W.shape[0] < _wefat.MIN_WORDS:
        raise DegenerateSetError(f"WEFAT needs at least {_wefat.MIN_WORDS} target words, got {W.shape[0]}")
    n_w, n_v = W.shape[0], A.shape[0] + B.shape[0]
    check_bootstrap_cost("a WEFAT bootstrap", n_resamples,
                         [n for k, n in zip(WEFAT_SETS, (n_w, A.shape[0], B.shape[0])) if k in resampled],
                         3 * n_v * n_w + 20 * n_w, 8.0 * (3 * n_v + 14 * n_w), method=method, max_seconds=max_seconds)
    C_a, C_b = _weat.cosine_matrix(W, A), _weat.cosine_matrix(W, B)
    full = {"W": np.arange(W.shape[0]), "A": np.arange(A.shape[0]), "B": np.arange(B.shape[0])}

    def r_of(*args, axis=-1):
        got = dict(zip(resampled, args))
        iw, ia, ib = (got.get(k, full[k]) for k in WEFAT_SETS)
        lead = np.broadcast_shapes(*(np.shape(i)[:-1] for i in (iw, ia, ib)))
        iw, ia, ib = (np.broadcast_to(i, lead + np.shape(i)[-1:]) for i in (iw, ia, ib))
        s = resampled_normalized_association(C_a, C_b, ia, ib, ddof=ddof)
        return _pearson(np.take_along_axis(s, iw, axis=-1), prop[iw])

    r0 = float(r_of(*(full[k] for k in resampled)))
    if not np.isfinite(r0):
        raise DegenerateSetError("the correlation of s(w, A, B) with the property is undefined (a constant)")
    with np.errstate(invalid="ignore"):
        res = _sps.bootstrap(tuple(full[k] for k in resampled), r_of, n_resamples=n_resamples, vectorized=True,
                             paired=False, axis=-1, confidence_level=confidence_level, method=method, rng=rng)
    return _interval("pearson_r", r0, res, confidence_level, method, n_resamples, resampled)


def wefat_bootstrap(embedding, result: "_wefat.WefatResult", *, n_resamples: int = 10_000,
                    confidence_level: float = 0.95, method: str = "BCa", resample: Sequence[str] = WEFAT_SETS,
                    seed=0, ddof: int = 1, max_seconds: float = _perm.MAX_SECONDS) -> BootstrapInterval:
    """Bootstrap interval of the Pearson correlation of a :class:`~wordbias.measures.wefat.WefatResult`
    (its words and property values, after unknown words and the name filter), on ``embedding``
    (:func:`wefat_bootstrap_from_vectors`; ``ddof`` must be the one the WEFAT was run with).

    With one attribute word a side, s(w, A, B) = ±sqrt(2) for every word, so a resample of words on one side
    has s equal up to rounding and no correlation (NaN, counted in ``n_undefined``): use two words or more.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.wefat import wefat
    >>> women = {"nurse": 90.0, "teacher": 70.0, "clerk": 60.0, "cook": 40.0, "judge": 30.0, "pilot": 8.0,
    ...          "miner": 2.0}
    >>> V = np.array([[0.9, 0.2], [0.6, 0.5], [0.7, 0.6], [0.55, 0.45], [0.4, 0.7], [0.3, 0.9], [0.1, 1.0],
    ...               [1.0, 0.0], [0.0, 1.0], [0.9, 0.3], [0.2, 1.0]])
    >>> kv = to_keyed_vectors([*women, "she", "he", "woman", "man"], V.astype(np.float32))
    >>> res = wefat(kv, list(women), ["she", "woman"], ["he", "man"], women)
    >>> r = wefat_bootstrap(kv, res, n_resamples=500, resample="W", method="percentile")
    >>> bool(np.isclose(r.estimate, res.pearson_r)), r.resampled, r.low < r.estimate < r.high
    (True, ('W',), True)
    """
    if not isinstance(result, _wefat.WefatResult):
        raise InvalidParameterError(f"result must be a WefatResult, not {type(result).__name__}")
    words = list(result.table["word"])
    W = lookup.vectors(embedding, words)
    A, B = (lookup.vectors(embedding, list(s.words)) for s in (result.A, result.B))
    return wefat_bootstrap_from_vectors(W, A, B, result.table["property"].to_numpy(), n_resamples=n_resamples,
                                        confidence_level=confidence_level, method=method, resample=resample,
                                        seed=seed, ddof=ddof, max_seconds=max_seconds)


# --------------------------------------------------------------------------------------------------
# the effect size of two samples of scores already computed
# --------------------------------------------------------------------------------------------------

def _scores(v, name: str) -> np.ndarray:
    v = as_float_array(name, v, what="a 1-D list of scores")
    if v.ndim != 1:
        raise InvalidParameterError(f"{name} must be a 1-D array of scores, not an array of shape {v.shape}")
    check_finite(name, v, "scores")
    if v.size < 2:
        raise DegenerateSetError(f"{name} has {v.size} score(s); the bootstrap needs at least 2 per sample")
    return v


def effect_size_bootstrap(s_a, s_b, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                          method: str = "BCa", seed=0, ddof: int = 1, max_seconds: float = _perm.MAX_SECONDS) -> WeatBootstrap:
    """Bootstrap intervals of the effect size d = [mean(s_a) − mean(s_b)] / std-dev(s_a ∪ s_b)
    (:func:`wordbias.measures.weat.effect_size`, Caliskan et al. 2017, Methods) and of the mean difference
    mean(s_a) − mean(s_b) of two samples of scores already computed, each sample resampled separately with
    replacement (the two-sample bootstrap; Efron & Tibshirani 1993, §8.3) by :func:`scipy.stats.bootstrap`
    (``vectorized=True``, on the scores themselves).

    What it covers: only the choice of the scored items (e.g. the attribute words of Kurita et al.'s test,
    :func:`wordbias.measures.mlm.attribute_test`); whatever produced each score (templates, targets, the
    other word sets) is held fixed. ``effect_size.statistic`` is ``"effect_size"``, ``statistic.statistic``
    ``"mean_difference"``; ``sizes`` is (len(s_a), len(s_b)). All the scores equal is an error
    (:class:`~wordbias.core.errors.DegenerateSetError`); a resample whose scores are all equal has d = NaN,
    counted in ``n_undefined`` (SciPy's interval of d is then NaN). "Equal" is up to rounding
    (:func:`wordbias.core.validation.spread_tolerance`): a spread of 1e-17 around 0.3 is refused, as the d it
    would give is a ratio of noise. A request out of proportion is refused (:func:`check_bootstrap_cost`).

    Examples
    --------
    >>> r = effect_size_bootstrap([0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0], n_resamples=2000,
    ...                           method="percentile", seed=0)
    >>> round(r.effect_size.estimate, 3), round(r.statistic.estimate, 3), r.sizes, r.statistic.statistic
    (1.57, 0.575, (4, 4), 'mean_difference')
    >>> bool(r.statistic.low < 0.575 < r.statistic.high)
    True
    """
    n_resamples, confidence_level, ddof, resampled, rng = _check_options(
        n_resamples, confidence_level, method, ddof, ("a", "b"), seed, ("a", "b"))
    a, b = _scores(s_a, "s_a"), _scores(s_b, "s_b")
    pooled = np.concatenate([a, b])
    exact = np.ptp(pooled) == 0
    check_spread(pooled, 0.0 if exact else pooled.std(ddof=ddof),
                 f"every score of s_a and s_b is {float(a[0])!r}{'' if exact else ' up to rounding'}: the effect size is "
                 f"undefined")
    check_bootstrap_cost("an effect-size bootstrap", n_resamples, [a.size, b.size], 12 * pooled.size,
                         8.0 * 6 * pooled.size, method=method, max_seconds=max_seconds)
    d0 = _weat.effect_size(a, b, ddof=ddof)
    tol = spread_tolerance(pooled)          # a resample's values are among these: the same rounding level

    def both(x, y, axis=-1):                # one call, the same resamples for d and the mean difference
        lead = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
        x, y = np.broadcast_to(x, lead + x.shape[-1:]), np.broadcast_to(y, lead + y.shape[-1:])
        diff = x.mean(-1) - y.mean(-1)
        sd = np.concatenate([x, y], axis=-1).std(axis=-1, ddof=ddof)
        with np.errstate(divide="ignore", invalid="ignore"):
            d = diff / np.where(sd > tol, sd, np.nan)
        return np.stack([d, diff])

    with np.errstate(invalid="ignore"):
        res = _sps.bootstrap((a, b), both, n_resamples=n_resamples, vectorized=True, paired=False, axis=-1,
                             confidence_level=confidence_level, method=method, rng=rng)
    out = [_interval(name, est, _Row(res, i), confidence_level, method, n_resamples, resampled)
           for i, (name, est) in enumerate((("effect_size", d0), ("mean_difference", a.mean() - b.mean())))]
    return WeatBootstrap(effect_size=out[0], statistic=out[1], sizes=(a.size, b.size))


# --------------------------------------------------------------------------------------------------
# the cosine of two mean-difference directions (the racial bias report)
# --------------------------------------------------------------------------------------------------

#: the report's word sets: targets T1 (positive), T2 (negative); attributes A1 (white), A2 (black)
DIRECTION_SETS = ("T1", "T2", "A1", "A2")


def _span_coordinates(mats: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The rows of ``mats`` in an orthonormal basis of the span of all of them, when that has fewer coordinates
    than the dimension (m words of d > m dimensions: X = R^T Q^T with Q^T Q = I, so the coordinates R^T keep every
    inner product, and every mean difference, norm and cosine); otherwise the rows unchanged."""
    X = np.vstack(mats)
    if X.shape[1] <= X.shape[0]:
        return list(mats)
    Z = np.linalg.qr(X.T, mode="r").T                  # (m, m): X @ X.T == Z @ Z.T
    return np.split(Z, np.cumsum([len(m) for m in mats])[:-1])


def resampled_mean_difference_cosine(T1, T2, A1, A2, i1, i2, j1, j2) -> np.ndarray:
    """cos(r*, s*) with r* = mean(A1*) − mean(A2*) and s* = mean(T1*) − mean(T2*) (the report's bias, Section 3,
    Appendix A) for resamples given as index arrays into T1, T2, A1, A2 (rows of vectors) whose leading shapes
    broadcast. A resampled mean is (index counts) @ X / k, so a batch of resamples is four matrix products.
    A zero r* or s* gives NaN.

    Examples
    --------
    r = (2, 0) − (0, 1); the two resamples of T1 give s* = (2, 0.5) − (0, 1) and (1, 1) − (0, 1):

    >>> T1, T2, A1, A2 = np.array([[1., 1], [3, 0]]), np.array([[0., 1]]), np.array([[2., 0]]), np.array([[0., 1]])
    >>> resampled_mean_difference_cosine(T1, T2, A1, A2, np.array([[0, 1], [0, 0]]), np.array([0]),
    ...                                  np.array([0]), np.array([0])).round(4).tolist()
    [0.9762, 0.8944]
    """
    def mean(X, i):
        i = np.asarray(i)
        return index_counts(i, len(X)) @ X / i.shape[-1]

    r = mean(A1, j1) - mean(A2, j2)
    s = mean(T1, i1) - mean(T2, i2)
    r, s = np.broadcast_arrays(r, s)
    nr, ns = np.linalg.norm(r, axis=-1), np.linalg.norm(s, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.einsum("...k,...k->...", r, s) / (nr * ns)
    return np.where((nr > 0) & (ns > 0), np.clip(c, -1.0, 1.0), np.nan)


def direction_bootstrap_from_vectors(T1, T2, A1, A2, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                                     method: str = "BCa", resample: Sequence[str] = DIRECTION_SETS, seed=0,
                                     normalize: bool = False, batch: int | None = None,
                                     max_seconds: float = _perm.MAX_SECONDS) -> BootstrapInterval:
    """Bootstrap interval of the cosine bias cos(r, s), r = mean(A1) − mean(A2), s = mean(T1) − mean(T2) (the
    report "Racial bias in pre-trained word embeddings", Section 3 and Appendix A; any two mean-difference
    directions), resampling each set named in ``resample`` separately, with replacement (multi-sample bootstrap;
    Efron & Tibshirani 1993, ch. 8), by :func:`scipy.stats.bootstrap` (``vectorized=True``) on index arrays.

    What it covers: how far the bias would move with other, equally valid word lists of the same sizes (drawn
    from the population the lists stand for); unlike the report's interval on the Monte Carlo p (Appendix A),
    which measures only the precision of p. Where it fails: the cosine of two mean differences of short lists is
    biased towards 0 (the noise of each mean adds dimensions orthogonal to the other direction), much more than
    WEAT's d, so the cosine of the whole pools is not well covered unless the directions are well determined. A
    synthetic check (50 dimensions, pools of 2,000 words a set, lists of 12, 12, 37, 37 as in the report's implicit
    test, 150 draws, 2,000 resamples): the bootstrap standard error is 0.88-0.92 of the true spread of the
    cosine; the BCa interval covers the pool cosine 0.38 / 0.83 / 0.85 of the time and the expected cosine of
    lists of those sizes 0.80 / 0.79 / 0.86, at pool cosine 0.47 / 0.48 / 0.50 with E[cos] 0.20 / 0.42 / 0.49
    (the percentile interval: 0.03 / 0.57 / 0.77 of the pool cosine). Read it as the spread of the bias over word
    lists, not as an interval for the pool's cosine. The vectors are written in an orthonormal basis of their span first
    (:func:`_span_coordinates`), so memory is O(batch × min(words, dimension)); ``batch`` (SciPy's) bounds the
    resamples per call. ``normalize=True`` makes each vector a unit vector first (the report uses raw vectors).
    Sets that are resampled need at least 2 words each. ``statistic`` is ``"cosine_bias"``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> u = np.eye(5)[0]
    >>> T1, T2 = rng.normal(size=(6, 5)) + u, rng.normal(size=(6, 5)) - u
    >>> A1, A2 = rng.normal(size=(8, 5)) + u, rng.normal(size=(8, 5)) - u
    >>> ci = direction_bootstrap_from_vectors(T1, T2, A1, A2, n_resamples=2000, seed=0)
    >>> ci.statistic, round(ci.estimate, 4), bool(ci.low < ci.estimate < ci.high <= 1)
    ('cosine_bias', 0.7942, True)
    """
    n_resamples, confidence_level, _, resampled, rng = _check_options(
        n_resamples, confidence_level, method, 1, resample, seed, DIRECTION_SETS)
    normalize = check_bool("normalize", normalize)
    if batch is not None:
        batch = check_int("batch", batch, min=1)
    mats = [vector_set(X, k, normalize) for X, k in zip((T1, T2, A1, A2), DIRECTION_SETS)]
    check_same_dimension(dict(zip(DIRECTION_SETS, mats)), "the four sets")
    for k, m in zip(DIRECTION_SETS, mats):
        if k in resampled and len(m) < 2:
            raise DegenerateSetError(f"set {k} has 1 word: resampling it changes nothing (leave it out of resample)")
    mats = _span_coordinates(mats)
    r = mats[0].shape[1]
    n_all = sum(len(m) for m in mats)
    check_bootstrap_cost("a direction bootstrap", n_resamples, [len(m) for k, m in zip(DIRECTION_SETS, mats)
                                                                 if k in resampled],
                         2 * n_all * r + 10 * r, 8.0 * (2 * n_all + 8 * r), method=method, max_seconds=max_seconds,
                         batch=batch)
    full = {k: np.arange(len(m)) for k, m in zip(DIRECTION_SETS, mats)}
    c0 = float(resampled_mean_difference_cosine(*mats, *full.values()))
    if not np.isfinite(c0):
        raise DegenerateSetError("mean(A1) = mean(A2) or mean(T1) = mean(T2): a zero direction has no cosine")

    def cos(*args, axis=-1):
        got = dict(zip(resampled, args))
        return resampled_mean_difference_cosine(*mats, *(got.get(k, full[k]) for k in DIRECTION_SETS))

    with np.errstate(invalid="ignore"):
        res = _sps.bootstrap(tuple(full[k] for k in resampled), cos, n_resamples=n_resamples, vectorized=True,
                             paired=False, axis=-1, confidence_level=confidence_level, method=method, rng=rng,
                             batch=batch)
    return _interval("cosine_bias", c0, res, confidence_level, method, n_resamples, resampled)
