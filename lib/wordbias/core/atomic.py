"""Atomic writes (every cache and output file of wordbias): a file or folder is built under a temporary name
beside its final place and renamed into place only when complete, so a reader never sees a half-written one.
(The embedding caches themselves are :mod:`wordbias.embeddings.cache`.)"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from wordbias.core.errors import CacheRebuiltWarning  # noqa: F401 - re-exported: the cache modules warn with it
from wordbias.core.io_errors import CACHE_WAY_OUT, reraise_disk_full
from wordbias.core.ownership import check_replaceable, mark

__all__ = ["atomic_file", "atomic_folder"]


@contextmanager
def atomic_file(path: str | os.PathLike, *, what: str | None = None) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write; on success it replaces ``path``, on error it is removed
    (with ``what``, the cache being written, a full disk raises :class:`~wordbias.core.errors.DiskFullError`
    naming ``what``, ``path`` and how to make room for caches; outputs wrap their own message around it).

    The temporary name keeps ``path``'s suffix (``np.savez`` and friends look at it) and is unique per writer,
    so concurrent writers of the same cache do not collide; the last to finish wins.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> with atomic_file(target) as tmp:
    ...     _ = tmp.write_text("done")
    >>> target.read_text()
    'done'
    """
    path = Path(path)
    # a fresh name the writer creates itself, so the file gets the usual permissions (mkstemp's are 0600)
    tmp = path.with_name(f".tmp-{path.stem}-{os.getpid()}-{uuid.uuid4().hex[:12]}{path.suffix}")
    try:
        with reraise_disk_full(path, what, way_out=CACHE_WAY_OUT) if what else nullcontext():
            path.parent.mkdir(parents=True, exist_ok=True)
            yield tmp
            os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_folder(path: str | os.PathLike, *, kind: str, is_complete=None) -> Iterator[Path]:
    """Yield a new temporary folder beside ``path`` to fill; on success it takes ``path``'s place, on error it
    is removed.

    Only a folder of wordbias's may be replaced (:func:`wordbias.core.ownership.check_replaceable`: marked,
    empty, or an unmarked cache of an earlier version): a user's folder at ``path`` raises
    :class:`~wordbias.core.errors.FolderNotOursError` before any work and is left untouched. The new folder
    carries the marker of ``kind`` (one of :data:`wordbias.core.ownership.KINDS`) from the moment it is created,
    so even a writer's leftover is recognisably wordbias's. A full disk raises
    :class:`~wordbias.core.errors.DiskFullError` naming ``path``, the space left and what to do.

    A reader never finds ``path`` missing once it exists: the new folder is renamed in when ``path`` is
    absent, and otherwise swapped with the old one in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``)
    before the old one is deleted; where that call is missing, the old folder is renamed aside first (a
    window of two renames, which readers cover by retrying). The only good copy is never deleted before the
    new one is in place. ``is_complete(path)``, if given, tells whether the folder already at ``path`` (a
    concurrent writer's, or an earlier one) is a finished, valid result: then it is kept and ours discarded.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "folder"
    >>> for text in ("old", "new"):
    ...     with atomic_folder(target, kind="output") as tmp:
    ...         _ = (tmp / "x.txt").write_text(text)
    >>> (target / "x.txt").read_text(), sorted(p.name for p in target.parent.iterdir())
    ('new', ['folder'])
    """
    path = Path(path)
    check_replaceable(path)  # before any work: a user's folder is refused at once
    cache = kind == "embedding-cache"
    with reraise_disk_full(path, "the cache" if cache else "the folder", way_out=CACHE_WAY_OUT if cache else None):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{path.name}-", dir=path.parent))
        try:
            mark(tmp, kind)
            yield tmp
            _move_into_place(tmp, path, is_complete)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


def _move_into_place(tmp: Path, path: Path, is_complete) -> None:
    """Put the finished folder ``tmp`` at ``path`` (see :func:`atomic_folder`); ``tmp`` is gone afterwards."""
    for _attempt in range(10):
        if path.exists() and is_complete is not None and is_complete(path):
            shutil.rmtree(tmp, ignore_errors=True)  # a concurrent writer finished first: keep theirs
            return
        if not os.path.lexists(path):
            try:
                os.rename(tmp, path)  # fails if a concurrent writer has just put a (non-empty) folder there
                return
            except OSError:
                continue
        check_replaceable(path)  # checked again just before the swap: a user's folder is never replaced
        if _exchange(tmp, path):  # tmp now holds the old folder
            shutil.rmtree(tmp, ignore_errors=True)
            return
        aside = path.with_name(f".old-{path.name}-{uuid.uuid4().hex[:12]}")
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            continue
        try:
            os.rename(tmp, path)
        except OSError:
            continue  # another writer got in between; our tmp is still there
        finally:
            shutil.rmtree(aside, ignore_errors=True)
        return
    raise OSError(f"could not move {tmp} into place at {path}: target exists and keeps changing")


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux ``renameat2`` with ``RENAME_EXCHANGE``); False where the
    system lacks the call or refuses it (then the caller falls back to two renames)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


