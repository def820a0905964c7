"""Exercise checks that say what is right or wrong: the self-checking cells of the lessons
(``notebooks/lessons/``).

Each check takes the student's answer (a number, a word list, a letter) and the data it should be computed from,
computes the right answer with the library (never a copy of a number), prints one message and returns a
:class:`CheckResult` (``bool(result)`` is ``result.passed``; it shows as a coloured box in Jupyter). The message
says what to do:

* the untouched placeholder ``...`` (or a list still holding it): "fill in ...";
* an answer of the wrong kind (a string where a number is asked): what kind is expected;
* a *common mistake* (the dot product instead of the cosine, the population standard deviation instead of the
  sample one, 1/R instead of 1/(R+1), ...): each check recognises the value such a mistake gives and names it;
* any other wrong value: a hint, without giving the answer away.

A number rounded to the decimals a student chose is accepted too, when it keeps at least :data:`MIN_SIGNIFICANT`
(2) significant figures and is correctly rounded (``cosine(0.31, ...)`` for 0.3052); one unit off in that last
decimal is named a rounding slip, not a wrong method. Otherwise numbers are compared with a relative tolerance of
:data:`RTOL` (1e-3): the lessons' values are float64
computations that agree to about 1e-12 whichever way they are written (``np.mean`` or a sum divided by n), so
1e-3 only accepts an answer rounded to 4 significant figures, and it still separates the closest mistake the
checks recognise (the population against the sample standard deviation: a factor sqrt(N/(N − 1)), at least 1.001
for N < 500 target words).

Grading: set the environment variable ``WORDBIAS_CHECKS_STRICT=1`` (e.g. in nbgrader's autograder) and a failed
check raises :class:`CheckFailed` (an ``AssertionError``) with its message, so that a check cell counts as a test.
"""

from __future__ import annotations

import html
import math
import numbers
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core import lookup
from wordbias.core.errors import CheckFailed, InvalidParameterError
from wordbias.core.vectors import cosine_matrix
from wordbias.measures import weat as _weat

__all__ = ["RTOL", "STRICT_ENV", "CheckResult", "number", "choice", "word_list", "cosine",
           "association", "test_statistic", "effect_size", "monte_carlo_floor", "exact_floor", "two_sided",
           "most_influential", "angle", "same_set", "differ_in_frequency",
           "significant_associations"]

#: relative tolerance of a numeric answer (see the module docstring)
RTOL = 1e-3
#: absolute tolerance, for answers whose right value is 0 or nearly
ATOL = 1e-9
#: the environment variable that makes a failed check raise :class:`CheckFailed`
STRICT_ENV = "WORDBIAS_CHECKS_STRICT"

_ICON = {"correct": "✔", "wrong": "✘", "unanswered": "✎", "invalid": "✘"}
_COLOUR = {"correct": ("#e7f5e9", "#2e7d32"), "wrong": ("#fdecea", "#c62828"),
           "unanswered": ("#fff8e1", "#8d6e00"), "invalid": ("#fdecea", "#c62828")}
