#!/usr/bin/env python3
"""Run the catalogue of bad inputs (tests/errors/test_*.py, lists named CASES*) and print, per family, how
many cases raise a clear error, warn, pass silently, fail in the wrong way or lose a user's files. Usage:
`.venv/bin/python scripts/error_catalogue.py [--details]`."""
from __future__ import annotations

import importlib.util
import sys
from collections import Counter, defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests" / "errors"
sys.path.insert(0, str(TESTS))
sys.path.insert(0, str(TESTS.parent))
from catalogue import Case, outcome  # noqa: E402


def cases() -> list[Case]:
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, value in vars(module).items():
            if name.startswith("CASES") and isinstance(value, (list, tuple)):
                found += [c for c in value if isinstance(c, Case)]
    return found


def main() -> int:
    details = "--details" in sys.argv
    table: dict[str, Counter] = defaultdict(Counter)
    for case in cases():
        kind, detail = outcome(case)
        table[case.family][kind] += 1
        if details or kind in ("silent", "wrong", "data loss"):
            print(f"{kind:12s} {case.id}: {detail[:160]}")
    cols = ("clear error", "warning", "silent", "wrong", "data loss")
    print("\n| family | cases | " + " | ".join(cols) + " |\n|---|---|" + "---|" * len(cols))
    total = Counter()
    for family in sorted(table):
        total.update(table[family])
        print(f"| {family} | {sum(table[family].values())} | " + " | ".join(str(table[family][c]) for c in cols) + " |")
    print(f"| **all** | {sum(total.values())} | " + " | ".join(str(total[c]) for c in cols) + " |")
    return 0 if total["silent"] == total["wrong"] == total["data loss"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
