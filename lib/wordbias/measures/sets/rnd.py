"""RND, the relative norm distance: are neutral words closer to one group's mean vector than to another's?

Garg, N., Schiebinger, L., Jurafsky, D. & Zou, J. (2018). Word embeddings quantify 100 years of gender and ethnic
stereotypes. *Proceedings of the National Academy of Sciences* 115(16), E3635-E3644,
https://doi.org/10.1073/pnas.1720347115, "Metrics" (the relative norm distance) and the authors' code
(https://github.com/nikhgarg/EmbeddingDynamicStereotypes).

Each group (e.g. women, men) is represented by the average of its words' vectors, v1 = mean(T1), v2 = mean(T2);
the relative norm distance of a list M of neutral words (e.g. occupations) is

    RND = Σ_{a∈M} ( ‖a − v1‖₂ − ‖a − v2‖₂ )

(:func:`rnd_statistic`). It is positive when the neutral words are, on the whole, closer to group 2 than to
group 1, negative when closer to group 1; swapping the groups flips its sign. The word vectors are normalised to
unit length first, as in the authors' code (``normalize=True``). :func:`rnd` measures it once on an
embedding's words with a bootstrap interval over the words of the three sets and a permutation test of the group
words (the WEAT's null: the group words are exchangeable between T1 and T2; two-sided by default).

Reconciling with WEFE 1.0.1 (``wefe.metrics.RND``): WEFE averages over the attribute words instead of summing
(``aggregate="mean"``), leaves the vectors as given by default (``normalize=False``), and its ``distance="cos"``
is the cosine *similarity*, cos(a, v1) − cos(a, v2), which is minus this module's ``distance="cosine"`` (the
cosine distance 1 − cos) with ``aggregate="mean"``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import check_bool, check_option
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words

__all__ = ["DISTANCES", "AGGREGATES", "DEFAULT_RESAMPLING", "rnd_statistic", "rnd"]

#: RND's resampling options when the call gives none
DEFAULT_RESAMPLING = Resampling()

#: the distances of a word to a group mean: Euclidean (the paper's), or the cosine distance 1 − cos
DISTANCES = ("norm", "cosine")
#: how the per-word differences are combined: their sum (the paper's) or their mean (WEFE's)
AGGREGATES = ("sum", "mean")


def _unit(X: np.ndarray) -> np.ndarray:
    return X / np.linalg.norm(X, axis=-1, keepdims=True)


def _differences(A: np.ndarray, M1: np.ndarray, M2: np.ndarray, distance: str, idx=None) -> np.ndarray:
    """dist(a, M1) − dist(a, M2) for the rows a of A (shape (nA, d); the rows ``idx`` of it, shape (..., k), when
    given) and the means M1, M2 (shape (..., d)): shape (..., nA) or (..., k). Euclidean distances by
    ‖a − m‖² = ‖a‖² − 2 a·m + ‖m‖² (matrix products, no (..., nA, d) array)."""
    if distance == "norm":
        a2 = (A * A).sum(axis=1)

        def dist(M):
            return np.sqrt(np.maximum(a2 - 2.0 * (M @ A.T) + (M * M).sum(axis=-1)[..., None], 0.0))
    else:
        Au = _unit(A)

        def dist(M):
            with np.errstate(invalid="ignore", divide="ignore"):
                return 1.0 - _unit(M) @ Au.T
    D = dist(M1) - dist(M2)
    return D if idx is None else _sm.gather(D, idx)


def _how(how: dict) -> tuple[str, bool, str]:
    """The statistic's keywords given to :func:`rnd` (those of :func:`rnd_statistic`), checked, with their
    defaults."""
    unknown = sorted(set(how) - {"distance", "normalize", "aggregate"})
    if unknown:
        raise InvalidParameterError(f"rnd takes no option {', '.join(map(repr, unknown))}; the statistic's options "
                                    "are distance, normalize and aggregate")
    distance, aggregate = how.get("distance", "norm"), how.get("aggregate", "sum")
    check_option("distance", distance, DISTANCES)
    check_option("aggregate", aggregate, AGGREGATES)
    return distance, check_bool("normalize", how.get("normalize", True)), aggregate


def _combine(diffs: np.ndarray, aggregate: str) -> np.ndarray:
    return diffs.sum(axis=-1) if aggregate == "sum" else diffs.mean(axis=-1)


def rnd_statistic(T1, T2, A, *, distance: str = "norm", normalize: bool = True, aggregate: str = "sum") -> float:
    """The relative norm distance (Garg et al. 2018, "Metrics"): Σ_{a∈A} ‖a − mean(T1)‖ − ‖a − mean(T2)‖.

    Positive: the attribute (neutral) words are closer to the mean of T2; negative: closer to T1's. The word
    vectors are normalised first (``normalize=True``, the authors' code); the means are not.

    Parameters
    ----------
    T1, T2 : array-like of shape (n1, d) and (n2, d)
        The vectors of the two groups' words (e.g. men, women), one row per word.
    A : array-like of shape (nA, d)
        The vectors of the neutral words (e.g. occupations), one row per word.
    distance : {"norm", "cosine"}, default "norm"
        The Euclidean distance (the paper's), or the cosine distance 1 − cos(a, mean) (WEFE's ``"cos"`` is the
        cosine similarity: minus this, with ``aggregate="mean"``).
    normalize : bool, default True
        Scale every word vector to unit length first (the authors' code; WEFE's default is False).
    aggregate : {"sum", "mean"}, default "sum"
        Sum the per-word differences (the paper) or average them (WEFE).

    Returns
    -------
    float
        The relative norm distance.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, the sets differ in dimension, or an option is unknown.
    DegenerateSetError
        If a set is empty or holds a zero vector, or (``distance="cosine"``) a group mean is zero.
    ValueError
        If T1 and T2 share a vector.

    Examples
    --------
    a = (0, 1) is at distance √2 from v1 = (1, 0) and 0 from v2 = (0, 1); b = (1, 0) the other way round:

    >>> round(rnd_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[0.0, 1.0]]), 4)
    1.4142
    >>> rnd_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]])
    0.0
    >>> round(rnd_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[0.0, 1.0]], distance="cosine"), 4)   # (1 - 0) - (1 - 1)
    1.0
    """
    check_option("distance", distance, DISTANCES)
    check_option("aggregate", aggregate, AGGREGATES)
    normalize = check_bool("normalize", normalize)
    m = _sm.vector_sets({"T1": T1, "T2": T2, "A": A}, disjoint=[("T1", "T2")])
    if normalize:
        m = {k: _unit(v) for k, v in m.items()}
    M1, M2 = m["T1"].mean(axis=0), m["T2"].mean(axis=0)
    if distance == "cosine":
        for k, M in (("T1", M1), ("T2", M2)):
            if not np.linalg.norm(M) > 0:
                raise DegenerateSetError(f"the mean of set {k} is the zero vector: its cosines are undefined")
    return float(_combine(_differences(m["A"], M1, M2, distance), aggregate))


def rnd(embedding, T1: Sequence[str], T2: Sequence[str], A: Sequence[str], *, names: Mapping[str, str] | None = None,
        title: str | None = None, test: str = "", alternative: str = "two-sided",
        resampling: Resampling | None = None, words: Words | None = None, warn: bool = True, **how):
    """The relative norm distance (Garg et al. 2018) measured once on an embedding's words.

    The statistic is :func:`rnd_statistic` on the words found. The interval is a bootstrap over the words of T1,
    T2 and A, each resampled separately (BCa by default). The test permutes the group words between T1 and T2
    (exchangeable under H0, the WEAT's null): exact over every split when there are at most ``n_permutations``,
    else Monte Carlo; two-sided by default, since a bias either way is of interest.

    Parameters
    ----------
    embedding, names, title, test, alternative, warn
        As every set measure takes them (:mod:`~wordbias.measures.sets.set_measures`); the sets are ``"T1"``,
        ``"T2"`` and ``"A"``; ``alternative`` is "two-sided" by default.
    T1, T2 : sequence of str
        The two groups' words (e.g. men, women).
    A : sequence of str
        The neutral words (e.g. occupations).
    resampling : Resampling, optional
        The bootstrap, and the most splits counted exactly (and the random splits beyond), as
        :class:`~wordbias.options.Resampling` holds them; None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        See :class:`~wordbias.options.Words`; None: ``Words()``.
    **how
        The statistic's keywords, as :func:`rnd_statistic` takes them: ``distance`` ({"norm", "cosine"}, default
        "norm"), ``normalize`` (default True: unit word vectors) and ``aggregate`` ({"sum", "mean"}, default
        "sum": the paper; "mean": WEFE).

    Returns
    -------
    wordbias.result.Result
        The relative norm distance (``effect_size``) with its interval, p one- and two-sided, the sets' coverage.

    Raises
    ------
    InvalidParameterError, DegenerateSetError, KeyError
        As every set measure: :mod:`~wordbias.measures.sets.set_measures`.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = [f"m{i}" for i in range(4)] + [f"f{i}" for i in range(4)] + [f"a{i}" for i in range(6)]
    >>> V = rng.normal(size=(14, 5)) + 3 * np.outer([-1] * 4 + [1] * 4 + [1] * 6, np.eye(5)[0])
    >>> r = rnd(to_keyed_vectors(words, V), words[:4], words[4:8], words[8:], resampling=Resampling(n_resamples=200))
    >>> round(r.effect_size, 3), r.p_method, round(r.p_value, 4)   # A leans to T2: the largest of the 70 splits
    (5.653, 'exact', 0.0286)
    """
    distance, normalize, aggregate = _how(how)
    c = _sm.call(resampling, words, default=DEFAULT_RESAMPLING, alternative=alternative, test=test, warn=warn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _sm.look_up(embedding, {"T1": T1, "T2": T2, "A": A}, names=names, case_fold=c.words.case_fold,
                          on_missing=c.words.on_missing, shared_vectors=c.words.shared_vectors)
        value = rnd_statistic(got.mats["T1"], got.mats["T2"], got.mats["A"], distance=distance, normalize=normalize,
                              aggregate=aggregate)
    m = {k: (_unit(v) if normalize else v) for k, v in got.mats.items()}
    A_ = m["A"]
    perm = _sm.permutation_test(m["T1"], m["T2"],
                                lambda M1, M2: _combine(_differences(A_, M1, M2, distance), aggregate), c)

    def stat(T1, T2, A):
        M1, M2 = _sm.resampled_means(m["T1"], T1), _sm.resampled_means(m["T2"], T2)
        return _combine(_differences(A_, M1, M2, distance, A), aggregate)

    interval, note = _sm.bootstrap(stat, {k: len(v) for k, v in m.items()}, estimate=value, name="rnd",
                                   resampling=c.resampling)
    n = got.names
    described = (f"{'Euclidean' if distance == 'norm' else 'cosine'} distance, {aggregate} over the words, "
           f"{'unit' if normalize else 'raw'} vectors; positive: {n['A']} closer to {n['T2']}")
    return _sm.measured(
        "rnd", got, c, title=title or f"{n['T1']} vs {n['T2']} on {n['A']}",
        statistic_name="relative norm distance", statistic=value, interval=interval, test=perm, caught=caught,
        notes=(note, described))
