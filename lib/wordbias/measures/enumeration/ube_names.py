"""Step 1 of Unsupervised Bias Enumeration (Swinger et al. 2019): the names, cleaned and clustered into groups.

:func:`name_list` maps a name source to an embedding's tokens (Appendix C.1: SSA first names; C.2: 2010 Census
surnames; both from :mod:`wordbias.datasets.names`); :func:`clean_names` drops the least name-like of them
(Appendix C.3, a linear SVM against random non-names); :func:`cluster` is the K-means++ of Sections 3.1-3.2 (for
the names here and the words in :mod:`wordbias.measures.enumeration.ube_words`); :func:`name_groups` is the whole step.
:func:`wordbias.measures.enumeration.ube.run` runs it with the other steps.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wordbias.core.errors import DegenerateSetError
from wordbias.core.validation import check_option
from wordbias.core.vectors import rows_of, unit_rows
from wordbias.datasets import names as _names

__all__ = ["NAME_SOURCES", "Cleaning", "NameList", "clean_names", "cluster", "describe_names", "name_groups",
           "name_list"]

#: the name sources of Appendix C: "first" (C.1) and "last" (C.2)
NAME_SOURCES = ("first", "last")


# --------------------------------------------------------------------------------------------------
# Appendix C.1-C.2: a source's names mapped to an embedding
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class NameList:
    """Names of one source mapped to an embedding (the result of :func:`name_list`).

    Attributes
    ----------
    kind : {"first", "last"}
        The name source.
    tokens : list of str
        The embedding's tokens of the names, in the source's frequency order.
    counts : pandas.Series
        The source's counts (births or people) per token.
    missing : tuple of str
        The names without a token in the embedding.
    n_source : int
        The names in the source.
    """

    kind: str
    tokens: list[str]
    counts: pd.Series
    missing: tuple[str, ...]
    n_source: int


def name_list(kind: str, kv, *, cased: bool) -> NameList:
    """A source's names restricted to those the embedding has (Appendix C.1-C.2).

    Parameters
    ----------
    kind : {"first", "last"}
        ``"first"``: Appendix C.1, SSA first names 1938–2017 with ≥ 1,000 births; ``"last"``: Appendix C.2,
        2010 Census surnames with ≥ 1,000 people.
    kv : KeyedVectors
        The embedding.
    cased : bool
        Whether the vocabulary has case (the names are lower-cased for an uncased one).

    Returns
    -------
    NameList
        The tokens, their counts and the names missing.

    Raises
    ------
    InvalidParameterError
        If ``kind`` is neither ``"first"`` nor ``"last"``.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["mary", "the", "john"], np.eye(3, dtype=np.float32))
    >>> names = name_list("first", kv, cased=False)
    >>> names.tokens, names.counts.tolist()
    (['john', 'mary'], [3546765, 2104548])
    >>> describe_names(names)
    'first names: 9,670 in the data (>= 1,000), 2 in the embedding, 9,668 missing'
    """
    check_option("kind", kind, NAME_SOURCES)
    table = _names.ssa_first_names() if kind == "first" else _names.census_surnames()
    mapped = _names.name_tokens(table["name"], kv, cased)
    counts = table.set_index("name")["count"]
    tok_counts = pd.Series(counts.loc[mapped.names].to_numpy(), index=mapped.tokens, name="count")
    return NameList(kind=kind, tokens=mapped.tokens, counts=tok_counts, missing=mapped.missing,
                    n_source=len(table))


def describe_names(names: NameList) -> str:
    """One line: how many names the source has and how many of them the embedding has.

    Parameters
    ----------
    names : NameList
        The names mapped to an embedding (:func:`name_list`).

    Returns
    -------
    str
        The description.

    Examples
    --------
    >>> names = NameList("first", ["john", "mary"], pd.Series([3, 2]), ("zed",), 3)
    >>> describe_names(names)
    'first names: 3 in the data (>= 1,000), 2 in the embedding, 1 missing'
    """
    return (f"{names.kind} names: {names.n_source:,} in the data (>= 1,000), {len(names.tokens):,} in the "
            f"embedding, {len(names.missing):,} missing")


# --------------------------------------------------------------------------------------------------
# Appendix C.3: cleaning names; Sections 3.1-3.2: clustering
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cleaning:
    """Result of :func:`clean_names`: which names were kept and each name's SVM margin.

    Attributes
    ----------
    tokens : list of str
        The input name tokens, in input order.
    margin : numpy.ndarray
        The signed distance of each name to the SVM hyperplane (larger = more name-like).
    kept : numpy.ndarray of bool
        True for the names kept.
    non_names : list of str
        The random non-names the SVM was trained against.
    """

    tokens: list[str]          # the input name tokens, in input order
    margin: np.ndarray         # signed distance to the SVM hyperplane (larger = more name-like)
    kept: np.ndarray           # bool, True for the names kept
    non_names: list[str]       # the random non-names the SVM was trained against

    @property
    def kept_tokens(self) -> list[str]:
        return [w for w, k in zip(self.tokens, self.kept) if k]

    @property
    def removed_tokens(self) -> list[str]:
        """Removed names, least name-like first."""
        order = np.argsort(self.margin, kind="stable")
        return [self.tokens[i] for i in order if not self.kept[i]]


def clean_names(embedding, tokens: Sequence[str], *, fraction: float = 0.2, top_words: int = 50_000,
                seed: int = 0, exclude: Sequence[str] = ()) -> Cleaning:
    """Appendix C.3: drop the least name-like names, by a linear SVM against random non-names.

    Scikit-learn's ``LinearSVC`` (default parameters) is trained to separate the names from an equal number
    of random non-names among the ``top_words`` most frequent tokens, and the ``fraction`` of names with the
    smallest margin is dropped.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding, its vocabulary in frequency order.
    tokens : sequence of str
        The name tokens (duplicates are dropped); at least 10.
    fraction : float, default 0.2
        The share of names dropped, in [0, 1).
    top_words : int, default 50_000
        The non-names are drawn from this many most frequent tokens.
    seed : int, default 0
        Seeds the draw of the non-names and the SVM.
    exclude : sequence of str, default ()
        Further tokens that must not be drawn as non-names (for example every name of the source list,
        including those the embedding has but that are not among ``tokens``).

    Returns
    -------
    Cleaning
        The names kept, the margins and the non-names.

    Raises
    ------
    DegenerateSetError
        If there are fewer than 10 names, or fewer non-names among the ``top_words`` than names.
    ValueError
        If ``fraction`` is not in [0, 1).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> embedding = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> cleaning = clean_names(embedding, tokens[:20], top_words=120)
    >>> len(cleaning.kept_tokens), len(cleaning.removed_tokens), len(cleaning.non_names)
    (16, 4, 20)
    """
    from sklearn.svm import LinearSVC

    tokens = list(dict.fromkeys(tokens))
    if len(tokens) < 10:
        raise DegenerateSetError(f"only {len(tokens)} names to clean; need at least 10")
    if not 0 <= fraction < 1:
        raise ValueError(f"fraction must be in [0, 1), got {fraction}")
    banned = set(tokens) | set(exclude)
    pool = [w for w in embedding.index_to_key[:top_words] if w not in banned]
    if len(pool) < len(tokens):
        raise DegenerateSetError(
            f"only {len(pool)} non-names among the {top_words} most frequent tokens for {len(tokens)} names")
    rng = np.random.default_rng(seed)
    non_names = [pool[i] for i in np.sort(rng.choice(len(pool), size=len(tokens), replace=False))]
    Xn = unit_rows(rows_of(embedding, tokens), "names")
    Xo = unit_rows(rows_of(embedding, non_names), "non-names")
    svm = LinearSVC(random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # default max_iter may not converge; the margin ranking is what is used
        svm.fit(np.vstack([Xn, Xo]), np.r_[np.ones(len(Xn)), np.zeros(len(Xo))])
    margin = svm.decision_function(Xn) / np.linalg.norm(svm.coef_)
    n_drop = int(round(fraction * len(tokens)))
    kept = np.ones(len(tokens), dtype=bool)
    kept[np.argsort(margin, kind="stable")[:n_drop]] = False
    return Cleaning(tokens=tokens, margin=margin, kept=kept, non_names=non_names)


def cluster(unit_vectors: np.ndarray, k: int, *, seed: int = 0) -> np.ndarray:
    """K-means++ clustering of unit vectors (Sections 3.1 and 3.2).

    This is scikit-learn's ``KMeans`` with its default parameters and ``random_state=seed``.

    Runs on one OpenMP thread: scikit-learn sums the cluster centres per thread and then adds the threads'
    partial sums, so the labels could depend on the machine's core count.

    Parameters
    ----------
    unit_vectors : numpy.ndarray of shape (N, d)
        The unit vectors to cluster.
    k : int
        The number of clusters.
    seed : int, default 0
        The K-means ``random_state``.

    Returns
    -------
    numpy.ndarray of int, shape (N,)
        The label (0..k-1) of each vector.

    Raises
    ------
    DegenerateSetError
        If there are fewer vectors than clusters, or K-means leaves a cluster empty.

    Examples
    --------
    >>> labels = cluster(np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]]), 2)
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3])
    True
    """
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    if len(unit_vectors) < k:
        raise DegenerateSetError(f"cannot form {k} clusters from {len(unit_vectors)} vectors")
    km = KMeans(n_clusters=k, init="k-means++", random_state=seed)
    with threadpool_limits(1):
        labels = km.fit_predict(np.ascontiguousarray(unit_vectors, dtype=np.float64))
    sizes = np.bincount(labels, minlength=k)
    if np.any(sizes == 0):
        raise DegenerateSetError(f"K-means left clusters {np.flatnonzero(sizes == 0).tolist()} empty")
    return labels


def name_groups(embedding, name_tokens: Sequence[str], n: int, *, clean_fraction: float, svm_top_words: int,
                name_exclusions: Sequence[str], s_clean: int, s_names: int):
    """Step 1 (Section 3.1): the names the embedding has, cleaned and clustered into n groups.

    The names are cleaned by :func:`clean_names` and clustered by :func:`cluster` (K-means++).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding, its vocabulary in frequency order.
    name_tokens : sequence of str
        The name tokens; those the embedding lacks are left out.
    n : int
        The number of groups.
    clean_fraction : float
        The share of names :func:`clean_names` drops.
    svm_top_words : int
        The non-names of the SVM are drawn from this many most frequent tokens.
    name_exclusions : sequence of str
        Tokens never drawn as non-names.
    s_clean : int
        The seed of the cleaning.
    s_names : int
        The seed of the K-means.

    Returns
    -------
    cleaning : Cleaning
        The cleaning (:func:`clean_names`).
    name_group : numpy.ndarray of int
        The group of each kept name.
    Xbar : numpy.ndarray of shape (n, d)
        The group means X̄_i.

    Raises
    ------
    DegenerateSetError
        If the embedding has fewer than n of the names, or the cleaning or clustering fails.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> embedding = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> cleaning, name_group, Xbar = name_groups(embedding, tokens[:20], 2, clean_fraction=0.2, svm_top_words=120,
    ...                                          name_exclusions=(), s_clean=0, s_names=0)
    >>> len(cleaning.kept_tokens), name_group.shape, Xbar.shape
    (16, (16,), (2, 8))
    """
    present = [w for w in dict.fromkeys(name_tokens) if w in embedding.key_to_index]
    if len(present) < n:
        raise DegenerateSetError(f"only {len(present)} of the names are in the embedding; need at least n = {n}")
    cleaning = clean_names(embedding, present, fraction=clean_fraction, top_words=svm_top_words, seed=s_clean,
                           exclude=name_exclusions)
    X = unit_rows(rows_of(embedding, cleaning.kept_tokens), "names")
    name_group = cluster(X, n, seed=s_names)
    Xbar = np.stack([X[name_group == i].mean(axis=0) for i in range(n)])
    return cleaning, name_group, Xbar
