"""The vector-identity check: words of a test whose vector is not their own.

Two words with one vector cannot differ in any measure: a WEAT's X and Y, or a name and its neighbour in one set,
then measure nothing, or the same thing twice. Some embeddings do this on purpose: a *pruned* embedding (spaCy's
``en_core_web_md``, :mod:`wordbias.embeddings.spacy_vectors`) keeps 20,000 vectors for 514,157 keys and gives every
other word the row of its nearest kept word, so that *Kristin* reads *Stephanie*'s vector and *Ebony* the one of
*Sexy*. Elsewhere it happens by accident (a word list with two spellings that an embedding merged, vectors copied).

:func:`check_sets` looks at the words a test uses, per set, and flags:

* a word that **borrows another word's row**: its ``key_to_index`` row belongs to another word (the row's
  ``index_to_key``; an embedding whose keys outnumber its rows); the note says whose row it is and how many keys
  share it;
* words with **one vector within the test** (of any of its sets): the same row, the same bytes, or a
  **near-duplicate**: cosine >= ``1 - NEAR_DUPLICATE`` (``1 - 1e-6``). The threshold: a vector and a copy of it
  rescaled, re-rounded to float32 or written as text with 4 significant digits stay within about ``1e-8`` of
  cosine 1 (``1 - cos`` grows with the square of the relative rounding), while two vectors that differ by an angle
  of 0.08 degrees are already ``1e-6`` apart; no two distinct words of a trained embedding come that close.

The check costs a dictionary look-up per word and one Gram matrix of the test's words (tests of up to
:data:`NEAR_DUPLICATE_MAX_WORDS` words; beyond, the exact checks only): 1 to 2 ms for WEAT 3's 114 words on one
core, against the tenths of a second of the test. An
embedding with one key per row and no repeated vector gives no flag, and the result is the one measured without
the check. ``Words(shared_vectors=...)`` decides what a flag does: ``"keep"`` (flag, in the result's notes),
``"drop"`` (the borrowing words and every word of a group with one vector are left out, like missing words) or
``"raise"`` (an error naming them).

Every static measure of :data:`wordbias.catalogue.CATALOGUE` that takes ``words=`` runs the check: the measures
of word sets through :func:`apply_policy`, those of words and pairs (RIPA's base pairs, DirectBias's and the
indirect bias's definitional pairs) through :func:`apply_pair_policy`, where a pair is flagged, and left out
whole, when one of its words is. UBE is not checked: its candidate words are the embedding's own rows
(``index_to_key``, one key per row, so none borrows a row); the names it is given are not checked either.

**Words split into several tokens.** A token model's analogue of a borrowed vector is a test word its tokenizer
splits into several sub-word tokens: the model never saw the word as one unit, and what stands for it is pooled
from pieces (Kurita et al. 2019, §3.1, reduce their target lists to one-WordPiece words for this reason; a SEAT's
sentence vector pools the pieces with the rest of the sentence). :func:`split_words` finds them;
:func:`split_words_note` writes the note that SEAT on a transformer and the contextual measures of
:mod:`wordbias.measures.language_models.contextual` add to a result. The note flags; nothing is left out and no
number changes.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import check_option

__all__ = ["SHARED_VECTORS", "NEAR_DUPLICATE", "NEAR_DUPLICATE_MAX_WORDS", "IdentityCheck", "check_sets",
           "apply_policy", "apply_pair_policy", "with_identity", "identity_notes", "row_key_counts", "shared_rows",
           "check_shared_vectors", "split_words", "split_words_note"]

#: what a word whose vector is not its own does: flagged and kept, left out, or an error
SHARED_VECTORS = ("keep", "drop", "raise")
#: two vectors whose cosine is at least ``1 - NEAR_DUPLICATE`` are one vector (see the module's text)
NEAR_DUPLICATE = 1e-6
#: the most words of a test whose cosines are compared (a larger test gets the exact checks only)
NEAR_DUPLICATE_MAX_WORDS = 2000

_ROW_COUNTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def check_shared_vectors(value: str) -> str:
    """Check a ``shared_vectors`` option.

    Parameters
    ----------
    value : str
        The option given.

    Returns
    -------
    str
        ``value``, when it is one of :data:`SHARED_VECTORS`.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If it is not (the message lists them).
    """
    return check_option("shared_vectors", value, SHARED_VECTORS)


@dataclass(frozen=True)
class IdentityCheck:
    """The words of a test whose vector is not their own.

    Attributes
    ----------
    flags : mapping of str to tuple of (str, str)
        Per set letter, each flagged word with why: ``("Ebony", "row of 'Sexy', shared by 181 keys")``.
    drop : mapping of str to tuple of str
        Per set letter, the words ``shared_vectors="drop"`` leaves out: the borrowing words and every word of a
        group with one vector (after the borrowing words are out).
    """

    flags: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    drop: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return any(self.flags.values())

    def shared(self, letter: str) -> tuple[str, ...]:
        """The flagged words of one set.

        Parameters
        ----------
        letter : str
            The set's letter.

        Returns
        -------
        tuple of str
            Its flagged words, in the test's order; empty when none is flagged or the set is not checked.
        """
        return tuple(w for w, _ in self.flags.get(letter, ()))

    def note(self) -> str:
        """The note a result carries.

        Returns
        -------
        str
            ``"shared vectors: Y: Ebony (row of 'Sexy', shared by 181 keys); X: ..."``; ``""`` when nothing is
            flagged.
        """
        parts = [f"{letter}: " + ", ".join(f"{w} ({why})" for w, why in found)
                 for letter, found in self.flags.items() if found]
        return "shared vectors: " + "; ".join(parts) if parts else ""

    def error(self) -> DegenerateSetError:
        """The error of ``shared_vectors="raise"``.

        Returns
        -------
        wordbias.core.errors.DegenerateSetError
            The error (not raised), naming the flagged words and why (:meth:`note`).
        """
        return DegenerateSetError(f"{self.note()}; words with one vector cannot differ in a measure "
                                  "(Words(shared_vectors='drop') leaves them out, 'keep' flags them)")


def row_key_counts(embedding) -> np.ndarray | None:
    """How many keys each row of an embedding has (counted once per embedding object).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The vectors; one without ``key_to_index`` and ``index_to_key`` (a mapping) has a row per key.

    Returns
    -------
    numpy.ndarray of int64, shape (len(index_to_key),) or None
        The keys of each row; None when every key has a row of its own (as many keys as rows, the usual case,
        answered without a pass over the vocabulary).
    """
    index, keys = getattr(embedding, "key_to_index", None), getattr(embedding, "index_to_key", None)
    if index is None or keys is None or len(index) <= len(keys):
        return None
    try:
        counts = _ROW_COUNTS.get(embedding)
    except TypeError:
        counts = None
    if counts is None or counts.shape[0] != len(keys):
        rows = np.fromiter(index.values(), dtype=np.int64, count=len(index))
        counts = np.bincount(rows, minlength=len(keys))
        try:
            _ROW_COUNTS[embedding] = counts
        except TypeError:
            pass
    return counts


def _borrowed(embedding, word: str, counts: np.ndarray | None) -> str | None:
    """Why ``word`` reads another word's row (``None`` when the row is its own)."""
    if counts is None:
        return None
    row = embedding.key_to_index[word]
    owner = embedding.index_to_key[row]
    return None if owner == word else f"row of {owner!r}, shared by {int(counts[row]):,} keys"


