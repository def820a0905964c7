"""The catalogue of bad inputs: each case is a call and what it must do -- raise a given error
whose message holds a fragment, or warn. `tests/errors/test_*.py` hold the cases, one list per family, and
run them; `scripts/error_catalogue.py` runs them all and prints the table (family, cases, clear errors,
warnings, silent, wrong, data loss).

A case whose call could destroy a user's files checks them itself and raises :class:`DataLoss` when any is
gone or changed (:func:`files_survive`): that outcome is counted on its own, and must stay at 0."""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass


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


class DataLoss(AssertionError):
    """A user's file was deleted or changed by the call under test."""


class CommandFailed(RuntimeError):
    """`wordbias ...` exited non-zero; the message is its exit status and stderr."""


def run_cli(argv, *, patches=()) -> tuple[int, str]:
    """``wordbias ARGV`` in-process (``wordbias.cli.main``), stdout dropped, each of ``patches`` (context-manager
    factories) entered around it: its exit status and its stderr, stripped."""
    import contextlib
    import io

    from wordbias import cli

    err = io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        stack.enter_context(contextlib.redirect_stderr(err))
        for make in patches:
            stack.enter_context(make())
        code = cli.main([str(a) for a in argv])
    return code, err.getvalue().strip()


def exit_status(code: int, stderr: str) -> int:
    """0 for a command that succeeded; else :class:`CommandFailed` with the exit status and stderr, or an
    ``AssertionError`` for a nonzero status without a message or with a traceback (never a clear error)."""
    if code == 0:
        return code
    if not stderr or "Traceback" in stderr:
        raise AssertionError(f"exit {code} without a one-line message: {stderr!r}")
    raise CommandFailed(f"exit {code}: {stderr}")


def snapshot(root) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones included) with its bytes."""
    from pathlib import Path

    root = Path(root)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def files_survive(root, call: Callable[[], object]) -> Callable[[], object]:
    """``call`` wrapped so that, whatever it raises, the files under ``root`` are compared with what they were
    before: :class:`DataLoss` (naming the files) if any was removed or changed (new files are allowed)."""
    def wrapped():
        before = snapshot(root)
        try:
            return call()
        finally:
            after = snapshot(root)
            lost = sorted(k for k in before if after.get(k) != before[k])
            if lost:
                raise DataLoss(f"user's files removed or changed: {lost[:8]}")
    return wrapped


def outcome(case: Case) -> tuple[str, str]:
    """Run a case: ('clear error' | 'warning' | 'silent' | 'wrong' | 'data loss', detail)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            case.call()
        except DataLoss as exc:
            return "data loss", str(exc)
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


# --------------------------------------------------------------------------------------------------
# intervals: the report's cosine-bias bootstrap, the two-sample effect-size bootstrap, Kurita's attribute test
# (the calls import their modules lazily, so importing this file stays cheap; run by a test module that
# adds CASES_UNCERTAINTY_REPORT_MLM to its parametrize list)
# --------------------------------------------------------------------------------------------------

def _direction_sets(dim: int = 4):
    import numpy as np

    rng = np.random.default_rng(0)
    return [rng.normal(size=(n, dim)) for n in (5, 6, 7, 8)]


def _direction_ci(*sets, **kw):
    from wordbias.measures.directions.bootstrap_direction import direction_bootstrap_from_vectors

    return lambda: direction_bootstrap_from_vectors(*(sets or _direction_sets()), **kw)


def _effect_ci(s_a=(0.5, 0.9, 0.7, 0.4), s_b=(0.1, -0.2, 0.3, 0.0), **kw):
    from wordbias.measures.association.bootstrap import effect_size_bootstrap

    return lambda: effect_size_bootstrap(list(s_a), list(s_b), **kw)


def _attribute_test(**kw):
    def call():
        from wordbias.measures.language_models.mlm import attribute_test

        return attribute_test([0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0], **kw)
    return call


