"""Embeddings a researcher already holds: gensim's own files (``.kv``, ``.model``), a gensim ``KeyedVectors``, a
``Word2Vec`` or ``FastText`` model, or a mapping of words to vectors. :func:`wordbias.embeddings.load` takes each
and returns a float32 :class:`~gensim.models.KeyedVectors`, checked as a parsed file is (finite values, no
all-zero vector unless ``zero_vectors="keep"``, one dimension for every word).

gensim saves with :func:`gensim.utils.SaveLoad.save`: a pickle of the object, its large arrays in ``.npy`` files
beside it (``model.kv.vectors.npy``), which :func:`load_gensim_file` maps read-only. A pickle can run code when
it is read (this is gensim's format, not wordbias's: wordbias writes no pickle), so :func:`load_gensim_file`
reads it with a restricted unpickler (:mod:`wordbias.embeddings.safe_pickle`) that refuses anything a gensim
embedding or model does not hold; ``trust=True`` opens a trusted file with gensim's own loader. Loading a gensim
file writes no cache: it is already memory-mappable.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError
from wordbias.core.validation import as_float_array
from wordbias.embeddings.keyed_vectors import is_measuring, to_keyed_vectors
from wordbias.embeddings.safe_pickle import load_saved, missing_module_error, starts_as_pickle

__all__ = ["GENSIM_SUFFIXES", "is_gensim_file", "load_gensim_file", "from_object", "is_embedding_object"]

#: File suffixes gensim users save under (``KeyedVectors.save`` and ``Word2Vec.save``/``FastText.save``).
GENSIM_SUFFIXES = (".kv", ".model", ".wv", ".kvmodel")
_CHECK_ROWS = 1 << 16  # rows checked per block: the finiteness check stays within a few MB of memory


def is_gensim_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a file gensim saved (a pickle: protocol 2 to 5), whatever its suffix.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> text_file = pathlib.Path(tempfile.mkdtemp(), "vectors.txt")
    >>> text_file.write_text("king 0.5 0.1\\n") > 0, is_gensim_file(text_file)     # word2vec text, not a pickle
    (True, False)
    """
    path = Path(path)
    if not path.is_file():
        return False
    with open(path, "rb") as f:
        return starts_as_pickle(f.read(2))


def load_gensim_file(path: str | os.PathLike, *, mmap_mode: str | None = "r", zero_vectors: str = "error",
                     trust: bool = False) -> KeyedVectors:
    """Open a file saved by gensim (``KeyedVectors.save``, ``Word2Vec.save``, ``FastText.save``): its vectors
    (a model's ``.wv``) as float32 :class:`~gensim.models.KeyedVectors`, the arrays memory-mapped read-only
    where gensim stored them beside the file (``mmap_mode="r"``).

    By default the pickle is read by :func:`wordbias.embeddings.safe_pickle.load_saved`, which runs no code
    from the file: one that names anything a gensim embedding or model does not hold raises
    :class:`~wordbias.core.errors.UnsafeFileError`. ``trust=True`` uses gensim's own
    :meth:`~gensim.utils.SaveLoad.load`, which runs whatever the file names: only for a file you made or
    trust. A file that is not gensim's, or a gensim object without word vectors, raises
    :class:`~wordbias.core.errors.EmbeddingFormatError` naming the file; so does a trusted file that needs a
    package not installed here (with the ``pip install`` that provides it).
    """
    from gensim.utils import SaveLoad

    path = Path(path)
    if not isinstance(trust, bool):
        raise InvalidParameterError(f"trust must be True or False, not {trust!r}")
    if not trust:
        obj = load_saved(path, mmap_mode=mmap_mode)
    else:
        try:
            obj = SaveLoad.load(str(path), mmap=mmap_mode)
        except FileNotFoundError as exc:  # an array file gensim stored beside it is missing
            raise EmbeddingFormatError(f"{path}: gensim's file refers to {exc.filename}, which is missing (gensim "
                                       "stores large arrays in .npy files beside the file: copy them too)") from exc
        except ModuleNotFoundError as exc:  # a class of a package not installed here
            raise missing_module_error(path, exc) from exc
        except Exception as exc:  # noqa: BLE001 - unpickling can fail in many ways; name the file and why
            raise EmbeddingFormatError(f"{path}: not a file gensim can load ({type(exc).__name__}: {exc})") from exc
    try:
        return from_object(obj, zero_vectors=zero_vectors, where=str(path))
    except InvalidParameterError as exc:
        raise EmbeddingFormatError(str(exc)) from exc


def is_embedding_object(obj) -> bool:
    """Whether ``obj`` is an embedding held in memory that :func:`from_object` takes."""
    return isinstance(obj, (KeyedVectors, Mapping)) or isinstance(getattr(obj, "wv", None), KeyedVectors)


