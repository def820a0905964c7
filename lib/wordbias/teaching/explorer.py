"""A WEAT explorer for the lessons: edit X, Y, A and B and see d, its interval, p and each word's s(w, A, B).

Three layers, the first two usable without a browser:

* :func:`explore` (pure): one WEAT measured once by :func:`wordbias.measures.association.measurement.weat` (unknown words
  dropped and reported, target sets balanced, the bootstrap interval of d over the words, p one- and two-sided),
  shown as an :class:`Exploration`; no statistic is computed here.
* :func:`plot_scores`: a seaborn bar chart of each target word's s(w, A, B), coloured by target set.
* :func:`plot_runs` (lesson 6): each training run's d with its interval over words, and the mean over the runs
  with the interval over words and runs (:mod:`wordbias.measures.ensemble`).
* :func:`weat_explorer`: an ipywidgets UI (four text areas, a button or live update, an output area) whose
  callback (:meth:`WeatExplorer.update`) calls the two; bad input (an empty list, unknown words, a word in both
  X and Y) shows a message in the output, never a traceback.

Caliskan, Bryson & Narayanan (2017), *Science* 356:183, https://doi.org/10.1126/science.aal4230 (Methods).
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wordbias.core.validation import check_int, check_seed
from wordbias.measures.association import measurement as _measurement
from wordbias.measures.association import weat as _weat
from wordbias.options import Resampling, Words
from wordbias.result import Result
from wordbias.stats import montecarlo as _montecarlo
from wordbias.stats.resampling import BootstrapInterval

__all__ = ["Exploration", "explore", "word_lists", "parse_words", "plot_scores", "permutation_null", "plot_null",
           "plot_runs", "WeatExplorer", "weat_explorer", "N_RESAMPLES", "N_PERMUTATIONS", "SETS"]

#: bootstrap resamples of the interval of d (2,000 keep a widget update well under a second; BCa's end points
#: then move by about 0.01 with the seed, against 0.005 with 10,000)
N_RESAMPLES = 2_000
#: Monte Carlo permutations when the exact p is too dear (small lists are counted exactly)
N_PERMUTATIONS = 10_000
#: the four word sets, in the paper's notation
SETS = ("X", "Y", "A", "B")

_COLOURS = {"X": "#1f77b4", "Y": "#ff7f0e"}


@dataclass(frozen=True)
class Exploration:
    """One run of :func:`explore`, in a student's words.

    A view of the test measured once: the WEAT (``result``), the bootstrap interval of d (``interval``), both p
    and the warnings the run gave (``notes``: dropped words, balancing, low power, low coverage).

    Attributes
    ----------
    measured : wordbias.result.Result
        The test measured once; the properties name its parts.
    """

    measured: Result = field(repr=False)

    @property
    def result(self) -> _weat.WeatResult:
        """The WEAT: the word sets used, s(w, A, B) of each target word, the statistic, d and p."""
        return self.measured.result

    @property
    def interval(self) -> BootstrapInterval | None:
        """The bootstrap interval of d (None when the sets were too small to resample)."""
        return self.measured.interval

    @property
    def notes(self) -> tuple[str, ...]:
        """The warnings of the run, each once."""
        return tuple(dict.fromkeys(str(w) for w in self.measured.warnings))

    @property
    def d(self) -> float:
        """The effect size d."""
        return self.measured.effect_size

    @property
    def ci(self) -> tuple[float, float]:
        """The bootstrap interval of d (``interval.confidence_level``, ``interval.method``)."""
        return self.measured.ci_low, self.measured.ci_high

    @property
    def p_one_sided(self) -> float:
        """Pr[s(X_i, Y_i, A, B) ≥ s(X, Y, A, B)], the paper's one-sided p."""
        return self.measured.p_value

    @property
    def p_two_sided(self) -> float:
        """min(1, 2·min of the two one-sided p)."""
        return self.measured.p_two_sided

    @property
    def p_method(self) -> str:
        """How p was obtained: "exact", "monte-carlo" or "normal"."""
        return self.measured.p_method

    @property
    def dropped(self) -> dict[str, tuple[str, ...]]:
        """Words not in the embedding, per set (only sets that lost words)."""
        return self.result.missing

    @property
    def balanced_out(self) -> dict[str, tuple[str, ...]]:
        """Words deleted at random to give X and Y the same size."""
        return self.result.balanced_out

    @property
    def scores(self) -> pd.DataFrame:
        """One row per target word: ``set`` ("X" or "Y"), ``group`` (its display name), ``word`` and ``s`` =
        s(w, A, B), in decreasing order of s."""
        r = self.result
        frame = pd.DataFrame({"set": ["X"] * len(r.X.words) + ["Y"] * len(r.Y.words),
                              "group": [r.X.name] * len(r.X.words) + [r.Y.name] * len(r.Y.words),
                              "word": list(r.X.words) + list(r.Y.words),
                              "s": np.concatenate([r.s_x, r.s_y])})
        return frame.sort_values("s", ascending=False, kind="stable").reset_index(drop=True)

    def summary(self) -> dict:
        """The result as a flat dict.

        Returns
        -------
        dict
            ``n_X``, ``n_Y``, ``n_A``, ``n_B``, ``d``, ``ci_low``, ``ci_high``, ``ci`` (how the interval was
            computed), ``p_one_sided``, ``p_two_sided``, ``p_method``, ``dropped`` and ``balanced_out``.
        """
        r = self.result
        return {"n_X": len(r.X.words), "n_Y": len(r.Y.words), "n_A": len(r.A.words), "n_B": len(r.B.words),
                "d": self.d, "ci_low": self.ci[0], "ci_high": self.ci[1],
                "ci": (f"{self.interval.method} bootstrap, {self.interval.n_resamples:,} resamples" if self.interval
                       else "no interval"),
                "p_one_sided": self.p_one_sided, "p_two_sided": self.p_two_sided, "p_method": self.p_method,
                "dropped": "; ".join(f"{k}: {', '.join(v)}" for k, v in self.dropped.items()),
                "balanced_out": "; ".join(f"{k}: {', '.join(v)}" for k, v in self.balanced_out.items())}

    def text(self) -> str:
        """The result in plain words.

        Returns
        -------
        str
            Two to four lines: d and its interval; both p, the method and the sizes; the dropped and the
            balanced-out words.
        """
        s = self.summary()
        lines = [f"d = {s['d']:.2f}, {self.measured.ci_level:.0%} interval [{s['ci_low']:.2f}, "
                 f"{s['ci_high']:.2f}] ({s['ci']})",
                 f"p one-sided = {s['p_one_sided']:.3g}, two-sided = {s['p_two_sided']:.3g} ({s['p_method']}); "
                 f"|X| = {s['n_X']}, |Y| = {s['n_Y']}, |A| = {s['n_A']}, |B| = {s['n_B']}"]
        if s["dropped"]:
            lines.append(f"not in the embedding, dropped: {s['dropped']}")
        if s["balanced_out"]:
            lines.append(f"deleted at random to balance X and Y: {s['balanced_out']}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(self.text()) + "</pre>"


def explore(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
            names: Mapping[str, str] | None = None, seed: int = 0, n_resamples: int = N_RESAMPLES,
            n_permutations: int = N_PERMUTATIONS, case_fold: bool = False,
            balance_targets: str = "random") -> Exploration:
    """One WEAT with everything a student looks at.

    d, its bootstrap interval, the one- and two-sided p (and how they were computed), the dropped words and each
    target word's s(w, A, B). The test is measured once by :func:`wordbias.measures.association.measurement.weat` (the
    library's one route: the WEAT of :func:`wordbias.measures.association.weat.weat` with its checks and unknown-word policy,
    the BCa interval of :func:`wordbias.measures.association.bootstrap.weat_bootstrap` with each set resampled, and the
    two-sided p by the same method as the one-sided one); :class:`Exploration` only names its parts for a
    student. The library's warnings are recorded in ``notes`` instead of being shown.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to vector
        The embedding.
    X, Y : sequence of str
        The target word lists.
    A, B : sequence of str
        The attribute word lists.
    names : mapping of str to str or None
        Display names of the sets (keys ``"X"``, ``"Y"``, ``"A"``, ``"B"``).
    seed : int
        Seeds the balancing, the permutations and the bootstrap.
    n_resamples : int
        Bootstrap resamples of the interval of d.
    n_permutations : int
        Monte Carlo permutations when the exact p is too dear.
    case_fold : bool
        Look words up in lower case where the embedding lacks them as given.
    balance_targets : str
        What to do when X and Y differ in size: ``"random"`` (delete words at random, seeded), ``"raise"`` or
        ``"none"`` (see :func:`wordbias.measures.association.weat.weat`).

    Returns
    -------
    Exploration
        The result.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "lily", "ant", "wasp", "moth", "love", "joy", "hate", "ugly"]
    >>> V = np.array([[1, .1], [.9, .3], [.8, .2], [.1, 1], [.2, .8], [.3, .9], [1, 0], [.9, .1], [0, 1], [.1, .9]])
    >>> e = explore(to_keyed_vectors(words, V.astype(np.float32)), words[:3] + ["daisy"], words[3:6], words[6:8],
    ...             words[8:], n_resamples=1000)
    >>> round(e.d, 4), e.p_method, round(e.p_one_sided, 4), round(e.p_two_sided, 4), e.dropped
    (1.8069, 'exact', 0.05, 0.1, {'X': ('daisy',)})
    """
    seed = check_seed("seed", seed)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")        # kept in the result (``notes``), not shown
        measured = _measurement.weat(embedding, X, Y, A, B, names=names,
                                     resampling=Resampling(seed=seed, n_resamples=n_resamples,
                                                           n_permutations=n_permutations),
                                     words=Words(case_fold=case_fold, balance_targets=balance_targets))
    return Exploration(measured)


def word_lists(X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
               names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The four word lists of a test as a table to read.

    Parameters
    ----------
    X, Y : sequence of str
        The target word lists.
    A, B : sequence of str
        The attribute word lists.
    names : mapping of str to str or None
        Display names of the sets.

    Returns
    -------
    pandas.DataFrame
        One row per set (X, Y, A, B): ``name``, ``words`` (the size) and ``list``.

    Examples
    --------
    >>> t = word_lists(["rose"], ["ant"], ["love"], ["hate", "ugly"], names={"X": "flowers"})
    >>> t.loc["X", "name"], int(t.loc["B", "words"]), t.loc["B", "list"]
    ('flowers', 2, 'hate, ugly')
    """
    names = names or {}
    return pd.DataFrame({"name": [names.get(k, k) for k in SETS], "words": [len(w) for w in (X, Y, A, B)],
                         "list": [", ".join(w) for w in (X, Y, A, B)]}, index=pd.Index(SETS, name="set"))


def parse_words(text: str) -> list[str]:
    """The words of a text area: separated by commas, semicolons, spaces or new lines; empty items skipped.

    Parameters
    ----------
    text : str
        The text area's value.

    Returns
    -------
    list of str
        The words, in order.

    Examples
    --------
    >>> parse_words("rose, tulip\\n lily;;  daisy ")
    ['rose', 'tulip', 'lily', 'daisy']
    """
    if not isinstance(text, str):
        raise TypeError(f"expected the text of a text area, not {type(text).__name__}")
    return [w for w in re.split(r"[,;\s]+", text) if w]


def plot_scores(exploration: Exploration, *, title: str | None = None, ax=None):
    """Horizontal bars of s(w, A, B) for every target word, largest first, coloured by target set (seaborn).

    d, its interval and p are in the title; the legend sits outside the bars.

    Parameters
    ----------
    exploration : Exploration
        The result of :func:`explore`.
    title : str or None
        The title; None for d, its interval and p.
    ax : matplotlib.axes.Axes or None
        The axes to draw on; None for a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure of the bars.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    frame = exploration.scores
    names = exploration.result
    palette = {names.X.name: _COLOURS["X"], names.Y.name: _COLOURS["Y"]}
    if ax is None:
        _, ax = plt.subplots(figsize=(7, max(2.6, 0.5 + 0.24 * len(frame))))
    sns.barplot(data=frame, x="s", y="word", hue="group", hue_order=list(palette), palette=palette, dodge=False,
                orient="h", ax=ax)
    ax.axvline(0, color="black", lw=0.6)
    ax.set_xlabel(f"s(w, A, B): closer to {names.A.name} (right) or to {names.B.name} (left)")
    ax.set_ylabel("")
    ax.tick_params(axis="y", labelsize=9 if len(frame) <= 30 else 7)
    lo, hi = exploration.ci
    ax.set_title(title or f"d = {exploration.d:.2f} [{lo:.2f}, {hi:.2f}], one-sided p = "
                          f"{exploration.p_one_sided:.2g}", fontsize=11)
    ax.legend(title="target set", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    ax.figure.tight_layout()
    return ax.figure


def permutation_null(s_x, s_y, *, n_permutations: int = N_PERMUTATIONS, seed: int = 0) -> np.ndarray:
    """The test statistic s(X_i, Y_i, A, B) of random relabellings (X_i, Y_i) of the target words, sizes kept.

    The null distribution the permutation test compares s(X, Y, A, B) with (Caliskan et al. 2017, Methods). The
    draws are :func:`wordbias.stats.montecarlo.random_subset_sums`'s (the Monte Carlo test's for the same seed);
    with Σ_{X_i} s the sum over a random subset and Σ s over all targets, s(X_i, Y_i, A, B) = 2 Σ_{X_i} s − Σ s.

    Parameters
    ----------
    s_x, s_y : array_like
        s(w, A, B) of the words of X and of Y.
    n_permutations : int
        The random relabellings.
    seed : int
        Seeds the draws.

    Returns
    -------
    numpy.ndarray
        ``n_permutations`` statistics.

    Examples
    --------
    >>> permutation_null([1.0, 0.0], [-1.0, -0.5], n_permutations=4, seed=0).tolist()
    [1.5, -1.5, 2.5, 2.5]
    """
    pooled = np.concatenate([np.asarray(s_x, dtype=np.float64), np.asarray(s_y, dtype=np.float64)])
    sums = _montecarlo.random_subset_sums(pooled, len(s_x), check_int("n_permutations", n_permutations, min=1),
                                           seed=check_seed("seed", seed))
    return 2.0 * sums - pooled.sum()


def plot_null(null, observed: float, *, ax=None):
    """A histogram (seaborn) of the permutation statistics with the observed s(X, Y, A, B) marked.

    The share of permutations at least as large (within 1e-9 relative, so that a draw equal to the observed
    labelling counts on every CPU) is in the legend below the axes.

    Parameters
    ----------
    null : array_like
        The permutation statistics (:func:`permutation_null`).
    observed : float
        The observed s(X, Y, A, B).
    ax : matplotlib.axes.Axes or None
        The axes to draw on; None for a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure of the null distribution.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    null = np.asarray(null, dtype=np.float64)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.8))
    distinct = np.unique(np.round(null, 12)).size       # few target words: few distinct values, fewer bins
    # the observed labelling is among the draws: count it whatever the rounding of its sum (as the library does)
    share = float(np.mean(null >= observed - 1e-9 * max(1.0, abs(observed))))
    sns.histplot(null, bins=int(min(40, max(distinct, 1))), color="#9e9e9e", ax=ax,
                 label=f"{null.size:,} random relabellings")
    ax.axvline(observed, color="#c62828", lw=2,
               label=f"observed s(X, Y, A, B) = {observed:.3f} (share of relabellings ≥ it: "
                     f"{share:.3g})")
    ax.set_xlabel("s(X_i, Y_i, A, B) of a random relabelling of the target words")
    ax.set_ylabel("relabellings")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), frameon=False, fontsize=9, ncol=1)
    ax.figure.tight_layout()
    return ax.figure


def plot_runs(results, *, title: str | None = None, ax=None):
    """Each training run's d with its interval over words, and each ensemble's mean with its combined interval.

    A forest plot (matplotlib): one row per run (a dot at d, a line over the run's bootstrap interval over the
    words), and under each ensemble a diamond at the mean d over its runs with the interval over words and runs
    (:func:`wordbias.measures.ensemble.combine_runs`), each ensemble in its own colour.

    Parameters
    ----------
    results : EnsembleMeasurement, sequence of EnsembleMeasurement, or mapping of str to EnsembleMeasurement
        One test measured on every run of one or more ensembles (:func:`wordbias.measures.ensemble.on_runs`), e.g.
        the runs with other seeds and the runs on bootstrap samples of the documents; a mapping names each
        ensemble in the plot (by default an ensemble is named by its label where there are several).
    title : str or None
        The title; None for the test's title.
    ax : matplotlib.axes.Axes or None
        The axes to draw on; None for a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The forest plot (one row per run and one per ensemble).

    Raises
    ------
    InvalidParameterError
        When ``results`` is empty or holds something else than an ensemble measurement.
    """
    import matplotlib.pyplot as plt

    from wordbias.core.errors import InvalidParameterError
    from wordbias.measures.ensemble import EnsembleMeasurement

    if isinstance(results, EnsembleMeasurement):
        named = [("", results)]
    elif isinstance(results, Mapping):
        named = [(str(k), v) for k, v in results.items()]
    else:
        named = [(getattr(g, "ensemble", ""), g) for g in results]
        named = named if len(named) > 1 else [("", g) for _, g in named]
    groups = [g for _, g in named]
    if not groups or not all(isinstance(g, EnsembleMeasurement) for g in groups):
        raise InvalidParameterError("plot_runs takes an EnsembleMeasurement (wordbias.measures.ensemble.on_runs), a "
                                    "list of them or a mapping of names to them")
    rows = []      # (label, d, low, high, colour, is_mean)
    palette = ["#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a"]
    for i, (name, g) in enumerate(named):
        colour = palette[i % len(palette)]
        for run, m in zip(g.runs, g.per_run):
            if m.not_run is None:
                rows.append((run, m.effect_size, m.ci_low, m.ci_high, colour, False))
        if g.combined is not None:
            label = f"mean of {g.n_runs} runs" + (f" ({name})" if name else "")
            rows.append((label, g.effect_size, g.ci_low, g.ci_high, colour, True))
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, max(2.4, 0.5 + 0.3 * len(rows))))
    for y, (_, d, low, high, colour, is_mean) in enumerate(rows):
        ax.plot([low, high], [y, y], color=colour, lw=3.5 if is_mean else 1.6, alpha=0.45 if is_mean else 0.9,
                solid_capstyle="butt")
        ax.plot([d], [y], marker="D" if is_mean else "o", ms=8 if is_mean else 5.5, color=colour)
    ax.axvline(0, color="black", lw=0.6, ls=":")
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=9)
    for tick, row in zip(ax.get_yticklabels(), rows):
        tick.set_fontweight("bold" if row[5] else "normal")
    ax.invert_yaxis()
    name = groups[0].effect_size_name
    level = groups[0].per_run[0].ci_level
    ax.set_xlabel(f"{name}: each run with its {level:.0%} interval over words; ◆ the mean with the interval over "
                  "words and runs", fontsize=9)
    ax.set_title(title or groups[0].title, fontsize=11)
    ax.figure.tight_layout()
    return ax.figure


def _check_lists(lists: Mapping[str, list[str]], names: Mapping[str, str]) -> str:
    """A message for the mistakes a student makes in the text areas ('' when none): an empty list, too few
    target words, a word in both target sets or both attribute sets."""
    for key in SETS:
        if not lists[key]:
            return f"{names[key]} ({key}) is empty: type at least {2 if key in 'XY' else 1} word(s), separated by commas."
    for key in "XY":
        if len(lists[key]) < _weat.MIN_TARGET_SIZE:
            return f"{names[key]} ({key}) has one word; a target set needs at least {_weat.MIN_TARGET_SIZE}."
    for a, b in (("X", "Y"), ("A", "B")):
        both = [w for w in lists[a] if w in set(lists[b])]
        if both:
            return f"{both} in both {names[a]} ({a}) and {names[b]} ({b}); a word may be in only one of them."
    return ""


class WeatExplorer:
    """The widget of :func:`weat_explorer`.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to vector
        The embedding.
    X, Y, A, B : sequence of str
        The word lists the text areas start with.
    names : mapping of str to str or None
        Display names of the sets.
    seed, n_resamples, n_permutations, case_fold
        As for :func:`explore`.
    live : bool
        Rerun the test on every edit.
    plot : bool
        Show the bar chart below the result.

    Attributes
    ----------
    areas : dict of str to ipywidgets.Textarea
        The four text areas, by set.
    button : ipywidgets.Button
        The **Run the test** button.
    output : ipywidgets.Output
        Where the result is shown.
    exploration : Exploration or None
        The last result (None before the first run, or after bad input).
    message : str
        The text shown last.
    """

    def __init__(self, embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
                 names: Mapping[str, str] | None = None, seed: int = 0, n_resamples: int = N_RESAMPLES,
                 n_permutations: int = N_PERMUTATIONS, case_fold: bool = False, live: bool = False,
                 plot: bool = True):
        import ipywidgets as w

        self.embedding = embedding
        self.names = {k: (names or {}).get(k, k) for k in SETS}
        self.options = dict(seed=check_seed("seed", seed), n_resamples=check_int("n_resamples", n_resamples, min=2),
                            n_permutations=check_int("n_permutations", n_permutations, min=1), case_fold=case_fold)
        self.plot = plot
        self.areas = {k: w.Textarea(value=", ".join(words), description=f"{k}: {self.names[k]}"[:24],
                                    layout=w.Layout(width="48%", height="80px"),
                                    style={"description_width": "110px"})
                      for k, words in zip(SETS, (X, Y, A, B))}
        self.button = w.Button(description="Run the test", button_style="primary")
        self.output = w.Output()
        self.button.on_click(lambda _: self.update())
        if live:
            for area in self.areas.values():
                area.observe(lambda _: self.update(), names="value")
        self.widget = w.VBox([w.HBox([self.areas["X"], self.areas["Y"]]), w.HBox([self.areas["A"], self.areas["B"]]),
                              self.button, self.output])
        self.exploration: Exploration | None = None
        self.figure = None
        self.message = ""

    def lists(self) -> dict[str, list[str]]:
        """The words now in the four text areas.

        Returns
        -------
        dict of str to list of str
            The words of each set.
        """
        return {k: parse_words(a.value) for k, a in self.areas.items()}

    def compute(self) -> None:
        """Run :func:`explore` on the text areas' words; set ``exploration`` and ``message`` (a clear message,
        and ``exploration = None``, for bad input or any error of the library)."""
        lists = self.lists()
        self.exploration, self.figure = None, None
        problem = _check_lists(lists, self.names)
        if problem:
            self.message = f"Cannot run the test: {problem}"
            return
        try:
            self.exploration = explore(self.embedding, *(lists[k] for k in SETS), names=self.names, **self.options)
        except Exception as err:   # shown to the student as a message, never a traceback
            self.message = f"Cannot run the test: {err}"
            return
        self.message = self.exploration.text()

    def update(self) -> None:
        """The callback of the button (and of live edits): :meth:`compute`, then show the message and the bar
        chart in the output area."""
        from IPython.display import HTML, display

        self.compute()
        self.output.clear_output(wait=True)
        with self.output:
            colour = "#c62828" if self.exploration is None else "black"
            display(HTML(f'<pre style="color:{colour}">{html.escape(self.message)}</pre>'))
            if self.exploration is not None and self.plot:
                import matplotlib.pyplot as plt

                self.figure = plot_scores(self.exploration)
                display(self.figure)
                plt.close(self.figure)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def weat_explorer(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
                  names: Mapping[str, str] | None = None, seed: int = 0, n_resamples: int = N_RESAMPLES,
                  n_permutations: int = N_PERMUTATIONS, case_fold: bool = False, live: bool = False,
                  run: bool = True) -> WeatExplorer:
    """The explorer widget, filled with X, Y, A, B (display it as a cell's last expression). Needs ``ipywidgets``.

    Parameters
    ----------
    X, Y : sequence of str
        The target word lists the text areas start with.
    A, B : sequence of str
        The attribute word lists the text areas start with.
    embedding, names, seed, n_resamples, n_permutations, case_fold
        As for :func:`explore`.
    live : bool
        Rerun the test on every edit (each takes a fraction of a second); otherwise the button does.
    run : bool
        Run the test once at once, so that the output area is not empty.

    Returns
    -------
    WeatExplorer
        The widget.
    """
    ui = WeatExplorer(embedding, X, Y, A, B, names=names, seed=seed, n_resamples=n_resamples,
                      n_permutations=n_permutations, case_fold=case_fold, live=live)
    if run:
        ui.update()
    return ui
