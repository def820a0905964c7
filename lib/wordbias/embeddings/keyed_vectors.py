"""gensim :class:`~gensim.models.KeyedVectors` built from a word list and a matrix, and facts about them.

Every loader of :mod:`wordbias.embeddings` ends in :func:`to_keyed_vectors`; tests and examples use it to
build toy embeddings.
"""

from __future__ import annotations

import numpy as np
from gensim.models import KeyedVectors

__all__ = ["to_keyed_vectors", "is_cased"]


def to_keyed_vectors(
    words: list[str], vectors: np.ndarray, key_to_index: dict[str, int] | None = None
) -> KeyedVectors:
    """Wrap a word list and a matrix in a :class:`~gensim.models.KeyedVectors`.

    The matrix is used as is, not copied (a memory-mapped matrix stays memory-mapped). Words should be
    distinct; if they are not, later duplicates are dropped (which copies the matrix).

    Parameters
    ----------
    words : list of str
        The words, one per row of ``vectors``.
    vectors : numpy.ndarray, shape (n_words, dim)
        Their vectors; the ``KeyedVectors`` keeps their dtype.
    key_to_index : dict of str to int, optional
        The word -> row index, when the caller has built it already (used as is, unchecked); by default built
        from ``words``.

    Returns
    -------
    KeyedVectors
        The embedding, its ``index_to_key`` in the order of ``words``.

    Raises
    ------
    ValueError
        If ``vectors`` is not a matrix with one row per word.

    Examples
    --------
    >>> import numpy as np
    >>> kv = to_keyed_vectors(["king", "queen", "king"], np.array([[1, 0], [0, 1], [5, 5]], dtype=np.float32))
    >>> kv.index_to_key
    ['king', 'queen']
    >>> kv["king"]
    array([1., 0.], dtype=float32)
    >>> round(float(kv.similarity("king", "queen")), 3)
    0.0
    """
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise ValueError(f"{len(words)} words but a matrix of shape {vectors.shape}")
    if key_to_index is None:
        key_to_index = dict(zip(words, range(len(words))))
        if len(key_to_index) != len(words):
            key_to_index = {}
            for i, w in enumerate(words):
                key_to_index.setdefault(w, i)
            keep = np.fromiter(sorted(key_to_index.values()), dtype=np.int64, count=len(key_to_index))
            words = [words[i] for i in keep]
            vectors = np.asarray(vectors[keep])
            key_to_index = {w: i for i, w in enumerate(words)}
    kv = KeyedVectors(vector_size=vectors.shape[1], count=0, dtype=vectors.dtype)
    kv.vectors = vectors
    kv.index_to_key = words
    kv.key_to_index = key_to_index
    kv.next_index = len(words)
    return kv


def is_cased(embedding: KeyedVectors, sample: int = 50_000) -> bool:
    """Say whether an embedding's vocabulary distinguishes case.

    GloVe 6B is uncased (False); GloVe 840B, word2vec and fastText are cased. Measures fold the case of their
    word lists for an uncased vocabulary (``case_fold=None`` in :func:`wordbias.measures.measurement.weat`).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    sample : int, default 50_000
        How many of the first words of the vocabulary to look at.

    Returns
    -------
    bool
        True if any of the first ``sample`` words has an upper-case letter.

    Examples
    --------
    >>> import numpy as np
    >>> is_cased(to_keyed_vectors(["paris", "london"], np.zeros((2, 3), dtype=np.float32)))
    False
    >>> is_cased(to_keyed_vectors(["Paris", "london"], np.zeros((2, 3), dtype=np.float32)))
    True
    """
    return any(w != w.lower() for w in embedding.index_to_key[:sample])
