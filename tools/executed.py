"""What `make` executed: a record per notebook of the inputs it ran from, so that `make test` re-runs with nbval only
the notebooks that make has not just executed from the current sources.

``python -m tools.executed stamp NOTEBOOK INPUT...`` (the Makefile, after executing and cleaning a notebook) writes
``build/executed/<NOTEBOOK>.json``: the SHA-256 of the executed notebook, of every input make rebuilt it from (its
source, the library modules it imports, its data), the installed packages' versions and the kernel setting it ran
under.

``python -m tools.executed pending NOTEBOOK...`` prints the notebooks that nbval must still run: those without a
record, or whose file, any input, or the kernel setting differs from the record (a notebook edited by hand, a
source changed since, a run under other kernels), or all of them with ``WORDBIAS_NBVAL=all``. A notebook that make
executed from the current inputs has been compared with its committed copy by the results check (``make
check-results``, a prerequisite of ``make test``): cell by cell and file by file, within the tolerances of
``tools/repro_tolerances.yaml``, which is what nbval would check again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from pathlib import Path

RECORDS = Path("build") / "executed"
#: the environment variable that makes every notebook pending (``make test WORDBIAS_NBVAL=all``)
ALL_ENV = "WORDBIAS_NBVAL"


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _record_path(notebook: str) -> Path:
    return RECORDS / (notebook + ".json")


@functools.cache
def _environment() -> str:
    """The SHA-256 of the Python version and of every installed distribution's name and version (read once a
    process: about 0.5 s)."""
    from importlib import metadata

    names = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    return hashlib.sha256("\n".join([sys.version, *names]).encode()).hexdigest()


def record(notebook: str, inputs: list[str]) -> dict:
    """The record of ``notebook`` executed from ``inputs``, as :func:`stamp` writes it."""
    return {"notebook": _sha256(Path(notebook)), "kernels": os.environ.get("WORDBIAS_KERNELS", ""),
            "environment": _environment(), "inputs": {p: _sha256(Path(p)) for p in sorted(set(inputs))}}


def stamp(notebook: str, inputs: list[str]) -> Path:
    """Write the record of ``notebook``, just executed from ``inputs``."""
    path = _record_path(notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record(notebook, inputs), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def is_current(notebook: str) -> bool:
    """Whether ``notebook`` is as make wrote it, from inputs that have not changed since, in this environment and
    under these kernels."""
    try:
        old = json.loads(_record_path(notebook).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return old == record(notebook, list(old.get("inputs", {})))


def pending(notebooks: list[str]) -> list[str]:
    """The notebooks nbval must run (every one with ``WORDBIAS_NBVAL=all``)."""
    if os.environ.get(ALL_ENV, "").lower() == "all":
        return list(notebooks)
    return [nb for nb in notebooks if not is_current(nb)]


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "stamp":
        stamp(argv[1], argv[2:])
        return 0
    if argv and argv[0] == "pending":
        print(" ".join(pending(argv[1:])))
        return 0
    print("usage: python -m tools.executed stamp NOTEBOOK INPUT... | pending NOTEBOOK...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