STATUSES = tuple(_ICON)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check: ``passed``, the ``message`` shown to the student, its ``status`` ("correct",
    "wrong", "unanswered" for the untouched placeholder, "invalid" for an answer of the wrong kind) and the
    ``exercise`` it belongs to. ``expected`` keeps the right answer for the teacher (it is not shown)."""

    exercise: str
    passed: bool
    message: str
    status: str
    expected: object = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return f"{_ICON[self.status]} {self.exercise}: {self.message}"

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        background, border = _COLOUR[self.status]
        return (f'<div style="background:{background};border-left:4px solid {border};padding:6px 10px;'
                f'margin:4px 0;font-family:sans-serif"><b>{_ICON[self.status]} {html.escape(self.exercise)}</b>: '
                f"{html.escape(self.message)}</div>")


def _strict() -> bool:
    return os.environ.get(STRICT_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _report(exercise: str, status: str, message: str, expected=None) -> CheckResult:
    """Print the result, raise in strict mode if it failed, and return it."""
    result = CheckResult(exercise, status == "correct", message, status, expected)
    print(result)
    if not result.passed and _strict():
        raise CheckFailed(str(result))
    return result


def _is_placeholder(value) -> bool:
    """The untouched ``...`` (also inside a list or tuple, or as the string '...')."""
    if value is Ellipsis or (isinstance(value, str) and value.strip() in ("...", "…")):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(v is Ellipsis for v in value)
    return False


def _fill_in(exercise: str, what: str, expected=None) -> CheckResult:
    return _report(exercise, "unanswered", f"fill in ...: replace the ... with {what}, then run this cell again.",
                   expected)


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


# --------------------------------------------------------------------------------------------------
# generic checks
# --------------------------------------------------------------------------------------------------

def number(value, expected: float, *, exercise: str, what: str, hint: str,
           mistakes: Iterable[tuple[float, str]] = (), rtol: float = RTOL, atol: float = ATOL) -> CheckResult:
    """Check a numeric answer against ``expected`` (computed by the caller from the data).

    ``what`` describes the answer ("the cosine of rose and love"); ``hint`` is shown for a wrong value that is
    no recognised mistake; ``mistakes`` pairs the value a common mistake gives with the message naming it (the
    first that matches is shown; a mistake that happens to equal the right answer is ignored).

    Examples
    --------
    >>> r = number(0.5, 0.5, exercise="half", what="one half", hint="divide by two")
    ✔ half: right: 0.5 is one half.
    >>> bool(number(2.0, 0.5, exercise="half", what="one half", hint="divide by two",
    ...             mistakes=[(2.0, "you multiplied by four")]))
    ✘ half: not yet: you multiplied by four
    False
    """
    if _is_placeholder(value):
        return _fill_in(exercise, what, expected)
    x = _as_number(value)
    if x is None:
        return _report(exercise, "invalid", f"expected a number ({what}), got {type(value).__name__} "
                                            f"{str(value)[:60]!r}.", expected)
    if not math.isfinite(x):
        return _report(exercise, "invalid", f"{x} is not a finite number; {hint}", expected)
    if _close(x, expected, rtol, atol):
        return _report(exercise, "correct", f"right: {x:.4g} is {what}.", expected)
    for wrong, message in mistakes:
        if wrong is not None and math.isfinite(wrong) and not _close(wrong, expected, rtol, atol) \
                and _close(x, wrong, rtol, atol):
            return _report(exercise, "wrong", f"not yet: {message}", expected)
    rounded = _rounding(value, x, expected)
    if rounded and any(w is not None and math.isfinite(w) and _rounding(value, x, w) == "right"
                       and not _close(w, expected, rtol, atol) for w, _ in mistakes):
        return _report(exercise, "wrong", f"not yet: rounded to {_decimals(value, x)} decimals, {x:g} could also come "
                                          "from a common mistake; keep more decimals.", expected)
    if rounded == "right":
        return _report(exercise, "correct", f"right: {x:g} is {what}, rounded to {_decimals(value, x)} decimals.",
                       expected)
    if rounded == "slip":
        return _report(exercise, "wrong", f"almost: {x:g} differs from {what} only in its last decimal: check your "
                                          "rounding (round, do not cut off), or keep more decimals.", expected)
    return _report(exercise, "wrong", f"not yet: {x:.4g} is not {what}. Hint: {hint}", expected)


#: the fewest significant figures a rounded answer must keep to be accepted (0.31 for 0.3052, not 0.3)
MIN_SIGNIFICANT = 2


def _decimals(value, x: float) -> int:
    """The decimals the student wrote: those of the shortest repr of the number (0.31 -> 2, 1.5e-05 -> 6)."""
    text = repr(float(x)).lower()
    mantissa, _, exponent = text.partition("e")
    places = len(mantissa.partition(".")[2].rstrip("0")) if "." in mantissa else 0
    return max(0, places - int(exponent or 0))


def _rounding(value, x: float, expected: float) -> str:
    """``"right"`` when ``x`` is ``expected`` correctly rounded to the decimals the student wrote, keeping at
    least :data:`MIN_SIGNIFICANT` significant figures; ``"slip"`` when it is one unit off in that last decimal (a
    rounding slip: cut off instead of rounded, or rounded twice); ``""`` otherwise."""
    if not math.isfinite(expected) or expected == 0:
        return ""
    d = _decimals(value, x)
    magnitude = math.floor(math.log10(abs(expected)))        # 0.3052 -> -1: its first significant digit
    if d - (-magnitude - 1) < MIN_SIGNIFICANT:                 # too few significant figures kept
        return ""
    unit = 10.0 ** -d
    if math.isclose(x, round(expected, d), rel_tol=0, abs_tol=unit / 100):
        return "right"
    if abs(x - expected) < 1.5 * unit:
        return "slip"
    return ""


def choice(answer, correct: str, options: Mapping[str, str], *, exercise: str) -> CheckResult:
    """Check a multiple-choice answer (a letter such as ``"b"``, case and spaces ignored).

    ``options`` maps each letter to the explanation shown when that letter is chosen: why it is right (for
    ``correct``) or why not.

    Examples
    --------
    >>> _ = choice("B", "b", {"a": "no: ...", "b": "yes: ..."}, exercise="q")
    ✔ q: yes: ...
    """
    keys = {k.strip().lower(): v for k, v in options.items()}
    correct = correct.strip().lower()
    if correct not in keys:
        raise InvalidParameterError(f"correct answer {correct!r} is not one of the options {sorted(keys)}")
    if _is_placeholder(answer):
        return _fill_in(exercise, f"one letter in quotes, one of {sorted(keys)}", correct)
    if not isinstance(answer, str) or answer.strip().lower() not in keys:
        return _report(exercise, "invalid", f"answer with one letter in quotes, one of {sorted(keys)}; got "
                                            f"{str(answer)[:40]!r}.", correct)
    letter = answer.strip().lower()
    return _report(exercise, "correct" if letter == correct else "wrong",
                   keys[letter] if letter == correct else f"not this one: {keys[letter]}", correct)


def word_list(words, embedding, *, what: str, exercise: str = "word list", min_size: int = 2,
              other: Sequence[str] = (), other_name: str = "the other list") -> CheckResult:
    """Check a student's word list: a list of distinct strings (not one string), at least ``min_size`` words,
    every word in ``embedding`` (the unknown ones named), none also in ``other``.

    Examples
    --------
    >>> emb = {"rose": [1.0, 0.0], "tulip": [0.9, 0.1], "ant": [0.0, 1.0]}
    >>> _ = word_list(["rose", "daisy"], emb, exercise="flowers", what="flowers")
    ✘ flowers: not yet: 1 word(s) not in the embedding: ['daisy'] (it has no vector for them; try other words, in lower case for an uncased embedding).
    """
    if _is_placeholder(words):
        return _fill_in(exercise, f"a list of words in quotes ({what}), e.g. [\"word1\", \"word2\"]")
    try:
        words = lookup.check_word_list(what, words)
    except InvalidParameterError as err:
        return _report(exercise, "invalid", f"{err}.")
    if len(words) < min_size:
        return _report(exercise, "wrong", f"not yet: {what} needs at least {min_size} words; it has {len(words)}.")
    _, missing = lookup.present(embedding, words)
    if missing:
        return _report(exercise, "wrong", f"not yet: {len(missing)} word(s) not in the embedding: {list(missing)} "
                                          "(it has no vector for them; try other words, in lower case for an uncased "
                                          "embedding).")
    shared = [w for w in words if w in set(other)]
    if shared:
        return _report(exercise, "wrong", f"not yet: {shared} also in {other_name}; a word may be in only one of "
                                          "the two lists.")
    return _report(exercise, "correct", f"right: {len(words)} words, all in the embedding, none in {other_name}.")


# --------------------------------------------------------------------------------------------------
# lesson 1: the WEAT by hand (Caliskan, Bryson & Narayanan 2017, Methods)
# --------------------------------------------------------------------------------------------------

def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def cosine(value, u, v, *, exercise: str = "cosine similarity") -> CheckResult:
    """cos(u, v) = u·v / (‖u‖ ‖v‖) (Caliskan et al. 2017, Supplementary, "Cosine similarity"). Recognises the
    dot product, the dot product divided by one length only, and the cosine *distance* 1 − cos (SciPy's
    ``scipy.spatial.distance.cosine``)."""
    u, v = np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64)
    dot = float(u @ v)
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    expected = float(cosine_matrix(u[None, :], v[None, :])[0, 0])
    return number(value, expected, exercise=exercise, what="the cosine similarity", hint="u·v / (‖u‖ ‖v‖): "
                  "np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v)).",
                  mistakes=[(dot, "that is the dot product u·v; divide it by both lengths ‖u‖ ‖v‖."),
                            (dot / nu, "you divided by one length only; divide by ‖u‖ and by ‖v‖."),
                            (dot / nv, "you divided by one length only; divide by ‖u‖ and by ‖v‖."),
                            (1.0 - expected, "that is the cosine distance 1 − cos (scipy's `cosine`); the "
                                             "similarity is 1 minus it.")])


def association(value, w, A, B, *, exercise: str = "s(w, A, B)") -> CheckResult:
    """s(w, A, B) = mean_a cos(w, a) − mean_b cos(w, b) (Caliskan et al. 2017, Methods), ``w`` one vector,
    ``A``, ``B`` matrices of attribute vectors (rows). Recognises A and B swapped, sums instead of means, the
    mean over A alone, and dot products instead of cosines."""
    w = np.asarray(w, dtype=np.float64)[None, :]
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    ca, cb = cosine_matrix(w, A)[0], cosine_matrix(w, B)[0]
    expected = float(_weat.association(w, A, B)[0])
    dots = float((w @ A.T).mean() - (w @ B.T).mean())
    return number(value, expected, exercise=exercise, what="s(w, A, B)",
                  hint="the mean of the cosines of w with the words of A, minus the mean with the words of B.",
                  mistakes=[(-expected, "the sign is flipped: it is mean over A minus mean over B."),
                            (float(ca.sum() - cb.sum()), "you summed the cosines; s(w, A, B) uses their means."),
                            (float(ca.mean()), "that is only the mean over A; subtract the mean over B."),
                            (dots, "those are dot products; use cosines (divide by the lengths).")])


def test_statistic(value, s_x, s_y, *, exercise: str = "test statistic") -> CheckResult:
    """s(X, Y, A, B) = Σ_x s(x, A, B) − Σ_y s(y, A, B) (Caliskan et al. 2017, Methods). Recognises the
    difference of the means and the flipped sign."""
    s_x, s_y = np.asarray(s_x, dtype=np.float64), np.asarray(s_y, dtype=np.float64)
    expected = _weat.test_statistic(s_x, s_y)
    return number(value, expected, exercise=exercise, what="s(X, Y, A, B)",
                  hint="the sum of s(x, A, B) over X minus the sum of s(y, A, B) over Y.",
                  mistakes=[(float(s_x.mean() - s_y.mean()), "that is the difference of the means; the test "
                                                             "statistic uses sums."),
                            (-expected, "the sign is flipped: X's sum minus Y's sum.")])


test_statistic.__test__ = False  # not a pytest test


def effect_size(value, s_x, s_y, *, exercise: str = "effect size d") -> CheckResult:
    """d = [mean_X s − mean_Y s] / std-dev_{w ∈ X∪Y} s (Caliskan et al. 2017, Methods; sample standard
    deviation, as :func:`wordbias.measures.weat.effect_size`). Recognises the population standard deviation,
    the flipped sign, the undivided mean difference and the pooled within-group standard deviation (Cohen's d)."""
    s_x, s_y = np.asarray(s_x, dtype=np.float64), np.asarray(s_y, dtype=np.float64)
    expected = _weat.effect_size(s_x, s_y, ddof=1)
    diff = float(s_x.mean() - s_y.mean())
    nx, ny = s_x.size, s_y.size
    pooled_within = math.sqrt(((nx - 1) * s_x.var(ddof=1) + (ny - 1) * s_y.var(ddof=1)) / (nx + ny - 2))
    return number(value, expected, exercise=exercise, what="the effect size d",
                  hint="(mean of s over X − mean of s over Y) / the standard deviation of s over all the target "
                       "words of X and Y together (np.std(..., ddof=1)).",
                  mistakes=[(_weat.effect_size(s_x, s_y, ddof=0), "that uses the population standard deviation "
                             "(np.std's default, ddof=0); the paper uses the sample one: np.std(s, ddof=1)."),
                            (-expected, "the sign is flipped: mean over X minus mean over Y."),
                            (diff, "that is the difference of the means; divide it by the standard deviation."),
                            (diff / pooled_within, "that divides by the pooled within-group standard deviation "
                             "(Cohen's d); the WEAT divides by the standard deviation of all target words "
                             "together.")])


# --------------------------------------------------------------------------------------------------
# lesson 2: significance (permutation tests) and size
# --------------------------------------------------------------------------------------------------

def monte_carlo_floor(value, n_permutations: int, *, exercise: str = "Monte Carlo floor") -> CheckResult:
    """The smallest p a Monte Carlo permutation test with R random permutations can report under the add-one
    rule, 1/(R + 1) (:class:`wordbias.core.permutation.TailProbability`'s ``resolution``). 1/R and 1/(R + 1)
    differ by the factor 1 + 1/R, so the tolerance here is 0.1/(R + 1) relative (not :data:`RTOL`): the answer
    computed in Python passes, and a value typed by hand must keep enough digits to be told from 1/R."""
    R = int(n_permutations)
    return number(value, 1.0 / (R + 1), rtol=min(RTOL, 0.1 / (R + 1)), exercise=exercise,
                  what=f"the smallest Monte Carlo p with R = {R:,}",
                  hint="the observed labelling counts as one of the permutations (the add-one rule).",
                  mistakes=[(1.0 / R, "that is 1/R; the observed labelling is counted too: 1/(R + 1)."),
                            (0.0, "under the add-one rule a Monte Carlo p is never 0: at least 1/(R + 1).")])


def exact_floor(value, n_x: int, n_y: int, *, exercise: str = "exact floor") -> CheckResult:
    """The smallest exact one-sided permutation p with |X| = n_x, |Y| = n_y: one partition of C(n_x + n_y, n_x)
    (:func:`wordbias.measures.weat.smallest_p`)."""
    n = n_x + n_y
    return number(value, _weat.smallest_p(n_x, n_y), exercise=exercise,
                  what=f"the smallest exact p with |X| = {n_x}, |Y| = {n_y}",
                  hint="count the ways to choose which n_x of the n_x + n_y words form X: math.comb.",
                  mistakes=[(1.0 / math.factorial(n), "that counts orderings of the words (n!); a partition "
                                                      "ignores order: C(n_x + n_y, n_x)."),
                            (1.0 / 2 ** n, "that counts every subset (2^n); X keeps its size: C(n_x + n_y, n_x)."),
                            (2.0 * _weat.smallest_p(n_x, n_y), "that is the two-sided floor; the one-sided test "
                                                                "has one extreme partition.")])


def two_sided(value, p_greater: float, p_less: float, *, exercise: str = "two-sided p") -> CheckResult:
    """The two-sided p from the two one-sided ones: min(1, 2·min(p_greater, p_less)), the doubling rule of
    :func:`scipy.stats.permutation_test` (:mod:`wordbias.core.permutation`)."""
    expected = min(1.0, 2.0 * min(p_greater, p_less))
    return number(value, expected, exercise=exercise, what="the two-sided p",
                  hint="double the smaller of the two one-sided p, and keep the result at most 1.",
                  mistakes=[(2.0 * min(p_greater, p_less), "a probability is at most 1: cap the doubled p at 1."),
                            (min(p_greater, p_less), "that is the smaller one-sided p; the two-sided p doubles it."),
                            (min(1.0, 2.0 * max(p_greater, p_less)), "you doubled the larger tail; double the "
                                                                      "smaller one.")])


# --------------------------------------------------------------------------------------------------
# lesson 3: word lists (Antoniak & Mimno 2021)
# --------------------------------------------------------------------------------------------------

def most_influential(answer, influence, *, exercise: str = "most influential word") -> CheckResult:
    """The word whose removal moves d the most (:meth:`wordbias.measures.sensitivity.Influence.top`)."""
    top = influence.top(1)
    expected = str(top.word[0])
    if _is_placeholder(answer):
        return _fill_in(exercise, "one word in quotes", expected)
    if not isinstance(answer, str):
        return _report(exercise, "invalid", f"answer with one word in quotes; got {type(answer).__name__}.", expected)
    frame = influence.to_frame()
    rows = frame[frame.word == answer.strip()]
    if rows.empty:
        return _report(exercise, "wrong", f"not yet: {answer.strip()!r} is not a word of this test; look at the "
                                          "influence table's `word` column.", expected)
    if answer.strip() == expected:
        return _report(exercise, "correct", f"right: without {expected!r} d changes by {top.change[0]:+.2f}, more "
                                            "than without any other word.", expected)
    change = float(rows.change.iloc[0])
    return _report(exercise, "wrong", f"not yet: without {answer.strip()!r} d changes by {change:+.2f}; another "
                                      "word moves it more (compare |change|, the size, not the sign).", expected)


# --------------------------------------------------------------------------------------------------
# lesson 4: a bias direction (the racial-bias report)
# --------------------------------------------------------------------------------------------------

def angle(value, cosine_value: float, *, exercise: str = "angle") -> CheckResult:
    """The angle in degrees between two directions with cosine ``cosine_value``: arccos, in degrees (the
    report's "linear scale"). Recognises radians and 90° minus the angle."""
    c = float(np.clip(cosine_value, -1.0, 1.0))
    expected = math.degrees(math.acos(c))
    return number(value, expected, exercise=exercise, what="the angle in degrees",
                  hint="np.degrees(np.arccos(cosine)).",
                  mistakes=[(math.acos(c), "that is in radians; convert with np.degrees."),
                            (90.0 - expected, "that is 90° minus the angle (arcsin, not arccos).")])


def same_set(answer, expected: Iterable[str], *, exercise: str, what: str) -> CheckResult:
    """A list of names (tests, words) that must be exactly ``expected`` (order ignored): names the missing and
    the extra items.

    Examples
    --------
    >>> _ = same_set(["WEAT7"], ["WEAT7", "WEAT9"], exercise="q", what="the tests whose interval includes 0")
    ✘ q: not yet: missing ['WEAT9'].
    """
    expected = list(dict.fromkeys(expected))
    if _is_placeholder(answer):
        return _fill_in(exercise, f"a list of names in quotes ({what}); [] if there are none", expected)
    if isinstance(answer, str) or not isinstance(answer, Iterable) or not all(isinstance(a, str) for a in answer):
        return _report(exercise, "invalid", f"expected a list of names in quotes ({what}), e.g. [\"WEAT1\"]; got "
                                            f"{str(answer)[:60]!r}.", expected)
    given = [a.strip() for a in answer]
    missing = [e for e in expected if e not in given]
    extra = [g for g in given if g not in expected]
    if not missing and not extra:
        return _report(exercise, "correct", f"right: {what}: {expected if expected else 'none'}.", expected)
    parts = ([f"missing {missing}"] if missing else []) + ([f"{extra} should not be there"] if extra else [])
    return _report(exercise, "wrong", f"not yet: {'; '.join(parts)}.", expected)


def differ_in_frequency(answer, report, *, exercise: str = "frequency") -> CheckResult:
    """Do the two target sets differ in frequency (:attr:`wordbias.measures.frequency.FrequencyReport.flagged`:
    two-sided Mann-Whitney p of their ranks below alpha)? ``answer`` is True or False."""
    truth = report.flagged
    if _is_placeholder(answer):
        return _fill_in(exercise, "True or False", truth)
    if not isinstance(answer, (bool, np.bool_)):
        return _report(exercise, "invalid", f"answer True or False (no quotes); got {str(answer)[:40]!r}.", truth)
    p = f"the Mann-Whitney p of the two sets' frequency ranks is {report.mann_whitney_p:.2g}"
    if bool(answer) == truth:
        return _report(exercise, "correct", f"right: {p}, {'below' if truth else 'not below'} {report.alpha}.", truth)
    return _report(exercise, "wrong", f"not yet: {p}; compare it with {report.alpha}.", truth)


def significant_associations(value, summary, *, run: str = "first names",
                             exercise: str = "significant associations") -> CheckResult:
    """The number of significant associations of one UBE run, read from
    :func:`wordbias.papers.swinger2019.ube_summary` (Swinger et al. 2019, Table 4). Recognises the number of
    tests."""
    if run not in summary.index:
        raise InvalidParameterError(f"run {run!r} is not in the summary; runs: {list(summary.index)}")
    row = summary.loc[run]
    return number(value, float(row["significant associations"]), exercise=exercise,
                  what=f"the number of significant associations ({run})",
                  hint="read the `significant associations` column of the summary.",
                  mistakes=[(float(row["tests"]), "that is the number of tests; how many of them are significant?")])