def check_sets(embedding, sets: Mapping[str, Sequence[str]], *,
               threshold: float = NEAR_DUPLICATE) -> IdentityCheck:
    """Flag the words of a test whose vector is not their own (the module's text says what is flagged).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The vectors.
    sets : mapping of str to sequence of str
        The test's sets by letter; words the embedding lacks are skipped.
    threshold : float, default NEAR_DUPLICATE
        Two words are near-duplicates when their cosine is at least ``1 - threshold``.

    Returns
    -------
    IdentityCheck
        The flagged words per set, and those ``shared_vectors="drop"`` leaves out.

    Examples
    --------
    >>> emb = {"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [2.0, 0.0]}
    >>> check_sets(emb, {"X": ["a", "b"], "Y": ["c"]}).note()
    "shared vectors: X: a (one vector with 'c' (Y)); Y: c (one vector with 'a' (X))"
    """
    from wordbias.core.lookup import present

    used = [(letter, w) for letter, words in sets.items() for w in present(embedding, words)[0]]
    counts = row_key_counts(embedding)
    borrowed = {i: why for i, (_, w) in enumerate(used) if (why := _borrowed(embedding, w, counts))}
    groups = [g for g in _one_vector_groups(embedding, [w for _, w in used], threshold)
              if len({used[i][1] for i in g}) > 1]          # one word in two sets (or pairs) is not two words
    reasons: dict[int, list[str]] = {i: [why] for i, why in borrowed.items()}
    drop = set(borrowed)
    for group in groups:
        for i in group:
            others = ", ".join(f"{used[j][1]!r} ({used[j][0]})" for j in group if used[j][1] != used[i][1])
            reasons.setdefault(i, []).append(f"one vector with {others}")
        own = [i for i in group if i not in borrowed]
        drop.update(own if len({used[i][1] for i in own}) > 1 else ())
    flags = {letter: tuple((w, "; ".join(reasons[i])) for i, (l2, w) in enumerate(used) if l2 == letter
                           and i in reasons) for letter in sets}
    dropped = {letter: tuple(w for i, (l2, w) in enumerate(used) if l2 == letter and i in drop) for letter in sets}
    return IdentityCheck(flags=flags, drop=dropped)


