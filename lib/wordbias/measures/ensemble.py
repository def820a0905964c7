"""A test measured on every run of an ensemble: the spread over training runs beside the spread over words.

Every interval a single embedding gives is over the words of the lists, the embedding held fixed. An embedding
trained on a small corpus moves from one training run to the next, and from one sample of the corpus's documents
to the next (Antoniak & Mimno 2018, "Evaluating the stability of embedding-based word similarities", TACL
6:107-119, https://doi.org/10.1162/tacl_a_00008), often by as much as that interval. Measured on an ensemble
(:class:`wordbias.embeddings.ensemble.Ensemble`: runs with different seeds, or on bootstrap samples of the
documents), a test measured on every run by :func:`on_runs` (any measure that returns a
:class:`~wordbias.result.Result`, run as it is on each run) reports:

* the distribution over runs: each run's own :class:`~wordbias.result.Result` (d, its
  word-bootstrap interval, p), the mean, the standard deviation and range of d, and the share of runs
  significant at ``alpha``;
* one interval for the mean over runs that combines both sources (:func:`combine_runs`): the within-run
  variance over words (read from each run's bootstrap interval) plus the between-run variance divided by the
  number of runs, with a t quantile on Satterthwaite's degrees of freedom;
* the test-retest reliability of the word scores s(w, A, B) across runs, ICC(2,1), and the internal
  consistency of the attribute pairs, Cronbach's alpha (Du, Fang & Nguyen 2021,
  https://doi.org/10.18653/v1/2021.emnlp-main.785; :mod:`wordbias.stats.reliability`).

The combined interval's coverage is checked in a simulation (``benchmarks/coverage_ensemble.py``,
``tests/measures/test_ensemble_coverage.py``).
"""
from __future__ import annotations

import dataclasses
import html
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import (
    as_float_array,
    check_probability,
    check_real,
    degenerate_spread,
    spread_tolerance,
)
from wordbias.result import Result
from wordbias.stats.reliability import cronbach_alpha, icc_a1

__all__ = ["CombinedInterval", "combine_runs", "in_range", "no_combined_p", "null_value", "joint_word_variance", "RunCosines", "EnsembleMeasurement",
           "as_ensemble", "on_runs", "ALPHA"]

#: the significance level of the share of significant runs
ALPHA = 0.05


@dataclass(frozen=True)
class CombinedInterval:
    """The mean of an effect size over runs, with an interval over words and runs together (:func:`combine_runs`).

    Attributes
    ----------
    estimate : float
        The mean effect size over the runs.
    ci_low, ci_high : float
        The combined interval.
    ci_level : float
        Its confidence level.
    within_variance : float
        W: the mean over runs of each run's variance over words (from its interval's half-width).
    between_variance : float
        B: the variance of the effect size across runs (ddof = 1).
    df : float
        Satterthwaite's degrees of freedom of the t quantile (inf when B is 0).
    n_runs : int
        The runs combined.
    method : str
        How the interval was computed, in words.
    """

    estimate: float
    ci_low: float
    ci_high: float
    ci_level: float
    within_variance: float
    between_variance: float
    df: float
    n_runs: int
    method: str

    @property
    def standard_error(self) -> float:
        """sqrt(W + B / m): the standard error of the mean over m runs."""
        return math.sqrt(self.within_variance + self.between_variance / self.n_runs)

    def p_value(self, alternative: str = "greater", *, null: float = 0.0) -> float:
        """The p of the combined t statistic, (mean - null) / standard error, on ``df`` degrees of freedom.

        Parameters
        ----------
        alternative : {"greater", "less", "two-sided"}, default "greater"
            The alternative hypothesis (the mean effect size above, below or away from ``null``).
        null : float, default 0.0
            The value of "no bias" (:attr:`wordbias.catalogue.MeasureSpec.no_bias`: 1 for ECT's rho).

        Returns
        -------
        float
            The p-value; NaN when the standard error is 0 or not finite.
        """
        se = self.standard_error
        if not (se > 0 and math.isfinite(se)):
            return math.nan
        t = (self.estimate - null) / se
        dist = stats.t(self.df) if math.isfinite(self.df) else stats.norm()
        return float({"greater": dist.sf(t), "less": dist.cdf(t),
                      "two-sided": min(1.0, 2 * dist.sf(abs(t)))}[alternative])


