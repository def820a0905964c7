"""The one-page summary of a tidy results table (``wordbias report`` / ``compare``): a forest plot of
the effect sizes with their intervals (:func:`forest_plot`) and a self-contained HTML page (:func:`write_html`:
the figures inline as PNG, no network reference) with the parameters, the table and the words dropped.
"""

from __future__ import annotations

import base64
import html
import io
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core import tables as _tables
from wordbias.core import tidy as _tidy
from wordbias.core.atomic import atomic_file
from wordbias.core.errors import InvalidParameterError
from wordbias.core.io_errors import reraise_disk_full
from wordbias.core.paths import check_output_file

__all__ = ["ALPHA", "forest_plot", "format_p", "figure_png", "write_html"]

#: the level at which the forest plot fills a marker (Holm-adjusted p below it)
ALPHA = 0.05

#: what each kind of effect size is, for the panels' axis labels
_EFFECT_LABELS = {"d": "WEAT effect size d", "r": "WEFAT Pearson r", "cos": "direction test cos(r, s)",
                  "direct_bias": "DirectBias_1", "ripa": "RIPA (mean beta over pairs)"}


def format_p(p) -> str:
    """Format a p-value as text.

    Parameters
    ----------
    p : float or None
        The p-value (None or NaN for none).

    Returns
    -------
    str
        ``"NA"``, ``"0"`` (a Monte Carlo count of zero, as the racial report computes it), else two
        significant digits, scientific below 0.001.

    Examples
    --------
    >>> [format_p(p) for p in (float("nan"), 0.0, 0.0123, 0.5, 1.45e-09)]
    ['NA', '0', '0.012', '0.5', '1.4e-09']
    """
    if p is None or pd.isna(p):
        return "NA"
    if p == 0:
        return "0"
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


