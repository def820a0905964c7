"""Does debiasing remove a bias or hide it? Gonen & Goldberg's checks, each an estimate with an interval.

Gonen & Goldberg (2019), "Lipstick on a Pig: Debiasing Methods Cover up Systematic Gender Biases in Word
Embeddings But do not Remove Them", NAACL-HLT 2019, pp. 609-614, doi:10.18653/v1/N19-1061 (code:
https://github.com/gonenhila/gender_bias_lipstick). A word's *original bias* is its projection on the he − she
direction of the embedding **before** debiasing (their "bias-by-projection"); after debiasing that projection is
(near) zero, yet the information may still be there. Each check takes the original embedding (to define the bias
and pick the words) and the embedding to check (the same words), and returns a :class:`CheckResult`:

- :func:`most_biased_words`: the words the checks use (Section 2, setting): among the most frequent words (50,000
  by default), lower-case alphabetic words of at most 20 letters, gender-specific words excluded, the ``n`` most
  male- and the ``n`` most female-biased by their original bias.
- :func:`cluster_accuracy`: K-means (k = 2) on the 500 most male- and 500 most female-biased words; the share of
  words whose cluster agrees with their original side (the better of the two matchings). Section 3, "Male- and
  female-biased words cluster together".
- :func:`classifier_accuracy`: an RBF-kernel SVM trained on 1,000 of the 5,000 most biased words (2,500 a side)
  and tested on the other 4,000. Section 3, "Classifying previously female- and male-biased words".
- :func:`neighbour_bias`: for each word, the share of male-biased words among its k = 100 nearest neighbours in
  the checked embedding ("bias-by-neighbours"), correlated (Pearson) with its original bias. Section 3,
  "Correlation between bias-by-projection and bias-by-neighbours"; with ``words=`` professions (or
  :func:`profession_neighbour_bias`), the professions experiment of their Figure 1 and of Ravfogel et al.
  (2020, ACL, doi:10.18653/v1/2020.acl-main.647, Section 6.1), whose released notebook
  (shauli-ravfogel/nullspace_projection, ``notebooks/word_vectors_debiasing.ipynb``) this follows for details
  the paper leaves open: a neighbour counts as male-biased when its original cosine with he − she is > 0.

The intervals (each result says which): the clustering accuracy, by a bootstrap over the words (each side
resampled on its own, K-means refitted on every resample), since the clustering is fitted to the very words it
is scored on; the classifier accuracy, by Wilson's score interval over the held-out test words (a binomial
proportion on words the classifier never saw; the training draw is fixed by the seed); the neighbour
correlation, by a percentile bootstrap over the words (neighbourhoods overlap, so Fisher's z, which assumes
independent pairs, would be too narrow). Every random step is seeded; a result is the same for the same seed.

Differences from the authors' setting, by design: the candidate vocabulary here is the first ``restrict`` rows of
the original embedding (its most frequent words when it is stored in frequency order, as GloVe and word2vec
are), its gender-specific words are Bolukbasi et al.'s lists in the embedding's form (``data/debiaswe``: the full
learned list and the words of the definitional and equalize pairs), vectors are normalised to unit length
before clustering, classifying and searching neighbours, and a word is not its own neighbour.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from gensim.models import KeyedVectors

from wordbias import embeddings
from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.core.validation import check_int, check_option, check_probability, check_real, check_seed, check_words
from wordbias.measures.debiasing.debias import word_lists_for

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_RESTRICT",
    "MAX_LENGTH",
    "CheckResult",
    "BiasedWords",
    "Candidates",
    "wilson_interval",
    "gender_specific_words",
    "candidate_words",
    "original_bias",
    "most_biased_words",
    "cluster_accuracy",
    "classifier_accuracy",
    "neighbour_bias",
    "profession_neighbour_bias",
]

#: candidate words: the most frequent 50,000 (Gonen & Goldberg 2019, Section 2)
DEFAULT_RESTRICT = 50_000
#: candidate words are at most 20 letters long (Gonen & Goldberg 2019, Section 2)
MAX_LENGTH = 20
_WORD = re.compile(r"[a-z]+")
_BLOCK = 256


# --------------------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CheckResult:
    """One check of an embedding: the estimate, its interval and how it was made, and the words used.

    Attributes
    ----------
    check : str
        The check's name, e.g. ``"cluster accuracy"``.
    estimate : float
        The estimate (an accuracy in [0, 1], or a correlation).
    ci_low, ci_high : float
        The interval's bounds (NaN when there is none).
    ci_level : float
        The interval's confidence level.
    ci_method : str
        How the interval was made, e.g. ``"Wilson score, 4,000 test words"``.
    n : int
        The units the estimate is over (words, test words, questions or pairs).
    words : tuple of str
        The words used, in order.
    missing : tuple of str, default ()
        Words asked for but absent from the embedding checked (or out of its restricted vocabulary); never
        silently dropped.
    seed : int or None, default None
        The seed of the random steps (None when there are none).
    table : pandas.DataFrame or None, default None
        A summary by group (e.g. the analogy sections), when the check has one.
    items : pandas.DataFrame or None, default None
        The per-unit values (e.g. each word's original bias and share of male neighbours).
    extra : dict, default {}
        Further numbers the check reports (e.g. the split sizes).
    """

    check: str
    estimate: float
    ci_low: float
    ci_high: float
    ci_level: float
    ci_method: str
    n: int
    words: tuple[str, ...] = field(repr=False)
    missing: tuple[str, ...] = field(default=(), repr=False)
    seed: int | None = None
    table: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    items: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    extra: dict = field(default_factory=dict, repr=False, compare=False)

    def __str__(self) -> str:
        ci = ("no interval" if math.isnan(self.ci_low) else
              f"{self.ci_level:.0%} CI [{self.ci_low:.3f}, {self.ci_high:.3f}] ({self.ci_method})")
        miss = f"; {len(self.missing)} missing" if self.missing else ""
        return f"{self.check} = {self.estimate:.3f}, {ci}; n = {self.n:,}{miss}"

    def to_dict(self) -> dict:
        """The result's numbers as a flat, JSON-serialisable dict (no word lists or tables).

        Returns
        -------
        dict
            ``check``, ``estimate``, ``ci_low``, ``ci_high``, ``ci_level``, ``ci_method``, ``n``, ``n_missing``,
            ``seed`` and the ``extra`` numbers.
        """
        out = {"check": self.check, "estimate": self.estimate, "ci_low": self.ci_low, "ci_high": self.ci_high,
               "ci_level": self.ci_level, "ci_method": self.ci_method, "n": self.n, "n_missing": len(self.missing),
               "seed": self.seed}
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Candidates:
    """How a check chooses its most biased words when no ``selection`` is given (:func:`most_biased_words`).

    Gonen & Goldberg (2019, Section 2): the candidates are frequent, lower-case alphabetic, short words that are
    not gender-specific (:func:`candidate_words`); their bias is the projection on ``direction``. Checked when
    made: a bad option raises :class:`~wordbias.core.errors.InvalidParameterError` naming it.

    Attributes
    ----------
    restrict : int or None, default DEFAULT_RESTRICT
        Candidate words among the first ``restrict`` rows (None: every row).
    exclude : collection of str or None, default None
        Words to leave out; None: :func:`gender_specific_words` of the original embedding; ``()``: nothing.
    direction : tuple of (str, str), default ("he", "she")
        The bias direction's two words.

    Examples
    --------
    >>> Candidates(exclude=()).restrict
    50000
    >>> Candidates(exclude="he")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: exclude must be a collection of words, not a single string
    """

    restrict: int | None = DEFAULT_RESTRICT
    exclude: Collection[str] | None = None
    direction: tuple[str, str] = ("he", "she")

    def __post_init__(self):
        if self.restrict is not None:
            object.__setattr__(self, "restrict", check_int("restrict", self.restrict, min=1))
        if isinstance(self.exclude, str):
            raise InvalidParameterError("exclude must be a collection of words, not a single string")
        if self.exclude is not None:
            object.__setattr__(self, "exclude", tuple(self.exclude))
        object.__setattr__(self, "direction", lookup.check_word_list("direction", self.direction))


#: the candidates of the checks by default: Gonen & Goldberg's (the first 50,000 words, gender-specific words left
#: out, the he - she direction)
DEFAULT_CANDIDATES = Candidates()


@dataclass(frozen=True)
class BiasedWords:
    """The most male- and female-biased words of an embedding (:func:`most_biased_words`).

    Attributes
    ----------
    male : tuple of str
        The most male-biased words, most biased first.
    female : tuple of str
        The most female-biased words, most biased first.
    bias : pandas.Series
        The original bias (cosine with the direction) of every candidate word, indexed by word, in vocabulary
        order; > 0 is male-biased with the default direction ``("he", "she")``.
    direction : tuple of (str, str)
        The two words whose difference is the direction (first minus second).
    n_candidates : int
        The candidate words (after the frequency, form and exclusion filters).
    n_excluded : int
        Words of the restricted vocabulary removed as gender-specific.
    """

    male: tuple[str, ...]
    female: tuple[str, ...]
    bias: pd.Series = field(repr=False, compare=False)
    direction: tuple[str, str]
    n_candidates: int
    n_excluded: int

    @property
    def words(self) -> tuple[str, ...]:
        """The male then the female words."""
        return self.male + self.female

    @property
    def labels(self) -> np.ndarray:
        """1 for each male word, 0 for each female word, in the order of :attr:`words`."""
        return np.r_[np.ones(len(self.male), dtype=np.int64), np.zeros(len(self.female), dtype=np.int64)]


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------

def wilson_interval(successes: int, n: int, confidence_level: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval for a binomial proportion (Wilson 1927, JASA 22:209-212).

    Parameters
    ----------
    successes : int
        Successes, in [0, n].
    n : int
        Trials, >= 1.
    confidence_level : float, default 0.95
        In (0, 1).

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``n`` < 1, ``successes`` is outside [0, n], or the level is not in (0, 1).

    Examples
    --------
    >>> tuple(round(x, 4) for x in wilson_interval(90, 100))
    (0.8256, 0.9448)
    >>> wilson_interval(10, 10)[1]
    1.0
    """
    n = check_int("n", n, min=1)
    successes = check_int("successes", successes, min=0, max=n)
    level = check_probability("confidence_level", confidence_level)
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + level / 2))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)     # exact at the ends, where rounding is not
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _kv(embedding, name: str) -> KeyedVectors:
    if isinstance(embedding, KeyedVectors):
        return embedding
    if isinstance(embedding, (str, Mapping)) or hasattr(embedding, "__fspath__"):
        return embeddings.load(embedding, progress=False)
    raise InvalidParameterError(f"{name} must be a KeyedVectors, a registered name, a path or a word -> vector "
                                f"mapping, not {type(embedding).__name__}")