def combine_runs(estimates, ci_low, ci_high, *, ci_level: float = 0.95, confidence_level: float | None = None,
                 within_variance: float | None = None, within_method: str | None = None) -> CombinedInterval:
    """Combine one test's results over m training runs into one interval over words and runs.

    Each run r gives an effect size d_r and an interval over words at level ``ci_level``, from which its
    variance over words is read as w_r = ((high_r − low_r) / (2 z))², z the normal quantile of the level. With
    the mean within-run variance W = mean(w_r) and the between-run variance B = var(d_r) (ddof = 1), the mean
    d̄ = mean(d_r) has variance

        T = W + B / m

    by the law of total variance: the words are the same in every run, so their sampling error does not average
    out over runs (W is not divided by m), while the runs' own scatter does (B / m). The interval is
    d̄ ± t_ν sqrt(T), with Satterthwaite's (1946) degrees of freedom ν = (m − 1) T² / (B / m)² (W taken as
    known). Runs whose d agree up to rounding (:func:`wordbias.core.validation.degenerate_spread`) have B = 0,
    as ``method`` says: a t over their rounding noise would be a ratio of noise; with no W either there is no
    interval (NaN bounds) and no p. It targets the mean over training runs of the corpus and method (over corpora like it, for runs on
    bootstrap samples of its documents; Antoniak & Mimno 2018), for the population of words the lists sample.

    W read from the runs' intervals counts each word's run-to-run noise in full, though it averages out over the
    runs in d̄ (B counts it again): the interval is conservative where words move independently between runs
    (coverage 0.95-0.999 of a nominal 0.95 in the simulation of ``benchmarks/coverage_ensemble.py``). Where the
    runs' vectors are at hand, :func:`joint_word_variance` gives W as the variance over words of d̄ itself (one
    word bootstrap applied to every run; coverage 0.92-0.97 there): pass it as ``within_variance``.

    Parameters
    ----------
    estimates : array_like of float, shape (m,)
        Each run's effect size, m >= 2.
    ci_low, ci_high : array_like of float, shape (m,)
        Each run's interval over words; NaN bounds (a run without an interval) leave W out: the interval is then
        over runs only, and ``method`` says so.
    ci_level : float, default 0.95
        The level of the runs' intervals.
    confidence_level : float, optional
        The level of the combined interval (default ``ci_level``).
    within_variance : float, optional
        W given, e.g. :func:`joint_word_variance` (default: read from the runs' intervals).
    within_method : str, optional
        How the given W was computed, for ``method``.

    Returns
    -------
    CombinedInterval
        The mean, the interval, W, B, the degrees of freedom and the method.

    Raises
    ------
    InvalidParameterError
        When fewer than 2 runs are given, the arrays differ in length, an estimate is not finite, or a level is not
        in (0, 1).

    Examples
    --------
    Five runs whose d moves by about 0.1, each with an interval over words of half-width about 0.4:

    >>> c = combine_runs([1.0, 1.1, 0.9, 1.05, 0.95], [0.6, 0.7, 0.5, 0.65, 0.55], [1.4, 1.5, 1.3, 1.45, 1.35])
    >>> round(c.estimate, 3), round(c.ci_low, 2), round(c.ci_high, 2), round(c.df, 1)
    (1.0, 0.59, 1.41, 4711.6)
    >>> print(c.method)
    mean over 5 runs ± t sqrt(W + B/5): W the within-run variance over words (from the runs' 95% intervals), B the between-run variance
    """
    d = as_float_array("estimates", estimates, ndim=1)
    low = as_float_array("ci_low", ci_low, ndim=1)
    high = as_float_array("ci_high", ci_high, ndim=1)
    if not (len(d) == len(low) == len(high)):
        raise InvalidParameterError(f"estimates, ci_low and ci_high differ in length: {len(d)}, {len(low)}, "
                                    f"{len(high)}")
    if len(d) < 2:
        raise InvalidParameterError(f"combining runs needs at least 2 runs, not {len(d)}")
    if not np.isfinite(d).all():
        raise InvalidParameterError("an estimate is NaN or infinite: leave out the runs where the test did not run")
    ci_level = check_probability("ci_level", ci_level)
    level = ci_level if confidence_level is None else check_probability("confidence_level", confidence_level)
    m = len(d)
    between = float(d.var(ddof=1))
    flat = bool(degenerate_spread(math.sqrt(between), d))      # the runs agree up to rounding: B is noise, 0
    if flat:
        between = 0.0
    if within_variance is not None:
        within = check_real("within_variance", within_variance, low=0)
        has_w = True
    else:
        has_w = bool(np.isfinite(low).all() and np.isfinite(high).all())
        z = stats.norm.ppf(0.5 + ci_level / 2)
        within = float((((high - low) / (2 * z)) ** 2).mean()) if has_w else 0.0
    total = within + between / m
    df = math.inf if between == 0 else (m - 1) * total ** 2 / (between / m) ** 2
    q = stats.t.ppf(0.5 + level / 2, df) if math.isfinite(df) else stats.norm.ppf(0.5 + level / 2)
    half = float(q * math.sqrt(total))
    mean = float(d.mean())
    if within_variance is not None:
        method = (f"mean over {m} runs ± t sqrt(W + B/{m}): W the variance over words of the mean over runs "
                  f"({within_method or 'given'}), B the between-run variance")
    elif has_w:
        method = (f"mean over {m} runs ± t sqrt(W + B/{m}): W the within-run variance over words (from the runs' "
                  f"{ci_level:.0%} intervals), B the between-run variance")
    else:
        method = f"mean over {m} runs ± t sqrt(B/{m}): over runs only (the runs have no interval over words)"
    if flat:
        method += (f"; the {m} runs' effect sizes are equal up to rounding (spread at most "
                   f"{float(spread_tolerance(d)):.2g}): B = 0")
    if total == 0:                  # nothing to make an interval from: no interval, rather than one of width 0
        half = math.nan
        method += "; no interval: the runs do not differ and have no interval over words"
    return CombinedInterval(estimate=mean, ci_low=mean - half, ci_high=mean + half, ci_level=level,
                            within_variance=within, between_variance=between, df=float(df), n_runs=m, method=method)


