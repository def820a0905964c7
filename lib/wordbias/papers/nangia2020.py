"""CrowS-Pairs (Nangia, Vania, Bhalerao & Bowman 2020, doi:10.18653/v1/2020.emnlp-main.154) on the causal language
models that install from PyPI: the tables and the figure of the notebook ``crows_pairs``.

The paper scores masked LMs by their pseudo-log-likelihood of the tokens two sentences share (its Table 2: BERT
60.5%, RoBERTa 64.1%, ALBERT 67.0% of pairs stereotyped, in ``data/crows_pairs/nangia2020_reported.csv``). No
masked LM installs here, so the packaged causal models are scored by the language-model evaluation harness's
convention (the whole sentence's log-probability) and by the causal analogue of the paper's (the log-probability of
the shared tokens, each conditioned on everything before it): an adaptation, not a replication, and the paper's
numbers are context, not targets. Every number is a view of :mod:`wordbias.battery.lm`'s tidy rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from wordbias.core import paths, tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tables import interval_column, p_column

__all__ = ["MODELS", "check_parameters", "reported", "measure", "model_difference", "committed", "overall_table",
           "types_table", "figure"]

#: the packaged causal models the notebook measures by default
MODELS = ("smollm2-135m", "gemma-3-270m")


def check_parameters(*, models: Sequence[str], n_pairs: int | None, seed: int) -> dict:
    """The notebook's parameters, checked before any model is loaded.

    Parameters
    ----------
    models : sequence of str
        Registered causal models or model folders, one or more, no repeats.
    n_pairs : int or None
        A stratified sample of this many pairs (:func:`wordbias.datasets.crows_pairs.sample`); None: all 1,508.
    seed : int
        The sample's and the bootstraps' seed.

    Returns
    -------
    dict
        ``models`` (as a list), ``n_pairs`` and ``seed``, each checked.

    Raises
    ------
    InvalidParameterError
        When no model is named or one twice, ``n_pairs`` is outside 9 to 1,508, or ``seed`` is not a seed.

    Examples
    --------
    >>> check_parameters(models=["smollm2-135m"], n_pairs=300, seed=0)["n_pairs"]
    300
    """
    from wordbias.core.validation import check_int, check_seed

    models = list(models) if not isinstance(models, str) else [models]
    if not models or len(set(models)) != len(models):
        raise InvalidParameterError(f"models must name one or more models, each once; got {models}")
    n_pairs = None if n_pairs is None else check_int("n_pairs", n_pairs, min=9, max=1508)
    return {"models": models, "n_pairs": n_pairs, "seed": check_seed("seed", seed)}


def reported() -> pd.DataFrame:
    """The paper's overall scores (Table 2), as transcribed in ``data/crows_pairs/nangia2020_reported.csv``.

    Returns
    -------
    pandas.DataFrame
        ``model``, ``convention``, ``share_stereotyped``, ``source``.

    Examples
    --------
    >>> reported().share_stereotyped.tolist()
    [0.605, 0.641, 0.67]
    """
    return pd.read_csv(paths.DATA / "crows_pairs" / "nangia2020_reported.csv")


def measure(models: Mapping[str, object], pairs, *, conventions: Sequence[str] = ("harness", "shared-tokens"),
            cache=None, seed: int = 0, progress: bool = False) -> dict[str, pd.DataFrame]:
    """Each model's CrowS-Pairs rows (:func:`wordbias.battery.lm.crows_pairs_table`).

    Parameters
    ----------
    models : mapping of str to model
        Label -> a loaded causal model (:func:`wordbias.models.causal.load_causal`).
    pairs : sequence of CrowsPair
        The pairs.
    conventions : sequence of str, default ("harness", "shared-tokens")
        The scoring conventions.
    cache : wordbias.models.log_prob.LogProbCache, optional
        The per-sentence cache.
    seed : int, default 0
        The bootstraps' seed.
    progress : bool, default False
        Progress bars over the sentences.

    Returns
    -------
    dict of str to pandas.DataFrame
        Label -> its tidy rows.

    Examples
    --------
    With ``m`` a causal model (not run as tests: a model takes seconds to load):

    >>> from wordbias.datasets import crows_pairs as data
    >>> frames = measure({"smollm2-135m": m}, data.sample(data.load(), 90))                # doctest: +SKIP
    >>> sorted(frames["smollm2-135m"].battery.unique())                                    # doctest: +SKIP
    ['crows_pairs:difference', 'crows_pairs:harness', 'crows_pairs:shared-tokens']
    """
    from wordbias.battery.lm import crows_pairs_table

    return {label: crows_pairs_table([m] * len(conventions), conventions=conventions, pairs=pairs, label=label,
                                     cache=cache, seed=seed, progress=progress)
            for label, m in models.items()}


def model_difference(models: Mapping[str, object], pairs, *, convention: str = "shared-tokens", cache=None,
                     seed: int = 0) -> pd.DataFrame:
    """The paired difference between the first two models' shares on the same pairs (the sentences' scores come
    from ``cache`` when :func:`measure` ran first), as one tidy row.

    Parameters
    ----------
    models : mapping of str to model
        Label -> a loaded causal model; the first two are compared (first minus second).
    pairs, cache, seed
        As :func:`measure`.
    convention : str, default "shared-tokens"
        The scoring convention.

    Returns
    -------
    pandas.DataFrame
        One tidy row (``measure`` ``crows_pairs_difference``, ``battery`` ``crows_pairs:models``).

    Raises
    ------
    InvalidParameterError
        With fewer than two models.

    Examples
    --------
    >>> model_difference({"one": None}, [])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: the difference between models needs two models, not 1
    """
    from wordbias.measures.language_models import crows_pairs as cp

    if len(models) < 2:
        raise InvalidParameterError(f"the difference between models needs two models, not {len(models)}")
    (a, ma), (b, mb) = list(models.items())[:2]
    d = cp.paired_difference(cp.score_pairs(ma, pairs, convention=convention, cache=cache),
                             cp.score_pairs(mb, pairs, convention=convention, cache=cache), seed=seed)
    return tidy.tidy_frame([d.to_row({"embedding": f"{a} - {b}", "paper": "nangia2020",
                                      "battery": "crows_pairs:models"})])


def committed() -> dict[str, pd.DataFrame]:
    """The committed run's tables (``results/nangia2020/smollm2-135m+gemma-3-270m/tidy.csv``), by model, as
    :func:`measure` gives them (the difference between the two models left out).

    Returns
    -------
    dict of str to pandas.DataFrame
        Model -> its tidy rows.

    Examples
    --------
    >>> list(committed())
    ['smollm2-135m', 'gemma-3-270m']
    """
    t = tidy.read_tidy(paths.COMMITTED_RESULTS / "nangia2020" / "+".join(MODELS) / "tidy.csv")
    t = t[t.battery != "crows_pairs:models"]
    return {model: rows.reset_index(drop=True) for model, rows in t.groupby("embedding", sort=False)}


def _rows(frames: Mapping[str, pd.DataFrame], tests: Sequence[str]) -> pd.DataFrame:
    out = pd.concat(frames.values(), ignore_index=True)
    out = out[(out.measure == "crows_pairs") & out.test.isin(tests)].copy()
    out["convention"] = out.battery.str.removeprefix("crows_pairs:")
    return out


def overall_table(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per model and convention: the share of pairs stereotyped with its exact 95% interval and binomial p, the
    shares on stereotypes and on anti-stereotypes, and the length confound (how often the shorter sentence wins).

    Parameters
    ----------
    frames : mapping of str to pandas.DataFrame
        :func:`measure`'s tables.

    Returns
    -------
    pandas.DataFrame
        One row per model and convention.

    Examples
    --------
    >>> row = dict(embedding="m", paper="nangia2020", measure="crows_pairs", effect_size_name="share stereotyped",
    ...            n_x=10, ci_low=0.3, ci_high=0.9, p_value=0.34)
    >>> t = tidy.tidy_frame([{**row, "battery": "crows_pairs:harness", "test": test, "effect_size": v}
    ...                      for test, v in (("overall", 0.7), ("stereo", 0.75), ("antistereo", 0.5),
    ...                                      ("length", 0.8))])
    >>> overall_table({"m": t})[["model", "pairs", "share stereotyped", "shorter sentence wins"]].values.tolist()
    [['m', 10, '0.70', '0.80']]
    """
    rows = _rows(frames, ("overall", "stereo", "antistereo", "length"))
    out = []
    for (model, conv), sub in rows.groupby(["embedding", "convention"], sort=False):
        by = sub.set_index("test")
        o = by.loc["overall"]
        share = {t: f"{by.effect_size[t]:.2f}" if t in by.index else "NA" for t in ("stereo", "antistereo", "length")}
        out.append({"model": model, "convention": conv, "pairs": int(o.n_x),
                    "share stereotyped": f"{o.effect_size:.2f}",
                    "95% CI": interval_column([o.ci_low], [o.ci_high])[0], "p (vs 0.5)": p_column([o.p_value])[0],
                    "stereo": share["stereo"], "antistereo": share["antistereo"],
                    "shorter sentence wins": share["length"]})
    return pd.DataFrame(out)


