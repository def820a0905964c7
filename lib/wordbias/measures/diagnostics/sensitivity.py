"""Word-list sensitivity of WEAT's effect size: the influence of each word, and d when words are dropped.

Antoniak & Mimno (2021), "Bad Seeds: Evaluating Lexical Methods for Bias Result", ACL-IJCNLP 2021,
https://doi.org/10.18653/v1/2021.acl-long.148, show that bias scores swing with the choice of a few seed words
and ask tools to evaluate the seeds. Two views of that here, both on WEAT's effect size d (Caliskan, Bryson &
Narayanan 2017, Science, https://doi.org/10.1126/science.aal4230, Methods) computed on a precomputed cosine
matrix (:func:`weat_cosines`), so that no cosine is recomputed:

* :func:`influence`: leave-one-out (jackknife) influence of each word, for targets (X, Y) and attributes (A, B):
  d without the word, and its change d_without − d. Removing a target only drops its s(w, A, B); removing an
  attribute changes s(w, A, B) of every target, s_{−a}(w) = [Σ_{A} cos(w, ·) − cos(w, a)]/(``|A|`` − 1) − mean_B
  cos(w, ·), computed for all attributes at once.
* :func:`drop_curve`: for each fraction f, ``n_draws`` seeded draws that keep a random ⌈(1 − f)·n⌉ words of
  EACH list (at least 2 targets and 1 attribute a set), and the mean, standard deviation and quantiles of d
  over the draws. The draws are subsets without replacement (a delete-d jackknife, Shao & Wu 1989, Annals of
  Statistics 17(3)), not a bootstrap: they show how d moves with shorter lists, not a confidence interval.
* :func:`plot_influence` and :func:`plot_drop_curve`: the figures (horizontal bars of the top-k words by
  ``|change|``; the curve with its quantile band).

The target sets are used as given (no balancing, unlike :func:`wordbias.measures.association.weat.weat`, which deletes
words at random to equalise ``|X|`` and ``|Y|``): d is defined for unequal sets. d uses the sample standard deviation
(``ddof=1``) by default, as :func:`wordbias.measures.association.weat.effect_size`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import ceil

import numpy as np

from wordbias.core import costs as _costs
from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError
from wordbias.core.validation import as_float_array, check_bool, check_int, check_real, check_seed, spread_tolerance
from wordbias.core.vectors import cosine_matrix
from wordbias.measures.association.weat import MIN_ATTRIBUTE_SIZE, MIN_TARGET_SIZE, check_ddof, effect_size
from wordbias.measures.association.weat import check_sets as weat_check_sets

__all__ = [
    "WeatCosines",
    "Influence",
    "DropCurve",
    "weat_cosines",
    "effect_sizes",
    "influence",
    "drop_curve",
    "plot_influence",
    "plot_drop_curve",
]

#: the fractions of each list dropped by :func:`drop_curve` by default
DEFAULT_FRACTIONS = (0.1, 0.2, 0.3, 0.4, 0.5)

#: the quantiles :func:`drop_curve` reports
QUANTILES = (0.025, 0.25, 0.5, 0.75, 0.975)


@dataclass(frozen=True)
class WeatCosines:
    """The four word lists of a WEAT and the cosines of each target with each attribute word.

    ``XA[i, j]`` = cos(X_i, A_j), and so on. Build it once (:func:`weat_cosines`) and pass it to
    :func:`influence` and :func:`drop_curve`.

    Attributes
    ----------
    X, Y, A, B : tuple of str
        The words of each set found in the embedding, in order.
    XA, XB, YA, YB : numpy.ndarray of float
        The cosines of the targets (rows) with the attributes (columns): cos(X_i, A_j), cos(X_i, B_j),
        cos(Y_i, A_j), cos(Y_i, B_j).
    missing : dict of str to tuple of str
        The unknown words dropped from each set (only sets that lost words).
    """

    X: tuple[str, ...]
    Y: tuple[str, ...]
    A: tuple[str, ...]
    B: tuple[str, ...]
    XA: np.ndarray = field(repr=False)
    XB: np.ndarray = field(repr=False)
    YA: np.ndarray = field(repr=False)
    YB: np.ndarray = field(repr=False)
    missing: dict = field(default_factory=dict)

    @property
    def s_x(self) -> np.ndarray:
        """s(x, A, B) for each x in X."""
        return self.XA.mean(axis=1) - self.XB.mean(axis=1)

    @property
    def s_y(self) -> np.ndarray:
        """s(y, A, B) for each y in Y."""
        return self.YA.mean(axis=1) - self.YB.mean(axis=1)


def weat_cosines(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
                 on_missing: str = "drop", case_fold: bool = False) -> WeatCosines:
    """Look the four lists of a WEAT up and compute the target-by-attribute cosine matrices once.

    The lists are checked as :func:`wordbias.measures.association.weat.check_sets` does and looked up by
    :func:`wordbias.core.lookup.word_set`: unknown words are dropped with a warning, or raise with
    ``on_missing="raise"``. The target sets are not balanced.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        A gensim ``KeyedVectors`` or any word → vector mapping.
    X, Y : sequence of str
        The target word sets (at least 2 words each found).
    A, B : sequence of str
        The attribute word sets (at least 1 word each found).
    on_missing : {"drop", "raise"}, default "drop"
        Drop and report the unknown words, or raise ``KeyError``.
    case_fold : bool, default False
        Lower-case all words (uncased embeddings).

    Returns
    -------
    WeatCosines
        The words used and their cosine matrices.

    Raises
    ------
    InvalidParameterError
        When a word list is not a list of distinct strings, or X and Y (or A and B) share words.
    KeyError
        When ``on_missing="raise"`` and a word is not in ``embedding``.
    DegenerateSetError
        When a set is left too small, or a vector is zero or not finite.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["x1", "x2", "y1", "y2", "a", "b"],
    ...                       np.array([[1, 0], [1, 1], [0, 1], [-1, 1], [1, 0], [0, 1]], dtype=np.float32))
    >>> c = weat_cosines(kv, ["x1", "x2"], ["y1", "y2"], ["a"], ["b"])
    >>> np.round(c.s_x, 4), np.round(c.s_y, 4)
    (array([1., 0.]), array([-1.    , -1.4142]))
    """
    X, Y, A, B = weat_check_sets(X, Y, A, B, case_fold=check_bool("case_fold", case_fold))
    sets = {}
    for key, words, size in (("X", X, MIN_TARGET_SIZE), ("Y", Y, MIN_TARGET_SIZE), ("A", A, MIN_ATTRIBUTE_SIZE),
                             ("B", B, MIN_ATTRIBUTE_SIZE)):
        sets[key] = lookup.word_set(embedding, words, name=key, on_missing=on_missing, min_size=size)
    vec = {k: lookup.set_matrix(embedding, s.words, k) for k, s in sets.items()}
    return WeatCosines(X=sets["X"].words, Y=sets["Y"].words, A=sets["A"].words, B=sets["B"].words,
                       XA=cosine_matrix(vec["X"], vec["A"]), XB=cosine_matrix(vec["X"], vec["B"]),
                       YA=cosine_matrix(vec["Y"], vec["A"]), YB=cosine_matrix(vec["Y"], vec["B"]),
                       missing={k: s.missing for k, s in sets.items() if s.missing})


def effect_sizes(s_x, s_y, ddof: int = 1, *, w_x=None, w_y=None) -> np.ndarray:
    """WEAT's effect size d for many variants of a test at once, one per column.

    d = [mean_X s − mean_Y s] / std_{X∪Y} s (Caliskan et al. 2017, Methods), each over the kept targets; NaN
    where the standard deviation is at rounding level (:func:`wordbias.core.validation.spread_tolerance`).

    Parameters
    ----------
    s_x : array_like of float, shape (n_x, m)
        s(x, A, B) of the targets of X, one variant of the test per column.
    s_y : array_like of float, shape (n_y, m)
        s(y, A, B) of the targets of Y, one variant per column.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation.
    w_x, w_y : array_like of {0, 1}, optional
        Masks of the shapes of ``s_x`` and ``s_y`` saying which targets each variant keeps; ``None`` keeps
        all.

    Returns
    -------
    numpy.ndarray of float, shape (m,)
        d of each variant, NaN where it is undefined.

    Raises
    ------
    InvalidParameterError
        When ``ddof`` is not 0 or 1, or an argument is not an array of numbers.

    Examples
    --------
    >>> effect_sizes(np.array([[1.0], [0.0]]), np.array([[-1.0], [-0.5]])).round(6)     # weat.effect_size
    array([1.46385])

    Two variants: all targets, then the first target of X left out:

    >>> s_x, s_y = np.array([[1.0, 1.0], [0.0, 0.0], [0.5, 0.5]]), np.array([[-1.0, -1.0], [-0.5, -0.5]])
    >>> effect_sizes(s_x, s_y, w_x=np.array([[1, 0], [1, 1], [1, 1]])).round(4)
    array([1.5811, 1.5492])
    """
    ddof = check_ddof(ddof)
    s_x, s_y = (np.atleast_2d(as_float_array(k, v, what="scores s(w, A, B) (words x variants)"))
                for k, v in (("s_x", s_x), ("s_y", s_y)))
    w_x = np.ones_like(s_x) if w_x is None else as_float_array("w_x", w_x, what="a 0/1 mask")
    w_y = np.ones_like(s_y) if w_y is None else as_float_array("w_y", w_y, what="a 0/1 mask")
    n_x, n_y = w_x.sum(axis=0), w_y.sum(axis=0)
    sum_x, sum_y = (w_x * s_x).sum(axis=0), (w_y * s_y).sum(axis=0)
    n = n_x + n_y
    mean = (sum_x + sum_y) / n
    ss = (w_x * (s_x - mean) ** 2).sum(axis=0) + (w_y * (s_y - mean) ** 2).sum(axis=0)
    sd = np.sqrt(ss / (n - ddof))
    with np.errstate(invalid="ignore", divide="ignore"):
        d = (sum_x / n_x - sum_y / n_y) / sd
    # one tolerance for every effect size (wordbias.core.validation.spread_tolerance), per column over all its scores
    tol = spread_tolerance(np.concatenate([s_x, s_y], axis=0), axis=0)
    return np.where(sd > tol, d, np.nan)


@dataclass(frozen=True)
class Influence:
    """Leave-one-out influence of each word on WEAT's effect size d.

    Attributes
    ----------
    d : float
        The full test's effect size.
    set : tuple of str
        The set of each word: "X", "Y", "A" or "B".
    word : tuple of str
        The words, in the order X, Y, A, B and the lists' order.
    d_without : numpy.ndarray of float
        d with that word removed (NaN where its set would be left too small).
    change : numpy.ndarray of float
        ``d_without`` − ``d``.
    """

    d: float
    set: tuple[str, ...]
    word: tuple[str, ...]
    d_without: np.ndarray = field(repr=False)
    change: np.ndarray = field(repr=False)

    def to_frame(self):
        """One row per word, in the order X, Y, A, B and the lists' order.

        Returns
        -------
        pandas.DataFrame
            The columns ``set``, ``word``, ``d_without`` and ``change``.
        """
        import pandas as pd

        return pd.DataFrame({"set": list(self.set), "word": list(self.word), "d_without": self.d_without,
                             "change": self.change})

    def top(self, k: int = 10):
        """The ``k`` rows with the largest ``|change|``, largest first.

        Words whose removal leaves d undefined (NaN) come last.

        Parameters
        ----------
        k : int, default 10
            The number of rows (>= 1).

        Returns
        -------
        pandas.DataFrame
            At most ``k`` rows of :meth:`to_frame`.

        Raises
        ------
        InvalidParameterError
            When ``k`` is not an integer >= 1.
        """
        frame = self.to_frame()
        order = np.argsort(-np.nan_to_num(np.abs(frame["change"].to_numpy()), nan=-1.0), kind="stable")
        return frame.iloc[order[:check_int("k", k, min=1)]].reset_index(drop=True)


def influence(cos: WeatCosines, *, ddof: int = 1) -> Influence:
    """Leave-one-out change of WEAT's d for every target and attribute word, on the precomputed cosines.

    For a target: d of the test without it (the other s(w, A, B) unchanged). For an attribute a ∈ A:
    s_{−a}(w) = [Σ_{A} cos(w, ·) − cos(w, a)] / (``|A|`` − 1) − mean_B cos(w, ·) for every target w, then d;
    likewise for B. A set that would be left too small (one target, no attribute) gives NaN for its words.

    Parameters
    ----------
    cos : WeatCosines
        The test's cosines (:func:`weat_cosines`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d.

    Returns
    -------
    Influence
        d, and d without each word and its change.

    Raises
    ------
    InvalidParameterError
        When ``ddof`` is not 0 or 1.
    DegenerateSetError
        When the full test's d is undefined (all target words have the same association).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["x1", "x2", "x3", "y1", "y2", "a", "b1", "b2"],
    ...     np.array([[1, 0], [1, .2], [.1, 1], [0, 1], [.2, 1], [1, 0], [0, 1], [.5, 1]], dtype=np.float32))
    >>> inf = influence(weat_cosines(kv, ["x1", "x2", "x3"], ["y1", "y2"], ["a"], ["b1", "b2"]))
    >>> inf.top(2)[["set", "word"]].values.tolist()        # x3 (close to B) weakens the effect most
    [['X', 'x3'], ['X', 'x1']]
    >>> round(float(inf.d), 4), round(float(inf.change[2]), 4)
    (1.2076, 0.5119)
    """
    ddof = check_ddof(ddof)
    s_x, s_y = cos.s_x, cos.s_y
    d = float(effect_size(s_x, s_y, ddof=ddof))
    nx, ny = s_x.size, s_y.size
    out_set, out_word, out_d = [], [], []
    # targets: one column per removed target, the mask drops it
    for key, n, own_is_x in (("X", nx, True), ("Y", ny, False)):
        if n - 1 < MIN_TARGET_SIZE:
            vals = np.full(n, np.nan)
        else:
            drop = 1.0 - np.eye(n)
            keep_other = np.ones((ny if own_is_x else nx, n))
            sx = np.repeat(s_x[:, None], n, axis=1)
            sy = np.repeat(s_y[:, None], n, axis=1)
            w_x, w_y = (drop, keep_other) if own_is_x else (keep_other, drop)
            vals = effect_sizes(sx, sy, ddof, w_x=w_x, w_y=w_y)
        out_set += [key] * n
        out_word += list(cos.X if own_is_x else cos.Y)
        out_d.append(vals)
    # attributes: s of every target without attribute j, all j at once
    for key, words in (("A", cos.A), ("B", cos.B)):
        m = len(words)
        if m - 1 < MIN_ATTRIBUTE_SIZE:
            vals = np.full(m, np.nan)
        else:
            if key == "A":
                sx = (cos.XA.sum(axis=1, keepdims=True) - cos.XA) / (m - 1) - cos.XB.mean(axis=1, keepdims=True)
                sy = (cos.YA.sum(axis=1, keepdims=True) - cos.YA) / (m - 1) - cos.YB.mean(axis=1, keepdims=True)
            else:
                sx = cos.XA.mean(axis=1, keepdims=True) - (cos.XB.sum(axis=1, keepdims=True) - cos.XB) / (m - 1)
                sy = cos.YA.mean(axis=1, keepdims=True) - (cos.YB.sum(axis=1, keepdims=True) - cos.YB) / (m - 1)
            vals = effect_sizes(sx, sy, ddof)
        out_set += [key] * m
        out_word += list(words)
        out_d.append(vals)
    d_without = np.concatenate(out_d)
    return Influence(d=d, set=tuple(out_set), word=tuple(out_word), d_without=d_without, change=d_without - d)


#: decimals to which :func:`drop_curve` rounds each draw's d (far below its 6 reported digits, far above a ULP)
DRAW_DECIMALS = 12


@dataclass(frozen=True)
class DropCurve:
    """d when a fraction of each word list is dropped at random.

    Per fraction: the words kept per set, and the mean, standard deviation (ddof=1) and quantiles of d over
    ``n_draws`` draws (:meth:`to_frame`). NaN draws, where every kept target has the same s, are left out of the
    summaries.

    Attributes
    ----------
    d : float
        The full test's effect size.
    fractions : tuple of float
        The fractions of each list dropped.
    kept : tuple of dict
        For each fraction, the number of words kept of each set (keys "X", "Y", "A", "B").
    draws : numpy.ndarray of float, shape (n_fractions, n_draws)
        ``draws[i]`` holds the d of each draw at ``fractions[i]``.
    n_draws : int
        The number of draws per fraction.
    seed : int or str
        The seed of the draws, or ``"generator"`` when a ``numpy.random.Generator`` was passed.
    """

    d: float
    fractions: tuple[float, ...]
    kept: tuple[dict, ...]
    draws: np.ndarray = field(repr=False)
    n_draws: int
    seed: object

    def to_frame(self):
        """One row per fraction, summarizing the draws.

        Returns
        -------
        pandas.DataFrame
            The columns ``fraction``, ``n_X``, ``n_Y``, ``n_A``, ``n_B`` (words kept), ``mean``, ``sd`` and the
            quantiles ``q0.025``, ``q0.25``, ``q0.5``, ``q0.75``, ``q0.975`` of the defined draws.
        """
        import pandas as pd

        rows = []
        for f, kept, d in zip(self.fractions, self.kept, self.draws):
            ok = d[np.isfinite(d)]
            q = np.quantile(ok, QUANTILES) if ok.size else np.full(len(QUANTILES), np.nan)
            rows.append({"fraction": f, **{f"n_{k}": v for k, v in kept.items()}, "mean": ok.mean(),
                         # centred on the first draw (the sd does not change): equal draws give exactly 0,
                         # whatever order numpy's SIMD summation takes for the mean
                         "sd": (ok - ok[0]).std(ddof=1) if ok.size > 1 else np.nan,
                         **{f"q{p:g}": v for p, v in zip(QUANTILES, q)}})
        return pd.DataFrame(rows)


def _kept(n: int, fraction: float, minimum: int) -> int:
    return max(minimum, min(n, ceil(round((1.0 - fraction) * n, 9))))


def _masks(rng: np.random.Generator, n_draws: int, n: int, k: int) -> np.ndarray:
    """(n, n_draws) 0/1 masks, each column keeping a uniformly random k of n (words without replacement)."""
    if k >= n:
        return np.ones((n, n_draws))
    ranks = rng.random((n_draws, n)).argsort(axis=1).argsort(axis=1)
    return (ranks < k).T.astype(float)


def drop_curve(cos: WeatCosines, *, fractions: Sequence[float] = DEFAULT_FRACTIONS, n_draws: int = 1000,
               seed=0, ddof: int = 1, max_seconds: float = _costs.MAX_SECONDS) -> DropCurve:
    """The spread of WEAT's d when a fraction of each list is dropped at random (a delete-d jackknife).

    For each fraction f, ``n_draws`` draws each keep a uniformly random ⌈(1 − f)·n⌉ words of X, Y, A and B
    (independently; at least 2 targets and 1 attribute a set), and d is recomputed on the cosine matrix:
    ``s(w) = (cos(w, A) · m_A)/|m_A| − (cos(w, B) · m_B)/|m_B|`` for all draws at once (matrix products with the
    0/1 masks), then d over the kept targets (:func:`effect_sizes`). Seeded: the same ``seed`` gives the same
    draws. Cost: ``O(n_draws · |X ∪ Y| · |A ∪ B|)`` per fraction; a request estimated over ``max_seconds`` or
    :func:`wordbias.core.costs.memory_limit` is refused before any draw
    (:func:`wordbias.core.costs.check_resampling_cost`, :class:`~wordbias.core.errors.TooCostlyError`).

    Parameters
    ----------
    cos : WeatCosines
        The test's cosines (:func:`weat_cosines`).
    fractions : sequence of float, default (0.1, 0.2, 0.3, 0.4, 0.5)
        The fractions of each list to drop, each in [0, 1).
    n_draws : int, default 1000
        The number of random draws per fraction (>= 2).
    seed : int or numpy.random.Generator, default 0
        Seed or generator of the draws.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d.
    max_seconds : float, default 600.0
        The longest the request may be estimated to take.

    Returns
    -------
    DropCurve
        The d of every draw at every fraction, and the words kept.

    Raises
    ------
    InvalidParameterError
        When ``ddof``, ``n_draws``, ``seed`` or a fraction is out of range.
    DegenerateSetError
        When ``fractions`` is empty, or the full test's d is undefined.
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(1)
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(20)], rng.normal(size=(20, 5)).astype(np.float32))
    >>> c = weat_cosines(kv, ["w0", "w1", "w2", "w3"], ["w4", "w5", "w6", "w7"], ["w8", "w9", "w10"],
    ...                  ["w11", "w12", "w13"])
    >>> curve = drop_curve(c, fractions=[0.0, 0.5], n_draws=50)
    >>> frame = curve.to_frame()
    >>> frame[["fraction", "n_X", "n_A"]].values.tolist()
    [[0.0, 4.0, 3.0], [0.5, 2.0, 2.0]]
    >>> bool(np.allclose(curve.draws[0], curve.d))          # dropping nothing gives d every time
    True
    """
    ddof = check_ddof(ddof)
    n_draws = check_int("n_draws", n_draws, min=2)
    check_seed("seed", seed)
    fractions = tuple(check_real("fractions", f, low=0.0, high=1.0, high_open=True) for f in fractions)
    if not fractions:
        raise DegenerateSetError("drop_curve needs at least one fraction")
    nx, ny, na, nb = len(cos.X), len(cos.Y), len(cos.A), len(cos.B)
    n_t, n_v = nx + ny, na + nb
    _costs.check_resampling_cost(f"a drop curve over {len(fractions)} fraction(s)", "n_draws", n_draws,
                                 len(fractions) * (n_t * n_v + 3 * (n_t + n_v) * 8), 8.0 * (4 * (n_t + n_v) + 6 * n_t),
                                 max_seconds=max_seconds, fixed_bytes=8.0 * len(fractions) * _costs.float_or_inf(n_draws))
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    d_full = float(effect_size(cos.s_x, cos.s_y, ddof=ddof))
    draws, kept = np.empty((len(fractions), n_draws)), []
    for i, f in enumerate(fractions):
        k = {"X": _kept(nx, f, MIN_TARGET_SIZE), "Y": _kept(ny, f, MIN_TARGET_SIZE),
             "A": _kept(na, f, MIN_ATTRIBUTE_SIZE), "B": _kept(nb, f, MIN_ATTRIBUTE_SIZE)}
        kept.append(k)
        m_x, m_y = _masks(rng, n_draws, nx, k["X"]), _masks(rng, n_draws, ny, k["Y"])
        m_a, m_b = _masks(rng, n_draws, na, k["A"]), _masks(rng, n_draws, nb, k["B"])
        s_x = cos.XA @ m_a / k["A"] - cos.XB @ m_b / k["B"]          # (|X|, n_draws)
        s_y = cos.YA @ m_a / k["A"] - cos.YB @ m_b / k["B"]
        # rounded to 12 decimals: the masked sums above come from matrix products whose summation order the
        # BLAS picks, a few ULP apart from run to run; where every draw keeps every word (all draws equal d in
        # exact arithmetic) that noise alone made the sd 2.2e-16 on one run and 0 on the next
        draws[i] = np.round(effect_sizes(s_x, s_y, ddof, w_x=m_x, w_y=m_y), DRAW_DECIMALS)
    return DropCurve(d=d_full, fractions=fractions, kept=tuple(kept), draws=draws, n_draws=n_draws,
                     seed=seed if not isinstance(seed, np.random.Generator) else "generator")


def plot_influence(result: Influence, *, top_k: int = 15, title: str | None = None, ax=None):
    """Horizontal bars of the ``top_k`` words by ``|change of d|`` when left out, largest at the top.

    The bars are coloured by set and labelled "set: word"; a bar to the left means the word pushes d up (d
    falls without it). Sized for a laptop screen (about 6.5 x 0.3·k inches).

    Parameters
    ----------
    result : Influence
        The influence of each word (:func:`influence`).
    top_k : int, default 15
        The number of words shown (>= 1).
    title : str, optional
        The title; by default one that gives d and the number of words.
    ax : matplotlib.axes.Axes, optional
        The axes to draw on; by default a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on.

    Raises
    ------
    InvalidParameterError
        When ``top_k`` is not an integer >= 1.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> inf = Influence(d=1.0, set=("X", "A"), word=("rose", "love"), d_without=np.array([0.5, 1.2]),
    ...                 change=np.array([-0.5, 0.2]))
    >>> fig = plot_influence(inf)
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['A: love', 'X: rose']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    top_k = check_int("top_k", top_k, min=1)
    frame = result.top(top_k).iloc[::-1]          # largest at the top of the chart
    colours = {"X": "#1f77b4", "Y": "#ff7f0e", "A": "#2ca02c", "B": "#d62728"}
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.5, max(2.0, 0.3 * len(frame) + 1.0)))
    else:
        fig = ax.figure
    y = np.arange(len(frame))
    ax.barh(y, frame["change"], color=[colours.get(s, "grey") for s in frame["set"]], height=0.7)
    ax.set_yticks(y, [f"{s}: {w}" for s, w in zip(frame["set"], frame["word"])], fontsize=8)
    ax.axvline(0, color="black", lw=0.6)
    ax.set_xlabel("change of d when the word is left out (d without − d)")
    ax.set_title(title or f"Influence of each word on d = {result.d:.2f} (top {len(frame)})")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for s, c in colours.items() if s in set(frame["set"])]
    ax.legend(handles, [s for s in colours if s in set(frame["set"])], frameon=False, fontsize=7,
              loc="upper left", bbox_to_anchor=(1.0, 1.0), title="set", title_fontsize=7)   # outside the bars
    fig.tight_layout()
    return fig


