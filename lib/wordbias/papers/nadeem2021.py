"""StereoSet (Nadeem, Bethke & Reddy 2021, doi:10.18653/v1/2021.acl-long.416) on the causal language models that
install from PyPI: the tables and the figure of the notebook ``stereoset``.

The authors' own evaluation of GPT-2 on the development set (the split shipped here), from their repository's
``code/predictions.txt``, is in ``data/stereoset/nadeem2021_reported.csv`` (:func:`reported`): SS, LMS and ICAT
averaged over targets, per bias type and task. The packaged models are scored as the authors score GPT-2's
intrasentence options (the mean log2-probability per token, ``normalisation="mean"``) and, for contrast, by the
options' whole log-probability (``"sum"``, which favours the shorter option); the intersentence options by their
log-probability after the context, which is not the authors' next-sentence head trained for GPT-2
(:mod:`wordbias.measures.language_models.stereoset`). Every number is a view of the
:class:`~wordbias.measures.language_models.stereoset.StereoSetResult` objects :func:`measure` returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from wordbias.core import paths, tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tables import interval_column, p_column

__all__ = ["MODELS", "check_parameters", "sample", "reported", "measure", "tidy_rows", "overall_table",
           "paper_table", "types_table", "figure"]

#: the packaged causal models the notebook measures by default
MODELS = ("smollm2-135m", "gemma-3-270m")
#: the examples per task in the bundled development split
SIZES = {"intrasentence": 2106, "intersentence": 2123}


def check_parameters(*, models: Sequence[str], n_examples: Mapping[str, int | None], seed: int) -> dict:
    """The notebook's parameters, checked before any model is loaded.

    Parameters
    ----------
    models : sequence of str
        Registered causal models or model folders, one or more, no repeats.
    n_examples : mapping of str to int or None
        Per task (``"intrasentence"``, ``"intersentence"``), a stratified sample of this many examples
        (:func:`sample`); None: all of them; 0: the task is left out. At least one task is kept.
    seed : int
        The samples' and the bootstraps' seed.

    Returns
    -------
    dict
        ``models`` (a list), ``n_examples`` (a dict of the tasks kept) and ``seed``, each checked.

    Raises
    ------
    InvalidParameterError
        When no model is named or one twice, a task is unknown, a size is outside 4 (one per bias type) to the
        task's examples, or no task is kept.

    Examples
    --------
    >>> check_parameters(models=["smollm2-135m"], n_examples={"intrasentence": 200, "intersentence": 0},
    ...                  seed=0)["n_examples"]
    {'intrasentence': 200}
    """
    from wordbias.core.validation import check_int, check_seed

    models = list(models) if not isinstance(models, str) else [models]
    if not models or len(set(models)) != len(models):
        raise InvalidParameterError(f"models must name one or more models, each once; got {models}")
    unknown = set(n_examples) - set(SIZES)
    if unknown:
        raise InvalidParameterError(f"n_examples names unknown tasks {sorted(unknown)}; the tasks are {list(SIZES)}")
    kept = {task: None if n is None else check_int(f"n_examples[{task!r}]", n, min=4, max=SIZES[task])
            for task, n in n_examples.items() if n != 0}
    if not kept:
        raise InvalidParameterError("n_examples keeps no task: give one task a size above 0 (None: all)")
    return {"models": models, "n_examples": kept, "seed": check_seed("seed", seed)}


def sample(n_examples: Mapping[str, int | None], seed: int) -> dict[str, list]:
    """Each task's examples, or a sample of them stratified by bias type
    (:func:`wordbias.datasets.crows_pairs.sample`, which draws within each stratum).

    Parameters
    ----------
    n_examples : mapping of str to int or None
        As :func:`check_parameters` returns it.
    seed : int
        The draw's seed.

    Returns
    -------
    dict of str to list of StereoSetExample
        Task -> its examples, in the data set's order.

    Examples
    --------
    >>> {task: len(e) for task, e in sample({"intrasentence": 40, "intersentence": None}, 0).items()}
    {'intrasentence': 40, 'intersentence': 2123}
    """
    from wordbias.datasets import crows_pairs
    from wordbias.datasets import stereoset as data

    out = {}
    for task, n in n_examples.items():
        examples = data.load(task)
        out[task] = examples if n is None else crows_pairs.sample(examples, n, seed=seed)
    return out


def reported() -> pd.DataFrame:
    """The authors' evaluation of GPT-2 small, medium and large on the development set, as transcribed in
    ``data/stereoset/nadeem2021_reported.csv`` (averages over targets, per bias type and task).

    Returns
    -------
    pandas.DataFrame
        ``model``, ``task``, ``bias_type``, ``count`` (the evaluator's count), ``lms``, ``ss``, ``icat``,
        ``source``.

    Examples
    --------
    >>> r = reported()
    >>> r[(r.model == "GPT-2 small (gpt2)") & (r.task == "intrasentence") & (r.bias_type == "overall")].ss.item()
    61.93
    """
    return pd.read_csv(paths.DATA / "stereoset" / "nadeem2021_reported.csv")


def measure(models: Mapping[str, object], examples: Mapping[str, Sequence], *,
            normalisations: Sequence[str] = ("mean", "sum"), cache=None, seed: int = 0) -> dict[tuple, object]:
    """StereoSet on each model, task and normalisation
    (:func:`wordbias.measures.language_models.stereoset.score_examples` and ``stereoset``).

    Parameters
    ----------
    models : mapping of str to model
        Label -> a loaded causal model (:func:`wordbias.models.causal.load_causal`).
    examples : mapping of str to sequence of StereoSetExample
        Task -> its examples (:func:`sample`).
    normalisations : sequence of str, default ("mean", "sum")
        The options' scores (:data:`~wordbias.measures.language_models.stereoset.NORMALISATIONS`); each reads the
        same per-token log-probabilities (from ``cache`` after the first).
    cache : wordbias.models.log_prob.LogProbCache, optional
        The per-sentence cache.
    seed : int, default 0
        ICAT's bootstrap seed.

    Returns
    -------
    dict of tuple to StereoSetResult
        ``(model label, task, normalisation)`` -> its result, in that order.

    Examples
    --------
    With ``m`` a causal model (not run as tests: a model takes seconds to load):

    >>> results = measure({"smollm2-135m": m}, sample({"intrasentence": 40}, 0))          # doctest: +SKIP
    >>> list(results)                                                                      # doctest: +SKIP
    [('smollm2-135m', 'intrasentence', 'mean'), ('smollm2-135m', 'intrasentence', 'sum')]
    """
    from wordbias.measures.language_models import stereoset as st

    out = {}
    for label, m in models.items():
        for task, task_examples in examples.items():
            for normalisation in normalisations:
                scores = st.score_examples(m, task_examples, normalisation=normalisation, cache=cache)
                out[(label, task, normalisation)] = st.stereoset(scores, seed=seed)
    return out


def tidy_rows(results: Mapping[tuple, object]) -> pd.DataFrame:
    """Every result of :func:`measure` as tidy rows (``paper`` ``nadeem2021``, ``battery``
    ``stereoset:<task>:<normalisation>``, ``embedding`` the model).

    Parameters
    ----------
    results : mapping of tuple to StereoSetResult
        :func:`measure`'s results.

    Returns
    -------
    pandas.DataFrame
        The rows, each result's SS, LMS and ICAT, overall first.
    """
    rows = [r.to_row({"embedding": label, "paper": "nadeem2021", "battery": f"stereoset:{task}:{normalisation}"})
            for (label, task, normalisation), res in results.items() for r in res.results()]
    return tidy.tidy_frame(rows)


def _cell(r) -> str:
    """A metric as "value [low, high]"."""
    return f"{r.effect_size:.1f} {interval_column([r.ci_low], [r.ci_high], decimals=1)[0]}"


def overall_table(results: Mapping[tuple, object]) -> pd.DataFrame:
    """Per model, task and normalisation: SS with its exact 95% interval and binomial p against 50, LMS with its
    exact interval, ICAT with its bootstrap interval (pooled over examples), the authors' averages over targets, and
    the tied comparisons.

    Parameters
    ----------
    results : mapping of tuple to StereoSetResult
        :func:`measure`'s results.

    Returns
    -------
    pandas.DataFrame
        One row per result.
    """
    out = []
    for (label, task, normalisation), res in results.items():
        g = res.overall
        out.append({"model": label, "task": task, "score": normalisation, "examples": g.ss.result.n,
                    "SS [95% CI]": _cell(g.ss), "p (SS vs 50)": p_column([g.ss.p_value])[0],
                    "LMS [95% CI]": _cell(g.lms), "ICAT [95% CI]": _cell(g.icat),
                    "SS / LMS / ICAT, averaged over targets": " / ".join(
                        f"{x.result.macro_over_targets:.1f}" for x in (g.ss, g.lms, g.icat)),
                    "ties (SS, LMS)": f"{g.ss.result.ties}, {g.lms.result.ties}"})
    return pd.DataFrame(out)


def paper_table(results: Mapping[tuple, object], *, normalisation: str = "mean",
                paper_model: str = "GPT-2 small (gpt2)") -> pd.DataFrame:
    """The authors' GPT-2 numbers beside ours, per task and bias type: SS, LMS and ICAT averaged over targets, as
    their evaluation computes them (ours from the sample, under ``normalisation``).

    Parameters
    ----------
    results : mapping of tuple to StereoSetResult
        :func:`measure`'s results.
    normalisation : str, default "mean"
        Our results' normalisation (the authors': mean log2-probability per token).
    paper_model : str, default "GPT-2 small (gpt2)"
        The row of :func:`reported`.

    Returns
    -------
    pandas.DataFrame
        One row per task and bias type; per metric the paper's column, then one per model.

    Raises
    ------
    InvalidParameterError
        When ``paper_model`` is not one of :func:`reported`'s models.
    """
    paper = reported()
    if paper_model not in set(paper.model):
        raise InvalidParameterError(f"paper_model must be one of {sorted(set(paper.model))}, not {paper_model!r}")
    paper = paper[paper.model == paper_model].set_index(["task", "bias_type"])
    ours = {k: v for k, v in results.items() if k[2] == normalisation}
    out = []
    for task in dict.fromkeys(k[1] for k in ours):
        for group in ("overall", *sorted({t for k, v in ours.items() if k[1] == task for t in v.by_type})):
            row = {"task": task, "bias type": group}
            for metric, key in (("SS", "ss"), ("LMS", "lms"), ("ICAT", "icat")):
                row[f"{metric} paper"] = f"{paper.loc[(task, group), key]:.1f}"
                for (label, t, _), res in ours.items():
                    if t == task:
                        g = res.overall if group == "overall" else res.by_type.get(group)
                        row[f"{metric} {label}"] = "NA" if g is None else \
                            f"{getattr(g, key).result.macro_over_targets:.1f}"
            out.append(row)
    return pd.DataFrame(out)


def types_table(results: Mapping[tuple, object], *, normalisation: str = "mean") -> pd.DataFrame:
    """Per task and bias type (rows) and model (columns): SS with its exact 95% interval and Holm's adjusted p
    across the bias types.

    Parameters
    ----------
    results : mapping of tuple to StereoSetResult
        :func:`measure`'s results.
    normalisation : str, default "mean"
        The results shown.

    Returns
    -------
    pandas.DataFrame
        One row per task and bias type present, with its number of examples.
    """
    ours = {k: v for k, v in results.items() if k[2] == normalisation}
    out = []
    for task in dict.fromkeys(k[1] for k in ours):
        first = next(v for k, v in ours.items() if k[1] == task)
        for group, g in first.by_type.items():
            row = {"task": task, "bias type": group, "examples": g.ss.result.n}
            for (label, t, _), res in ours.items():
                if t == task:
                    ss = res.by_type[group].ss
                    row[f"SS {label}"] = f"{_cell(ss)} p_Holm {p_column([ss.p_holm])[0]}"
            out.append(row)
    return pd.DataFrame(out)


def figure(results: Mapping[tuple, object]):
    """SS per bias type and overall with its exact 95% interval: one row of panels per task, one column per
    normalisation, one colour per model, a dashed line at 50 (no preference); a filled dot where Holm's adjusted p < 0.05 (overall: p).

    Parameters
    ----------
    results : mapping of tuple to StereoSetResult
        :func:`measure`'s results.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from wordbias.datasets.stereoset import BIAS_TYPES

    tasks = list(dict.fromkeys(k[1] for k in results))
    normalisations = list(dict.fromkeys(k[2] for k in results))
    models = list(dict.fromkeys(k[0] for k in results))
    tests = ["overall", *BIAS_TYPES]
    fig = Figure(figsize=(3.6 * len(normalisations) + 1.4, (0.42 * len(tests) + 1.0) * len(tasks) + 0.9),
                 layout="constrained")
    grid = fig.subplots(len(tasks), len(normalisations), sharex=True, sharey=True, squeeze=False)
    y = np.arange(len(tests))[::-1]
    for (row, task), (col, normalisation) in ((r, c) for r in enumerate(tasks) for c in enumerate(normalisations)):
        ax = grid[row, col]
        for i, label in enumerate(models):
            res = results.get((label, task, normalisation))
            if res is None:
                continue
            groups = [res.overall.ss, *(res.by_type[t].ss if t in res.by_type else None for t in BIAS_TYPES)]
            est = np.array([np.nan if r is None else r.effect_size for r in groups])
            low = np.array([np.nan if r is None else r.ci_low for r in groups])
            high = np.array([np.nan if r is None else r.ci_high for r in groups])
            p = np.array([np.nan if r is None else (r.p_value if j == 0 else r.p_holm) for j, r in enumerate(groups)])
            off = (i - (len(models) - 1) / 2) * 0.25
            ax.errorbar(est, y + off, xerr=[est - low, high - est], fmt="none", ecolor=f"C{i}", lw=1.4)
            ax.scatter(est, y + off, s=22, color=f"C{i}", facecolors=np.where(p < 0.05, f"C{i}", "white"), zorder=3)
        ax.axvline(50, color="grey", ls="--", lw=0.8)
        ax.set_xlim(0, 100)
        ax.set_title(f"{task}, {normalisation}", fontsize=10)
        if row == len(tasks) - 1:
            ax.set_xlabel("SS (% stereotype preferred)")
    grid[0, 0].set_yticks(y, tests)
    handles = [Line2D([], [], color=f"C{i}", marker="o", markerfacecolor=f"C{i}", label=m) for i, m in enumerate(models)]
    handles.append(Line2D([], [], color="black", marker="o", markerfacecolor="white", ls="none",
                          label="hollow: not significant (Holm p >= 0.05; overall: p >= 0.05)"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.suptitle("StereoSet: the share of examples whose stereotype scores above its anti-stereotype (exact 95% CI)",
                 fontsize=10)
    return fig
