"""A test measured once, with everything a reader needs: :func:`weat` (``wordbias.weat``), :func:`wefat`
(``wordbias.wefat``), :func:`weats` (a battery of WEATs with adjusted p) and their :class:`Measurement`.

:func:`wordbias.measures.weat.weat` computes the statistic, d and one p-value; a researcher also needs the
interval, the two-sided p, and what happened to each word list. :func:`weat` runs the test once and returns a
:class:`Measurement` that carries all of it: d (Caliskan et al. 2017, Methods) with its bootstrap interval
(:func:`wordbias.measures.bootstrap.weat_bootstrap`), the permutation p one- and two-sided with their method
(and, when asked, by other methods too: ``p_values``), per set the words asked for, used, missing from the
vocabulary and balanced out, the coverage and its flag, and the warnings the test gave. Printing it, showing it
in a notebook (``_repr_html_``), :meth:`Measurement.to_frame`, the tidy rows of :mod:`wordbias.battery` and the
papers' tables (:mod:`wordbias.papers.caliskan2017`) are views of those values; none recomputes.

Examples
--------
>>> import numpy as np
>>> from wordbias.embeddings import to_keyed_vectors
>>> words = ["rose", "tulip", "lily", "ant", "wasp", "moth", "love", "joy", "hate", "ugly"]
>>> V = np.array([[1, .1], [.9, .3], [.8, .2], [.1, 1], [.2, .8], [.3, .9], [1, 0], [.9, .1], [0, 1], [.1, .9]])
>>> kv = to_keyed_vectors(words, V.astype(np.float32))
>>> r = weat(kv, words[:3], words[3:6], words[6:8], words[8:], n_resamples=1000)
>>> round(r.effect_size, 3), r.p_method, round(r.p_value, 3), round(r.p_two_sided, 3)
(1.807, 'exact', 0.05, 0.1)
>>> print(r)                                              # doctest: +NORMALIZE_WHITESPACE
WEAT: X vs Y, A vs B
  d = 1.807, 95% CI [1.80, 1.81] (BCa 95%, 1,000 resamples of XYAB)
  p = 0.05 one-sided (greater, exact), 0.1 two-sided
  words found/asked: X 3/3, Y 3/3, A 2/2, B 2/2
  note: low coverage: X 3/3 (below 4 words), Y 3/3 (below 4 words), A 2/2 (below 4 words), B 2/2 (below 4 words)
  note: target sets 'X' (3 words) and 'Y' (3 words) are so small that the smallest attainable p is 1/C(6, 3) =
  0.05 >= alpha = 0.05: the test cannot reach significance (p < alpha)

The interval's bounds carry two decimals here because 1,000 resamples pin so narrow an interval that well
(:func:`wordbias.core.tables.interval_digits`; one when they do not).
"""
from __future__ import annotations

import dataclasses
import html
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from wordbias.core import multiple
from wordbias.core.errors import (
    DegenerateSetError,
    InvalidParameterError,
    LowCoverageWarning,
    LowPowerWarning,
    TooCostlyError,
)
from wordbias.core.tables import interval_bounds_text
from wordbias.core.tidy import (
    MIN_FRACTION,
    MIN_WORDS,
    check_coverage_thresholds,
    coverage,
    coverage_flag,
    not_run_note,
    part_missing_note,
)
from wordbias.core.validation import check_bool, check_int, check_probability, check_seed
from wordbias.datasets import stimuli

__all__ = ["MIN_WORDS", "MIN_FRACTION", "NOT_RUN_ERRORS", "Caught", "SetCoverage", "Measurement", "weat",
           "weats", "wefat", "wefats", "adjusted", "low_coverage", "weat_result"]

#: the errors that make one test of a battery not run (a result with NaN numbers and the reason in
#: ``not_run``) rather than stop the battery: a list left too small (``DegenerateSetError`` is a ``ValueError``),
#: a word with no vector
NOT_RUN_ERRORS = (ValueError, KeyError)
#: the errors that leave a test without its interval (d and p stand): a set too small to resample, a
#: bootstrap too costly to run
NO_INTERVAL_ERRORS = (DegenerateSetError, TooCostlyError, ValueError)


def low_coverage(kept: int, asked: int, *, min_words: int = MIN_WORDS, min_fraction: float = MIN_FRACTION) -> bool:
    """Whether a set that kept ``kept`` of the ``asked`` words of its list is too depleted to trust: the one
    rule of :func:`wordbias.core.tidy.coverage_flag` (fewer than :data:`~wordbias.core.tidy.MIN_WORDS` words,
    or less than :data:`~wordbias.core.tidy.MIN_FRACTION` of the list; the reasons are given there).

    Examples
    --------
    >>> low_coverage(1, 12), low_coverage(5, 25), low_coverage(4, 8), low_coverage(3, 3)
    (True, True, False, True)
    """
    return coverage_flag(kept, asked, min_words=min_words, min_fraction=min_fraction)