def forest_plot(frame: pd.DataFrame, *, title: str | None = None):
    """Draw the forest plot of a tidy table.

    One row per test with an effect size, the estimate as a dot and its interval as a line, one panel per kind
    of effect size (d, r, cos, DirectBias, RIPA have different scales), a dashed line at 0. A filled dot:
    Holm-adjusted p < :data:`ALPHA`; hollow: not, or no test. With several embeddings each test has one line
    per embedding, in colours named in the legend. Tests without an effect size (not run, or UBE) are listed
    under the figure.

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table (:mod:`wordbias.core.tidy`).
    title : str, optional
        The figure's title (default: what the plot shows, and a mark for rows of low coverage).

    Returns
    -------
    matplotlib.figure.Figure
        The figure, one panel per kind of effect size.

    Raises
    ------
    InvalidParameterError
        When ``frame`` is not a tidy table (:func:`wordbias.core.tidy.check_tidy`) or is empty.

    Examples
    --------
    >>> t = _tidy.tidy_frame([{"embedding": "e", "test": f"WEAT{i}", "measure": "weat", "effect_size_name": "d",
    ...                        "effect_size": 0.5 * i, "ci_low": 0.5 * i - 0.3, "ci_high": 0.5 * i + 0.3}
    ...                       for i in (1, 2)] + [{"embedding": "e", "test": "WEFAT1", "measure": "wefat",
    ...                        "effect_size_name": "r", "effect_size": 0.4, "ci_low": 0.2, "ci_high": 0.6}])
    >>> fig = forest_plot(t)
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['WEAT effect size d', 'WEFAT Pearson r']
    """
    from matplotlib.figure import Figure
    from matplotlib.transforms import blended_transform_factory

    from wordbias.core.figures import legend_label, plain_text

    _tidy.check_tidy(frame)
    if frame.empty:
        raise InvalidParameterError("the table is empty: nothing to draw")
    shown = frame[frame.effect_size.notna()]
    shown = shown.assign(test=_row_keys(shown))
    missing = frame[frame.effect_size.isna()]
    embs = list(dict.fromkeys(frame.embedding.fillna("")))
    kinds = list(dict.fromkeys(shown.effect_size_name.fillna("effect size")))
    tests = {k: list(dict.fromkeys(shown[shown.effect_size_name.fillna("effect size") == k].test)) for k in kinds}
    foot = [f"{r.embedding} / {r.test}: " + (r.note if pd.notna(r.note) else "no effect size")
            for r in missing.itertuples()]
    foot = foot[:10] + ([f"... and {len(foot) - 10} more"] if len(foot) > 10 else [])
    foot = [line for f in foot for line in textwrap.wrap(f, 165, subsequent_indent="    ")]
    per_test = 0.28 + 0.16 * (len(embs) - 1)
    heights = [max(1.0, per_test * len(tests[k]) + 0.7) for k in kinds]  # none when no test has an effect size:
    height = sum(heights) + 0.8 + 0.15 * len(foot)                         # then only the reasons, no empty axes
    fig = Figure(figsize=(8.0, height), layout="constrained")
    axes = fig.subplots(len(kinds) + (1 if foot else 0), 1,
                        height_ratios=heights + ([0.15 * len(foot) + 0.1] if foot else []), squeeze=False)[:, 0]
    colours = [f"C{i % 10}" for i in range(len(embs))]
    for ax, kind in zip(axes, kinds):
        sub = shown[shown.effect_size_name.fillna("effect size") == kind]
        names = tests[kind]
        for e, (emb, colour) in enumerate(zip(embs, colours)):
            rows = sub[sub.embedding.fillna("") == emb]
            offset = (e - (len(embs) - 1) / 2) * 0.8 / max(len(embs), 1) if len(embs) > 1 else 0.0
            y = np.array([names.index(t) for t in rows.test]) + offset
            est = rows.effect_size.to_numpy()
            lo = np.where(rows.ci_low.notna(), rows.ci_low, est)
            hi = np.where(rows.ci_high.notna(), rows.ci_high, est)
            ax.hlines(y, lo, hi, color=colour, lw=1.6, label=legend_label(emb) if len(embs) > 1 else None)
            sig = (rows.p_holm < ALPHA).to_numpy()
            ax.scatter(est[sig], y[sig], color=colour, s=28, zorder=3)
            ax.scatter(est[~sig], y[~sig], facecolor="white", edgecolor=colour, s=28, zorder=3)
        for ref in _no_bias(sub.measure):       # each measure's own "no bias" (the catalogue), e.g. 0.5 for a share
            ax.axvline(ref, ls="--", color="0.5", lw=0.8)
        ax.set_yticks(range(len(names)))
        titles = dict(zip(sub.test, sub.title.fillna("")))
        low = set(sub.test[sub.low_coverage.fillna(False).to_numpy(dtype=bool)])
        ax.set_yticklabels([plain_text(textwrap.shorten(f"{t}{' (!)' if t in low else ''}  {titles.get(t, '')}", 58,
                                                        placeholder="...")) for t in names], fontsize=7.5)
        ax.set_ylim(len(names) - 0.5, -0.5)
        ax.set_xlabel(plain_text(_EFFECT_LABELS.get(kind, kind)), fontsize=8.5)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", color="0.9")
    if len(embs) > 1 and kinds:  # beside the panel, never over an interval
        axes[0].legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                       title="embedding", title_fontsize=7.5, frameon=False)
    if foot:
        axes[-1].axis("off")
        axes[-1].text(0.01, 1, plain_text("No effect size:\n" + "\n".join(foot)), fontsize=6.5, va="top", color="0.25",
                      transform=blended_transform_factory(fig.transFigure, axes[-1].transAxes))
    flagged = " (!): low coverage, see the table" if shown.low_coverage.fillna(False).any() else ""
    fig.suptitle(plain_text(title or f"Effect sizes with 95% intervals (filled: Holm-adjusted p < 0.05){flagged}"),
                 fontsize=10)
    return fig


#: what a language-model benchmark's intervals resample or count (CrowS-Pairs, StereoSet, BEC-Pro)
_LM_UNITS = ("pairs", "comparisons", "examples", "professions")


