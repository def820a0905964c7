"""Is it the corpus or the training run? Ensembles of word2vec runs on the Brown corpus: the notebook
``notebooks/src/training_runs.ipynb`` and lesson 6 (the methods: Antoniak & Mimno 2018, TACL 6:107-119,
https://doi.org/10.1162/tacl_a_00008; Du, Fang & Nguyen 2021, EMNLP,
https://doi.org/10.18653/v1/2021.emnlp-main.785).

:data:`SETTINGS` and :data:`SEED` define the ensemble both use, so that the lesson's runs are the notebook's (the
same corpus, settings and seeds: read from the cache, not trained again); :func:`brown_ensemble` trains it (or
reads it from the cache) into the cache folder.

The notebook's tables and figure are views of one measurement, :func:`wordbias.battery.ensemble.weat_battery` on
the ensemble (each run's rows and one combined row per test, with the ensemble's summary in
``frame.attrs["ensemble"]``): :func:`runs_table` (d of every run, seed and bootstrap runs told apart),
:func:`ensemble_table` (the combined interval, the share of runs significant, the reliability), :func:`spread_table`
(seed runs against bootstrap runs), :func:`runs_figure`, and the notes generated from them
(:func:`disagreement_notes`, :func:`report_notes`). Before measuring, :func:`shared_lists` keeps of each list the
words every run knows, so that the runs of a test differ in their training and not in their words (the combined
interval is over the words every run used); its coverage table says what was left out. The one other
measurement is :func:`reliability_by_kind`: the test-retest reliability within the seed runs and within the
bootstrap runs, each a sub-ensemble of its own (without intervals).
"""
from __future__ import annotations

import dataclasses
import json
import math
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from wordbias.core import paths
from wordbias.core import tables as _tables
from wordbias.core.errors import InvalidParameterError, WordbiasWarning
from wordbias.core.validation import check_int, check_probability
from wordbias.datasets import stimuli
from wordbias.datasets.corpora import read_corpus
from wordbias.measures import ensemble as _ensemble
from wordbias.models.train import TrainingSettings, train_ensemble

__all__ = ["CORPUS", "SETTINGS", "SEED", "DEFAULT_SEEDS", "DEFAULT_BOOTSTRAP", "FOCUS", "ALPHA", "PERIODS",
           "ensemble_folder", "brown_ensemble", "output_label", "manifest_summary", "runs_overview", "training_note",
           "shared_lists", "coverage_notes", "runs_table", "ensemble_table", "show_ensemble", "show_runs",
           "spread_table", "reliability_by_kind", "runs_figure", "disagreement_notes", "report_notes",
           "period_coverage", "period_notes", "paper_notes", "balancing_notes", "with_reliability", "word_counts",
           "show_coverage", "show_spread", "paper_table", "tidy_table"]

#: the corpus: the Brown corpus as shipped (data/corpora/brown.zip), lower-cased
CORPUS = "brown"
#: the training settings: gensim's skip-gram with the defaults of :class:`~wordbias.models.train.TrainingSettings`
#: (100 dimensions, window 5, min_count 5, 5 epochs: 13 s a run on one core)
SETTINGS = TrainingSettings()
#: the ensemble's seed: run ``seed-i`` trains with seed ``SEED + i``
SEED = 0
#: the committed ensemble: 3 seed runs and 3 bootstrap runs (its outputs go to results/training_runs/brown/); sized
#: so that `make` stays within five minutes on two cores: each run is 12-16 s of one core
DEFAULT_SEEDS = 3
DEFAULT_BOOTSTRAP = 3
#: the tests the notebook looks at closely: Caliskan et al.'s WEATs 6-8 (career/family x male/female names,
#: math/arts and science/arts x male/female terms)
FOCUS = ("WEAT6", "WEAT7", "WEAT8")
#: the level at which one run counts as significant
ALPHA = _ensemble.ALPHA
#: State of the Union addresses in two periods of about 31 years (``select`` patterns of
#: :func:`wordbias.datasets.corpora.read_corpus`; the files are ``YEAR-President.txt``)
PERIODS = {"1945-1975": ("194*", "195*", "196*", "197[0-5]-*"),
           "1976-2006": ("197[6-9]-*", "198*", "199*", "200*")}

_KIND_COLOURS = {"seed": "tab:blue", "bootstrap": "tab:orange", "given": "tab:green"}
_KIND_TEXT = {"seed": "seed runs (whole corpus, another training seed)",
              "bootstrap": "bootstrap runs (a bootstrap sample of the 500 documents)",
              "given": "runs"}


def ensemble_folder(seeds: int, bootstrap: int) -> Path:
    """Where :func:`brown_ensemble` writes an ensemble: ``<cache>/ensembles/brown-s<seeds>-b<bootstrap>``.

    Parameters
    ----------
    seeds, bootstrap : int
        The numbers of seed runs and of bootstrap runs.

    Returns
    -------
    pathlib.Path
        The folder (under :func:`wordbias.core.paths.cache_dir`, never in the repository).
    """
    return paths.cache_dir() / "ensembles" / f"{CORPUS}-s{seeds}-b{bootstrap}"


def brown_ensemble(seeds: int = 5, bootstrap: int = 5, *, workers: int | None = None,
                   progress: bool = False) -> Path:
    """Train (or read from the cache) ``seeds`` runs on the whole Brown corpus and ``bootstrap`` runs on bootstrap
    samples of its 500 documents, with :data:`SETTINGS` and :data:`SEED`.

    Parameters
    ----------
    seeds : int, default 5
        Runs with different seeds.
    bootstrap : int, default 5
        Runs on bootstrap samples of the documents.
    workers : int, optional
        Processes (default every CPU).
    progress : bool, default False
        A progress bar over the runs.

    Returns
    -------
    pathlib.Path
        The ensemble's ``manifest.json`` (:func:`wordbias.embeddings.ensemble.load_ensemble` opens it).
    """
    return train_ensemble(CORPUS, ensemble_folder(seeds, bootstrap), settings=SETTINGS, seeds=seeds,
                          bootstrap=bootstrap, seed=SEED, workers=workers, progress=progress)


def output_label(seeds: int, bootstrap: int) -> str:
    """The label of an ensemble's outputs: ``"brown"`` for the committed ensemble (:data:`DEFAULT_SEEDS` seed runs
    and :data:`DEFAULT_BOOTSTRAP` bootstrap runs), else ``"brown-s<seeds>-b<bootstrap>"`` (written under ``runs/``,
    :func:`wordbias.papers.outputs.output_folders`).

    Parameters
    ----------
    seeds, bootstrap : int
        As in :func:`ensemble_folder`.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> output_label(3, 3), output_label(3, 0)
    ('brown', 'brown-s3-b0')
    """
    seeds = check_int("seeds", seeds, min=0)
    bootstrap = check_int("bootstrap", bootstrap, min=0)
    if (seeds, bootstrap) == (DEFAULT_SEEDS, DEFAULT_BOOTSTRAP):
        return CORPUS
    return f"{CORPUS}-s{seeds}-b{bootstrap}"


