"""Case information for uncased vocabularies: a stand-in for Appendix C.4 of Swinger et al. (2019) and an
independent judge of proper nouns.

Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are the biases in my word embedding?", AIES 2019,
https://doi.org/10.1145/3306618.3314270, Appendix C.4: a lower-case token is a candidate word only when its
capitalised (or upper-case) form is rarer in the embedding, which keeps proper nouns ("lufthansa", "texas") out of
the word categories. An uncased embedding (GloVe 6B) has no capitalised forms to compare with, so case must come
from elsewhere:

* :func:`cased_wordlist` / :func:`lowercase_words`: SCOWL size 50 (American + British, Debian ``wamerican`` and
  ``wbritish`` 2020.12.07-2; ``data/casing/SOURCE.md``), a spelling list that keeps proper nouns capitalised.
  The stand-in (:func:`wordbias.measures.ube.candidate_words` with ``case_source="wordlist"``) keeps a token only
  when the list spells it in lower case: "bill" and "may" stay (the list has both "bill" and "Bill"),
  "texas" and "lufthansa" go (capitalised only), so do "tv" and "ceo" (upper case only, as C.4 would on a cased
  embedding, where "TV" is the more frequent form), and so does a token the list lacks altogether.
* :func:`capitalisation_counts` / :func:`gap_capitalisation` / :func:`judge_proper_nouns`: a *judge* of
  proper-noun-ness that does not use the list: how often a word is capitalised in the middle of a sentence of
  the GAP passages (Wikipedia text, ``data/gap``), Appendix C.4's comparison made on a small cased corpus. It
  is used to measure what the stand-in changes (``benchmarks/swinger_case_filter.py``), not to filter.
"""

from __future__ import annotations

import functools
import gzip
import re
from collections import Counter
from collections.abc import Collection, Iterable
from pathlib import Path

import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import CasingDataError, InvalidParameterError

#: the folder holding the case data and its SOURCE.md
DATA_DIR = paths.DATA / "casing"
#: SCOWL size 50, American and British, letters-only entries, case kept (see SOURCE.md)
WORDLIST_FILE = DATA_DIR / "scowl_en_50.txt.gz"
#: the hand-checked sample of top words (token, our judgement) that measures the judge's error rate
HAND_CHECK_FILE = DATA_DIR / "hand_check.csv"

_LETTERS = re.compile(r"^[A-Za-z]+$")
_WORD = re.compile(r"[A-Za-z]+")
#: a word right after one of these (spaces skipped), or at the start of a text, may be capitalised because it
#: starts a sentence or a quotation: such occurrences are not counted
_SENTENCE_START = frozenset(".!?:;\"'(\u201c\u2018[")

JUDGEMENTS = ("proper", "common", "unknown")


@functools.cache
def cased_wordlist(path: str | None = None) -> frozenset[str]:
    """The shipped cased word list (:data:`WORDLIST_FILE`, or the gzip or plain text file ``path``): one word of
    ASCII letters per line, case kept. Raises :class:`CasingDataError` naming the file and line of an entry that
    is not letters only, and for an empty list.

    Examples
    --------
    >>> words = cased_wordlist()
    >>> {"bill", "Bill", "may", "May", "Texas"} <= words, "texas" in words
    (True, False)
    """
    file = WORDLIST_FILE if path is None else Path(path)
    opener = gzip.open if str(file).endswith(".gz") else open
    with opener(file, "rt", encoding="ascii", newline="\n") as fh:
        lines = fh.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for k, w in enumerate(lines, start=1):
        if not _LETTERS.match(w):
            raise CasingDataError(f"{file}, line {k}: {w!r} is not a word of ASCII letters")
    if not lines:
        raise CasingDataError(f"{file} holds no words")
    return frozenset(lines)


def lowercase_words(words: Collection[str] | None = None) -> frozenset[str]:
    """The entries of a cased word list (default :func:`cased_wordlist`) spelt all in lower case: the tokens
    the list attests as common words.

    Examples
    --------
    >>> sorted(lowercase_words(["Bill", "bill", "Texas", "TV", "dog"]))
    ['bill', 'dog']
    """
    words = cased_wordlist() if words is None else words
    if isinstance(words, str):
        raise InvalidParameterError(f"words must be a collection of words, not the string {words!r}")
    return frozenset(w for w in words if isinstance(w, str) and w.islower() and w.isalpha())


