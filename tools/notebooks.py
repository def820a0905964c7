"""Strip the run-dependent metadata that papermill and Jupyter write into an executed notebook.

``python -m tools.notebooks NOTEBOOK...`` (a developer tool of the repository, run by the Makefile on each
executed notebook) removes start/end times, durations and execution timestamps, replaces the random ids of
ipywidgets outputs (:func:`stable_widgets`), merges stream outputs that the kernel split at random, and drops the
outputs of cells tagged ``timing`` (:data:`TIMING_TAG`: a wall time printed for the reader who runs the notebook),
so that ``make`` regenerates byte-identical notebooks from the same parameters. It also folds papermill's injected
parameters into the notebook's own parameters cell (:func:`fold_parameters`): otherwise the injected cell, below
it, would win over any value a reader edits in the parameters cell and re-runs.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

_VOLATILE = ("start_time", "end_time", "duration", "exception")
#: cells tagged so print what changes from run to run and machine to machine (wall times): their outputs are dropped
#: from the executed notebook (give them ``nbval-ignore-output`` too, so that nbval does not compare them)
TIMING_TAG = "timing"


#: the order of the streams within a run of stream outputs (see :func:`merge_streams`)
STREAM_ORDER = ("stderr", "stdout")


def merge_streams(outputs: list) -> list:
    """Each run of consecutive stream outputs as at most two outputs, stderr then stdout, each holding its
    stream's text in order. How the kernel splits a stream into chunks depends on timing, not on the notebook
    (nbval compares them merged too); and stdout and stderr reach the notebook by separate channels, so which of
    a print and a warning issued close together arrives first is a race (seen: a lesson's warning before its
    print on one run, after it on another). Within each stream the order is kept.

    Examples
    --------
    >>> out = [{"output_type": "stream", "name": "stdout", "text": ["a\\n"]},
    ...        {"output_type": "stream", "name": "stderr", "text": ["w\\n"]},
    ...        {"output_type": "stream", "name": "stdout", "text": ["b\\n"]}]
    >>> [(o["name"], o["text"]) for o in merge_streams(out)]
    [('stderr', ['w\\n']), ('stdout', ['a\\n', 'b\\n'])]
    """
    merged: list = []
    run: dict[str, dict] = {}

    def flush():
        merged.extend(run[name] for name in sorted(run, key=lambda n: (STREAM_ORDER.index(n)
                                                                       if n in STREAM_ORDER else 2, n)))
        run.clear()

    for out in outputs:
        if out.get("output_type") != "stream":
            flush()
            merged.append(out)
            continue
        name = out.get("name")
        more = out["text"] if isinstance(out["text"], list) else [out["text"]]
        if name in run:
            text = run[name]["text"]
            run[name]["text"] = (text if isinstance(text, list) else [text]) + more
        else:
            run[name] = out
    flush()
    for out in merged:  # one canonical split into lines: the kernel's chunking may cut a line in two
        if out.get("output_type") == "stream":
            text = out["text"] if isinstance(out["text"], list) else [out["text"]]
            out["text"] = "".join(text).splitlines(keepends=True)
    return merged


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _tagged(cell: dict, tag: str) -> bool:
    return tag in cell.get("metadata", {}).get("tags", [])


def _assignments(text: str) -> dict[str, ast.Assign]:
    """name -> its (last) top-level single-target assignment in ``text``."""
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = node
    return out


def fold_parameters(nb: dict) -> dict:
    r"""Move the values of papermill's ``injected-parameters`` cell into the ``parameters`` cell and drop the
    injected cell (in place): each ``name = value`` of the parameters cell gets the injected value, its comment
    kept; a name the parameters cell does not define is appended with a comment saying so. A notebook without
    both cells is returned unchanged.

    Examples
    --------
    >>> nb = {"cells": [
    ...     {"cell_type": "code", "metadata": {"tags": ["parameters"]},
    ...      "source": ["seed = 0      # the seed\n", "embedding = 'a'\n"]},
    ...     {"cell_type": "code", "metadata": {"tags": ["injected-parameters"]},
    ...      "source": ["# Parameters\n", "embedding = \"glove-6b-50d\"\n"]}]}
    >>> print(_source(fold_parameters(nb)["cells"][0]), end="")
    seed = 0      # the seed
    embedding = "glove-6b-50d"
    >>> len(nb["cells"])
    1
    """
    cells = nb.get("cells", [])
    params = next((c for c in cells if _tagged(c, "parameters")), None)
    injected = next((c for c in cells if _tagged(c, "injected-parameters")), None)
    if params is None or injected is None:
        return nb
    text, new = _source(params), _source(injected)
    values = {name: ast.get_source_segment(new, node.value) for name, node in _assignments(new).items()}
    lines = text.splitlines(keepends=True)
    extra = []
    for name, value in values.items():
        node = _assignments("".join(lines)).get(name)
        if node is None or node.lineno != node.end_lineno or node.value.lineno != node.value.end_lineno:
            extra.append(f"{name} = {value}   # passed to papermill; not a parameter of this notebook\n"
                         if node is None else f"{name} = {value}\n")
            continue
        i = node.lineno - 1
        line = lines[i]
        # col offsets are in UTF-8 bytes
        raw = line.encode("utf-8")
        head, tail = raw[:node.value.col_offset] + value.encode("utf-8"), raw[node.value.end_col_offset:]
        comment = tail.lstrip(b" ")
        if comment.startswith(b"#"):      # keep the comment's column where the new value leaves room
            tail = b" " * max(2, node.value.end_col_offset + len(tail) - len(comment) - len(head)) + comment
        lines[i] = (head + tail).decode("utf-8")
    out = "".join(lines)
    if extra:
        out = out + ("" if out.endswith("\n") or not out else "\n") + "".join(extra)
    params["source"] = out.splitlines(keepends=True)
    cells.remove(injected)
    return nb


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def stable_widgets(nb: dict) -> dict:
    """Give each ipywidgets output a model id made from its position (``cell<i>-output<j>``) instead of the
    random one the kernel drew, and drop the saved widget state (keyed by those random ids), in place. Saved
    widgets cannot run without their kernel anyway: a reader re-runs the cell to get a live one (and the
    site shows a note instead)."""
    nb.get("metadata", {}).pop("widgets", None)
    for i, cell in enumerate(nb.get("cells", [])):
        for j, output in enumerate(cell.get("outputs", [])):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if isinstance(view, dict) and "model_id" in view:
                view["model_id"] = f"cell{i}-output{j}"
    return nb


def clean(nb: dict) -> dict:
    """Return ``nb`` without timestamps, durations, random cell ids and random widget ids, with each cell's
    consecutive stream outputs merged, the outputs of cells tagged :data:`TIMING_TAG` dropped and papermill's
    injected parameters folded into the parameters cell (in place)."""
    fold_parameters(nb)
    stable_widgets(nb)
    pm = nb.get("metadata", {}).get("papermill", {})
    for key in _VOLATILE + ("input_path", "output_path"):
        pm.pop(key, None)
    for cell in nb.get("cells", []):
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell["id"] = "injected-parameters"  # papermill gives this cell a random id on every run
        if "outputs" in cell:
            cell["outputs"] = [] if _tagged(cell, TIMING_TAG) else merge_streams(cell["outputs"])
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
