"""The same battery across several embeddings (``wordbias compare``): one tidy table and one heat map.

:func:`compare` runs :func:`wordbias.battery.report.report` on each embedding and stacks the tables (adjusted p
stay within each embedding's report, the family named in ``p_family``); :func:`heatmap` shows test x
embedding, each cell coloured by its distance from "no bias" on its measure's own scale
(:func:`wordbias.catalogue.bias_distance`, :func:`heat_cells`) and annotated with the value and its interval.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias import catalogue as _catalogue
from wordbias.core import tidy as _tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.jobs import run_jobs
from wordbias.core.validation import check_bool
from wordbias.options import Resampling, Words, loose_options

__all__ = ["compare", "check_distinct", "embedding_files", "same_file", "heatmap", "heat_cells", "HeatCells",
           "cell_text", "LOW_COVERAGE_MARK", "COLOUR_LABEL"]

#: the mark of a heat-map cell whose row has low coverage (``low_coverage``), explained under the map
LOW_COVERAGE_MARK = "\u2020"
#: the label of the heat map's colour bar
COLOUR_LABEL = "distance from no bias (each measure's own scale)"


def _pairs(embeddings) -> list[tuple[str, object]]:
    """``embeddings`` (a mapping label -> embedding, or a sequence of (label, embedding) pairs) as a list of
    pairs, the labels checked: non-empty strings, unique."""
    if isinstance(embeddings, Mapping):
        pairs = list(embeddings.items())
    elif isinstance(embeddings, Sequence) and not isinstance(embeddings, (str, bytes)):
        pairs = []
        for item in embeddings:
            if not (isinstance(item, Sequence) and not isinstance(item, (str, bytes)) and len(item) == 2):
                raise InvalidParameterError(f"embeddings must map labels to embeddings or be (label, embedding) "
                                            f"pairs; got {item!r:.60}")
            pairs.append(tuple(item))
    else:
        raise InvalidParameterError(f"embeddings must map labels to embeddings, not {type(embeddings).__name__}")
    if len(pairs) < 1:
        raise InvalidParameterError("embeddings is empty: give at least one (label, embedding)")
    labels = [str(k) if isinstance(k, os.PathLike) else k for k, _ in pairs]
    bad = [k for k in labels if not isinstance(k, str) or not k]
    if bad:
        raise InvalidParameterError(f"embedding labels must be non-empty strings, not {bad!r:.80}")
    dup = sorted({k for k in labels if labels.count(k) > 1})
    if dup:
        raise InvalidParameterError(f"embedding labels must be unique; {dup} given more than once (rows of the "
                                    "table could not be told apart): give each embedding its own label")
    return [(k, e) for k, (_, e) in zip(labels, pairs)]


def embedding_files(embedding) -> list[Path]:
    """Return the files an embedding reads, to tell whether two arguments are one embedding.

    Parameters
    ----------
    embedding : str or path-like or object
        A registered name, a path, or vectors already loaded.

    Returns
    -------
    list of pathlib.Path
        A registered name's file(s) where they are on this machine (none otherwise; for a package, its folder
        and the files in it), a path as given (``~`` expanded); nothing for vectors already loaded.

    Examples
    --------
    >>> embedding_files("~/vectors.txt") == [Path("~/vectors.txt").expanduser()]
    True
    >>> embedding_files({"a": [1.0]})
    []
    """
    from wordbias.embeddings import REGISTRY, registry

    if not isinstance(embedding, (str, os.PathLike)):
        return []
    if isinstance(embedding, str) and embedding in REGISTRY:
        spec = REGISTRY[embedding]
        found = registry.existing_source(spec)
        if found is None:
            return []
        if spec.source == "package":                # a folder holding the files
            return [found] + [found / f for f in spec.files]
        return [found]
    return [Path(embedding).expanduser()]


def same_file(a: Path, b: Path) -> bool:
    """Tell whether two paths name one file.

    Parameters
    ----------
    a, b : pathlib.Path
        The two paths.

    Returns
    -------
    bool
        :func:`os.path.samefile` where both exist (hard and symbolic links, ``./``, ``..``), else whether their
        resolved forms are equal (their absolute forms when they cannot be resolved).

    Examples
    --------
    >>> same_file(Path("a.txt"), Path("./a.txt")), same_file(Path("a.txt"), Path("x/../b.txt"))
    (True, False)
    """
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(a) == os.path.abspath(b)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _shown(label: str, embedding) -> str:
    spelling = os.fspath(embedding) if isinstance(embedding, (str, os.PathLike)) else None
    return f"{label!r}" if spelling is None or spelling == label else f"{label!r} ({spelling})"


def check_distinct(pairs: Sequence[tuple[str, object]]) -> None:
    """Refuse one embedding given twice.

    One embedding is one file under two spellings (a relative and an absolute path, ``./``, a symbolic link, a
    registered name and the path of its file, :func:`embedding_files`, :func:`same_file`), or one loaded object
    under two labels. Comparing an embedding with itself gives identical rows, never a comparison.

    Parameters
    ----------
    pairs : sequence of (str, object)
        The (label, embedding) pairs to compare.

    Raises
    ------
    InvalidParameterError
        When two pairs are one embedding; the message names both spellings.

    Examples
    --------
    >>> try:
    ...     check_distinct([("a.txt", "a.txt"), ("./a.txt", "./a.txt")])
    ... except InvalidParameterError as err:
    ...     print(str(err)[:71])
    the same embedding is given twice: 'a.txt' and './a.txt' are one file (
    >>> check_distinct([("a", "a.txt"), ("b", "b.txt")])        # two files: nothing to say
    """
    files = [embedding_files(e) for _, e in pairs]
    for i in range(len(pairs)):
        for j in range(i + 1, len(pairs)):
            (li, ei), (lj, ej) = pairs[i], pairs[j]
            if ei is ej and not isinstance(ei, (str, os.PathLike)):
                raise InvalidParameterError(f"the same embedding is given twice: {li!r} and {lj!r} are one object "
                                            f"({type(ei).__name__}); compare needs different embeddings")
            same = next(((a, b) for a in files[i] for b in files[j] if same_file(a, b)), None)
            if same is not None:
                raise InvalidParameterError(
                    f"the same embedding is given twice: {_shown(li, ei)} and {_shown(lj, ej)} are one file "
                    f"({_resolved(same[0])}); compare needs different embeddings (comparing a file with itself gives "
                    "identical rows)")


def compare(embeddings, *, lists=None, common_vocabulary: bool = False, **report_kwargs) -> pd.DataFrame:
    """Run the same battery on each embedding and return one tidy table.

    The battery is :func:`wordbias.battery.report.report`, or with ``lists`` the WEATs of a user's lists
    through :func:`wordbias.battery.weat.weat_battery`. The table holds the rows of every embedding, in the
    order given. Holm and Benjamini-Hochberg adjusted p are over each embedding's report (its family named in
    ``p_family``). ``min_words`` and ``min_fraction`` (in ``report_kwargs``) flag the rows of low coverage as in
    :func:`wordbias.battery.report.report`.

    A test measured on different words in different embeddings (a word of a set in one vocabulary and not in
    another) has a note on each of its rows, ``"measured on different words across embeddings: X 5/25 on a.txt,
    24/25 on glove-6b-50d"`` (words in the vocabulary of those asked, per set that differs), and warns
    :class:`~wordbias.core.errors.LowCoverageWarning` once per test.

    Parameters
    ----------
    embeddings : mapping or sequence of (str, object)
        A mapping label -> embedding (a registry name, a path, ``KeyedVectors`` or a word -> vector mapping),
        or a sequence of (label, embedding) pairs. Labels must be unique non-empty strings, and one embedding
        may not be given twice (one file under two spellings, one object under two labels:
        :func:`check_distinct`).
    lists : str or path-like or UserLists, optional
        A user's lists: the path of a YAML file of :mod:`wordbias.datasets.user_lists` or its
        :class:`~wordbias.datasets.user_lists.UserLists`; their WEATs are measured instead of the report.
    common_vocabulary : bool, default False
        Whether to measure every embedding on the words they all have: the words of the tests' sets
        (:func:`wordbias.battery.direction.report_words`, or the user's lists) that one embedding lacks are
        removed from the others before measuring (words compared in lower case, so a cased and an uncased
        embedding match; each embedding's lookup forgets those words, its matrix shared, not copied; its other
        words kept: UBE's names and words, the vocabulary's own, are not restricted).
    **report_kwargs
        Passed to ``report`` (``seed``, ``n_permutations``, ``n_resamples``, ``ube``, ``progress``,
        ``min_words``, ``min_fraction``, ``balance_targets``, ``concurrent``, ``while_waiting``; not ``label``), or
        to ``weat_battery`` with ``lists`` (not ``ube``, ``concurrent`` or ``while_waiting``; the word options as
        its ``words``, the others as its ``resampling``).

    Returns
    -------
    pandas.DataFrame
        The stacked tidy tables. ``frame.attrs["timings"][label]`` holds the time of each part of each
        embedding's run, ``frame.attrs["parameters"][label]`` its parameters.

    Raises
    ------
    InvalidParameterError
        When ``embeddings`` is empty or malformed, its labels are not unique non-empty strings, one embedding
        is given twice, ``label`` is passed, ``common_vocabulary`` is not a bool, or ``lists`` is invalid (holds
        no WEATs, or ``ube`` is passed with it).

    Warns
    -----
    LowCoverageWarning
        Once per test measured on different words across embeddings, and once per flagged test that ran.

    Examples
    --------
    >>> import warnings
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.datasets.stimuli import WeatSpec
    >>> from wordbias.datasets.user_lists import UserLists
    >>> a = to_keyed_vectors(["rose", "tulip", "ant", "wasp", "love", "hate"],
    ...     np.array([[1, 0.1], [0.9, 0.2], [0.1, 1], [0.2, 0.9], [1, 0], [0, 1]], dtype=np.float32))
    >>> b = to_keyed_vectors(["rose", "tulip", "ant", "wasp", "love", "hate"],
    ...     np.array([[0.1, 1], [0.2, 0.9], [1, 0.1], [0.9, 0.2], [1, 0], [0, 1]], dtype=np.float32))
    >>> spec = WeatSpec("flowers", "Flowers and insects", ("rose", "tulip"), ("ant", "wasp"), ("love",),
    ...                 ("hate",), names={"X": "flowers", "Y": "insects", "A": "pleasant", "B": "unpleasant"},
    ...                 paper={}, original_finding=None)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")                   # two words a set: low coverage
    ...     t = compare({"a": a, "b": b}, lists=UserLists(battery="toy", weat=(spec,)), n_resamples=200)
    >>> t[["embedding", "battery", "test"]].values.tolist(), t.effect_size.round(3).tolist()
    ([['a', 'user:toy', 'flowers'], ['b', 'user:toy', 'flowers']], [1.726, -1.726])

    Each embedding needs its own label:

    >>> kv = to_keyed_vectors(["a", "b"], np.eye(2, dtype=np.float32))
    >>> compare([("one", kv), ("one", kv)])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: embedding labels must be unique; ['one'] given more than once (rows of the table could not be told apart): give each embedding its own label
    """
    pairs = _pairs(embeddings)
    check_distinct(pairs)
    if "label" in report_kwargs:
        raise InvalidParameterError("compare takes the labels from embeddings; do not pass label")
    workers = report_kwargs.pop("workers", 1)
    scheduler = report_kwargs.pop("scheduler", None)
    if lists is not None:
        _lists_runner(lists, report_kwargs)                # checks the lists and the options now
    common_vocabulary = check_bool("common_vocabulary", common_vocabulary)
    removed = {}
    if common_vocabulary:
        if any(_is_ensemble(emb) for _, emb in pairs):
            raise InvalidParameterError("common_vocabulary does not apply to an ensemble: compare its runs' "
                                        "words with wordbias.battery.ensemble instead")
        pairs, removed = _common_vocabulary(pairs, lists)
    jobs = [(emb, label, lists, report_kwargs) for label, emb in pairs]
    results = run_jobs(_compare_job, jobs, workers=workers, scheduler=scheduler,
                       progress=bool(report_kwargs.get("progress")) and (workers != 1 or scheduler is not None),
                       desc="compare", unit="embedding")
    frames, timings, parameters = [], {}, {}
    for (label, _), f in zip(pairs, results):
        frames.append(f)
        timings[label] = f.attrs.get("timings", {})
        parameters[label] = f.attrs.get("parameters", {})
        if common_vocabulary:
            parameters[label] = {**parameters[label], "common_vocabulary": True,
                                 "words_removed_for_common_vocabulary": len(removed[label])}
    out = _tidy.check_tidy(_note_different_words(pd.concat(frames, ignore_index=True)))
    out.attrs = {"timings": timings, "parameters": parameters}
    return out


def _is_ensemble(emb) -> bool:
    from wordbias.embeddings.ensemble import Ensemble, is_ensemble

    return isinstance(emb, Ensemble) or is_ensemble(emb)


def _compare_job(emb, label: str, lists, report_kwargs: dict) -> pd.DataFrame:
    """One embedding's rows of a comparison (a job of :func:`wordbias.core.jobs.run_jobs`): the report, or the
    lists' WEATs; an ensemble's combined rows (each test combined over its runs, :mod:`wordbias.battery.ensemble`)."""
    from wordbias.battery import report as battery_report

    if _is_ensemble(emb):
        from wordbias.battery import ensemble as battery_ensemble

        options = {k: v for k, v in report_kwargs.items() if k not in ("progress", "concurrent", "while_waiting")}
        if lists is None:
            frame = battery_ensemble.report(emb, label=label, **options)
        else:
            lists = _read_lists(lists)
            frame = battery_ensemble.weat_battery(emb, list(lists.weat), battery=f"user:{lists.battery}",
                                                  paper="user", label=label, **_option_objects(options))
        return battery_ensemble.combined_only(frame)
    run = battery_report.report if lists is None else _lists_runner(lists, report_kwargs)
    return run(emb, label=label, **report_kwargs)


#: the note of a test measured on different words across embeddings (:func:`compare`)
DIFFERENT_WORDS = "measured on different words across embeddings"


def _set_words(kv, lists) -> set[str]:
    """The words the tests look up in ``kv``: the report's (:func:`wordbias.battery.direction.report_words`) or
    those of the WEATs of a user's ``lists``, case-folded as an uncased vocabulary is searched."""
    from wordbias import embeddings as _embeddings
    from wordbias.battery import direction as battery_direction
    from wordbias.datasets import user_lists

    if lists is None:
        return battery_direction.report_words(kv)
    if isinstance(lists, (str, os.PathLike)):
        lists = user_lists.read_user_lists(lists)
    fold = str.lower if not _embeddings.is_cased(kv) else (lambda w: w)
    return {fold(w) for spec in lists.weat for r in "XYAB" for w in getattr(spec, r)}


def _common_vocabulary(pairs, lists):
    """Each embedding without the set words (compared in lower case) that some other embedding lacks, and the
    words removed from each, by label."""
    from wordbias import embeddings as _embeddings
    from wordbias.battery import weat as battery_weat

    kvs = [(label, battery_weat.as_keyed_vectors(emb)) for label, emb in pairs]
    asked = {label: _set_words(kv, lists) for label, kv in kvs}
    lacking = {w.lower() for label, kv in kvs for w in asked[label] if w not in kv.key_to_index}
    out, removed = [], {}
    for label, kv in kvs:
        gone = {w for w in asked[label] if w in kv.key_to_index and w.lower() in lacking}
        removed[label] = sorted(gone)
        if gone:  # the same matrix, not a copy: only the lookup forgets the words (a 3M x 300 matrix is 3.6 GB)
            index = {w: i for w, i in kv.key_to_index.items() if w not in gone}
            kv = _embeddings.to_keyed_vectors(list(kv.index_to_key), kv.vectors, index)
        out.append((label, kv))
    return out, removed


def _kept_words(row) -> dict[str, tuple[int, int, frozenset]]:
    """Per set of a row: (kept, asked, the words missing, lower-cased) from ``coverage`` and ``dropped``."""
    missing: dict[str, set] = {}
    for part in str(row.dropped if isinstance(row.dropped, str) else "").split("; "):
        name, sep, words = part.partition(": ")
        if sep and not name.endswith(" balanced out"):
            missing.setdefault(name, set()).update(w.lower() for w in words.split())
    out = {}
    for part in str(row.coverage).split("; "):
        name, _, counts = part.rpartition(" ")
        kept, _, asked = counts.partition("/")
        if name and kept.isdigit() and asked.isdigit():
            out[name] = (int(kept), int(asked), frozenset(missing.get(name, ())))
    return out


def _note_different_words(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with a note on the rows of each test whose sets kept different words in different embeddings
    (:data:`DIFFERENT_WORDS`), one :class:`~wordbias.core.errors.LowCoverageWarning` per such test."""
    from wordbias.core.errors import LowCoverageWarning
    from wordbias.core.lookup import warn_user

    if frame.empty or frame.embedding.nunique(dropna=True) < 2:
        return frame
    frame = frame.copy()
    has = frame.coverage.notna()
    keys = ["battery", "test", "measure"]
    for _, group in frame[has].groupby([frame[k].fillna("") for k in keys], sort=False):
        if group.embedding.nunique() < 2:
            continue
        sets = {r.Index: _kept_words(r) for r in group.itertuples()}
        names = list(dict.fromkeys(n for s in sets.values() for n in s))
        differ = [n for n in names if len({s.get(n) for s in sets.values()}) > 1]
        if not differ:
            continue
        text = "; ".join(n + " " + ", ".join(
            f"{s[n][0]}/{s[n][1]} on {frame.at[i, 'embedding']}" if n in s else f"not measured on {frame.at[i, 'embedding']}"
            for i, s in sets.items()) for n in differ)
        note = f"{DIFFERENT_WORDS}: {text}"
        for i in group.index:
            old = frame.at[i, "note"]
            frame.at[i, "note"] = note if pd.isna(old) or not old else f"{old}; {note}"
        r = group.iloc[0]
        warn_user(LowCoverageWarning(f"{r.test} was {note} (kept/asked; compare(common_vocabulary=True), or "
                                     "--common-vocabulary, measures every embedding on the words they share)"))
    return frame


def _read_lists(lists):
    """A user's lists (a path or a ``UserLists``), checked to hold WEATs."""
    from wordbias.datasets import user_lists

    if isinstance(lists, (str, os.PathLike)):
        lists = user_lists.read_user_lists(lists)
    if not isinstance(lists, user_lists.UserLists):
        raise InvalidParameterError(f"lists must be the path of a YAML lists file or a UserLists, not "
                                    f"{type(lists).__name__}")
    if not lists.weat:
        raise InvalidParameterError(f"the lists {lists.battery!r} hold no WEATs (a 'weat' list)")
    return lists


def _lists_runner(lists, report_kwargs):
    """``weat_battery`` bound to the WEATs of a user's lists (a path or a ``UserLists``)."""
    from wordbias.battery import weat as battery_weat

    if "ube" in report_kwargs:
        raise InvalidParameterError("ube applies to the report's battery, not to a user's lists")
    lists = _read_lists(lists)

    def run(embedding, *, label, progress: bool = False, **options):
        return battery_weat.weat_battery(embedding, list(lists.weat), label=label, battery=f"user:{lists.battery}",
                                         paper="user", progress=progress, **_option_objects(options))
    return run


def _option_objects(options: dict) -> dict:
    """The report's loose keywords as the shared option objects of a WEAT battery
    (:func:`wordbias.options.loose_options`; the permutations' default 100,000, the report's)."""
    defaults = {"resampling": Resampling(n_permutations=100_000), "words": Words()}
    return {**defaults, **loose_options(defaults["resampling"], defaults["words"], **options)}


def _num(x: float) -> str:
    return "NA" if pd.isna(x) else f"{x:.2f}"


def cell_text(row) -> str:
    """Return the text of a heat-map cell for one row of a tidy table.

    Parameters
    ----------
    row : pandas.Series or mapping
        One row of a tidy table (``effect_size``, ``ci_low``, ``ci_high``, ``statistic``, ``statistic_name``,
        ``note``).

    Returns
    -------
    str
        ``"1.23\\n[0.95, 1.51]"`` (the effect size and its interval, two decimals), the statistic for a test
        without an effect size (UBE; ``"no effect size"`` when there is none either), ``"not run"`` for a test
        that did not run.

    Examples
    --------
    >>> cell_text(pd.Series({"effect_size": 1.234, "ci_low": 0.9, "ci_high": 1.5, "note": ""}))
    '1.23\\n[0.90, 1.50]'
    >>> cell_text(pd.Series({"effect_size": float("nan"), "note": "not run: too few words"}))
    'not run'
    """
    note = row.get("note")
    if isinstance(note, str) and note.startswith(_tidy.NOT_RUN):
        return "not run"
    if pd.isna(row.get("effect_size")):
        stat = row.get("statistic")
        if stat is None or pd.isna(stat):
            return "no effect size"
        return "\n".join(textwrap.wrap(f"{row.get('statistic_name', 'statistic')}: {stat:g}", 22))
    lo, hi = row.get("ci_low"), row.get("ci_high")
    interval = "" if pd.isna(lo) or pd.isna(hi) else f"\n[{_num(lo)}, {_num(hi)}]"
    return f"{_num(row['effect_size'])}{interval}"


@dataclass(frozen=True)
class HeatCells:
    """The numbers behind the heat map (:func:`heat_cells`), one entry per test (row) and embedding (column).

    Attributes
    ----------
    tests : list of (str, str)
        The rows' (battery, test), in the table's order.
    embeddings : list of str
        The columns' embeddings, in the table's order.
    labels : list of str
        The rows' labels: the test, its effect size's name and, where it is not 0, the value of no bias.
    value : numpy.ndarray
        The effect size, in the measure's own units (NaN: none).
    colour : numpy.ndarray
        The colour: :func:`wordbias.catalogue.bias_distance` of the effect size, 0 no bias, +-1 the most the
        measure shows (NaN: not coloured).
    text : numpy.ndarray of str
        The cell's text (:func:`cell_text`), with :data:`LOW_COVERAGE_MARK` after the value of a row of low
        coverage.
    low : numpy.ndarray of bool
        Whether the cell's row ran with low coverage (``low_coverage``).
    no_null : numpy.ndarray of bool
        Whether the cell holds a value that is not coloured because its measure has no value of no bias (MAC) or
        the row names no measure: drawn hatched.
    scales : dict of str to float
        The distance counted as full colour for each unbounded measure shown (the largest distance from no bias
        of its values and interval ends in the table).
    """

    tests: list
    embeddings: list
    labels: list
    value: np.ndarray
    colour: np.ndarray
    text: np.ndarray
    low: np.ndarray
    no_null: np.ndarray
    scales: dict


def _key(x) -> str:
    return x if isinstance(x, str) else ""


def _unbounded_scale(frame: pd.DataFrame, measure: str) -> float:
    """The largest distance from no bias of ``measure``'s values and interval ends in ``frame`` (1 when none is
    finite or all are 0): full colour for a measure the catalogue gives no scale."""
    s = _catalogue.spec(measure)
    ends = frame.loc[frame.measure == measure, ["effect_size", "ci_low", "ci_high"]].to_numpy(dtype=float)
    ends = np.abs(ends[np.isfinite(ends)] - s.no_bias)
    return float(ends.max()) if ends.size and ends.max() > 0 else 1.0


def _scales(frame: pd.DataFrame) -> dict:
    """The full-colour distance of each unbounded measure with a value of no bias and an effect size in ``frame``."""
    out = {}
    for m in dict.fromkeys(frame.measure[frame.effect_size.notna()].dropna()):
        s = _catalogue.spec(m)
        if s.scale is None and s.no_bias is not None:
            out[m] = _unbounded_scale(frame, m)
    return out


def _ran_low(row) -> bool:
    """Whether a row ran and is flagged low coverage (a test not run says so itself)."""
    low, note = row.get("low_coverage"), row.get("note")
    return (low is not None and not pd.isna(low) and bool(low)
            and not (isinstance(note, str) and note.startswith(_tidy.NOT_RUN)))


def _marked(text: str) -> str:
    first, sep, rest = text.partition("\n")
    return f"{first} {LOW_COVERAGE_MARK}{sep}{rest}"


def _row_label(test: str, kind, measure) -> str:
    parts = [kind] if isinstance(kind, str) else []
    spec = _catalogue.CATALOGUE.get(measure) if isinstance(measure, str) else None
    if spec is not None and spec.no_bias not in (None, 0.0):
        parts.append(f"no bias at {spec.no_bias:g}")
    return f"{test} ({', '.join(parts)})" if parts else test


def heat_cells(frame: pd.DataFrame) -> HeatCells:
    """Return the numbers :func:`heatmap` draws: per test and embedding, the value, its colour, its text and marks.

    The colour of a value is its distance from "no bias" on its measure's own scale
    (:func:`wordbias.catalogue.bias_distance`, the measure read from the row's ``measure``): WEAT's d = 0 and
    ECT's rho = 1 are both 0 (no colour), d = +-2 and rho = -1 full colour. A measure without a bound (RIPA, the
    relative norm distance, ...) is scaled by the largest distance from no bias of its values and interval ends
    in the table. A measure with no value of no bias (MAC), or a row that names no measure, is not coloured
    (:attr:`HeatCells.no_null`); its value is still written.

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table (:mod:`wordbias.core.tidy`).

    Returns
    -------
    HeatCells
        The cells.

    Raises
    ------
    InvalidParameterError
        When ``frame`` is not a tidy table or is empty.

    Examples
    --------
    >>> t = _tidy.tidy_frame([{"embedding": e, "test": "ECT", "measure": "ect", "effect_size_name": "rho",
    ...                        "effect_size": v} for e, v in (("a", 1.0), ("b", -1.0))])
    >>> cells = heat_cells(t)
    >>> cells.colour.tolist(), cells.labels
    ([[0.0, 1.0]], ['ECT (rho, no bias at 1)'])
    """
    _tidy.check_tidy(frame)
    if frame.empty:
        raise InvalidParameterError("the table is empty: nothing to draw")
    tests = list(dict.fromkeys(zip(frame.battery.map(_key), frame.test.map(_key))))
    embs = list(dict.fromkeys(frame.embedding.map(_key)))
    shape = (len(tests), len(embs))
    value, colour = np.full(shape, np.nan), np.full(shape, np.nan)
    text = np.full(shape, "", dtype=object)
    low, no_null = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    labels = [t for _, t in tests]
    scales = _scales(frame)
    for _, row in frame.iterrows():
        i, j = tests.index((_key(row.battery), _key(row.test))), embs.index(_key(row.embedding))
        value[i, j], low[i, j] = row.effect_size, _ran_low(row)
        text[i, j] = _marked(cell_text(row)) if low[i, j] else cell_text(row)
        measure = row.measure if isinstance(row.measure, str) else None
        if pd.notna(row.effect_size_name) or measure is not None:
            labels[i] = _row_label(tests[i][1], row.effect_size_name, measure)
        if pd.isna(row.effect_size):
            continue
        if measure is None or _catalogue.spec(measure).no_bias is None:
            no_null[i, j] = True
        else:
            colour[i, j] = _catalogue.bias_distance(measure, row.effect_size, scale=scales.get(measure)) + 0.0
    return HeatCells(tests, embs, labels, value, colour, text, low, no_null, scales)


def _footnotes(frame: pd.DataFrame, cells: HeatCells, width: float) -> list[str]:
    """The lines under the map: the grey cells' reasons, the hatched cells' measures, the low-coverage mark."""
    not_run = frame[frame.effect_size.isna()]
    notes = [f"{r.embedding} / {r.test}: {r.note if pd.notna(r.note) else 'no effect size'}"
             for r in not_run.itertuples()]
    notes = notes[:12] + ([f"... and {len(notes) - 12} more"] if len(notes) > 12 else [])
    lines = ["Grey cells:", *notes] if notes else []
    if cells.no_null.any():
        shown = frame[frame.effect_size.notna()]
        names = sorted({_catalogue.spec(m).name for m in shown.measure.dropna()
                        if _catalogue.spec(m).no_bias is None})
        no_measure = shown.measure.isna().any()
        lines.append("Hatched cells, not coloured: " + "; ".join(
            [f"{n} has no value that means no bias (compare its values between embeddings only)" for n in names]
            + (["a row that names no measure"] if no_measure else [])))
    if cells.low.any():
        lines.append(f"{LOW_COVERAGE_MARK} (outlined): low coverage, a set kept too few of its words (the row's "
                     "note in the table says which set)")
    if cells.scales:
        lines.append("Unbounded measures, full colour at the largest distance from no bias shown: " + ", ".join(
            f"{_catalogue.spec(m).name} {v:.3g}" for m, v in cells.scales.items()))
    return [w for n in lines for w in textwrap.wrap(n, int(width * 21), subsequent_indent="    ")]


def _draw_marks(ax, cells: HeatCells) -> None:
    """The hatched cells (a value, no colour), the outlined cells of low coverage, and the text of every cell
    that is not coloured."""
    from matplotlib.patches import Rectangle

    from wordbias.core.figures import plain_text

    for (i, j), t in np.ndenumerate(cells.text):
        if cells.no_null[i, j]:
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor="0.96", edgecolor="0.7", hatch="///", lw=0, zorder=1.5))
        if not np.isfinite(cells.colour[i, j]) and t:
            ax.text(j + 0.5, i + 0.5, plain_text(t), ha="center", va="center", fontsize=7, zorder=3,
                    color="0.1" if cells.no_null[i, j] else "0.3",
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1} if cells.no_null[i, j] else None)
        if cells.low[i, j]:
            ax.add_patch(Rectangle((j + 0.04, i + 0.06), 0.92, 0.88, fill=False, edgecolor="#b34700", lw=1.6,
                                   zorder=2.5))


