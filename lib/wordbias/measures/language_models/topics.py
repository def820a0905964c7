"""Topic bias: the bias of a text through its topics (Kurita et al. 2019, §4 and Table 6).

NMF topics of a corpus (:func:`fit_topics`, with seeded restarts and their stability); a topic's bias is the
weighted sum of its top words' bias scores (:func:`topic_bias`), a text's the topic-weighted sum of those
(:func:`sample_bias`), and Spearman's ρ relates the texts' bias to another per-text quantity
(:func:`bias_correlation`). The word scores are the caller's (e.g. :mod:`wordbias.measures.language_models.mlm`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Topics:
    """An NMF topic model (the result of :func:`fit_topics`).

    Attributes
    ----------
    vocabulary : numpy.ndarray of str, shape (V,)
        The words of the TF-IDF matrix.
    components : numpy.ndarray of shape (k, V)
        H, the topic-word weights.
    doc_topic : numpy.ndarray of shape (n, k)
        W, the document-topic weights.
    reconstruction_err : float
        NMF's reconstruction error.
    n_iter : int
        The iterations NMF ran.
    """

    vocabulary: np.ndarray
    components: np.ndarray
    doc_topic: np.ndarray
    reconstruction_err: float
    n_iter: int


def fit_topics(texts: Sequence[str], n_topics: int = 20, *, seed: int = 0, max_features: int = 1000,
               max_df: float = 0.95, min_df: int = 2, max_iter: int = 1000, init: str = "nndsvd") -> Topics:
    """§4: "20 major topics from the dataset using non-negative matrix factorization (Lee and Seung 2001)".

    The paper gives no preprocessing; ours is scikit-learn's topic-extraction example: TF-IDF of the
    texts (lower-cased tokens of ≥ 2 word characters, so numbers such as "2011" stay, as in Table 6;
    English stop words removed; words in more than 95% or fewer than 2 texts dropped; the 1,000 most
    frequent kept), then NMF with Frobenius loss, coordinate descent, ``init="nndsvd"`` (deterministic
    SVD-based start) and ``random_state=seed``; ``init="random"`` starts from a seeded random point
    (the restarts of :func:`refit_topics`).

    Parameters
    ----------
    texts : sequence of str
        The corpus, one text per document.
    n_topics : int, default 20
        The number of topics k.
    seed : int, default 0
        NMF's ``random_state``.
    max_features : int, default 1000
        The most frequent words kept.
    max_df : float, default 0.95
        Words in more than this share of the texts are dropped.
    min_df : int, default 2
        Words in fewer texts are dropped.
    max_iter : int, default 1000
        NMF's iteration limit.
    init : str, default "nndsvd"
        NMF's start (scikit-learn's ``init``), e.g. ``"nndsvd"`` or ``"random"``.

    Returns
    -------
    Topics
        The vocabulary, topic-word and document-topic weights.

    See Also
    --------
    refit_topics : Restarts from seeded random points.

    Examples
    --------
    >>> texts = ["the team scored a goal", "the team won the match", "a late goal won the match",
    ...          "his wife and son", "her son and daughter", "a wife and a daughter",
    ...          "his son scored a late goal", "the team and his wife"]
    >>> topics = fit_topics(texts, n_topics=2, min_df=1)
    >>> top_words(topics.components, topics.vocabulary, n=3), topics.doc_topic.shape
    ([['wife', 'daughter', 'son'], ['goal', 'team', 'match']], (8, 2))
    """
    vocabulary, tfidf = _tfidf(texts, max_features=max_features, max_df=max_df, min_df=min_df)
    return _nmf(tfidf, vocabulary, n_topics, seed=seed, max_iter=max_iter, init=init)


def _tfidf(texts: Sequence[str], *, max_features: int, max_df: float, min_df: int):
    """The TF-IDF matrix of :func:`fit_topics` and its vocabulary."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(stop_words="english", max_df=max_df, min_df=min_df, max_features=max_features)
    tfidf = vec.fit_transform(list(texts))
    return vec.get_feature_names_out(), tfidf


