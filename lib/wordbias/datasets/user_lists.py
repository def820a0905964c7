"""A user's own word lists as a YAML file (:func:`load_user_lists`), and the batteries shipped with the package
(:func:`batteries`, :func:`battery_words`).

The format (``data/stimuli/user_lists_template.yaml`` is a commented copy to start from;
``wordbias lists --template`` prints it)::

    battery: my_study            # optional: a name for outputs (letters, digits, - _ .); default the file name
    citation: "Me (2025) ..."    # optional: printed with the results
    description: "..."           # optional
    weat:                        # Word Embedding Association Tests (Caliskan et al. 2017, Methods)
      - id: careers              # unique in the file (letters, digits, - _ . :)
        title: "Career vs family, by gender"       # optional
        targets:
          X: {name: Male names, words: [john, paul, mike]}
          Y: {name: Female names, words: [amy, joan, lisa]}
        attributes:
          A: {name: Career, words: [executive, management, salary]}
          B: {name: Family, words: [home, parents, children]}
        notes: "..."             # optional
    wefat:                       # optional: Word Embedding Factual Association Tests
      - id: jobs
        title: "Occupations vs percent women"
        targets: {W: {name: Occupations, words: [nurse, engineer]}}
        attributes: {A: {name: Female, words: [she, her]}, B: {name: Male, words: [he, him]}}
        property: {name: percent women, values: {nurse: 90.0, engineer: 14.0}}

A set may also be written as a bare list (``X: [john, paul]``; its name is then the letter). ``tests:`` is
accepted as another name for ``weat:``. WEAT specs are :class:`~wordbias.datasets.stimuli.WeatSpec` (with
``paper={}``, ``original_finding=None``, ``variant="user"``), so every function that takes the papers' specs
takes them; WEFAT specs are :class:`~wordbias.datasets.stimuli.WefatSpec`.

Errors (:class:`~wordbias.core.errors.InvalidParameterError`) name the file, the test and the field: a YAML
syntax error (with its line and column), a key given twice (with both lines), a YAML anchor or alias (refused:
:func:`~wordbias.core.yaml_io.load_yaml`), a missing or unknown key, an empty list, a word that is not a
string (YAML reads ``yes``, ``no``, ``null``, ``12`` as other types: quote them), a word listed twice in a
set, a word in both sets of a pair (X and Y, A and B), two tests with one id.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import repeated
from wordbias.core.yaml_io import load_yaml
from wordbias.datasets.stimuli import VARIANTS, WeatSpec, WefatSpec, load_stimuli, weat_tests

__all__ = ["TEMPLATE", "UserLists", "read_user_lists", "load_user_lists", "load_user_wefat", "batteries",
           "battery_words", "BATTERIES"]

#: the commented template a user copies
TEMPLATE = paths.STIMULI / "user_lists_template.yaml"
#: the batteries shipped with the package, each with its stimuli file under ``data/stimuli/``
BATTERIES = ("caliskan2017", "racial_bias_report", "swinger2019", "kurita2019")

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
_TOP_KEYS = ("battery", "citation", "description", "weat", "tests", "wefat")
_WEAT_KEYS = ("id", "title", "targets", "attributes", "notes")
_WEFAT_KEYS = ("id", "title", "targets", "attributes", "property", "notes")
_SET_KEYS = ("name", "words")


@dataclass(frozen=True)
class UserLists:
    """A user's word-list file, parsed and checked (:func:`read_user_lists`).

    Attributes
    ----------
    battery : str
        The battery's name (the file's ``battery``, else the file name without extensions).
    weat : tuple of WeatSpec
        The WEATs, in file order.
    wefat : tuple of WefatSpec, default ()
        The WEFATs, in file order.
    citation : str or None, default None
        The file's ``citation``.
    description : str or None, default None
        The file's ``description``.
    path : pathlib.Path or None, default None
        The file it came from.
    """

    battery: str
    weat: tuple[WeatSpec, ...]
    wefat: tuple[WefatSpec, ...] = ()
    citation: str | None = None
    description: str | None = None
    path: Path | None = field(default=None, compare=False)


class _Where:
    """Where in the file an error is: the file, the test, the field (for messages)."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, message: str, *, test: str | None = None, field: str | None = None):
        where = str(self.path)
        if test is not None:
            where += f": test {test!r}"
        if field is not None:
            where += f": {field}"
        raise InvalidParameterError(f"{where}: {message}")


