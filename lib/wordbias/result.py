"""The one result every measure returns: :class:`Result`, with the word sets it used (:class:`SetCoverage`) and the
warnings it gave (:class:`Caught`).

A :class:`Result` carries the statistic and the effect size with their names, the interval with its method and
resamples, the p one- and two-sided with its method and alternative (or, in ``notes``, why the measure has no
test), per set the words asked, used, missing and balanced out, the coverage and its flag, the warnings, and the
measure's own numbers (``details``). Every view is built from it and never recomputes: ``str()``, the notebook's
HTML, :meth:`Result.to_dict`, the tidy row (:meth:`Result.to_row`), and from the rows the pages, forest plots, heat
maps, papers' tables and ensembles. What each measure is (its range, its "no bias", whether it has a test) is in
:mod:`wordbias.catalogue`.

The module is a leaf: it imports only :mod:`wordbias.core` and :mod:`wordbias.catalogue`.
"""
from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from wordbias import catalogue as _catalogue
from wordbias.core import tidy as _tidy
from wordbias.core.errors import LowPowerWarning
from wordbias.core.tables import interval_bounds_text

__all__ = ["Caught", "SetCoverage", "Result", "SIZE_COLUMNS"]

#: the tidy size column of each set letter (targets first, attributes after); a set of word pairs (``"pairs"``, e.g.
#: definitional pairs) fills both attribute columns, one word of each pair in each; a benchmark's sentence pairs
#: (``"S"``, e.g. CrowS-Pairs) the first
SIZE_COLUMNS = {"X": "n_x", "Y": "n_y", "A": "n_a", "B": "n_b", "W": "n_x", "T1": "n_x", "T2": "n_y", "A1": "n_a",
                "A2": "n_b", "A_pos": "n_a", "A_neg": "n_b", "A_positive": "n_a", "A_negative": "n_b", "V": "n_a",
                "N": "n_x", "pairs": ("n_a", "n_b"), "S": "n_x"}


class Caught(NamedTuple):
    """A warning a test gave: its class and its message (``str()`` is the message).

    Attributes
    ----------
    category : type
        The warning's class, e.g. :class:`~wordbias.core.errors.LowPowerWarning`.
    message : str
        The warning's message.
    """

    category: type
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class SetCoverage:
    """One word set of a test: its letter and name, the words asked for, used, missing and balanced out.

    Attributes
    ----------
    letter : str
        The set's letter in the test: ``"X"``, ``"Y"``, ``"A"``, ``"B"`` (a WEAT) or ``"W"`` (a WEFAT).
    name : str
        The set's display name.
    asked : tuple of str
        The words of the list (case-folded when the test folds case).
    used : tuple of str
        The words the test used.
    missing : tuple of str, default ()
        The words missing from the vocabulary.
    balanced_out : tuple of str, default ()
        The words deleted to balance the target sets (a WEFAT's W: dropped by its name-likeness filter).
    shared : tuple of str, default ()
        The words of the set whose vector is not their own (:func:`wordbias.core.identity.check_sets`: another
        word's row in a pruned embedding, or one vector with another word of the test), kept or not; the result's
        notes say why.
    shared_out : tuple of str, default ()
        The words of ``shared`` left out (``Words(shared_vectors="drop")``).
    """

    letter: str
    name: str
    asked: tuple[str, ...]
    used: tuple[str, ...]
    missing: tuple[str, ...] = ()
    balanced_out: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    shared_out: tuple[str, ...] = ()

    @property
    def in_vocabulary(self) -> int:
        """Words of the list found in the embedding with a vector the test could use (used + balanced out: the
        words left out for a shared vector are not counted)."""
        return len(self.asked) - len(self.missing) - len(self.shared_out)

    def text(self) -> str:
        """The set's coverage as text: its letter, the words found in the vocabulary / the words asked for.

        Returns
        -------
        str
            E.g. ``"X 5/25"``.
        """
        return f"{self.letter} {self.in_vocabulary}/{len(self.asked)}"


