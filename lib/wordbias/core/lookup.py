"""Words to vectors: the one resolver every measure uses to look words, word sets and word pairs up.

An embedding is a gensim ``KeyedVectors`` or any mapping word -> vector. The unknown-word policy is
``on_missing``: ``"drop"`` keeps the words found and reports the others, ``"raise"`` raises ``KeyError``
naming them (Caliskan et al. 2017, Supplementary, WEAT 3, drop and report). Dropping is never silent: it
warns :class:`~wordbias.core.errors.MissingWordsWarning` naming the set and the words, and says to pass
``case_fold=True`` when the words are there in lower case (an uncased embedding meeting cased stimuli).
``case_fold=True`` lower-cases the words before looking them up (for uncased embeddings such as GloVe 6B).
Word lists are checked at this boundary (:func:`wordbias.core.validation.check_words`): a string is not a
list, a ``set`` is sorted, duplicates are refused. Vectors come back as float64 rows, in the order of the
words kept; :func:`set_matrix` also refuses zero or non-finite vectors, naming the words and the set.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.core.validation import (
    as_float_array,
    check_bool,
    check_disjoint,
    check_int,
    check_option,
    check_words,
)

__all__ = [
    "ON_MISSING",
    "check_on_missing",
    "check_word_list",
    "warn_user",
    "WordSet",
    "PairVectors",
    "SetVectors",
    "vocabulary",
    "present",
    "vectors",
    "set_matrix",
    "case_hint",
    "word_set",
    "pair_vectors",
    "set_vectors",
]

#: the unknown-word policies
ON_MISSING = ("drop", "raise")


def check_on_missing(on_missing: str) -> str:
    """``on_missing`` if it is one of :data:`ON_MISSING`, else an error listing them."""
    return check_option("on_missing", on_missing, ON_MISSING)


def _check_on_missing(on_missing: str) -> None:
    check_option("on_missing", on_missing, ON_MISSING)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def warn_user(warning: Warning) -> None:
    """Issue ``warning`` attributed to the first caller outside the wordbias package (the user's line, or the
    notebook cell), however deep inside wordbias it arises; Python 3.12's ``skip_file_prefixes``, by hand."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(warning, stacklevel=level)


def _fold(words: Iterable[str], case_fold: bool) -> tuple[str, ...]:
    return tuple(w.lower() for w in words) if case_fold else tuple(words)


def check_word_list(name: str, words, case_fold: bool = False) -> tuple[str, ...]:
    """A word list checked (:func:`~wordbias.core.validation.check_words`: a string refused, a set sorted,
    duplicates refused) and then case-folded if asked; words that become duplicates only by folding
    (``"Bill"``, ``"bill"``) are refused too, naming them."""
    words = check_words(name, words)
    if case_fold:
        words = check_words(f"{name} (lower-cased, case_fold=True)", _fold(words, True))
    return words


def case_hint(embedding, missing: Sequence[str], case_fold: bool) -> str:
    """A hint for words missing as written but present in lower case: '' when none is (or when the words
    were already folded), else a sentence saying to lower-case them: by hand, or by ``case_fold=True`` where the
    function called has that option (some that look words up, such as the debiasing functions, do not).

    Examples
    --------
    >>> case_hint({"adam": [1.0]}, ["Adam", "Zed"], case_fold=False)
    "; 1 of them are in the embedding in lower case (['adam']): the embedding looks uncased; lower-case the words, or pass case_fold=True to a function that takes it"
    """
    if case_fold:
        return ""
    known = vocabulary(embedding)
    lower = [w.lower() for w in missing if w.lower() != w and w.lower() in known]
    if not lower:
        return ""
    shown = lower if len(lower) <= 8 else lower[:8] + ["..."]
    return (f"; {len(lower)} of them are in the embedding in lower case ({shown}): the embedding looks uncased; "
            "lower-case the words, or pass case_fold=True to a function that takes it")


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
    return _mapping_vectors(embedding, words)


