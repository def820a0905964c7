"""Batteries on an ensemble: every run measured, each test combined over the runs, as tidy rows.

An ensemble (:class:`wordbias.embeddings.ensemble.Ensemble`: the runs ``wordbias train`` wrote, or several
embeddings) is measured run by run, the runs as independent jobs (:func:`wordbias.core.jobs.run_jobs`: local
processes, or a Dask cluster). The tidy table holds each run's rows (``embedding`` = ``"<ensemble>/<run>"``) and
one combined row per test (``embedding`` = the ensemble's label): the mean effect size over the runs with the
interval over words and runs of :func:`wordbias.measures.ensemble.combine_runs`, the combined p and, in the
note, the spread over runs and the share of runs significant at 0.05. ``frame.attrs["ensemble"]`` holds the
summary per test (:func:`summary_frame`), ``frame.attrs[ENSEMBLE_RUNS]`` which rows are the runs'
(:func:`run_rows`: labels are free text, so a ``/`` in a label never makes a row a run's).

* :func:`weat_battery`: WEATs through :func:`wordbias.measures.ensemble.on_runs`, which adds the test-retest
  reliability of the word scores and the internal consistency of the attribute pairs (Du et al. 2021);
* :func:`report`: the whole static battery of :func:`wordbias.battery.report.report` on each run, each test
  combined over the runs from the runs' rows (:func:`combine_rows`).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from wordbias import catalogue as _catalogue
from wordbias.core import tidy as _tidy
from wordbias.core.errors import LowCoverageWarning
from wordbias.core.jobs import run_jobs
from wordbias.measures import ensemble as _ensemble
from wordbias.options import Resampling, Words
from wordbias.stats.multiple import adjust_family

__all__ = ["on_runs", "run_label", "combined_note", "combine_rows", "summary_frame", "weat_battery", "report",
           "combined_only", "runs_figure", "ONE_RUN_NOTE", "one_run_rows", "ENSEMBLE_RUNS", "run_rows"]

#: the key of the table's ``attrs`` naming the run rows (:data:`wordbias.core.tidy.ENSEMBLE_RUNS`)
ENSEMBLE_RUNS = _tidy.ENSEMBLE_RUNS

#: the level at which a run counts as significant in the combined rows' notes
ALPHA = _ensemble.ALPHA
#: the p_method of a combined row: the combined t statistic on Satterthwaite's degrees of freedom (the df, a ratio of
#: variances that moves in its last digits with every run's d, is in the summary, ``frame.attrs["ensemble"]``)
COMBINED_P_METHOD = "combined t over runs"


def run_rows(frame: pd.DataFrame) -> np.ndarray:
    """Which rows of an ensemble's tidy table are its single runs' (:func:`wordbias.core.tidy.ensemble_run_rows`:
    the rows ``frame.attrs[ENSEMBLE_RUNS]`` names, never a ``/`` in the label).

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table of :func:`report` or :func:`weat_battery` (any other: no run rows).

    Returns
    -------
    numpy.ndarray of bool
        One value per row.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> t = tidy_frame([{"embedding": "a/b", "test": "T"}])     # one embedding whose label holds a "/"
    >>> run_rows(t).tolist()
    [False]
    """
    return _tidy.ensemble_run_rows(frame)


def _mark_runs(frame: pd.DataFrame, label: str, runs: Sequence[str]) -> pd.DataFrame:
    """Record in ``frame.attrs`` which of its rows are the runs' (:data:`ENSEMBLE_RUNS`): ``{run_label: run}``
    for the runs whose rows it holds (an ensemble of one run gives only combined rows)."""
    present = set(frame.embedding.dropna())
    frame.attrs[ENSEMBLE_RUNS] = {run_label(label, r): r for r in runs if run_label(label, r) in present}
    return frame


def run_label(ensemble: str, run: str) -> str:
    """The ``embedding`` of a run's rows: ``"<ensemble>/<run>"``.

    Parameters
    ----------
    ensemble, run : str
        The ensemble's and the run's labels.

    Returns
    -------
    str
        The ``embedding`` column of the run's rows.

    Examples
    --------
    >>> run_label("brown-sg", "seed-3")
    'brown-sg/seed-3'
    """
    return f"{ensemble}/{run}"


def combined_note(n_runs: int, sd: float, low: float, high: float, k: int, alpha: float = ALPHA) -> str:
    """The note of a combined row: the spread over runs and the share significant.

    Parameters
    ----------
    n_runs : int
        The runs where the test ran.
    sd, low, high : float
        The effect size's standard deviation and range over the runs.
    k : int
        The runs with p < ``alpha``.
    alpha : float, default 0.05
        The level.

    Returns
    -------
    str
        The ``note`` of the combined row.

    Examples
    --------
    >>> combined_note(10, 0.21, 0.62, 1.31, 8)
    'mean of 10 runs: sd 0.21 across runs, range 0.62 to 1.31; 8 of 10 runs significant at 0.05'
    """
    return (f"mean of {n_runs} runs: sd {sd:.2f} across runs, range {low:.2f} to {high:.2f}; {k} of {n_runs} runs "
            f"significant at {alpha:g}")


def combine_rows(frame: pd.DataFrame, *, label: str, alpha: float = ALPHA) -> pd.DataFrame:
    """One combined row per test from the runs' tidy rows (the rows whose ``embedding`` is ``"<label>/..."``).

    Per (battery, test, measure): the mean effect size over the runs where it ran, the interval over words and
    runs (:func:`wordbias.measures.ensemble.combine_runs` from each run's interval), the combined p on the runs'
    alternative, the smallest set sizes over the runs, and the note :func:`combined_note`. A test that ran in
    fewer than 2 runs gets NA numbers and says why. A test with a statistic and a p but no effect size (UBE's
    significant cells) that ran in 2 runs or more gets the statistic's mean, and each run's value and the runs
    significant at ``alpha`` in its note: it ran, there is only no interval to pool.

    Parameters
    ----------
    frame : pandas.DataFrame
        The runs' tidy rows.
    label : str
        The ensemble's label (the combined rows' ``embedding``).
    alpha : float, default 0.05
        The level at which a run counts as significant.

    Returns
    -------
    pandas.DataFrame
        The combined rows, in the order the tests first appear, without adjusted p (see :func:`report`).

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> runs = tidy_frame([{"embedding": f"e/seed-{i}", "battery": "b", "test": "T", "measure": "weat",
    ...     "effect_size_name": "d", "effect_size": d, "ci_low": d - 0.4, "ci_high": d + 0.4, "ci_level": 0.95,
    ...     "p_value": p, "alternative": "greater"} for i, (d, p) in enumerate([(1.0, 0.01), (0.8, 0.06)])])
    >>> row = combine_rows(runs, label="e").iloc[0]
    >>> row.embedding, round(float(row.effect_size), 2), row.note
    ('e', 0.9, 'mean of 2 runs: sd 0.14 across runs, range 0.80 to 1.00; 1 of 2 runs significant at 0.05')
    """
    rows = []
    keys = ["battery", "test", "measure"]
    for key, group in frame.groupby(keys, sort=False, dropna=False):
        first = group.iloc[0]
        base = {k: (None if pd.isna(v) else v) for k, v in zip(keys, key)}
        base.update(embedding=label, paper=first.get("paper"), title=first.get("title"),
                    effect_size_name=first.get("effect_size_name"), statistic_name=first.get("statistic_name"),
                    seed=first.get("seed"), n_resamples=first.get("n_resamples"))
        ran = group[group.effect_size.notna()]
        counted = group.drop(_tidy.not_run(group).index)
        counted = counted[counted.effect_size.isna() & counted.statistic.notna()]
        if len(ran) == 0 and len(counted) >= 2:     # a test without an effect size (UBE) that ran in the runs
            rows.append({**base, **_statistic_only(counted, len(group), alpha, label)})
            continue
        if len(ran) < 2:
            failed = group[group.effect_size.isna()]
            why = f"; {failed.embedding.iloc[0]}: {failed.note.iloc[0]}" if len(failed) and \
                isinstance(failed.note.iloc[0], str) else ""
            rows.append({**base, "note": f"{_tidy.NOT_RUN}: ran in {len(ran)} of {len(group)} runs (2 needed to "
                                         f"combine){why}"})
            continue
        levels = ran.ci_level.dropna().unique()
        c = combined_interval(str(first.get("measure")), ran, ci_level=float(levels[0]) if len(levels) else 0.95)
        p = ran.p_value.to_numpy(float)
        k = int(np.sum(p[np.isfinite(p)] < alpha))
        sizes = {s: (int(ran[s].min()) if ran[s].notna().any() else None) for s in ("n_x", "n_y", "n_a", "n_b")}
        note = combined_note(len(ran), float(ran.effect_size.std(ddof=1)), float(ran.effect_size.min()),
                             float(ran.effect_size.max()), k, alpha)
        tested, why = combined_test(str(first.get("measure")), ran, c, first.get("alternative"))
        rows.append({**base, **sizes, "effect_size": c.estimate, "ci_low": c.ci_low, "ci_high": c.ci_high,
                     "ci_level": c.ci_level, "ci_method": c.method, **tested,
                     "coverage": first.get("coverage"), "low_coverage": bool(ran.low_coverage.fillna(False).any()),
                     "note": note + (f"; {why}" if why else "")})
    return _tidy.tidy_frame(rows)


def combined_interval(measure: str, ran: pd.DataFrame, *, ci_level: float) -> _ensemble.CombinedInterval:
    """The interval over words and runs of one test (:func:`wordbias.measures.ensemble.combine_runs`), kept in the
    measure's range (:func:`wordbias.measures.ensemble.in_range`).

    Parameters
    ----------
    measure : str
        The tidy ``measure`` of the rows.
    ran : pandas.DataFrame
        The runs' rows where the test ran (``effect_size``, ``ci_low``, ``ci_high``).
    ci_level : float
        The level of the runs' intervals.

    Returns
    -------
    CombinedInterval
        The combined interval, inside the range.
    """
    d, low, high = (ran[k].to_numpy(float) for k in ("effect_size", "ci_low", "ci_high"))
    return _ensemble.in_range(measure, _ensemble.combine_runs(d, low, high, ci_level=ci_level), d, low, high)


def combined_test(measure: str, ran: pd.DataFrame, c: _ensemble.CombinedInterval, alternative) -> tuple[dict, str]:
    """The combined p of one test over runs, where the catalogue says the measure has a test and every run that
    ran gave a p; otherwise no p, and why.

    The combined t is (mean - no bias) / standard error on Satterthwaite's degrees of freedom
    (:meth:`wordbias.measures.ensemble.CombinedInterval.p_value`), "no bias" being the catalogue's. A measure whose catalogue entry combines by ``"mean"`` gets none: a descriptive measure (DirectBias, MAC, RNSB, the indirect bias: ``test is None`` in
    :data:`wordbias.catalogue.CATALOGUE`) or ECT (its permutation null's rho is not its "no bias" 1), nor does a test some run could not test (a direction
    with a one-word pole has no permutation null).

    Returns
    -------
    tuple of (dict, str)
        The p columns, and the note's reason when there is no p (``""`` when there is one).
    """
    _catalogue.spec(measure)                            # a measure the catalogue does not hold is an error here
    why = _ensemble.no_combined_p(measure, ran.p_value.to_numpy(float))
    if why:
        return {"p_method": None}, why
    alternative = alternative if isinstance(alternative, str) else "two-sided"
    null = _ensemble.null_value(measure)
    return {"p_value": c.p_value(alternative, null=null), "p_two_sided": c.p_value("two-sided", null=null),
            "alternative": alternative, "p_method": COMBINED_P_METHOD}, ""


def on_runs(measure, ensemble, *args, label: str | None = None, alpha: float = ALPHA, progress: bool = False,
            **options) -> pd.DataFrame:
    """Any measure on every run of an ensemble, combined over the runs, as a tidy table: ensembles wrap measures
    from above.

    The runs are measured by :func:`wordbias.measures.ensemble.on_runs` (``measure(run_vectors, *args,
    **options)`` on each run: the same words, options and seed), each run's :class:`~wordbias.result.Result`
    becomes its tidy row (:meth:`~wordbias.result.Result.to_row`), and the rows
    are combined per test by :func:`combine_rows`, which reads the catalogue (:mod:`wordbias.catalogue`): the
    combined row leads, the runs' rows follow (``frame.attrs[ENSEMBLE_RUNS]`` names them), a descriptive measure
    gets no p and a bounded measure's interval stays in its range. An ensemble of one run gives the run's row
    under the ensemble's label (:func:`one_run_rows`).

    Parameters
    ----------
    measure : callable
        A measure that returns a :class:`~wordbias.result.Result`, e.g. :func:`wordbias.weat` or
        :func:`wordbias.measures.sets.ect.ect`.
    ensemble : Ensemble or str or path-like or sequence
        The runs (:func:`wordbias.measures.ensemble.as_ensemble`).
    *args
        The measure's word lists.
    label : str, optional
        The ensemble's label.
    alpha : float, default 0.05
        The level at which a run counts as significant in the combined row's note.
    progress : bool, default False
        Show a progress bar over the runs.
    **options
        The measure's options.

    Returns
    -------
    pandas.DataFrame
        The tidy table: the combined row first, then one row per run; ``frame.attrs["ensemble"]`` holds the
        summary (:func:`summary_frame`: the spread, W and B, and for a WEAT the reliability figures).

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.sets.mac import mac
    >>> words = ["he", "him", "she", "her", "boss", "home"]
    >>> runs = [to_keyed_vectors(words, np.random.default_rng(s).normal(size=(6, 4))) for s in range(3)]
    >>> t = on_runs(mac, runs, [["he", "him"], ["she", "her"]], [["boss"], ["home"]],
    ...             resampling=Resampling(n_resamples=50), warn=False)
    >>> t.embedding.tolist()[0], len(t), bool(np.isnan(t.p_value.iloc[0]))
    ('ensemble', 4, True)
    """
    ens = _ensemble.as_ensemble(ensemble, label=label)
    measured = _ensemble.on_runs(measure, ens, *args, alpha=alpha, progress=progress, **options)
    measured = measured if isinstance(measured, list) else [measured]
    runs = _tidy.tidy_frame([m.per_run[i].to_row({"embedding": run_label(ens.label, run), "battery": "runs",
                                                  "paper": "user"}) for i, run in enumerate(ens.runs)
                             for m in measured])
    combined = combine_rows(runs, label=ens.label, alpha=alpha)
    if len(ens.runs) == 1:
        return _tidy.check_tidy(one_run_rows(runs, combined))
    out = _mark_runs(_tidy.check_tidy(pd.concat([combined, runs], ignore_index=True)), ens.label, ens.runs)
    out.attrs["ensemble"] = summary_frame(measured)
    return out


def _run_of(embedding, label: str) -> str:
    """The run of a run row's ``embedding`` (:func:`run_label`), the ensemble's ``label`` taken off its front (a
    label may itself hold ``/``)."""
    text = str(embedding)
    return text[len(label) + 1:] if text.startswith(f"{label}/") else text


def _statistic_only(runs: pd.DataFrame, n_runs: int, alpha: float, label: str) -> dict:
    """The combined row of a test that gives a statistic and a p but no effect size (UBE: its significant cells):
    nothing to pool into an interval, so the statistic's mean over the runs that ran, and each run's value and p in
    the note (each run's own row has the rest)."""
    values = runs.statistic.to_numpy(float)
    p = runs.p_value.to_numpy(float)
    k = int(np.sum(p[np.isfinite(p)] < alpha))
    per_run = ", ".join(f"{v:g} ({_run_of(e, label)})" for v, e in zip(values, runs.embedding))
    return {"statistic": float(values.mean()), "p_method": None,
            "note": f"no effect size to combine: {runs.statistic_name.iloc[0]} per run {per_run}, mean "
                    f"{values.mean():.3g}; p < {alpha:g} in {k} of {len(runs)} runs"
                    + (f" ({n_runs - len(runs)} of {n_runs} runs could not run it)" if len(runs) < n_runs else "")
                    + "; each run's own row has its numbers"}


def combined_only(frame: pd.DataFrame) -> pd.DataFrame:
    """The combined rows of an ensemble's table (all but :func:`run_rows`): what the short table on stdout and the
    heat map show.

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table of :func:`report` or :func:`weat_battery`.

    Returns
    -------
    pandas.DataFrame
        Its combined rows.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> t = tidy_frame([{"embedding": "e/seed-1", "test": "T"}, {"embedding": "e", "test": "T"}])
    >>> t.attrs[ENSEMBLE_RUNS] = {"e/seed-1": "seed-1"}
    >>> combined_only(t).embedding.tolist()
    ['e']
    """
    keep = ~run_rows(frame)
    out = frame[keep].reset_index(drop=True)
    out.attrs = dict(frame.attrs)
    return out


def summary_frame(results: Sequence[_ensemble.EnsembleMeasurement]) -> pd.DataFrame:
    """The ensemble's summary per test: the rows of :meth:`EnsembleMeasurement.to_dict`.

    Parameters
    ----------
    results : sequence of EnsembleMeasurement
        The tests measured on the ensemble.

    Returns
    -------
    pandas.DataFrame
        One row per test.

    Examples
    --------
    >>> summary_frame([]).empty
    True
    """
    return pd.DataFrame([r.to_dict() for r in results])


#: the note of a test measured on an ensemble of one training run (:func:`one_run_rows`)
ONE_RUN_NOTE = ("one training run: the interval is over the words only, not over training runs (train several, "
                "e.g. wordbias train CORPUS --seeds 5, to see how far the result moves between runs)")


def one_run_rows(runs: pd.DataFrame, combined: pd.DataFrame) -> pd.DataFrame:
    """The rows of an ensemble of one training run: each test's row is the run's own (its estimate, its interval
    over words, its p), under the ensemble's label and with :data:`ONE_RUN_NOTE`, instead of a "not run" for want
    of a second run to combine with; a test the run could not measure keeps the run's reason. :func:`report` and
    :func:`weat_battery` give only these rows for a one-run ensemble (the run's own would repeat them).

    Parameters
    ----------
    runs : pandas.DataFrame
        The run's tidy rows (one run).
    combined : pandas.DataFrame
        The combined rows (:func:`combine_rows` or :func:`weat_battery`'s), one per test.

    Returns
    -------
    pandas.DataFrame
        The combined rows, each a copy of the run's row for the same test.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> run = tidy_frame([{"embedding": "e/seed-0", "battery": "b", "test": "T", "measure": "weat",
    ...     "effect_size": 1.0, "ci_low": 0.6, "ci_high": 1.4, "ci_level": 0.95, "p_value": 0.01}])
    >>> row = one_run_rows(run, combine_rows(run, label="e")).iloc[0]
    >>> row.embedding, float(row.effect_size), float(row.ci_low), row.note.startswith("one training run")
    ('e', 1.0, 0.6, True)
    """
    keys = ["battery", "test", "measure"]
    by_test = {tuple(None if pd.isna(v) else v for v in r[keys]): r for _, r in runs.iterrows()}
    rows = []
    for _, c in combined.iterrows():
        r = by_test.get(tuple(None if pd.isna(v) else v for v in c[keys]))
        if r is None:
            rows.append(c.to_dict())
            continue
        row = {k: (None if (not isinstance(v, str) and pd.isna(v)) else v) for k, v in r.items()}
        row["embedding"] = c["embedding"]
        if pd.notna(r.effect_size):
            row["note"] = ONE_RUN_NOTE + (f"; {r.note}" if isinstance(r.note, str) and r.note else "")
        rows.append(row)
    out = _tidy.tidy_frame(rows)
    return out[[c for c in combined.columns if c in out.columns]]


def _finish(runs: pd.DataFrame, combined: pd.DataFrame, family: str, n_runs: int) -> pd.DataFrame:
    """The runs' rows and the combined rows, the combined p adjusted over the family; an ensemble of one run gives
    only :func:`one_run_rows` (its rows would repeat them)."""
    if n_runs == 1:
        combined = one_run_rows(runs, combined)
        n_p = int(combined.p_value.notna().sum())
        return _tidy.check_tidy(adjust_family(combined, f"{family} (one run): the {n_p} tests with a p-value"))
    n_p = int(combined.p_value.notna().sum())
    combined = adjust_family(combined, f"{family}: the {n_p} tests with a combined p")
    return _tidy.check_tidy(pd.concat([runs, combined], ignore_index=True))


def weat_battery(ensemble, specs: Sequence, *, battery: str, paper: str = "user", label: str | None = None,
                 workers: int | None = 1, scheduler: str | None = None, progress: bool = False,
                 alpha: float = ALPHA, resampling: Resampling | None = None, words: Words | None = None,
                 **options) -> pd.DataFrame:
    """Measure WEATs on every run of an ensemble: each run's rows and one combined row per test.

    The runs are measured by :func:`wordbias.measures.association.measurement.weats` as independent jobs and
    combined by :func:`wordbias.measures.ensemble.on_runs`:
    the combined interval and p, the spread, the share of runs significant, and Du et al.'s (2021) test-retest
    reliability and internal consistency (in ``frame.attrs["ensemble"]``, :func:`summary_frame`).

    Parameters
    ----------
    ensemble : Ensemble or str or path-like or sequence
        The runs (:func:`wordbias.measures.ensemble.as_ensemble`).
    specs : sequence of WeatSpec or mapping
        The tests, as :func:`wordbias.battery.weat.weat_battery` takes them.
    battery : str
        The battery's name in the table.
    paper : str, default "user"
        The paper of the lists (:data:`wordbias.core.tidy.PAPERS`).
    label : str, optional
        The ensemble's label.
    workers : int or None, default 1
        Local processes over the runs (None: every CPU).
    scheduler : str, optional
        A Dask scheduler's address: the runs are measured on its cluster.
    progress : bool, default False
        A progress bar over the runs.
    alpha : float, default 0.05
        The level at which a run counts as significant.
    resampling : Resampling, optional
        The bootstrap, permutations and seed of every run (default
        :data:`wordbias.measures.association.measurement.DEFAULT_RESAMPLING`).
    words : Words, optional
        How every run treats the lists (default :class:`wordbias.options.Words`).
    **options
        The other options of :func:`wordbias.measures.association.measurement.weats` (``p_methods``), the same
        for every run.

    Returns
    -------
    pandas.DataFrame
        The tidy table: the runs' rows, then the combined rows with adjusted p over the combined tests.

    Examples
    --------
    >>> import numpy as np, warnings
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "ant", "wasp", "love", "hate"]
    >>> base = np.array([[1, .1], [.9, .2], [.1, 1], [.2, .9], [1, 0], [0, 1]])
    >>> rng = np.random.default_rng(1)
    >>> runs = [to_keyed_vectors(words, base + rng.normal(0, .05, base.shape)) for _ in range(3)]
    >>> spec = {"id": "flowers", "X": words[:2], "Y": words[2:4], "A": ["love"], "B": ["hate"]}
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     t = weat_battery(runs, [spec], battery="user:toy", label="toy", resampling=Resampling(n_resamples=0))
    >>> t.embedding.tolist(), round(float(t.effect_size.iloc[-1]), 3)
    (['toy/run-1', 'toy/run-2', 'toy/run-3', 'toy'], 1.723)
    """
    from wordbias.battery.weat import weat_rows
    from wordbias.datasets import stimuli
    from wordbias.measures.association.measurement import weats

    ens = _ensemble.as_ensemble(ensemble, label)
    specs = [stimuli.as_weat_spec(s) for s in specs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LowCoverageWarning)     # given once per test, for the combined row
        results = _ensemble.on_runs(weats, ens, specs, alpha=alpha, workers=workers, scheduler=scheduler,
                                    progress=progress, resampling=resampling, words=words, **options)
        runs = pd.concat([weat_rows([r.per_run[i] for r in results], label=run_label(ens.label, run),
                                    battery=battery, paper=paper) for i, run in enumerate(ens.runs)],
                         ignore_index=True)
    combined = _tidy.tidy_frame([_combined_row(r, battery=battery, paper=paper) for r in results])
    _tidy.warn_low_coverage(combined)
    frame = _mark_runs(_finish(runs, combined, f"{battery} on {ens.label}", len(ens.runs)), ens.label, ens.runs)
    frame.attrs["ensemble"] = summary_frame(results)
    frame.attrs["parameters"] = {"ensemble": ens.label, "runs": list(ens.runs), **_given(resampling),
                                 **_given(words), **options}
    return frame


def _given(option_object) -> dict:
    """The fields of a :class:`~wordbias.options.Resampling` or :class:`~wordbias.options.Words` given to a
    battery, for the table's parameters (the readers of ``frame.attrs["parameters"]`` look up ``min_words``,
    ``seed``...); nothing when none was given."""
    return {} if option_object is None else dataclasses.asdict(option_object)


def _combined_row(r: _ensemble.EnsembleMeasurement, *, battery: str, paper: str) -> dict:
    """The combined row of a test measured on an ensemble (a view of its :class:`EnsembleMeasurement`)."""
    base = dict(embedding=r.ensemble, paper=paper, battery=battery, test=r.test, title=r.title, measure=r.measure,
                effect_size_name=r.effect_size_name)
    ran = [m for m in r.per_run if m.not_run is None]
    if r.combined is None:
        why = f"; {r.not_run[0]}" if r.not_run else ""
        return {**base, "note": f"{_tidy.NOT_RUN}: ran in {len(ran)} of {len(r.per_run)} runs (2 needed to "
                                f"combine){why}"}
    first = ran[0]
    sizes = {f"n_{s.letter.lower()}": min(len(m.sets[i].used) for m in ran) for i, s in enumerate(first.sets)}
    k = round(r.share_significant * r.n_runs)
    note = combined_note(r.n_runs, r.effect_size_sd, r.effect_size_min, r.effect_size_max, k, r.alpha)
    if math.isfinite(r.test_retest):
        note += f"; test-retest ICC(2,1) {r.test_retest:.2f} over {r.n_shared_words} words"
    return {**base, **sizes, "statistic_name": first.statistic_name, "effect_size": r.effect_size,
            "ci_low": r.ci_low, "ci_high": r.ci_high, "ci_level": r.combined.ci_level, "ci_method": r.combined.method,
            "p_value": r.p_value, "p_two_sided": r.combined.p_value("two-sided"), "alternative": r.alternative,
            "p_method": COMBINED_P_METHOD, "coverage": first.coverage,
            "low_coverage": any(m.low_coverage for m in ran), "seed": first.seed, "n_resamples": first.n_resamples,
            "note": note}


def _report_job(source, run_label_: str, options):
    """One run's report, in a worker."""
    from wordbias.battery import report as battery_report
    from wordbias.embeddings import load

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LowCoverageWarning)   # each run's low-coverage warnings: given once for the ensemble
        return battery_report.report(load(source, progress=False), label=run_label_, progress=False, **options)


