"""Hard debiasing (Bolukbasi, Chang, Zou, Saligrama & Kalai 2016, Section 6, Steps 1 and 2a).

"Man is to Computer Programmer as Woman is to Homemaker? Debiasing Word Embeddings", NIPS 2016: normalise every
vector, find the gender direction, neutralize the gender-neutral words and equalize the equalize pairs
(:func:`hard_debias`, a re-implementation from the paper, not the authors' code; its docstring lists how the
two differ). :func:`word_lists` reads the authors' word lists from ``data/debiaswe/`` (provenance and caveats in
``data/debiaswe/SOURCE.md``) in the form of an embedding's vocabulary.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from gensim.models import KeyedVectors

from wordbias import embeddings
from wordbias.core import lookup, paths
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.lookup import PairVectors
from wordbias.core.validation import check_out
from wordbias.measures.directions.direction import PCADirection, pca_direction

__all__ = [
    "DATA_DIR",
    "FILES",
    "WordLists",
    "HardDebiasReport",
    "word_lists",
    "word_lists_for",
    "gender_direction",
    "hard_debias",
]

#: the authors' word lists, copied from https://github.com/tolga-b/debiaswe (see SOURCE.md there)
DATA_DIR = paths.DATA / "debiaswe"
FILES = {
    "definitional_pairs": "definitional_pairs.json",
    "equalize_pairs": "equalize_pairs.json",
    "gender_specific_full": "gender_specific_full.json",
    "gender_specific_seed": "gender_specific_seed.json",
    "professions": "professions.json",
}
DEFAULT_CHUNK_ROWS = 1 << 14


# --------------------------------------------------------------------------------------------------
# word lists
# --------------------------------------------------------------------------------------------------

@functools.cache
def _read(key: str):
    return json.loads((DATA_DIR / FILES[key]).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class WordLists:
    """The debiaswe lists in an embedding's form (see :func:`word_lists`).

    Attributes
    ----------
    definitional_pairs : tuple of (str, str)
        The ten [female, male] pairs that define the gender direction.
    gender_specific : tuple of str
        Words left as they are (only normalised) by hard debiasing.
    equalize_pairs : tuple of (str, str)
        Pairs equalized by hard debiasing (the order within a pair is not meaningful; see SOURCE.md).
    professions : tuple of str
        Profession words (the N of the paper's direct bias).
    profession_scores : tuple of (str, float, float)
        (word, x, y) as in professions.json; x, y read as definitional and stereotypical gender, −1 female to
        +1 male (an inference: the authors do not document the two numbers).
    dropped_phrases : tuple of str, default ()
        Phrase tokens (with ``_``) dropped because the vocabulary given lacks them, with the pairs they were
        in.
    """

    #: the ten [female, male] pairs that define the gender direction
    definitional_pairs: tuple[tuple[str, str], ...]
    #: words left as they are (only normalised) by hard debiasing
    gender_specific: tuple[str, ...]
    #: pairs equalized by hard debiasing (order within a pair is not meaningful; see SOURCE.md)
    equalize_pairs: tuple[tuple[str, str], ...]
    #: profession words (the N of the paper's direct bias)
    professions: tuple[str, ...]
    #: (word, x, y) as in professions.json; x, y read as definitional and stereotypical gender, −1 female
    #: to +1 male (an inference: the authors do not document the two numbers)
    profession_scores: tuple[tuple[str, float, float], ...]
    #: phrase tokens (with '_') dropped because the vocabulary given lacks them, with the pairs they were in
    dropped_phrases: tuple[str, ...] = ()


def _dedupe(items: Iterable) -> tuple:
    return tuple(dict.fromkeys(items))


def _pairs(raw, fold) -> tuple[tuple[str, str], ...]:
    return _dedupe((fold(a), fold(b)) for a, b in raw if fold(a) != fold(b))


def word_lists(cased: bool, *, vocab: Collection[str] | KeyedVectors | None = None,
               gender_specific: str = "full") -> WordLists:
    """The debiaswe word lists mapped to the form of an embedding's vocabulary.

    The lists were made for the cased word2vec GoogleNews vocabulary, with phrases joined by ``_``.

    Parameters
    ----------
    cased : bool
        ``False`` (e.g. GloVe 6B): every word is lower-cased and duplicates are removed (``He`` and ``he``
        become one word; ``Bulls``, a team in the learned list, becomes ``bulls``), keeping the order of
        first appearance. ``True``: words are kept as they are, and each equalize pair is expanded into its
        lower-case, Title-case and UPPER-case variants (``("he", "she")``, ``("He", "She")``,
        ``("HE", "SHE")``), as the authors' code does; duplicates are removed.
    vocab : KeyedVectors or collection of str, optional
        Phrase tokens (containing ``_``) absent from it are dropped, with any pair that holds one; they are
        listed in ``dropped_phrases``. Single words are kept whether present or not (:func:`hard_debias`
        reports the missing ones). None (default): nothing is dropped.
    gender_specific : {"full", "seed"}, default "full"
        ``"full"``: the 1,441 words learned from the seed, used by the authors' debiasing script; ``"seed"``:
        the 218 seed words.

    Returns
    -------
    WordLists
        The lists in the vocabulary's form.

    Raises
    ------
    ValueError
        If ``gender_specific`` is neither ``"full"`` nor ``"seed"``.

    Examples
    --------
    >>> lists = word_lists(cased=False)
    >>> lists.definitional_pairs[:3]
    (('woman', 'man'), ('girl', 'boy'), ('she', 'he'))
    >>> len(lists.gender_specific), len(word_lists(cased=False, gender_specific="seed").gender_specific)
    (1282, 218)
    >>> word_lists(cased=True).equalize_pairs[:3]
    (('monastery', 'convent'), ('Monastery', 'Convent'), ('MONASTERY', 'CONVENT'))
    """
    if gender_specific not in ("full", "seed"):
        raise ValueError(f"gender_specific must be 'full' or 'seed', not {gender_specific!r}")
    fold = (lambda w: w) if cased else str.lower
    definitional = _pairs(_read("definitional_pairs"), fold)
    specific = _dedupe(fold(w) for w in _read(f"gender_specific_{gender_specific}"))
    raw_eq = _read("equalize_pairs")
    if cased:
        raw_eq = [(f(a), f(b)) for a, b in raw_eq for f in (str.lower, str.title, str.upper)]
    equalize = _pairs(raw_eq, fold)
    first: dict[str, tuple[str, float, float]] = {}
    for w, x, y in _read("professions"):
        first.setdefault(fold(w), (fold(w), float(x), float(y)))  # the first of words equal after folding
    scores = tuple(first.values())
    dropped: list[str] = []
    if vocab is not None:
        index = lookup.vocabulary(vocab)

        def keep(word: str) -> bool:
            if "_" in word and word not in index:
                dropped.append(word)
                return False
            return True

        definitional = tuple(p for p in definitional if keep(p[0]) & keep(p[1]))
        specific = tuple(w for w in specific if keep(w))
        equalize = tuple(p for p in equalize if keep(p[0]) & keep(p[1]))
        scores = tuple(s for s in scores if keep(s[0]))
    return WordLists(
        definitional_pairs=definitional,
        gender_specific=specific,
        equalize_pairs=equalize,
        professions=tuple(s[0] for s in scores),
        profession_scores=scores,
        dropped_phrases=_dedupe(dropped),
    )


def word_lists_for(embedding: KeyedVectors, *, gender_specific: str = "full") -> WordLists:
    """:func:`word_lists` in the form of ``embedding``'s vocabulary.

    The lists are cased or not as the vocabulary is (:func:`wordbias.embeddings.is_cased`), and phrase
    tokens are kept only if ``embedding`` has them.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    gender_specific : {"full", "seed"}, default "full"
        Which gender-specific list (see :func:`word_lists`).

    Returns
    -------
    WordLists
        The lists in ``embedding``'s form.

    Raises
    ------
    ValueError
        As :func:`word_lists`: for a ``gender_specific`` it does not know.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["she", "he", "nurse"], np.eye(3, dtype=np.float32))
    >>> lists = word_lists_for(kv)                        # uncased vocabulary, no phrases
    >>> lists.definitional_pairs[2], lists.dropped_phrases[:2]
    (('she', 'he'), ('prostate_cancer', 'younger_brother'))
    """
    return word_lists(embeddings.is_cased(embedding), vocab=embedding, gender_specific=gender_specific)


def gender_direction(embedding, pairs: Sequence[Sequence[str]] | None = None, *,
                     on_missing: str = "drop") -> tuple[PCADirection, PairVectors]:
    """Bolukbasi's gender direction of ``embedding`` from definitional pairs.

    The direction is :func:`wordbias.measures.directions.direction.pca_direction` of the pairs' vectors; it points
    towards the first word of the pairs (female for the default pairs).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    pairs : sequence of (str, str), optional
        The definitional pairs; by default the debiaswe definitional pairs in ``embedding``'s form
        (:func:`word_lists_for`).
    on_missing : {"drop", "raise"}, default "drop"
        What to do with a pair the embedding lacks a word of: drop it (with a warning) or raise ``KeyError``.

    Returns
    -------
    direction : wordbias.measures.directions.direction.PCADirection
        The direction and the explained-variance ratios.
    pairs : wordbias.core.lookup.PairVectors
        The pairs looked up, with the missing ones.

    Raises
    ------
    KeyError
        With ``on_missing="raise"``, if the embedding lacks a word of a pair.
    DegenerateSetError
        If no pair is left, or every pair's two words have the same normalised vector.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["she", "he", "woman", "man"],
    ...                       np.array([[1.0, 0.2], [-1.0, 0.2], [0.9, 0.1], [-0.9, 0.1]], dtype=np.float32))
    >>> (g, ratios), found = gender_direction(kv, [("she", "he"), ("woman", "man")])
    >>> g.round(3) + 0.0, found.pairs
    (array([1., 0.]), (('she', 'he'), ('woman', 'man')))
    """
    if pairs is None:
        pairs = word_lists_for(embedding).definitional_pairs
    found = lookup.pair_vectors(embedding, pairs, on_missing=on_missing, name="definitional pairs")
    return pca_direction(found.A, found.B), found


# --------------------------------------------------------------------------------------------------
# hard debiasing
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HardDebiasReport:
    """What :func:`hard_debias` did.

    Attributes
    ----------
    direction : numpy.ndarray
        The gender direction g (unit, float64; oriented towards the first word of the definitional pairs).
    explained_variance_ratio : numpy.ndarray
        The explained-variance ratios of the principal components of the centred definitional pairs.
    definitional_pairs : tuple of (str, str)
        The definitional pairs used.
    definitional_missing : tuple of str
        The words of the other definitional pairs that were not in the embedding.
    n_words : int
        The words in the vocabulary.
    n_gender_specific : int
        The words of the gender-specific list present in the embedding (normalised, otherwise left alone
        unless equalized).
    gender_specific_missing : tuple of str
        The words of the gender-specific list absent from the embedding.
    n_neutralized : int
        The words whose g component was removed (every word not gender-specific, not equalized, in
        ``restrict``).
    n_normalized_only : int
        The words only normalised (gender-specific, or outside ``restrict``), not counting equalized words.
    equalized_pairs : tuple of (str, str)
        The equalize pairs applied.
    equalize_missing : tuple of str
        The words of the other equalize pairs that were not in the embedding.
    mean_abs_cos_before : float
        The mean ``|cos(w, g)|`` over the neutralized words before neutralizing.
    mean_abs_cos_after : float
        The same after (of the float32 result).
    max_abs_cos_after : float
        The largest ``|cos(w, g)|`` over the neutralized words after.
    equalize_from : {"input", "neutralized"}, default "input"
        Where equalize took the pair means from.
    """

    #: the gender direction g (unit, float64; oriented towards the first word of the definitional pairs)
    direction: np.ndarray = field(repr=False)
    #: explained-variance ratios of the principal components of the centred definitional pairs
    explained_variance_ratio: np.ndarray = field(repr=False)
    #: the definitional pairs used, and the words of the other pairs that were not in the embedding
    definitional_pairs: tuple[tuple[str, str], ...]
    definitional_missing: tuple[str, ...]
    #: words in the vocabulary
    n_words: int
    #: words of the gender-specific list present in the embedding (normalised, otherwise left alone unless
    #: equalized) and the number absent
    n_gender_specific: int
    gender_specific_missing: tuple[str, ...] = field(repr=False)
    #: words whose g component was removed (every word not gender-specific, not equalized, in ``restrict``)
    n_neutralized: int
    #: words only normalised (gender-specific, or outside ``restrict``), not counting equalized words
    n_normalized_only: int
    #: the equalize pairs applied, and the words of the other pairs that were not in the embedding
    equalized_pairs: tuple[tuple[str, str], ...]
    equalize_missing: tuple[str, ...]
    #: mean ``|cos(w, g)|`` over the neutralized words before and after (after: of the float32 result)
    mean_abs_cos_before: float
    mean_abs_cos_after: float
    max_abs_cos_after: float
    #: where equalize took the pair means from ("input" or "neutralized")
    equalize_from: str = "input"

    @property
    def n_equalized(self) -> int:
        """Number of equalized words (two per pair)."""
        return 2 * len(self.equalized_pairs)

    def summary(self) -> dict:
        """A JSON-serialisable dict of the report (lists instead of tuples and arrays).

        Returns
        -------
        dict
            Every field of the report, and ``n_equalized``.
        """
        out = {}
        for key, value in self.__dict__.items():
            if isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[key] = value
        out["n_equalized"] = self.n_equalized
        return out



@dataclass(frozen=True)
class _Roles:
    """Which rows :func:`hard_debias` neutralizes, leaves alone or equalizes."""

    specific: tuple[str, ...]  # gender-specific words present
    specific_missing: tuple[str, ...]
    equalize: PairVectors  # the equalize pairs looked up (pairs kept, words missing)
    may_neutralize: np.ndarray  # rows not gender-specific and within ``restrict``
    neutral: np.ndarray  # may_neutralize, less the equalized words: the rows neutralized
    ia: np.ndarray  # rows of the first and second words of the equalize pairs
    ib: np.ndarray


def _restrict_mask(restrict, n: int, kv: KeyedVectors) -> np.ndarray:
    """Rows that may be neutralized: all (None), the first ``restrict`` rows (int), or the words given."""
    if restrict is None:
        return np.ones(n, dtype=bool)
    if isinstance(restrict, (int, np.integer)) and not isinstance(restrict, bool):
        if restrict < 0:
            raise ValueError(f"restrict must be >= 0, not {restrict}")
        mask = np.zeros(n, dtype=bool)
        mask[: int(restrict)] = True
        return mask
    if isinstance(restrict, str):
        raise TypeError("restrict must be None, an int or a collection of words, not a single string")
    mask = np.zeros(n, dtype=bool)
    mask[[kv.key_to_index[w] for w in lookup.present(kv, restrict)[0]]] = True
    return mask


def _roles(kv: KeyedVectors, gender_specific: Iterable[str], equalize_pairs: Sequence[Sequence[str]],
           restrict) -> _Roles:
    """Look the word lists up in ``kv`` (absent words are skipped and reported) and mark the rows."""
    index = kv.key_to_index
    specific, specific_missing = lookup.present(kv, dict.fromkeys(gender_specific))
    eq = lookup.pair_vectors(kv, equalize_pairs, name="equalize pairs", min_pairs=0)
    seen: dict[str, tuple[str, str]] = {}
    for a, b in eq.pairs:
        for w in (a, b):
            if w in seen:
                raise ValueError(f"equalize pairs: {w!r} is in both {seen[w]} and {(a, b)}; a word can be "
                                 "equalized with one partner only")
            seen[w] = (a, b)
    may_neutralize = _restrict_mask(restrict, len(kv.index_to_key), kv)
    may_neutralize[[index[w] for w in specific]] = False
    ia = np.array([index[a] for a, _ in eq.pairs], dtype=np.int64)
    ib = np.array([index[b] for _, b in eq.pairs], dtype=np.int64)
    neutral = may_neutralize.copy()
    neutral[ia] = False
    neutral[ib] = False
    return _Roles(specific, specific_missing, eq, may_neutralize, neutral, ia, ib)


def _zero_row_error(kv: KeyedVectors, rows: np.ndarray, what: str) -> DegenerateSetError:
    words = [kv.index_to_key[i] for i in rows[:10]]
    more = f" and {len(rows) - 10} more" if len(rows) > 10 else ""
    return DegenerateSetError(f"{len(rows)} word(s) {what}: {words}{more}; cannot normalise them")


def _normalize_and_neutralize(kv: KeyedVectors, g: np.ndarray, neutral: np.ndarray, out: np.ndarray,
                              chunk_rows: int) -> tuple[float, float, float]:
    """Step 2a, chunk by chunk (float64 inside a chunk, float32 into ``out``): every row normalised, the
    ``neutral`` rows re-embedded as (w − w_B)/‖w − w_B‖. Returns Σ|cos(w, g)| over the neutral rows before
    and after (of the float32 result), and the largest |cos| after."""
    src, n = kv.vectors, len(kv.index_to_key)
    sum_before = sum_after = 0.0
    max_after = 0.0
    for start in range(0, n, chunk_rows):
        stop = min(start + chunk_rows, n)
        x = np.array(src[start:stop], dtype=np.float64)
        norms = np.linalg.norm(x, axis=1)
        bad = ~(np.isfinite(norms) & (norms > 0))
        if bad.any():
            raise _zero_row_error(kv, start + np.flatnonzero(bad), "have zero or non-finite vectors")
        x /= norms[:, None]
        m = neutral[start:stop]
        coords = x @ g
        sum_before += float(np.abs(coords[m]).sum())
        x -= np.where(m, coords, 0.0)[:, None] * g
        norms = np.linalg.norm(x, axis=1)
        if np.any(norms[m] == 0):
            raise _zero_row_error(kv, start + np.flatnonzero(m & (norms == 0)), "lie exactly along g")
        x /= norms[:, None]
        out[start:stop] = x
        if m.any():
            after = np.abs(out[start:stop][m].astype(np.float64) @ g)
            sum_after += float(after.sum())
            max_after = max(max_after, float(after.max()))
    return sum_before, sum_after, max_after


def _unit_input_rows(src: np.ndarray, i: np.ndarray, g: np.ndarray, may_neutralize: np.ndarray,
                     neutralized: bool) -> np.ndarray:
    """The normalised input vectors of rows ``i`` (float64); ``neutralized=True`` also neutralizes (and
    renormalises) those of them that may be neutralized, as the authors' code does before equalizing."""
    v = np.asarray(src[i], dtype=np.float64).reshape(len(i), src.shape[1])
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    if neutralized:
        rows = may_neutralize[i]
        r = v[rows] - np.outer(v[rows] @ g, g)
        v[rows] = r / np.linalg.norm(r, axis=1, keepdims=True)
    return v