def _parse_yaml(path: Path) -> Any:
    """The file's YAML (:func:`~wordbias.core.yaml_io.load_yaml`: no key twice, no anchors or aliases)."""
    return load_yaml(path, source=str(path))


def _check_keys(w: _Where, obj: Mapping, allowed, required, *, test=None, field=None) -> None:
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        w.fail(f"unknown key(s) {unknown}; allowed: {', '.join(allowed)}", test=test, field=field)
    missing = [k for k in required if k not in obj]
    if missing:
        w.fail(f"missing key(s) {missing}", test=test, field=field)


def _text(w: _Where, value, *, test=None, field=None, optional=True) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        w.fail(f"must be a non-empty string, not {value!r}", test=test, field=field)
    return value


def _words(w: _Where, value, *, test: str, field: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        w.fail(f"must be a list of words, not {type(value).__name__} {value!r}"[:200], test=test, field=field)
    if not value:
        w.fail("is empty: a set needs at least one word", test=test, field=field)
    for i, word in enumerate(value):
        if not isinstance(word, str):
            hint = (" (YAML reads yes/no/on/off/true/false/null and numbers as non-strings: quote the word, "
                    "e.g. 'yes')")
            w.fail(f"item {i + 1} is {word!r} ({type(word).__name__}), not a string{hint}", test=test, field=field)
        if not word.strip():
            w.fail(f"item {i + 1} is an empty string", test=test, field=field)
        if word != word.strip():
            w.fail(f"item {i + 1} {word!r} has leading or trailing spaces", test=test, field=field)
    dups = repeated(value)
    if dups:
        w.fail(f"lists these words more than once: {dups}", test=test, field=field)
    return tuple(value)


def _set(w: _Where, block: Mapping, role: str, *, test: str, group: str) -> tuple[str, tuple[str, ...]]:
    """One word set, written ``{name: ..., words: [...]}`` or as a bare list: (display name, words)."""
    field_name = f"{group}.{role}"
    if role not in block:
        w.fail(f"missing key(s) [{role!r}]", test=test, field=group)
    value = block[role]
    if isinstance(value, list):
        return role, _words(w, value, test=test, field=field_name)
    if not isinstance(value, Mapping):
        w.fail(f"must be a list of words or a mapping with 'name' and 'words', not {type(value).__name__}",
               test=test, field=field_name)
    _check_keys(w, value, _SET_KEYS, ("words",), test=test, field=field_name)
    name = _text(w, value.get("name"), test=test, field=f"{field_name}.name") or role
    return name, _words(w, value["words"], test=test, field=f"{field_name}.words")


def _disjoint(w: _Where, a: tuple[str, ...], b: tuple[str, ...], na: str, nb: str, *, test: str) -> None:
    other = set(b)                       # built once: linear time
    shared = [x for x in a if x in other]
    if shared:
        w.fail(f"{na} and {nb} share words {shared}: a word cannot be in both sets of a pair", test=test)


def _targets_not_attributes(w: _Where, targets: Mapping, attributes: Mapping, *, test: str) -> None:
    """A target word that is also an attribute word: the measures' own check
    (:func:`wordbias.core.validation.check_targets_not_attributes`), given here with the file and the test."""
    from wordbias.core.validation import check_targets_not_attributes

    try:
        check_targets_not_attributes(targets, attributes)
    except InvalidParameterError as err:
        w.fail(str(err), test=test)


def _group(w: _Where, test_block: Mapping, group: str, roles: tuple[str, ...], *, test: str) -> Mapping:
    block = test_block[group]
    if not isinstance(block, Mapping):
        w.fail(f"must be a mapping of {', '.join(roles)} to word sets, not {type(block).__name__}", test=test,
               field=group)
    _check_keys(w, block, roles, roles, test=test, field=group)
    return block


def _test_id(w: _Where, item, i: int, section: str, seen: set) -> str:
    if not isinstance(item, Mapping):
        w.fail(f"item {i + 1} must be a mapping (a test with id, targets, attributes), not {type(item).__name__}",
               field=section)
    if "id" not in item:
        w.fail(f"item {i + 1} has no 'id'", field=section)
    tid = item["id"]
    if not isinstance(tid, str) or not _ID.match(tid):
        w.fail(f"item {i + 1}: id must be a string of letters, digits and - _ . : (starting with a letter or "
               f"digit), not {tid!r}", field=section)
    if tid in seen:
        w.fail(f"two tests have the id {tid!r}; ids must be unique in the file", field=section)
    seen.add(tid)
    return tid


def _weat(w: _Where, item: Mapping, tid: str) -> WeatSpec:
    _check_keys(w, item, _WEAT_KEYS, ("id", "targets", "attributes"), test=tid)
    targets = _group(w, item, "targets", ("X", "Y"), test=tid)
    attributes = _group(w, item, "attributes", ("A", "B"), test=tid)
    names, sets = {}, {}
    for role in ("X", "Y"):
        names[role], sets[role] = _set(w, targets, role, test=tid, group="targets")
    for role in ("A", "B"):
        names[role], sets[role] = _set(w, attributes, role, test=tid, group="attributes")
    _disjoint(w, sets["X"], sets["Y"], "targets X", "Y", test=tid)
    _disjoint(w, sets["A"], sets["B"], "attributes A", "B", test=tid)
    _targets_not_attributes(w, {k: sets[k] for k in "XY"}, {k: sets[k] for k in "AB"}, test=tid)
    title = _text(w, item.get("title"), test=tid, field="title") or \
        f"{names['X']} vs {names['Y']}, {names['A']} vs {names['B']}"
    return WeatSpec(id=tid, title=title, **sets, names=names, paper={}, original_finding=None,
                    notes=_text(w, item.get("notes"), test=tid, field="notes"), variant="user")


def _wefat(w: _Where, item: Mapping, tid: str) -> WefatSpec:
    _check_keys(w, item, _WEFAT_KEYS, ("id", "targets", "attributes", "property"), test=tid)
    targets = _group(w, item, "targets", ("W",), test=tid)
    attributes = _group(w, item, "attributes", ("A", "B"), test=tid)
    _, W = _set(w, targets, "W", test=tid, group="targets")
    _, A = _set(w, attributes, "A", test=tid, group="attributes")
    _, B = _set(w, attributes, "B", test=tid, group="attributes")
    _disjoint(w, A, B, "attributes A", "B", test=tid)
    _targets_not_attributes(w, {"W": W}, {"A": A, "B": B}, test=tid)
    prop = item["property"]
    if not isinstance(prop, Mapping):
        w.fail(f"must be a mapping with 'name' and 'values', not {type(prop).__name__}", test=tid, field="property")
    _check_keys(w, prop, ("name", "values"), ("name", "values"), test=tid, field="property")
    pname = _text(w, prop["name"], test=tid, field="property.name", optional=False)
    values = prop["values"]
    if not isinstance(values, Mapping):
        w.fail("must map each word of W to a number", test=tid, field="property.values")
    missing = [x for x in W if x not in values]
    in_w = set(W)
    extra = [x for x in values if x not in in_w]
    if missing or extra:
        w.fail(f"must give one value per word of W; missing: {missing}, not in W: {extra}", test=tid,
               field="property.values")
    bad = [x for x in W if isinstance(values[x], bool) or not isinstance(values[x], (int, float))]
    if bad:
        w.fail(f"values must be numbers; {bad[0]!r} has {values[bad[0]]!r}", test=tid, field="property.values")
    series = pd.Series([float(values[x]) for x in W], index=pd.Index(list(W), name="word"), name=pname)
    title = _text(w, item.get("title"), test=tid, field="title") or f"{tid}: {pname}"
    return WefatSpec(id=tid, title=title, W=W, A=A, B=B, property=series, name_filter=None, paper={},
                     notes=_text(w, item.get("notes"), test=tid, field="notes"))


def read_user_lists(path: str | os.PathLike) -> UserLists:
    """Parse and check a user's word-list file.

    Parameters
    ----------
    path : str or path-like
        The YAML file, in the format of this module's docstring (``data/stimuli/user_lists_template.yaml``,
        :data:`TEMPLATE`, is a commented copy to start from).

    Returns
    -------
    UserLists
        The battery's name, citation and description, its WEATs and WEFATs in file order, and the path.

    Raises
    ------
    FileNotFoundError
        If there is no file at ``path`` (or it is a folder).
    wordbias.core.errors.InvalidParameterError
        If the file breaks the format; the message names the file, the test and the field (a YAML syntax
        error, a key given twice, an anchor or alias, a missing or unknown key, an empty list, a word that is
        not a string, a word listed twice in a set, a word in both sets of a pair, two tests with one id).

    See Also
    --------
    load_user_lists : The WEATs alone.
    wordbias.measures.association.measurement.weats : Measures them.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "mine.yaml"
    >>> _ = path.write_text('''
    ... weat:
    ...   - id: flowers
    ...     targets: {X: [rose, tulip], Y: {name: Insects, words: [ant, wasp]}}
    ...     attributes: {A: [love], B: [hate]}
    ... ''')
    >>> lists = read_user_lists(path)
    >>> lists.battery, lists.weat[0].title, lists.weat[0].Y, lists.wefat
    ('mine', 'X vs Insects, A vs B', ('ant', 'wasp'), ())
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no word-list file at {path}" + (" (it is a folder)" if path.is_dir() else ""))
    w = _Where(path)
    doc = _parse_yaml(path)
    if not isinstance(doc, Mapping):
        w.fail("must be a YAML mapping with a 'weat' list (see `wordbias lists --template`), not "
               + ("an empty file" if doc is None else type(doc).__name__))
    _check_keys(w, doc, _TOP_KEYS, ())
    if "weat" in doc and "tests" in doc:
        w.fail("give the WEATs under 'weat' or under 'tests', not both")
    battery = doc.get("battery", path.stem.split(".")[0])
    if not isinstance(battery, str) or not _NAME.match(battery):
        w.fail(f"must be a name of letters, digits and - _ . (starting with a letter or digit), not {battery!r}",
               field="battery")
    weat_items = doc.get("weat", doc.get("tests"))
    section = "weat" if "weat" in doc else "tests"
    wefat_items = doc.get("wefat")
    if weat_items is None and wefat_items is None:
        w.fail("has no tests: add a 'weat' list (or 'wefat')")
    seen: set[str] = set()
    weats, wefats = [], []
    for key, items, make, out in ((section, weat_items, _weat, weats), ("wefat", wefat_items, _wefat, wefats)):
        if items is None:
            continue
        if not isinstance(items, list) or not items:
            w.fail("must be a non-empty list of tests", field=key)
        for i, item in enumerate(items):
            out.append(make(w, item, _test_id(w, item, i, key, seen)))
    return UserLists(battery=battery, weat=tuple(weats), wefat=tuple(wefats),
                     citation=_text(w, doc.get("citation"), field="citation"),
                     description=_text(w, doc.get("description"), field="description"), path=path)


def load_user_lists(path: str | os.PathLike) -> list[WeatSpec]:
    """A user's WEATs as the same :class:`~wordbias.datasets.stimuli.WeatSpec` objects as the papers'.

    The battery's name and its WEFATs are in :func:`read_user_lists`.

    Parameters
    ----------
    path : str or path-like
        The YAML file (the format is in this module's docstring).

    Returns
    -------
    list of WeatSpec
        The WEATs in file order (``paper={}``, ``original_finding=None``, ``variant="user"``); empty when the
        file has only WEFATs.

    Raises
    ------
    FileNotFoundError
        If there is no file at ``path``.
    wordbias.core.errors.InvalidParameterError
        If the file breaks the format (the message names the file, the test and the field).

    Examples
    --------
    >>> specs = load_user_lists(TEMPLATE)
    >>> [s.id for s in specs][:2], specs[0].paper, specs[0].original_finding
    (['career_family', 'flowers_insects'], {}, None)
    """
    return list(read_user_lists(path).weat)


def load_user_wefat(path: str | os.PathLike) -> list[WefatSpec]:
    """A user's WEFATs as :class:`~wordbias.datasets.stimuli.WefatSpec` objects.

    Parameters
    ----------
    path : str or path-like
        As for :func:`load_user_lists`.

    Returns
    -------
    list of WefatSpec
        The WEFATs in file order, each property a ``pandas.Series`` indexed by the words of ``W``; an empty
        list when the file has none.

    Raises
    ------
    FileNotFoundError, wordbias.core.errors.InvalidParameterError
        As for :func:`load_user_lists`.

    Examples
    --------
    >>> specs = load_user_wefat(TEMPLATE)
    >>> [s.id for s in specs], specs[0].property.name
    (['occupations'], 'percent women')
    """
    return list(read_user_lists(path).wefat)


# --------------------------------------------------------------------------------------------------
# The batteries shipped with the package
# --------------------------------------------------------------------------------------------------

_CONTENTS = {
    "caliskan2017": "WEAT 1-10 and WEFAT 1-2 of Caliskan, Bryson & Narayanan (2017), Table 1 and Figures 1-2 "
                    "(variants: glove, original, word2vec)",
    "racial_bias_report": "the report's racial attribute sets (implicit, explicit, stereotypical names, A1 white "
                          "vs A2 black) and its semantic target sets (T1 positive, T2 negative)",
    "swinger2019": "Unsupervised Bias Enumeration's name lists: SSA first names 1938-2017 and 2010 Census "
                   "surnames (>= 1,000 each); the word categories come from the embedding itself",
    "kurita2019": "Kurita et al. (2019): five WEAT categories (X, Y, A, B) with their templates, and the "
                  "Table 5 attribute files",
}


def _citation(doc: Mapping) -> str:
    cit = doc.get("citation")
    if isinstance(cit, Mapping):
        cit = cit.get("paper") or next((v for v in cit.values() if isinstance(v, str)), None)
    return " ".join(str(cit).split()) if cit else "(no citation in the stimuli file)"


def batteries() -> pd.DataFrame:
    """The batteries and word lists shipped with the package (:data:`BATTERIES`).

    Returns
    -------
    pandas.DataFrame
        One row per battery with ``name``, ``contents``, ``n_tests`` and the ``citation`` (read from the
        ``citation`` block of ``data/stimuli/<name>.yaml``).

    See Also
    --------
    battery_words : The word sets of one battery.

    Examples
    --------
    >>> table = batteries().set_index("name")
    >>> table.index.tolist()
    ['caliskan2017', 'racial_bias_report', 'swinger2019', 'kurita2019']
    >>> table.loc["caliskan2017", "n_tests"], table.loc["caliskan2017", "citation"][:30]
    (np.int64(12), 'Caliskan, A., Bryson, J. J., &')
    """
    rows = []
    for name in BATTERIES:
        doc = load_stimuli(name)
        rows.append({"name": name, "contents": _CONTENTS[name],
                     "n_tests": int(battery_words(name)["test"].nunique()), "citation": _citation(doc)})
    return pd.DataFrame(rows)


def _row(test, title, role, set_name, words, note=None) -> dict:
    words = tuple(words)
    return {"test": test, "title": title, "set": role, "set_name": set_name, "n_words": len(words),
            "words": words, "note": note}


def _file_words(name: str) -> list[str]:
    """The words of a Kurita Table 5 file as listed (a CSV's first column, else one word or phrase a line)."""
    path = paths.DATA / "kurita2019" / name
    if name.endswith(".csv"):
        return pd.read_csv(path).iloc[:, 0].astype(str).tolist()
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def battery_words(name: str, *, variant: str = "glove") -> pd.DataFrame:
    """The word sets of a shipped battery, one row per set.

    The racial report's sets are the printed ones, with the words the report removed named in ``note``; for
    Swinger et al. the name lists are summarised (the names are the rows of :mod:`wordbias.datasets.names`).

    Parameters
    ----------
    name : str
        The battery, one of :data:`BATTERIES`.
    variant : {"glove", "original", "word2vec"}, default "glove"
        Which Caliskan lists (:func:`wordbias.datasets.stimuli.weat_tests`); the other batteries ignore it.

    Returns
    -------
    pandas.DataFrame
        One row per set with ``test``, ``title``, ``set`` (``X``, ``A``, ``W``, ``A1``...), ``set_name``,
        ``n_words``, ``words`` (a tuple, in printed order) and ``note``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``name`` is not a shipped battery or ``variant`` not a variant.

    Examples
    --------
    >>> t = battery_words("caliskan2017")
    >>> t.loc[0, ["test", "set", "set_name"]].tolist(), int(t.loc[0, "n_words"]), t.loc[0, "words"][:3]
    (['WEAT1', 'X', 'Flowers'], 25, ('aster', 'clover', 'hyacinth'))
    >>> battery_words("nope")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: battery must be one of 'caliskan2017', 'racial_bias_report', 'swinger2019', 'kurita2019'; not 'nope'
    """
    if name not in BATTERIES:
        raise InvalidParameterError(f"battery must be one of {', '.join(map(repr, BATTERIES))}; not {name!r}")
    if variant not in VARIANTS:
        raise InvalidParameterError(f"variant must be one of {', '.join(map(repr, VARIANTS))}; not {variant!r}")
    rows = []
    doc = load_stimuli(name)
    if name == "caliskan2017":
        for spec in weat_tests(name, variant=variant):
            for role in ("X", "Y", "A", "B"):
                rows.append(_row(spec.id, spec.title, role, spec.names.get(role, role), getattr(spec, role)))
        for t in doc.get("wefat", []):
            for role in ("W", "A", "B"):
                rows.append(_row(t["id"], t["title"], role, role, t[role],
                                 f"property: {t['property']['name']}" if role == "W" else None))
    elif name == "racial_bias_report":
        for kind, block in doc["attributes"].items():
            removed = block.get("removed") or {}
            for role in ("A1", "A2"):
                gone = removed.get(role) or []
                note = f"removed by the report: {' '.join(gone)}" if gone else None
                if block.get("intersection_removed"):
                    note = "; ".join(filter(None, [note, "names in both A1 and A2 removed from both"]))
                rows.append(_row(kind, f"{kind} names", role, "white" if role == "A1" else "black", block[role], note))
        for role in ("T1", "T2"):
            rows.append(_row("targets", "semantic targets", role, "positive" if role == "T1" else "negative",
                             doc["targets"][role]))
    elif name == "swinger2019":
        from wordbias.datasets import names

        first, last = names.ssa_first_names(), names.census_surnames()
        rows.append(_row("first_names", "SSA first names 1938-2017 (>= 1,000 births)", "names", "first names",
                         first["name"], "data/swinger2019/; wordbias.datasets.names.ssa_first_names()"))
        rows.append(_row("last_names", "2010 Census surnames (>= 1,000 people)", "names", "last names",
                         last["name"], "data/swinger2019/; wordbias.datasets.names.census_surnames()"))
    else:
        for cid, cat in doc["categories"].items():
            for role in ("X", "Y", "A", "B"):
                rows.append(_row(cid, cat["title"], role, cat["names"][role], cat[role]))
        for sid, s in doc["table5"]["sets"].items():
            rows.append(_row(f"table5:{sid}", s["title"], "attributes", s["title"], _file_words(s["file"]),
                             f"Table 5, targets he/she; file data/kurita2019/{s['file']}, as listed; "
                             f"template {s['template']!r}"))
    return pd.DataFrame(rows, columns=["test", "title", "set", "set_name", "n_words", "words", "note"])