class Caught(NamedTuple):
    """A warning a test gave: its class and its message (``str()`` is the message)."""

    category: type
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class SetCoverage:
    """One word set of a test: its letter and name, the words asked for, used, missing from the vocabulary
    and deleted to balance the target sets."""

    letter: str
    name: str
    asked: tuple[str, ...]
    used: tuple[str, ...]
    missing: tuple[str, ...] = ()
    balanced_out: tuple[str, ...] = ()

    @property
    def in_vocabulary(self) -> int:
        """Words of the list found in the embedding (used + balanced out)."""
        return len(self.asked) - len(self.missing)

    def text(self) -> str:
        """``X 5/25``: words found in the vocabulary / words asked for."""
        return f"{self.letter} {self.in_vocabulary}/{len(self.asked)}"


@dataclass(frozen=True)
class Measurement:
    """A test measured once: the statistic and effect size with its interval, p one- and two-sided with their
    method (``p_values``: the one-sided p by every method computed, method -> :class:`~wordbias.core.permutation.
    PValue`), Holm's and Benjamini-Hochberg's adjusted p over its family when it was measured in one
    (:func:`weats`), the word sets (:class:`SetCoverage`), coverage flags, warnings, the parameters used, and the
    measure's own result object (``result``: e.g. the per-word scores). A test that could not run has NaN numbers
    and the reason in ``not_run``. Views: ``str(r)``, ``r._repr_html_()``, :meth:`to_frame`, :meth:`to_dict`."""

    measure: str
    title: str
    statistic_name: str
    statistic: float
    effect_size_name: str
    effect_size: float
    ci_low: float
    ci_high: float
    ci_level: float
    ci_method: str
    p_value: float
    alternative: str
    p_method: str
    p_two_sided: float
    n_permutations: int | None
    n_resamples: int
    seed: int
    sets: tuple[SetCoverage, ...]
    flagged: tuple[str, ...] = ()
    warnings: tuple[Caught, ...] = ()
    notes: tuple[str, ...] = ()
    result: object = field(default=None, repr=False, compare=False)
    test: str = ""
    effect_size_se: float = math.nan
    p_values: Mapping = field(default_factory=dict, repr=False, compare=False)
    p_holm: float = math.nan
    p_bh: float = math.nan
    p_family: str | None = None
    not_run: str | None = None
    interval: object = field(default=None, repr=False, compare=False)

    @property
    def low_coverage(self) -> bool:
        """Whether any set kept too few of its words (:func:`low_coverage`; the sets, with why, in
        ``flagged``)."""
        return bool(self.flagged)

    @property
    def coverage(self) -> str:
        """Per set, words found / asked: ``"X 5/25; Y 24/25; A 8/8; B 8/8"``."""
        return "; ".join(s.text() for s in self.sets)

    @property
    def dropped(self) -> str:
        """The words left out, per set: ``"X: w1 w2; A: w3; X balanced out: w4"`` (missing from the vocabulary
        first, then those deleted to balance the target sets); ``""`` when none."""
        parts = [f"{s.letter}: {' '.join(s.missing)}" for s in self.sets if s.missing]
        parts += [f"{s.letter} balanced out: {' '.join(s.balanced_out)}" for s in self.sets if s.balanced_out]
        return "; ".join(parts)

    @property
    def all_notes(self) -> tuple[str, ...]:
        """Every note, in the order a reader needs them: why the test did not run, its low coverage
        (``"low coverage: X 5/25 (below 50% of the list)"``), a missing part (``"no bootstrap interval: ..."``)
        and the low-power warnings."""
        cov = ("low coverage: " + ", ".join(self.flagged),) if self.flagged else ()
        return ((self.not_run,) if self.not_run else ()) + cov + self.notes

    def warned(self, category: type = LowPowerWarning) -> tuple[str, ...]:
        """The messages of the warnings of ``category`` the test gave, each once, in order."""
        return tuple(dict.fromkeys(w.message for w in self.warnings if issubclass(w.category, category)))

    def _interval(self) -> str:
        """``95% CI [0.63, 1.44] (BCa 95%, ...)``, the bounds carrying no more decimals than their Monte Carlo
        error supports (:func:`wordbias.core.tables.interval_digits`)."""
        if not (math.isfinite(self.ci_low) and math.isfinite(self.ci_high)):
            return "no interval"
        bounds = interval_bounds_text(self.ci_low, self.ci_high, level=self.ci_level, n_resamples=self.n_resamples)
        return f"{self.ci_level:.0%} CI {bounds} ({self.ci_method})"

    def __str__(self) -> str:
        head = f"{self.measure.upper()}: {self.title}"
        if self.not_run:
            return "\n".join([head, f"  {self.not_run}", "  words found/asked: " + ", ".join(
                s.text() for s in self.sets)])
        lines = [head,
                 f"  {self.effect_size_name} = {self.effect_size:.3f}, {self._interval()}",
                 f"  p = {_p(self.p_value)} one-sided ({self.alternative}, {self.p_method}), "
                 f"{_p(self.p_two_sided)} two-sided" if self.alternative != "two-sided"
                 else f"  p = {_p(self.p_value)} two-sided ({self.p_method})",
                 "  words found/asked: " + ", ".join(s.text() for s in self.sets)
                 + ("; used after balancing: " + "/".join(str(len(s.used)) for s in self.sets)
                    if any(s.balanced_out for s in self.sets) else "")]
        if math.isfinite(self.p_holm):
            lines.append(f"  adjusted p: Holm {_p(self.p_holm)}, Benjamini-Hochberg {_p(self.p_bh)} "
                         f"({self.p_family})")
        for s in self.sets:
            if s.missing:
                lines.append(f"  {s.letter} missing: {_words(s.missing)}")
            if s.balanced_out:
                lines.append(f"  {s.letter} balanced out: {_words(s.balanced_out)}")
        lines += [f"  note: {n}" for n in self.all_notes]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        if self.not_run:
            rows = [("not run", self.not_run), ("words found / asked", self.coverage)]
        else:
            rows = [("effect size", f"{self.effect_size_name} = {self.effect_size:.3f}"),
                    ("interval", self._interval()),
                    ("p", f"{_p(self.p_value)} one-sided ({self.alternative}, {self.p_method}); "
                          f"{_p(self.p_two_sided)} two-sided"),
                    ("words found / asked", self.coverage)]
        rows += [(f"{s.letter} missing", _words(s.missing)) for s in self.sets if s.missing]
        rows += [(f"{s.letter} balanced out", _words(s.balanced_out)) for s in self.sets if s.balanced_out]
        rows += [("note", n) for n in self.all_notes if n != self.not_run]
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in rows)
        return f"<table><caption>{html.escape(self.measure.upper() + ': ' + self.title)}</caption>{body}</table>"

    def to_dict(self) -> dict:
        """One flat row: the numbers, the coverage, the words dropped, the notes (the columns of
        :mod:`wordbias.core.tidy` where they exist)."""
        sizes = {f"n_{s.letter.lower()}": len(s.used) for s in self.sets}
        notes = self.all_notes
        return {"test": self.test or None, "measure": self.measure, "title": self.title, **sizes,
                "statistic_name": self.statistic_name, "statistic": self.statistic,
                "effect_size_name": self.effect_size_name, "effect_size": self.effect_size,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "ci_level": self.ci_level,
                "ci_method": self.ci_method, "p_value": self.p_value, "alternative": self.alternative,
                "p_method": self.p_method, "p_two_sided": self.p_two_sided, "p_holm": self.p_holm,
                "p_bh": self.p_bh, "p_family": self.p_family, "n_permutations": self.n_permutations,
                "n_resamples": self.n_resamples, "seed": self.seed, "coverage": self.coverage,
                "low_coverage": self.low_coverage, "dropped": self.dropped or None,
                "note": "; ".join(notes) or None}

    def to_frame(self):
        """:meth:`to_dict` as a one-row :class:`pandas.DataFrame`."""
        import pandas as pd

        return pd.DataFrame([self.to_dict()])


