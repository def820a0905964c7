"""Kurita, Vyas, Pareek, Black & Tsvetkov (2019), Table 5: the share of job titles, positive and negative traits
and skills whose log probability bias score (§2, :func:`wordbias.measures.language_models.mlm.log_prob_bias_scores`) favours *he*
over *she*, paper vs ours (:func:`table5`), with each set's scores (:func:`table5_score_tables`), its most male and
most female attributes (:func:`table5_extremes`) and their histogram (:func:`table5_figure`).

The attribute lists are the authors' (``data/kurita2019/``, :func:`table5_attributes`); the templates and
the paper's shares are in ``data/stimuli/kurita2019.yaml``. Table 3 is :mod:`wordbias.papers.kurita2019`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.validation import check_int
from wordbias.datasets import stimuli
from wordbias.measures.language_models import mlm
from wordbias.models import contextual

__all__ = ["table5_attributes", "table5", "table5_score_tables", "table5_extremes", "table5_figure"]


def _read_lines(path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh if line.strip()]


def table5_attributes() -> dict[str, list[str]]:
    """The attribute lists of Table 5, lower-cased and de-duplicated in file order.

    As the authors' notebook reads them. Job titles are the distinct titles of the employee-salary table; a
    title with no letters (the table has one ".") is not a job title and is left out.

    Returns
    -------
    dict of str to list of str
        Each set's attributes, by the set's key.
    """
    spec = stimuli.load_stimuli("kurita2019")["table5"]["sets"]
    out = {}
    for key, s in spec.items():
        path = paths.DATA / "kurita2019" / s["file"]
        if path.suffix == ".csv":
            words = pd.read_csv(path, keep_default_na=False)["job_title"].astype(str).tolist()
        else:
            words = _read_lines(path)
        words = [w.strip().lower() for w in words]
        out[key] = list(dict.fromkeys(w for w in words if any(ch.isalpha() for ch in w)))
    return out


def table5(masked_lm: contextual.Model | None, *, batch_size: int = 32, progress: bool = False,
           unavailable: str = "") -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """Table 5: the percentage of attributes whose log-probability bias score favours *he* over *she*.

    Scores within float rounding of 0 (:func:`wordbias.measures.language_models.mlm.rounding_noise`) are set to 0 and counted
    in ``tied_within_rounding``.

    Parameters
    ----------
    masked_lm : Model or None
        The masked LM; ``None`` leaves our columns empty.
    batch_size : int, default 32
        Sentences per model batch (>= 1).
    progress : bool, default False
        Whether to show a progress bar.
    unavailable : str, default ""
        The note of each row when ``masked_lm`` is ``None`` (why there is no masked LM).

    Returns
    -------
    table : pandas.DataFrame
        One row per attribute set, paper beside ours.
    scores : dict of str to numpy.ndarray
        Each set's per-attribute scores (empty when no masked LM is given).

    Raises
    ------
    InvalidParameterError
        When ``batch_size`` is not an integer >= 1.
    """
    check_int("batch_size", batch_size, min=1)
    data = stimuli.load_stimuli("kurita2019")["table5"]
    attributes = table5_attributes()
    x, y = data["targets"][0]
    rows, scores = [], {}
    for key, s in data["sets"].items():
        row = {"set": s["title"], "template": s["template"], "n_attributes": len(attributes[key]),
               "paper_percent_male": s["paper_percent"], "model": "-", "percent_male": None,
               "note": s.get("note", "")}
        if masked_lm is not None:
            sc, noise = mlm.log_prob_bias_scores(masked_lm, attributes[key],
                                                 [mlm.TemplatePairs(s["template"], ((x, y),))],
                                                 batch_size=batch_size, progress=progress, return_noise=True)
            scores[key] = mlm.without_noise(sc, noise)
            tied = int((np.abs(sc) <= noise).sum())
            row.update(model=masked_lm.label, percent_male=100 * mlm.share_favouring_first(sc, noise),
                       tied_within_rounding=tied)
            if tied == len(sc):
                row["note"] = "; ".join(filter(None, [row["note"], "undefined: every score is 0 up to float rounding"]))
        else:
            row["note"] = "; ".join(filter(None, [unavailable, row["note"]]))
        rows.append(row)
    return pd.DataFrame(rows), scores


def _by_score(scores: Mapping[str, np.ndarray]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each set's attributes and their scores, lowest score first (a stable sort)."""
    attributes = table5_attributes()
    orders = {key: np.argsort(sc, kind="stable") for key, sc in scores.items()}
    return {key: (np.array(attributes[key])[orders[key]], sc[orders[key]]) for key, sc in scores.items()}


def table5_score_tables(scores: Mapping[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """Each Table 5 set's attributes with their bias scores, lowest first.

    Parameters
    ----------
    scores : mapping of str to numpy.ndarray
        Each set's per-attribute bias scores, as :func:`table5` returns them.

    Returns
    -------
    dict of str to pandas.DataFrame
        Per set, columns ``attribute`` and ``bias_score``.
    """
    return {key: pd.DataFrame({"attribute": words, "bias_score": sc}) for key, (words, sc) in _by_score(scores).items()}


def table5_extremes(scores: Mapping[str, np.ndarray], *, n: int = 5) -> pd.DataFrame:
    """The ``n`` most male and most female attributes of each Table 5 set (one row per set).

    Parameters
    ----------
    scores : mapping of str to numpy.ndarray
        As in :func:`table5_score_tables`.
    n : int, default 5
        Attributes at each end.

    Returns
    -------
    pandas.DataFrame
        Columns ``most male`` and ``most female`` (comma-separated), one row per set.
    """
    ends = {key: (", ".join(words[-n:][::-1]), ", ".join(words[:n])) for key, (words, _) in _by_score(scores).items()}
    return pd.DataFrame(ends, index=["most male", "most female"]).T


def table5_figure(scores: Mapping[str, np.ndarray]):
    """A histogram of the bias scores of each Table 5 set, titled with the share above 0.

    Seaborn's ``histplot``, 30 bins, one panel per set.

    Parameters
    ----------
    scores : mapping of str to numpy.ndarray
        As in :func:`table5_score_tables`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, axes = plt.subplots(1, len(scores), figsize=(3 * len(scores), 2.6), sharey=False)
    for ax, (key, sc) in zip(np.atleast_1d(axes), scores.items()):
        sns.histplot(x=np.asarray(sc, dtype=float), bins=30, color="#4c72b0", alpha=1.0, ax=ax)
        ax.set_ylabel("attributes")
        ax.axvline(0, color="black", lw=0.6)
        ax.set_title(f"{key} ({100 * np.mean(sc > 0):.1f}% > 0)")
        ax.set_xlabel("bias score he − she")
    fig.tight_layout()
    return fig
