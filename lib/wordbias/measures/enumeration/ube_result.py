"""What Unsupervised Bias Enumeration (Swinger et al. 2019) produces: :class:`UBEResult`, and Section 4's readings
of it: each group's illustrative names (:func:`illustrative_names`), the potential indirect biases of eq. (1)
(:func:`indirect_bias`), and the most central words that label a category (:func:`central_words`; the paper leaves
its categories unnamed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from wordbias.measures.enumeration.ube_names import Cleaning
from wordbias.result import Result, SetCoverage
from wordbias.stats import multiple

__all__ = ["UBEResult", "central_words", "illustrative_names", "indirect_bias"]


# --------------------------------------------------------------------------------------------------
# Section 4: illustrative names and potential indirect biases; category labels
# --------------------------------------------------------------------------------------------------

def illustrative_names(unit_vectors: np.ndarray, k: int = 5) -> np.ndarray:
    """Section 4's greedy heuristic for a group's illustrative names.

    The (j+1)-th name minimises the distance between the mean of the first j+1 unit vectors and the group
    mean X̄_i (the mean of all the rows). The first is the name closest to the mean.

    Parameters
    ----------
    unit_vectors : array-like of shape (N, d)
        The unit vectors of the group's names.
    k : int, default 5
        The number of names (at most N).

    Returns
    -------
    numpy.ndarray of int
        The row indices of the names chosen, in the order chosen.

    Examples
    --------
    >>> illustrative_names(np.array([[1.0, 0.0], [0.0, 1.0], [0.8, 0.6]]), k=2)
    array([2, 1])
    """
    X = np.asarray(unit_vectors, dtype=np.float64)
    centre = X.mean(axis=0)
    chosen: list[int] = []
    total = np.zeros_like(centre)
    available = np.ones(len(X), dtype=bool)
    for j in range(min(k, len(X))):
        cand = (total[None, :] + X) / (j + 1)
        dist = np.einsum("ij,ij->i", cand - centre, cand - centre)
        dist[~available] = np.inf
        best = int(np.argmin(dist))
        chosen.append(best)
        available[best] = False
        total += X[best]
    return np.array(chosen, dtype=np.int64)


def indirect_bias(Abar_sel: Mapping[tuple[int, int], np.ndarray], significant: np.ndarray) -> tuple[int, int]:
    """Eq. (1): count the potential indirect biases among the fourtuples of significant associations.

    Over all fourtuples (i < i', j < j', all four cells significant), a potential indirect bias is one with
    (Ā_ij − Ā_i'j)·(Ā_ij' − Ā_i'j') > 0.

    Parameters
    ----------
    Abar_sel : mapping of (int, int) to numpy.ndarray
        ``Abar_sel[(i, j)]`` is the mean unit vector of A_ij (needed for every significant cell).
    significant : numpy.ndarray of bool, shape (n, m)
        Which (group, category) cells are significant.

    Returns
    -------
    hits : int
        The potential indirect biases.
    total : int
        The fourtuples of significant cells.

    Examples
    --------
    Two groups, two categories, all four cells significant: one fourtuple, and it is a potential
    indirect bias (both categories' words differ between the groups in the same direction).

    >>> Abar_sel = {(0, 0): np.array([1.0, 0.0]), (1, 0): np.array([0.0, 1.0]),
    ...             (0, 1): np.array([1.0, 0.2]), (1, 1): np.array([0.1, 1.0])}
    >>> indirect_bias(Abar_sel, np.ones((2, 2), dtype=bool))
    (1, 1)
    """
    n, m = significant.shape
    hits = total = 0
    for i in range(n):
        for i2 in range(i + 1, n):
            both = np.flatnonzero(significant[i] & significant[i2])
            if len(both) < 2:
                continue
            D = np.stack([Abar_sel[(i, j)] - Abar_sel[(i2, j)] for j in both])
            G = D @ D.T
            iu = np.triu_indices(len(both), 1)
            hits += int(np.sum(G[iu] > 0))
            total += len(iu[0])
    return hits, total


def central_words(W: np.ndarray, category: np.ndarray, Abar: np.ndarray, k: int = 5) -> list[np.ndarray]:
    """For each category j, the row indices of its k words closest to the category mean 𝒜̄_j.

    Closest means the largest w̄·𝒜̄_j (i.e. cosine, since the rows of W are unit vectors), ties broken by row
    (frequency) order. The paper leaves its categories unnamed; their most central words say what each is
    about, as a cluster's medoid does.
    The scores are rounded to 6 decimals before sorting, so a 1e-7 difference in the vectors (another CPU's
    BLAS) leaves the labels alone unless two words tie to 6 decimals.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The unit vectors of the candidate words, in frequency order.
    category : numpy.ndarray of int, shape (M,)
        The category of each word.
    Abar : numpy.ndarray of shape (m, d)
        The category means 𝒜̄_j.
    k : int, default 5
        The words per category.

    Returns
    -------
    list of numpy.ndarray
        For each category, the row indices of its (at most) k most central words, most central first.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [0.8, 0.6]])
    >>> category = np.array([0, 0, 1, 0])
    >>> Abar = np.stack([W[category == j].mean(axis=0) for j in range(2)])
    >>> [c.tolist() for c in central_words(W, category, Abar, k=2)]
    [[3, 1], [2]]
    """
    score = np.round(np.einsum("wd,wd->w", W, Abar[category]), 6)
    out = []
    for j in range(len(Abar)):
        idx = np.flatnonzero(category == j)
        out.append(idx[np.lexsort((idx, -score[idx]))][:k])
    return out


# --------------------------------------------------------------------------------------------------
# the result of the whole algorithm
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class UBEResult:
    """Everything UBE produces (the result of :func:`wordbias.measures.enumeration.ube.run`).

    Groups are indexed 0..n-1 (in display order after :meth:`reorder`); categories 0..m-1 as K-means
    labelled them.

    Attributes
    ----------
    params : dict
        The parameters of the run (n, m, M, t, alpha, R, seed, ...).
    cleaning : Cleaning
        The cleaning of the names (:func:`wordbias.measures.enumeration.ube_names.clean_names`).
    names : list of str
        The cleaned names (tokens), the rows of X.
    name_group : numpy.ndarray of int
        The group of each cleaned name.
    words : list of str
        The candidate words 𝒜, in frequency order.
    word_category : numpy.ndarray of int
        The category of each candidate word.
    word_group : numpy.ndarray of int
        The Voronoi group of each candidate word (argmax_i w̄·X̄_i).
    Xbar : numpy.ndarray of shape (n, d)
        The group means.
    Abar : numpy.ndarray of shape (m, d)
        The category means.
    selected : list of list of numpy.ndarray
        ``selected[i][j]``: the indices into ``words`` of A_ij, best first.
    sigma : numpy.ndarray of shape (n, m)
        σ_ij (−inf for a cell without a test).
    null : numpy.ndarray of shape (R, n, m)
        The rotational null (float32).
    p : numpy.ndarray of shape (n, m)
        The p-values.
    significant : numpy.ndarray of bool, shape (n, m)
        The cells significant at the false discovery rate α.
    critical_p : float
        The critical p of Benjamini-Hochberg (0 when nothing is significant).
    Asel : dict, default {}
        (i, j) -> the mean unit vector of A_ij.
    central : list, default []
        ``central[j]``: the indices into ``words`` of category j's most central words, most central first.
    """

    params: dict
    cleaning: Cleaning
    names: list[str]                 # cleaned names (tokens), rows of X
    name_group: np.ndarray           # group of each cleaned name
    words: list[str]                 # candidate words 𝒜, frequency order
    word_category: np.ndarray        # category of each candidate word
    word_group: np.ndarray           # Voronoi group of each candidate word (argmax_i w̄·X̄_i)
    Xbar: np.ndarray                 # n×d group means
    Abar: np.ndarray                 # m×d category means
    selected: list                   # selected[i][j]: indices into words, best first
    sigma: np.ndarray                # n×m
    null: np.ndarray                 # R×n×m (float32)
    p: np.ndarray                    # n×m
    significant: np.ndarray          # n×m bool
    critical_p: float
    Asel: dict = field(repr=False, default_factory=dict)   # (i, j) -> mean unit vector of A_ij
    central: list = field(repr=False, default_factory=list)  # central[j]: indices into words, most central first

    @property
    def n(self) -> int:
        return len(self.Xbar)

    @property
    def m(self) -> int:
        return len(self.Abar)

    def groups(self) -> list[list[str]]:
        """The names of each group, in input (frequency) order.

        Returns
        -------
        list of list of str
            One list of names per group.
        """
        return [[w for w, g_ in zip(self.names, self.name_group) if g_ == i] for i in range(self.n)]

    def selected_words(self, i: int, j: int) -> list[str]:
        """The words A_ij selected for group ``i`` and category ``j``, best first.

        Parameters
        ----------
        i : int
            The group.
        j : int
            The category.

        Returns
        -------
        list of str
            The words (empty when the Voronoi set is empty).
        """
        return [self.words[k] for k in self.selected[i][j]]

    def category_order(self) -> list[int]:
        """The categories in output order (Section 3.4).

        Categories with a significant cell come first, by the total σ over their significant cells; then
        those with none.

        Returns
        -------
        list of int
            The categories, in order.
        """
        sig_total = np.where(self.significant, self.sigma, 0.0).sum(axis=0)
        n_sig = self.significant.sum(axis=0)
        return sorted(range(self.m), key=lambda j: (n_sig[j] == 0, -sig_total[j], j))

    def n_significant(self) -> int:
        """The number of significant (group, category) cells.

        Returns
        -------
        int
            The count.
        """
        return int(self.significant.sum())

    def simes_p(self) -> float:
        """Simes' global p over the testable cells: the smallest Benjamini-Hochberg adjusted rotational-null p
        (NaN when no cell is testable). It does not depend on the order of the groups.

        Returns
        -------
        float
            The global p.
        """
        finite = np.isfinite(self.sigma)
        return float(multiple.benjamini_hochberg(self.p[finite]).min()) if finite.any() else math.nan

    def to_result(self, *, test: str = "", title: str = "UBE: groups x word categories (rotational null)") -> Result:
        """The run as the one :class:`~wordbias.result.Result` every measure returns.

        The statistic is the number of significant (group, category) cells (``"significant cells"``); UBE has no
        single effect size (NaN, ``effect_size_name`` None) and no interval; p is Simes' global p over the testable
        cells (:meth:`simes_p`) against the rotational null (Swinger et al. 2019), one-sided ``"greater"``.
        The names are the set ``"N"`` and the candidate words the set ``"V"``; the run itself is ``result``.

        Parameters
        ----------
        test : str, default ""
            The test's id, e.g. ``"UBE:first_names"``.
        title : str, default "UBE: groups x word categories (rotational null)"
            The test's title.

        Returns
        -------
        Result
            The result.
        """
        n_testable = int(np.isfinite(self.sigma).sum())
        n_significant = self.n_significant()
        p = self.simes_p()
        sets = (SetCoverage("N", "names", tuple(self.names), tuple(self.names)),
                SetCoverage("V", "candidate words", tuple(self.words), tuple(self.words)))
        return Result(measure="ube", title=title, statistic_name="significant cells",
                      statistic=float(n_significant), effect_size_name=None, effect_size=math.nan,
                      ci_low=math.nan, ci_high=math.nan, ci_level=math.nan, ci_method="none", p_value=p,
                      alternative="greater", p_method=f"rotational null, Simes over {n_testable} cells",
                      p_two_sided=math.nan, n_permutations=self.params["R"], n_resamples=0,
                      seed=self.params.get("seed"), sets=sets, result=self, test=test,
                      notes=(f"no effect size; {n_significant} of {n_testable} testable cells significant "
                             f"(Benjamini-Hochberg, alpha {self.params['alpha']})",))

    def reorder(self, order: Sequence[int]) -> UBEResult:
        """The same result with the groups permuted.

        Parameters
        ----------
        order : sequence of int
            A permutation of 0..n-1: new group k is old group ``order[k]``.

        Returns
        -------
        UBEResult
            The reordered result.

        Raises
        ------
        ValueError
            If ``order`` is not a permutation of 0..n-1.
        """
        order = list(order)
        if sorted(order) != list(range(self.n)):
            raise ValueError(f"order must be a permutation of 0..{self.n - 1}")
        inv = np.empty(self.n, dtype=np.int64)
        inv[order] = np.arange(self.n)
        return replace(
            self, name_group=inv[self.name_group], word_group=inv[self.word_group], Xbar=self.Xbar[order],
            selected=[self.selected[o] for o in order], sigma=self.sigma[order], null=self.null[:, order],
            p=self.p[order], significant=self.significant[order],
            Asel={(int(inv[i]), j): v for (i, j), v in self.Asel.items()},
        )

    def central_words(self, j: int, k: int = 3) -> list[str]:
        """The k words of category j closest to its mean: a label for what the category is about.

        Closest means the largest w̄·𝒜̄_j, ties by frequency (the paper does not name its categories;
        :func:`wordbias.measures.enumeration.ube_result.central_words`).

        Parameters
        ----------
        j : int
            The category.
        k : int, default 3
            The number of words.

        Returns
        -------
        list of str
            The words, most central first.

        Raises
        ------
        ValueError
            If the result holds no central words.
        """
        if not self.central:
            raise ValueError("this result has no central words (made before they were recorded); re-run UBE")
        return [self.words[w] for w in self.central[j][:k]]

    def category_label(self, j: int, k: int = 3) -> str:
        """``"A{j}: w1, w2, w3"``: the category's K-means label and its k most central words.

        Parameters
        ----------
        j : int
            The category.
        k : int, default 3
            The number of central words; 0 gives the bare ``"A{j}"``.

        Returns
        -------
        str
            The label.

        Examples
        --------
        >>> from types import SimpleNamespace
        >>> fake = SimpleNamespace(words=["ceo", "firm", "company"], central=[[2, 1, 0]],
        ...                        central_words=lambda j, k: UBEResult.central_words(fake, j, k))
        >>> UBEResult.category_label(fake, 0, 2)
        'A0: company, firm'
        """
        return f"A{j}: {', '.join(self.central_words(j, k))}" if k else f"A{j}"

    def tests(self):
        """All n·m (group, category) cells as a tidy DataFrame.

        Each row gives the category's most central words, the words A_ij, the size of the Voronoi set,
        whether the cell has a test (≥ t words), σ, p and significance.
        A cell without a test has σ and p missing (NaN), not the −inf and 1 the algorithm uses internally.

        Returns
        -------
        pandas.DataFrame
            One row per cell, by category rank then group: ``category``, ``category_rank``,
            ``central_words``, ``group``, ``words``, ``n_voronoi``, ``tested``, ``sigma``, ``p`` and
            ``significant``.
        """
        import pandas as pd

        rank = {j: r for r, j in enumerate(self.category_order())}
        rows = []
        for j in range(self.m):
            central = ", ".join(self.central_words(j)) if self.central else ""
            for i in range(self.n):
                tested = bool(np.isfinite(self.sigma[i, j]))
                rows.append(dict(category=j, category_rank=rank[j] + 1, central_words=central, group=i,
                                 words=", ".join(self.selected_words(i, j)),
                                 n_voronoi=int(np.sum((self.word_group == i) & (self.word_category == j))),
                                 tested=tested, sigma=self.sigma[i, j] if tested else np.nan,
                                 p=self.p[i, j] if tested else np.nan,
                                 significant=bool(self.significant[i, j])))
        return pd.DataFrame(rows).sort_values(["category_rank", "group"], kind="stable").reset_index(drop=True)

    def grid(self, *, top: int = 12, labels: Sequence[str] | None = None, censor=None, central: int = 3):
        """The paper's Table 5 layout: categories by groups, a cell holding A_ij when significant.

        Rows are the ``top`` categories with a significant cell, in output order, labelled by
        :meth:`category_label`; columns are the groups; a cell holds A_ij when significant and is empty
        otherwise.

        Parameters
        ----------
        top : int, default 12
            The number of categories shown.
        labels : sequence of str, optional
            The column labels of the groups (default ``G1``, ``G2``, ...).
        censor : callable, optional
            Maps a cell's or label's text to its displayed form (e.g. :func:`wordbias.datasets.censor.censor`).
        central : int, default 3
            The most central words in each row label; 0 gives the bare ``A{j}``.

        Returns
        -------
        pandas.DataFrame
            The table.
        """
        import pandas as pd

        labels = list(labels) if labels is not None else [f"G{i + 1}" for i in range(self.n)]
        cats = [j for j in self.category_order() if self.significant[:, j].any()][:top]
        body = []
        for j in cats:
            row = []
            for i in range(self.n):
                text = ", ".join(self.selected_words(i, j)) if self.significant[i, j] else ""
                row.append(censor(text) if (censor and text) else text)
            body.append(row)
        names = [self.category_label(j, central if self.central else 0) for j in cats]
        names = [censor(x) for x in names] if censor else names
        return pd.DataFrame(body, columns=labels, index=pd.Index(names, name="category: most central words"
                                                                 if central and self.central else "category"))

    def indirect_bias(self) -> tuple[int, int]:
        """Eq. (1) over all significant fourtuples (:func:`wordbias.measures.enumeration.ube_result.indirect_bias`).

        Returns
        -------
        hits : int
            The potential indirect biases.
        total : int
            The significant fourtuples.
        """
        return indirect_bias(self.Asel, self.significant)