def _equalize(src: np.ndarray, g: np.ndarray, roles: _Roles, equalize_from: str, out: np.ndarray,
              saved: np.ndarray | None = None) -> None:
    """Equalize each pair {a, b} into ``out``: μ = (a + b)/2, ν = μ − μ_B, z = sqrt(1 − ‖ν‖²) and
    a := ν + z·s g, b := ν − z·s g, with s = sign((a − b)·g) from the input vectors. ``saved``: the input
    rows of the a words then the b words, kept before ``out`` (``src`` itself) was written."""
    ia, ib = roles.ia, roles.ib
    read_a, read_b, may = ia, ib, roles.may_neutralize
    if saved is not None:
        src, read_a, read_b = saved, np.arange(len(ia)), np.arange(len(ia), len(ia) + len(ib))
        may = roles.may_neutralize[np.concatenate([ia, ib])]
    va = _unit_input_rows(src, read_a, g, may, False)
    vb = _unit_input_rows(src, read_b, g, may, False)
    side = np.where((va - vb) @ g >= 0, 1.0, -1.0)  # a tie puts the first word on the + side
    if equalize_from == "neutralized":
        mu = (_unit_input_rows(src, read_a, g, may, True)
              + _unit_input_rows(src, read_b, g, may, True)) / 2
    else:
        mu = (va + vb) / 2
    nu = mu - np.outer(mu @ g, g)
    z = np.sqrt(np.clip(1.0 - np.einsum("ij,ij->i", nu, nu), 0.0, None)) * side
    out[ia] = nu + z[:, None] * g
    out[ib] = nu - z[:, None] * g


