"""Where the embedding caches live, and listing and clearing them: one folder per source under :func:`cache_root`
(``WORDBIAS_CACHE``, else the platform's per-user cache folder).

Every cache folder carries wordbias's marker (:mod:`wordbias.core.ownership`): :func:`list_caches` lists and
:func:`clear_caches` removes only marked folders (or caches of an earlier version, recognised by their own
files); anything else under the root is someone else's and is never listed nor removed (:func:`foreign_folders`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from wordbias.core import ownership, paths
from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings.cache_format import read_meta

__all__ = ["cache_root", "cache_dir_for", "registered_cache_dir", "list_caches", "clear_caches", "foreign_folders"]


def cache_root(cache_dir: str | os.PathLike | None = None) -> Path:
    """The folder holding the embedding caches.

    Parameters
    ----------
    cache_dir : str or path-like, optional
        A folder chosen by the caller; by default ``<wordbias cache>/embeddings``
        (:func:`wordbias.core.paths.cache_dir`: ``WORDBIAS_CACHE`` or the platform's per-user cache folder).

    Returns
    -------
    pathlib.Path
        ``cache_dir`` (``~`` expanded) if given, else the default folder; it need not exist.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``cache_dir`` is empty or blank (:func:`wordbias.core.paths.given_path`).

    Examples
    --------
    >>> from pathlib import Path
    >>> cache_root("~/caches") == Path.home() / "caches"
    True
    >>> cache_root().name
    'embeddings'
    """
    # an empty cache_dir (an unset shell variable) is refused, not taken for the current folder
    return paths.given_path(cache_dir, "cache_dir") if cache_dir is not None else paths.cache_dir() / "embeddings"


def cache_dir_for(path: str | os.PathLike, *, member: str | None = None,
                  cache_dir: str | os.PathLike | None = None) -> Path:
    """The cache folder of an embedding file given by path.

    The folder is ``<cache root>/<file name>-<hash>``, the hash (8 hex digits of SHA-256) of the file's
    absolute path, so that two files of the same name in different folders never share a cache; ``__<member>``
    is added for a member of a ``.zip``.

    Parameters
    ----------
    path : str or path-like
        The embedding file.
    member : str, optional
        The file read inside a ``.zip`` (its ``/`` become ``_``).
    cache_dir : str or path-like, optional
        The cache root (:func:`cache_root`); by default wordbias's.

    Returns
    -------
    pathlib.Path
        The cache folder (it need not exist).

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


def list_caches(cache_dir: str | os.PathLike | None = None) -> pandas.DataFrame:  # noqa: F821
    """List the embedding caches under :func:`cache_root`.

    Only folders wordbias wrote are listed (:func:`wordbias.core.ownership.owner`: the marker, or a cache of
    an earlier version); anything else under the root is someone else's and is left out
    (:func:`foreign_folders` names it). ``wordbias cache list`` prints this table.

    Parameters
    ----------
    cache_dir : str or path-like, optional
        The cache root (:func:`cache_root`); by default wordbias's.

    Returns
    -------
    pandas.DataFrame
        One row per wordbias folder, in name order, with ``folder``, ``name`` (the registered name or the
        source file), ``source`` (the source file's path when it was converted from one), ``shape``,
        ``bytes`` (on disk), ``created`` and ``valid`` (a complete cache of this version; else the folder is
        damaged, of an older version, or a leftover of an interrupted write).

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from wordbias.embeddings import save, to_keyed_vectors
    >>> root = tempfile.mkdtemp()
    >>> _ = save(to_keyed_vectors(["king", "queen"], np.eye(2, dtype=np.float32)), f"{root}/toy", name="toy")
    >>> list_caches(root)[["name", "shape", "valid"]]
      name shape  valid
    0  toy   2x2   True
    """
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


#: the folder under the cache root of the runs ``wordbias train`` trained (:mod:`wordbias.models.train`)
TRAINED = "trained"


def _cache_folders(cache_dir) -> list[Path]:
    """The folders under the cache root that wordbias wrote as embedding caches or saved embeddings, and the
    trained runs in its ``trained/`` folder."""
    kinds = ("embedding-cache", "embedding")
    folders = [f for f in _subfolders(cache_dir) if ownership.is_ours(f, kinds)]
    trained = cache_root(cache_dir) / TRAINED
    if trained.is_dir() and not trained.is_symlink() and ownership.is_ours(trained):
        folders += [f for f in sorted(trained.iterdir())
                    if f.is_dir() and not f.is_symlink() and ownership.is_ours(f, kinds)]
    return folders


def foreign_folders(cache_dir: str | os.PathLike | None = None) -> list[Path]:
    """The folders under :func:`cache_root` that are not wordbias's (no marker): never listed nor removed."""
    ours = set(_cache_folders(cache_dir))
    return [f for f in _subfolders(cache_dir) if f not in ours and not ownership.is_ours(f)]


def clear_caches(names: Sequence[str] | None = None, *, cache_dir: str | os.PathLike | None = None) -> list[Path]:
    """Remove embedding caches under :func:`cache_root`.

    Only folders wordbias wrote are removed (those :func:`list_caches` lists: each is checked for its marker
    again just before it is deleted, :func:`wordbias.core.ownership.remove_folder`); anything else under the
    root, a project's ``.git`` or ``.venv`` included, is left alone (:func:`foreign_folders`). The next load
    rebuilds a cache from its source. ``wordbias cache clear`` does this from the command line.

    Parameters
    ----------
    names : sequence of str, optional
        Remove only the caches whose ``name`` (in :func:`list_caches`) or folder name is listed; by default
        all of them.
    cache_dir : str or path-like, optional
        The cache root (:func:`cache_root`); by default wordbias's.

    Returns
    -------
    list of pathlib.Path
        The folders removed.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``names`` is a string or holds something other than strings.

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from wordbias.embeddings import save, to_keyed_vectors
    >>> kv = to_keyed_vectors(["king", "queen"], np.eye(2, dtype=np.float32))
    >>> root = tempfile.mkdtemp()
    >>> _ = save(kv, f"{root}/a", name="a"), save(kv, f"{root}/b", name="b")
    >>> [p.name for p in clear_caches(["a"], cache_dir=root)], list(list_caches(root)["name"])
    (['a'], ['b'])
    """
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
