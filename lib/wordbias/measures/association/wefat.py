"""The Word Embedding Factual Association Test (WEFAT) of Caliskan, Bryson & Narayanan (2017), Methods.

One set of target words W, two attribute sets A and B, and a real-valued property p_w of each target (the
percentage of women in an occupation, or among the people with a name): each word's normalized association
s(w, A, B) (:func:`normalized_association`) is regressed against p_w (:func:`regress`, :func:`wefat`). The
supplementary's name-likeness filter drops the names farthest from the centroid of the name vectors
(:func:`name_likeness_filter`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as _sps

from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.core.validation import (
    as_float_array,
    check_bool,
    check_disjoint,
    check_finite,
    check_option,
    check_real,
    check_spread,
    degenerate_spread,
    float_eps,
)
from wordbias.core.vectors import cosine_matrix, unit_rows
from wordbias.measures.association.weat import (
    MIN_ATTRIBUTE_SIZE,
    WordSet,
    check_ddof,
    check_targets_not_attributes,
    vector_eps,
)

__all__ = ["WefatResult", "normalized_association", "centroid_distance", "name_likeness_filter", "regress",
           "power_of_two_scaled", "wefat"]

#: smallest target set W after unknown words (and words without a property) are dropped
MIN_WORDS = 3


def normalized_association(W, A, B, ddof: int = 1, *, input_eps: float | None = None) -> np.ndarray:
    """The normalized association s(w, A, B) of each target vector with two attribute sets (Methods, WEFAT).

    s(w, A, B) = [mean_{a∈A} cos(w, a) − mean_{b∈B} cos(w, b)] / std-dev_{x∈A∪B} cos(w, x) for every row w
    of W, with the sample standard deviation (``ddof=1``) by default.

    Parameters
    ----------
    W : array_like of float, shape (n_words, dim)
        The target word vectors, one row per word.
    A, B : array_like of float, shape (n_a, dim) and (n_b, dim)
        The vectors of the two attribute sets.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation over A ∪ B: 1 (sample) or 0 (population).
    input_eps : float, optional
        The precision of the vectors (:func:`wordbias.measures.association.weat.vector_eps`); default their dtype's. A
        word's cosines within :func:`wordbias.core.validation.spread_tolerance` of each other (scale 1: each
        cosine is off by up to about 2·``input_eps``) are equal up to rounding.

    Returns
    -------
    numpy.ndarray of float, shape (n_words,)
        The normalized s(w, A, B), divided by the std over A ∪ B, for each row w of ``W``.

    Raises
    ------
    DegenerateSetError
        When a vector is zero or not finite, or a target word has the same cosine (up to rounding) with
        every attribute word.
    InvalidParameterError
        When ``ddof`` is not 0 or 1, or the sets are not 2-D arrays of the same dimension.

    See Also
    --------
    wordbias.measures.association.weat.association : the unnormalized association of the WEAT.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.6, 0.8]])
    >>> A = np.array([[1.0, 0.0], [0.8, 0.6]])
    >>> B = np.array([[0.0, 1.0], [0.6, 0.8]])
    >>> normalized_association(W, A, B).round(4)
    array([ 1.3887, -0.6599])
    >>> normalized_association(W, A, B, ddof=0).round(4)
    array([ 1.6036, -0.762 ])
    """
    return _normalized(W, A, B, check_ddof(ddof), input_eps)[0]


def _normalized(W, A, B, ddof: int, input_eps: float | None) -> tuple[np.ndarray, np.ndarray]:
    """(s, sd): :func:`normalized_association` and each word's standard deviation of its cosines."""
    input_eps = float_eps(W, A, B) if input_eps is None else check_real("input_eps", input_eps, low=0)
    cos_a = cosine_matrix(W, A)
    cos_b = cosine_matrix(W, B)
    pooled = np.concatenate([cos_a, cos_b], axis=1)
    sd = pooled.std(axis=1, ddof=ddof)
    rounding = dict(input_eps=input_eps, scale=1.0)                    # cosines: rounding relative to 1
    flat = np.flatnonzero(degenerate_spread(sd, pooled, axis=1, **rounding))      # equal up to rounding
    if flat.size:
        i = int(flat[0])
        check_spread(pooled[i], sd[i], f"a target word (row {i}) has the same cosine with every attribute word: "
                                       f"s(w, A, B) undefined", **rounding)
    return (cos_a.mean(axis=1) - cos_b.mean(axis=1)) / sd, sd