def _interval_kind(methods: pd.Series) -> str:
    """The page's words for its intervals: over the words (the static measures), or, for the language-model
    benchmarks, exact binomial intervals over what they count and bootstraps over what they resample."""
    import re

    exact = list(dict.fromkeys(m.rsplit(" ", 1)[-1] for m in methods if m.startswith("Clopper-Pearson")))
    boot = list(dict.fromkeys(x.group(1) for m in methods if (x := re.search(r"resamples of (\w+)$", m))))
    if not len(methods) or not set(exact + boot) <= set(_LM_UNITS) or len(exact) + len(boot) == 0 \
            or any(not m.startswith("Clopper-Pearson") and not re.search(r"resamples of \w+$", m) for m in methods):
        return "a bootstrap interval over the words"
    parts = ([f"an exact binomial (Clopper-Pearson) interval over the {' and '.join(exact)}"] if exact else []) + \
        ([f"a bootstrap interval over the {' and '.join(boot)}"] if boot else [])
    return ", or ".join(parts)


def _row_keys(shown: pd.DataFrame) -> pd.Series:
    """Each row's line in the forest plot: its test, or, where one embedding has a test of that name and kind of
    effect size in several batteries (StereoSet's two tasks, BEC-Pro's two languages), its battery and test."""
    if "battery" not in shown or not shown.duplicated(["embedding", "effect_size_name", "test"]).any():
        return shown.test
    return shown.battery.fillna("").str.cat(shown.test.astype(str), sep=" ").str.strip()


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _no_bias(measures) -> list[float]:
    """The values of "no bias" of the measures in a panel (:data:`wordbias.catalogue.CATALOGUE`); 0 for a measure the
    catalogue does not hold; none for a level with no null value (MAC)."""
    from wordbias import catalogue

    refs = {catalogue.spec(m).no_bias if m in catalogue.CATALOGUE else 0.0 for m in measures.dropna().unique()}
    return sorted(r for r in refs if r is not None)


def figure_png(fig, dpi: int = 110) -> bytes:
    """Return the PNG bytes of a matplotlib figure.

    The PNG carries no timestamp or software metadata, so the same figure gives the same bytes.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    dpi : int, default 110
        The resolution, in dots per inch.

    Returns
    -------
    bytes
        The PNG file's bytes.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(1, 1))
    >>> png = figure_png(fig, dpi=20)
    >>> png[:8], png == figure_png(fig, dpi=20)
    (b'\\x89PNG\\r\\n\\x1a\\n', True)
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em auto; max-width: 1200px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.8em; }
th, td { border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; }
th { background: #f3f3f3; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.notrun td { color: #888; }
tr.lowcov td { background: #fff3e0; }
.lowcov-mark { color: #b34700; font-weight: 700; }
td.note { min-width: 12em; max-width: 20em; font-size: 0.92em; color: #555; white-space: normal; }
ol.notes { font-size: 0.85em; color: #333; } ol.notes li { margin: 0.2em 0; }
p.legend { font-size: 0.85em; color: #444; margin: 0.4em 0; }
dl.params { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 0.9em; }
dl.params dt { font-weight: 600; } dl.params dd { margin: 0; }
img { max-width: 100%; height: auto; }
.small { font-size: 0.85em; color: #555; }
"""


def _e(x) -> str:
    return "" if x is None or (not isinstance(x, str) and pd.isna(x)) else html.escape(str(x))


def _sizes(r) -> str:
    parts = [f"{k}={int(v)}" for k, v in (("X", r.n_x), ("Y", r.n_y), ("A", r.n_a), ("B", r.n_b)) if pd.notna(v)]
    return " ".join(parts)


def _effect(r) -> str:
    if pd.isna(r.effect_size):
        return ""
    interval = "" if pd.isna(r.ci_low) else " " + _tables.interval_bounds_text(   # digits its MC error supports
        r.ci_low, r.ci_high, level=r.ci_level if pd.notna(r.ci_level) else 0.95, n_resamples=r.n_resamples)
    return f"{r.effect_size_name if pd.notna(r.effect_size_name) else ''} = {r.effect_size:.3f}{interval}"


def _low(r) -> bool:
    """Whether a row is flagged low coverage and ran (a test not run says so itself)."""
    low = getattr(r, "low_coverage", None)
    note = r.note if isinstance(r.note, str) else ""
    return low is not None and not pd.isna(low) and bool(low) and not note.startswith(_tidy.NOT_RUN)


def _thresholds(frame: pd.DataFrame) -> tuple:
    params = frame.attrs.get("parameters") or {}
    params = next((v for v in params.values() if isinstance(v, dict)), params)   # compare: per embedding
    return params.get("min_words", _tidy.MIN_WORDS), params.get("min_fraction", _tidy.MIN_FRACTION)


