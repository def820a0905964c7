"""Where the project's data, results, figures, runs and caches live.

Two ways to have the package:

* **a checkout of the repository** (``pip install -e .``, what ``make`` does): the root is three levels above this
  file (``lib/wordbias/core/paths.py``); the data are the repository's ``data/``, tables and figures of the
  committed runs go to ``results/`` and ``figures/``, other runs to ``runs/``;
* **an installed wheel** (``pip install wordbias``): the data ship inside the package (``wordbias/data``, read
  through :mod:`importlib.resources`); the root, under which ``results/``, ``figures/`` and ``runs/`` are made, is
  the current folder.

``WORDBIAS_ROOT`` overrides the root (``WORDBIAS_DATA`` the data folder, ``WORDBIAS_RUNS`` the runs folder,
``WORDBIAS_EMBEDDINGS`` the folder of full embedding files, ``WORDBIAS_CACHE`` the caches).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[3]
#: whether the package runs from a checkout of the repository (editable install) rather than an installed wheel
IN_CHECKOUT = (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "lib" / "wordbias").is_dir()


def _data_dir() -> Path:
    """The data folder: ``WORDBIAS_DATA``; else the package's own ``wordbias/data`` when it holds the data (an
    installed wheel), else the checkout's ``data/``."""
    env = os.environ.get("WORDBIAS_DATA")
    if env:
        return Path(env)
    packaged = Path(str(resources.files("wordbias").joinpath("data")))
    if (packaged / "stimuli").is_dir():
        return packaged
    return (Path(os.environ["WORDBIAS_ROOT"]) if "WORDBIAS_ROOT" in os.environ else _CHECKOUT) / "data"


ROOT = Path(os.environ.get("WORDBIAS_ROOT") or (_CHECKOUT if IN_CHECKOUT else Path.cwd()))
DATA = _data_dir()
STIMULI = DATA / "stimuli"
RESULTS = ROOT / "results"
FIGURES = ROOT / "figures"
#: runs on embeddings other than a notebook's committed defaults (``WORDBIAS_RUNS`` moves it; git ignores it)
RUNS = Path(os.environ.get("WORDBIAS_RUNS", ROOT / "runs"))


def cache_dir() -> Path:
    """The root of wordbias's caches (converted embeddings, GAP features, trained models), read at each call:
    ``WORDBIAS_CACHE`` if set, else the platform's per-user cache folder (``platformdirs.user_cache_dir``:
    ``$XDG_CACHE_HOME/wordbias`` or ``~/.cache/wordbias`` on Linux, ``~/Library/Caches/wordbias`` on macOS,
    ``%LOCALAPPDATA%\\wordbias\\Cache`` on Windows). The Makefile sets ``WORDBIAS_CACHE`` to the repository's
    ``.cache/`` so that ``make`` keeps its caches with the checkout. ``wordbias cache list`` / ``clear`` (or
    :func:`wordbias.embeddings.cache.list_caches`) show and remove them."""
    env = os.environ.get("WORDBIAS_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("wordbias", appauthor=False))


#: the cache root when the package was imported (:func:`cache_dir` reads the environment at each call)
CACHE = cache_dir()

#: environment variables that choose the CPU code paths of numpy, OpenBLAS, torch, oneDNN, MKL and numba
#: (the Makefile's KERNELS setting); results that depend on float rounding are cached per setting
KERNEL_VARIABLES = ("WORDBIAS_KERNELS", "OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "ATEN_CPU_CAPABILITY",
                    "ONEDNN_MAX_CPU_ISA", "MKL_CBWR", "NUMBA_CPU_NAME", "OPENBLAS_NUM_THREADS")


def embeddings_dir() -> Path:
    """The folder holding user-supplied full embeddings: ``WORDBIAS_EMBEDDINGS``, else the checkout's
    ``data/embeddings`` (or ``<root>/data/embeddings`` with ``WORDBIAS_ROOT``), else, for an installed wheel, the
    platform's per-user data folder (``platformdirs.user_data_dir``, e.g. ``~/.local/share/wordbias/embeddings``)."""
    env = os.environ.get("WORDBIAS_EMBEDDINGS")
    if env:
        return Path(env)
    if IN_CHECKOUT or "WORDBIAS_ROOT" in os.environ:
        return ROOT / "data" / "embeddings"
    import platformdirs

    return Path(platformdirs.user_data_dir("wordbias", appauthor=False)) / "embeddings"


def compute_fingerprint() -> dict:
    """What decides the float rounding of a computation besides its inputs: the kernel variables, the
    machine architecture and the versions of numpy, torch and scikit-learn (for cache keys)."""
    import platform
    from importlib import metadata

    versions = {}
    for pkg in ("numpy", "scipy", "torch", "transformers", "scikit-learn"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return {"machine": platform.machine(), "versions": versions,
            "kernels": {k: os.environ.get(k) for k in KERNEL_VARIABLES}}