def _p(p: float) -> str:
    return "NA" if p is None or not math.isfinite(p) else (f"{p:.2g}" if p < 1e-3 else f"{p:.3g}")


def _words(words: Sequence[str], limit: int = 12) -> str:
    return " ".join(words[:limit]) + (f" ... ({len(words) - limit} more)" if len(words) > limit else "")


def _ci_text(interval) -> str:
    """How an interval was computed: ``"BCa 95%, 10,000 resamples of XYAB"`` (a WEFAT's: ``"... of W (with the
    property) and A, B"``)."""
    of = "".join(interval.resampled)
    if tuple(interval.resampled) == ("W", "A", "B"):
        of = "W (with the property) and A, B"
    return f"{interval.method} {interval.confidence_level:.0%}, {interval.n_resamples:,} resamples of {of}"


def _replay(caught: Sequence[Caught]) -> None:
    for w in caught:
        warnings.warn(w.category(w.message), stacklevel=3)


def _unmeasured_sets(kv, sets: Mapping[str, Sequence[str]], case_fold: bool,
                     names: Mapping[str, str]) -> tuple[SetCoverage, ...]:
    """The sets of a test that did not run: per set, the words asked and those the embedding lacks."""
    fold = str.lower if case_fold else (lambda w: w)
    index = kv.key_to_index
    out = []
    for letter, words in sets.items():
        asked = tuple(fold(w) for w in words)
        out.append(SetCoverage(letter, names.get(letter, letter), asked, (),
                               tuple(w for w in asked if w not in index)))
    return tuple(out)