def in_range(measure: str, c: CombinedInterval, estimates, ci_low, ci_high, *,
             within_variance: float | None = None, within_method: str | None = None) -> CombinedInterval:
    """The combined interval ``c`` kept in the measure's range (:data:`wordbias.catalogue.CATALOGUE`).

    An interval inside the range is returned as it is. One that leaves it (a WEAT d's beyond 2, ECT's rho above
    1, a divergence below 0) is computed again on the range's logit scale (:func:`wordbias.catalogue.logit_scale`:
    Fisher's z, doubled, for a range of -1 to 1; the log for one bounded below) and mapped back; a given W is
    carried to that scale by the delta method, W g'(mean)^2. When a run's estimate or interval sits on an edge of
    the range, where the logit scale has no finite value, the interval is clipped to the range instead. Either
    way ``method`` says so; the estimate stays the mean over the runs.

    Parameters
    ----------
    measure : str
        The tidy ``measure`` of the test (a measure the catalogue does not hold is returned as it is).
    c : CombinedInterval
        The interval on the measure's own scale (:func:`combine_runs`).
    estimates, ci_low, ci_high : array_like of float
        The runs' estimates and intervals that ``c`` combined.
    within_variance : float, optional
        The W given to :func:`combine_runs`, if one was.
    within_method : str, optional
        How that W was computed.

    Returns
    -------
    CombinedInterval
        ``c``, or ``c`` with its bounds inside the range and its method saying how.

    Examples
    --------
    >>> c = combine_runs([0.95, 0.6, 0.99], [0.7, 0.2, 0.9], [0.999, 0.95, 0.9999])
    >>> c.ci_high > 1
    True
    >>> r = in_range("ect", c, [0.95, 0.6, 0.99], [0.7, 0.2, 0.9], [0.999, 0.95, 0.9999])
    >>> -1 <= r.ci_low < r.estimate < r.ci_high <= 1, "logit scale" in r.method
    (True, True)
    """
    from wordbias import catalogue

    s = catalogue.CATALOGUE.get(measure)
    if s is None or (catalogue.inside_range(measure, c.ci_low) and catalogue.inside_range(measure, c.ci_high)):
        return c
    span = f"[{s.low:g}, {s.high:g}]"
    d, low, high = (np.asarray(v, dtype=float) for v in (estimates, ci_low, ci_high))
    if not all(catalogue.inside_range(measure, float(x)) for x in d):     # e.g. a WEAT d of unequal target sets
        return dataclasses.replace(c, method=c.method + f"; a run's estimate lies outside {span}, the range for "
                                                        f"which the catalogue declares it: the interval is as computed")
    z = [catalogue.logit_scale(measure, v) for v in (d, low, high)]
    finite = np.isfinite(z[0]).all() and all(np.isfinite(v[np.isfinite(v)]).all() for v in z[1:])
    if finite:
        w = None
        if within_variance is not None:
            h = 1e-6 * max(1.0, abs(c.estimate))
            slope = (catalogue.logit_scale(measure, [c.estimate + h]) - catalogue.logit_scale(measure, [c.estimate - h]))
            w = float(within_variance * (float(slope[0]) / (2 * h)) ** 2)
        t = combine_runs(*z, ci_level=c.ci_level, within_variance=w, within_method=within_method)
        lo, hi = (float(catalogue.from_logit_scale(measure, [v])[0]) for v in (t.ci_low, t.ci_high))
        how = (f"; computed on the logit scale of the range {span} and mapped back (on its own scale the interval "
               f"[{c.ci_low:.3g}, {c.ci_high:.3g}] left the range)")
    else:
        lo, hi = max(c.ci_low, s.low), min(c.ci_high, s.high)
        how = (f"; clipped to the range {span} (the interval [{c.ci_low:.3g}, {c.ci_high:.3g}] left it, and a run "
               f"sits on the edge of the range, where the logit scale has no finite value)")
    return dataclasses.replace(c, ci_low=lo, ci_high=hi, method=c.method + how)


