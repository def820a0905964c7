"""The reliability of a bias measure, as Du, Fang & Nguyen (2021) assess it for word embeddings.

Du, Fang & Nguyen (2021), "Assessing the Reliability of Word Embedding Gender Bias Measures", EMNLP,
https://doi.org/10.18653/v1/2021.emnlp-main.785, borrow two kinds of reliability from measurement theory:

* **test-retest reliability** (their §3.1): do bias scores agree across training runs that differ only in the
  random seed? They take the scores of a set of words (the *subjects*) in each of several embeddings (the
  *raters*) and compute the intraclass correlation ICC(2,1): two-way random effects, absolute agreement, one
  rater (Shrout & Fleiss 1979, "Intraclass correlations: uses in assessing rater reliability", *Psychological
  Bulletin* 86(2), https://doi.org/10.1037/0033-2909.86.2.420; McGraw & Wong 1996's ICC(A,1)) —
  :func:`icc_a1`;
* **internal consistency** (their §3.3): do the items a score is built from agree? They score each target word
  with each gender *base pair* (m, f) and compute Cronbach's (1951) alpha over the base pairs (the items, the
  target words the observations), and over the target words (the items, the base pairs the observations) —
  :func:`cronbach_alpha`; and the split-half reliability, the items split at random into two halves, the
  correlation of the halves' scores over the observations stepped up to the whole length by the
  Spearman-Brown formula (Spearman 1910; Brown 1910) — :func:`spearman_brown`, :func:`random_halves`,
  :func:`half_correlation`, :func:`split_half`. A WEAT has no base pairs; :func:`pair_scores` takes each pair (a, b) of an attribute
  word of A and one of B as one, the score of a target word w being cos(w, a) − cos(w, b), so the WEAT's
  s(w, A, B) is the mean of w's item scores.

Both are ratios of variance components: near 1 when the subjects differ far more than the raters (or items)
disagree, near 0 (or negative) when the differences between words are noise.
"""
from __future__ import annotations

import numpy as np

from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import as_float_array, check_finite
from wordbias.core.vectors import cosine_matrix

__all__ = ["icc_a1", "cronbach_alpha", "pair_scores", "spearman_brown", "random_halves", "half_correlation",
           "split_half"]


def _matrix(name: str, scores, *, rows: str, columns: str) -> np.ndarray:
    m = check_finite(name, as_float_array(name, scores, ndim=2))
    if m.shape[0] < 2 or m.shape[1] < 2:
        raise InvalidParameterError(f"{name} needs at least 2 {rows} (rows) and 2 {columns} (columns), "
                                    f"not shape {m.shape}")
    return m


def icc_a1(scores) -> float:
    """ICC(2,1), the test-retest reliability of Du et al. (2021, §3.1): intraclass correlation of
    two-way random effects, absolute agreement, single rater (Shrout & Fleiss 1979, Table 2; McGraw & Wong
    1996, ICC(A,1)).

    With n subjects (rows) and k raters (columns), the mean squares of the two-way analysis of variance are
    MS_R (rows), MS_C (columns) and MS_E (residual), and

        ICC(2,1) = (MS_R − MS_E) / (MS_R + (k − 1) MS_E + k (MS_C − MS_E) / n).

    Parameters
    ----------
    scores : array_like of float, shape (n_subjects, n_raters)
        The score of each subject (a word) by each rater (a training run): finite, at least 2 x 2.

    Returns
    -------
    float
        ICC(2,1): at most 1; 1 when every rater gives every subject the same score; NaN when every score is the
        same (no variance to apportion).

    Raises
    ------
    InvalidParameterError
        When ``scores`` is not a finite 2-D array of at least 2 subjects (rows) by 2 raters (columns).

    Examples
    --------
    Shrout & Fleiss's (1979, Table 4) six targets rated by four judges give ICC(2,1) = 0.29:

    >>> ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> round(icc_a1(ratings), 2)
    0.29
    >>> icc_a1([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])   # the runs agree exactly
    1.0
    """
    x = _matrix("scores", scores, rows="subjects", columns="raters")
    n, k = x.shape
    grand = x.mean()
    ss_rows = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_error = ((x - grand) ** 2).sum() - ss_rows - ss_cols
    ms_r, ms_c, ms_e = ss_rows / (n - 1), ss_cols / (k - 1), ss_error / ((n - 1) * (k - 1))
    denominator = ms_r + (k - 1) * ms_e + k * (ms_c - ms_e) / n
    if denominator <= 0 or not np.isfinite(denominator):
        return float("nan")
    return float((ms_r - ms_e) / denominator)


