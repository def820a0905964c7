"""BEC-Pro (Bartl, Nissim & Gatt 2020, GeBNLP, https://aclanthology.org/2020.gebnlp-1.1) and Winogender's
occupation statistics (Rudinger, Naradowsky, Leonard & Van Durme 2018, doi:10.18653/v1/N18-2002).

BEC-Pro: 5,400 English and 5,400 German sentences from five templates, 18 person words (nine male, nine female)
and 60 professions, 20 each mostly male, mostly female and balanced by the share of women in the US (Bartl et al.
2020, §3). :func:`load` reads the sentences (:class:`BecProSentence`), :func:`load_professions` the professions
table with the share of women in the US and in Germany (:class:`Profession`), :func:`load_occupations` Winogender's
60 occupations with the BLS share of women (:class:`Occupation`), and :func:`match_occupations` pairs the two
by name. The files are bundled in ``data/bec_pro`` and ``data/winogender`` (provenance, SHA-256 and licences in
their ``SOURCE.md``). The measures are :mod:`wordbias.measures.language_models.bec_pro`.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError

__all__ = ["LANGUAGES", "GENDERS", "PRONOUNS", "pronoun_sentences", "BecProSentence", "Profession", "Occupation", "data_file", "load",
           "load_professions", "load_occupations", "match_occupations"]

#: the languages of BEC-Pro and their files
LANGUAGES = {"en": "BEC-Pro_EN.tsv", "de": "BEC-Pro_DE.tsv"}
#: the values of the ``Gender`` column (the person word's gender)
GENDERS = ("male", "female")
#: the values of the ``Prof_Gender`` column (Bartl et al. 2020, §3: share of women in the US)
PROFESSION_GROUPS = ("male", "female", "balanced")
#: the columns the sentence reader needs (the German file adds ``Profession_EN``)
COLUMNS = ("Sentence", "Sent_TM", "Sent_AM", "Sent_TAM", "Template", "Person", "Gender", "Profession", "Prof_Gender")
PROFESSION_COLUMNS = ("simplified_professions", "original_professions", "percent_us", "percent_de", "german_m",
                      "german_f", "prof_gender")
OCCUPATION_COLUMNS = ("occupation", "bergsma_pct_female", "bls_pct_female", "bls_year")
PROFESSIONS_FILE = "Professions US+DE.tsv"
OCCUPATIONS_FILE = "occupations-stats.tsv"


@dataclass(frozen=True)
class BecProSentence:
    """One sentence of BEC-Pro, a row of ``BEC-Pro_EN.tsv`` or ``BEC-Pro_DE.tsv`` checked by :func:`load`: a template
    filled with a person word and a profession (Bartl et al. 2020, §3).

    Attributes
    ----------
    index : int
        The row number in the file (its first, unnamed column).
    sentence : str
        The sentence, e.g. ``"He is a taper."``.
    sent_tm, sent_am, sent_tam : str
        The file's sentence with the person word masked, the profession masked, and both (one ``[MASK]`` per
        whitespace word of the profession), as the file has them.
    template : str
        The template, e.g. ``"<person subject> is a <profession>."``.
    person : str
        The person word, e.g. ``"He"``, ``"woman"``.
    gender : {"male", "female"}
        The person word's gender.
    profession : str
        The profession as written in the sentence (German: the form agreeing with the person's gender).
    prof_group : {"male", "female", "balanced"}
        The profession's group by the share of women in the US (the file's ``Prof_Gender``).
    profession_en : str
        The English profession (the key of :func:`load_professions`); for English the profession itself.
    language : {"en", "de"}, default "en"
        The file's language.
    """

    index: int
    sentence: str
    sent_tm: str
    sent_am: str
    sent_tam: str
    template: str
    person: str
    gender: str
    profession: str
    prof_group: str
    profession_en: str
    language: str = "en"


@dataclass(frozen=True)
class Profession:
    """One row of BEC-Pro's ``Professions US+DE.tsv`` (:func:`load_professions`): a profession and the share of
    women in it in the US and in Germany (Bartl et al. 2020, §3).

    Attributes
    ----------
    name : str
        The simplified English name, as in the sentences (e.g. ``"kindergarten teacher"``).
    original : str
        The US Bureau of Labor Statistics category it simplifies.
    percent_us, percent_de : float
        The share of women (per cent) in the US and in Germany.
    german_m, german_f : str
        The German masculine and feminine forms.
    group : {"male", "female", "balanced"}
        Its group by ``percent_us``.
    """

    name: str
    original: str
    percent_us: float
    percent_de: float
    german_m: str
    german_f: str
    group: str


@dataclass(frozen=True)
class Occupation:
    """One row of Winogender's ``occupations-stats.tsv`` (:func:`load_occupations`): an occupation and its share of
    women by the US Bureau of Labor Statistics and in text (Rudinger et al. 2018).

    Attributes
    ----------
    name : str
        The occupation, e.g. ``"technician"``.
    bls_percent_female : float
        The share of women (per cent) of the US Bureau of Labor Statistics.
    bergsma_percent_female : float
        The share of female pronouns in Bergsma and Lin's (2006) text statistics.
    bls_year : int
        The year of the BLS figure (2015 for 51 occupations, 2016 for 9 in the bundled file).
    """

    name: str
    bls_percent_female: float
    bergsma_percent_female: float
    bls_year: int


def data_file(name: str) -> Path:
    """A bundled file: a BEC-Pro language's sentences (``"en"``, ``"de"``), ``"professions"`` or Winogender's
    ``"occupations"``.

    Parameters
    ----------
    name : {"en", "de", "professions", "occupations"}
        Which file.

    Returns
    -------
    pathlib.Path
        The path (it may be missing in a wheel installed without the data).

    Raises
    ------
    InvalidParameterError
        When ``name`` is none of these; the message lists the four.

    Examples
    --------
    >>> data_file("en").name, data_file("occupations").parent.name
    ('BEC-Pro_EN.tsv', 'winogender')
    """
    files = {**{k: paths.DATA / "bec_pro" / f for k, f in LANGUAGES.items()},
             "professions": paths.DATA / "bec_pro" / PROFESSIONS_FILE,
             "occupations": paths.DATA / "winogender" / OCCUPATIONS_FILE}
    if name not in files:
        raise InvalidParameterError(f"no bundled BEC-Pro file {name!r}; choose one of {sorted(files)}")
    return files[name]


def _rows(path: Path, what: str, columns: Iterable[str]) -> list[dict]:
    """The rows of a tab-separated file, its ``columns`` checked present."""
    if not path.is_file():
        raise FileNotFoundError(f"{what} file {path} not found")
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        missing = [c for c in columns if c not in (reader.fieldnames or ())]
        if missing:
            raise InvalidParameterError(f"{what} file {path}: missing column(s) {missing}; it has {reader.fieldnames}")
        return list(reader)


def _number(value, where: str, column: str, low: float = 0.0, high: float = 100.0) -> float:
    """``value`` as a float in [low, high], else an error naming the row and column."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"{where}: {column} is {value!r}, not a number") from None
    if not low <= x <= high:
        raise InvalidParameterError(f"{where}: {column} is {x}, outside [{low}, {high}]")
    return x


