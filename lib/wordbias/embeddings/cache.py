"""The cache of parsed embeddings: a folder that :func:`wordbias.embeddings.load` opens memory-mapped in
well under a second, instead of parsing multi-GB text for minutes. This module writes caches (:func:`convert`
from a text or binary source, :func:`save` from vectors in memory) and decides, at each load, whether the cache
on disk still serves its source (:func:`load_cached`). The files of a cache folder and the checks made when it
is opened are in :mod:`wordbias.embeddings.cache_format`; where caches live, and listing and clearing them, in
:mod:`wordbias.embeddings.cache_folders`.

A cache is stale when its source changed: name, size, modification time, or content (:func:`source_fingerprint`
hashes the source's first and last MiB and evenly spaced blocks, or all of it below 8 MiB; about 6 ms per load,
measured on 3.4 MB hashed whole and on 80 MB sampled). An edit between the samples that keeps the size and
restores the mtime still changes the file's status-change time and perhaps its inode, which no user can set
back: then a source above 8 MiB is hashed whole and compared with the hash recorded when the cache was written
(:func:`_source_unchanged`), so no edit is served stale. A damaged cache is rebuilt from the source with a
:class:`~wordbias.core.errors.CacheRebuiltWarning`, a stale one silently. The warnings the parse gave (repeated
words, invalid UTF-8) are recorded in meta.json and given again on every load from the cache.

A conversion or :func:`save` into a user's folder is refused, the folder left as it was (every cache folder
carries wordbias's marker, :mod:`wordbias.core.ownership`). Writes go through
:func:`~wordbias.core.atomic.atomic_folder` (never a moment without a complete cache at the final name), so
concurrent first loads of the same file are safe.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import time
import warnings
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core.atomic import atomic_file, atomic_folder
from wordbias.core.errors import CacheError, CacheRebuiltWarning
from wordbias.embeddings.cache_format import (
    CACHE_VERSION,
    INDEX_FILE,
    META_FILE,
    OPEN_RETRIES,
    SERVED_VERSIONS,
    MatrixHasher,
    check_mmap_mode,
    checksums,
    file_sha256,
    open_cache,  # noqa: F401 - the doctests open what they write
    open_once,
    sample_sha256,
    verify,
)
from wordbias.embeddings.formats import VECTORS_FILE, VOCAB_FILE, check_format, detect_format, zip_member
from wordbias.embeddings.keyed_vectors import to_keyed_vectors  # noqa: F401 - save's doctest
from wordbias.embeddings.reader import parse_into, read_keyed_vectors, replay_notes
from wordbias.embeddings.vocab_index import build_index

__all__ = ["convert", "save", "load_cached", "source_fingerprint"]

log = logging.getLogger(__name__)

_SMALL_SOURCE = 8 << 20  # sources up to this size are hashed whole


def convert(
    path: str | os.PathLike,
    cache_dir: str | os.PathLike,
    *,
    format: str | None = None,
    member: str | None = None,
    progress: bool = True,
    dim: int | None = None,
    name: str | None = None,
    zero_vectors: str = "error",
) -> Path:
    """Parse an embedding file and write it as a cache folder (vectors.npy, vocab.txt, meta.json).

    The matrix is streamed to disk, so memory use stays at a few blocks whatever the file size. The folder is
    built under a temporary name and put into place when complete (:func:`~wordbias.core.atomic.atomic_folder`;
    if a concurrent conversion put a valid cache of the same source there first, that one is kept). The cache
    records the source's fingerprint (:func:`source_fingerprint`), so a later load knows whether it is stale.

    Parameters
    ----------
    path : str or path-like
        A text or binary embedding file, plain, ``.gz`` or ``.zip``.
    cache_dir : str or path-like
        The cache folder to write; a folder already there must be wordbias's or empty (it is replaced).
    format : str, optional
        One of :data:`~wordbias.embeddings.formats.PARSEABLE_FORMATS`; detected when omitted.
    member : str, optional
        The file to read inside a ``.zip`` holding several.
    progress : bool, default True
        Show a progress bar while parsing a large file.
    dim : int, optional
        The expected dimension (an error if the file disagrees).
    name : str, optional
        The name recorded in the cache's meta.json (a registered embedding's name).
    zero_vectors : {"error", "keep"}, default "error"
        ``"keep"`` accepts all-zero rows; by default they are an error.

    Returns
    -------
    pathlib.Path
        ``cache_dir``, now holding the complete cache.

    Raises
    ------
    wordbias.core.errors.EmbeddingFormatError
        If the file is malformed (the message names the file and the line or byte offset at fault).
    wordbias.core.errors.InvalidParameterError
        If ``format`` is not a parseable format.
    wordbias.core.errors.FolderNotOursError
        If ``cache_dir`` is a folder wordbias did not write; it is left as it was.
    wordbias.core.errors.DiskFullError
        If the disk fills up while writing.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "tiny.txt").write_text("king 0.5 0.1\\nqueen 0.4 0.2\\n")
    >>> cache = convert(folder / "tiny.txt", folder / "tiny-cache", progress=False)
    >>> sorted(p.name for p in cache.iterdir())
    ['.wordbias-folder', 'meta.json', 'vectors.npy', 'vocab.txt', 'vocab_index.npy']
    >>> open_cache(cache).index_to_key
    ['king', 'queen']
    """
    path = Path(path)
    cache_dir = Path(cache_dir)
    fmt = format or detect_format(path, member=member)
    check_format(fmt, parseable=True)
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
    source = source_fingerprint(path, member)
    if source["size"] > _SMALL_SOURCE:  # the whole file's hash, for a later load that cannot trust the stat
        with open(path, "rb") as f:
            source["full_sha256"] = file_sha256(f, 0)

    def is_complete(folder: Path) -> bool:  # a concurrent writer's cache of this very content
        meta = _matching_meta(folder, source, fmt, zero_vectors)
        return meta is not None and (source["size"] <= _SMALL_SOURCE
                                     or meta["source"].get("full_sha256") == source["full_sha256"])

    with atomic_folder(cache_dir, kind="embedding-cache", is_complete=is_complete) as tmp:
        with _NpyFileSink(tmp / VECTORS_FILE) as sink:
            words, _index, stats = parse_into(path, fmt, member, sink, progress=progress, dim=dim,
                                              zero_vectors=zero_vectors)
        _write_vocab(tmp / VOCAB_FILE, words)
        _write_index(tmp)
        meta = {
            "wordbias_cache_version": CACHE_VERSION,
            "name": name,
            "format": fmt,
            "zero_vectors": zero_vectors,
            "source": source,
            "shape": [len(words), sink.dim],
            "dtype": "float32",
            **stats,
            "checksums": checksums(tmp, hasher=sink.hasher),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        _write_meta(tmp, meta)
    return cache_dir


def _write_index(folder: Path) -> None:
    """Write ``vocab_index.npy`` for the ``vocab.txt`` of ``folder``."""
    np.save(folder / INDEX_FILE, build_index((folder / VOCAB_FILE).read_bytes()), allow_pickle=False)


def save(embedding: KeyedVectors, cache_dir: str | os.PathLike, *, name: str | None = None) -> Path:
    """Write an embedding as a cache folder (float32 vectors.npy, vocab.txt, meta.json).

    The folder is loadable by :func:`wordbias.embeddings.load` (memory-mapped) and written atomically: an
    existing folder is replaced only once the new one is complete.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding to write (its vectors are stored as float32).
    cache_dir : str or path-like
        The folder to write; a folder already there must be wordbias's or empty (it is replaced).
    name : str, optional
        The name recorded in the folder's meta.json.

    Returns
    -------
    pathlib.Path
        ``cache_dir``, now holding the embedding.

    Raises
    ------
    ValueError
        If a word contains a newline (vocab.txt holds one word a line).
    wordbias.core.errors.FolderNotOursError, wordbias.core.errors.DiskFullError
        As for :func:`convert`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> embedding = to_keyed_vectors(["king", "queen"], np.eye(2, dtype=np.float32))
    >>> folder = save(embedding, pathlib.Path(tempfile.mkdtemp()) / "toy")
    >>> open_cache(folder)["queen"]
    memmap([0., 1.], dtype=float32)
    """
    cache_dir = Path(cache_dir)
    words = [str(w) for w in embedding.index_to_key]
    for w in words:
        if "\n" in w:
            raise ValueError(f"cannot save word {w!r}: words must not contain a newline")
    vectors = np.ascontiguousarray(embedding.vectors, dtype="<f4")  # C order: the layout open_cache maps
    with atomic_folder(cache_dir, kind="embedding") as tmp:
        np.save(tmp / VECTORS_FILE, vectors, allow_pickle=False)
        _write_vocab(tmp / VOCAB_FILE, words)
        _write_index(tmp)
        meta = {
            "wordbias_cache_version": CACHE_VERSION,
            "name": name,
            "format": "npy-cache",
            "source": None,
            "shape": list(vectors.shape),
            "dtype": "float32",
            "checksums": checksums(tmp),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        _write_meta(tmp, meta)
    return cache_dir


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
    zero_vectors: str = "error",
) -> KeyedVectors:
    """Open the cache of ``path`` if it is a valid cache of the source as it is now, else (re)build it (with
    a :class:`~wordbias.core.errors.CacheRebuiltWarning` if it was damaged); parse into memory if the cache
    cannot be written."""
    check_mmap_mode(mmap_mode)
    source = source_fingerprint(path, member)
    kv = _open_if_matching(cache_dir, source, fmt, zero_vectors, mmap_mode, replay=True)
    if kv is not None:
        return kv
    try:
        cache_dir.parent.mkdir(parents=True, exist_ok=True)
        writable = os.access(cache_dir.parent, os.W_OK)
    except OSError:
        writable = False
    if not writable:
        warnings.warn(f"cannot write the cache {cache_dir}; parsing {path} into memory", stacklevel=3)
        return read_keyed_vectors(path, format=fmt, member=member, progress=progress, dim=dim,
                                  zero_vectors=zero_vectors)
    log.info("converting %s to the cache %s", path, cache_dir)
    convert(path, cache_dir, format=fmt, member=member, progress=progress, dim=dim, name=name,
            zero_vectors=zero_vectors)
    kv = _open_if_matching(cache_dir, source, fmt, zero_vectors, mmap_mode, rebuilding=False)
    for wait in _REPLACE_WAITS:
        if kv is not None:
            break
        # another process loading the same file may be replacing the folder this one just wrote (moving the old
        # folder away, then the new one in: for an instant there is none): look again before giving up
        time.sleep(wait)
        kv = _open_if_matching(cache_dir, source, fmt, zero_vectors, mmap_mode, rebuilding=False)
    if kv is None:
        raise CacheError(f"{cache_dir}: the cache just written for {path} does not match it (the source changed "
                         "while it was read?); load again")
    return kv


#: seconds to wait, one after the other, for a concurrent writer's replacement of a cache folder to finish
_REPLACE_WAITS = (0.05, 0.2, 0.5, 1.0)


def _open_if_matching(cache_dir: Path, source: dict, fmt: str, zero_vectors: str, mmap_mode: str | None,
                      *, rebuilding: bool = True, replay: bool = False) -> KeyedVectors | None:
    """The cache at ``cache_dir`` if it is a valid cache of ``source`` (else ``None``, warning when it is
    damaged and ``rebuilding``); retried if a writer swaps the folder while it is opened. With ``replay``, the
    warnings recorded when the source was parsed are given again (a load from the cache warns as the first
    load did)."""
    for attempt in range(OPEN_RETRIES):
        try:
            kv, meta = open_once(cache_dir, mmap_mode, "once")
        except FileNotFoundError:
            if not cache_dir.exists():
                return None
            time.sleep(0.01 * (attempt + 1))
            continue
        except CacheError as exc:
            if rebuilding:
                warnings.warn(f"{exc}; rebuilding the cache from {source['path']}", CacheRebuiltWarning,
                              stacklevel=4)
            return None
        if _meta_matches(meta, source, fmt, zero_vectors) and _source_unchanged(cache_dir, meta, source):
            if replay:
                replay_notes(meta.get("warnings"))
            return kv
        log.info("%s: cache of another version of the source; rebuilding it", cache_dir)
        return None
    return None


def _matching_meta(cache_dir: Path, source: dict, fmt: str, zero_vectors: str) -> dict | None:
    """meta.json of ``cache_dir`` if it is a valid cache of ``source``, else ``None``."""
    try:
        meta = verify(cache_dir)
    except (CacheError, OSError):
        return None
    return meta if _meta_matches(meta, source, fmt, zero_vectors) else None


def _meta_matches(meta: dict, source: dict, fmt: str, zero_vectors: str) -> bool:
    """Whether a cache's meta describes this source (name, member, size, mtime, content), format and
    zero-vector policy (a cache parsed strictly serves ``zero_vectors="keep"`` too)."""
    if meta.get("wordbias_cache_version") not in SERVED_VERSIONS or meta.get("format") != fmt:
        return False
    if meta.get("zero_vectors") not in (zero_vectors, "error"):
        return False
    recorded = meta.get("source")
    if not isinstance(recorded, dict):
        return False
    return all(recorded.get(k) == source[k] for k in ("file", "member", "size", "mtime_ns", "content_sha256"))


def _source_unchanged(cache_dir: Path, meta: dict, source: dict) -> bool:
    """Whether a source whose name, size, mtime and sampled content match the cache's record is the very file
    the cache was built from.

    The sampled hash misses an edit between its samples when the size and mtime are kept (``touch -d``, a
    tool that restores timestamps). The status-change time and the inode cannot be set back by a user: when
    they match too, the file has not been written since. When they differ (the file was edited, or only
    copied, moved or chmod-ed), a source above 8 MiB is hashed whole and compared with the hash recorded at
    conversion (a few seconds per GB, only on that load: the record is refreshed when the content matches);
    up to 8 MiB the content hash is already of the whole file."""
    recorded = meta["source"]
    if recorded.get("ctime_ns") == source["ctime_ns"] and recorded.get("inode") == source["inode"]:
        return True
    if source["size"] <= _SMALL_SOURCE:
        return True
    if not recorded.get("full_sha256"):
        return False  # a cache from before the whole-file hash: rebuild once
    with open(source["path"], "rb") as f:
        if file_sha256(f, 0) != recorded["full_sha256"]:
            return False
    try:  # the same content: remember the new status so that the next load trusts it at once
        refreshed = {**meta, "source": {**recorded, "ctime_ns": source["ctime_ns"], "inode": source["inode"]}}
        with atomic_file(cache_dir / META_FILE) as tmp:
            _write_meta_file(tmp, refreshed)
    except OSError:
        pass  # a read-only cache: the next load hashes again
    return True


def _write_meta(cache_dir: Path, meta: dict) -> None:
    """Write meta.json (UTF-8, indented)."""
    _write_meta_file(cache_dir / META_FILE, meta)


def _write_meta_file(path: Path, meta: dict) -> None:
    path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def source_fingerprint(path: Path, member: str | None) -> dict:
    """Name, absolute path, size, mtime, status-change time, inode and a content hash of a source file (what
    invalidation compares: :func:`_meta_matches`, then :func:`_source_unchanged`).

    ``content_sha256`` hashes the whole file up to 8 MiB; above, its size, first and last MiB and
    :data:`~wordbias.embeddings.cache_format.SAMPLE_BLOCKS` evenly spaced blocks of
    :data:`~wordbias.embeddings.cache_format.SAMPLE_BYTES` (about 3 MiB read, a few ms), so an
    edit keeping the size and the modification time is caught unless it falls between the samples.
    """
    path = Path(path)
    st = path.stat()
    h = hashlib.sha256(str(st.st_size).encode())
    with open(path, "rb") as f:
        if st.st_size <= _SMALL_SOURCE:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        else:
            h.update(os.pread(f.fileno(), 1 << 20, 0))
            h.update(os.pread(f.fileno(), 1 << 20, st.st_size - (1 << 20)))
            h.update(sample_sha256(f, 0, st.st_size).encode())
    return {
        "file": path.name,
        "path": str(path.resolve()),
        "member": member,
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "ctime_ns": st.st_ctime_ns,
        "inode": st.st_ino,
        "content_sha256": h.hexdigest(),
    }


def _write_vocab(path: Path, words: list[str]) -> None:
    """One word per line, UTF-8, ``\\n``-terminated."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for start in range(0, len(words), 100_000):
            f.write("".join(w + "\n" for w in words[start : start + 100_000]))


class _NpyFileSink:
    """Streams rows into a ``.npy`` file whose header (fixed 128 bytes) is written once the shape is known."""

    def __init__(self, path: Path):
        self.path = path
        self.rows = 0
        self.dim = 0
        self.header_len = len(self._header((0, 1)))
        self.hasher = MatrixHasher()  # of the rows as written (the matrix's checksums in meta.json)

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
        data = np.ascontiguousarray(block, dtype="<f4").data
        self.hasher.update(data)
        self.file.write(data)

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
