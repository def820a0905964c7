"""Double-hard debiasing (Wang, Lin, Rajani, McCann, Ordonez & Xiong 2020).

"Double-Hard Debias: Tailoring Word Embeddings for Gender Bias Mitigation", ACL 2020, pp. 5443-5453,
doi:10.18653/v1/2020.acl-main.484 (arXiv:2005.00965). Word frequency is encoded in a few principal components of an
embedding and distorts the gender direction; Algorithm 1 removes the one "frequency direction" whose removal best
hides the gender of the most biased words from K-means, then hard-debiases (Bolukbasi et al. 2016,
:func:`wordbias.measures.debiasing.debias.hard_debias`):

1. decentralise: μ = the mean of every vector, w̃ = w − μ (Alg. 1, line 2);
2. u_1..u_d: the principal components of {w̃} (line 3);
3. for each candidate u_i: remove it from the most male- and female-biased words, w' = w̃ − (u_iᵀ w) u_i, remove
   the gender direction (recomputed from the definitional pairs after the same change), cluster the words with
   K-means (k = 2) and score the clustering's accuracy against their original gender (lines 5-13);
4. u_k: the candidate of lowest accuracy (line 14); remove it from every word (line 16) and hard-debias the result
   (line 18).

A re-implementation from the paper, checked against the authors' notebook (``GloVe_Debias.ipynb`` of
https://github.com/uvavision/Double-Hard-Debias) and WEFE's ``wefe/debias/double_hard_debias.py``; not their code.
:func:`double_hard_debias` lists the choices the paper leaves open and how they are made here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from gensim.models import KeyedVectors

from wordbias import embeddings
from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import check_int, check_option, check_seed
from wordbias.measures.debiasing import inlp as _inlp
from wordbias.measures.debiasing.debias import HardDebiasReport, hard_debias, word_lists_for
from wordbias.measures.debiasing.inlp import DEFAULT_CHUNK_ROWS, debiased_label
from wordbias.measures.directions.direction import pca_direction

__all__ = ["DoubleHardDebiasReport", "DoubleHardOptions", "embedding_pca", "double_hard_debias", "FREQUENCY_REMOVAL"]

#: how a candidate frequency direction u is removed: as Algorithm 1 writes it, w̃ − (uᵀw) u, or orthogonally,
#: w̃ − (uᵀw̃) u
FREQUENCY_REMOVAL = ("paper", "orthogonal")


@dataclass(frozen=True)
class DoubleHardOptions:
    """The choices of Algorithm 1 (Wang et al. 2020) that :func:`double_hard_debias` makes, checked when made.

    The defaults are the authors' notebook's (see :func:`double_hard_debias`); an option out of range raises
    :class:`~wordbias.core.errors.InvalidParameterError` naming it.

    Attributes
    ----------
    n_components : int, default 20
        Candidate components, >= 1 (at most the dimension, checked by :func:`double_hard_debias`).
    n_biased : int, default 1000
        Biased words per gender, >= 1.
    vocab_limit : int, default 50_000
        How many of the first words the biased words are chosen from, >= 1.
    bias_pair : (str, str), default ("he", "she")
        The words of the bias score, male first.
    frequency_removal : {"paper", "orthogonal"}, default "paper"
        How a candidate component u is removed (:data:`FREQUENCY_REMOVAL`).

    Examples
    --------
    >>> DoubleHardOptions(n_components=3, n_biased=10).n_biased
    10
    >>> DoubleHardOptions(frequency_removal="both")     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: frequency_removal ...
    """

    n_components: int = 20
    n_biased: int = 1000
    vocab_limit: int = 50_000
    bias_pair: tuple[str, str] = ("he", "she")
    frequency_removal: str = "paper"

    def __post_init__(self):
        object.__setattr__(self, "n_components", check_int("n_components", self.n_components, min=1))
        object.__setattr__(self, "n_biased", check_int("n_biased", self.n_biased, min=1))
        object.__setattr__(self, "vocab_limit", check_int("vocab_limit", self.vocab_limit, min=1))
        object.__setattr__(self, "bias_pair", lookup.check_word_list("bias_pair", self.bias_pair))
        check_option("frequency_removal", self.frequency_removal, FREQUENCY_REMOVAL)


def embedding_pca(vectors: np.ndarray, n_components: int | None = None,
                  chunk_rows: int = DEFAULT_CHUNK_ROWS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The mean and the principal components of every row of ``vectors`` (Algorithm 1, lines 2-3).

    The covariance is accumulated in float64, ``chunk_rows`` rows at a time (no copy of the matrix), and
    diagonalised; each component's sign is fixed so that its largest coordinate is positive.

    Parameters
    ----------
    vectors : numpy.ndarray of shape (n, d)
        The embedding's matrix (may be memory-mapped).
    n_components : int, optional
        How many components to return; by default d.
    chunk_rows : int, default DEFAULT_CHUNK_ROWS
        Rows read at a time.

    Returns
    -------
    mean : numpy.ndarray of shape (d,)
        μ.
    components : numpy.ndarray of shape (n_components, d)
        u_1, u_2, ...: unit rows, by decreasing variance.
    explained_variance_ratio : numpy.ndarray of shape (n_components,)
        The share of the total variance along each.

    Raises
    ------
    DegenerateSetError
        If the matrix has fewer than two rows or non-finite values.

    Examples
    --------
    >>> mean, comps, ratio = embedding_pca(np.array([[0.0, 0.0], [4.0, 0.0], [2.0, 0.5], [2.0, -0.5]]))
    >>> mean + 0, comps.round(3) + 0, ratio.round(3)
    (array([2., 0.]), array([[1., 0.],
           [0., 1.]]), array([0.941, 0.059]))
    """
    n, d = vectors.shape
    if n < 2:
        raise DegenerateSetError(f"{n} row(s): principal components need at least two")
    n_components = d if n_components is None else check_int("n_components", n_components, min=1, max=d)
    total = np.zeros(d)
    scatter = np.zeros((d, d))
    for start in range(0, n, chunk_rows):
        x = np.asarray(vectors[start:start + chunk_rows], dtype=np.float64)
        total += x.sum(axis=0)
        scatter += x.T @ x
    mean = total / n
    cov = scatter / n - np.outer(mean, mean)
    if not np.all(np.isfinite(cov)):
        raise DegenerateSetError("the embedding holds non-finite values")
    lam, V = np.linalg.eigh((cov + cov.T) / 2)
    order = np.argsort(-lam, kind="stable")[:n_components]
    comps = V[:, order].T
    comps *= np.where(comps[np.arange(len(comps)), np.argmax(np.abs(comps), axis=1)] < 0, -1.0, 1.0)[:, None]
    ratio = np.clip(lam[order], 0.0, None) / max(float(np.clip(lam, 0.0, None).sum()), np.finfo(float).tiny)
    return mean, comps, ratio