#: how many vectors of a word -> vector mapping are looked at to learn its usual length
_SAMPLE_LENGTHS = 64


def _mapping_vectors(embedding, words: Sequence[str]) -> np.ndarray:
    """The vectors of ``words`` in a word -> vector mapping, checked: each row a vector of numbers
    (:func:`~wordbias.core.validation.as_float_array`, one word at a time when they do not stack: torch tensors
    detached, anything else refused naming the word), and all of the mapping's usual length -- the most common
    among these words and the mapping's first :data:`_SAMPLE_LENGTHS` vectors -- else
    :class:`~wordbias.core.errors.InvalidParameterError` naming the words of another length (a mapping whose
    vectors differ in length is no embedding; each set may look consistent on its own)."""
    rows = [embedding[w] for w in words]
    try:
        m = np.asarray(rows, dtype=np.float64)
    except (ValueError, TypeError, RuntimeError):  # ragged, not numbers, torch tensors that require grad
        m = None
    if m is not None and not rows:
        return m
    if m is not None and m.ndim == 2:
        lengths = {m.shape[1]: list(words)}
    else:
        m, lengths = [], {}
        for w, row in zip(words, rows):
            v = as_float_array(f"the vector of {w!r}", row, ndim=1, what="a vector of numbers")
            lengths.setdefault(v.shape[0], []).append(w)
            m.append(v)
    counts = Counter({n: len(ws) for n, ws in lengths.items()})
    values = getattr(embedding, "values", None)
    if callable(values):
        counts.update(n for n in map(_length, islice(values(), _SAMPLE_LENGTHS)) if n is not None)
    common = counts.most_common(1)[0][0]
    others = {w: n for n, ws in lengths.items() if n != common for w in ws}
    if others:
        shown = dict(list(others.items())[:10])
        raise InvalidParameterError(
            f"the embedding's vectors have different lengths: most have {common} values, but {shown}"
            f"{' ...' if len(others) > 10 else ''} (word: length); every word needs a vector of the same dimension")
    return m if isinstance(m, np.ndarray) else np.vstack(m)


def _length(vector) -> int | None:
    """The length of a 1-D vector (a list, an array, a tensor), or None for anything else."""
    shape = getattr(vector, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) == 1 else None
    if isinstance(vector, (str, bytes)):
        return None
    try:
        return len(vector)
    except TypeError:
        return None


def set_matrix(embedding, words: Sequence[str], name: str = "words") -> np.ndarray:
    """:func:`vectors` of a word set, refusing zero or non-finite vectors (a cosine with them is undefined)
    with an error naming the words and the set.

    Examples
    --------
    >>> set_matrix({"a": [1.0, 0.0], "b": [0.0, 0.0]}, ["a", "b"], name="X")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.DegenerateSetError: set 'X': the vectors of ['b'] are zero or not finite; a cosine with them is undefined (remove these words, or load the embedding without such rows)
    """
    m = vectors(embedding, words)
    if m.size:
        norms = np.linalg.norm(m, axis=1)
        bad = ~(np.isfinite(norms) & (norms > 0))
        if bad.any():
            raise DegenerateSetError(
                f"set {name!r}: the vectors of {[words[i] for i in np.flatnonzero(bad)]} are zero or not finite; a "
                "cosine with them is undefined (remove these words, or load the embedding without such rows)")
    return m