def apply_policy(embedding, sets: Mapping[str, Sequence[str]], policy: str, *, case_fold: bool = False,
                 check: bool = True) -> tuple[IdentityCheck, dict[str, list[str]]]:
    """The identity check of a test's sets, and the sets as a measure is to look them up under ``policy``.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The vectors.
    sets : mapping of str to sequence of str
        The test's word lists by letter, as given (not yet case-folded).
    policy : {"keep", "drop", "raise"}
        ``Words.shared_vectors``.
    case_fold : bool, default False
        Whether the measure lower-cases the words before the look-up.
    check : bool, default True
        False skips the check (nothing flagged, the sets as given): for vectors that are not one per word, such as
        a SEAT's sentence vectors (a bag-of-words encoder gives two orderings of one sentence one vector).

    Returns
    -------
    check : IdentityCheck
        The flagged words (case-folded when ``case_fold``).
    sets : dict of str to list of str
        The lists as given, less the words ``"drop"`` leaves out (as given for ``"keep"``).

    Raises
    ------
    wordbias.core.errors.DegenerateSetError
        With ``"raise"``, when a word is flagged (the message names the words and why).
    """
    check_shared_vectors(policy)
    if not check:
        return IdentityCheck(), dict(sets)
    fold = str.lower if case_fold else (lambda w: w)
    words = {k: _words_of(ws) for k, ws in sets.items()}
    check = check_sets(embedding, {k: [fold(w) for w in ws] for k, ws in words.items()})
    if check and policy == "raise":
        raise check.error()
    if policy != "drop" or not check:
        return check, dict(sets)
    return check, {k: [w for w in words[k] if fold(w) not in set(check.drop.get(k, ()))] for k in sets}