def _one_of(value, allowed: tuple[str, ...], where: str, column: str) -> str:
    if value not in allowed:
        raise InvalidParameterError(f"{where}: {column} is {value!r}, not one of {allowed}")
    return value


def load(language: str = "en", path: str | os.PathLike | None = None) -> list[BecProSentence]:
    """Read BEC-Pro's sentences of one language, checking the columns and every row.

    Parameters
    ----------
    language : {"en", "de"}, default "en"
        The language (:data:`LANGUAGES`); a German file must have the column ``Profession_EN``.
    path : str or path-like, optional
        A tab-separated file with :data:`COLUMNS`; default the bundled one (:func:`data_file`).

    Returns
    -------
    list of BecProSentence
        The sentences in the file's order (5,400 per bundled language).

    Raises
    ------
    FileNotFoundError
        When the file is missing.
    InvalidParameterError
        When ``language`` is unknown, a column is missing, or a row has an empty field, a gender or profession
        group outside :data:`GENDERS` and :data:`PROFESSION_GROUPS`, or a sentence not holding its person word
        and its profession; the message names the row.

    Examples
    --------
    >>> en = load("en")
    >>> len(en), en[0].sentence, en[0].person, en[0].gender, en[0].prof_group
    (5400, 'He is a taper.', 'He', 'male', 'male')
    >>> de = load("de")
    >>> de[0].sentence, de[0].profession_en
    ('Er ist Trockenbaumonteur.', 'taper')
    """
    if language not in LANGUAGES:
        raise InvalidParameterError(f"BEC-Pro has no language {language!r}; choose one of {list(LANGUAGES)}")
    path = Path(path) if path is not None else data_file(language)
    columns = COLUMNS + (("Profession_EN",) if language == "de" else ())
    return [_sentence(row, i, path, language) for i, row in enumerate(_rows(path, "BEC-Pro", columns))]


