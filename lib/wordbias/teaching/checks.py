"""Exercise checks that say what is right or wrong: the self-checking cells of the lessons
(``notebooks/lessons/``).

Each check takes the student's answer (a number, a word list, a letter) and the data it should be computed from,
computes the right answer with the library (never a copy of a number), shows one message and returns a
:class:`CheckResult` (``bool(result)`` is ``result.passed``; in Jupyter it shows as a coloured box). The message
says what to do:

* the untouched placeholder ``...`` (or a list still holding it): "fill in ...";
* an answer of the wrong kind (a string where a number is asked): what kind is expected;
* a *wrong method* that the check recognises by the value it gives (the dot product instead of the cosine, a
  flipped sign, the population standard deviation instead of the sample one, 1/R instead of 1/(R+1), ...): the
  mistake is named, also when the answer is that wrong value rounded, unless it is also the right value correctly
  rounded (a correct rounding always passes);
* a *rounding slip* (the right value, but one unit off in the last decimal written): named as such, with the
  precision the lesson shows;
* any other wrong value: a nudge, what to look at, without giving the answer away.

**Precision.** A number is right when it is within :data:`RTOL` (1e-3, relative) of the value the check computes,
or when it is that value *correctly rounded*: equal to it rounded to s significant figures for some s of at least
:data:`MIN_SIGNIFICANT` (2), which includes the value rounded to the decimals the student wrote whenever those keep
2 figures (``0.31`` for 0.3052; ``0.3`` keeps too few). A carry counts as the figures rounded to: 9.999e-5 to 2
significant figures is 1.0e-4, which a float writes ``0.0001``, and passes. A correct rounding passes even when a
recognised mistake, rounded, gives the same number: the mistake is named only for a value that cannot be the right
one correctly rounded. Each message says to how many decimals the lesson shows the value. The lessons' values are
float64 computations that agree to about 1e-12 whichever way they are written (``np.mean`` or a sum divided by
n), and 1e-3 still separates the closest mistake the checks recognise (the population against the sample
standard deviation: a factor sqrt(N/(N − 1)), at least 1.001 for N < 500 target words).

**Worked solutions.** A wrong answer gets a nudge first. The worked solution is shown when asked for,
``checks.solution(ex1)`` (or the exercise's name), or with the message of the :data:`SOLUTION_AFTER` th (3rd)
wrong try of an exercise. A teacher switches worked solutions off for a class with the environment variable
``WORDBIAS_SOLUTIONS=off`` (:data:`SOLUTIONS_ENV`), or with ``solutions: off`` in the lesson index
``notebooks/lessons/lessons.yaml`` (the variable wins); then no check prints solution code, and a result that has
not passed holds no expected value (``result.expected is None``).

**Multiple choice.** :func:`choice` reads the right letter and each letter's feedback from the package's sealed
file (:mod:`wordbias.teaching.sealed`), by the question's key: the check cell names the key, not the letter, so a
student learns the right letter only by trying letters, and every try is counted.

**Grading.** Set the environment variable ``WORDBIAS_CHECKS_STRICT=1`` (:data:`STRICT_ENV`; e.g. in nbgrader's
autograder) and a check that is not done (neither correct nor recorded) raises
:class:`~wordbias.core.errors.CheckFailed` (an ``AssertionError``) with its message, so that a check cell counts as
a test. The raising frame is hidden from IPython's traceback (``__tracebackhide__``) and the error carries no
context, so that no traceback, not even ``%xmode Verbose``, shows a local variable holding the right answer.

**Run All.** A cell that uses an exercise's answer starts with ``if checks.needs(ex1):``; until the exercise's
check is done (correct, or recorded), :func:`needs` prints "fill in ... first" and the cell skips its work, so that
an untouched student notebook runs from top to bottom.

**Predict, then run; answers in words.** :func:`prediction` records a student's prediction (a letter) before the
cell that shows the result, with the status ``"recorded"``: a prediction is asked for, never scored. After the
result, :func:`reveal` says whether the prediction held, computed from the data; it is no check (it counts no try,
never raises in strict mode and carries no record), so a prediction that did not hold is no failed exercise.
:func:`written` records a short answer in words (``"recorded"`` at a minimum length, ``"wrong"`` below it) and
lists the points a good answer makes; the teacher grades it by hand (in the lessons its solution cell is an
nbgrader "manually graded answer"), and the model answer is the instructor's solution (the answer key shows it).

**The record.** In a Jupyter kernel a check shows its result as a display with a machine-readable record
(:data:`RECORD_MIME`, fields in :meth:`CheckResult.record`: the exercise, the status, the points, the student's
answer, the try, the precision shown and accepted, and, once the answer is right, the expected value), from which
:mod:`wordbias.teaching.answer_key` writes the teachers' answer key out of the executed instructor notebooks, and a
grader reads the students' work.
"""

from __future__ import annotations

import functools
import html
import itertools
import math
import numbers
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordbias.core import lookup, paths
from wordbias.core.errors import CheckFailed, InvalidParameterError
from wordbias.core.vectors import cosine_matrix
from wordbias.measures import ensemble as _ensemble
from wordbias.measures.association import weat as _weat

__all__ = ["RTOL", "ATOL", "MIN_SIGNIFICANT", "STRICT_ENV", "SOLUTIONS_ENV", "SOLUTION_AFTER", "RECORD_MIME",
           "GIVEN_MAX_CHARS", "GIVEN_MAX_ITEMS", "GIVEN_FIGURES", "DONE", "CheckResult", "solutions_enabled",
           "solution", "needs", "reset_tries",
           "number", "choice", "word_list", "cosine", "association", "test_statistic", "effect_size",
           "monte_carlo_floor", "exact_floor", "two_sided", "intervals_including_zero", "most_influential", "angle",
           "same_set", "differ_in_frequency", "significant_associations", "prediction", "reveal", "Outcome",
           "written", "run_spread", "interval_or_runs", "combined_variance", "share_significant", "direct_bias",
           "neighbour_correlation", "nearer_target", "sentence_log_prob", "pair_margin", "value_in_interval",
           "shorter_wins_more", "ladder_validity", "false_positive_rate", "spearman_brown", "validity_covers_zero"]

#: relative tolerance of a numeric answer (see the module docstring)
RTOL = 1e-3
#: absolute tolerance, for answers whose right value is 0 or nearly
ATOL = 1e-9
#: the fewest significant figures a rounded answer must keep to be accepted (0.31 for 0.3052, not 0.3)
MIN_SIGNIFICANT = 2
#: the environment variable that makes a failed check raise :class:`~wordbias.core.errors.CheckFailed`
STRICT_ENV = "WORDBIAS_CHECKS_STRICT"
#: the environment variable that switches worked solutions off (``off``) or on (``on``) for a class
SOLUTIONS_ENV = "WORDBIAS_SOLUTIONS"
#: the wrong tries of one exercise after which its message shows the worked solution (when solutions are on)
SOLUTION_AFTER = 3
#: the MIME type of the machine-readable record a check displays in a Jupyter kernel
RECORD_MIME = "application/vnd.wordbias.check+json"

#: the longest string, and the most items of a list, that a record's ``given`` keeps
GIVEN_MAX_CHARS, GIVEN_MAX_ITEMS = 500, 50
#: the significant figures a record's ``given`` keeps of a number: a student's answer computed from the float32
#: vectors of an embedding moves in its 7th-8th figure with the CPU's kernels (0.30523518 and 0.30523521 for the same
#: dot product), and an executed lesson must come back identical elsewhere; 6 figures are far finer than any check's
#: tolerance (1e-3 relative)
GIVEN_FIGURES = 6

_ICON = {"correct": "✔", "wrong": "✘", "unanswered": "✎", "invalid": "✘", "recorded": "✎"}
_COLOUR = {"correct": ("#e7f5e9", "#2e7d32"), "wrong": ("#fdecea", "#c62828"),
           "unanswered": ("#fff8e1", "#8d6e00"), "invalid": ("#fdecea", "#c62828"),
           "recorded": ("#e3f2fd", "#1565c0")}
STATUSES = tuple(_ICON)
#: the statuses of a check that is done: what :func:`needs` waits for, and what strict mode does not raise on
DONE = ("correct", "recorded")
_OFF = ("off", "0", "false", "no", "none")