def heatmap(frame: pd.DataFrame, *, ax=None, title: str | None = None):
    """Draw the test x embedding heat map of a tidy table.

    Each cell is coloured by its distance from "no bias" on its measure's own scale (:func:`heat_cells`,
    :func:`wordbias.catalogue.bias_distance`: white is no bias, full red or blue the most the measure shows,
    the two colours the two sides of no bias, or for a one-sided measure such as ECT's rho more bias in red), so
    that one colour bar serves every measure; annotated with the measure's own value and its interval
    (:func:`cell_text`). Hatched cells hold a value with no colour (MAC: no value means no bias); grey cells are
    tests not run or without an effect size, listed under the figure with the reason; a cell of low coverage
    has :data:`LOW_COVERAGE_MARK` after its value and an outline, explained under the figure.

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table (:mod:`wordbias.core.tidy`), e.g. of :func:`compare`.
    ax : matplotlib.axes.Axes, optional
        The axes to draw the map on (default: new axes on a new figure sized to the table).
    title : str, optional
        The title (default ``"Effect sizes with 95% intervals (test x embedding)"``).

    Returns
    -------
    matplotlib.figure.Figure
        The figure of the heat map, one cell per test and embedding.

    Raises
    ------
    InvalidParameterError
        When ``frame`` is not a tidy table or is empty (:func:`heat_cells`).

    Examples
    --------
    >>> t = _tidy.tidy_frame([{"embedding": e, "test": "WEAT1", "measure": "weat", "effect_size_name": "d",
    ...                        "effect_size": v, "ci_low": v - 0.2, "ci_high": v + 0.2}
    ...                       for e, v in (("a", 1.5), ("b", 0.5))])
    >>> fig = heatmap(t)
    >>> [x.get_text() for x in fig.axes[0].texts]
    ['1.50\\n[1.30, 1.70]', '0.50\\n[0.30, 0.70]']
    """
    import seaborn as sns
    from matplotlib.figure import Figure

    from wordbias.core.figures import plain_text

    cells = heat_cells(frame)
    n_tests, n_embs = cells.colour.shape
    # the layout in inches: labels on the left, 1.7 in a column, the colour bar, the notes under the map
    left = 0.35 + 0.065 * max(len(y) for y in cells.labels)
    width = max(6.0, left + 1.7 * n_embs + 1.6)
    foot = _footnotes(frame, cells, width)
    top, bottom = 0.45, 0.55 + 0.13 * (len(foot) + 1 if foot else 0)
    height = top + 0.52 * n_tests + bottom
    fig = Figure(figsize=(width, height))
    if ax is None:
        ax = fig.add_axes((left / width, bottom / height, 1.7 * n_embs / width, 0.52 * n_tests / height))
    else:
        fig = ax.figure
    cax = fig.add_axes(((left + 1.7 * n_embs + 0.25) / width, bottom / height, 0.15 / width,
                        max(1.6, min(3.0, 0.52 * n_tests)) / height))
    ax.set_facecolor("0.88")
    colour = cells.colour
    text = np.vectorize(plain_text, otypes=[object])(cells.text) if cells.text.size else cells.text
    sns.heatmap(colour, ax=ax, cbar_ax=cax, mask=~np.isfinite(colour), cmap="RdBu_r", vmin=-1, vmax=1, annot=text,
                fmt="", annot_kws={"fontsize": 7.5}, linewidths=0.5, linecolor="white",
                xticklabels=[plain_text(e) for e in cells.embeddings],
                yticklabels=[plain_text(y) for y in cells.labels], cbar_kws={"label": COLOUR_LABEL})
    cax.set_yticks([-1, 0, 1], ["-1", "0 no bias", "+1"])
    cax.tick_params(labelsize=7)
    cax.yaxis.label.set_size(7.5)
    _draw_marks(ax, cells)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.tick_params(axis="x", labelrotation=0, labelsize=8)
    ax.tick_params(axis="y", labelsize=8, labelrotation=0)
    ax.set_title(plain_text(title or "Effect sizes with 95% intervals (test x embedding)"), fontsize=10)
    if foot:
        fig.text(0.1 / width, (bottom - 0.45) / height, plain_text("\n".join(foot)), fontsize=6.5,
                 va="top", ha="left", color="0.25")
    return fig
