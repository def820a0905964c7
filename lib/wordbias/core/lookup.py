"""Words to vectors: the one resolver every measure uses to look words, word sets and word pairs up.

An embedding is a gensim ``KeyedVectors`` or any mapping word -> vector. The unknown-word policy is
``on_missing``: ``"drop"`` keeps the words found and reports the others, ``"raise"`` raises ``KeyError``
naming them (Caliskan et al. 2017, Supplementary, WEAT 3, drop and report). ``case_fold=True`` lower-cases
the words before looking them up (for uncased embeddings such as GloVe 6B). Vectors come back as float64
rows, in the order of the words kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from wordbias.core.errors import DegenerateSetError

__all__ = [
    "ON_MISSING",
    "DegenerateSetError",
    "WordSet",
    "PairVectors",
    "SetVectors",
    "vocabulary",
    "present",
    "vectors",
    "word_set",
    "pair_vectors",
    "set_vectors",
]

#: the unknown-word policies
ON_MISSING = ("drop", "raise")


def _check_on_missing(on_missing: str) -> None:
    if on_missing not in ON_MISSING:
        raise ValueError(f"on_missing must be 'drop' or 'raise', not {on_missing!r}")


def _fold(words: Iterable[str], case_fold: bool) -> tuple[str, ...]:
    return tuple(w.lower() for w in words) if case_fold else tuple(words)


# --------------------------------------------------------------------------------------------------
# membership and vectors
# --------------------------------------------------------------------------------------------------

def vocabulary(embedding):
    """What ``word in ...`` is asked of: a ``KeyedVectors``' ``key_to_index``, a set or mapping as it is, a
    list, tuple or other iterable of words as a set.

    Examples
    --------
    >>> "b" in vocabulary(["a", "b"]), "c" in vocabulary({"a": [1.0]})
    (True, False)
    """
    if hasattr(embedding, "key_to_index"):  # gensim KeyedVectors
        return embedding.key_to_index
    if isinstance(embedding, (set, frozenset, Mapping)):
        return embedding
    if isinstance(embedding, (list, tuple)) or not hasattr(embedding, "__contains__"):
        return set(embedding)
    return embedding


def present(embedding, words: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(found, missing)``: the words of ``words`` that ``embedding`` has and those it lacks, each in order.

    Examples
    --------
    >>> present({"a": [1.0], "b": [2.0]}, ["b", "z", "a"])
    (('b', 'a'), ('z',))
    """
    known = vocabulary(embedding)
    words = tuple(words)
    return tuple(w for w in words if w in known), tuple(w for w in words if w not in known)


def vectors(embedding, words: Sequence[str]) -> np.ndarray:
    """The vectors of ``words`` (all in ``embedding``) as the rows of a float64 matrix, not normalised.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["a", "b"], np.array([[1, 0], [0, 2]], dtype=np.float32))
    >>> vectors(kv, ["b", "a"])
    array([[0., 2.],
           [1., 0.]])
    """
    if hasattr(embedding, "key_to_index"):  # gensim KeyedVectors: one fancy-index gather
        idx = [embedding.key_to_index[w] for w in words]
        return np.asarray(embedding.vectors[idx], dtype=np.float64)
    return np.asarray([embedding[w] for w in words], dtype=np.float64)


# --------------------------------------------------------------------------------------------------
# a set of words
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WordSet:
    """A named list of words after the unknown-word policy: what was kept, missing, and balanced away.

    ``requested`` is the list as asked for (case-folded if asked), ``words`` the words kept, in order;
    ``balanced_out`` the words a test deleted afterwards to balance two sets (:func:`wordbias.measures.weat.balance`).
    """

    name: str
    requested: tuple[str, ...]
    words: tuple[str, ...]
    missing: tuple[str, ...] = ()
    balanced_out: tuple[str, ...] = ()


def word_set(embedding, words: Sequence[str], *, name: str = "words", on_missing: str = "drop",
             case_fold: bool = False, min_size: int = 1) -> WordSet:
    """Look ``words`` up in ``embedding`` and apply the unknown-word policy.

    ``on_missing="drop"`` keeps the words found and records the others; ``"raise"`` raises ``KeyError``
    listing every missing word. Duplicates are an error (a word counted twice would weigh double). A set
    with fewer than ``min_size`` words left raises :class:`DegenerateSetError` naming the set.

    Examples
    --------
    >>> emb = {"rose": [1.0, 0.0], "tulip": [0.9, 0.1]}
    >>> s = word_set(emb, ["Rose", "Tulip", "Daisy"], name="flowers", case_fold=True)
    >>> s.words, s.missing
    (('rose', 'tulip'), ('daisy',))
    >>> vectors(emb, s.words)
    array([[1. , 0. ],
           [0.9, 0.1]])
    """
    _check_on_missing(on_missing)
    words = _fold(words, case_fold)
    dup = sorted(w for w, count in Counter(words).items() if count > 1)
    if dup:
        raise ValueError(f"set {name!r} lists words more than once: {dup}")
    kept, missing = present(embedding, words)
    if missing and on_missing == "raise":
        raise KeyError(f"set {name!r}: {len(missing)} word(s) not in the embedding: {list(missing)}")
    if len(kept) < min_size:
        what = "empty" if not kept else f"left with {len(kept)} word(s) {list(kept)}"
        raise DegenerateSetError(
            f"set {name!r} is {what} after dropping unknown words {list(missing)}; at least {min_size} needed")
    return WordSet(name=name, requested=words, words=kept, missing=missing)