def _judge(sets: Sequence[SetCoverage], *, min_words: int, min_fraction: float):
    return coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=min_words,
                    min_fraction=min_fraction)


def _warn_low(title: str, flagged: Sequence[str]) -> Caught:
    from wordbias.core.lookup import warn_user

    text = (f"{title} ran on too few of its words: {', '.join(flagged)} (words in the vocabulary/asked); its "
            "result describes the words that survived rather than the lists it is named after")
    warn_user(LowCoverageWarning(text))
    return Caught(LowCoverageWarning, text)


def _check_options(*, n_resamples, confidence_level, min_words, min_fraction, seed):
    n_resamples = check_int("n_resamples", n_resamples, min=0)
    if n_resamples == 1:
        raise InvalidParameterError("n_resamples must be 0 (no interval) or an integer >= 2, not 1")
    min_words, min_fraction = check_coverage_thresholds(min_words, min_fraction)
    return (n_resamples, check_probability("confidence_level", confidence_level), min_words, min_fraction,
            check_seed("seed", seed))


def _load(embedding, progress: bool):
    from wordbias import embeddings as _embeddings

    return _embeddings.load(embedding, progress=progress)


def _case_fold(kv, case_fold) -> bool:
    from wordbias import embeddings as _embeddings

    return (not _embeddings.is_cased(kv)) if case_fold is None else check_bool("case_fold", case_fold)


# --------------------------------------------------------------------------------------------------
# WEAT (Caliskan et al. 2017, Methods)
# --------------------------------------------------------------------------------------------------

def _measure_weat(kv, X, Y, A, B, *, test: str, title: str | None, names, case_fold: bool, on_missing: str,
                  balance_targets: str, p_method: str, p_methods: Sequence[str], n_permutations: int,
                  alternative: str, seed: int, n_resamples: int, confidence_level: float, ci_method: str,
                  min_words: int, min_fraction: float, progress: bool) -> Measurement:
    """One WEAT on loaded vectors ``kv``, measured once: the test, the two-sided p, the p of each method in
    ``p_methods``, the bootstrap interval, the sets and the coverage. The warnings the test gave are kept in the
    result, not given again (the callers decide)."""
    from wordbias.measures import bootstrap as _bootstrap
    from wordbias.measures import weat as _weat

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _weat.weat(kv, X, Y, A, B, names=names, on_missing=on_missing, case_fold=case_fold,
                       balance_targets=balance_targets, p_method=p_method, n_permutations=n_permutations,
                       seed=seed, alternative=alternative, progress=progress)
        two = r.p if alternative == "two-sided" else _weat.p_value(
            r.s_x, r.s_y, p_method=r.p_method, n_permutations=n_permutations, seed=seed, alternative="two-sided")
        p_values = {r.p_method: r.p}
        for method in p_methods:
            if method not in p_values:
                p_values[method] = _weat.p_value(r.s_x, r.s_y, p_method=method, n_permutations=n_permutations,
                                                 seed=seed, alternative=alternative)
    kept = tuple(Caught(w.category, str(w.message)) for w in caught)
    notes, interval = [], None
    if n_resamples:
        try:
            interval = _bootstrap.weat_bootstrap(kv, r, n_resamples=n_resamples, confidence_level=confidence_level,
                                                 method=ci_method, seed=seed).effect_size
        except NO_INTERVAL_ERRORS as exc:
            notes.append(part_missing_note("bootstrap interval", exc))
    asked = [tuple(w.lower() for w in ws) if case_fold else tuple(ws) for ws in (X, Y, A, B)]
    sets = tuple(SetCoverage(letter, s.name, a, tuple(s.words), tuple(s.missing),
                             tuple(getattr(s, "balanced_out", ()) or ()))
                 for letter, s, a in zip("XYAB", (r.X, r.Y, r.A, r.B), asked))
    flagged = _judge(sets, min_words=min_words, min_fraction=min_fraction).low
    low_power = tuple(dict.fromkeys(w.message for w in kept if issubclass(w.category, LowPowerWarning)))
    return Measurement(
        measure="weat", test=test, title=title or f"{r.X.name} vs {r.Y.name}, {r.A.name} vs {r.B.name}",
        statistic_name="s(X,Y,A,B)", statistic=float(r.statistic), effect_size_name="d",
        effect_size=float(r.effect_size),
        ci_low=float(interval.low) if interval else math.nan, ci_high=float(interval.high) if interval else math.nan,
        ci_level=confidence_level, ci_method=_ci_text(interval) if interval else "none",
        effect_size_se=float(interval.standard_error) if interval else math.nan, interval=interval,
        p_value=float(r.p_value), alternative=r.alternative, p_method=r.p_method, p_two_sided=float(two.p_value),
        p_values=p_values, n_permutations=n_permutations if r.p_method == "monte-carlo" else None,
        n_resamples=n_resamples, seed=seed, sets=sets, flagged=flagged, warnings=kept,
        notes=tuple(notes) + low_power, result=r)