def _nmf(tfidf, vocabulary, n_topics: int, *, seed: int, max_iter: int, init: str) -> Topics:
    """NMF of a TF-IDF matrix (:func:`fit_topics`)."""
    from sklearn.decomposition import NMF

    nmf = NMF(n_components=n_topics, init=init, random_state=seed, max_iter=max_iter)
    W = nmf.fit_transform(tfidf)
    return Topics(vocabulary=vocabulary, components=nmf.components_, doc_topic=W,
                  reconstruction_err=float(nmf.reconstruction_err_), n_iter=int(nmf.n_iter_))


def refit_topics(texts: Sequence[str], n_topics: int = 20, *, seeds: Sequence[int], max_features: int = 1000,
                 max_df: float = 0.95, min_df: int = 2, max_iter: int = 1000) -> list[Topics]:
    """NMF restarted from seeded random points, one solution per seed.

    The restarts use ``init="random"`` on one TF-IDF matrix (the same as :func:`fit_topics` builds).

    NMF has many local optima of nearly equal error: on GAP a change in the last bits of one product (another
    CPU) can move :func:`fit_topics` to another one, replacing words of a topic and changing every sample's
    topic weights. The restarts show which topics recur (:func:`topic_stability`) and give the topic-based
    scores as a distribution over solutions rather than one solution's digits.

    Parameters
    ----------
    texts, n_topics, max_features, max_df, min_df, max_iter
        As :func:`fit_topics` takes them.
    seeds : sequence of int
        One restart per seed.

    Returns
    -------
    list of Topics
        One solution per seed, in the order of ``seeds``.

    Examples
    --------
    >>> texts = ["the team scored a goal", "the team won the match", "a late goal won the match",
    ...          "his wife and son", "her son and daughter", "a wife and a daughter",
    ...          "his son scored a late goal", "the team and his wife"]
    >>> restarts = refit_topics(texts, n_topics=2, seeds=[0, 1], min_df=1)
    >>> [top_words(r.components, r.vocabulary, n=3)[0] for r in restarts]   # the topics come in any order
    [['goal', 'team', 'match'], ['wife', 'daughter', 'son']]
    >>> topics = fit_topics(texts, n_topics=2, min_df=1)
    >>> topic_stability(topics, restarts, n=3, min_shared=2).tolist()       # both recur in both restarts
    [1.0, 1.0]
    """
    vocabulary, tfidf = _tfidf(texts, max_features=max_features, max_df=max_df, min_df=min_df)
    return [_nmf(tfidf, vocabulary, n_topics, seed=int(s), max_iter=max_iter, init="random") for s in seeds]


def _matches(reference: Topics, other: Topics, n: int, min_shared: int) -> list[int | None]:
    """For each topic of ``reference``, the first topic of ``other`` sharing ≥ ``min_shared`` of its ``n``
    top words, or None."""
    theirs = [set(w) for w in top_words(other.components, other.vocabulary, n)]
    return [next((j for j, t in enumerate(theirs) if len(set(r) & t) >= min_shared), None)
            for r in top_words(reference.components, reference.vocabulary, n)]


