"""One language-model benchmark over several models and specifications, each (model, specification) an independent
job (:func:`wordbias.core.jobs.run_jobs`: in this process, in local processes, or on a Dask cluster through Dask's
distributed scheduler, as ``wordbias train --scheduler``).

A job receives a model's registered name or folder and plain options, loads the model itself (models never travel
pickled), scores its specification with :mod:`wordbias.battery.lm` and returns plain data: CrowS-Pairs' scores of
one convention (:class:`~wordbias.measures.language_models.crows_pairs.PairScores`), StereoSet's tidy rows under one
normalisation, BEC-Pro's tidy rows in one language. The tables are put together here in the order asked (model by
model, specification by specification), whatever order the jobs finish in, so the numbers do not depend on the
workers or where they ran. The per-sentence cache (:class:`~wordbias.models.log_prob.LogProbCache`) travels as its
folder.

* :func:`crows_pairs_runs`: per model, the rows of :func:`wordbias.battery.lm.crows_pairs_table` (each convention and
  the difference between the first two); and, per convention, the paired difference between every two models on the
  same pairs (``battery`` ``crows_pairs:models``, ``embedding`` ``"<first> - <second>"``, ``test`` the convention);
* :func:`stereoset_runs`: :func:`wordbias.battery.lm.stereoset_table` per model and normalisation;
* :func:`bec_pro_runs`: :func:`wordbias.battery.lm.bec_pro_table` per model and language.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path

import pandas as pd

from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.jobs import check_workers, run_jobs

__all__ = ["RunSettings", "model_label", "is_masked", "crows_pairs_runs", "stereoset_runs",
           "bec_pro_runs"]


@dataclasses.dataclass(frozen=True)
class RunSettings:
    """Where and how the jobs run: the same for every benchmark.

    Attributes
    ----------
    workers : int or None, default 1
        Local processes (None: every CPU; 1: in this process). Ignored with ``scheduler``.
    scheduler : str, optional
        A Dask scheduler's address (``"tcp://host:8786"``; ``pip install "wordbias[dask]"``): the jobs run on its
        cluster, which must read the model folders and the caches.
    cache_dir : str, optional
        Where converted models are kept (:func:`wordbias.battery.lm.load_model`; default the project's cache).
    log_probs : str, optional
        The folder of the per-sentence :class:`~wordbias.models.log_prob.LogProbCache` (None: no cache).
    batch_size : int, default 16
        Sentences run through a model at once.
    progress : bool, default False
        Progress bars: over the sentences when the jobs run in this process, over the jobs otherwise.
    """

    workers: int | None = 1
    scheduler: str | None = None
    cache_dir: str | None = None
    log_probs: str | None = None
    batch_size: int = 16
    progress: bool = False


def model_label(name: str) -> str:
    """A model's name in the tables: the registered name, or the folder's last part, lower-cased (the label
    :func:`wordbias.battery.lm.load_model`'s models carry).

    Parameters
    ----------
    name : str
        A registered model or a model folder.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> model_label("smollm2-135m"), model_label("/models/My-Model/")
    ('smollm2-135m', 'my-model')
    """
    return Path(str(name).rstrip("/")).name.lower()


def is_masked(name: str) -> bool:
    """Whether a model folder holds a masked LM (its ``config.json`` names a ``...ForMaskedLM`` architecture).

    Parameters
    ----------
    name : str
        A registered model or a model folder.

    Returns
    -------
    bool
        True for a folder of a masked LM; False for a registered name or any other folder.

    Examples
    --------
    >>> is_masked("smollm2-135m")
    False
    """
    config = Path(name) / "config.json"
    if not config.is_file():
        return False
    architectures = json.loads(config.read_text(encoding="utf-8")).get("architectures") or []
    return any(a.endswith("ForMaskedLM") for a in architectures)


def _models_difference(by_model: Mapping[str, Sequence], *, confidence_level: float, seed: int) -> list[dict]:
    """Per convention, the paired difference between every two models (first minus second, in the order asked)."""
    from wordbias.measures.language_models import crows_pairs as cp

    rows = []
    for (a, sa), (b, sb) in combinations(by_model.items(), 2):
        for x, y in zip(sa, sb):
            d = cp.paired_difference(x, y, seed=seed, confidence_level=confidence_level)
            rows.append(dataclasses.replace(d, test=x.convention).to_row(
                {"embedding": f"{a} - {b}", "paper": "nangia2020", "battery": "crows_pairs:models"}))
    return rows


def crows_pairs_runs(models: Sequence[str], pairs=None, *, conventions: Sequence[str] = ("harness", "shared-tokens"),
                     labels: Sequence[str] | None = None, confidence_level: float = 0.95, seed: int = 0,
                     settings: RunSettings = RunSettings()) -> pd.DataFrame:
    """CrowS-Pairs (Nangia et al. 2020, §3) on several models under each convention: one job per (model,
    convention), scoring the pairs; the summaries and the paired differences are computed here from the jobs'
    scores.

    Parameters
    ----------
    models : sequence of str
        Registered causal models or model folders (a masked LM for the ``"pll"`` convention), each once.
    pairs : sequence of CrowsPair, optional
        The pairs (default all 1,508).
    conventions : sequence of str, default ("harness", "shared-tokens")
        The scoring conventions, each once (:data:`wordbias.measures.language_models.crows_pairs.CONVENTIONS`).
    labels : sequence of str, optional
        The models' names in the tables (default :func:`model_label`), each once.
    confidence_level : float, default 0.95
        The intervals' level.
    seed : int, default 0
        The seed of the paired differences' bootstraps.
    settings : RunSettings, optional
        Workers, scheduler, caches, batch size, progress.

    Returns
    -------
    pandas.DataFrame
        The tidy rows: each model's rows as :func:`wordbias.battery.lm.crows_pairs_table`, in the order of
        ``models``; then, with two models or more, per pair of models and convention, their paired difference
        (``battery`` ``crows_pairs:models``).

    Raises
    ------
    InvalidParameterError
        When a model, a label or a convention repeats, or none is given.

    Examples
    --------
    Two registered models in two local processes (not run as tests: each job loads its model):

    >>> from wordbias.datasets import crows_pairs as data
    >>> t = crows_pairs_runs(["smollm2-135m", "gemma-3-270m"], data.sample(data.load(), 90),
    ...                      settings=RunSettings(workers=2))                               # doctest: +SKIP
    >>> t[t.battery == "crows_pairs:models"].test.tolist()                                # doctest: +SKIP
    ['harness', 'shared-tokens']
    """
    from wordbias.datasets.crows_pairs import load

    conventions = _distinct("conventions", conventions)
    labels = _labels(models, labels)
    pairs = load() if pairs is None else list(pairs)
    from wordbias.battery.lm import crows_pairs_rows

    scores = _run("crows-pairs", models, [(c, pairs) for c in conventions], {}, settings)
    by_model = {label: scores[i * len(conventions):(i + 1) * len(conventions)] for i, label in enumerate(labels)}
    rows = [r for label, s in by_model.items()
            for r in crows_pairs_rows(s, label=label, confidence_level=confidence_level, seed=seed)]
    rows += _models_difference(by_model, confidence_level=confidence_level, seed=seed)
    return tidy.tidy_frame(rows)


def stereoset_runs(models: Sequence[str], examples: Sequence, *, normalisations: Sequence[str] = ("mean",),
                   labels: Sequence[str] | None = None, n_resamples: int = 10_000, seed: int = 0,
                   settings: RunSettings = RunSettings()) -> pd.DataFrame:
    """StereoSet (Nadeem et al. 2021, §4) on several models under each normalisation: one job per (model,
    normalisation), each :func:`wordbias.battery.lm.stereoset_table`.

    Parameters
    ----------
    models : sequence of str
        Registered causal models or model folders (a masked LM for the intrasentence task only), each once.
    examples : sequence of sequence of StereoSetExample
        One list of examples per task (:func:`wordbias.datasets.stereoset.load`).
    normalisations : sequence of {"mean", "sum"}, default ("mean",)
        How an option's token log-probabilities make its score, each once (each row's ``battery`` names it:
        ``stereoset:intrasentence:sum``).
    labels : sequence of str, optional
        The models' names in the tables (default :func:`model_label`), each once.
    n_resamples, seed
        ICAT's bootstrap (:func:`~wordbias.battery.lm.stereoset_table`).
    settings : RunSettings, optional
        Workers, scheduler, caches, batch size, progress.

    Returns
    -------
    pandas.DataFrame
        The tidy rows, model by model, normalisation by normalisation.

    Raises
    ------
    InvalidParameterError
        When a model, a label or a normalisation repeats, or none is given.

    Examples
    --------
    >>> from wordbias.datasets import stereoset as data
    >>> t = stereoset_runs(["smollm2-135m"], [data.load("intrasentence")[:40]],
    ...                    normalisations=("mean", "sum"))                                 # doctest: +SKIP
    >>> sorted(set(t.battery))                                                            # doctest: +SKIP
    ['stereoset:intrasentence:mean', 'stereoset:intrasentence:sum']
    """
    normalisations = _distinct("normalisations", normalisations)
    labels = _labels(models, labels)
    options = {"n_resamples": n_resamples, "seed": seed}
    frames = _run("stereoset", models, [(n, [list(e) for e in examples]) for n in normalisations],
                  {"labels": labels, **options}, settings)
    return tidy.check_tidy(pd.concat(frames, ignore_index=True))


def bec_pro_runs(models: Sequence[str], sentences: Mapping[str, Sequence] | None = None, *,
                 columns: Sequence[str] = ("US", "DE", "BLS"), labels: Sequence[str] | None = None, resampling=None,
                 settings: RunSettings = RunSettings()) -> pd.DataFrame:
    """BEC-Pro (Bartl et al. 2020, §3) on several models in each language: one job per (model, language), each
    :func:`wordbias.battery.lm.bec_pro_table` (the sentences scored once for all the share columns).

    Parameters
    ----------
    models : sequence of str
        Registered causal models or model folders (causal or masked), each once.
    sentences : mapping of str to sequence of BecProSentence, optional
        Per language (``"en"``, ``"de"``), the sentences (default all the English ones); the languages are the
        specifications, in the mapping's order.
    columns : sequence of {"US", "DE", "BLS"}, default ("US", "DE", "BLS")
        The shares of women correlated with (BLS: Winogender's, for the professions it names).
    labels : sequence of str, optional
        The models' names in the tables (default :func:`model_label`), each once.
    resampling : Resampling, optional
        The bootstrap over professions (:class:`wordbias.options.Resampling`).
    settings : RunSettings, optional
        Workers, scheduler, caches, batch size, progress.

    Returns
    -------
    pandas.DataFrame
        The tidy rows (``battery`` ``bec_pro:<language>``, ``test`` the column), model by model, language by
        language.

    Raises
    ------
    InvalidParameterError
        When a model or a label repeats, no language is given, or as :func:`~wordbias.battery.lm.bec_pro_table`.

    Examples
    --------
    Kurita et al.'s he/she pair in both languages:

    >>> from wordbias.datasets.bec_pro import load, pronoun_sentences
    >>> t = bec_pro_runs(["smollm2-135m"], {k: pronoun_sentences(load(k)) for k in ("en", "de")})  # doctest: +SKIP
    >>> t[["battery", "test"]].values.tolist()[:3]                                        # doctest: +SKIP
    [['bec_pro:en', 'US'], ['bec_pro:en', 'DE'], ['bec_pro:en', 'BLS']]
    """
    from wordbias.datasets.bec_pro import load

    sentences = {"en": load("en")} if sentences is None else dict(sentences)
    if not sentences:
        raise InvalidParameterError("sentences must hold the sentences of one language or more")
    labels = _labels(models, labels)
    frames = _run("bec-pro", models, [(lang, list(s)) for lang, s in sentences.items()],
                  {"labels": labels, "columns": tuple(columns), "resampling": resampling}, settings)
    return tidy.check_tidy(pd.concat(frames, ignore_index=True))


def _distinct(name: str, values: Sequence[str]) -> list[str]:
    values = [values] if isinstance(values, str) else list(values)
    if not values or len(set(values)) != len(values):
        raise InvalidParameterError(f"{name} must name one or more, each once; got {values}")
    return values


def _labels(models: Sequence[str], labels: Sequence[str] | None) -> list[str]:
    """The models' labels, checked: one per model, none twice (the tables' rows are keyed by them)."""
    models = _distinct("models", models)
    labels = [model_label(m) for m in models] if labels is None else list(labels)
    if len(labels) != len(models) or len(set(labels)) != len(labels):
        raise InvalidParameterError(f"give one label per model, each once; got {labels} for {models} (two folders "
                                    "of the same name need labels)")
    return labels


def _run(benchmark: str, models: Sequence[str], specs: Sequence[tuple], options: dict,
         settings: RunSettings) -> list:
    """The jobs' outputs, model by model and specification by specification."""
    labels = options.pop("labels", [None] * len(models))
    n = len(models) * len(specs)
    inside = settings.scheduler is None and check_workers(settings.workers, n) == 1
    sent = dataclasses.replace(settings, progress=settings.progress and inside)    # the sentences' bars
    jobs = [(benchmark, str(name), spec, items, {**options, "label": label}, sent)
            for name, label in zip(models, labels) for spec, items in specs]
    return run_jobs(_job, jobs, workers=settings.workers, scheduler=settings.scheduler,
                    progress=settings.progress and not inside, desc=f"{benchmark} jobs", unit="job")


def _job(benchmark: str, name: str, spec: str, items: list, options: dict, settings: RunSettings):
    """One (model, specification): the model loaded here, its output returned as plain data."""
    from wordbias.battery import lm
    from wordbias.models.log_prob import LogProbCache

    masked = spec == "pll" if benchmark == "crows-pairs" else is_masked(name)
    convention = spec if benchmark == "crows-pairs" else ("pll" if masked else "harness")
    model = lm.load_model(name, convention=convention, cache_dir=settings.cache_dir)
    cache = None if masked or settings.log_probs is None else LogProbCache(settings.log_probs)
    if benchmark == "crows-pairs":
        from wordbias.measures.language_models.crows_pairs import score_pairs

        return score_pairs(model, items, convention=spec, batch_size=settings.batch_size, cache=cache,
                           progress=settings.progress)
    if benchmark == "stereoset":
        return lm.stereoset_table(model, items, normalisation=spec, batch_size=settings.batch_size, cache=cache,
                                  **options)
    return lm.bec_pro_table(model, items, batch_size=settings.batch_size, cache=cache, **options)
