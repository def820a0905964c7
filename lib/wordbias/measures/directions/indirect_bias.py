"""Indirect bias: how much of the similarity of two words is due to their shared component along a bias direction.

Bolukbasi, T., Chang, K.-W., Zou, J., Saligrama, V. & Kalai, A. (2016). Man is to Computer Programmer as Woman
is to Homemaker? Debiasing Word Embeddings. *Advances in Neural Information Processing Systems 29 (NIPS 2016)*,
4349-4357, https://papers.nips.cc/paper/6228 (arXiv:1607.06520), Section 5.2 ("Indirect bias") and Figure 3.

With unit word vectors w, v and a unit bias direction g (the gender direction: the first principal component
of the definitional pairs, :func:`wordbias.measures.directions.direction.pca_direction`), write w = w_g + w⊥ with
w_g = (w·g) g. The indirect bias of the pair is

    β(w, v) = ( w·v − (w⊥·v⊥) / (‖w⊥‖ ‖v⊥‖) ) / (w·v)

(:func:`indirect_bias`): the share of the inner product w·v that is lost when the component along g is removed
and the rest renormalised. β > 0: the direction makes the words more similar (both lean to the same side of
g); β < 0: it makes them less similar. The paper's example is the professions nearest "softball" and
"football", whose similarity to the two sports is in part gender (Figure 3). β divides by w·v: it is meant for
similar pairs, and is unstable (unbounded) for pairs near orthogonal.

:func:`indirect_biases` gives β of one word with others on an embedding; :func:`mean_indirect_bias` measures
the mean β over the pairs of two word lists, with a bootstrap interval over the words (the direction held
fixed). No test: the paper gives β as a description, and it has no null value under a sampling model (a
random direction gives β ≠ 0 too); compare β across directions or embeddings instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.identity import apply_pair_policy
from wordbias.core.validation import as_float_array
from wordbias.measures.directions.direction import unit_vector
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words
from wordbias.stats.resampling import index_counts

__all__ = ["DEFAULT_RESAMPLING", "indirect_bias", "indirect_bias_matrix", "indirect_biases", "mean_indirect_bias"]

#: the mean indirect bias's resampling options when the call gives none (it has no test: ``n_permutations`` is not
#: used)
DEFAULT_RESAMPLING = Resampling()


def _unit(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=-1, keepdims=True)


def indirect_bias_matrix(W, V, g) -> np.ndarray:
    """β(w, v) (Bolukbasi et al. 2016, Section 5.2) for every row w of ``W`` and v of ``V``, on unit vectors.

    Parameters
    ----------
    W, V : array-like of shape (n, d) and (m, d)
        The word vectors, one row per word (scaled to unit length here).
    g : array-like of shape (d,)
        The bias direction (scaled to unit length here).

    Returns
    -------
    numpy.ndarray of shape (n, m)
        β of each pair.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, or the dimensions differ.
    DegenerateSetError
        If a set is empty or holds a zero vector, ``g`` is zero, a word lies along ``g`` (w⊥ = 0), or a pair is
        orthogonal (w·v = 0: β undefined).

    Examples
    --------
    >>> indirect_bias_matrix([[1.0, 1.0, 0.0]], [[1.0, 1.0, 1.0], [1.0, -0.5, 1.0]], [1.0, 0.0, 0.0]).round(4)
    array([[0.134 , 2.8974]])
    """
    m = _sm.vector_sets({"W": W, "V": V})
    g = unit_vector(g, "g")
    if g.shape[0] != m["W"].shape[1]:
        raise InvalidParameterError(f"g has dimension {g.shape[0]}, the words {m['W'].shape[1]}")
    Wu, Vu = _unit(m["W"]), _unit(m["V"])
    Wp, Vp = Wu - np.outer(Wu @ g, g), Vu - np.outer(Vu @ g, g)
    nw, nv = np.linalg.norm(Wp, axis=1), np.linalg.norm(Vp, axis=1)
    for k, n in (("W", nw), ("V", nv)):
        flat = np.flatnonzero(~(n > 1e-12))
        if flat.size:
            raise DegenerateSetError(f"rows {flat.tolist()[:10]} of {k} lie along g: nothing is left when the "
                                     "direction is removed, beta is undefined")
    dot = Wu @ Vu.T
    zero = np.argwhere(np.abs(dot) <= 1e-12)
    if zero.size:
        raise DegenerateSetError(f"the pairs {zero.tolist()[:5]} (rows of W, V) are orthogonal: beta divides by w.v")
    return (dot - (Wp @ Vp.T) / np.outer(nw, nv)) / dot


def indirect_bias(w, v, g) -> float:
    """β(w, v) = (w·v − w⊥·v⊥ / (‖w⊥‖‖v⊥‖)) / (w·v), w⊥ = w − (w·g)g, on unit vectors (Bolukbasi et al. 2016,
    Section 5.2).

    Parameters
    ----------
    w, v : array-like of shape (d,)
        The two words' vectors (scaled to unit length here).
    g : array-like of shape (d,)
        The bias direction (scaled to unit length here).

    Returns
    -------
    float
        β: the share of w·v due to the component along g (positive: it makes the words more similar).

    Raises
    ------
    InvalidParameterError
        If a vector is not 1-D of finite numbers, or the dimensions differ.
    DegenerateSetError
        If a vector is zero, a word lies along ``g``, or w·v = 0.

    Examples
    --------
    w = (1, 1, 0)/√2, v = (1, 1, 1)/√3, g = e1: w·v = 0.8165; w⊥ = (0, 1, 0), v⊥ = (0, 1, 1)/√2, whose cosine is
    0.7071, so β = (0.8165 − 0.7071)/0.8165:

    >>> round(indirect_bias([1.0, 1.0, 0.0], [1.0, 1.0, 1.0], [1.0, 0.0, 0.0]), 4)
    0.134
    """
    w = as_float_array("w", w, ndim=1, what="a word vector")
    v = as_float_array("v", v, ndim=1, what="a word vector")
    return float(indirect_bias_matrix(w[None], v[None], g)[0, 0])


def _direction(kv, g, pairs, on_missing, shared_vectors: str = "keep"):
    """g as given (unit), or the PCA gender direction of ``pairs`` (default: the debiaswe definitional pairs), with
    a note saying which; a pair with a word whose vector is not its own is flagged in the note, left out or refused
    as ``shared_vectors`` says (:func:`wordbias.core.identity.apply_pair_policy`)."""
    from wordbias.measures.debiasing import debias

    if g is not None:
        return unit_vector(g, "g"), "the direction g given"
    pairs = debias.word_lists_for(kv).definitional_pairs if pairs is None else pairs
    check, _, pairs = apply_pair_policy(kv, {}, pairs, shared_vectors)
    direction, found = debias.gender_direction(kv, pairs, on_missing=on_missing)
    note = (f"g: the PCA gender direction of {len(found.pairs)} definitional pairs (PC1 explains "
            f"{direction.explained_variance_ratio[0]:.0%})")
    return direction.direction, note + (f"; definitional pairs' {check.note()}" if check else "")


def indirect_biases(embedding, word: str, others: Sequence[str], g=None, *, pairs: Sequence[Sequence[str]] | None = None,
                    case_fold: bool | None = None, on_missing: str = "drop"):
    """β(word, v) (Bolukbasi et al. 2016, Section 5.2) of one word with each of ``others`` on an embedding.

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like or mapping
        The embedding (a name, path or mapping is loaded by :func:`wordbias.embeddings.load`).
    word : str
        The word (e.g. ``"softball"``).
    others : sequence of str
        The other words (e.g. professions).
    g : array-like of shape (d,), optional
        The bias direction; by default the PCA gender direction of ``pairs``
        (:func:`wordbias.measures.debiasing.debias.gender_direction`).
    pairs : sequence of (str, str), optional
        The definitional pairs of the default direction (default: debiaswe's, in the embedding's casing).
    case_fold : bool or None, default None
        Lower-case the words; None: when the vocabulary is uncased.
    on_missing : {"drop", "raise"}, default "drop"
        What to do with unknown words (and pairs).

    Returns
    -------
    pandas.Series
        β of each other word found, indexed by the word, in the order given (named ``"beta"``).

    Raises
    ------
    InvalidParameterError
        If ``word`` is not a non-empty string, ``others`` is a string or repeats a word, or holds ``word``.
    DegenerateSetError
        If ``word`` or every other word is unknown, or β is undefined for a pair.
    KeyError
        If ``on_missing="raise"`` and a word is unknown.

    Examples
    --------
    >>> emb = {"a": [1.0, 1.0, 0.0], "b": [1.0, 1.0, 1.0], "c": [1.0, -0.5, 1.0]}
    >>> indirect_biases(emb, "a", ["b", "c"], g=[1.0, 0.0, 0.0]).round(4).tolist()
    [0.134, 2.8974]
    """
    if not isinstance(word, str) or not word:
        raise InvalidParameterError(f"word must be a non-empty string, not {word!r}")
    import pandas as pd

    got = _sm.look_up(embedding, {"W": [word], "V": others}, names={"W": "word", "V": "others"}, case_fold=case_fold,
                      on_missing=on_missing)
    g, _ = _direction(got.kv, g, pairs, on_missing)
    beta = indirect_bias_matrix(got.mats["W"], got.mats["V"], g)[0]
    return pd.Series(beta, index=list(got.sets["V"].words), name="beta")


def mean_indirect_bias(embedding, W: Sequence[str], others: Sequence[str], *, g=None,
                       pairs: Sequence[Sequence[str]] | None = None, names: Mapping[str, str] | None = None,
                       title: str | None = None, test: str = "", resampling: Resampling | None = None,
                       words: Words | None = None, warn: bool = True):
    """The mean indirect bias β (Bolukbasi et al. 2016, Section 5.2) over the pairs (w, v) of two word lists,
    measured once, with a bootstrap interval over the words (the direction held fixed); no test.

    The statistic is the mean of :func:`indirect_bias_matrix` over ``W`` × ``others`` (sets ``"W"``, ``"V"``).
    The interval resamples each list of two words or more (a single word is held fixed, and, a probe word rather
    than a sample of a list, is not judged for low coverage). The notes name the
    direction and the smallest ∣cos(w, v)∣ of the pairs (β divides by it).

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like or mapping
        The embedding (a name, path or mapping is loaded by :func:`wordbias.embeddings.load`).
    W : sequence of str
        The first words of the pairs (e.g. ``["softball"]``).
    others : sequence of str
        The second words of the pairs (e.g. the professions nearest it).
    g : array-like of shape (d,), optional
        The bias direction; by default the PCA gender direction of ``pairs``.
    pairs : sequence of (str, str), optional
        The definitional pairs of the default direction (default: debiaswe's).
    names : mapping of str to str, optional
        Display names of the sets, keyed ``"W"``, ``"V"``.
    title : str, optional
        The title; by default built from the names.
    test : str, default ""
        An id kept in the result.
    resampling : Resampling, optional
        The bootstrap resamples (0 for no interval), its level and method, and the seed; there is no test
        (``n_permutations`` is not used). None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        Case folding, unknown words (``on_missing``, also for the definitional pairs), the words whose vector is
        not their own (``shared_vectors``: in W and V, and a definitional pair with such a word, flagged in the
        notes, left out or refused) and the low-coverage thresholds; None: ``Words()``.
    warn : bool, default True
        Give the warnings; False keeps them in the result only.

    Returns
    -------
    wordbias.result.Result
        The mean β (``effect_size``) with its interval and the coverage; no p; ``result`` is the β matrix.

    Raises
    ------
    InvalidParameterError
        If an option is out of range, a list is a string or repeats a word, or the lists share a word.
    DegenerateSetError
        If a list is left empty, or β is undefined for a pair.
    KeyError
        If ``on_missing="raise"`` and a word is unknown.

    Examples
    --------
    >>> emb = {"a": [1.0, 1.0, 0.0], "b": [1.0, 1.0, 1.0], "c": [1.0, 0.5, 1.0], "d": [2.0, 1.0, 0.5]}
    >>> r = mean_indirect_bias(emb, ["a"], ["b", "c", "d"], g=[1.0, 0.0, 0.0],
    ...                        resampling=Resampling(n_resamples=200), warn=False)
    >>> round(r.effect_size, 4), r.p_method, r.ci_method
    (0.1785, 'none', 'BCa 95%, 200 resamples of V')
    """
    c = _sm.call(resampling, words, default=DEFAULT_RESAMPLING, test=test, warn=warn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _sm.look_up(embedding, {"W": W, "V": others}, names=names, case_fold=c.words.case_fold,
                          on_missing=c.words.on_missing, shared_vectors=c.words.shared_vectors)
        g, where = _direction(got.kv, g, pairs, c.words.on_missing, c.words.shared_vectors)
        B = indirect_bias_matrix(got.mats["W"], got.mats["V"], g)
    value = float(B.mean())

    def stat(W, V):
        cw, cv = index_counts(W, B.shape[0]), index_counts(V, B.shape[1])
        return ((cw @ B) * cv).sum(axis=-1) / (np.shape(W)[-1] * np.shape(V)[-1])

    interval, note = _sm.bootstrap(stat, {"W": B.shape[0], "V": B.shape[1]}, estimate=value,
                                   name="mean_indirect_bias", resampling=c.resampling)
    low = float(np.abs(_unit(got.mats["W"]) @ _unit(got.mats["V"]).T).min())
    n = got.names
    return _sm.measured(
        "indirect_bias", got, c, title=title or f"{n['W']} with {n['V']}", statistic_name="mean beta(w, v)",
        statistic=value, interval=interval, test=None, caught=caught,
        notes=(note, where, f"smallest |cos(w, v)| {low:.2f} (beta divides by it)",
               "no test: beta is descriptive, with no null value under a sampling model"), result=B,
        judged=("W", "V") if len(got.asked["W"]) > 1 else ("V",))