def attested_lower(token: str, lower: Collection[str]) -> bool:
    """Whether every part of ``token`` (split at ``_`` and spaces, for phrase tokens such as "new_york") is in
    ``lower``, the lower-case words of a cased list (:func:`lowercase_words`).

    Examples
    --------
    >>> lower = lowercase_words(["bill", "Bill", "New", "new", "York", "hat"])
    >>> attested_lower("bill", lower), attested_lower("new_york", lower), attested_lower("new hat", lower)
    (True, False, True)
    """
    return all(part in lower for part in re.split(r"[_ ]", token))


# --------------------------------------------------------------------------------------------------
# the independent judge: capitalisation in the middle of sentences of cased text
# --------------------------------------------------------------------------------------------------

def capitalisation_counts(texts: Iterable[str]) -> pd.DataFrame:
    """For each word (lower-cased) of ``texts``, how often it occurs in lower case (``lower``) and with a
    capital first letter (``capitalised``, including all-upper forms), counting only occurrences in the middle of
    a sentence: a word at the start of a text or right after ``. ! ? : ;``, a quotation mark or an opening
    bracket (spaces skipped) is left out, since it may be capitalised for that reason alone. Mixed forms such as
    "iPod" count as neither. Rows sorted by word.

    Examples
    --------
    >>> capitalisation_counts(["The bill passed. Bill Smith paid the bill to Acme and acme."])
    ... # doctest: +NORMALIZE_WHITESPACE
           lower  capitalised
    word
    acme       1            1
    and        1            0
    bill       2            0
    paid       1            0
    passed     1            0
    smith      0            1
    the        1            0
    to         1            0
    """
    lower: Counter = Counter()
    capital: Counter = Counter()
    for text in texts:
        if not isinstance(text, str):
            raise InvalidParameterError(f"texts must be strings, not {type(text).__name__}")
        for match in _WORD.finditer(text):
            before = text[:match.start()].rstrip()
            if not before or before[-1] in _SENTENCE_START:
                continue
            w = match.group()
            if w.islower():
                lower[w] += 1
            elif w[0].isupper() and (w[1:].islower() or w.isupper() or len(w) == 1):
                capital[w.lower()] += 1
    words = sorted(set(lower) | set(capital))
    return pd.DataFrame({"lower": [lower[w] for w in words], "capitalised": [capital[w] for w in words]},
                        index=pd.Index(words, name="word"))


@functools.lru_cache(maxsize=1)
def gap_capitalisation() -> pd.DataFrame:
    """:func:`capitalisation_counts` of the passages of the three GAP splits (Webster et al. 2018; Wikipedia
    text, about 295,000 counted word occurrences; :mod:`wordbias.datasets.gap`)."""
    from wordbias.datasets import gap

    texts = pd.concat([gap.read_tsv(gap.split_path(s)) for s in gap.SPLITS])["Text"]
    return capitalisation_counts(texts)


def judge_proper_nouns(tokens: Iterable[str], counts: pd.DataFrame | None = None, *,
                       min_count: int = 2) -> pd.Series:
    """Judge each token "proper" (capitalised more often than not in the middle of a sentence: Appendix C.4's
    comparison made on cased text), "common" (lower case at least as often) or "unknown" (fewer than
    ``min_count`` counted occurrences). ``counts`` defaults to :func:`gap_capitalisation`. Words that mostly occur
    inside names ("united", "new", "president") are judged proper: the judge over-counts proper nouns among
    frequent words, which the hand-checked sample (``data/casing/hand_check.csv``) measures.

    Examples
    --------
    >>> counts = capitalisation_counts(["and Texas and Texas and dog and Bill and bill and bill"])
    >>> judge_proper_nouns(["texas", "dog", "bill", "zebra"], counts, min_count=1).tolist()
    ['proper', 'common', 'common', 'unknown']
    """
    from wordbias.core.validation import check_int

    min_count = check_int("min_count", min_count, min=1)
    counts = gap_capitalisation() if counts is None else counts
    tokens = list(tokens)
    c = counts.reindex(tokens).fillna(0)
    total = c["lower"] + c["capitalised"]
    out = pd.Series("common", index=pd.Index(tokens, name="token"), name="judgement")
    out[(c["capitalised"] > c["lower"]).to_numpy()] = "proper"
    out[(total < min_count).to_numpy()] = "unknown"
    return out


