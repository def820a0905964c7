"""Writing caches atomically: a cache file or folder is built under a temporary name beside its final place
and renamed into place only when complete, so a reader never sees a half-written cache."""
from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write; on success it replaces ``path``, on error it is removed.

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
    path.parent.mkdir(parents=True, exist_ok=True)
    # a fresh name the writer creates itself, so the file gets the usual permissions (mkstemp's are 0600)
    tmp = path.with_name(f".tmp-{path.stem}-{os.getpid()}-{uuid.uuid4().hex[:12]}{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_folder(path: str | os.PathLike, *, is_complete=None) -> Iterator[Path]:
    """Yield a new temporary folder beside ``path`` to fill; on success it replaces ``path``, on error it is
    removed. ``is_complete(path)``, if given, tells whether a folder that a concurrent writer renamed into
    place first is a finished cache (then ours is discarded instead of failing).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{path.name}-", dir=path.parent))
    try:
        yield tmp
        if path.exists():
            shutil.rmtree(path)
        try:
            os.replace(tmp, path)
        except OSError:
            if is_complete is None or not is_complete(path):
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