def joint_word_variance(cosines: Sequence, n_x: int, n_a: int, *, n_resamples: int = 10_000, seed=0,
                        ddof: int = 1) -> float:
    """W for :func:`combine_runs`: the variance over words of d̄, the mean d over the runs, by one word bootstrap
    applied to every run.

    Each resample draws the words of X, Y, A and B once, with replacement, and applies that draw to every run: its
    d*_r in each run (:func:`wordbias.measures.association.bootstrap.resampled_weat`, Caliskan et al. 2017, Methods) and their
    mean over the runs. The variance of that mean over the resamples (ddof = 1, NaN resamples left out) is the
    sampling variance of d̄ over words: each word's run-to-run noise averages over the runs in it, as in d̄, rather
    than counting in full as in the runs' own intervals (the crossed design of words and runs; Owen 2007, "The
    pigeonhole bootstrap", Annals of Applied Statistics 1(2), https://doi.org/10.1214/07-AOAS122).

    Parameters
    ----------
    cosines : sequence of numpy.ndarray, shape (n_x + n_y, n_a + n_b)
        Each run's cosines of the target words (X then Y) with the attribute words (A then B)
        (:func:`wordbias.measures.association.bootstrap.target_attribute_cosines`), the same words in the same order in every run.
    n_x, n_a : int
        The words of X and of A (the first rows and columns).
    n_resamples : int, default 10_000
        The bootstrap resamples.
    seed : int or sequence of int, default 0
        The seed of the draws (:func:`numpy.random.default_rng`).
    ddof : {1, 0}, default 1
        The delta degrees of freedom of d's standard deviation.

    Returns
    -------
    float
        The variance; NaN when fewer than 2 resamples have a defined d.

    Examples
    --------
    With one run it is the variance of that run's own word bootstrap:

    >>> from wordbias.measures.association.bootstrap import target_attribute_cosines
    >>> rng = np.random.default_rng(0)
    >>> C = target_attribute_cosines(*(rng.normal(size=(6, 5)) + shift for shift in (1, -1, 1, -1)))
    >>> w1 = joint_word_variance([C], 6, 6, n_resamples=2000)
    >>> w2 = joint_word_variance([C, C + rng.normal(0, .05, C.shape)], 6, 6, n_resamples=2000)
    >>> round(w1, 2), abs(w2 - w1) < 0.05
    (0.03, True)
    """
    from wordbias.measures.association.bootstrap import resampled_weat

    cosines = [np.asarray(C, dtype=float) for C in cosines]
    if not cosines:
        raise InvalidParameterError("joint_word_variance needs the cosines of at least one run")
    shape = cosines[0].shape
    if any(C.shape != shape for C in cosines):
        raise InvalidParameterError(f"every run's cosines must cover the same words: shapes "
                                    f"{sorted({C.shape for C in cosines})}")
    n_y, n_b = shape[0] - n_x, shape[1] - n_a
    rng = np.random.default_rng(seed)
    idx = [rng.integers(0, k, (n_resamples, k)) for k in (n_x, n_y, n_a, n_b)]
    d = np.stack([resampled_weat(C, n_x, n_a, *idx, ddof=ddof)[1] for C in cosines])     # (runs, resamples)
    defined = np.isfinite(d).any(axis=0)
    if defined.sum() < 2:
        return math.nan
    mean = np.array([np.mean(col[np.isfinite(col)]) for col in d[:, defined].T])
    return float(mean.var(ddof=1))


@dataclass(frozen=True)
class RunCosines:
    """One run's words of a WEAT and their cosines (what :func:`joint_word_variance` and the internal consistency
    need).

    Attributes
    ----------
    X, Y, A, B : tuple of str
        The words the run used, per set.
    C : numpy.ndarray
        cos(w, v), rows X then Y, columns A then B.
    """

    X: tuple[str, ...]
    Y: tuple[str, ...]
    A: tuple[str, ...]
    B: tuple[str, ...]
    C: np.ndarray = field(repr=False)

    def restricted(self, X, Y, A, B) -> np.ndarray:
        """The cosines of the given words (a subset of the run's), rows X then Y, columns A then B.

        Parameters
        ----------
        X, Y, A, B : sequence of str
            The words, each among the run's words of that set.

        Returns
        -------
        numpy.ndarray
            The sub-matrix.
        """
        rows = {w: i for i, w in enumerate(self.X + self.Y)}
        cols = {w: i for i, w in enumerate(self.A + self.B)}
        return self.C[np.ix_([rows[w] for w in (*X, *Y)], [cols[w] for w in (*A, *B)])]


