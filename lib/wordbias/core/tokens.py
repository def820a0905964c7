"""The tokens of a sentence, as the CBoW sentence encoder (:mod:`wordbias.models.sentence`) and the SEAT data
(:mod:`wordbias.datasets.seat`) split it: plain text, no model.
"""
from __future__ import annotations

import re

__all__ = ["TOKEN", "tokenize", "token_spans"]

#: a token: a word (letters, digits, underscores, joined by inner hyphens or dots), a clitic after an apostrophe, or
#: any other non-space character
TOKEN = re.compile(r"\w+(?:[-.]\w+)*|'\w+|[^\w\s]")


def tokenize(sentence: str) -> list[str]:
    """Split a sentence into the tokens of the CBoW encoder.

    Words (letters, digits, underscores, joined by inner hyphens or dots), clitics beginning with an apostrophe
    (``'s``, ``'re``) and each other non-space character (punctuation) are tokens: ``"The person's name is
    Amy."`` gives ``The person 's name is Amy .``, as NLTK's ``word_tokenize`` does for May et al.'s templates.

    Parameters
    ----------
    sentence : str
        The text.

    Returns
    -------
    list of str
        The tokens, case kept.

    Examples
    --------
    >>> tokenize("The person's name is Amy.")
    ['The', 'person', "'s", 'name', 'is', 'Amy', '.']
    """
    return TOKEN.findall(sentence)


def token_spans(sentence: str) -> list[tuple[int, int]]:
    """The (start, end) character offsets of :func:`tokenize`'s tokens in the sentence.

    Parameters
    ----------
    sentence : str
        The text, as for :func:`tokenize`.

    Returns
    -------
    list of tuple of int
        One ``(start, end)`` per token, in order: ``sentence[start:end]`` is the token.

    Examples
    --------
    >>> token_spans("Amy is here.")
    [(0, 3), (4, 6), (7, 11), (11, 12)]
    """
    return [m.span() for m in TOKEN.finditer(sentence)]
