"""CEAT's random-effects pooling of effect sizes over contexts (Guo & Caliskan 2021).

Guo, W. & Caliskan, A. (2021). Detecting Emergent Intersectional Biases: Contextualized Word Embeddings
Contain a Distribution of Human-like Biases. AIES '21, 122-133. https://doi.org/10.1145/3461702.3462536
(arXiv:2006.03955). CEAT draws many samples of contexts, computes a WEAT effect size ES_i in each and its
within-sample variance v_i, and pools them with a random-effects model (their §"Random-effects model"),
the between-sample variance σ²_between (τ² here) being the method-of-moments estimator of
DerSimonian, R. & Laird, N. (1986). Meta-analysis in clinical trials. Controlled Clinical Trials 7(3),
177-188. https://doi.org/10.1016/0197-2456(86)90046-2 (also Hedges & Vevea 1998, Psychological Methods 3(4),
486-504; Borenstein, Hedges, Higgins & Rothstein 2009, *Introduction to Meta-Analysis*, ch. 12 and 16).

Here a "study" is one template (or one sampled set of contexts): :func:`per_template_weat` computes d and
its within-template variance per template from association scores of shape templates × words, which covers
WEAT on contextual vectors (one s(w, A, B) per word per template, from the vectors of
:mod:`wordbias.models.contextual`) and Kurita et al.'s per-template bias scores of attribute words
(:mod:`wordbias.measures.language_models.mlm`, the two attribute sets as the two groups); :func:`pool_templates` adds the
pooled estimate (:func:`random_effects`).

Notation (Borenstein et al. 2009, ch. 12): y_i the effect sizes, v_i their within-study variances,
w_i = 1/v_i, Q = Σ w_i (y_i − ȳ_w)², df = k − 1, C = Σ w_i − Σ w_i² / Σ w_i,
τ² = max(0, (Q − df) / C), w*_i = 1/(v_i + τ²), μ̂ = Σ w*_i y_i / Σ w*_i, SE(μ̂) = 1/sqrt(Σ w*_i),
z = μ̂ / SE, and I² = max(0, (Q − df) / Q) (Higgins & Thompson 2002, Statistics in Medicine 21(11),
1539-1558, https://doi.org/10.1002/sim.1186).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import as_float_array, check_option, check_probability, check_spread

__all__ = [
    "ALTERNATIVES",
    "VARIANCE_METHODS",
    "ONE_STUDY_NOTE",
    "RandomEffectsResult",
    "PooledTemplates",
    "dersimonian_laird_tau2",
    "random_effects",
    "weat_variance",
    "per_template_weat",
    "pool_templates",
]

from wordbias.stats.permutation import ALTERNATIVES  # the alternatives of every test, named as SciPy names them

#: the within-sample variances of a WEAT effect size offered by :func:`weat_variance`
VARIANCE_METHODS = ("ceat", "hedges_olkin")

#: the note of a random-effects "pooling" of one study (:func:`random_effects`)
ONE_STUDY_NOTE = ("one study: no between-study variance to estimate, so no random-effects interval or p-value; "
                  "the estimate is the study's own (pool two studies or more)")


# --------------------------------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------------------------------

def _array(name: str, values, ndim: int, what: str) -> np.ndarray:
    """``values`` as a finite float64 array of ``ndim`` dimensions, else an error naming ``name``."""
    a = as_float_array(name, values, what=what)
    if a.ndim != ndim:
        raise InvalidParameterError(f"{name} must be {what} ({ndim}-D), not of shape {a.shape}")
    if not np.all(np.isfinite(a)):
        bad = np.argwhere(~np.isfinite(a)).tolist()
        raise InvalidParameterError(f"{name} must be finite; entries {bad} are not")
    return a


def _vector(name: str, values) -> np.ndarray:
    return _array(name, values, 1, "a sequence of numbers")


def _check_studies(effect_sizes, variances) -> tuple[np.ndarray, np.ndarray]:
    y = _vector("effect_sizes", effect_sizes)
    v = _vector("variances", variances)
    if y.shape != v.shape:
        raise InvalidParameterError(f"effect_sizes and variances must have the same length, not {y.size} and {v.size}")
    if y.size < 1:
        raise InvalidParameterError("a random-effects model needs at least 1 effect size, not 0")
    if np.any(v <= 0):
        bad = np.flatnonzero(v <= 0).tolist()
        raise InvalidParameterError(f"variances must be > 0; entries {bad} are not")
    return y, v


def _scores(name: str, scores) -> np.ndarray:
    return _array(name, scores, 2, "an array of scores (templates × words)")


# --------------------------------------------------------------------------------------------------
# the random-effects model
# --------------------------------------------------------------------------------------------------

def dersimonian_laird_tau2(effect_sizes, variances) -> tuple[float, float]:
    """(τ², Q): the DerSimonian & Laird (1986, eq. 8) moment estimator of the between-study variance.

    With w_i = 1/v_i, ȳ_w = Σ w_i y_i / Σ w_i: Q = Σ w_i (y_i − ȳ_w)², C = Σ w_i − Σ w_i² / Σ w_i and
    τ² = max(0, (Q − (k − 1)) / C), truncated at 0 (CEAT's σ²_between, set to 0 when Q < k − 1).

    Parameters
    ----------
    effect_sizes : array_like of float, shape (k,)
        The effect sizes y_i of the studies (finite, at least one).
    variances : array_like of float, shape (k,)
        Their within-study variances v_i (finite, > 0).

    Returns
    -------
    tau2 : float
        The between-study variance τ² (NaN with a single study: one study has no between-study variance to
        estimate).
    q : float
        Cochran's Q.

    Raises
    ------
    InvalidParameterError
        When the arguments are not 1-D finite arrays of the same length k >= 1, or a variance is not > 0.

    See Also
    --------
    random_effects : the pooled estimate with these weights.

    Examples
    --------
    >>> tau2, q = dersimonian_laird_tau2([0.0, 1.0], [0.25, 0.25])
    >>> round(tau2, 6), round(q, 6)
    (0.25, 2.0)
    """
    y, v = _check_studies(effect_sizes, variances)
    return _dl(y, v)


def _dl(y: np.ndarray, v: np.ndarray) -> tuple[float, float]:
    w = 1.0 / v
    sw = w.sum()
    mean_fixed = float(np.dot(w, y) / sw)
    q = float(np.dot(w, (y - mean_fixed) ** 2))
    c = float(sw - np.dot(w, w) / sw)
    df = y.size - 1
    if df == 0:                     # one study: Q = C = 0, and τ² cannot be estimated (not 0: unknown)
        return math.nan, q
    tau2 = max(0.0, (q - df) / c) if c > 0 else 0.0
    return tau2, q


@dataclass(frozen=True)
class RandomEffectsResult:
    """The random-effects pooled effect (DerSimonian & Laird 1986) of ``k`` effect sizes.

    The properties ``tau``, ``df`` = k − 1 and ``q_p_value`` (the χ² p-value of Cochran's Q) derive from the
    fields. A single study (k = 1) is flagged rather than pooled: ``pooled`` is its effect size, and ``se``,
    the interval, ``z``, ``p_value``, ``tau2`` and ``i2`` are NaN, ``note`` says why (:data:`ONE_STUDY_NOTE`).

    Attributes
    ----------
    pooled : float
        The pooled effect μ̂.
    se : float
        Its standard error.
    low, high : float
        The two-sided ``confidence_level`` interval μ̂ ± z_{(1+level)/2}·se.
    z : float
        The z statistic μ̂/se.
    p_value : float
        Its normal p-value under ``alternative`` (CEAT reports the one-sided ``"greater"`` p).
    tau2 : float
        The between-study variance τ².
    q : float
        Cochran's Q.
    i2 : float
        I², the share of the total variability due to heterogeneity, in [0, 1].
    k : int
        The number of studies.
    weights : numpy.ndarray of float
        The random-effects weights 1/(v_i + τ²) (not normalised) of each study, in the order given.
    effect_sizes : numpy.ndarray of float
        The effect sizes of the studies.
    variances : numpy.ndarray of float
        Their within-study variances.
    confidence_level : float, default 0.95
        The confidence level of the interval.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The tail of ``p_value``.
    note : str, default ""
        Why there is no interval (one study), else "".
    """

    pooled: float
    se: float
    low: float
    high: float
    z: float
    p_value: float
    tau2: float
    q: float
    i2: float
    k: int
    weights: np.ndarray = field(repr=False)
    effect_sizes: np.ndarray = field(repr=False)
    variances: np.ndarray = field(repr=False)
    confidence_level: float = 0.95
    alternative: str = "two-sided"
    note: str = ""

    @property
    def tau(self) -> float:
        """τ, the between-study standard deviation."""
        return float(np.sqrt(self.tau2))

    @property
    def df(self) -> int:
        """The degrees of freedom of Cochran's Q, k − 1."""
        return self.k - 1

    @property
    def q_p_value(self) -> float:
        """Pr[χ²_{k−1} ≥ Q], the p-value of Cochran's test of homogeneity."""
        from scipy import stats

        return float(stats.chi2.sf(self.q, self.df))

    def to_frame(self):
        """The pooled result as one table row.

        Returns
        -------
        pandas.DataFrame
            One row with the columns ``pooled``, ``se``, ``low``, ``high``, ``confidence_level``, ``z``,
            ``p_value``, ``alternative``, ``tau2``, ``tau``, ``q``, ``df``, ``q_p_value``, ``i2``, ``k`` and
            ``note``.
        """
        import pandas as pd

        return pd.DataFrame([{"pooled": self.pooled, "se": self.se, "low": self.low, "high": self.high,
                              "confidence_level": self.confidence_level, "z": self.z, "p_value": self.p_value,
                              "alternative": self.alternative, "tau2": self.tau2, "tau": self.tau, "q": self.q,
                              "df": self.df, "q_p_value": self.q_p_value, "i2": self.i2, "k": self.k,
                              "note": self.note or None}])

    def studies_frame(self):
        """One row per study, in the order given.

        Returns
        -------
        pandas.DataFrame
            The columns ``effect_size``, ``variance``, ``weight`` (1/(v_i + τ²)) and ``relative_weight``
            (sums to 1).
        """
        import pandas as pd

        return pd.DataFrame({"effect_size": self.effect_sizes, "variance": self.variances, "weight": self.weights,
                             "relative_weight": self.weights / self.weights.sum()})


def random_effects(effect_sizes, variances, *, confidence_level: float = 0.95,
                   alternative: str = "two-sided") -> RandomEffectsResult:
    """Pool ``effect_sizes`` with within-study ``variances`` by a random-effects model (CEAT's pooling).

    Guo & Caliskan (2021), §"Random-effects model": the combined effect size is the inverse-variance
    weighted mean with weights 1/(v_i + σ²_between), σ²_between being the DerSimonian & Laird (1986)
    estimator (:func:`dersimonian_laird_tau2`); its variance is 1/Σ w*_i; z = μ̂/SE is tested against the
    standard normal (Borenstein et al. 2009, eqs. 12.6-12.13). With equal effect sizes τ² = 0 and the
    result is the fixed-effect (inverse-variance) mean. This is the computation of ``ceat_meta`` in the
    authors' code (github.com/weiguowilliam/CEAT, code/ceat.py, commit 497e295), whose p-value is
    ``alternative="greater"``; the default here is two-sided.

    ``confidence_level`` ∈ (0, 1) gives the two-sided Wald interval μ̂ ± z_{(1+level)/2}·SE (whatever the
    ``alternative``); ``alternative`` ("two-sided", "greater", "less", as SciPy) names the tail of the
    p-value: two-sided 2·Pr[Z ≥ ``|z|``], "greater" Pr[Z ≥ z] (CEAT's), "less" Pr[Z ≤ z].

    Checked first: both are 1-D, finite, of the same length k ≥ 1; every variance > 0. One study (k = 1) is
    flagged, not pooled: a random-effects interval needs τ², and one study has no between-study variance to
    estimate it from (Q = C = 0), so μ̂ = y₁ with no standard error, interval, z or p (NaN), τ² and I² NaN, and
    ``note`` saying so (:data:`ONE_STUDY_NOTE`). Its own within-study interval, y₁ ± z·√v₁, is its
    ``effect_sizes`` and ``variances``; it says nothing of how far another study would differ.

    Parameters
    ----------
    effect_sizes : array_like of float, shape (k,)
        The effect sizes y_i of the studies.
    variances : array_like of float, shape (k,)
        Their within-study variances v_i (> 0).
    confidence_level : float, default 0.95
        The confidence level of the two-sided Wald interval, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The tail of the p-value.

    Returns
    -------
    RandomEffectsResult
        The pooled effect, its interval and p-value, τ², Q, I² and the weights.

    Raises
    ------
    InvalidParameterError
        When the arguments are not 1-D finite arrays of the same length k >= 1, a variance is not > 0, or
        ``confidence_level`` or ``alternative`` is not valid.

    Examples
    --------
    >>> r = random_effects([0.0, 1.0], [0.25, 0.25])
    >>> round(r.pooled, 6), round(r.tau2, 6), round(r.se, 6), round(r.i2, 6)
    (0.5, 0.25, 0.5, 0.5)
    >>> round(r.low, 4), round(r.high, 4), round(r.p_value, 4)
    (-0.48, 1.48, 0.3173)
    >>> one = random_effects([0.8], [0.04])
    >>> one.pooled, one.low, one.p_value, one.tau2, one.k
    (0.8, nan, nan, nan, 1)
    >>> one.note[:52]
    'one study: no between-study variance to estimate, so'
    """
    y, v = _check_studies(effect_sizes, variances)
    level = check_probability("confidence_level", confidence_level)
    alternative = check_option("alternative", alternative, ALTERNATIVES)
    from scipy import stats

    if y.size == 1:
        nan = math.nan
        return RandomEffectsResult(pooled=float(y[0]), se=nan, low=nan, high=nan, z=nan, p_value=nan, tau2=nan,
                                   q=0.0, i2=nan, k=1, weights=np.full(1, nan), effect_sizes=y, variances=v,
                                   confidence_level=level, alternative=alternative, note=ONE_STUDY_NOTE)

    tau2, q = _dl(y, v)
    w = 1.0 / (v + tau2)
    sw = float(w.sum())
    pooled = float(np.dot(w, y) / sw)
    se = float(np.sqrt(1.0 / sw))
    z = pooled / se
    if alternative == "two-sided":
        p = float(min(1.0, 2.0 * stats.norm.sf(abs(z))))
    elif alternative == "greater":
        p = float(stats.norm.sf(z))
    else:
        p = float(stats.norm.cdf(z))
    half = float(stats.norm.ppf(0.5 + level / 2.0)) * se
    df = y.size - 1
    i2 = max(0.0, (q - df) / q) if q > 0 else 0.0
    return RandomEffectsResult(pooled=pooled, se=se, low=pooled - half, high=pooled + half, z=float(z), p_value=p,
                               tau2=float(tau2), q=q, i2=float(i2), k=int(y.size), weights=w, effect_sizes=y,
                               variances=v, confidence_level=level, alternative=alternative)


# --------------------------------------------------------------------------------------------------
# per template: WEAT d and its within-template variance
# --------------------------------------------------------------------------------------------------

def weat_variance(s_x, s_y, *, method: str = "ceat", ddof: int = 1) -> float:
    """The within-sample variance v_i of one WEAT effect size, from the associations s(w, A, B) of X and Y.

    - ``"ceat"`` (default): the variance of s(w, A, B) over w ∈ X ∪ Y (sample variance, ``ddof=1``), i.e.
      the square of the denominator of d. This is what Guo & Caliskan (2021) use as the "in-sample
      variance" v_i of ES_i (their released code, github.com/weiguowilliam/CEAT, code/ceat.py,
      ``effect_size`` returns ``np.std(s, ddof=1) ** 2``; commit 497e295). Note that it is a variance of the
      association scores, not the sampling variance of d: it is on the scale of s (cosines: often ~1e-3
      or smaller) while d is unit-free. With it, Q and I² are dominated by that scale mismatch (I² near 1
      whenever the d's differ at all), τ² comes out close to the plain variance of the d's across
      templates, the weights are then nearly equal and the pooled d is close to their plain mean, with
      SE ≈ sqrt(τ²/k). Read τ² then as "the spread of d across templates", not Q or I² as evidence.
    - ``"hedges_olkin"``: the usual large-sample variance of a standardized mean difference,
      (n_X + n_Y)/(n_X n_Y) + d²/(2(n_X + n_Y)) (Hedges & Olkin 1985, *Statistical Methods for
      Meta-Analysis*, eq. 5.14; Borenstein et al. 2009, eq. 4.20), the sampling variance of d over
      draws of the words, on the scale of d; Q, I² and τ² then separate the spread across templates from
      the noise of drawing few words, as in a textbook meta-analysis.

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of the words of X and of Y (1-D, finite, at least one each).
    method : {"ceat", "hedges_olkin"}, default "ceat"
        The variance (:data:`VARIANCE_METHODS`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the variance (``"ceat"``) or of the standard deviation of d
        (``"hedges_olkin"``).

    Returns
    -------
    float
        The within-sample variance v_i.

    Raises
    ------
    InvalidParameterError
        When ``method`` or ``ddof`` is not valid, or the scores are not 1-D finite arrays.
    DegenerateSetError
        When there are too few scores for a variance, or all scores are equal (up to rounding).

    Examples
    --------
    >>> round(weat_variance([1.0, 0.0], [-1.0, -0.5]), 6)
    0.729167
    >>> round(weat_variance([1.0, 0.0], [-1.0, -0.5], method="hedges_olkin"), 6)
    1.267857
    """
    from wordbias.core.validation import check_ddof
    from wordbias.measures.association.weat import effect_size

    method = check_option("method", method, VARIANCE_METHODS)
    ddof = check_ddof(ddof)
    s_x = _vector("s_x", s_x)
    s_y = _vector("s_y", s_y)
    if s_x.size < 1 or s_y.size < 1 or s_x.size + s_y.size <= ddof:
        raise DegenerateSetError("s_x and s_y need enough words for a variance")
    if method == "ceat":
        pooled = np.concatenate([s_x, s_y])
        var = float(pooled.var(ddof=ddof))
        check_spread(pooled, np.sqrt(var), "all target words have the same association s(w, A, B): the variance is 0")
        return var
    d = effect_size(s_x, s_y, ddof=ddof)
    n_x, n_y = s_x.size, s_y.size
    return float((n_x + n_y) / (n_x * n_y) + d * d / (2.0 * (n_x + n_y)))


def per_template_weat(scores_x, scores_y, *, variance: str = "ceat", ddof: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(d, v): the WEAT effect size and its within-template variance (:func:`weat_variance`) per template.

    ``scores_x`` [templates, n_X] and ``scores_y`` [templates, n_Y] hold one score per word per template:
    s(w, A, B) of each target word from its contextual vector in that template (Caliskan et al. 2017,
    Methods; e.g. :func:`wordbias.measures.association.weat.association` on the vectors of
    :func:`wordbias.models.contextual.word_in_template_embeddings` called with one template at a time, since
    it averages over the templates it is given; CEAT does the same per random sample of contexts), or
    Kurita et al.'s (2019) per-template bias score of each attribute word of A and of B (from
    :func:`wordbias.measures.language_models.mlm.increased_log_probability`, [T, targets, attributes]: the first target's
    score minus the second's, columns of A as ``scores_x``, of B as ``scores_y``), then
    d_t = [mean_X s − mean_Y s] / std_{X∪Y} s within template t.

    Parameters
    ----------
    scores_x : array_like of float, shape (n_templates, n_x)
        One score per word of X (or A) per template.
    scores_y : array_like of float, shape (n_templates, n_y)
        One score per word of Y (or B) per template.
    variance : {"ceat", "hedges_olkin"}, default "ceat"
        The within-template variance (:func:`weat_variance`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d and of the variance.

    Returns
    -------
    d : numpy.ndarray of float, shape (n_templates,)
        The effect size of each template.
    v : numpy.ndarray of float, shape (n_templates,)
        Its within-template variance.

    Raises
    ------
    InvalidParameterError
        When the scores are not 2-D finite arrays with the same number of rows and at least one template
        and one word each, or ``variance`` or ``ddof`` is not valid.
    DegenerateSetError
        When all scores of a template are equal (up to rounding).

    Examples
    --------
    >>> d, v = per_template_weat([[1.0, 0.0], [2.0, 1.0]], [[-1.0, -0.5], [0.0, 0.5]])
    >>> d.round(6).tolist(), v.round(6).tolist()
    ([1.46385, 1.46385], [0.729167, 0.729167])
    """
    from wordbias.core.validation import check_ddof
    from wordbias.measures.association.weat import effect_size

    variance = check_option("variance", variance, VARIANCE_METHODS)
    ddof = check_ddof(ddof)
    sx = _scores("scores_x", scores_x)
    sy = _scores("scores_y", scores_y)
    if sx.shape[0] != sy.shape[0]:
        raise InvalidParameterError(f"scores_x and scores_y must have one row per template each, "
                                    f"not {sx.shape[0]} and {sy.shape[0]} rows")
    if sx.shape[0] < 1 or sx.shape[1] < 1 or sy.shape[1] < 1:
        raise InvalidParameterError("scores_x and scores_y need at least one template and one word each")
    d = np.array([effect_size(a, b, ddof=ddof) for a, b in zip(sx, sy)])
    v = np.array([weat_variance(a, b, method=variance, ddof=ddof) for a, b in zip(sx, sy)])
    return d, v


@dataclass(frozen=True)
class PooledTemplates:
    """Per-template WEAT effect sizes and their random-effects pooling (CEAT).

    Attributes
    ----------
    templates : tuple of str
        The labels of the templates.
    effect_sizes : numpy.ndarray of float
        The effect size d of each template.
    variances : numpy.ndarray of float
        Its within-template variance.
    variance : {"ceat", "hedges_olkin"}
        The variance method (:func:`weat_variance`).
    pooled : RandomEffectsResult
        The random-effects pooling of the templates.
    """

    templates: tuple[str, ...]
    effect_sizes: np.ndarray = field(repr=False)
    variances: np.ndarray = field(repr=False)
    variance: str
    pooled: RandomEffectsResult

    def to_frame(self):
        """One row per template.

        Returns
        -------
        pandas.DataFrame
            The columns ``template``, ``effect_size``, ``variance``, ``weight`` (1/(v + τ²)) and
            ``relative_weight``.
        """
        frame = self.pooled.studies_frame()
        frame.insert(0, "template", list(self.templates))
        return frame


def pool_templates(scores_x, scores_y, *, templates: Sequence[str] | None = None, variance: str = "ceat",
                   ddof: int = 1, confidence_level: float = 0.95, alternative: str = "two-sided") -> PooledTemplates:
    """CEAT on templates: d per template (:func:`per_template_weat`), pooled by :func:`random_effects`.

    ``templates`` labels the rows (default "0", "1", ...); one label per template row. The between-template
    variance is ``result.pooled.tau2``, the spread a single template hides (Guo & Caliskan 2021; Seshadri,
    Pezeshkpour & Singh 2022 on template sensitivity).

    Parameters
    ----------
    scores_x, scores_y : array_like of float, shape (n_templates, n_x) and (n_templates, n_y)
        One score per word of X (or A), and of Y (or B), per template (:func:`per_template_weat`).
    templates : sequence of str, optional
        One label per template row; by default "0", "1", ...
    variance : {"ceat", "hedges_olkin"}, default "ceat"
        The within-template variance (:func:`weat_variance`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d and of the variance.
    confidence_level : float, default 0.95
        The confidence level of the pooled interval.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The tail of the pooled p-value.

    Returns
    -------
    PooledTemplates
        The per-template effect sizes and variances, and their pooling.

    Raises
    ------
    InvalidParameterError
        When the scores, ``templates`` or an option is not valid, or the labels do not match the rows.
    DegenerateSetError
        When all scores of a template are equal (up to rounding).

    Examples
    --------
    >>> r = pool_templates([[1.0, 0.0], [2.0, 1.0], [0.5, 0.0]], [[-1.0, -0.5], [0.0, 0.5], [0.0, 0.2]],
    ...                    templates=["a", "b", "c"])
    >>> r.to_frame()["template"].tolist(), r.pooled.k
    (['a', 'b', 'c'], 3)
    >>> round(r.pooled.tau2, 6)
    0.0
    """
    d, v = per_template_weat(scores_x, scores_y, variance=variance, ddof=ddof)
    if templates is None:
        labels = tuple(str(i) for i in range(d.size))
    else:
        if isinstance(templates, str):
            raise InvalidParameterError(f"templates must be a list of labels, not the string {templates!r}")
        labels = tuple(str(t) for t in templates)
        if len(labels) != d.size:
            raise InvalidParameterError(f"templates must give one label per template row: {d.size} rows, "
                                        f"{len(labels)} labels")
    pooled = random_effects(d, v, confidence_level=confidence_level, alternative=alternative)
    return PooledTemplates(templates=labels, effect_sizes=d, variances=v, variance=variance, pooled=pooled)