# --------------------------------------------------------------------------------------------------
# a set of words
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WordSet:
    """A named list of words after the unknown-word policy: what was kept, missing, and balanced away.

    ``requested`` is the list as asked for (case-folded if asked), ``words`` the words kept, in order;
    ``balanced_out`` the words a test deleted afterwards to balance two sets (:func:`wordbias.measures.association.weat.balance`).

    Attributes
    ----------
    name : str
        The set's name, as errors and reports show it (``"X"``, or a label such as ``"flowers"``).
    requested : tuple of str
        The list as asked for, case-folded if asked.
    words : tuple of str
        The words kept, in the order asked for.
    missing : tuple of str
        The words the embedding does not have.
    balanced_out : tuple of str
        The words a test deleted afterwards to balance two sets.
    """

    name: str
    requested: tuple[str, ...]
    words: tuple[str, ...]
    missing: tuple[str, ...] = ()
    balanced_out: tuple[str, ...] = ()


def word_set(embedding, words: Sequence[str], *, name: str = "words", on_missing: str = "drop",
             case_fold: bool = False, min_size: int = 1, warn: bool = True) -> WordSet:
    """Look ``words`` up in ``embedding`` and apply the unknown-word policy.

    ``words`` is checked first (:func:`check_word_list`): a string is refused (it is not a list of words), a
    ``set`` is sorted (so results do not depend on ``PYTHONHASHSEED``), duplicates are an error (a word
    counted twice would weigh double). ``on_missing="drop"`` keeps the words found, records the others and
    warns :class:`~wordbias.core.errors.MissingWordsWarning` naming the set and the words (``warn=False``
    leaves the warning to a caller that reports them itself); ``"raise"`` raises ``KeyError`` listing every
    missing word. Either says to pass ``case_fold=True`` when the words are there in lower case. A set with
    fewer than ``min_size`` words left raises :class:`DegenerateSetError` naming the set.

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
    case_fold = check_bool("case_fold", case_fold)
    min_size = check_int("min_size", min_size, min=0)
    words = check_word_list(f"set {name!r}", words, case_fold)
    kept, missing = present(embedding, words)
    return _apply_policy(embedding, name, words, kept, missing, on_missing, case_fold, min_size, warn)


def _apply_policy(embedding, name, words, kept, missing, on_missing, case_fold, min_size, warn) -> WordSet:
    """Raise, fail on a set left too small, or warn, for the words of set ``name`` not found."""
    hint = case_hint(embedding, missing, case_fold) if missing else ""
    if missing and on_missing == "raise":
        raise KeyError(f"set {name!r}: {len(missing)} word(s) not in the embedding: {list(missing)}{hint}")
    if len(kept) < min_size:
        what = "empty" if not kept else f"left with {len(kept)} word(s) {list(kept)}"
        raise DegenerateSetError(f"set {name!r} is {what} after dropping unknown words {list(missing)}; at least "
                                 f"{min_size} needed{hint}")
    if missing and warn:
        warn_user(MissingWordsWarning(
            f"set {name!r}: {len(missing)} of {len(words)} word(s) not in the embedding, dropped: {list(missing)}"
            f"{hint}"))
    return WordSet(name=name, requested=words, words=kept, missing=missing)


# --------------------------------------------------------------------------------------------------
# pairs of words, and two sets of words
# --------------------------------------------------------------------------------------------------

def _check_pairs(name: str, pairs, case_fold: bool) -> list[tuple[str, str]]:
    """``pairs`` as a list of (a, b) tuples of two distinct non-empty strings (case-folded if asked): a
    string, a mapping or a non-iterable is refused, a set is sorted, a pair listed twice is refused."""
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable) or isinstance(pairs, Mapping):
        raise InvalidParameterError(f"{name} must be a list of word pairs such as [('she', 'he')], not "
                                    f"{pairs!r:.80}")
    items = list(pairs)
    if isinstance(pairs, (set, frozenset)):
        items = sorted(items, key=repr)
    out = []
    for i, pair in enumerate(items):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable) or len(tuple(pair)) != 2:
            raise InvalidParameterError(f"{name}: item {i}, {pair!r:.80}, is not a pair of two words")
        a, b = check_words(f"{name}: pair {i}", tuple(pair), allow_duplicates=True)
        a, b = _fold((a, b), case_fold)
        if a == b:
            raise InvalidParameterError(
                f"{name}: the pair {tuple(pair)!r} has the same word twice (a pair needs two different words)")
        out.append((a, b))
    dups = [p for p, c in Counter(out).items() if c > 1]
    if dups:
        raise InvalidParameterError(f"{name} lists these pairs more than once: {dups}")
    return out


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
                 case_fold: bool = False, min_pairs: int = 1, warn: bool = True) -> PairVectors:
    """Look each pair of words up in ``embedding``; a pair is kept only if both its words are there.

    ``on_missing="drop"`` drops the pairs with a missing word and records them (:attr:`PairVectors.missing`);
    ``"raise"`` raises ``KeyError`` listing each incomplete pair and its missing words. Dropped pairs warn
    :class:`~wordbias.core.errors.MissingWordsWarning` (unless ``warn=False``). Fewer than ``min_pairs``
    pairs left is a :class:`DegenerateSetError` naming the missing words. ``pairs`` must be a list (not a
    string, a set is sorted) of pairs of two distinct words; a pair listed twice is refused.

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
    case_fold = check_bool("case_fold", case_fold)
    pairs = _check_pairs(name, pairs, case_fold)
    known = vocabulary(embedding)
    kept, missing = [], []
    for a, b in pairs:
        absent = tuple(w for w in (a, b) if w not in known)
        (missing.append(((a, b), absent)) if absent else kept.append((a, b)))
    words = [w for _, ws in missing for w in ws]
    hint = case_hint(embedding, words, case_fold) if missing else ""
    if missing and on_missing == "raise":
        detail = "; ".join(f"{p[0]}/{p[1]} (missing {', '.join(ws)})" for p, ws in missing)
        raise KeyError(f"{name}: {len(missing)} pair(s) with words not in the embedding: {detail}{hint}")
    if len(kept) < min_pairs:
        detail = f" (missing: {words})" if words else " (no pairs given)"
        raise DegenerateSetError(f"{name}: no pair has both words in the embedding{detail}{hint}")
    if missing and warn:
        detail = "; ".join(f"{p[0]}/{p[1]} (missing {', '.join(ws)})" for p, ws in missing)
        warn_user(MissingWordsWarning(f"{name}: {len(missing)} of {len(pairs)} pair(s) dropped, words not in "
                                          f"the embedding: {detail}{hint}"))
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
                on_missing: str = "drop", case_fold: bool = False, warn: bool = True) -> SetVectors:
    """Look two disjoint word sets up in ``embedding`` (each as :func:`word_set`, at least one word kept).

    A string instead of a list, a word in both sets, or twice in one, is an error naming the words; so is a
    set with no word left, or a word whose vector is zero or not finite. Dropped words warn
    :class:`~wordbias.core.errors.MissingWordsWarning` (unless ``warn=False``).

    Examples
    --------
    >>> emb = {"good": [1.0, 0.0], "kind": [0.8, 0.2], "bad": [0.0, 1.0]}
    >>> found = set_vectors(emb, ["good", "kind"], ["bad", "evil"], name="valence")
    >>> found.words, found.missing
    ((('good', 'kind'), ('bad',)), ((), ('evil',)))
    """
    names = (f"{name}, first set", f"{name}, second set")
    case_fold = check_bool("case_fold", case_fold)
    words_a = check_word_list(f"set {names[0]!r}", words_a, case_fold)
    words_b = check_word_list(f"set {names[1]!r}", words_b, case_fold)
    check_disjoint(f"{name}: the first set", words_a, "the second set", words_b)
    a = word_set(embedding, words_a, name=names[0], on_missing=on_missing, warn=warn)
    b = word_set(embedding, words_b, name=names[1], on_missing=on_missing, warn=warn)
    return SetVectors((a.words, b.words), set_matrix(embedding, a.words, names[0]),
                      set_matrix(embedding, b.words, names[1]), (a.missing, b.missing))
