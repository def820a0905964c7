"""Case information for uncased vocabularies: a stand-in for Appendix C.4 of Swinger et al. (2019) and an
independent judge of proper nouns.

Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are the biases in my word embedding?", AIES 2019,
https://doi.org/10.1145/3306618.3314270, Appendix C.4: a lower-case token is a candidate word only when its
capitalised (or upper-case) form is rarer in the embedding, which keeps proper nouns ("lufthansa", "texas") out of
the word categories. An uncased embedding (GloVe 6B) has no capitalised forms to compare with, so case must come
from elsewhere:

* :func:`cased_wordlist` / :func:`lowercase_words`: SCOWL size 50 (American + British, Debian ``wamerican`` and
  ``wbritish`` 2020.12.07-2; ``data/casing/SOURCE.md``), a spelling list that keeps proper nouns capitalised.
  The stand-in (:func:`wordbias.measures.enumeration.ube.candidate_words` with ``case_source="wordlist"``) keeps a token only
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
    """The shipped cased word list: one word of ASCII letters per line, case kept.

    Parameters
    ----------
    path : str, optional
        A gzip or plain text file in the same layout; by default :data:`WORDLIST_FILE` (SCOWL size 50).

    Returns
    -------
    frozenset of str
        The words, case kept (read once per path, then cached).

    Raises
    ------
    wordbias.core.errors.CasingDataError
        If an entry is not letters only (naming the file and line), or the list is empty.

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
    """The entries of a cased word list spelt all in lower case: the tokens the list attests as common words.

    Parameters
    ----------
    words : collection of str, optional
        A cased word list; by default :func:`cased_wordlist`.

    Returns
    -------
    frozenset of str
        The entries that are all lower-case letters.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``words`` is a single string.

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
    """Say whether a cased word list attests a token as a common (lower-case) word.

    Parameters
    ----------
    token : str
        A token of the embedding; a phrase token such as "new_york" is split at ``_`` and spaces.
    lower : collection of str
        The lower-case words of a cased list (:func:`lowercase_words`).

    Returns
    -------
    bool
        True if every part of ``token`` is in ``lower``.

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
    """Count how often each word of some texts is written in lower case and with a capital, mid-sentence.

    Only occurrences in the middle of a sentence count: a word at the start of a text or right after
    ``. ! ? : ;``, a quotation mark or an opening bracket (spaces skipped) is left out, since it may be
    capitalised for that reason alone. Mixed forms such as "iPod" count as neither.

    Parameters
    ----------
    texts : iterable of str
        Cased text (e.g. the GAP passages).

    Returns
    -------
    pandas.DataFrame
        Indexed by the word lower-cased (``word``), sorted, with the columns ``lower`` (occurrences in lower
        case) and ``capitalised`` (with a capital first letter, including all-upper forms).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a text is not a string.

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
    """:func:`capitalisation_counts` of the passages of the three GAP splits.

    Webster et al. (2018): Wikipedia text, about 295,000 counted word occurrences
    (:mod:`wordbias.datasets.gap`). Computed once (a second or two), then cached.

    Returns
    -------
    pandas.DataFrame
        The counts, as :func:`capitalisation_counts` gives them.
    """
    from wordbias.datasets import gap

    texts = pd.concat([gap.read_tsv(gap.split_path(s)) for s in gap.SPLITS])["Text"]
    return capitalisation_counts(texts)


def judge_proper_nouns(tokens: Iterable[str], counts: pd.DataFrame | None = None, *,
                       min_count: int = 2) -> pd.Series:
    """Judge each token a proper noun, a common word, or unknown, from how cased text writes it.

    "proper": capitalised more often than not in the middle of a sentence (Appendix C.4's comparison made on
    cased text); "common": lower case at least as often; "unknown": fewer than ``min_count`` counted
    occurrences. Words that mostly occur inside names ("united", "new", "president") are judged proper: the
    judge over-counts proper nouns among frequent words, which the hand-checked sample
    (``data/casing/hand_check.csv``) measures.

    Parameters
    ----------
    tokens : iterable of str
        The lower-case tokens to judge.
    counts : pandas.DataFrame, optional
        Counts as :func:`capitalisation_counts` gives them; by default :func:`gap_capitalisation`.
    min_count : int, default 2
        The fewest counted occurrences a token needs to be judged.

    Returns
    -------
    pandas.Series
        ``"proper"``, ``"common"`` or ``"unknown"`` per token, indexed by token, named ``judgement``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``min_count`` is not an integer >= 1.

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
    """The share of proper nouns among the tokens the judge could judge, with the counts.

    Parameters
    ----------
    judgements : pandas.Series
        Judgements as :func:`judge_proper_nouns` gives them.

    Returns
    -------
    dict
        ``proper``, ``common``, ``unknown``, ``judged`` (proper + common) and ``share`` (proper / judged, NaN
        when nothing was judged).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a judgement is not one of :data:`JUDGEMENTS`.

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
    """The hand-checked sample of top words: each token judged "proper" or "common" by hand.

    Parameters
    ----------
    path : str or path-like, optional
        A CSV file with the columns ``token``, ``hand`` and (optionally) ``note``; by default
        :data:`HAND_CHECK_FILE`.

    Returns
    -------
    pandas.DataFrame
        Indexed by token, with ``hand`` ("proper" or "common") and the file's other columns (``note``).

    Raises
    ------
    wordbias.core.errors.CasingDataError
        If a column is missing, a token is repeated, or a judgement is other than "proper" / "common" (the
        message names the file).

    Examples
    --------
    >>> sample = hand_check()
    >>> len(sample), sample["hand"].value_counts().to_dict()
    (50, {'common': 30, 'proper': 20})
    >>> sample.loc["actor", "hand"]
    'common'
    """
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
    """How often :func:`judge_proper_nouns` errs against a hand judgement.

    Parameters
    ----------
    hand : pandas.DataFrame, optional
        The hand judgements: a ``hand`` column ("proper" or "common") indexed by token; by default
        :func:`hand_check`.
    counts : pandas.DataFrame, optional
        The judge's counts (:func:`capitalisation_counts`); by default :func:`gap_capitalisation`.

    Returns
    -------
    dict
        ``sample`` (the sample size), ``judged`` (how many tokens the judge judged), ``errors`` and
        ``error_rate`` among them (NaN when none was judged), split into ``common_called_proper`` and
        ``proper_called_common``.

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
    """One line: :func:`judge_errors` of the GAP judge on the hand-checked sample.

    Parameters
    ----------
    hand : pandas.DataFrame, optional
        The hand judgements; by default :func:`hand_check`.

    Returns
    -------
    str
        The words judged, the errors and their kinds.

    Examples
    --------
    The GAP counts take a second or two to compute the first time, so the call is not run here:

    >>> print(describe_judge_errors())  # doctest: +SKIP
    GAP judge on the hand-checked sample: 25 of 50 words judged, 8 wrong (32%): common words called proper nouns 7, proper nouns called common 1
    """
    e = judge_errors(hand)
    return (f"GAP judge on the hand-checked sample: {e['judged']} of {e['sample']} words judged, {e['errors']} wrong "
            f"({100 * e['error_rate']:.0f}%): common words called proper nouns {e['common_called_proper']}, "
            f"proper nouns called common {e['proper_called_common']}")
