"""Bleep-censoring of slurs in printed word lists: Swinger et al. (2019), Appendix A (a list of terms, data).

As in the paper's tables (``n****``, ``mentally r******``), :func:`censor` keeps a slur's first letter, stars the
rest, and in a multi-word term stars only the slur word; it takes a string (a table cell) or a list of strings.
The default terms are in ``data/stimuli/swinger2019_censor.yaml`` (:func:`censor_terms`; content warning:
uncensored slurs).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import overload

from wordbias.core import paths
from wordbias.core.yaml_io import load_yaml

__all__ = ["CENSOR_FILE", "bleep", "censor", "censor_terms"]

CENSOR_FILE = paths.STIMULI / "swinger2019_censor.yaml"

_LETTER = r"[^\W\d_]"  # a Unicode letter
_SEP = r"[\s_\-]+"  # between the words of a multi-word term: spaces, word2vec's '_', hyphens


def bleep(word: str) -> str:
    """Bleep a word: keep its first character and replace every later letter with ``*``.

    Parameters
    ----------
    word : str
        The word (or any string); non-letters after the first character are kept.

    Returns
    -------
    str
        The word bleeped, as long as ``word``.

    Examples
    --------
    >>> bleep("Hello")
    'H****'
    >>> bleep("rock'n'roll 2")
    "r***'*'**** 2"
    """
    return word[:1] + re.sub(_LETTER, "*", word[1:])


@functools.cache
def _default_terms() -> tuple[tuple[str, tuple[str, ...]], ...]:
    doc = load_yaml(CENSOR_FILE)
    return tuple((t["term"], tuple(t.get("bleep") or t["term"].split())) for t in doc["terms"])


def censor_terms() -> list[tuple[str, tuple[str, ...]]]:
    """The default terms of :func:`censor`, from ``data/stimuli/swinger2019_censor.yaml``.

    Swinger et al. (2019), Appendix A, plus the obvious spellings and plurals; see the file's note (content
    warning: the terms are uncensored slurs).

    Returns
    -------
    list of tuple of (str, tuple of str)
        ``(term, words_to_bleep)`` pairs, in file order.

    Examples
    --------
    The terms are slurs, so they are shown censored:

    >>> terms = censor_terms()
    >>> len(terms), censor(terms[0][0])
    (15, 'n*****')
    >>> [(censor(term), words == ("retarded",)) for term, words in terms if " " in term]
    [('mentally r*******', True)]
    """
    return list(_default_terms())


def _normalise(terms) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``terms`` as accepted by :func:`censor` -> ``((term, words_to_bleep), ...)``."""
    if terms is None:
        return _default_terms()
    if isinstance(terms, str):
        raise TypeError("terms must be a collection of terms, not a single string")
    items = terms.items() if isinstance(terms, Mapping) else terms
    out = []
    for item in items:
        if isinstance(item, str):
            term, words = item, item.split()
        else:
            term, words = item
            words = (words,) if isinstance(words, str) else tuple(words)
        term_words = term.lower().split()
        if not term_words:
            raise ValueError("empty censor term")
        if not {w.lower() for w in words} <= set(term_words):
            raise ValueError(f"censor term {term!r}: words to bleep {words!r} are not words of the term")
        out.append((term, tuple(words)))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _compile(terms: tuple[tuple[str, tuple[str, ...]], ...]) -> list[tuple[re.Pattern, tuple[bool, ...]]]:
    compiled = []
    # longest terms first, so that a multi-word term wins over a single word it contains
    for term, words in sorted(terms, key=lambda t: -len(t[0].split())):
        parts = term.split()
        body = _SEP.join(f"({re.escape(p)})" for p in parts)
        pattern = re.compile(rf"(?<!{_LETTER}){body}(?!{_LETTER})", re.IGNORECASE)
        to_bleep = {w.lower() for w in words}
        compiled.append((pattern, tuple(p.lower() in to_bleep for p in parts)))
    return compiled


def _censor_text(text: str, compiled) -> str:
    for pattern, flags in compiled:
        def repl(m: re.Match, flags=flags) -> str:
            out, pos = [], m.start()
            for i, flag in enumerate(flags, start=1):
                out.append(m.string[pos:m.start(i)])  # separator before this word
                out.append(bleep(m.group(i)) if flag else m.group(i))
                pos = m.end(i)
            return "".join(out)

        text = pattern.sub(repl, text)
    return text


@overload
def censor(text_or_words: str, terms=None, enabled: bool = True) -> str: ...
@overload
def censor(text_or_words: Iterable[str], terms=None, enabled: bool = True) -> list[str]: ...


def censor(text_or_words, terms=None, enabled: bool = True):
    """Bleep-censor slurs as in Swinger et al. (2019), Appendix A: ``"n*****"``, ``"mentally r*******"``.

    Matching is case-insensitive and on whole words only: a term never matches inside a longer word
    (``"twinkle"`` and ``"twinkies"`` are left alone), and the words of a multi-word term may be separated by
    spaces, underscores (word2vec phrases such as ``mentally_retarded``) or hyphens. In each match the words to
    bleep keep their first character and every further letter becomes ``*``; other words of the term
    (``mentally``) are left as they are.

    Parameters
    ----------
    text_or_words : str or iterable of str
        A string (e.g. a comma-separated table cell ``"blacks, academically"``), or an iterable of strings
        (words, phrases, cells).
    terms : iterable or mapping, optional
        ``None`` for the default list (:func:`censor_terms`); or an iterable whose items are a term string
        (every word of it is bleeped) or a ``(term, words_to_bleep)`` pair; or a mapping
        ``term -> words_to_bleep``.
    enabled : bool, default True
        ``False`` returns the input unchanged (a list copy for iterables), so a notebook can switch censoring
        off in one place.

    Returns
    -------
    str or list of str
        A string for a string, a list of strings for an iterable, the slurs bleeped.

    Raises
    ------
    TypeError
        If ``text_or_words`` is an iterable holding something other than strings, or ``terms`` is a single
        string.
    ValueError
        If a term is empty, or its words to bleep are not words of the term.

    Examples
    --------
    With the default terms (Appendix A's "mentally retarded": only the slur word is bleeped):

    >>> censor("blacks, academically, mentally retarded")
    'blacks, academically, mentally r*******'
    >>> censor("mentally_retarded", enabled=False)
    'mentally_retarded'

    With a list of one's own; whole words only, case-insensitive:

    >>> censor(["Twinkle star", "twinkles"], terms=["twinkle"])
    ['T****** star', 'twinkles']
    >>> censor("little twinkle star", terms={"twinkle star": "star"})
    'little twinkle s***'
    """
    if isinstance(text_or_words, str):
        if not enabled:
            return text_or_words
        return _censor_text(text_or_words, _compile(_normalise(terms)))
    items = list(text_or_words)
    if not all(isinstance(w, str) for w in items):
        raise TypeError("censor expects a string or an iterable of strings")
    if not enabled:
        return items
    compiled = _compile(_normalise(terms))
    return [_censor_text(w, compiled) for w in items]