def apply_pair_policy(embedding, sets: Mapping[str, Sequence[str]], pairs: Sequence[Sequence[str]], policy: str,
                      *, case_fold: bool = False, letter: str = "pairs"):
    """The identity check of a test of word sets and word pairs (a RIPA's words and base pairs, DirectBias's words
    and definitional pairs), and what the measure is to look up under ``policy``.

    The pairs' words are checked with the sets' words as one more set, ``letter``; a pair is flagged when one of
    its words is (both words in the embedding: a pair it lacks a word of is missing), written ``"a/b"`` as the
    pairs' :class:`~wordbias.result.SetCoverage` writes it, and ``"drop"`` leaves the whole pair out.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The vectors.
    sets : mapping of str to sequence of str
        The test's word lists by letter, as given (may be empty).
    pairs : sequence of (str, str)
        The test's pairs, as given.
    policy : {"keep", "drop", "raise"}
        ``Words.shared_vectors``.
    case_fold : bool, default False
        Whether the measure lower-cases the words before the look-up.
    letter : str, default "pairs"
        The pairs' set letter.

    Returns
    -------
    check : IdentityCheck
        The flagged words of the sets, and the flagged pairs (``"a/b"``) under ``letter``.
    sets : dict of str to list of str
        The lists less the words ``"drop"`` leaves out.
    pairs : sequence
        The pairs as given, less those ``"drop"`` leaves out (a list then).

    Raises
    ------
    wordbias.core.errors.DegenerateSetError
        With ``"raise"``, when a word or a pair is flagged.

    Examples
    --------
    >>> emb = {"nurse": [1.0, 1.0], "she": [1.0, 0.0], "he": [-1.0, 0.0], "her": [1.0, 0.0], "his": [-1.0, 0.1]}
    >>> check, _, kept = apply_pair_policy(emb, {"N": ["nurse"]}, [("she", "he"), ("her", "his")], "drop")
    >>> check.shared("pairs"), kept
    (('she/he', 'her/his'), [])
    """
    from wordbias.core.lookup import present

    check_shared_vectors(policy)
    fold = str.lower if case_fold else (lambda w: w)
    both = [(fold(a), fold(b)) for a, b in _pairs_of(pairs) if not present(embedding, (fold(a), fold(b)))[1]]
    words = {k: [fold(w) for w in _words_of(ws)] for k, ws in sets.items()}
    found = check_sets(embedding, {**words, letter: list(dict.fromkeys(w for p in both for w in p))})
    why = dict(found.flags.get(letter, ()))
    gone = set(found.drop.get(letter, ()))
    flagged = tuple((f"{a}/{b}", "; ".join(f"{w}: {why[w]}" for w in (a, b) if w in why)) for a, b in both
                    if a in why or b in why)
    check = IdentityCheck(flags={**{k: v for k, v in found.flags.items() if k != letter}, letter: flagged},
                          drop={**{k: v for k, v in found.drop.items() if k != letter},
                                letter: tuple(f"{a}/{b}" for a, b in both if a in gone or b in gone)})
    if check and policy == "raise":
        raise check.error()
    if policy != "drop" or not check:
        return check, dict(sets), pairs
    out = set(check.drop[letter])
    return (check, {k: [w for w in _words_of(ws) if fold(w) not in set(check.drop.get(k, ()))]
                    for k, ws in sets.items()},
            [p for p in pairs if f"{fold(p[0])}/{fold(p[1])}" not in out])


def with_identity(sets: Sequence, check: IdentityCheck, policy: str) -> tuple:
    """A result's set coverage with the words of an identity check.

    Parameters
    ----------
    sets : sequence of SetCoverage
        The :class:`~wordbias.result.SetCoverage` of each set of the test.
    check : IdentityCheck
        The check of the test's words (:func:`apply_policy`, :func:`apply_pair_policy`).
    policy : {"keep", "drop", "raise"}
        ``Words.shared_vectors``.

    Returns
    -------
    tuple of SetCoverage
        ``sets`` with the words ``check`` flagged (``shared``) and, under ``policy="drop"``, those left out
        (``shared_out``); ``sets`` as they are when nothing is flagged.
    """
    import dataclasses

    if not check:
        return tuple(sets)
    return tuple(dataclasses.replace(s, shared=check.shared(s.letter),
                                     shared_out=check.drop.get(s.letter, ()) if policy == "drop" else ())
                 for s in sets)