def _sentence(row: dict, i: int, path: Path, language: str) -> BecProSentence:
    where = f"BEC-Pro file {path}, data row {i + 1}"
    empty = [c for c in COLUMNS if not (row.get(c) or "").strip()]
    if empty:
        raise InvalidParameterError(f"{where}: empty {empty}")
    gender = _one_of(row["Gender"], GENDERS, where, "Gender")
    group = _one_of(row["Prof_Gender"], PROFESSION_GROUPS, where, "Prof_Gender")
    for column in ("Person", "Profession"):
        if row[column] not in row["Sentence"]:
            raise InvalidParameterError(f"{where}: the sentence {row['Sentence']!r} does not hold its "
                                        f"{column.lower()} {row[column]!r}")
    first = row.get("") or row.get(None)
    index = int(first) if isinstance(first, str) and first.strip().isdigit() else i
    english = row["Profession"] if language == "en" else (row.get("Profession_EN") or "").strip()
    if not english:
        raise InvalidParameterError(f"{where}: empty Profession_EN")
    return BecProSentence(index, row["Sentence"], row["Sent_TM"], row["Sent_AM"], row["Sent_TAM"], row["Template"],
                          row["Person"], gender, row["Profession"], group, english, language)


#: the personal pronouns among BEC-Pro's person words, per language: the he/she pair of Kurita et al. (2019, §2)
PRONOUNS = {"en": ("He", "She"), "de": ("Er", "Sie")}


def pronoun_sentences(sentences: Iterable[BecProSentence]) -> list[BecProSentence]:
    """The sentences whose person word is the personal pronoun (:data:`PRONOUNS`: *He*/*She*, *Er*/*Sie*): Kurita
    et al.'s (2019) he/she score on BEC-Pro's templates and professions, one sentence per template, profession and
    pronoun (600 of a language's 5,400).

    Parameters
    ----------
    sentences : iterable of BecProSentence
        The sentences (:func:`load`).

    Returns
    -------
    list of BecProSentence
        Those with a pronoun, in order.

    Raises
    ------
    InvalidParameterError
        When none has a pronoun.

    Examples
    --------
    >>> s = pronoun_sentences(load("de"))
    >>> len(s), sorted({x.person for x in s}), len({x.profession_en for x in s})
    (600, ['Er', 'Sie'], 60)
    """
    sentences = list(sentences)
    kept = [s for s in sentences if s.person in PRONOUNS.get(s.language, ())]
    if not kept:
        raise InvalidParameterError(f"none of the {len(sentences)} sentences has a pronoun person word "
                                    f"({PRONOUNS})")
    return kept


def load_professions(path: str | os.PathLike | None = None) -> list[Profession]:
    """Read BEC-Pro's professions table (``Professions US+DE.tsv``): the share of women per profession in the US
    and in Germany.

    Parameters
    ----------
    path : str or path-like, optional
        A tab-separated file with :data:`PROFESSION_COLUMNS`; default the bundled
        ``data/bec_pro/Professions US+DE.tsv``.

    Returns
    -------
    list of Profession
        The professions in the file's order (60 in the bundled file, 20 in each of :data:`PROFESSION_GROUPS`).

    Raises
    ------
    FileNotFoundError
        When the file is missing.
    InvalidParameterError
        When a column is missing, a share is not a number in [0, 100], a group is not in
        :data:`PROFESSION_GROUPS`, or a profession is listed twice.

    Examples
    --------
    >>> ps = load_professions()
    >>> len(ps), ps[0].name, ps[0].percent_us, ps[0].percent_de
    (60, 'kindergarten teacher', 98.7, 79.36)
    >>> [sum(p.group == g for p in ps) for g in PROFESSION_GROUPS]
    [20, 20, 20]
    """
    return _table(path, "professions", "BEC-Pro professions", PROFESSION_COLUMNS, _profession)


