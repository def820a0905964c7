"""The papers' figures, drawn with matplotlib and seaborn and saved reproducibly (PNG + PDF, no timestamps).

Labels of scattered points are placed by :func:`place_labels` (adjustText) so that none overlap, and legends sit
outside the axes (:func:`legend_outside`), never over data."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from wordbias.core.errors import InvalidParameterError

plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150, "font.size": 9, "svg.hashsalt": "wordbias"})

#: significant digits (of an axis' span) to which :func:`place_labels` rounds the coordinates and limits it uses:
#: a coordinate that moves by 1e-7 on another CPU gives the same rounded input, so the same label positions
#: (1e-4 of a 5-inch axis at 150 dpi is 0.08 pixel: nothing visible is lost)
LABEL_DIGITS = 4
#: iterations of adjustText's force-directed placement; fixed (never a time limit, which would make the result
#: depend on the machine's speed)
LABEL_ITERATIONS = 400
#: characters per line of a wrapped test name in :func:`effect_size_comparison`
WRAP_WIDTH = 38


def save(fig, folder: Path | str, name: str, *, tight: bool = True, beside: bool = False) -> list[Path]:
    """Save ``fig`` as ``folder/name.png`` and ``folder/name.pdf`` without creation dates or versions.

    ``tight=False`` keeps the figure's own size instead of cropping to what is drawn: for figures of values
    that may move within their tolerance on another computer, so that a wider tick label cannot change the
    picture's size.

    ``beside=True`` draws the PDF in a forked process beside the PNG where a second core is free
    (:class:`~wordbias.core.parallel.ForkedCall`), else from a copy of the figure made before the PNG is drawn:
    either way both files are drawn from the figure as it was given (a constrained layout is worked out again at
    each drawing, from where the last one left it), so the bytes do not depend on the machine's cores.

    Each file is drawn to a temporary file beside it and moved into place when complete
    (:func:`wordbias.core.atomic.atomic_file`): a full disk never leaves a truncated figure. Inside
    :func:`wordbias.core.atomic.run_files` the files move into place with the run's other files.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    folder : pathlib.Path or str
        The folder (created if needed).
    name : str
        The files' name, without extension.
    tight : bool, default True
        Whether to crop the figure to what is drawn.
    beside : bool, default False
        Draw the PDF beside the PNG (a command's figure: about half a second less on two cores).

    Returns
    -------
    list of pathlib.Path
        The PNG and the PDF written (inside :func:`~wordbias.core.atomic.run_files`, where their content is
        until the run's files are moved into place: :func:`~wordbias.core.atomic.pending_path`).
    """
    from wordbias.core.atomic import atomic_file, pending_path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / f"{name}.png"
    pdf = folder / f"{name}.pdf"
    bbox = "tight" if tight else None
    if beside and _second_core():
        from wordbias.core.parallel import ForkedCall

        with atomic_file(pdf) as pdf_tmp:
            drawing = ForkedCall(lambda: _save_pdf(fig, pdf_tmp, bbox))
            try:
                with atomic_file(png) as tmp:
                    fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches=bbox)
                drawing.result()
            finally:
                drawing.cancel()
    else:
        if beside:
            import copy

            fresh = copy.deepcopy(fig)        # the figure as given, for the PDF: as the forked drawing sees it
        with atomic_file(png) as tmp:
            fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches=bbox)
        with atomic_file(pdf) as tmp:
            _save_pdf(fresh if beside else fig, tmp, bbox)
    return [pending_path(png), pending_path(pdf)]


def _second_core() -> bool:
    """Whether a forked process can draw beside this one (fork available and more than one worker)."""
    from wordbias.core.parallel import default_workers, fork_available

    return fork_available() and default_workers() > 1


def _save_pdf(fig, path, bbox) -> None:
    """Draw the figure as a PDF without creation dates or versions."""
    fig.savefig(path, format="pdf", metadata={"CreationDate": None, "ModDate": None, "Producer": None,
                                              "Creator": None}, bbox_inches=bbox)


# --------------------------------------------------------------------------------------------------
# labels that do not overlap, legends off the data
# --------------------------------------------------------------------------------------------------

def label_grid(low: float, high: float, digits: int = LABEL_DIGITS) -> float:
    """Return the rounding step of an axis from ``low`` to ``high``.

    The step is ``digits`` significant digits of its span (a power of ten), e.g. 0.001 for a span of 3.2 and 4
    digits.

    Parameters
    ----------
    low, high : float
        The axis' limits.
    digits : int, default LABEL_DIGITS
        The significant digits of the span (:data:`LABEL_DIGITS`).

    Returns
    -------
    float
        The step.

    Raises
    ------
    InvalidParameterError
        When the span is zero or not finite.

    Examples
    --------
    >>> label_grid(0.0, 3.2)
    0.001
    """
    span = abs(float(high) - float(low))
    if not math.isfinite(span) or span == 0:
        raise InvalidParameterError(f"an axis from {low} to {high} has no span to place labels in")
    return 10.0 ** (math.floor(math.log10(span)) - (digits - 1))


def _rounded(values, step: float) -> np.ndarray:
    return np.round(np.asarray(values, dtype=np.float64) / step) * step


def freeze_limits(ax, digits: int = LABEL_DIGITS) -> tuple[float, float]:
    """Set ``ax``'s current x and y limits, rounded to ``digits`` significant digits of their span.

    The rounding (:func:`label_grid`) keeps the data-to-pixel transform from moving with the last digits of the
    data. On a log-scaled axis the span, the step and the rounding are those of the base-10 logarithms (the
    axis' own coordinates).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes.
    digits : int, default LABEL_DIGITS
        The significant digits of each axis' span.

    Returns
    -------
    tuple of (float, float)
        The two rounding steps (x, y).

    Raises
    ------
    InvalidParameterError
        When an axis has no span.
    """
    steps = []
    for get, set_, scale in ((ax.get_xlim, ax.set_xlim, ax.get_xscale()), (ax.get_ylim, ax.set_ylim, ax.get_yscale())):
        lo, hi = get()
        log = scale == "log"
        if log:
            lo, hi = math.log10(lo), math.log10(hi)
        step = label_grid(lo, hi, digits)
        limits = _rounded([lo, hi], step)
        set_(*(float(10.0 ** v if log else v) for v in limits))
        steps.append(step)
    return steps[0], steps[1]


def _rounded_on(ax, axis: str, values, step: float) -> np.ndarray:
    """``values`` rounded to ``step`` in the coordinates of ``ax``'s ``axis`` ("x" or "y"): the base-10
    logarithm on a log scale, the values themselves otherwise."""
    if (ax.get_xscale() if axis == "x" else ax.get_yscale()) == "log":
        return 10.0 ** _rounded(np.log10(np.asarray(values, dtype=np.float64)), step)
    return _rounded(values, step)


def place_labels(ax, x, y, labels: Sequence[str], *, colors=None, fontsize: float = 7,
                 iterations: int = LABEL_ITERATIONS, digits: int = LABEL_DIGITS) -> list:
    """Label the points (``x``, ``y``) of ``ax`` with ``labels`` so that no two labels overlap and none covers
    a point: adjustText's force-directed placement (Flor, https://github.com/Phlya/adjustText), with a thin grey
    line from a label to its point where the label had to move away from it. Returns the text artists.

    Call it last, once the figure's layout is final (after ``fig.tight_layout()``): it works in pixels. Call
    :func:`freeze_limits` before the layout, so that the layout itself does not move with the data's last digits.
    Reproducible across CPUs: the axis limits are frozen (:func:`freeze_limits`), the coordinates handed to
    the placer are rounded to ``digits`` significant digits of each axis' span, and it runs exactly
    ``iterations`` steps with no time limit, so coordinates that differ by 1e-7 give the same placement.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes holding the points.
    x, y : array_like of float
        The points' coordinates (finite).
    labels : sequence of str
        One label per point.
    colors : str or sequence, optional
        One colour for all labels, or one per label (default black).
    fontsize : float, default 7
        The labels' font size.
    iterations : int, default 400
        The placer's steps (at least 1).
    digits : int, default LABEL_DIGITS
        The significant digits of each axis' span the coordinates are rounded to.

    Returns
    -------
    list of matplotlib.text.Text
        The text artists.

    Raises
    ------
    InvalidParameterError
        When the labels (or colours) do not match the points one to one, a point is not finite, or
        ``iterations`` is below 1.
    """
    from adjustText import adjust_text

    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    labels = [str(w) for w in labels]
    if not (len(x) == len(y) == len(labels)):
        raise InvalidParameterError(f"place_labels needs as many labels as points: {len(labels)} labels, "
                                    f"{len(x)} x and {len(y)} y values")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        bad = [w for w, a, b in zip(labels, x, y) if not (math.isfinite(a) and math.isfinite(b))]
        raise InvalidParameterError(f"place_labels: the points of {bad[:5]} are not finite numbers")
    if iterations < 1:
        raise InvalidParameterError(f"iterations must be at least 1, not {iterations}")
    if colors is None or isinstance(colors, str):
        colors = [colors or "black"] * len(labels)
    if len(colors) != len(labels):
        raise InvalidParameterError(f"place_labels: {len(colors)} colours for {len(labels)} labels")
    if not labels:
        return []
    step_x, step_y = freeze_limits(ax, digits)
    xr, yr = _rounded_on(ax, "x", x, step_x), _rounded_on(ax, "y", y, step_y)
    texts = [ax.text(a, b, plain_text(w), fontsize=fontsize, color=c) for a, b, w, c in zip(xr, yr, labels, colors)]
    with _vectorised_crossings():
        adjust_text(texts, x=xr, y=yr, ax=ax, iter_lim=iterations, time_lim=None, expand=(1.15, 1.45),
                    min_arrow_len=8, arrowprops=dict(arrowstyle="-", color="#888888", lw=0.5, shrinkA=1, shrinkB=2))
    return texts


def remove_crossings(coords: np.ndarray, target_coords: np.ndarray, step: int) -> np.ndarray:
    """adjustText's ``remove_crossings`` (1.x), vectorised: the same swaps, in the same order, bit for bit.

    Each label (box ``coords[i]`` = x0, x1, y0, y1 in pixels) is joined to its point ``target_coords[i]`` by a segment
    from the box's centre; for every pair i > j (i ascending, then j ascending) whose segments, as they were at the
    start of the step, cross, the two labels swap places. adjustText tests the n(n − 1)/2 pairs one by one in
    Python (490,000 calls for 50 labels over 400 steps: 40% of a WEFAT figure's time); here the same float64
    expressions (the same operations in the same order, so the same roundings) decide every pair at once, and
    the swaps are then applied in adjustText's order.

    Parameters
    ----------
    coords : numpy.ndarray of shape (n, 4)
        The labels' boxes; swapped in place.
    target_coords : numpy.ndarray of shape (n, 2)
        The points.
    step : int
        The placer's step (adjustText's signature; unused).

    Returns
    -------
    numpy.ndarray
        ``coords``.

    Examples
    --------
    >>> boxes = np.array([[0.0, 2, 0, 2], [10, 12, 0, 2]])          # centres (1, 1) and (11, 1)
    >>> remove_crossings(boxes, np.array([[11.0, 5], [1, 5]]), 0)[:, 0].tolist()   # crossing lines: swapped
    [10.0, 0.0]
    """
    x1 = np.mean(coords[:, :2], axis=1)
    y1 = np.mean(coords[:, 2:], axis=1)
    x2, y2 = target_coords[:, 0], target_coords[:, 1]
    i, j = np.tril_indices(len(coords), -1)       # i > j, i ascending then j ascending: adjustText's order
    a1, b1, a2, b2 = x1[i], y1[i], x2[i], y2[i]       # seg1 = connection i
    a3, b3, a4, b4 = x1[j], y1[j], x2[j], y2[j]       # seg2 = connection j
    denom = (b4 - b3) * (a2 - a1) - (a4 - a3) * (b2 - b1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ua = ((a4 - a3) * (b1 - b3) - (b4 - b3) * (a1 - a3)) / denom
        ub = ((a2 - a1) * (b1 - b3) - (b2 - b1) * (a1 - a3)) / denom
    cross = (denom != 0) & ~(ua < 0) & ~(ua > 1) & ~(ub < 0) & ~(ub > 1)
    for p, q in zip(i[cross].tolist(), j[cross].tolist()):
        coords[p], coords[q] = coords[q].copy(), coords[p].copy()
    return coords


@contextmanager
def _vectorised_crossings():
    """Within the block, adjustText calls :func:`remove_crossings` for its own (same result, vectorised)."""
    import adjustText

    original, adjustText.remove_crossings = adjustText.remove_crossings, remove_crossings
    try:
        yield
    finally:
        adjustText.remove_crossings = original


def overlapping_labels(texts: Sequence, pad: float = 0.0) -> list[tuple[str, str]]:
    """Return the pairs of ``texts`` whose boxes on the drawn figure overlap.

    It is empty after :func:`place_labels` succeeded.

    Parameters
    ----------
    texts : sequence of matplotlib.text.Text
        Text artists of one figure.
    pad : float, default 0.0
        Boxes overlapping by no more than this many pixels do not count.

    Returns
    -------
    list of tuple of (str, str)
        The texts of each overlapping pair.
    """
    if not texts:
        return []
    fig = texts[0].figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in texts]
    out = []
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            a, b = boxes[i], boxes[j]
            if (min(a.x1, b.x1) - max(a.x0, b.x0) > pad) and (min(a.y1, b.y1) - max(a.y0, b.y0) > pad):
                out.append((texts[i].get_text(), texts[j].get_text()))
    return out


def legend_outside(ax, **kwargs):
    """Draw a legend to the right of ``ax``, outside it (never over data).

    ``loc="upper left"`` anchored at (1.02, 1) in axes coordinates.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes.
    **kwargs
        Further arguments of ``ax.legend`` (they override the placement).

    Returns
    -------
    matplotlib.legend.Legend
        The legend.
    """
    kwargs = {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "borderaxespad": 0.0, "frameon": False,
              **kwargs}
    return ax.legend(**kwargs)


def points_under_legend(ax) -> int:
    """Count ``ax``'s scattered points that lie inside the box of its legend on the drawn figure.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes.

    Returns
    -------
    int
        The count (0 when the legend is off the data, as :func:`legend_outside` puts it).
    """
    legend = ax.get_legend()
    if legend is None:
        return 0
    ax.figure.canvas.draw()
    box = legend.get_window_extent(ax.figure.canvas.get_renderer())
    n = 0
    for coll in ax.collections:
        offsets = coll.get_offsets()
        if len(offsets) == 0:
            continue
        pix = coll.get_offset_transform().transform(np.asarray(offsets, dtype=float))
        n += int(np.sum((pix[:, 0] >= box.x0) & (pix[:, 0] <= box.x1) & (pix[:, 1] >= box.y0) & (pix[:, 1] <= box.y1)))
    return n


def plain_text(text) -> str:
    r"""Return ``text`` as matplotlib draws it verbatim: every ``$`` escaped (``\$``).

    A label, a test's name, a word or a file name is free text; matplotlib would read the part between two ``$``
    as mathtext (``$\alpha$`` drawn as a Greek letter, ``$x_$`` failing the whole figure with a parse error).
    An escaped ``$`` is drawn as a ``$`` (matplotlib's rule, and LaTeX's with ``text.usetex``), so the text is
    shown as it was given. Every text of wordbias's figures that comes from the user or the data passes here.

    Parameters
    ----------
    text : object
        The text (converted with ``str``).

    Returns
    -------
    str
        The text to hand to matplotlib.

    Examples
    --------
    >>> plain_text("$\\alpha$ costs $5")
    '\\$\\alpha\\$ costs \\$5'
    >>> import io
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> _ = fig.suptitle(plain_text("$x_$"))
    >>> fig.savefig(io.BytesIO(), format="png")      # no mathtext error: the dollars are drawn as dollars
    """
    return str(text).replace("$", "\\$")


def legend_label(text) -> str:
    r"""Return ``text`` as a legend entry shows it verbatim: :func:`plain_text`, and a leading ``_`` kept (matplotlib
    leaves out of the legend every label that begins with ``_``; a zero-width space before it keeps it in).

    Parameters
    ----------
    text : object
        The label.

    Returns
    -------
    str
        The label to hand to matplotlib.

    Examples
    --------
    >>> legend_label("_mine"), legend_label("$5 model")
    ('\u200b_mine', '\\$5 model')
    """
    text = plain_text(text)
    return "\u200b" + text if text.startswith("_") else text


def wrap_label(label: str, width: int = WRAP_WIDTH) -> str:
    """Wrap ``label`` at ``width`` characters per line, never cutting it.

    Existing line breaks are kept; joining the lines with spaces gives the label back.

    Parameters
    ----------
    label : str
        The text.
    width : int, default 38
        The characters per line.

    Returns
    -------
    str
        The wrapped text.

    Examples
    --------
    >>> print(wrap_label("Flowers vs insects with pleasant vs unpleasant attributes", 30))
    Flowers vs insects with
    pleasant vs unpleasant
    attributes
    """
    return "\n".join(textwrap.fill(part, width=width, break_long_words=False, break_on_hyphens=False) or part
                     for part in str(label).split("\n"))


# --------------------------------------------------------------------------------------------------
# the papers' figures
# --------------------------------------------------------------------------------------------------

def wefat_scatter(table: pd.DataFrame, *, x: str = "property", y: str = "s", label: str = "word",
                  xlabel: str, ylabel: str, title: str, r: float, p: float, annotate: bool = True,
                  dropped: pd.DataFrame | None = None):
    """Draw Caliskan et al.'s (2017) Figures 1-2: each target word's WEFAT score against its real-world property.

    The least-squares line is seaborn's ``regplot`` (no band), with Pearson's ρ. ``dropped`` rows (e.g. names
    removed by the name-likeness filter) are drawn as hollow grey markers, not used in the fit. Labels do not
    overlap (:func:`place_labels`); the legend, if any, sits outside the axes.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per target word used.
    x : str, default "property"
        The column of the property.
    y : str, default "s"
        The column of the WEFAT score.
    label : str, default "word"
        The column of the words.
    xlabel, ylabel : str
        The axis labels.
    title : str
        The title.
    r : float
        Pearson's correlation, shown on the figure.
    p : float
        Its p-value, shown on the figure.
    annotate : bool, default True
        Whether to label the points with their words.
    dropped : pandas.DataFrame, optional
        The rows left out of the fit, with the same columns.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    # here, not at the top: seaborn imports ipywidgets and IPython (0.25 s of every command's start)
    import seaborn as sns

    fig, ax = plt.subplots(figsize=(7.5, 6))
    sns.regplot(data=table, x=x, y=y, ci=None, ax=ax, truncate=True,
                scatter_kws={"s": 18, "color": "#1f77b4", "zorder": 3},
                line_kws={"color": "#d62728", "lw": 1, "zorder": 2})
    frames = [table]
    if dropped is not None and len(dropped):
        ax.scatter(dropped[x], dropped[y], s=18, facecolors="none", edgecolors="grey", zorder=3,
                   label="removed by name-likeness filter")
        legend_outside(ax)
        frames.append(dropped)
    ax.axhline(0, color="black", lw=0.5)
    ax.set_xlabel(plain_text(xlabel))
    ax.set_ylabel(plain_text(ylabel))
    ax.set_title(f"{plain_text(title)}\nPearson's ρ = {r:.2f}, p = {p:.1e}, n = {len(table)}")
    if annotate:
        freeze_limits(ax)        # before the layout, so that it does not move with the data's last digits
    fig.tight_layout()
    if annotate:
        both = pd.concat([f[[x, y, label]] for f in frames], ignore_index=True)
        place_labels(ax, both[x], both[y], both[label], fontsize=6.5)
    return fig


def pca_pairs(words_a: Sequence[str], words_b: Sequence[str], vectors_a, vectors_b, *, title: str):
    """Draw Caliskan et al.'s (2017) Figure 3: the first two principal components of gendered word pairs.

    The pairs are words that differ only by gender, with a line joining each pair. PCA is fitted on the pair
    vectors themselves. Labels do not overlap (:func:`place_labels`); the legend sits outside the axes.

    Parameters
    ----------
    words_a, words_b : sequence of str
        The pairs' first and second words.
    vectors_a, vectors_b : array_like
        Their vectors, one row per word.
    title : str
        The title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    V = np.vstack([vectors_a, vectors_b]).astype(np.float64)
    centred = V - V.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    comps = vt[:2]
    # fix the sign of each component so the picture does not flip between LAPACK builds
    comps *= np.sign(comps[np.arange(2), np.abs(comps).argmax(axis=1)])[:, None]
    xy = centred @ comps.T
    n = len(words_a)
    fig, ax = plt.subplots(figsize=(7, 5))
    for i in range(n):
        ax.plot([xy[i, 0], xy[n + i, 0]], [xy[i, 1], xy[n + i, 1]], color="grey", lw=0.8, zorder=1)
    ax.scatter(xy[:n, 0], xy[:n, 1], color="#1f77b4", zorder=2, label="male")
    ax.scatter(xy[n:, 0], xy[n:, 1], color="#d62728", zorder=2, label="female")
    ax.set_xlabel("principal component 1")
    ax.set_ylabel("principal component 2")
    ax.set_title(plain_text(title))
    legend_outside(ax)
    ax.margins(0.08)
    freeze_limits(ax)            # before the layout, so that it does not move with the data's last digits
    fig.tight_layout()
    place_labels(ax, xy[:, 0], xy[:, 1], list(words_a) + list(words_b), fontsize=8)
    return fig


def effect_size_comparison(table: pd.DataFrame, *, title: str, ours: str = "effect_size",
                           paper: str = "paper_effect_size", label: str = "test", low: str | None = None,
                           high: str | None = None, wrap: int = WRAP_WIDTH):
    """Draw the paper's effect sizes against ours, one row per test.

    Each row is labelled with the test's full name wrapped at ``wrap`` characters (:func:`wrap_label`, never
    cut). In each row the paper's d (open black circle) sits just above ours (filled red dot), so both show even
    when they agree; our interval [``low``, ``high``] is drawn as a bar through our dot when those columns are
    named, else a grey line joins the two values. The legend sits outside the axes.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per test.
    title : str
        The title.
    ours : str, default "effect_size"
        The column of our effect sizes.
    paper : str, default "paper_effect_size"
        The column of the paper's.
    label : str, default "test"
        The column of the tests' names.
    low, high : str, optional
        The columns of our interval's ends.
    wrap : int, default 38
        The characters per line of the labels.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    names = [wrap_label(v, wrap) for v in table[label]]
    lines = np.array([n.count("\n") + 1 for n in names])
    spacing = np.maximum(1.0, 0.42 * lines + 0.35)          # taller rows for names of several lines
    centres = np.cumsum(spacing) - spacing / 2
    y = centres[-1] - centres if len(centres) else centres  # first row at the top
    off = 0.17                                               # the paper's row above, ours below
    fig, ax = plt.subplots(figsize=(7.5, 0.34 * float(spacing.sum()) + 1.3))
    values = [table[paper], table[ours]]
    if low is not None and high is not None:
        ax.hlines(y - off, table[low], table[high], color="#d62728", lw=1.6, alpha=0.45, zorder=2,
                  label="ours, 95% interval")
        values += [table[low], table[high]]
    else:
        for yi, a, b in zip(y, table[paper], table[ours]):
            ax.plot([a, b], [yi + off, yi - off], color="grey", lw=0.6, zorder=2)
    ax.scatter(table[ours], y - off, color="#d62728", label="ours", zorder=3, s=16)
    ax.scatter(table[paper], y + off, facecolors="none", edgecolors="black", label="paper", zorder=4, s=36, lw=1.1)
    ax.axvline(0, color="black", lw=0.5)
    ax.set_yticks(y, [plain_text(n) for n in names])
    ax.set_ylim(-float(spacing[-1]) / 2 - 0.1 if len(y) else -1, float(y[0] + spacing[0] / 2 + 0.1) if len(y) else 1)
    ax.tick_params(axis="y", labelsize=8)
    ax.set_xlabel("effect size d")
    finite = pd.concat(values).astype(float)
    ax.set_xlim(min(-0.2, float(np.nanmin(finite)) - 0.1), max(2.05, float(np.nanmax(finite)) + 0.1))
    ax.grid(axis="x", color="#e5e5e5", lw=0.5, zorder=0)
    ax.set_title(plain_text(title))
    legend_outside(ax)
    fig.tight_layout()
    return fig


def zipf_names(rank, log_prob, kept, labels=None, *, title: str, annotate: int = 12):
    """Draw Swinger et al.'s (2019) Figure 1: each name's log-probability against its vocabulary index.

    The y axis is each name's log-probability in the name data, the x axis its index in the embedding's
    frequency-ordered vocabulary, names kept by the cleaning vs removed. Names removed tend to sit far above the
    Zipf line: they are frequent words with other uses. The ``annotate`` removed names with the smallest
    embedding index are labelled.

    Parameters
    ----------
    rank : array_like of int
        Each name's index in the embedding's vocabulary.
    log_prob : array_like of float
        Each name's log-probability in the name data.
    kept : array_like of bool
        Whether the cleaning kept each name.
    labels : sequence of str, optional
        The names, for the labels.
    title : str
        The title.
    annotate : int, default 12
        How many removed names to label.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    rank = np.asarray(rank)
    log_prob = np.asarray(log_prob)
    kept = np.asarray(kept, dtype=bool)
    fig, ax = plt.subplots(figsize=(8.2, 4.5))
    ax.scatter(rank[kept], log_prob[kept], s=4, color="#ff7f0e", alpha=0.6, label=f"kept ({kept.sum()})",
               rasterized=True)
    ax.scatter(rank[~kept], log_prob[~kept], s=6, color="#1f77b4", alpha=0.8,
               label=f"removed by cleaning ({(~kept).sum()})", rasterized=True)
    ax.set_xscale("log")
    ax.set_xlabel("index in the embedding's vocabulary (frequency order)")
    ax.set_ylabel("log probability in the name data")
    ax.set_title(plain_text(title))
    legend_outside(ax, markerscale=3)
    freeze_limits(ax)
    fig.tight_layout()
    if labels is not None and annotate:  # last: place_labels works in pixels of the final layout
        removed = np.flatnonzero(~kept)
        first = removed[np.argsort(rank[removed], kind="stable")][:annotate]
        place_labels(ax, rank[first], log_prob[first], [str(labels[k]) for k in first], colors="#d62728")
    return fig


def word_scores_swarm(scores: pd.DataFrame, *, title: str, score: str = "s(w,A,B)", group: str = "set",
                      xlabel: str | None = None):
    """Draw each target word's association s(w, A, B) as one dot, a row per target set.

    The dots are seaborn's ``swarmplot`` (pushed apart, never drawn over each other, no random jitter), with each
    set's mean as a black bar: the WEAT's effect size is the distance between the two bars in units of the
    pooled standard deviation.

    Parameters
    ----------
    scores : pandas.DataFrame
        :func:`wordbias.papers.caliskan2017.word_scores`, or any frame with ``score`` and ``group`` columns.
    title : str
        The title.
    score : str, default "s(w,A,B)"
        The column of the scores.
    group : str, default "set"
        The column of the target sets.
    xlabel : str, optional
        The x axis label (default: the score's name and how to read it).

    Returns
    -------
    matplotlib.figure.Figure
        The figure of the swarm plot.

    Raises
    ------
    InvalidParameterError
        When ``scores`` lacks the ``score`` or ``group`` column.
    """
    missing = [c for c in (score, group) if c not in scores.columns]
    if missing:
        raise InvalidParameterError(f"word_scores_swarm needs the columns {missing}; the frame has "
                                    f"{list(scores.columns)}")
    import seaborn as sns

    order = list(dict.fromkeys(scores[group]))
    fig, ax = plt.subplots(figsize=(7, 1.1 + 0.8 * len(order)))
    sns.swarmplot(data=scores, x=score, y=group, hue=group, order=order, hue_order=order, legend=False, size=5,
                  ax=ax, palette=["#1f77b4", "#d62728", "#2ca02c", "#9467bd"][:len(order)])
    means = scores.groupby(group, sort=False)[score].mean()
    for i, name in enumerate(order):
        ax.plot([means[name]] * 2, [i - 0.35, i + 0.35], color="black", lw=2, zorder=5)
    ax.axvline(0, color="grey", lw=0.6, ls=":")
    ax.set_yticks(range(len(order)), [plain_text(g) for g in order])      # the sets' names, as given
    ax.set_xlabel(plain_text(xlabel or f"{score}: closer to A (right) or to B (left); black bar: the set's mean"))
    ax.set_ylabel("")
    ax.set_title(plain_text(title))
    fig.tight_layout()
    return fig