@dataclass(frozen=True)
class EnsembleMeasurement:
    """A test measured on every run of an ensemble.

    Attributes
    ----------
    measure : str
        ``"weat"`` or ``"wefat"``.
    test : str
        The test's id within its battery (``""`` for a test measured alone).
    title : str
        The test's title.
    ensemble : str
        The ensemble's label.
    runs : tuple of str
        The runs' labels, in order.
    per_run : tuple of Result
        Each run's own result (d, its word-bootstrap interval, p, the words used).
    effect_size_name : str
        ``"d"`` (WEAT) or ``"r"`` (WEFAT).
    effect_size : float
        The mean effect size over the runs where the test ran.
    effect_size_sd : float
        Its standard deviation across those runs (ddof = 1).
    effect_size_min, effect_size_max : float
        The smallest and largest run's effect size.
    combined : CombinedInterval or None
        The interval over words and runs (:func:`combine_runs`); None when fewer than 2 runs ran.
    alpha : float
        The level of ``share_significant``.
    share_significant : float
        The share of the runs that ran with p < alpha (each run's one-sided p as in its ``p_value``).
    alternative : str
        The alternative of the runs' p and of ``p_value``.
    p_value : float
        The p of the combined t statistic (:meth:`CombinedInterval.p_value`).
    test_retest : float
        ICC(2,1) of the target words' scores s(w, A, B) across runs (Du et al. 2021, §3.1), over the words every
        run used; NaN for a WEFAT or when fewer than 2 words are shared.
    consistency_pairs : float
        Cronbach's alpha over the attribute pairs (a, b) as items, the target words as observations, the
        scores averaged over runs (Du et al. 2021, §3.3); NaN for a WEFAT.
    consistency_words : float
        Cronbach's alpha over the target words as items, the attribute pairs as observations.
    n_shared_words : int
        The target words every run used (those ``test_retest`` is over).
    not_run : tuple of str
        The runs where the test did not run, with why.
    p_holm, p_bh : float
        Holm's and Benjamini-Hochberg's adjusted ``p_value`` over a family of tests; NaN as :func:`on_runs`
        gives it (the tidy tables of :mod:`wordbias.battery.ensemble` adjust the combined rows' p).
    p_family : str or None
        The family of the adjusted p.
    """

    measure: str
    test: str
    title: str
    ensemble: str
    runs: tuple[str, ...]
    per_run: tuple[Result, ...] = field(repr=False)
    effect_size_name: str
    effect_size: float
    effect_size_sd: float
    effect_size_min: float
    effect_size_max: float
    combined: CombinedInterval | None
    alpha: float
    share_significant: float
    alternative: str
    p_value: float
    test_retest: float = math.nan
    consistency_pairs: float = math.nan
    consistency_words: float = math.nan
    n_shared_words: int = 0
    not_run: tuple[str, ...] = ()
    p_holm: float = math.nan
    p_bh: float = math.nan
    p_family: str | None = None

    @property
    def n_runs(self) -> int:
        """The runs where the test ran."""
        return sum(m.not_run is None for m in self.per_run)

    @property
    def ci_low(self) -> float:
        """The combined interval's lower bound (NaN when there is none)."""
        return self.combined.ci_low if self.combined else math.nan

    @property
    def ci_high(self) -> float:
        """The combined interval's upper bound (NaN when there is none)."""
        return self.combined.ci_high if self.combined else math.nan

    def runs_frame(self):
        """One row per run: its effect size, interval, p, coverage and note.

        Returns
        -------
        pandas.DataFrame
            The runs' :meth:`~wordbias.result.Result.to_dict` rows with a ``run`` column first.
        """
        import pandas as pd

        return pd.DataFrame([{"run": run, **m.to_dict()} for run, m in zip(self.runs, self.per_run)])

    def to_dict(self) -> dict:
        """One flat row of the ensemble's numbers.

        Returns
        -------
        dict
            ``ensemble``, ``test``, ``title``, ``measure``, ``n_runs``, the mean effect size with its combined
            interval and method, the spread (sd, min, max), W, B, df, ``share_significant`` at ``alpha``, the
            combined p and its adjusted p, the reliability figures and the runs that did not run.
        """
        c = self.combined
        return {"ensemble": self.ensemble, "test": self.test or None, "measure": self.measure, "title": self.title,
                "n_runs": self.n_runs, "effect_size_name": self.effect_size_name, "effect_size": self.effect_size,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "ci_level": c.ci_level if c else math.nan,
                "ci_method": c.method if c else "none", "effect_size_sd": self.effect_size_sd,
                "effect_size_min": self.effect_size_min, "effect_size_max": self.effect_size_max,
                "within_variance": c.within_variance if c else math.nan,
                "between_variance": c.between_variance if c else math.nan, "df": c.df if c else math.nan,
                "alpha": self.alpha, "share_significant": self.share_significant, "alternative": self.alternative,
                "p_value": self.p_value, "p_holm": self.p_holm, "p_bh": self.p_bh, "p_family": self.p_family,
                "test_retest": self.test_retest, "consistency_pairs": self.consistency_pairs,
                "consistency_words": self.consistency_words, "n_shared_words": self.n_shared_words,
                "not_run": "; ".join(self.not_run) or None}

    def to_frame(self):
        """:meth:`to_dict` as a one-row table.

        Returns
        -------
        pandas.DataFrame
            One row.
        """
        import pandas as pd

        return pd.DataFrame([self.to_dict()])

    def _lines(self) -> list[tuple[str, str]]:
        n = self.n_runs
        if not n:
            return [("not run", "; ".join(self.not_run))]
        rows = [("effect size", f"{self.effect_size_name} = {self.effect_size:.3f} (mean of {n} runs; sd "
                                f"{self.effect_size_sd:.3f}, range {self.effect_size_min:.3f} to "
                                f"{self.effect_size_max:.3f})")]
        if self.combined and not math.isfinite(self.ci_low):
            rows.append(("interval", f"none ({self.combined.method})"))
        elif self.combined:
            rows.append(("interval", f"{self.combined.ci_level:.0%} CI [{self.ci_low:.2f}, {self.ci_high:.2f}] "
                                     f"over words and runs ({self.combined.method})"))
            rows.append(("p", f"{self.p_value:.3g} ({self.alternative}, t on {self.combined.df:.1f} df)"
                     if math.isfinite(self.p_value) else "none combined (the measure's test, or a run's p, is missing)"))
        k = round(self.share_significant * n)
        rows.append(("runs significant", f"{k} of {n} at alpha = {self.alpha:g} "
                                         f"({self.share_significant:.0%})"))
        if math.isfinite(self.test_retest):
            rows.append(("test-retest", f"ICC(2,1) = {self.test_retest:.2f} over {self.n_shared_words} target words"))
        if math.isfinite(self.consistency_pairs):
            rows.append(("internal consistency", f"Cronbach's alpha {self.consistency_pairs:.2f} over attribute "
                                                 f"pairs, {self.consistency_words:.2f} over target words"))
        rows += [("not run", why) for why in self.not_run]
        return rows

    def __str__(self) -> str:
        head = f"{self.measure.upper()} on the ensemble {self.ensemble}: {self.title}"
        return "\n".join([head] + [f"  {k}: {v}" for k, v in self._lines()])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in self._lines())
        return (f"<table><caption>{html.escape(self.measure.upper() + ' on ' + self.ensemble + ': ' + self.title)}"
                f"</caption>{body}</table>")