def _weat_not_run(kv, spec, err: BaseException, *, case_fold: bool, alternative: str, seed: int,
                  min_words: int, min_fraction: float) -> Measurement:
    """The result of a WEAT that could not run: NaN numbers, the reason, and per set the words the embedding
    lacks."""
    sets = _unmeasured_sets(kv, {r: getattr(spec, r) for r in "XYAB"}, case_fold, spec.names or {})
    return Measurement(
        measure="weat", test=spec.id, title=spec.title, statistic_name="s(X,Y,A,B)", statistic=math.nan,
        effect_size_name="d", effect_size=math.nan, ci_low=math.nan, ci_high=math.nan, ci_level=math.nan,
        ci_method="none", p_value=math.nan, alternative=alternative, p_method="none", p_two_sided=math.nan,
        n_permutations=None, n_resamples=0, seed=seed, sets=sets,
        flagged=_judge(sets, min_words=min_words, min_fraction=min_fraction).low, not_run=not_run_note(err))


def weat(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
         names: Mapping[str, str] | None = None, title: str | None = None, n_resamples: int = 10_000,
         confidence_level: float = 0.95, ci_method: str = "BCa", p_method: str = "auto",
         p_methods: Sequence[str] = (), n_permutations: int = 100_000, alternative: str = "greater",
         seed: int = 0, case_fold: bool | None = None, on_missing: str = "drop", balance_targets: str = "random",
         min_words: int = MIN_WORDS, min_fraction: float = MIN_FRACTION, progress: bool = False) -> Measurement:
    """A WEAT (Caliskan et al. 2017, Methods) measured in one call: d with its bootstrap interval, p one- and
    two-sided, and what happened to every word list.

    ``embedding`` is anything :func:`wordbias.embeddings.load` takes (a registered name, a path, a gensim
    ``KeyedVectors`` or model, a word -> vector mapping). The test is
    :func:`wordbias.measures.weat.weat` (unknown words dropped with a warning, target sets balanced at random,
    the permutation p exact where it can be counted, else Monte Carlo with ``n_permutations`` draws; the p of
    other methods too when listed in ``p_methods``, e.g. ``("monte-carlo", "normal")``, in ``r.p_values``); the
    interval is :func:`wordbias.measures.bootstrap.weat_bootstrap` over the words of the four sets
    (``n_resamples=0``: none). ``case_fold=None`` folds case for an uncased vocabulary. A set that keeps fewer
    than ``min_words`` words or less than ``min_fraction`` of its list is flagged (:func:`low_coverage`), in the
    result and with a :class:`~wordbias.core.errors.LowCoverageWarning`. ``seed`` drives the balancing, the
    Monte Carlo p and the bootstrap.
    """
    n_resamples, confidence_level, min_words, min_fraction, seed = _check_options(
        n_resamples=n_resamples, confidence_level=confidence_level, min_words=min_words, min_fraction=min_fraction,
        seed=seed)
    kv = _load(embedding, progress)
    m = _measure_weat(kv, X, Y, A, B, test="", title=title, names=names, case_fold=_case_fold(kv, case_fold),
                      on_missing=on_missing, balance_targets=balance_targets, p_method=p_method,
                      p_methods=p_methods, n_permutations=n_permutations, alternative=alternative, seed=seed,
                      n_resamples=n_resamples, confidence_level=confidence_level, ci_method=ci_method,
                      min_words=min_words, min_fraction=min_fraction, progress=progress)
    _replay(m.warnings)                                  # given again to the caller, and kept in the result
    if m.flagged:
        m = dataclasses.replace(m, warnings=m.warnings + (_warn_low(m.title, m.flagged),))
    return m


