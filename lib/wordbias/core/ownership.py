"""Which folders are wordbias's own: a marker file in every folder the project creates, checked before any
folder is removed or replaced, so that a user's folder is never deleted.

Every folder wordbias writes as a whole (an embedding cache, a converted or saved embedding, a trained model, a
``--out`` folder it created) holds :data:`MARKER`, a small JSON file naming the kind of folder and the
wordbias version that wrote it. Anything that removes or replaces a folder goes through
:func:`remove_folder` or :func:`check_replaceable`, which refuse a folder without the marker with
:class:`FolderNotOursError`, naming it. Two kinds of unmarked folders count as ours: an empty folder (replacing
it loses nothing), and an embedding cache written before markers existed (``meta.json`` of a wordbias cache
and nothing but a cache's files: :func:`is_legacy_cache`).

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

import json
import os
import shutil
from pathlib import Path

from wordbias.core.errors import FolderNotOursError

__all__ = ["MARKER", "KINDS", "mark", "owner", "is_ours", "is_legacy_cache",
           "check_replaceable", "remove_folder"]

#: The marker file's name: hidden, so it stays out of a user's way in the folder listing.
MARKER = ".wordbias-folder"
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