def as_ensemble(source, label: str | None = None):
    """An :class:`~wordbias.embeddings.ensemble.Ensemble` from an ensemble, a manifest path or several embeddings.

    Parameters
    ----------
    source : Ensemble or str or path-like or sequence or mapping
        What :func:`wordbias.embeddings.ensemble.load_ensemble` takes, or an ensemble.
    label : str, optional
        The ensemble's label.

    Returns
    -------
    Ensemble
        The ensemble.

    Examples
    --------
    >>> e = as_ensemble([{"he": [1.0, 0.0]}, {"he": [0.9, 0.1]}], label="two")
    >>> e.label, e.runs, as_ensemble(e) is e
    ('two', ('run-1', 'run-2'), True)
    """
    from wordbias.embeddings.ensemble import Ensemble, load_ensemble

    if isinstance(source, Ensemble):
        return source
    return load_ensemble(source, label=label)


def _shared_scores(per_run: Sequence[Result]) -> tuple[list[str], np.ndarray]:
    """The target words every run used and their s(w, A, B) per run: (words, array (n_words, n_runs))."""
    maps = []
    for m in per_run:
        r = m.result
        maps.append({**dict(zip(r.X.words, r.s_x)), **dict(zip(r.Y.words, r.s_y))})
    shared = [w for w in maps[0] if all(w in mp for mp in maps[1:])]
    return shared, np.array([[mp[w] for mp in maps] for w in shared], dtype=float)


def _run_cosines(kv, result) -> RunCosines:
    """The run's words of each set and their cosines (the run loaded)."""
    from wordbias.measures.association.bootstrap import target_attribute_cosines

    X, Y, A, B = (tuple(s.words) for s in (result.X, result.Y, result.A, result.B))
    return RunCosines(X, Y, A, B, target_attribute_cosines(kv[list(X)], kv[list(Y)], kv[list(A)], kv[list(B)]))


def _shared(records: Sequence[RunCosines]) -> tuple[tuple[str, ...], ...]:
    """The words of each set that every run used, in the first run's order."""
    return tuple(tuple(w for w in getattr(records[0], k) if all(w in getattr(r, k) for r in records[1:]))
                 for k in "XYAB")


def _consistency(records: Sequence[RunCosines]) -> tuple[float, float]:
    """Cronbach's alpha over attribute pairs and over target words, the pair scores cos(w, a) − cos(w, b) averaged
    over runs (Du et al. 2021, §3.3), on the words every run used."""
    X, Y, A, B = _shared(records)
    if len(A) * len(B) < 2 or len(X) + len(Y) < 2:
        return math.nan, math.nan
    mean = np.mean([r.restricted(X, Y, A, B) for r in records], axis=0)       # (targets, A + B)
    ca, cb = mean[:, :len(A)], mean[:, len(A):]
    pairs = (ca[:, :, None] - cb[:, None, :]).reshape(mean.shape[0], -1).T     # (pairs, targets)
    return cronbach_alpha(pairs), cronbach_alpha(pairs.T)


def _joint_w(records: Sequence[RunCosines], n_resamples: int, seed) -> tuple[float | None, str | None]:
    """:func:`joint_word_variance` on the words every run used, with its description; (None, None) when it cannot
    be computed (no resamples, a set left too small)."""
    X, Y, A, B = _shared(records)
    if n_resamples < 2 or min(len(X), len(Y)) < 2 or min(len(A), len(B)) < 1:
        return None, None
    w = joint_word_variance([r.restricted(X, Y, A, B) for r in records], len(X), len(A), n_resamples=n_resamples,
                            seed=seed)
    if not math.isfinite(w):
        return None, None
    n = len(X) + len(Y) + len(A) + len(B)
    return w, (f"one word bootstrap of {n_resamples:,} resamples applied to every run, over the {n} words every "
               "run used")


def _summarise(label: str, runs, per_run: Sequence[Result], records, *, alpha: float) -> EnsembleMeasurement:
    """One test's runs combined: the spread, the combined interval (W from the joint word bootstrap where every run
    that ran has its cosines), the combined p, and the reliability figures where the runs' results have word
    scores (Du et al. 2021)."""
    ran = [m for m in per_run if m.not_run is None]
    not_run = tuple(f"{run}: {m.not_run}" for run, m in zip(runs, per_run) if m.not_run is not None)
    first = ran[0] if ran else per_run[0]
    measure, name, alternative = first.measure, first.effect_size_name, first.alternative
    head = dict(measure=measure, test=per_run[0].test, title=per_run[0].title, ensemble=label, runs=tuple(runs),
                per_run=tuple(per_run), effect_size_name=name)
    if not ran:
        nan = math.nan
        return EnsembleMeasurement(**head, effect_size=nan, effect_size_sd=nan, effect_size_min=nan,
                                   effect_size_max=nan, combined=None, alpha=alpha, share_significant=nan,
                                   alternative=alternative, p_value=nan, not_run=not_run)
    # a measure without an effect size (UBE's count of significant cells) is summarised by its statistic, with no
    # interval to pool
    d = np.array([m.effect_size if name else m.statistic for m in ran])
    ran_records = [rec for rec, m in zip(records, per_run) if m.not_run is None]
    extras = len(ran) >= 2 and all(rec is not None for rec in ran_records)
    combined = None
    if len(ran) >= 2 and name:
        w, how = _joint_w(ran_records, first.n_resamples, first.seed) if extras else (None, None)
        low, high = [m.ci_low for m in ran], [m.ci_high for m in ran]
        combined = in_range(measure, combine_runs(d, low, high, ci_level=first.ci_level, within_variance=w,
                                                  within_method=how),
                            d, low, high, within_variance=w, within_method=how)
    icc, n_shared, a_pairs, a_words = math.nan, 0, math.nan, math.nan
    if extras:
        words, s = _shared_scores(ran)
        n_shared = len(words)
        if n_shared >= 2:
            icc = icc_a1(s)
        a_pairs, a_words = _consistency(ran_records)
    return EnsembleMeasurement(
        **head, effect_size=float(d.mean()), effect_size_sd=float(d.std(ddof=1)) if len(d) > 1 else math.nan,
        effect_size_min=float(d.min()), effect_size_max=float(d.max()), combined=combined, alpha=alpha,
        share_significant=float(np.mean([m.p_value < alpha for m in ran])), alternative=alternative,
        p_value=_combined_p(measure, combined, alternative, ran), test_retest=icc, consistency_pairs=a_pairs,
        consistency_words=a_words, n_shared_words=n_shared, not_run=not_run)


