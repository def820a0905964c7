"""The files of an embedding cache folder and their checks: what :func:`open_cache` reads, memory-mapped, and
refuses when anything is off (the folder is written by :mod:`wordbias.embeddings.cache`).

A cache folder holds ``vectors.npy`` (float32, one row per word, streamed to disk while parsing),
``vocab.txt`` (the words, one per line, UTF-8), ``vocab_index.npy`` (the word -> row index,
:mod:`wordbias.embeddings.vocab_index`: opening a cache builds no dict of the vocabulary) and ``meta.json``
(format, shape, dtype, counts, checksums and the fingerprint of the source); no pickle. Caches of version 2
(before the index) are still read, with a dict built at open; a registered embedding or a converted file
rebuilds its cache at the next load. Version 3 caches (before the block checksums) are still served, their
matrix verified by its whole SHA-256.

A cache cannot lie (:func:`verify`): every open checks that meta.json is of a version read here, that the
files have the byte sizes recorded, that the ``.npy`` header has the recorded shape and dtype (and, version 4,
its bytes the recorded SHA-256), the SHA-256 of the whole vocabulary and of its index, and the SHA-256 of a
sample of the matrix (:data:`SAMPLE_BLOCKS` blocks of :data:`SAMPLE_BYTES`, evenly spaced, first and last
included). The whole matrix is verified too, once per
process (:func:`_check_matrix`): version 4 records a SHA-256 per block of :data:`BLOCK_BYTES` (16 MiB), hashed
in parallel threads (:func:`wordbias.core.parallel.default_workers`), so a changed byte anywhere is found and
the error names its bytes and rows; versions 2 and 3 are checked against the SHA-256 of the whole matrix they
record. A file once verified is not hashed again in the same process while its device, inode, size,
modification and status-change times are unchanged (:data:`_VERIFIED`; a write changes the status-change time,
which no user can set back), unless it changed less than :data:`RACY_SECONDS` before it was verified (a write in
the same clock tick could keep its times); ``verify="full"`` hashes it again whatever the memo says.
Measured on GloVe 6B 50d (400,000 x 50, an 80 MB matrix and a 3.4 MB vocabulary; 2-core VM, files in the page
cache): the first open in a process takes 0.16 s with the whole matrix verified (0.07 s without), later ones
0.06 s; writing (with the hashes) 0.8 s. On a saved 3,000,000 x 300 cache (3.6 GB): 2.2 s at the first open
(0.48 s without), 0.35 s after; its 215 blocks hash in 1.9 s on 2 threads, one SHA-256 of the whole matrix takes
3.7 s: blocks were chosen for that, and for naming the damaged rows. The stored index takes a dict of the
vocabulary out of the open: ``benchmarks/bench_scale.py`` measures it on 3,000,000 words.

Readers open the three files through one directory handle, retrying if a writer swapped the folder, so
concurrent first loads of the same file are safe.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core.errors import CacheError, InvalidParameterError
from wordbias.core.parallel import default_workers
from wordbias.embeddings.formats import VECTORS_FILE, VOCAB_FILE
from wordbias.embeddings.keyed_vectors import to_keyed_vectors
from wordbias.embeddings.reader import replay_notes
from wordbias.embeddings.vocab_index import VocabularyIndex

__all__ = ["CACHE_VERSION", "MMAP_MODES", "check_mmap_mode", "open_cache", "verify", "read_meta", "MatrixHasher"]

CACHE_VERSION = 4
#: Versions still opened: 1 (save() before checksums: shape only), 2 (checksums, no index: a dict is built), 3
#: (the index; the matrix verified by the SHA-256 of the whole of it) and 4 (a SHA-256 per matrix block).
READABLE_VERSIONS = (1, 2, 3, CACHE_VERSION)
#: Versions a load from the source serves without rebuilding the cache (2 and 1 are rebuilt: no index)
SERVED_VERSIONS = (3, CACHE_VERSION)
INDEX_FILE = "vocab_index.npy"
META_FILE = "meta.json"
#: The memory-map modes accepted: read-only or in memory. Writable maps ("r+", "w+", "c") are refused: they
#: would write through to (or empty) the cache, or the files of an installed package.
MMAP_MODES = (None, "r")
SAMPLE_BLOCKS = 16
SAMPLE_BYTES = 1 << 16
#: the matrix's bytes per block hashed on its own (version 4): the unit of parallel verification
BLOCK_BYTES = 16 << 20
#: bytes read at a time while hashing
READ_BYTES = 4 << 20
#: a file changed less than this many seconds before it was verified is verified again at its next open (a
#: write in the same clock tick as the verification could leave its times as they were; FAT keeps 2 s)
RACY_SECONDS = 2.0
#: the matrices verified in this process: (device, inode, size, mtime_ns, ctime_ns) -> what they matched
_VERIFIED: dict[tuple, str] = {}
#: how many times an open is tried when a writer swaps the folder meanwhile
OPEN_RETRIES = 8


def check_mmap_mode(mmap_mode) -> None:
    """Refuse any ``mmap_mode`` but ``None`` and ``"r"`` (see :data:`MMAP_MODES`)."""
    if not (mmap_mode is None or (isinstance(mmap_mode, str) and mmap_mode == "r")):
        raise InvalidParameterError(
            f"mmap_mode must be None (read into memory) or 'r' (read-only memory map); not {mmap_mode!r}: "
            "writable maps ('r+', 'w+', 'c') would write to the cache or the package's files. Copy the vectors "
            "(np.array(kv.vectors)) to edit them"
        )


def open_cache(cache_dir: str | os.PathLike, *, mmap_mode: str | None = "r", verify: str = "once") -> KeyedVectors:
    """Open a cache folder written by :func:`~wordbias.embeddings.cache.convert` or
    :func:`~wordbias.embeddings.cache.save`, the matrix memory-mapped read-only.

    The folder is checked first (:func:`verify`: sizes, shape, dtype, the hashes of the vocabulary and its
    index, of a sample of the matrix, and of the whole matrix once per process); the warnings the parse of its
    source gave are given again.

    Parameters
    ----------
    cache_dir : str or path-like
        The cache folder.
    mmap_mode : {"r", None}, default "r"
        ``"r"``: memory-map the matrix read-only; None: read it into memory (a writable copy). Writable maps
        are refused.
    verify : {"once", "full"}, default "once"
        ``"once"``: the whole matrix is hashed at its first open in this process (and again after any change
        to the file); ``"full"``: hashed again now. ``"sample"``, the former default's name, means ``"once"``.

    Returns
    -------
    KeyedVectors
        The embedding, its float32 vectors in the cache's order.

    Raises
    ------
    wordbias.core.errors.CacheError
        If the folder is damaged, incomplete or not a wordbias cache (the message names the file and what is
        wrong).
    wordbias.core.errors.InvalidParameterError
        If ``mmap_mode`` or ``verify`` is not one of its values.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> from wordbias.embeddings import save, to_keyed_vectors
    >>> folder = save(to_keyed_vectors(["king", "queen"], np.eye(2, dtype=np.float32)),
    ...               pathlib.Path(tempfile.mkdtemp()) / "toy")
    >>> kv = open_cache(folder)
    >>> kv.index_to_key, type(kv.vectors).__name__
    (['king', 'queen'], 'memmap')
    >>> type(open_cache(folder, mmap_mode=None, verify="full").vectors).__name__
    'ndarray'
    """
    check_mmap_mode(mmap_mode)
    if not (isinstance(verify, str) and verify in ("once", "full", "sample")):
        raise InvalidParameterError(f"verify must be 'once' (the whole matrix hashed at its first open in this "
                                    f"process) or 'full' (hashed again now); not {verify!r}")
    cache_dir = Path(cache_dir)
    last = None
    for attempt in range(OPEN_RETRIES):
        try:
            kv, meta = open_once(cache_dir, mmap_mode, verify)
        except FileNotFoundError as exc:  # a writer swapped the folder while we opened it: look again
            last = exc
            time.sleep(0.01 * (attempt + 1))
            continue
        replay_notes(meta.get("warnings"))  # what the parse of its source warned, every time
        return kv
    raise CacheError(f"{cache_dir}: not a complete wordbias cache ({last})")


def verify(cache_dir: str | os.PathLike, *, full: bool = False) -> dict:
    """Check a cache folder against its meta.json (sizes, shape, dtype, the hashes of the vocabulary, its index,
    a sample of the matrix and the whole matrix, the last once per process unless ``full``); returns the meta,
    or raises :class:`~wordbias.core.errors.CacheError` naming the file at fault."""
    return open_once(Path(cache_dir), "r", "full" if full else "once", build=False)[1]


def open_once(cache_dir: Path, mmap_mode: str | None, verify: str,
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
    words = decode_vocab(cache_dir / VOCAB_FILE, vocab_bytes)
    if index is not None and index.shape != (2, len(words)):
        raise CacheError(f"{cache_dir / INDEX_FILE}: an index of shape {index.shape} for {len(words)} words")
    if not build and meta["wordbias_cache_version"] >= 3:  # sizes and checksums already matched
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


def _read_index(cache_dir: Path, dfd: int, meta: dict) -> np.ndarray | None:
    """The ``(2, n)`` uint64 index of a version-3 cache, checked against meta.json's size and SHA-256
    (``None`` for older versions, which have none)."""
    if meta["wordbias_cache_version"] < 3:
        return None
    where = cache_dir / INDEX_FILE
    data = _read_bytes_at(dfd, INDEX_FILE)  # missing: FileNotFoundError, as for the other files (a writer's swap)
    sums = meta["checksums"]
    if len(data) != sums.get("index_bytes") or sha256_hex(data) != sums.get("index_sha256"):
        raise CacheError(f"{where}: size or SHA-256 differs from meta.json (damaged or edited)")
    f = io.BytesIO(data)
    shape, fortran, dtype = read_npy_header(f)
    if len(shape) != 2 or fortran or dtype != np.dtype("<u8"):
        raise CacheError(f"{where}: expected a 2-d uint64 array, found shape {shape}, dtype {dtype}")
    return np.frombuffer(data, dtype="<u8", offset=f.tell()).reshape(shape)


def _read_matrix(where: Path, f, mmap_mode: str | None) -> np.ndarray:
    """The float32 matrix of the open ``.npy`` file ``f``: memory-mapped read-only, or read into memory."""
    f.seek(0)
    try:
        shape, fortran, dtype = read_npy_header(f)
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
    where = cache_dir / META_FILE
    try:
        meta = json.loads(_read_bytes_at(dfd, META_FILE).decode("utf-8"))
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
        raise CacheError(f"{cache_dir / META_FILE}: no checksums, shape or dtype recorded")
    if len(vocab_bytes) != sums.get("vocab_bytes") or sha256_hex(vocab_bytes) != sums.get("vocab_sha256"):
        raise CacheError(f"{cache_dir / VOCAB_FILE}: size or SHA-256 differs from meta.json (damaged or edited)")
    size = os.fstat(vectors_file.fileno()).st_size
    if size != sums.get("vectors_bytes"):
        raise CacheError(
            f"{cache_dir / VECTORS_FILE}: {size} bytes, meta.json records {sums.get('vectors_bytes')} (truncated?)"
        )
    try:
        header = read_npy_header(vectors_file)
    except (ValueError, OSError, EOFError) as exc:
        raise CacheError(f"{cache_dir / VECTORS_FILE}: unreadable .npy header ({exc})") from exc
    file_shape, fortran, dtype = header
    if list(file_shape) != shape or fortran or dtype != np.dtype("<f4"):
        raise CacheError(
            f"{cache_dir / VECTORS_FILE}: shape {file_shape}, dtype {dtype}; meta.json records {shape} float32"
        )
    start = vectors_file.tell()
    if "vectors_header_sha256" in sums and \
            sha256_hex(os.pread(vectors_file.fileno(), start, 0)) != sums["vectors_header_sha256"]:
        raise CacheError(f"{cache_dir / VECTORS_FILE}: the .npy header's bytes differ from meta.json's checksum "
                         "(damaged or edited)")
    if sample_sha256(vectors_file, start, size) != sums.get("vectors_sample_sha256"):
        raise CacheError(f"{cache_dir / VECTORS_FILE}: the sampled matrix blocks differ from meta.json's checksum "
                         "(damaged or edited)")
    _check_matrix(cache_dir, vectors_file, start, sums, shape, again=verify == "full")


def _check_matrix(cache_dir: Path, vectors_file, start: int, sums: dict, shape: list, *, again: bool) -> None:
    """Verify every byte of the matrix against meta.json, once per process per version of the file.

    Version 4 records the SHA-256 of each block of ``vectors_block_bytes`` bytes (:func:`_check_blocks`, in
    parallel); versions 2 and 3 the SHA-256 of the whole matrix. Skipped when this process already verified
    the file with its device, inode, size, mtime and ctime as they are now, against the same checksums (the
    memo :data:`_VERIFIED`), unless ``again``. A file changed within :data:`RACY_SECONDS` of the verification
    is not memoised."""
    where = cache_dir / VECTORS_FILE
    st = os.fstat(vectors_file.fileno())
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    blocks, block_bytes = sums.get("vectors_blocks_sha256"), sums.get("vectors_block_bytes")
    if blocks is not None:
        token = f"blocks:{block_bytes}:{sha256_hex(json.dumps(blocks).encode())}"
    else:
        token = f"whole:{sums.get('vectors_sha256')}"
    if not again and _VERIFIED.get(key) == token:
        return
    begun = time.time_ns()
    if blocks is not None:
        _check_blocks(where, vectors_file.fileno(), start, st.st_size, block_bytes, blocks, shape)
    elif not isinstance(sums.get("vectors_sha256"), str):
        raise CacheError(f"{cache_dir / META_FILE}: no checksum of the whole matrix recorded; rebuild the cache")
    elif file_sha256(vectors_file, start) != sums["vectors_sha256"]:
        raise CacheError(f"{where}: the matrix's SHA-256 differs from meta.json (damaged)")
    if max(st.st_mtime_ns, st.st_ctime_ns) < begun - RACY_SECONDS * 1e9:
        _VERIFIED[key] = token


def _check_blocks(where: Path, fd: int, start: int, size: int, block_bytes, expected, shape: list) -> None:
    """Compare the SHA-256 of each :data:`BLOCK_BYTES` block of the matrix (bytes ``[start, size)`` of the file
    ``fd``) with ``expected``, hashing blocks in parallel threads (``hashlib`` releases the GIL); a
    :class:`~wordbias.core.errors.CacheError` names the first block that differs, its bytes and rows."""
    length = size - start
    if (isinstance(block_bytes, bool) or not isinstance(block_bytes, int) or block_bytes <= 0
            or not isinstance(expected, list) or len(expected) != -(-length // block_bytes)):
        raise CacheError(f"{where.parent / META_FILE}: the matrix's block checksums do not fit its {length:,} bytes "
                         f"(damaged or edited)")
    offsets = [start + i * block_bytes for i in range(len(expected))]

    def block_sha256(offset: int) -> str:
        return range_sha256(fd, offset, min(offset + block_bytes, size))

    workers = min(default_workers(), len(offsets))
    if workers > 1:
        with ThreadPoolExecutor(workers) as pool:
            found = list(pool.map(block_sha256, offsets))
    else:
        found = [block_sha256(offset) for offset in offsets]
    bad = [i for i, (got, want) in enumerate(zip(found, expected)) if got != want]
    if bad:
        first, end = bad[0] * block_bytes, min((bad[0] + 1) * block_bytes, length)
        row_bytes = 4 * max(int(shape[1]), 1)
        more = f"; {len(bad) - 1} more block(s) differ" if len(bad) > 1 else ""
        raise CacheError(f"{where}: matrix bytes {first:,} to {end - 1:,} (rows {first // row_bytes:,} to "
                         f"{(end - 1) // row_bytes:,}) differ from meta.json's checksum{more} (damaged or edited)")


def range_sha256(fd: int, begin: int, end: int) -> str:
    """SHA-256 of bytes ``[begin, end)`` of the open file ``fd`` (read with ``os.pread``: no shared position,
    so threads can hash several ranges of one file at once)."""
    h = hashlib.sha256()
    while begin < end:
        chunk = os.pread(fd, min(READ_BYTES, end - begin), begin)
        if not chunk:
            break
        h.update(chunk)
        begin += len(chunk)
    return h.hexdigest()


class MatrixHasher:
    """The SHA-256 of a matrix's bytes (after the ``.npy`` header) as a whole and per :data:`BLOCK_BYTES` block,
    fed in pieces of any size (the rows as they are written, or the file as it is read).

    Examples
    --------
    >>> h = MatrixHasher(block_bytes=4)
    >>> h.update(b"abcdef"); h.update(b"gh"); h.update(b"i")
    >>> h.blocks() == [sha256_hex(b"abcd"), sha256_hex(b"efgh"), sha256_hex(b"i")]
    True
    >>> h.full.hexdigest() == sha256_hex(b"abcdefghi")
    True
    """

    def __init__(self, block_bytes: int | None = None):
        self.block_bytes = block_bytes or BLOCK_BYTES
        self.full = hashlib.sha256()
        self._done: list[str] = []
        self._block = hashlib.sha256()
        self._filled = 0

    def update(self, data) -> None:
        """Add the next bytes."""
        view = memoryview(data)
        if not view.nbytes:
            return
        view = view.cast("B")
        self.full.update(view)
        while len(view):
            take = min(len(view), self.block_bytes - self._filled)
            self._block.update(view[:take])
            self._filled += take
            view = view[take:]
            if self._filled == self.block_bytes:
                self._done.append(self._block.hexdigest())
                self._block, self._filled = hashlib.sha256(), 0

    def blocks(self) -> list[str]:
        """The blocks' SHA-256s so far, the last (partial) block included."""
        return self._done + ([self._block.hexdigest()] if self._filled else [])


