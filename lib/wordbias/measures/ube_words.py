"""Step 2 of Unsupervised Bias Enumeration (Swinger et al. 2019): the candidate words, clustered into categories.

:func:`candidate_words` is Appendix C.4: the M most frequent lower-case tokens, with the case rule
:func:`case_rule` picks (C.4 on a cased embedding; on an uncased one a stand-in from a cased word list, a deviation
from the paper, :mod:`wordbias.datasets.casing`); :func:`word_categories` clusters them into m categories (K-means++,
Section 3.2, :func:`wordbias.measures.ube_names.cluster`). :func:`wordbias.measures.ube.run` runs it with the other
steps.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

import numpy as np

from wordbias.core.errors import InvalidParameterError, LowPowerWarning
from wordbias.core.vectors import unit_rows
from wordbias.measures.ube_names import cluster

__all__ = ["CASE_SOURCES", "candidate_words", "case_rule", "word_categories"]

_LOWER = re.compile(r"^[a-z]+(?:[ _][a-z]+)*$")

#: where Step 2 takes case from (:func:`case_rule`): "auto" (the embedding's own case when it is cased, else the
#: word list), "embedding" (Appendix C.4 itself), "wordlist" (the stand-in for uncased vocabularies) or None (no
#: case rule: every lower-case token is a candidate)
CASE_SOURCES = ("auto", "embedding", "wordlist", None)


def case_rule(case_source, cased: bool) -> str | None:
    """The case rule Step 2 applies: ``"embedding"`` (Appendix C.4: drop a lower-case token whose capitalised
    or upper-case form is more frequent in the embedding), ``"wordlist"`` (the stand-in for an uncased
    vocabulary, a deviation from the paper: keep a token only when a cased English word list spells it in lower
    case; :mod:`wordbias.datasets.casing`) or ``None`` (no rule). ``"auto"`` is ``"embedding"`` on a ``cased``
    vocabulary and ``"wordlist"`` on an uncased one. ``"embedding"`` on an uncased vocabulary is refused: it has
    no capitalised forms, so C.4 would silently drop nothing.

    Examples
    --------
    >>> case_rule("auto", cased=True), case_rule("auto", cased=False), case_rule(None, cased=False)
    ('embedding', 'wordlist', None)
    >>> case_rule("embedding", cased=False)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: case_source 'embedding' applies Appendix C.4 with the embedding's own capitalisation, but this vocabulary is uncased (no token has an upper-case letter); use 'wordlist' (the stand-in: a cased English word list) or None (no case rule)
    """
    if not (case_source is None or (isinstance(case_source, str) and case_source in CASE_SOURCES)):
        raise InvalidParameterError(f"case_source must be one of 'auto', 'embedding', 'wordlist' or None, "
                                    f"not {case_source!r}")
    if case_source == "auto":
        return "embedding" if cased else "wordlist"
    if case_source == "embedding" and not cased:
        raise InvalidParameterError("case_source 'embedding' applies Appendix C.4 with the embedding's own "
                                    "capitalisation, but this vocabulary is uncased (no token has an upper-case "
                                    "letter); use 'wordlist' (the stand-in: a cased English word list) or None "
                                    "(no case rule)")
    return case_source


def candidate_words(embedding, M: int | None, *, exclude: Sequence[str] = (), cased: bool | None = None,
                    case_source: str | None = "auto", wordlist=None) -> list[str]:
    """Appendix C.4: the M most frequent tokens (every such token when ``M`` is None) made only of the 26
    lower-case letters (and spaces or underscores, for embeddings with phrases) that pass the case rule
    :func:`case_rule` picks from ``case_source``. The embedding's vocabulary must be in frequency order (true of
    every embedding this project loads). Tokens in ``exclude`` (e.g. the cleaned names) are never candidates.

    * ``"embedding"``, the paper's rule: omit a lower-case token whose capitalised or upper-case form is more
      frequent ("john" is dropped because "John" comes first);
    * ``"wordlist"``, the stand-in for an uncased embedding (e.g. GloVe 6B), a deviation from the paper: keep a
      token only when a cased English word list spells it (each part of a phrase) in lower case. ``wordlist``
      is that list (any collection of words, case kept); by default SCOWL size 50
      (:func:`wordbias.datasets.casing.cased_wordlist`): "bill" and "may" stay ("bill" and "Bill" are both
      listed), "texas", "lufthansa" and "tv" go, and so does a token the list lacks;
    * ``None``: no case rule.

    ``cased`` (default: :func:`wordbias.embeddings.is_cased`) says whether the vocabulary has case.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> embedding = to_keyed_vectors(["the", "John", "john", "new_york", "u.s.", "city"], np.ones((6, 2)))
    >>> candidate_words(embedding, 3)           # "john" comes after "John"; "u.s." is not letters only
    ['the', 'new_york', 'city']
    >>> embedding = to_keyed_vectors(["the", "texas", "bill", "lufthansa", "dog"], np.ones((5, 2)))   # uncased
    >>> candidate_words(embedding, None), candidate_words(embedding, None, case_source=None)
    (['the', 'bill', 'dog'], ['the', 'texas', 'bill', 'lufthansa', 'dog'])
    """
    vocab = embedding.index_to_key
    if cased is None:
        from wordbias.embeddings import is_cased
        cased = is_cased(embedding)
    rule = case_rule(case_source, bool(cased))
    if wordlist is not None and rule != "wordlist":
        raise InvalidParameterError(f"wordlist is used only by case_source 'wordlist' (here the rule is {rule!r}); "
                                    f"leave it None or set case_source='wordlist'")
    lower = None
    if rule == "wordlist":
        from wordbias.datasets import casing
        lower = casing.lowercase_words(wordlist)
        if not lower:
            raise InvalidParameterError("wordlist has no word spelt in lower case, so the stand-in would drop "
                                        "every token")
    rank = embedding.key_to_index
    excluded = set(exclude)
    out: list[str] = []
    for i, w in enumerate(vocab):
        if not _LOWER.match(w) or w in excluded:
            continue
        if rule == "embedding":
            title = "_".join(p[:1].upper() + p[1:] for p in w.split("_")) if "_" in w else w.capitalize()
            if rank.get(title, 1 << 62) < i or rank.get(w.upper(), 1 << 62) < i:
                continue
        elif rule == "wordlist" and not all(part in lower for part in re.split(r"[_ ]", w)):
            continue
        out.append(w)
        if len(out) == M:
            break
    if M is not None and len(out) < M:
        warnings.warn(f"only {len(out)} candidate words found (asked for M = {M})", LowPowerWarning,
                      stacklevel=2)
    return out


def word_categories(embedding, M: int, m: int, *, exclude: Sequence[str], cased: bool, s_words: int,
                    case_source="auto", wordlist=None):
    """Step 2 (Section 3.2): the M candidate words (:func:`candidate_words`, with ``case_source``'s rule) clustered
    into m categories (:func:`~wordbias.measures.ube_names.cluster`, seed ``s_words``).
    Returns (words, their M×d unit vectors W, category of each word, m×d category means 𝒜̄)."""
    words = candidate_words(embedding, M, exclude=exclude, cased=cased, case_source=case_source, wordlist=wordlist)
    W = unit_rows(embedding[words], "words")
    category = cluster(W, m, seed=s_words)
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(m)])
    return words, W, category, Abar