#: exercise name -> (worked solution, check name); filled by every check call
_SOLUTIONS: dict[str, str] = {}
#: exercise name -> wrong tries since its last right answer
_TRIES: dict[str, int] = {}
#: exercise name -> every answer checked in this kernel (the placeholder not counted)
_ATTEMPTS: dict[str, int] = {}
#: how deep the current check call is nested (a check calling :func:`number` is one check)
_DEPTH = [0]


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check.

    ``bool(result)`` is ``result.passed``; ``str(result)`` is the line shown to the student; in Jupyter it shows
    as a coloured box.

    Attributes
    ----------
    exercise : str
        The exercise's name (also the key of :func:`solution`).
    passed : bool
        Whether the answer is right.
    message : str
        The message shown to the student.
    status : str
        ``"correct"``, ``"wrong"``, ``"unanswered"`` (the untouched placeholder), ``"invalid"`` (an answer of
        the wrong kind) or ``"recorded"`` (a prediction, or an answer in words long enough: neither correct nor
        wrong, never scored by the check).
    expected : object
        The right answer, for the teacher (not shown to the student); None for a recorded answer, and for any
        answer that has not passed while worked solutions are switched off.
    shown : str
        The precision the lesson shows the value with ("4 decimals"; empty for answers that are no number).
    accepted : str
        The answers accepted, in words (tolerance and rounding, or the rule a word list must follow).
    check : str
        The name of the check function.
    given : object
        The student's answer, as given.
    tries : int
        The answers of this exercise checked so far in this kernel, this one included (0 for the placeholder
        never replaced).
    """

    exercise: str
    passed: bool
    message: str
    status: str
    expected: object = field(default=None, repr=False, compare=False)
    shown: str = field(default="", repr=False, compare=False)
    accepted: str = field(default="", repr=False, compare=False)
    check: str = field(default="", repr=False, compare=False)
    given: object = field(default=None, repr=False, compare=False)
    tries: int = field(default=0, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.passed

    @property
    def done(self) -> bool:
        """Whether the exercise is done: answered right, or recorded (a prediction, an answer in words)."""
        return self.status in DONE

    def __str__(self) -> str:
        return f"{_ICON[self.status]} {self.exercise}: {self.message}"

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        background, border = _COLOUR[self.status]
        body = html.escape(self.message).replace("\n", "<br>")
        return (f'<div style="background:{background};border-left:4px solid {border};padding:6px 10px;'
                f'margin:4px 0;font-family:sans-serif"><b>{_ICON[self.status]} {html.escape(self.exercise)}</b>: '
                f"{body}</div>")

    def record(self) -> dict:
        """The machine-readable record of the result (what :data:`RECORD_MIME` carries; JSON data).

        Returns
        -------
        dict
            The fields:

            * ``exercise``: the exercise's name; ``check``: the check function's name;
            * ``status``: ``"correct"``, ``"wrong"``, ``"invalid"``, ``"unanswered"`` or ``"recorded"`` (a
              prediction, or an answer in words of the minimum length: never scored by the check; a written
              answer is graded by hand);
            * ``points``: what the check awards this answer, 1 when correct, else 0 (always 0 for a recorded
              item); a grader scales it by the check cell's nbgrader ``points``;
            * ``given``: the student's answer as JSON data (None for the untouched placeholder; strings cut at
              :data:`GIVEN_MAX_CHARS` characters, lists at :data:`GIVEN_MAX_ITEMS` items, numbers to
              :data:`GIVEN_FIGURES` significant figures, a number that is not finite as its text);
            * ``try``: the answers of this exercise checked so far in this kernel, this one included (the
              placeholder is no try);
            * ``shown``: the precision the lesson shows ("4 decimals"; empty for answers that are no number);
              ``accepted``: the answers accepted, in words (never the right answer itself);
            * only once the answer is right: ``expected`` (a JSON value: numbers to 12 significant figures) and
              ``expected_text`` (the value at the precision the lesson shows).

            No ``grade_id``: a check cannot know its cell's nbgrader id; the grader reads it from the cell's
            metadata.
        """
        out = {"exercise": self.exercise, "check": self.check, "status": self.status,
               "points": 1 if self.status == "correct" else 0, "given": _given(self.given), "try": self.tries,
               "shown": self.shown, "accepted": self.accepted}
        if self.passed:
            out["expected"] = _jsonable(self.expected)
            out["expected_text"] = _show_value(self.expected, self.shown)
        return out

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": str(self), "text/html": self._repr_html_(), RECORD_MIME: self.record()}


def _float32(value: float) -> float:
    """``value`` to float32 precision: a sum of a language model's float32 log-probabilities is known to about 7
    significant figures (its last bits move with the CPU's kernels), and the record keeps no more than that."""
    return float(np.float32(value))


def _jsonable(value):
    """``value`` as JSON data: floats to 12 significant figures, numpy scalars and arrays as Python values."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(f"{float(value):.12g}")
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, Iterable):
        return [_jsonable(v) for v in value]
    return str(value)


def _given(value, depth: int = 0):
    """The student's answer as JSON data, cut to :data:`GIVEN_MAX_CHARS` characters and
    :data:`GIVEN_MAX_ITEMS` items (the placeholder ``...`` as None)."""
    if value is Ellipsis:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(f"{float(value):.{GIVEN_FIGURES}g}") if math.isfinite(value) else str(float(value))
    if value is None:
        return None
    if isinstance(value, str):
        return value[:GIVEN_MAX_CHARS]
    if depth < 3 and isinstance(value, Mapping):
        return {str(k)[:GIVEN_MAX_CHARS]: _given(v, depth + 1)
                for k, v in itertools.islice(value.items(), GIVEN_MAX_ITEMS)}
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return _given(value.item(), depth)
    if depth < 3 and isinstance(value, Iterable):
        return [_given(v, depth + 1) for v in itertools.islice(value, GIVEN_MAX_ITEMS)]
    return str(value)[:GIVEN_MAX_CHARS]


# --------------------------------------------------------------------------------------------------
# precision, solutions, reporting
# --------------------------------------------------------------------------------------------------

def _describe_shown(shown) -> str:
    """``4`` -> "4 decimals"; ``"3g"`` -> "3 significant figures"; ``None`` -> ""."""
    if shown is None or shown == "":
        return ""
    if isinstance(shown, str):
        n = int(shown.rstrip("g"))
        return f"{n} significant figure{'s' if n != 1 else ''}"
    return "a whole number" if shown == 0 else f"{shown} decimal{'s' if shown != 1 else ''}"


def _format_at(value: float, shown: str) -> str:
    """``value`` at the precision described by ``shown`` ("4 decimals", "3 significant figures")."""
    if not shown:
        return f"{value:.6g}"
    if shown == "a whole number":
        return f"{value:.0f}"
    n = int(shown.split()[0])
    return f"{value:#.{n}g}".rstrip(".") if "significant" in shown else f"{value:.{n}f}"


def _show_value(value, shown: str) -> str:
    if isinstance(value, (bool, np.bool_)) or isinstance(value, str):
        return str(value) if not isinstance(value, str) else f'"{value}"'
    if isinstance(value, numbers.Real):
        return _format_at(float(value), shown)
    if value is None:
        return ""
    if isinstance(value, Iterable):
        return "[" + ", ".join(_show_value(v, shown) for v in value) + "]"
    return str(value)


def _lessons_setting():
    """The ``solutions`` setting of the lesson index (``lessons.yaml`` in the working folder, its parent, or the
    checkout's ``notebooks/lessons/``): True, False, or None where no index says."""
    candidates = [Path.cwd() / "lessons.yaml", Path.cwd().parent / "lessons.yaml",
                  paths.ROOT / "notebooks" / "lessons" / "lessons.yaml"]
    for path in candidates:
        if path.is_file():
            try:
                import yaml

                value = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("solutions")
            except Exception:            # a broken index must not break a student's check
                return None
            if value is None:
                return None
            if isinstance(value, bool):
                return value
            return str(value).strip().lower() not in _OFF
    return None


def solutions_enabled() -> bool:
    """Whether the checks show worked solutions.

    The environment variable :data:`SOLUTIONS_ENV` (``WORDBIAS_SOLUTIONS``: ``off`` or ``on``) decides; where it
    is not set, the ``solutions`` setting of the lesson index ``lessons.yaml`` (looked for in the working folder,
    its parent and the checkout's ``notebooks/lessons/``); where neither says, solutions are on.

    Returns
    -------
    bool
        True when worked solutions may be shown.
    """
    env = os.environ.get(SOLUTIONS_ENV, "").strip().lower()
    if env:
        return env not in _OFF
    setting = _lessons_setting()
    return True if setting is None else setting


def solution(exercise) -> str:
    """Print (and return) the worked solution of an exercise, when the teacher has not switched solutions off.

    Parameters
    ----------
    exercise : CheckResult or str
        The result of the exercise's check (``ex1``) or the exercise's name (``"cosine similarity"``). The
        exercise's check cell must have run once.

    Returns
    -------
    str
        The text printed: the worked solution, or why there is none.

    Examples
    --------
    >>> _ = number(2.0, 0.5, exercise="a half", what="one half", hint="the denominator.",
    ...            solution="x = 1 / 2")
    ✘ a half: not yet: 2 is not one half, nor a rounding of it (the lesson shows 4 decimals). Look at: the denominator.
    >>> text = solution("a half")
    Worked solution of a half:
    x = 1 / 2
    """
    name = exercise.exercise if isinstance(exercise, CheckResult) else str(exercise)
    if not solutions_enabled():
        text = (f"Worked solutions are switched off for this class ({SOLUTIONS_ENV}=off or `solutions: off` in "
                "lessons.yaml): read the hint again, or ask your teacher.")
    elif name not in _SOLUTIONS:
        known = sorted(_SOLUTIONS)
        text = (f"no exercise {name!r} has been checked yet: run its check cell first"
                + (f" (checked so far: {known})." if known else "."))
    else:
        text = f"Worked solution of {name}:\n{_SOLUTIONS[name]}"
    print(text)
    return text


def reset_tries(exercise: str | None = None) -> None:
    """Forget the tries counted so far (of one exercise, or of all): the wrong tries that bring the worked solution,
    and the tries a record counts.

    Parameters
    ----------
    exercise : str or None
        The exercise's name; None for every exercise.
    """
    if exercise is None:
        _TRIES.clear()
        _ATTEMPTS.clear()
    else:
        _TRIES.pop(exercise, None)
        _ATTEMPTS.pop(exercise, None)


def needs(*results, what: str = "this cell") -> bool:
    """Whether the exercises a cell uses are done; prints "fill in ... first" where one is not.

    A cell that uses an exercise's answer starts with ``if checks.needs(ex1):``, so that an untouched student
    notebook runs from top to bottom: until the check passes (or, for a prediction or an answer in words, has
    recorded the answer), the cell prints what to fill in and skips its work.

    Parameters
    ----------
    *results : CheckResult
        The results of the checks of the exercises the cell uses (``ex1``, ...).
    what : str
        What the cell does, for the message.

    Returns
    -------
    bool
        True when every check is done (:attr:`CheckResult.done`: correct, or recorded).

    Examples
    --------
    >>> ex = number(..., 1.0, exercise="one", what="the number one", hint="count")
    ✎ one: fill in ...: replace the ... with the number one, then run this cell again.
    >>> needs(ex, what="the table below")
    ✎ fill in "one" first (its check has to pass): the table below uses its answer, so it was skipped.
    False
    """
    pending = [r for r in results if not isinstance(r, CheckResult) or not r.done]
    if not pending:
        return True
    names = ", ".join(f'"{r.exercise}"' if isinstance(r, CheckResult) else repr(r) for r in pending)
    their = ("their checks have", "their answers") if len(pending) > 1 else ("its check has", "its answer")
    print(f"✎ fill in {names} first ({their[0]} to pass): {what} uses {their[1]}, so it was skipped.")
    return False


def _strict() -> bool:
    return os.environ.get(STRICT_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:          # pragma: no cover - IPython comes with Jupyter
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _check(func):
    """Make ``func`` a check: in strict mode (:data:`STRICT_ENV`) a result that is not done raises
    :class:`~wordbias.core.errors.CheckFailed` from this wrapper, once, for the outermost check of a call (a check
    that calls :func:`number` raises once). The exception is raised here, after the check returned, so no frame
    that held the right answer is in its traceback; this frame is hidden from IPython's (``__tracebackhide__``),
    and ``from None`` leaves no context to show."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        __tracebackhide__ = True        # noqa: F841 - read by IPython's and pytest's tracebacks
        _DEPTH[0] += 1
        try:
            result = func(*args, **kwargs)
        finally:
            _DEPTH[0] -= 1
        if _DEPTH[0] == 0 and isinstance(result, CheckResult) and not result.done and _strict():
            message = str(result)
            del args, kwargs, result
            raise CheckFailed(message) from None
        return result

    return wrapper


@dataclass
class _Context:
    """What one check call knows: the exercise, the check's name, the precision, its solution and the answer."""

    exercise: str
    check: str
    shown: str = ""
    accepted: str = ""
    solution: str = ""
    given: object = None

    def report(self, status: str, message: str, expected=None) -> CheckResult:
        """Count the try, add the worked solution when due, keep the expected value only where it may be
        shown, and show the result (strict mode raises in :func:`_check`)."""
        if self.solution:
            _SOLUTIONS[self.exercise] = self.solution
        if status != "unanswered":
            _ATTEMPTS[self.exercise] = _ATTEMPTS.get(self.exercise, 0) + 1
        if status == "correct":
            _TRIES.pop(self.exercise, None)
        elif status in ("wrong", "invalid"):
            tries = _TRIES[self.exercise] = _TRIES.get(self.exercise, 0) + 1
            message += self._follow_up(tries)
        if status == "recorded" or (status != "correct" and not solutions_enabled()):
            expected = None
        result = CheckResult(self.exercise, status == "correct", message, status, expected, self.shown,
                             self.accepted, self.check, self.given, _ATTEMPTS.get(self.exercise, 0))
        if _in_kernel():
            from IPython.display import display

            display(result)
        else:
            print(result)
        return result

    def _follow_up(self, tries: int) -> str:
        if not self.solution:
            return ""
        if not solutions_enabled():
            return f"\n(try {tries}: ask your teacher if you are stuck)" if tries >= SOLUTION_AFTER else ""
        if tries >= SOLUTION_AFTER:
            return f"\nWorked solution (after {tries} tries):\n{self.solution}"
        if tries >= 2:
            return f'\nStuck? checks.solution("{self.exercise}") shows a worked solution.'
        return ""

    def fill_in(self, what: str, expected=None) -> CheckResult:
        return self.report("unanswered", f"fill in ...: replace the ... with {what}, then run this cell again.",
                           expected)


def _is_placeholder(value) -> bool:
    """The untouched ``...`` (also inside a list or tuple, or as the string '...')."""
    if value is Ellipsis or (isinstance(value, str) and value.strip() in ("...", "…")):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(v is Ellipsis for v in value)
    return False


def _as_number(value):
    """A finite float from a Python or numpy number or a one-element array; None otherwise."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    if isinstance(value, numbers.Real):
        return float(value)
    return None


def _close(a: float, b: float, rtol: float, atol: float) -> bool:
    return math.isclose(a, b, rel_tol=rtol, abs_tol=atol)


def _decimals(x: float) -> int:
    """The decimals the student wrote: those of the shortest repr of the number (0.31 -> 2, 1.5e-05 -> 6)."""
    text = repr(float(x)).lower()
    mantissa, _, exponent = text.partition("e")
    places = len(mantissa.partition(".")[2].rstrip("0")) if "." in mantissa else 0
    return max(0, places - int(exponent or 0))


def _figures_kept(x: float, expected: float) -> int:
    """The significant figures of ``expected`` that ``x`` keeps, by the decimals the student wrote."""
    magnitude = math.floor(math.log10(abs(expected)))        # 0.3052 -> -1: its first significant digit
    return _decimals(x) + magnitude + 1


def _correctly_rounded(x: float, expected: float) -> bool:
    """Whether ``x`` is ``expected`` rounded to s significant figures for some s >= :data:`MIN_SIGNIFICANT`.

    This holds the value rounded to the decimals the student wrote whenever those keep at least
    :data:`MIN_SIGNIFICANT` figures, and counts a carry as the figures rounded to (9.999e-5 to 2 figures is
    1.0e-4, written ``0.0001``).

    Examples
    --------
    >>> _correctly_rounded(0.0001, 1 / 10_001), _correctly_rounded(0.3, 0.3052), _correctly_rounded(0.31, 0.3052)
    (True, False, True)
    """
    if not (math.isfinite(expected) and math.isfinite(x)) or expected == 0:
        return False
    return any(math.isclose(x, float(f"{expected:.{s - 1}e}"), rel_tol=1e-12, abs_tol=0)
               for s in range(MIN_SIGNIFICANT, 18))


def _rounding(x: float, expected: float) -> str:
    """``"right"`` when ``x`` is ``expected`` correctly rounded (:func:`_correctly_rounded`); ``"slip"`` when it
    is one unit off in the last decimal written, keeping at least :data:`MIN_SIGNIFICANT` figures (cut off instead
    of rounded, or rounded twice); ``"few"`` when it is ``expected`` rounded to fewer figures, written with
    decimals, or a whole number for a value of 1 or more (a whole number for a value below 1 is no rounding the
    lesson asks for: 1.0 for a correlation of 0.6 is another value, not too few figures); ``""`` otherwise."""
    if not math.isfinite(expected) or expected == 0:
        return ""
    if _correctly_rounded(x, expected):
        return "right"
    d = _decimals(x)
    unit = 10.0 ** -d
    if _figures_kept(x, expected) < MIN_SIGNIFICANT:
        few = abs(x - expected) <= 0.5 * unit * (1 + 1e-9) and (d > 0 or abs(expected) >= 1)
        return "few" if few else ""
    if abs(x - expected) < 1.5 * unit:
        return "slip"
    return ""


# --------------------------------------------------------------------------------------------------
# generic checks
# --------------------------------------------------------------------------------------------------

@_check
def number(value, expected: float, *, exercise: str, what: str, hint: str,
           mistakes: Iterable[tuple[float, str]] = (), rtol: float = RTOL, atol: float = ATOL,
           shown: int | str = 4, solution: str = "", sign_matters: bool = True,
           check: str = "number") -> CheckResult:
    """Check a numeric answer against ``expected`` (computed by the caller from the data).

    Parameters
    ----------
    value : object
        The student's answer.
    expected : float
        The right value.
    exercise : str
        The exercise's name.
    what : str
        What the answer is ("the cosine similarity").
    hint : str
        The nudge for a wrong value that is no recognised mistake: what to look at, without the solution.
    mistakes : iterable of (float, str)
        The value a common mistake gives and the message naming it (the first that matches is shown, also when
        the answer is that value rounded, unless the answer is also the right value correctly rounded; a mistake
        that equals the right answer is ignored).
    rtol, atol : float
        Relative and absolute tolerance of an unrounded answer.
    shown : int or str
        The precision the lesson shows the value with: decimals (``4``) or significant figures (``"3g"``).
    solution : str
        The worked solution (shown on request, or after :data:`SOLUTION_AFTER` wrong tries).
    sign_matters : bool
        Name the negated right value a flipped sign.
    check : str
        The check's name, for the record.

    Returns
    -------
    CheckResult
        The result; it has been shown already.

    Examples
    --------
    >>> r = number(0.5, 0.5, exercise="half", what="one half", hint="divide by two")
    ✔ half: right: 0.5000 is one half (the lesson shows 4 decimals).
    >>> bool(number(2.0, 0.5, exercise="half", what="one half", hint="divide by two",
    ...             mistakes=[(2.0, "you multiplied by four")]))
    ✘ half: not yet, a different method (not a rounding slip): you multiplied by four
    False
    """
    shown_text = _describe_shown(shown)
    accepted = (f"within {rtol:.2g} relative, or correctly rounded to at least {MIN_SIGNIFICANT} significant figures"
                if shown != 0 else "exactly (a whole number)")
    ctx = _Context(exercise, check, shown_text, accepted, solution, value)
    lesson = f"the lesson shows {shown_text}" if shown_text else ""
    if _is_placeholder(value):
        return ctx.fill_in(what, expected)
    x = _as_number(value)
    if x is None:
        return ctx.report("invalid", f"expected a number ({what}), got {type(value).__name__} {str(value)[:60]!r}.",
                          expected)
    if not math.isfinite(x):
        return ctx.report("invalid", f"{x} is not a finite number. Look at: {hint}", expected)
    if _close(x, expected, rtol, atol):
        return ctx.report("correct", f"right: {_format_at(expected, shown_text)} is {what} ({lesson}).", expected)
    rounded = _rounding(x, expected)
    if rounded == "right":                    # a correct rounding beats any mistake's near match
        return ctx.report("correct", f"right: {x:g} is {what}, rounded to {_decimals(x)} decimals ({lesson}: "
                                     f"{_format_at(expected, shown_text)}).", expected)
    mistakes = [(w, m) for w, m in mistakes
                if w is not None and math.isfinite(w) and not _close(w, expected, rtol, atol)]
    if sign_matters and expected != 0 and not any(_close(w, -expected, rtol, atol) for w, _ in mistakes):
        mistakes.append((-expected, "the size is right but the sign is flipped."))
    matches = [m for w, m in mistakes if _close(x, w, rtol, atol)] or \
              [m for w, m in mistakes if _rounding(x, w) == "right"]          # an exact match before a rounded one
    if matches:
        return ctx.report("wrong", f"not yet, a different method (not a rounding slip): {matches[0]}", expected)
    if rounded == "slip":
        return ctx.report("wrong", f"almost: your method is right; {x:g} differs from {what} only in its last "
                                   f"decimal: a rounding slip. Round, do not cut off, or keep more decimals "
                                   f"({lesson}).", expected)
    if rounded == "few":
        return ctx.report("wrong", f"not yet: {x:g} keeps too few figures to be checked; give at least "
                                   f"{MIN_SIGNIFICANT} significant figures ({lesson}).", expected)
    return ctx.report("wrong", f"not yet: {x:.4g} is not {what}, nor a rounding of it ({lesson}). Look at: {hint}",
                      expected)


_SEALED_SOLUTION = ("A multiple-choice question has no worked solution here: its right letter is sealed (only the "
                    "teacher's choices.yaml holds it in plain text). Read the feedback on each letter you tried, "
                    "and the lesson's text above the question, again.")


@_check
def choice(answer, *, key: str, sealed=None) -> CheckResult:
    """Check a multiple-choice answer (a letter such as ``"b"``, case and spaces ignored) against the sealed
    right letter of question ``key``.

    The right letter and each letter's feedback are in the package's sealed file (:mod:`wordbias.teaching.sealed`,
    sealed from the teacher's ``notebooks/lessons/src/choices.yaml``), never in the check cell: the student learns
    the right letter by trying letters, and the record counts the tries. The statements the letters stand for are
    in the lesson's text.

    Parameters
    ----------
    answer : object
        The student's answer.
    key : str
        The question's key in the sealed file (the grade_id of the exercise's solution cell, ``"l02-ex2"``); the
        exercise's name comes from there too.
    sealed : str, Path, mapping or None
        The sealed file or its content (:func:`wordbias.teaching.sealed.seal`); None for the package's.

    Returns
    -------
    CheckResult
        The result, shown already; its ``expected`` is the right letter once it is given.

    Raises
    ------
    InvalidParameterError
        When no sealed question has the key.

    Examples
    --------
    >>> from wordbias.teaching import sealed as sealing
    >>> s = sealing.seal({"q1": {"exercise": "q", "answer": "b", "feedback": {"a": "no: ...", "b": "it is ..."}}})
    >>> _ = choice("B", key="q1", sealed=s)
    ✔ q: right: it is ...
    """
    from wordbias.teaching import sealed as sealing

    question = sealing.entry(key, sealed)
    letters = list(question.letters)
    ctx = _Context(question.exercise, "choice", "", "the right letter (sealed; every letter tried is counted)",
                   _SEALED_SOLUTION, answer)
    if _is_placeholder(answer):
        return ctx.fill_in(f"one letter in quotes, one of {letters}")
    if not isinstance(answer, str) or answer.strip().lower() not in letters:
        return ctx.report("invalid", f"answer with one letter in quotes, one of {letters}; got {str(answer)[:40]!r}.")
    letter = answer.strip().lower()
    verdict = question.open(letter)
    if verdict.right:
        return ctx.report("correct", f"right: {verdict.feedback}", letter)
    return ctx.report("wrong", f"not this one: {verdict.feedback}")


def _choice(answer, correct: str, options: Mapping[str, str], *, exercise: str, check: str) -> CheckResult:
    """A multiple-choice answer whose right letter the check computed from the data (not typed in a cell)."""
    keys = {k.strip().lower(): v for k, v in options.items()}
    ctx = _Context(exercise, check, "", "the letter the data make true",
                   f'answer = "{correct}"   # {keys[correct]}', answer)
    if _is_placeholder(answer):
        return ctx.fill_in(f"one letter in quotes, one of {sorted(keys)}", correct)
    if not isinstance(answer, str) or answer.strip().lower() not in keys:
        return ctx.report("invalid", f"answer with one letter in quotes, one of {sorted(keys)}; got "
                                     f"{str(answer)[:40]!r}.", correct)
    letter = answer.strip().lower()
    if letter == correct:
        return ctx.report("correct", keys[letter], correct)
    return ctx.report("wrong", f"not this one: {keys[letter]}", correct)


@_check
def word_list(words, embedding, *, what: str, exercise: str = "word list", min_size: int = 2,
              other: Sequence[str] = (), other_name: str = "the other list") -> CheckResult:
    """Check a student's word list.

    A list of distinct strings (not one string), at least ``min_size`` words, every word in ``embedding`` (the
    unknown ones named), none also in ``other``.

    Parameters
    ----------
    words : object
        The student's answer.
    embedding : mapping of str to vector
        The embedding the words must be in (gensim ``KeyedVectors`` or a dict).
    what : str
        What the list is ("your arts words").
    exercise : str
        The exercise's name.
    min_size : int
        The fewest words accepted.
    other : sequence of str
        Words the list must not share.
    other_name : str
        The name of ``other``, for the message.

    Returns
    -------
    CheckResult
        The result; its ``expected`` is the list, once it is right.

    Examples
    --------
    >>> emb = {"rose": [1.0, 0.0], "tulip": [0.9, 0.1], "ant": [0.0, 1.0]}
    >>> _ = word_list(["rose", "daisy"], emb, exercise="flowers", what="flowers")
    ✘ flowers: not yet: 1 word(s) not in the embedding: ['daisy'] (it has no vector for them; try other words, in lower case for an uncased embedding).
    """
    rule = (f"a list of at least {min_size} distinct words, all in the embedding"
            + (f", none in {other_name}" if len(other) else ""))
    ctx = _Context(exercise, "word_list", "", rule,
                   f'{"my_list"} = ["word1", "word2", ...]   # {rule}; `"word" in kv` says whether kv has a word',
                   words)
    if _is_placeholder(words):
        return ctx.fill_in(f"a list of words in quotes ({what}), e.g. [\"word1\", \"word2\"]")
    if isinstance(words, str):
        parts = [w for w in words.replace(",", " ").split() if w]
        example = ", ".join(f'"{w}"' for w in (parts[:2] or ["he", "him"]))
        return ctx.report("invalid", f"{what} is one string, {words[:60]!r}; split it into words: a list of strings, "
                                     f"e.g. [{example}], each word in its own quotes.")
    try:
        words = lookup.check_word_list(what, words)
    except InvalidParameterError as err:
        return ctx.report("invalid", f"{err}.")
    if len(words) < min_size:
        return ctx.report("wrong", f"not yet: {what} needs at least {min_size} words; it has {len(words)}.")
    _, missing = lookup.present(embedding, words)
    if missing:
        return ctx.report("wrong", f"not yet: {len(missing)} word(s) not in the embedding: {list(missing)} "
                                   "(it has no vector for them; try other words, in lower case for an uncased "
                                   "embedding).")
    shared = [w for w in words if w in set(other)]
    if shared:
        return ctx.report("wrong", f"not yet: {shared} also in {other_name}; a word may be in only one of "
                                   "the two lists.")
    return ctx.report("correct", f"right: {len(words)} words, all in the embedding, none in {other_name}.",
                      list(words))


# --------------------------------------------------------------------------------------------------
# lesson 1: the WEAT by hand (Caliskan, Bryson & Narayanan 2017, Methods)
# --------------------------------------------------------------------------------------------------

@_check
def cosine(value, u, v, *, exercise: str = "cosine similarity", shown: int | str = 4) -> CheckResult:
    """Check cos(u, v) = u·v / (‖u‖ ‖v‖) (Caliskan et al. 2017, Supplementary, "Cosine similarity").

    Recognises the dot product (of the unnormalised vectors), the dot product divided by one length only, the
    cosine distance 1 − cos (SciPy's ``scipy.spatial.distance.cosine``) and a flipped sign.

    Parameters
    ----------
    value, exercise
        As for :func:`number`.
    u, v : array_like
        The two vectors.
    shown : int or str
        The precision the lesson shows (decimals, or ``"3g"`` for significant figures).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    u, v = np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64)
    dot = float(u @ v)
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    expected = float(cosine_matrix(u[None, :], v[None, :])[0, 0])
    return number(value, expected, exercise=exercise, what="the cosine similarity", shown=shown, check="cosine",
                  hint="the formula above: the dot product of the two vectors, divided by the product of their "
                       "two lengths (norms).",
                  solution="cos_uv = np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v))   "
                           "# u, v: the two word vectors, e.g. kv[\"rose\"], kv[\"love\"]",
                  mistakes=[(dot, "that is the dot product u·v of the unnormalised vectors; divide it by both "
                                  "lengths ‖u‖ ‖v‖."),
                            (dot / nu, "you divided by one length only; divide by ‖u‖ and by ‖v‖."),
                            (dot / nv, "you divided by one length only; divide by ‖u‖ and by ‖v‖."),
                            (1.0 - expected, "that is the cosine distance 1 − cos (scipy's `cosine`); the "
                                             "similarity is 1 minus it."),
                            (-expected, "the sign is flipped: the cosine of u and v, not of u and −v.")])


@_check
def association(value, w, A, B, *, exercise: str = "s(w, A, B)", shown: int | str = 3) -> CheckResult:
    """Check s(w, A, B) = mean_a cos(w, a) − mean_b cos(w, b) (Caliskan et al. 2017, Methods).

    Recognises A and B swapped (a flipped sign), sums instead of means, the mean over A alone, and dot products
    instead of cosines.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    w : array_like
        The word's vector.
    A, B : array_like
        The attribute vectors (one row per word).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    w = np.asarray(w, dtype=np.float64)[None, :]
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    ca, cb = cosine_matrix(w, A)[0], cosine_matrix(w, B)[0]
    expected = float(_weat.association(w, A, B)[0])
    dots = float((w @ A.T).mean() - (w @ B.T).mean())
    return number(value, expected, exercise=exercise, what="s(w, A, B)", shown=shown, check="association",
                  hint="the formula above: two means of cosines, one over the words of A and one over B, and "
                       "which is subtracted from which.",
                  solution="s_w = kv.cosine_similarities(w, kv[A]).mean() - kv.cosine_similarities(w, kv[B]).mean()"
                           "   # w: the word's vector, e.g. kv[\"rose\"]",
                  mistakes=[(-expected, "the sign is flipped: it is mean over A minus mean over B."),
                            (float(ca.sum() - cb.sum()), "you summed the cosines; s(w, A, B) uses their means."),
                            (float(ca.mean()), "that is only the mean over A; subtract the mean over B."),
                            (dots, "those are dot products of unnormalised vectors; use cosines (divide by the "
                                   "lengths).")])


@_check
def test_statistic(value, s_x, s_y, *, exercise: str = "test statistic", shown: int | str = 4) -> CheckResult:
    """Check s(X, Y, A, B) = Σ_x s(x, A, B) − Σ_y s(y, A, B) (Caliskan et al. 2017, Methods).

    Recognises the difference of the means and the flipped sign.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    s_x, s_y : array_like
        s(w, A, B) of the words of X and of Y.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    s_x, s_y = np.asarray(s_x, dtype=np.float64), np.asarray(s_y, dtype=np.float64)
    expected = _weat.test_statistic(s_x, s_y)
    return number(value, expected, exercise=exercise, what="s(X, Y, A, B)", shown=shown, check="test_statistic",
                  hint="the formula above: sums (not means) of the associations, X's minus Y's.",
                  solution="S = s_x.sum() - s_y.sum()",
                  mistakes=[(float(s_x.mean() - s_y.mean()), "that is the difference of the means; the test "
                                                             "statistic uses sums."),
                            (-expected, "the sign is flipped: X's sum minus Y's sum.")])


test_statistic.__test__ = False  # not a pytest test


@_check
def effect_size(value, s_x, s_y, *, exercise: str = "effect size d", shown: int | str = 4) -> CheckResult:
    """Check d = [mean_X s − mean_Y s] / std-dev_{w ∈ X∪Y} s (Caliskan et al. 2017, Methods).

    The standard deviation is the sample one, as in :func:`wordbias.measures.association.weat.effect_size`. Recognises the
    population standard deviation, the flipped sign, the undivided mean difference and the pooled within-group
    standard deviation (Cohen's d).

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    s_x, s_y : array_like
        As for :func:`test_statistic`.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    s_x, s_y = np.asarray(s_x, dtype=np.float64), np.asarray(s_y, dtype=np.float64)
    expected = _weat.effect_size(s_x, s_y, ddof=1)
    diff = float(s_x.mean() - s_y.mean())
    nx, ny = s_x.size, s_y.size
    pooled_within = math.sqrt(((nx - 1) * s_x.var(ddof=1) + (ny - 1) * s_y.var(ddof=1)) / (nx + ny - 2))
    return number(value, expected, exercise=exercise, what="the effect size d", shown=shown, check="effect_size",
                  hint="the formula above: a difference of two means, divided by one standard deviation of all "
                       "the target words' associations together (which kind of standard deviation?).",
                  solution="d = (s_x.mean() - s_y.mean()) / np.concatenate([s_x, s_y]).std(ddof=1)",
                  mistakes=[(_weat.effect_size(s_x, s_y, ddof=0), "that uses the population standard deviation "
                             "(np.std's default, ddof=0); the paper uses the sample one (ddof=1)."),
                            (-expected, "the sign is flipped: mean over X minus mean over Y."),
                            (diff, "that is the difference of the means; divide it by the standard deviation."),
                            (diff / pooled_within, "that divides by the pooled within-group standard deviation "
                             "(Cohen's d); the WEAT divides by the standard deviation of all target words "
                             "together.")])


# --------------------------------------------------------------------------------------------------
# lesson 2: significance (permutation tests) and size
# --------------------------------------------------------------------------------------------------

@_check
def monte_carlo_floor(value, n_permutations: int, *, exercise: str = "Monte Carlo floor",
                      shown: int | str = "3g") -> CheckResult:
    """Check the smallest p a Monte Carlo permutation test with R random permutations can report, 1/(R + 1).

    The add-one rule (:class:`wordbias.stats.permutation.TailProbability`'s ``resolution``). 1/R and 1/(R + 1)
    differ by the factor 1 + 1/R, so the tolerance here is 0.1/(R + 1) relative (not :data:`RTOL`): the answer
    computed in Python passes, and so does 1/(R + 1) correctly rounded (``0.0001`` for R = 10,000: 9.999e-5 to 2
    significant figures), even where 1/R gives the same digits; a value that is no such rounding must keep enough
    digits to be told from 1/R.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    n_permutations : int
        R, the random permutations.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    R = int(n_permutations)
    return number(value, 1.0 / (R + 1), rtol=min(RTOL, 0.1 / (R + 1)), exercise=exercise, shown=shown,
                  check="monte_carlo_floor", what=f"the smallest Monte Carlo p with R = {R:,}",
                  hint="what the observed labelling counts as (the add-one rule).",
                  solution="mc_floor = 1 / (n_permutations + 1)   # the observed labelling counts as one of them",
                  mistakes=[(1.0 / R, "that is 1/R; the observed labelling is counted too: 1/(R + 1)."),
                            (0.0, "under the add-one rule a Monte Carlo p is never 0: at least 1/(R + 1).")])


@_check
def exact_floor(value, n_x: int, n_y: int, *, exercise: str = "exact floor", shown: int | str = 4) -> CheckResult:
    """Check the smallest exact one-sided permutation p with ``|X| = n_x``, ``|Y| = n_y``.

    One partition of C(n_x + n_y, n_x) (:func:`wordbias.measures.association.weat.smallest_p`). Recognises orderings (n!),
    subsets (2^n) and the two-sided floor.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    n_x, n_y : int
        The sizes of X and Y.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    n = n_x + n_y
    return number(value, _weat.smallest_p(n_x, n_y), exercise=exercise, shown=shown, check="exact_floor",
                  what=f"the smallest exact p with |X| = {n_x}, |Y| = {n_y}",
                  hint="how many ways there are to choose which of the n_x + n_y words form X (order does not "
                       "count).",
                  solution="smallest_p = 1 / math.comb(len(X) + len(Y), len(X))",
                  mistakes=[(1.0 / math.factorial(n), "that counts orderings of the words (n!); a partition "
                                                      "ignores order: C(n_x + n_y, n_x)."),
                            (1.0 / 2 ** n, "that counts every subset (2^n); X keeps its size: C(n_x + n_y, n_x)."),
                            (2.0 * _weat.smallest_p(n_x, n_y), "that is the two-sided floor; the one-sided test "
                                                                "has one extreme partition.")])


@_check
def two_sided(value, p_greater: float, p_less: float, *, exercise: str = "two-sided p",
              shown: int | str = 4) -> CheckResult:
    """Check the two-sided p from the two one-sided ones: min(1, 2·min(p_greater, p_less)).

    The doubling rule of :func:`scipy.stats.permutation_test` (:mod:`wordbias.stats.permutation`).

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    p_greater, p_less : float
        The one-sided p-values.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    expected = min(1.0, 2.0 * min(p_greater, p_less))
    return number(value, expected, exercise=exercise, what="the two-sided p", shown=shown, check="two_sided",
                  hint="which of the two one-sided p to start from, what to do with it, and the largest value a "
                       "probability can take.",
                  solution="p_two = min(1, 2 * min(p_greater, p_less))",
                  mistakes=[(2.0 * min(p_greater, p_less), "a probability is at most 1: cap the doubled p at 1."),
                            (min(p_greater, p_less), "that is the smaller one-sided p; the two-sided p doubles it."),
                            (min(1.0, 2.0 * max(p_greater, p_less)), "you doubled the larger tail; double the "
                                                                      "smaller one.")])


@_check
def intervals_including_zero(answer, table, *, exercise: str = "intervals that include 0") -> CheckResult:
    """Check the tests whose 95% interval of d includes 0, read from a WEAT table.

    Parameters
    ----------
    answer, exercise
        The student's answer (a list of test names) and the exercise's name (as for :func:`number`).
    table : pandas.DataFrame
        The table (:func:`wordbias.papers.lesson_views.read_results` of Caliskan's ``table1.csv``): columns
        ``test``, ``effect_size_ci_low`` and ``effect_size_ci_high``.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    inside = (table["effect_size_ci_low"] <= 0) & (table["effect_size_ci_high"] >= 0)
    expected = [str(t) for t in table["test"][inside]]
    return _same_set(answer, expected, exercise=exercise, what="the tests whose interval of d includes 0",
                     check="intervals_including_zero", solution="crossing = list(table1.test[(table1.effect_size_ci_low <= 0) & "
                             "(table1.effect_size_ci_high >= 0)])",
                     hint="the interval's two columns: an interval includes 0 when its low end is at most 0 and its "
                         "high end at least 0.")


# --------------------------------------------------------------------------------------------------
# lesson 3: word lists (Antoniak & Mimno 2021)
# --------------------------------------------------------------------------------------------------

@_check
def most_influential(answer, influence, *, exercise: str = "most influential word") -> CheckResult:
    """Check the word whose removal moves d the most (:meth:`wordbias.measures.diagnostics.sensitivity.Influence.top`).

    Parameters
    ----------
    answer, exercise
        The student's answer (one word) and the exercise's name (as for :func:`number`).
    influence : wordbias.measures.diagnostics.sensitivity.Influence
        The leave-one-out influence of every word.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    top = influence.top(1)
    expected = str(top.word[0])
    ctx = _Context(exercise, "most_influential", "", "the word, exactly as in the influence table",
                   "most_influential = influence.top(1).word[0]   # the table is sorted by |change of d|", answer)
    if _is_placeholder(answer):
        return ctx.fill_in("one word in quotes", expected)
    if not isinstance(answer, str):
        return ctx.report("invalid", f"answer with one word in quotes; got {type(answer).__name__}.", expected)
    frame = influence.to_frame()
    rows = frame[frame.word == answer.strip()]
    if rows.empty:
        return ctx.report("wrong", f"not yet: {answer.strip()!r} is not a word of this test; look at the "
                                   "influence table's `word` column.", expected)
    if answer.strip() == expected:
        return ctx.report("correct", f"right: without {expected!r} d changes by {top.change[0]:+.2f}, more "
                                     "than without any other word.", expected)
    change = float(rows.change.iloc[0])
    return ctx.report("wrong", f"not yet: without {answer.strip()!r} d changes by {change:+.2f}; another word moves "
                               "it more (compare |change|, the size, not the sign).", expected)


# --------------------------------------------------------------------------------------------------
# lesson 4: a bias direction (the racial-bias report)
# --------------------------------------------------------------------------------------------------

@_check
def angle(value, cosine_value: float, *, exercise: str = "angle", shown: int | str = 1) -> CheckResult:
    """Check the angle in degrees between two directions with cosine ``cosine_value``.

    arccos, in degrees (the report's "linear scale"). Recognises radians and 90° minus the angle.

    Parameters
    ----------
    value, exercise
        As for :func:`number`.
    cosine_value : float
        The cosine of the two directions.
    shown : int or str
        The precision the lesson shows (the table's "angle (°)" column: 1 decimal).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    c = float(np.clip(cosine_value, -1.0, 1.0))
    expected = math.degrees(math.acos(c))
    return number(value, expected, exercise=exercise, what="the angle in degrees", shown=shown, check="angle",
                  hint="which inverse function turns a cosine into an angle, and in which unit numpy returns it.",
                  solution="angle = np.degrees(np.arccos(cosine))",
                  sign_matters=False,
                  mistakes=[(math.acos(c), "that is in radians; convert to degrees."),
                            (90.0 - expected, "that is 90° minus the angle (arcsin, not arccos).")])


@_check
def same_set(answer, expected: Iterable[str], *, exercise: str, what: str, hint: str = "",
             solution: str = "") -> CheckResult:
    """Check a list of names (tests, words) that must be exactly ``expected`` (order ignored).

    Names the missing and the extra items (with worked solutions switched off, only how many are missing).

    Parameters
    ----------
    answer, exercise
        The student's answer and the exercise's name (as for :func:`number`).
    expected : iterable of str
        The right names.
    what : str
        What the list is.
    hint : str
        A nudge added to a wrong answer's message.
    solution : str
        The worked solution.

    Returns
    -------
    CheckResult
        The result, shown already; its ``expected`` is the list of names, without repeats.

    Examples
    --------
    >>> _ = same_set(["WEAT7"], ["WEAT7", "WEAT9"], exercise="q", what="the tests whose interval includes 0")
    ✘ q: not yet: missing ['WEAT9'].
    """
    return _same_set(answer, expected, exercise=exercise, what=what, hint=hint, solution=solution, check="same_set")


def _same_set(answer, expected, *, exercise: str, what: str, hint: str, solution: str, check: str) -> CheckResult:
    expected = list(dict.fromkeys(str(e) for e in expected))
    ctx = _Context(exercise, check, "", "exactly these names, in any order", solution, answer)
    if _is_placeholder(answer):
        return ctx.fill_in(f"a list of names in quotes ({what}); [] if there are none", expected)
    if isinstance(answer, str) or not isinstance(answer, Iterable) or not all(isinstance(a, str) for a in answer):
        return ctx.report("invalid", f"expected a list of names in quotes ({what}), e.g. [\"WEAT1\"]; got "
                                     f"{str(answer)[:60]!r}.", expected)
    given = [a.strip() for a in answer]
    missing = [e for e in expected if e not in given]
    extra = [g for g in given if g not in expected]
    if not missing and not extra:
        return ctx.report("correct", f"right: {what}: {expected if expected else 'none'}.", expected)
    shown = missing if solutions_enabled() else f"{len(missing)} name{'s' if len(missing) != 1 else ''}"
    parts = ([f"missing {shown}"] if missing else []) + ([f"{extra} should not be there"] if extra else [])
    return ctx.report("wrong", f"not yet: {'; '.join(parts)}." + (f" Look at: {hint}" if hint else ""), expected)


@_check
def differ_in_frequency(answer, report, *, exercise: str = "frequency") -> CheckResult:
    """Check whether the two target sets differ in frequency.

    :attr:`wordbias.measures.diagnostics.frequency.FrequencyReport.flagged`: the two-sided Mann-Whitney p of their frequency
    ranks is below alpha.

    Parameters
    ----------
    answer, exercise
        The student's answer (True or False) and the exercise's name (as for :func:`number`).
    report : wordbias.measures.diagnostics.frequency.FrequencyReport
        The frequency report (its ``mann_whitney_p``, ``alpha`` and ``flagged``).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    truth = bool(report.flagged)
    ctx = _Context(exercise, "differ_in_frequency", "", "True or False, as the data say",
                   "differ = report.mann_whitney_p < report.alpha", answer)
    if _is_placeholder(answer):
        return ctx.fill_in("True or False", truth)
    if not isinstance(answer, (bool, np.bool_)):
        return ctx.report("invalid", f"answer True or False (no quotes); got {str(answer)[:40]!r}.", truth)
    p = f"the Mann-Whitney p of the two sets' frequency ranks is {report.mann_whitney_p:.2g}"
    if bool(answer) == truth:
        return ctx.report("correct", f"right: {p}, {'below' if truth else 'not below'} {report.alpha}.", truth)
    return ctx.report("wrong", f"not yet: {p}; compare it with {report.alpha}.", truth)


@_check
def significant_associations(value, summary, *, run: str = "first names",
                             exercise: str = "significant associations") -> CheckResult:
    """Check the number of significant associations of one UBE run (Swinger et al. 2019, Table 4).

    Read from :func:`wordbias.papers.swinger2019.ube_summary`. Recognises the number of tests.

    Parameters
    ----------
    value, exercise
        As for :func:`number`.
    summary : pandas.DataFrame
        The UBE summary, one row per run.
    run : str
        The run (a row of ``summary``).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    if run not in summary.index:
        raise InvalidParameterError(f"run {run!r} is not in the summary; runs: {list(summary.index)}")
    row = summary.loc[run]
    return number(value, int(row["significant associations"]), exercise=exercise, shown=0, rtol=1e-9,
                  check="significant_associations", sign_matters=False,
                  what=f"the number of significant associations ({run})",
                  hint=f"the summary's row {run!r} and its column `significant associations`.",
                  solution=f'n_significant = summary.loc["{run}", "significant associations"]',
                  mistakes=[(float(row["tests"]), "that is the number of tests; how many of them are significant?")])


# --------------------------------------------------------------------------------------------------
# predict, then run; answers in words
# --------------------------------------------------------------------------------------------------

@_check
def prediction(answer, options: Mapping[str, str], *, exercise: str) -> CheckResult:
    """Record a prediction made before the result is shown: any of the offered letters is recorded.

    A prediction is asked for, never scored: every letter of ``options`` (case and spaces ignored) gets the status
    ``"recorded"`` (done, neither correct nor wrong; the record's ``points`` is 0) and the check repeats what it
    says; the untouched ``...`` asks to fill in; anything else is invalid. After the result, :func:`reveal` says
    whether the prediction held. In the lessons a prediction's check cell carries no points (nbgrader
    ``grade: false``) and the tag ``prediction``.

    Parameters
    ----------
    answer, exercise
        The student's prediction (one letter in quotes) and the exercise's name (as for :func:`number`).
    options : mapping of str to str
        Each letter and what it predicts, in a few words (repeated back to the student).

    Returns
    -------
    CheckResult
        The result (recorded for any offered letter); its ``given`` is the letter given, which :func:`reveal`
        reads; its ``expected`` is None (a prediction has no right answer before the result).

    Examples
    --------
    >>> p = prediction("B", {"a": "the same d", "b": "another d"}, exercise="two runs")
    ✎ two runs: prediction recorded: (b) another d. Run the next cells to see whether it holds.
    >>> p.status, p.done, p.given
    ('recorded', True, 'B')
    """
    keys = {k.strip().lower(): v for k, v in options.items()}
    if len(keys) < 2:
        raise InvalidParameterError(f"a prediction needs at least 2 options, not {sorted(keys)}")
    ctx = _Context(exercise, "prediction", "", f"any of {sorted(keys)}: a prediction is recorded, not graded",
                   "There is no worked solution to a prediction: choose the letter you believe, then run the next "
                   "cells; they show what happens.", answer)
    if _is_placeholder(answer):
        return ctx.fill_in(f"your prediction, one letter in quotes, one of {sorted(keys)}")
    if not isinstance(answer, str) or answer.strip().lower() not in keys:
        return ctx.report("invalid", f"predict with one letter in quotes, one of {sorted(keys)}; got "
                                     f"{str(answer)[:40]!r}.")
    letter = answer.strip().lower()
    return ctx.report("recorded", f"prediction recorded: ({letter}) {keys[letter]}. Run the next cells to see whether "
                                  "it holds.")


@dataclass(frozen=True)
class Outcome:
    """What :func:`reveal` shows: the outcome of a prediction (no check: it carries no record).

    ``bool(outcome)`` is ``outcome.held``; ``str(outcome)`` is the line shown; in Jupyter it shows as a coloured
    box.

    Attributes
    ----------
    exercise : str
        The prediction's exercise name.
    predicted : str or None
        The letter predicted (None when no prediction was recorded).
    actual : str
        The letter that the data make true.
    held : bool
        Whether the prediction held.
    message : str
        The message shown.
    """

    exercise: str
    predicted: str | None
    actual: str
    held: bool
    message: str

    def __bool__(self) -> bool:
        return self.held

    def __str__(self) -> str:
        icon = "✔" if self.held else ("✎" if self.predicted is None else "↻")
        return f"{icon} {self.exercise}: {self.message}"

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        background, border = (("#e7f5e9", "#2e7d32") if self.held else
                              ("#fff8e1", "#8d6e00") if self.predicted is None else ("#e3f2fd", "#1565c0"))
        body = html.escape(self.message).replace("\n", "<br>")
        icon, _, _ = str(self).partition(" ")
        return (f'<div style="background:{background};border-left:4px solid {border};padding:6px 10px;'
                f'margin:4px 0;font-family:sans-serif"><b>{icon} {html.escape(self.exercise)}</b>: {body}</div>')


def reveal(predicted: CheckResult, outcomes: Mapping[str, object], detail: str = "") -> Outcome:
    """Say whether a prediction held, once the result is shown.

    ``outcomes`` maps each letter of the prediction to whether the data make it true (a condition computed in the
    cell, e.g. ``{"a": d2 == d1, "b": d2 != d1}``); exactly one must be true. No try is counted and strict mode
    does not raise: a prediction that did not hold is part of the lesson, not a mistake.

    Parameters
    ----------
    predicted : CheckResult
        The result of the :func:`prediction` check (recorded, unanswered or invalid).
    outcomes : mapping of str to bool
        Each letter and whether it came true.
    detail : str
        The numbers behind the outcome, shown with it.

    Returns
    -------
    Outcome
        The outcome; it has been shown already.

    Raises
    ------
    InvalidParameterError
        When not exactly one outcome is true, or ``predicted`` is not a check result.

    Examples
    --------
    >>> p = prediction("a", {"a": "the same d", "b": "another d"}, exercise="two runs")
    ✎ two runs: prediction recorded: (a) the same d. Run the next cells to see whether it holds.
    >>> _ = reveal(p, {"a": False, "b": True}, "d = 0.91, then 0.81")
    ↻ two runs: you predicted (a); the result is (b): d = 0.91, then 0.81. Not what you expected: what did your prediction leave out?
    """
    if not isinstance(predicted, CheckResult):
        raise InvalidParameterError(f"reveal needs the result of a prediction check (checks.prediction), not "
                                    f"{type(predicted).__name__}")
    true = [k.strip().lower() for k, v in outcomes.items() if bool(v)]
    if len(true) != 1:
        raise InvalidParameterError(f"exactly one outcome must be true; true: {true} of {sorted(outcomes)}")
    actual = true[0]
    detail = f": {detail}" if detail else ""
    letter = str(predicted.given).strip().lower() if predicted.done else None
    if letter is None:
        message = (f"you made no prediction (fill in \"{predicted.exercise}\" above, before you look); the result is "
                   f"({actual}){detail}.")
        out = Outcome(predicted.exercise, None, actual, False, message)
    elif letter == actual:
        out = Outcome(predicted.exercise, actual, actual, True,
                      f"your prediction ({actual}) held{detail}.")
    else:
        out = Outcome(predicted.exercise, letter, actual, False,
                      f"you predicted ({letter}); the result is ({actual}){detail}. Not what you "
                      "expected: what did your prediction leave out?")
    if _in_kernel():
        from IPython.display import display

        display(out)
    else:
        print(out)
    return out


@_check
def written(answer, *, exercise: str, points: Sequence[str], min_words: int = 20) -> CheckResult:
    """Record a short answer in words: at ``min_words`` words or more it is recorded, and the message lists the
    points a good answer makes, for the student to compare; below that it is wrong (too short).

    Words are not graded here: the status is ``"recorded"`` (done, neither correct nor wrong; the record's
    ``points`` is 0), never correct on length alone. The teacher grades the answer by hand: in the lessons its
    solution cell is an nbgrader "manually graded answer" (``solution: true, grade: true, points: 2``, tag
    ``written``) and its check cell carries no points. The model answer is the instructor's solution, in the answer
    key.

    Parameters
    ----------
    answer, exercise
        The student's answer (a string) and the exercise's name (as for :func:`number`).
    points : sequence of str
        The points a good answer makes (shown once the answer is long enough, and as the worked solution).
    min_words : int, default 20
        The fewest words accepted.

    Returns
    -------
    CheckResult
        The result: recorded, wrong (too short), unanswered or invalid; its ``expected`` is None (the answer key
        shows the instructor's model answer as the worked solution).

    Examples
    --------
    >>> _ = written("Too short.", exercise="report", points=["the runs"], min_words=5)
    ✘ report: not yet: 2 words; write at least 5 (whole sentences, in your own words).
    """
    points = [str(p) for p in points]
    listed = "\n".join(f"  • {p}" for p in points)
    ctx = _Context(exercise, "written", "", f"an answer in words, at least {min_words} words (read by the teacher)",
                   f'{"answer"} = """..."""   # in your own words; a good answer says\n{listed}', answer)
    if _is_placeholder(answer):
        return ctx.fill_in('your answer in words, in quotes ("""...""" for several lines)')
    if not isinstance(answer, str):
        return ctx.report("invalid", f"answer in words, in quotes; got {type(answer).__name__}.")
    n = len(answer.split())
    if n < min_words:
        return ctx.report("wrong", f"not yet: {n} word{'s' if n != 1 else ''}; write at least {min_words} (whole "
                                   "sentences, in your own words).")
    return ctx.report("recorded", f"recorded ({n} words); your teacher grades it. Compare it with the points a good "
                                  f"answer makes:\n{listed}")


# --------------------------------------------------------------------------------------------------
# lesson 6: training runs (Antoniak & Mimno 2018; Du, Fang & Nguyen 2021)
# --------------------------------------------------------------------------------------------------

def _run_effect_sizes(result) -> np.ndarray:
    """The effect sizes of the runs of an ensemble measurement where the test ran."""
    return np.array([m.effect_size for m in result.per_run if m.not_run is None], dtype=np.float64)


@_check
def run_spread(value, result, *, exercise: str = "spread over runs", shown: int | str = 3) -> CheckResult:
    """Check the standard deviation of d over the runs of an ensemble (the sample one, ddof = 1).

    :attr:`wordbias.measures.ensemble.EnsembleMeasurement.effect_size_sd`. Recognises the population standard
    deviation, the variance and the range.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    result : wordbias.measures.ensemble.EnsembleMeasurement
        The test measured on every run.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    d = _run_effect_sizes(result)
    return number(value, float(result.effect_size_sd), exercise=exercise, shown=shown, check="run_spread",
                  sign_matters=False, what=f"the standard deviation of d over the {d.size} runs",
                  hint="the spread of the column of d (one value per run): which standard deviation, sample or "
                       "population?",
                  solution="sd_runs = runs.effect_size.std()   # pandas: the sample standard deviation (ddof=1)",
                  mistakes=[(float(d.std(ddof=0)), "that is the population standard deviation (ddof=0, numpy's "
                                                   "default); use the sample one (ddof=1, pandas' default)."),
                            (float(d.var(ddof=1)), "that is the variance; take its square root."),
                            (float(d.var(ddof=0)), "that is the (population) variance; the standard deviation is "
                                                   "the square root of the sample variance."),
                            (float(d.max() - d.min()), "that is the range (largest minus smallest d); the question "
                                                       "asks for the standard deviation.")])


@_check
def interval_or_runs(answer, result, *, run: int = 0, exercise: str = "interval or runs") -> CheckResult:
    """Check which is wider: one run's interval of d over words (``"a"``), or the range of d over the runs
    (``"b"``).

    The interval is the run's bootstrap interval over the words (:class:`~wordbias.result.Result`
    ``ci_low``, ``ci_high``); the range is the largest minus the smallest d of the runs.

    Parameters
    ----------
    answer, exercise
        The student's answer (``"a"`` or ``"b"``) and the exercise's name (as for :func:`number`).
    result : wordbias.measures.ensemble.EnsembleMeasurement
        The test measured on every run.
    run : int, default 0
        The run whose interval is compared (0: the first).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    m = result.per_run[run]
    d = _run_effect_sizes(result)
    width, spread = float(m.ci_high - m.ci_low), float(d.max() - d.min())
    truth = "a" if width > spread else "b"
    numbers_ = (f"run {result.runs[run]}'s interval over words is {width:.2f} wide ([{m.ci_low:.2f}, "
                f"{m.ci_high:.2f}]); d over the {d.size} runs spans {spread:.2f} ({d.min():.2f} to {d.max():.2f})")
    ctx = _Context(exercise, "interval_or_runs", "", "the letter the data make true",
                   f'answer = "{truth}"   # compare runs.ci_high[0] - runs.ci_low[0] with '
                   "runs.effect_size.max() - runs.effect_size.min()", answer)
    if _is_placeholder(answer):
        return ctx.fill_in("one letter in quotes, 'a' or 'b'", truth)
    if not isinstance(answer, str) or answer.strip().lower() not in ("a", "b"):
        return ctx.report("invalid", f"answer with one letter in quotes, 'a' or 'b'; got {str(answer)[:40]!r}.",
                          truth)
    if answer.strip().lower() == truth:
        return ctx.report("correct", f"right: {numbers_}.", truth)
    return ctx.report("wrong", "not this one: compare the width of run 1's interval (high minus low) with the "
                               "largest minus the smallest d of the runs.", truth)


@_check
def combined_variance(value, estimates, ci_low, ci_high, *, ci_level: float = 0.95,
                      exercise: str = "combined variance", shown: int | str = 4) -> CheckResult:
    """Check T = W + B/m, the variance of the mean d over m runs (:func:`wordbias.measures.ensemble.combine_runs`).

    W is the mean over runs of each run's variance over words, read from its interval: ((high − low) / (2 z))²,
    z the normal quantile of the level; B the variance of d across runs (ddof = 1). Recognises W + B (B not divided
    by m), (W + B)/m, W alone, B/m alone, the population variance of d, the half-width not divided by z, the whole
    width in place of the half-width, and standard deviations in place of variances.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    estimates, ci_low, ci_high : array_like of float
        Each run's d and its interval over words.
    ci_level : float, default 0.95
        The level of the runs' intervals.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    from scipy import stats

    d = np.asarray(estimates, dtype=np.float64)
    low, high = np.asarray(ci_low, dtype=np.float64), np.asarray(ci_high, dtype=np.float64)
    c = _ensemble.combine_runs(d, low, high, ci_level=ci_level)
    m, W, B = c.n_runs, c.within_variance, c.between_variance
    z = float(stats.norm.ppf(0.5 + ci_level / 2))
    half = (high - low) / 2
    return number(value, W + B / m, exercise=exercise, shown=shown, check="combined_variance", sign_matters=False,
                  what=f"T = W + B/m over the {m} runs",
                  hint="three steps: W, the mean of the runs' squared half-widths divided by z²; B, the variance of "
                       "d across the runs; then W plus B divided by the number of runs.",
                  solution="W = (((runs.ci_high - runs.ci_low) / (2 * z)) ** 2).mean()   # within runs, over words\n"
                           "B = runs.effect_size.var()                                   # between runs (ddof=1)\n"
                           "T = W + B / m",
                  mistakes=[(W + B, "B is not divided by the number of runs: the runs' own scatter averages out "
                                    "over m runs, T = W + B/m."),
                            ((W + B) / m, "W is divided by m too; the words are the same in every run, so their "
                                          "error does not average out: T = W + B/m."),
                            (W, "that is W alone; add the between-run part B/m."),
                            (B / m, "that is B/m alone; add the within-run variance W."),
                            (W + float(d.var(ddof=0)) / m, "B uses the population variance (ddof=0); use the "
                                                           "sample variance (ddof=1, pandas' default)."),
                            (float((half ** 2).mean()) + B / m, "the half-widths are not divided by z; a 95% "
                                                                "interval is about ±1.96 standard errors wide."),
                            (float((((high - low) / z) ** 2).mean()) + B / m, "that uses the whole width; the "
                                                                               "standard error is the half-width "
                                                                               "divided by z."),
                            (float((half / z).mean()) + B / m, "W averages standard errors, not variances: square "
                                                               "the half-width divided by z."),
                            (float((half / z).mean()) + float(d.std(ddof=1)) / m, "those are standard deviations; "
                                                                                   "T adds variances.")])


@_check
def share_significant(value, result, *, exercise: str = "share of runs significant",
                      shown: int | str = 2) -> CheckResult:
    """Check the share of an ensemble's runs whose p is below its alpha
    (:attr:`wordbias.measures.ensemble.EnsembleMeasurement.share_significant`).

    Recognises the count instead of the share, the share not significant, and the share at p <= alpha where it
    differs.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    result : wordbias.measures.ensemble.EnsembleMeasurement
        The test measured on every run (its ``alpha`` is the level).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    p = np.array([m.p_value for m in result.per_run if m.not_run is None], dtype=np.float64)
    share = float(result.share_significant)
    mistakes = [(float((p < result.alpha).sum()), "that is the number of runs; the share divides it by the number "
                                                   "of runs."),
                (1.0 - share, "that is the share of runs NOT significant (p at or above alpha)."),
                (float((p <= result.alpha).mean()), "a run is significant when p < alpha, not p <= alpha.")]
    return number(value, share, exercise=exercise, shown=shown, check="share_significant", sign_matters=False,
                  atol=1e-12, what=f"the share of the {p.size} runs with p < {result.alpha:g}",
                  hint="the column of p, one per run: how many are below alpha, out of how many runs?",
                  solution="share = (runs.p_value < alpha).mean()   # True counts 1, False 0",
                  mistakes=mistakes)


# --------------------------------------------------------------------------------------------------
# lesson 7: did debiasing remove the bias? (Bolukbasi et al. 2016; Gonen & Goldberg 2019)
# --------------------------------------------------------------------------------------------------

@_check
def direct_bias(value, X, g, *, exercise: str = "direct bias", shown: int | str = 3) -> CheckResult:
    """Check DirectBias_1 = mean over the words of ∣cos(w, g)∣ (Bolukbasi et al. 2016, Section 5.2).

    :func:`wordbias.measures.directions.direction.direct_bias` with c = 1. Recognises the mean of the signed cosines, the
    absolute value of their mean, projections (dot products with the unit direction) instead of cosines, squared
    cosines (DirectBias_2) and the largest ∣cos∣ instead of the mean.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    X : array_like
        The vectors of the gender-neutral words (one row per word).
    g : array_like
        The gender direction (any length).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    from wordbias.measures.directions import direction as _direction

    X, g = np.asarray(X, dtype=np.float64), np.asarray(g, dtype=np.float64)
    cos = cosine_matrix(X, g[None, :])[:, 0]
    expected = _direction.direct_bias(X, g, c=1)
    projections = X @ (g / np.linalg.norm(g))
    return number(value, expected, exercise=exercise, shown=shown, check="direct_bias", sign_matters=False,
                  what=f"the direct bias of the {len(X)} words (the mean |cos(w, g)|)",
                  hint="the formula above: one cosine per word with g, then the mean of their absolute values.",
                  solution="db_original = np.abs(kv.cosine_similarities(g, kv[professions])).mean()   "
                           "# |cos(w, g)| of each word, then the mean",
                  mistakes=[(float(cos.mean()), "that is the mean of the signed cosines: words on the two sides of "
                                                "g cancel out. Take the absolute value of each cosine first."),
                            (float(abs(cos.mean())), "that is the absolute value of the mean cosine; take the mean "
                                                     "of the absolute values (each word's |cos| counts)."),
                            (float(np.abs(projections).mean()), "those are projections (dot products) of the "
                                                                "unnormalised vectors; use cosines: divide by each "
                                                                "word's length."),
                            (float((cos ** 2).mean()), "those are squared cosines (DirectBias with c = 2); c = 1 "
                                                       "takes |cos| itself."),
                            (float(np.abs(cos).max()), "that is the largest |cos|; the direct bias is the mean over "
                                                       "the words.")])


#: the mistake of a correlation read from the diagonal of a correlation matrix (``np.corrcoef(a, b)[0, 0]``)
_DIAGONAL = (1.0, "that is the diagonal of the correlation matrix, a variable with itself (always 1): take [0, 1], "
                  "the correlation of the two columns.")


@_check
def neighbour_correlation(value, bias, share, *, exercise: str = "bias by neighbours",
                          shown: int | str = 3) -> CheckResult:
    """Check Pearson's r between each word's original bias and its share of male-biased neighbours.

    Gonen & Goldberg's (2019, Section 3) bias-by-neighbours correlation
    (:func:`wordbias.measures.debiasing.debias_checks.neighbour_bias`). Recognises Spearman's rank correlation, r², the
    covariance, a flipped sign and 1.0, the diagonal of the correlation matrix (``np.corrcoef(a, b)[0, 0]``).

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    bias, share : array_like
        Each word's original bias and its share of male-biased words among its neighbours.

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    from scipy import stats

    x, y = np.asarray(bias, dtype=np.float64), np.asarray(share, dtype=np.float64)
    r = float(np.corrcoef(x, y)[0, 1])
    return number(value, r, exercise=exercise, shown=shown, check="neighbour_correlation",
                  what=f"Pearson's r of the original bias and the share of male neighbours ({x.size:,} words)",
                  hint="one correlation of the two columns of the table, bias and male_neighbours: which "
                       "correlation, of the values or of their ranks?",
                  solution="r_neighbours = np.corrcoef(neighbours.items.bias, neighbours.items.male_neighbours)[0, 1]"
                           "   # or neighbours.items.bias.corr(neighbours.items.male_neighbours)",
                  mistakes=[(float(stats.spearmanr(x, y)[0]), "that is Spearman's rank correlation; the paper "
                                                               "uses Pearson's r of the values."),
                            (r ** 2, "that is r², the share of variance explained; give r itself."),
                            (float(np.cov(x, y)[0, 1]), "that is the covariance; the correlation divides it by both "
                                                        "standard deviations."),
                            _DIAGONAL])


@_check
def nearer_target(answer, table, method: str, than: str, *, exercise: str = "nearer the target") -> CheckResult:
    """Check the checks on which ``method`` comes nearer than ``than`` to the value a check would take if the bias
    were gone (its ``target``: 0, or 0.5 for an accuracy).

    Read from :func:`wordbias.papers.lesson_views.debias_checks_table`: only the rows with a target count (not the
    utility checks); a tie counts for neither.

    Parameters
    ----------
    answer, exercise
        The student's answer (a list of check names) and the exercise's name (as for :func:`number`).
    table : pandas.DataFrame
        The table: columns ``method``, ``check``, ``estimate``, ``target``.
    method, than : str
        The two methods compared (values of the ``method`` column).

    Returns
    -------
    CheckResult
        The result, shown already.
    """
    for m in (method, than):
        if m not in set(table["method"]):
            raise InvalidParameterError(f"method {m!r} is not in the table; methods: "
                                        f"{list(dict.fromkeys(table['method']))}")
    rows = table[table["target"].notna()]
    distance = (rows.assign(distance=(rows["estimate"] - rows["target"]).abs())
                .pivot(index="check", columns="method", values="distance"))
    order = [c for c in dict.fromkeys(rows["check"]) if c in distance.index]
    expected = [c for c in order if distance.loc[c, method] < distance.loc[c, than]]
    return _same_set(answer, expected, exercise=exercise, check="nearer_target",
                     what=f"the checks on which {method} is nearer the target than {than}",
                     hint="for each check, how far each of the two estimates is from the column 'if the bias were "
                          "gone' (0, or 0.5 for an accuracy); the utility checks have no such value and do not count.",
                     solution="distance = (table.estimate - table.target).abs()   # NaN for the utility checks\n"
                              "by_check = table.assign(distance=distance).dropna(subset=[\"target\"]).pivot(\n"
                              "    index=\"check\", columns=\"method\", values=\"distance\")\n"
                              f"nearer = list(by_check.index[by_check[{method!r}] < by_check[{than!r}]])")


# --------------------------------------------------------------------------------------------------
# lesson 8: language models (Nangia et al. 2020, CrowS-Pairs)
# --------------------------------------------------------------------------------------------------

def _token_log_probs(name: str, value) -> np.ndarray:
    """A sentence's token log-probabilities (a :class:`~wordbias.models.log_prob.TokenLogProbs` or an array),
    checked: one or more finite numbers, none above 0."""
    lp = np.asarray(getattr(value, "log_probs", value), dtype=np.float64)
    if lp.ndim != 1 or lp.size == 0 or not np.all(np.isfinite(lp)) or np.any(lp > 0):
        raise InvalidParameterError(f"{name} must be a sentence's token log-probabilities (one or more finite "
                                    f"numbers, none above 0); got {lp!r}")
    return lp


@_check
def sentence_log_prob(value, log_probs, *, exercise: str = "sentence log-probability",
                      shown: int | str = 2) -> CheckResult:
    """Check a sentence's log-probability under a causal language model: the sum of its tokens' log-probabilities,
    each given the tokens before it (the chain rule; :attr:`wordbias.models.log_prob.TokenLogProbs.total`).

    Recognises the mean per token, the probability itself (e to the sum), the sum of the tokens' probabilities,
    the sum without the first token, the base-10 logarithm and the flipped sign (the negative log-likelihood).

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    log_probs : TokenLogProbs or array_like of float
        The sentence's token log-probabilities (natural logarithms, each at most 0).

    Returns
    -------
    CheckResult
        The result, shown already.

    Raises
    ------
    InvalidParameterError
        When ``log_probs`` is not one or more finite numbers at most 0.

    Examples
    --------
    >>> _ = sentence_log_prob(-0.9, [-0.5, -0.25])
    ✘ sentence log-probability: not yet: -0.9 is not the sentence's log-probability, nor a rounding of it (the lesson shows 2 decimals). Look at: the chain rule above: the log-probability of a product of probabilities is the sum of their logarithms, one per token.
    """
    lp = _token_log_probs("log_probs", log_probs)
    expected = _float32(math.fsum(lp))
    mistakes = [(float(lp.mean()), "that is the mean per token; the sentence's log-probability adds up every "
                                   "token's."),
                (math.exp(expected), "that is the probability itself, e to the power of the sum; the question "
                                     "asks for its logarithm."),
                (float(np.exp(lp).sum()), "that adds the tokens' probabilities; add their log-probabilities (the "
                                          "logarithm of a product is the sum of the logarithms)."),
                (expected / math.log(10), "that is in base 10; the table's log-probabilities are natural "
                                          "logarithms."),
                (-expected, "that is the negative log-likelihood (the loss): the sign is flipped; a "
                            "log-probability is at most 0.")]
    if lp.size > 1:
        mistakes.append((math.fsum(lp[1:]), "that leaves out the first token; it counts too (it is conditioned on "
                                            "the beginning-of-sequence token)."))
    return number(value, expected, exercise=exercise, shown=shown, check="sentence_log_prob",
                  what="the sentence's log-probability",
                  hint="the chain rule above: the log-probability of a product of probabilities is the sum of their "
                       "logarithms, one per token.",
                  solution='log_p_sentence = tokens["log P"].sum()   # log P(sentence) = the sum over its tokens of '
                           "log P(token | the tokens before it)",
                  mistakes=mistakes)


@_check
def pair_margin(value, more, less, *, exercise: str = "the pair's margin", shown: int | str = 2) -> CheckResult:
    """Check a CrowS-Pairs pair's margin, log P(more-stereotyping sentence) − log P(less-stereotyping sentence):
    above 0 when the model prefers the more-stereotyping sentence (Nangia et al. 2020, §3; the ``"harness"``
    convention of :mod:`wordbias.measures.language_models.crows_pairs`, each sentence's whole log-probability).

    Recognises the flipped sign (less minus more), the difference of the mean log-probabilities per token and the
    ratio of the two probabilities.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    more, less : TokenLogProbs or array_like of float
        The token log-probabilities of the more- and of the less-stereotyping sentence.

    Returns
    -------
    CheckResult
        The result, shown already.

    Raises
    ------
    InvalidParameterError
        When ``more`` or ``less`` is not one or more finite numbers at most 0.

    Examples
    --------
    >>> _ = pair_margin(0.5, [-1.0, -2.0], [-1.5, -2.0])
    ✔ the pair's margin: right: 0.50 is log P(more) − log P(less) (the lesson shows 2 decimals).
    """
    a, b = _token_log_probs("more", more), _token_log_probs("less", less)
    expected = _float32(math.fsum(a) - math.fsum(b))
    mistakes = [(-expected, "the sign is flipped: the more-stereotyping sentence's log-probability minus the "
                            "less-stereotyping one's."),
                (float(a.mean() - b.mean()), "that is the difference of the means per token; compare the two "
                                             "sentences' whole log-probabilities (their sums)."),
                (math.exp(expected), "that is the ratio of the two probabilities, P(more) / P(less); the question "
                                     "asks for the difference of their logarithms.")]
    return number(value, expected, exercise=exercise, shown=shown, check="pair_margin",
                  what="log P(more) − log P(less)",
                  hint="each sentence's log-probability (its total), and which is subtracted from which.",
                  solution="margin = more.total - less.total   # above 0: the model prefers the more-stereotyping "
                           "sentence",
                  mistakes=mistakes)


@_check
def value_in_interval(answer, result, *, value: float = 0.5, exercise: str = "0.5 in the interval") -> CheckResult:
    """Check whether ``value`` lies inside a result's confidence interval, ends included (True or False).

    For CrowS-Pairs (:func:`wordbias.measures.language_models.crows_pairs.share_result`) 0.5 is the share of a
    model that prefers neither sentence of a pair. Recognises the answer read from the estimate alone (it differs
    from ``value`` while the interval includes it).

    Parameters
    ----------
    answer, exercise
        The student's answer (True or False) and the exercise's name (as for :func:`number`).
    result : wordbias.result.Result
        The result (its ``ci_low``, ``ci_high``, ``ci_level`` and ``effect_size``).
    value : float, default 0.5
        The value asked about.

    Returns
    -------
    CheckResult
        The result, shown already; its ``expected`` is the right answer.

    Examples
    --------
    >>> from wordbias.measures.language_models.crows_pairs import share_result
    >>> r = share_result([True] * 7 + [False] * 3, title="7 of 10")
    >>> _ = value_in_interval(True, r)
    ✔ 0.5 in the interval: right: 0.5 lies inside the 95% interval [0.35, 0.93]: the data are consistent with a share of 0.5 (the estimate is 0.70).
    """
    low, high, estimate = float(result.ci_low), float(result.ci_high), float(result.effect_size)
    truth = bool(low <= value <= high)
    interval = f"the {result.ci_level:.0%} interval [{low:.2f}, {high:.2f}]"
    ctx = _Context(exercise, "value_in_interval", "", "True or False, as the data say",
                   f"half_inside = overall.ci_low <= {value:g} <= overall.ci_high   # overall: the result; its "
                   "interval's two ends, not the estimate", answer)
    if _is_placeholder(answer):
        return ctx.fill_in("True or False", truth)
    if not isinstance(answer, (bool, np.bool_)):
        return ctx.report("invalid", f"answer True or False (no quotes); got {str(answer)[:40]!r}.", truth)
    if bool(answer) == truth and truth:
        return ctx.report("correct", f"right: {value:g} lies inside {interval}: the data are consistent with a "
                                     f"share of {value:g} (the estimate is {estimate:.2f}).", truth)
    if bool(answer) == truth:
        return ctx.report("correct", f"right: {value:g} lies outside {interval}: the data rule out a share of "
                                     f"{value:g} at this level (the estimate is {estimate:.2f}).", truth)
    if truth and estimate != value:
        return ctx.report("wrong", f"not yet: the estimate is not {value:g}, but the question is whether {value:g} "
                                   "lies between the interval's two ends (ci_low and ci_high).", truth)
    return ctx.report("wrong", f"not yet: compare {value:g} with the interval's two ends, ci_low and ci_high.",
                      truth)


@_check
def shorter_wins_more(answer, table, *, exercise: str = "the length confound") -> CheckResult:
    """Check under which CrowS-Pairs convention the shorter sentence of a pair wins more often: ``"a"``
    ``harness`` (each sentence's whole log-probability), ``"b"`` ``shared-tokens`` (the tokens the two sentences
    share), ``"c"`` as often under both.

    Read from :func:`wordbias.battery.lm.crows_pairs_table`'s rows of test ``length``, battery
    ``crows_pairs:harness`` and ``crows_pairs:shared-tokens``: the share of the pairs of unequal length whose
    shorter sentence scores higher
    (:func:`wordbias.measures.language_models.crows_pairs.length_confound`).

    Parameters
    ----------
    answer, exercise
        The student's answer (a letter) and the exercise's name (as for :func:`number`).
    table : pandas.DataFrame
        The tidy rows (columns ``battery``, ``test``, ``effect_size``, ``n_x``).

    Returns
    -------
    CheckResult
        The result, shown already; its ``expected`` is the right letter.

    Raises
    ------
    InvalidParameterError
        When the table lacks the length row of either convention.
    """
    shares = {}
    for convention in ("harness", "shared-tokens"):
        rows = table[(table["battery"] == f"crows_pairs:{convention}") & (table["test"] == "length")]
        if len(rows) != 1:
            raise InvalidParameterError(f"the table needs one row of test 'length' for battery "
                                        f"'crows_pairs:{convention}'; it has {len(rows)}")
        shares[convention] = (float(rows["effect_size"].iloc[0]), int(rows["n_x"].iloc[0]))
    (h, n_h), (s, n_s) = shares["harness"], shares["shared-tokens"]
    truth = "a" if h > s else "b" if s > h else "c"
    said = (f"right: the shorter sentence wins {round(h * n_h)} of {n_h} pairs of unequal length under harness "
            f"({h:.2f}), {round(s * n_s)} of {n_s} under shared-tokens ({s:.2f}).")
    nudge = ("compare the two rows of test 'length', their share (effect_size): the share of the pairs of unequal "
             "length whose shorter sentence scores higher.")
    return _choice(answer, truth, {letter: said if letter == truth else nudge for letter in "abc"},
                   exercise=exercise, check="shorter_wins_more")


# --------------------------------------------------------------------------------------------------
# lesson 9: measuring the measures (a planted-bias ladder)
# --------------------------------------------------------------------------------------------------

def _ladder_rows(runs, measure: str, columns: Sequence[str]):
    """The rows of ``measure`` in a ladder's per-run table, with the columns a check reads."""
    missing = [c for c in ("measure", "rate", *columns) if c not in getattr(runs, "columns", ())]
    if missing:
        raise InvalidParameterError(f"runs must be the ladder's per-run table (planted_bias.committed()['runs']); "
                                    f"it lacks the columns {missing}")
    rows = runs[runs["measure"] == measure]
    if rows.empty:
        raise InvalidParameterError(f"runs has no row of measure {measure!r} (its measures: "
                                    f"{sorted(set(runs['measure']))})")
    return rows


def _spearman(x, y) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic)


@_check
def ladder_validity(value, runs, *, measure: str = "weat", exercise: str = "validity by hand",
                    shown: int | str = 2) -> CheckResult:
    """Check a measure's validity on a planted-bias ladder: Spearman's rho of its effect size with the planted rate
    over every run (the planted strength ∣1 − 2p∣ for a measure blind to the sign,
    :data:`wordbias.catalogue.SIGN_BLIND`), as :func:`wordbias.battery.validity.validity_table` computes it.

    Recognises Pearson's r instead of Spearman's rho, rho against the other planted value (strength for rate, or
    rate for strength), rho of the five means per rate instead of every run, and 1.0 (the diagonal of a
    correlation matrix).

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    runs : pandas.DataFrame
        The ladder's per-run table (:func:`wordbias.papers.planted_bias.committed` ``["runs"]``): columns
        ``measure``, ``rate``, ``effect_size``.
    measure : str, default "weat"
        The measure.

    Returns
    -------
    CheckResult
        The result, shown already.

    Raises
    ------
    InvalidParameterError
        When ``runs`` lacks a column, the measure, or a value for two rates.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"measure": ["weat"] * 6, "rate": [0, 0, 0.5, 0.5, 1, 1],
    ...                      "effect_size": [0.3, 0.2, 0.1, -0.2, -0.3, -0.1]})
    >>> _ = ladder_validity(-0.84, runs)
    ✔ validity by hand: right: -0.84 is Spearman's rho of weat's effect size with the planted rate over the 6 runs, rounded to 2 decimals (the lesson shows 2 decimals: -0.84).
    """
    from wordbias.catalogue import SIGN_BLIND

    rows = _ladder_rows(runs, measure, ("effect_size",)).dropna(subset=["effect_size"])
    if rows["rate"].nunique() < 2:
        raise InvalidParameterError(f"{measure} needs values at 2 rates or more for a validity rho")
    rates = rows["rate"].to_numpy(float)
    strength = np.abs(1 - 2 * rates)
    against = "strength" if measure in SIGN_BLIND else "rate"
    planted, other = (rates, strength) if against == "rate" else (strength, rates)
    what = "the planted rate" if against == "rate" else "the planted strength ∣1 − 2p∣"
    d = rows["effect_size"].to_numpy(float)
    means = rows.groupby("rate")["effect_size"].mean()
    means_planted = means.index.to_numpy(float) if against == "rate" else np.abs(1 - 2 * means.index.to_numpy(float))
    mistakes = [(float(np.corrcoef(d, planted)[0, 1]), "that is Pearson's r of the values; validity is Spearman's "
                                                       "rho (the ranks: scipy.stats.spearmanr)."),
                (_spearman(d, other), f"that is rho against the other planted value; {measure} is judged against "
                                      f"{what}."),
                (_spearman(means.to_numpy(float), means_planted), "that is rho of the means per rate; the table "
                                                                  "correlates every run, not the rates' means."),
                _DIAGONAL]
    solution = (f'mine = runs[runs.measure == "{measure}"]\n'
                f"rho = stats.spearmanr(mine.effect_size, {'mine.rate' if against == 'rate' else 'abs(1 - 2 * mine.rate)'})"
                ".statistic")
    return number(value, _spearman(d, planted), exercise=exercise, shown=shown, check="ladder_validity",
                  what=f"Spearman's rho of {measure}'s effect size with {what} over the {len(d)} runs",
                  hint=f"the rows of {measure} (every run: {len(d)}), their effect_size against their rate, and "
                       "which correlation, Pearson's or Spearman's.",
                  solution=solution, mistakes=mistakes)


@_check
def false_positive_rate(value, runs, *, measure: str = "sc_weat", rate: float = 0.5, alpha: float = 0.05,
                        exercise: str = "false positives", shown: int | str = 2) -> CheckResult:
    """Check the share of a ladder's runs at one rate whose own test flags a bias (p < ``alpha``): at rate 0.5,
    where the corpus is symmetric under the swap, the measure's false-positive rate (the ``flagged at rate 0.5`` of
    :func:`wordbias.battery.validity.validity_table`).

    Recognises the count instead of the share, the share not flagged, the share over every rate and p <= alpha
    where it differs.

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    runs : pandas.DataFrame
        The ladder's per-run table: columns ``measure``, ``rate``, ``p_value``.
    measure : str, default "sc_weat"
        The measure (one with a test).
    rate : float, default 0.5
        The rate.
    alpha : float, default 0.05
        The level.

    Returns
    -------
    CheckResult
        The result, shown already.

    Raises
    ------
    InvalidParameterError
        When ``runs`` lacks a column, the measure, or a run with a p-value at ``rate``.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"measure": ["sc_weat"] * 4, "rate": [0.5, 0.5, 0.5, 0],
    ...                      "p_value": [0.01, 0.2, 0.03, 0.5]})
    >>> _ = false_positive_rate(2 / 3, runs)
    ✔ false positives: right: 0.67 is the share of the 3 runs of sc_weat at rate 0.5 with p < 0.05 (the lesson shows 2 decimals).
    """
    rows = _ladder_rows(runs, measure, ("p_value",))
    p = rows.loc[np.isclose(rows["rate"].to_numpy(float), rate), "p_value"].dropna().to_numpy(float)
    if p.size == 0:
        raise InvalidParameterError(f"{measure} has no run with a p-value at rate {rate:g}")
    every = rows["p_value"].dropna().to_numpy(float)
    share = float((p < alpha).mean())
    mistakes = [(float((p < alpha).sum()), "that is the number of runs; the share divides it by the number of runs "
                                           "at this rate."),
                (1.0 - share, f"that is the share of runs NOT flagged (p at or above {alpha:g})."),
                (float((every < alpha).mean()), f"that is the share over every rate; count the runs at rate "
                                                f"{rate:g} only."),
                (float((p <= alpha).mean()), "a run is flagged when p < alpha, not p <= alpha.")]
    return number(value, share, exercise=exercise, shown=shown, check="false_positive_rate", sign_matters=False,
                  atol=1e-12, what=f"the share of the {p.size} runs of {measure} at rate {rate:g} with p < {alpha:g}",
                  hint=f"the rows of {measure} at rate {rate:g}, their p_value: how many are below {alpha:g}, out of "
                       "how many runs?",
                  solution=f'mine = runs[(runs.measure == "{measure}") & (runs.rate == {rate:g})]\n'
                           f"false_positives = (mine.p_value < {alpha:g}).mean()   # True counts 1, False 0",
                  mistakes=mistakes)


@_check
def spearman_brown(value, first, second, *, exercise: str = "Spearman-Brown", shown: int | str = 3) -> CheckResult:
    """Check a split-half reliability stepped up by Spearman-Brown: r, Pearson's correlation of the two halves'
    values over the observations, then 2r / (1 + r), the reliability of a test twice as long as each half
    (:func:`wordbias.stats.reliability.half_correlation` for one split).

    Recognises r not stepped up, 2r (without the denominator), Spearman's rank correlation stepped up and 1.0 (the
    diagonal of the correlation matrix, stepped up).

    Parameters
    ----------
    value, exercise, shown
        As for :func:`number`.
    first, second : array_like of float
        Each observation's value on the first and on the second half (the same length, at least 3, finite).

    Returns
    -------
    CheckResult
        The result, shown already.

    Raises
    ------
    InvalidParameterError
        When the halves differ in length, have fewer than 3 values, are not finite or do not vary.

    Examples
    --------
    >>> _ = spearman_brown(0.75, [1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0])      # r = 0.6
    ✔ Spearman-Brown: right: 0.750 is 2r / (1 + r), r the correlation of the two halves over 4 observations (the lesson shows 3 decimals).
    """
    a = np.asarray(first, dtype=np.float64).ravel()
    b = np.asarray(second, dtype=np.float64).ravel()
    if a.shape != b.shape or a.size < 3 or not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InvalidParameterError(f"first and second must be two halves' finite values of the same observations, "
                                    f"at least 3; got {a.size} and {b.size} values")
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        raise InvalidParameterError("a half whose values do not vary has no correlation")
    r = float(np.corrcoef(a, b)[0, 1])
    rho = _spearman(a, b)
    mistakes = [(r, "that is r of the two halves; step it up to the whole length: 2r / (1 + r)."),
                (2 * r, "that is 2r; divide it by (1 + r)."),
                (2 * rho / (1 + rho), "that steps up Spearman's rank correlation; the formula takes Pearson's r."),
                _DIAGONAL]
    return number(value, 2 * r / (1 + r), exercise=exercise, shown=shown, check="spearman_brown",
                  what=f"2r / (1 + r), r the correlation of the two halves over {a.size} observations",
                  hint="first r, Pearson's correlation of the two halves' columns; then the Spearman-Brown formula.",
                  solution='r = split["half 1"].corr(split["half 2"])   # Pearson, pandas\' default\n'
                           "r_sb = 2 * r / (1 + r)",
                  mistakes=mistakes)


@_check
def validity_covers_zero(answer, table, *, column: str = "validity",
                         exercise: str = "validity intervals covering 0") -> CheckResult:
    """Check the measures whose validity interval covers 0 (ends included), read from the wide validity table
    (:func:`wordbias.battery.validity.validity_wide`): those whose rho with the planted bias the ladder cannot tell
    from none. A measure without an interval (not measured) is in no answer.

    Parameters
    ----------
    answer, exercise
        The student's answer (a list of measure names) and the exercise's name (as for :func:`number`).
    table : pandas.DataFrame
        Indexed by measure, with the columns ``<column> low`` and ``<column> high``.
    column : str, default "validity"
        The figure whose interval is read.

    Returns
    -------
    CheckResult
        The result, shown already.

    Raises
    ------
    InvalidParameterError
        When the table lacks the interval's columns.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"validity low": [-0.9, -0.3, None], "validity high": [-0.5, 0.7, None]},
    ...                  index=pd.Index(["weat", "rnsb", "ube"], name="measure"))
    >>> _ = validity_covers_zero(["rnsb"], t)
    ✔ validity intervals covering 0: right: the measures whose validity interval covers 0: ['rnsb'].
    """
    low, high = f"{column} low", f"{column} high"
    if low not in getattr(table, "columns", ()) or high not in table.columns:
        raise InvalidParameterError(f"table must be the wide validity table (validity_wide) with the columns "
                                    f"{low!r} and {high!r}")
    covers = (table[low] <= 0) & (table[high] >= 0)
    return _same_set(answer, [str(m) for m in table.index[covers]], exercise=exercise,
                     what=f"the measures whose {column} interval covers 0", check="validity_covers_zero",
                     solution=f'covering = list(table.index[(table["{low}"] <= 0) & (table["{high}"] >= 0)])',
                     hint="each measure's two interval columns: an interval covers 0 when its low end is at most 0 "
                          "and its high end at least 0; a measure with no interval (NaN) was not measured.")
