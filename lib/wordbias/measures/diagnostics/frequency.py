"""Frequency diagnostics of a WEAT: each stimulus word's frequency rank, and the frequency confound test.

Word frequency alone produces apparent bias in embedding association measures. Valentini, Rosati, Fernandez
Slezak & Altszyler (2022), "The Undesirable Dependence on Frequency of Gender Bias Metrics Based on Word
Embeddings", Findings of EMNLP 2022, arXiv:2301.00792:
SGNS and GloVe cosine metrics lean male on frequent words and female on rare ones, even on shuffled corpora.
van Loon, Giorgi, Willer & Eichstaedt (2022), "Negative Associations in Word Embeddings Predict Anti-black
Bias across Regions -- but only via Name Frequency", ICWSM 2022 (arXiv:2201.08451): WEAT estimates on names
were explained by the relative frequency of Black and White names, because embeddings put frequent words near
positive ones. Hence, for a test (X, Y, A, B):

* each stimulus word's **frequency rank** (:func:`frequency_ranks`): GloVe and word2vec files list words by
  decreasing corpus frequency, so the rank is the row index + 1. ``wordbias.embeddings.load`` and its cache
  keep the rows in the order of the source file (the cache stores the matrix and ``vocab.txt`` in file order,
  so ``key_to_index[w] + 1`` IS the rank; the few duplicate words of GloVe 840B are dropped after their first
  row, which keeps the order). An embedding that is not in frequency order (fastText's ``.bin``, a trained
  model sorted otherwise, a dict) needs the user's own counts: ``counts`` maps word -> corpus count, and the
  rank is then 1 + the number of words counted more often (ties share the smaller rank). The bundled subsets
  differ: ``glove-840b-caliskan`` (485 words) is in ALPHABETICAL order (data/vectors/SOURCE.md), so its row
  index is no rank and is refused (:func:`looks_alphabetical`; pass ``counts``); ``word2vec-gnews-sweater-subset``
  keeps the GoogleNews file's relative order, so its ranks are ranks WITHIN the 6,751-word subset, not corpus
  ranks, but every statistic below depends only on the relative order of the words (Spearman, Mann-Whitney,
  rank-biserial), so those are the same as with the full file's ranks;
* the two target sets' rank distributions side by side (:meth:`FrequencyReport.rank_table`);
* the Spearman correlation of s(w, A, B) (Caliskan et al. 2017, Methods) with log rank over X ∪ Y
  (``scipy.stats.spearmanr``; a rank correlation, so log rank and rank give the same ρ);
* a flag for a test whose target sets differ strongly in frequency: the two-sided Mann-Whitney U test of the
  ranks of X against those of Y (``scipy.stats.mannwhitneyu``), with the rank-biserial correlation
  ``r = 2U/(|X||Y|) − 1`` = P(rank_x > rank_y) − P(rank_x < rank_y) as its effect size (Kerby 2014, "The simple
  difference formula", Comprehensive Psychology 3, https://doi.org/10.2466/11.IT.3.1); r > 0: X is the rarer
  set. The test is flagged when p < ``alpha``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.core.validation import check_bool, check_int, check_probability
from wordbias.measures.association.weat import MIN_ATTRIBUTE_SIZE, MIN_TARGET_SIZE, association
from wordbias.measures.association.weat import check_sets as weat_check_sets

__all__ = [
    "FrequencyReport",
    "counts_to_ranks",
    "reference_counts",
    "frequency_ranks",
    "looks_alphabetical",
    "rank_biserial",
    "frequency_diagnostics",
    "plot_frequency",
]


#: :attr:`FrequencyReport.source` when the ranks are the embedding's own row order
EMBEDDING_ORDER = "embedding order (row index + 1)"


def counts_to_ranks(counts: Mapping[str, float]) -> dict[str, int]:
    """Frequency ranks from corpus counts: 1 + the number of words with a larger count.

    Ties share the smaller rank, as ``scipy.stats.rankdata(..., method="min")`` on the negated counts.

    Parameters
    ----------
    counts : mapping of str to float
        The corpus count of each word (finite, >= 0).

    Returns
    -------
    dict of str to int
        The rank of each word (1 = most frequent), in the order of ``counts``.

    Raises
    ------
    InvalidParameterError
        When ``counts`` is not a mapping, or a count is negative or not finite.

    Examples
    --------
    >>> counts_to_ranks({"the": 100, "cat": 5, "dog": 5, "gnu": 1})
    {'the': 1, 'cat': 2, 'dog': 2, 'gnu': 4}
    """
    if not isinstance(counts, Mapping):
        raise InvalidParameterError(f"counts must be a mapping word -> count, not {type(counts).__name__}")
    words = list(counts)
    values = np.array([counts[w] for w in words], dtype=np.float64)
    if values.size and (not np.all(np.isfinite(values)) or np.any(values < 0)):
        raise InvalidParameterError("counts must be finite and >= 0")
    desc = np.sort(-values)
    ranks = np.searchsorted(desc, -values, side="left") + 1
    return {w: int(r) for w, r in zip(words, ranks)}


#: a vocabulary whose adjacent words are in (case-insensitive) alphabetical order this often is refused as a
#: frequency order; a frequency-ordered vocabulary has about one half (GloVe 6B, the word2vec subset: 0.50)
ALPHABETICAL_FRACTION = 0.9


def reference_counts(embedding, reference, *, case_fold: bool = True) -> dict[str, float]:
    """Zipf pseudo-counts 1/rank for the words of ``embedding``, read from the frequency order of another embedding.

    This is a frequency proxy for an embedding whose own order is not by frequency (the bundled
    ``glove-840b-caliskan`` subset is alphabetical).

    Each word w of ``embedding`` found in ``reference`` (as ``w.lower()`` when ``case_fold``; then the cased
    forms *Rose* and *rose* share one rank) gets 1/rank, its rank being its row in ``reference`` + 1.
    Under Zipf's law a word's count is proportional to 1/rank; only the order matters to
    :func:`frequency_diagnostics` (its statistics are rank statistics), so these are valid ``counts`` there.
    The proxy is as good as the agreement of the two corpora's frequency orders: GloVe 6B (Wikipedia 2014 +
    Gigaword 5) for the Common Crawl of GloVe 840B, say. Words ``reference`` lacks are left out (and then
    reported as missing by :func:`frequency_diagnostics`).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The embedding whose words get counts.
    reference : KeyedVectors or mapping of str to array_like
        An embedding in frequency order (most frequent word first), not alphabetical.
    case_fold : bool, default True
        Look each word up in ``reference`` in lower case.

    Returns
    -------
    dict of str to float
        1/rank of each word of ``embedding`` found in ``reference``; usable as ``counts``.

    Raises
    ------
    InvalidParameterError
        When ``reference`` has no order (neither ``KeyedVectors`` nor a mapping) or is in alphabetical order,
        or no word of ``embedding`` is in it.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> ref = to_keyed_vectors(["the", "rose", "tulip"], np.eye(3, dtype=np.float32))
    >>> mine = to_keyed_vectors(["Rose", "aardvark", "tulip"], np.eye(3, dtype=np.float32))
    >>> reference_counts(mine, ref)
    {'Rose': 0.5, 'tulip': 0.3333333333333333}
    """
    case_fold = check_bool("case_fold", case_fold)
    ranks = _rank_lookup(reference, None)
    out = {}
    for w in lookup.vocabulary(embedding):
        r = ranks.get(w.lower() if case_fold else w)
        if r is not None:
            out[w] = 1.0 / r
    if not out:
        raise InvalidParameterError("no word of the embedding is in the reference embedding: no frequency proxy")
    return out


def looks_alphabetical(words: Sequence[str], threshold: float = ALPHABETICAL_FRACTION) -> bool:
    """Whether a vocabulary looks sorted alphabetically, so that its row order says nothing of frequency.

    True when ``words`` has 20 words or more and at least ``threshold`` of its adjacent pairs are in
    case-insensitive alphabetical order.

    Parameters
    ----------
    words : sequence of str
        The vocabulary, in its order.
    threshold : float, default 0.9
        The fraction of ordered adjacent pairs from which the order counts as alphabetical
        (:data:`ALPHABETICAL_FRACTION`).

    Returns
    -------
    bool
        True when the order looks alphabetical; always False under 20 words.

    Examples
    --------
    >>> looks_alphabetical([f"w{i:02d}" for i in range(30)]), looks_alphabetical(["the", "of"] * 15)
    (True, False)
    """
    words = list(words)
    if len(words) < 20:
        return False
    ordered = sum(a.lower() <= b.lower() for a, b in zip(words, words[1:]))
    return ordered >= threshold * (len(words) - 1)


def _rank_lookup(embedding, counts):
    """word -> rank: from ``counts``, else from the embedding's order (KeyedVectors' index, a mapping's order),
    refusing an alphabetical order."""
    if counts is not None:
        return counts_to_ranks(counts)
    if hasattr(embedding, "key_to_index"):
        ranks = {w: i + 1 for w, i in embedding.key_to_index.items()}
    elif isinstance(embedding, Mapping):
        ranks = {w: i + 1 for i, w in enumerate(embedding)}
    else:
        raise InvalidParameterError("the embedding has no order to read ranks from: pass counts (word -> count)")
    if looks_alphabetical(ranks):
        raise InvalidParameterError(
            f"the embedding's {len(ranks):,} words are in alphabetical order, not frequency order (e.g. the bundled "
            "'glove-840b-caliskan' subset): its row index is no frequency rank; pass counts (word -> corpus count)")
    return ranks


def frequency_ranks(embedding, words: Sequence[str], *, counts: Mapping[str, float] | None = None,
                    name: str = "words", on_missing: str = "drop", case_fold: bool = False):
    """``(words kept, ranks)``: each word's frequency rank, 1 = most frequent.

    Without ``counts`` the rank is the word's row in the embedding + 1 (``key_to_index[w] + 1`` of a
    ``KeyedVectors``; a mapping's insertion order): right for GloVe and word2vec files, which are in frequency
    order, and for ``wordbias.embeddings.load``, whose cache keeps the file's order. With ``counts`` (word ->
    corpus count) the rank is computed from the counts (:func:`counts_to_ranks`) and a word must be in them.
    Words not found follow ``on_missing`` (:func:`wordbias.core.lookup.word_set`).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The embedding, in frequency order unless ``counts`` is given.
    words : sequence of str
        The words to rank.
    counts : mapping of str to float, optional
        The corpus count of each word; ``None`` reads the ranks from the embedding's order.
    name : str, default "words"
        The name of the word list, used in messages.
    on_missing : {"drop", "raise"}, default "drop"
        Drop and report words without a rank, or raise ``KeyError``.
    case_fold : bool, default False
        Lower-case the words first.

    Returns
    -------
    words : tuple of str
        The words kept, in order.
    ranks : numpy.ndarray of int
        Their frequency ranks.

    Raises
    ------
    InvalidParameterError
        When ``words`` is not a list of distinct strings, ``counts`` is not valid, or the embedding has no
        order or is in alphabetical order (and no ``counts`` is given).
    KeyError
        When ``on_missing="raise"`` and a word has no rank.
    DegenerateSetError
        When no word is left.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["the", "of", "rose", "tulip"], np.eye(4, dtype=np.float32))
    >>> frequency_ranks(kv, ["tulip", "rose"])
    (('tulip', 'rose'), array([4, 3]))
    >>> frequency_ranks(kv, ["tulip", "rose"], counts={"tulip": 50, "rose": 10, "the": 900})
    (('tulip', 'rose'), array([2, 3]))
    """
    ranks = _rank_lookup(embedding, counts)
    ws = lookup.word_set(ranks if counts is not None else embedding, words, name=name, on_missing=on_missing,
                         case_fold=case_fold)
    return ws.words, np.array([ranks[w] for w in ws.words], dtype=np.int64)


def rank_biserial(u: float, n_x: int, n_y: int) -> float:
    """The rank-biserial correlation r = 2U/(n_x n_y) − 1 of a Mann-Whitney U of the first sample (Kerby 2014).

    r = P(x > y) − P(x < y), between −1 and 1.

    Parameters
    ----------
    u : float
        The Mann-Whitney U statistic of the first sample.
    n_x, n_y : int
        The sizes of the two samples.

    Returns
    -------
    float
        The rank-biserial correlation.

    Raises
    ------
    InvalidParameterError
        If a sample size is not a positive integer, or ``u`` is not between 0 and ``n_x n_y``.

    Examples
    --------
    >>> rank_biserial(9.0, 3, 3), rank_biserial(4.5, 3, 3)
    (1.0, 0.0)
    """
    n_x, n_y = check_int("n_x", n_x, min=1), check_int("n_y", n_y, min=1)
    if not 0 <= u <= n_x * n_y:
        raise InvalidParameterError(f"u must be a Mann-Whitney U between 0 and n_x n_y = {n_x * n_y}, not {u!r}")
    return float(2.0 * u / (n_x * n_y) - 1.0)


@dataclass(frozen=True)
class FrequencyReport:
    """Frequency ranks of a test's words and the frequency confound checks (see the module docstring).

    ``sets``, ``word``, ``rank`` and ``s`` are the per-word table's data (:meth:`to_frame`); ``flagged`` is
    ``mann_whitney_p < alpha``.

    Attributes
    ----------
    sets : tuple of str
        The set of each word: "X", "Y", "A" or "B".
    word : tuple of str
        The words, in the order X, Y, A, B.
    rank : numpy.ndarray of int
        The frequency rank of each word (1 = most frequent).
    s : numpy.ndarray of float
        s(w, A, B) for targets, NaN for attributes.
    spearman_rho, spearman_p : float
        Spearman's correlation of s(w, A, B) with log rank over X ∪ Y, and its two-sided p-value.
    mann_whitney_u : float
        The Mann-Whitney U of the ranks of X against those of Y.
    mann_whitney_p : float
        Its two-sided p-value.
    rank_biserial : float
        The rank-biserial correlation of the ranks of X and Y (> 0: X is the rarer set).
    alpha : float
        The significance level of the flag.
    source : str
        Where the ranks come from.
    missing : dict of str to tuple of str
        The words of each set dropped for lack of a vector or a rank (only sets that lost words).
    """

    sets: tuple[str, ...]
    word: tuple[str, ...]
    rank: np.ndarray = field(repr=False)
    s: np.ndarray = field(repr=False)
    spearman_rho: float
    spearman_p: float
    mann_whitney_u: float
    mann_whitney_p: float
    rank_biserial: float
    alpha: float
    source: str
    missing: dict = field(default_factory=dict)

    @property
    def flagged(self) -> bool:
        """The target sets differ in frequency (Mann-Whitney p < alpha)."""
        return bool(self.mann_whitney_p < self.alpha)

    def to_frame(self):
        """One row per word.

        Returns
        -------
        pandas.DataFrame
            The columns ``set``, ``word``, ``rank``, ``log10_rank`` and ``s``.
        """
        import pandas as pd

        return pd.DataFrame({"set": list(self.sets), "word": list(self.word), "rank": self.rank,
                             "log10_rank": np.log10(self.rank), "s": self.s})

    def rank_table(self):
        """The rank distributions of the sets side by side.

        Returns
        -------
        pandas.DataFrame
            One column per set (X, Y, A, B); the rows n, min, 25%, median, 75%, max and the median of log10
            rank.
        """
        import pandas as pd

        cols = {}
        for key in dict.fromkeys(self.sets):
            r = self.rank[np.array(self.sets) == key].astype(float)
            q = np.quantile(r, [0.0, 0.25, 0.5, 0.75, 1.0])
            cols[key] = {"n": r.size, "min": q[0], "25%": q[1], "median": q[2], "75%": q[3], "max": q[4],
                         "median log10 rank": float(np.median(np.log10(r)))}
        return pd.DataFrame(cols)

    def summary(self) -> dict:
        """A flat dict for one table row.

        Returns
        -------
        dict
            ``spearman_rho``, ``spearman_p``, ``mann_whitney_u``, ``mann_whitney_p``, ``rank_biserial``,
            ``frequency_flag`` (:attr:`flagged`) and ``rank_source``.
        """
        return {"spearman_rho": self.spearman_rho, "spearman_p": self.spearman_p,
                "mann_whitney_u": self.mann_whitney_u, "mann_whitney_p": self.mann_whitney_p,
                "rank_biserial": self.rank_biserial, "frequency_flag": self.flagged, "rank_source": self.source}


def frequency_diagnostics(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
                          counts: Mapping[str, float] | None = None, alpha: float = 0.05,
                          on_missing: str = "drop", case_fold: bool = False,
                          source: str | None = None) -> FrequencyReport:
    """Frequency ranks of a WEAT's words, the correlation of s(w, A, B) with log rank, and the X-vs-Y frequency test.

    The diagnostics follow Valentini et al. (2022) and van Loon et al. (2022); see the module docstring. Ranks as :func:`frequency_ranks` (the embedding's order, or ``counts``); a word must have a vector (for
    s) and a rank, else it follows ``on_missing``. The target sets are used whole (no balancing).
    ``source`` says where ``counts`` come from (for example "GloVe 6B order (proxy)"); it is stored in the
    report's ``source``.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The embedding, in frequency order unless ``counts`` is given.
    X, Y : sequence of str
        The target word sets.
    A, B : sequence of str
        The attribute word sets.
    counts : mapping of str to float, optional
        The corpus count of each word (:func:`counts_to_ranks`, :func:`reference_counts`); ``None`` reads the
        ranks from the embedding's order.
    alpha : float, default 0.05
        The significance level of the Mann-Whitney flag.
    on_missing : {"drop", "raise"}, default "drop"
        Drop and report words without a vector or a rank, or raise ``KeyError``.
    case_fold : bool, default False
        Lower-case all words (uncased embeddings).
    source : str, optional
        Where ``counts`` come from, stored in the report; ignored without ``counts``.

    Returns
    -------
    FrequencyReport
        The ranks, the Spearman correlation and the Mann-Whitney test.

    Raises
    ------
    InvalidParameterError
        When a word list, ``alpha``, ``counts`` or ``source`` is not valid, or the embedding's order is no
        frequency order and no ``counts`` is given.
    KeyError
        When ``on_missing="raise"`` and a word has no vector or rank.
    DegenerateSetError
        When a set is left too small, or the targets' ranks or associations are all equal.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["a", "b", "x1", "x2", "x3", "y1", "y2", "y3"]      # in "frequency order"
    >>> kv = to_keyed_vectors(words, np.array([[1, 0], [0, 1], [1, .1], [1, .3], [1, .5], [.1, 1], [.3, 1],
    ...                                        [.5, 1]], dtype=np.float32))
    >>> rep = frequency_diagnostics(kv, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["a"], ["b"])
    >>> rep.rank_biserial, round(rep.mann_whitney_p, 3), rep.flagged      # every x is more frequent
    (-1.0, 0.1, False)
    >>> rep.rank_table().loc["median"].tolist()
    [4.0, 7.0, 1.0, 2.0]
    """
    from scipy import stats

    alpha = check_probability("alpha", alpha)
    if source is not None and not isinstance(source, str):
        raise InvalidParameterError(f"source must be a short text saying where counts come from, not "
                                    f"{type(source).__name__}")
    X, Y, A, B = weat_check_sets(X, Y, A, B, case_fold=check_bool("case_fold", case_fold))
    ranks = _rank_lookup(embedding, counts)
    known = lookup.vocabulary(embedding)
    both = {w for w in ranks if w in known}
    sets, missing = {}, {}
    for key, words, size in (("X", X, MIN_TARGET_SIZE), ("Y", Y, MIN_TARGET_SIZE), ("A", A, MIN_ATTRIBUTE_SIZE),
                             ("B", B, MIN_ATTRIBUTE_SIZE)):
        ws = lookup.word_set(both, words, name=key, on_missing=on_missing, min_size=size, warn=False)
        sets[key] = ws.words
        if ws.missing:
            missing[key] = ws.missing
            lookup.warn_user(MissingWordsWarning(
                f"set {key!r}: {len(ws.missing)} of {len(words)} word(s) without a vector or a frequency rank "
                f"({'counts' if counts is not None else 'the embedding'}), dropped: {list(ws.missing)}"))
    vec = {k: lookup.set_matrix(embedding, w, k) for k, w in sets.items()}
    s_x, s_y = association(vec["X"], vec["A"], vec["B"]), association(vec["Y"], vec["A"], vec["B"])
    rank = {k: np.array([ranks[w] for w in sets[k]], dtype=np.int64) for k in sets}
    targets_rank = np.concatenate([rank["X"], rank["Y"]])
    targets_s = np.concatenate([s_x, s_y])
    if np.all(targets_rank == targets_rank[0]) or np.all(targets_s == targets_s[0]):
        raise DegenerateSetError("the targets' ranks or associations are all equal: no correlation")
    rho, p_rho = stats.spearmanr(targets_s, np.log(targets_rank))
    mw = stats.mannwhitneyu(rank["X"], rank["Y"], alternative="two-sided")
    u = float(mw.statistic)
    order = ("X", "Y", "A", "B")
    return FrequencyReport(
        sets=tuple(k for k in order for _ in sets[k]), word=tuple(w for k in order for w in sets[k]),
        rank=np.concatenate([rank[k] for k in order]),
        s=np.concatenate([s_x, s_y, np.full(len(sets["A"]) + len(sets["B"]), np.nan)]),
        spearman_rho=float(rho), spearman_p=float(p_rho), mann_whitney_u=u, mann_whitney_p=float(mw.pvalue),
        rank_biserial=rank_biserial(u, rank["X"].size, rank["Y"].size), alpha=alpha,
        source=(source or "counts") if counts is not None else EMBEDDING_ORDER, missing=missing)


def plot_frequency(report: FrequencyReport, *, title: str | None = None, names=None, ax=None):
    """Plot s(w, A, B) of each target word against its frequency rank (log scale).

    One colour per target set, with Spearman's ρ and the Mann-Whitney test of the two sets' ranks in the
    legend's title: a test whose target sets sit at different frequencies, with s following frequency, may
    measure frequency rather than meaning.

    Parameters
    ----------
    report : FrequencyReport
        The diagnostics (:func:`frequency_diagnostics`).
    title : str, optional
        The title of the axes; none by default.
    names : mapping of str to str, optional
        Display names of "X" and "Y" for the legend.
    ax : matplotlib.axes.Axes, optional
        The axes to draw on; by default a new figure of 7.5 x 3.8 inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on: ``ax.figure`` when ``ax`` is given.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["a", "b", "x1", "x2", "x3", "y1", "y2", "y3"]
    >>> kv = to_keyed_vectors(words, np.array([[1, 0], [0, 1], [1, .1], [1, .3], [1, .5], [.1, 1], [.3, 1],
    ...                                        [.5, 1]], dtype=np.float32))
    >>> rep = frequency_diagnostics(kv, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["a"], ["b"])
    >>> fig = plot_frequency(rep, names={"X": "flowers", "Y": "insects"})
    >>> fig.axes[0].get_ylabel(), fig.axes[0].get_xscale()
    ('s(w, A, B)', 'log')
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 3.8))
    sets = np.array(report.sets)
    for key, colour in (("X", "#1f77b4"), ("Y", "#ff7f0e")):
        k = sets == key
        ax.scatter(report.rank[k], report.s[k], s=18, color=colour, label=f"{(names or {}).get(key, key)} (median rank "
                   f"{np.median(report.rank[k]):,.0f})", zorder=3)
    ax.set_xscale("log")
    ax.axhline(0, color="black", lw=0.5)
    among = "word of the embedding" if report.source == EMBEDDING_ORDER else "of the words with counts"
    ax.set_xlabel(f"frequency rank (1 = most frequent {among}; log scale)")
    ax.set_ylabel("s(w, A, B)")
    ax.legend(title=f"Spearman ρ = {report.spearman_rho:.2f}; ranks X vs Y: p = {report.mann_whitney_p:.2g}",
              fontsize=8, title_fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title:
        ax.set_title(title)
    ax.figure.tight_layout()
    return ax.figure


def weat_frequency(embedding, measured, *, counts=None, source: str | None = None,
                   alpha: float = 0.05) -> FrequencyReport:
    """:func:`frequency_diagnostics` of a measured WEAT on the words it used (Valentini et al. 2022; van Loon
    et al. 2022): ``measured`` is a :class:`~wordbias.result.Result` (``wordbias.weat``) or a
    :class:`~wordbias.measures.association.weat.WeatResult`; the test is not run again."""
    from wordbias.measures.association.measurement import weat_result

    res = weat_result(measured)
    return frequency_diagnostics(embedding, res.X.words, res.Y.words, res.A.words, res.B.words, counts=counts,
                                 source=source, alpha=alpha, on_missing="drop")
