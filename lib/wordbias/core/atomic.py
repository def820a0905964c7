"""Atomic writes (every cache and output file of wordbias): a file or folder is built under a temporary name
beside its final place and renamed into place only when complete, so a reader never sees a half-written one.
(The embedding caches themselves are :mod:`wordbias.embeddings.cache`.)

The files of one run (a command's ``tidy.csv``, ``summary.html`` and figures) are replaced together or not at all
(:func:`run_files`): every file is written to its temporary name first, and only when all are written are they
moved into place; a failure (a full disk) removes the temporaries and leaves the earlier result whole. Only files
wordbias wrote, as it wrote them, are replaced (the run manifest of :mod:`wordbias.core.ownership`), unless the
user says otherwise (``force``, a command's ``--force``)."""
from __future__ import annotations

import contextvars
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from wordbias.core.errors import (
    CacheRebuiltWarning,  # noqa: F401 - re-exported: the cache modules warn with it
    DiskFullError,
)
from wordbias.core.io_errors import CACHE_WAY_OUT, disk_full_error, is_disk_full, reraise_disk_full
from wordbias.core.ownership import (
    MARKER,
    RUN_MANIFEST,
    check_files_ours,
    check_replaceable,
    check_tree_ours,
    file_sha256,
    mark,
    read_run_manifest,
    record_files,
)

__all__ = ["atomic_file", "atomic_folder", "run_files", "RunFiles", "pending_path"]

#: the run whose files are being written in this context (:func:`run_files`), if any
_RUN: contextvars.ContextVar[RunFiles | None] = contextvars.ContextVar("wordbias_run_files", default=None)


