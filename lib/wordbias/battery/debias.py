"""Every debiasing method x every check in one table and one figure: the measure improved, is the bias gone?

:func:`debias_table` measures the original embedding and each debiased one on the same checks, each an estimate
with an interval:

- the measures debiasing is judged by: WEAT 6, career/family x male/female names (Caliskan, Bryson & Narayanan
  2017, Science 356:183, doi:10.1126/science.aal4230; :func:`wordbias.weat` with the GloVe stimuli of
  :func:`wordbias.datasets.stimuli.weat_tests`), and DirectBias_1 of the debiaswe professions (Bolukbasi et al.
  2016, NIPS, Section 5.2; :func:`wordbias.measures.directions.direction.direct_bias`) on the original embedding's gender
  direction;
- Gonen & Goldberg's (2019, NAACL, doi:10.18653/v1/N19-1061) checks of what is left
  (:mod:`wordbias.measures.debiasing.debias_checks`): cluster accuracy, classifier accuracy, the bias-by-neighbours
  correlation (of the 5,000 most biased words and of the professions);
- the utility checks (:mod:`wordbias.measures.debiasing.utility`): analogy accuracy, WordSim-353 and SimLex-999 ρ.

:func:`debias_figure` draws it: one panel per check, the methods on the vertical axis, each estimate a point
with its interval, the original embedding's value marked by a dashed line.

:func:`debias_methods` runs the debiasing methods of :data:`METHODS` (timed) on one embedding, with
:func:`inlp_iterations` scaling INLP's 35 iterations (GloVe 300d) to its dimension; the views of the table:
:func:`methods_table` (what each method removed), :func:`show_checks` (one row per check, one column per method,
estimates with intervals), :func:`write_checks` (the CSV) and :func:`mark_chance` (chance marked on the figure).
``wordbias debias`` runs them on a user's embedding; :mod:`wordbias.papers.debias2019` on the paper's.
"""
from __future__ import annotations

import hashlib
import json
import math
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core import lookup, paths
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.keyed_arrays import read_keyed_arrays, write_keyed_arrays
from wordbias.core.tables import interval_digits
from wordbias.core.validation import check_int, check_seed
from wordbias.datasets import stimuli
from wordbias.measures.association.measurement import NOT_RUN_ERRORS, weat
from wordbias.measures.debiasing import debias, debias_checks, utility
from wordbias.measures.directions import direction
from wordbias.options import Resampling

__all__ = ["CHECKS", "CACHE_DIR", "METHODS", "CITATIONS", "WORDS_PER_CLASS", "DebiasRun", "debias_table",
           "debias_figure", "inlp_iterations", "words_per_class", "debias_methods", "methods_table",
           "write_checks", "show_checks", "mark_chance"]

#: wordbias's place for cached checks tables (:func:`debias_table`'s ``cache_dir``)
CACHE_DIR = paths.CACHE / "debias"
#: the data folders the checks read (their files are in the cache key)
_DATA_FOLDERS = ("stimuli", "debiaswe", "utility")

#: the checks of :func:`debias_table`: column key -> (label, what a debiased embedding should show)
CHECKS: dict[str, tuple[str, str]] = {
    "weat6_d": ("WEAT 6 d (career/family)", "towards 0"),
    "direct_bias": ("DirectBias_1 (professions)", "towards 0"),
    "cluster_acc": ("cluster accuracy (most biased words)", "towards 0.5"),
    "classifier_acc": ("RBF-SVM accuracy (held-out words)", "towards 0.5"),
    "neighbour_r": ("bias-by-neighbours r (most biased words)", "towards 0"),
    "profession_r": ("bias-by-neighbours r (professions)", "towards 0"),
    "analogy_acc": ("analogy accuracy", "kept"),
    "wordsim_rho": ("WordSim-353 ρ", "kept"),
    "simlex_rho": ("SimLex-999 ρ", "kept"),
}


def _weat6(kv, seed: int, n_resamples: int):
    spec = next(s for s in stimuli.weat_tests() if s.id == "WEAT6")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = weat(kv, spec.X, spec.Y, spec.A, spec.B, names=spec.names, title=spec.title,
                 resampling=Resampling(seed=seed, n_resamples=n_resamples, n_permutations=100_000))
    return m.effect_size, m.ci_low, m.ci_high


def _direct_bias(original, kv, g: np.ndarray, seed: int, n_resamples: int, level: float):
    lists = debias.word_lists_for(original)
    specific = set(debias_checks.gender_specific_words(original))
    words, _ = lookup.present(kv, [w for w in lists.professions if w not in specific])
    X = lookup.set_matrix(kv, words, "professions")
    return direction.direct_bias_percentile(X, g, n_resamples=n_resamples, seed=seed, level=level)