def centroid_distance(V, metric: str = "euclidean") -> np.ndarray:
    """Distance of each row of V to the centroid of all rows.

    The distance says how "name-like" a name vector is (Supplementary, Materials and Methods).
    ``metric="euclidean"``: ‖v − mean(V)‖. ``metric="cosine"``: 1 − cos(v, mean of the unit rows).

    Parameters
    ----------
    V : array_like of float, shape (n_words, dim)
        The vectors, one row per word.
    metric : {"euclidean", "cosine"}, default "euclidean"
        The distance.

    Returns
    -------
    numpy.ndarray of float, shape (n_words,)
        The distance of each row to the centroid.

    Raises
    ------
    ValueError
        When ``metric`` is neither "euclidean" nor "cosine".
    DegenerateSetError
        With ``metric="cosine"``, when a row is zero or not finite.

    Examples
    --------
    >>> V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [5.0, 5.0]])
    >>> centroid_distance(V).round(4)
    array([1.9039, 1.9039, 1.0607, 4.5962])
    >>> centroid_distance(V[:2], metric="cosine").round(4)
    array([0.2929, 0.2929])
    """
    V = np.asarray(V, dtype=np.float64)
    if metric == "euclidean":
        return np.linalg.norm(V - V.mean(axis=0), axis=1)
    if metric == "cosine":
        U = unit_rows(V)
        c = U.mean(axis=0)
        return 1.0 - U @ (c / np.linalg.norm(c))
    raise ValueError(f"metric must be 'euclidean' or 'cosine', not {metric!r}")


def name_likeness_filter(words: Sequence[str], V, drop_fraction: float = 0.2,
                         metric: str = "euclidean") -> tuple[list[str], list[str]]:
    """Split ``words`` into (kept, dropped): drop the ``drop_fraction`` farthest from the name centroid.

    This is the name-likeness filter of the supplementary (:func:`centroid_distance`). The number dropped is
    ``round(drop_fraction * n)``; ties in distance keep the earlier word.

    Parameters
    ----------
    words : sequence of str
        The words (names), one per row of ``V``.
    V : array_like of float, shape (n_words, dim)
        Their vectors.
    drop_fraction : float, default 0.2
        The fraction of the words to drop, in [0, 1).
    metric : {"euclidean", "cosine"}, default "euclidean"
        The distance to the centroid (:func:`centroid_distance`).

    Returns
    -------
    kept : list of str
        The words kept, in their order in ``words``.
    dropped : list of str
        The words dropped, in their order in ``words``.

    Raises
    ------
    ValueError
        When ``drop_fraction`` is outside [0, 1), ``V`` does not have one row per word, or ``metric`` is not
        a distance.

    Examples
    --------
    >>> V = np.array([[1.0, 0.1], [0.9, 0.2], [1.0, 0.0], [0.8, 0.1], [-1.0, 3.0]])
    >>> name_likeness_filter(["ann", "bob", "cid", "dee", "eve"], V, drop_fraction=0.2)
    (['ann', 'bob', 'cid', 'dee'], ['eve'])
    """
    words = list(words)
    if not 0 <= drop_fraction < 1:
        raise ValueError("drop_fraction must be in [0, 1)")
    if len(words) != len(V):
        raise ValueError("one vector per word is needed")
    n_drop = int(round(drop_fraction * len(words)))
    order = np.argsort(centroid_distance(V, metric), kind="stable")
    keep = set(order[: len(words) - n_drop].tolist())
    return ([w for i, w in enumerate(words) if i in keep], [w for i, w in enumerate(words) if i not in keep])