def weats(embedding, specs: Sequence, *, family: str | None = None, n_resamples: int = 10_000,
          confidence_level: float = 0.95, ci_method: str = "BCa", p_methods: Sequence[str] = (),
          n_permutations: int = 100_000, seed: int = 0, case_fold: bool | None = None, on_missing: str = "drop",
          balance_targets: str = "random", min_words: int = MIN_WORDS, min_fraction: float = MIN_FRACTION,
          progress: bool = False) -> list[Measurement]:
    """A battery of WEATs, each measured once (:func:`weat`), with Holm's and Benjamini-Hochberg's adjusted p
    over the tests that ran (:func:`wordbias.core.multiple.adjust`), the family named in ``p_family``:
    ``"<family>: the <n> WEATs with a p-value (one-sided p)"``, ``family`` naming the battery and embedding.

    ``specs`` are :class:`~wordbias.datasets.stimuli.WeatSpec` or mappings with ``id``, ``X``, ``Y``, ``A``,
    ``B`` (and optionally ``title``, ``names``): the papers' batteries
    (:func:`wordbias.datasets.stimuli.weat_tests`) and a user's YAML
    (:func:`wordbias.datasets.user_lists.load_user_lists`) alike. A test that cannot run (a list left too
    small, :data:`NOT_RUN_ERRORS`) gives a result with NaN numbers and the reason in ``not_run`` instead of
    stopping the battery. The warnings are kept in each result (not given again: the battery's views report
    them); low coverage is flagged in each result as in :func:`weat`.

    Examples
    --------
    >>> kv = {"rose": [1, 0.1], "tulip": [0.9, 0.2], "ant": [0.1, 1], "wasp": [0.2, 0.9],    # any embedding
    ...       "love": [1, 0], "hate": [0, 1]}
    >>> ok = {"id": "flowers", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    >>> bad = {"id": "none", "X": ["lily"], "Y": ["moth"], "A": ["love"], "B": ["hate"]}
    >>> a, b = weats(kv, [ok, bad], n_resamples=0)
    >>> round(a.effect_size, 3), a.p_holm == a.p_value, b.not_run[:27], b.coverage
    (1.726, True, 'not run: DegenerateSetError', 'X 0/1; Y 0/1; A 1/1; B 1/1')
    """
    n_resamples, confidence_level, min_words, min_fraction, seed = _check_options(
        n_resamples=n_resamples, confidence_level=confidence_level, min_words=min_words, min_fraction=min_fraction,
        seed=seed)
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence) or not specs:
        raise InvalidParameterError(f"specs must be a non-empty list of WEAT specs, not {type(specs).__name__}")
    specs = [stimuli.as_weat_spec(s) for s in specs]
    kv = _load(embedding, progress)
    case_fold = _case_fold(kv, case_fold)
    from wordbias.core.progress import progress_bar

    out = []
    with progress_bar(len(specs), desc="WEATs", unit="test", enabled=progress) as bar:
        for spec in specs:
            try:
                out.append(_measure_weat(
                    kv, spec.X, spec.Y, spec.A, spec.B, test=spec.id, title=spec.title, names=spec.names,
                    case_fold=case_fold, on_missing=on_missing, balance_targets=balance_targets, p_method="auto",
                    p_methods=p_methods, n_permutations=n_permutations, alternative="greater", seed=seed,
                    n_resamples=n_resamples, confidence_level=confidence_level, ci_method=ci_method,
                    min_words=min_words, min_fraction=min_fraction, progress=False))
            except NOT_RUN_ERRORS as err:
                out.append(_weat_not_run(kv, spec, err, case_fold=case_fold, alternative="greater", seed=seed,
                                         min_words=min_words, min_fraction=min_fraction))
            bar.update(1)
    n_ran = sum(math.isfinite(m.p_value) for m in out)
    what = f"the {n_ran} WEATs with a p-value (one-sided p)"
    return adjusted(out, family=f"{family}: {what}" if family else what)


