"""Where the project's data, results and figures live.

The package is installed in editable mode from the repository (``pip install -e .``), so the
repository root is two levels above this file. ``WORDBIAS_ROOT`` overrides it (for example when the
package is installed elsewhere and the data folder is copied next to the notebooks).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("WORDBIAS_ROOT", Path(__file__).resolve().parents[2]))
DATA = ROOT / "data"
STIMULI = DATA / "stimuli"
RESULTS = ROOT / "results"
FIGURES = ROOT / "figures"


def embeddings_dir() -> Path:
    """The folder holding user-supplied full embeddings (``WORDBIAS_EMBEDDINGS``, default ``data/embeddings``)."""
    return Path(os.environ.get("WORDBIAS_EMBEDDINGS", DATA / "embeddings"))