@dataclass(frozen=True)
class WefatResult:
    """Per-word scores and the regression of the property on them.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per word used, with the columns ``word``, ``s`` (the normalized association) and ``property``.
    W : WordSet
        The target set; its ``missing`` lists the words not in the embedding or without a property value.
    A, B : WordSet
        The attribute sets.
    pearson_r : float
        Pearson's correlation of the property with s(w, A, B).
    p_value : float
        The two-sided p-value of ``pearson_r``.
    slope, intercept : float
        The least-squares line of the property on s(w, A, B).
    spearman_r : float
        Spearman's rank correlation.
    spearman_p : float
        The two-sided p-value of ``spearman_r``.
    dropped_by_filter : tuple of str
        The words dropped by the name-likeness filter (empty without one).
    """

    table: pd.DataFrame = field(repr=False)  # word, s, property (one row per word used)
    W: WordSet
    A: WordSet
    B: WordSet
    pearson_r: float
    p_value: float
    slope: float
    intercept: float
    spearman_r: float
    spearman_p: float
    dropped_by_filter: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """The number of target words used (the rows of ``table``)."""
        return len(self.table)


def power_of_two_scaled(values) -> tuple[np.ndarray, int]:
    """(``values`` · 2^−e, e): the values brought to ``max |value|`` in [0.5, 1) by a power of two.

    Multiplying by a power of two is exact in binary floating point (short of overflow and subnormals), and
    every step of a correlation (means, deviations, their products and sums, a square root) then scales exactly:
    Pearson's r and its p are the same to the last bit on the scaled values, while a property near 1e155,
    whose squares overflow to infinity (or one near 1e-160, whose squares lose their digits), gets the r it has
    at any other scale.

    Parameters
    ----------
    values : array_like of float
        Finite values.

    Returns
    -------
    scaled : numpy.ndarray of float
        ``values`` · 2^−e.
    e : int
        The exponent (0 when every value is 0).

    Examples
    --------
    >>> scaled, e = power_of_two_scaled([3e155, -1e155])
    >>> scaled.round(3).tolist(), e
    ([0.699, -0.233], 517)
    """
    v = np.asarray(values, dtype=np.float64)
    top = float(np.max(np.abs(v), initial=0.0))
    e = int(np.frexp(top)[1]) if top > 0 and np.isfinite(top) else 0
    return np.ldexp(v, -e), e