def no_combined_p(measure: str, p_values) -> str:
    """Why a test combined over runs gets no combined p, or ``""`` when it gets one.

    The catalogue (:data:`wordbias.catalogue.CATALOGUE`) must give the measure a test combined by ``"mean and t"``
    (a descriptive measure has no test; ECT's permutation null has no fixed rho for the mean to be tested against),
    and every run that ran must have given a p (a direction with a one-word pole has none). A measure the catalogue
    does not hold is tested against 0.

    Parameters
    ----------
    measure : str
        The tidy ``measure`` of the test.
    p_values : array_like of float
        The p of each run that ran.

    Returns
    -------
    str
        The reason, for the combined row's note; ``""`` when the combined t applies.

    Examples
    --------
    >>> no_combined_p("direct_bias", [0.5, 0.5])
    'no combined p: DirectBias_1 is descriptive and has no test'
    >>> no_combined_p("weat", [0.01, 0.02])
    ''
    """
    from wordbias import catalogue

    s = catalogue.CATALOGUE.get(measure)
    p = np.asarray(p_values, dtype=float)
    if s is not None and s.test is None:
        return f"no combined p: {s.name} is descriptive and has no test"
    if s is not None and s.combine != "mean and t":
        return (f"no combined p: the test of {s.name} ({s.test}) has no fixed value for the mean over runs to be "
                f"tested against; each run's row has its own p")
    if not np.isfinite(p).all():
        return f"no combined p: {int((~np.isfinite(p)).sum())} of {len(p)} runs gave no p for this test"
    return ""


def null_value(measure: str) -> float:
    """The value a combined t tests the mean over runs against: the catalogue's "no bias" (0 where it gives none).

    Parameters
    ----------
    measure : str
        The tidy ``measure`` of the test.

    Returns
    -------
    float
        The null value.

    Examples
    --------
    >>> null_value("weat")
    0.0
    """
    from wordbias import catalogue

    s = catalogue.CATALOGUE.get(measure)
    return float(s.no_bias) if s is not None and s.no_bias is not None else 0.0


def _combined_p(measure: str, combined: CombinedInterval | None, alternative: str, ran: Sequence[Result]) -> float:
    """The combined p (:func:`no_combined_p` says when there is none: NaN)."""
    if combined is None or no_combined_p(measure, [m.p_value for m in ran]):
        return math.nan
    return combined.p_value(alternative, null=null_value(measure))


def _check_alpha(alpha) -> float:
    return check_real("alpha", alpha, low=0, high=1, low_open=True, high_open=True)


def _has_word_scores(result: Result) -> bool:
    """Whether a run's result carries what the ensemble's extras need: the four sets of a WEAT and its word scores
    s(w, A, B)."""
    inner = result.result
    return result.not_run is None and all(hasattr(inner, k) for k in ("X", "Y", "A", "B", "s_x", "s_y"))


def _results_of(measure, value) -> list[Result]:
    """The measure's value as a list of Results (one Result, or a battery's list)."""
    results = value if isinstance(value, (list, tuple)) else [value]
    for r in results:
        if not isinstance(r, Result):
            raise InvalidParameterError(f"{getattr(measure, '__name__', measure)} returned a {type(r).__name__}, "
                                        "not a wordbias.result.Result (or a list of them)")
    return list(results)


def _run_job(measure, source, args: tuple, options: dict):
    """One run measured (in this process or a worker: the run is loaded there): its Results, the cosines of those
    with word scores (for the extras), the warnings it gave as (category, message), and whether the measure gave a
    list."""
    from wordbias.embeddings import load

    kv = load(source, progress=False)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        value = measure(kv, *args, **options)
    results = _results_of(measure, value)
    records = [_run_cosines(kv, r.result) if _has_word_scores(r) else None for r in results]
    return results, records, [(w.category, str(w.message)) for w in got], isinstance(value, (list, tuple))


def _replay_once(caught: Sequence[Sequence[tuple[type, str]]], n_runs: int) -> None:
    """Give each distinct warning of the runs once, saying in how many runs it came (the runs' results keep
    theirs)."""
    counts: dict[tuple[type, str], int] = {}
    for run in caught:
        for key in dict.fromkeys(run):
            counts[key] = counts.get(key, 0) + 1
    for (category, message), k in counts.items():
        warnings.warn(category(f"{message} (in {k} of {n_runs} runs)"), stacklevel=3)


