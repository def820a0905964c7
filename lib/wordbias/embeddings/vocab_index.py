"""A word -> row index stored with a cache, so that opening a 3,000,000-word embedding does not build a Python
dict of 3,000,000 words (1.2-1.5 s of CPython work, most of a cached open).

The index is one ``(2, n)`` uint64 array (``vocab_index.npy``, memory-mapped): row 0 holds the 64-bit FNV-1a
hash of each word's UTF-8 bytes, sorted; row 1 the word's row in the matrix, in the same order (a stable sort,
so words sharing a hash keep their vocabulary order). A lookup hashes the word (pure Python, about 1 µs for a
10-letter word), finds the hash by binary search and **checks the word itself** against ``index_to_key`` at
that row, so a hash collision, or a damaged index, can never return another word's vector: at worst a word
would read as missing, and the cache's checksums (SHA-256 of the index, recorded in meta.json) catch damage
before that.

:class:`VocabularyIndex` is the ``key_to_index`` of an opened cache: a mapping with the interface of the dict
gensim expects (``get``, ``[]``, ``in``, ``len``, iteration, ``items``). Iteration and ``items()`` walk
``index_to_key`` directly (no hashing). After as many single-word lookups as a quarter of the vocabulary, or on
the first write (gensim's ``add_vectors``), it builds the plain dict once and uses it from then on, so a
workload that looks up most of the vocabulary never pays more than about a dict build plus a quarter of the
hashed lookups. Pickled, it becomes a plain dict.

FNV-1a (Fowler, Noll and Vo; http://www.isthe.com/chongo/tech/comp/fnv/) is used rather than Python's ``hash``
because it is the same on every run and machine (``hash`` of a str is salted per process) and easy to vectorise
over a whole vocabulary with numpy (:func:`fnv1a_64_many`: 0.2 s for 3,000,000 words).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping

import numpy as np

__all__ = ["FNV_OFFSET", "FNV_PRIME", "fnv1a_64", "fnv1a_64_many", "build_index", "VocabularyIndex"]

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_MASK = (1 << 64) - 1


def fnv1a_64(data: bytes) -> int:
    """The 64-bit FNV-1a hash of ``data``.

    Examples
    --------
    >>> hex(fnv1a_64(b""))  # the offset basis
    '0xcbf29ce484222325'
    >>> hex(fnv1a_64(b"a"))  # the published test vector
    '0xaf63dc4c8601ec8c'
    """
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & _MASK
    return h


def fnv1a_64_many(buffer: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """:func:`fnv1a_64` of many byte strings at once: string ``i`` is ``buffer[starts[i]:starts[i] + lengths[i]]``
    (``buffer`` a uint8 array). Vectorised over the strings: one numpy step per byte position, over the strings
    that long (ordered longest first, so each step works on a prefix).

    Examples
    --------
    >>> import numpy as np
    >>> data = np.frombuffer(b"a\\nbc\\n", dtype=np.uint8)
    >>> [hex(h) for h in fnv1a_64_many(data, np.array([0, 2]), np.array([1, 2]))] == [
    ...     hex(fnv1a_64(b"a")), hex(fnv1a_64(b"bc"))]
    True
    """
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    order = np.argsort(-lengths, kind="stable")
    sorted_starts = starts[order]
    sorted_lengths = lengths[order]
    h = np.full(len(order), FNV_OFFSET, dtype=np.uint64)
    prime = np.uint64(FNV_PRIME)
    longest = int(sorted_lengths[0]) if len(order) else 0
    # active[j]: how many strings are longer than j bytes (a prefix of the longest-first order)
    active = np.searchsorted(-sorted_lengths, -np.arange(longest), side="left")
    for j in range(longest):
        k = int(active[j])
        head = h[:k]
        head ^= buffer[sorted_starts[:k] + j].astype(np.uint64)
        head *= prime  # uint64 arithmetic wraps modulo 2**64, as FNV-1a requires
    out = np.empty_like(h)
    out[order] = h
    return out


def build_index(vocab_bytes: bytes) -> np.ndarray:
    """The ``(2, n)`` uint64 index of a vocabulary file's bytes (one word per line, ``\\n``-terminated, as
    ``vocab.txt`` of a cache): sorted hashes and their rows (see the module docstring).

    Examples
    --------
    >>> table = build_index(b"king\\nqueen\\n")
    >>> table.shape, sorted(table[1].tolist())
    ((2, 2), [0, 1])
    >>> bool(table[0][0] <= table[0][1])
    True
    """
    buffer = np.frombuffer(vocab_bytes, dtype=np.uint8)
    ends = np.flatnonzero(buffer == 0x0A)
    starts = np.concatenate(([0], ends[:-1] + 1)) if len(ends) else np.zeros(0, dtype=np.int64)
    hashes = fnv1a_64_many(buffer, starts, ends - starts)
    order = np.argsort(hashes, kind="stable")
    return np.stack([hashes[order], order.astype(np.uint64)])


class VocabularyIndex(MutableMapping):
    """``key_to_index`` backed by a stored hash index (see the module docstring).

    Examples
    --------
    >>> words = ["king", "queen"]
    >>> index = VocabularyIndex(words, build_index(b"king\\nqueen\\n"))
    >>> index["queen"], index.get("prince", -1), "king" in index, len(index), list(index.items())
    (1, -1, True, 2, [('king', 0), ('queen', 1)])
    >>> index["prince"] = 2; words.append("prince")  # gensim's add_vectors: the index becomes a dict
    >>> index["prince"], len(index)
    (2, 3)
    """

    def __init__(self, words: list[str], table: np.ndarray):
        if table.ndim != 2 or table.shape != (2, len(words)):
            raise ValueError(f"an index of shape {table.shape} for {len(words)} words")
        self._words = words
        self._n = len(words)
        self._hashes = table[0]
        self._rows = table[1]
        self._dict: dict[str, int] | None = None
        self._budget = max(1024, self._n // 4)  # hashed lookups before the plain dict is built

    def _find(self, key) -> int:
        """The row of ``key``, or -1."""
        if not isinstance(key, str):
            return -1
        try:
            data = key.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no word of a UTF-8 file can equal it
            return -1
        h = np.uint64(fnv1a_64(data))
        pos = int(self._hashes.searchsorted(h))
        while pos < self._n and self._hashes[pos] == h:
            row = int(self._rows[pos])
            if row < self._n and self._words[row] == key:
                return row
            pos += 1
        return -1

    def _as_dict(self) -> dict[str, int]:
        if self._dict is None:
            self._dict = dict(zip(self._words[: self._n], range(self._n)))
        return self._dict

    def _lookup(self, key) -> int:
        if self._dict is not None:
            return self._dict.get(key, -1)
        self._budget -= 1
        if self._budget < 0:
            return self._as_dict().get(key, -1)
        return self._find(key)

    def __getitem__(self, key) -> int:
        row = self._lookup(key)
        if row < 0:
            raise KeyError(key)
        return row

    def get(self, key, default=None):
        row = self._lookup(key)
        return default if row < 0 else row

    def __contains__(self, key) -> bool:
        return self._lookup(key) >= 0

    def __setitem__(self, key, value) -> None:
        self._as_dict()[key] = value

    def __delitem__(self, key) -> None:
        del self._as_dict()[key]

    def __len__(self) -> int:
        return self._n if self._dict is None else len(self._dict)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words[: self._n]) if self._dict is None else iter(self._dict)

    def items(self):
        if self._dict is None:
            return zip(self._words[: self._n], range(self._n))
        return self._dict.items()

    def values(self):
        return range(self._n) if self._dict is None else self._dict.values()

    def copy(self) -> dict[str, int]:
        return dict(self.items())

    def __reduce__(self):
        return (dict, (self.copy(),))

    def __eq__(self, other) -> bool:
        if isinstance(other, VocabularyIndex | dict):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        kind = "hashed" if self._dict is None else "dict"
        return f"<VocabularyIndex of {len(self)} words ({kind})>"
