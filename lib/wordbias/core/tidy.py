"""One tidy results table for every test the package runs: one row per test, the same columns everywhere.

The command (``wordbias weat/report/compare``), the batteries (:mod:`wordbias.battery`) and the notebooks
write their results in this schema, so a WEAT of Caliskan et al. (2017), a direction test of the racial bias
report, RIPA, UBE or a Kurita log-probability score can be stacked, filtered and compared across embeddings
(a "tidy" table in Wickham's sense: one observation, a test, per row; Wickham 2014, "Tidy data", *Journal of
Statistical Software* 59(10), https://doi.org/10.18637/jss.v059.i10).

Columns (:data:`COLUMNS`, in this order; NA where a measure has no such thing):

* ``embedding`` the embedding's or model's label; ``paper`` (:data:`PAPERS`); ``battery`` (``caliskan2017``,
  ``user:<file stem>``...); ``test`` (``WEAT1``, ``WEFAT2``, ``explicit``, ``RIPA:<pairs>``...); ``title``;
  ``measure`` (:data:`MEASURES`)
* ``n_x``, ``n_y``, ``n_a``, ``n_b``: words used per set (nullable integers)
* ``coverage`` (``"X 5/25; Y 24/25; A 8/8; B 8/8"``: per set, the words in the vocabulary of those asked; the
  sets a direction test, RIPA or the direct bias uses, e.g. ``"N 209/320; pairs 9/10"``; NA where a measure has
  no word lists to cover) and ``low_coverage`` (nullable boolean: some set keeps fewer than
  :data:`MIN_WORDS` words or less than :data:`MIN_FRACTION` of its list, :func:`coverage`; such a row's note
  begins with :data:`LOW_COVERAGE`)
* ``statistic_name``, ``statistic``, ``effect_size_name`` (``d``, ``r``, ``cos``, ``ripa``...), ``effect_size``
* ``ci_low``, ``ci_high``, ``ci_level``, ``ci_method``: the interval of the effect size
* ``p_value``, ``alternative`` (``greater``, ``less``, ``two-sided``, as SciPy), ``p_method``, ``p_two_sided``
* ``p_holm``, ``p_bh``, ``p_family``: Holm and Benjamini–Hochberg adjusted p over the named family
  (:func:`wordbias.stats.multiple.adjust_family`)
* ``dropped`` (``"X: w1 w2; A: w3"``: words dropped as unknown or balanced out, ``""`` when none),
  ``seed``, ``n_permutations``, ``n_resamples``, ``wordbias_version``, ``note``

Files (:func:`write_tidy`, :func:`read_tidy`) are CSV with floats written as ``"%.6g"`` (six significant
digits, as the committed results; far finer than the Monte Carlo error of any p or interval here) and
missing values as ``NA`` (R's and pandas' spelling), so ``""`` (no word dropped) and NA (the measure drops
no words) stay apart. Reading a written file and writing it again gives the same bytes.

Every CSV written for a user (:func:`write_tidy`, :func:`write_csv`) is safe to open in a spreadsheet: a text
cell that a spreadsheet would run as a formula (a test named ``=HYPERLINK(...)``, a label ``@SUM(A1)``) is
written with a ``'`` before it (:func:`spreadsheet_safe`, the rule of OWASP's "CSV Injection",
https://owasp.org/www-community/attacks/CSV_Injection); numbers and ordinary text are written as they are, and
:func:`read_tidy` (or :func:`spreadsheet_text`) takes the mark off again, so a label reads back as it was given.
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core.atomic import atomic_file
from wordbias.core.errors import InvalidParameterError
from wordbias.core.io_errors import reraise_disk_full
from wordbias.core.paths import check_output_file
from wordbias.core.validation import ALTERNATIVES, check_int, check_real

__all__ = ["COLUMNS", "DTYPES", "PAPERS", "MEASURES", "FLOAT_FORMAT", "tidy_frame", "check_tidy",
           "dropped_text", "MIN_WORDS", "MIN_FRACTION", "LOW_COVERAGE", "check_coverage_thresholds",
           "coverage_flag", "Coverage", "coverage", "with_coverage", "warn_low_coverage", "without_low_coverage",
           "NOT_RUN", "PARTS", "not_run_note", "not_run",
           "part_missing_note", "run_in_part", "write_tidy", "read_tidy", "FORMULA_START", "TEXT_MARK",
           "spreadsheet_safe", "spreadsheet_text", "spreadsheet_safe_frame", "write_csv", "ENSEMBLE_RUNS",
           "ensemble_run_rows"]

COLUMNS: tuple[str, ...] = (
    "embedding", "paper", "battery", "test", "title", "measure",
    "n_x", "n_y", "n_a", "n_b", "coverage", "low_coverage",
    "statistic_name", "statistic", "effect_size_name", "effect_size",
    "ci_low", "ci_high", "ci_level", "ci_method",
    "p_value", "alternative", "p_method", "p_two_sided", "p_holm", "p_bh", "p_family",
    "dropped", "seed", "n_permutations", "n_resamples", "wordbias_version", "note",
)

_INT = ("n_x", "n_y", "n_a", "n_b", "seed", "n_permutations", "n_resamples")
_FLOAT = ("statistic", "effect_size", "ci_low", "ci_high", "ci_level", "p_value", "p_two_sided", "p_holm", "p_bh")
_BOOL = ("low_coverage",)
#: the dtype of each column: pandas' nullable ``string``, ``Int64`` and ``boolean``, and ``float64`` (NaN as NA)
DTYPES: dict[str, str] = {c: "Int64" if c in _INT else "float64" if c in _FLOAT else "boolean" if c in _BOOL
                          else "string" for c in COLUMNS}

#: the values of ``paper`` (``user``: a user's own word lists)
PAPERS = ("caliskan2017", "swinger2019", "kurita2019", "racial_bias_report", "ethayarajh2019", "may2019", "dev2019",
          "garg2018", "sweeney2019", "manzini2019", "an2018", "bolukbasi2016", "nangia2020", "nadeem2021",
          "bartl2020", "user")
#: the values of ``measure``
MEASURES = ("weat", "wefat", "direction", "direct_bias", "ripa", "ube", "mlm_log_prob", "contextual_weat", "sc_weat", "seat",
            "ect", "rnd", "rnsb", "mac", "semaxis", "indirect_bias", "crows_pairs", "crows_pairs_difference",
            "stereoset_ss", "stereoset_lms", "stereoset_icat", "bec_pro")
#: the values of ``alternative`` (SciPy's names)
#: how :func:`write_tidy` writes floats by default: six significant digits
FLOAT_FORMAT = "%.6g"
#: how the ``note`` of a test that did not run begins (its numbers are NA; the reason follows): the batteries
#: write it (:func:`not_run_note`), the summaries grey such rows and the command reports them (:func:`not_run`)
NOT_RUN = "not run"
#: the parts of a test that may be missing while the rest ran: the note then begins ``"no <part>: "`` and the
#: reason follows (:func:`part_missing_note`, :func:`run_in_part`)
PARTS = ("bootstrap interval",)
_NA = "NA"
_BOOL_TEXT = {"True": True, "False": False}
_P_COLUMNS = ("p_value", "p_two_sided", "p_holm", "p_bh")
_KEY = ("embedding", "battery", "test", "measure")


def _version() -> str:
    from wordbias import __version__

    return __version__


def _column(name: str, values: list) -> pd.Series:
    """``values`` as the column ``name`` with its dtype, or an error naming the column and the bad value."""
    dtype = DTYPES[name]
    values = [pd.NA if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else v for v in values]
    try:
        if dtype == "string":
            bad = [v for v in values if v is not pd.NA and not isinstance(v, str)]
            if bad:
                raise TypeError(f"{bad[0]!r} ({type(bad[0]).__name__}) is not a string")
            return pd.Series(pd.array(values, dtype="string"), name=name)
        if dtype == "boolean":
            bad = [v for v in values if v is not pd.NA and not isinstance(v, (bool, np.bool_))]
            if bad:
                raise TypeError(f"{bad[0]!r} is not a boolean (True or False)")
            return pd.Series(pd.array([v if v is pd.NA else bool(v) for v in values], dtype="boolean"), name=name)
        if dtype == "Int64":
            bad = [v for v in values if v is not pd.NA
                   and (isinstance(v, (bool, np.bool_)) or not float(v).is_integer())]
            if bad:
                raise TypeError(f"{bad[0]!r} is not an integer")
            return pd.Series(pd.array([v if v is pd.NA else int(v) for v in values], dtype="Int64"), name=name)
        bad = [v for v in values if v is not pd.NA and (isinstance(v, (bool, np.bool_, str)))]
        if bad:
            raise TypeError(f"{bad[0]!r} is not a number")
        return pd.Series(np.array([np.nan if v is pd.NA else float(v) for v in values], dtype=np.float64), name=name)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidParameterError(f"tidy column {name!r} ({dtype}): {exc}") from None


def tidy_frame(rows: Iterable[Mapping]) -> pd.DataFrame:
    """Return the tidy table of ``rows``, one mapping per test.

    Columns in :data:`COLUMNS` order with :data:`DTYPES`, missing keys as NA, ``wordbias_version`` filled with
    this package's version where not given.

    A key that is not a column is an error naming it (a misspelt ``pvalue`` would otherwise vanish); the
    result is checked by :func:`check_tidy`.

    Parameters
    ----------
    rows : iterable of mapping
        The rows, one per test, keyed by column name.

    Returns
    -------
    pandas.DataFrame
        The tidy table, checked by :func:`check_tidy`.

    Raises
    ------
    InvalidParameterError
        When a row has a key that is not a column, or the table fails :func:`check_tidy`.

    Examples
    --------
    >>> t = tidy_frame([{"embedding": "glove-6b-50d", "paper": "user", "battery": "user:mine", "test": "t1",
    ...                  "measure": "weat", "n_x": 8, "effect_size_name": "d", "effect_size": 1.25,
    ...                  "p_value": 0.001, "alternative": "greater", "dropped": ""}])
    >>> t.shape, t.columns[:4].tolist(), str(t["n_x"].dtype), t.loc[0, "effect_size"], t.loc[0, "n_y"]
    ((1, 33), ['embedding', 'paper', 'battery', 'test'], 'Int64', np.float64(1.25), <NA>)
    >>> tidy_frame([{"test": "t1", "pvalue": 0.5}])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: tidy row 0 has keys that are not tidy columns: ['pvalue'] (the columns are embedding, paper, battery, test, title, measure, n_x, n_y, n_a, n_b, coverage, low_coverage, statistic_name, statistic, effect_size_name, effect_size, ci_low, ci_high, ci_level, ci_method, p_value, alternative, p_method, p_two_sided, p_holm, p_bh, p_family, dropped, seed, n_permutations, n_resamples, wordbias_version, note)
    """
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        raise InvalidParameterError(f"rows must be an iterable of mappings (one per test), not {type(rows).__name__}")
    rows = list(rows)
    known = set(COLUMNS)
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise InvalidParameterError(f"tidy row {i} must be a mapping of column to value, not {type(row).__name__}")
        unknown = [k for k in row if k not in known]
        if unknown:
            raise InvalidParameterError(f"tidy row {i} has keys that are not tidy columns: {unknown} "
                                        f"(the columns are {', '.join(COLUMNS)})")
    version = _version()
    data = {}
    for c in COLUMNS:
        values = [row.get(c) for row in rows]
        if c == "wordbias_version":
            values = [version if v is None or v is pd.NA else v for v in values]
        data[c] = _column(c, values)
    frame = pd.DataFrame(data, columns=list(COLUMNS))
    check_tidy(frame)
    return frame


def check_tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Check that ``frame`` is a tidy results table and return it.

    Checked: the columns (names and order), their dtypes, the known ``paper``, ``measure`` and
    ``alternative`` values, p-values in [0, 1], ``ci_level`` in (0, 1), ``ci_low <= ci_high``, set sizes and
    counts >= 0, and one row per (embedding, battery, test, measure).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table to check.

    Returns
    -------
    pandas.DataFrame
        ``frame`` itself.

    Raises
    ------
    InvalidParameterError
        Naming what is wrong, when ``frame`` is not a tidy table.

    Examples
    --------
    >>> check_tidy(tidy_frame([]))["test"].tolist()
    []
    >>> check_tidy(tidy_frame([{"test": "a"}]).drop(columns="note"))
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: not a tidy table: columns missing: ['note']
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidParameterError(f"a tidy table is a pandas DataFrame, not {type(frame).__name__}")
    cols = list(frame.columns)
    missing = [c for c in COLUMNS if c not in cols]
    extra = [c for c in cols if c not in COLUMNS]
    if missing or extra:
        parts = ([f"columns missing: {missing}"] if missing else []) + ([f"unknown columns: {extra}"] if extra else [])
        raise InvalidParameterError("not a tidy table: " + "; ".join(parts))
    if cols != list(COLUMNS):
        raise InvalidParameterError(f"not a tidy table: columns out of order; expected {list(COLUMNS)}")
    wrong = {c: str(frame[c].dtype) for c in COLUMNS if str(frame[c].dtype) != DTYPES[c]}
    if wrong:
        raise InvalidParameterError("not a tidy table: wrong dtypes " + ", ".join(
            f"{c}: {d} (expected {DTYPES[c]})" for c, d in wrong.items()))
    for col, allowed in (("paper", PAPERS), ("measure", MEASURES), ("alternative", ALTERNATIVES)):
        bad = sorted(set(frame[col].dropna()) - set(allowed))
        if bad:
            raise InvalidParameterError(f"tidy column {col!r} holds {bad}; allowed: {', '.join(allowed)} (or NA)")
    for col in _P_COLUMNS:
        v = frame[col]
        bad = v[v.notna() & ~((v >= 0) & (v <= 1))]
        if len(bad):
            raise InvalidParameterError(f"tidy column {col!r} must hold p-values in [0, 1]; rows {bad.index.tolist()[:10]}"
                                        f" hold {bad.tolist()[:10]}")
    level = frame["ci_level"]
    bad = level[level.notna() & ~((level > 0) & (level < 1))]
    if len(bad):
        raise InvalidParameterError(f"tidy column 'ci_level' must be in (0, 1); rows {bad.index.tolist()[:10]}")
    lo, hi = frame["ci_low"], frame["ci_high"]
    bad = frame.index[(lo > hi).to_numpy()]
    if len(bad):
        raise InvalidParameterError(f"tidy rows {bad.tolist()[:10]} have ci_low > ci_high")
    for col in ("n_x", "n_y", "n_a", "n_b", "seed", "n_permutations", "n_resamples"):
        v = frame[col]
        bad = v[v.notna() & (v < 0)]
        if len(bad):
            raise InvalidParameterError(f"tidy column {col!r} must be >= 0; rows {bad.index.tolist()[:10]}")
    key = frame[list(_KEY)].astype(object).where(frame[list(_KEY)].notna(), None)
    dup = key.duplicated(keep=False)
    if dup.any():
        rows = [tuple(r) for r in key[dup].drop_duplicates().itertuples(index=False)][:5]
        raise InvalidParameterError(f"tidy table has several rows for the same {'/'.join(_KEY)}: {rows}")
    return frame


def dropped_text(dropped: Mapping[str, Iterable[str]]) -> str:
    """Return the ``dropped`` cell for words dropped per set.

    ``"X: w1 w2; A: w3"``, sets in the given order, sets with no dropped word left out, ``""`` when none.

    Parameters
    ----------
    dropped : mapping of str to iterable of str
        The words dropped, by set name.

    Returns
    -------
    str
        The cell.

    Examples
    --------
    >>> dropped_text({"X": ["aster", "clover"], "Y": [], "A": ("caress",)})
    'X: aster clover; A: caress'
    >>> dropped_text({})
    ''
    """
    return "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in dropped.items() if v and len(list(v)))


#: the fewest words a set may keep before its test's row is flagged ``low_coverage`` (:func:`coverage_flag`).
#: With 3 words a side, a WEAT's smallest attainable permutation p is 1/C(6, 3) = 1/20 = 0.05, so it can never
#: be significant at 0.05 (one-sided; two-sided 0.1), and its bootstrap interval resamples 3 words, so it is
#: as wide or as narrow as chance makes it; with 4 words a side the smallest p is 1/C(8, 4) = 1/70 = 0.014. A
#: direction test's or a RIPA's mean over 3 words or pairs is no firmer. 4 is the least size at which a test of
#: two word sets can reject at 0.05 at all (the printed lists of the papers have at least 4 words a set)
MIN_WORDS = 4
#: the least fraction of its list a set may keep before the row is flagged (:func:`coverage_flag`). A list names
#: a concept (flowers, pleasant words, female names) through its words; when more than half of them are missing
#: the test measures what the surviving words share, a different and unknown concept (Antoniak & Mimno 2021,
#: "Bad Seeds: Evaluating Lexical Methods for Bias Result", ACL, https://doi.org/10.18653/v1/2021.acl-long.148,
#: show that WEAT-style results change strongly with the seed words chosen: which words survive is such a
#: choice, made by the vocabulary). Half is the point past which the surviving words are no longer most of the
#: list the test is named after
MIN_FRACTION = 0.5
#: how the ``note`` of a low-coverage row begins (:meth:`Coverage.note`): ``"low coverage: B 1/12 (below 4
#: words)"``, the flagged sets separated by ``", "``, then ``"; "`` and the rest of the note (after a test run in
#: part, whose note begins ``"no <part>: "``, it comes second: :func:`with_coverage`)
LOW_COVERAGE = "low coverage"


def check_coverage_thresholds(min_words=MIN_WORDS, min_fraction=MIN_FRACTION) -> tuple[int, float]:
    """Check the coverage thresholds ``min_words`` and ``min_fraction``.

    Parameters
    ----------
    min_words : int, default 4
        An integer >= 0 (0 turns the rule off).
    min_fraction : float, default 0.5
        A number in [0, 1] (0 turns the rule off).

    Returns
    -------
    tuple of (int, float)
        ``(min_words, min_fraction)``, checked.

    Raises
    ------
    InvalidParameterError
        Naming the parameter, when a threshold is out of its range.

    Examples
    --------
    >>> check_coverage_thresholds(4, 0.5)
    (4, 0.5)
    >>> check_coverage_thresholds(4, 50)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: min_fraction must be <= 1.0, not 50.0
    """
    return check_int("min_words", min_words, min=0), check_real("min_fraction", min_fraction, low=0.0, high=1.0)


def _shortfall(kept: int, asked: int, min_words: int, min_fraction: float) -> str:
    """Why a set keeping ``kept`` of ``asked`` words is low coverage (``"below 4 words"``, ``"below 50% of the
    list"``, both joined by ``and``), or ``""``."""
    why = []
    if kept < min_words:
        why.append(f"below {min_words} words")
    if asked > 0 and kept / asked < min_fraction:
        why.append(f"below {min_fraction:.0%} of the list")
    return " and ".join(why)


def coverage_flag(kept: int, asked: int, *, min_words: int = MIN_WORDS, min_fraction: float = MIN_FRACTION) -> bool:
    """Tell whether a word set that keeps ``kept`` of the ``asked`` words of its list is low coverage.

    Low coverage is fewer than ``min_words`` words (default :data:`MIN_WORDS`, 4), or less than ``min_fraction``
    of its list (default :data:`MIN_FRACTION`, a half); the reasons for both defaults are given where they are
    defined. At the threshold (4 words, exactly half) a set is not flagged. Words balanced out to equalise two
    target sets are not a coverage problem: ``kept`` counts them.

    Parameters
    ----------
    kept : int
        The words of the set in the vocabulary.
    asked : int
        The words of its list.
    min_words : int, default 4
        Fewer words kept than this is low coverage (0 turns the rule off).
    min_fraction : float, default 0.5
        Less than this fraction of the list kept is low coverage (0 turns the rule off).

    Returns
    -------
    bool
        Whether the set is low coverage.

    Examples
    --------
    >>> coverage_flag(1, 12), coverage_flag(4, 8), coverage_flag(3, 3), coverage_flag(5, 11)
    (True, False, True, True)
    >>> coverage_flag(3, 3, min_words=3), coverage_flag(5, 11, min_fraction=0.4)
    (False, False)
    """
    kept, asked = check_int("kept", kept, min=0), check_int("asked", asked, min=0)
    min_words, min_fraction = check_coverage_thresholds(min_words, min_fraction)
    if kept > asked:
        raise InvalidParameterError(f"kept ({kept}) cannot exceed asked ({asked})")
    return bool(_shortfall(kept, asked, min_words, min_fraction))


@dataclass(frozen=True)
class Coverage:
    """The coverage of a test's word sets (see :func:`coverage`).

    Attributes
    ----------
    sets : dict
        A set's name -> (words kept in the vocabulary, words asked).
    low : tuple of str
        The flagged sets, as ``"B 1/12 (below 4 words)"``.
    text : str
        The ``coverage`` cell, ``"X 5/25; Y 24/25; A 8/8; B 8/8"`` (a property).
    flagged : bool
        Whether any set is flagged (a property).
    """

    sets: dict
    low: tuple[str, ...]

    @property
    def text(self) -> str:
        """The ``coverage`` cell: ``"X 5/25; Y 24/25; A 8/8; B 8/8"``."""
        return "; ".join(f"{name} {kept}/{asked}" for name, (kept, asked) in self.sets.items())

    @property
    def flagged(self) -> bool:
        return bool(self.low)

    def note(self) -> str:
        """Return the start of a flagged row's ``note``.

        Returns
        -------
        str
            ``"low coverage: B 1/12 (below 4 words)"``, ``""`` if no set is flagged.
        """
        return f"{LOW_COVERAGE}: " + ", ".join(self.low) if self.low else ""

    def columns(self) -> dict:
        """Return the ``coverage`` and ``low_coverage`` cells of a tidy row.

        Returns
        -------
        dict
            ``{"coverage": ..., "low_coverage": ...}``.
        """
        return {"coverage": self.text, "low_coverage": self.flagged}


def coverage(sets: Mapping[str, tuple[int, int]], *, min_words: int = MIN_WORDS,
             min_fraction: float = MIN_FRACTION) -> Coverage:
    """Return the :class:`Coverage` of a test's word sets, each judged by :func:`coverage_flag`.

    Parameters
    ----------
    sets : mapping of str to (int, int)
        Each set's name -> (words kept in the vocabulary, words asked).
    min_words : int, default 4
        Fewer words kept than this is low coverage.
    min_fraction : float, default 0.5
        Less than this fraction of the list kept is low coverage.

    Returns
    -------
    Coverage
        The coverage, its flagged sets named.

    Examples
    --------
    >>> c = coverage({"X": (5, 25), "Y": (24, 25), "A": (8, 8), "B": (1, 12)})
    >>> c.text, c.flagged
    ('X 5/25; Y 24/25; A 8/8; B 1/12', True)
    >>> c.note()
    'low coverage: X 5/25 (below 50% of the list), B 1/12 (below 4 words and below 50% of the list)'
    >>> coverage({"X": (5, 25)}, min_fraction=0.2).note()
    ''
    """
    min_words, min_fraction = check_coverage_thresholds(min_words, min_fraction)
    checked, low = {}, []
    for name, (kept, asked) in sets.items():
        kept, asked = check_int(f"{name} kept", kept, min=0), check_int(f"{name} asked", asked, min=0)
        if kept > asked:
            raise InvalidParameterError(f"set {name}: kept ({kept}) cannot exceed asked ({asked})")
        checked[str(name)] = (kept, asked)
        why = _shortfall(kept, asked, min_words, min_fraction)
        if why:
            low.append(f"{name} {kept}/{asked} ({why})")
    return Coverage(sets=checked, low=tuple(low))


def with_coverage(row: Mapping, cov: Coverage | None) -> dict:
    """Return ``row`` with its coverage filled in.

    ``coverage`` and ``low_coverage`` are filled from ``cov`` (NA for ``None``: a measure with no word lists to
    cover), and, for a flagged test that ran, its ``note`` begins with ``cov.note()`` (:data:`LOW_COVERAGE`). A
    test not run keeps its note (it begins :data:`NOT_RUN`: the reason, e.g. a set left too small, is the news),
    and is flagged in the column all the same; a test run in part keeps its ``"no <part>: <reason>"`` first
    (:func:`run_in_part`) and the low-coverage part follows it.

    Parameters
    ----------
    row : mapping
        A tidy row.
    cov : Coverage or None
        The coverage of its sets (:func:`coverage`).

    Returns
    -------
    dict
        A new row.

    Examples
    --------
    >>> r = with_coverage({"test": "t", "note": "paper: d = 1.50"}, coverage({"X": (2, 25), "Y": (25, 25)}))
    >>> r["coverage"], r["low_coverage"], r["note"]
    ('X 2/25; Y 25/25', True, 'low coverage: X 2/25 (below 4 words and below 50% of the list); paper: d = 1.50')
    """
    row = dict(row)
    if cov is None:
        row.update(coverage=None, low_coverage=None)
        return row
    row.update(cov.columns())
    note = row.get("note")
    note = note if isinstance(note, str) else ""
    if cov.flagged and not note.startswith(NOT_RUN):
        in_part = note.startswith(tuple(f"no {part}:" for part in PARTS))
        row["note"] = "; ".join(p for p in ((note, cov.note()) if in_part else (cov.note(), note)) if p)
    return row


def warn_low_coverage(frame: pd.DataFrame) -> None:
    """Warn once per flagged test of ``frame`` that ran.

    Each :class:`~wordbias.core.errors.LowCoverageWarning` names the embedding, the test, the sets and their counts
    (tests not run are reported as such, not warned).

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table.

    Warns
    -----
    LowCoverageWarning
        Once per flagged test that ran.

    Examples
    --------
    >>> import warnings
    >>> t = tidy_frame([with_coverage({"embedding": "e", "test": "t"}, coverage({"X": (1, 12)}))])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_low_coverage(t)
    >>> [w.category.__name__ for w in caught]
    ['LowCoverageWarning']
    """
    from wordbias.core.errors import LowCoverageWarning
    from wordbias.core.lookup import warn_user

    if frame.empty:
        return
    flagged = frame[frame["low_coverage"].fillna(False).to_numpy(dtype=bool)]
    for r in flagged.itertuples():
        note = r.note if isinstance(r.note, str) else ""
        if note.startswith(NOT_RUN):
            continue
        if note.startswith(LOW_COVERAGE + ": "):
            at = 0
        else:
            at = note.find("; " + LOW_COVERAGE + ": ")
            if at < 0:
                continue
            at += 2
        sets = note[at + len(LOW_COVERAGE) + 2:].partition("; ")[0]
        where = f" on {r.embedding}" if isinstance(r.embedding, str) else ""
        warn_user(LowCoverageWarning(
            f"{r.test}{where} ran on too few of its words: {sets} (words in the vocabulary/asked); its result "
            "describes the words that survived rather than the lists it is named after"))


def without_low_coverage(note: str | None) -> str:
    """Return ``note`` without its leading low-coverage part (``"low coverage: ...; "``).

    What follows can then be read as the note of a test not run or run in part (:func:`not_run`,
    :func:`run_in_part`).

    Parameters
    ----------
    note : str or None
        A row's note.

    Returns
    -------
    str
        The rest of the note (``""`` for none).

    Examples
    --------
    >>> without_low_coverage("low coverage: X 2/25 (below 4 words); not run: too few words")
    'not run: too few words'
    """
    note = "" if note is None or note is pd.NA or not isinstance(note, str) else note
    if note.startswith(LOW_COVERAGE + ":"):
        _, _, rest = note.partition("; ")
        return rest
    return note


def _reason(reason) -> str:
    """A reason as text: an exception as its class and message (a ``KeyError``'s key without quotes)."""
    if isinstance(reason, BaseException):
        msg = str(reason.args[0]) if isinstance(reason, KeyError) and reason.args else str(reason)
        return f"{type(reason).__name__}: {msg}"
    return str(reason)


def not_run_note(reason) -> str:
    """Return the ``note`` of a test that did not run: ``"not run: <reason>"``.

    Parameters
    ----------
    reason : str or BaseException
        Why; an exception gives its class and message (a ``KeyError``'s key without quotes), e.g. the estimate
        and the way out of a :class:`~wordbias.core.errors.TooCostlyError`.

    Returns
    -------
    str
        The note.

    Examples
    --------
    >>> not_run_note(KeyError("no vector for 'aster'"))
    "not run: KeyError: no vector for 'aster'"
    >>> not_run_note("needs a masked language model")
    'not run: needs a masked language model'
    """
    return f"{NOT_RUN}: {_reason(reason)}"


def part_missing_note(part: str, reason) -> str:
    """Return the ``note`` of a test run without one of its :data:`PARTS`: ``"no <part>: <reason>"``.

    For example d and p without their interval.

    Parameters
    ----------
    part : str
        The part missing, one of :data:`PARTS`.
    reason : str or BaseException
        Why; an exception gives its class and message.

    Returns
    -------
    str
        The note.

    Raises
    ------
    InvalidParameterError
        When ``part`` is not one of :data:`PARTS`.

    Examples
    --------
    >>> part_missing_note("bootstrap interval", ValueError("a set of one word"))
    'no bootstrap interval: ValueError: a set of one word'
    """
    if part not in PARTS:
        raise InvalidParameterError(f"part must be one of {PARTS}, not {part!r}")
    return f"no {part}: {_reason(reason)}"


def not_run(frame: pd.DataFrame) -> pd.DataFrame:
    """Return the rows of a tidy table whose test did not run (their ``note`` begins with :data:`NOT_RUN`).

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table.

    Returns
    -------
    pandas.DataFrame
        Those rows (a low-coverage part at the start of a note is looked past).

    Examples
    --------
    >>> t = tidy_frame([{"test": "a", "effect_size": 1.0}, {"test": "b", "note": not_run_note("too few words")}])
    >>> not_run(t).test.tolist()
    ['b']
    """
    return _note_starts(frame, (NOT_RUN,))


def run_in_part(frame: pd.DataFrame) -> pd.DataFrame:
    """Return the rows of a tidy table whose test ran without one of its :data:`PARTS`.

    Their note begins ``"no <part>: "`` (:func:`part_missing_note`).

    Parameters
    ----------
    frame : pandas.DataFrame
        As for :func:`not_run`.

    Returns
    -------
    pandas.DataFrame
        Those rows (a low-coverage part at the start of a note is looked past, as in :func:`not_run`).

    Examples
    --------
    >>> t = tidy_frame([{"test": "a"}, {"test": "b", "note": part_missing_note("bootstrap interval", "one word")}])
    >>> run_in_part(t).test.tolist()
    ['b']
    """
    return _note_starts(frame, tuple(f"no {part}:" for part in PARTS))


def _note_starts(frame: pd.DataFrame, prefixes: tuple[str, ...]) -> pd.DataFrame:
    if "note" not in frame.columns or frame.empty:
        return frame.iloc[0:0]
    notes = frame["note"].fillna("").astype(str).map(without_low_coverage)
    return frame[notes.str.startswith(prefixes).to_numpy()]


#: the key of a tidy table's ``attrs`` that names an ensemble's per-run rows: ``{embedding of a run's rows: the
#: run}``, set by :mod:`wordbias.battery.ensemble` (:func:`ensemble_run_rows`)
ENSEMBLE_RUNS = "ensemble_runs"


def ensemble_run_rows(frame: pd.DataFrame) -> np.ndarray:
    """Return which rows of a tidy table are an ensemble's single runs (the other rows: each test combined over
    the runs, or the rows of single embeddings).

    They are the rows whose ``embedding`` is one the table's ``attrs[ENSEMBLE_RUNS]`` names
    (:func:`wordbias.battery.ensemble.weat_battery` and :func:`~wordbias.battery.ensemble.report` record their
    runs there): never read from the label's text, since a label is free text (``"a/b"``, a file's path).

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table, with its ``attrs``.

    Returns
    -------
    numpy.ndarray of bool
        One value per row; all False for a table without run rows (a single embedding, ``compare``'s table, an
        ensemble of one run, a table read back from a file).

    Examples
    --------
    >>> t = tidy_frame([{"embedding": "e/seed-1", "test": "T"}, {"embedding": "e", "test": "T"},
    ...                 {"embedding": "a/b", "test": "T"}])
    >>> t.attrs[ENSEMBLE_RUNS] = {"e/seed-1": "seed-1"}
    >>> ensemble_run_rows(t).tolist()
    [True, False, False]
    """
    runs = frame.attrs.get(ENSEMBLE_RUNS) or {}
    if not runs or "embedding" not in frame.columns:
        return np.zeros(len(frame), dtype=bool)
    return np.array([isinstance(e, str) and e in runs for e in frame["embedding"]], dtype=bool)


#: what a spreadsheet (Excel, LibreOffice, Google Sheets) reads as the start of a formula when a cell begins with
#: it: ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (OWASP, "CSV Injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: the mark :func:`spreadsheet_safe` puts before such text: a spreadsheet shows a cell that begins with it as text
TEXT_MARK = "'"
#: where a spreadsheet may begin a cell inside one CSV field: besides the comma (inside a quoted field no
#: separator), the semicolon and the tab of a locale or an import dialog that splits on them, and a new line
_SEGMENT_BREAK = re.compile(r"([;\t\r\n])")
#: a plain number, which a spreadsheet reads as that number (never a formula) even with its sign
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\Z")


def _segment_needs_mark(segment: str) -> bool:
    """Whether a part of a cell (the cell's start, or the text after a separator) needs :data:`TEXT_MARK`."""
    text = segment.lstrip(" ")
    if not text:
        return False
    return text[0] == TEXT_MARK or (text[0] in "=+-@" and not _PLAIN_NUMBER.match(text))


def _mark(segment: str) -> str:
    spaces = len(segment) - len(segment.lstrip(" "))
    return segment[:spaces] + TEXT_MARK + segment[spaces:]


def spreadsheet_safe(value, *, na_rep: str | None = None):
    """Return a CSV text cell as a spreadsheet shows it as text, never runs it as a formula.

    The rule of OWASP's "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection): a cell that
    begins with one of :data:`FORMULA_START` (``= + - @``, a tab, a carriage return) gets :data:`TEXT_MARK`
    (``'``) before it, unless it is a plain number (``-2``, ``+1.5e3``: a spreadsheet reads those as numbers).
    The same holds after a semicolon, a tab or a new line inside the cell (where a spreadsheet that splits
    lines on them would begin a new cell: ``x;=1+2``), spaces before the text looked past. So that the mark
    can be taken off again without guessing (:func:`spreadsheet_text`), text that begins with the mark itself
    gets a second one, and so does text equal to ``na_rep`` (the spelling of a missing value, which would
    otherwise read back as missing). Anything else, and every value that is not a string (a number, NA), is
    returned as it is.

    Parameters
    ----------
    value : object
        A cell.
    na_rep : str, optional
        How the file writes a missing value (``"NA"``); text equal to it is marked.

    Returns
    -------
    object
        The cell to write.

    Examples
    --------
    >>> [spreadsheet_safe(v) for v in ("=1+2", "@SUM(A1)", "-2+3", "WEAT1", -2.5, "-2")]
    ["'=1+2", "'@SUM(A1)", "'-2+3", 'WEAT1', -2.5, '-2']
    >>> spreadsheet_safe("x;=1+2"), spreadsheet_safe("'quoted"), spreadsheet_safe("NA", na_rep="NA")
    ("x;'=1+2", "''quoted", "'NA")
    """
    if not isinstance(value, str) or not value:
        return value
    parts = _SEGMENT_BREAK.split(value)      # text, separator, text, separator, ... text
    changed = False
    for i in range(0, len(parts), 2):
        if _segment_needs_mark(parts[i]):
            parts[i] = _mark(parts[i])
            changed = True
    if parts[0] == "" and value[0] in FORMULA_START:     # a cell that begins with a tab or a carriage return
        parts[0] = TEXT_MARK
        changed = True
    if not changed and na_rep and value == na_rep:
        return TEXT_MARK + value
    return "".join(parts) if changed else value


def spreadsheet_text(value):
    """Return a cell written by :func:`spreadsheet_safe` as it was: the inverse, one :data:`TEXT_MARK` taken off
    wherever the rule put one (the cell's start, after a semicolon, a tab or a new line, past spaces).

    Parameters
    ----------
    value : object
        A cell as read from the file (a string, or what the reader made of it).

    Returns
    -------
    object
        The cell as given to the writer (what is not a string is returned as it is).

    Examples
    --------
    >>> cells = ["=1+2", "x;=1+2", "'quoted", "@x", "-2", "plain; text", "a;'b"]
    >>> [spreadsheet_text(spreadsheet_safe(v)) for v in cells] == cells
    True
    """
    if not isinstance(value, str) or TEXT_MARK not in value:
        return value
    parts = _SEGMENT_BREAK.split(value)
    for i in range(0, len(parts), 2):
        text = parts[i].lstrip(" ")
        if text[:1] == TEXT_MARK:
            spaces = len(parts[i]) - len(text)
            parts[i] = parts[i][:spaces] + text[1:]
    return "".join(parts)


def _safe_values(values, na_rep: str | None) -> list:
    return [spreadsheet_safe(v, na_rep=na_rep) for v in values]


def _safe_index(index: pd.Index, na_rep: str | None) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_tuples([tuple(_safe_values(t, na_rep)) for t in index],
                                         names=_safe_values(index.names, na_rep))
    if not (pd.api.types.is_object_dtype(index.dtype) or pd.api.types.is_string_dtype(index.dtype)):
        return index.rename(spreadsheet_safe(index.name, na_rep=na_rep))
    return pd.Index(_safe_values(index, na_rep), dtype=index.dtype, name=spreadsheet_safe(index.name, na_rep=na_rep))


def spreadsheet_safe_frame(frame: pd.DataFrame, *, na_rep: str | None = None, index: bool = False) -> pd.DataFrame:
    """Return a copy of ``frame`` whose text cells (and column names; the index's with ``index=True``) are
    :func:`spreadsheet_safe`: what :func:`write_csv` and :func:`write_tidy` write.

    Columns of numbers, booleans and dates are left alone (a negative number stays a number); in a column of
    text or of mixed objects only the strings are looked at.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    na_rep : str, optional
        How the file writes a missing value; text equal to it is marked.
    index : bool, default False
        Whether the index is written too.

    Returns
    -------
    pandas.DataFrame
        The copy (its ``attrs`` kept).

    Examples
    --------
    >>> t = pd.DataFrame({"test": ["=1+2", "WEAT1"], "d": [-1.5, 0.5]})
    >>> spreadsheet_safe_frame(t).values.tolist()
    [["'=1+2", -1.5], ['WEAT1', 0.5]]
    """
    out = frame.copy()
    for i, (name, column) in enumerate(frame.items()):
        dtype = column.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            cats = column.cat.categories
            if pd.api.types.is_object_dtype(cats.dtype) or pd.api.types.is_string_dtype(cats.dtype):
                safe = _safe_values(cats, na_rep)
                if len(set(safe)) == len(safe) and safe != list(cats):
                    out.isetitem(i, column.cat.rename_categories(safe))
        elif pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            values = column.tolist()
            safe = _safe_values(values, na_rep)
            if safe != values:
                out.isetitem(i, pd.Series(pd.array(safe, dtype=dtype), index=column.index, name=name))
    out.columns = _safe_index(frame.columns, na_rep) if isinstance(frame.columns, pd.MultiIndex) else pd.Index(
        _safe_values(frame.columns, na_rep), dtype=frame.columns.dtype, name=frame.columns.name)
    if index:
        out.index = _safe_index(frame.index, na_rep)
    out.attrs = dict(frame.attrs)
    return out


def _holds_carriage_return(frame: pd.DataFrame, index: bool) -> bool:
    cells = [frame.columns] + ([frame.index] if index else [])
    cells += [frame[c] for c in frame.columns[[pd.api.types.is_object_dtype(d) or pd.api.types.is_string_dtype(d)
                                                 or isinstance(d, pd.CategoricalDtype) for d in frame.dtypes]]]
    return any(isinstance(v, str) and "\r" in v for values in cells for v in
               (values.to_flat_index() if isinstance(values, pd.Index) else values.astype(object)))


def write_csv(frame: pd.DataFrame, path: str | os.PathLike, *, what: str = "the table", index: bool = False,
              float_format: str | None = None, na_rep: str = "", **options) -> Path:
    """Write a table for a user as CSV, safe to open in a spreadsheet, atomically (a reader never sees half a file).

    The one writer of the CSV files wordbias writes for users (the command's ``ensemble.csv``, the papers'
    tables; :func:`write_tidy` for the tidy table): text cells are :func:`spreadsheet_safe`
    (:func:`spreadsheet_safe_frame`), numbers and ordinary text written as pandas writes them. ``path`` is
    checked by :func:`wordbias.core.paths.check_output_file`; a full disk raises
    :class:`wordbias.core.errors.DiskFullError` naming it.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    path : str or path-like
        The CSV file to write.
    what : str, default "the table"
        How a disk-full error names the file.
    index : bool, default False
        Whether to write the index.
    float_format : str, optional
        The format of floats (pandas' default: the shortest text that reads back as the same float).
    na_rep : str, default ""
        How a missing value is written.
    **options
        Further options of :meth:`pandas.DataFrame.to_csv` (default ``lineterminator="\\n"``, UTF-8).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    InvalidParameterError
        When ``path`` is refused.
    DiskFullError
        When the disk is full; it names the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = write_csv(pd.DataFrame({"label": ["@SUM(A1)", "glove"], "d": [-0.5, 1.0]}),
    ...                  pathlib.Path(tempfile.mkdtemp()) / "t.csv")
    >>> print(path.read_text(), end="")
    label,d
    '@SUM(A1),-0.5
    glove,1.0
    """
    check_output_file(path, what="path")
    path = Path(path)
    safe = spreadsheet_safe_frame(frame, na_rep=na_rep, index=index)
    options = {"lineterminator": "\n", "encoding": "utf-8", **options}
    if options.get("quoting", csv.QUOTE_MINIMAL) == csv.QUOTE_MINIMAL and "\r" not in options["lineterminator"] \
            and _holds_carriage_return(safe, index):
        # the csv module quotes a field holding a carriage return only when the line ends hold one: without
        # quotes a reader would end the row there, so such a file has every text field quoted
        options["quoting"] = csv.QUOTE_NONNUMERIC
    with reraise_disk_full(path, what), atomic_file(path) as tmp:
        safe.to_csv(tmp, index=index, float_format=float_format, na_rep=na_rep, **options)
    return path


def write_tidy(frame: pd.DataFrame, path: str | os.PathLike, *, float_format: str | None = FLOAT_FORMAT) -> Path:
    """Write a tidy table (checked first) to ``path`` as CSV, atomically (a reader never sees half a file).

    ``path`` is checked by :func:`wordbias.core.paths.check_output_file` (not empty, not a folder, not inside the
    package or the data folder); a full disk raises :class:`wordbias.core.errors.DiskFullError` naming it.

    Floats are written with ``float_format`` (default ``"%.6g"``, six significant digits; ``None``: the
    shortest text that reads back as the same float), missing values as ``NA``, text quoted where needed, a
    text cell that a spreadsheet would run as a formula (``=...``, ``@...``) with a ``'`` before it
    (:func:`spreadsheet_safe`; :func:`read_tidy` takes it off again).

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table.
    path : str or path-like
        The CSV file to write.
    float_format : str or None, default "%.6g"
        The format of floats (six significant digits); ``None``: the shortest text that reads back as the same
        float.

    Returns
    -------
    pathlib.Path
        The path written, resolved.

    Raises
    ------
    InvalidParameterError
        When ``frame`` is not a tidy table, or ``path`` is refused.
    DiskFullError
        When the disk is full; it names the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tidy.csv"
    >>> _ = write_tidy(tidy_frame([{"test": "t", "effect_size": 1.23456789, "dropped": ""}]), path)
    >>> line = path.read_text().splitlines()[1]
    >>> "1.23457" in line, line.startswith("NA,NA,NA,t,")
    (True, True)
    """
    check_tidy(frame)
    return write_csv(frame, path, what="the tidy table", float_format=float_format, na_rep=_NA,
                     quoting=csv.QUOTE_MINIMAL)


def read_tidy(path: str | os.PathLike) -> pd.DataFrame:
    """Read a tidy table written by :func:`write_tidy`, with its dtypes, and check it.

    Only ``NA`` is read as missing (an empty text cell stays ``""``); the mark :func:`write_tidy` puts before
    text a spreadsheet would run as a formula is taken off (:func:`spreadsheet_text`); a file whose columns are
    not :data:`COLUMNS` is refused, naming the file.

    Parameters
    ----------
    path : str or path-like
        The CSV file.

    Returns
    -------
    pandas.DataFrame
        The tidy table, checked.

    Raises
    ------
    FileNotFoundError
        When there is no file at ``path``.
    InvalidParameterError
        When the file is not a tidy table (its columns, a value); the message names the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tidy.csv"
    >>> t = tidy_frame([{"test": "t", "effect_size": 0.5, "n_x": 8, "dropped": ""}])
    >>> back = read_tidy(write_tidy(t, path))
    >>> back.equals(t), back.loc[0, "dropped"], back.loc[0, "note"]
    (True, '', <NA>)
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no tidy results file at {path}")
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[_NA], encoding="utf-8")
    try:
        cols = list(raw.columns)
        if cols != list(COLUMNS):
            missing = [c for c in COLUMNS if c not in cols]
            extra = [c for c in cols if c not in COLUMNS]
            raise InvalidParameterError(f"columns are not the tidy columns (missing: {missing}; unknown: {extra})"
                                        if missing or extra else "columns out of order")
        data = {}
        for c in COLUMNS:
            values = raw[c].tolist()
            if DTYPES[c] == "boolean":
                values = [pd.NA if not isinstance(v, str) else v for v in values]     # NA is read as NaN
                bad = [v for v in values if v is not pd.NA and v not in _BOOL_TEXT]
                if bad:
                    raise InvalidParameterError(f"tidy column {c!r}: {bad[0]!r} is not True, False or NA")
                values = [v if v is pd.NA else _BOOL_TEXT[v] for v in values]
            elif DTYPES[c] != "string":
                try:
                    values = [v if v is pd.NA or (isinstance(v, float) and np.isnan(v)) else
                              (int(v) if DTYPES[c] == "Int64" else float(v)) for v in values]
                except ValueError as exc:
                    raise InvalidParameterError(f"tidy column {c!r}: {exc}") from None
            else:
                values = [spreadsheet_text(v) for v in values]
            data[c] = _column(c, values)
        frame = pd.DataFrame(data, columns=list(COLUMNS))
        return check_tidy(frame)
    except InvalidParameterError as exc:
        raise InvalidParameterError(f"{path}: {exc}") from None
