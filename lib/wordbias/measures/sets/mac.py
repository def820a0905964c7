"""MAC, the mean average cosine distance of target words to attribute sets (Manzini et al. 2019).

Manzini, T., Lim, Y. C., Tsvetkov, Y. & Black, A. W. (2019). Black is to Criminal as Caucasian is to Police:
Detecting and Removing Multiclass Bias in Word Embeddings. *Proceedings of NAACL-HLT 2019*, 615-621,
https://doi.org/10.18653/v1/N19-1062, Section 5 ("Mean Average Cosine similarity", MAC).

For target words T (e.g. words of several religions) and attribute sets A_1..A_m (e.g. stereotypes of each),
S(t, A_j) = (1/∣A_j∣) Σ_{a∈A_j} (1 − cos(t, a)) is the average cosine *distance* of t to the set A_j, and

    MAC(T, A) = (1 / (∣T∣·m)) Σ_{t∈T} Σ_j S(t, A_j)

(:func:`mac_statistic`): each target word and each attribute set weighs the same. Values near 1 mean the targets
are about orthogonal to the attributes; the paper reads a MAC that rises after debiasing as less bias.
:func:`mac` measures it once on an embedding's words with a bootstrap interval over the words of every set.

No permutation test: MAC is a level, not a contrast between sets, and "no bias" implies no exchangeability of
words between sets, nor a known null value (1, orthogonality, is not it: most cosines in a trained embedding are
positive). Manzini et al. compare MAC before and after debiasing with a paired t-test over the target words,
a comparison of two embeddings rather than a test of one. For a test of a difference between two target sets,
use :func:`wordbias.measures.sets.semaxis.semaxis` or WEAT.

Reconciling with WEFE 1.0.1 (``wefe.metrics.MAC``): the same statistic (``scipy.spatial.distance.cosine`` is
1 − cos; every target word of every target set, every attribute set weighted equally).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from wordbias.core.errors import InvalidParameterError
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words
from wordbias.stats.resampling import index_counts

__all__ = ["DEFAULT_RESAMPLING", "mac_statistic", "mac"]

#: MAC's resampling options when the call gives none (it has no test: ``n_permutations`` is not used)
DEFAULT_RESAMPLING = Resampling()


def _unit(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=-1, keepdims=True)


def _sets(kind: str, value) -> list:
    if isinstance(value, np.ndarray) and value.ndim == 2:
        return [value]
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not len(value):
        raise InvalidParameterError(f"{kind} must be a non-empty list of sets of word vectors (arrays of rows)")
    return list(value)


def mac_statistic(targets, attributes) -> float:
    """MAC (Manzini et al. 2019, Section 5): the mean over target words and attribute sets of the average cosine
    distance 1 − cos(t, a) of the target word to the set's words.

    Scaling any vector changes nothing (cosines); the order of the target words, of the sets, and how the target
    words are grouped into sets change nothing either (each target word weighs the same).

    Parameters
    ----------
    targets : sequence of array-like of shape (n_i, d), or one such array
        The target sets' vectors, one row per word.
    attributes : sequence of array-like of shape (m_j, d), or one such array
        The attribute sets' vectors, one row per word.

    Returns
    -------
    float
        MAC, in [0, 2]; 1 when every target word is orthogonal to every attribute word.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, or the sets differ in dimension.
    DegenerateSetError
        If a set is empty or holds a zero vector.

    Examples
    --------
    t = (1, 0): distances 0 and 1 to A_1 = {(1, 0), (0, 1)} (mean 0.5), and 2 to A_2 = {(−1, 0)}:

    >>> mac_statistic([[[1.0, 0.0]]], [[[1.0, 0.0], [0.0, 1.0]], [[-1.0, 0.0]]])
    1.25
    """
    T = _sets("targets", targets)
    A = _sets("attributes", attributes)
    sets = {**{f"T{i + 1}": t for i, t in enumerate(T)}, **{f"A{j + 1}": a for j, a in enumerate(A)}}
    m = _sm.vector_sets(sets)
    Tall = _unit(np.vstack([m[f"T{i + 1}"] for i in range(len(T))]))
    s = np.mean([1.0 - (Tall @ _unit(m[f"A{j + 1}"]).T).mean(axis=1) for j in range(len(A))], axis=0)
    return float(s.mean())


def mac(embedding, targets: Sequence[Sequence[str]], attributes: Sequence[Sequence[str]], *,
        names: Mapping[str, str] | None = None, title: str | None = None, test: str = "",
        resampling: Resampling | None = None, words: Words | None = None, warn: bool = True):
    """MAC (Manzini et al. 2019) measured once on an embedding's words, with a bootstrap interval; no test.

    The statistic is :func:`mac_statistic` on the words found. The interval is a bootstrap over the words of
    every target and attribute set, each resampled separately (BCa by default). There is no p (see the module
    docstring: MAC is a level with no null value); ``p_value`` is NaN and the notes say why.

    Parameters
    ----------
    embedding, names, title, test, words, warn
        As every set measure takes them (:mod:`~wordbias.measures.sets.set_measures`).
    targets : sequence of sequence of str
        The target lists (their sets are ``"T1"``, ``"T2"``, ...).
    attributes : sequence of sequence of str
        The attribute lists (``"A1"``, ``"A2"``, ...).
    resampling : Resampling, optional
        The bootstrap (:class:`~wordbias.options.Resampling`; ``n_permutations`` is not used: there is no test);
        None: :data:`DEFAULT_RESAMPLING`.

    Returns
    -------
    wordbias.result.Result
        MAC (``effect_size``) with its interval and the sets' coverage; no p.

    Raises
    ------
    InvalidParameterError, DegenerateSetError, KeyError
        As every set measure (:mod:`~wordbias.measures.sets.set_measures`); InvalidParameterError also if
        ``targets`` or ``attributes`` is not a non-empty list of lists.

    Examples
    --------
    >>> emb = {"he": [1, 0.1], "him": [0.9, 0.2], "she": [0.1, 1], "her": [0.2, 0.9],
    ...        "boss": [1, 0.3], "chief": [0.8, 0.3], "home": [0.2, 1], "care": [0.3, 0.8]}
    >>> r = mac(emb, [["he", "him"], ["she", "her"]], [["boss", "chief"], ["home", "care"]],
    ...         resampling=Resampling(n_resamples=300), warn=False)
    >>> round(r.effect_size, 4), r.p_method, r.coverage
    (0.2856, 'none', 'T1 2/2; T2 2/2; A1 2/2; A2 2/2')
    """
    c = _sm.call(resampling, words, default=DEFAULT_RESAMPLING, test=test, warn=warn)
    for kind, value in (("targets", targets), ("attributes", attributes)):
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence) or not len(value):
            raise InvalidParameterError(f"{kind} must be a non-empty list of word lists, not {value!r:.80}")
    tl = [f"T{i + 1}" for i in range(len(targets))]
    al = [f"A{j + 1}" for j in range(len(attributes))]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _sm.look_up(embedding, {**dict(zip(tl, targets)), **dict(zip(al, attributes))}, names=names,
                          case_fold=c.words.case_fold, on_missing=c.words.on_missing,
                          shared_vectors=c.words.shared_vectors)
        value = mac_statistic([got.mats[k] for k in tl], [got.mats[k] for k in al])
    Tall = _unit(np.vstack([got.mats[k] for k in tl]))
    C = {k: Tall @ _unit(got.mats[k]).T for k in al}                   # (all target words, |A_j|)
    bounds = np.cumsum([0] + [len(got.mats[k]) for k in tl])

    def stat(**idx):
        S = sum(index_counts(idx[k], C[k].shape[1]) @ C[k].T / np.shape(idx[k])[-1] for k in al) / len(al)
        total = sum((index_counts(idx[k], b - a) * S[..., a:b]).sum(axis=-1)
                    for k, a, b in zip(tl, bounds[:-1], bounds[1:]))
        return 1.0 - total / sum(np.shape(idx[k])[-1] for k in tl)

    interval, note = _sm.bootstrap(stat, {k: len(v) for k, v in got.mats.items()}, estimate=value, name="mac",
                                   resampling=c.resampling)
    n = got.names
    return _sm.measured(
        "mac", got, c, title=title or f"{', '.join(n[k] for k in tl)} on {', '.join(n[k] for k in al)}",
        statistic_name="mean average cosine distance", statistic=value, interval=interval, test=None,
        caught=caught, notes=(note, "1 - cos averaged; nearer 1: targets nearer orthogonal to the attributes",
                              "no test: MAC is a level with no null value (the paper compares two embeddings by a "
                              "paired t-test)"))
