"""The report "Racial bias in pre-trained word embeddings": its bias, permutation test, Table 1 and figures.

Section 3 and Appendix A: the racial direction r = mean(A1) − mean(A2) of two attribute sets (white, black),
the semantic direction s = mean(T1) − mean(T2) of two target sets (positive, negative), the bias cos(r, s)
and its angle (:func:`cosine_bias`), and a one-sided permutation test of the attribute words with Appendix A's
Wald 95% CI on p (:func:`direction_permutation_test`). :func:`table1`, :func:`figure1`, :func:`figure2` and
:func:`direct_bias_table` build what ``notebooks/racial_bias_report.ipynb`` shows; the word lists and the
report's numbers are in ``data/stimuli/racial_bias_report.yaml``.

Uncertainty (issue 14), not in the report: Table 1 also gives a bootstrap interval of the bias over the words
(:func:`wordbias.measures.bootstrap.direction_bootstrap_from_vectors`: how far the bias would move with other,
equally valid word lists of the same sizes), as distinct from Appendix A's interval, which is on the Monte Carlo
p only (its precision for a finite number of permutations; named ``p_ci_low``/``p_ci_high`` here); the
two-sided p of the same permutations; and Holm and Benjamini-Hochberg adjusted p over the family of the
table's rows (:func:`wordbias.core.multiple.adjust`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from gensim.models import KeyedVectors
from scipy import stats

from wordbias import embeddings
from wordbias.core import figures as plots
from wordbias.core import lookup, multiple
from wordbias.core import tables as _tables
from wordbias.core.errors import InvalidParameterError
from wordbias.core.permutation import ALTERNATIVES, MAX_SECONDS, check_cost
from wordbias.core.validation import check_bool, check_int, check_option, check_seed
from wordbias.datasets import stimuli
from wordbias.measures import bootstrap, debias, direction
from wordbias.measures.direction import DegenerateSetError, unit_rows, unit_vector

__all__ = [
    "KINDS",
    "check_parameters",
    "attribute_sets",
    "target_sets",
    "CosineBias",
    "cosine_bias",
    "p_value_ci",
    "PermutationResult",
    "direction_permutation_test",
    "Table1",
    "table1",
    "reported_table1",
    "show_table1",
    "show_adjusted_p",
    "show_reported",
    "figure1",
    "figure2",
    "direct_bias_table",
    "differences",
    "describe_embeddings",
]

#: the report's three pairs of attribute sets (Appendix B.1-B.3)
KINDS = ("implicit", "explicit", "stereotypical")


#: seconds per permutation of :func:`direction_permutation_test` per attribute word, and per attribute word
#: and dimension (measured: 2 µs for 40 words of 50 dimensions, 11 µs for 200 words of 300 dimensions)
SECONDS_PER_WORD, SECONDS_PER_WORD_DIM = 4.8e-8, 2.5e-11


def check_parameters(embedding, compare_with, n_permutations, seed) -> tuple[list[str], int, int]:
    """The notebook's parameters checked (its first cell after the parameters cell calls this): ``embedding``
    one embedding name or path, ``compare_with`` a list (possibly empty) of more names or paths to put beside it
    in Table 1, ``n_permutations`` an integer >= 2 and ``seed`` an integer >= 0. Returns (the names, first
    ``embedding``, with duplicates refused; n_permutations; seed).

    A string where the list belongs (papermill's ``-p compare_with /path``) is refused, saying how to pass a
    list (its letters would otherwise be read as embedding names).

    Examples
    --------
    >>> check_parameters("glove-6b-50d", [], 10_000, 0)
    (['glove-6b-50d'], 10000, 0)
    >>> check_parameters("glove-6b-50d", "/x/v.txt", 10_000, 0)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: compare_with must be a list of embedding names or paths, not the string '/x/v.txt': write ['/x/v.txt'] (papermill: -y "compare_with: [/x/v.txt]")
    """
    if not isinstance(embedding, (str, Path)) or not str(embedding):
        raise InvalidParameterError(f"embedding must be one embedding name or path (a non-empty string), not "
                                    f"{embedding!r:.80}")
    if isinstance(compare_with, (str, bytes)):
        raise InvalidParameterError(
            f"compare_with must be a list of embedding names or paths, not the string {compare_with!r}: write "
            f"[{compare_with!r}] (papermill: -y \"compare_with: [{compare_with}]\")")
    if not isinstance(compare_with, (list, tuple)):
        raise InvalidParameterError(f"compare_with must be a list of embedding names or paths (possibly empty), "
                                    f"not {compare_with!r:.80}")
    bad = [e for e in compare_with if not isinstance(e, (str, Path)) or not str(e)]
    if bad:
        raise InvalidParameterError(f"compare_with must hold names or paths (non-empty strings), not {bad!r:.80}")
    names = [str(embedding), *map(str, compare_with)]
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"an embedding is named twice in embedding and compare_with: {names}")
    return names, check_int("n_permutations", n_permutations, min=2), check_seed("seed", seed)


def describe_embeddings(kvs: Mapping[str, KeyedVectors]) -> str:
    """One line per embedding with the facts the comparison with the report depends on, computed from the
    vectors: dimension, vocabulary size, cased or not."""
    return "\n".join(f"{label}: {kv.vector_size} dimensions, {len(kv):,} words, "
                     f"{'cased' if embeddings.is_cased(kv) else 'uncased (names are lower-cased, as in Appendix A)'}"
                     for label, kv in kvs.items())


# --------------------------------------------------------------------------------------------------
# word lists (Appendix B)
# --------------------------------------------------------------------------------------------------

def attribute_sets(kind: str, *, cased: bool = True) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attribute sets A1 (white), A2 (black) for ``kind`` in implicit, explicit, stereotypical (Appendix B):
    the printed lists minus the names the report removed, and, where the report applies its intersection rule,
    minus the words in both sets. ``cased=False`` lower-cases the words for an uncased embedding (GloVe 6B).

    Examples
    --------
    >>> attribute_sets("explicit", cased=False)
    (('white', 'caucasian', 'european', 'light'), ('black', 'african', 'dark', 'negro'))
    """
    attrs = stimuli.load_stimuli("racial_bias_report")["attributes"]
    if kind not in attrs:
        raise KeyError(f"unknown attribute set {kind!r}; choose from {list(attrs)}")
    a = attrs[kind]
    A1 = [w for w in a["A1"] if w not in a["removed"]["A1"]]
    A2 = [w for w in a["A2"] if w not in a["removed"]["A2"]]
    if a["intersection_removed"]:
        common = set(A1) & set(A2)
        A1, A2 = [w for w in A1 if w not in common], [w for w in A2 if w not in common]
    fold = (lambda ws: tuple(ws)) if cased else (lambda ws: tuple(w.lower() for w in ws))
    return fold(A1), fold(A2)


def target_sets() -> tuple[list[str], list[str]]:
    """The target sets T1 (positive) and T2 (negative) of Appendix B.4, as printed (lower case)."""
    targets = stimuli.load_stimuli("racial_bias_report")["targets"]
    return targets["T1"], targets["T2"]


# --------------------------------------------------------------------------------------------------
# the bias and its permutation test (Section 3, Appendix A)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CosineBias:
    """cos(r, s) and the angle between r and s in degrees (arccos of the cosine)."""

    cosine: float
    angle: float


def cosine_bias(racial_direction, semantic_direction) -> CosineBias:
    """The report's bias: the cosine of the racial direction r and the semantic direction s (Section 3,
    step 7; Appendix A's ``inner_product``), and its angle in degrees (the "linear scale" of Section 3).

    A positive cosine is a bias in favour of A1 (white) when r = mean(A1) − mean(A2) and s points from the
    negative to the positive target words. Zero vectors are an error.

    Examples
    --------
    >>> b = cosine_bias([1.0, 0.0], [1.0, 1.0])
    >>> round(b.cosine, 4), round(b.angle, 1)
    (0.7071, 45.0)
    """
    r = unit_vector(racial_direction, "racial direction")
    s = unit_vector(semantic_direction, "semantic direction")
    if r.shape != s.shape:
        raise ValueError(f"directions of different dimensions: {r.shape[0]} and {s.shape[0]}")
    c = float(np.clip(r @ s, -1.0, 1.0))
    return CosineBias(c, float(np.degrees(np.arccos(c))))


def p_value_ci(hits, n_permutations: int | None = None, level: float = 0.95) -> tuple[float, float]:
    """The report's confidence interval on a permutation p-value (Appendix A):
    ``pval + sd(results)/sqrt(N) * qnorm(c(0.025, 0.975))`` - a Wald interval p ± z·sd/√N where sd is the
    sample standard deviation (R's ``sd``, denominator N − 1) of the N 0/1 outcomes. Not clipped to [0, 1].

    ``hits`` is either the count of permutations at least as extreme (with ``n_permutations``) or the array
    of 0/1 outcomes (``n_permutations`` omitted).

    Examples
    --------
    The report's Table 1, Google (implicit): p = 0.0748 over 10,000 permutations.

    >>> [round(x, 4) for x in p_value_ci(748, 10_000)]
    [0.0696, 0.08]
    """
    n = n_permutations
    if n is None:
        x = np.asarray(hits, dtype=np.float64)
        n, k = x.size, float(x.sum())
    else:
        k = float(hits)
    if n < 2:
        raise ValueError(f"a CI on p needs at least 2 permutations, not {n}")
    if not 0 <= k <= n:
        raise ValueError(f"count {k} is not between 0 and n = {n}")
    p = k / n
    sd = np.sqrt((k * (1 - p) ** 2 + (n - k) * p**2) / (n - 1))
    if sd == 0:  # p = 0 or p = 1: every outcome the same, the interval is the point
        return float(p), float(p)
    lo, hi = stats.norm.interval(level, loc=p, scale=sd / np.sqrt(n))
    return float(lo), float(hi)


@dataclass(frozen=True)
class PermutationResult:
    """The result of :func:`direction_permutation_test`; ``alternative`` names the tail of ``p``."""

    cosine: float
    angle: float
    p: float
    ci: tuple[float, float]
    #: permutations with a cosine at least the observed one (the smaller tail's count when two-sided, at most
    #: the observed one when "less"), and permutations drawn
    n_extreme: int
    n_permutations: int
    #: the cosine of each permutation, in the order drawn
    null: np.ndarray = field(repr=False)
    #: "greater" (the report's), "less" or "two-sided"
    alternative: str = "greater"


def _disjoint(X, Y, nx: str, ny: str) -> None:
    same = np.flatnonzero((X[:, None, :] == Y[None, :, :]).all(axis=2).any(axis=1))
    if same.size:
        raise ValueError(f"sets {nx} and {ny} share vectors (rows {same.tolist()} of {nx}): a word may not be in "
                         "both sets of a pair (the report removes the intersection)")


def _null_cosines(A: np.ndarray, l1: int, s: np.ndarray, n_permutations: int, seed: int,
                  batch_size: int) -> np.ndarray:
    """cos(r_perm, s) for ``n_permutations`` random reassignments of the rows of ``A`` to sets of sizes ``l1``
    and ``len(A) - l1``. Each batch is a (batch, |A|) matrix of weights ±1/|A_i|, so that all its mean
    differences are one matrix product with ``A``."""
    m = len(A)
    proj = A @ s
    rng = np.random.default_rng(seed)
    null = np.empty(n_permutations)
    for start in range(0, n_permutations, batch_size):
        k = min(batch_size, n_permutations - start)
        perm = rng.permuted(np.tile(np.arange(m), (k, 1)), axis=1)
        W = np.empty((k, m))
        rows = np.arange(k)[:, None]
        W[rows, perm[:, :l1]] = 1.0 / l1
        W[rows, perm[:, l1:]] = -1.0 / (m - l1)
        diffs = W @ A
        norms = np.linalg.norm(diffs, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            null[start:start + k] = np.where(norms > 0, (W @ proj) / norms, 0.0)
    return null


def _check_test_cost(m: int, d: int, n_permutations: int, batch_size: int, max_seconds: float) -> None:
    """Refuse a permutation test out of proportion before drawing (time and memory estimates)."""
    seconds = n_permutations * (SECONDS_PER_WORD * m + SECONDS_PER_WORD_DIM * m * d)
    n_bytes = 8.0 * n_permutations + 8.0 * min(batch_size, n_permutations) * (3 * m + d)
    check_cost(f"the direction permutation test with n_permutations={n_permutations:,} ({m} attribute words, "
               f"{d} dimensions)", seconds, n_bytes, max_seconds,
               "Use fewer permutations (10,000 as in the report resolves p to about ±0.004 near 0.05), or pass a "
               "larger max_seconds if you mean it.")


def direction_permutation_test(T1, T2, A1, A2, n_permutations: int = 10_000, seed: int = 0, *,
                               normalize: bool = False, batch_size: int = 2_000,
                               max_seconds: float = MAX_SECONDS, alternative: str = "greater") -> PermutationResult:
    """The report's bias and permutation test (Section 3, steps 1-8; Appendix A ``bias``/``permutation_test``).

    r = mean(A1) − mean(A2) (racial direction, attribute sets), s = mean(T1) − mean(T2) (semantic direction,
    target sets); the sets may differ in size. The bias is cos(r, s). Under the null the attribute words are
    exchangeable between A1 and A2: each of ``n_permutations`` random permutations (``numpy`` generator seeded
    by ``seed``, drawn ``batch_size`` at a time) reassigns the |A1| + |A2| attribute vectors to sets of the same
    sizes, and p = (number of permutations with cos(r_perm, s) ≥ cos(r, s)) / n_permutations, one-sided as in
    Appendix A (p may be 0). The 95% CI is :func:`p_value_ci`. ``normalize=False`` (default) uses the raw
    vectors like Appendix A (gensim ``get_vector``); ``True`` normalises each vector first.

    ``alternative``: ``"greater"`` (the report's test, the default), ``"less"`` (p = #{cos(r_perm, s) ≤
    cos(r, s)} / n_permutations) or ``"two-sided"``: min(1, 2·min of the two one-sided p) over the same
    permutations, the doubling rule of :func:`scipy.stats.permutation_test` (see
    :mod:`wordbias.core.permutation`); then ``n_extreme`` is the smaller tail's count and the CI is twice
    that tail's Wald interval.

    ``n_permutations`` is an integer >= 2, ``seed`` an integer >= 0 or a generator, ``batch_size`` an integer
    >= 1. A request estimated (from the measured :data:`SECONDS_PER_WORD`, :data:`SECONDS_PER_WORD_DIM`) to take
    more than ``max_seconds``, or to need more memory than :func:`wordbias.core.permutation.memory_limit` (8
    bytes a permutation), is
    refused before any work with :class:`~wordbias.core.errors.TooCostlyError`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> T1, T2 = rng.normal(size=(4, 5)) + [2, 0, 0, 0, 0], rng.normal(size=(4, 5)) - [2, 0, 0, 0, 0]
    >>> A1, A2 = rng.normal(size=(6, 5)) + [2, 0, 0, 0, 0], rng.normal(size=(6, 5)) - [2, 0, 0, 0, 0]
    >>> res = direction_permutation_test(T1, T2, A1, A2, n_permutations=1_000, seed=0)
    >>> round(res.cosine, 3), res.p, res.n_extreme, res.n_permutations
    (0.914, 0.053, 53, 1000)
    >>> two = direction_permutation_test(T1, T2, A1, A2, n_permutations=1_000, seed=0, alternative="two-sided")
    >>> two.p, two.n_extreme, two.alternative                  # 2 · 53 / 1000, the same permutations
    (0.106, 53, 'two-sided')
    """
    check_option("alternative", alternative, ALTERNATIVES)
    n_permutations = check_int("n_permutations", n_permutations, min=2)
    seed, normalize = check_seed("seed", seed), check_bool("normalize", normalize)
    batch_size = check_int("batch_size", batch_size, min=1)
    T1, T2 = direction.vector_set(T1, "T1", normalize), direction.vector_set(T2, "T2", normalize)
    A1, A2 = direction.vector_set(A1, "A1", normalize), direction.vector_set(A2, "A2", normalize)
    if len({X.shape[1] for X in (T1, T2, A1, A2)}) != 1:
        raise ValueError("the four sets have vectors of different dimensions")
    _check_test_cost(len(A1) + len(A2), A1.shape[1], n_permutations, batch_size, max_seconds)
    _disjoint(T1, T2, "T1", "T2")
    _disjoint(A1, A2, "A1", "A2")
    s = unit_vector(T1.mean(axis=0) - T2.mean(axis=0), "semantic direction mean(T1) - mean(T2)")
    r = A1.mean(axis=0) - A2.mean(axis=0)
    observed = cosine_bias(unit_vector(r, "racial direction mean(A1) - mean(A2)"), s)
    null = _null_cosines(np.vstack([A1, A2]), len(A1), s, n_permutations, seed, batch_size)
    # compare with a tolerance so that a permutation equal to the observed split counts as "as extreme"
    hits = int(np.sum(null >= observed.cosine - 1e-12))
    if alternative == "greater":
        return PermutationResult(observed.cosine, observed.angle, hits / n_permutations,
                                 p_value_ci(hits, n_permutations), hits, n_permutations, null)
    low = int(np.sum(null <= observed.cosine + 1e-12))
    if alternative == "less":
        return PermutationResult(observed.cosine, observed.angle, low / n_permutations,
                                 p_value_ci(low, n_permutations), low, n_permutations, null, alternative="less")
    count = min(hits, low)
    ci = tuple(2 * x for x in p_value_ci(count, n_permutations))
    return PermutationResult(observed.cosine, observed.angle, min(1.0, 2 * count / n_permutations), ci, count,
                             n_permutations, null, alternative="two-sided")


# --------------------------------------------------------------------------------------------------
# Table 1 (Section 4)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table1:
    """Table 1 over one or more embeddings, the words each lacks, and the projections for the figures."""

    #: one row per embedding and attribute set: n_A1, n_A2, bias, bias_ci_low, bias_ci_high, angle, p, p_ci_low,
    #: p_ci_high, p_two_sided, bias_ci_resampled, p_holm, p_bh, p_family (see :func:`table1`)
    table: pd.DataFrame = field(repr=False)
    #: the words dropped as missing, one row per embedding and word set (A1/A2 columns)
    missing: pd.DataFrame = field(repr=False)
    #: (label, kind) -> ((T1 words, T2 words), projections of T1, projections of T2) on the racial direction
    projections: Mapping = field(repr=False)

    @property
    def labels(self) -> list[str]:
        """The embeddings' labels, in order."""
        return list(dict.fromkeys(self.table.embedding))

    def to_frame(self) -> pd.DataFrame:
        """Table 1 as a DataFrame (a copy of :attr:`table`)."""
        return self.table.copy()

    def save(self, folder: Path | str) -> Path:
        """Write the table (every embedding's rows) to ``folder/table1.csv``; return the path."""
        path = Path(folder) / "table1.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.table.to_csv(path, index=False, float_format="%.6g")
        return path


def _embedding_rows(kv: KeyedVectors, label: str, n_permutations: int, seed: int,
                    max_seconds: float = MAX_SECONDS, n_resamples: int = 10_000) -> tuple[list, list, dict]:
    """Table 1's rows, missing words and projections for one embedding (raw vectors, Appendix A)."""
    rows, missing, proj = [], [], {}
    cased = embeddings.is_cased(kv)   # names are lower-cased for an uncased vocabulary
    t = lookup.set_vectors(kv, *target_sets(), name="targets")
    for kind in KINDS:
        a = lookup.set_vectors(kv, *attribute_sets(kind, cased=cased), name=kind)
        res = direction_permutation_test(t.A, t.B, a.A, a.B, n_permutations=n_permutations, seed=seed,
                                         max_seconds=max_seconds)
        two = direction_permutation_test(t.A, t.B, a.A, a.B, n_permutations=n_permutations, seed=seed,
                                         max_seconds=max_seconds, alternative="two-sided")   # the same permutations
        # a set of one word cannot be resampled: the interval then resamples the others (and says so)
        sets = dict(zip(bootstrap.DIRECTION_SETS, (t.A, t.B, a.A, a.B)))
        resample = tuple(k for k, m in sets.items() if len(m) >= 2)
        ci = bootstrap.direction_bootstrap_from_vectors(t.A, t.B, a.A, a.B, n_resamples=n_resamples, seed=seed,
                                                        resample=resample)
        r = direction.mean_difference_direction(a.A, a.B, normalize=False)   # racial direction, as in the test
        proj[label, kind] = (t.words, direction.projections(t.A, r), direction.projections(t.B, r))
        rows.append(dict(embedding=label, attributes=kind, n_A1=len(a.A), n_A2=len(a.B), bias=res.cosine,
                         bias_ci_low=ci.low, bias_ci_high=ci.high, angle=res.angle, p=res.p, p_ci_low=res.ci[0],
                         p_ci_high=res.ci[1], p_two_sided=two.p, bias_ci_resampled="".join(ci.resampled)))
        missing.append(dict(embedding=label, set=kind, missing_A1=", ".join(a.missing[0]),
                            missing_A2=", ".join(a.missing[1])))
    missing.append(dict(embedding=label, set="targets", missing_A1=", ".join(t.missing[0]),
                        missing_A2=", ".join(t.missing[1])))
    return rows, missing, proj


def table1(kvs: Mapping[str, KeyedVectors], *, n_permutations: int = 10_000, seed: int = 0,
           max_seconds: float = MAX_SECONDS, n_resamples: int = 10_000) -> Table1:
    """Table 1 for each embedding of ``kvs`` (label -> ``KeyedVectors``): for each attribute set, the
    bias cos(r, s), its angle, p and its 95% CI (:func:`direction_permutation_test`, raw vectors), with names
    lower-cased for uncased embeddings (Appendix A's ``tolower``). Words missing from an embedding warn
    :class:`~wordbias.core.errors.MissingWordsWarning` and are listed in ``Table1.missing``.

    Columns: ``bias`` with ``bias_ci_low``, ``bias_ci_high``, its BCa 95% bootstrap interval over the words
    (each of T1, T2, A1, A2 resampled separately, ``n_resamples`` resamples, seeded by ``seed``;
    :func:`wordbias.measures.bootstrap.direction_bootstrap_from_vectors`: how far the bias would move with other
    word lists of the same sizes); ``p`` (one-sided, the report's) with ``p_ci_low``, ``p_ci_high``, Appendix
    A's Wald interval, which covers only the Monte Carlo error of p (:func:`p_value_ci`), not the bias;
    ``p_two_sided`` (the same permutations, SciPy's doubling rule); ``bias_ci_resampled``: the sets the interval
    resampled (all four, except a set left with one word, which cannot be resampled and is then held fixed, so
    the interval is narrower than it would be); ``p_holm``, ``p_bh``: the one-sided p
    (the report's directional hypothesis) adjusted by Holm (1979) and Benjamini-Hochberg (1995) over the family
    of all the table's rows (every attribute set x embedding of this call), named in ``p_family``
    (:func:`wordbias.core.multiple.adjust`)."""
    if not isinstance(kvs, Mapping):
        raise InvalidParameterError(f"kvs must map labels to embeddings, e.g. {{'GloVe': kv}}, not "
                                    f"{type(kvs).__name__}")
    n_permutations, seed = check_int("n_permutations", n_permutations, min=2), check_seed("seed", seed)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    rows, missing, proj = [], [], {}
    for label, kv in kvs.items():
        r, m, p = _embedding_rows(kv, label, n_permutations, seed, max_seconds, n_resamples)
        rows += r
        missing += m
        proj.update(p)
    table = pd.DataFrame(rows)
    if len(table):
        labels = list(dict.fromkeys(table.embedding))
        family = (f"Table 1: {len(table)} tests ({len(KINDS)} attribute sets x {len(labels)} embedding"
                  f"{'s' if len(labels) > 1 else ''}: {', '.join(map(str, labels))}), one-sided p")
        adj = multiple.adjust(table.p.to_numpy(), [f"{e} / {k}" for e, k in zip(table.embedding, table.attributes)],
                              family=family)
        table["p_holm"], table["p_bh"], table["p_family"] = adj.p_holm, adj.p_bh, adj.family
    return Table1(table, pd.DataFrame(missing), proj)


def reported_table1() -> pd.DataFrame:
    """The report's Table 1 as printed, with the angle arccos(bias) computed here, its CI on p (Appendix A) as
    text in ``p_ci`` and its upper bound as ``p_ci_high``."""
    rep = pd.DataFrame(stimuli.load_stimuli("racial_bias_report")["table1"]["rows"])
    rep["angle"] = np.degrees(np.arccos(rep["bias"]))
    rep["p_ci_high"] = rep["ci"].map(lambda c: c[1] if c else np.nan)
    rep["ci"] = rep["ci"].map(lambda c: f"({c[0]}, {c[1]})")
    return rep.rename(columns={"ci": "p_ci"})


def _index(table: pd.DataFrame, out: pd.DataFrame) -> pd.DataFrame:
    """Index ``out`` by attribute set, and by embedding first when ``table`` has more than one."""
    out.insert(0, "Attributes", list(table.attributes))
    if table.embedding.nunique() > 1:
        out.insert(0, "Embedding", list(table.embedding))
        return out.set_index(["Embedding", "Attributes"])
    return out.set_index("Attributes")


def show_table1(table: pd.DataFrame) -> pd.DataFrame:
    """:attr:`Table1.table` for a student (6 columns, indexed by attribute set, and embedding when there are
    several): the words per attribute set, the bias cos(r, s) with its 95% bootstrap interval (over the words:
    how far the bias moves with other lists), the angle, the one-sided p and the report's 95% interval on p
    (Appendix A: the Monte Carlo precision of p only, not an interval on the bias). Adjusted p:
    :func:`show_adjusted_p`; every column stays in the CSV."""
    out = pd.DataFrame({
        "Words (A1/A2)": [f"{a}/{b}" for a, b in zip(table.n_A1, table.n_A2)],
        "Bias cos(r, s)": table.bias.map(lambda v: _tables.number_text(v, 3)),
        "95% interval of the bias": _tables.interval_column(table.bias_ci_low, table.bias_ci_high),
        "Angle": [f"{a:.1f}°" for a in table.angle],
        "p (one-sided)": _tables.p_column(table.p),
        "95% interval of p (Monte Carlo)": [f"[{_tables.small_number_text(lo)}, {_tables.small_number_text(hi)}]"
                                            for lo, hi in zip(table.p_ci_low, table.p_ci_high)],
    })
    return _index(table, out)


def show_adjusted_p(table: pd.DataFrame) -> pd.DataFrame:
    """The p-values of :attr:`Table1.table` for a student: one-sided (the report's test), two-sided, and the
    one-sided p adjusted over the table's tests by Holm and by Benjamini-Hochberg."""
    out = pd.DataFrame({
        "p (one-sided)": _tables.p_column(table.p),
        "p (two-sided)": _tables.p_column(table.p_two_sided),
        "p Holm": _tables.p_column(table.p_holm),
        "p Benjamini-Hochberg": _tables.p_column(table.p_bh),
    })
    return _index(table, out)


def show_reported(reported: pd.DataFrame) -> pd.DataFrame:
    """:func:`reported_table1` for a student: for each model and attribute set, the report's bias, its angle
    (computed here), p and its 95% interval on p (Appendix A; Monte Carlo precision only)."""
    out = pd.DataFrame({
        "Model": reported.model, "Attributes": reported.attributes,
        "Bias cos(r, s)": reported.bias.map(lambda v: _tables.number_text(v, 3)),
        "Angle": [f"{a:.1f}°" for a in reported.angle],
        "p (one-sided)": _tables.p_column(reported.p),
        "95% interval of p (Monte Carlo)": reported.p_ci.str.replace("(", "[", regex=False).str.replace(
            ")", "]", regex=False)})
    return out.set_index(["Model", "Attributes"])


# --------------------------------------------------------------------------------------------------
# Figures 1 and 2, the direct bias, what differs
# --------------------------------------------------------------------------------------------------

def _panel(ax, result: Table1, label: str, kind: str, seed: int) -> tuple[np.ndarray, np.ndarray, list, list]:
    """One panel: each target word at its projection on the racial direction, with a seeded jitter. Returns the
    points and their words and colours, to be labelled once the figure's layout is final."""
    words, p1, p2 = result.projections[label, kind]
    rng = np.random.default_rng(seed)
    sets = ((words[0], p1, "tab:blue", "positive (T1)"), (words[1], p2, "tab:red", "negative (T2)"))
    xs, ys, ws, colours = [], [], [], []
    for w, ps, colour, name in sets:
        y = rng.uniform(0, 1, len(ps))
        ax.scatter(ps, y, s=12, color=colour, label=name)
        xs.append(np.asarray(ps, dtype=float))
        ys.append(y)
        ws += list(w)
        colours += [colour] * len(ps)
    ax.axvline(0, ls=":", color="k")
    ax.set_yticks([])
    ax.set_ylim(-0.08, 1.08)
    ax.margins(x=0.06)
    ax.set_title(f"{label}: {kind}", fontsize=9)
    ax.set_xlabel("projection on the racial direction (white →)")
    return np.concatenate(xs), np.concatenate(ys), ws, colours


def _panels(result: Table1, layout: list[list[tuple[str, str]]], title: str, seed: int):
    """Figures 1-2: one panel per (embedding label, attribute kind) of ``layout`` (rows of panels), the legend
    outside the top right panel, the words labelled without overlaps (:func:`wordbias.core.figures.place_labels`)."""
    n_rows, n_cols = len(layout), max(len(row) for row in layout)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(6.5 * n_cols + 1.2, 3.8 * n_rows), squeeze=False)
    points = []
    for row_axes, row in zip(axes, layout):
        for ax, (label, kind) in zip(row_axes, row):
            points.append((ax, _panel(ax, result, label, kind, seed)))
    plots.legend_outside(axes[0][-1], fontsize=7)
    fig.suptitle(title)
    for ax, _ in points:
        plots.freeze_limits(ax)  # before the layout, so that it does not move with the data's last digits
    fig.tight_layout()
    for ax, (xs, ys, ws, colours) in points:
        plots.place_labels(ax, xs, ys, ws, colors=colours, fontsize=7)
    return fig


def figure1(result: Table1, seed: int = 0):
    """Figure 1: the target words on the implicit racial direction, one panel per embedding."""
    return _panels(result, [[(label, "implicit") for label in result.labels]],
                   "Figure 1: target words on the implicit racial direction", seed)


def figure2(result: Table1, seed: int = 0):
    """Figure 2: the target words on the explicit and stereotypical racial directions, a row per embedding."""
    return _panels(result, [[(label, kind) for kind in ("explicit", "stereotypical")] for label in result.labels],
                   "Figure 2: target words on the explicit and stereotypical racial directions", seed)


def direct_bias_table(kvs: Mapping[str, KeyedVectors]) -> pd.DataFrame:
    """Bolukbasi et al.'s DirectBias_1 of the debiaswe professions in each of ``kvs`` (label -> ``KeyedVectors``),
    along the PCA gender direction of the definitional pairs (Section 2 of the report)."""
    rows = []
    for label, kv in kvs.items():
        g, pairs = debias.gender_direction(kv)
        profs = lookup.word_set(kv, debias.word_lists_for(kv).professions, name="professions")
        X = lookup.vectors(kv, profs.words)
        rows.append(dict(embedding=label, professions=len(profs.words), pairs=len(pairs.pairs),
                         pc1_share=g.explained_variance_ratio[0],
                         direct_bias_c1=direction.direct_bias(X, g.direction, c=1)))
    return pd.DataFrame(rows)


#: the report's Wikipedia model (Section 1): GloVe 6B 300d, trained on Wikipedia 2014 + Gigaword 5, uncased
REPORT_WIKIPEDIA = {"dimensions": 300, "words": 400_000, "cased": False}
#: the registry's embeddings trained on the same corpus as the report's Wikipedia model
SAME_CORPUS = ("glove-6b-50d", "glove-wiki-gigaword-300")


def differences(result: Table1, reported: pd.DataFrame, n_permutations: int,
                kvs: Mapping[str, KeyedVectors] | None = None) -> str:
    """Markdown: ours beside the report's Wikipedia GloVe 300d row for each attribute set, and why they differ.
    The facts of each embedding (dimension, vocabulary, case) are computed from ``kvs`` when given; the corpus
    is named only for the registry's embeddings known to share the report's (:data:`SAME_CORPUS`)."""
    lines = []
    ours = result.table
    for label in result.labels:
        o = ours[ours.embedding == label].set_index("attributes")
        w = reported[reported.model == "Wikipedia"].set_index("attributes")
        facts = []
        if kvs is not None and label in kvs:
            kv = kvs[label]
            facts.append(f"{kv.vector_size} vs {REPORT_WIKIPEDIA['dimensions']} dimensions, {len(kv):,} vs "
                         f"{REPORT_WIKIPEDIA['words']:,} words, "
                         + ("uncased like it" if not embeddings.is_cased(kv) else "cased, it is not"))
        facts.append("the same corpus (Wikipedia 2014 + Gigaword 5)" if label in SAME_CORPUS
                     else "another corpus, or one not known here")
        lines.append(f"**{label}** vs the report's Wikipedia GloVe 300d ({'; '.join(facts)}):")
        for kind in KINDS:
            lines.append(f"- {kind}: bias {o.bias[kind]:.4f} (95% bootstrap interval {o.bias_ci_low[kind]:.4f} to "
                         f"{o.bias_ci_high[kind]:.4f}; report {w.bias[kind]:.4f}), angle {o.angle[kind]:.1f}° "
                         f"(report {w.angle[kind]:.1f}°), p {o.p[kind]:.4f} (report {w.p[kind]:.4f}); "
                         f"|A1|, |A2| = {o.n_A1[kind]}, {o.n_A2[kind]}; "
                         f"significant at 5% (upper bound of the CI on p < 0.05): ours {o.p_ci_high[kind] < 0.05}, "
                         f"report {w.p_ci_high[kind] < 0.05}; Holm-adjusted p {o.p_holm[kind]:.4f}")
    n_missing = sum(bool(m) for m in result.missing[["missing_A1", "missing_A2"]].to_numpy().ravel())
    lines.append("")
    lines.append("Why it differs: (1) another embedding (see the facts above; even on the same corpus another "
                 "dimension is a different fit of the same co-occurrences); (2) the "
                 "report's permutations come from R's `sample` with `set.seed(0)`, ours from numpy's generator with "
                 "the same seed number, so p agrees only up to Monte Carlo error "
                 f"(≈ ±{1.96 * np.sqrt(0.05 * 0.95 / n_permutations):.4f} near p = 0.05); "
                 f"(3) set/embedding pairs with words dropped as missing here: {n_missing} (table above); "
                 "(4) Google word2vec and Twitter GloVe are not available here, so their six rows are not reproduced.")
    return "\n".join(lines)