def proper_noun_share(judgements: pd.Series) -> dict:
    """Share of "proper" among the tokens the judge could judge, with the counts: ``proper``, ``common``,
    ``unknown``, ``judged`` (proper + common) and ``share`` (NaN when nothing was judged).

    Examples
    --------
    >>> proper_noun_share(pd.Series(["proper", "common", "common", "unknown"]))
    {'proper': 1, 'common': 2, 'unknown': 1, 'judged': 3, 'share': 0.3333333333333333}
    """
    bad = sorted(set(judgements) - set(JUDGEMENTS))
    if bad:
        raise InvalidParameterError(f"judgements must be among {JUDGEMENTS}, not {bad}")
    k = {j: int((judgements == j).sum()) for j in JUDGEMENTS}
    judged = k["proper"] + k["common"]
    return {**k, "judged": judged, "share": k["proper"] / judged if judged else float("nan")}


def hand_check(path=None) -> pd.DataFrame:
    """The hand-checked sample (:data:`HAND_CHECK_FILE`: ``token``, ``hand`` = "proper" or "common", ``note``),
    indexed by token. Raises :class:`CasingDataError` naming the file for a missing column, a repeated token or a
    judgement other than "proper" / "common"."""
    file = HAND_CHECK_FILE if path is None else Path(path)
    table = pd.read_csv(file, keep_default_na=False, dtype=str)
    missing = {"token", "hand"} - set(table.columns)
    if missing:
        raise CasingDataError(f"{file} lacks the column(s) {sorted(missing)}")
    bad = sorted(set(table["hand"]) - {"proper", "common"})
    if bad:
        raise CasingDataError(f"{file}: hand judgements must be 'proper' or 'common', not {bad}")
    dup = sorted(table["token"][table["token"].duplicated()])
    if dup:
        raise CasingDataError(f"{file}: tokens judged twice: {dup}")
    return table.set_index("token")


def judge_errors(hand: pd.DataFrame | None = None, counts: pd.DataFrame | None = None) -> dict:
    """:func:`judge_proper_nouns` against a hand judgement (default :func:`hand_check`): the sample size, how many
    tokens the judge judged, its errors among them (``errors``, ``error_rate``), split into ``common_called_proper``
    and ``proper_called_common``.

    Examples
    --------
    >>> hand = pd.DataFrame({"hand": ["proper", "common", "common"]}, index=["texas", "beach", "dog"])
    >>> counts = capitalisation_counts(["a Texas b Texas c Beach d Beach e beach f dog g dog"])
    >>> judge_errors(hand, counts)         # "beach" is written in capitals more often than not: called proper
    {'sample': 3, 'judged': 3, 'errors': 1, 'error_rate': 0.3333333333333333, 'common_called_proper': 1, 'proper_called_common': 0}
    """
    hand = hand_check() if hand is None else hand
    truth = hand["hand"]
    judge = judge_proper_nouns(truth.index, counts)
    judged = (judge != "unknown").to_numpy()
    wrong = judged & (judge.to_numpy() != truth.to_numpy())
    return dict(sample=len(truth), judged=int(judged.sum()), errors=int(wrong.sum()),
                error_rate=float(wrong.sum() / judged.sum()) if judged.any() else float("nan"),
                common_called_proper=int((wrong & (truth.to_numpy() == "common")).sum()),
                proper_called_common=int((wrong & (truth.to_numpy() == "proper")).sum()))


def describe_judge_errors(hand: pd.DataFrame | None = None) -> str:
    """One line: :func:`judge_errors` of the GAP judge on the hand-checked sample."""
    e = judge_errors(hand)
    return (f"GAP judge on the hand-checked sample: {e['judged']} of {e['sample']} words judged, {e['errors']} wrong "
            f"({100 * e['error_rate']:.0f}%): common words called proper nouns {e['common_called_proper']}, "
            f"proper nouns called common {e['proper_called_common']}")
