"""Where the project's data, results and figures live.

The package is installed in editable mode from the repository (``pip install -e .``), so the
repository root is three levels above this file (``lib/wordbias/core/paths.py``). ``WORDBIAS_ROOT`` overrides it (for example when the
package is installed elsewhere and the data folder is copied next to the notebooks).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("WORDBIAS_ROOT", Path(__file__).resolve().parents[3]))
DATA = ROOT / "data"
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
    """The folder holding user-supplied full embeddings (``WORDBIAS_EMBEDDINGS``, default ``data/embeddings``)."""
    return Path(os.environ.get("WORDBIAS_EMBEDDINGS", DATA / "embeddings"))


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