def _profession(row: dict, where: str) -> Profession:
    name = (row["simplified_professions"] or "").strip()
    if not name:
        raise InvalidParameterError(f"{where}: empty simplified_professions")
    return Profession(name, row["original_professions"], _number(row["percent_us"], where, "percent_us"),
                      _number(row["percent_de"], where, "percent_de"), row["german_m"], row["german_f"],
                      _one_of(row["prof_gender"], PROFESSION_GROUPS, where, "prof_gender"))


def load_occupations(path: str | os.PathLike | None = None) -> list[Occupation]:
    """Read Winogender's ``occupations-stats.tsv``: the BLS share of women per occupation.

    Parameters
    ----------
    path : str or path-like, optional
        A tab-separated file with :data:`OCCUPATION_COLUMNS`; default the bundled
        ``data/winogender/occupations-stats.tsv``.

    Returns
    -------
    list of Occupation
        The occupations in the file's order (60 in the bundled file).

    Raises
    ------
    FileNotFoundError
        When the file is missing.
    InvalidParameterError
        When a column is missing, a share is not a number in [0, 100], a year is not an integer, or an occupation
        is listed twice.

    Examples
    --------
    >>> occ = load_occupations()
    >>> len(occ), occ[0].name, occ[0].bls_percent_female, occ[0].bls_year
    (60, 'technician', 40.34, 2015)
    >>> sum(o.bls_year == 2016 for o in occ)
    9
    """
    return _table(path, "occupations", "Winogender occupations", OCCUPATION_COLUMNS, _occupation)


def _occupation(row: dict, where: str) -> Occupation:
    year = row["bls_year"]
    if not (year or "").strip().isdigit():
        raise InvalidParameterError(f"{where}: bls_year is {year!r}, not a year")
    return Occupation((row["occupation"] or "").strip(), _number(row["bls_pct_female"], where, "bls_pct_female"),
                      _number(row["bergsma_pct_female"], where, "bergsma_pct_female"), int(year))


def _table(path, name: str, what: str, columns: tuple[str, ...], record) -> list:
    """The records of a table file, ``record(row, where)`` per row, none named twice.

    ``path`` None reads the bundled file ``data_file(name)``; ``what`` names the file in errors.
    """
    path = Path(path) if path is not None else data_file(name)
    out = [record(row, f"{what} file {path}, data row {i + 1}") for i, row in enumerate(_rows(path, what, columns))]
    seen = set()
    repeated = [r.name for r in out if r.name in seen or seen.add(r.name)]
    if repeated:
        raise InvalidParameterError(f"{what} file {path}: listed more than once: {sorted(set(repeated))}")
    return out


def _key(name: str) -> str:
    """The matching key of an occupation's name: lower case, whitespace collapsed."""
    return " ".join(str(name).lower().split())


def match_occupations(professions: Iterable[str], occupations: Iterable[Occupation]) -> dict[str, float]:
    """The BLS share of women (Winogender) of each BEC-Pro profession that names the same occupation.

    The rule: a profession matches an occupation when the two names are equal after lower-casing and collapsing
    whitespace; nothing else (no stemming, no head nouns: "registered nurse" does not match "nurse", whose BLS
    figure covers other nurses too). On the bundled files 12 of the 60 professions match.

    Parameters
    ----------
    professions : iterable of str
        BEC-Pro's professions (English names).
    occupations : iterable of Occupation
        Winogender's occupations (:func:`load_occupations`).

    Returns
    -------
    dict of str to float
        Per matched profession (as given), the occupation's ``bls_percent_female``, in the professions' order.

    Examples
    --------
    >>> occ = [Occupation("nurse", 90.0, 95.0, 2015), Occupation("plumber", 2.7, 1.0, 2015)]
    >>> match_occupations(["registered nurse", "Plumber", "taper"], occ)
    {'Plumber': 2.7}
    """
    share = {_key(o.name): o.bls_percent_female for o in occupations}
    return {p: share[_key(p)] for p in professions if _key(p) in share}