def _legend_html(frame: pd.DataFrame) -> str:
    """The legend under the results: what "words used" and the sign of d mean, and the low-coverage mark."""
    lines = ["<b>words used</b>: the words each set kept, X/Y/A/B (WEFAT W/A/B; direction tests T1/T2/A1/A2; "
             "direct bias and RIPA the professions and the pairs); <i>in vocabulary</i>: the words the embedding has "
             "of those each list asks (kept/asked)."]
    if (frame["effect_size_name"] == "d").fillna(False).any():
        lines.append("<b>d &gt; 0</b>: X is closer to A (relative to B) than Y is.")
    if any(_low(r) for r in frame.itertuples()):
        words, fraction = _thresholds(frame)
        lines.append(f"<span class='lowcov-mark'>! low coverage</span> (highlighted rows): a set kept fewer than "
                     f"{words} of its words or less than {fraction:.0%} of its list, so the test cannot reach "
                     "significance or measures what the surviving words share rather than the concept the list "
                     "names; the note says which set.")
    return "".join(f"<p class='legend'>{x}</p>" for x in lines)


def _table_html(frame: pd.DataFrame, anchor: str = "note") -> str:
    """The results table, one row per test, a few columns wide at 1280 px: the notes (which can be long) are
    numbered under the table, each row pointing to its own (:func:`_notes_html`, ids ``anchor-1``, ...); every
    column is in the CSV."""
    several = frame.embedding.nunique(dropna=False) > 1
    head = (["embedding"] if several else []) + ["test", "title", "words used", "effect size [95% interval]",
                                                 "p (one-sided)", "p two-sided", "p Holm", "p BH", "note"]
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>", "<tbody>"]
    n_note = 0
    for r in frame.itertuples():
        not_run = isinstance(r.note, str) and r.note.startswith(_tidy.NOT_RUN)
        low = _low(r)
        words = _e(_sizes(r)) + (" <span class='lowcov-mark' title='low coverage'>!</span>" if low else "")
        if isinstance(getattr(r, "coverage", None), str) and r.coverage:
            words += f"<br><span class='small'>in vocabulary: {_e(r.coverage)}</span>"
        p = format_p(r.p_value)
        how = ", ".join(_e(x) for x in (r.p_method, r.alternative) if isinstance(x, str) and x)
        note = ""
        if isinstance(r.note, str) and r.note:
            n_note += 1
            first = r.note.split(";")[0]
            note = f"<a href='#{anchor}-{n_note}'>[{n_note}]</a> {_e(textwrap.shorten(first, 48, placeholder='...'))}"
        cells = ([f"<td>{_e(r.embedding)}</td>"] if several else []) + [
            f"<td>{_e(r.test)}</td>", f"<td>{_e(r.title)}</td>", f"<td>{words}</td>",
            f"<td class='num'>{_e(_effect(r))}</td>",
            f"<td class='num'>{p}" + (f" <span class='small'>({how})</span>" if how and p != "NA" else "") + "</td>",
            f"<td class='num'>{format_p(r.p_two_sided)}</td>",
            f"<td class='num'>{format_p(r.p_holm)}</td>", f"<td class='num'>{format_p(r.p_bh)}</td>",
            f"<td class='note'>{note}</td>"]
        cls = " class=notrun" if not_run else " class=lowcov" if low else ""
        out.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>", _legend_html(frame), _notes_html(frame, anchor)]
    return "\n".join(out)


def _results_html(frame: pd.DataFrame) -> str:
    """The results: the table; for an ensemble (:func:`wordbias.core.tidy.ensemble_run_rows`) the combined rows
    first, each test over the words and the training runs, then the single runs' rows in a collapsed section."""
    runs = _tidy.ensemble_run_rows(frame)
    if not runs.any():
        return _table_html(frame)
    combined, single = frame[~runs], frame[runs]
    return (f"<p class='small'>Each test combined over the ensemble's training runs; the {len(single)} rows of the "
            "single runs are below.</p>\n" + _table_html(combined)
            + f"\n<details><summary>The single runs ({len(single)} rows)</summary>\n"
            + _table_html(single, anchor="run-note") + "\n</details>")


