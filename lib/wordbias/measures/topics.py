"""Topic bias: the bias of a text through its topics (Kurita et al. 2019, §4 and Table 6).

NMF topics of a corpus (:func:`fit_topics`, with seeded restarts and their stability); a topic's bias is the
weighted sum of its top words' bias scores (:func:`topic_bias`), a text's the topic-weighted sum of those
(:func:`sample_bias`), and Spearman's ρ relates the texts' bias to another per-text quantity
(:func:`bias_correlation`). The word scores are the caller's (e.g. :mod:`wordbias.measures.mlm`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Topics:
    """An NMF topic model: ``components`` H [k, V] (word weights), ``doc_topic`` W [n, k], ``vocabulary`` [V]."""

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
    """NMF restarted from seeded random points (``init="random"``), one solution per seed, on one TF-IDF
    matrix (the same as :func:`fit_topics` builds).

    NMF has many local optima of nearly equal error: on GAP a change in the last bits of one product (another
    CPU) can move :func:`fit_topics` to another one, replacing words of a topic and changing every sample's
    topic weights. The restarts show which topics recur (:func:`topic_stability`) and give the topic-based
    scores as a distribution over solutions rather than one solution's digits."""
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
    """For each topic of ``reference``, the standard deviation of a per-topic value (``values[i]`` for the
    topics of ``others[i]``) over the solutions where the topic recurs (:func:`topic_stability`'s match);
    NaN where it recurs fewer than twice. How much, say, a topic's bias moves between NMF optima."""
    per_topic: list[list[float]] = [[] for _ in range(len(reference.components))]
    for other, vals in zip(others, values):
        for k, j in enumerate(_matches(reference, other, n, min_shared)):
            if j is not None:
                per_topic[k].append(float(np.asarray(vals)[j]))
    return np.array([np.std(v, ddof=1) if len(v) > 1 else np.nan for v in per_topic])


def topic_stability(reference: Topics, others: Sequence[Topics], *, n: int = 5, min_shared: int = 3) -> np.ndarray:
    """For each topic of ``reference``, the share of the solutions in ``others`` that have a topic sharing at
    least ``min_shared`` of its ``n`` top words (1.0: the topic recurs in every restart).

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
    """Table 6: topic id (1-based) → its top ``n`` words, comma-separated, heaviest first."""
    words = top_words(topics.components, topics.vocabulary, n)
    return pd.DataFrame({"top_words": [",".join(w) for w in words]},
                        index=pd.RangeIndex(1, len(words) + 1, name="topic"))


def topic_bias(components, vocabulary, word_scores: Mapping[str, float], *, n_words: int = 15,
               on_missing: str = "raise") -> pd.DataFrame:
    """§4: "the bias score for each topic as the sum of the log probability bias score for the top 15 most
    prevalent words of each topic weighted by their weights within the topic".

    bias_k = Σ_{w ∈ top_n(k)} H[k, w] · s(w), with H the raw NMF topic-word weights and s the caller's
    word scores (positive = male-leaning). A top word without a score is never counted as 0:
    ``on_missing="raise"`` raises ``KeyError`` listing every such word; ``on_missing="drop"`` leaves it out of
    the sum and reports it in the ``missing`` column. Returns one row per topic (1-based): ``bias``,
    ``n_scored``, ``weight_scored`` (Σ H of the scored words), ``missing`` (tuple of words).

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
    """§4: "a bias score for each sample ... as the sum of individual bias scores of topics present in the
    sample, weighted by the topic weights": W @ b, with W the NMF document-topic weights.

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
    """Spearman's ρ between sample bias and another per-sample quantity (§4: the GAP model's P(neither)) over
    a subset of samples."""

    rho: float
    p_value: float
    n: int
    subset: str


def bias_correlation(sample_scores, p_neither, mask=None, *, subset: str = "female") -> Correlation:
    """§4: Spearman's ρ (scipy, two-sided p) between the samples' (male) bias scores and the model's
    P(neither), over the rows where ``mask`` is true (the paper: the female-pronoun samples).

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