@dataclass(frozen=True)
class DoubleHardDebiasReport:
    """What :func:`double_hard_debias` did.

    Attributes
    ----------
    component_accuracy : tuple of float
        For each candidate component u_i (i = 0, 1, ...), the K-means accuracy on the biased words after
        removing u_i and the gender direction (0.5 is chance; lower is better).
    accuracy_without_removal : float
        The same with no component removed (hard debias of the centred words only).
    chosen_component : int
        k, the index (from 0) of the component removed from every word.
    frequency_direction : numpy.ndarray
        u_k.
    explained_variance_ratio : numpy.ndarray
        The variance share of each candidate component.
    mean : numpy.ndarray
        μ, the mean vector subtracted.
    male_words : tuple of str
        The most male-biased words clustered (highest cos(w, he) − cos(w, she)).
    female_words : tuple of str
        The most female-biased words clustered.
    n_candidates : int
        The words they were chosen from.
    frequency_removal : str
        ``"paper"`` or ``"orthogonal"``.
    seed : int
        The K-means seed.
    hard_debias : HardDebiasReport
        The report of the final hard debias.
    label : str
        The debiased embedding's label, ``<label>+double-hard``.
    """

    component_accuracy: tuple[float, ...]
    accuracy_without_removal: float
    chosen_component: int
    frequency_direction: np.ndarray = field(repr=False)
    explained_variance_ratio: np.ndarray = field(repr=False)
    mean: np.ndarray = field(repr=False)
    male_words: tuple[str, ...] = field(repr=False)
    female_words: tuple[str, ...] = field(repr=False)
    n_candidates: int
    frequency_removal: str
    seed: int
    hard_debias: HardDebiasReport = field(repr=False)
    label: str

    def table(self):
        """The selection table: one row per candidate component.

        Returns
        -------
        pandas.DataFrame
            Columns component (from 0), explained_variance_ratio, accuracy, chosen.
        """
        import pandas as pd

        return pd.DataFrame({"component": np.arange(len(self.component_accuracy)),
                             "explained_variance_ratio": self.explained_variance_ratio,
                             "accuracy": self.component_accuracy,
                             "chosen": np.arange(len(self.component_accuracy)) == self.chosen_component})


