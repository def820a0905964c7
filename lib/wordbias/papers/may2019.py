"""May et al. (2019), "On Measuring Social Biases in Sentence Encoders" (NAACL-HLT, doi:10.18653/v1/N19-1063):
the tables and the figure of the ``may2019`` notebook.

The notebook measures SEAT (:func:`wordbias.battery.seat.seat_battery`) on a sentence encoder (the bundled
all-MiniLM-L6-v2, mean pooling) and on May et al.'s CBoW baseline over a static embedding (the bundled GloVe 6B
50d; the paper's is GloVe 840B 300d), and sets the results beside the numbers the paper reports
(:func:`wordbias.datasets.seat.reported`). This module only lays results out: :func:`comparison` (one row per test,
ours beside the paper's), :func:`figure` (d with its interval per test and encoder, the paper's as a cross) and
:func:`token_coverage` (how many of the tests' CBoW tokens an embedding has, e.g. the bundled GloVe 840B subset).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from wordbias.core.errors import InvalidParameterError
from wordbias.core.tables import interval_column, p_column
from wordbias.core.validation import check_int, check_seed
from wordbias.datasets import seat as _data

__all__ = ["default_tests", "check_parameters", "comparison", "figure", "token_coverage"]

#: the paper's reported d in :func:`figure`, one shape per encoder of its file (in order)
_PAPER_MARKERS = ("x", "+", "1", "2", "3", "4", "*")


def default_tests() -> list[str]:
    """The tests of the paper's Table 3, in its order (the rows of :func:`wordbias.datasets.seat.reported`).

    Returns
    -------
    list of str
        The test names, each once.
    """
    return list(dict.fromkeys(_data.reported().test))


def check_parameters(*, encoder: str, static: str, tests, seed, n_permutations, n_resamples) -> dict:
    """Check the notebook's parameters before any work; return them as the measuring options.

    Parameters
    ----------
    encoder : str
        The sentence encoder's name (a non-empty string).
    static : str
        The static embedding's name for the CBoW baseline (a non-empty string).
    tests : sequence of str or None
        Shipped test names (glob patterns allowed); None: :func:`default_tests`.
    seed : int
        The seed of the measurements.
    n_permutations : int
        Monte Carlo draws of the permutation p (at least 1).
    n_resamples : int
        Bootstrap resamples of the interval of d (0: no interval).

    Returns
    -------
    dict
        ``tests`` (list of test names), ``seed``, ``n_permutations``, ``n_resamples``, checked.

    Raises
    ------
    InvalidParameterError
        When a parameter is out of range or a test name is unknown.
    """
    for name, v in (("encoder", encoder), ("static", static)):
        if not isinstance(v, str) or not v:
            raise InvalidParameterError(f"{name} must be a model or embedding name, not {v!r}")
    tests = default_tests() if tests is None else [t.id for t in _data.load_tests(list(tests))]
    return {"tests": tests, "seed": check_seed("seed", seed),
            "n_permutations": check_int("n_permutations", n_permutations, min=1),
            "n_resamples": check_int("n_resamples", n_resamples, min=0)}


def results_view(frame: pd.DataFrame, *, coverage: bool = False) -> pd.DataFrame:
    """One encoder's SEAT results for a reader: per test the sentences (or words) per target and attribute set, d
    with its 95% interval, the one-sided p and how it was computed, and the Holm-adjusted p, each p as text
    (:func:`wordbias.core.tables.p_column`: ``7.8e-05``, never a rounded ``0.000``). A view of the tidy table of
    :func:`wordbias.battery.seat.seat_battery`; every column stays in its CSV.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy table.
    coverage : bool, default False
        Also show the ``coverage`` column (for each set, the sentences with a vector of those it has: a CBoW
        sentence without a known token has none).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``test``: ``X/Y, A/B``, (``coverage``,) ``d``, ``95% CI``, ``p (one-sided)``, ``p method``,
        ``p Holm``.

    Examples
    --------
    >>> t = pd.DataFrame({"test": ["weat1"], "n_x": [25], "n_y": [25], "n_a": [25], "n_b": [25],
    ...                   "effect_size": [1.2371], "ci_low": [0.768], "ci_high": [1.581], "p_value": [7.3e-07],
    ...                   "p_method": ["exact"], "p_holm": [1e-05]})
    >>> [str(v) for v in results_view(t).iloc[0]]
    ['25/25, 25/25', '1.24', '[0.77, 1.58]', '7.3e-07', 'exact', '1.0e-05']
    """
    sizes = [f"{x}/{y}, {a}/{b}" for x, y, a, b in zip(frame.n_x, frame.n_y, frame.n_a, frame.n_b)]
    extra = {"coverage": frame.coverage.to_numpy()} if coverage else {}
    return pd.DataFrame({"test": frame.test.astype(str).to_numpy(), "X/Y, A/B": sizes, **extra,
                         "d": frame.effect_size.round(2).to_numpy(),
                         "95% CI": interval_column(frame.ci_low, frame.ci_high),
                         "p (one-sided)": p_column(frame.p_value), "p method": frame.p_method.to_numpy(),
                         "p Holm": p_column(frame.p_holm)}).set_index("test")


def comparison(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Ours beside the paper's: per test, each encoder's d, 95% interval, p (one-sided) and Holm-adjusted p, and
    the paper's reported d per encoder it tested.

    Parameters
    ----------
    frames : mapping of str to DataFrame
        Column label (e.g. ``"MiniLM"``, ``"CBoW GloVe 6B 50d"``) -> the tidy table of
        :func:`wordbias.battery.seat.seat_battery`.

    Returns
    -------
    pandas.DataFrame
        One row per test (the order of the first frame): ``test``, the paper's ``row`` and ``context`` (where it
        reports the test), then per label ``<label> d``, ``<label> 95% CI``, ``<label> p``, ``<label> p Holm``,
        then ``paper <encoder> d`` for each encoder of the paper's file, in the file's order (``paper BERT d``;
        ``paper CBoW d``, the paper's GloVe 840B 300d baseline to set beside a CBoW label, appears once that
        column is in the file), NaN where the paper has no number for the test.
    """
    if not frames:
        raise InvalidParameterError("comparison needs at least one tidy table")
    rep = _data.reported()
    first = next(iter(frames.values()))
    out = pd.DataFrame({"test": first.test.astype(str).tolist()})
    meta = rep.drop_duplicates("test").set_index("test")
    out["paper row"] = [meta.row.get(t, "") for t in out.test]
    out["context"] = [meta.context.get(t, "") for t in out.test]
    for label, f in frames.items():
        f = f.set_index(f.test.astype(str)).reindex(out.test)
        out[f"{label} d"] = f.effect_size.round(2).to_numpy()
        out[f"{label} 95% CI"] = interval_column(f.ci_low, f.ci_high)
        out[f"{label} p"] = p_column(f.p_value)
        out[f"{label} p Holm"] = p_column(f.p_holm)
    for enc, sub in rep.groupby("encoder", sort=False):
        d = sub.set_index("test").d
        out[f"paper {enc} d"] = [d.get(t, np.nan) for t in out.test]
    return out