def _notes_html(frame: pd.DataFrame, anchor: str = "note") -> str:
    """The notes of the table's rows in full, numbered as the table points to them."""
    several = frame.embedding.nunique(dropna=False) > 1
    items = [(f"{r.embedding} / {r.test}" if several else str(r.test), r.note) for r in frame.itertuples()
             if isinstance(r.note, str) and r.note]
    if not items:
        return ""
    return ("<h3>Notes</h3><ol class='notes'>" + "".join(
        f"<li id='{anchor}-{i}'><b>{_e(where)}</b>: {_e(note)}</li>" for i, (where, note) in enumerate(items, 1))
        + "</ol>")


def _parameters_html(frame: pd.DataFrame) -> str:
    def values(col):
        v = [str(x) for x in dict.fromkeys(frame[col].dropna())]
        return ", ".join(v) if v else "NA"

    items = [("embedding", values("embedding")), ("wordbias version", values("wordbias_version")),
             ("seed", values("seed")),
             ("permutations", "; ".join(dict.fromkeys(f"{r.test}: {int(r.n_permutations):,}" for r in frame.itertuples()
                                                      if pd.notna(r.n_permutations))) or _no_permutations(frame)),
             ("bootstrap resamples", values("n_resamples")), ("interval level", values("ci_level")),
             ("multiple testing", " | ".join(str(x) for x in dict.fromkeys(frame.p_family.dropna())) or "NA")]
    params = frame.attrs.get("parameters") or {}
    params = params if all(isinstance(v, dict) for v in params.values()) and params else {"": params}
    for label, p in params.items():
        if not p:
            continue
        shown = [f"{k} = {v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{k} = {v}"
                 for k, v in p.items() if k in ("vocabulary", "dimension", "cased")]
        if "ube" in p:
            shown.append("UBE run" if p["ube"] else "UBE left out")
        if "ensemble" in p:     # an ensemble's table: its runs (each run's vocabulary is in its own rows)
            runs = [str(r) for r in p.get("runs") or ()]
            items.append((f"ensemble {label}".strip(), "; ".join(
                [f"{p['ensemble']}: {len(runs)} training runs ({', '.join(runs)})", *shown])))
        elif shown:
            items.append((f"embedding {label}".strip(), ", ".join(shown)))
    for label, t in _timing_groups(frame.attrs.get("timings") or {}):
        parts = {k: v for k, v in t.items() if k != "total"}
        if parts:   # the report's own wall time where it gave one (parts run side by side do not add up)
            total = t.get("total", sum(parts.values()))
            items.append((f"time {label}".strip(), ", ".join(f"{k} {v:.1f} s" for k, v in parts.items())
                          + f" (total {total:.1f} s)"))
    return "<dl class='params'>" + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in items) + "</dl>"


def _timing_groups(timings: dict, label: str = "") -> list[tuple[str, dict]]:
    """The ``(label, {part: seconds})`` groups of a table's ``attrs["timings"]``, however deep: one report's
    parts; ``compare``'s, one group per embedding; an ensemble's, one per run; ``compare`` with an ensemble, one per
    embedding and run (``"brown/seed-1"``).

    >>> _timing_groups({"WEAT": 1.0})
    [('', {'WEAT': 1.0})]
    >>> _timing_groups({"glove": {"WEAT": 1.0}, "brown": {"seed-1": {"WEAT": 2.0}}})
    [('glove', {'WEAT': 1.0}), ('brown/seed-1', {'WEAT': 2.0})]
    """
    if not any(isinstance(v, dict) for v in timings.values()):
        return [(label, timings)]
    out = []
    for k, v in timings.items():
        if isinstance(v, dict):
            out += _timing_groups(v, f"{label}/{k}" if label else str(k))
    return out


def _no_permutations(frame: pd.DataFrame) -> str:
    """What the parameters say when no test drew random permutations: how the p-values were obtained."""
    methods = sorted({m.split(",")[0].strip() for m in frame.p_method.dropna()})
    if not methods:
        return "none (no p-value)"
    return "none: every p " + ("exact" if methods == ["exact"] else "by " + ", ".join(methods))