def report(ensemble, *, label: str | None = None, workers: int | None = 1, scheduler: str | None = None,
           progress: bool = False, alpha: float = ALPHA, **options) -> pd.DataFrame:
    """The report's battery (:func:`wordbias.battery.report.report`) on every run of an ensemble, each test
    combined over the runs.

    Parameters
    ----------
    ensemble : Ensemble or str or path-like or sequence
        The runs (:func:`wordbias.measures.ensemble.as_ensemble`).
    label : str, optional
        The ensemble's label.
    workers : int or None, default 1
        Local processes over the runs (None: every CPU).
    scheduler : str, optional
        A Dask scheduler's address.
    progress : bool, default False
        A progress bar over the runs.
    alpha : float, default 0.05
        The level at which a run counts as significant.
    **options
        The options of :func:`wordbias.battery.report.report` (``seed``, ``n_resamples``, ``n_permutations``,
        ``ube``, ``min_words``, ``min_fraction``).

    Returns
    -------
    pandas.DataFrame
        The runs' rows (each run's report with its own adjusted p), then the combined rows (:func:`combine_rows`)
        with adjusted p over the combined tests.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> runs = [to_keyed_vectors([f"w{i}" for i in range(20)], np.random.default_rng(s).normal(size=(20, 4)))
    ...         for s in range(2)]
    >>> t = report(runs, label="toy", ube=False, n_resamples=100)
    >>> sorted(set(t.embedding)), int(t.effect_size.notna().sum())     # no word of the papers' lists is known
    (['toy', 'toy/run-1', 'toy/run-2'], 0)
    """
    ens = _ensemble.as_ensemble(ensemble, label)
    jobs = [(ens.sources[i], run_label(ens.label, run), options) for i, run in enumerate(ens.runs)]
    frames = run_jobs(_report_job, jobs, workers=workers, scheduler=scheduler, progress=progress,
                      desc=f"report on the runs of {ens.label}", unit="run")
    runs = pd.concat(frames, ignore_index=True)
    combined = combine_rows(runs, label=ens.label, alpha=alpha)
    _tidy.warn_low_coverage(combined)
    frame = _mark_runs(_finish(runs, combined, f"report on {ens.label}", len(ens.runs)), ens.label, ens.runs)
    frame.attrs["timings"] = {run: f.attrs.get("timings", {}) for run, f in zip(ens.runs, frames)}
    frame.attrs["parameters"] = {"ensemble": ens.label, "runs": list(ens.runs), **options}
    return frame