# --------------------------------------------------------------------------------------------------
# pairs of words, and two sets of words
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PairVectors:
    """Pairs of words looked up in an embedding: the vectors of the pairs kept, and what was missing."""

    #: the pairs whose two words are both in the embedding, in the order given
    pairs: tuple[tuple[str, str], ...]
    #: vectors of the first / second words of ``pairs`` (float64, not normalised), shape (len(pairs), d)
    A: np.ndarray
    B: np.ndarray
    #: the pairs dropped, each with the tuple of its words that were missing
    missing: tuple[tuple[tuple[str, str], tuple[str, ...]], ...] = ()

    @property
    def missing_words(self) -> tuple[str, ...]:
        """Every missing word, once, in order of appearance."""
        return tuple(dict.fromkeys(w for _, words in self.missing for w in words))


def pair_vectors(embedding, pairs: Sequence[Sequence[str]], *, name: str = "pairs", on_missing: str = "drop",
                 case_fold: bool = False, min_pairs: int = 1) -> PairVectors:
    """Look each pair of words up in ``embedding``; a pair is kept only if both its words are there.

    ``on_missing="drop"`` drops the pairs with a missing word and records them (:attr:`PairVectors.missing`);
    ``"raise"`` raises ``KeyError`` listing each incomplete pair and its missing words. Fewer than
    ``min_pairs`` pairs left is a :class:`DegenerateSetError` naming the missing words. A pair must have two
    distinct words.

    Examples
    --------
    >>> emb = {"she": [1.0, 0.0], "he": [0.0, 1.0], "her": [2.0, 0.0]}
    >>> found = pair_vectors(emb, [("she", "he"), ("her", "his")])
    >>> found.pairs, found.missing_words
    ((('she', 'he'),), ('his',))
    >>> found.A, found.B
    (array([[1., 0.]]), array([[0., 1.]]))
    """
    _check_on_missing(on_missing)
    known = vocabulary(embedding)
    kept, missing = [], []
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"{name}: {pair!r} is not a pair of two words")
        a, b = _fold(pair, case_fold)
        if a == b:
            raise ValueError(f"{name}: the pair {pair!r} has the same word twice (a pair needs two different words)")
        absent = tuple(w for w in (a, b) if w not in known)
        (missing.append(((a, b), absent)) if absent else kept.append((a, b)))
    if missing and on_missing == "raise":
        detail = "; ".join(f"{p[0]}/{p[1]} (missing {', '.join(ws)})" for p, ws in missing)
        raise KeyError(f"{name}: {len(missing)} pair(s) with words not in the embedding: {detail}")
    if len(kept) < min_pairs:
        words = [w for _, ws in missing for w in ws]
        detail = f" (missing: {words})" if words else " (no pairs given)"
        raise DegenerateSetError(f"{name}: no pair has both words in the embedding{detail}")
    A = vectors(embedding, [a for a, _ in kept])
    B = vectors(embedding, [b for _, b in kept])
    return PairVectors(pairs=tuple(kept), A=A, B=B, missing=tuple(missing))


@dataclass(frozen=True)
class SetVectors:
    """Two word sets looked up in an embedding: the words kept, their vectors and the words missing."""

    words: tuple[tuple[str, ...], tuple[str, ...]]
    A: np.ndarray
    B: np.ndarray
    missing: tuple[tuple[str, ...], tuple[str, ...]]


def set_vectors(embedding, words_a: Sequence[str], words_b: Sequence[str], *, name: str = "sets",
                on_missing: str = "drop", case_fold: bool = False) -> SetVectors:
    """Look two disjoint word sets up in ``embedding`` (each as :func:`word_set`, at least one word kept).

    A word in both sets, or twice in one, is an error naming the words; so is a set with no word left.

    Examples
    --------
    >>> emb = {"good": [1.0, 0.0], "kind": [0.8, 0.2], "bad": [0.0, 1.0]}
    >>> found = set_vectors(emb, ["good", "kind"], ["bad", "evil"], name="valence")
    >>> found.words, found.missing
    ((('good', 'kind'), ('bad',)), ((), ('evil',)))
    """
    words_a, words_b = _fold(words_a, case_fold), _fold(words_b, case_fold)
    common = sorted(set(words_a) & set(words_b))
    if common:
        raise ValueError(f"{name}: words in both sets: {common}")
    a = word_set(embedding, words_a, name=f"{name}, first set", on_missing=on_missing)
    b = word_set(embedding, words_b, name=f"{name}, second set", on_missing=on_missing)
    return SetVectors((a.words, b.words), vectors(embedding, a.words), vectors(embedding, b.words),
                      (a.missing, b.missing))
