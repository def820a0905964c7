"""One WEAT measured once, with everything a reader needs: :func:`weat` (``wordbias.weat``) and its
:class:`Measurement`.

:func:`wordbias.measures.weat.weat` computes the statistic, d and one p-value; a researcher also needs the
interval, the two-sided p, and what happened to each word list. :func:`weat` runs the test once and returns a
:class:`Measurement` that carries all of it: d (Caliskan et al. 2017, Methods) with its bootstrap interval
(:func:`wordbias.measures.bootstrap.weat_bootstrap`), the permutation p one- and two-sided with their method,
per set the words asked for, used, missing from the vocabulary and balanced out, the coverage and its flag,
and the warnings the test gave. Printing it, showing it in a notebook (``_repr_html_``) and
:meth:`Measurement.to_frame` are views of those values; nothing is recomputed.

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
  d = 1.807, 95% CI [1.80, 1.81] (BCa, 1,000 resamples)
  p = 0.05 one-sided (greater, exact), 0.1 two-sided
  words found/asked: X 3/3, Y 3/3, A 2/2, B 2/2
  note: low coverage: X 3/3 (below 4 words), Y 3/3 (below 4 words), A 2/2 (below 4 words), B 2/2 (below 4
  words)
  note: the smallest attainable p is 0.05 (3 words a side): significance at 0.05 cannot be reached
"""
from __future__ import annotations

import html
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, TooCostlyError
from wordbias.core.tidy import MIN_FRACTION, MIN_WORDS, check_coverage_thresholds, coverage, coverage_flag
from wordbias.core.validation import check_int

