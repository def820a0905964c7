"""The cache of parsed embeddings: a folder that :func:`wordbias.embeddings.load` opens memory-mapped in
well under a second, instead of parsing multi-GB text for minutes.

A cache folder holds ``vectors.npy`` (float32, one row per word, streamed to disk while parsing),
``vocab.txt`` (the words, one per line, UTF-8), ``vocab_index.npy`` (the word -> row index,
:mod:`wordbias.embeddings.vocab_index`: opening a cache builds no dict of the vocabulary) and ``meta.json``
(format, shape, dtype, counts, checksums and the fingerprint of the source); no pickle. Caches of version 2
(before the index) are still read, with a dict built at open; a registered embedding or a converted file
rebuilds its cache at the next load.

A cache cannot lie (:func:`verify`): every open checks that meta.json is this version's, that both files
have the byte sizes recorded, that the ``.npy`` header has the recorded shape and dtype, the SHA-256 of the
whole vocabulary, and the SHA-256 of a sample of the matrix (:data:`SAMPLE_BLOCKS` blocks of
:data:`SAMPLE_BYTES`, evenly spaced, first and last included: about 1 MiB read whatever the size). The
SHA-256 of the whole matrix is recorded when the cache is written (``verify="full"`` checks it). Measured on
GloVe 6B 50d (400,000 x 50, an 80 MB matrix and a 3.4 MB vocabulary; 2-core VM, files in the page cache):
opening the cache took 281 ms with the checks against 272 ms without when it built a dict of the
vocabulary at every open (version 2); the checks alone take 58 ms, the full matrix check 174 ms; writing (with
the full hash) 0.95 s. The stored index takes the dict out of the open: ``benchmarks/bench_scale.py`` measures it
on 3,000,000 words.

A cache is stale when its source changed: name, size, modification time, or content (:func:`source_fingerprint`
hashes the source's first and last MiB and evenly spaced blocks, or all of it below 8 MiB; about 6 ms per load,
measured on 3.4 MB hashed whole and on 80 MB sampled). An edit between the samples that keeps the size and
restores the mtime still changes the file's status-change time and perhaps its inode, which no user can set
back: then a source above 8 MiB is hashed whole and compared with the hash recorded when the cache was written
(:func:`_source_unchanged`), so no edit is served stale. A damaged cache is rebuilt from the source with a
:class:`~wordbias.core.errors.CacheRebuiltWarning`, a stale one silently. The warnings the parse gave (repeated
words, invalid UTF-8) are recorded in meta.json and given again on every load from the cache.

Every cache folder carries wordbias's marker (:mod:`wordbias.core.ownership`): :func:`list_caches` lists and
:func:`clear_caches` removes only marked folders (or caches of an earlier version, recognised by their own
files), and a conversion or :func:`save` into a user's folder is refused, the folder left as it was. Writes go through
:func:`~wordbias.core.cache.atomic_folder` (never a moment without a complete cache at the final name) and
readers open the three files through one directory handle, retrying if a writer swapped the folder, so
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
from contextlib import contextmanager
from pathlib import Path
from typing import Sequence

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core import ownership, paths
from wordbias.core.cache import atomic_file, atomic_folder
from wordbias.core.errors import CacheRebuiltWarning
from wordbias.core.errors import CacheError, InvalidParameterError
from wordbias.embeddings.formats import VECTORS_FILE, VOCAB_FILE, check_format, detect_format, zip_member
from wordbias.embeddings.keyed_vectors import to_keyed_vectors
from wordbias.embeddings.reader import parse_into, read_keyed_vectors, replay_notes
from wordbias.embeddings.vocab_index import VocabularyIndex, build_index

__all__ = [
    "CACHE_VERSION",
    "MMAP_MODES",
    "convert",
    "open_cache",
    "verify",
    "save",
    "cache_root",
    "cache_dir_for",
    "registered_cache_dir",
    "list_caches",
    "clear_caches",
    "foreign_folders",
    "load_cached",
    "read_meta",
    "source_fingerprint",
]

log = logging.getLogger(__name__)

CACHE_VERSION = 3
#: Versions still opened: 1 (save() before checksums: shape only) and 2 (checksums, no index: a dict is built).
READABLE_VERSIONS = (1, 2, CACHE_VERSION)
INDEX_FILE = "vocab_index.npy"
#: The memory-map modes accepted: read-only or in memory. Writable maps ("r+", "w+", "c") are refused: they
#: would write through to (or empty) the cache, or the files of an installed package.
MMAP_MODES = (None, "r")
SAMPLE_BLOCKS = 16
SAMPLE_BYTES = 1 << 16
_SMALL_SOURCE = 8 << 20  # sources up to this size are hashed whole
_META_FILE = "meta.json"
_OPEN_RETRIES = 8


def check_mmap_mode(mmap_mode) -> None:
    """Refuse any ``mmap_mode`` but ``None`` and ``"r"`` (see :data:`MMAP_MODES`)."""
    if not (mmap_mode is None or (isinstance(mmap_mode, str) and mmap_mode == "r")):
        raise InvalidParameterError(
            f"mmap_mode must be None (read into memory) or 'r' (read-only memory map); not {mmap_mode!r}: "
            "writable maps ('r+', 'w+', 'c') would write to the cache or the package's files. Copy the vectors "
            "(np.array(kv.vectors)) to edit them"
        )


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
    """Parse ``path`` and write the cache folder ``cache_dir`` (vectors.npy, vocab.txt, meta.json).

    The matrix is streamed to disk, so memory use stays at a few blocks whatever the file size. The folder is
    built under a temporary name and put into place when complete (:func:`~wordbias.core.cache.atomic_folder`;
    if a concurrent conversion put a valid cache of the same source there first, that one is kept). Returns
    ``cache_dir``.

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
            source["full_sha256"] = _file_sha256(f, 0)

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
            "checksums": _checksums(tmp, full_vectors=sink.sha256.hexdigest()),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        _write_meta(tmp, meta)
    return cache_dir