def hard_debias(
    kv: KeyedVectors,
    definitional_pairs: Sequence[Sequence[str]] | None = None,
    gender_specific: Iterable[str] | None = None,
    equalize_pairs: Sequence[Sequence[str]] | None = None,
    *,
    restrict: int | Collection[str] | None = None,
    equalize_from: str = "input",
    chunk_rows: int = DEFAULT_CHUNK_ROWS,
    out: np.ndarray | None = None,
) -> tuple[KeyedVectors, HardDebiasReport]:
    """Hard-debias ``kv`` (Bolukbasi et al. 2016, Section 6, Steps 1 and 2a).

    1. Normalise every vector to unit length.
    2. The gender direction g: the first principal component of the definitional pairs, each centred on its
       mean (:func:`wordbias.measures.directions.direction.pca_direction`; oriented towards the first, female, word).
    3. Neutralize: every word not gender-specific (and not in an equalize pair) is re-embedded as
       w := (w − w_B)/‖w − w_B‖ with w_B = (w·g) g, so that cos(w, g) = 0.
    4. Equalize: for each equalize pair {a, b}, μ = (a + b)/2, ν = μ − μ_B, z = sqrt(1 − ‖ν‖²), and
       a := ν + z·s g, b := ν − z·s g, where s = sign((a − b)·g): each word keeps its side of the pair and the
       two end up at the same distance from every neutralized word (the paper's
       w := ν + sqrt(1 − ‖ν‖²)(w_B − μ_B)/‖w_B − μ_B‖ for a pair and a one-dimensional B).

    Parameters
    ----------
    kv : KeyedVectors
        The embedding (not modified; it may be memory-mapped).
    definitional_pairs : sequence of (str, str), optional
        The pairs that define the gender direction.
    gender_specific : iterable of str, optional
        The words left alone (only normalised).
    equalize_pairs : sequence of (str, str), optional
        The pairs to equalize. Each of the three lists left as ``None`` comes from :func:`word_lists_for`
        ``(kv)`` (the authors' lists in ``kv``'s form, with the full learned gender-specific list). Words
        absent from ``kv`` are skipped and reported; a pair is skipped if either word is absent. A word may
        be in one equalize pair only.
    restrict : int or collection of str, optional
        Which words may be neutralized: ``None`` every word that is neither gender-specific nor equalized;
        an int n, only those among the n first rows (the n most frequent words, for embeddings in frequency
        order); or a collection of words, only those. Other words are only normalised.
    equalize_from : {"input", "neutralized"}, default "input"
        ``"input"`` (the paper) or ``"neutralized"`` (the authors' code): see Notes.
    chunk_rows : int, default DEFAULT_CHUNK_ROWS
        Rows converted to float64 at a time (the result is float32; memory use is the result plus one
        chunk, so 3M x 300 needs about 3.6 GB for the result).
    out : numpy.ndarray, optional
        A writable float32 array of ``kv.vectors``' shape to write the result into (e.g. a memory-mapped
        ``.npy`` from ``numpy.lib.format.open_memmap``, or ``kv.vectors`` itself when it is writable: the input
        rows the equalize step needs are kept first); by default a new array. A read-only array (a loaded
        cache's or package's memory map) is refused before any work
        (:func:`wordbias.core.validation.check_out`).

    Returns
    -------
    debiased : KeyedVectors
        float32 vectors with ``kv``'s vocabulary in ``kv``'s order, every vector of unit length.
    report : HardDebiasReport
        What was done.

    Raises
    ------
    ValueError
        If ``equalize_from``, ``chunk_rows``, ``out`` or ``restrict`` is invalid, ``kv``'s matrix does not
        match its vocabulary, or a word is in two equalize pairs (``out`` of the wrong kind or read-only:
        :class:`~wordbias.core.errors.InvalidParameterError`, a ``ValueError``).
    TypeError
        If ``restrict`` is a single string.
    DegenerateSetError
        If a word's vector is zero or non-finite, a neutralized word lies exactly along g, or no definitional
        pair is left.

    Notes
    -----
    The authors' hard-debiased word2vec GoogleNews vectors (``w2v-gnews-hard-debiased`` in the embeddings
    registry) were produced by their own code (https://github.com/tolga-b/debiaswe, ``debias.py``) and are the
    ones to use to reproduce results on that embedding. This function differs from that code in three ways:

    * Equalize takes μ from the normalised *input* vectors (as the paper's algorithm reads). The authors'
      code neutralizes first and then takes μ from the neutralized vectors, which differs only for equalize
      words that are not in the gender-specific list (for word2vec, case variants such as ``Monastery``,
      ``MOTHER``); ``equalize_from="neutralized"`` does that. The side s is always taken from the input
      vectors (for two neutralized words the code's sign would be rounding noise).
    * Equalize pairs are processed in list order and a word may belong to one pair only (the code iterates
      over a Python set).
    * The 'soft' debiasing of Section 6, Step 2b, is not implemented.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["she", "he", "woman", "man", "nurse", "doctor"]
    >>> kv = to_keyed_vectors(words, np.array([[1.0, 0.2, 0.1], [-1.0, 0.2, 0.1], [0.9, 0.1, 0.3],
    ...                                         [-0.9, 0.1, 0.3], [0.4, 1.0, 0.0], [-0.3, 0.9, 0.2]],
    ...                                        dtype=np.float32))
    >>> out, report = hard_debias(kv, [("she", "he"), ("woman", "man")], ["she", "he", "woman", "man"], [])
    >>> report.n_neutralized, round(report.mean_abs_cos_before, 3), report.max_abs_cos_after < 1e-6
    (2, 0.34, True)
    """
    if equalize_from not in ("input", "neutralized"):
        raise ValueError(f"equalize_from must be 'input' or 'neutralized', not {equalize_from!r}")
    if chunk_rows < 1:
        raise ValueError(f"chunk_rows must be positive, not {chunk_rows}")
    if None in (definitional_pairs, gender_specific, equalize_pairs):
        lists = word_lists_for(kv)
        definitional_pairs = lists.definitional_pairs if definitional_pairs is None else definitional_pairs
        gender_specific = lists.gender_specific if gender_specific is None else gender_specific
        equalize_pairs = lists.equalize_pairs if equalize_pairs is None else equalize_pairs
    n, d = len(kv.index_to_key), kv.vector_size
    if kv.vectors.shape != (n, d):
        raise ValueError(f"the embedding has {n} words but a matrix of shape {kv.vectors.shape}")
    out = check_out("out", out, (n, d))

    # Step 1: the gender direction, from the normalised vectors of the definitional pairs.
    defs = lookup.pair_vectors(kv, definitional_pairs, on_missing="drop", name="definitional pairs")
    g, ratios = pca_direction(defs.A, defs.B)
    roles = _roles(kv, gender_specific, equalize_pairs, restrict)

    # Step 2a: normalise and neutralize, then equalize.
    saved = None
    if out is None:
        out = np.empty((n, d), dtype=np.float32)
    elif np.may_share_memory(out, kv.vectors):
        same = (out.__array_interface__["data"][0] == kv.vectors.__array_interface__["data"][0]
                and out.strides == kv.vectors.strides)
        if not same:
            raise InvalidParameterError("out overlaps kv.vectors without being the same array (a shifted or "
                                        "reordered view): rows would be read after they were written; pass "
                                        "kv.vectors itself, a separate array, or out=None")
        if roles.equalize.pairs:                     # in place: keep the input rows the equalize step reads
            saved = np.array(kv.vectors[np.concatenate([roles.ia, roles.ib])])
    sum_before, sum_after, max_after = _normalize_and_neutralize(kv, g, roles.neutral, out, chunk_rows)
    if roles.equalize.pairs:
        _equalize(kv.vectors, g, roles, equalize_from, out, saved)

    n_neutral = int(roles.neutral.sum())
    report = HardDebiasReport(
        direction=g,
        explained_variance_ratio=ratios,
        definitional_pairs=defs.pairs,
        definitional_missing=defs.missing_words,
        n_words=n,
        n_gender_specific=len(roles.specific),
        gender_specific_missing=roles.specific_missing,
        n_neutralized=n_neutral,
        n_normalized_only=n - n_neutral - 2 * len(roles.equalize.pairs),
        equalized_pairs=roles.equalize.pairs,
        equalize_missing=roles.equalize.missing_words,
        mean_abs_cos_before=sum_before / n_neutral if n_neutral else float("nan"),
        mean_abs_cos_after=sum_after / n_neutral if n_neutral else float("nan"),
        max_abs_cos_after=max_after if n_neutral else float("nan"),
        equalize_from=equalize_from,
    )
    debiased = embeddings.to_keyed_vectors(list(kv.index_to_key), out, dict(kv.key_to_index.items()))
    return debiased, report