@dataclass(frozen=True)
class Result:
    """A test measured once, with everything a reader needs to report it.

    The statistic and effect size with its interval, p one- and two-sided with their method, Holm's and
    Benjamini-Hochberg's adjusted p over its family when it was measured in one (:func:`weats`), the word sets
    (:class:`SetCoverage`), coverage flags, warnings, the parameters used, and the measure's own result object.
    A test that could not run has NaN numbers and the reason in ``not_run``. Views: ``str(r)``,
    ``r._repr_html_()``, :meth:`to_frame`, :meth:`to_dict`; the properties ``low_coverage``, ``coverage``,
    ``dropped`` and ``all_notes`` summarise the sets and notes.

    Attributes
    ----------
    measure : str
        ``"weat"`` or ``"wefat"``.
    title : str
        The test's title (by default built from the sets' names).
    statistic_name : str
        The statistic's name: ``"s(X,Y,A,B)"`` (WEAT) or ``"Pearson r"`` (WEFAT).
    statistic : float
        The test statistic.
    effect_size_name : str
        The effect size's name: ``"d"`` (WEAT) or ``"r"`` (WEFAT).
    effect_size : float
        The effect size.
    ci_low, ci_high : float
        The bounds of the bootstrap interval of the effect size (NaN when there is none).
    ci_level : float
        The interval's confidence level.
    ci_method : str
        How the interval was computed, e.g. ``"BCa 95%, 10,000 resamples of XYAB"``; ``"none"`` when there is
        no interval.
    p_value : float
        The p-value for ``alternative``.
    alternative : str
        The alternative hypothesis: ``"greater"``, ``"less"`` or ``"two-sided"``.
    p_method : str
        How ``p_value`` was computed: ``"exact"``, ``"monte-carlo"``, ``"normal"`` (WEAT) or ``"t"`` (WEFAT).
    p_two_sided : float
        The two-sided p-value by the same method.
    n_permutations : int or None
        The Monte Carlo permutations drawn (None unless ``p_method`` is ``"monte-carlo"``).
    n_resamples : int
        The bootstrap resamples (0: no interval).
    seed : int
        The seed of the balancing, the Monte Carlo p and the bootstrap.
    sets : tuple of SetCoverage
        The word sets, in the order of the test's letters.
    flagged : tuple of str, default ()
        The sets flagged for low coverage (:func:`low_coverage`), with why: ``"X 5/25 (below 50% of the
        list)"``.
    warnings : tuple of Caught, default ()
        The warnings the test gave.
    notes : tuple of str, default ()
        Notes on a missing part (``"no bootstrap interval: ..."``) and the low-power warnings.
    result : object, default None
        The measure's own result: a :class:`~wordbias.measures.association.weat.WeatResult` or a
        :class:`~wordbias.measures.association.wefat.WefatResult` (its per-word scores in ``result.table``).
    test : str, default ""
        The test's id within its battery (``""`` for a test measured alone).
    effect_size_se : float, default nan
        The bootstrap standard error of the effect size.
    p_values : mapping, default {}
        The one-sided p by every method computed: method ->
        :class:`~wordbias.stats.permutation.TailProbability`.
    p_holm, p_bh : float, default nan
        Holm's (1979) and Benjamini-Hochberg's (1995) adjusted p over the family.
    p_family : str or None, default None
        The family the adjusted p were computed over.
    not_run : str or None, default None
        Why the test did not run (None when it ran).
    interval : object, default None
        The bootstrap interval object (:class:`~wordbias.stats.resampling.BootstrapInterval`), None when
        there is none.
    """

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
        first, then those deleted to balance the target sets, then those left out for a shared vector:
        ``"Y shared vector: w5"``); ``""`` when none."""
        parts = [f"{s.letter}: {' '.join(s.missing)}" for s in self.sets if s.missing]
        parts += [f"{s.letter} balanced out: {' '.join(s.balanced_out)}" for s in self.sets if s.balanced_out]
        parts += [f"{s.letter} shared vector: {' '.join(s.shared_out)}" for s in self.sets if s.shared_out]
        return "; ".join(parts)

    @property
    def balancing(self):
        """How d moves with the words random balancing deleted from the larger target set: d over the balancing
        draws and d without balancing (a WEAT-like test's
        :class:`~wordbias.measures.association.weat.BalanceSpread`, read from ``result``, with ``.text()``); None
        when no word was deleted or the measure does not balance. Kept out of ``notes``, so the tidy row is the
        same whether it is read or not."""
        return getattr(self.result, "balancing", None)

    @property
    def all_notes(self) -> tuple[str, ...]:
        """Every note, in the order a reader needs them: why the test did not run, its low coverage
        (``"low coverage: X 5/25 (below 50% of the list)"``), a missing part (``"no bootstrap interval: ..."``)
        and the low-power warnings."""
        cov = ("low coverage: " + ", ".join(self.flagged),) if self.flagged else ()
        return ((self.not_run,) if self.not_run else ()) + cov + self.notes

    def warned(self, category: type = LowPowerWarning) -> tuple[str, ...]:
        """The messages of the warnings of ``category`` the test gave, each once, in order.

        Parameters
        ----------
        category : type, default LowPowerWarning
            A warning class; its subclasses match too.

        Returns
        -------
        tuple of str
            The messages, in the order given, without repeats.
        """
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
        """One flat row: the numbers, the coverage, the words dropped, the notes.

        Returns
        -------
        dict
            Column -> value, the columns of :mod:`wordbias.core.tidy` where they exist: ``test``, ``measure``,
            ``title``, the set sizes used (``n_x``, ``n_y``, ...), the statistic, the effect size and its
            interval, the p-values (one-sided, two-sided, Holm, Benjamini-Hochberg), the parameters,
            ``coverage``, ``low_coverage``, ``dropped`` and ``note``.
        """
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

    def to_row(self, base: Mapping | None = None, *, note: str = "") -> dict:
        """The result as one row of the tidy schema (:data:`wordbias.core.tidy.COLUMNS`): the one place a row is
        built from a result.

        The row holds ``base`` (the leading columns: embedding, paper, battery, ...), the sizes of the sets used
        (:data:`SIZE_COLUMNS`), the statistic and effect size with their interval, p one- and two-sided with
        their method where the measure has a test (:func:`wordbias.catalogue.has_test`; NA otherwise, and the
        notes say why), the adjusted p it carries, the words dropped, the coverage and its flag. The note is
        ``note`` followed by the result's notes; a part that is missing (``"no bootstrap interval: ..."``) comes
        first, where :func:`wordbias.core.tidy.run_in_part` reads it. A result that did not run has NA numbers
        and the reason as its note.

        Parameters
        ----------
        base : mapping, optional
            The row's leading columns.
        note : str, default ""
            A note to begin the row's note with, e.g. the paper's numbers.

        Returns
        -------
        dict
            The row, with ``coverage`` and ``low_coverage`` (:func:`wordbias.core.tidy.with_coverage`).
        """
        cover = _tidy.Coverage(sets={s.letter: (s.in_vocabulary, len(s.asked)) for s in self.sets},
                               low=tuple(self.flagged))
        has_test = self.measure not in _catalogue.CATALOGUE or _catalogue.has_test(self.measure)
        head = {**(base or {}), "test": self.test, "title": self.title, "measure": self.measure,
                "statistic_name": self.statistic_name, "effect_size_name": self.effect_size_name,
                "alternative": self.alternative if has_test else None, "seed": self.seed,
                "n_resamples": self.n_resamples or None,
                "dropped": self.dropped}
        if self.not_run:
            return _tidy.with_coverage({**head, "note": self.not_run}, cover)
        sizes = {c: len(s.used) for s in self.sets
                 for c in ((lambda v: (v,) if isinstance(v, str) else v)(SIZE_COLUMNS.get(s.letter, ())))}
        row = {**head, **sizes, "statistic": self.statistic, "effect_size": self.effect_size}
        tested = self.p_method != "none" and has_test
        if tested:
            row.update(p_value=self.p_value, p_method=self.p_method, p_two_sided=self.p_two_sided,
                       n_permutations=self.n_permutations)
            if self.p_family:
                row.update(p_holm=self.p_holm, p_bh=self.p_bh, p_family=self.p_family)
        else:
            row.update(p_value=None, alternative=None, p_method=None, p_two_sided=None, n_permutations=None)
        if self.interval is None:
            row.update(n_resamples=None, note=_join(*self.notes, note))
        else:
            row.update(ci_low=self.ci_low, ci_high=self.ci_high, ci_level=self.ci_level, ci_method=self.ci_method,
                       note=_join(note, *self.notes))
        return _tidy.with_coverage(row, cover)

    def to_frame(self):
        """:meth:`to_dict` as a one-row table.

        Returns
        -------
        pandas.DataFrame
            One row, the columns of :meth:`to_dict`.
        """
        import pandas as pd

        return pd.DataFrame([self.to_dict()])


def _join(*parts: str) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


def _p(p: float) -> str:
    return "NA" if p is None or not math.isfinite(p) else (f"{p:.2g}" if p < 1e-3 else f"{p:.3g}")


def _words(words: Sequence[str], limit: int = 12) -> str:
    return " ".join(words[:limit]) + (f" ... ({len(words) - limit} more)" if len(words) > limit else "")