def cronbach_alpha(scores) -> float:
    """Cronbach's (1951) alpha, the internal consistency of Du et al. (2021, §3.3): how well the items agree.

        alpha = k / (k − 1) · (1 − Σ_i var(item_i) / var(Σ_i item_i))

    over k items (rows), each scored on the same observations (columns), variances with ddof = 1 (Cronbach
    1951, "Coefficient alpha and the internal structure of tests", *Psychometrika* 16(3),
    https://doi.org/10.1007/BF02310555).

    Parameters
    ----------
    scores : array_like of float, shape (n_items, n_observations)
        Each item's score of each observation (e.g. each attribute pair's score of each target word,
        :func:`pair_scores`): finite, at least 2 x 2.

    Returns
    -------
    float
        Alpha: at most 1; negative when the items disagree more than chance; NaN when the total score does not
        vary.

    Raises
    ------
    InvalidParameterError
        When ``scores`` is not finite and 2-D, or has fewer than 2 items (rows) or 2 observations (columns).

    Examples
    --------
    >>> round(cronbach_alpha([[1, 2, 3, 4], [2, 3, 4, 5], [1, 3, 3, 5]]), 3)   # items rank alike
    0.981
    >>> round(cronbach_alpha([[1, 2, 3, 4], [4, 2, 3, 1]]), 3) < 0               # items disagree
    True
    """
    x = _matrix("scores", scores, rows="items", columns="observations")
    k = x.shape[0]
    total = x.sum(axis=0).var(ddof=1)
    if total <= 0:
        return float("nan")
    return float(k / (k - 1) * (1 - x.var(axis=1, ddof=1).sum() / total))


def pair_scores(W, A, B) -> np.ndarray:
    """The score of each word with each attribute pair (a, b), a in A and b in B: cos(w, a) − cos(w, b).

    The items of Du et al.'s (2021, §3.3) internal consistency for a WEAT: each pair plays a gender base pair's
    part, and the mean of a word's pair scores is the WEAT's s(w, A, B) (Caliskan et al. 2017, Methods).

    Parameters
    ----------
    W : array_like of float, shape (n_words, dim)
        The target word vectors.
    A, B : array_like of float, shape (n_a, dim) and (n_b, dim)
        The two attribute sets' vectors.

    Returns
    -------
    numpy.ndarray of float, shape (n_a * n_b, n_words)
        One row per pair (a_i, b_j), in the order i * n_b + j; one column per word.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> pair_scores(W, np.array([[1.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 1.0]])).round(3)
    array([[ 1.   , -1.   ],
           [ 0.293, -0.707]])
    """
    ca = cosine_matrix(W, A)          # (n_words, n_a)
    cb = cosine_matrix(W, B)          # (n_words, n_b)
    return (ca[:, :, None] - cb[:, None, :]).reshape(ca.shape[0], -1).T


def spearman_brown(r, length: float = 2.0):
    """The Spearman-Brown prophecy: the reliability of a test ``length`` times as long as one of reliability r.

        r_SB = L r / (1 + (L − 1) r)

    With ``length=2`` it steps the correlation of two half-tests up to the reliability of the whole test
    (Spearman 1910, "Correlation calculated from faulty data", *British Journal of Psychology* 3(3),
    https://doi.org/10.1111/j.2044-8295.1910.tb00206.x; Brown 1910, ibid.,
    https://doi.org/10.1111/j.2044-8295.1910.tb00207.x): r_SB = 2r / (1 + r).

    Parameters
    ----------
    r : float or array_like of float
        The reliability (a correlation) of the shorter test, in [-1, 1]; NaN passes through.
    length : float, default 2.0
        How many times longer the prophesied test is (> 0).

    Returns
    -------
    float or numpy.ndarray
        The stepped-up reliability (a float for a scalar ``r``); NaN where ``1 + (L − 1) r`` is 0.

    Raises
    ------
    InvalidParameterError
        When ``r`` lies outside [-1, 1] or ``length`` is not a positive finite number.

    Examples
    --------
    >>> spearman_brown(0.5)                     # 2 * 0.5 / 1.5
    0.6666666666666666
    >>> spearman_brown([0.0, 1.0, -0.5]).round(3).tolist()
    [0.0, 1.0, -2.0]
    """
    from wordbias.core.validation import check_real

    length = check_real("length", length, low=0, low_open=True)
    x = as_float_array("r", r)
    if np.any(np.abs(x[~np.isnan(x)]) > 1):
        raise InvalidParameterError(f"r must be a correlation in [-1, 1], not {r!r}")
    denominator = 1 + (length - 1) * x
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(denominator == 0, np.nan, length * x / np.where(denominator == 0, 1, denominator))
    return float(out) if out.ndim == 0 else out