def from_object(obj, *, zero_vectors: str = "error", where: str | None = None) -> KeyedVectors:
    """A float32 :class:`~gensim.models.KeyedVectors` from a ``KeyedVectors`` (returned as it is when already
    float32), a gensim model with word vectors (``Word2Vec``, ``FastText``, ``Doc2Vec``: its ``.wv``) or a
    mapping of words to equal-length vectors; checked: finite values, no all-zero vector unless
    ``zero_vectors="keep"``.

    Examples
    --------
    >>> kv = from_object({"king": [0.5, 0.1], "queen": [0.4, 0.2]})
    >>> kv.index_to_key, kv.vectors.dtype
    (['king', 'queen'], dtype('float32'))
    >>> from_object({"king": [0.5, 0.1], "queen": [0.4]})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: the word->vector mapping: vectors of different lengths (2 for 'king', 1 for 'queen'); every word needs a vector of the same dimension
    """
    where = where or type(obj).__name__
    if zero_vectors not in ("error", "keep"):
        raise InvalidParameterError(f"zero_vectors must be 'error' or 'keep'; not {zero_vectors!r}")
    if is_measuring(obj):
        return obj      # checked where its measurement began (wordbias.embeddings.keyed_vectors.measuring)
    if not isinstance(obj, (KeyedVectors, Mapping)) and isinstance(getattr(obj, "wv", None), KeyedVectors):
        obj = obj.wv  # Word2Vec, FastText, Doc2Vec: the word vectors
    if isinstance(obj, Mapping):
        kv = _from_mapping(obj)
        where = "the word->vector mapping"
    elif isinstance(obj, KeyedVectors):
        kv = _as_float32(obj, where)
    else:
        raise InvalidParameterError(f"{where}: not an embedding (expected a gensim KeyedVectors, a Word2Vec/FastText "
                                    "model, a word->vector mapping, a registered name or a path)")
    _check_rows(kv, where, allow_zero=zero_vectors == "keep")
    return kv


def _from_mapping(mapping: Mapping) -> KeyedVectors:
    where = "the word->vector mapping"
    if not mapping:
        raise InvalidParameterError(f"{where} is empty")
    words, rows = [], []
    first = None
    for word, vector in mapping.items():
        if not isinstance(word, str) or not word or "\n" in word:
            raise InvalidParameterError(f"{where}: every key must be a non-empty word without a newline, not {word!r}")
        # a list, an array, a torch tensor or a pandas Series; anything else refused naming the word
        row = as_float_array(f"{where}: the vector of {word!r}", vector, ndim=1).astype(np.float32)
        if first is None:
            first = (word, row.size)
        elif row.size != first[1]:
            raise InvalidParameterError(
                f"{where}: vectors of different lengths ({first[1]} for {first[0]!r}, {row.size} for {word!r}); "
                "every word needs a vector of the same dimension")
        words.append(word)
        rows.append(row)
    if first[1] == 0:
        raise InvalidParameterError(f"{where}: the vectors have no dimensions")
    return to_keyed_vectors(words, np.stack(rows))


def _as_float32(kv: KeyedVectors, where: str) -> KeyedVectors:
    vectors = kv.vectors
    if vectors is None or getattr(vectors, "ndim", 0) != 2 or len(kv.index_to_key) != vectors.shape[0]:
        shape = getattr(vectors, "shape", None)
        raise InvalidParameterError(f"{where}: KeyedVectors with {len(kv.index_to_key)} words and vectors of shape "
                                    f"{shape}: not a complete embedding")
    if vectors.shape[0] == 0:
        raise InvalidParameterError(f"{where}: the KeyedVectors holds no words")
    if vectors.dtype == np.float32:
        return kv
    return to_keyed_vectors([str(w) for w in kv.index_to_key], np.asarray(vectors, dtype=np.float32))


def _check_rows(kv: KeyedVectors, where: str, *, allow_zero: bool) -> None:
    """Finite values, and no all-zero row unless allowed, in blocks of rows (a 3,000,000 x 300 matrix is
    checked in about a second without a copy of it)."""
    vectors = kv.vectors
    for start in range(0, vectors.shape[0], _CHECK_ROWS):
        block = np.asarray(vectors[start:start + _CHECK_ROWS])
        finite = np.isfinite(block).all(axis=1)
        if not finite.all():
            row = start + int(np.argmin(finite))
            raise InvalidParameterError(f"{where}: the vector of {kv.index_to_key[row]!r} (row {row}) holds a "
                                        "non-finite value")
        if not allow_zero:
            zero = ~block.any(axis=1)
            if zero.any():
                row = start + int(np.argmax(zero))
                raise InvalidParameterError(
                    f"{where}: the vector of {kv.index_to_key[row]!r} (row {row}) is all zeros, which has no "
                    "direction; pass zero_vectors='keep' to keep it")