def read_npy_header(f) -> tuple:
    """``(shape, fortran_order, dtype)`` of the ``.npy`` file ``f``, leaving it at the start of the data."""
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(f)
    return np.lib.format.read_array_header_2_0(f)


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hexadecimal."""
    return hashlib.sha256(data).hexdigest()


def sample_sha256(f, start: int, end: int) -> str:
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


def file_sha256(f, start: int) -> str:
    """SHA-256 of file ``f`` from byte ``start`` to its end."""
    h = hashlib.sha256()
    f.seek(start)
    for block in iter(lambda: f.read(1 << 22), b""):
        h.update(block)
    return h.hexdigest()


def checksums(folder: Path, *, hasher: MatrixHasher | None = None) -> dict:
    """The checksums meta.json records for the files of ``folder`` (see the module docstring); ``hasher`` holds
    the matrix's hashes when they were computed as it was written (else the file is read)."""
    vocab = (folder / VOCAB_FILE).read_bytes()
    with open(folder / VECTORS_FILE, "rb") as f:
        read_npy_header(f)
        start = f.tell()
        size = os.fstat(f.fileno()).st_size
        sample = sample_sha256(f, start, size)
        if hasher is None:
            hasher = MatrixHasher()
            for block in iter(lambda: f.read(READ_BYTES), b""):
                hasher.update(block)
        header = os.pread(f.fileno(), start, 0)
    sums = {"vocab_bytes": len(vocab), "vocab_sha256": sha256_hex(vocab), "vectors_bytes": size,
            "vectors_header_sha256": sha256_hex(header), "vectors_sample_sha256": sample,
            "vectors_sha256": hasher.full.hexdigest(), "vectors_block_bytes": hasher.block_bytes,
            "vectors_blocks_sha256": hasher.blocks()}
    if (folder / INDEX_FILE).exists():
        index = (folder / INDEX_FILE).read_bytes()
        sums.update(index_bytes=len(index), index_sha256=sha256_hex(index))
    return sums


def read_meta(cache_dir: Path) -> dict | None:
    """The cache's meta.json if the folder is a complete, valid cache (:func:`verify`) of a version a load
    serves (:data:`SERVED_VERSIONS`), else ``None``."""
    try:
        meta = verify(cache_dir)
    except (CacheError, OSError):
        return None
    return meta if meta.get("wordbias_cache_version") in SERVED_VERSIONS else None


def decode_vocab(path: Path, data: bytes) -> list[str]:
    """Inverse of :func:`wordbias.embeddings.cache._write_vocab` (split on ``\\n`` only: words may contain U+2028,
    U+0085, ...)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CacheError(f"{path}: invalid UTF-8 at byte offset {exc.start} (damaged file)") from exc
    if not text:
        return []
    if not text.endswith("\n"):
        raise CacheError(f"{path}: truncated vocabulary file (no final newline)")
    return text[:-1].split("\n")