def plot_drop_curve(curve: DropCurve, *, title: str | None = None, ax=None):
    """d against the fraction of each list dropped, with the bands of the draws.

    The figure shows the median, the 25-75% and 2.5-97.5% bands of the draws, and the full test's d as a
    dashed line.

    Parameters
    ----------
    curve : DropCurve
        The draws (:func:`drop_curve`).
    title : str, optional
        The title; by default one that gives the number of draws.
    ax : matplotlib.axes.Axes, optional
        The axes to draw on; by default a new figure of 6.5 x 4 inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> curve = DropCurve(d=1.0, fractions=(0.1, 0.2), kept=({"X": 9}, {"X": 8}),
    ...                   draws=np.array([[0.9, 1.0, 1.1], [0.8, 1.0, 1.2]]), n_draws=3, seed=0)
    >>> fig = plot_drop_curve(curve)
    >>> fig.axes[0].get_xlabel()
    'fraction of each word list dropped'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    frame = curve.to_frame()
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.5, 4.0))
    else:
        fig = ax.figure
    f = frame["fraction"]
    ax.fill_between(f, frame["q0.025"], frame["q0.975"], color="#1f77b4", alpha=0.2, label="2.5–97.5%")
    ax.fill_between(f, frame["q0.25"], frame["q0.75"], color="#1f77b4", alpha=0.4, label="25–75%")
    ax.plot(f, frame["q0.5"], color="#1f77b4", marker="o", lw=1.2, label="median")
    ax.axhline(curve.d, color="black", ls="--", lw=0.8, label=f"all words: d = {curve.d:.2f}")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("fraction of each word list dropped")
    ax.set_ylabel("effect size d")
    ax.set_title(title or f"d over {curve.n_draws} random draws per fraction")
    ax.legend(frameon=False, fontsize=7)
    fig.tight_layout()
    return fig


def weat_sensitivity(embedding, measured, *, seed: int = 0, n_draws: int = 1000):
    """``(influence, drop curve)`` of a measured WEAT on the words it used (Antoniak & Mimno 2021):
    :func:`influence` and :func:`drop_curve` (``n_draws`` draws seeded by ``seed``) of ``measured``, a
    :class:`~wordbias.result.Result` (``wordbias.weat``) or a
    :class:`~wordbias.measures.association.weat.WeatResult`; the test is not run again."""
    from wordbias.measures.association.measurement import weat_result

    res = weat_result(measured)
    cos = weat_cosines(embedding, res.X.words, res.Y.words, res.A.words, res.B.words, on_missing="raise")
    return influence(cos), drop_curve(cos, n_draws=n_draws, seed=seed)