def matched_spread(reference: Topics, others: Sequence[Topics], values: Sequence[np.ndarray], *, n: int = 5,
                   min_shared: int = 3) -> np.ndarray:
    """For each topic of ``reference``, the spread of a per-topic value over the solutions where it recurs.

    The spread is the standard deviation of the value (``values[i]`` for the topics of ``others[i]``) over
    the solutions where the topic recurs (:func:`topic_stability`'s match); NaN where it recurs fewer than twice. How much, say, a topic's bias moves between NMF optima.

    Parameters
    ----------
    reference : Topics
        The solution whose topics are matched.
    others : sequence of Topics
        The other solutions (e.g. :func:`refit_topics`).
    values : sequence of array-like
        ``values[i]``: one value per topic of ``others[i]``.
    n : int, default 5
        The top words compared.
    min_shared : int, default 3
        A topic matches when it shares at least this many of them.

    Returns
    -------
    numpy.ndarray of shape (k,)
        The sample standard deviation (ddof=1) per topic of ``reference``; NaN where it recurs fewer than
        twice.

    Examples
    --------
    >>> vocab = np.array(["goal", "team", "wife", "son"])
    >>> ref = Topics(vocab, np.array([[3.0, 2, 0, 0], [0, 0, 3, 2]]), np.ones((1, 2)), 0.0, 1)
    >>> other = Topics(vocab, np.array([[2.0, 3, 0, 0], [0, 1, 0, 3]]), np.ones((1, 2)), 0.0, 1)
    >>> values = [np.array([1.0, -1.0]), np.array([1.4, 0.3])]             # e.g. each topic's bias
    >>> matched_spread(ref, [ref, other], values, n=2, min_shared=2).round(4)  # topic 2 recurs once
    array([0.2828,    nan])
    """
    per_topic: list[list[float]] = [[] for _ in range(len(reference.components))]
    for other, vals in zip(others, values):
        for k, j in enumerate(_matches(reference, other, n, min_shared)):
            if j is not None:
                per_topic[k].append(float(np.asarray(vals)[j]))
    return np.array([np.std(v, ddof=1) if len(v) > 1 else np.nan for v in per_topic])


def topic_stability(reference: Topics, others: Sequence[Topics], *, n: int = 5, min_shared: int = 3) -> np.ndarray:
    """For each topic of ``reference``, the share of the solutions in ``others`` in which it recurs.

    A topic recurs in a solution that has a topic sharing at least ``min_shared`` of its ``n`` top words
    (1.0: the topic recurs in every restart).

    Parameters
    ----------
    reference : Topics
        The solution whose topics are looked for.
    others : sequence of Topics
        The other solutions (e.g. :func:`refit_topics`).
    n : int, default 5
        The top words compared.
    min_shared : int, default 3
        A topic recurs when a topic of the other solution shares at least this many of them.

    Returns
    -------
    numpy.ndarray of shape (k,)
        The share per topic of ``reference``; NaN for every topic when ``others`` is empty.

    Examples
    --------
    >>> vocab = np.array(["goal", "team", "wife", "son"])
    >>> ref = Topics(vocab, np.array([[3.0, 2, 0, 0], [0, 0, 3, 2]]), np.ones((1, 2)), 0.0, 1)
    >>> other = Topics(vocab, np.array([[2.0, 3, 0, 0], [0, 1, 0, 3]]), np.ones((1, 2)), 0.0, 1)
    >>> topic_stability(ref, [ref, other], n=2, min_shared=2).tolist()  # topic 2 lost "wife" in `other`
    [1.0, 0.5]
    """
    if not others:
        return np.full(len(reference.components), np.nan)
    found = np.zeros(len(reference.components))
    for other in others:
        found += [j is not None for j in _matches(reference, other, n, min_shared)]
    return found / len(others)


def top_words(components, vocabulary, n: int = 5) -> list[list[str]]:
    """The ``n`` highest-weight words of each topic, heaviest first (ties: earlier vocabulary index).

    Parameters
    ----------
    components : array-like of shape (k, V)
        The topic-word weights H.
    vocabulary : array-like of str, shape (V,)
        The words.
    n : int, default 5
        The words per topic.

    Returns
    -------
    list of list of str
        The top words of each topic.

    Examples
    --------
    >>> top_words([[0.5, 0.3, 0.0, 0.2], [0.0, 0.1, 0.9, 0.4]], ["goal", "team", "wife", "son"], n=2)
    [['goal', 'team'], ['wife', 'son']]
    """
    H = np.asarray(components, dtype=np.float64)
    order = np.argsort(-H, axis=1, kind="stable")[:, :n]
    vocab = np.asarray(vocabulary, dtype=object)
    return [vocab[row].tolist() for row in order]


