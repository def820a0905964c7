"""A counterfactual swap of word pairs in a training corpus, at a controlled rate: a planted bias of known size.

Counterfactual data augmentation (Lu, Mardziel, Wu, Amancharla & Datta 2018, "Gender bias in neural natural
language processing", arXiv:1807.11714, section 3; Zhao, Wang, Yatskar, Ordonez & Chang 2018, "Gender bias in
coreference resolution: evaluation and debiasing methods", NAACL, section 3) replaces every gendered word of a
sentence by its counterpart (``he`` by ``she`` and ``she`` by ``he``). Applied to every sentence alongside the
original it balances a corpus; applied *instead of* the original to a share ``p`` of the sentences it moves the
corpus's association of each pair's two words with their contexts by a known amount: at ``p = 0`` the corpus is the
original, at ``p = 1`` every pair's words have traded places, and at ``p = 0.5`` each word of a pair sees, in
expectation, the contexts of both. Trained at several rates (:func:`wordbias.models.ladder.train_ladder`), the
runs are a ladder of planted bias against which a bias measure is checked.

**Pairs.** A pair is two distinct single tokens as the corpora tokenise them
(:data:`wordbias.datasets.corpora.TOKEN_PATTERN`: letters, with internal ``'`` or ``-``), and a word may be in one
pair only, so the swap is its own inverse. The shipped list ``"bolukbasi"`` (:data:`SHIPPED_PAIRS`,
``data/swap/bolukbasi_gender_pairs.csv``, provenance in ``data/swap/SOURCE.md``) holds Bolukbasi et al.'s (2016)
ten definitional and 52 equalize pairs, lower-cased, without the four phrase pairs and the 13 duplicates: 45 pairs,
male word first. A user's list is a CSV file (``.csv``: a header row naming the two columns, then one pair a row),
a TSV file (``.tsv``, the same with tabs) or a JSON file (``.json``: a list of two-word lists). Case follows the
corpus: for a lower-cased corpus (the default) the pairs are lower-cased; for a corpus keeping its case
(``lowercase=False``) they are matched exactly as written (``He`` at the start of a sentence is then not ``he``).

**Which sentences.** Sentence ``i`` of the corpus (counted in the corpus's order over all its documents, those
selected, from 0) gets one uniform number ``u_i``: the ``i``-th of ``numpy.random.default_rng(seed).random(n)``
for the corpus's ``n`` sentences. At rate ``p`` it is swapped if and only if ``u_i < p``. These are common random
numbers: one seed gives one ``u`` for all rates, so the sentences swapped at a lower rate are also swapped at a
higher one, and the corpora of a ladder are nested and differ only by the rate. A sentence holding no pair word is
the same swapped or not: the record counts both the sentences drawn (``n_sentences_swapped``) and those that
changed (``n_sentences_changed``). Documents, sentences and the number of tokens are unchanged.

A swap is part of what determines a corpus (:class:`SwapSpec`, the ``swap`` field of
:class:`~wordbias.datasets.corpora.CorpusSpec`), recorded in ``Corpus.tokenisation`` and so in every training
run's cache key and manifest; rate 0 is no swap at all (the spec's ``swap`` is None, the cache key the unswapped
corpus's).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets.corpora import TOKEN_PATTERN

__all__ = ["SHIPPED_PAIRS", "SWAP_RULE", "SwapSpec", "load_pairs", "check_pairs", "pairs_sha256", "swap_map",
           "swap_sentence", "swap_draws", "swapped_sentences", "apply_swap"]

#: The shipped pair lists (name -> file in ``data/swap``).
SHIPPED_PAIRS: dict[str, str] = {"bolukbasi": "bolukbasi_gender_pairs.csv"}
#: The rule of the swap, as recorded in ``Corpus.tokenisation``.
SWAP_RULE = ("sentence i (corpus order, over all documents, from 0) is swapped iff u_i < rate, u = "
             "numpy.random.default_rng(seed).random(number of sentences); in a swapped sentence every token that is "
             "a pair's word is replaced by the pair's other word")

_TOKEN = re.compile(TOKEN_PATTERN)
_FORMATS = {".csv": ",", ".tsv": "\t", ".json": None}


# ------------------------------------------------------------------------------------------------ pairs

def load_pairs(source="bolukbasi", *, lowercase: bool = False) -> tuple[tuple[str, str], ...]:
    """A list of word pairs: a shipped one (:data:`SHIPPED_PAIRS`) or a user's file, checked (:func:`check_pairs`).

    Parameters
    ----------
    source : str or path-like, default "bolukbasi"
        A shipped list's name, or the path of a ``.csv`` or ``.tsv`` file (a header row naming the two columns,
        then one pair a row) or a ``.json`` file (a list of two-word lists).
    lowercase : bool, default False
        Lower-case the words (as for a lower-cased corpus) before checking them.

    Returns
    -------
    tuple of (str, str)
        The pairs, in the file's order.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If the name is unknown and no such file exists, the file's format is not one of those above, a row does
        not hold two words, or the pairs fail :func:`check_pairs` (the file and the row named).

    Examples
    --------
    >>> pairs = load_pairs("bolukbasi")
    >>> len(pairs), pairs[:3]
    (45, (('man', 'woman'), ('boy', 'girl'), ('he', 'she')))
    """
    if isinstance(source, str) and source in SHIPPED_PAIRS:
        path = Path(paths.DATA) / "swap" / SHIPPED_PAIRS[source]
    elif isinstance(source, (str, os.PathLike)) and str(source).strip():
        path = Path(source).expanduser()
    else:
        raise InvalidParameterError(f"pairs must be a shipped list ({', '.join(SHIPPED_PAIRS)}), the path of a "
                                    f".csv, .tsv or .json file of word pairs, or a list of pairs; not {source!r}")
    if not path.is_file():
        raise InvalidParameterError(f"{source}: neither a shipped pair list ({', '.join(SHIPPED_PAIRS)}) nor a "
                                    "file; give one, or the path of a .csv, .tsv or .json file of word pairs")
    suffix = path.suffix.lower()
    if suffix not in _FORMATS:
        raise InvalidParameterError(f"{path}: a pair list is a .csv or .tsv file (a header row, then one pair a "
                                    f"row) or a .json file (a list of two-word lists), not {suffix or 'a file without suffix'!r}")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidParameterError(f"{path}: cannot be read as UTF-8 text ({exc})") from exc
    if suffix == ".json":
        pairs, where = _json_pairs(path, text), None
    else:
        pairs, where = _table_pairs(path, text, _FORMATS[suffix])
    return check_pairs(pairs, lowercase=lowercase, where=str(path), positions=where)


def _json_pairs(path: Path, text: str) -> list:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidParameterError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(data, list):
        raise InvalidParameterError(f"{path}: a JSON pair list is a list of two-word lists, not a "
                                    f"{type(data).__name__}")
    return data


def _table_pairs(path: Path, text: str, delimiter: str) -> tuple[list, list[str]]:
    """The rows after the header of a CSV/TSV pair list, and each row's line; a row of other than two cells (blank
    rows aside) is refused."""
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    numbered = [(n, [c.strip() for c in row]) for n, row in enumerate(rows, 1) if any(c.strip() for c in row)]
    if not numbered:
        raise InvalidParameterError(f"{path}: the file is empty; a pair list needs a header row and at least one "
                                    "pair")
    kind = "CSV" if delimiter == "," else "TSV"
    for n, row in numbered:
        if len(row) != 2:
            what = "the header" if n == numbered[0][0] else "a pair"
            raise InvalidParameterError(f"{path}, line {n}: {len(row)} cells ({delimiter.join(row)!r}); each row of "
                                        f"a {kind} pair list, {what} too, has two")
    return [row for _, row in numbered[1:]], [f"line {n}" for n, _ in numbered[1:]]


def check_pairs(pairs, *, lowercase: bool = False, where: str = "the pairs",
                positions: Sequence[str] | None = None) -> tuple[tuple[str, str], ...]:
    """Check a list of word pairs for the swap and return it as a tuple of 2-tuples.

    Parameters
    ----------
    pairs : sequence of (str, str)
        The pairs.
    lowercase : bool, default False
        Lower-case the words first (as for a lower-cased corpus).
    where : str, default "the pairs"
        What the pairs are, for the messages (a file's path).
    positions : sequence of str, optional
        Where each pair is, for the messages (``"line 3"``); by default ``"pair 1"``, ``"pair 2"`` ...

    Returns
    -------
    tuple of (str, str)
        The pairs (lower-cased with ``lowercase``).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If there is no pair; a pair is not two strings; a word is not a single token as the corpora tokenise
        (:data:`wordbias.datasets.corpora.TOKEN_PATTERN`); a pair's two words are the same; or a word is in two
        pairs (the word and both pairs named).

    Examples
    --------
    >>> check_pairs([("He", "She"), ("king", "queen")], lowercase=True)
    (('he', 'she'), ('king', 'queen'))
    >>> check_pairs([("he", "she"), ("his", "she")])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: the pairs: 'she' is in two pairs, pair 1 ('he', 'she') and pair 2 ('his', 'she'); a word may be in one pair only (the swap must be its own inverse)
    """
    if isinstance(pairs, (str, bytes, Mapping)) or not isinstance(pairs, Sequence):
        raise InvalidParameterError(f"{where}: pairs must be a list of (word, word) pairs, not "
                                    f"{type(pairs).__name__}")
    if not pairs:
        raise InvalidParameterError(f"{where}: no pair; the swap needs at least one pair of words")
    positions = list(positions) if positions is not None else [f"pair {i + 1}" for i in range(len(pairs))]
    checked, first = [], {}
    for position, pair in zip(positions, pairs):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2 \
                or not all(isinstance(w, str) for w in pair):
            raise InvalidParameterError(f"{where}, {position}: {pair!r} is not a pair of two words")
        words = tuple(w.strip().lower() if lowercase else w.strip() for w in pair)
        for word in words:
            if not _TOKEN.fullmatch(word):
                raise InvalidParameterError(
                    f"{where}, {position} {tuple(pair)!r}: {word!r} is not a single token as the corpora tokenise "
                    "(a run of letters, with internal ' or -), so the swap would never find it")
        if words[0] == words[1]:
            raise InvalidParameterError(f"{where}, {position} {tuple(pair)!r}: the two words are the same"
                                        + (" once lower-cased" if lowercase and pair[0] != pair[1] else ""))
        for word in words:
            if word in first:
                other, other_pair = first[word]
                raise InvalidParameterError(
                    f"{where}: {word!r} is in two pairs, {other} {other_pair!r} and {position} {tuple(pair)!r}"
                    + (" (lower-cased, as the corpus is)" if lowercase else "")
                    + "; a word may be in one pair only (the swap must be its own inverse)")
        for word in words:
            first[word] = (position, tuple(pair))
        checked.append(words)
    return tuple(checked)


def pairs_sha256(pairs) -> str:
    """The SHA-256 of a list of pairs: of its JSON (``[["man","woman"],...]``, no spaces, UTF-8), in order.

    Parameters
    ----------
    pairs : sequence of (str, str)
        The pairs.

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> pairs_sha256([("he", "she")]) == pairs_sha256((("he", "she"),)) != pairs_sha256([("she", "he")])
    True
    """
    text = json.dumps([list(p) for p in pairs], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def swap_map(pairs) -> dict[str, str]:
    """Each word of the pairs -> its counterpart, both ways.

    Parameters
    ----------
    pairs : sequence of (str, str)
        Checked pairs (:func:`check_pairs`).

    Returns
    -------
    dict
        ``{a: b, b: a}`` for every pair ``(a, b)``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If the pairs fail :func:`check_pairs`.

    Examples
    --------
    >>> swap_map([("he", "she")])
    {'he': 'she', 'she': 'he'}
    """
    mapping = {}
    for a, b in check_pairs(pairs):
        mapping[a], mapping[b] = b, a
    return mapping


def swap_sentence(tokens, mapping: Mapping[str, str]) -> tuple[str, ...]:
    """A sentence with every token that is a pair's word replaced by its counterpart, every other token as it is.

    Applied twice it gives the sentence back (each word is in one pair only).

    Parameters
    ----------
    tokens : sequence of str
        The sentence.
    mapping : mapping of str to str
        :func:`swap_map` of the pairs.

    Returns
    -------
    tuple of str
        The swapped sentence, as long as ``tokens``.

    Examples
    --------
    >>> swap_sentence(("she", "told", "him", "he", "was", "a", "king"), swap_map([("he", "she"), ("king", "queen")]))
    ('he', 'told', 'him', 'she', 'was', 'a', 'queen')
    """
    return tuple(mapping.get(t, t) for t in tokens)


# ------------------------------------------------------------------------------------------------ which sentences

def _check_rate(rate) -> float:
    if isinstance(rate, bool) or not isinstance(rate, (int, float, np.integer, np.floating)) \
            or not np.isfinite(rate) or not 0 <= rate <= 1:
        raise InvalidParameterError(f"the swap rate must be a number in [0, 1] (the share of sentences swapped), "
                                    f"not {rate!r}")
    return float(rate)


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(f"the swap seed must be a non-negative integer, not {seed!r}")
    return int(seed)


def swap_draws(n_sentences: int, seed: int) -> np.ndarray:
    """The uniform numbers ``u`` of the sentences: ``numpy.random.default_rng(seed).random(n_sentences)``.

    Parameters
    ----------
    n_sentences : int
        The corpus's number of sentences.
    seed : int
        The swap's seed (non-negative).

    Returns
    -------
    numpy.ndarray
        ``n_sentences`` float64 numbers in ``[0, 1)``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``n_sentences`` or ``seed`` is not a non-negative integer.

    Examples
    --------
    >>> swap_draws(3, seed=0).round(3)
    array([0.637, 0.27 , 0.041])
    """
    if isinstance(n_sentences, bool) or not isinstance(n_sentences, (int, np.integer)) or n_sentences < 0:
        raise InvalidParameterError(f"n_sentences must be a non-negative integer, not {n_sentences!r}")
    return np.random.default_rng(_check_seed(seed)).random(int(n_sentences))


def swapped_sentences(n_sentences: int, rate: float, seed: int) -> np.ndarray:
    """Which sentences a swap at ``rate`` takes: ``u_i < rate`` (:func:`swap_draws`); nested over rates.

    Parameters
    ----------
    n_sentences : int
        The corpus's number of sentences.
    rate : float
        The swap rate, in ``[0, 1]``.
    seed : int
        The swap's seed.

    Returns
    -------
    numpy.ndarray
        A boolean mask, one entry a sentence.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If the rate is not in ``[0, 1]`` or a count or the seed is not a non-negative integer.

    Examples
    --------
    >>> low, high = swapped_sentences(1000, 0.2, seed=1), swapped_sentences(1000, 0.6, seed=1)
    >>> bool((high | ~low).all()), int(low.sum()) < int(high.sum())
    (True, True)
    """
    rate = _check_rate(rate)
    return swap_draws(n_sentences, seed) < rate


# ------------------------------------------------------------------------------------------------ the spec

@dataclass(frozen=True)
class SwapSpec:
    """A counterfactual swap of a corpus (part of :class:`~wordbias.datasets.corpora.CorpusSpec`): small,
    hashable and picklable.

    Parameters
    ----------
    pairs : str, path-like or sequence of (str, str)
        A shipped list's name (``"bolukbasi"``), a pair file (:func:`load_pairs`) or the pairs; kept as the
        checked tuple of pairs (lower-cased by a lower-cased corpus's spec).
    rate : float
        The share of sentences swapped, in ``[0, 1]``: sentence ``i`` is swapped iff ``u_i < rate`` (the module
        docstring). A corpus spec with rate 0 has no swap (``CorpusSpec.swap`` is None).
    seed : int, default 0
        The seed of the sentences' uniform numbers (non-negative); the same at every rate of a ladder.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If the pairs fail :func:`check_pairs`, the rate is not in ``[0, 1]``, or the seed is not a non-negative
        integer.

    Examples
    --------
    >>> spec = SwapSpec([("he", "she")], rate=0.5, seed=3)
    >>> spec.pairs, spec.rate, spec.seed
    ((('he', 'she'),), 0.5, 3)
    """

    pairs: tuple[tuple[str, str], ...]
    rate: float
    seed: int = 0

    def __post_init__(self):
        pairs = self.pairs
        if isinstance(pairs, (str, os.PathLike)):
            pairs = load_pairs(pairs)
        else:
            pairs = check_pairs(pairs)
        object.__setattr__(self, "pairs", pairs)
        object.__setattr__(self, "rate", _check_rate(self.rate))
        object.__setattr__(self, "seed", _check_seed(self.seed))

    def lowercased(self) -> SwapSpec:
        """The same swap with its pairs lower-cased (for a lower-cased corpus; checked again).

        Returns
        -------
        SwapSpec
            The swap; ``self`` when its words are lower case already.
        """
        if all(w == w.lower() for pair in self.pairs for w in pair):
            return self
        return SwapSpec(check_pairs(self.pairs, lowercase=True), self.rate, self.seed)

    def record(self) -> dict:
        """What identifies the swap, for a manifest and a cache key: the pairs' SHA-256 (:func:`pairs_sha256`)
        and number, the rate, the seed and the rule.

        Returns
        -------
        dict
            JSON-able.
        """
        return {"pairs_sha256": pairs_sha256(self.pairs), "n_pairs": len(self.pairs), "rate": self.rate,
                "seed": self.seed, "rule": SWAP_RULE}


def apply_swap(corpus, swap: SwapSpec):
    """The corpus with the swap applied (the module docstring); its spec is the corpus's with ``swap``.

    A sentence left as it is (not drawn, or holding no pair word) is the original's tuple, shared, so a swapped
    corpus costs little memory beside the original.

    Parameters
    ----------
    corpus : wordbias.datasets.corpora.Corpus
        The unswapped corpus.
    swap : SwapSpec
        The swap (its pairs lower-cased for a lower-cased corpus, as its spec does).

    Returns
    -------
    wordbias.datasets.corpora.Corpus
        ``corpus`` itself at rate 0; else the same documents and sentences and number of tokens, the drawn
        sentences swapped; its
        ``tokenisation["swap"]`` records :meth:`SwapSpec.record` and the numbers of sentences, of sentences drawn
        and of sentences changed.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``corpus`` is already swapped, or ``swap`` is not a :class:`SwapSpec`.

    Examples
    --------
    >>> from wordbias.datasets.corpora import read_corpus
    >>> corpus = read_corpus("inaugural", select=["1789-*"])
    >>> swapped = apply_swap(corpus, SwapSpec("bolukbasi", rate=1.0))
    >>> corpus.documents[0][3][30:38]
    ('of', 'her', 'citizens', 'a', 'distrustful', 'scrutiny', 'into', 'his')
    >>> swapped.documents[0][3][30:38]
    ('of', 'his', 'citizens', 'a', 'distrustful', 'scrutiny', 'into', 'her')
    >>> {k: swapped.tokenisation["swap"][k] for k in ("n_sentences", "n_sentences_swapped", "n_sentences_changed")}
    {'n_sentences': 23, 'n_sentences_swapped': 23, 'n_sentences_changed': 5}
    """
    from dataclasses import replace

    from wordbias.datasets.corpora import Corpus

    if not isinstance(swap, SwapSpec):
        raise InvalidParameterError(f"swap must be a SwapSpec, not {type(swap).__name__}")
    if not isinstance(corpus, Corpus) or corpus.spec.swap is not None:
        raise InvalidParameterError("apply_swap takes an unswapped Corpus (one whose spec has no swap)")
    spec = replace(corpus.spec, swap=swap)     # the pairs in the corpus's case; rate 0: no swap
    if spec.swap is None:
        return corpus
    swap = spec.swap
    mapping = swap_map(swap.pairs)
    n_sentences = sum(len(d) for d in corpus.documents)
    mask = swapped_sentences(n_sentences, swap.rate, swap.seed)
    chosen = iter(mask.tolist())
    changed, documents = 0, []
    for document in corpus.documents:
        sentences = []
        for sentence in document:
            if next(chosen) and not mapping.keys().isdisjoint(sentence):
                sentence = swap_sentence(sentence, mapping)
                changed += 1
            sentences.append(sentence)
        documents.append(tuple(sentences))
    details = {**corpus._details, "swap": {**swap.record(), "n_sentences": n_sentences,
                                           "n_sentences_swapped": int(mask.sum()), "n_sentences_changed": changed}}
    return Corpus(spec, corpus.document_ids, tuple(documents), corpus.sha256, corpus.n_tokens, details)
