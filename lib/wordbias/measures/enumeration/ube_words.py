"""Step 2 of Unsupervised Bias Enumeration (Swinger et al. 2019): the candidate words, clustered into categories.

:func:`candidate_words` is Appendix C.4: the M most frequent lower-case tokens, with the case rule
:func:`case_rule` picks (C.4 on a cased embedding; on an uncased one a stand-in from a cased word list, a deviation
from the paper, :mod:`wordbias.datasets.casing`); :func:`word_categories` clusters them into m categories (K-means++,
Section 3.2, :func:`wordbias.measures.enumeration.ube_names.cluster`). :func:`wordbias.measures.enumeration.ube.run` runs it with the other
steps.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

import numpy as np

from wordbias.core.errors import InvalidParameterError, LowPowerWarning
from wordbias.core.vectors import rows_of, unit_rows
from wordbias.measures.enumeration.ube_names import cluster

__all__ = ["CASE_SOURCES", "candidate_words", "case_rule", "word_categories"]

_LOWER = re.compile(r"^[a-z]+(?:[ _][a-z]+)*$")

#: where Step 2 takes case from (:func:`case_rule`): "auto" (the embedding's own case when it is cased, else the
#: word list), "embedding" (Appendix C.4 itself), "wordlist" (the stand-in for uncased vocabularies) or None (no
#: case rule: every lower-case token is a candidate)
CASE_SOURCES = ("auto", "embedding", "wordlist", None)


def case_rule(case_source, cased: bool) -> str | None:
    """The case rule Step 2 applies, from ``case_source`` and whether the vocabulary is cased.

    The rules are ``"embedding"`` (Appendix C.4: drop a lower-case token whose capitalised or upper-case form
    is more frequent in the embedding), ``"wordlist"`` (the stand-in for an uncased vocabulary, a deviation
    from the paper: keep a token only when a cased English word list spells it in lower case;
    :mod:`wordbias.datasets.casing`) or ``None`` (no rule).

    Parameters
    ----------
    case_source : {"auto", "embedding", "wordlist", None}
        The source of case. ``"auto"`` is ``"embedding"`` on a ``cased`` vocabulary and ``"wordlist"`` on an
        uncased one.
    cased : bool
        Whether the vocabulary has case.

    Returns
    -------
    {"embedding", "wordlist", None}
        The rule.

    Raises
    ------
    InvalidParameterError
        If ``case_source`` is not one of :data:`CASE_SOURCES`, or is ``"embedding"`` on an uncased vocabulary
        (it has no capitalised forms, so C.4 would silently drop nothing).

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
    """Appendix C.4: the M most frequent lower-case tokens that pass the case rule.

    These are the M most frequent tokens (every such token when ``M`` is None) made only of the 26
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

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding, its vocabulary in frequency order.
    M : int or None
        The number of candidate words; None for every candidate word of the vocabulary.
    exclude : sequence of str, default ()
        Tokens that are never candidates (e.g. the cleaned names).
    cased : bool, optional
        Whether the vocabulary has case (default: :func:`wordbias.embeddings.is_cased`).
    case_source : {"auto", "embedding", "wordlist", None}, default "auto"
        Where the case rule takes case from (:func:`case_rule`).
    wordlist : collection of str, optional
        The cased word list of the ``"wordlist"`` rule (default: SCOWL size 50); only with that rule.

    Returns
    -------
    list of str
        The candidate words, in frequency order.

    Raises
    ------
    InvalidParameterError
        If ``case_source`` is invalid (:func:`case_rule`), ``wordlist`` is given with another rule, or
        ``wordlist`` has no word spelt in lower case.

    Warns
    -----
    LowPowerWarning
        When fewer than ``M`` candidate words are found.

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
    """Step 2 (Section 3.2): the M candidate words clustered into m categories.

    The words are :func:`candidate_words` (with ``case_source``'s rule), clustered by
    :func:`~wordbias.measures.enumeration.ube_names.cluster` (K-means++, seed ``s_words``).

    Parameters
    ----------
    embedding, M, exclude, cased, case_source, wordlist
        The candidate words' options, as in :func:`candidate_words` (here ``exclude`` and ``cased`` are
        required).
    m : int
        The number of categories.
    s_words : int
        The seed of the K-means.

    Returns
    -------
    words : list of str
        The candidate words 𝒜, in frequency order.
    W : numpy.ndarray of shape (M, d)
        Their unit vectors.
    category : numpy.ndarray of int, shape (M,)
        The category of each word.
    Abar : numpy.ndarray of shape (m, d)
        The category means 𝒜̄_j.

    Raises
    ------
    InvalidParameterError
        If the case rule is refused (:func:`candidate_words`).
    DegenerateSetError
        If there are fewer words than categories, or K-means leaves a category empty.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> V = np.array([[1.0, 0.1], [1.0, -0.1], [0.1, 1.0], [-0.1, 1.0], [0.9, 0.0]], dtype=np.float32)
    >>> kv = to_keyed_vectors(["cat", "dog", "car", "bus", "cow"], V)
    >>> words, W, category, Abar = word_categories(kv, 4, 2, exclude=["cow"], cased=False, s_words=0,
    ...                                            case_source=None)
    >>> words, bool(category[0] == category[1] != category[2] == category[3]), Abar.shape
    (['cat', 'dog', 'car', 'bus'], True, (2, 2))
    """
    words = candidate_words(embedding, M, exclude=exclude, cased=cased, case_source=case_source, wordlist=wordlist)
    W = unit_rows(rows_of(embedding, words), "words")
    category = cluster(W, m, seed=s_words)
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(m)])
    return words, W, category, Abar