def regress(s, prop, *, input_eps: float | None = None, scale: float | None = None) -> dict:
    """Least-squares line of ``prop`` on ``s``, Pearson's ρ with its two-sided p, and Spearman's ρ.

    Both are brought to unit scale by a power of two first (:func:`power_of_two_scaled`: exact, so r and p are
    those of the values given, bit for bit), so that a property of any magnitude (1e155: its squares would
    overflow) gives the r and p it has at any other; slope and intercept are scaled back (±inf where they lie
    beyond the float range: a property near 1e308 over scores that span 0.1). Scores or a property
    equal up to rounding (:func:`wordbias.core.validation.check_spread` of their range) leave the correlation
    undefined, as exactly equal ones.

    Parameters
    ----------
    s : array_like of float
        The normalized associations s(w, A, B) of the target words (:func:`normalized_association`).
    prop : array_like of float
        The property p_w of each word, in the same order.
    input_eps, scale : float, optional
        The precision of the vectors the scores come from and the magnitude it is relative to, for the rounding
        level of the scores (:func:`wordbias.core.validation.spread_tolerance`; :func:`wefat` passes its
        vectors' precision and ``max (1 + |s|)/sd``, sd each word's spread of cosines). Default: the scores' own.

    Returns
    -------
    dict
        ``pearson_r``, ``p_value`` (two-sided, of Pearson's ρ), ``slope``, ``intercept``, ``spearman_r``
        and ``spearman_p``, each a float.

    Raises
    ------
    DegenerateSetError
        When there are fewer than 3 words, or the property or the scores are all equal, up to rounding (the
        correlation is undefined).
    InvalidParameterError
        When ``s`` or ``prop`` is not a 1-D list of finite numbers, or they differ in length.

    Examples
    --------
    >>> r = regress([0.1, 0.2, 0.3, 0.4], [10.0, 25.0, 30.0, 41.0])
    >>> round(r["pearson_r"], 4), round(r["p_value"], 4), round(r["slope"], 3), round(r["intercept"], 3)
    (0.983, 0.017, 98.0, 2.0)
    >>> big = regress([0.1, 0.2, 0.3, 0.4], [10e150, 25e150, 30e150, 41e150])
    >>> round(big["pearson_r"], 4), round(big["p_value"], 4), f"{big['slope']:.3g}"
    (0.983, 0.017, '9.8e+151')
    """
    eps = float_eps(s) if input_eps is None else check_real("input_eps", input_eps, low=0)
    scale = None if scale is None else check_real("scale", scale, low=0)
    s = check_finite("s", as_float_array("s", s, ndim=1, what="a 1-D list of association scores"), "scores")
    prop = check_finite("prop", as_float_array("prop", prop, ndim=1, what="a 1-D list of property values"),
                        "property values")
    if s.shape != prop.shape:
        raise InvalidParameterError(f"s and prop must hold one value per target word each, not {s.size} and "
                                    f"{prop.size}")
    if s.size < MIN_WORDS:
        raise DegenerateSetError(f"WEFAT needs at least {MIN_WORDS} target words with a property, got {s.size}")
    (s2, e_s), (p2, e_p) = power_of_two_scaled(s), power_of_two_scaled(prop)   # exact: no square overflows
    if np.ptp(p2) == 0:                                # on the scaled values: no range overflows
        raise DegenerateSetError(f"the property is the same ({prop[0]:g}) for all {prop.size} target words kept: "
                                 "a correlation with it is undefined (give a property that varies)")
    check_spread(p2, np.ptp(p2), f"the property is the same up to rounding for all {prop.size} target words kept "
                                 f"(from {prop.min():.17g} to {prop.max():.17g}): a correlation with it is undefined")
    check_spread(s, np.ptp(s), "every target word has the same association s(w, A, B): a correlation is undefined",
                 input_eps=eps, scale=scale)
    lr = _sps.linregress(s2, p2)
    sp = _sps.spearmanr(s, prop)
    with np.errstate(over="ignore"):                   # a slope beyond the float range is ±inf, as documented
        slope, intercept = float(np.ldexp(lr.slope, e_p - e_s)), float(np.ldexp(lr.intercept, e_p))
    return dict(pearson_r=float(lr.rvalue), p_value=float(lr.pvalue), slope=slope, intercept=intercept,
                spearman_r=float(sp.statistic), spearman_p=float(sp.pvalue))