def random_halves(n_items: int, n_splits: int, *, seed: int = 0) -> np.ndarray:
    """Random splits of ``n_items`` items into two halves: a boolean mask per split, True for the first half.

    Each split is a seeded random permutation of the items, the first ``n_items // 2`` of which form the first
    half (with an odd count the second half has the one item more).

    Parameters
    ----------
    n_items : int
        The number of items (at least 2).
    n_splits : int
        The number of splits (at least 1).
    seed : int, default 0
        The seed of the permutations: the same seed gives the same splits.

    Returns
    -------
    numpy.ndarray of bool, shape (n_splits, n_items)
        Row k: True where item i is in split k's first half.

    Raises
    ------
    InvalidParameterError
        When a count is below its least or the seed is invalid.

    Examples
    --------
    >>> m = random_halves(5, 3, seed=1)
    >>> m.shape, m.sum(axis=1).tolist()
    ((3, 5), [2, 2, 2])
    """
    from wordbias.core.validation import check_int, check_seed

    n_items = check_int("n_items", n_items, min=2)
    n_splits = check_int("n_splits", n_splits, min=1)
    rng = np.random.default_rng(check_seed("seed", seed))
    first = np.zeros((n_splits, n_items), dtype=bool)
    for k in range(n_splits):
        first[k, rng.permutation(n_items)[: n_items // 2]] = True
    return first


def half_correlation(first, second) -> float:
    """The split-half reliability of paired half scores: per split, Pearson's r between the two halves' scores over
    the observations; the r averaged over the splits, then stepped up by :func:`spearman_brown` (averaging the
    stepped-up values instead would let one split with r near -1 drive the mean far below -1: 2r / (1 + r) has a
    pole at r = -1). A negative value means the halves disagree: there is no internal consistency to speak of.

    Parameters
    ----------
    first, second : array_like of float, shape (n_splits, n_observations)
        Each split's score of each observation on its first and on its second half (a 1-D array is one split):
        finite, at least 3 observations.

    Returns
    -------
    float
        2 r̄ / (1 + r̄), r̄ the mean r over the splits whose halves both vary (NaN when none does).

    Raises
    ------
    InvalidParameterError
        When the arrays differ in shape, are not finite, or have fewer than 3 observations.

    Examples
    --------
    >>> round(half_correlation([1.0, 2.0, 3.0, 4.0], [1.1, 1.9, 3.2, 3.9]), 4)
    0.9967
    """
    a = check_finite("first", np.atleast_2d(as_float_array("first", first)))
    b = check_finite("second", np.atleast_2d(as_float_array("second", second)))
    if a.shape != b.shape or a.ndim != 2:
        raise InvalidParameterError(f"first and second must have the same shape (n_splits, n_observations), not "
                                    f"{a.shape} and {b.shape}")
    if a.shape[1] < 3:
        raise InvalidParameterError(f"a split-half correlation needs at least 3 observations, not {a.shape[1]}")
    a, b = a - a.mean(axis=1, keepdims=True), b - b.mean(axis=1, keepdims=True)
    norms = np.sqrt((a ** 2).sum(axis=1) * (b ** 2).sum(axis=1))
    varies = norms > 0
    if not varies.any():
        return float("nan")
    r = np.clip((a * b).sum(axis=1)[varies] / norms[varies], -1.0, 1.0)
    return float(spearman_brown(float(np.mean(r))))


def split_half(scores, *, n_splits: int = 100, seed: int = 0) -> float:
    """The split-half reliability of an item-score matrix with the Spearman-Brown correction.

    The items (rows) are split at random into two halves ``n_splits`` times (:func:`random_halves`); each half
    scores each observation by the mean of its items; Pearson's r between the halves over the observations is
    averaged over the splits and stepped up to the whole length, 2r / (1 + r) (:func:`half_correlation`).

    Parameters
    ----------
    scores : array_like of float, shape (n_items, n_observations)
        Each item's score of each observation: finite, at least 2 items and 3 observations.
    n_splits : int, default 100
        The random splits.
    seed : int, default 0
        The seed of the splits: the same seed gives the same value.

    Returns
    -------
    float
        The mean Spearman-Brown corrected split-half correlation (NaN when no split's halves vary).

    Raises
    ------
    InvalidParameterError
        When ``scores`` is not a finite 2-D array of at least 2 items and 3 observations, or an option is invalid.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.normal(size=50)
    >>> items = truth + 0.5 * rng.normal(size=(8, 50))         # eight noisy measurements of one trait
    >>> round(split_half(items, n_splits=20, seed=0), 2)
    0.96
    """
    x = _matrix("scores", scores, rows="items", columns="observations")
    halves = random_halves(x.shape[0], n_splits, seed=seed)
    first = np.stack([x[m].mean(axis=0) for m in halves])
    second = np.stack([x[~m].mean(axis=0) for m in halves])
    return half_correlation(first, second)