def open_cache(cache_dir: str | os.PathLike, *, mmap_mode: str | None = "r", verify: str = "sample") -> KeyedVectors:
    """Open a cache folder written by :func:`convert` or :func:`save` (the matrix memory-mapped read-only).

    The folder is checked first (:func:`verify`; ``verify="full"`` also hashes the whole matrix); a damaged
    or foreign folder raises :class:`~wordbias.core.errors.CacheError` naming the file and what is wrong.
    ``mmap_mode`` is ``"r"`` or ``None`` (read into memory).
    """
    check_mmap_mode(mmap_mode)
    if verify not in ("sample", "full"):
        raise InvalidParameterError(f"verify must be 'sample' or 'full'; not {verify!r}")
    cache_dir = Path(cache_dir)
    last = None
    for attempt in range(_OPEN_RETRIES):
        try:
            kv, meta = _open_once(cache_dir, mmap_mode, verify)
        except FileNotFoundError as exc:  # a writer swapped the folder while we opened it: look again
            last = exc
            time.sleep(0.01 * (attempt + 1))
            continue
        replay_notes(meta.get("warnings"))  # what the parse of its source warned, every time
        return kv
    raise CacheError(f"{cache_dir}: not a complete wordbias cache ({last})")


def verify(cache_dir: str | os.PathLike, *, full: bool = False) -> dict:
    """Check a cache folder against its meta.json (sizes, shape, dtype, vocabulary hash, matrix sample hash,
    and with ``full`` the whole matrix's hash); returns the meta, or raises
    :class:`~wordbias.core.errors.CacheError` naming the file at fault."""
    return _open_once(Path(cache_dir), "r", "full" if full else "sample", build=False)[1]


