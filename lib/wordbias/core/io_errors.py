"""A full disk reported with the path being written, the free space and what to do.

Writing a file on a full disk (or over a quota, or past the file system's largest file) raises a bare
``OSError: [Errno 28] No space left on device``, often naming a temporary file the user never chose. Wrap the
code that writes in :func:`reraise_disk_full`: those errors (:data:`DISK_FULL_ERRNOS`) come out as a
:class:`DiskFullError` whose message names what was being written, the path, the space left on that disk and
the way out; every other error passes through unchanged.

Usage, for an output and for a cache::

    from wordbias.core.io_errors import CACHE_WAY_OUT, reraise_disk_full

    with reraise_disk_full(out / "tidy.csv", "the tidy table"):
        frame.to_csv(out / "tidy.csv")

    with reraise_disk_full(folder, "the embedding cache", way_out=CACHE_WAY_OUT):
        np.save(folder / "vectors.npy", matrix)

:class:`DiskFullError` is an ``OSError`` (code catching ``OSError`` keeps working) and keeps the original
``errno``; the ``wordbias`` command shows it as one line, like every other error.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from wordbias.core.errors import DiskFullError

__all__ = ["DISK_FULL_ERRNOS", "OUTPUT_WAY_OUT", "CACHE_WAY_OUT", "is_disk_full", "free_bytes",
           "disk_full_error", "reraise_disk_full"]

#: the errors that mean "no room to write": no space left, disk quota exceeded, file too large
DISK_FULL_ERRNOS = frozenset(e for e in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG) if e is not None)

_REASONS = {errno.ENOSPC: "no space left on the device", errno.EFBIG: "the file is too large for the file system"}
if hasattr(errno, "EDQUOT"):
    _REASONS[errno.EDQUOT] = "the disk quota is exceeded"

#: the default advice for outputs (tables, figures, HTML pages)
OUTPUT_WAY_OUT = ("free some space on that disk, or write the outputs elsewhere (another --out folder for the "
                  "command, another output folder or path for the function)")
#: the advice for caches (for :func:`reraise_disk_full`'s ``way_out`` in the cache writers)
CACHE_WAY_OUT = ("free some space on that disk (`wordbias cache list` / `wordbias cache clear` show and remove "
                 "old caches), or put the caches on another disk: the environment variable WORDBIAS_CACHE, "
                 "--cache-dir for the command, cache_dir= for the functions")


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` is an ``OSError`` meaning there is no room to write (:data:`DISK_FULL_ERRNOS`).

    Examples
    --------
    >>> is_disk_full(OSError(errno.ENOSPC, "No space left on device")), is_disk_full(PermissionError(13, "no"))
    (True, False)
    """
    return isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS


def free_bytes(path: str | os.PathLike) -> int | None:
    """The bytes free to an unprivileged user on the disk holding ``path`` (or its nearest existing parent
    folder), or ``None`` when that cannot be read.

    Examples
    --------
    >>> free_bytes("/no/such/folder/at/all") is None or free_bytes("/") >= 0
    True
    """
    try:
        where = Path(path).expanduser().absolute()
    except (OSError, ValueError, RuntimeError):
        return None
    for folder in (where, *where.parents):
        try:
            if folder.exists():
                return shutil.disk_usage(folder).free
        except (OSError, ValueError):
            return None
    return None


def _size(n: int | None) -> str:
    if n is None:
        return "unknown free space"
    value = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:.0f} bytes free" if unit == "bytes" else f"{value:.1f} {unit} free"
        value /= 1024
    return f"{n} bytes free"  # pragma: no cover


def disk_full_error(exc: OSError, path: str | os.PathLike, what: str = "the output", *,
                    way_out: str | None = None) -> DiskFullError:
    """The :class:`DiskFullError` for ``exc`` (an ``OSError`` of :data:`DISK_FULL_ERRNOS`) raised while writing
    ``what`` to ``path``: for ``except`` clauses where a ``with`` block does not fit (raise it ``from exc``).

    Examples
    --------
    >>> e = disk_full_error(OSError(errno.ENOSPC, "No space left on device"), "/out/tidy.csv", "the tidy table")
    >>> str(e).startswith("cannot write the tidy table to /out/tidy.csv: no space left on the device ([Errno 28]")
    True
    >>> "free some space on that disk" in str(e)
    True
    """
    reason = _REASONS.get(exc.errno, "no room to write")
    original = f"[Errno {exc.errno}] {exc.strerror or reason}"
    if exc.filename is not None and str(exc.filename) != str(path):
        original += f": {exc.filename}"
    message = (f"cannot write {what} to {path}: {reason} ({original}; {_size(free_bytes(path))} on that disk). "
               f"What to do: {way_out or OUTPUT_WAY_OUT}.")
    return DiskFullError(message, exc.errno, str(path))


@contextmanager
def reraise_disk_full(path: str | os.PathLike, what: str = "the output", *,
                      way_out: str | None = None) -> Iterator[None]:
    """Run the block that writes ``what`` to ``path``; a full disk, exceeded quota or too large a file
    (:data:`DISK_FULL_ERRNOS`) comes out as :class:`DiskFullError` naming ``what``, ``path``, the free space and
    ``way_out`` (default :data:`OUTPUT_WAY_OUT`; caches pass :data:`CACHE_WAY_OUT`). Any other error, and a
    :class:`DiskFullError` raised by an inner block, passes through unchanged.

    Parameters
    ----------
    path : str or os.PathLike
        The file or folder being written (what the user chose: the output folder, the cache folder).
    what : str
        What is being written, as a noun phrase ("the tidy table", "the embedding cache").
    way_out : str, optional
        What the user can do, one sentence without its final full stop.

    Examples
    --------
    >>> try:
    ...     with reraise_disk_full("/out/tidy.csv", "the tidy table"):
    ...         raise OSError(errno.ENOSPC, "No space left on device")
    ... except DiskFullError as err:
    ...     print(str(err)[:73], err.errno == errno.ENOSPC, err.filename)
    cannot write the tidy table to /out/tidy.csv: no space left on the device True /out/tidy.csv
    >>> try:
    ...     with reraise_disk_full("/out/tidy.csv"):
    ...         raise PermissionError(errno.EACCES, "Permission denied")
    ... except OSError as err:
    ...     print(type(err).__name__)
    PermissionError
    """
    try:
        yield
    except DiskFullError:
        raise
    except OSError as exc:
        if not is_disk_full(exc):
            raise
        raise disk_full_error(exc, path, what, way_out=way_out) from exc