def _dropped_html(frame: pd.DataFrame) -> str:
    rows = frame[frame.dropped.fillna("") != ""]
    if rows.empty:
        return "<p>No word was dropped.</p>"
    several = frame.embedding.nunique(dropna=False) > 1
    items = "".join(f"<li><b>{_e(f'{r.embedding} / ' if several else '')}{_e(r.test)}</b>: {_e(r.dropped)}</li>"
                    for r in rows.itertuples())
    return ("<p class='small'>Words dropped because the embedding does not have them, or deleted at random to "
            "balance the target sets (\"balanced out\"), per test and word set.</p><ul>" + items + "</ul>")


#: the figures of the page by name (the files' name in ``figure_dir``): what each is, for an error, and its caption
_FIGURES = {"runs": ("the runs figure", "Each test in every training run (a dot, its interval over the words in "
                                        "grey) beside the combined result (a diamond, its interval over the words "
                                        "and the runs in black)"),
            "forest": ("the forest plot", "Effect sizes and 95% intervals, one panel per kind of effect size"),
            "heatmap": ("the heat map", "Test x embedding: each value's distance from no bias on its measure's own "
                                        "scale")}


def _page_figures(frame: pd.DataFrame, title: str) -> list[tuple[str, object]]:
    """The ``(name, figure)`` pairs the page draws: for an ensemble the runs figure first
    (:func:`wordbias.battery.ensemble.runs_figure`: the combined result beside each run), the forest plot, and
    for several embeddings the heat map (:func:`wordbias.battery.compare.heatmap`)."""
    from wordbias.battery.compare import heatmap

    named = []
    if _tidy.ensemble_run_rows(frame).any():
        from wordbias.battery.ensemble import runs_figure

        named.append(("runs", runs_figure(frame, title=title)))
    if len(frame):
        named.append(("forest", forest_plot(frame)))
    if frame.embedding.nunique(dropna=False) > 1:
        named.append(("heatmap", heatmap(frame)))
    return named


def _saved_pngs(named, figure_dir) -> dict:
    """Save each figure of ``named`` in ``figure_dir`` (``name.png``, ``name.pdf``); return the PNG's bytes by the
    figure's id."""
    from wordbias.core import figures as _figures

    pngs = {}
    for name, fig in named:
        fig = getattr(fig, "figure", fig)
        # the forest plot's constrained layout already sizes the figure to what it draws: cropping it
        # ("tight") would draw it twice more for a margin of a few pixels (0.4 s of a report); the heat map
        # and the runs figure are cropped to what is drawn
        with reraise_disk_full(Path(figure_dir) / f"{name}.png", _FIGURES[name][0]):
            png_file, _ = _figures.save(fig, figure_dir, name, tight=name != "forest", beside=True)
        pngs[id(fig)] = png_file.read_bytes()
    return pngs


def _figures_html(figs, pngs: dict) -> str:
    """The page's figures, ``(caption, figure)``, inline: the PNG saved in the figure folder where there is one
    (``pngs``, by the figure's id), else drawn here."""
    def png_of(f) -> bytes:
        f = getattr(f, "figure", f)
        return pngs[id(f)] if id(f) in pngs else figure_png(f)

    return "".join(
        f"<figure><img alt='{_e(cap)}' src='data:image/png;base64,{base64.b64encode(png_of(f)).decode()}'>"
        f"<figcaption class='small'>{_e(cap)}</figcaption></figure>" for cap, f in figs)