def _open_once(cache_dir: Path, mmap_mode: str | None, verify: str,
               *, build: bool = True) -> tuple[KeyedVectors | None, dict]:
    """Open and verify the three files of ``cache_dir`` through one directory handle (a consistent snapshot
    even if a writer swaps the folder meanwhile); ``(KeyedVectors, meta)``, or ``(None, meta)`` when not
    ``build`` (checks only)."""
    try:
        dfd = os.open(cache_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except NotADirectoryError as exc:
        raise CacheError(f"{cache_dir}: not a cache folder") from exc
    try:
        meta = _read_meta_at(cache_dir, dfd)
        vocab_bytes = _read_bytes_at(dfd, VOCAB_FILE)
        fd = os.open(VECTORS_FILE, os.O_RDONLY, dir_fd=dfd)
        with os.fdopen(fd, "rb") as f:
            _check_files(cache_dir, meta, vocab_bytes, f, verify)
            vectors = _read_matrix(cache_dir / VECTORS_FILE, f, mmap_mode)
        index = _read_index(cache_dir, dfd, meta)
    finally:
        os.close(dfd)
    words = _decode_vocab(cache_dir / VOCAB_FILE, vocab_bytes)
    if index is not None and index.shape != (2, len(words)):
        raise CacheError(f"{cache_dir / INDEX_FILE}: an index of shape {index.shape} for {len(words)} words")
    if not build and meta["wordbias_cache_version"] == CACHE_VERSION:  # sizes and checksums already matched
        return None, meta
    if vectors.ndim != 2 or vectors.shape[0] != len(words) or vectors.dtype != np.float32:
        raise CacheError(
            f"{cache_dir}: {VECTORS_FILE} has shape {vectors.shape} and dtype {vectors.dtype} but {VOCAB_FILE} has "
            f"{len(words)} words (float32 expected)"
        )
    if not build:
        return None, meta
    if index is None:
        return to_keyed_vectors(words, vectors), meta
    return to_keyed_vectors(words, vectors, VocabularyIndex(words, index)), meta


def _write_index(folder: Path) -> None:
    """Write ``vocab_index.npy`` for the ``vocab.txt`` of ``folder``."""
    np.save(folder / INDEX_FILE, build_index((folder / VOCAB_FILE).read_bytes()), allow_pickle=False)


def _read_index(cache_dir: Path, dfd: int, meta: dict) -> np.ndarray | None:
    """The ``(2, n)`` uint64 index of a version-3 cache, checked against meta.json's size and SHA-256
    (``None`` for older versions, which have none)."""
    if meta["wordbias_cache_version"] < 3:
        return None
    where = cache_dir / INDEX_FILE
    data = _read_bytes_at(dfd, INDEX_FILE)  # missing: FileNotFoundError, as for the other files (a writer's swap)
    sums = meta["checksums"]
    if len(data) != sums.get("index_bytes") or _sha256(data) != sums.get("index_sha256"):
        raise CacheError(f"{where}: size or SHA-256 differs from meta.json (damaged or edited)")
    f = io.BytesIO(data)
    shape, fortran, dtype = _read_npy_header(f)
    if len(shape) != 2 or fortran or dtype != np.dtype("<u8"):
        raise CacheError(f"{where}: expected a 2-d uint64 array, found shape {shape}, dtype {dtype}")
    return np.frombuffer(data, dtype="<u8", offset=f.tell()).reshape(shape)


def _read_matrix(where: Path, f, mmap_mode: str | None) -> np.ndarray:
    """The float32 matrix of the open ``.npy`` file ``f``: memory-mapped read-only, or read into memory."""
    f.seek(0)
    try:
        shape, fortran, dtype = _read_npy_header(f)
    except (ValueError, OSError, EOFError) as exc:
        raise CacheError(f"{where}: unreadable .npy header ({exc})") from exc
    if len(shape) != 2 or fortran or dtype != np.dtype("<f4"):
        raise CacheError(f"{where}: expected a 2-d C-ordered float32 matrix, found shape {shape}, dtype {dtype}")
    start, count = f.tell(), shape[0] * shape[1]
    if os.fstat(f.fileno()).st_size != start + 4 * count:
        raise CacheError(f"{where}: {os.fstat(f.fileno()).st_size} bytes, the header's shape {shape} needs "
                         f"{start + 4 * count} (truncated?)")
    if count == 0:
        return np.zeros(shape, dtype=np.float32)
    if mmap_mode == "r":
        return np.memmap(f, dtype="<f4", mode="r", offset=start, shape=shape)
    return np.fromfile(f, dtype="<f4", count=count).reshape(shape)


def _read_bytes_at(dfd: int, name: str) -> bytes:
    """The bytes of file ``name`` in the directory ``dfd``."""
    fd = os.open(name, os.O_RDONLY, dir_fd=dfd)
    with os.fdopen(fd, "rb") as f:
        return f.read()


def _read_meta_at(cache_dir: Path, dfd: int) -> dict:
    """meta.json as a dict of a known version, else CacheError."""
    where = cache_dir / _META_FILE
    try:
        meta = json.loads(_read_bytes_at(dfd, _META_FILE).decode("utf-8"))
    except FileNotFoundError:
        if not any(os.path.exists(cache_dir / n) for n in (VECTORS_FILE, VOCAB_FILE)):
            raise
        raise CacheError(f"{where}: missing: the cache is incomplete") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise CacheError(f"{where}: not valid JSON ({exc})") from exc
    if not isinstance(meta, dict):
        raise CacheError(f"{where}: expected a JSON object, found a {type(meta).__name__}")
    version = meta.get("wordbias_cache_version")
    if version not in READABLE_VERSIONS:
        raise CacheError(f"{where}: cache version {version!r}, expected {CACHE_VERSION}; rebuild it from its source")
    return meta


def _check_files(cache_dir: Path, meta: dict, vocab_bytes: bytes, vectors_file, verify: str) -> None:
    """Compare the vocabulary and matrix with meta.json's shape, dtype, sizes and checksums."""
    if meta["wordbias_cache_version"] == 1:  # legacy folder written by save() before checksums: shape only
        return
    sums = meta.get("checksums")
    shape = meta.get("shape")
    if not isinstance(sums, dict) or not isinstance(shape, list) or meta.get("dtype") != "float32":
        raise CacheError(f"{cache_dir / _META_FILE}: no checksums, shape or dtype recorded")
    if len(vocab_bytes) != sums.get("vocab_bytes") or _sha256(vocab_bytes) != sums.get("vocab_sha256"):
        raise CacheError(f"{cache_dir / VOCAB_FILE}: size or SHA-256 differs from meta.json (damaged or edited)")
    size = os.fstat(vectors_file.fileno()).st_size
    if size != sums.get("vectors_bytes"):
        raise CacheError(
            f"{cache_dir / VECTORS_FILE}: {size} bytes, meta.json records {sums.get('vectors_bytes')} (truncated?)"
        )
    try:
        header = _read_npy_header(vectors_file)
    except (ValueError, OSError, EOFError) as exc:
        raise CacheError(f"{cache_dir / VECTORS_FILE}: unreadable .npy header ({exc})") from exc
    file_shape, fortran, dtype = header
    if list(file_shape) != shape or fortran or dtype != np.dtype("<f4"):
        raise CacheError(
            f"{cache_dir / VECTORS_FILE}: shape {file_shape}, dtype {dtype}; meta.json records {shape} float32"
        )
    start = vectors_file.tell()
    if _sample_sha256(vectors_file, start, size) != sums.get("vectors_sample_sha256"):
        raise CacheError(f"{cache_dir / VECTORS_FILE}: the sampled matrix blocks differ from meta.json's checksum "
                         "(damaged or edited)")
    if verify == "full" and _file_sha256(vectors_file, start) != sums.get("vectors_sha256"):
        raise CacheError(f"{cache_dir / VECTORS_FILE}: the matrix's SHA-256 differs from meta.json (damaged)")


def _read_npy_header(f) -> tuple:
    """``(shape, fortran_order, dtype)`` of the ``.npy`` file ``f``, leaving it at the start of the data."""
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(f)
    return np.lib.format.read_array_header_2_0(f)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _sample_sha256(f, start: int, end: int) -> str:
    """SHA-256 of :data:`SAMPLE_BLOCKS` blocks of :data:`SAMPLE_BYTES` evenly spaced over bytes
    ``[start, end)`` of file ``f`` (the first and last included; all of it when shorter)."""
    h = hashlib.sha256()
    length = end - start
    if length <= SAMPLE_BLOCKS * SAMPLE_BYTES:
        offsets = [start]
        width = length
    else:
        step = (length - SAMPLE_BYTES) / (SAMPLE_BLOCKS - 1)
        offsets = [start + int(round(i * step)) for i in range(SAMPLE_BLOCKS)]
        width = SAMPLE_BYTES
    for offset in offsets:
        h.update(os.pread(f.fileno(), width, offset))
    return h.hexdigest()


def _file_sha256(f, start: int) -> str:
    """SHA-256 of file ``f`` from byte ``start`` to its end."""
    h = hashlib.sha256()
    f.seek(start)
    for block in iter(lambda: f.read(1 << 22), b""):
        h.update(block)
    return h.hexdigest()


def _checksums(folder: Path, *, full_vectors: str | None = None) -> dict:
    """The checksums meta.json records for the files of ``folder`` (see the module docstring)."""
    vocab = (folder / VOCAB_FILE).read_bytes()
    with open(folder / VECTORS_FILE, "rb") as f:
        _read_npy_header(f)
        start = f.tell()
        size = os.fstat(f.fileno()).st_size
        sample = _sample_sha256(f, start, size)
        full = full_vectors or _file_sha256(f, start)
    sums = {"vocab_bytes": len(vocab), "vocab_sha256": _sha256(vocab), "vectors_bytes": size,
            "vectors_sample_sha256": sample, "vectors_sha256": full}
    if (folder / INDEX_FILE).exists():
        index = (folder / INDEX_FILE).read_bytes()
        sums.update(index_bytes=len(index), index_sha256=_sha256(index))
    return sums


def save(kv: KeyedVectors, cache_dir: str | os.PathLike, *, name: str | None = None) -> Path:
    """Write ``kv`` as a cache folder (float32 vectors.npy, vocab.txt, meta.json) loadable by :func:`load`,
    atomically (an existing folder is replaced only once the new one is complete).

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
    vectors = np.ascontiguousarray(kv.vectors, dtype="<f4")  # C order: the layout open_cache maps
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
            "checksums": _checksums(tmp),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        _write_meta(tmp, meta)
    return cache_dir


def cache_root(cache_dir: str | os.PathLike | None = None) -> Path:
    """The folder holding the embedding caches: ``cache_dir`` if given, else ``<wordbias cache>/embeddings``
    (:func:`wordbias.core.paths.cache_dir`: ``WORDBIAS_CACHE`` or the platform's per-user cache folder)."""
    return Path(cache_dir).expanduser() if cache_dir is not None else paths.cache_dir() / "embeddings"


def cache_dir_for(path: str | os.PathLike, *, member: str | None = None,
                  cache_dir: str | os.PathLike | None = None) -> Path:
    """The cache folder of an embedding file given by path: ``<cache root>/<file name>-<hash>``, the hash
    (8 hex digits of SHA-256) of the file's absolute path, so that two files of the same name in different
    folders never share a cache; ``__<member>`` is added for a member of a ``.zip``.

    Examples
    --------
    >>> cache_dir_for("/data/mine.txt", cache_dir="/c").as_posix()
    '/c/mine.txt-bcb93623'
    >>> cache_dir_for("/data/v.zip", member="a/b.txt", cache_dir="/c").name
    'v.zip__a_b.txt-c910293e'
    """
    path = Path(path).expanduser()
    digest = hashlib.sha256(str(path.absolute()).encode("utf-8")).hexdigest()[:8]
    name = path.name if member is None else f"{path.name}__{member.replace('/', '_')}"
    return cache_root(cache_dir) / f"{name}-{digest}"


def registered_cache_dir(name: str, *, cache_dir: str | os.PathLike | None = None) -> Path:
    """The cache folder of registered embedding ``name``: ``<cache root>/<name>``."""
    return cache_root(cache_dir) / name


def list_caches(cache_dir: str | os.PathLike | None = None) -> "pandas.DataFrame":  # noqa: F821
    """The embedding caches under :func:`cache_root`: one row per wordbias folder with ``folder``, ``name``
    (the registered name or the source file), ``source`` (the source file's path when it was converted from
    one), ``shape``, ``bytes`` (on disk), ``created`` and ``valid`` (a complete cache of this version; else the
    folder is damaged, of an older version, or a leftover of an interrupted write).

    Only folders wordbias wrote are listed (:func:`wordbias.core.ownership.owner`: the marker, or a cache of
    an earlier version); anything else under the root is someone else's and is left out
    (:func:`foreign_folders` names it)."""
    import pandas as pd

    rows = []
    for folder in _cache_folders(cache_dir):
        meta = read_meta(folder)
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
        src = (meta or {}).get("source") or {}
        rows.append({"folder": str(folder), "name": (meta or {}).get("name") or folder.name,
                     "source": src.get("path") if isinstance(src, dict) else None,
                     "shape": "x".join(map(str, (meta or {}).get("shape", []))) or None, "bytes": size,
                     "created": (meta or {}).get("created"), "valid": meta is not None})
    return pd.DataFrame(rows, columns=["folder", "name", "source", "shape", "bytes", "created", "valid"])


def _subfolders(cache_dir) -> list[Path]:
    root = cache_root(cache_dir)
    return [f for f in sorted(root.iterdir()) if f.is_dir() and not f.is_symlink()] if root.is_dir() else []


def _cache_folders(cache_dir) -> list[Path]:
    """The folders under the cache root that wordbias wrote as embedding caches or saved embeddings."""
    return [f for f in _subfolders(cache_dir) if ownership.is_ours(f, ("embedding-cache", "embedding"))]


def foreign_folders(cache_dir: str | os.PathLike | None = None) -> list[Path]:
    """The folders under :func:`cache_root` that are not wordbias's (no marker): never listed nor removed."""
    ours = set(_cache_folders(cache_dir))
    return [f for f in _subfolders(cache_dir) if f not in ours and not ownership.is_ours(f)]


def clear_caches(names: Sequence[str] | None = None, *, cache_dir: str | os.PathLike | None = None) -> list[Path]:
    """Remove embedding caches under :func:`cache_root` (all of them, or the folders whose ``name`` or folder
    name is in ``names``) and return the folders removed.

    Only folders wordbias wrote are removed (those :func:`list_caches` lists: each is checked for its marker
    again just before it is deleted, :func:`wordbias.core.ownership.remove_folder`); anything else under the
    root, a project's ``.git`` or ``.venv`` included, is left alone (:func:`foreign_folders`). The next load
    rebuilds a cache from its source."""
    if names is not None and (isinstance(names, str) or not all(isinstance(n, str) for n in names)):
        raise InvalidParameterError(f"names must be a list of cache names, not {names!r}")
    table = list_caches(cache_dir)
    removed = []
    for row in table.itertuples():
        folder = Path(row.folder)
        if names is not None and row.name not in names and folder.name not in names:
            continue
        ownership.remove_folder(folder)
        removed.append(folder)
    return removed


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
    if kv is None:
        raise CacheError(f"{cache_dir}: the cache just written for {path} does not match it (the source changed "
                         "while it was read?); load again")
    return kv


def _open_if_matching(cache_dir: Path, source: dict, fmt: str, zero_vectors: str, mmap_mode: str | None,
                      *, rebuilding: bool = True, replay: bool = False) -> KeyedVectors | None:
    """The cache at ``cache_dir`` if it is a valid cache of ``source`` (else ``None``, warning when it is
    damaged and ``rebuilding``); retried if a writer swaps the folder while it is opened. With ``replay``, the
    warnings recorded when the source was parsed are given again (a load from the cache warns as the first
    load did)."""
    for attempt in range(_OPEN_RETRIES):
        try:
            kv, meta = _open_once(cache_dir, mmap_mode, "sample")
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
    if meta.get("wordbias_cache_version") != CACHE_VERSION or meta.get("format") != fmt:
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
        if _file_sha256(f, 0) != recorded["full_sha256"]:
            return False
    try:  # the same content: remember the new status so that the next load trusts it at once
        refreshed = {**meta, "source": {**recorded, "ctime_ns": source["ctime_ns"], "inode": source["inode"]}}
        with atomic_file(cache_dir / _META_FILE) as tmp:
            _write_meta_file(tmp, refreshed)
    except OSError:
        pass  # a read-only cache: the next load hashes again
    return True


def read_meta(cache_dir: Path) -> dict | None:
    """The cache's meta.json if the folder is a complete, valid cache of this version, else ``None``."""
    try:
        meta = verify(cache_dir)
    except (CacheError, OSError):
        return None
    return meta if meta.get("wordbias_cache_version") == CACHE_VERSION else None


def _write_meta(cache_dir: Path, meta: dict) -> None:
    """Write meta.json (UTF-8, indented)."""
    _write_meta_file(cache_dir / _META_FILE, meta)


def _write_meta_file(path: Path, meta: dict) -> None:
    path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def source_fingerprint(path: Path, member: str | None) -> dict:
    """Name, absolute path, size, mtime, status-change time, inode and a content hash of a source file (what
    invalidation compares: :func:`_meta_matches`, then :func:`_source_unchanged`).

    ``content_sha256`` hashes the whole file up to 8 MiB; above, its size, first and last MiB and
    :data:`SAMPLE_BLOCKS` evenly spaced blocks of :data:`SAMPLE_BYTES` (about 3 MiB read, a few ms), so an
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
            h.update(_sample_sha256(f, 0, st.st_size).encode())
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


def _decode_vocab(path: Path, data: bytes) -> list[str]:
    """Inverse of :func:`_write_vocab` (split on ``\\n`` only: words may contain U+2028, U+0085, ...)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CacheError(f"{path}: invalid UTF-8 at byte offset {exc.start} (damaged file)") from exc
    if not text:
        return []
    if not text.endswith("\n"):
        raise CacheError(f"{path}: truncated vocabulary file (no final newline)")
    return text[:-1].split("\n")


class _NpyFileSink:
    """Streams rows into a ``.npy`` file whose header (fixed 128 bytes) is written once the shape is known."""

    def __init__(self, path: Path):
        self.path = path
        self.rows = 0
        self.dim = 0
        self.header_len = len(self._header((0, 1)))
        self.sha256 = hashlib.sha256()  # of the rows as written (the full-matrix checksum of meta.json)

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
        self.sha256.update(data)
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
