"""The cache of parsed embeddings: a folder that :func:`wordbias.embeddings.load` opens memory-mapped in
well under a second, instead of parsing multi-GB text for minutes.

A cache folder holds ``vectors.npy`` (float32, one row per word, streamed to disk while parsing),
``vocab.txt`` (the words, one per line, UTF-8) and ``meta.json`` (source file name, size and modification
time for invalidation, format, shape, counts); no pickle. It is rebuilt when the source changes.
"""

from __future__ import annotations

import io
import json
import logging
import os
import time
import warnings
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core import paths
from wordbias.core.cache import atomic_folder
from wordbias.embeddings.formats import VECTORS_FILE, VOCAB_FILE, check_format, detect_format, zip_member
from wordbias.embeddings.keyed_vectors import to_keyed_vectors
from wordbias.embeddings.reader import parse_into, read_keyed_vectors

__all__ = [
    "CACHE_DIRNAME",
    "CACHE_VERSION",
    "convert",
    "open_cache",
    "save",
    "cache_dir_for",
    "registered_cache_dir",
    "load_cached",
    "read_meta",
]

log = logging.getLogger(__name__)

CACHE_DIRNAME = ".wordbias-cache"
CACHE_VERSION = 1
_META_FILE = "meta.json"


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
    built under a temporary name and renamed into place when complete (if a concurrent conversion put a
    complete cache there first, that one is kept). Returns ``cache_dir``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "tiny.txt").write_text("king 0.5 0.1\\nqueen 0.4 0.2\\n")
    >>> cache = convert(folder / "tiny.txt", folder / "tiny-cache", progress=False)
    >>> sorted(p.name for p in cache.iterdir())
    ['meta.json', 'vectors.npy', 'vocab.txt']
    >>> open_cache(cache).index_to_key
    ['king', 'queen']
    """
    path = Path(path)
    cache_dir = Path(cache_dir)
    fmt = format or detect_format(path, member=member)
    check_format(fmt, parseable=True)
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
    with atomic_folder(cache_dir, is_complete=lambda folder: read_meta(folder) is not None) as tmp:
        with _NpyFileSink(tmp / VECTORS_FILE) as sink:
            words, _index, stats = parse_into(path, fmt, member, sink, progress=progress, dim=dim)
        _write_vocab(tmp / VOCAB_FILE, words)
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
        _write_meta(tmp, meta)
    return cache_dir


def open_cache(cache_dir: str | os.PathLike, *, mmap_mode: str | None = "r") -> KeyedVectors:
    """Open a cache folder written by :func:`convert` or :func:`save` (the matrix memory-mapped)."""
    cache_dir = Path(cache_dir)
    vectors = np.load(cache_dir / VECTORS_FILE, mmap_mode=mmap_mode, allow_pickle=False)
    words = _read_vocab(cache_dir / VOCAB_FILE)
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise ValueError(
            f"{cache_dir}: {VECTORS_FILE} has shape {vectors.shape} but {VOCAB_FILE} has {len(words)} words"
        )
    return to_keyed_vectors(words, vectors)


def save(kv: KeyedVectors, cache_dir: str | os.PathLike, *, name: str | None = None) -> Path:
    """Write ``kv`` as a cache folder (float32 vectors.npy, vocab.txt, meta.json) loadable by :func:`load`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> kv = to_keyed_vectors(["king", "queen"], np.eye(2, dtype=np.float32))
    >>> folder = save(kv, pathlib.Path(tempfile.mkdtemp()) / "toy")
    >>> open_cache(folder)["queen"]
    memmap([0., 1.], dtype=float32)
    """
    cache_dir = Path(cache_dir)
    words = [str(w) for w in kv.index_to_key]
    for w in words:
        if "\n" in w:
            raise ValueError(f"cannot save word {w!r}: words must not contain a newline")
    cache_dir.mkdir(parents=True, exist_ok=True)
    vectors = np.asarray(kv.vectors, dtype=np.float32)
    np.save(cache_dir / VECTORS_FILE, vectors, allow_pickle=False)
    _write_vocab(cache_dir / VOCAB_FILE, words)
    meta = {
        "wordbias_cache_version": CACHE_VERSION,
        "name": name,
        "format": "npy-cache",
        "source": None,
        "shape": list(vectors.shape),
        "dtype": "float32",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    _write_meta(cache_dir, meta)
    return cache_dir


def cache_dir_for(path: str | os.PathLike, *, member: str | None = None) -> Path:
    """The cache folder of an embedding file given by path: ``<folder>/.wordbias-cache/<file name>``."""
    path = Path(path)
    label = path.name if member is None else f"{path.name}__{member.replace('/', '_')}"
    return path.parent / CACHE_DIRNAME / label


def registered_cache_dir(name: str) -> Path:
    """The cache folder of registered embedding ``name``: ``<embeddings_dir>/.wordbias-cache/<name>``."""
    return paths.embeddings_dir() / CACHE_DIRNAME / name


def load_cached(
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
        return read_keyed_vectors(path, format=fmt, member=member, progress=progress, dim=dim)
    log.info("converting %s to the cache %s", path, cache_dir)
    convert(path, cache_dir, format=fmt, member=member, progress=progress, dim=dim, name=name)
    return open_cache(cache_dir, mmap_mode=mmap_mode)


def read_meta(cache_dir: Path) -> dict | None:
    """The cache's meta.json if the cache folder is complete and of this version, else ``None``."""
    try:
        meta = json.loads((cache_dir / _META_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if meta.get("wordbias_cache_version") != CACHE_VERSION:
        return None
    if not ((cache_dir / VECTORS_FILE).is_file() and (cache_dir / VOCAB_FILE).is_file()):
        return None
    return meta


def _write_meta(cache_dir: Path, meta: dict) -> None:
    """Write meta.json (UTF-8, indented)."""
    (cache_dir / _META_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


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


def _cache_is_fresh(cache_dir: Path, path: Path, member: str | None, fmt: str) -> bool:
    """Whether ``cache_dir`` holds a cache of exactly this source file (name, size, mtime, member, format)."""
    meta = read_meta(cache_dir)
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
