"""gensim :class:`~gensim.models.KeyedVectors` built from a word list and a matrix, and facts about them.

Every loader of :mod:`wordbias.embeddings` ends in :func:`to_keyed_vectors`; tests and examples use it to
build toy embeddings. What it returns is a :class:`CopyOnWriteKeyedVectors`: gensim's class, whose methods that
change vectors in place work on a matrix memory-mapped read-only (a cache, an installed package's file) by
changing a copy in memory, never the file.
"""

from __future__ import annotations

import contextlib
import contextvars
import copyreg
import logging
from collections.abc import Iterator

import numpy as np
from gensim.models import KeyedVectors

__all__ = ["to_keyed_vectors", "is_cased", "measuring", "is_measuring", "CopyOnWriteKeyedVectors"]

log = logging.getLogger(__name__)

#: the embedding a measurement holds (:func:`measuring`): the object, its matrix, and its case with the sample
#: it was read from; None outside a measurement
_MEASURING: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("wordbias_measuring", default=None)


class CopyOnWriteKeyedVectors(KeyedVectors):
    """gensim's :class:`~gensim.models.KeyedVectors` for a matrix that may be memory-mapped read-only.

    wordbias maps a cache's (or an installed package's) matrix read-only, so that nothing can change the file;
    gensim's methods that change vectors in place (:meth:`unit_normalize_all`, ``init_sims(replace=True)``,
    :meth:`add_vectors` with ``replace=True``, ``kv[word] = vector``, :meth:`add_vector` into a free slot,
    :meth:`intersect_word2vec_format`) would fail with numpy's "output array is read-only". Here they first
    replace a read-only matrix by a copy in memory (logged), then do what gensim does: the embedding changes,
    as one loaded into memory would, and the file stays as it was. Writing into ``kv.vectors`` directly is
    still refused by numpy (take ``np.array(kv.vectors)`` to edit a copy).

    Everything else is gensim's; pickled (``kv.save``, multiprocessing) it is a plain gensim ``KeyedVectors``,
    so files saved from it open without wordbias.

    Examples
    --------
    >>> frozen = np.array([[3.0, 4.0], [0.0, 2.0]], dtype=np.float32)
    >>> frozen.flags.writeable = False
    >>> kv = to_keyed_vectors(["a", "b"], frozen)
    >>> kv.unit_normalize_all()
    >>> kv["a"], frozen[0]                       # the embedding is normalised, the mapped matrix is not
    (array([0.6, 0.8], dtype=float32), array([3., 4.], dtype=float32))
    """

    def _writable_vectors(self) -> None:
        """Replace a read-only matrix by a writable copy in memory."""
        if self.vectors is not None and not self.vectors.flags.writeable:
            log.info("copying a read-only (memory-mapped) matrix of shape %s into memory to change it",
                     self.vectors.shape)
            self.vectors = np.array(self.vectors)

    def unit_normalize_all(self):
        """gensim's :meth:`~gensim.models.KeyedVectors.unit_normalize_all`, on a copy of a read-only matrix."""
        self._writable_vectors()
        return super().unit_normalize_all()

    def add_vectors(self, keys, weights, extras=None, replace=False):
        """gensim's :meth:`~gensim.models.KeyedVectors.add_vectors`; replacing vectors of words already there
        copies a read-only matrix first."""
        if replace:
            keys = [keys] if isinstance(keys, (str, int, np.integer)) else keys
            if any(k in self.key_to_index for k in keys):
                self._writable_vectors()
        return super().add_vectors(keys, weights, extras=extras, replace=replace)

    def add_vector(self, key, vector):
        """gensim's :meth:`~gensim.models.KeyedVectors.add_vector`; filling a free slot copies a read-only matrix
        first."""
        if self.next_index < len(self) and self.index_to_key[self.next_index] is None:
            self._writable_vectors()
        return super().add_vector(key, vector)

    def intersect_word2vec_format(self, *args, **kwargs):
        """gensim's :meth:`~gensim.models.KeyedVectors.intersect_word2vec_format`, on a copy of a read-only
        matrix."""
        self._writable_vectors()
        return super().intersect_word2vec_format(*args, **kwargs)

    def __reduce_ex__(self, protocol):
        """Pickle as gensim's own ``KeyedVectors`` (a file saved from it needs no wordbias to open)."""
        state = super().__reduce_ex__(protocol)[2]
        return copyreg._reconstructor, (KeyedVectors, object, None), state


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
    CopyOnWriteKeyedVectors
        The embedding (a gensim ``KeyedVectors``), its ``index_to_key`` in the order of ``words``.

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
    kv = CopyOnWriteKeyedVectors(vector_size=vectors.shape[1], count=0, dtype=vectors.dtype)
    kv.vectors = vectors
    kv.index_to_key = words
    kv.key_to_index = key_to_index
    kv.next_index = len(words)
    return kv


def is_cased(embedding: KeyedVectors, sample: int = 50_000) -> bool:
    """Say whether an embedding's vocabulary distinguishes case.

    GloVe 6B is uncased (False); GloVe 840B, word2vec and fastText are cased. Measures fold the case of their
    word lists for an uncased vocabulary (``case_fold=None`` in :func:`wordbias.measures.association.measurement.weat`).

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
    held = _MEASURING.get()
    if held is not None and is_measuring(embedding) and held[2] == sample:
        return held[3]
    return _any_upper(embedding.index_to_key[:sample])


def _any_upper(words) -> bool:
    """Whether any of ``words`` changes under ``str.lower`` (the one scan of a vocabulary :func:`is_cased` makes)."""
    return any(w != w.lower() for w in words)


@contextlib.contextmanager
def measuring(embedding: KeyedVectors, sample: int = 50_000) -> Iterator[KeyedVectors]:
    """Hold ``embedding`` for one measurement: inside the block it is checked and its vocabulary read once.

    ``embedding`` is what :func:`wordbias.embeddings.load` returned (loaded, or given and checked: float32, finite,
    no all-zero vector); the block promises not to change it. Inside it (in this thread or task),
    :func:`wordbias.embeddings.load` returns that same object as it is, without checking its matrix again
    (:func:`wordbias.embeddings.objects.from_object`), and :func:`is_cased` answers from the one scan made here.
    A matrix replaced inside the block (``kv.vectors = ...``, or gensim's methods that change vectors, which
    replace a read-only matrix by a copy) ends the hold for that object: it is checked and scanned again.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding, as :func:`wordbias.embeddings.load` returned it.
    sample : int, default 50_000
        The first words :func:`is_cased` reads (its default).

    Yields
    ------
    KeyedVectors
        ``embedding``.

    Examples
    --------
    >>> kv = to_keyed_vectors(["Paris", "london"], np.ones((2, 3), dtype=np.float32))
    >>> with measuring(kv):
    ...     is_measuring(kv), is_cased(kv)
    (True, True)
    >>> is_measuring(kv)
    False
    """
    token = _MEASURING.set((embedding, embedding.vectors, sample, _any_upper(embedding.index_to_key[:sample])))
    try:
        yield embedding
    finally:
        _MEASURING.reset(token)


def is_measuring(embedding) -> bool:
    """Whether ``embedding`` is the one a :func:`measuring` block holds, with the matrix it held."""
    held = _MEASURING.get()
    return held is not None and held[0] is embedding and held[1] is getattr(embedding, "vectors", None)
