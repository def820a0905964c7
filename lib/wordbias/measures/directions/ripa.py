"""RIPA, the relational inner product association of Ethayarajh, Duvenaud & Hirst (2019), with per-pair scores.

Ethayarajh, K., Duvenaud, D. & Hirst, G. (2019). "Understanding Undesirable Word Embedding Associations". In
*Proceedings of ACL 2019*, pp. 1696-1705. https://doi.org/10.18653/v1/P19-1166 (arXiv:1908.06361). Its RIPA
section defines, for a relation vector b obtained from ONE base pair (x, y), the association of a word w with
that relation as the inner product of w with the unit vector of b:

    β(w; b) = ⟨w, b / ‖b‖⟩,   b = x − y                      (the definition of RIPA)

RIPA is defined for one relation vector, and its value depends on the base pair chosen (WEFE's documentation
of its RIPA also warns that the variance across base pairs tends to be high); Zhang, Sneyd & Stevenson (2020,
"Robustness and Reliability of Gender Bias Assessment in Word Embeddings: The Role of Base Pairs",
AACL-IJCNLP) and Du, Fang & Nguyen (2021, "Assessing the Reliability of Word Embedding Gender Bias Measures",
EMNLP) show that scores built on gendered base pairs are not robust to that choice. So when several base
pairs are given this module reports the score for EACH pair (:func:`ripa_scores`, a words x pairs matrix),
their mean, and their spread across pairs (standard deviation and range, :class:`RipaResult`), rather than
one number averaged over pairs as WEFE does.

The test (:func:`sign_flip_test`, used by :func:`ripa`) is a one-sample randomisation (sign-flip) test
(Fisher 1935, *The Design of Experiments*; Pitman 1937, "Significance tests which may be applied to
samples from any populations", JRSS Suppl. 4(1)): under the null hypothesis that the words have no association
with the relation, the orientation of a base pair is arbitrary (writing (y, x) for (x, y) only flips the sign
of b, hence of every β(w; b)), so the per-pair scores are symmetric about 0 and each sign pattern is equally
likely. Its units are the base pairs by default (``units="pairs"``: the mean over the words of β for each pair,
the source of variation those papers point to; exact over the 2^n patterns for n ≤ ``exact_max_n`` pairs),
or the words (``units="words"``: the per-word mean over pairs, as sweater's and PsychWordVec's one-sample test
for SC-WEAT flips the signs of per-word scores). It is exact in the sense of a permutation test when the sign
of each unit can be flipped independently; with pairs sharing words (("he", "she"), ("his", "her")) the pair
scores are correlated and the p-value is only approximate, as the reports say.

``normalize`` (:data:`RIPA_NORMALIZE`): the paper's inner product is on the vectors as given (``"none"``, the
default). ``"all"`` (or ``True``) is WEFE's ``normalize=True`` (Badilla et al. 2020, doi:10.24963/ijcai.2020/60;
``wefe/preprocessing.py``, ``get_embeddings_from_query``): every vector, the scored words and both words of each
base pair, is scaled to unit length before b = x − y is formed, so b's direction changes too. ``"words"`` scales
only the scored words, so that β(w; b) is the cosine of w with the relation vector of the raw pair. WEFE's RIPA
(``wefe/metrics/RIPA.py``) takes the base pairs as its two target sets, paired by position, and the scored words as
its attribute set; its ``result`` is :attr:`RipaResult.mean`, and its per-word ``std`` is
:attr:`RipaResult.per_word_sd` (the population std across pairs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core import costs as _costs
from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, LowCoverageWarning
from wordbias.core.identity import apply_pair_policy, identity_notes, with_identity
from wordbias.core.validation import as_float_array, check_int, check_option, check_seed
from wordbias.options import Resampling, Words

__all__ = [
    "ALTERNATIVES",
    "RIPA_UNITS",
    "RIPA_NORMALIZE",
    "SignFlipTest",
    "RipaResult",
    "DEFAULT_RESAMPLING",
    "DEFAULT_WORDS",
    "mean_interval",
    "ripa_sets",
    "relation_vector",
    "ripa_scores",
    "sign_flip_test",
    "ripa",
    "interval_fields",
    "warn_again",
]

from wordbias.stats.permutation import ALTERNATIVES  # the alternatives of every test, named as SciPy names them

#: what :func:`ripa`'s sign-flip test flips: the base pairs or the words
RIPA_UNITS = ("pairs", "words")

#: what :func:`ripa`'s ``normalize`` scales to unit length first: nothing (the paper), every vector (WEFE's
#: ``normalize=True``; ``True`` means this), or the scored words only
RIPA_NORMALIZE = ("none", "all", "words")

#: RIPA's resampling options when the call gives none: ``n_permutations`` random sign patterns when the units are too
#: many to enumerate, ``n_resamples`` bootstrap resamples of the interval of the mean
DEFAULT_RESAMPLING = Resampling()
#: RIPA's word options when the call gives none: the words looked up as given (no case folding)
DEFAULT_WORDS = Words(case_fold=False)

#: up to this many units the sign-flip test enumerates all 2^n sign patterns
SIGN_FLIP_EXACT_MAX_N = 20

#: relative tolerance (times the largest |value|) under which two means count as tied
_TIE_RTOL = 1e-10


def relation_vector(x, y) -> np.ndarray:
    """b / ‖b‖ with b = x − y, the unit relation vector of one base pair (Ethayarajh et al. 2019, RIPA).

    Parameters
    ----------
    x, y : array-like of shape (d,)
        The vectors of the two words of the base pair (x, y).

    Returns
    -------
    numpy.ndarray of shape (d,)
        The unit vector of x − y.

    Raises
    ------
    DegenerateSetError
        If x and y are the same (or a non-finite) vector: x − y has no direction.
    InvalidParameterError
        If x or y is not a 1-D vector of numbers.

    Examples
    --------
    >>> relation_vector([3.0, 0.0], [0.0, 4.0])
    array([ 0.6, -0.8])
    """
    b = as_float_array("x", x, what="a word vector") - as_float_array("y", y, what="a word vector")
    norm = np.linalg.norm(b)
    if b.ndim != 1:
        raise InvalidParameterError(f"a base pair needs two 1-D vectors, got shape {b.shape}")
    if not (np.isfinite(norm) and norm > 0):
        raise DegenerateSetError("the two words of a base pair have the same (or non-finite) vectors: x - y has "
                                 "no direction")
    return b / norm


def ripa_scores(W, X, Y) -> np.ndarray:
    """β(w; b_j) = ⟨w, (x_j − y_j)/‖x_j − y_j‖⟩ for every word w and every base pair j (Ethayarajh et al. 2019).

    Vectors are used as given (the paper's inner product is on the raw vectors; normalise the rows first for
    cosines).

    Parameters
    ----------
    W : array-like of shape (n_words, d)
        The vectors of the words, one row per word (a 1-D array is one word).
    X, Y : array-like of shape (n_pairs, d)
        The vectors of the first and of the second word of each base pair, one row per pair.

    Returns
    -------
    numpy.ndarray of shape (n_words, n_pairs)
        β of every word (rows) with every base pair (columns).

    Raises
    ------
    InvalidParameterError
        If ``X`` and ``Y`` differ in shape, or an input is not an array of numbers.
    DegenerateSetError
        If the two words of a pair have the same vector.

    Examples
    --------
    >>> ripa_scores([[1.0, 2.0]], [[3.0, 0.0], [1.0, 0.0]], [[0.0, 4.0], [0.0, 0.0]])   # 0.6 - 1.6; 1.0
    array([[-1.,  1.]])
    """
    W, X, Y = (np.atleast_2d(as_float_array(k, v, what="a set of word vectors (one row per word)"))
               for k, v in (("W", W), ("X", X), ("Y", Y)))
    if X.shape != Y.shape:
        raise InvalidParameterError(f"X and Y (the two words of each pair) must have the same shape: {X.shape} "
                                    f"vs {Y.shape}")
    B = np.stack([relation_vector(x, y) for x, y in zip(X, Y)])
    return W @ B.T


@dataclass(frozen=True)
class SignFlipTest:
    """A one-sample sign-flip (randomisation) test of the mean of ``values`` against 0.

    Attributes
    ----------
    statistic : float
        The mean of the values.
    p_value : float
        The p-value of ``alternative``.
    alternative : {"greater", "less", "two-sided"}
        The tail of ``p_value``.
    p_method : {"exact", "monte-carlo"}
        ``"exact"``: all 2^n sign patterns; ``"monte-carlo"``: ``n_resamples`` random patterns, with the
        add-one rule p = (1 + B)/(1 + R).
    n : int
        The number of values (units).
    n_resamples : int
        The sign patterns counted: 2^n when exact.
    n_extreme : int
        The patterns at least as extreme as the observed one.
    """

    statistic: float
    p_value: float
    alternative: str
    p_method: str
    n: int
    n_resamples: int
    n_extreme: int


def sign_flip_test(values, *, alternative: str = "two-sided", n_resamples: int = 10_000, seed=0,
                   exact_max_n: int = SIGN_FLIP_EXACT_MAX_N, max_seconds: float = _costs.MAX_SECONDS) -> SignFlipTest:
    """Sign-flip test of H0: the distribution of ``values`` is symmetric about 0 (Fisher 1935; Pitman 1937).

    The statistic is the mean. Each of the 2^n sign patterns ε is equally likely under H0; the p-value is
    the fraction of patterns with mean(ε·v) ≥ mean(v) (``"greater"``), ≤ (``"less"``) or ``|mean(ε·v)| ≥
    |mean(v)|`` (``"two-sided"``), ties (within 1e-10 relative) counting as extreme, so the observed pattern
    always counts and p > 0. With n ≤ ``exact_max_n`` every pattern is enumerated; beyond, ``n_resamples``
    seeded random patterns are drawn and p = (1 + B)/(1 + R) (the add-one rule, as
    :func:`wordbias.stats.permutation.subset_sum_tail_mc`); a number of draws estimated to take more than
    ``max_seconds`` or too much memory is refused before any draw
    (:func:`wordbias.core.costs.check_resampling_cost`).

    Parameters
    ----------
    values : array-like of float
        The values (e.g. per-pair or per-word RIPA scores); flattened.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The tail of the test.
    n_resamples : int, default 10_000
        Random sign patterns drawn when n > ``exact_max_n``; an integer >= 1.
    seed : int or numpy.random.Generator, default 0
        Seeds the random patterns.
    exact_max_n : int, default SIGN_FLIP_EXACT_MAX_N
        Up to this many values every pattern is enumerated; an integer in [0, 26].
    max_seconds : float, default MAX_SECONDS
        The time budget of the random patterns.

    Returns
    -------
    SignFlipTest
        The mean, p-value, method and counts.

    Raises
    ------
    DegenerateSetError
        If there are no values.
    InvalidParameterError
        If a value is NaN or infinite, or an option is out of range.
    TooCostlyError
        If the random patterns are estimated to exceed ``max_seconds`` or the memory limit.

    Examples
    --------
    Three positive values: of the 8 sign patterns only the observed one has a mean as large, and its mirror
    image one as small:

    >>> t = sign_flip_test([1.0, 2.0, 3.0], alternative="greater")
    >>> t.p_method, t.n_extreme, t.n_resamples, t.p_value
    ('exact', 1, 8, 0.125)
    >>> sign_flip_test([1.0, 2.0, 3.0]).p_value
    0.25
    """
    v = as_float_array("values", values, what="a list of numbers").ravel()
    check_option("alternative", alternative, ALTERNATIVES)
    n_resamples = check_int("n_resamples", n_resamples, min=1)
    exact_max_n = check_int("exact_max_n", exact_max_n, min=0, max=26)
    check_seed("seed", seed)
    if v.size < 1:
        raise DegenerateSetError("the sign-flip test needs at least one value")
    if not np.all(np.isfinite(v)):
        raise InvalidParameterError("the sign-flip test's values contain NaN or infinity")
    n = v.size
    if n > exact_max_n:             # random patterns: n multiply-adds each, a float kept per pattern
        _costs.check_resampling_cost(f"a sign-flip test of {n} values", "n_resamples", n_resamples, 2 * n, 8.0,
                                     max_seconds=max_seconds, fixed_bytes=8.0 * 3 * 4096 * n)
    observed = float(v.mean())
    tol = _TIE_RTOL * max(float(np.abs(v).max()), 1e-300)
    if n <= exact_max_n:
        means = np.empty(2 ** n)
        for start in range(0, 2 ** n, 2 ** 16):                           # blocks of 65,536 patterns
            codes = np.arange(start, min(start + 2 ** 16, 2 ** n), dtype=np.int64)
            signs = 1.0 - 2.0 * ((codes[:, None] >> np.arange(n)) & 1)    # pattern 0 = all +
            means[start:start + codes.size] = signs @ v / n
        p_method, total = "exact", 2 ** n
    else:
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        means = np.empty(n_resamples)
        for start in range(0, n_resamples, 4096):
            stop = min(start + 4096, n_resamples)
            signs = rng.choice(np.array([-1.0, 1.0]), size=(stop - start, n))
            means[start:stop] = signs @ v / n
        p_method, total = "monte-carlo", n_resamples
    if alternative == "greater":
        extreme = int(np.count_nonzero(means >= observed - tol))
    elif alternative == "less":
        extreme = int(np.count_nonzero(means <= observed + tol))
    else:
        extreme = int(np.count_nonzero(np.abs(means) >= abs(observed) - tol))
    p = extreme / total if p_method == "exact" else (extreme + 1) / (total + 1)
    return SignFlipTest(statistic=observed, p_value=min(1.0, p), alternative=alternative, p_method=p_method,
                        n=n, n_resamples=total, n_extreme=extreme)


@dataclass(frozen=True)
class RipaResult:
    """RIPA of a list of words against one or more base pairs (Ethayarajh et al. 2019, RIPA).

    ``scores[i, j]`` is β(words[i]; b_j) for base pair ``pairs[j]``. The per-pair score of the word list is
    the mean over the words (:attr:`per_pair`); :attr:`mean`, :attr:`sd` (sample, ddof=1; NaN for one pair)
    and :attr:`range` summarise it across pairs. ``test`` is the sign-flip test over ``test.n`` units
    (``units``). ``missing_words`` and ``missing_pairs`` say what was dropped.

    Attributes
    ----------
    words : tuple of str
        The words scored (those found in the embedding).
    pairs : tuple of (str, str)
        The base pairs used.
    scores : numpy.ndarray of shape (len(words), len(pairs))
        β(words[i]; b_j).
    units : {"pairs", "words"}
        What the sign-flip test flipped.
    test : SignFlipTest
        The sign-flip test.
    missing_words : tuple of str, default ()
        The words the embedding lacks.
    missing_pairs : tuple of (str, str), default ()
        The base pairs dropped because the embedding lacks a word of them.
    normalize : {"none", "all", "words"}, default "none"
        What was scaled to unit length before scoring (:data:`RIPA_NORMALIZE`).
    """

    words: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    scores: np.ndarray = field(repr=False)
    units: str
    test: SignFlipTest
    missing_words: tuple[str, ...] = ()
    missing_pairs: tuple[tuple[str, str], ...] = ()
    normalize: str = "none"

    @property
    def per_pair(self) -> np.ndarray:
        """The mean over the words of β(w; b_j), one value per base pair."""
        return self.scores.mean(axis=0)

    @property
    def per_word(self) -> np.ndarray:
        """The mean over the base pairs of β(w; b_j), one value per word."""
        return self.scores.mean(axis=1)

    @property
    def per_word_sd(self) -> np.ndarray:
        """The population standard deviation (ddof = 0) across base pairs of β(w; b_j), one value per word: WEFE's
        ``word_values[w]["std"]``."""
        return self.scores.std(axis=1)

    @property
    def mean(self) -> float:
        """The mean of β over words and pairs."""
        return float(self.scores.mean())

    @property
    def sd(self) -> float:
        """The sample standard deviation of the per-pair scores across base pairs (NaN for one pair)."""
        return float(self.per_pair.std(ddof=1)) if self.per_pair.size > 1 else float("nan")

    @property
    def range(self) -> tuple[float, float]:
        """(smallest, largest) per-pair score."""
        return float(self.per_pair.min()), float(self.per_pair.max())

    @property
    def p_value(self) -> float:
        return self.test.p_value

    def to_frame(self):
        """The scores as a table, one row per base pair.

        Returns
        -------
        pandas.DataFrame
            Columns ``pair`` (``"x - y"``) and ``score`` (the mean over the words), then one column per word.
        """
        import pandas as pd

        frame = pd.DataFrame(self.scores.T, columns=list(self.words))
        frame.insert(0, "score", self.per_pair)
        frame.insert(0, "pair", [f"{a} - {b}" for a, b in self.pairs])
        return frame

    def summary(self) -> dict:
        """A flat dict for one table row.

        Returns
        -------
        dict
            ``n_words``, ``n_pairs``, ``mean``, ``sd_pairs``, ``min_pair``, ``max_pair``, ``p_value``,
            ``alternative``, ``p_method`` and ``units``.
        """
        lo, hi = self.range
        return {"n_words": len(self.words), "n_pairs": len(self.pairs), "mean": self.mean, "sd_pairs": self.sd,
                "min_pair": lo, "max_pair": hi, "p_value": self.test.p_value, "alternative": self.test.alternative,
                "p_method": self.test.p_method, "units": self.units}


def _normalization(normalize) -> str:
    """``normalize`` as one of :data:`RIPA_NORMALIZE`: False is ``"none"``, True ``"all"`` (WEFE's meaning)."""
    if isinstance(normalize, (bool, np.bool_)):
        return "all" if normalize else "none"
    check_option("normalize", normalize, RIPA_NORMALIZE)
    return normalize


def mean_interval(values, *, name: str, of: str, resampling: Resampling):
    """(interval, note): the bootstrap interval of the mean of ``values`` (one sample, :func:`scipy.stats.bootstrap`
    with ``resampling``'s resamples, level, method and seed), or (None, why) when there are fewer than 3 values,
    they are all equal, or ``n_resamples`` is 0 (None, None).

    Parameters
    ----------
    values : array-like of float
        The values.
    name : str
        The statistic's name in the interval.
    of : str
        What the values are, e.g. ``"the 10 base pairs"``: the interval's ``resampled``.
    resampling : Resampling
        The bootstrap's options.

    Returns
    -------
    tuple
        (:class:`~wordbias.stats.resampling.BootstrapInterval` or None, the note or None).

    Examples
    --------
    >>> ci, note = mean_interval([1.0, 2.0, 4.0, 8.0], name="mean", of="x", resampling=Resampling(n_resamples=200))
    >>> bool(1 <= ci.low < 3.75 < ci.high <= 8), note
    (True, None)
    """
    import warnings

    from scipy import stats as _sps

    from wordbias.stats.resampling import bootstrap_interval

    v = np.asarray(values, dtype=np.float64)
    r = resampling
    if not r.n_resamples:
        return None, None
    if v.size < 3 or np.ptp(v) == 0:
        why = f"{v.size} value(s)" if v.size < 3 else "the values are all equal"
        return None, f"no bootstrap interval: {why} of {of}"
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _sps.bootstrap((v,), np.mean, n_resamples=r.n_resamples, confidence_level=r.confidence_level,
                             method=r.ci_method, vectorized=True, rng=np.random.default_rng(r.seed))
    return bootstrap_interval(name, float(v.mean()), res, r.confidence_level, r.ci_method, r.n_resamples, (of,)), None


def _look_up(embedding, N, pairs, *, normalize: str, words: Words):
    """(words found, pairs found, scores, case folded, identity check) of :func:`ripa`; the words and pairs with
    a vector not their own treated as ``words.shared_vectors`` says
    (:func:`wordbias.core.identity.apply_pair_policy`)."""
    from wordbias import embeddings

    fold = (not embeddings.is_cased(embedding)) if words.case_fold is None else words.case_fold
    identity, kept, pairs = apply_pair_policy(embedding, {"N": N}, pairs, words.shared_vectors, case_fold=fold)
    N = kept["N"]
    ws = lookup.word_set(embedding, N, name="words", on_missing=words.on_missing, case_fold=fold)
    pv = lookup.pair_vectors(embedding, pairs, name="base pairs", on_missing=words.on_missing, case_fold=fold)
    W, X, Y = lookup.set_matrix(embedding, ws.words, "words"), pv.A, pv.B
    if normalize != "none":
        W = W / np.linalg.norm(W, axis=1, keepdims=True)
    if normalize == "all":
        X, Y = (lookup.set_matrix(embedding, [p[i] for p in pv.pairs], "base pairs") for i in (0, 1))
        X, Y = X / np.linalg.norm(X, axis=1, keepdims=True), Y / np.linalg.norm(Y, axis=1, keepdims=True)
    try:
        scores = ripa_scores(W, X, Y)
    except DegenerateSetError as err:
        raise DegenerateSetError(f"base pairs {list(pv.pairs)}: {err}") from None
    return ws, pv, scores, fold, identity


def ripa_sets(N, pairs, *, fold: bool, missing_words=(), missing_pairs=(), used=None,
              names: tuple[str, str] = ("words", "base pairs")) -> tuple:
    """The word sets of a RIPA (:class:`~wordbias.result.SetCoverage`): ``"N"``, the words scored, and
    ``"pairs"``, the base pairs written ``"x/y"`` (a pair counts as found when both its words are).

    Parameters
    ----------
    N : sequence of str
        The words asked for.
    pairs : sequence of (str, str)
        The base pairs asked for.
    fold : bool
        Whether the words were lower-cased.
    missing_words, missing_pairs : sequence, default ()
        The words and the pairs missing from the vocabulary.
    used : (sequence of str, sequence of (str, str)), optional
        The words and pairs used (default: those asked less those missing).
    names : (str, str), default ("words", "base pairs")
        The display names of the two sets.

    Returns
    -------
    tuple of SetCoverage
        The two sets.

    Examples
    --------
    >>> n, p = ripa_sets(["Nurse", "zebra"], [("he", "she"), ("his", "her")], fold=True, missing_words=["zebra"],
    ...                  missing_pairs=[("his", "her")])
    >>> n.text(), p.text(), p.used, p.missing
    ('N 1/2', 'pairs 1/2', ('he/she',), ('his/her',))
    """
    from wordbias.result import SetCoverage

    def f(w):
        return w.lower() if fold else w

    def slash(ps):
        return tuple(f"{f(a)}/{f(b)}" for a, b in ps)

    asked_w, asked_p, gone_p = tuple(f(w) for w in N), slash(pairs), slash(missing_pairs)
    used_w, used_p = used if used is not None else (
        [w for w in asked_w if w not in missing_words], [p for p in asked_p if p not in gone_p])
    return (SetCoverage("N", names[0], asked_w, tuple(used_w), tuple(missing_words)),
            SetCoverage("pairs", names[1], asked_p, slash(used_p) if used is not None else tuple(used_p),
                        gone_p))


def interval_fields(interval, resampling: Resampling, of: str) -> dict:
    """The :class:`~wordbias.result.Result` fields of an interval from :func:`mean_interval` (NaN, "none" and 0
    resamples without one).

    Parameters
    ----------
    interval : BootstrapInterval or None
        The interval, or None when there is none.
    resampling : Resampling
        The options it was made with (its level and seed are reported).
    of : str
        What was resampled, for ``ci_method`` (e.g. "the words").

    Returns
    -------
    dict
        ``ci_low``, ``ci_high``, ``ci_level``, ``interval``, ``ci_method``, ``effect_size_se``, ``n_resamples``
        and ``seed``.

    Examples
    --------
    >>> ci, _ = mean_interval([1.0, 2.0, 4.0, 8.0], name="mean", of="x", resampling=Resampling(n_resamples=200))
    >>> interval_fields(ci, Resampling(n_resamples=200), "the words")["ci_method"]
    'BCa 95%, 200 resamples of the words'
    >>> interval_fields(None, Resampling(), "the words")["ci_method"]
    'none'
    """
    return dict(
        ci_low=interval.low if interval else math.nan, ci_high=interval.high if interval else math.nan,
        ci_level=resampling.confidence_level, interval=interval,
        ci_method=(f"{interval.method} {interval.confidence_level:.0%}, {interval.n_resamples:,} resamples of {of}"
                   if interval else "none"),
        effect_size_se=interval.standard_error if interval else math.nan,
        n_resamples=resampling.n_resamples if interval else 0,
        seed=resampling.seed if isinstance(resampling.seed, int) else 0)


def warn_again(m, *, stacklevel: int = 2) -> None:
    """Give the warnings a measured result kept, and a LowCoverageWarning when sets ran on too few words.

    Parameters
    ----------
    m : wordbias.result.Result
        The result: its ``warnings`` are given again, and a :class:`~wordbias.core.errors.LowCoverageWarning`
        names its ``flagged`` sets (if any) under its ``title``.
    stacklevel : int, default 2
        As :func:`warnings.warn` takes it, counted from the caller (2: the caller's caller).

    Examples
    --------
    >>> import warnings
    >>> from types import SimpleNamespace
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_again(SimpleNamespace(title="RIPA", warnings=(), flagged=("N 1/9",)))
    >>> str(caught[0].message)
    'RIPA ran on too few of its words: N 1/9 (words in the vocabulary/asked)'
    """
    import warnings

    for w in m.warnings:
        warnings.warn(w.category(w.message), stacklevel=stacklevel + 1)
    if m.flagged:
        warnings.warn(LowCoverageWarning(f"{m.title} ran on too few of its words: {', '.join(m.flagged)} (words "
                                         "in the vocabulary/asked)"), stacklevel=stacklevel + 1)


def ripa(embedding, N: Sequence[str], pairs: Sequence[Sequence[str]], *, units: str = "pairs",
         alternative: str = "two-sided", normalize: bool | str = False, title: str | None = None, test: str = "",
         resampling: Resampling | None = None, words: Words | None = None,
         max_seconds: float = _costs.MAX_SECONDS, warn: bool = True):
    """RIPA of the words ``N`` against each base pair of ``pairs``, measured once: the mean of β over words and
    pairs with a bootstrap interval, its spread across pairs, and a sign-flip test.

    β(w; b) = ⟨w, b/‖b‖⟩, b = x − y for each base pair (x, y) (Ethayarajh, Duvenaud & Hirst 2019, ACL,
    https://doi.org/10.18653/v1/P19-1166). A positive score means w lies towards x. ``normalize`` scales
    vectors to unit length first (the paper uses the raw vectors, the default): ``True`` or ``"all"`` every
    vector, words and base pairs, as WEFE's ``normalize=True``; ``"words"`` the scored words only (β is then the
    cosine of w with the raw pair's relation vector). The test (:func:`sign_flip_test`) flips the signs of the
    per-pair scores (``units="pairs"``: with one pair it cannot reject, p = 1 two-sided) or of the per-word scores
    (``units="words"``); the interval is a bootstrap of the mean over the same units (:func:`mean_interval`).
    Words and pairs are looked up by :func:`wordbias.core.lookup.word_set` and
    :func:`~wordbias.core.lookup.pair_vectors` (unknown ones dropped with a warning, or ``on_missing="raise"``).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    N : sequence of str
        The words to score (set ``"N"``).
    pairs : sequence of (str, str)
        The base pairs (x, y) (set ``"pairs"``); a positive score means a word lies towards x.
    units : {"pairs", "words"}, default "pairs"
        What the sign-flip test flips and the bootstrap resamples: the per-pair scores (mean over the words) or
        the per-word scores (mean over the pairs).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The tail of the test; the two-sided p is always given too.
    normalize : bool or {"none", "all", "words"}, default False
        What to scale to unit length first (:data:`RIPA_NORMALIZE`): False or ``"none"``, nothing (the paper);
        True or ``"all"``, every vector, the words and both words of each base pair (WEFE's ``normalize=True``);
        ``"words"``, the scored words only.
    title : str, optional
        The title; by default ``"RIPA of the words on the base pairs"``.
    test : str, default ""
        An id kept in the result.
    resampling : Resampling, optional
        ``n_permutations``: the random sign patterns when there are too many units to enumerate; ``n_resamples``:
        the bootstrap resamples of the interval (0 for none), with its ``confidence_level`` and ``ci_method``;
        ``seed``: the seed of both. None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        Case folding (None: fold for an uncased vocabulary), unknown words and pairs (``on_missing``), the words
        whose vector is not their own (``shared_vectors``: a word, or a pair with one, flagged, left out or
        refused) and the low-coverage thresholds; None: :data:`DEFAULT_WORDS` (the words as given).
    max_seconds : float, default MAX_SECONDS
        The time budget of the sign-flip test.
    warn : bool, default True
        Give the warnings (missing words, low coverage); False keeps them in the result only.

    Returns
    -------
    wordbias.result.Result
        The mean β (``effect_size``) with its interval, p one- and two-sided, the coverage of the words and the
        pairs; ``result`` is the :class:`RipaResult` (the scores, their summaries across pairs and the test).

    Raises
    ------
    InvalidParameterError
        If an option is out of range.
    DegenerateSetError
        If no word or pair is left, or the two words of a base pair have the same vector.
    KeyError
        With ``on_missing="raise"``, if the embedding lacks a word.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["he", "she", "man", "woman", "nurse", "pilot"],
    ...                       np.array([[1, 0], [0, 1], [2, 0], [0, 2], [1, 3], [3, 1]], dtype=np.float32))
    >>> r = ripa(kv, ["nurse", "pilot"], [("he", "she"), ("man", "woman")], units="words", warn=False)
    >>> np.round(r.result.scores, 4)          # (1 - 3)/sqrt(2), (3 - 1)/sqrt(2): the same for both pairs
    array([[-1.4142, -1.4142],
           [ 1.4142,  1.4142]])
    >>> r.effect_size, r.result.sd, r.p_value, r.coverage
    (0.0, 0.0, 1.0, 'N 2/2; pairs 2/2')
    """
    import warnings

    from wordbias.catalogue import spec
    from wordbias.core.tidy import coverage
    from wordbias.core.validation import check_bool
    from wordbias.measures.sets.set_measures import options
    from wordbias.result import Caught, Result

    check_option("units", units, RIPA_UNITS)
    normalize = _normalization(normalize)
    check_option("alternative", alternative, ALTERNATIVES)
    resampling, words = options(resampling, DEFAULT_WORDS if words is None else words, DEFAULT_RESAMPLING)
    warn = check_bool("warn", warn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ws, pv, scores, fold, identity = _look_up(embedding, N, pairs, normalize=normalize, words=words)
    values = scores.mean(axis=0) if units == "pairs" else scores.mean(axis=1)
    flip = dict(n_resamples=resampling.n_permutations, seed=resampling.seed, max_seconds=max_seconds)
    one = sign_flip_test(values, alternative=alternative, **flip)
    two = one if alternative == "two-sided" else sign_flip_test(values, alternative="two-sided", **flip)
    r = RipaResult(words=ws.words, pairs=pv.pairs, scores=scores, units=units, test=one, missing_words=ws.missing,
                   missing_pairs=tuple(p for p, _ in pv.missing), normalize=normalize)
    of = f"the {values.size} {'base pairs' if units == 'pairs' else 'words'}"
    interval, no_interval = mean_interval(values, name="ripa", of=of, resampling=resampling)
    sets = with_identity(ripa_sets(N, pairs, fold=fold, missing_words=ws.missing, missing_pairs=r.missing_pairs,
                                   used=(ws.words, pv.pairs)), identity, words.shared_vectors)
    flagged = coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=words.min_words,
                       min_fraction=words.min_fraction).low
    low, high = r.range
    first = r.pairs[0][0] if r.pairs else "the first words"
    notes = (no_interval, f"sign-flip test over {'the base pairs' if units == 'pairs' else 'the words'}",
             f"spread across pairs: sd {r.sd:.3f}, range [{low:.3f}, {high:.3f}]",
             f"positive = towards the pairs' first words ({first}, ...)")
    m = Result(
        measure="ripa", test=test, title=title or "RIPA of the words on the base pairs",
        statistic_name=f"mean beta over {units}",
        statistic=r.mean, effect_size_name=spec("ripa").effect_size_name, effect_size=r.mean,
        **interval_fields(interval, resampling, of), p_value=one.p_value,
        alternative=alternative, p_method=one.p_method, p_two_sided=two.p_value, p_values={one.p_method: one.p_value},
        n_permutations=one.n_resamples, sets=sets, flagged=flagged,
        warnings=tuple(Caught(w.category, str(w.message)) for w in caught),
        notes=tuple(n for n in notes if n) + identity_notes(identity), result=r)
    if warn:
        warn_again(m, stacklevel=2)
    return m
