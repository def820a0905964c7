"""The catalogue of bad inputs (issue 13): each case is a call and what it must do -- raise a given error
whose message holds a fragment, or warn. `tests/errors/test_*.py` hold the cases, one list per family, and
run them; `scripts/error_catalogue.py` runs them all and prints the table (family, cases, clear errors,
warnings, silent, wrong)."""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Case:
    """One bad input: ``call()`` must raise ``error`` (or warn ``warning``) with ``match`` in the message."""

    family: str
    name: str
    call: Callable[[], object]
    error: type[BaseException] | None = None
    warning: type[Warning] | None = None
    match: str = ""

    def __post_init__(self):
        if (self.error is None) == (self.warning is None):
            raise ValueError(f"case {self.name!r}: give exactly one of error and warning")

    @property
    def id(self) -> str:
        return f"{self.family}: {self.name}"


def outcome(case: Case) -> tuple[str, str]:
    """Run a case: ('clear error' | 'warning' | 'silent' | 'wrong', detail)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            case.call()
        except BaseException as exc:  # noqa: BLE001 - classifying any failure is the point
            if case.error is not None and isinstance(exc, case.error) and re.search(case.match, str(exc)):
                return "clear error", f"{type(exc).__name__}: {exc}"
            return "wrong", f"{type(exc).__name__}: {exc}"
    if case.warning is not None:
        for w in caught:
            if issubclass(w.category, case.warning) and re.search(case.match, str(w.message)):
                return "warning", f"{w.category.__name__}: {w.message}"
    return "silent", "no error" + (f" (warnings: {[str(w.message)[:60] for w in caught]})" if caught else "")


def check(case: Case) -> None:
    """Assert a case does what it must (for pytest)."""
    kind, detail = outcome(case)
    want = "clear error" if case.error is not None else "warning"
    assert kind == want, f"{case.id}: expected {want} ({(case.error or case.warning).__name__} ~ {case.match!r}); got {kind}: {detail}"