def adjusted(results: Sequence[Measurement], *, family: str) -> list[Measurement]:
    """``results`` with Holm's (1979) and Benjamini-Hochberg's (1995) adjusted p over those that have a p-value
    (:func:`wordbias.core.multiple.adjust`), the family named ``family``; the others keep NaN."""
    ran = [i for i, m in enumerate(results) if math.isfinite(m.p_value)]
    out = list(results)
    if ran:
        adj = multiple.adjust(np.array([results[i].p_value for i in ran]), tests=[str(i) for i in ran],
                              family=family)
        for j, i in enumerate(ran):
            out[i] = dataclasses.replace(results[i], p_holm=float(adj.p_holm[j]), p_bh=float(adj.p_bh[j]),
                                         p_family=family)
    return out


# --------------------------------------------------------------------------------------------------
# WEFAT (Caliskan et al. 2017, Methods)
# --------------------------------------------------------------------------------------------------

def _measure_wefat(kv, W, A, B, prop, *, test: str, title: str | None, names, case_fold: bool, on_missing: str,
                   name_filter: float | None, seed: int, n_resamples: int, confidence_level: float,
                   ci_method: str, min_words: int, min_fraction: float) -> Measurement:
    """One WEFAT on loaded vectors ``kv``, measured once: Pearson's r of s(w, A, B) and the property with its
    two-sided p (:func:`wordbias.measures.wefat.wefat`), its bootstrap interval
    (:func:`wordbias.measures.bootstrap_wefat.wefat_bootstrap`), the sets and the coverage."""
    from wordbias.measures import bootstrap_wefat as _bootstrap_wefat
    from wordbias.measures import wefat as _wefat

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _wefat.wefat(kv, W, A, B, prop, names=names, on_missing=on_missing, case_fold=case_fold,
                         name_filter=name_filter)
    kept = tuple(Caught(w.category, str(w.message)) for w in caught)
    notes, interval = [], None
    if n_resamples:
        try:
            interval = _bootstrap_wefat.wefat_bootstrap(kv, r, n_resamples=n_resamples,
                                                        confidence_level=confidence_level, method=ci_method,
                                                        seed=seed)
        except NO_INTERVAL_ERRORS as exc:
            notes.append(part_missing_note("bootstrap interval", exc))
    asked = [tuple(w.lower() for w in ws) if case_fold else tuple(ws) for ws in (W, A, B)]
    used_w = tuple(r.table["word"]) if "word" in r.table else tuple(r.W.words)
    sets = (SetCoverage("W", r.W.name, asked[0], used_w, tuple(r.W.missing), tuple(r.dropped_by_filter)),
            SetCoverage("A", r.A.name, asked[1], tuple(r.A.words), tuple(r.A.missing)),
            SetCoverage("B", r.B.name, asked[2], tuple(r.B.words), tuple(r.B.missing)))
    flagged = _judge(sets, min_words=min_words, min_fraction=min_fraction).low
    low_power = tuple(dict.fromkeys(w.message for w in kept if issubclass(w.category, LowPowerWarning)))
    return Measurement(
        measure="wefat", test=test, title=title or f"{r.W.name}: {r.A.name} vs {r.B.name}",
        statistic_name="Pearson r", statistic=float(r.pearson_r), effect_size_name="r",
        effect_size=float(r.pearson_r),
        ci_low=float(interval.low) if interval else math.nan, ci_high=float(interval.high) if interval else math.nan,
        ci_level=confidence_level, ci_method=_ci_text(interval) if interval else "none",
        effect_size_se=float(interval.standard_error) if interval else math.nan, interval=interval,
        p_value=float(r.p_value), alternative="two-sided", p_method="t", p_two_sided=float(r.p_value),
        n_permutations=None, n_resamples=n_resamples, seed=seed, sets=sets, flagged=flagged,
        warnings=kept, notes=tuple(notes) + low_power, result=r)