def _unit(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=np.float32)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)


def _rows(kv: KeyedVectors, words: Sequence[str]) -> np.ndarray:
    return _unit(kv.vectors[[kv.key_to_index[w] for w in words]])


def _level(confidence_level) -> float:
    return check_probability("confidence_level", confidence_level)


def _present(checked: KeyedVectors, words: Sequence[str], on_missing: str, what: str):
    check_option("on_missing", on_missing, ("drop", "raise"))
    found, missing = lookup.present(checked, words)
    if missing:
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        if on_missing == "raise":
            raise KeyError(f"{len(missing)} {what} missing from the embedding checked: {shown}")
        lookup.warn_user(MissingWordsWarning(f"{len(missing)} {what} missing from the embedding checked, "
                                             f"dropped: {shown}"))
    return found, missing


def _percentile(values: np.ndarray, level: float) -> tuple[float, float]:
    values = values[np.isfinite(values)]
    if values.size == 0:
        return math.nan, math.nan
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def _kmeans_accuracy(X: np.ndarray, labels: np.ndarray, seed: int, n_init: int) -> float:
    """K-means' (k = 2) accuracy at recovering ``labels``, either way round; call it inside :func:`_one_openmp_thread`."""
    from sklearn.cluster import KMeans

    pred = KMeans(n_clusters=2, n_init=n_init, random_state=seed).fit_predict(X)
    acc = float(np.mean(pred == labels))
    return max(acc, 1.0 - acc)


