"""The papers' figures, drawn with matplotlib and saved reproducibly (PNG + PDF, no timestamps)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 150, "font.size": 9, "svg.hashsalt": "wordbias"})


def save(fig, folder: Path | str, name: str, *, tight: bool = True) -> list[Path]:
    """Save ``fig`` as ``folder/name.png`` and ``folder/name.pdf`` without creation dates or versions.

    ``tight=False`` keeps the figure's own size instead of cropping to what is drawn: for figures of values
    that may move within their tolerance on another computer, so that a wider tick label cannot change the
    picture's size."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / f"{name}.png"
    pdf = folder / f"{name}.pdf"
    bbox = "tight" if tight else None
    fig.savefig(png, metadata={"Software": None}, bbox_inches=bbox)
    fig.savefig(pdf, metadata={"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
                bbox_inches=bbox)
    return [png, pdf]


def wefat_scatter(table: pd.DataFrame, *, x: str = "property", y: str = "s", label: str = "word",
                  xlabel: str, ylabel: str, title: str, r: float, p: float, annotate: bool = True,
                  dropped: pd.DataFrame | None = None):
    """Caliskan et al. (2017) Figures 1-2: each target word's WEFAT score against its real-world property,
    with the least-squares line and Pearson's ρ. ``dropped`` rows (e.g. names removed by the
    name-likeness filter) are drawn as hollow grey markers, not used in the fit."""
    fig, ax = plt.subplots(figsize=(6.5, 5))
    ax.scatter(table[x], table[y], s=18, color="#1f77b4", zorder=3)
    slope, intercept = np.polyfit(table[x], table[y], 1)
    xs = np.linspace(table[x].min(), table[x].max(), 2)
    ax.plot(xs, intercept + slope * xs, color="#d62728", lw=1, zorder=2)
    if dropped is not None and len(dropped):
        ax.scatter(dropped[x], dropped[y], s=18, facecolors="none", edgecolors="grey", zorder=3,
                   label="removed by name-likeness filter")
        ax.legend(loc="lower right", frameon=False)
    if annotate:
        frames = [table] + ([dropped] if dropped is not None else [])
        for frame in frames:
            for _, row in frame.iterrows():
                ax.annotate(row[label], (row[x], row[y]), xytext=(2, 2), textcoords="offset points", fontsize=6)
    ax.axhline(0, color="black", lw=0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{title}\nPearson's ρ = {r:.2f}, p = {p:.1e}, n = {len(table)}")
    fig.tight_layout()
    return fig


def pca_pairs(words_a: Sequence[str], words_b: Sequence[str], vectors_a, vectors_b, *, title: str):
    """Caliskan et al. (2017) Figure 3: the first two principal components of pairs of words that differ
    only by gender, with a line joining each pair. PCA is fitted on the pair vectors themselves."""
    V = np.vstack([vectors_a, vectors_b]).astype(np.float64)
    centred = V - V.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    comps = vt[:2]
    # fix the sign of each component so the picture does not flip between LAPACK builds
    comps *= np.sign(comps[np.arange(2), np.abs(comps).argmax(axis=1)])[:, None]
    xy = centred @ comps.T
    n = len(words_a)
    fig, ax = plt.subplots(figsize=(6, 5))
    for i in range(n):
        ax.plot([xy[i, 0], xy[n + i, 0]], [xy[i, 1], xy[n + i, 1]], color="grey", lw=0.8, zorder=1)
    ax.scatter(xy[:n, 0], xy[:n, 1], color="#1f77b4", zorder=2, label="male")
    ax.scatter(xy[n:, 0], xy[n:, 1], color="#d62728", zorder=2, label="female")
    for i, w in enumerate(list(words_a) + list(words_b)):
        ax.annotate(w, xy[i], xytext=(3, 2), textcoords="offset points", fontsize=8)
    ax.set_xlabel("principal component 1")
    ax.set_ylabel("principal component 2")
    ax.set_title(title)
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def effect_size_comparison(table: pd.DataFrame, *, title: str, ours: str = "effect_size",
                           paper: str = "paper_effect_size", label: str = "test", low: str | None = None,
                           high: str | None = None):
    """Paper vs ours: one row per test, the paper's d as an open circle (drawn above ours, so both show) and
    ours as a filled dot, with our interval [``low``, ``high``] as a bar when those columns are named."""
    fig, ax = plt.subplots(figsize=(6.5, 0.38 * len(table) + 1.3))
    y = np.arange(len(table))[::-1]
    values = [table[paper], table[ours]]
    if low is not None and high is not None:
        ax.hlines(y, table[low], table[high], color="#d62728", lw=1.6, alpha=0.45, zorder=2,
                  label="ours, 95% interval")
        values += [table[low], table[high]]
    else:
        for yi, a, b in zip(y, table[paper], table[ours]):
            ax.plot([a, b], [yi, yi], color="grey", lw=0.6, zorder=2)
    ax.scatter(table[ours], y, color="#d62728", label="ours", zorder=3, s=16)
    ax.scatter(table[paper], y, facecolors="none", edgecolors="black", label="paper", zorder=4, s=42, lw=1.1)
    ax.axvline(0, color="black", lw=0.5)
    ax.set_yticks(y, table[label])
    ax.set_xlabel("effect size d")
    finite = pd.concat(values).astype(float)
    ax.set_xlim(min(-0.2, float(np.nanmin(finite)) - 0.1), max(2.05, float(np.nanmax(finite)) + 0.1))
    ax.set_title(title)
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def zipf_names(rank, log_prob, kept, labels=None, *, title: str, annotate: int = 12):
    """Swinger et al. (2019) Figure 1: each name's log-probability in the name data (y) against its index in
    the embedding's frequency-ordered vocabulary (x), names kept by the cleaning vs removed. Names removed
    tend to sit far above the Zipf line: they are frequent words with other uses. The ``annotate`` removed
    names with the smallest embedding index are labelled."""
    rank = np.asarray(rank)
    log_prob = np.asarray(log_prob)
    kept = np.asarray(kept, dtype=bool)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.scatter(rank[kept], log_prob[kept], s=4, color="#ff7f0e", alpha=0.6, label=f"kept ({kept.sum()})",
               rasterized=True)
    ax.scatter(rank[~kept], log_prob[~kept], s=6, color="#1f77b4", alpha=0.8,
               label=f"removed by cleaning ({(~kept).sum()})", rasterized=True)
    ax.set_xscale("log")
    ax.set_xlabel("index in the embedding's vocabulary (frequency order)")
    ax.set_ylabel("log probability in the name data")
    if labels is not None and annotate:
        removed = np.flatnonzero(~kept)
        for k in removed[np.argsort(rank[removed], kind="stable")][:annotate]:
            ax.annotate(str(labels[k]), (rank[k], log_prob[k]), fontsize=7, xytext=(3, 2),
                        textcoords="offset points", color="#d62728")
    ax.set_title(title)
    ax.legend(loc="upper right", markerscale=3)
    fig.tight_layout()
    return fig