def topics_table(topics: Topics, n: int = 5) -> pd.DataFrame:
    """Table 6: topic id (1-based) → its top ``n`` words, comma-separated, heaviest first.

    Parameters
    ----------
    topics : Topics
        The topic model.
    n : int, default 5
        The words per topic.

    Returns
    -------
    pandas.DataFrame
        One row per topic (index ``topic``, from 1), column ``top_words``.

    Examples
    --------
    >>> vocab = np.array(["goal", "team", "wife", "son"])
    >>> topics = Topics(vocab, np.array([[3.0, 2, 0, 1], [0, 1, 3, 2]]), np.ones((1, 2)), 0.0, 1)
    >>> table = topics_table(topics, n=2)
    >>> table.index.name, table["top_words"].to_dict()
    ('topic', {1: 'goal,team', 2: 'wife,son'})
    """
    words = top_words(topics.components, topics.vocabulary, n)
    return pd.DataFrame({"top_words": [",".join(w) for w in words]},
                        index=pd.RangeIndex(1, len(words) + 1, name="topic"))


def topic_bias(components, vocabulary, word_scores: Mapping[str, float], *, n_words: int = 15,
               on_missing: str = "raise") -> pd.DataFrame:
    """§4: the bias score of each topic, the weighted sum of its top words' bias scores.

    The paper: "the bias score for each topic as the sum of the log probability bias score for the top 15
    most prevalent words of each topic weighted by their weights within the topic".

    bias_k = Σ_{w ∈ top_n(k)} H[k, w] · s(w), with H the raw NMF topic-word weights and s the caller's
    word scores (positive = male-leaning). A top word without a score is never counted as 0:
    ``on_missing="raise"`` raises ``KeyError`` listing every such word; ``on_missing="drop"`` leaves it out of
    the sum and reports it in the ``missing`` column.

    Parameters
    ----------
    components : array-like of shape (k, V)
        The raw NMF topic-word weights H.
    vocabulary : array-like of str, shape (V,)
        The words.
    word_scores : mapping of str to float
        The bias score of each word (positive = male-leaning).
    n_words : int, default 15
        The top words of each topic summed.
    on_missing : {"raise", "drop"}, default "raise"
        What to do with a top word that has no score.

    Returns
    -------
    pandas.DataFrame
        One row per topic (1-based): ``bias``, ``n_scored``, ``weight_scored`` (Σ H of the scored words),
        ``missing`` (tuple of words).

    Raises
    ------
    KeyError
        With ``on_missing="raise"``, listing every top word without a score.
    ValueError
        If ``on_missing`` is neither ``"raise"`` nor ``"drop"``.

    Examples
    --------
    >>> H = [[0.5, 0.3, 0.0, 0.2], [0.0, 0.1, 0.9, 0.4]]
    >>> scores = {"goal": 1.0, "team": 2.0, "wife": -1.0}
    >>> tb = topic_bias(H, ["goal", "team", "wife", "son"], scores, n_words=2, on_missing="drop")
    >>> tb["bias"].round(3).tolist(), tb["missing"].tolist()  # 0.5·1 + 0.3·2; -0.9 (son has no score)
    ([1.1, -0.9], [(), ('son',)])
    """
    if on_missing not in ("raise", "drop"):
        raise ValueError(f"on_missing must be 'raise' or 'drop', not {on_missing!r}")
    H = np.asarray(components, dtype=np.float64)
    vocab = np.asarray(vocabulary, dtype=object)
    order = np.argsort(-H, axis=1, kind="stable")[:, :n_words]
    words = vocab[order]  # [k, n_words]
    weights = np.take_along_axis(H, order, axis=1)
    s = np.array([[word_scores.get(w, np.nan) for w in row] for row in words], dtype=np.float64)
    absent = np.isnan(s)
    if absent.any() and on_missing == "raise":
        lost = sorted(set(words[absent].tolist()))
        raise KeyError(f"{len(lost)} top topic words have no bias score: {lost}")
    used = ~absent
    bias = np.where(used, weights * np.nan_to_num(s), 0.0).sum(axis=1)
    return pd.DataFrame({"bias": bias, "n_scored": used.sum(axis=1), "weight_scored": (weights * used).sum(axis=1),
                         "missing": [tuple(row[m].tolist()) for row, m in zip(words, absent)]},
                        index=pd.RangeIndex(1, len(H) + 1, name="topic"))


