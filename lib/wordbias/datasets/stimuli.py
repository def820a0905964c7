"""Word lists and paper-reported numbers stored under ``data/stimuli/<paper>.yaml`` (:func:`load_stimuli`).

:func:`load_stimuli` reads the file of any paper (``caliskan2017``, ``kurita2019``, ``racial_bias_report``);
the rules a paper applies to its own lists live in its module under :mod:`wordbias.papers`, except the
racial bias report's direction tests (:func:`direction_tests`), which a battery runs too. The rest of this
module is Caliskan, Bryson & Narayanan (2017), *Science* 356:183: their WEATs and WEFATs as specs
(:func:`weat_tests`, :func:`wefat_tests`) and the 1990 census names (:func:`androgynous_name_candidates`);
provenance in ``data/stimuli/SOURCE.md``, WEFAT property tables in ``data/caliskan2017/``.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.yaml_io import load_yaml

__all__ = ["VARIANTS", "WeatSpec", "WefatSpec", "as_weat_spec", "as_wefat_spec", "load_stimuli", "weat_tests", "wefat_tests",
           "androgynous_name_candidates", "DirectionSpec", "direction_tests"]

VARIANTS = ("glove", "original", "word2vec")
_ROLES = ("X", "Y", "A", "B")


@dataclass(frozen=True)
class _FourSets:
    """The first fields of a test of four sets (:class:`WeatSpec`, :class:`wordbias.datasets.seat.SeatTest`): its
    id, its title, the targets X, Y and the attributes A, B; each test class documents them."""

    id: str
    title: str
    X: tuple[str, ...]
    Y: tuple[str, ...]
    A: tuple[str, ...]
    B: tuple[str, ...]


@dataclass(frozen=True)
class WeatSpec(_FourSets):
    """One Word Embedding Association Test (Caliskan et al. 2017, Methods, "WEAT").

    The test statistic is ``s(X, Y, A, B)`` with ``A`` playing the paper's first attribute (e.g. *pleasant*).
    :func:`weat_tests` gives the paper's; :func:`as_weat_spec` makes one from a mapping.

    Attributes
    ----------
    id : str
        The test's id, e.g. ``"WEAT1"``.
    title : str
        What the test measures, e.g. ``"Flowers vs insects"``.
    X, Y : tuple of str
        The target lists, in printed order.
    A, B : tuple of str
        The attribute lists, in printed order.
    names : dict of str to str
        ``"X"``, ``"Y"``, ``"A"``, ``"B"`` -> display names.
    paper : dict
        The yaml ``paper`` block: the results reported (``glove``: Table 1, ``word2vec``: Table S1).
    original_finding : dict or None
        The IAT result the test replicates (``None`` where the paper says "Not applicable").
    notes : str or None, default None
        Any discrepancy between the paper's printings and the authors' lists.
    variant : {"glove", "original", "word2vec"}, default "glove"
        Which lists these are (:func:`weat_tests`).
    """

    names: dict[str, str] = field(compare=False)
    paper: dict[str, Any] = field(compare=False)
    original_finding: dict[str, Any] | None = field(compare=False)
    notes: str | None = field(default=None, compare=False)
    variant: str = "glove"


@dataclass(frozen=True)
class WefatSpec:
    """One Word Embedding Factual Association Test (Caliskan et al. 2017, Methods, "WEFAT").

    :func:`wefat_tests` gives the paper's two.

    Attributes
    ----------
    id : str
        The test's id, e.g. ``"WEFAT1"``.
    title : str
        What the test measures.
    W : tuple of str
        The target words.
    A, B : tuple of str
        The attribute lists (``A`` female, ``B`` male terms, so a positive ``s(w, A, B)`` is a female
        association).
    property : pandas.Series
        The real-world value per word, indexed by the words of ``W``, in that order, named after the property:
        percent women per occupation from the 2015 BLS data, or percent female per name from the 1990 census.
    name_filter : dict or None
        The paper's removal of the least name-like vectors (WEFAT 2: ``drop_fraction``, ``rule``, ``text``),
        or ``None``.
    paper : dict
        The reported correlation.
    notes : str or None, default None
        Notes on the lists.
    """

    id: str
    title: str
    W: tuple[str, ...]
    A: tuple[str, ...]
    B: tuple[str, ...]
    property: pd.Series = field(compare=False, repr=False)
    name_filter: dict[str, Any] | None = field(compare=False)
    paper: dict[str, Any] = field(compare=False)
    notes: str | None = field(default=None, compare=False)


def _fields_of(spec, test: str, required: tuple[str, ...]) -> Callable[[str], Any]:
    """The reader of ``spec``'s fields (a mapping's items or an object's attributes; None for one it lacks),
    once ``spec`` is checked to have every ``required`` one (else :class:`InvalidParameterError`)."""
    get = (lambda k: spec.get(k)) if isinstance(spec, Mapping) else (lambda k: getattr(spec, k, None))
    missing = [k for k in required if get(k) is None]
    if missing:
        needs = ", ".join(required[:-1]) + " and " + required[-1]
        raise InvalidParameterError(f"a {test} spec needs {needs}; {spec!r:.80} lacks {missing}")
    return get


def as_weat_spec(spec) -> WeatSpec:
    """A WEAT spec given as a :class:`WeatSpec`, a mapping or an object, as a ``WeatSpec``.

    Parameters
    ----------
    spec : WeatSpec or mapping or object
        A ``WeatSpec`` (returned as it is), or a mapping / object with ``id``, ``X``, ``Y``, ``A``, ``B`` (and
        optionally ``title``, ``names``, ``paper``, ``notes``, ``variant``).

    Returns
    -------
    WeatSpec
        The spec; its ``title`` defaults to its ``id``, the lists become tuples.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``spec`` lacks one of ``id``, ``X``, ``Y``, ``A``, ``B`` (the message names what it lacks).

    Examples
    --------
    >>> as_weat_spec({"id": "t", "X": ["a"], "Y": ["b"], "A": ["c"], "B": ["d"]}).title
    't'
    """
    if isinstance(spec, WeatSpec):
        return spec
    get = _fields_of(spec, "WEAT", ("id", "X", "Y", "A", "B"))
    return WeatSpec(id=str(get("id")), title=str(get("title") or get("id")), X=tuple(get("X")), Y=tuple(get("Y")),
                    A=tuple(get("A")), B=tuple(get("B")), names=dict(get("names") or {}),
                    paper=dict(get("paper") or {}), original_finding=None, notes=get("notes"),
                    variant=get("variant") or "glove")



def as_wefat_spec(spec) -> WefatSpec:
    """A WEFAT spec given as a :class:`WefatSpec`, a mapping or an object, as a ``WefatSpec``.

    Parameters
    ----------
    spec : WefatSpec or mapping or object
        A ``WefatSpec`` (returned as it is), or a mapping / object with ``id``, ``W``, ``A``, ``B`` and
        ``property`` (each word of W -> its number: a mapping or a ``pandas.Series`` indexed by word), and
        optionally ``title``, ``name_filter``, ``paper``, ``notes``.

    Returns
    -------
    WefatSpec
        The spec; its ``title`` defaults to its ``id``, the lists become tuples, ``property`` a ``Series``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``spec`` lacks a field it needs (those named under ``spec``); the message names what it lacks.

    Examples
    --------
    >>> s = as_wefat_spec({"id": "jobs", "W": ["nurse", "pilot"], "A": ["she"], "B": ["he"],
    ...                    "property": {"nurse": 90.0, "pilot": 5.0}})
    >>> s.title, s.W, float(s.property["nurse"])
    ('jobs', ('nurse', 'pilot'), 90.0)
    """
    if isinstance(spec, WefatSpec):
        return spec
    get = _fields_of(spec, "WEFAT", ("id", "W", "A", "B", "property"))
    prop = get("property")
    prop = prop.copy() if isinstance(prop, pd.Series) else pd.Series(dict(prop)) if isinstance(prop, Mapping) else prop
    return WefatSpec(id=str(get("id")), title=str(get("title") or get("id")), W=tuple(get("W")), A=tuple(get("A")),
                     B=tuple(get("B")), property=prop, name_filter=get("name_filter"), paper=dict(get("paper") or {}),
                     notes=get("notes"))

@functools.cache
def _load(path: str) -> dict:
    return load_yaml(Path(path), aliases=True)   # kurita2019.yaml shares a list through an alias (bounded)


def load_stimuli(paper: str = "caliskan2017") -> dict:
    """The parsed ``data/stimuli/<paper>.yaml``: a paper's word lists and the numbers it reports.

    The file is parsed once and cached; each call returns a fresh deep copy, so the caller may change it.

    Parameters
    ----------
    paper : str, default "caliskan2017"
        The paper: ``"caliskan2017"``, ``"kurita2019"``, ``"racial_bias_report"``, ``"swinger2019"`` (any
        ``<paper>.yaml`` under ``data/stimuli/``).

    Returns
    -------
    dict
        The file's content. For ``"caliskan2017"`` (Caliskan, Bryson & Narayanan 2017, Science 356:183) the
        keys are ``citation``, ``sources``, ``weat`` (WEAT1..WEAT10 in Table 1 order), ``wefat`` (WEFAT1,
        WEFAT2) and ``figure3_pairs``.

    Raises
    ------
    FileNotFoundError
        If there is no stimuli file for ``paper``.

    Examples
    --------
    >>> doc = load_stimuli()
    >>> [t["id"] for t in doc["weat"]][:3], [t["id"] for t in doc["wefat"]]
    (['WEAT1', 'WEAT2', 'WEAT3'], ['WEFAT1', 'WEFAT2'])
    """
    path = paths.STIMULI / f"{paper}.yaml"
    if not path.exists():
        raise FileNotFoundError(f"no stimuli file for paper {paper!r}: {path}")
    return copy.deepcopy(_load(str(path)))


def _apply(words: list[str], deleted: list[str] | None, subs: dict[str, str] | None) -> tuple[str, ...]:
    gone = set(deleted or ())
    subs = subs or {}
    return tuple(subs.get(w, w) for w in words if w not in gone)


def weat_tests(paper: str = "caliskan2017", variant: str = "glove") -> list[WeatSpec]:
    """The paper's WEATs as :class:`WeatSpec` objects, in the paper's order (Caliskan et al. 2017, Table 1).

    The yaml holds the lists as printed in the Supplementary Materials ("List of stimuli"), the words the
    authors deleted for the GloVe experiments (in italics there), the word2vec changes (Table S1) and the
    results the paper reports. ``variant`` picks the lists, in printed order:

    ``"glove"`` (default)
        the printed lists minus ``glove_deleted``: the lists the authors ran on GloVe 840B (Table 1). As sets
        these are the final lists of Will Lowe's replication package ``cbn``
        (``data/stimuli/caliskan2017_cbn_items.csv``).
    ``"original"``
        the full printed lists, italic (deleted) words included.
    ``"word2vec"``
        the printed lists minus ``word2vec_deleted`` (only WEAT3, inferred from Table S1's 32x2) with
        ``word2vec_substitutions`` applied (WEAT9: *short* for *short-term*), as in Table S1.

    Parameters
    ----------
    paper : str, default "caliskan2017"
        The stimuli file (:func:`load_stimuli`); it must have a ``weat`` list.
    variant : {"glove", "original", "word2vec"}, default "glove"
        Which lists (see above).

    Returns
    -------
    list of WeatSpec
        The tests in the paper's order.

    Raises
    ------
    ValueError
        If ``variant`` is not one of :data:`VARIANTS`.
    FileNotFoundError
        If there is no stimuli file for ``paper``.

    See Also
    --------
    wordbias.measures.association.measurement.weats : Measures them all.

    Examples
    --------
    >>> [(t.id, len(t.X), len(t.Y)) for t in weat_tests()][:4]
    [('WEAT1', 25, 25), ('WEAT2', 25, 25), ('WEAT3', 32, 32), ('WEAT4', 16, 16)]
    >>> [(t.id, len(t.X), len(t.Y)) for t in weat_tests(variant="original")][2:4]
    [('WEAT3', 50, 50), ('WEAT4', 18, 18)]
    >>> spec = weat_tests()[0]
    >>> spec.title, spec.names["A"], spec.X[:3]
    ('Flowers vs insects', 'Pleasant', ('aster', 'clover', 'hyacinth'))
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, not {variant!r}")
    out = []
    for t in load_stimuli(paper)["weat"]:
        if variant == "glove":
            deleted, subs = t.get("glove_deleted") or {}, {}
        elif variant == "word2vec":
            deleted, subs = t.get("word2vec_deleted") or {}, t.get("word2vec_substitutions") or {}
        else:
            deleted, subs = {}, {}
        lists = {r: _apply(t[r], deleted.get(r), subs) for r in _ROLES}
        names = {**t["targets"], **t["attributes"]}
        out.append(WeatSpec(id=t["id"], title=t["title"], **lists, names=names, paper=t["paper"],
                            original_finding=t.get("original_finding"), notes=t.get("notes"), variant=variant))
    return out


def wefat_tests(paper: str = "caliskan2017") -> list[WefatSpec]:
    """The paper's WEFATs as :class:`WefatSpec` objects.

    Caliskan et al. (2017): occupations vs percent women (BLS 2015, Figure 1) and androgynous names vs percent
    female (1990 census, Figure 2), with the property values read from
    ``data/<sources.property_dir>/<property.file>``.

    Parameters
    ----------
    paper : str, default "caliskan2017"
        The stimuli file (:func:`load_stimuli`); its ``wefat`` list, if any.

    Returns
    -------
    list of WefatSpec
        The tests in the paper's order (empty if the file has no ``wefat`` list).

    Raises
    ------
    ValueError
        If a target word has no value in its property table.
    FileNotFoundError
        If there is no stimuli file for ``paper``, or its property table is missing.

    See Also
    --------
    wordbias.measures.association.measurement.wefats : Measures them.

    Examples
    --------
    >>> occupations, names = wefat_tests()
    >>> occupations.id, len(occupations.W), occupations.property.name, occupations.name_filter
    ('WEFAT1', 50, 'percent_women', None)
    >>> round(float(occupations.property["technician"]), 2), names.name_filter["drop_fraction"]
    (40.34, 0.2)
    """
    doc = load_stimuli(paper)
    prop_dir = paths.DATA / doc.get("sources", {}).get("property_dir", paper)
    out = []
    for t in doc.get("wefat", []):
        W = tuple(t["W"])
        prop = t["property"]
        table = pd.read_csv(prop_dir / prop["file"])
        series = table.set_index(prop.get("key", table.columns[0]))[prop["column"]].astype(float)
        missing = [w for w in W if w not in series.index]
        if missing:
            raise ValueError(f"{t['id']}: no {prop['column']} in {prop['file']} for {missing}")
        series = series.loc[list(W)].rename(prop["name"])
        series.index.name = "word"
        out.append(WefatSpec(id=t["id"], title=t["title"], W=W, A=tuple(t["A"]), B=tuple(t["B"]), property=series,
                             name_filter=t.get("name_filter"), paper=t["paper"], notes=t.get("notes")))
    return out


@dataclass(frozen=True)
class DirectionSpec:
    """One direction test (the report "Racial bias in pre-trained word embeddings", Section 3).

    The test is the cosine of the attribute direction r = mean(A1) − mean(A2) and the target direction
    s = mean(T1) − mean(T2). The report's three tests are :func:`direction_tests`.

    Attributes
    ----------
    id : str
        The test's id: the report's name of its attribute sets (``"implicit"``, ``"explicit"``,
        ``"stereotypical"``).
    title : str
        What the test measures.
    T1, T2 : tuple of str
        The target lists (positive and negative traits), in printed order.
    A1, A2 : tuple of str
        The attribute lists (white and black), in printed order.
    names : dict of str to str
        ``"T1"``, ``"T2"``, ``"A1"``, ``"A2"`` -> display names.
    notes : str or None, default None
        Where the lists come from.
    """

    id: str
    title: str
    T1: tuple[str, ...]
    T2: tuple[str, ...]
    A1: tuple[str, ...]
    A2: tuple[str, ...]
    names: dict[str, str] = field(compare=False)
    notes: str | None = field(default=None, compare=False)


#: what each of the report's direction tests measures (its ``id`` is the report's name of the attribute sets)
_DIRECTION_TITLES = {
    "implicit": "race: white vs black first names (NYC baby names, by mother's ethnicity) on positive vs "
                "negative traits",
    "explicit": "race: words for white vs black people (white, caucasian, ... vs black, african, ...) on "
                "positive vs negative traits",
    "stereotypical": "race: European American vs African American names (Caliskan et al.'s WEAT3) on positive "
                     "vs negative traits",
}


def direction_tests(paper: str = "racial_bias_report", *, cased: bool = True) -> list[DirectionSpec]:
    """The report's direction tests as :class:`DirectionSpec` objects.

    In the report's order (implicit, explicit, stereotypical; Appendix B.1-B.3), each with the target sets of
    Appendix B.4 (T1 positive, T2 negative). The attribute sets A1 (white) and A2 (black) are the printed lists
    minus the words the report removed and, where it applies its intersection rule (``intersection_removed``),
    minus the words in both sets.

    Parameters
    ----------
    paper : str, default "racial_bias_report"
        The stimuli file (:func:`load_stimuli`), in the layout of the racial bias report's.
    cased : bool, default True
        ``False`` lower-cases every word for an uncased embedding (Appendix A's ``tolower``).

    Returns
    -------
    list of DirectionSpec
        The three tests.

    Raises
    ------
    FileNotFoundError
        If there is no stimuli file for ``paper`` (:func:`load_stimuli`).

    Examples
    --------
    >>> [(s.id, len(s.A1), len(s.A2)) for s in direction_tests(cased=False)]
    [('implicit', 37, 37), ('explicit', 4, 4), ('stereotypical', 48, 35)]
    >>> direction_tests(cased=False)[1].A1
    ('white', 'caucasian', 'european', 'light')
    """
    doc = load_stimuli(paper)
    fold = (lambda ws: tuple(ws)) if cased else (lambda ws: tuple(w.lower() for w in ws))
    T1, T2 = fold(doc["targets"]["T1"]), fold(doc["targets"]["T2"])
    out = []
    for kind, a in doc["attributes"].items():
        A1, A2 = _apply(a["A1"], a["removed"]["A1"], None), _apply(a["A2"], a["removed"]["A2"], None)
        if a["intersection_removed"]:
            common = set(A1) & set(A2)
            A1, A2 = tuple(w for w in A1 if w not in common), tuple(w for w in A2 if w not in common)
        out.append(DirectionSpec(id=kind, title=_DIRECTION_TITLES.get(kind, kind), T1=T1, T2=T2, A1=fold(A1),
                                 A2=fold(A2), names={"T1": "positive", "T2": "negative", "A1": "white",
                                                     "A2": "black"}, notes=" ".join(str(a["note"]).split())))
    return out


def androgynous_name_candidates() -> pd.DataFrame:
    """The 60 names of the authors' 1990 census file (``data/caliskan2017/censusNames1990.tsv``).

    The paper's WEFAT 2 prints 50 of them; the other ten (Angel, Christian, Cleo, Gale, Guadalupe, Jan, Kerry,
    Laverne, Merle, Tommie) are the candidates its name-likeness filter is presumed to have removed.

    Returns
    -------
    pandas.DataFrame
        60 rows indexed by the name capitalised as in the stimuli (``name``), with
        ``pct_in_female_population``, ``pct_in_male_population`` and ``percent_female`` = 100 f / (f + m).

    Examples
    --------
    >>> names = androgynous_name_candidates()
    >>> names.shape
    (60, 3)
    >>> list(names.columns)
    ['pct_in_female_population', 'pct_in_male_population', 'percent_female']
    >>> names["percent_female"].round(1).head(3).to_dict()
    {'Willie': 24.3, 'Terry': 20.5, 'Jean': 90.0}
    """
    raw = pd.read_csv(paths.DATA / "caliskan2017" / "censusNames1990.tsv", sep="\t")
    f = raw["Percentage in female population"].astype(float)
    m = raw["Percentage in male population"].astype(float)
    out = pd.DataFrame({"pct_in_female_population": f.to_numpy(), "pct_in_male_population": m.to_numpy(),
                        "percent_female": (100 * f / (f + m)).to_numpy()},
                       index=pd.Index(raw["Name"].str.strip('"').str.title(), name="name"))
    return out