def _manifest(manifest) -> dict:
    if isinstance(manifest, Mapping):
        return dict(manifest)
    return json.loads(Path(manifest).read_text(encoding="utf-8"))


def _span(values: Sequence[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:,}" if lo == hi else f"{lo:,}-{hi:,}"


def manifest_summary(manifest) -> pd.DataFrame:
    """What was trained, read from an ensemble's manifest: the corpus and its checksum, the vocabulary of the
    runs, the settings, the runs and the software.

    Parameters
    ----------
    manifest : str or path-like or mapping
        The ``manifest.json`` that :func:`wordbias.models.train.train_ensemble` wrote, or its content.

    Returns
    -------
    pandas.DataFrame
        Two columns, ``what`` and ``value`` (text), one row per item.

    Examples
    --------
    >>> m = {"corpus": {"source": "brown", "sha256": "ab" * 32, "n_documents": 500, "n_tokens": 1006060,
    ...                 "tokenisation": {"lowercase": True}},
    ...      "settings": TrainingSettings().as_dict(), "seed": 0, "seeds": 1, "bootstrap": 1,
    ...      "software": {"gensim": "4.4.0", "numpy": "2.4.6", "python": "3.11.9", "wordbias": "0.1.0"},
    ...      "runs": [{"id": "seed-1", "kind": "seed", "training_seed": 1, "n_words": 13919},
    ...               {"id": "bootstrap-1", "kind": "bootstrap", "training_seed": 2**31 + 5, "n_words": 14001}]}
    >>> manifest_summary(m).set_index("what").loc["vocabulary (min_count 5)", "value"]
    'seed runs: 13,919 words; bootstrap runs: 14,001 words'
    """
    m = _manifest(manifest)
    c, s, sw = m["corpus"], m["settings"], m["software"]
    runs = m["runs"]
    kinds = list(dict.fromkeys(r["kind"] for r in runs))
    vocab = "; ".join(f"{k} runs: {_span([r['n_words'] for r in runs if r['kind'] == k])} words" for k in kinds)
    seeds = [r["training_seed"] for r in runs if r["kind"] == "seed"]
    run_text = []
    if seeds:
        run_text.append(f"{len(seeds)} seed runs on the whole corpus (training seeds {_span(seeds)})")
    n_boot = sum(r["kind"] == "bootstrap" for r in runs)
    if n_boot:
        run_text.append(f"{n_boot} bootstrap runs, each on {c['n_documents']:,} documents drawn with replacement "
                        "(seeds derived from the ensemble's seed)")
    method = (f"{s['method']} {s['architecture']}, {s['vector_size']} dimensions, window {s['window']}, "
              f"min_count {s['min_count']}, {s['negative']} negative samples, sample {s['sample']:g}, "
              f"{s['epochs']} epochs, alpha {s['alpha']:g}")
    python = ".".join(str(sw.get("python", "")).split(".")[:2])
    rows = [("corpus", f"{c['source']}: {c['n_documents']:,} documents, {c['n_tokens']:,} tokens"
                       + (", lower-cased" if c.get("tokenisation", {}).get("lowercase") else "")),
            ("corpus SHA-256 (its documents as read)", c["sha256"]),
            (f"vocabulary (min_count {s['min_count']})", vocab),
            ("settings", method),
            ("runs", "; ".join(run_text) + f" (ensemble seed {m['seed']})"),
            ("software", f"gensim {sw.get('gensim')}, numpy {sw.get('numpy')}, Python {python}, wordbias "
                         f"{sw.get('wordbias')}")]
    return pd.DataFrame(rows, columns=["what", "value"])


def runs_overview(manifest, *, checksums: bool = True) -> pd.DataFrame:
    """One row per run of an ensemble's manifest: its id, kind, seeds, vocabulary and checksum.

    Parameters
    ----------
    manifest : str or path-like or mapping
        The ``manifest.json``, or its content.
    checksums : bool, default True
        Add the vectors' checksums (they name the exact vectors, which another CPU's float rounding changes).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``run``: ``kind``, ``training_seed``, ``sample_seed`` (bootstrap runs), ``words``, and with
        ``checksums`` ``vectors_sha256`` (its first 12 hex digits).
    """
    m = _manifest(manifest)
    rows = [{"run": r["id"], "kind": r["kind"], "training_seed": r.get("training_seed"),
             "sample_seed": r.get("sample_seed"), "words": r.get("n_words")}
            | ({"vectors_sha256": (r.get("vectors_sha256") or "")[:12]} if checksums else {}) for r in m["runs"]]
    out = pd.DataFrame(rows).set_index("run")
    for column in ("training_seed", "sample_seed", "words"):
        out[column] = out[column].astype("Int64")
    return out


def training_note(manifest, wall_seconds: float) -> str:
    """How long training took, from the ensemble's ``timings.json`` and the wall time of the call.

    Parameters
    ----------
    manifest : str or path-like
        The ensemble's ``manifest.json`` (``timings.json`` lies beside it).
    wall_seconds : float
        The wall time of :func:`brown_ensemble` as the caller measured it.

    Returns
    -------
    str
        One line: the runs trained now and how long each took, or that they were read from the cache.
    """
    path = Path(manifest)
    timings = json.loads((path.parent / "timings.json").read_text(encoding="utf-8"))
    runs = timings["runs"]
    trained = [v["train_seconds"] for v in runs.values() if v.get("train_seconds") is not None]
    if not trained:
        return (f"all {len(runs)} runs read from the cache ({paths.cache_dir()}) in {wall_seconds:.1f} s; nothing "
                "was trained")
    return (f"{len(trained)} of {len(runs)} runs trained now, on {timings['workers']} processes, in "
            f"{wall_seconds:.0f} s wall ({min(trained):.0f}-{max(trained):.0f} s a run, one core each)"
            + (f"; {len(runs) - len(trained)} from the cache" if len(trained) < len(runs) else ""))


def _chosen(specs: Sequence, tests: Sequence[str] | None) -> list[stimuli.WeatSpec]:
    """The specs as WeatSpecs, those of ``tests`` only (in the specs' order) when given."""
    specs = [stimuli.as_weat_spec(s) for s in specs]
    return specs if tests is None else [s for s in specs if s.id in set(tests)]


def _fold(words: Sequence[str], case_fold: bool) -> list[str]:
    return list(dict.fromkeys(w.lower() if case_fold else w for w in words))


def shared_lists(ensemble, specs: Sequence, *, case_fold: bool | None = None
                 ) -> tuple[list[stimuli.WeatSpec], pd.DataFrame]:
    """Each test's lists reduced to the words every run of the ensemble knows, and the coverage table.

    The runs on bootstrap samples of the documents have vocabularies of their own (a word below ``min_count`` in
    one sample is not in that run). Measured as they are, a test would use other words in other runs, and the
    spread over runs would mix the training with the words (the combined interval of
    :func:`wordbias.measures.ensemble.combine_runs` is over the words every run used). So each list keeps the
    words found in every run (case-folded for an uncased vocabulary, as the measures do), and the table says,
    per list, how many of the words asked for that is, which words some runs lack and which every run lacks.

    Parameters
    ----------
    ensemble : Ensemble or str or path-like or sequence
        The runs (:func:`wordbias.measures.ensemble.as_ensemble`).
    specs : sequence of WeatSpec or mapping
        The tests.
    case_fold : bool, optional
        Lower-case the words; None: when the first run's vocabulary is uncased.

    Returns
    -------
    specs : list of WeatSpec
        The tests with the shared words only (in their order; other fields unchanged).
    coverage : pandas.DataFrame
        One row per test and list: ``test``, ``title``, ``set`` (X, Y, A, B), ``name``, ``asked``,
        ``in_every_run``, ``in_some_runs``, ``in_no_run`` (counts), ``share`` (in every run / asked),
        ``low_coverage`` (fewer than 4 words or less than half the list: :data:`wordbias.core.tidy.MIN_WORDS`,
        :data:`~wordbias.core.tidy.MIN_FRACTION`), ``runs`` (whether the test can run: 2 target words and 1
        attribute word at least in every list), ``missing_in_some`` and ``missing_in_all`` (the words, comma
        separated).

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> a = to_keyed_vectors(["he", "she", "home", "work", "rose"], np.eye(5))
    >>> b = to_keyed_vectors(["he", "she", "home", "work"], np.eye(5)[:4, :])
    >>> spec = {"id": "t", "X": ["He", "rose"], "Y": ["she", "ant"], "A": ["work"], "B": ["home"]}
    >>> [s], cov = shared_lists([a, b], [spec])
    >>> s.X, s.Y, cov.loc[0, "missing_in_some"], cov.loc[1, "missing_in_all"], bool(cov.runs.any())
    (('he',), ('she',), 'rose', 'ant', False)
    """
    from wordbias.core.tidy import MIN_FRACTION, MIN_WORDS
    from wordbias.embeddings import is_cased

    ens = _ensemble.as_ensemble(ensemble)
    vocabularies = []
    for i in range(len(ens)):
        kv = ens.load(i)
        if case_fold is None and i == 0:
            case_fold = not is_cased(kv)
        vocabularies.append(kv.key_to_index)
    out, rows = [], []
    for spec in (stimuli.as_weat_spec(s) for s in specs):
        kept, test_rows = {}, []
        for role in ("X", "Y", "A", "B"):
            words = _fold(getattr(spec, role), bool(case_fold))
            counts = [sum(w in v for v in vocabularies) for w in words]
            every = [w for w, n in zip(words, counts) if n == len(vocabularies)]
            some = [w for w, n in zip(words, counts) if 0 < n < len(vocabularies)]
            none = [w for w, n in zip(words, counts) if n == 0]
            kept[role] = tuple(every)
            share = len(every) / len(words) if words else math.nan
            test_rows.append({"test": spec.id, "title": spec.title, "set": role, "name": spec.names.get(role, role),
                              "asked": len(words), "in_every_run": len(every), "in_some_runs": len(some),
                              "in_no_run": len(none), "share": share,
                              "low_coverage": len(every) < MIN_WORDS or share < MIN_FRACTION,
                              "missing_in_some": ", ".join(some), "missing_in_all": ", ".join(none)})
        runs = min(len(kept["X"]), len(kept["Y"])) >= 2 and min(len(kept["A"]), len(kept["B"])) >= 1
        for r in test_rows:
            r["runs"] = runs
        rows += test_rows
        out.append(dataclasses.replace(spec, **kept))
    columns = ["test", "title", "set", "name", "asked", "in_every_run", "in_some_runs", "in_no_run", "share",
               "low_coverage", "runs", "missing_in_some", "missing_in_all"]
    return out, pd.DataFrame(rows, columns=columns)


def coverage_notes(coverage: pd.DataFrame) -> str:
    """Which tests can run on the ensemble at all, and why the others cannot, in Markdown.

    Parameters
    ----------
    coverage : pandas.DataFrame
        The coverage table of :func:`shared_lists`.

    Returns
    -------
    str
        Bullet points.
    """
    lines = []
    for test, t in coverage.groupby("test", sort=False):
        title = t.title.iloc[0]
        sizes = "/".join(f"{r.in_every_run}" for r in t.itertuples())
        asked = "/".join(f"{r.asked}" for r in t.itertuples())
        if bool(t.runs.iloc[0]):
            low = [f"{r.name} ({r.in_every_run} of {r.asked})" for r in t.itertuples() if r.low_coverage]
            lines.append(f"* **{test}** ({title}) runs on {sizes} words of the {asked} asked (X/Y/A/B)"
                         + (f"; low coverage: {', '.join(low)}" if low else "") + ".")
        else:
            short = [f"{r.name} keeps {r.in_every_run} of {r.asked}" for r in t.itertuples()
                     if r.in_every_run < (2 if r.set in ("X", "Y") else 1)]
            lines.append(f"* **{test}** ({title}) cannot run: {'; '.join(short)}.")
    return "\n".join(lines)


def _kinds(ensemble) -> dict[str, str]:
    return dict(zip(ensemble.runs, ensemble.kinds))


def _run_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The run rows of an ensemble's table (:func:`wordbias.core.tidy.ensemble_run_rows`: recorded in its attrs)."""
    from wordbias.core.tidy import ensemble_run_rows

    return frame[ensemble_run_rows(frame)]


def runs_table(frame: pd.DataFrame, ensemble) -> pd.DataFrame:
    """Every run's result for every test that ran: a view of the tidy table's run rows.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table of :func:`wordbias.battery.ensemble.weat_battery` on the ensemble.
    ensemble : Ensemble
        The ensemble (its runs' kinds: ``"seed"`` or ``"bootstrap"``).

    Returns
    -------
    pandas.DataFrame
        ``test``, ``run``, ``kind``, the words used (``n_x`` ... ``n_b``), ``effect_size`` (d) and its interval
        over words (``ci_low``, ``ci_high``), ``p_value`` (one-sided, the paper's direction) and ``p_two_sided``
        (whether a run is significant is ``p < alpha``, asked where it is counted: :func:`ensemble_table`,
        :func:`runs_figure`, :func:`disagreement_notes`).
    """
    from wordbias.core.tidy import ENSEMBLE_RUNS

    runs = _run_rows(frame)
    runs = runs[runs.effect_size.notna()]
    kinds = _kinds(ensemble)
    run = runs.embedding.astype(object).map(frame.attrs.get(ENSEMBLE_RUNS, {}))     # each row's run, as recorded
    out = pd.DataFrame({"test": runs.test.astype(str).values, "run": run.values,
                        "kind": [kinds.get(r, "given") for r in run],
                        **{c: runs[c].astype("Int64").values for c in ("n_x", "n_y", "n_a", "n_b")},
                        **{c: runs[c].astype(float).values for c in ("effect_size", "ci_low", "ci_high", "p_value",
                                                                      "p_two_sided")}})
    return out.reset_index(drop=True)


def _combined(row) -> _ensemble.CombinedInterval:
    return _ensemble.CombinedInterval(estimate=row.effect_size, ci_low=row.ci_low, ci_high=row.ci_high,
                                      ci_level=row.ci_level, within_variance=row.within_variance,
                                      between_variance=row.between_variance, df=row.df, n_runs=int(row.n_runs),
                                      method=row.ci_method)


def ensemble_table(frame: pd.DataFrame, ensemble, *, alpha: float = ALPHA) -> pd.DataFrame:
    """Each test on the ensemble: the mean d with its interval over words and runs, the spread over runs, the
    share of runs significant, the reliability; a view of the measurement (``frame.attrs["ensemble"]`` and the run
    rows).

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table of :func:`wordbias.battery.ensemble.weat_battery` (with its ``attrs["ensemble"]``).
    ensemble : Ensemble
        The ensemble (its runs' kinds).
    alpha : float, default 0.05
        The level of the shares significant.

    Returns
    -------
    pandas.DataFrame
        One row per test that ran in 2 runs or more: ``test``, ``title``, ``n_runs``, ``effect_size`` (the mean d),
        ``ci_low``, ``ci_high`` (the combined interval), ``p_value`` (its one-sided t test) and ``p_two_sided``,
        ``effect_size_sd``, ``effect_size_min``, ``effect_size_max``, ``sd_seed`` and ``sd_bootstrap`` (the sd of
        d over each kind's runs), ``within_variance`` (W), ``between_variance`` (B), ``df``,
        ``share_significant`` (one-sided) and ``share_significant_two_sided``, ``test_retest`` (ICC(2,1)),
        ``n_shared_words``, ``consistency_pairs``, ``consistency_words`` (Cronbach's alpha).
    """
    summary = frame.attrs.get("ensemble")
    if summary is None:
        raise InvalidParameterError("frame has no attrs['ensemble']: give the table weat_battery returned")
    alpha = check_probability("alpha", alpha)
    runs = runs_table(frame, ensemble)
    rows = []
    for r in summary.itertuples():
        if not (r.n_runs >= 2 and math.isfinite(r.ci_low)):
            continue
        t = runs[runs.test == r.test]
        sd = {k: float(t.effect_size[t.kind == k].std(ddof=1)) if (t.kind == k).sum() > 1 else math.nan
              for k in ("seed", "bootstrap")}
        rows.append({"test": r.test, "title": r.title, "n_runs": int(r.n_runs), "effect_size": r.effect_size,
                     "ci_low": r.ci_low, "ci_high": r.ci_high, "ci_level": r.ci_level, "p_value": r.p_value,
                     "p_two_sided": _combined(r).p_value("two-sided"), "effect_size_sd": r.effect_size_sd,
                     "effect_size_min": r.effect_size_min, "effect_size_max": r.effect_size_max,
                     "sd_seed": sd["seed"], "sd_bootstrap": sd["bootstrap"], "within_variance": r.within_variance,
                     "between_variance": r.between_variance, "df": r.df,
                     "share_significant": float((t.p_value < alpha).mean()),
                     "share_significant_two_sided": float((t.p_two_sided < alpha).mean()),
                     "test_retest": r.test_retest, "n_shared_words": int(r.n_shared_words),
                     "consistency_pairs": r.consistency_pairs, "consistency_words": r.consistency_words})
    return pd.DataFrame(rows)


def show_ensemble(table: pd.DataFrame, tests: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`ensemble_table` for reading: d's mean and interval, the spread, the shares significant, reliability.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`ensemble_table`.
    tests : sequence of str, optional
        The tests to show (default all), in this order.

    Returns
    -------
    pandas.DataFrame
        Text columns, indexed by test.
    """
    t = table if tests is None else table.set_index("test").loc[[x for x in tests if x in set(table.test)]
                                                                 ].reset_index()
    return pd.DataFrame({
        "test": t.test + " " + t.title,
        "mean d over runs": [_tables.number_text(v) for v in t.effect_size],
        "95% interval over words and runs": _tables.interval_column(t.ci_low, t.ci_high),
        "sd of d: all runs / seed / bootstrap": [f"{a:.2f} / {b:.2f} / {c:.2f}" for a, b, c in
                                                 zip(t.effect_size_sd, t.sd_seed, t.sd_bootstrap)],
        "range of d": [f"{lo:.2f} to {hi:.2f}" for lo, hi in zip(t.effect_size_min, t.effect_size_max)],
        "runs p < 0.05: one-sided / two-sided": [f"{a * n:.0f} / {b * n:.0f} of {n}" for a, b, n in
                                                 zip(t.share_significant, t.share_significant_two_sided, t.n_runs)],
        "combined p (one-sided)": _tables.p_column(t.p_value),
        "ICC(2,1)": [_tables.number_text(v) for v in t.test_retest],
        "Cronbach's alpha (pairs / words)": [f"{a:.2f} / {b:.2f}" for a, b in
                                             zip(t.consistency_pairs, t.consistency_words)],
    }).set_index("test")


def show_runs(runs: pd.DataFrame, tests: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`runs_table` for reading: per run, d with its interval over words and p, one row per run and one
    column block per test.

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`runs_table`.
    tests : sequence of str, optional
        The tests to show (default all).

    Returns
    -------
    pandas.DataFrame
        Indexed by run (with its kind), a column per test: ``d [interval over words], p one-sided / two-sided``.
    """
    if tests is not None:
        runs = runs[runs.test.isin(tests)]
    text = [f"{d:.2f} {_tables.interval_text(lo, hi)}, p {_tables.p_text(p)} / {_tables.p_text(p2)}"
            for d, lo, hi, p, p2 in zip(runs.effect_size, runs.ci_low, runs.ci_high, runs.p_value,
                                        runs.p_two_sided)]
    wide = runs.assign(text=text).pivot(index=["kind", "run"], columns="test", values="text")
    order = list(dict.fromkeys(runs.run))
    wide = wide.reset_index().set_index("run").loc[order].reset_index().set_index(["kind", "run"])
    wide.columns.name = "d [interval over words], p one-sided / two-sided"
    return wide[[t for t in dict.fromkeys(runs.test)]]


def spread_table(runs: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Seed runs against bootstrap runs: per test, the spread of d over each kind, and the ratio of the two
    variances with its F interval (independent runs, d roughly normal over runs).

    Antoniak & Mimno (2018) find embedding similarities vary more over bootstrap samples of the documents than a
    fixed corpus's runs let one see; the ratio says whether that holds for a WEAT's d here, and how little 5
    against 5 runs can tell (the 95% interval of an F(4, 4) ratio spans a factor of about 90: 9.6 either way).

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`runs_table`.
    level : float, default 0.95
        The confidence level of the ratio's interval.

    Returns
    -------
    pandas.DataFrame
        One row per test with runs of both kinds: ``test``, ``n_seed``, ``mean_seed``, ``sd_seed``,
        ``n_bootstrap``, ``mean_bootstrap``, ``sd_bootstrap``, ``variance_ratio`` (bootstrap / seed), ``ratio_low``,
        ``ratio_high``.

    Examples
    --------
    >>> r = pd.DataFrame({"test": ["T"] * 6, "kind": ["seed"] * 3 + ["bootstrap"] * 3,
    ...                   "effect_size": [1.0, 1.1, 0.9, 1.0, 1.4, 0.6]})
    >>> t = spread_table(r)
    >>> round(float(t.variance_ratio[0]), 6), bool(t.ratio_low[0] < 16 < t.ratio_high[0])
    (16.0, True)
    """
    level = check_probability("level", level)
    rows = []
    for test, t in runs.groupby("test", sort=False):
        s = t.effect_size[t.kind == "seed"].to_numpy(float)
        b = t.effect_size[t.kind == "bootstrap"].to_numpy(float)
        if len(s) < 2 or len(b) < 2:
            continue
        vs, vb = s.var(ddof=1), b.var(ddof=1)
        ratio = vb / vs if vs > 0 else math.inf
        q = (1 - level) / 2
        f_hi, f_lo = stats.f.ppf(1 - q, len(b) - 1, len(s) - 1), stats.f.ppf(q, len(b) - 1, len(s) - 1)
        rows.append({"test": test, "n_seed": len(s), "mean_seed": s.mean(), "sd_seed": math.sqrt(vs),
                     "n_bootstrap": len(b), "mean_bootstrap": b.mean(), "sd_bootstrap": math.sqrt(vb),
                     "variance_ratio": ratio, "ratio_low": ratio / f_hi, "ratio_high": ratio / f_lo})
    return pd.DataFrame(rows)


def reliability_by_kind(ensemble, specs: Sequence, *, seed: int = 0) -> pd.DataFrame:
    """The test-retest reliability ICC(2,1) of the target words' scores within the seed runs and within the
    bootstrap runs (Du et al. 2021, §3.1, across seeds; here also across samples of the documents).

    Each kind is measured as an ensemble of its own (:meth:`Ensemble.subset`, no intervals: ``n_resamples=0``);
    ICC over all runs is in :func:`ensemble_table`.

    Parameters
    ----------
    ensemble : Ensemble
        The ensemble.
    specs : sequence of WeatSpec
        The tests (as measured: :func:`shared_lists`).
    seed : int, default 0
        The measurement's seed (target balancing), as in the main measurement.

    Returns
    -------
    pandas.DataFrame
        One row per test and kind with 2 runs or more: ``test``, ``kind``, ``n_runs``, ``test_retest``,
        ``n_shared_words``.
    """
    import warnings

    from wordbias.measures.association.measurement import DEFAULT_RESAMPLING, weats

    no_interval = DEFAULT_RESAMPLING.replace(n_resamples=0, seed=seed)
    rows = []
    for kind in dict.fromkeys(ensemble.kinds):
        sub = ensemble.subset(kind)
        if len(sub) < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WordbiasWarning)    # the main measurement gave them, for the same words
            measured = _ensemble.on_runs(weats, sub, list(specs), resampling=no_interval)
        for r in measured:
            if r.n_runs >= 2:
                rows.append({"test": r.test, "kind": kind, "n_runs": r.n_runs, "test_retest": r.test_retest,
                             "n_shared_words": r.n_shared_words})
    return pd.DataFrame(rows, columns=["test", "kind", "n_runs", "test_retest", "n_shared_words"])


def _wrap(text: str, width: int = 28) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def runs_figure(frame: pd.DataFrame, ensemble, *, tests: Sequence[str] | None = None, alpha: float = ALPHA,
                title: str | None = None):
    """Per test, every run's d beside the intervals: each run's interval over words (a grey line, the run's d a
    dot, seed runs above the test's line and bootstrap runs below it, in two colours) and the combined interval
    over words and runs (black, the mean a diamond); on the right, how many runs are significant.

    A view of the ensemble's tidy table (:func:`wordbias.battery.ensemble.weat_battery`); nothing is recomputed.
    :func:`wordbias.battery.ensemble.runs_figure` is the same figure without the kinds.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table: run rows (``embedding`` ``"<ensemble>/<run>"``) and combined rows.
    ensemble : Ensemble
        The ensemble (its runs' kinds).
    tests : sequence of str, optional
        The tests to draw, top to bottom (default every test with a combined estimate).
    alpha : float, default 0.05
        The level of the counts of significant runs.
    title : str, optional
        The title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.transforms import blended_transform_factory

    from wordbias.core.figures import plain_text  # imported here: it sets matplotlib's defaults
    from wordbias.core.tidy import ensemble_run_rows

    combined = frame[~ensemble_run_rows(frame) & frame.effect_size.notna().to_numpy()]
    available = list(dict.fromkeys(combined.test.astype(str)))
    tests = available if tests is None else [t for t in tests if t in available]
    if not tests:
        raise InvalidParameterError("no test with a combined estimate to draw")
    runs = runs_table(frame, ensemble)
    fig, ax = plt.subplots(figsize=(9, 1.25 * len(tests) + 1.5))
    right = blended_transform_factory(ax.transAxes, ax.transData)
    labels = []
    for k, test in enumerate(tests):
        y = len(tests) - 1 - k
        c = combined[combined.test.astype(str) == test].iloc[0]
        labels.append(plain_text(f"{test}\n{_wrap(str(c.title))}"))
        t = runs[runs.test == test]
        for kind, sign in (("seed", 1), ("bootstrap", -1), ("given", 1)):
            r = t[t.kind == kind]
            offsets = sign * np.linspace(0.1, 0.4, len(r)) if len(r) > 1 else sign * np.full(len(r), 0.25)
            for off, row in zip(offsets, r.itertuples()):
                if np.isfinite(row.ci_low) and np.isfinite(row.ci_high):
                    ax.plot([row.ci_low, row.ci_high], [y + off] * 2, color="0.72", lw=1, zorder=1)
                ax.plot(row.effect_size, y + off, "o", color=_KIND_COLOURS[kind], ms=5, zorder=2)
        if pd.notna(c.ci_low) and pd.notna(c.ci_high):
            ax.plot([c.ci_low, c.ci_high], [y, y], color="black", lw=3.5, solid_capstyle="butt", zorder=3)
        ax.plot(c.effect_size, y, "D", color="white", mec="black", mew=1.5, ms=8, zorder=4)
        n = len(t)
        ax.text(1.02, y, f"p < {alpha:g} in\n{int((t.p_value < alpha).sum())} of {n} runs (one-sided),\n"
                         f"{int((t.p_two_sided < alpha).sum())} of {n} (two-sided)",
                transform=right, va="center", ha="left", fontsize=8.5)
        if k:
            ax.axhline(y + 0.5, color="0.88", lw=0.8, zorder=0)
    ax.axvline(0, color="0.35", lw=0.9, ls=":", zorder=0)
    ax.set_yticks(range(len(tests)))
    ax.set_yticklabels(list(reversed(labels)), fontsize=9)
    ax.set_ylim(-0.55, len(tests) - 0.45)
    ax.set_xlabel("effect size d (positive: X closer to A than Y is, the association the test posits)")
    handles = [Line2D([], [], color=_KIND_COLOURS["seed"], marker="o", ls="", ms=5,
                      label="seed run: the whole corpus, another seed"),
               Line2D([], [], color=_KIND_COLOURS["bootstrap"], marker="o", ls="", ms=5,
                      label="bootstrap run: a sample of the documents"),
               Line2D([], [], color="0.72", lw=1, label="one run's 95% interval over words"),
               Line2D([], [], color="black", lw=3.5, marker="D", mfc="white", ms=7,
                      label="mean over runs, 95% interval over words and runs")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.1 - 0.25 / len(tests)), ncol=2,
              frameon=False, fontsize=8.5)
    if title:
        ax.set_title(plain_text(title))
    fig.tight_layout()
    return fig


def _d(value: float) -> str:
    return f"{value:.2f}".replace("-", "−")


def _direction(test_row, d: float) -> str:
    return "the paper's direction" if d > 0 else "against the paper's direction"


def disagreement_notes(runs: pd.DataFrame, table: pd.DataFrame, *, tests: Sequence[str] | None = None,
                       alpha: float = ALPHA) -> str:
    """Where one run alone would say *significant* and another would not, and what the ensemble says, in Markdown.

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`runs_table`.
    table : pandas.DataFrame
        :func:`ensemble_table`.
    tests : sequence of str, optional
        The tests (default every test of ``table``).
    alpha : float, default 0.05
        The level.

    Returns
    -------
    str
        One bullet point per test.
    """
    lines = []
    for r in table.itertuples():
        if tests is not None and r.test not in tests:
            continue
        t = runs[runs.test == r.test]
        n = len(t)
        k1, k2 = int((t.p_value < alpha).sum()), int((t.p_two_sided < alpha).sum())
        combined = (f"the ensemble: d = {_d(r.effect_size)}, 95% interval over words and runs "
                    f"[{_d(r.ci_low)}, {_d(r.ci_high)}]"
                    + (", which includes 0" if r.ci_low <= 0 <= r.ci_high else ", which excludes 0"))
        split = [(col, k) for col, k in (("p_value", k1), ("p_two_sided", k2)) if 0 < k < n]
        if split:
            col, _ = split[0]
            lo, hi = t.loc[t[col].idxmin()], t.loc[t[col].idxmax()]
            side = "one-sided" if col == "p_value" else "two-sided"
            lines.append(
                f"* **{r.test}** ({r.title}): run {lo.run} alone says *significant* (d = {_d(lo.effect_size)}, "
                f"{side} p = {_tables.p_text(lo[col])}, {_direction(r, lo.effect_size)}); run {hi.run} says not "
                f"(d = {_d(hi.effect_size)}, p = {_tables.p_text(hi[col])}). {k1} of {n} runs are significant in the "
                f"paper's direction (one-sided), {k2} of {n} either way (two-sided); {combined}.")
        else:
            verdict = "every run is" if k1 == n else ("no run is" if k1 == 0 else f"{k1} of {n} runs are")
            lines.append(f"* **{r.test}** ({r.title}): {verdict} significant in the paper's direction "
                         f"({k2} of {n} two-sided); d from {_d(r.effect_size_min)} to {_d(r.effect_size_max)} over "
                         f"the runs; {combined}.")
    return "\n".join(lines)


def report_notes(table: pd.DataFrame, *, corpus: str = "Brown", tests: Sequence[str] | None = None,
                 n_seed: int | None = None, n_bootstrap: int | None = None) -> str:
    """One sentence per test, as a researcher would report it: the per-run distribution, the combined interval,
    the share of runs significant and the reliability, in Markdown.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`ensemble_table`.
    corpus : str, default "Brown"
        The corpus's name in the sentences.
    tests : sequence of str, optional
        The tests (default all).
    n_seed, n_bootstrap : int, optional
        The numbers of seed and bootstrap runs, named in the sentences.

    Returns
    -------
    str
        Bullet points.

    Examples
    --------
    >>> t = pd.DataFrame([{"test": "T", "title": "x", "n_runs": 10, "effect_size": 0.9, "ci_low": -0.5,
    ...                    "ci_high": 2.3, "effect_size_sd": 0.19, "effect_size_min": 0.53, "effect_size_max": 1.11,
    ...                    "sd_seed": 0.08, "sd_bootstrap": 0.16, "share_significant": 0.0,
    ...                    "share_significant_two_sided": 0.0, "test_retest": 0.81, "n_shared_words": 8}])
    >>> print(report_notes(t, n_seed=5, n_bootstrap=5))
    * **T** on Brown, 10 runs (5 seeds, 5 bootstrap samples of the documents): mean d = 0.90 (sd 0.19 over runs: 0.08 over seeds, 0.16 over bootstrap samples; range 0.53 to 1.11); 95% interval over words and runs [−0.50, 2.30]; 0 of 10 runs significant at 0.05 (one-sided); test-retest ICC(2,1) = 0.81 over 8 target words.
    """
    kinds = f" ({n_seed} seeds, {n_bootstrap} bootstrap samples of the documents)" if n_seed is not None else ""
    lines = []
    for r in table.itertuples():
        if tests is not None and r.test not in tests:
            continue
        lines.append(
            f"* **{r.test}** on {corpus}, {r.n_runs} runs{kinds}: mean d = {_d(r.effect_size)} (sd "
            f"{r.effect_size_sd:.2f} over runs: {r.sd_seed:.2f} over seeds, {r.sd_bootstrap:.2f} over bootstrap "
            f"samples; range {_d(r.effect_size_min)} to {_d(r.effect_size_max)}); 95% interval over words and runs "
            f"[{_d(r.ci_low)}, {_d(r.ci_high)}]; {r.share_significant * r.n_runs:.0f} of {r.n_runs} runs significant "
            f"at {ALPHA:g} (one-sided); test-retest ICC(2,1) = {r.test_retest:.2f} over {r.n_shared_words} target "
            "words.")
    return "\n".join(lines)


def period_coverage(specs: Sequence, *, tests: Sequence[str] | None = None,
                    periods: Mapping[str, Sequence[str]] = PERIODS, min_count: int | None = None,
                    corpus: str = "state_union") -> pd.DataFrame:
    """Which words of each test an embedding of each period could have: those occurring ``min_count`` times or more
    in the period's documents (word2vec drops the others), counted without training anything.

    Parameters
    ----------
    specs : sequence of WeatSpec or mapping
        The tests.
    tests : sequence of str, optional
        The ids of the tests to count (default all).
    periods : mapping of str to sequence of str, default PERIODS
        Period label -> ``select`` patterns of the corpus's documents.
    min_count : int, optional
        The vocabulary threshold (default :data:`SETTINGS`' ``min_count``).
    corpus : str, default "state_union"
        The corpus.

    Returns
    -------
    pandas.DataFrame
        One row per period and test: ``period``, ``documents``, ``tokens``, ``test``, ``X``, ``Y``, ``A``, ``B``
        (``kept/asked``), ``runs`` (2 target words and 1 attribute word at least in every list) and ``missing``
        (the lists that keep too few words).

    Examples
    --------
    >>> spec = {"id": "t", "X": ["world", "nation"], "Y": ["he", "she"], "A": ["peace"], "B": ["war"]}
    >>> t = period_coverage([spec], periods={"1945-1950": ("194*", "1950-*")})
    >>> int(t.documents[0]), t.X[0], t.Y[0], bool(t.runs[0]), t.missing[0]
    (6, '2/2', '1/2', False, 'Y')
    """
    min_count = SETTINGS.min_count if min_count is None else check_int("min_count", min_count, min=1)
    specs = _chosen(specs, tests)
    rows = []
    for label, patterns in periods.items():
        c = read_corpus(corpus, select=list(patterns))
        counts = c.word_counts
        for spec in specs:
            row = {"period": label, "documents": len(c.documents), "tokens": c.n_tokens, "test": spec.id}
            short = []
            for role in ("X", "Y", "A", "B"):
                words = _fold(getattr(spec, role), True)
                kept = sum(counts.get(w, 0) >= min_count for w in words)
                row[role] = f"{kept}/{len(words)}"
                if kept < (2 if role in ("X", "Y") else 1):
                    short.append(spec.names.get(role, role))
            row["runs"] = not short
            row["missing"] = ", ".join(short)
            rows.append(row)
    return pd.DataFrame(rows)


def period_notes(coverage: pd.DataFrame) -> str:
    """What :func:`period_coverage` means for a comparison of periods, in Markdown.

    Parameters
    ----------
    coverage : pandas.DataFrame
        :func:`period_coverage`.

    Returns
    -------
    str
        One paragraph.
    """
    tests = list(dict.fromkeys(coverage.test))
    runnable = [t for t in tests if coverage[coverage.test == t].runs.all()]
    sizes = "; ".join(f"{p}: {g.documents.iloc[0]} addresses, {g.tokens.iloc[0]:,} tokens"
                      for p, g in coverage.groupby("period", sort=False))
    if runnable:
        return (f"Tests that could run in both periods ({sizes}): {', '.join(runnable)}. Two ensembles of the "
                "addresses would compare them.")
    why = "; ".join(f"{t}: {', '.join(sorted(set(', '.join(coverage[coverage.test == t].missing).split(', ')) - {''}))}"
                    for t in tests)
    return (f"**Left out.** In neither period ({sizes}) does any of {', '.join(tests)} keep enough words: a list with "
            f"fewer than 2 target words (or no attribute word) occurring {SETTINGS.min_count} times or more cannot be "
            f"measured, whatever the training ({why} keep too few). Two ensembles of the addresses could measure none "
            "of these tests, so the comparison of periods is left out, untrained; a test built from words presidents "
            "use (the nation, war and peace, work and family) could be measured on them.")


def paper_notes(table: pd.DataFrame, spread: pd.DataFrame, reliability: pd.DataFrame, *,
                tests: Sequence[str] = FOCUS) -> str:
    """What can be compared with Antoniak & Mimno (2018) and Du et al. (2021), and what cannot, in Markdown.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`ensemble_table`.
    spread : pandas.DataFrame
        :func:`spread_table`.
    reliability : pandas.DataFrame
        :func:`reliability_by_kind`.
    tests : sequence of str, default FOCUS
        The tests the numbers are quoted for.

    Returns
    -------
    str
        Bullet points.
    """
    t = table[table.test.isin(tests)]
    wider = spread[spread.variance_ratio > 1]
    narrower = spread[~(spread.variance_ratio > 1)]
    ratios = ", ".join(f"{r.test} {r.variance_ratio:.1f}" for r in spread.itertuples())
    exceptions = (f", {', '.join(narrower.test)} the exception{'s' if len(narrower) > 1 else ''}"
                  if len(narrower) else "")
    icc = reliability[reliability.test.isin(tests)].pivot(index="test", columns="kind", values="test_retest")
    icc_text = "; ".join(f"{test}: {row.get('seed', math.nan):.2f} over seeds, {row.get('bootstrap', math.nan):.2f} "
                         "over bootstrap samples" for test, row in icc.iterrows())
    all_icc = ", ".join(f"{r.test} {r.test_retest:.2f}" for r in t.itertuples())
    span = float((spread.ratio_high / spread.ratio_low).median()) if len(spread) else math.nan
    return "\n".join([
        "* **Antoniak & Mimno (2018)** measured the stability of nearest neighbours and word similarities, not "
        "WEATs, on other corpora; what their abstract states is qualitative: \"nearest-neighbor distances are "
        "highly sensitive to small changes in the training corpus\", \"including specific documents in the training "
        "set can result in substantial variations\", the effects are \"more prominent for smaller training "
        "corpora\", and they recommend \"that users never rely on single embedding models for distance "
        "calculations, but rather average over multiple bootstrap samples, especially for small corpora\". What "
        f"can be compared is the direction: here the bootstrap runs spread more than the seed runs in {len(wider)} of "
        f"the {len(spread)} tests that ran{exceptions} (variance ratios, bootstrap / seed: {ratios}); each ratio "
        f"with a 95% interval spanning a factor of about {span:.0f}, so that one test alone rarely settles it: "
        "consistent with them, not a test of their claim. Their numbers are for other corpora, methods and "
        "measures, not comparable with a d.",
        "* **Du, Fang & Nguyen (2021)** assess \"test-retest reliability, inter-rater consistency and internal "
        "consistency\" of gender bias scores, \"across different choices of random seeds, scoring rules and words\" "
        "(their abstract), on embeddings of WikiText-103 (about 100 times Brown's size) and two subreddits. Their "
        "published training script (`train_sgns.py`, github.com/nlpsoc/reliability_bias) trains 32 copies of 300-d "
        "vectors (window 5, min_count 5, 5 epochs) with gensim on 48 worker threads, setting neither `seed` nor "
        "`sg` (gensim's defaults: seed 1, CBOW), so that as published its copies differ by the threads' ordering "
        "(gensim's documentation: a reproducible run needs a single worker thread); here each run is one thread, "
        "with its own seed, skip-gram. "
        "Their bias score of a word is its gender score over base pairs, not a WEAT's s(w, A, B), and their "
        "reliability figures are for their corpora: we quote none of their numbers, only the quantity that is "
        "comparable, ICC(2,1) of the target words' scores across runs. Here, over all the runs: "
        f"{all_icc}; within each kind: {icc_text}.",
    ])


def balancing_notes(frame: pd.DataFrame) -> str:
    """Which target words the WEAT's balancing left out (seeded, so the same in every run), in Markdown.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table of :func:`wordbias.battery.ensemble.weat_battery` (its run rows' ``dropped`` column).

    Returns
    -------
    str
        One bullet per test that lost words to balancing (``""`` when none did).
    """
    runs = _run_rows(frame)
    lines = []
    for test, t in runs.groupby("test", sort=False):
        dropped = [d for d in dict.fromkeys(t.dropped.dropna().astype(str)) if d]
        if not dropped:
            continue
        where = "in every run" if len(dropped) == 1 and t.dropped.notna().all() else "in some runs"
        lines.append(f"* **{test}**: {'; '.join(dropped)} ({where})")
    return "\n".join(lines)


def with_reliability(table: pd.DataFrame, reliability: pd.DataFrame) -> pd.DataFrame:
    """:func:`ensemble_table` with the test-retest reliability within each kind of run added
    (``test_retest_seed``, ``test_retest_bootstrap``: :func:`reliability_by_kind`, NaN where not measured).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`ensemble_table`.
    reliability : pandas.DataFrame
        :func:`reliability_by_kind`.

    Returns
    -------
    pandas.DataFrame
        ``table`` with the two columns.
    """
    out = table.copy()
    for kind in ("seed", "bootstrap"):
        r = reliability[reliability.kind == kind].set_index("test").test_retest
        out[f"test_retest_{kind}"] = out.test.map(r).astype(float)
    return out


def word_counts(specs: Sequence, *, tests: Sequence[str] | None = None, corpus: str = CORPUS) -> pd.DataFrame:
    """How often each word of the tests occurs in the corpus, and in how many of its documents (lower-cased, as the
    corpus is read): rare words get noisy vectors, and a word of a few documents may be missing from a bootstrap
    sample of them.

    Parameters
    ----------
    specs, tests : sequence of WeatSpec or mapping, sequence of str or None
        The tests and the ids of those to count (default all), as :func:`period_coverage` takes them.
    corpus : str, default "brown"
        The corpus (:func:`wordbias.datasets.corpora.read_corpus`).

    Returns
    -------
    pandas.DataFrame
        ``test``, ``set``, ``name``, ``words`` (``word count/documents``, comma separated, in the list's order),
        ``fewest`` (the smallest count) and ``fewest_documents`` (the fewest documents).

    Examples
    --------
    >>> spec = {"id": "t", "X": ["Washington", "he"], "Y": ["she"], "A": ["war"], "B": ["peace"]}
    >>> word_counts([spec], corpus="inaugural").loc[0, "words"]
    'washington 24/17, he 112/40'
    """
    c = read_corpus(corpus)
    counts = c.word_counts
    specs = _chosen(specs, tests)
    wanted = {w for spec in specs for role in ("X", "Y", "A", "B") for w in _fold(getattr(spec, role), True)}
    documents = dict.fromkeys(wanted, 0)
    for doc in c.documents:
        for w in wanted.intersection(t for sentence in doc for t in sentence):
            documents[w] += 1
    rows = []
    for spec in specs:
        for role in ("X", "Y", "A", "B"):
            words = _fold(getattr(spec, role), True)
            n = [counts.get(w, 0) for w in words]
            rows.append({"test": spec.id, "set": role, "name": spec.names.get(role, role),
                         "words": ", ".join(f"{w} {k:,}/{documents[w]}" for w, k in zip(words, n)),
                         "fewest": min(n) if n else 0,
                         "fewest_documents": min(documents[w] for w in words) if words else 0})
    return pd.DataFrame(rows)


def show_coverage(coverage: pd.DataFrame, tests: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`shared_lists`' coverage table for reading.

    Parameters
    ----------
    coverage : pandas.DataFrame
        The coverage table.
    tests : sequence of str, optional
        The tests to show (default all).

    Returns
    -------
    pandas.DataFrame
        Indexed by test and list: the list's name, the words asked, kept (in every run), missing from some runs and
        from every run.
    """
    c = coverage if tests is None else coverage[coverage.test.isin(tests)]
    return pd.DataFrame({"test": c.test, "set": c.set, "list": c.name, "asked": c.asked, "in every run": c.in_every_run,
                         "missing from some runs": c.missing_in_some, "missing from every run": c.missing_in_all}
                        ).set_index(["test", "set"])


def show_spread(spread: pd.DataFrame, reliability: pd.DataFrame, tests: Sequence[str] | None = None
                ) -> pd.DataFrame:
    """Seed runs against bootstrap runs for reading: the spread of d over each kind, the ratio of the variances
    with its 95% interval, and the test-retest reliability within each kind.

    Parameters
    ----------
    spread : pandas.DataFrame
        :func:`spread_table`.
    reliability : pandas.DataFrame
        :func:`reliability_by_kind`.
    tests : sequence of str, optional
        The tests to show (default all).

    Returns
    -------
    pandas.DataFrame
        Text columns, indexed by test.
    """
    s = spread if tests is None else spread[spread.test.isin(tests)]
    icc = {k: reliability[reliability.kind == k].set_index("test").test_retest for k in ("seed", "bootstrap")}
    return pd.DataFrame({
        "test": s.test,
        "d over seed runs: mean (sd)": [f"{_d(m)} ({v:.2f})" for m, v in zip(s.mean_seed, s.sd_seed)],
        "d over bootstrap runs: mean (sd)": [f"{_d(m)} ({v:.2f})" for m, v in zip(s.mean_bootstrap, s.sd_bootstrap)],
        "variance ratio, bootstrap / seed [95% interval]": [
            f"{r:.1f} [{lo:.2f}, {hi:.0f}]" for r, lo, hi in zip(s.variance_ratio, s.ratio_low, s.ratio_high)],
        "ICC(2,1) over seed runs": [_tables.number_text(icc["seed"].get(t)) for t in s.test],
        "ICC(2,1) over bootstrap runs": [_tables.number_text(icc["bootstrap"].get(t)) for t in s.test],
    }).set_index("test")


def paper_table(table: pd.DataFrame, specs: Sequence, *, tests: Sequence[str] | None = None,
                paper_key: str = "glove") -> pd.DataFrame:
    """Caliskan et al.'s d beside the mean d over the runs here, for the tests that ran.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`ensemble_table`.
    specs : sequence of WeatSpec
        The paper's specs (their ``paper`` block holds the reported d).
    tests : sequence of str, optional
        The tests to show (default every test of ``table`` the paper has).
    paper_key : str, default "glove"
        The paper's column: ``"glove"`` (Table 1, GloVe 840B on Common Crawl) or ``"word2vec"`` (Table S1).

    Returns
    -------
    pandas.DataFrame
        Indexed by test: the paper's d and p, ours (the mean over runs and its interval over words and runs), and
        whether the two agree in sign.
    """
    reported = {s.id: (s.paper.get(paper_key) or {}) for s in (stimuli.as_weat_spec(x) for x in specs)}
    rows = []
    for r in table.itertuples():
        if r.test not in reported or (tests is not None and r.test not in tests):
            continue
        d = reported[r.test].get("d")
        rows.append({"test": f"{r.test} {r.title}", "d (paper)": _tables.number_text(d),
                     "p (paper)": str(reported[r.test].get("p_text", "-")),
                     "mean d over runs (ours)": _d(r.effect_size),
                     "95% interval over words and runs": _tables.interval_text(r.ci_low, r.ci_high).replace("-", "−"),
                     "same sign": "-" if d is None else ("yes" if (d > 0) == (r.effect_size > 0) else "no")})
    return pd.DataFrame(rows).set_index("test")


def tidy_table(*frames: pd.DataFrame) -> pd.DataFrame:
    """Several tidy tables of :func:`wordbias.battery.ensemble.weat_battery` as one (the runs' rows and the
    combined rows of each battery, in order), checked against the tidy schema; their ``attrs`` are left behind.

    Parameters
    ----------
    *frames : pandas.DataFrame
        The tables.

    Returns
    -------
    pandas.DataFrame
        One tidy table.
    """
    from wordbias.core.tidy import check_tidy

    plain = []
    for f in frames:
        f = f.copy()
        f.attrs = {}
        plain.append(f)
    return check_tidy(pd.concat(plain, ignore_index=True))