def figure(frames: Mapping[str, pd.DataFrame]):
    """d with its 95% interval per test, one marker per encoder, the paper's reported d as black crosses (one
    cross shape per encoder of the paper's file: ``x`` for the first, then ``+``, ...).

    Parameters
    ----------
    frames : mapping of str to DataFrame
        As :func:`comparison`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    rep = _data.reported()
    tests = next(iter(frames.values())).test.astype(str).tolist()
    y = np.arange(len(tests))[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.42 * len(tests) + 1.8))
    k = len(frames)
    for i, (label, f) in enumerate(frames.items()):
        f = f.set_index(f.test.astype(str)).reindex(tests)
        off = (i - (k - 1) / 2) * 0.22
        d = f.effect_size.to_numpy(float)
        lo, hi = f.ci_low.to_numpy(float), f.ci_high.to_numpy(float)
        ax.errorbar(d, y + off, xerr=[np.where(np.isfinite(lo), d - lo, 0), np.where(np.isfinite(hi), hi - d, 0)],
                    fmt="o", ms=4, capsize=2, label=f"{label} (95% CI)")
    pos = {t: j for t, j in zip(tests, y)}
    for (enc, sub), marker in zip(rep.groupby("encoder", sort=False), itertools.cycle(_PAPER_MARKERS)):
        pts = [(r.d, pos[r.test]) for r in sub.itertuples() if r.test in pos and np.isfinite(r.d)]
        if pts:
            ax.scatter(*zip(*pts), marker=marker, color="black", zorder=3, label=f"paper: {enc}")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, tests)
    ax.set_xlabel("effect size d (SEAT)")
    ax.set_ylim(y.min() - 0.6, y.max() + 0.6)
    # below the axes: inside, it covers a row's interval whichever corner it takes
    n_entries = len(ax.get_legend_handles_labels()[0])
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=min(n_entries, 4), fontsize=8, frameon=False)
    ax.set_title("SEAT (May et al. 2019): ours vs the paper's reported d", fontsize=10)
    fig.tight_layout()
    return fig


def token_coverage(kv, tests: Sequence[str], *, lowercase: bool = False) -> pd.DataFrame:
    """How many of the CBoW tokens of each test an embedding has.

    Parameters
    ----------
    kv : KeyedVectors
        The embedding.
    tests : sequence of str
        Shipped test names.
    lowercase : bool, default False
        Lower-case the tokens first (an uncased embedding).

    Returns
    -------
    pandas.DataFrame
        Per test: ``tokens`` (distinct), ``in vocabulary``, ``sentences``, ``sentences with a vector`` (at least
        one known token), ``missing (first 8)``.
    """
    from wordbias.core.tokens import tokenize

    index = kv.key_to_index
    rows = []
    for t in _data.load_tests(list(tests)):
        toks = [[w.lower() if lowercase else w for w in tokenize(s)] for s in t.sentences]
        distinct = sorted({w for ts in toks for w in ts})
        missing = [w for w in distinct if w not in index]
        rows.append({"test": t.id, "tokens": len(distinct), "in vocabulary": len(distinct) - len(missing),
                     "sentences": len(toks), "sentences with a vector": sum(any(w in index for w in ts) for ts in toks),
                     "missing (first 8)": " ".join(missing[:8])})
    return pd.DataFrame(rows)
