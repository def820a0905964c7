"""Arrays cached on disk under the key of everything they depend on (the GAP features and topic solutions, UBE's
rotational null, the debiasing checks table).

The file is an ``.npz`` of the arrays and their key (no pickle), written atomically (:func:`write_keyed_arrays`,
:func:`write_keyed_array` for one array); it is read back only when its stored key is the one asked for and the
arrays pass the caller's check (:func:`read_keyed_arrays`; :func:`read_keyed_array` checks one array's shape and
dtype). A file that does not open, or holds another key or other arrays, gives a
:class:`~wordbias.core.errors.CacheRebuiltWarning` naming the file and what is wrong, and the caller computes the
arrays again (then overwrites the file).
"""

from __future__ import annotations

import warnings
import zipfile
from pathlib import Path

import numpy as np

from wordbias.core.atomic import atomic_file
from wordbias.core.errors import CacheRebuiltWarning

__all__ = ["read_keyed_array", "read_keyed_arrays", "write_keyed_array", "write_keyed_arrays"]


def read_keyed_array(path: str | Path, key: str, name: str, shape: tuple[int, ...], *, what: str,
                     dtype=np.float32) -> np.ndarray | None:
    """Return the array ``name`` cached at ``path`` if the file holds ``key`` and an array of ``shape`` and ``dtype``.

    Parameters
    ----------
    path, key, what
        As for :func:`read_keyed_arrays` (the file written by :func:`write_keyed_array`).
    name : str
        The array's name in the file.
    shape : tuple of int
        The shape expected.
    dtype : numpy dtype, default numpy.float32
        The dtype expected.

    Returns
    -------
    numpy.ndarray or None
        The array; ``None`` when the file is absent, or (with a :class:`~wordbias.core.errors.CacheRebuiltWarning`,
        attributed to the caller's caller) when it is damaged or holds something else.

    Examples
    --------
    >>> import tempfile, warnings
    >>> path = Path(tempfile.mkdtemp()) / "x.npz"
    >>> write_keyed_array(path, "k1", "x", np.zeros((2, 3), dtype=np.float32), what="the toy cache")
    >>> read_keyed_array(path, "k1", "x", (2, 3), what="toy cache").shape
    (2, 3)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     read_keyed_array(path, "k2", "x", (2, 3), what="toy cache") is None, str(caught[0].message).split(': ')[1]
    (True, 'holds key k1..., expected key k2...; recomputing it')
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     read_keyed_array(path, "k1", "x", (3, 2), what="toy cache") is None, str(caught[0].message).split(': ')[1]
    (True, 'holds shape (2, 3), dtype float32; expected shape (3, 2), float32; recomputing it')
    """
    def check(arrays: dict) -> str | None:
        a = arrays[name]
        if a.shape == tuple(shape) and a.dtype == np.dtype(dtype):
            return None
        return f"holds shape {a.shape}, dtype {a.dtype}; expected shape {tuple(shape)}, {np.dtype(dtype)}"

    arrays = read_keyed_arrays(path, key, what=what, check=check, stacklevel=4)
    return None if arrays is None else arrays[name]


def read_keyed_arrays(path: str | Path, key: str, *, what: str, check=None, stacklevel: int = 3) -> dict | None:
    """Return the arrays cached at ``path`` (name -> array) if the file holds ``key`` and they pass ``check``.

    Parameters
    ----------
    path : str or path-like
        The cache file (written by :func:`write_keyed_arrays`).
    key : str
        The key of everything the arrays depend on.
    what : str
        The cache's name in the warning (e.g. ``"GAP topic cache"``).
    check : callable, optional
        Called with the arrays of a file of the right key; returns None when they are what the caller expects,
        else what is wrong (a short phrase for the warning). A ``KeyError`` or ``IndexError`` it raises (a missing
        array) counts as a damaged file.
    stacklevel : int, default 3
        The warning's stack level (3: the caller's caller).

    Returns
    -------
    dict or None
        The arrays (``key`` left out); ``None`` when the file is absent, or (with a
        :class:`~wordbias.core.errors.CacheRebuiltWarning`) when it is damaged, holds another key or fails ``check``.

    Examples
    --------
    >>> import tempfile, warnings
    >>> path = Path(tempfile.mkdtemp()) / "x.npz"
    >>> write_keyed_arrays(path, "k1", {"a": np.zeros(2), "b": np.ones(3)}, what="the toy cache")
    >>> sorted(read_keyed_arrays(path, "k1", what="toy cache"))
    ['a', 'b']
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     too_short = read_keyed_arrays(path, "k1", what="toy cache", check=lambda a: "b too short")
    ...     too_short is None, str(caught[0].message).split(": ")[1]
    (True, 'b too short; recomputing it')
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        stored_key = str(arrays.pop("key"))
        if stored_key != key:
            problem = f"holds key {stored_key[:16]}..., expected key {key[:16]}..."
        else:
            problem = None if check is None else check(arrays)
            if problem is None:
                return arrays
    except (OSError, ValueError, KeyError, IndexError, EOFError, zipfile.BadZipFile) as exc:
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    warnings.warn(f"{what} {path}: {problem}; recomputing it", CacheRebuiltWarning, stacklevel=stacklevel)
    return None


def write_keyed_array(path: str | Path, key: str, name: str, array: np.ndarray, *, what: str) -> None:
    """Write ``array`` and its ``key`` to the cache file ``path`` (``.npz``, no pickle), atomically.

    Parameters
    ----------
    path, key, what
        As for :func:`write_keyed_arrays`.
    name : str
        The array's name in the file.
    array : numpy.ndarray
        The array.
    """
    write_keyed_arrays(path, key, {name: array}, what=what)


def write_keyed_arrays(path: str | Path, key: str, arrays: dict, *, what: str) -> None:
    """Write the ``arrays`` (name -> array; no name ``"key"``, no object arrays) and their ``key`` to the cache file
    ``path`` (``.npz``, no pickle), atomically.

    Parameters
    ----------
    path : str or path-like
        The cache file.
    key : str
        The key of everything the arrays depend on.
    arrays : dict of str to numpy.ndarray
        The arrays.
    what : str
        The cache, as a full disk's error names it (e.g. ``"the GAP topic cache"``).
    """
    with atomic_file(path, what=what) as tmp:
        np.savez(tmp, **arrays, key=np.array(key))