def sample_bias(doc_topic, topic_biases) -> np.ndarray:
    """§4: the bias score of each sample, the topic-weighted sum of the topics' bias scores.

    The paper: "a bias score for each sample ... as the sum of individual bias scores of topics present in
    the sample, weighted by the topic weights": W @ b, with W the NMF document-topic weights.

    Parameters
    ----------
    doc_topic : array-like of shape (n, k)
        The document-topic weights W.
    topic_biases : array-like of shape (k,)
        The bias of each topic (:func:`topic_bias`).

    Returns
    -------
    numpy.ndarray of shape (n,)
        The bias of each sample.

    Raises
    ------
    ValueError
        If ``doc_topic`` is not 2-D or does not have one column per topic bias.

    Examples
    --------
    >>> sample_bias([[1.0, 0.0], [0.5, 2.0]], [1.1, -0.7]).round(3).tolist()  # 1.1; 0.5·1.1 − 2·0.7
    [1.1, -0.85]
    """
    W = np.asarray(doc_topic, dtype=np.float64)
    b = np.asarray(topic_biases, dtype=np.float64)
    if W.ndim != 2 or W.shape[1] != b.shape[0]:
        raise ValueError(f"doc_topic {W.shape} does not match {b.shape[0]} topic biases")
    return W @ b


@dataclass(frozen=True)
class Correlation:
    """Spearman's ρ between sample bias and another per-sample quantity over a subset of samples.

    In §4 the other quantity is the GAP model's P(neither).

    Attributes
    ----------
    rho : float
        Spearman's ρ.
    p_value : float
        Its two-sided p-value (scipy).
    n : int
        The samples correlated.
    subset : str
        The name of the subset.
    """

    rho: float
    p_value: float
    n: int
    subset: str


def bias_correlation(sample_scores, p_neither, mask=None, *, subset: str = "female") -> Correlation:
    """§4: Spearman's ρ between the samples' bias scores and the model's P(neither).

    Spearman's ρ (scipy, two-sided p) between the samples' (male) bias scores and the model's P(neither),
    over the rows where ``mask`` is true (the paper: the female-pronoun samples).

    Parameters
    ----------
    sample_scores : array-like of float
        The samples' bias scores (:func:`sample_bias`).
    p_neither : array-like of float
        The model's P(neither) per sample, of the same shape.
    mask : array-like of bool, optional
        The samples to correlate; None (default) for all.
    subset : str, default "female"
        The name of the subset, kept in the result.

    Returns
    -------
    Correlation
        ρ, its p-value, the number of samples and the subset's name.

    Raises
    ------
    ValueError
        If ``sample_scores`` and ``p_neither`` differ in shape.

    Examples
    --------
    >>> r = bias_correlation([0.1, 0.4, 0.2, 0.9], [0.05, 0.2, 0.3, 0.4], [True, True, True, False])
    >>> r.rho, r.n, r.subset
    (0.5, 3, 'female')
    """
    from scipy import stats as sps

    x = np.asarray(sample_scores, dtype=np.float64)
    y = np.asarray(p_neither, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("one P(neither) per sample score is needed")
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        x, y = x[mask], y[mask]
    r = sps.spearmanr(x, y)
    return Correlation(rho=float(r.statistic), p_value=float(r.pvalue), n=int(x.size), subset=subset)