def on_runs(measure, ensemble, *args, label: str | None = None, alpha: float = ALPHA, workers: int | None = 1,
            scheduler: str | None = None, progress: bool = False, **options):
    """Any measure on every run of an ensemble, each test combined over the runs: ensembles wrap measures from
    above.

    ``measure(run_vectors, *args, **options)`` is called on each run with the same words, options and seed (only
    the embedding changes between runs), the runs as independent jobs (:func:`wordbias.core.jobs.run_jobs`). It
    returns a :class:`~wordbias.result.Result`, or a list of them (a battery such as
    :func:`wordbias.measures.association.measurement.weats`, which records a test it cannot run in a run as a
    result that did not run; a measure that raises stops the ensemble). Each test is combined over the runs by
    :func:`combine_runs`; for a WEAT (a result with word scores in every run that ran) W is the joint word
    bootstrap's (:func:`joint_word_variance`), and the test-retest reliability of the word scores and the internal
    consistency of the attribute pairs are computed from the runs (Du et al. 2021). Each distinct warning of the
    runs is given once, with the number of runs it came in. :func:`wordbias.battery.ensemble.on_runs` gives the
    same as a tidy table.

    Parameters
    ----------
    measure : callable
        A measure that returns a Result or a list of Results, e.g. :func:`wordbias.weat` or
        :func:`wordbias.measures.association.measurement.weats`; a module-level function when ``workers`` is not 1.
    ensemble : Ensemble or str or path-like or sequence
        The runs (:func:`as_ensemble`).
    *args
        The measure's word lists (or specs).
    label : str, optional
        The ensemble's label (for several embeddings given as a list).
    alpha : float, default 0.05
        The level at which a run counts as significant.
    workers : int or None, default 1
        Local processes over the runs (None: every CPU; 1: in this process).
    scheduler : str, optional
        A Dask scheduler's address: the runs are measured on its cluster.
    progress : bool, default False
        Show a progress bar over the runs.
    **options
        The measure's options, the same for every run.

    Returns
    -------
    EnsembleMeasurement or list of EnsembleMeasurement
        The combined result of the test, or one per test (in order) for a measure that returns a list.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        When ``alpha`` is not in (0, 1), ``measure`` is not callable or returns something else than Results, or
        the ensemble has fewer than 2 runs.

    Examples
    --------
    Three "training runs" of a toy embedding, each the same vectors plus a little noise:

    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.association.measurement import DEFAULT_RESAMPLING, weat
    >>> words = ["rose", "tulip", "lily", "daisy", "ant", "wasp", "moth", "flea", "love", "joy", "hate", "war"]
    >>> base = np.array([[1, .2], [.8, .3], [.9, .1], [.7, .3], [.2, 1], [.3, .8], [.1, .9], [.3, 1],
    ...                  [1, 0], [.9, .2], [0, 1], [.2, .9]])
    >>> rng = np.random.default_rng(0)
    >>> runs = [to_keyed_vectors(words, base + rng.normal(0, .1, base.shape)) for _ in range(3)]
    >>> r = on_runs(weat, runs, words[:4], words[4:8], words[8:10], words[10:], label="toy",
    ...             resampling=DEFAULT_RESAMPLING.replace(n_resamples=1000))
    >>> len(r.per_run), round(r.effect_size, 2), round(r.effect_size_sd, 2), r.share_significant
    (3, 1.83, 0.01, 1.0)
    >>> round(r.ci_low, 2) < r.effect_size < round(r.ci_high, 2), round(r.test_retest, 2)
    (True, 0.98)

    A WEFAT has no target-set scores: the runs are combined, without reliability figures:

    >>> from wordbias.measures.association.measurement import wefat
    >>> jobs = ["nurse", "engineer", "teacher", "pilot", "she", "he"]
    >>> base = np.array([[.2, 1], [1, .1], [.4, .9], [.9, .3], [0, 1], [1, 0]])
    >>> runs = [to_keyed_vectors(jobs, base + 0.03 * i) for i in range(3)]
    >>> r = on_runs(wefat, runs, jobs[:4], ["she"], ["he"], dict(zip(jobs[:4], [90, 10, 70, 5])),
    ...             resampling=DEFAULT_RESAMPLING.replace(n_resamples=0))
    >>> r.effect_size_name, r.n_runs, r.effect_size > 0.9, bool(np.isnan(r.test_retest))
    ('r', 3, True, True)
    """
    from wordbias.core.jobs import run_jobs

    alpha = _check_alpha(alpha)
    if not callable(measure):
        raise InvalidParameterError(f"measure must be a function that returns a Result, not {measure!r}")
    ens = as_ensemble(ensemble, label)
    jobs = [(measure, ens.sources[i], args, options) for i in range(len(ens))]
    out = run_jobs(_run_job, jobs, workers=workers, scheduler=scheduler, progress=progress,
                   desc=f"runs of {ens.label}", unit="run")
    _replay_once([caught for _, _, caught, _ in out], len(ens))
    if any(len(results) != len(out[0][0]) for results, *_ in out):
        raise InvalidParameterError("the measure returned a different number of results in different runs")
    summaries = [_summarise(ens.label, ens.runs, [results[j] for results, *_ in out],
                            [records[j] for _, records, *_ in out], alpha=alpha) for j in range(len(out[0][0]))]
    return summaries if out[0][3] else summaries[0]