def _property(prop, case_fold: bool) -> pd.Series:
    """The property as a float Series indexed by word: ``prop`` must be a mapping word -> number (a dict or a
    ``pandas.Series``); a list, an array or a string is refused, saying what a property must be."""
    if not isinstance(prop, (Mapping, pd.Series)):
        raise InvalidParameterError(
            f"prop must map each target word to a number (a dict such as {{'nurse': 90.0}} or a pandas.Series "
            f"indexed by word), not {type(prop).__name__} {prop!r:.60}")
    try:
        series = pd.Series(prop, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"prop must map each target word to a number: {exc}") from None
    if series.empty:
        raise InvalidParameterError("prop is empty: it must map each target word to a number")
    bad = [k for k in series.index if not isinstance(k, str)]
    if bad:
        raise InvalidParameterError(f"prop's keys must be words (strings), not {bad[:5]!r}")
    if case_fold:
        groups: dict[str, list[str]] = {}
        for k in series.index:
            groups.setdefault(k.lower(), []).append(k)
        collide = {low: keys for low, keys in groups.items() if len(keys) > 1}
        if collide:                                      # one word, several values: which one is meant?
            shown = "; ".join(" and ".join(map(repr, keys)) + f" become {low!r}"
                              for low, keys in list(collide.items())[:5])
            raise InvalidParameterError(
                f"prop's keys collide when lower-cased (case_fold=True): {shown}"
                f"{' ...' if len(collide) > 5 else ''}; give each word one value, or pass case_fold=False")
        series.index = series.index.str.lower()
    if series.index.has_duplicates:                      # a Series may repeat a label
        dups = list(dict.fromkeys(series.index[series.index.duplicated()]))
        raise InvalidParameterError(f"prop gives these words more than once: {dups[:10]}; give each word one value")
    return series