def debias_table(original, debiased: Mapping[str, object], *, seed: int = 0, n_resamples: int = 1000,
                 restrict: int | None = debias_checks.DEFAULT_RESTRICT, n_per_side: int = 2500,
                 n_cluster_per_side: int = 500, n_train: int = 1000, n_cluster_resamples: int | None = None,
                 restrict_vocab: int | None = utility.RESTRICT_VOCAB, progress: bool = False,
                 cache_dir=None) -> pd.DataFrame:
    """Measure the original embedding and every debiased one on every check: one row per method.

    The words of Gonen & Goldberg's checks are chosen once, on the original embedding
    (:func:`wordbias.measures.debiasing.debias_checks.most_biased_words`: ``n_per_side`` = 2,500 a side among the
    ``restrict`` most frequent candidate words; the clustering uses the first 500 a side), and every embedding is checked on the same words.
    DirectBias_1 uses the original embedding's PCA gender direction (:func:`wordbias.measures.debiasing.debias.gender_direction`)
    for every method, so that it measures how much of *that* direction each method left; its interval is a
    percentile bootstrap over the professions. A check an embedding cannot make gives NaN (and the reason in
    ``table.attrs["errors"]``).

    Parameters
    ----------
    original : KeyedVectors or str
        The embedding before debiasing (anything :func:`wordbias.embeddings.load` takes).
    debiased : mapping of str to KeyedVectors
        Method name -> debiased embedding (same vocabulary), e.g. ``{"hard": hard_debias(kv)[0]}``; the name
        ``"original"`` is reserved.
    seed : int, default 0
        The seed of every random step (K-means, the classifier's training draw, the bootstraps, WEAT).
    n_resamples : int, default 1000
        Bootstrap resamples of the WEAT, direct-bias, neighbour and similarity intervals (the clustering
        interval uses a fifth of them, at least 50: each refits K-means).
    restrict : int or None, default DEFAULT_RESTRICT
        The candidate words of Gonen & Goldberg's checks: the first ``restrict`` rows (None: all).
    n_per_side : int, default 2500
        The most biased words a side for the classifier and the neighbour correlation (the paper's 2,500).
    n_cluster_per_side : int, default 500
        The most biased words a side for the clustering (the paper's 500); at most ``n_per_side``.
    n_train : int, default 1000
        The classifier's training words (the paper's 1,000).
    n_cluster_resamples : int, optional
        Bootstrap resamples of the clustering interval (each refits K-means: the costly one); by default a fifth
        of ``n_resamples``, at least 50.
    restrict_vocab : int or None, default utility.RESTRICT_VOCAB
        The analogy check's vocabulary: the first ``restrict_vocab`` rows
        (:func:`wordbias.measures.debiasing.utility.analogy_accuracy`; gensim's 300,000 by default; None: all).
    progress : bool, default False
        Print each check's time as it ends.
    cache_dir : str or path-like, optional
        Where to keep the table on disk (:data:`CACHE_DIR` is wordbias's place for it): a call with the same
        embeddings (every word and every vector, bit for bit), options and seed, the same package sources and
        data files (the word lists, the utility data sets) and the same compute fingerprint
        (:func:`wordbias.core.paths.compute_fingerprint`) reads it back instead of measuring again
        (``checks-<key>.npz``: the values and, as JSON, the index, the columns and ``attrs``; no pickle, written
        atomically). A damaged or mismatched file gives a :class:`~wordbias.core.errors.CacheRebuiltWarning` and
        is measured again. By default nothing is cached.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``method`` (``"original"`` first, then ``debiased``'s order); for each key of
        :data:`CHECKS` the columns ``<key>``, ``<key>_low`` and ``<key>_high``. ``table.attrs``: ``seconds``
        (method -> check -> seconds; read from the cache, those of the run that measured it), ``errors``
        (method -> check -> message), ``notes``, ``n_candidates``, ``checks`` (:data:`CHECKS`), ``n_resamples``,
        ``n_cluster_resamples``, ``restrict_vocab`` and ``cached`` (whether the table was read from the cache).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``debiased`` is not a mapping, uses the name ``"original"``, or an option is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> debias_table(to_keyed_vectors(["he"], np.ones((1, 2), dtype=np.float32)), {"original": None})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: the method name 'original' is reserved for the original embedding
    """
    if not isinstance(debiased, Mapping):
        raise InvalidParameterError(f"debiased must be a mapping of method name to embedding, not "
                                    f"{type(debiased).__name__}")
    if "original" in debiased:
        raise InvalidParameterError("the method name 'original' is reserved for the original embedding")
    seed = check_seed("seed", seed)
    n_resamples = check_int("n_resamples", n_resamples, min=10)
    orig = debias_checks._kv(original, "original")
    n_per_side = check_int("n_per_side", n_per_side, min=2)
    n_cluster_per_side = check_int("n_cluster_per_side", n_cluster_per_side, min=1, max=n_per_side)
    sel, notes = _selection(orig, n_per_side, restrict)
    if len(sel.male) < n_per_side:  # a small or lopsided vocabulary: as many a side as it has, said in the notes
        n_per_side = len(sel.male)
        n_cluster_per_side = min(n_cluster_per_side, n_per_side)
        n_train = min(n_train, max(2, 2 * n_per_side // 5))  # the paper's share: 1,000 of 5,000 words
        notes.append(f"clustering on {n_cluster_per_side} and the classifier trained on {n_train} of those words")
    g = debias.gender_direction(orig)[0].direction
    level = 0.95
    n_cluster = (max(50, n_resamples // 5) if n_cluster_resamples is None
                 else check_int("n_cluster_resamples", n_cluster_resamples, min=10))
    restrict_vocab = None if restrict_vocab is None else check_int("restrict_vocab", restrict_vocab, min=1)
    embeddings = [("original", orig), *((m, debias_checks._kv(e, m)) for m, e in debiased.items())]
    cache_file = cache_key = None
    if cache_dir is not None:
        options = {"seed": seed, "n_resamples": n_resamples, "restrict": restrict, "n_per_side": n_per_side,
                   "n_cluster_per_side": n_cluster_per_side, "n_train": n_train, "n_cluster": n_cluster,
                   "restrict_vocab": restrict_vocab}
        cache_key = _table_key(embeddings, options)
        cache_file = Path(cache_dir).expanduser() / f"checks-{cache_key[:24]}.npz"
        cached = _read_table(cache_file, cache_key)
        if cached is not None:
            if progress:
                print(f"the checks of {len(embeddings)} embeddings, read from {cache_file}")
            return cached
    rows, seconds, errors = [], {}, {}
    for method, kv in embeddings:
        checks = {
            "weat6_d": lambda kv=kv: _weat6(kv, seed, n_resamples),
            "direct_bias": lambda kv=kv: _direct_bias(orig, kv, g, seed, n_resamples, level),
            "cluster_acc": lambda kv=kv: debias_checks.cluster_accuracy(orig, kv, n_per_side=n_cluster_per_side, selection=sel,
                                                                        seed=seed, n_resamples=n_cluster),
            "classifier_acc": lambda kv=kv: debias_checks.classifier_accuracy(
                orig, kv, n_per_side=n_per_side, n_train=n_train, selection=sel, seed=seed),
            "neighbour_r": lambda kv=kv: debias_checks.neighbour_bias(orig, kv, n_per_side=n_per_side, selection=sel, seed=seed,
                                                                      n_resamples=n_resamples),
            "profession_r": lambda kv=kv: debias_checks.profession_neighbour_bias(
                orig, kv, selection=sel, seed=seed, n_resamples=n_resamples),
            "analogy_acc": lambda kv=kv: utility.analogy_accuracy(kv, restrict_vocab=restrict_vocab),
            "wordsim_rho": lambda kv=kv: utility.word_similarity(kv, "wordsim353", seed=seed,
                                                                 n_resamples=n_resamples),
            "simlex_rho": lambda kv=kv: utility.word_similarity(kv, "simlex999", seed=seed, n_resamples=n_resamples),
        }
        row, seconds[method], errors[method] = {"method": method}, {}, {}
        for key, run in checks.items():
            start = time.perf_counter()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out = run()
                value, lo, hi = ((out.estimate, out.ci_low, out.ci_high) if isinstance(out, debias_checks.CheckResult)
                                 else out)
            except NOT_RUN_ERRORS as err:
                value = lo = hi = math.nan
                errors[method][key] = f"{type(err).__name__}: {err}"
            seconds[method][key] = time.perf_counter() - start
            row.update({key: value, f"{key}_low": lo, f"{key}_high": hi})
            if progress:
                print(f"{method:>12} {key:<15} {value: .3f} [{seconds[method][key]:.1f} s]")
        rows.append(row)
    table = pd.DataFrame(rows).set_index("method")
    table.attrs.update({"seconds": seconds, "errors": {m: e for m, e in errors.items() if e}, "notes": notes,
                        "n_candidates": sel.n_candidates, "checks": dict(CHECKS), "n_resamples": n_resamples,
                        "n_cluster_resamples": n_cluster, "restrict_vocab": restrict_vocab, "cached": False})
    if cache_file is not None:
        _write_table(cache_file, cache_key, table)
    return table


#: bumped when what the table holds changes in a way the package sources would not show
_TABLE_CACHE_VERSION = 1


def _table_key(embeddings, options: dict) -> str:
    """sha256 of everything :func:`debias_table` depends on: each embedding's name, words and vectors, the options,
    the package's sources, the data files the checks read and the compute fingerprint."""
    h = hashlib.sha256(json.dumps([_TABLE_CACHE_VERSION, options, paths.compute_fingerprint(), paths.source_digest(),
                                   paths.data_digest(*_DATA_FOLDERS)], sort_keys=True).encode())
    for method, kv in embeddings:
        V = np.ascontiguousarray(kv.vectors)
        h.update(json.dumps([method, V.dtype.str, V.shape]).encode())
        h.update(json.dumps(list(kv.index_to_key), ensure_ascii=False).encode("utf-8", "surrogatepass"))  # unambiguous
        h.update(V.data)
    return h.hexdigest()


def _write_table(path: Path, key: str, table: pd.DataFrame) -> None:
    meta = json.dumps({"index": list(table.index), "columns": list(table.columns), "attrs": table.attrs},
                      default=_json_scalar)
    write_keyed_arrays(path, key, {"values": table.to_numpy(dtype=np.float64), "meta": np.array(meta)},
                       what="the debiasing checks cache")


def _json_scalar(x):
    """A numpy scalar of the table's attrs as the Python number JSON writes (anything else is a bug: TypeError)."""
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"the checks table's attrs hold a {type(x).__name__}, which the cache cannot write")


def _read_table(path: Path, key: str) -> pd.DataFrame | None:
    """The cached table at ``path`` if it holds ``key``; ``None`` if the file is absent, or (with a
    :class:`~wordbias.core.errors.CacheRebuiltWarning`) damaged or mismatched."""
    def check(arrays: dict) -> str | None:
        try:
            meta = json.loads(str(arrays["meta"]))
            n, k = len(meta["index"]), len(meta["columns"])
            meta["attrs"]["checks"].items()
        except (ValueError, TypeError, AttributeError) as exc:
            return f"unreadable table description ({type(exc).__name__}: {exc})"
        values = arrays["values"]
        if values.dtype != np.float64 or values.shape != (n, k):
            return f"holds {values.dtype} values of shape {values.shape} for {n} x {k} cells"
        return None

    arrays = read_keyed_arrays(path, key, what="debiasing checks cache", check=check, stacklevel=4)
    if arrays is None:
        return None
    meta = json.loads(str(arrays["meta"]))
    table = pd.DataFrame(arrays["values"], index=pd.Index(meta["index"], name="method"), columns=meta["columns"])
    attrs = meta["attrs"]
    attrs["checks"] = {k: tuple(v) for k, v in attrs["checks"].items()}   # JSON gave lists
    table.attrs.update(attrs, cached=True)
    return table


#: the fewest most-biased words a side Gonen & Goldberg's checks run on (below it they are not run)
MIN_PER_SIDE = 50


def _selection(orig, n_per_side: int, restrict):
    """The ``n_per_side`` most male- and female-biased words, or as many as the smaller side has (at least
    :data:`MIN_PER_SIDE`), with a note saying so."""
    try:
        return debias_checks.most_biased_words(orig, n_per_side, restrict=restrict), []
    except DegenerateSetError:
        bias = debias_checks.most_biased_words(orig, 1, restrict=restrict).bias
        side = int(min((bias > 0).sum(), (bias < 0).sum()))
        if side < MIN_PER_SIDE:
            raise
        note = (f"{n_per_side} most biased words a side asked for, but only {int((bias > 0).sum())} candidates lean "
                f"male and {int((bias < 0).sum())} female on he - she: the checks use {side} a side")
        return debias_checks.most_biased_words(orig, side, restrict=restrict), [note]


def debias_figure(table: pd.DataFrame, *, checks: Mapping[str, tuple[str, str]] | None = None, ncols: int = 3):
    """One panel per check: each method's estimate and interval, the original embedding's value dashed.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`debias_table`'s table (methods as the index; ``<key>``, ``<key>_low``, ``<key>_high`` columns).
    checks : mapping of str to (str, str), optional
        The panels: key -> (title, what a debiased embedding should show); by default :data:`CHECKS`, those
        the table holds.
    ncols : int, default 3
        Panels per row.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (about 11 inches wide: readable on a laptop).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If the table holds none of the checks, or ``ncols`` < 1.

    Examples
    --------
    >>> t = pd.DataFrame({"cluster_acc": [1.0, 0.9], "cluster_acc_low": [0.99, 0.87],
    ...                   "cluster_acc_high": [1.0, 0.92]}, index=pd.Index(["original", "hard"], name="method"))
    >>> fig = debias_figure(t)
    >>> [ax.get_title() for ax in fig.axes]
    ['cluster accuracy (most biased words)\\n(debiased: towards 0.5)']
    """
    import matplotlib.pyplot as plt

    ncols = check_int("ncols", ncols, min=1)
    checks = dict(CHECKS if checks is None else checks)
    keys = [k for k in checks if k in table.columns]
    if not keys:
        raise InvalidParameterError(f"the table holds none of the checks {list(checks)}")
    ncols = min(ncols, len(keys))
    nrows = math.ceil(len(keys) / ncols)
    methods = list(table.index)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.7 * ncols, 0.32 * len(methods) * nrows + 1.5 * nrows),
                             squeeze=False)
    y = np.arange(len(methods))[::-1]
    for ax, key in zip(axes.flat, keys):
        est = table[key].to_numpy(dtype=float)
        lo = table.get(f"{key}_low", table[key]).to_numpy(dtype=float)
        hi = table.get(f"{key}_high", table[key]).to_numpy(dtype=float)
        err = np.vstack([np.where(np.isnan(lo), 0, est - lo), np.where(np.isnan(hi), 0, hi - est)])
        colours = ["black" if m == "original" else "tab:blue" for m in methods]
        for i in range(len(methods)):
            ax.errorbar(est[i], y[i], xerr=err[:, i:i + 1], fmt="o", color=colours[i], capsize=3, ms=5)
        if "original" in methods and not math.isnan(est[methods.index("original")]):
            ax.axvline(est[methods.index("original")], color="black", ls="--", lw=0.8, alpha=0.6)
        title, goal = checks[key]
        ax.set_title(f"{title}\n(debiased: {goal})", fontsize=9)
        ax.set_yticks(y, methods, fontsize=9)
        ax.set_ylim(-0.7, len(methods) - 0.3)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    for ax in list(axes.flat)[len(keys):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------------------------------
# the methods run on one embedding, and the views of the checks table
# --------------------------------------------------------------------------------------------------

#: the methods, in the order of the tables
METHODS = ("hard", "double-hard", "inlp", "leace")
#: each method's paper
CITATIONS = {
    "hard": "Bolukbasi et al. 2016, NIPS (hard debias: neutralize and equalize)",
    "double-hard": "Wang et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.484",
    "inlp": "Ravfogel et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.647",
    "leace": "Belrose et al. 2023, NeurIPS, arXiv:2306.03819",
}


@dataclass(frozen=True)
class DebiasRun:
    """The debiased embeddings of :func:`debias_methods`, with what each method did and how long it took.

    Attributes
    ----------
    embeddings : dict
        Method -> debiased ``KeyedVectors`` (the original's vocabulary and order).
    reports : dict
        Method -> the method's report (:class:`~wordbias.measures.debiasing.debias.HardDebiasReport`,
        :class:`~wordbias.measures.debiasing.double_hard.DoubleHardDebiasReport`, :class:`~wordbias.measures.debiasing.inlp.InlpReport`,
        :class:`~wordbias.measures.debiasing.leace.LeaceReport`).
    seconds : dict
        Method -> wall seconds.
    label : str
        The original embedding's label.
    seed : int
        The seed every method used.
    inlp_iterations : int
        INLP's iterations.
    """

    embeddings: dict[str, object] = field(repr=False)
    reports: dict[str, object] = field(repr=False)
    seconds: dict[str, float]
    label: str
    seed: int
    inlp_iterations: int


def inlp_iterations(dim: int, *, paper_iterations: int = 35, paper_dim: int = 300) -> int:
    """INLP's iterations scaled to an embedding's dimension: the paper's 35 for GloVe 300d, in proportion.

    Ravfogel et al. (2020, Section 6.1) ran 35 iterations of a 3-class linear SVM on GloVe 300d; each iteration
    removes up to 3 dimensions (one per class, one-vs-rest), so 35 iterations may remove up to 105 of 300
    (they removed 92: rank 300 -> 208 in their notebook). Keeping the share of dimensions the same,
    ``round(35 * dim / 300)``, at least 1: 6 iterations (up to 18 of 50 dimensions) for GloVe 6B 50d.

    Parameters
    ----------
    dim : int
        The embedding's dimension.
    paper_iterations : int, default 35
        The iterations of the paper's run.
    paper_dim : int, default 300
        The dimension of the paper's embedding.

    Returns
    -------
    int
        The iterations.

    Examples
    --------
    >>> inlp_iterations(50), inlp_iterations(300), inlp_iterations(2)
    (6, 35, 1)
    """
    dim = check_int("dim", dim, min=1)
    paper_iterations = check_int("paper_iterations", paper_iterations, min=1)
    paper_dim = check_int("paper_dim", paper_dim, min=1)
    return max(1, round(paper_iterations * dim / paper_dim))


def _check_methods(methods) -> tuple[str, ...]:
    if isinstance(methods, str) or not isinstance(methods, Sequence) or not methods:
        raise InvalidParameterError(f"methods must be a non-empty list of {list(METHODS)}, not {methods!r}")
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise InvalidParameterError(f"unknown debiasing method(s) {bad}: choose among {list(METHODS)}")
    if len(set(methods)) != len(methods):
        raise InvalidParameterError(f"a method is given twice: {list(methods)}")
    return tuple(methods)


#: Ravfogel et al.'s words per class (their released notebook: 7,500 male- and 7,500 female-biased words and as many
#: neutral ones among the 150,000 most frequent)
WORDS_PER_CLASS = 7_500


def words_per_class(kv) -> int:
    """The biased words per class INLP and LEACE are fit on: Ravfogel et al.'s 7,500, or a quarter of a smaller
    vocabulary (three classes of that size must fit among its words), so that an embedding trained on a small
    corpus (the Brown corpus: 13,919 words) can be debiased too; the reports say how many were used.

    Parameters
    ----------
    kv : KeyedVectors
        The embedding.

    Returns
    -------
    int
        min(7,500, vocabulary // 4).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words_per_class(to_keyed_vectors([f"w{i}" for i in range(13_919)], np.zeros((13_919, 2), np.float32)))
    3479
    """
    return max(1, min(WORDS_PER_CLASS, len(kv.index_to_key) // 4))


def debias_methods(embedding, methods: Sequence[str] = METHODS, *, seed: int = 0, label: str | None = None,
                   n_iterations: int | None = None, progress=None) -> DebiasRun:
    """Run debiasing methods on one embedding, each with its defaults (the authors' word lists and settings).

    ``hard``: :func:`wordbias.measures.debiasing.debias.hard_debias`; ``double-hard``:
    :func:`wordbias.measures.debiasing.double_hard.double_hard_debias`; ``inlp``: :func:`wordbias.measures.debiasing.inlp.inlp_debias`
    (3 classes, male/female/neutral words of Ravfogel et al.'s Section 6.1, ``n_iterations`` iterations);
    ``leace``: :func:`wordbias.measures.debiasing.leace.leace_debias` (the male and female words). Each returns a new float32
    matrix; the original is not modified.

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding (anything :func:`wordbias.embeddings.load` takes).
    methods : sequence of str, default METHODS
        Among :data:`METHODS`, each once.
    seed : int, default 0
        The seed of every random step (double-hard's K-means, INLP's split and classifiers, the neutral words).
    label : str, optional
        The embedding's label (the reports' ``<label>+<method>``); default: its registered name or ``"embedding"``.
    n_iterations : int, optional
        INLP's iterations; by default :func:`inlp_iterations` of the dimension.
    progress : callable, optional
        Called with one line per method as it ends (e.g. ``print``).

    Returns
    -------
    DebiasRun
        The debiased embeddings, the reports and the times.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a method is unknown or given twice, or an option is out of range.

    Examples
    --------
    >>> debias_methods("glove-6b-50d", ["hard", "lipstick"])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: unknown debiasing method(s) ['lipstick']: choose among ['hard', 'double-hard', 'inlp', 'leace']
    """
    from wordbias import embeddings as _embeddings
    from wordbias.measures.debiasing import debias, double_hard, inlp, leace

    methods = _check_methods(methods)
    seed = check_seed("seed", seed)
    if isinstance(seed, np.random.Generator):
        raise InvalidParameterError("seed must be an integer here")
    if progress is not None and not callable(progress):
        raise InvalidParameterError(f"progress must be a callable (e.g. print) or None, not {progress!r}")
    if label is None:
        label = embedding if isinstance(embedding, str) and embedding in _embeddings.REGISTRY else "embedding"
    kv = inlp._as_kv(embedding)
    iterations = (inlp_iterations(kv.vector_size) if n_iterations is None
                  else check_int("n_iterations", n_iterations, min=1))
    n_class = words_per_class(kv)
    chosen: dict = {}

    def words(neutral: bool):  # Ravfogel et al.'s selection, sized to the vocabulary, chosen once
        if "b" not in chosen:
            chosen["b"] = inlp.biased_words(kv, n_per_class=n_class, seed=seed)
        return chosen["b"].as_classes(neutral=neutral)

    runners = {
        "hard": lambda: debias.hard_debias(kv),
        "double-hard": lambda: double_hard.double_hard_debias(
            kv, seed=seed, label=label, options=double_hard.DoubleHardOptions(n_biased=min(1000, n_class))),
        "inlp": lambda: inlp.inlp_debias(kv, words(True), n_iterations=iterations, seed=seed, label=label),
        "leace": lambda: leace.leace_debias(kv, words(False), seed=seed, label=label),
    }
    out, reports, seconds = {}, {}, {}
    for m in methods:
        start = time.perf_counter()
        out[m], reports[m] = runners[m]()
        seconds[m] = time.perf_counter() - start
        if progress is not None:
            progress(f"{label}+{m}: {seconds[m]:.1f} s")
    return DebiasRun(out, reports, seconds, label, seed, iterations)


def _removed(method: str, report) -> str:
    if method == "hard":
        return (f"1 direction (PCA of {len(report.definitional_pairs)} definitional pairs, "
                f"{report.explained_variance_ratio[0]:.0%} of their variance), from {report.n_neutralized:,} words; "
                f"{len(report.equalized_pairs)} pairs equalized")
    if method == "double-hard":
        return (f"principal component {report.chosen_component + 1} (the frequency direction chosen by "
                f"K-means on {len(report.male_words):,} + {len(report.female_words):,} biased words), then hard "
                f"debias")
    if method == "inlp":
        its = len(report.iterations)
        return (f"{report.rank} dimensions ({its} iterations of a linear SVM on {len(report.classes)} classes); "
                f"held-out accuracy {report.accuracy_before:.2f} -> {report.accuracy_after:.2f} "
                f"(majority {report.majority_accuracy:.2f})")
    if method == "leace":
        n = sum(len(v) for v in report.words_by_class.values())
        after = "< 1e-6" if report.mean_gap_after < 1e-6 else f"{report.mean_gap_after:.2g}"
        return (f"rank {report.rank} (LEACE fitted on {n:,} male/female words); class-mean gap "
                f"{report.mean_gap_before:.2f} -> {after}")
    return ""


def methods_table(run: DebiasRun) -> pd.DataFrame:
    """What each method removed, and its paper.

    Parameters
    ----------
    run : DebiasRun
        The run of :func:`debias_methods` (each method's report).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``method``: ``paper`` and ``removed`` (text; no times, which change from run to run:
        :func:`wordbias.papers.debias2019.timing_table`).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> report = SimpleNamespace(definitional_pairs=[("she", "he")] * 10, explained_variance_ratio=[0.6],
    ...                          n_neutralized=2000, equalized_pairs=[("woman", "man")] * 5)
    >>> run = DebiasRun(embeddings={}, reports={"hard": report}, seconds={"hard": 1.0}, label="toy", seed=0,
    ...                 inlp_iterations=0)
    >>> methods_table(run).loc["hard", "removed"]
    '1 direction (PCA of 10 definitional pairs, 60% of their variance), from 2,000 words; 5 pairs equalized'
    """
    if not isinstance(run, DebiasRun):
        raise InvalidParameterError(f"run must be a DebiasRun (debias_methods), not {type(run).__name__}")
    rows = [{"method": m, "paper": CITATIONS[m], "removed": _removed(m, r)} for m, r in run.reports.items()]
    return pd.DataFrame(rows).set_index("method")


def write_checks(table: pd.DataFrame, path) -> None:
    """Write the checks table as CSV (``method`` then every column, 6 significant digits), each value rounded to
    8 decimals first: a value below 5e-9 is the floating-point rounding of 0 (hard debias's DirectBias_1 is
    about 3e-9 on GloVe 6B 50d) and would differ in its digits from one CPU's kernels to another's.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.battery.debias.debias_table`'s table.
    path : path-like
        The CSV file (written atomically).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> t = pd.DataFrame({"direct_bias": [0.17349, 2.7e-09]}, index=pd.Index(["original", "hard"], name="method"))
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "checks.csv"
    >>> write_checks(t, f)
    >>> print(f.read_text().strip())
    method,direct_bias
    original,0.17349
    hard,0
    """
    from wordbias.core.tidy import write_csv  # atomic, safe to open in a spreadsheet

    write_csv(table.round(8).reset_index(), path, what="the checks table", float_format="%.6g")


def _checks(table: pd.DataFrame) -> dict:
    """The table's checks: key -> (label, goal), as ``debias_table`` stores them in ``attrs["checks"]``."""
    checks = table.attrs.get("checks")
    if isinstance(checks, Mapping) and checks:
        return dict(checks)
    return {k[:-4]: (k[:-4], "") for k in table.columns if k.endswith("_low")}


#: the checks whose interval is a bootstrap (the others' are Wilson score intervals: no Monte Carlo error)
_BOOTSTRAPPED = ("weat6_d", "direct_bias", "cluster_acc", "neighbour_r", "profession_r", "wordsim_rho",
                 "simlex_rho")


def _resamples(table: pd.DataFrame, key: str) -> int | None:
    """The resamples behind the interval of check ``key`` in ``table`` (the clustering's its own count); None for a
    Wilson score interval."""
    if key == "cluster_acc":
        return table.attrs.get("n_cluster_resamples")
    return table.attrs.get("n_resamples") if key in _BOOTSTRAPPED else None


def show_checks(table: pd.DataFrame) -> pd.DataFrame:
    """The checks table as text: one row per check, one column per method, ``estimate [low, high]``.

    A bootstrap interval's bounds carry the decimals its Monte Carlo error supports
    (:func:`wordbias.core.tables.interval_digits`, from the resamples in ``table.attrs``); a Wilson interval
    (analogies, classifier) has none and is shown to 3 decimals; estimates to 3.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.battery.debias.debias_table`'s table.

    Returns
    -------
    pandas.DataFrame
        Indexed by the check's label (``table.attrs["checks"]``, else its key), with a ``debiased: ...`` column
        (what a debiased embedding should show) and one column per method.

    Examples
    --------
    >>> t = pd.DataFrame({"cluster_acc": [1.0, 0.9], "cluster_acc_low": [0.99, 0.871],
    ...                   "cluster_acc_high": [1.0, 0.923]}, index=pd.Index(["original", "hard"], name="method"))
    >>> t.attrs.update(n_cluster_resamples=100, checks={"cluster_acc": ("cluster accuracy", "towards 0.5")})
    >>> show_checks(t).loc["cluster accuracy", "hard"]
    '0.900 [0.87, 0.92]'
    """
    if not isinstance(table, pd.DataFrame):
        raise InvalidParameterError(f"table must be a DataFrame (debias_table), not {type(table).__name__}")
    checks = {k: v for k, v in _checks(table).items() if k in table.columns}
    if not checks:
        raise InvalidParameterError(f"the table holds none of the checks {list(_checks(table))}")
    rows = []
    for key, (label, goal) in checks.items():
        row = {"check": label, "debiased:": goal}
        n = _resamples(table, key)
        for method, r in table.iterrows():
            est, lo, hi = r[key], r.get(f"{key}_low", math.nan), r.get(f"{key}_high", math.nan)
            if pd.isna(est):
                row[method] = "not run"
                continue
            if pd.isna(lo) or pd.isna(hi):
                row[method] = f"{est:.3f}"
                continue
            d = interval_digits(lo, hi, n_resamples=n, most=2) if n else 3
            row[method] = f"{est:.3f} [{lo:.{d}f}, {hi:.{d}f}]"
        rows.append(row)
    return pd.DataFrame(rows).set_index("check")


def mark_chance(fig, *, title: str | None = None):
    """Mark chance (0.5) in the clustering and classifier panels of
    :func:`wordbias.battery.debias.debias_figure`'s figure, and give it a title.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure (one panel per check, titled ``... (debiased: towards 0.5)`` where chance is the goal).
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig``, chance dotted red in the panels whose goal is 0.5 (their x axis widened to show it).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, (a, b) = plt.subplots(1, 2)
    >>> _ = a.set_title("cluster accuracy (debiased: towards 0.5)"), b.set_title("analogies")
    >>> _ = mark_chance(fig)
    >>> len(a.lines), len(b.lines)
    (1, 0)
    >>> plt.close(fig)
    """
    for ax in fig.axes:                      # chance, where a debiased embedding's checks should land
        if ax.get_visible() and "towards 0.5" in ax.get_title():
            ax.axvline(0.5, color="tab:red", ls=":", lw=1.2)
            lo, hi = ax.get_xlim()
            ax.set_xlim(min(lo, 0.47), max(hi, 0.53))
            ax.text(0.5, 1.0, " chance", color="tab:red", fontsize=8, va="top", ha="left",
                    transform=ax.get_xaxis_transform())
    if title:
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
    return fig