_KIND_COLOURS = {"seed": "tab:blue", "bootstrap": "tab:orange", "given": "tab:green"}
_KIND_LABELS = {"seed": "a run with another seed", "bootstrap": "a run on a bootstrap sample of the documents",
                "given": "one run's estimate"}


def _kind_of(run: str) -> str:
    """A run's kind from its id: the ids ``wordbias train`` gives (``seed-3``, ``bootstrap-2``), else ``"given"``."""
    return "seed" if run.startswith("seed-") else "bootstrap" if run.startswith("bootstrap-") else "given"


def runs_figure(frame: pd.DataFrame, *, ax=None, title: str | None = None):
    """Per test, the effect size of every run beside the intervals: each run's interval over words (thin grey
    lines, the run's d a dot) and the combined interval over words and runs (black, the mean a diamond).

    A view of an ensemble's tidy table (:func:`weat_battery`, :func:`report`); nothing is recomputed.

    Parameters
    ----------
    frame : pandas.DataFrame
        The ensemble's tidy table: run rows (:func:`run_rows`) and combined rows.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default a new figure sized to the number of tests).
    title : str, optional
        The title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure: per test, the runs' intervals and the combined one.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> t = tidy_frame([{"embedding": f"e/seed-{i}", "test": "T", "measure": "weat", "effect_size_name": "d",
    ...                  "effect_size": d, "ci_low": d - .4, "ci_high": d + .4} for i, d in enumerate([1, .8])]
    ...                + [{"embedding": "e", "test": "T", "measure": "weat", "effect_size_name": "d",
    ...                    "effect_size": .9, "ci_low": .3, "ci_high": 1.5}])
    >>> t.attrs[ENSEMBLE_RUNS] = {"e/seed-0": "seed-0", "e/seed-1": "seed-1"}     # as report() records them
    >>> fig = runs_figure(t)
    >>> [a.get_xlabel() for a in fig.axes], len(fig.legends[0].get_texts())
    (['effect size (d)'], 3)

    Tests of several kinds (a report: d, r, cos...) name their measure beside the test:

    >>> u = pd.concat([t, t.assign(test="U", effect_size_name="r")], ignore_index=True)
    >>> [x.get_text() for x in runs_figure(u).axes[0].get_yticklabels()]
    ['U (r)', 'T (d)']
    """
    import matplotlib.pyplot as plt

    from wordbias.core.figures import plain_text

    runs_mask = run_rows(frame)
    combined = frame[~runs_mask & frame.effect_size.notna().to_numpy()]
    runs = frame[runs_mask]
    run_of = frame.attrs.get(ENSEMBLE_RUNS) or {}
    tests = list(dict.fromkeys(combined.test.astype(str)))
    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 0.55 * max(len(tests), 2) + 1.4))
    else:
        fig = ax.figure
    kinds_seen: set[str] = set()
    for k, test in enumerate(tests):
        y = len(tests) - 1 - k
        r = runs[(runs.test.astype(str) == test) & runs.effect_size.notna()]
        offsets = np.linspace(-0.3, 0.3, len(r)) if len(r) > 1 else np.zeros(len(r))
        for off, (_, row) in zip(offsets, r.iterrows()):
            if pd.notna(row.ci_low) and pd.notna(row.ci_high):
                ax.plot([row.ci_low, row.ci_high], [y + off, y + off], color="0.75", lw=1, zorder=1)
            kind = _kind_of(str(run_of.get(row.embedding, row.embedding)))
            ax.plot(row.effect_size, y + off, "o", color=_KIND_COLOURS[kind], ms=3.5, zorder=2)
            kinds_seen.add(kind)
        c = combined[combined.test.astype(str) == test].iloc[0]
        if pd.notna(c.ci_low) and pd.notna(c.ci_high):
            ax.plot([c.ci_low, c.ci_high], [y, y], color="black", lw=3, solid_capstyle="butt", zorder=3)
        ax.plot(c.effect_size, y, "D", color="white", mec="black", ms=7, zorder=4)
    ax.axvline(0, color="0.4", lw=0.8, ls=":")
    ax.set_yticks(range(len(tests)))
    names = dict(zip(combined.test.astype(str), combined.effect_size_name))
    if len({n for n in names.values() if isinstance(n, str)}) > 1:   # a report: d, r, cos... each its own scale
        ax.set_yticklabels([plain_text(f"{t} ({names[t]})" if isinstance(names[t], str) else t)
                            for t in reversed(tests)])
        ax.set_xlabel("effect size (each test's own measure, in brackets beside it)")
    else:
        ax.set_yticklabels([plain_text(t) for t in reversed(tests)])
        name = combined.effect_size_name.dropna().iloc[0] if combined.effect_size_name.notna().any() else "d"
        ax.set_xlabel(f"effect size ({name})")
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=_KIND_COLOURS[k], marker="o", ls="", ms=4, label=_KIND_LABELS[k])
               for k in ("seed", "bootstrap", "given") if k in kinds_seen]
    handles += [Line2D([], [], color="0.75", lw=1, label="one run's interval over words"),
                Line2D([], [], color="black", lw=3, marker="D", mfc="white",
                       label="mean over runs, interval over words and runs")]
    if title:
        ax.set_title(plain_text(title))
    fig.legend(handles=handles, loc="lower center", ncol=2, frameon=False, fontsize=8)
    fig.tight_layout(rect=(0, 0.7 / fig.get_figheight(), 1, 1))     # 0.7 inch below the axes for the legend
    return fig
