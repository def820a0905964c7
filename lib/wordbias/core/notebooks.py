"""Strip the run-dependent metadata that papermill and Jupyter write into an executed notebook.

``python -m wordbias.core.notebooks NOTEBOOK...`` removes start/end times, durations and execution
timestamps, so that ``make`` regenerates byte-identical notebooks from the same parameters.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

_VOLATILE = ("start_time", "end_time", "duration", "exception")


def clean(nb: dict) -> dict:
    """Return ``nb`` without timestamps, durations and random cell ids (in place)."""
    pm = nb.get("metadata", {}).get("papermill", {})
    for key in _VOLATILE + ("input_path", "output_path"):
        pm.pop(key, None)
    for i, cell in enumerate(nb.get("cells", [])):
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell["id"] = "injected-parameters"  # papermill gives this cell a random id on every run
        md = cell.get("metadata", {})
        md.pop("execution", None)
        cpm = md.get("papermill", {})
        for key in _VOLATILE:
            cpm.pop(key, None)
    return nb


def main(paths: list[str]) -> None:
    for path in paths:
        p = Path(path)
        nb = clean(json.loads(p.read_text(encoding="utf-8")))
        p.write_text(json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