def _remove(Y: np.ndarray, mean: np.ndarray, u: np.ndarray | None, how: str) -> np.ndarray:
    """Algorithm 1, lines 6-7 and 16: w̃ − (uᵀw) u ("paper") or w̃ − (uᵀw̃) u ("orthogonal"); w̃ if u is None."""
    centred = Y - mean
    if u is None:
        return centred
    return centred - np.outer((Y if how == "paper" else centred) @ u, u)


def _kmeans_accuracy(X: np.ndarray, y: np.ndarray, seed: int) -> float:
    """Line 10-11: K-means (k = 2; scikit-learn, 10 starts, ``random_state=seed``) and the share of words whose
    cluster matches their gender, the better of the two matchings (the authors' ``max(a, 1 − a)``). One thread: on
    a busy machine OpenMP threads of a problem this small spin for ages."""
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        pred = KMeans(n_clusters=2, n_init=10, random_state=seed).fit_predict(X)
    a = float(np.mean(pred == y))
    return max(a, 1.0 - a)


def double_hard_debias(
    embedding,
    definitional_pairs: Sequence[Sequence[str]] | None = None,
    gender_specific: Iterable[str] | None = None,
    equalize_pairs: Sequence[Sequence[str]] | None = None,
    *,
    options: DoubleHardOptions | None = None,
    seed: int = 0,
    restrict: int | Collection[str] | None = None,
    equalize_from: str = "input",
    label: str | None = None,
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    out: np.ndarray | None = None,
) -> tuple[KeyedVectors, DoubleHardDebiasReport]:
    """Double-hard-debias an embedding (Wang et al. 2020, Algorithm 1).

    The steps are those of the module docstring. Choices the paper leaves open, made as the authors' notebook
    makes them:

    * the biased words: among the ``options.vocab_limit`` first words (the authors' ``limit_vocab``: 50,000, lower case,
      shorter than 20 characters, no digit or punctuation) less the gender-specific, definitional and equalize
      words, the ``options.n_biased`` of highest and of lowest cos(w, he) − cos(w, she) on the original vectors (the
      notebook's ``size = 1000``);
    * the candidates: the ``options.n_components`` first principal components (the notebook tries 20; WEFE 4);
    * in the candidate loop, "HardDebias" is the removal of the gender direction only (no normalising or
      equalizing), the direction recomputed from the definitional pairs after the same change (the notebook's
      ``hard_debias``); the final step is the full :func:`~wordbias.measures.debiasing.debias.hard_debias`;
    * the frequency component is removed as Algorithm 1 writes it, w̃ − (uᵀw) u, with the uncentred w (the
      notebook does the same); every word then keeps the same constant −(uᵀμ) u along u.
      ``options.frequency_removal="orthogonal"`` removes it orthogonally instead, w̃ − (uᵀw̃) u.

    Memory: the result is one float32 matrix (``out`` if given); the frequency-removed vectors are written into
    it and hard-debiased in place, so the input (which may be memory-mapped) is read, never copied.

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding (not modified), or a name or path :func:`wordbias.embeddings.load` takes.
    definitional_pairs : sequence of (str, str), optional
        The pairs of the gender direction (default: the debiaswe lists, :func:`wordbias.measures.debiasing.debias.word_lists_for`).
    gender_specific : iterable of str, optional
        The words hard debias leaves alone (default: the debiaswe full list); also never among the biased words.
    equalize_pairs : sequence of (str, str), optional
        The pairs hard debias equalizes (default: the debiaswe list).
    options : DoubleHardOptions, optional
        The candidate components (``n_components``, at most the dimension), the biased words per gender
        (``n_biased``), the first words they are chosen from (``vocab_limit``), the words of the bias score
        (``bias_pair``, male first) and how a component is removed (``frequency_removal``, see above); None:
        ``DoubleHardOptions()``, the authors' choices.
    seed : int, default 0
        Seed of K-means: the same seed gives the same bytes.
    restrict : int or collection of str, optional
        Passed to :func:`~wordbias.measures.debiasing.debias.hard_debias`.
    equalize_from : {"input", "neutralized"}, default "input"
        Passed to :func:`~wordbias.measures.debiasing.debias.hard_debias`.
    label : str, optional
        The label of the embedding; the report's ``label`` is ``<label>+double-hard``.
    chunk_rows : int, default DEFAULT_CHUNK_ROWS
        Rows processed at a time.
    out : numpy.ndarray, optional
        A float32 array of the embedding's shape to write the result into; by default a new array.

    Returns
    -------
    debiased : KeyedVectors
        The float32 vectors, every one of unit length, the vocabulary in the embedding's order.
    report : DoubleHardDebiasReport
        The selection table, the chosen component and the hard-debias report.

    Raises
    ------
    KeyError
        If a word of ``options.bias_pair`` is not in the embedding.
    DegenerateSetError
        If there are fewer than ``2 * n_biased`` candidate words, no definitional pair is left, or a vector is
        zero.
    InvalidParameterError
        If a parameter is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = ["he", "she", "man", "woman"] + [a + b + c for a in "abcd" for b in "efgh" for c in "ijkl"][:60]
    >>> vecs = rng.normal(size=(64, 6)).astype(np.float32)
    >>> vecs[:4, 0] = [2, -2, 2, -2]; vecs[4:34, 0] += 1.5; vecs[34:, 0] -= 1.5
    >>> kv = to_keyed_vectors(words, vecs)
    >>> out, report = double_hard_debias(kv, [("she", "he"), ("woman", "man")], ["he", "she", "man", "woman"],
    ...                                  [], options=DoubleHardOptions(n_components=3, n_biased=10), label="toy")
    >>> report.label, len(report.component_accuracy), report.chosen_component in (0, 1, 2)
    ('toy+double-hard', 3, True)
    >>> bool(abs(out.vectors[4:] @ report.hard_debias.direction).max() < 1e-6)
    True
    """
    kv = _inlp._as_kv(embedding)
    n, d = kv.vectors.shape
    options = DoubleHardOptions() if options is None else options
    if not isinstance(options, DoubleHardOptions):
        raise InvalidParameterError(f"options must be a DoubleHardOptions or None, not {type(options).__name__}")
    n_components = check_int("n_components", options.n_components, min=1, max=d)
    n_biased, vocab_limit, frequency_removal = options.n_biased, options.vocab_limit, options.frequency_removal
    seed = check_seed("seed", seed)
    chunk_rows = check_int("chunk_rows", chunk_rows, min=1)
    if None in (definitional_pairs, gender_specific, equalize_pairs):
        lists = word_lists_for(kv)
        definitional_pairs = lists.definitional_pairs if definitional_pairs is None else definitional_pairs
        gender_specific = lists.gender_specific if gender_specific is None else gender_specific
        equalize_pairs = lists.equalize_pairs if equalize_pairs is None else equalize_pairs
    gender_specific = tuple(gender_specific)
    a, b = options.bias_pair
    for w in (a, b):
        if w not in kv.key_to_index:
            raise KeyError(f"bias_pair: {w!r} is not in the embedding")
    defs = lookup.pair_vectors(kv, definitional_pairs, on_missing="drop", name="definitional pairs")

    # Lines 2-3: the mean and the principal components of the whole embedding.
    mean, comps, ratios = embedding_pca(kv.vectors, n_components, chunk_rows)

    # The most biased words, by cos(w, he) − cos(w, she) on the original vectors.
    exclude = set(gender_specific) | {w for p in defs.pairs for w in p}
    exclude |= {w for p in equalize_pairs for w in p}
    rows = _inlp._candidate_rows(kv, vocab_limit, exclude, 20)
    if len(rows) < 2 * n_biased:
        raise DegenerateSetError(f"{len(rows)} candidate words among the first {vocab_limit}; {2 * n_biased} "
                                 "needed (lower n_biased)")
    X = _inlp._gather_rows(kv.vectors, rows)
    norms = np.linalg.norm(X, axis=1)
    if np.any(norms == 0):
        raise DegenerateSetError(f"zero vectors among the candidate words: {[kv.index_to_key[i] for i in rows[norms == 0]][:10]}")
    he, she = (kv.vectors[kv.key_to_index[w]].astype(np.float64) for w in (a, b))
    score = (X @ (he / np.linalg.norm(he)) - X @ (she / np.linalg.norm(she))) / norms
    order = np.argsort(score, kind="stable")
    male, female = order[::-1][:n_biased], order[:n_biased]
    biased = X[np.concatenate([male, female])]
    y = np.repeat([1, 0], n_biased)

    # Lines 5-13: try each candidate component.
    def accuracy(u):
        A, B = _remove(defs.A, mean, u, frequency_removal), _remove(defs.B, mean, u, frequency_removal)
        g = pca_direction(A, B, normalize=False).direction
        W = _remove(biased, mean, u, frequency_removal)
        W -= np.outer(W @ g, g)
        return _kmeans_accuracy(W, y, seed if isinstance(seed, int) else 0)

    accs = tuple(accuracy(u) for u in comps)
    base = accuracy(None)
    k = int(np.argmin(accs))

    # Line 16: remove u_k from every word, into the result's matrix; line 18: hard debias it in place.
    out = _inlp._check_out(out, (n, d))
    u = comps[k]
    for start in range(0, n, chunk_rows):
        out[start:start + chunk_rows] = _remove(np.asarray(kv.vectors[start:start + chunk_rows], dtype=np.float64),
                                                mean, u, frequency_removal)
    shifted = embeddings.to_keyed_vectors(list(kv.index_to_key), out, dict(kv.key_to_index.items()))
    debiased, hard = hard_debias(shifted, defs.pairs, gender_specific, equalize_pairs, restrict=restrict,
                                 equalize_from=equalize_from, chunk_rows=chunk_rows, out=out)
    words = kv.index_to_key
    report = DoubleHardDebiasReport(
        component_accuracy=accs, accuracy_without_removal=base, chosen_component=k, frequency_direction=u,
        explained_variance_ratio=ratios, mean=mean, male_words=tuple(words[i] for i in rows[male]),
        female_words=tuple(words[i] for i in rows[female]), n_candidates=len(rows),
        frequency_removal=frequency_removal, seed=seed, hard_debias=hard,
        label=debiased_label(label, "double-hard"))
    return debiased, report
