"""What each measure is: its range, where "no bias" sits, whether it has a test, what its coverage counts, and
how training runs combine.

One :class:`MeasureSpec` per value of the tidy schema's ``measure`` column (:data:`wordbias.core.tidy.MEASURES`),
in :data:`CATALOGUE`. Every view and every combination reads it rather than guessing from a name:

* a measure without a test (``test is None``: a level such as DirectBias, MAC, RNSB's divergence or the
  indirect bias) never gets a p-value, combined or adjusted (:func:`has_test`);
* a bounded measure's interval stays in its range (:func:`inside_range`, :func:`logit_scale`);
* the heat map colours each value by its distance from "no bias" on the measure's own scale
  (:func:`bias_distance`): ECT's rho = 1 is no bias, WEAT's d = 0 is no bias, and a measure with no null value
  (MAC) is not coloured;
* coverage counts the sets named in ``coverage_of``; for a sentence or template measure (SEAT, the language-model
  scores) those are the test words slotted into the sentences, never the sentences.

The module is a leaf: it imports only :mod:`wordbias.core`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from wordbias.core.errors import InvalidParameterError

__all__ = ["MeasureSpec", "CATALOGUE", "spec", "has_test", "inside_range", "logit_scale", "from_logit_scale",
           "bias_distance", "BIAS_DIRECTIONS", "COMBINE_RULES", "SIGN_BLIND"]

#: how a value departs from "no bias" towards more bias: ``"either"`` (both signs are bias, the sign says towards
#: which pole), ``"above"`` (larger is more bias) or ``"below"`` (smaller is more bias)
BIAS_DIRECTIONS = ("either", "above", "below")
#: the measures whose value is the same for a bias and its mirror image (the two poles exchanged: *he* for *she*):
#: a level of bias, or a fit of the targets' distances, with no sign to tell which pole the bias favours. A planted
#: bias's validity check correlates them with its strength, not its direction
#: (:mod:`wordbias.battery.validity`)
SIGN_BLIND = frozenset({"direct_bias", "ect", "rnsb", "mac", "indirect_bias"})
#: how training runs combine: ``"mean and t"`` (the mean over runs with the interval over words and runs, and the
#: combined t test), ``"mean"`` (the mean and its interval, no p: a measure without a test), ``"statistic"`` (no
#: effect size: the statistic per run in the note, no interval). A measure with a test combines by "mean" when its
#: permutation null has no fixed value for the mean over runs to be tested against (ECT's rho: 1 is no bias, but
#: the null's rho is not 1)
COMBINE_RULES = ("mean and t", "mean", "statistic")


@dataclass(frozen=True)
class MeasureSpec:
    """What one measure is.

    Attributes
    ----------
    measure : str
        The tidy ``measure`` value.
    name : str
        Its name for a reader.
    reference : str
        The paper that defines it, with its DOI or URL.
    effect_size_name : str or None
        The name of its effect size (None: it has only a statistic).
    low, high : float
        Its range (``-inf``/``inf`` where unbounded on that side). WEAT's d (and SEAT's, SC-WEAT's) lies in
        (-2, 2) when the target sets are of equal size, as Caliskan et al.'s balancing makes them; with unequal
        sets (``balance_targets="none"``) its bound is sqrt(N (N - 1) / (n_x n_y)), N = n_x + n_y, which can pass 2.
    no_bias : float or None
        The value that means no bias (None: a level with no null value, to be compared between embeddings only).
    more_bias : str
        One of :data:`BIAS_DIRECTIONS`.
    scale : float or None
        The distance from ``no_bias`` that counts as the most bias the measure can show (the heat map's full
        colour); None for an unbounded measure, which a view scales by the largest value it shows.
    test : str or None
        The null hypothesis of its test; None when it has no test (descriptive).
    coverage_of : str
        Which words its coverage counts.
    combine : str
        One of :data:`COMBINE_RULES`.
    function : str
        The dotted name of the function that measures it and returns the one
        :class:`~wordbias.result.Result`.
    """

    measure: str
    name: str
    reference: str
    effect_size_name: str | None
    low: float
    high: float
    no_bias: float | None
    more_bias: str
    scale: float | None
    test: str | None
    coverage_of: str
    combine: str
    function: str

    @property
    def bounded(self) -> bool:
        """Whether both ends of the range are finite."""
        return math.isfinite(self.low) and math.isfinite(self.high)


_INF = math.inf
_WEAT_NULL = "the target words' labels are exchangeable (permutations of X and Y)"
_WEAT_SETS = "the words of X, Y, A and B found in the vocabulary"
_SENTENCE_SETS = ("the test words slotted into the sentences (a sentence counts only when the encoder sees its "
                  "test word), never the sentences")

_STEREOSET = "Nadeem, Bethke & Reddy 2021, doi:10.18653/v1/2021.acl-long.416"
_STEREOSET_SETS = "the examples scored"

#: every measure, keyed by the tidy ``measure`` value
CATALOGUE: dict[str, MeasureSpec] = {s.measure: s for s in (
    MeasureSpec("weat", "WEAT effect size", "Caliskan et al. 2017, doi:10.1126/science.aal4230", "d",
                -2.0, 2.0, 0.0, "either", 2.0, _WEAT_NULL, _WEAT_SETS, "mean and t",
                function="wordbias.measures.association.measurement.weat"),
    MeasureSpec("wefat", "WEFAT correlation", "Caliskan et al. 2017, doi:10.1126/science.aal4230", "r",
                -1.0, 1.0, 0.0, "either", 1.0, "no correlation between the association and the property (t test)",
                "the words of W, A and B found in the vocabulary", "mean and t",
                function="wordbias.measures.association.measurement.wefat"),
    MeasureSpec("direction", "direction cosine", "racial bias report; Bolukbasi et al. 2016, arXiv:1607.06520",
                "cos", -1.0, 1.0, 0.0, "either", 1.0,
                "the words' labels are exchangeable within each pair of poles (permutations)",
                "the words of T1, T2, A1 and A2 found in the vocabulary", "mean and t",
                function="wordbias.measures.directions.direction_permutation.direction_test"),
    MeasureSpec("direct_bias", "DirectBias_1", "Bolukbasi et al. 2016, section 5.2, arXiv:1607.06520",
                "direct_bias", 0.0, 1.0, 0.0, "above", 1.0, None,
                "the professions N and the definitional pairs found in the vocabulary", "mean",
                function="wordbias.measures.directions.direction.direct_bias_test"),
    MeasureSpec("ripa", "RIPA", "Ethayarajh et al. 2019, doi:10.18653/v1/P19-1166", "ripa",
                -_INF, _INF, 0.0, "either", None, "the pairs' signs are exchangeable (sign-flip test)",
                "the words and the definitional pairs found in the vocabulary", "mean and t",
                function="wordbias.measures.directions.ripa.ripa"),
    MeasureSpec("ube", "UBE significant cells", "Swinger et al. 2019, doi:10.1145/3306618.3314270", None,
                0.0, _INF, 0.0, "above", None, "rotation-invariant null over the cells, Simes' test",
                "the names sampled from the vocabulary", "statistic",
                function="wordbias.measures.enumeration.ube.ube"),
    MeasureSpec("mlm_log_prob", "log-probability bias score", "Kurita et al. 2019, doi:10.18653/v1/W19-3823", "d",
                -_INF, _INF, 0.0, "either", None, "the attribute words' labels are exchangeable (permutations)",
                _SENTENCE_SETS, "mean and t",
                function="wordbias.measures.language_models.contextual.mlm_log_prob"),
    MeasureSpec("contextual_weat", "contextual WEAT", "Kurita et al. 2019, doi:10.18653/v1/W19-3823", "d",
                -2.0, 2.0, 0.0, "either", 2.0, _WEAT_NULL, _SENTENCE_SETS, "mean and t",
                function="wordbias.measures.language_models.contextual.contextual_weat"),
    MeasureSpec("sc_weat", "single-category WEAT", "Caliskan et al. 2017, doi:10.1126/science.aal4230", "d",
                -2.0, 2.0, 0.0, "either", 2.0, "the attribute words' labels are exchangeable (permutations of A, B)",
                "the words of W, A and B found in the vocabulary", "mean and t",
                function="wordbias.measures.association.scweat.sc_weat"),
    MeasureSpec("seat", "SEAT effect size", "May et al. 2019, doi:10.18653/v1/N19-1063", "d",
                -2.0, 2.0, 0.0, "either", 2.0, _WEAT_NULL, _SENTENCE_SETS, "mean and t",
                function="wordbias.measures.association.seat.seat"),
    MeasureSpec("ect", "ECT Spearman rho", "Dev & Phillips 2019, https://proceedings.mlr.press/v89/dev19a.html",
                "rho", -1.0, 1.0, 1.0, "below", 2.0,
                "the target words' labels are exchangeable (permutations of T1 and T2)",
                "the words of T1, T2 and A found in the vocabulary", "mean",
                function="wordbias.measures.sets.ect.ect"),
    MeasureSpec("rnd", "relative norm distance", "Garg et al. 2018, doi:10.1073/pnas.1720347115", "rnd",
                -_INF, _INF, 0.0, "either", None,
                "the target words' labels are exchangeable (permutations of T1 and T2)",
                "the words of T1, T2 and A found in the vocabulary", "mean and t",
                function="wordbias.measures.sets.rnd.rnd"),
    MeasureSpec("rnsb", "RNSB divergence", "Sweeney & Najafian 2019, doi:10.18653/v1/P19-1162", "rnsb",
                0.0, _INF, 0.0, "above", None, None,
                "the words of T1, T2, A_negative and A_positive found in the vocabulary", "mean",
                function="wordbias.measures.sets.rnsb.rnsb"),
    MeasureSpec("mac", "MAC", "Manzini et al. 2019, doi:10.18653/v1/N19-1062", "mac",
                0.0, 2.0, None, "below", None, None,
                "the words of the target and attribute sets found in the vocabulary", "mean",
                function="wordbias.measures.sets.mac.mac"),
    MeasureSpec("semaxis", "SemAxis score difference", "An et al. 2018, doi:10.18653/v1/P18-1228", "semaxis",
                -2.0, 2.0, 0.0, "either", 2.0,
                "the target words' labels are exchangeable (permutations of T1 and T2)",
                "the words of T1, T2, A_pos and A_neg found in the vocabulary", "mean and t",
                function="wordbias.measures.sets.semaxis.semaxis"),
    MeasureSpec("crows_pairs", "CrowS-Pairs share stereotyped",
                "Nangia et al. 2020, doi:10.18653/v1/2020.emnlp-main.154", "share stereotyped", 0.0, 1.0, 0.5,
                "either", 0.5, "the model prefers either sentence of a pair with probability 1/2 (exact binomial)",
                "the sentence pairs scored", "mean",
                function="wordbias.measures.language_models.crows_pairs.crows_pairs"),
    MeasureSpec("crows_pairs_difference", "CrowS-Pairs difference between two scorings",
                "Nangia et al. 2020, doi:10.18653/v1/2020.emnlp-main.154", "difference in share stereotyped",
                -1.0, 1.0, 0.0, "either", 0.5,
                "the two scorings' discordant pairs split evenly (exact McNemar test)", "the sentence pairs scored",
                "mean", function="wordbias.measures.language_models.crows_pairs.paired_difference"),
    MeasureSpec("stereoset_ss", "StereoSet stereotype score (SS)", _STEREOSET, "SS", 0.0, 100.0, 50.0, "either",
                50.0, "the model prefers the stereotype or the anti-stereotype with probability 1/2 (exact binomial)",
                _STEREOSET_SETS, "mean", function="wordbias.measures.language_models.stereoset.stereoset_ss"),
    # LMS and ICAT are levels of a model (a perfect, unbiased model scores 100), not departures from a null
    MeasureSpec("stereoset_lms", "StereoSet language-modelling score (LMS)", _STEREOSET, "LMS", 0.0, 100.0, None,
                "below", None, None, _STEREOSET_SETS, "mean",
                function="wordbias.measures.language_models.stereoset.stereoset_lms"),
    MeasureSpec("stereoset_icat", "StereoSet idealised CAT score (ICAT)", _STEREOSET, "ICAT", 0.0, 100.0, None,
                "below", None, None, _STEREOSET_SETS, "mean",
                function="wordbias.measures.language_models.stereoset.stereoset_icat"),
    MeasureSpec("bec_pro", "BEC-Pro association vs share of women",
                "Bartl, Nissim & Gatt 2020, https://aclanthology.org/2020.gebnlp-1.1", "spearman correlation",
                -1.0, 1.0, 0.0, "either", 1.0,
                "no correlation between the professions' associations and their share of women (t approximation)",
                "the professions with both a share of women and sentences scored", "mean",
                function="wordbias.measures.language_models.bec_pro.bec_pro"),
    MeasureSpec("indirect_bias", "indirect bias", "Bolukbasi et al. 2016, section 5.2, arXiv:1607.06520", "beta",
                -_INF, _INF, 0.0, "either", None, None, "the words V found in the vocabulary", "mean",
                function="wordbias.measures.directions.indirect_bias.mean_indirect_bias"),
)}


def spec(measure: str) -> MeasureSpec:
    """The catalogue's entry for ``measure``.

    Parameters
    ----------
    measure : str
        A tidy ``measure`` value.

    Returns
    -------
    MeasureSpec
        Its entry.

    Raises
    ------
    InvalidParameterError
        For a measure the catalogue does not hold, naming the ones it does.

    Examples
    --------
    >>> spec("ect").no_bias
    1.0
    """
    try:
        return CATALOGUE[measure]
    except (KeyError, TypeError):
        raise InvalidParameterError(f"measure {measure!r} is not in the catalogue; the measures are "
                                    f"{', '.join(sorted(CATALOGUE))}") from None


def has_test(measure: str) -> bool:
    """Whether ``measure`` has a test (a p-value means something for it).

    Parameters
    ----------
    measure : str
        A tidy ``measure`` value, one the catalogue holds (:func:`spec`).

    Returns
    -------
    bool
        True when the catalogue gives it a null hypothesis.

    Raises
    ------
    InvalidParameterError
        As :func:`spec`.

    Examples
    --------
    >>> has_test("weat"), has_test("direct_bias")
    (True, False)
    """
    return spec(measure).test is not None


def inside_range(measure: str, value: float) -> bool:
    """Whether ``value`` lies in the measure's range (NaN counts as inside: it is missing, not wrong).

    Parameters
    ----------
    measure : str
        A tidy ``measure`` value.
    value : float
        A value of it.

    Returns
    -------
    bool
        False when ``value`` lies outside the range.

    Examples
    --------
    >>> inside_range("ect", 1.15), inside_range("ect", 0.25)
    (False, True)
    """
    s = spec(measure)
    return not (value < s.low or value > s.high)


def logit_scale(measure: str, values) -> np.ndarray:
    """Values of a measure bounded on one side or both mapped onto the whole real line: ``log((x - low) / (high -
    x))`` for a bounded range (Fisher's z, doubled, for a range of -1 to 1) and ``log(x - low)`` for one bounded
    below only; an unbounded measure's values are returned as they are. An interval computed on this scale and
    mapped back by :func:`from_logit_scale` stays in the range.

    Parameters
    ----------
    measure : str
        A tidy ``measure`` value.
    values : array-like of float
        Values inside its range.

    Returns
    -------
    numpy.ndarray
        The values on the logit scale (infinite at an end of the range).

    Examples
    --------
    >>> float(from_logit_scale("ect", logit_scale("ect", [0.5]))[0])
    0.5
    """
    s, x = spec(measure), np.asarray(values, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if s.bounded:
            return np.log((x - s.low) / (s.high - x))
        if math.isfinite(s.low):
            return np.log(x - s.low)
        if math.isfinite(s.high):
            return -np.log(s.high - x)
    return x


def from_logit_scale(measure: str, values) -> np.ndarray:
    """The inverse of :func:`logit_scale`.

    Parameters
    ----------
    measure : str
        A tidy ``measure`` value.
    values : array-like of float
        Values on the logit scale.

    Returns
    -------
    numpy.ndarray
        The values on the measure's own scale, inside its range.

    Examples
    --------
    >>> float(from_logit_scale("rnsb", [0.0])[0])
    1.0
    """
    s, z = spec(measure), np.asarray(values, dtype=float)
    if s.bounded:
        return s.low + (s.high - s.low) / (1.0 + np.exp(-z))
    if math.isfinite(s.low):
        return s.low + np.exp(z)
    if math.isfinite(s.high):
        return s.high - np.exp(-z)
    return z


def bias_distance(measure: str, values, *, scale: float | None = None) -> np.ndarray:
    """How far each value sits from "no bias", on the measure's own scale: 0 is no bias, +-1 the most the measure
    can show (``spec.scale``, or ``scale`` for an unbounded measure, e.g. the largest distance a view shows). The
    sign is the value's side of "no bias" for a measure where either side is bias; for a one-sided measure it is
    positive towards more bias (ECT's rho = 0.5 gives +0.25: a quarter of the way from no bias to the most).
    NaN for a measure with no null value (MAC) or a missing value.

    Parameters
    ----------
    measure : str
        A tidy ``measure`` value.
    values : array-like of float
        Its values.
    scale : float, optional
        The distance counted as full colour when the catalogue gives none (an unbounded measure).

    Returns
    -------
    numpy.ndarray
        The distances, clipped to [-1, 1].

    Examples
    --------
    >>> bias_distance("ect", [1.0, 0.5, -1.0]).tolist()
    [0.0, 0.25, 1.0]
    >>> bias_distance("weat", [1.0, -2.0]).tolist()
    [0.5, -1.0]
    """
    s, x = spec(measure), np.asarray(values, dtype=float)
    if s.no_bias is None:
        return np.full(x.shape, np.nan)
    full = s.scale if s.scale is not None else scale
    if full is None or not (full > 0):
        raise InvalidParameterError(f"{s.name} is unbounded: give the distance that counts as full colour "
                                    f"(scale > 0), not {scale!r}")
    d = x - s.no_bias
    if s.more_bias == "below":
        d = -d
    return np.clip(d / full, -1.0, 1.0) + 0.0              # + 0.0: no negative zero