def write_html(frame: pd.DataFrame, path, *, title: str, figures=None, figure_dir=None) -> Path:
    """Write a one-page, self-contained HTML summary of a tidy table to ``path`` (atomically).

    ``path`` is checked first (:func:`wordbias.core.paths.check_output_file`: not empty, not a folder, not inside
    the package or the data folder).

    The page holds the title, the parameters (embedding, seed, permutations, resamples, version, the family of
    the adjusted p, and the time each part took when the table carries it in ``attrs``), the forest plot
    (:func:`forest_plot`) and, for several embeddings, the heat map (:func:`wordbias.battery.compare.heatmap`)
    as inline base64 PNG, the table with formatted p-values, and the words dropped. It references nothing
    outside itself (no CDN, no font, no script).

    An ensemble's page (a table with run rows, :func:`wordbias.core.tidy.ensemble_run_rows`) leads with its
    combined result: the runs figure first (:func:`wordbias.battery.ensemble.runs_figure`), and the table of the
    combined rows before the single runs' rows, which sit in a collapsed section.

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table (:mod:`wordbias.core.tidy`).
    path : str or path-like
        The HTML file to write.
    title : str
        The page's title (non-empty).
    figures : mapping of str to matplotlib.figure.Figure, optional
        Further figures to include, by caption.
    figure_dir : str or path-like, optional
        A folder where the forest plot (and the heat map, the runs figure) are also saved, as
        ``forest.png``/``forest.pdf`` (``heatmap.png``/``.pdf``, ``runs.png``/``.pdf``): the same figures as on
        the page, drawn once.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    InvalidParameterError
        When ``frame`` is not a tidy table, ``title`` is empty or not a string, or ``path`` is refused
        (:func:`~wordbias.core.paths.check_output_file`).
    DiskFullError
        When the disk fills while writing; it names the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> t = _tidy.tidy_frame([{"embedding": "e", "test": "WEAT1", "measure": "weat", "effect_size_name": "d",
    ...                        "effect_size": 1.2, "ci_low": 0.8, "ci_high": 1.5, "p_value": 1e-5,
    ...                        "dropped": "X: aster"}])
    >>> page = write_html(t, pathlib.Path(tempfile.mkdtemp()) / "summary.html", title="My embedding").read_text()
    >>> "<title>My embedding</title>" in page, "X: aster" in page, "data:image/png;base64," in page, "http" in page
    (True, True, True, False)
    """
    _tidy.check_tidy(frame)
    if not isinstance(title, str) or not title:
        raise InvalidParameterError(f"title must be a non-empty string, not {title!r}")
    check_output_file(path, what="path")
    named = _page_figures(frame, title)
    try:
        # figure id -> the PNG written to figure_dir: the page shows that file's bytes (drawn once, not twice)
        pngs = _saved_pngs(named, figure_dir) if figure_dir is not None else {}
        figs = [(_FIGURES[name][1], fig) for name, fig in named] + list((figures or {}).items())
        fig_html = _figures_html(figs, pngs)
    finally:
        if named and named[0][0] == "runs":         # drawn on pyplot's figures: let it go
            import matplotlib.pyplot as plt

            plt.close(named[0][1])
    n_run = len(frame) - len(_tidy.not_run(frame))
    n_emb = frame.embedding.nunique(dropna=False)
    params = frame.attrs.get("parameters") or {}
    has_runs = bool(_tidy.ensemble_run_rows(frame).any())     # recorded in attrs: a "/" in a label is only text
    by_label = bool(params) and all(isinstance(v, dict) for v in params.values())     # compare: per embedding
    has_ensemble = has_runs or (any("ensemble" in v for v in params.values()) if by_label else "ensemble" in params)
    what = "embeddings, training runs and ensembles combined" if has_runs else "embeddings"
    n_tests = frame[['battery', 'test']].drop_duplicates().shape[0]
    counts = (f"{_plural(len(frame), 'test')}, {n_run} run. Each row is one test" if n_emb <= 1 else
              f"{len(frame)} rows ({_plural(n_tests, 'test')} on {n_emb} {what}), {n_run} run. Each row is one test "
              f"on one of them")
    runs_note = ", and for an ensemble's combined rows over the words and the training runs" if has_ensemble else ""
    interval_kind = _interval_kind(frame.ci_method.dropna().astype(str))
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>{_e(title)}</h1>
<p class="small">{counts}; the effect size's interval is {interval_kind}{runs_note} (its method is in the CSV's
<code>ci_method</code>); p is the test's own p-value, "p Holm" and "p BH" are adjusted over the family named below.</p>
<h2>Parameters</h2>
{_parameters_html(frame)}
<h2>Figures</h2>
{fig_html}
<h2>Results</h2>
{_results_html(frame)}
<h2>Dropped words</h2>
{_dropped_html(frame)}
</body>
</html>
"""
    path = Path(path)
    with reraise_disk_full(path, "the HTML summary"), atomic_file(path) as tmp:
        Path(tmp).write_text(page, encoding="utf-8")
    return path
