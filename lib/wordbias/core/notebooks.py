"""Strip the run-dependent metadata that papermill and Jupyter write into an executed notebook.

``python -m wordbias.core.notebooks NOTEBOOK...`` removes start/end times, durations and execution
timestamps, and merges stream outputs that the kernel split at random, so that ``make`` regenerates
byte-identical notebooks from the same parameters.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

_VOLATILE = ("start_time", "end_time", "duration", "exception")


def merge_streams(outputs: list) -> list:
    """Consecutive stream outputs of the same stream (stdout, stderr) as one output: how the kernel splits a
    stream into chunks depends on timing, not on the notebook (nbval compares them merged too).

    Examples
    --------
    >>> out = [{"output_type": "stream", "name": "stderr", "text": ["a\\n"]},
    ...        {"output_type": "stream", "name": "stderr", "text": ["b\\n"]}]
    >>> merge_streams(out)
    [{'output_type': 'stream', 'name': 'stderr', 'text': ['a\\n', 'b\\n']}]
    """
    merged: list = []
    for out in outputs:
        last = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and last is not None and last.get("output_type") == "stream"
                and last.get("name") == out.get("name")):
            text = last["text"] if isinstance(last["text"], list) else [last["text"]]
            more = out["text"] if isinstance(out["text"], list) else [out["text"]]
            last["text"] = text + more
        else:
            merged.append(out)
    return merged


def clean(nb: dict) -> dict:
    """Return ``nb`` without timestamps, durations and random cell ids, with each cell's consecutive stream
    outputs merged (in place)."""
    pm = nb.get("metadata", {}).get("papermill", {})
    for key in _VOLATILE + ("input_path", "output_path"):
        pm.pop(key, None)
    for i, cell in enumerate(nb.get("cells", [])):
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell["id"] = "injected-parameters"  # papermill gives this cell a random id on every run
        if "outputs" in cell:
            cell["outputs"] = merge_streams(cell["outputs"])
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