def _one_openmp_thread():
    """One OpenMP thread for the K-means fits: as fast on 2-8 cores for 1,000 x 300, and immune to oversubscription
    on a shared machine. Entered once around all the fits of a check: each entry scans the loaded libraries (about
    4 ms, which was 2 s of the debiasing notebook's 111 fits per embedding)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="openmp")


# --------------------------------------------------------------------------------------------------
# the words
# --------------------------------------------------------------------------------------------------

def gender_specific_words(embedding) -> tuple[str, ...]:
    """The words the checks exclude as gender-specific, in ``embedding``'s form.

    Bolukbasi et al.'s (2016) full learned gender-specific list and the words of their definitional and equalize
    pairs (``data/debiaswe``; :func:`wordbias.measures.debiasing.debias.word_lists_for`), as Gonen & Goldberg (2019,
    Section 2) remove "gender-specific words" before ranking words by bias.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding whose casing the lists take.

    Returns
    -------
    tuple of str
        The words, without duplicates.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = gender_specific_words(to_keyed_vectors(["he", "she"], np.eye(2, dtype=np.float32)))
    >>> {"he", "she", "actress", "queen"} <= set(words), "nurse" in words
    (True, False)
    """
    lists = word_lists_for(embedding)
    pairs = [w for p in lists.definitional_pairs + lists.equalize_pairs for w in p]
    return tuple(dict.fromkeys(list(lists.gender_specific) + pairs))


def candidate_words(original, *, restrict: int | None = DEFAULT_RESTRICT, exclude: Collection[str] | None = None,
                    max_length: int = MAX_LENGTH) -> tuple[str, ...]:
    """The words the checks may use: frequent, lower-case alphabetic, short, not gender-specific.

    Gonen & Goldberg (2019, Section 2): the most frequent 50,000 words, without words holding upper-case
    letters, digits or punctuation, or longer than 20 characters, and without gender-specific words. A word is
    kept when it matches ``[a-z]+`` (ASCII only).

    Parameters
    ----------
    original : KeyedVectors or str
        The embedding before debiasing (anything :func:`wordbias.embeddings.load` takes).
    restrict : int or None, default DEFAULT_RESTRICT
        Look at the first ``restrict`` rows only (the most frequent words of an embedding stored in frequency
        order); None: every row.
    exclude : collection of str, optional
        Words to leave out; by default :func:`gender_specific_words` of ``original``. Pass ``()`` to exclude
        nothing.
    max_length : int, default MAX_LENGTH
        The longest word kept.

    Returns
    -------
    tuple of str
        The words, in vocabulary order.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``restrict`` or ``max_length`` is not a positive integer, or ``exclude`` is a single string.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["the", "he", "Paris", "co2", "nurse", "x" * 25], np.eye(6, dtype=np.float32))
    >>> candidate_words(kv)
    ('the', 'nurse')
    >>> candidate_words(kv, restrict=2, exclude=())
    ('the', 'he')
    """
    kv = _kv(original, "original")
    if restrict is not None:
        restrict = check_int("restrict", restrict, min=1)
    max_length = check_int("max_length", max_length, min=1)
    if isinstance(exclude, str):
        raise InvalidParameterError("exclude must be a collection of words, not a single string")
    drop = set(gender_specific_words(kv) if exclude is None else exclude)
    keys = kv.index_to_key[:restrict] if restrict is not None else kv.index_to_key
    return tuple(w for w in keys if len(w) <= max_length and _WORD.fullmatch(w) and w not in drop)


def original_bias(original, words: Sequence[str], direction: tuple[str, str] = ("he", "she")) -> pd.Series:
    """Each word's bias by projection: its cosine with the direction ``a − b`` of the original embedding.

    Gonen & Goldberg (2019, Section 2): a word's bias is the projection of its (normalised) vector on he − she;
    with the default direction > 0 is male-biased.

    Parameters
    ----------
    original : KeyedVectors or str
        The embedding before debiasing.
    words : sequence of str
        The words (all in ``original``).
    direction : tuple of (str, str), default ("he", "she")
        The two words whose difference (first minus second) is the direction.

    Returns
    -------
    pandas.Series
        The bias of each word, indexed by word.

    Raises
    ------
    KeyError
        If a word or a direction word is not in ``original``.
    wordbias.core.errors.DegenerateSetError
        If the two direction words have the same vector.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["he", "she", "nurse", "pilot"],
    ...                       np.array([[1, 0], [-1, 0], [-1, 1], [1, 1]], dtype=np.float32))
    >>> original_bias(kv, ["nurse", "pilot"]).round(3).tolist()
    [-0.707, 0.707]
    """
    kv = _kv(original, "original")
    g = _direction(kv, direction)
    words = list(words)
    absent = [w for w in words if w not in kv.key_to_index]
    if absent:
        raise KeyError(f"{len(absent)} word(s) not in the original embedding: {absent[:10]}")
    return pd.Series(_rows(kv, words).astype(np.float64) @ g if words else np.zeros(0), index=pd.Index(words),
                     name="bias", dtype=np.float64)


def _direction(kv: KeyedVectors, direction) -> np.ndarray:
    if (not isinstance(direction, (tuple, list)) or len(direction) != 2
            or not all(isinstance(w, str) for w in direction)):
        raise InvalidParameterError(f"direction must be two words, e.g. ('he', 'she'), not {direction!r}")
    absent = [w for w in direction if w not in kv.key_to_index]
    if absent:
        raise KeyError(f"direction word(s) not in the original embedding: {absent}")
    a, b = _rows(kv, list(direction)).astype(np.float64)
    g = a - b
    norm = np.linalg.norm(g)
    if not norm > 0:
        raise DegenerateSetError(f"{direction[0]!r} and {direction[1]!r} have the same direction; no bias "
                                 "direction")
    return g / norm


def most_biased_words(original, n_per_side: int, *, exclude: Collection[str] | None = None,
                      direction: tuple[str, str] = ("he", "she"), restrict: int | None = DEFAULT_RESTRICT,
                      max_length: int = MAX_LENGTH) -> BiasedWords:
    """The ``n_per_side`` most male- and most female-biased candidate words of the original embedding.

    Gonen & Goldberg (2019, Section 3): the 500 (clustering) or 2,500 (classification) most biased words of each
    side by their original bias (:func:`original_bias`), among :func:`candidate_words`.

    Parameters
    ----------
    original : KeyedVectors or str
        The embedding before debiasing.
    n_per_side : int
        Words per side.
    exclude : collection of str, optional
        Words to leave out (default: :func:`gender_specific_words`).
    direction : tuple of (str, str), default ("he", "she")
        The direction's two words; the first side ("male") is the positive one.
    restrict : int or None, default DEFAULT_RESTRICT
        Candidates among the first ``restrict`` rows (None: all).
    max_length : int, default MAX_LENGTH
        The longest candidate word.

    Returns
    -------
    BiasedWords
        The two sides and the bias of every candidate.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If an option is out of range.
    wordbias.core.errors.DegenerateSetError
        If fewer than ``n_per_side`` candidates lie on a side.
    KeyError
        If a direction word is not in ``original``.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["he", "she", "nurse", "pilot", "cook", "coach"],
    ...                       np.array([[1, 0], [-1, 0], [-1, 1], [1, 1], [-1, .2], [.5, 1]], dtype=np.float32))
    >>> sel = most_biased_words(kv, 2)
    >>> sel.male, sel.female, sel.n_excluded
    (('pilot', 'coach'), ('cook', 'nurse'), 2)
    """
    kv = _kv(original, "original")
    n_per_side = check_int("n_per_side", n_per_side, min=1)
    if restrict is not None:
        restrict = check_int("restrict", restrict, min=1)
    _direction(kv, direction)                  # the direction words must be there, and differ
    kept = candidate_words(kv, restrict=restrict, exclude=exclude, max_length=max_length)
    everything = candidate_words(kv, restrict=restrict, exclude=(), max_length=max_length)
    bias = original_bias(kv, kept, direction) if kept else pd.Series([], dtype=np.float64, name="bias")
    order = np.argsort(-bias.to_numpy(), kind="stable")
    n_male, n_female = int((bias > 0).sum()), int((bias < 0).sum())
    if min(n_male, n_female) < n_per_side:
        raise DegenerateSetError(f"only {n_male} male-biased and {n_female} female-biased candidate words (of "
                                 f"{len(kept)}); {n_per_side} a side asked for")
    words = bias.index.to_numpy()
    return BiasedWords(male=tuple(words[order[:n_per_side]]), female=tuple(words[order[::-1][:n_per_side]]),
                       bias=bias, direction=tuple(direction), n_candidates=len(kept),
                       n_excluded=len(everything) - len(kept))


def _selection(original: KeyedVectors, selection, n_per_side: int, candidates: Candidates | None) -> BiasedWords:
    candidates = DEFAULT_CANDIDATES if candidates is None else candidates
    if not isinstance(candidates, Candidates):
        raise InvalidParameterError(f"candidates must be a Candidates or None, not {type(candidates).__name__}")
    if selection is None:
        return most_biased_words(original, n_per_side, restrict=candidates.restrict, exclude=candidates.exclude,
                                 direction=candidates.direction)
    if not isinstance(selection, BiasedWords):
        raise InvalidParameterError(f"selection must be a BiasedWords (from most_biased_words), not "
                                    f"{type(selection).__name__}")
    if len(selection.male) < n_per_side or len(selection.female) < n_per_side:
        raise InvalidParameterError(f"selection holds {len(selection.male)} + {len(selection.female)} words; "
                                    f"{n_per_side} a side asked for")
    return BiasedWords(male=selection.male[:n_per_side], female=selection.female[:n_per_side], bias=selection.bias,
                       direction=selection.direction, n_candidates=selection.n_candidates,
                       n_excluded=selection.n_excluded)


def _checked_sides(checked: KeyedVectors, sel: BiasedWords, on_missing: str):
    """The male and female words found in ``checked``, the words missing, their unit vectors X (male rows
    first) and labels y (1: male)."""
    male, miss_m = _present(checked, sel.male, on_missing, "male-biased words")
    female, miss_f = _present(checked, sel.female, on_missing, "female-biased words")
    if not male or not female:
        raise DegenerateSetError("a side has no word left in the embedding checked")
    X = np.r_[_rows(checked, male), _rows(checked, female)]
    y = np.r_[np.ones(len(male), dtype=np.int64), np.zeros(len(female), dtype=np.int64)]
    return male, female, miss_m + miss_f, X, y


# --------------------------------------------------------------------------------------------------
# the checks
# --------------------------------------------------------------------------------------------------

def cluster_accuracy(original, checked, *, n_per_side: int = 500, seed: int = 0, n_resamples: int = 200,
                     confidence_level: float = 0.95, n_init: int = 10, selection: BiasedWords | None = None,
                     on_missing: str = "drop", candidates: Candidates | None = None) -> CheckResult:
    """K-means (k = 2) on the most biased words: how well do the clusters recover the original sides?

    Gonen & Goldberg (2019, Section 3, "Male- and female-biased words cluster together"): the 500 most male- and
    500 most female-biased words by original bias, clustered with K-means into two clusters in the checked
    embedding; the accuracy is the share of words whose cluster matches their side, under the better of the two
    cluster-to-side matchings (so 0.5 is chance and 1 perfect). The vectors are normalised first; K-means is
    scikit-learn's (k-means++, ``n_init`` restarts, seeded).

    The interval is a percentile bootstrap over the words: each side resampled with replacement on its own
    (keeping n a side) and K-means refitted on every resample, because the clustering is fitted to the very words
    it is scored on (there is no held-out set for a binomial interval).

    Parameters
    ----------
    original : KeyedVectors or str
        The embedding before debiasing: defines the bias and picks the words.
    checked : KeyedVectors or str
        The embedding to check (e.g. the debiased one; ``original`` itself for the baseline).
    n_per_side : int, default 500
        Words per side.
    seed : int, default 0
        Seed of K-means and of the bootstrap.
    n_resamples : int, default 200
        Bootstrap resamples; 0: no interval.
    confidence_level : float, default 0.95
        The interval's level.
    n_init : int, default 10
        K-means restarts (scikit-learn's former default, which the authors' version used).
    selection : BiasedWords, optional
        The words, from :func:`most_biased_words` (its first ``n_per_side`` a side are used); by default
        computed from ``original`` with ``candidates``.
    on_missing : {"drop", "raise"}, default "drop"
        Words absent from ``checked``: dropped with a warning and listed in ``missing``, or a ``KeyError``.
    candidates : Candidates, optional
        How the words are chosen when ``selection`` is None (the first rows looked at, the words left out, the
        bias direction); None: :data:`DEFAULT_CANDIDATES`.

    Returns
    -------
    CheckResult
        The accuracy, its interval, the words (male then female); ``extra`` holds the spread of the accuracy
        over ten K-means seeds (``seed_min``, ``seed_max``), for the algorithm's own variability.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If an option is out of range.
    wordbias.core.errors.DegenerateSetError
        If too few words lie on a side.
    KeyError
        If ``on_missing="raise"`` and a word is absent from ``checked``.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(42, 5)); X[0, 0], X[1, 0] = 5, -5; X[2:22, 0] += 3; X[22:, 0] -= 3
    >>> kv = to_keyed_vectors(["he", "she"] + ["".join("abcdefghij"[int(c)] for c in str(i)) + "x"
    ...                                          for i in range(40)], X.astype(np.float32))
    >>> r = cluster_accuracy(kv, kv, n_per_side=10, candidates=Candidates(exclude=()), n_resamples=50)
    >>> r.estimate, r.n
    (1.0, 20)
    """
    orig, chk = _kv(original, "original"), _kv(checked, "checked")
    n_per_side = check_int("n_per_side", n_per_side, min=1)
    seed = check_seed("seed", seed)
    n_resamples = check_int("n_resamples", n_resamples, min=0)
    n_init = check_int("n_init", n_init, min=1)
    level = _level(confidence_level)
    sel = _selection(orig, selection, n_per_side, candidates)
    male, female, missing, X, y = _checked_sides(chk, sel, on_missing)
    rng = np.random.default_rng(seed)
    boots = np.empty(n_resamples)
    im, jf = np.arange(len(male)), len(male) + np.arange(len(female))
    with _one_openmp_thread():
        estimate = _kmeans_accuracy(X, y, seed, n_init)
        for b in range(n_resamples):
            idx = np.r_[rng.choice(im, len(im)), rng.choice(jf, len(jf))]
            boots[b] = _kmeans_accuracy(X[idx], y[idx], int(rng.integers(2**31)), n_init)
        spread = [_kmeans_accuracy(X, y, s, n_init) for s in range(10)]
    lo, hi = _percentile(boots, level) if n_resamples else (math.nan, math.nan)
    return CheckResult(
        check="cluster accuracy", estimate=estimate, ci_low=lo, ci_high=hi, ci_level=level,
        ci_method=(f"percentile bootstrap over words, {n_resamples:,} resamples, K-means refitted" if n_resamples
                   else "none"),
        n=len(y), words=tuple(male) + tuple(female), missing=missing, seed=seed,
        extra={"n_male": len(male), "n_female": len(female), "seed_min": min(spread), "seed_max": max(spread)})


def classifier_accuracy(original, checked, *, n_per_side: int = 2500, n_train: int = 1000, seed: int = 0,
                        gamma: str | float = "auto", C: float = 1.0, confidence_level: float = 0.95,
                        selection: BiasedWords | None = None, on_missing: str = "drop",
                        candidates: Candidates | None = None) -> CheckResult:
    """An RBF-kernel SVM predicting a word's original side from its checked vector: held-out accuracy.

    Gonen & Goldberg (2019, Section 3, "Classifying previously female- and male-biased words"): the 5,000 most
    biased words (2,500 a side); an RBF-kernel SVM trained on a random 1,000 of them and tested on the other
    4,000. Here the training draw is balanced (``n_train // 2`` a side, seeded) and the vectors normalised.

    The interval is Wilson's score interval over the test words: the accuracy is a proportion of words the
    classifier never saw. It does not include the variability of the training draw (rerun with other seeds for
    that).

    Parameters
    ----------
    original, checked, confidence_level, selection, on_missing, candidates
        As :func:`cluster_accuracy` takes them.
    n_per_side : int, default 2500
        Words per side.
    n_train : int, default 1000
        Training words (the rest are the test words); at least 2, less than the words available.
    seed : int, default 0
        Seed of the training draw.
    gamma : {"auto", "scale"} or float, default "auto"
        The RBF kernel's width (scikit-learn's ``SVC``). ``"auto"`` (1 / dimensions) was scikit-learn's
        default before 0.22, the version of the authors' code and of Ravfogel et al.'s notebook.
    C : float, default 1.0
        The SVM's regularisation.

    Returns
    -------
    CheckResult
        The test accuracy with its Wilson interval (``n``: the test words); ``items`` lists every word with
        its side, whether it was a training word and (test words) the prediction.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If an option is out of range or ``n_train`` leaves no test word.
    wordbias.core.errors.DegenerateSetError, KeyError
        As :func:`cluster_accuracy` raises them.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(1)
    >>> names = ["he", "she"] + ["".join("abcdefghij"[int(c)] for c in str(i)) + "x" for i in range(60)]
    >>> X = rng.normal(size=(62, 4)); X[0, 0], X[1, 0] = 5, -5; X[2:32, 0] += 4; X[32:, 0] -= 4
    >>> kv = to_keyed_vectors(names, X.astype(np.float32))
    >>> r = classifier_accuracy(kv, kv, n_per_side=30, n_train=20, candidates=Candidates(exclude=()))
    >>> r.estimate, r.n, r.ci_low > 0.9
    (1.0, 40, True)
    """
    from sklearn.svm import SVC

    orig, chk = _kv(original, "original"), _kv(checked, "checked")
    n_per_side = check_int("n_per_side", n_per_side, min=1)
    n_train = check_int("n_train", n_train, min=2)
    seed = check_seed("seed", seed)
    level = _level(confidence_level)
    if not (isinstance(gamma, str) and gamma in ("auto", "scale")):
        gamma = check_real("gamma", gamma, low=0, low_open=True)
    C = check_real("C", C, low=0, low_open=True)
    sel = _selection(orig, selection, n_per_side, candidates)
    male, female, missing, X, y = _checked_sides(chk, sel, on_missing)
    if n_train // 2 >= min(len(male), len(female)):
        raise InvalidParameterError(f"n_train = {n_train} leaves no test word on a side ({len(male)} male, "
                                    f"{len(female)} female words)")
    rng = np.random.default_rng(seed)
    train_m = rng.choice(len(male), n_train // 2, replace=False)
    train_f = rng.choice(len(female), n_train - n_train // 2, replace=False)
    train = np.zeros(len(y), dtype=bool)
    train[train_m] = True
    train[len(male) + train_f] = True
    clf = SVC(kernel="rbf", gamma=gamma, C=C).fit(X[train], y[train])
    pred = clf.predict(X[~train])
    correct = int((pred == y[~train]).sum())
    n_test = int((~train).sum())
    lo, hi = wilson_interval(correct, n_test, level)
    words = tuple(male) + tuple(female)
    items = pd.DataFrame({"word": words, "male": y.astype(bool), "train": train})
    items.loc[~train, "predicted_male"] = pred.astype(bool)
    return CheckResult(
        check="classifier accuracy", estimate=correct / n_test, ci_low=lo, ci_high=hi, ci_level=level,
        ci_method=f"Wilson score over {n_test:,} held-out words", n=n_test, words=words, missing=missing, seed=seed,
        items=items, extra={"n_train": int(train.sum()), "n_test": n_test, "gamma": gamma, "C": C})


def _male_share(chk: KeyedVectors, targets: Sequence[str], pool: Sequence[str], pool_male: np.ndarray, k: int,
                block: int = _BLOCK) -> np.ndarray:
    """Share of male-biased words among each target's k nearest neighbours (cosine) in ``pool``, in blocks of
    targets (memory: block x len(pool) floats), a target never its own neighbour (:func:`_k_nearest`)."""
    P = _rows(chk, pool)
    pos = {w: i for i, w in enumerate(pool)}
    male = np.asarray(pool_male, dtype=float) != 0
    out = np.empty(len(targets))
    for start in range(0, len(targets), block):
        words = targets[start:start + block]
        S = _rows(chk, words) @ P.T
        self_idx = np.array([pos.get(w, -1) for w in words])
        has = self_idx >= 0
        S[np.flatnonzero(has), self_idx[has]] = -np.inf
        # an integer count of the male neighbours (a product of the boolean mask with 0/1 floats gave the same
        # numbers, casting the block x pool mask to float64 first: 40% of the time)
        out[start:start + len(words)] = np.count_nonzero(_k_nearest(S, k) & male, axis=1) / k
    return out


def _k_nearest(S: np.ndarray, k: int) -> np.ndarray:
    """The k largest of each row of S as a boolean mask, ties at the k-th value broken towards the lower column.

    ``numpy.argpartition`` alone would leave the choice among tied values to its selection algorithm, which numpy
    picks by CPU (its AVX-512 and AVX2 sorts): the value of the k-th largest does not depend on it, so the words
    above it are taken and then as many of those equal to it as are missing, in column order.

    Examples
    --------
    >>> _k_nearest(np.array([[0.5, 0.9, 0.5, 0.1, 0.5]]), 2).astype(int)
    array([[1, 1, 0, 0, 0]])
    """
    last = S.shape[1] - k
    kth = np.partition(S, last, axis=1)[:, last:last + 1]     # each row's k-th largest value
    above = S > kth
    tied = S == kth
    chosen = above | tied
    missing = k - above.sum(axis=1)
    excess = np.flatnonzero(tied.sum(axis=1) > missing)       # rows with more tied values than places left
    if excess.size:
        t = tied[excess]
        chosen[excess] = above[excess] | (t & (np.cumsum(t, axis=1) <= missing[excess, None]))
    return chosen


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    den = np.sqrt((xc * xc).sum(-1) * (yc * yc).sum(-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (xc * yc).sum(-1) / den


def neighbour_bias(original, checked, *, n_per_side: int = 2500, words: Sequence[str] | None = None, k: int = 100,
                   n_resamples: int = 2000, confidence_level: float = 0.95, seed: int = 0,
                   selection: BiasedWords | None = None, on_missing: str = "drop",
                   candidates: Candidates | None = None) -> CheckResult:
    """Bias-by-neighbours: does a word's neighbourhood in the checked embedding still reveal its original bias?

    Gonen & Goldberg (2019, Section 3, "Correlation between bias-by-projection and bias-by-neighbours"): for
    each word, the share of male-biased words (original bias > 0) among its k = 100 nearest neighbours (cosine)
    in the checked embedding, and Pearson's r of that share with the word's original bias. Neighbours are
    searched among the candidate words (:func:`candidate_words`, the same filters as the selection), a word is
    not its own neighbour, and the search runs in blocks of 256 words (memory: 256 x candidates floats).

    The interval is a percentile bootstrap over the words (the (bias, share) pairs resampled): neighbourhoods
    overlap, so the pairs are not independent and Fisher's z would be too narrow.

    Parameters
    ----------
    original, checked, confidence_level, on_missing, candidates
        As :func:`cluster_accuracy` takes them.
    n_per_side : int, default 2500
        When ``words`` is None, the words are the ``n_per_side`` most biased of each side (the classification
        experiment's 5,000 words).
    words : sequence of str, optional
        The words to score instead (e.g. professions); each must be in ``original`` (its bias is computed
        there), those absent from ``checked`` follow ``on_missing``.
    k : int, default 100
        Neighbours per word.
    n_resamples : int, default 2000
        Bootstrap resamples; 0: no interval.
    seed : int, default 0
        Seed of the bootstrap.
    selection : BiasedWords, optional
        The candidates and most biased words (:func:`most_biased_words`); by default computed from
        ``original`` with ``candidates``.

    Returns
    -------
    CheckResult
        Pearson's r with its interval; ``items``: each word's ``bias`` and ``male_neighbours`` (a share).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If an option is out of range, or ``k`` is not below the number of candidate words.
    wordbias.core.errors.DegenerateSetError
        If fewer than 3 words are left, or the biases or shares are all equal.
    KeyError
        If a word of ``words`` is not in ``original``, or ``on_missing="raise"`` and one is absent from
        ``checked``.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(2)
    >>> names = ["he", "she"] + ["".join("abcdefghij"[int(c)] for c in str(i)) + "x" for i in range(80)]
    >>> X = rng.normal(size=(82, 4)); X[0, 0], X[1, 0] = 5, -5; X[2:, 0] += np.linspace(3, -3, 80)
    >>> kv = to_keyed_vectors(names, X.astype(np.float32))
    >>> r = neighbour_bias(kv, kv, n_per_side=20, k=10, candidates=Candidates(exclude=()), n_resamples=200)
    >>> r.estimate > 0.8, r.n
    (True, 40)
    """
    orig, chk = _kv(original, "original"), _kv(checked, "checked")
    n_per_side = check_int("n_per_side", n_per_side, min=1)
    k = check_int("k", k, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=0)
    seed = check_seed("seed", seed)
    level = _level(confidence_level)
    sel = _selection(orig, selection, n_per_side if words is None else 1, candidates)
    if words is None:
        asked = sel.words
        bias_all = sel.bias
    else:
        asked = check_words("words", words)
        bias_all = original_bias(orig, asked, sel.direction)
    targets, missing = _present(chk, asked, on_missing, "words")
    pool, pool_missing = lookup.present(chk, tuple(sel.bias.index))
    if k >= len(pool):
        raise InvalidParameterError(f"k = {k} must be below the {len(pool):,} candidate words")
    if len(targets) < 3:
        raise DegenerateSetError(f"{len(targets)} word(s) left; a correlation needs at least 3")
    pool_male = (sel.bias.loc[list(pool)].to_numpy() > 0).astype(np.float64)
    share = _male_share(chk, list(targets), list(pool), pool_male, k)
    bias = bias_all.loc[list(targets)].to_numpy()
    if np.ptp(bias) == 0 or np.ptp(share) == 0:
        raise DegenerateSetError("the original biases or the male-neighbour shares are all equal; r is undefined")
    r = float(_pearson_rows(bias, share))
    rng = np.random.default_rng(seed)
    if n_resamples:
        idx = rng.integers(0, len(bias), size=(n_resamples, len(bias)))
        lo, hi = _percentile(_pearson_rows(bias[idx], share[idx]), level)
    else:
        lo = hi = math.nan
    items = pd.DataFrame({"word": list(targets), "bias": bias, "male_neighbours": share})
    return CheckResult(
        check="neighbour bias r", estimate=r, ci_low=lo, ci_high=hi, ci_level=level,
        ci_method=f"percentile bootstrap over words, {n_resamples:,} resamples" if n_resamples else "none",
        n=len(targets), words=tuple(targets), missing=missing, seed=seed, items=items,
        extra={"k": k, "n_pool": len(pool), "n_pool_missing": len(pool_missing)})


def profession_neighbour_bias(original, checked, **kwargs) -> CheckResult:
    """:func:`neighbour_bias` of Bolukbasi et al.'s professions: Gonen & Goldberg's Figure 1 as a number.

    The professions of ``data/debiaswe/professions.json`` in ``original``'s form
    (:func:`wordbias.measures.debiasing.debias.word_lists_for`), those in ``original``; Ravfogel et al. (2020,
    Section 6.1) report this correlation before and after INLP.

    Parameters
    ----------
    original : KeyedVectors or str
        The embedding before debiasing.
    checked : KeyedVectors or str
        The embedding to check.
    **kwargs
        Passed on to :func:`neighbour_bias` (not ``words``).

    Returns
    -------
    CheckResult
        As :func:`neighbour_bias`, named ``"profession neighbour bias r"``; professions absent from
        ``original`` are listed in ``extra["not_in_original"]``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``words`` is passed.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> profession_neighbour_bias(to_keyed_vectors(["he", "she"], np.eye(2, dtype=np.float32)), None, words=[])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: profession_neighbour_bias chooses its words; do not pass words
    """
    if "words" in kwargs:
        raise InvalidParameterError("profession_neighbour_bias chooses its words; do not pass words")
    orig = _kv(original, "original")
    found, absent = lookup.present(orig, word_lists_for(orig).professions)
    result = neighbour_bias(orig, checked, words=found, **kwargs)
    extra = dict(result.extra, not_in_original=len(absent))
    return CheckResult(**{**result.__dict__, "check": "profession neighbour bias r", "extra": extra})