def _uncertainty_cases() -> list[Case]:
    import numpy as np

    from wordbias.core.errors import DegenerateSetError, InvalidParameterError

    T1, T2, A1, A2 = _direction_sets()
    U = "uncertainty"
    return [
        Case(U, "direction bootstrap: empty A1", _direction_ci(T1, T2, np.empty((0, 4)), A2), DegenerateSetError,
             match=r"set A1 is empty"),
        Case(U, "direction bootstrap: a zero vector in T2", _direction_ci(T1, np.vstack([T2[:1], np.zeros(4)]), A1, A2),
             DegenerateSetError, match=r"set T2: zero vector\(s\) at row\(s\) \[1\]"),
        Case(U, "direction bootstrap: A1 of 3 dimensions, the others 4", _direction_ci(T1, T2, A1[:, :3], A2),
             InvalidParameterError, match=r"different dimensions: \{'T1': 4, 'T2': 4, 'A1': 3, 'A2': 4\}"),
        Case(U, "direction bootstrap: one vector (1-D) for A1", _direction_ci(T1, T2, A1[0], A2), InvalidParameterError,
             match=r"set A1: expected a 2-D array"),
        Case(U, "direction bootstrap: inf in A2", _direction_ci(T1, T2, A1, np.full((2, 4), np.inf)),
             InvalidParameterError, match=r"set A2 holds non-finite values"),
        Case(U, "direction bootstrap: n_resamples 0", _direction_ci(n_resamples=0), InvalidParameterError,
             match=r"n_resamples must be >= 2"),
        Case(U, "direction bootstrap: method 'bca'", _direction_ci(method="bca"), InvalidParameterError,
             match=r"method must be one of 'BCa', 'percentile', 'basic'; not 'bca'"),
        Case(U, "direction bootstrap: resample A3", _direction_ci(resample=("A1", "A3")), InvalidParameterError,
             match=r"resample must be one of 'T1', 'T2', 'A1', 'A2'"),
        Case(U, "direction bootstrap: one word in a resampled set", _direction_ci(T1, T2, A1[:1], A2),
             DegenerateSetError, match=r"set A1 has 1 word: resampling it changes nothing"),
        Case(U, "direction bootstrap: mean(A1) = mean(A2)", _direction_ci(T1, T2, A1, A1 + 0.0), DegenerateSetError,
             match=r"zero direction has no cosine"),
        Case(U, "effect-size bootstrap: one score in s_a", _effect_ci(s_a=(1.0,)), DegenerateSetError,
             match=r"s_a has 1 score\(s\)"),
        Case(U, "effect-size bootstrap: all scores equal", _effect_ci(s_a=(1.0, 1.0), s_b=(1.0, 1.0)),
             DegenerateSetError, match=r"every score of s_a and s_b is 1.0: the effect size is undefined"),
        Case(U, "effect-size bootstrap: NaN score", _effect_ci(s_b=(0.1, float("nan"))), InvalidParameterError,
             match=r"s_b holds non-finite scores at positions \[1\]"),
        Case(U, "effect-size bootstrap: confidence_level 95", _effect_ci(confidence_level=95), InvalidParameterError,
             match=r"confidence_level must be < 1"),
        Case(U, "attribute_test n_resamples 1", _attribute_test(n_resamples=1), InvalidParameterError,
             match=r"n_resamples must be 0 \(no interval\) or an integer >= 2, not 1"),
        Case(U, "attribute_test method 'bca'", _attribute_test(method="bca"), InvalidParameterError,
             match=r"method must be one of 'BCa', 'percentile', 'basic'; not 'bca'"),
        Case(U, "racial report table1 n_resamples 1", lambda: __import__(
             "wordbias.papers.racial_bias_report", fromlist=["table1"]).table1({}, n_resamples=1),
             InvalidParameterError, match=r"n_resamples must be >= 2, not 1"),
    ]


CASES_UNCERTAINTY_REPORT_MLM = _uncertainty_cases()