def wefat(embedding, W: Sequence[str], A: Sequence[str], B: Sequence[str], prop, *,
          names: dict | None = None, on_missing: str = "drop", case_fold: bool = False,
          name_filter: float | None = None,
          filter_metric: str = "euclidean", ddof: int = 1) -> WefatResult:
    """Run WEFAT: s(w, A, B) for each target word, regressed against the property ``prop``.

    The null hypothesis of no association between s(w, A, B) and p_w is tested by the linear regression of
    p_w on s(w, A, B): Pearson's ρ and its two-sided p-value (Methods, WEFAT). Words missing from the
    embedding, or without a property value, are dropped and reported (in ``W.missing``). ``name_filter``
    (e.g. 0.2) applies the name-likeness filter before scoring.

    Checked on entry: W, A and B are lists of distinct words (a string is refused, a ``set``
    sorted), A and B share no word, nor W and A or B (:func:`wordbias.core.validation.check_targets_not_attributes`);
    ``prop`` is a mapping (a dict or a ``pandas.Series``) from words to
    numbers; ``ddof`` is 0 or 1. Words dropped (not in the embedding, or without a property value) warn
    :class:`~wordbias.core.errors.MissingWordsWarning`; a property with the same value for every word kept
    is a :class:`DegenerateSetError` (the correlation would be NaN), as are scores equal up to the rounding of the
    vectors (float32 vectors: a spread of 1e-6). A property of any magnitude gives the r it has at any other
    (:func:`regress`).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        A gensim ``KeyedVectors`` or any word → vector mapping.
    W : sequence of str
        The target words.
    A, B : sequence of str
        The attribute word sets.
    prop : mapping of str to float or pandas.Series
        The property p_w of each target word (a dict or a ``pandas.Series`` indexed by word).
    names : dict, optional
        Display names of some of the sets "W", "A", "B", used in messages and in the result.
    on_missing : {"drop", "raise"}, default "drop"
        Drop and report words not in the embedding (or without a property value), or raise ``KeyError``.
    case_fold : bool, default False
        Lower-case all words, and the property's words (uncased embeddings).
    name_filter : float, optional
        The fraction of target words to drop by the name-likeness filter (:func:`name_likeness_filter`),
        in [0, 1); ``None`` applies no filter.
    filter_metric : {"euclidean", "cosine"}, default "euclidean"
        The distance of the name-likeness filter (:func:`centroid_distance`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation in s(w, A, B) (:func:`normalized_association`).

    Returns
    -------
    WefatResult
        The per-word table and the regression (:func:`regress`).

    Raises
    ------
    InvalidParameterError
        When a word list, ``prop`` or an option is not valid, or A and B share words.
    KeyError
        When ``on_missing="raise"`` and a word is not in ``embedding`` or has no property value.
    DegenerateSetError
        When no target word has a property value, a set is left too small, or the property or the scores
        are the same for every word.

    See Also
    --------
    wordbias.measures.association.bootstrap_wefat.wefat_bootstrap : confidence intervals for the per-word scores.

    Examples
    --------
    Four occupations with the percentage of women in each, and one word for each gender:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> women = {"nurse": 90.0, "teacher": 70.0, "pilot": 8.0, "miner": 2.0}
    >>> V = np.array([[0.9, 0.2], [0.6, 0.5], [0.3, 0.9], [0.1, 1.0], [1.0, 0.0], [0.0, 1.0]])
    >>> kv = to_keyed_vectors([*women, "she", "he"], V.astype(np.float32))
    >>> r = wefat(kv, list(women), ["she"], ["he"], women)
    >>> r.n, round(r.pearson_r, 3), round(r.p_value, 4)
    (4, 0.981, 0.0188)
    """
    names = {k: (names or {}).get(k, k) for k in "WAB"}
    case_fold = check_bool("case_fold", case_fold)
    lookup.check_on_missing(on_missing)
    ddof = check_ddof(ddof)
    check_option("filter_metric", filter_metric, ("euclidean", "cosine"))
    if name_filter is not None:
        check_real("name_filter", name_filter, low=0, high=1, high_open=True)
    W, A, B = (lookup.check_word_list(f"set {names[k]!r}", words, case_fold) for k, words in zip("WAB", (W, A, B)))
    check_disjoint(f"attribute sets {names['A']!r}", A, repr(names["B"]), B)
    check_targets_not_attributes({repr(names["W"]): W}, {repr(names["A"]): A, repr(names["B"]): B})
    prop = _property(prop, case_fold)
    no_prop = [w for w in W if w not in prop.index or not np.isfinite(prop.get(w, np.nan))]
    if no_prop and on_missing == "raise":
        raise KeyError(f"set {names['W']!r}: no property value for {no_prop}")
    if no_prop and len(no_prop) < len(W):
        lookup.warn_user(MissingWordsWarning(f"set {names['W']!r}: {len(no_prop)} of {len(W)} word(s) have no "
                                          f"(finite) property value, dropped: {no_prop}"))
    if len(no_prop) == len(W):
        raise DegenerateSetError(f"set {names['W']!r}: no word has a property value (the property's words are "
                                 f"{list(prop.index[:5])}{'...' if len(prop) > 5 else ''})")
    w_set = lookup.word_set(embedding, [w for w in W if w not in no_prop], name=names["W"], on_missing=on_missing,
                            min_size=MIN_WORDS)
    w_set = WordSet(w_set.name, tuple(W), w_set.words, tuple(no_prop) + w_set.missing)
    a_set = lookup.word_set(embedding, A, name=names["A"], on_missing=on_missing, min_size=MIN_ATTRIBUTE_SIZE)
    b_set = lookup.word_set(embedding, B, name=names["B"], on_missing=on_missing, min_size=MIN_ATTRIBUTE_SIZE)
    for ws in (a_set, b_set):
        lookup.set_matrix(embedding, ws.words, ws.name)
    words = list(w_set.words)
    V = lookup.set_matrix(embedding, words, w_set.name)
    dropped: list[str] = []
    if name_filter:
        words, dropped = name_likeness_filter(words, V, name_filter, filter_metric)
        V = lookup.vectors(embedding, words)
    eps = vector_eps(embedding, words + list(a_set.words) + list(b_set.words))
    s, sd = _normalized(V, lookup.vectors(embedding, a_set.words), lookup.vectors(embedding, b_set.words), ddof, eps)
    table = pd.DataFrame({"word": words, "s": s, "property": prop.loc[words].to_numpy()})
    # s = (difference of mean cosines) / sd: its rounding is the cosines' (a few eps) times (1 + |s|) / sd
    scale = float(np.max((1.0 + np.abs(s)) / sd))
    return WefatResult(table=table, W=w_set, A=a_set, B=b_set, dropped_by_filter=tuple(dropped),
                       **regress(table["s"], table["property"], input_eps=eps, scale=scale))
