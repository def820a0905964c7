"""Unsupervised Bias Enumeration (UBE) of Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are
the biases in my word embedding?" (AIES 2019), in the paper's notation: n groups of names, m categories of
the M candidate words, t words per test, false discovery rate α, R rotations. Vectors are unit length
(Section 3); S̄ is the mean unit vector of a token set S.

:func:`g` is the generalised WEAT (Section 2.1). :func:`run` is the algorithm (Section 3), on any embedding and
any list of names (e.g. :func:`~wordbias.measures.enumeration.ube_names.name_list`'s). Its steps, each in its own module and
importable from this one:

- Step 1, :mod:`~wordbias.measures.enumeration.ube_names`: :func:`name_list` (Appendix C.1-C.2), :func:`clean_names`
  (Appendix C.3) and :func:`cluster` (Section 3.1);
- Step 2, :mod:`~wordbias.measures.enumeration.ube_words`: :func:`candidate_words` (Appendix C.4, :func:`case_rule`);
- Steps 3-4, :mod:`~wordbias.measures.enumeration.ube_null`: :func:`select_words`, :func:`rotational_null` (its compiled
  loop in :mod:`~wordbias.measures.enumeration.ube_kernels`), :func:`p_values` and :func:`bh_rejections`; the cost check
  :func:`check_null_cost`;
- the result and Section 4, :mod:`~wordbias.measures.enumeration.ube_result`: :class:`UBEResult`,
  :func:`illustrative_names`, :func:`indirect_bias` and :func:`central_words`.

The paper's tables and figures built on a run are :mod:`wordbias.papers.swinger2019`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, LowPowerWarning
from wordbias.core.parallel import default_workers
from wordbias.core.validation import check_bool, check_int, check_probability, check_real, check_seed
from wordbias.core.vectors import unit_rows
from wordbias.measures.enumeration.ube_names import (
    NAME_SOURCES,
    Cleaning,
    NameList,
    clean_names,
    cluster,
    describe_names,
    name_groups,
    name_list,
)
from wordbias.measures.enumeration.ube_null import (
    CACHE_DIR,
    MAX_NULL_BYTES,
    MAX_NULL_SECONDS,
    NULL_MACS_PER_SECOND,
    ROTATION_BLOCK,
    NullCost,
    bh_rejections,
    check_null_cost,
    haar_frames,
    haar_rotation,
    null_cache_key,
    null_cost,
    null_sigma_batch,
    p_values,
    rotation_frames,
    rotational_null,
    select_words,
    span_factors,
    voronoi,
)
from wordbias.measures.enumeration.ube_result import UBEResult, central_words, illustrative_names, indirect_bias
from wordbias.measures.enumeration.ube_words import CASE_SOURCES, candidate_words, case_rule, word_categories
from wordbias.options import Options

__all__ = [
    "DEFAULTS", "UBEParameters", "anisotropy", "g", "mean_unit", "run", "ube",
    # Step 1 (ube_names)
    "NAME_SOURCES", "Cleaning", "NameList", "clean_names", "cluster", "describe_names", "name_groups", "name_list",
    # Step 2 (ube_words)
    "CASE_SOURCES", "candidate_words", "case_rule", "word_categories",
    # Steps 3-4 (ube_null)
    "CACHE_DIR", "MAX_NULL_BYTES", "MAX_NULL_SECONDS", "NULL_MACS_PER_SECOND", "ROTATION_BLOCK", "NullCost",
    "bh_rejections", "check_null_cost", "haar_frames", "haar_rotation", "null_cache_key", "null_cost",
    "null_sigma_batch", "p_values",
    "rotation_frames", "rotational_null", "select_words", "span_factors", "voronoi",
    # the result and Section 4 (ube_result)
    "UBEResult", "central_words", "illustrative_names", "indirect_bias",
]

#: Table 2 of the paper: the algorithm's inputs and their defaults
DEFAULTS = dict(n=12, m=64, M=30_000, t=3, alpha=0.05, R=10_000)


# --------------------------------------------------------------------------------------------------
# Section 2.1: the generalised WEAT
# --------------------------------------------------------------------------------------------------

def mean_unit(vectors, name: str = "set") -> np.ndarray:
    """``S̄ = Σ_{v∈S} v̄ / |S|``, the mean of the unit vectors of a token set (Section 2).

    Parameters
    ----------
    vectors : array-like of shape (N, d)
        The vectors of the set, one row per token.
    name : str, default "set"
        The name of the set, used in error messages.

    Returns
    -------
    numpy.ndarray of shape (d,)
        The mean of the unit vectors.

    Raises
    ------
    DegenerateSetError
        If the set is empty or holds a zero vector.

    Examples
    --------
    >>> mean_unit([[3.0, 0.0], [0.0, 2.0]])
    array([0.5, 0.5])
    """
    u = unit_rows(vectors, name)
    if len(u) == 0:
        raise DegenerateSetError(f"{name} is empty")
    return u.mean(axis=0)


def anisotropy(embedding, n_pairs: int = 2000, seed: int = 0) -> float:
    """The mean cosine of ``n_pairs`` random pairs of the embedding's words: Ethayarajh's (2019, "How Contextual
    are Contextualized Word Representations?", EMNLP, doi:10.18653/v1/D19-1006) anisotropy
    baseline, near 0 when the words point every way.

    UBE's rotational null turns the name groups' directions at random, as if no direction were special; the higher
    this is, the more the words vary along a few directions, and the more easily every cell beats that null (a
    word2vec run on the Brown corpus: 0.77, nearly every testable cell significant; GloVe 6B 50d: 0.11).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    n_pairs : int, default 2000
        The random pairs, drawn with replacement (a word may be paired with itself); a pair with a zero vector is
        left out of the mean.
    seed : int or numpy.random.Generator, default 0
        The seed of the draw.

    Returns
    -------
    float
        The mean cosine.

    Raises
    ------
    DegenerateSetError
        When no drawn pair has two nonzero vectors.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> spread = to_keyed_vectors([f"w{i}" for i in range(500)], rng.normal(size=(500, 20)))
    >>> round(anisotropy(spread), 2)           # every way: near 0
    0.0
    >>> shifted = to_keyed_vectors([f"w{i}" for i in range(500)], rng.normal(size=(500, 20)) + 3)
    >>> round(anisotropy(shifted), 1)          # a common direction
    0.9
    """
    n_pairs = check_int("n_pairs", n_pairs, min=1)
    vectors = embedding.vectors
    pairs = np.random.default_rng(check_seed("seed", seed)).integers(0, len(vectors), (n_pairs, 2))
    a, b = (np.asarray(vectors[pairs[:, k]], dtype=np.float64) for k in (0, 1))   # only the drawn rows
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    ok = norms > 0
    if not ok.any():
        raise DegenerateSetError(f"none of the {n_pairs} random word pairs has two nonzero vectors")
    return float(np.mean((a[ok] * b[ok]).sum(axis=1) / norms[ok]))


def g(X_groups: Sequence, A_groups: Sequence, *, names=None, words=None) -> float:
    """The generalised WEAT of Section 2.1: g(X_1, A_1, ..., X_n, A_n) = Σ_i (X̄_i − μ)·(Ā_i − 𝒜̄).

    For n = 1, μ = 𝒳̄ is the mean of all ``names`` (the universe 𝒳) and 𝒜̄ the mean of all ``words`` (𝒜):
    both are required. For n ≥ 2, μ = Σ_i X̄_i / n; 𝒜̄ cancels (Σ_i (X̄_i − μ) = 0), so ``words`` is
    optional.

    Parameters
    ----------
    X_groups : sequence of array-like
        The n groups of names X_i, each an array of vectors (rows).
    A_groups : sequence of array-like
        The n groups of words A_i, each an array of vectors (rows).
    names : array-like, optional
        The vectors of all the names (𝒳); required for n = 1, not used for n ≥ 2.
    words : array-like, optional
        The vectors of all the words (𝒜); required for n = 1.

    Returns
    -------
    float
        g(X_1, A_1, ..., X_n, A_n).

    Raises
    ------
    ValueError
        If there are no groups, the two lists differ in length, or n = 1 without ``names`` and ``words``.
    DegenerateSetError
        If a group is empty or holds a zero vector.

    Examples
    --------
    Two groups of one name each, and a word near each name; swapping the words flips the sign.

    >>> X1, X2 = [[1.0, 0.0]], [[0.0, 1.0]]
    >>> A1, A2 = [[1.0, 0.1]], [[0.1, 1.0]]
    >>> round(g([X1, X2], [A1, A2]), 4), round(g([X1, X2], [A2, A1]), 4)
    (0.8955, -0.8955)
    """
    n = len(X_groups)
    if n == 0 or len(A_groups) != n:
        raise ValueError(f"need n ≥ 1 name groups and as many word groups, got {n} and {len(A_groups)}")
    Xbar = np.stack([mean_unit(x, f"X_{i + 1}") for i, x in enumerate(X_groups)])
    Abar = np.stack([mean_unit(a, f"A_{i + 1}") for i, a in enumerate(A_groups)])
    if n == 1:
        if names is None or words is None:
            raise ValueError("g with n = 1 needs the universes: names (𝒳) and words (𝒜)")
        mu = mean_unit(names, "names (𝒳)")
    else:
        mu = Xbar.mean(axis=0)
    A_all = mean_unit(words, "words (𝒜)") if words is not None else np.zeros(Xbar.shape[1])
    return float(np.sum((Xbar - mu) * (Abar - A_all)))


# --------------------------------------------------------------------------------------------------
# Section 3: the whole algorithm
# --------------------------------------------------------------------------------------------------

def _check_words_or_none(name: str, words):
    from wordbias.core.validation import check_words

    return None if words is None else list(check_words(name, words, allow_duplicates=True))


@dataclass(frozen=True)
class UBEParameters(Options):
    """The inputs of the UBE algorithm (Section 3, Table 2 and Appendix C), checked when the object is made.

    An option out of range raises :class:`~wordbias.core.errors.InvalidParameterError` naming it, before any
    work; :meth:`replace` gives a changed copy. The defaults are Table 2's (:data:`DEFAULTS`).

    Attributes
    ----------
    n : int, default 12
        The name groups, >= 2: Step 3 measures each group against the mean of the group means; with one group
        X̄_1 − μ = 0 and every test is empty (the n = 1 WEAT of Section 2.1 is :func:`g` with ``names`` and
        ``words``).
    m : int, default 64
        The word categories, >= 1.
    M : int or None, default 30_000
        The candidate words, an integer >= m, or None for every candidate word of the vocabulary (0 is
        refused: it reads as "no words", and a magic 0 for "all" is how a typo goes unnoticed).
    t : int, default 3
        The words per test, >= 1 (t = 0 has no words to average; t larger than every category is refused by
        :func:`run` after Step 2).
    alpha : float, default 0.05
        The false discovery rate, in (0, 1).
    R : int, default 10_000
        The rotations of the null, >= 1.
    seed : int or numpy.random.Generator, default 0
        The seed every other seed is derived from: an integer >= 0, or a generator (an integer seed is drawn
        from it when the object is made).
    clean_fraction : float, default 0.2
        The share of names the SVM cleaning drops (Appendix C.3), in [0, 1).
    svm_top_words : int, default 50_000
        The SVM's non-names are drawn from this many most frequent tokens, >= 1.
    case_source : {"auto", "embedding", "wordlist", None}, default "auto"
        Step 2's case rule (:func:`case_rule`): by default Appendix C.4 on a cased embedding and, on an
        uncased one, the word-list stand-in (a deviation from the paper); None applies no case rule.

    Warns
    -----
    LowPowerWarning
        When 1/(R + 1) > alpha: no test can be significant.

    Examples
    --------
    >>> UBEParameters(n=2, m=3, M=60, t=2, R=50).replace(seed=4).seed
    4
    >>> UBEParameters(n=1)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: n must be >= 2, not 1 (UBE compares groups of names; for a single group use ube.g with names= and words=, the n = 1 WEAT of Section 2.1)
    """

    n: int = DEFAULTS["n"]
    m: int = DEFAULTS["m"]
    M: int | None = DEFAULTS["M"]
    t: int = DEFAULTS["t"]
    alpha: float = DEFAULTS["alpha"]
    R: int = DEFAULTS["R"]
    seed: int = 0
    clean_fraction: float = 0.2
    svm_top_words: int = 50_000
    case_source: str | None = "auto"

    def __post_init__(self):
        n = self.n
        if isinstance(n, int) and not isinstance(n, bool) and n == 1:
            raise InvalidParameterError("n must be >= 2, not 1 (UBE compares groups of names; for a single group "
                                        "use ube.g with names= and words=, the n = 1 WEAT of Section 2.1)")
        checked = dict(n=check_int("n", n, min=2), m=check_int("m", self.m, min=1), t=check_int("t", self.t, min=1),
                       alpha=check_probability("alpha", self.alpha), R=check_int("R", self.R, min=1),
                       clean_fraction=check_real("clean_fraction", self.clean_fraction, low=0.0, high=1.0,
                                                 high_open=True),
                       svm_top_words=check_int("svm_top_words", self.svm_top_words, min=1),
                       M=_check_M(self.M, self.m), seed=_seed_int(self.seed))
        if not (self.case_source is None or (isinstance(self.case_source, str) and self.case_source in CASE_SOURCES)):
            raise InvalidParameterError(f"case_source must be one of 'auto', 'embedding', 'wordlist' or None, "
                                        f"not {self.case_source!r}")
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        if 1.0 / (self.R + 1) > self.alpha:
            warnings.warn(f"with R = {self.R} rotations the smallest p-value is 1/(R + 1) = {1 / (self.R + 1):.3g}, "
                          f"above alpha = {self.alpha}: no test can be significant; raise R", LowPowerWarning,
                          stacklevel=3)



def _check_M(M, m):
    """M checked: None, or an integer >= m (0 refused with its own message)."""
    if M is None:
        return None
    if isinstance(M, int) and not isinstance(M, bool) and M == 0:
        raise InvalidParameterError("M must be an integer >= m or None (every candidate word of the "
                                    "vocabulary), not 0")
    return check_int("M", M, min=check_int("m", m, min=1))


def _seed_int(seed) -> int:
    """The seed checked; a generator gives an integer seed drawn from it."""
    seed = check_seed("seed", seed)
    return int(seed.integers(2**63)) if isinstance(seed, np.random.Generator) else seed


def _check_run_options(*, batch_size, workers, cased, progress) -> None:
    """The options of :func:`run` that do not change its result, checked."""
    check_int("batch_size", batch_size, min=1)
    if workers is not None:
        check_int("workers", workers, min=1)
    if cased is not None:
        check_bool("cased", cased)
    check_bool("progress", progress)


def _check_t_fits(t: int, category: np.ndarray, m: int) -> None:
    """Refuse a t larger than every category of Step 2 (no (group, category) cell could hold t words)."""
    largest = int(np.bincount(category, minlength=m).max())
    if t > largest:
        raise InvalidParameterError(f"t = {t} is larger than every word category: the largest of the m = {m} "
                                    f"categories has {largest} words, so no test could have t words per group; "
                                    f"use t <= {largest} (the paper uses 3) or fewer categories m")


def run(embedding, name_tokens: Sequence[str], parameters: UBEParameters | None = None, *,
        name_exclusions: Sequence[str] = (), word_exclusions=None, cased: bool | None = None, batch_size: int = 8,
        workers: int | None = None, progress: bool = True, wordlist=None, cache_dir=None) -> UBEResult:
    """Run the UBE algorithm (Section 3, Table 2 defaults) on ``embedding`` with the given name tokens.

    Seeds for the SVM sample, the two K-means runs and the rotations are derived from ``parameters.seed``. The
    parameters are checked when made (:class:`UBEParameters`), and the cost of the null before any work
    (:func:`check_null_cost`): a request that would take hours or more memory than :data:`MAX_NULL_BYTES` is
    refused.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding, its vocabulary in frequency order.
    name_tokens : sequence of str
        The name tokens (e.g. :func:`name_list`'s ``tokens``).
    parameters : UBEParameters, optional
        The algorithm's inputs (n, m, M, t, alpha, R, seed, clean_fraction, svm_top_words, case_source); None:
        Table 2's defaults (``UBEParameters()``).
    name_exclusions : sequence of str, default ()
        Tokens never drawn as non-names for the SVM (e.g. the whole name list).
    word_exclusions : sequence of str, optional
        Tokens kept out of the word categories; by default the *cleaned* names (so targets and attributes are
        disjoint; names the SVM removed, like "may", stay available as words).
    cased : bool, optional
        Whether the vocabulary has case (default: :func:`wordbias.embeddings.is_cased`).
    batch_size : int, default 8
        Rotations per matrix product in :func:`rotational_null` (the result does not depend on it).
    workers : int, optional
        Threads of :func:`rotational_null` (the result does not depend on it).
    progress : bool, default True
        Show a progress bar for the null.
    wordlist : collection of str, optional
        Replaces the shipped word list of the ``"wordlist"`` rule.
    cache_dir : str or path-like, optional
        Where to cache the rotational null (:func:`rotational_null`; ``wordbias.measures.enumeration.ube_null.CACHE_DIR`` is
        wordbias's place for it): the same run again reads it back. By default it is not cached.

    Returns
    -------
    UBEResult
        Everything the run produces.

    Raises
    ------
    InvalidParameterError
        If a parameter is out of range, or t is larger than every word category.
    TooCostlyError
        If the null is estimated to exceed :data:`MAX_NULL_SECONDS` or :data:`MAX_NULL_BYTES`.
    DegenerateSetError
        If too few names or words are left to clean or cluster.

    Warns
    -----
    LowPowerWarning
        When no (group, category) cell has t words (too few rotations warn when the :class:`UBEParameters` is
        made).

    Examples
    --------
    A toy embedding of random vectors (no bias to find): 20 of its tokens are the names.

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> embedding = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> parameters = UBEParameters(n=2, m=3, M=60, t=2, R=50, svm_top_words=120, case_source=None)
    >>> res = run(embedding, tokens[:20], parameters, progress=False)
    >>> len(res.names), res.sigma.shape, res.null.shape, res.n_significant()
    (16, (2, 3), (50, 2, 3), 0)
    """
    from wordbias.core.validation import check_words
    from wordbias.embeddings import is_cased

    p = UBEParameters() if parameters is None else parameters
    if not isinstance(p, UBEParameters):
        raise InvalidParameterError(f"parameters must be a UBEParameters or None, not {type(p).__name__}")
    _check_run_options(batch_size=batch_size, workers=workers, cased=cased, progress=progress)
    n, m, M, t, alpha, R, seed = p.n, p.m, p.M, p.t, p.alpha, p.R, p.seed
    name_tokens = list(check_words("name_tokens", name_tokens, allow_duplicates=True))
    name_exclusions = _check_words_or_none("name_exclusions", name_exclusions)
    word_exclusions = _check_words_or_none("word_exclusions", word_exclusions)
    vocabulary = len(embedding.index_to_key)
    check_null_cost(R, n, m, vocabulary if M is None else min(M, vocabulary), embedding.vector_size,
                    workers or default_workers())
    if cased is None:
        cased = is_cased(embedding)
    rule = case_rule(p.case_source, bool(cased))      # refused up front, before the names are cleaned
    s_clean, s_names, s_words, s_null = (int(x) for x in np.random.SeedSequence(seed).generate_state(4))
    cleaning, name_group, Xbar = name_groups(embedding, name_tokens, n, clean_fraction=p.clean_fraction,
                                             svm_top_words=p.svm_top_words, name_exclusions=name_exclusions,
                                             s_clean=s_clean, s_names=s_names)
    names = cleaning.kept_tokens
    exclude = names if word_exclusions is None else word_exclusions
    words, W, category, Abar = word_categories(embedding, M, m, exclude=exclude, cased=cased, s_words=s_words,
                                               case_source=rule, wordlist=wordlist)
    _check_t_fits(t, category, m)

    selected, sigma = select_words(W, category, Xbar, Abar, t)
    if not np.isfinite(sigma).any():
        warnings.warn(f"no (group, category) cell has t = {t} words in its Voronoi set: UBE has no test to "
                      f"make (every p is 1); lower t or m", LowPowerWarning, stacklevel=2)
    null = rotational_null(W, category, Xbar, Abar, t, R, seed=s_null, batch_size=batch_size, workers=workers,
                           progress=progress, cache_dir=cache_dir)
    p_value = p_values(sigma, null)
    significant, critical = bh_rejections(p_value, alpha)
    significant &= np.isfinite(sigma)
    Asel = {(i, j): W[selected[i][j]].mean(axis=0) for i in range(n) for j in range(m) if len(selected[i][j])}
    central = central_words(W, category, Abar)
    params = dict(n=n, m=m, M=M, t=t, alpha=alpha, R=R, seed=seed, clean_fraction=p.clean_fraction,
                  svm_top_words=p.svm_top_words, cased=cased, case_source=rule)
    return UBEResult(params=params, cleaning=cleaning, names=names, name_group=name_group, words=words,
                     word_category=category, word_group=voronoi(W, Xbar), Xbar=Xbar, Abar=Abar,
                     selected=selected, sigma=sigma, null=null, p=p_value, significant=significant,
                     critical_p=critical, Asel=Asel, central=central)


def ube(embedding, name_tokens: Sequence[str], parameters: UBEParameters | None = None, *, test: str = "",
        **run_options):
    """UBE (Swinger et al. 2019, https://doi.org/10.1145/3306618.3314270) measured once, as the one
    :class:`~wordbias.result.Result` every measure returns.

    The run is :func:`run` (``run_options`` are its keywords: ``name_exclusions``, ``word_exclusions``,
    ``cased``, ``batch_size``, ``workers``, ``progress``, ``wordlist``, ``cache_dir``); the result is
    :meth:`~wordbias.measures.enumeration.ube_result.UBEResult.to_result`: the number of significant (group,
    category) cells, Simes' p over the testable cells against the rotational null, no effect size and no interval;
    the run itself (every cell, word and name) is its ``result``.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding, its vocabulary in frequency order.
    name_tokens : sequence of str
        The name tokens.
    parameters : UBEParameters, optional
        The algorithm's inputs; None: Table 2's defaults.
    test : str, default ""
        The test's id within its battery.
    **run_options
        The keywords of :func:`run`.

    Returns
    -------
    wordbias.result.Result
        The count of significant cells and Simes' p; ``result`` is the :class:`UBEResult`.

    Raises
    ------
    InvalidParameterError
        If a keyword is not one of :func:`run`'s, or an option is out of range (as :func:`run`).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> embedding = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> parameters = UBEParameters(n=2, m=3, M=60, t=2, R=50, svm_top_words=120, case_source=None)
    >>> r = ube(embedding, tokens[:20], parameters, progress=False)
    >>> r.measure, r.statistic, r.effect_size_name, r.coverage
    ('ube', 0.0, None, 'N 16/16; V 60/60')
    """
    import inspect

    known = set(inspect.signature(run).parameters) - {"embedding", "name_tokens", "parameters"}
    unknown = sorted(set(run_options) - known)
    if unknown:
        raise InvalidParameterError(f"ube() takes run()'s keywords {sorted(known)}; not {unknown}")
    return run(embedding, name_tokens, parameters, **run_options).to_result(test=test)
