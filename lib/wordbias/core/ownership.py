"""Which folders are wordbias's own: a marker file in every folder the project creates, checked before any
folder is removed or replaced, so that a user's folder is never deleted.

Every folder wordbias writes as a whole (an embedding cache, a converted or saved embedding, a trained model, a
``--out`` folder it created) holds :data:`MARKER`, a small JSON file naming the kind of folder and the
wordbias version that wrote it. Anything that removes or replaces a folder goes through
:func:`remove_folder` or :func:`check_replaceable`, which refuse a folder without the marker with
:class:`FolderNotOursError`, naming it. Two kinds of unmarked folders count as ours: an empty folder (replacing
it loses nothing), and an embedding cache written before markers existed (``meta.json`` of a wordbias cache
and nothing but a cache's files: :func:`is_legacy_cache`).

Inside an output folder, wordbias knows its own files by the run manifest, :data:`RUN_MANIFEST`: the path and
SHA-256 of every file (and the subfolders) a run wrote there (:func:`record_files`). A later run replaces only a
file listed there whose content still matches (:func:`check_files_ours`, for the named files of a command's
``--out``; :func:`check_tree_ours`, for a folder replaced as a whole, at every depth): a user's file of the same
name, a file the user edited, a symbolic link (to anywhere) or a folder the user made is refused with
:class:`FolderNotOursError` naming it, before any work.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "cache"
>>> _ = mark(folder, "embedding-cache")
>>> owner(folder)
'embedding-cache'
>>> user = folder.parent / "thesis"
>>> _ = (user / "notes.md").parent.mkdir()
>>> _ = (user / "notes.md").write_text("mine")
>>> owner(user) is None
True
>>> remove_folder(user)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
wordbias.core.errors.FolderNotOursError: refusing to remove .../thesis: wordbias did not create it (no .wordbias-folder marker) and it is not empty; choose another folder, or move it away yourself
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from wordbias.core.errors import FolderNotOursError

__all__ = ["MARKER", "RUN_MANIFEST", "KINDS", "mark", "owner", "is_ours", "is_legacy_cache",
           "check_replaceable", "remove_folder", "file_sha256", "read_run_manifest", "record_files",
           "check_files_ours", "check_tree_ours", "has_run_manifest", "check_output_folder"]

#: The marker file's name: hidden, so it stays out of a user's way in the folder listing.
MARKER = ".wordbias-folder"
#: The run manifest: the files (path relative to the folder, SHA-256) and subfolders wordbias wrote into a folder.
RUN_MANIFEST = ".wordbias-run.json"
#: The kinds of folders wordbias writes.
KINDS = ("embedding-cache", "embedding", "model", "output", "temporary")
#: The files of an embedding cache (:mod:`wordbias.embeddings.cache_format`), for caches written before the marker.
_CACHE_FILES = frozenset({"meta.json", "vectors.npy", "vocab.txt", "vocab_index.npy"})



def mark(folder: str | os.PathLike, kind: str) -> Path:
    """Create ``folder`` if needed and write the marker naming ``kind`` (one of :data:`KINDS`); returns the
    marker's path. Marking a folder that holds someone else's files is refused: the marker is how wordbias
    claims a folder it may later delete."""
    from wordbias import __version__

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    current = owner(folder)
    if current is None and _has_entries(folder, ignore={MARKER}):
        raise FolderNotOursError(f"refusing to mark {folder} as wordbias's: it holds files wordbias did not write")
    path = folder / MARKER
    path.write_text(json.dumps({"created_by": "wordbias", "kind": kind, "version": __version__}) + "\n",
                    encoding="utf-8")
    return path


def owner(folder: str | os.PathLike) -> str | None:
    """The kind of wordbias folder ``folder`` is (its marker's ``kind``, or ``"embedding-cache"`` for a cache
    written before markers), else ``None`` (not a folder, or not wordbias's)."""
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink():
        return None
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if isinstance(data, dict) and data.get("created_by") == "wordbias" and data.get("kind") in KINDS:
        return data["kind"]
    return "embedding-cache" if is_legacy_cache(folder) else None


def is_ours(folder: str | os.PathLike, kinds: tuple[str, ...] | None = None) -> bool:
    """Whether ``folder`` is a wordbias folder (of one of ``kinds``, if given)."""
    kind = owner(folder)
    return kind is not None and (kinds is None or kind in kinds)


def is_legacy_cache(folder: str | os.PathLike) -> bool:
    """An embedding cache written before markers: a ``meta.json`` with ``wordbias_cache_version`` and no file
    but a cache's own (a user's folder that merely holds a ``meta.json`` does not qualify)."""
    folder = Path(folder)
    try:
        names = {p.name for p in folder.iterdir()}
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and "wordbias_cache_version" in meta and names <= _CACHE_FILES


def _has_entries(folder: Path, ignore: set[str] = frozenset()) -> bool:
    try:
        return any(p.name not in ignore for p in folder.iterdir())
    except FileNotFoundError:
        return False


def check_replaceable(folder: str | os.PathLike, *, action: str = "replace") -> None:
    """Raise :class:`FolderNotOursError` unless ``folder`` is absent, empty, or a wordbias folder: what must
    hold before wordbias removes or replaces it. A symbolic link or a file at ``folder`` is refused too."""
    folder = Path(folder)
    if not os.path.lexists(folder):
        return
    if folder.is_symlink() or not folder.is_dir():
        kind = "a symbolic link" if folder.is_symlink() else "a file"
        raise FolderNotOursError(f"refusing to {action} {folder}: it is {kind}, not a folder wordbias wrote")
    if owner(folder) is None and _has_entries(folder):
        raise FolderNotOursError(
            f"refusing to {action} {folder}: wordbias did not create it (no {MARKER} marker) and it is not empty; "
            "choose another folder, or move it away yourself")


def remove_folder(folder: str | os.PathLike) -> None:
    """Delete ``folder`` and its contents, only if it is wordbias's (:func:`check_replaceable`)."""
    check_replaceable(folder, action="remove")
    shutil.rmtree(folder)


# --------------------------------------------------------------------------------------------------
# the files of a run: recorded with their SHA-256, replaced only while they are as wordbias wrote them
# --------------------------------------------------------------------------------------------------

def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes (64 hexadecimal digits), read in blocks of 4 MiB."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def read_run_manifest(folder: str | os.PathLike) -> dict:
    """The run manifest of ``folder`` (:data:`RUN_MANIFEST`) as ``{"files": {path: [sha256, ...]}, "folders":
    [path, ...]}`` (paths relative to ``folder``, with ``/``); empty lists and maps where there is none, or where
    it is not wordbias's (a symbolic link, not JSON, not written by wordbias): then no file counts as ours."""
    data = _load_run_manifest(folder)
    if data is None:
        return {"files": {}, "folders": []}
    files = data.get("files") if isinstance(data.get("files"), dict) else {}
    folders = data.get("folders") if isinstance(data.get("folders"), list) else []
    return {"files": {str(k): [str(h) for h in v] for k, v in files.items() if isinstance(v, list)},
            "folders": [str(f) for f in folders]}


def _load_run_manifest(folder: str | os.PathLike) -> dict | None:
    """The JSON of ``folder``'s run manifest if it is wordbias's (a regular file written by wordbias), else
    ``None``."""
    path = Path(folder) / RUN_MANIFEST
    if path.is_symlink() or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("created_by") == "wordbias" else None


def has_run_manifest(folder: str | os.PathLike) -> bool:
    """Whether ``folder`` holds a run manifest wordbias wrote (:data:`RUN_MANIFEST`): a folder a command of
    wordbias has written its files into."""
    return _load_run_manifest(folder) is not None


def record_files(folder: str | os.PathLike, files: dict[str, list[str]], folders: Iterable[str] = (),
                 *, into: str | os.PathLike | None = None) -> Path:
    """Write the run manifest of ``folder``: ``files`` (path relative to ``folder`` -> the SHA-256s of the
    contents wordbias wrote there) and ``folders`` (the subfolders it created), as JSON; to ``into`` if given (a
    temporary file the caller moves into place), else to ``folder / RUN_MANIFEST``. Returns the path written."""
    from wordbias import __version__

    target = Path(into) if into is not None else Path(folder) / RUN_MANIFEST
    data = {"created_by": "wordbias", "version": __version__,
            "files": {k: list(dict.fromkeys(v)) for k, v in sorted(files.items())},
            "folders": sorted(set(folders))}
    target.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return target


def _why_not_ours(path: Path, rel: str, manifest: dict) -> str | None:
    """Why the entry ``path`` (``rel`` in its folder's manifest) may not be replaced, or ``None``."""
    if path.is_symlink():
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return (f"{path} is a symbolic link (to {target}); wordbias never writes through a link, which could "
                "replace a file elsewhere")
    if path.is_dir():
        if rel in manifest["folders"]:
            return None
        return f"{path} is a folder wordbias did not create"
    if not path.is_file():
        return f"{path} is not a regular file"
    known = manifest["files"].get(rel)
    if not known:
        return (f"{path} is a file wordbias did not write (it is not in the folder's {RUN_MANIFEST}, the list of "
                "what wordbias wrote there)")
    try:
        digest = file_sha256(path)
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    if digest not in known:
        return f"{path} was changed since wordbias wrote it (its SHA-256 differs from the one recorded)"
    return None


def check_files_ours(folder: str | os.PathLike, names: Iterable[str], *, action: str = "write", force: bool = False,
                     force_option: str | None = None) -> None:
    """Raise :class:`FolderNotOursError` unless each of ``names`` in ``folder`` is absent, or a regular file
    wordbias wrote there (listed in the run manifest, :data:`RUN_MANIFEST`) with the content it wrote: what
    must hold before a command writes its named files into a folder. A symbolic link among them (or at the
    manifest's place) is refused, naming the link and its target; the folder itself may be any folder (its
    other files are not touched).

    ``force=True`` (a command's ``--force``) lets any file or symbolic link of those names be replaced (a link is
    replaced itself, never written through); only a folder in a file's place is refused. ``force_option``, the
    option that says so, is named in the message as a way out.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (out / "summary.html").write_text("my own page")
    >>> check_files_ours(out, ["tidy.csv"])                  # absent: fine
    >>> check_files_ours(out, ["summary.html"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.FolderNotOursError: refusing to write .../summary.html: .../summary.html is a file wordbias did not write ...
    """
    folder = Path(folder)
    manifest = read_run_manifest(folder)
    for name in (RUN_MANIFEST, *names):
        path = folder / name
        if not os.path.lexists(path):
            continue
        if force:
            why = f"{path} is a folder, which a file cannot replace" if _is_real_dir(path) else None
        elif name == RUN_MANIFEST:   # replaced by every run: only a link or a folder in its place is refused
            ours = path.is_file() and not path.is_symlink()
            why = None if ours else _why_not_ours(path, name, {"files": {}, "folders": []})
        else:
            why = _why_not_ours(path, name, manifest)
        if why is not None:
            forcible = force_option is not None and not _is_real_dir(path)
            raise FolderNotOursError(f"refusing to {action} {path}: {why}; move it away yourself, "
                                     + (f"choose another output folder, or give {force_option} to replace it"
                                        if forcible else "or choose another output folder"))


def _is_real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def check_output_folder(folder: str | os.PathLike, names: Iterable[str] = (), *, force: bool = False,
                        force_option: str | None = "--force") -> None:
    """The output rule of every command that writes a folder: raise :class:`FolderNotOursError`, before any work,
    unless ``folder`` may receive the files ``names``.

    The folder must be absent, empty (its marker aside), or one wordbias made: its marker of an output folder
    (:data:`MARKER`) or its run manifest (:data:`RUN_MANIFEST`). In a folder of wordbias's only the files its
    run manifest lists, unchanged since, are replaced (:func:`check_files_ours`); the folder's other files are
    left alone. Any other folder, one holding files of the user's, is refused, naming the folder, a few of its
    files and the way out: a new or empty folder, or ``force_option`` (``None`` where the caller offers none).

    ``force=True`` (``--force``) allows writing into any folder the user names and replacing files wordbias did
    not write there (a folder in a file's place is still refused: nothing can replace it).

    Parameters
    ----------
    folder : str or os.PathLike
        The output folder, resolved (:func:`wordbias.core.paths.check_output_dir` checks where it may be).
    names : iterable of str
        The names of the files the command may write there.
    force : bool, default False
        Write into a folder of the user's, replacing its files of those names.
    force_option : str or None, default "--force"
        How the caller says ``force``, named in the message; ``None`` where forcing is not offered.

    Raises
    ------
    FolderNotOursError
        When the folder, or a file of ``names`` in it, may not be written (see above); nothing is changed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> mine = pathlib.Path(tempfile.mkdtemp())
    >>> check_output_folder(mine / "new", ["tidy.csv"])         # absent: fine
    >>> _ = (mine / "notes.txt").write_text("mine")
    >>> check_output_folder(mine, ["tidy.csv"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.FolderNotOursError: refusing to write into ...: wordbias did not create it ... (notes.txt); give a new or an empty folder, or --force ...
    >>> check_output_folder(mine, ["tidy.csv"], force=True)     # --force: written beside notes.txt
    """
    folder = Path(folder)
    names = list(names)
    check_files_ours(folder, names, force=force, force_option=force_option)
    if force or not _is_real_dir(folder) or owner(folder) == "output" or has_run_manifest(folder):
        return
    entries = sorted(p.name for p in folder.iterdir() if p.name != MARKER)
    if not entries:
        return
    shown = ", ".join(entries[:3]) + (f" and {len(entries) - 3} more" if len(entries) > 3 else "")
    way_out = "give a new or an empty folder" + (f", or {force_option} to write into this one anyway (replacing "
                                                 "any file there named like one the command writes)"
                                                 if force_option is not None else "")
    raise FolderNotOursError(f"refusing to write into {folder}: wordbias did not create it (no {MARKER} or "
                             f"{RUN_MANIFEST}) and it holds files wordbias did not write ({shown}); {way_out}")


def check_tree_ours(folder: str | os.PathLike, *, action: str = "replace") -> None:
    """Raise :class:`FolderNotOursError` unless everything in ``folder``, at every depth, is wordbias's: what
    must hold before the folder is replaced as a whole. Its markers aside, each file must be listed in its run
    manifest (:data:`RUN_MANIFEST`) with the content wordbias wrote, each subfolder listed as one wordbias created;
    a symbolic link anywhere is refused. An absent or empty folder, or one holding only its marker, passes.
    The message names the first file or folder that is not wordbias's.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "ensemble"
    >>> _ = mark(out, "output")
    >>> _ = (out / "runs" / "seed-1").mkdir(parents=True)
    >>> _ = (out / "runs" / "seed-1" / "vectors.npy").write_bytes(b"ours")
    >>> _ = record_files(out, {"runs/seed-1/vectors.npy": [file_sha256(out / "runs/seed-1/vectors.npy")]},
    ...                  ["runs", "runs/seed-1"])
    >>> check_tree_ours(out)
    >>> _ = (out / "runs" / "seed-1" / "notes.md").write_text("mine")
    >>> check_tree_ours(out)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.FolderNotOursError: refusing to replace .../ensemble: .../runs/seed-1/notes.md is a file wordbias did not write ...
    """
    folder = Path(folder)
    check_replaceable(folder, action=action)
    if not os.path.lexists(folder) or not _has_entries(folder, ignore={MARKER}):
        return
    manifest = read_run_manifest(folder)
    top = {MARKER, RUN_MANIFEST}
    if (folder / RUN_MANIFEST).is_symlink():
        top = {MARKER}

    def walk(here: Path, prefix: str) -> None:
        for entry in sorted(here.iterdir(), key=lambda p: p.name):
            rel = f"{prefix}{entry.name}"
            if rel in top and not entry.is_symlink() and entry.is_file():
                continue
            why = _why_not_ours(entry, rel, manifest)
            if why is not None:
                raise FolderNotOursError(f"refusing to {action} {folder}: {why}; nothing was changed. Move it "
                                         "away yourself, or choose a new folder")
            if entry.is_dir() and not entry.is_symlink():
                walk(entry, rel + "/")

    walk(folder, "")
