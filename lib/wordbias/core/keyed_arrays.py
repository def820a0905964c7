"""One array cached on disk under the key of everything it depends on (the GAP features, UBE's rotational null).

The file is an ``.npz`` of the array and its key (no pickle), written atomically (:func:`write_keyed_array`); it is
read back only when its stored key, shape and dtype are the ones asked for (:func:`read_keyed_array`). A file that
does not open, or holds another key or another shape, gives a :class:`~wordbias.core.errors.CacheRebuiltWarning`
naming the file and what is wrong, and the caller computes the array again (then overwrites the file).
"""

from __future__ import annotations

import warnings
import zipfile
from pathlib import Path

import numpy as np

from wordbias.core.atomic import atomic_file
from wordbias.core.errors import CacheRebuiltWarning

__all__ = ["read_keyed_array", "write_keyed_array"]


def read_keyed_array(path: str | Path, key: str, name: str, shape: tuple[int, ...], *, what: str,
                     dtype=np.float32) -> np.ndarray | None:
    """Return the array ``name`` cached at ``path`` if the file holds ``key`` and an array of ``shape`` and ``dtype``.

    Parameters
    ----------
    path : str or path-like
        The cache file (written by :func:`write_keyed_array`).
    key : str
        The key of everything the array depends on.
    name : str
        The array's name in the file.
    shape : tuple of int
        The shape expected.
    what : str
        The cache's name in the warning (e.g. ``"GAP feature cache"``).
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
    ...     read_keyed_array(path, "k2", "x", (2, 3), what="toy cache") is None, str(caught[0].message).split('; ')[1]
    (True, 'expected key k2..., shape (2, 3), float32')
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            stored_key, array = str(z["key"]), z[name]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    else:
        if stored_key == key and array.shape == tuple(shape) and array.dtype == np.dtype(dtype):
            return array
        problem = (f"holds key {stored_key[:16]}..., shape {array.shape}, dtype {array.dtype}; expected key "
                   f"{key[:16]}..., shape {tuple(shape)}, {np.dtype(dtype)}")
    warnings.warn(f"{what} {path}: {problem}; recomputing it", CacheRebuiltWarning, stacklevel=3)
    return None


def write_keyed_array(path: str | Path, key: str, name: str, array: np.ndarray, *, what: str) -> None:
    """Write ``array`` and its ``key`` to the cache file ``path`` (``.npz``, no pickle), atomically.

    Parameters
    ----------
    path : str or path-like
        The cache file.
    key : str
        The key of everything the array depends on.
    name : str
        The array's name in the file.
    array : numpy.ndarray
        The array.
    what : str
        The cache, as a full disk's error names it (e.g. ``"the GAP feature cache"``).
    """
    with atomic_file(path, what=what) as tmp:
        np.savez(tmp, **{name: array}, key=np.array(key))