def types_table(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per bias type (rows) and model and convention (columns): the share stereotyped, its exact 95% interval and
    Holm's adjusted p across the nine types.

    Parameters
    ----------
    frames : mapping of str to pandas.DataFrame
        As :func:`overall_table`.

    Returns
    -------
    pandas.DataFrame
        One row per bias type (with its number of pairs), one column per model and convention.

    Examples
    --------
    On the committed run:

    >>> frames = committed()
    >>> types_table(frames)[["bias type", "pairs"]].iloc[0].astype(str).tolist()
    ['race-color', '103']
    """
    from wordbias.datasets.crows_pairs import BIAS_TYPES

    rows = _rows(frames, BIAS_TYPES)
    out = pd.DataFrame({"bias type": [t for t in BIAS_TYPES if t in set(rows.test)]})
    out["pairs"] = pd.array([int(rows[rows.test == t].n_x.iloc[0]) for t in out["bias type"]], dtype="Int64")
    for (model, conv), sub in rows.groupby(["embedding", "convention"], sort=False):
        by = sub.set_index("test")
        out[f"{model} ({conv})"] = [
            f"{by.effect_size[t]:.2f} {interval_column([by.ci_low[t]], [by.ci_high[t]])[0]} "
            f"p_Holm {p_column([by.p_holm[t]])[0]}" for t in out["bias type"]]
    return out


def figure(frames: Mapping[str, pd.DataFrame]):
    """The share stereotyped per bias type with its exact 95% interval: one panel per convention, one colour per
    model, a dashed line at 0.5 (no preference); a filled dot where Holm's adjusted p < 0.05.

    Parameters
    ----------
    frames : mapping of str to pandas.DataFrame
        As :func:`overall_table`: each model's rows; the figure reads the overall row and the nine types' rows of
        each convention.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> fig = figure(committed())
    >>> [ax.get_title() for ax in fig.axes]
    ['harness', 'shared-tokens']
    """
    from matplotlib.figure import Figure

    from wordbias.datasets.crows_pairs import BIAS_TYPES

    order = ["overall", *BIAS_TYPES]
    rows = _rows(frames, order)
    conventions = list(dict.fromkeys(rows.convention))
    models = list(dict.fromkeys(rows.embedding))
    tests = [t for t in order if t in set(rows.test)]
    fig = Figure(figsize=(4.2 * len(conventions) + 1.6, 0.38 * len(tests) + 1.6), layout="constrained")
    axes = fig.subplots(1, len(conventions), sharey=True, squeeze=False)[0]
    y = np.arange(len(tests))[::-1]
    for ax, conv in zip(axes, conventions):
        for i, model in enumerate(models):
            sub = rows[(rows.convention == conv) & (rows.embedding == model)].set_index("test").reindex(tests)
            off = (i - (len(models) - 1) / 2) * 0.25
            est = sub.effect_size.to_numpy(float)
            err = [est - sub.ci_low.to_numpy(float), sub.ci_high.to_numpy(float) - est]
            ax.errorbar(est, y + off, xerr=err, fmt="none", ecolor=f"C{i}", lw=1.4)
            filled = (sub.p_holm.to_numpy(float) < 0.05) | ((sub.index == "overall") & (sub.p_value < 0.05))
            ax.scatter(est, y + off, s=22, color=f"C{i}", facecolors=np.where(filled, f"C{i}", "white"), zorder=3)
        ax.axvline(0.5, color="grey", ls="--", lw=0.8)
        ax.set_xlim(0, 1)
        ax.set_title(conv, fontsize=10)
        ax.set_xlabel("share of pairs stereotyped")
    axes[0].set_yticks(y, [f"{t} (n={int(rows[rows.test == t].n_x.iloc[0])})" for t in tests])
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=f"C{i}", marker="o", markerfacecolor=f"C{i}", label=model)
               for i, model in enumerate(models)]
    handles.append(Line2D([], [], color="black", marker="o", markerfacecolor="white", ls="none",
                          label="hollow: not significant (Holm p >= 0.05; overall: p >= 0.05)"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=8, frameon=False)
    fig.suptitle("CrowS-Pairs: the share of pairs whose more-stereotyping sentence scores higher (exact 95% CI)",
                 fontsize=10)
    return fig
