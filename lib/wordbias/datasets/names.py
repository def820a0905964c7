"""First and last names and their demographics, for Unsupervised Bias Enumeration (Swinger et al. 2019, App. C).

SSA first names 1938-2017 and 2010 Census surnames, each with at least 1,000 occurrences (:func:`ssa_first_names`,
:func:`census_surnames`), Tzioumis (2018) race shares of first names (:func:`tzioumis_first_names`), names mapped to
an embedding's tokens (:func:`name_tokens`), and the demographics of name groups, computed a posteriori and never
used to form the groups (:func:`group_demographics`, Tables 3 and 6). Data: ``data/swinger2019/`` (provenance in
its ``SOURCE.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wordbias.core import lookup, paths

__all__ = [
    "MIN_COUNT",
    "NameTokens",
    "census_surnames",
    "group_demographics",
    "name_tokens",
    "ssa_first_names",
    "token_form",
    "tzioumis_first_names",
]

MIN_COUNT = 1000  # Swinger et al. (2019), App. C.1 and C.2: names that appear at least 1,000 times
DATA_DIR = paths.DATA / "swinger2019"
SSA_FILE = "ssa_first_names_1938_2017.csv"
CENSUS_FILE = "census2010_surnames.csv.gz"
TZIOUMIS_FILE = "tzioumis2018_first_names.csv"
RACE_COLUMNS = {"pct_black": "pctblack", "pct_hispanic": "pcthispanic", "pct_asian": "pctapi",
                "pct_white": "pctwhite"}


def _check_min_count(min_count: int) -> None:
    if min_count < MIN_COUNT:
        raise ValueError(
            f"min_count={min_count}: the bundled files hold only names with at least {MIN_COUNT} occurrences "
            "(Swinger et al. 2019, Appendix C); regenerate data/swinger2019 with data/swinger2019/make_names.py "
            "for a lower threshold")


def _at_least(table: Callable[[], pd.DataFrame], min_count: int) -> pd.DataFrame:
    """The rows of ``table()`` with a ``count`` of at least ``min_count`` (checked first), renumbered, a copy."""
    _check_min_count(min_count)
    df = table()
    return df[df["count"] >= min_count].reset_index(drop=True).copy()


# Names such as "Nan" (SSA), "NULL", "TRUE", "NA" (Census) must stay strings: no default NA parsing.
@functools.cache
def _ssa() -> pd.DataFrame:
    return pd.read_csv(DATA_DIR / SSA_FILE, keep_default_na=False, na_values=[],
                       dtype={"name": str, "count": np.int64, "count_female": np.int64, "count_male": np.int64,
                              "frac_female": float, "mean_year": float})


@functools.cache
def _census() -> pd.DataFrame:
    numeric = ["pctwhite", "pctblack", "pctapi", "pctaian", "pct2prace", "pcthispanic"]
    df = pd.read_csv(DATA_DIR / CENSUS_FILE, keep_default_na=False, na_values={c: [""] for c in numeric},
                     dtype={"name": str, "count": np.int64, **{c: float for c in numeric}})
    return df


@functools.cache
def _tzioumis() -> pd.DataFrame:
    df = pd.read_csv(DATA_DIR / TZIOUMIS_FILE, keep_default_na=False, na_values=[], dtype={"firstname": str})
    return df.rename(columns={"firstname": "name"}).set_index("name")


def ssa_first_names(min_count: int = MIN_COUNT) -> pd.DataFrame:
    """SSA first names born 1938-2017 with at least ``min_count`` births (Swinger et al. 2019, Appendix C.1).

    Parameters
    ----------
    min_count : int, default MIN_COUNT
        The fewest births a name needs (1,000, the paper's threshold); at least 1,000, the threshold of the
        bundled file.

    Returns
    -------
    pandas.DataFrame
        One row per name, sexes combined, sorted by ``count`` descending then name. Columns: ``name`` (as in
        the SSA files, capitalised: ``"Mary"``), ``count`` (births 1938-2017), ``count_female``,
        ``count_male``, ``frac_female`` (``count_female / count``, in [0, 1]) and ``mean_year``
        (birth-weighted mean year of birth).

    Raises
    ------
    ValueError
        If ``min_count`` is below 1,000 (the bundled file holds no rarer names).

    Examples
    --------
    >>> names = ssa_first_names()
    >>> len(names), names.loc[0, "name"], int(names.loc[0, "count"])
    (9670, 'Michael', 4254986)
    >>> len(ssa_first_names(min_count=5000))
    3428
    """
    return _at_least(_ssa, min_count)


def census_surnames(min_count: int = MIN_COUNT) -> pd.DataFrame:
    """2010 Census surnames occurring at least ``min_count`` times (Swinger et al. 2019, Appendix C.2).

    Parameters
    ----------
    min_count : int, default MIN_COUNT
        The fewest bearers a surname needs; its default and floor are those of :func:`ssa_first_names`.

    Returns
    -------
    pandas.DataFrame
        One row per surname, sorted by count descending (the Census rank order). Columns: ``name`` (upper
        case, as published: ``"SMITH"``), ``count``, and the percentages of bearers who are ``pctwhite``,
        ``pctblack``, ``pctapi`` (Asian / Pacific Islander), ``pctaian``, ``pct2prace`` (non-Hispanic each)
        and ``pcthispanic``, on a 0-100 scale; values suppressed by the Census Bureau ("(S)") are NaN.

    Raises
    ------
    ValueError
        If ``min_count`` is below 1,000, as for :func:`ssa_first_names`.

    Examples
    --------
    >>> surnames = census_surnames()
    >>> len(surnames), surnames.loc[0, "name"], float(surnames.loc[0, "pctwhite"])
    (24889, 'SMITH', 70.9)
    """
    return _at_least(_census, min_count)


def tzioumis_first_names() -> pd.DataFrame:
    """Tzioumis (2018) first names with the race/Hispanic-origin shares of their bearers (4,250 names).

    Indexed by the name in upper case (``"AARON"``); columns ``obs`` (mortgage applicants with the name),
    ``pcthispanic``, ``pctwhite``, ``pctblack``, ``pctapi``, ``pctaian``, ``pct2prace`` (0-100). The aggregate
    ``ALL OTHER FIRST NAMES`` row of the original file is not included. Used by Swinger et al. (2019), Tables 3
    and 6, only to describe name groups a posteriori.

    Returns
    -------
    pandas.DataFrame
        4,250 rows indexed by the name in upper case, with ``obs``, ``pcthispanic``, ``pctwhite``,
        ``pctblack``, ``pctapi``, ``pctaian`` and ``pct2prace``.

    Examples
    --------
    >>> shares = tzioumis_first_names()
    >>> len(shares), int(shares.loc["AARON", "obs"]), round(float(shares.loc["AARON", "pctwhite"]), 1)
    (4250, 3646, 91.6)
    """
    return _tzioumis().copy()


# ---------------------------------------------------------------------------------------------- tokens


@dataclass(frozen=True)
class NameTokens:
    """The names of a list mapped to an embedding's tokens: the result of :func:`name_tokens`.

    ``len()`` is the number of names found; the properties ``tokens`` and ``names`` list the table's columns,
    ``n_missing`` counts the names missing.

    Attributes
    ----------
    table : pandas.DataFrame
        Columns ``name`` (as given) and ``token`` (the embedding token), one row per name found, in input
        order.
    missing : tuple of str
        The names whose token is not in the vocabulary.
    duplicates : tuple of str, default ()
        Names dropped because an earlier name already mapped to the same token (e.g. ``"MARY"`` after
        ``"Mary"``).
    """

    table: pd.DataFrame = field(repr=False)
    missing: tuple[str, ...]
    duplicates: tuple[str, ...] = ()

    @property
    def tokens(self) -> list[str]:
        """The tokens of the names found, in input order."""
        return self.table["token"].tolist()

    @property
    def names(self) -> list[str]:
        """The names found, as given, in input order."""
        return self.table["name"].tolist()

    @property
    def n_missing(self) -> int:
        """The number of names whose token is not in the vocabulary."""
        return len(self.missing)

    def __len__(self) -> int:
        return len(self.table)


def token_form(name: str, cased: bool) -> str:
    """The embedding token for ``name``: ``"Mary"`` (cased) or ``"mary"`` (uncased).

    Cased: first letter upper case, the rest lower case (Python's ``str.capitalize``), so the Census's
    ``"MCDONALD"`` becomes ``"Mcdonald"``, not ``"McDonald"``; internal capitals are not restored (the SSA file
    itself writes such names this way, e.g. ``"Mckenzie"``). Names are single words of letters in all three files.

    Parameters
    ----------
    name : str
        A name in any case (surrounding spaces are stripped).
    cased : bool
        Whether the embedding is cased.

    Returns
    -------
    str
        The capitalised name (cased) or the lower-case name (uncased).

    Examples
    --------
    >>> token_form("MCDONALD", cased=True), token_form("Mary", cased=False)
    ('Mcdonald', 'mary')
    """
    name = name.strip()
    return name.capitalize() if cased else name.lower()


def name_tokens(names: Iterable[str], embedding_vocab_or_kv, cased: bool) -> NameTokens:
    """Map names to the tokens of an embedding and keep those present.

    Swinger et al. (2019), App. C.1: "we select only the names appearing in the embedding". Only one form of
    each name is looked up (:func:`token_form`); a name whose token an earlier name already took is a
    duplicate.

    Parameters
    ----------
    names : iterable of str
        Names in any case (SSA ``"Mary"``, Census ``"SMITH"``, ...).
    embedding_vocab_or_kv : KeyedVectors or container of str
        A gensim ``KeyedVectors``, or any container of tokens (set, dict, list).
    cased : bool
        ``True`` for cased embeddings (word2vec GoogleNews, fastText, GloVe 840B: the token is the
        capitalised name), ``False`` for uncased ones (GloVe 6B: lower case).

    Returns
    -------
    NameTokens
        The (name, token) table of the names found, the names missing and the duplicates.

    Examples
    --------
    >>> found = name_tokens(["Mary", "MARY", "SMITH", "Zzyzx"], {"mary", "smith"}, cased=False)
    >>> found.table.values.tolist(), found.missing, found.duplicates, len(found)
    ([['Mary', 'mary'], ['SMITH', 'smith']], ('Zzyzx',), ('MARY',), 2)
    """
    known = lookup.vocabulary(embedding_vocab_or_kv)
    rows, missing, dups, seen = [], [], [], set()
    for name in names:
        token = token_form(name, cased)
        if token in seen:
            dups.append(name)
        elif token in known:
            seen.add(token)
            rows.append((name, token))
        else:
            missing.append(name)
    table = pd.DataFrame(rows, columns=["name", "token"])
    return NameTokens(table=table, missing=tuple(missing), duplicates=tuple(dups))


# ---------------------------------------------------------------------------------------------- demographics


def group_demographics(groups: Sequence[Sequence[str]] | Mapping[str, Sequence[str]], kind: str = "first",
                       suppressed: str = "missing") -> pd.DataFrame:
    """Demographic summary of name groups, as in Swinger et al. (2019), Table 3 and Table 6 (computed a
    posteriori; never used to form the groups).

    Names are matched case-insensitively against the data (``"Mary"``, ``"MARY"``, ``"mary"`` are the same
    name); a name repeated in a group counts once. Every statistic is the *unweighted* mean over the group's
    names that have data ("each name only once", App. C.1), on a 0-100 scale for percentages.

    ``kind="first"``: ``pct_female`` = 100 x mean of ``frac_female`` and ``mean_year`` = mean of the names'
    ``mean_year`` over the names in :func:`ssa_first_names` (``n_ssa`` of them); ``pct_black``,
    ``pct_hispanic``, ``pct_asian`` (Asian / Pacific Islander), ``pct_white`` over the names in
    :func:`tzioumis_first_names` (``n_race`` of them; Tzioumis covers 4,250 names only).

    ``kind="last"``: the four race columns from :func:`census_surnames` (``n_race`` = names found there);
    ``pct_female`` and ``mean_year`` are NaN. Census values suppressed as "(S)" (small cells) are left out of that
    column's mean with ``suppressed="missing"`` (default), or counted as 0 with ``suppressed="zero"``.

    Parameters
    ----------
    groups : sequence of sequence of str or mapping of label to sequence of str
        A list of name lists (rows labelled 0, 1, ...) or a mapping label -> names.
    kind : {"first", "last"}, default "first"
        First names (SSA and Tzioumis data) or surnames (Census data).
    suppressed : {"missing", "zero"}, default "missing"
        How Census values suppressed as "(S)" count (surnames only): left out of the mean, or as 0.

    Returns
    -------
    pandas.DataFrame
        One row per group (index ``group``), with the columns ``size`` (distinct names), ``n_ssa`` (first
        names only), ``pct_female``, ``mean_year``, ``pct_black``, ``pct_hispanic``, ``pct_asian``,
        ``pct_white``, ``n_race``.

    Raises
    ------
    ValueError
        If ``kind`` or ``suppressed`` is not one of its values.
    TypeError
        If a group is a single string rather than a sequence of names.

    Examples
    --------
    >>> table = group_demographics({"women": ["Mary", "Linda"], "men": ["JAMES", "john"]})
    >>> table["pct_female"].round(1).to_dict(), table["mean_year"].round(1).to_dict()
    ({'women': 99.7, 'men': 0.4}, {'women': 1955.9, 'men': 1965.3})
    >>> surnames = group_demographics([["SMITH", "GARCIA"]], kind="last")
    >>> surnames[["pct_hispanic", "n_race"]].round(1).to_dict("index")
    {0: {'pct_hispanic': 47.2, 'n_race': 2}}
    """
    if kind not in ("first", "last"):
        raise ValueError(f"kind must be 'first' or 'last', not {kind!r}")
    if suppressed not in ("missing", "zero"):
        raise ValueError(f"suppressed must be 'missing' or 'zero', not {suppressed!r}")
    if isinstance(groups, Mapping):
        labels, members = list(groups.keys()), list(groups.values())
    else:
        members = list(groups)
        labels = list(range(len(members)))
    for g in members:
        if isinstance(g, str):
            raise TypeError("each group must be a sequence of names, not a single string")

    if kind == "first":
        ssa = _ssa().assign(key=lambda d: d["name"].str.upper()).set_index("key")
        race = _tzioumis()
    else:
        ssa = None
        race = _census().set_index("name")
        if suppressed == "zero":
            race = race.fillna(0.0)

    rows = []
    for g in members:
        keys = list(dict.fromkeys(str(n).strip().upper() for n in g))
        row: dict[str, float] = {"size": len(keys)}
        if ssa is not None:
            found = ssa.loc[ssa.index.intersection(keys, sort=False)]
            row["n_ssa"] = len(found)
            row["pct_female"] = 100 * found["frac_female"].mean() if len(found) else np.nan
            row["mean_year"] = found["mean_year"].mean() if len(found) else np.nan
        else:
            row["pct_female"] = row["mean_year"] = np.nan
        found = race.loc[race.index.intersection(keys, sort=False)]
        for out, col in RACE_COLUMNS.items():
            row[out] = found[col].mean() if found[col].notna().any() else np.nan
        row["n_race"] = len(found)
        rows.append(row)
    cols = (["size", "n_ssa"] if kind == "first" else ["size"]) + ["pct_female", "mean_year", *RACE_COLUMNS,
                                                                  "n_race"]
    out = pd.DataFrame(rows, index=pd.Index(labels, name="group"), columns=cols)
    int_cols = ["size", "n_race"] + (["n_ssa"] if kind == "first" else [])
    return out.astype({c: np.int64 for c in int_cols})