def wefat(embedding, W: Sequence[str], A: Sequence[str], B: Sequence[str], prop, *,
          names: Mapping[str, str] | None = None, title: str | None = None, n_resamples: int = 10_000,
          confidence_level: float = 0.95, ci_method: str = "BCa", seed: int = 0, case_fold: bool | None = None,
          on_missing: str = "drop", name_filter: float | None = None, min_words: int = MIN_WORDS,
          min_fraction: float = MIN_FRACTION, progress: bool = False) -> Measurement:
    """A WEFAT (Caliskan et al. 2017, Methods) measured in one call: Pearson's r between each target word's
    association s(w, A, B) and its property ``prop`` (a mapping word -> value), with its bootstrap interval (the
    words with their property resampled as pairs, and the attribute words) and the two-sided p of the
    regression; per set the words asked for, used and missing, and the coverage (a set below ``min_words`` or
    ``min_fraction`` of its list is flagged and warned, as in :func:`weat`). ``name_filter`` (e.g. 0.2) drops
    that fraction of the least name-like target vectors first (the paper's WEFAT 2); they are listed as the W
    set's ``balanced_out``. The per-word scores are in ``r.result.table``.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = [f"job{i}" for i in range(8)] + ["she", "her", "he", "him"]
    >>> kv = to_keyed_vectors(words, rng.normal(size=(12, 5)).astype(np.float32))
    >>> prop = {w: float(i) for i, w in enumerate(words[:8])}
    >>> r = wefat(kv, words[:8], ["she", "her"], ["he", "him"], prop, n_resamples=0)
    >>> r.effect_size_name, r.coverage, r.alternative
    ('r', 'W 8/8; A 2/2; B 2/2', 'two-sided')
    """
    n_resamples, confidence_level, min_words, min_fraction, seed = _check_options(
        n_resamples=n_resamples, confidence_level=confidence_level, min_words=min_words, min_fraction=min_fraction,
        seed=seed)
    kv = _load(embedding, progress)
    m = _measure_wefat(kv, W, A, B, prop, test="", title=title, names=names, case_fold=_case_fold(kv, case_fold),
                       on_missing=on_missing, name_filter=name_filter, seed=seed, n_resamples=n_resamples,
                       confidence_level=confidence_level, ci_method=ci_method, min_words=min_words,
                       min_fraction=min_fraction)
    _replay(m.warnings)
    if m.flagged:
        m = dataclasses.replace(m, warnings=m.warnings + (_warn_low(m.title, m.flagged),))
    return m


def wefats(embedding, specs: Sequence, *, name_filter: bool = False, n_resamples: int = 10_000,
           confidence_level: float = 0.95, ci_method: str = "BCa", seed: int = 0, case_fold: bool | None = None,
           on_missing: str = "drop", min_words: int = MIN_WORDS, min_fraction: float = MIN_FRACTION,
           progress: bool = False) -> list[Measurement]:
    """The WEFATs of ``specs`` (:class:`~wordbias.datasets.stimuli.WefatSpec`), each measured once
    (:func:`wefat`); ``name_filter=True`` applies each spec's name-likeness filter where it has one. A test that
    cannot run gives a result with NaN numbers and the reason in ``not_run``."""
    n_resamples, confidence_level, min_words, min_fraction, seed = _check_options(
        n_resamples=n_resamples, confidence_level=confidence_level, min_words=min_words, min_fraction=min_fraction,
        seed=seed)
    kv = _load(embedding, progress)
    case_fold = _case_fold(kv, case_fold)
    out = []
    for spec in specs:
        drop = (spec.name_filter or {}).get("drop_fraction") if name_filter else None
        try:
            out.append(_measure_wefat(kv, spec.W, spec.A, spec.B, spec.property, test=spec.id, title=spec.title,
                                      names=None, case_fold=case_fold, on_missing=on_missing, name_filter=drop,
                                      seed=seed, n_resamples=n_resamples, confidence_level=confidence_level,
                                      ci_method=ci_method, min_words=min_words, min_fraction=min_fraction))
        except NOT_RUN_ERRORS as err:
            sets = _unmeasured_sets(kv, {"W": spec.W, "A": spec.A, "B": spec.B}, case_fold, {})
            out.append(Measurement(
                measure="wefat", test=spec.id, title=spec.title, statistic_name="Pearson r", statistic=math.nan,
                effect_size_name="r", effect_size=math.nan, ci_low=math.nan, ci_high=math.nan, ci_level=math.nan,
                ci_method="none", p_value=math.nan, alternative="two-sided", p_method="none",
                p_two_sided=math.nan, n_permutations=None, n_resamples=0, seed=seed, sets=sets,
                flagged=_judge(sets, min_words=min_words, min_fraction=min_fraction).low,
                not_run=not_run_note(err)))
    return out


def weat_result(measured):
    """The :class:`~wordbias.measures.weat.WeatResult` of a measured WEAT: a :class:`Measurement` (from
    :func:`weat` or :func:`weats`), anything else that carries one as ``result`` (the teaching explorer's), or
    a ``WeatResult`` itself. Analyses of a test's words (word influence, frequency) read the words it used from
    here, so they never run the test again."""
    from wordbias.measures.weat import WeatResult

    if getattr(measured, "not_run", None):
        raise InvalidParameterError(f"{measured.test or measured.title} did not run: {measured.not_run}")
    result = measured if isinstance(measured, WeatResult) else getattr(measured, "result", None)
    if not isinstance(result, WeatResult):
        raise InvalidParameterError(f"expected a measured WEAT (wordbias.weat's Measurement or a WeatResult), not "
                                    f"{type(measured).__name__}")
    return result