@contextmanager
def atomic_file(path: str | os.PathLike, *, what: str | None = None) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` to write; on success it replaces ``path``, on error it is removed
    (with ``what``, the cache being written, a full disk raises :class:`~wordbias.core.errors.DiskFullError`
    naming ``what``, ``path`` and how to make room for caches; outputs wrap their own message around it).

    The temporary name keeps ``path``'s suffix (``np.savez`` and friends look at it) and is unique per writer,
    so concurrent writers of the same cache do not collide; the last to finish wins. Inside :func:`run_files`, a
    file of the run's folder is not moved into place at once but with the run's other files, when all are
    written (:func:`pending_path` gives where its new content is until then).

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
    run = _RUN.get()
    run = run if run is not None and run.holds(path) else None
    try:
        with reraise_disk_full(path, what, way_out=CACHE_WAY_OUT) if what else nullcontext():
            path.parent.mkdir(parents=True, exist_ok=True)
            yield tmp
            if run is not None:
                run.add(tmp, path)  # moved into place with the run's other files (run_files)
            else:
                os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_folder(path: str | os.PathLike, *, kind: str, is_complete=None, manifest: bool = False,
                  check=None) -> Iterator[Path]:
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

    ``manifest=True`` (a folder of outputs, such as a trained ensemble) applies the rule at every depth: the new
    folder's files and subfolders are recorded in its run manifest (:func:`wordbias.core.ownership.record_files`,
    with each file's SHA-256), and a folder at ``path`` is replaced only if everything in it, in every subfolder,
    is recorded there and unchanged (:func:`wordbias.core.ownership.check_tree_ours`), checked before any work
    and again just before the swap; a full disk's message then says that ``path`` is as it was. ``check(path)``,
    if given, is that check instead (it raises :class:`~wordbias.core.errors.FolderNotOursError` for a folder
    that may not be replaced): a writer that recognises its own earlier folders by their files passes one.

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
    if check is None:
        check = check_tree_ours if manifest else check_replaceable
    check(path)  # before any work: a user's folder is refused at once
    cache = kind == "embedding-cache"
    way_out = CACHE_WAY_OUT if cache else None
    if manifest:
        from wordbias.core.io_errors import OUTPUT_WAY_OUT

        way_out = f"{OUTPUT_WAY_OUT}; {path} is as it was (nothing in it was replaced)"
    with reraise_disk_full(path, "the cache" if cache else "the folder", way_out=way_out):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{path.name}-", dir=path.parent))
        try:
            mark(tmp, kind)
            yield tmp
            if manifest:
                _record_tree(tmp)
            _move_into_place(tmp, path, is_complete, check)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


def _record_tree(folder: Path) -> None:
    """Write ``folder``'s run manifest: every file below it (its own marker aside) with its SHA-256, every
    subfolder."""
    files, folders = {}, []
    for here, dirs, names in os.walk(folder):
        rel_dir = Path(here).relative_to(folder).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        folders += [prefix + d for d in dirs if not os.path.islink(os.path.join(here, d))]   # a link: never ours
        for name in names:
            rel = prefix + name
            if rel not in (MARKER, RUN_MANIFEST) and not os.path.islink(os.path.join(here, name)):
                files[rel] = [file_sha256(Path(here) / name)]
    record_files(folder, files, folders)


def _move_into_place(tmp: Path, path: Path, is_complete, check=check_replaceable) -> None:
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
        check(path)  # checked again just before the swap: a user's folder is never replaced
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




# --------------------------------------------------------------------------------------------------
# the files of one run: written to temporaries, moved into place together when all are written
# --------------------------------------------------------------------------------------------------

class RunFiles:
    """The files of one run being written into ``folder`` (:func:`run_files`): each final path with the
    temporary file holding its new content, in the order written; ``force``: files wordbias did not write may be
    replaced."""

    def __init__(self, folder: Path, force: bool = False):
        self.folder = folder
        self.force = force
        self._pending: dict[Path, Path] = {}
        self._earlier = any(os.path.lexists(folder / name) for name in read_run_manifest(folder)["files"])
        self.written: list[Path] = []   #: the final paths, once the run's files are in place

    def holds(self, path: str | os.PathLike) -> bool:
        """Whether ``path`` is a file of this run's folder (it is then moved into place with the others)."""
        return Path(os.path.realpath(Path(path).parent)) == self.folder

    def add(self, tmp: Path, path: Path) -> None:
        """Record ``tmp`` as the new content of ``path`` (a second write of one path replaces the first)."""
        path = self.folder / Path(path).name
        earlier = self._pending.pop(path, None)
        if earlier is not None and earlier != tmp:
            earlier.unlink(missing_ok=True)
        self._pending[path] = Path(tmp)

    def pending(self, path: str | os.PathLike) -> Path | None:
        """The temporary file holding ``path``'s new content until the run's files are moved into place."""
        return self._pending.get(self.folder / Path(path).name)

    def discard(self) -> None:
        """Remove every temporary file of the run (those not yet moved into place)."""
        for tmp in self._pending.values():
            tmp.unlink(missing_ok=True)

    def commit(self) -> None:
        """Move the run's files into place: checked again (:func:`wordbias.core.ownership.check_files_ours`),
        then the manifest listing the old and the new contents, then the files (renames, which need no space),
        then the manifest listing the new contents only."""
        if not self._pending:
            return
        check_files_ours(self.folder, [p.name for p in self._pending], force=self.force)
        old = read_run_manifest(self.folder)
        kept = {k: v for k, v in old["files"].items() if os.path.lexists(self.folder / k)}
        new = {p.name: [file_sha256(tmp)] for p, tmp in self._pending.items()}
        both = {**kept, **{k: kept.get(k, []) + v for k, v in new.items()}}
        manifest = self.folder / RUN_MANIFEST
        # listing both contents first: whatever happens between the renames, every file is recognised as wordbias's
        with atomic_file(manifest) as tmp:
            record_files(self.folder, both, old["folders"], into=tmp)
        for path, tmp in list(self._pending.items()):
            os.replace(tmp, path)
            self.written.append(path)
        try:
            with atomic_file(manifest) as tmp:
                record_files(self.folder, {**kept, **new}, old["folders"], into=tmp)
        except OSError:
            pass  # the manifest written before the renames lists the new contents too: nothing is lost

    def intact_error(self, exc: OSError) -> DiskFullError:
        """The :class:`DiskFullError` for a full disk while the run was written, saying that the earlier result
        is whole."""
        err = exc if isinstance(exc, DiskFullError) else disk_full_error(exc, exc.filename or self.folder,
                                                                         "the outputs")
        if self.written:   # a rename failed after others succeeded (renames need no space: not seen in practice)
            told = (f"Of this run's files, {', '.join(p.name for p in self.written)} were put in {self.folder} "
                    "before the error; the others there are the earlier ones.")
        elif self._earlier:
            told = (f"The earlier result in {self.folder} is whole: none of its files was replaced, and this run's "
                    "partly written files were removed.")
        else:
            told = f"Nothing of this run was put in {self.folder}: its partly written files were removed."
        return DiskFullError(f"{err} {told}", err.errno, err.filename)


@contextmanager
def run_files(folder: str | os.PathLike, *, names: Iterable[str] = (), force: bool = False) -> Iterator[RunFiles]:
    """Write the files of one run into ``folder`` together: every :func:`atomic_file` of a path in ``folder``
    within the block (``tidy.csv``, ``summary.html``, the figures of :func:`wordbias.core.figures.save`) writes
    its temporary file, and only when the block ends without error are they all moved into place, with the run
    manifest (:data:`wordbias.core.ownership.RUN_MANIFEST`) recording each file's SHA-256.

    Only files wordbias wrote there, unchanged since, are replaced: ``names`` (the files the run may write) are
    checked on entry, before any work, and the files actually written again just before they are moved
    (:func:`wordbias.core.ownership.check_files_ours`; a user's file of the same name, an edited file or a
    symbolic link raises :class:`~wordbias.core.errors.FolderNotOursError` naming it; with ``force``, a command's
    ``--force``, any file of those names is replaced, a folder in a file's place still refused). On any error the
    temporary files are removed and the folder is as it was; a full disk raises
    :class:`~wordbias.core.errors.DiskFullError` naming the file and saying that the earlier result is whole.

    Parameters
    ----------
    folder : str or os.PathLike
        The output folder (it must exist; symbolic links in its path are resolved).
    names : iterable of str
        The names of the files the run may write, checked before any work.
    force : bool, default False
        Replace files of those names that wordbias did not write, or that were changed since
        (:func:`wordbias.core.ownership.check_files_ours`).

    Yields
    ------
    RunFiles
        The run; its ``written`` lists the final paths once the block has ended.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> with run_files(out, names=["a.txt", "b.txt"]) as run:
    ...     for name in ("a.txt", "b.txt"):
    ...         with atomic_file(out / name) as tmp:
    ...             _ = tmp.write_text(name)
    ...     print((out / "a.txt").exists())                  # not yet: moved in with b.txt
    False
    >>> [p.name for p in run.written], sorted(p.name for p in out.iterdir())
    (['a.txt', 'b.txt'], ['.wordbias-run.json', 'a.txt', 'b.txt'])
    """
    folder = Path(os.path.realpath(folder))
    check_files_ours(folder, list(names), force=force)
    run = RunFiles(folder, force=force)
    token = _RUN.set(run)
    try:
        try:
            yield run
        finally:
            _RUN.reset(token)
        run.commit()
    except BaseException as exc:
        run.discard()
        if is_disk_full(exc):
            raise run.intact_error(exc) from exc
        raise


def pending_path(path: str | os.PathLike) -> Path:
    """Where ``path``'s newest content is: the temporary file written for it inside :func:`run_files` until the
    run's files are moved into place, else ``path`` itself."""
    run = _RUN.get()
    pending = run.pending(path) if run is not None and run.holds(path) else None
    return pending if pending is not None else Path(path)