def identity_notes(check: IdentityCheck) -> tuple[str, ...]:
    """The note of an identity check as a result's notes.

    Parameters
    ----------
    check : IdentityCheck
        The check of the test's words.

    Returns
    -------
    tuple of str
        One note (:meth:`IdentityCheck.note`), or none when nothing is flagged.
    """
    return (check.note(),) if check else ()


def _pairs_of(pairs) -> list[tuple[str, str]]:
    """The pairs of two strings among ``pairs``; anything else gives none here (the measure's own check names what
    is wrong with it)."""
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable):
        return []
    return [tuple(p) for p in pairs if isinstance(p, Sequence) and not isinstance(p, (str, bytes)) and len(p) == 2
            and all(isinstance(w, str) for w in p)]


def _words_of(words) -> list[str]:
    """The strings of a word list as the measure will read it (a set sorted); anything that is not a list of words
    gives none here, and the measure's own check names what is wrong with it."""
    if isinstance(words, (str, bytes)) or not isinstance(words, Iterable):
        return []
    items = [w for w in words if isinstance(w, str)]
    return sorted(items) if isinstance(words, (set, frozenset)) else items


def _one_vector_groups(embedding, words: list[str], threshold: float) -> list[list[int]]:
    """Groups (indexes into ``words``, two or more each) of words with one vector: the same row, the same bytes,
    or a cosine of at least ``1 - threshold`` (for up to :data:`NEAR_DUPLICATE_MAX_WORDS` words)."""
    from wordbias.core.lookup import vectors

    if len(words) < 2:
        return []
    index = getattr(embedding, "key_to_index", None)
    if index is not None:
        rows = np.asarray(embedding.vectors[[index[w] for w in words]])
    else:
        rows = vectors(embedding, words)
    parent = list(range(len(words)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[bytes, int] = {}
    for i, row in enumerate(rows):
        j = seen.setdefault(np.ascontiguousarray(row).tobytes(), i)
        parent[find(i)] = find(j)
    if len(words) <= NEAR_DUPLICATE_MAX_WORDS:
        unit = rows.astype(np.float64)
        norms = np.linalg.norm(unit, axis=1)
        unit = unit / np.where(norms > 0, norms, 1.0)[:, None]
        close = np.argwhere(np.triu(unit @ unit.T >= 1.0 - threshold, k=1) & (norms > 0)[:, None] & (norms > 0))
        for i, j in close:
            parent[find(int(i))] = find(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(words)):
        groups.setdefault(find(i), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def shared_rows(embedding, words: Sequence[str]):
    """A table of the rows ``words`` read: each word's row, the row's owner and how many keys share the row.

    Parameters
    ----------
    embedding : KeyedVectors
        An embedding with ``key_to_index`` and ``index_to_key`` (where keys may outnumber rows: a pruned one).
    words : sequence of str
        The words to look up.

    Returns
    -------
    pandas.DataFrame
        One row per word, in order: ``word``, ``row`` (nullable integer; NA for a word the embedding lacks),
        ``owner`` (``index_to_key`` at the row; missing for a word the embedding lacks), ``own_vector`` (the word is the row's owner), ``keys`` (the keys
        sharing the row, the word included; 0 for a word the embedding lacks).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["a", "b"], np.eye(2, dtype=np.float32), {"a": 0, "b": 1, "c": 0})
    >>> shared_rows(kv, ["c", "b"]).to_dict("list")
    {'word': ['c', 'b'], 'row': [0, 1], 'owner': ['a', 'b'], 'own_vector': [False, True], 'keys': [2, 1]}
    """
    import pandas as pd

    counts = row_key_counts(embedding)
    index, keys = embedding.key_to_index, embedding.index_to_key
    records = []
    for w in words:
        row = index.get(w)
        if row is None:
            records.append((w, None, None, False, 0))
            continue
        n = 1 if counts is None else int(counts[row])
        records.append((w, int(row), keys[row], keys[row] == w, n))
    table = pd.DataFrame(records, columns=["word", "row", "owner", "own_vector", "keys"])
    table["row"] = table["row"].astype("Int64")
    return table


def split_words(tokenizer, words: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The words a tokenizer splits into several tokens, with their pieces.

    Each word is tokenized alone (``tokenizer.tokenize(word)``, the tokenizer's own normalisation, such as an
    uncased model's lower-casing, included). A phrase (words separated by white space) is split when one of its
    words is: a phrase of whole tokens ("European American") is not flagged for being two words. An unknown word
    read as the one unknown token is not split (a missing word, which the measure counts as such).

    Parameters
    ----------
    tokenizer : tokenizer-like
        An object with ``tokenize(text) -> list of str`` (a Hugging Face tokenizer,
        :class:`wordbias.models.stand_in.StandInTokenizer`).
    words : iterable of str
        The words (or phrases).

    Returns
    -------
    dict of str to tuple of str
        Each split word, in the order given (once), with the tokens of the whole word or phrase.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        When ``tokenizer`` has no ``tokenize`` method, ``words`` is a string or not iterable, or a word is not a
        string.

    Examples
    --------
    A WordPiece-like tokenizer by hand, and the stand-in (one piece per known word, the unknown token otherwise):

    >>> from types import SimpleNamespace
    >>> from wordbias.models.stand_in import StandInTokenizer
    >>> pieces = {"tamika": ["ta", "##mi", "##ka"], "amy": ["amy"], "european": ["european"], "american": ["american"]}
    >>> wordpiece = SimpleNamespace(tokenize=lambda text: [p for w in text.lower().split() for p in pieces[w]])
    >>> split_words(wordpiece, ["Amy", "Tamika", "European American"])
    {'Tamika': ('ta', '##mi', '##ka')}
    >>> split_words(StandInTokenizer(["nurse"]), ["nurse", "zebra"])
    {}
    """
    if not callable(getattr(tokenizer, "tokenize", None)):
        raise InvalidParameterError(f"tokenizer must have a tokenize(text) method, not {type(tokenizer).__name__}")
    if isinstance(words, (str, bytes)) or not isinstance(words, Iterable):
        raise InvalidParameterError(f"words must be a list of words, not {words!r}"[:200])
    out: dict[str, tuple[str, ...]] = {}
    for w in words:
        if not isinstance(w, str):
            raise InvalidParameterError(f"words must be strings, not {w!r} ({type(w).__name__})"[:200])
        if w not in out and any(len(tokenizer.tokenize(part)) > 1 for part in w.split()):
            out[w] = tuple(tokenizer.tokenize(w))
    return out


def split_words_note(tokenizer, sets: Mapping[str, Sequence[str]]) -> str:
    """The note of the words of a test a tokenizer splits into several tokens (:func:`split_words`), per set.

    Parameters
    ----------
    tokenizer : tokenizer-like
        As :func:`split_words`.
    sets : mapping of str to sequence of str
        The words each set of the test used, by letter.

    Returns
    -------
    str
        ``"split into several tokens: X 1/2: Tamika (ta ##mi ##ka); A 1/1: ..."``: per set with a split word, the
        split words / the set's words, then each split word with its tokens; ``""`` when no word is split.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        As :func:`split_words`.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> pieces = {"tamika": ["ta", "##mi", "##ka"], "amy": ["amy"], "kristin": ["kristin"]}
    >>> wordpiece = SimpleNamespace(tokenize=lambda text: pieces[text.lower()])
    >>> split_words_note(wordpiece, {"X": ["Amy", "Tamika"], "Y": ["Kristin"]})
    'split into several tokens: X 1/2: Tamika (ta ##mi ##ka)'
    """
    parts = []
    for letter, words in sets.items():
        found = split_words(tokenizer, words)
        if found:
            listed = ", ".join(f"{w} ({' '.join(p)})" for w, p in found.items())
            parts.append(f"{letter} {len(found)}/{len(set(words))}: {listed}")
    return "split into several tokens: " + "; ".join(parts) if parts else ""
