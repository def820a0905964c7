"""Utility benchmarks of word embeddings: Mikolov et al.'s analogies, WordSim-353 and SimLex-999.

What an embedding knows, to measure what debiasing it costs (:mod:`wordbias.measures.debiasing.utility`):

- :func:`analogy_questions`: the word analogies of Mikolov, Chen, Corrado & Dean (2013), "Efficient Estimation
  of Word Representations in Vector Space", ICLR workshop, arXiv:1301.3781, Section 4.1
  (``questions-words.txt``, 14 sections, 19,544 questions "a is to b as c is to d").
- :func:`word_pairs`: human similarity judgements of word pairs: WordSim-353 (Finkelstein et al. 2002, ACM TOIS
  20(1):116-131, doi:10.1145/503104.503110; relatedness, 0-10) and SimLex-999 (Hill, Reichart & Korhonen 2015,
  Computational Linguistics 41(4):665-695, doi:10.1162/COLI_a_00237; similarity, 0-10).

The files are gensim 4.4.0's test-data copies, kept byte for byte in ``data/utility/`` (provenance, checksums and
each file's terms in its ``SOURCE.md``).
"""

from __future__ import annotations

import functools

import pandas as pd

from wordbias.core import paths
from wordbias.core.validation import check_option

__all__ = ["DATA_DIR", "FILES", "PAIR_SETS", "SEMANTIC_SECTIONS", "analogy_questions", "word_pairs"]

DATA_DIR = paths.DATA / "utility"
#: the files under ``data/utility/``
FILES = {"analogies": "questions-words.txt", "wordsim353": "wordsim353.tsv", "simlex999": "simlex999.txt"}
#: the word-pair sets :func:`word_pairs` reads
PAIR_SETS = ("wordsim353", "simlex999")
#: the five semantic sections of the analogies (Mikolov et al. 2013, Table 1); the nine ``gram*`` are syntactic
SEMANTIC_SECTIONS = ("capital-common-countries", "capital-world", "currency", "city-in-state", "family")


@functools.cache
def _analogies() -> pd.DataFrame:
    rows, section = [], None
    path = DATA_DIR / FILES["analogies"]
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(":"):
            section = line.lstrip(": ").strip()
            continue
        words = line.split()
        if not words:
            continue
        if section is None or len(words) != 4:
            raise ValueError(f"{path}, line {line_no}: expected 4 words after a ': section' line, got {line!r}")
        rows.append((section, *words))
    frame = pd.DataFrame(rows, columns=["section", "a", "b", "c", "d"])
    frame["kind"] = ["semantic" if s in SEMANTIC_SECTIONS else "syntactic" for s in frame["section"]]
    return frame


def analogy_questions() -> pd.DataFrame:
    """Mikolov et al.'s (2013) word analogy questions, "a is to b as c is to d".

    Returns
    -------
    pandas.DataFrame
        One row per question, in file order: ``section`` (e.g. ``"capital-common-countries"``), the four words
        ``a``, ``b``, ``c``, ``d`` as written (cased, e.g. ``Athens``), and ``kind`` (``"semantic"`` for the
        five sections of :data:`SEMANTIC_SECTIONS`, else ``"syntactic"``). A fresh copy on every call.

    Raises
    ------
    ValueError
        If the file holds a question before any section or a line without four words.

    Examples
    --------
    >>> q = analogy_questions()
    >>> len(q), q["section"].nunique(), q["kind"].value_counts().to_dict()
    (19544, 14, {'syntactic': 10675, 'semantic': 8869})
    >>> q.iloc[0][["a", "b", "c", "d"]].tolist()
    ['Athens', 'Greece', 'Baghdad', 'Iraq']
    """
    return _analogies().copy()


@functools.cache
def _pairs(name: str) -> pd.DataFrame:
    path = DATA_DIR / FILES[name]
    rows = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise ValueError(f"{path}, line {line_no}: expected 'word1<TAB>word2<TAB>score', got {line!r}")
        rows.append((parts[0], parts[1], float(parts[2])))
    return pd.DataFrame(rows, columns=["word1", "word2", "score"])


def word_pairs(name: str = "wordsim353") -> pd.DataFrame:
    """Word pairs with human similarity scores: WordSim-353 or SimLex-999.

    Parameters
    ----------
    name : {"wordsim353", "simlex999"}, default "wordsim353"
        ``"wordsim353"``: Finkelstein et al. (2002), 353 pairs rated for relatedness (mean of 13 or 16
        raters, 0-10); ``"simlex999"``: Hill et al. (2015), 999 pairs rated for similarity (0-10).

    Returns
    -------
    pandas.DataFrame
        ``word1``, ``word2`` (as written, lower case) and ``score`` (float), in file order. A fresh copy.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``name`` is not one of :data:`PAIR_SETS`.
    ValueError
        If a line of the file is not ``word1<TAB>word2<TAB>score``.

    Examples
    --------
    >>> ws = word_pairs("wordsim353")
    >>> len(ws), ws.iloc[0]["word1"], ws.iloc[0]["word2"], float(ws.iloc[0]["score"])
    (353, 'love', 'sex', 6.77)
    >>> len(word_pairs("simlex999"))
    999
    """
    check_option("name", name, PAIR_SETS)
    return _pairs(name).copy()