__all__ = ["MIN_WORDS", "MIN_FRACTION", "SetCoverage", "Measurement", "weat", "low_coverage"]

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
    method, the word sets (:class:`SetCoverage`), coverage flags, warnings and the parameters used. Views:
    ``str(r)``, ``r._repr_html_()``, :meth:`to_frame`, :meth:`to_dict`."""

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
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    result: object = field(default=None, repr=False, compare=False)

    @property
    def low_coverage(self) -> bool:
        """Whether any set kept too few of its words (:func:`low_coverage`; the sets, with why, in
        ``flagged``)."""
        return bool(self.flagged)

    @property
    def coverage(self) -> str:
        """Per set, words found / asked: ``"X 5/25; Y 24/25; A 8/8; B 8/8"``."""
        return "; ".join(s.text() for s in self.sets)

    def _interval(self, digits: int = 2) -> str:
        if not (math.isfinite(self.ci_low) and math.isfinite(self.ci_high)):
            return "no interval"
        return (f"{self.ci_level:.0%} CI [{self.ci_low:.{digits}f}, {self.ci_high:.{digits}f}] "
                f"({self.ci_method})")

    def __str__(self) -> str:
        lines = [f"{self.measure.upper()}: {self.title}",
                 f"  {self.effect_size_name} = {self.effect_size:.3f}, {self._interval()}",
                 f"  p = {_p(self.p_value)} one-sided ({self.alternative}, {self.p_method}), "
                 f"{_p(self.p_two_sided)} two-sided",
                 "  words found/asked: " + ", ".join(s.text() for s in self.sets)
                 + ("; used after balancing: " + "/".join(str(len(s.used)) for s in self.sets)
                    if any(s.balanced_out for s in self.sets) else "")]
        for s in self.sets:
            if s.missing:
                lines.append(f"  {s.letter} missing: {_words(s.missing)}")
            if s.balanced_out:
                lines.append(f"  {s.letter} balanced out: {_words(s.balanced_out)}")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        rows = [("effect size", f"{self.effect_size_name} = {self.effect_size:.3f}"),
                ("interval", self._interval()),
                ("p", f"{_p(self.p_value)} one-sided ({self.alternative}, {self.p_method}); "
                      f"{_p(self.p_two_sided)} two-sided"),
                ("words found / asked", self.coverage)]
        rows += [(f"{s.letter} missing", _words(s.missing)) for s in self.sets if s.missing]
        rows += [(f"{s.letter} balanced out", _words(s.balanced_out)) for s in self.sets if s.balanced_out]
        if self.flagged:
            rows.append(("low coverage", ", ".join(self.flagged)))
        rows += [("note", n) for n in self.notes]
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in rows)
        return f"<table><caption>{html.escape(self.measure.upper() + ': ' + self.title)}</caption>{body}</table>"

    def to_dict(self) -> dict:
        """One flat row: the numbers, the coverage, the words dropped, the notes (the columns of
        :mod:`wordbias.core.tidy` where they exist)."""
        sizes = {f"n_{s.letter.lower()}": len(s.used) for s in self.sets}
        dropped = "; ".join(f"{s.letter}: {' '.join(s.missing + s.balanced_out)}" for s in self.sets
                            if s.missing or s.balanced_out)
        return {"measure": self.measure, "title": self.title, **sizes,
                "statistic_name": self.statistic_name, "statistic": self.statistic,
                "effect_size_name": self.effect_size_name, "effect_size": self.effect_size,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "ci_level": self.ci_level,
                "ci_method": self.ci_method, "p_value": self.p_value, "alternative": self.alternative,
                "p_method": self.p_method, "p_two_sided": self.p_two_sided, "n_permutations": self.n_permutations,
                "n_resamples": self.n_resamples, "seed": self.seed, "coverage": self.coverage,
                "low_coverage": self.low_coverage, "dropped": dropped or None,
                "note": "; ".join(self.notes) or None}

    def to_frame(self):
        """:meth:`to_dict` as a one-row :class:`pandas.DataFrame`."""
        import pandas as pd

        return pd.DataFrame([self.to_dict()])


def _p(p: float) -> str:
    return "NA" if p is None or not math.isfinite(p) else (f"{p:.2g}" if p < 1e-3 else f"{p:.3g}")


def _words(words: Sequence[str], limit: int = 12) -> str:
    return " ".join(words[:limit]) + (f" ... ({len(words) - limit} more)" if len(words) > limit else "")


def weat(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
         names: Mapping[str, str] | None = None, title: str | None = None, n_resamples: int = 10_000,
         confidence_level: float = 0.95, ci_method: str = "BCa", p_method: str = "auto",
         n_permutations: int = 100_000, alternative: str = "greater", seed: int = 0,
         case_fold: bool | None = None, balance_targets: str = "random", min_words: int = MIN_WORDS,
         min_fraction: float = MIN_FRACTION, progress: bool = False) -> Measurement:
    """A WEAT (Caliskan et al. 2017) measured in one call: d with its bootstrap interval, p one- and two-sided,
    and what happened to every word list.

    ``embedding`` is anything :func:`wordbias.embeddings.load` takes (a registered name, a path, a gensim
    ``KeyedVectors`` or model, a word -> vector mapping). The test is
    :func:`wordbias.measures.weat.weat` (unknown words dropped with a warning, target sets balanced at random,
    the permutation p exact where it can be counted, else Monte Carlo with ``n_permutations`` draws); the
    interval is :func:`wordbias.measures.bootstrap.weat_bootstrap` over the words of the four sets
    (``n_resamples=0``: none). ``case_fold=None`` folds case for an uncased vocabulary. A set that keeps fewer
    than ``min_words`` words or less than ``min_fraction`` of its list is flagged (:func:`low_coverage`), in the
    result and with a :class:`~wordbias.core.errors.LowCoverageWarning`. ``seed`` drives the balancing, the
    Monte Carlo p and the bootstrap.
    """
    from wordbias import embeddings as _embeddings
    from wordbias.core.errors import LowCoverageWarning
    from wordbias.core.lookup import warn_user
    from wordbias.measures import bootstrap as _bootstrap
    from wordbias.measures import weat as _weat

    n_resamples = check_int("n_resamples", n_resamples, min=0)
    if n_resamples == 1:
        raise InvalidParameterError("n_resamples must be 0 (no interval) or an integer >= 2, not 1")
    min_words, min_fraction = check_coverage_thresholds(min_words, min_fraction)
    kv = _embeddings.load(embedding, progress=progress)
    if case_fold is None:
        case_fold = not _embeddings.is_cased(kv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _weat.weat(kv, X, Y, A, B, names=names, case_fold=case_fold, balance_targets=balance_targets,
                       p_method=p_method, n_permutations=n_permutations, seed=seed, alternative=alternative,
                       progress=progress)
        two = r.p if alternative == "two-sided" else _weat.p_value(
            r.s_x, r.s_y, p_method=r.p_method, n_permutations=n_permutations, seed=seed, alternative="two-sided")
    notes = []
    ci = (math.nan, math.nan)
    if n_resamples:
        try:
            boot = _bootstrap.weat_bootstrap(kv, r, n_resamples=n_resamples, confidence_level=confidence_level,
                                             method=ci_method, seed=seed, case_fold=case_fold)
            ci = (boot.effect_size.low, boot.effect_size.high)
        except (DegenerateSetError, TooCostlyError, ValueError) as exc:
            notes.append(f"no interval: {exc}")
    asked = [list(w) for w in (X, Y, A, B)]
    if case_fold:
        asked = [[w.lower() for w in ws] for ws in asked]
    sets = tuple(SetCoverage(letter, s.name, tuple(asked_words), tuple(s.words), tuple(s.missing),
                             tuple(getattr(s, "balanced_out", ()) or ()))
                 for letter, s, asked_words in zip("XYAB", (r.X, r.Y, r.A, r.B), asked))
    shown_title = title or f"{r.X.name} vs {r.Y.name}, {r.A.name} vs {r.B.name}"
    cov = coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=min_words,
                   min_fraction=min_fraction)
    flagged = cov.low
    messages = []
    for w in caught:  # given again to the caller, and kept in the result
        messages.append(str(w.message))
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if flagged:
        notes.insert(0, cov.note())
        text = (f"{shown_title} ran on too few of its words: {', '.join(flagged)} (words in the "
                "vocabulary/asked); its result describes the words that survived rather than the lists it is "
                "named after")
        warn_user(LowCoverageWarning(text))
        messages.append(text)
    floor = _weat.smallest_p(len(r.X.words), len(r.Y.words))
    if floor >= _weat.ALPHA:
        notes.append(f"the smallest attainable p is {floor:.3g} ({len(r.X.words)} words a side): significance "
                     f"at {_weat.ALPHA} cannot be reached")
    names = names or {}
    return Measurement(
        measure="weat", title=shown_title,
        statistic_name="s(X,Y,A,B)", statistic=float(r.statistic), effect_size_name="d",
        effect_size=float(r.effect_size), ci_low=float(ci[0]), ci_high=float(ci[1]), ci_level=confidence_level,
        ci_method=f"{ci_method}, {n_resamples:,} resamples" if n_resamples else "none",
        p_value=float(r.p_value), alternative=r.alternative, p_method=r.p_method,
        p_two_sided=float(two.p_value), n_permutations=n_permutations if r.p_method == "monte-carlo" else None,
        n_resamples=n_resamples, seed=int(seed) if isinstance(seed, (int, np.integer)) else 0, sets=sets,
        flagged=flagged, warnings=tuple(messages), notes=tuple(notes), result=r)
