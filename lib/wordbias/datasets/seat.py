"""The test sets of the Sentence Encoder Association Test (SEAT; May et al. 2019) and a user's own sentence sets.

May, Wang, Bordia, Bowman & Rudinger (2019), "On Measuring Social Biases in Sentence Encoders", NAACL-HLT,
pp. 622-628, https://doi.org/10.18653/v1/N19-1063 (arXiv:1903.10561), §2-3. SEAT is WEAT (Caliskan et al. 2017)
on sentence vectors: the four sets X, Y (targets) and A, B (attributes) hold sentences, e.g. Caliskan's words put
into "semantically bleached" templates ("This is X.", "X is here.", ...; §2). The authors' 46 test files are
shipped in ``data/seat/tests/`` (CC BY-NC 4.0: non-commercial use, with attribution; ``data/seat/SOURCE.md``),
each a JSON object ``{"targ1": {"category": NAME, "examples": [...]}, "targ2": ..., "attr1": ..., "attr2": ...}``
(targ1, targ2, attr1, attr2 are X, Y, A, B).

* :func:`test_names` lists them (``"weat1"`` ... ``"sent-weat10"``, ``"angry_black_woman_stereotype"``, the
  Heilman double-bind tests), :func:`load_test` / :func:`load_tests` load them as :class:`SeatTest`;
* :func:`read_test_file` reads one file in the authors' format (a user's too);
* :func:`load_sentence_lists` reads a user's YAML file of sentence sets (format below).

The YAML format is that of :mod:`wordbias.datasets.user_lists` with ``sentences`` in place of ``words``::

    battery: my_seat              # optional (letters, digits, - _ .); default the file name
    citation: "..."               # optional
    description: "..."            # optional
    seat:                         # the tests (``tests:`` is accepted too)
      - id: career                # unique in the file (letters, digits, - _ . :)
        title: "Career vs family" # optional
        targets:
          X: {name: Male, sentences: ["This is John.", "John is here."]}
          Y: {name: Female, sentences: ["This is Amy.", "Amy is here."]}
        attributes:
          A: {name: Career, sentences: ["This is a salary."]}
          B: {name: Family, sentences: ["This is a home."]}
        notes: "..."              # optional

A set may be a bare list of sentences (its name is then the letter). Errors
(:class:`~wordbias.core.errors.InvalidParameterError`) name the file, the test and the field.

**Sentences are not independent observations.** In the ``sent-`` tests each word of Caliskan's lists gives several
sentences (8 for a name, up to 10 for a noun); the permutation test and the bootstrap over sentences treat them as
exchangeable units, which they are not (sentences from one word share that word). The p-values are therefore
smaller, and the intervals narrower, than a test over the words would give (May et al. §5 discuss the test's
assumptions). :attr:`SeatTest.words` recovers, where it can, the word each sentence was built from (by matching
the test's word-level twin, e.g. ``weat6`` for ``sent-weat6``), so that a reader can see the clusters.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import repeated
from wordbias.core.yaml_io import load_yaml
from wordbias.datasets.stimuli import _FourSets

__all__ = ["SEAT_DIR", "TESTS_DIR", "ROLES", "SeatTest", "test_names", "load_test", "load_tests",
           "read_test_file", "load_sentence_lists", "reported", "REPORTED", "CITATION", "LICENCE"]

#: the shipped SEAT data
SEAT_DIR = paths.DATA / "seat"
#: the authors' 46 test files
TESTS_DIR = SEAT_DIR / "tests"
#: the set letters and the keys of the authors' files
ROLES = {"X": "targ1", "Y": "targ2", "A": "attr1", "B": "attr2"}
#: the numbers May et al. report (Table 3), as far as transcribed; the file's header says from where
REPORTED = SEAT_DIR / "may2019_reported.csv"
CITATION = ("May, C., Wang, A., Bordia, S., Bowman, S. R., & Rudinger, R. (2019). On Measuring Social Biases in "
            "Sentence Encoders. NAACL-HLT 2019, 622-628. https://doi.org/10.18653/v1/N19-1063")
LICENCE = "CC BY-NC 4.0 (non-commercial use, with attribution; data/seat/LICENSE)"
_EXT = ".jsonl"
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:+-]*$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class SeatTest(_FourSets):
    """One SEAT: four sets of sentences.

    Attributes
    ----------
    id : str
        The test's id (the file name without ``.jsonl`` for the shipped tests, e.g. ``"sent-weat6"``).
    title : str
        ``"<X> vs <Y>, <A> vs <B>"`` with the sets' names, or the user's title.
    X, Y, A, B : tuple of str
        The sentences of the targets and the attributes.
    names : dict of str to str
        ``"X"``, ``"Y"``, ``"A"``, ``"B"`` -> the sets' names (the files' ``category``).
    source : str, default ""
        Where the test came from (a file).
    notes : str or None, default None
        A user's notes.
    """

    names: dict = field(default_factory=dict)
    source: str = ""
    notes: str | None = None

    @property
    def sentences(self) -> tuple[str, ...]:
        """Every sentence of the test, once, in the order X, Y, A, B."""
        return tuple(dict.fromkeys((*self.X, *self.Y, *self.A, *self.B)))

    @property
    def words(self) -> dict[str, dict[str, str]]:
        """Per set, sentence -> the word it was built from, for the shipped ``sent-`` tests (matched against the
        word-level twin's list, case-insensitively, as a whole word: the word itself first, then its regular
        inflections, :func:`_forms`); empty for the others. A sentence with no match is left out."""
        return {role: {s: w for s, (w, _) in m.items()} for role, m in self._twin_matches().items()}

    @property
    def terms(self) -> dict[str, dict[str, tuple[str, str]]]:
        """Per set, sentence -> ``(term, text)``: the test term the sentence was built from and the text of the
        term in the sentence (``("aster", "asters")`` for "These are asters.").

        The term of a shipped ``sent-`` sentence is its word-level twin's word (:attr:`words`), so that a SEAT
        counts the words of the twin's lists. Any other sentence's term is the text from its first to its last
        token (:func:`wordbias.core.tokens.tokenize`) outside the template, the template being the tokens
        found in sentences of both sets of its pair (X and Y, A and B): "John is an engineer." beside "Amy is an
        engineer." gives "John"; a sentence made of template tokens only is its own term, whole. A pair of bare
        words or phrases (no item ends in ``.``, ``!`` or ``?``: "aster", "European American") has no template;
        each item is its own term.

        Returns
        -------
        dict of str to dict of str to tuple of str
            ``"X"``, ``"Y"``, ``"A"``, ``"B"`` -> sentence -> ``(term, text)``, every sentence of the set, in order.

        Examples
        --------
        >>> t = SeatTest("t", "t", ("This is rose.", "Here is tulip."), ("This is ant.", "Here is wasp."),
        ...              ("Love is here.",), ("Hate is here.",))
        >>> t.terms["X"]["Here is tulip."], t.terms["B"]["Hate is here."]
        (('tulip', 'tulip'), ('Hate', 'Hate'))
        >>> load_test("sent-weat1").terms["X"]["These are asters."]
        ('aster', 'asters')
        """
        twin = self._twin_matches()
        out = {}
        for pair in ("XY", "AB"):
            sets = [getattr(self, role) for role in pair]
            bare = not any(s.rstrip().endswith((".", "!", "?")) for s in (*sets[0], *sets[1]))
            template = frozenset() if bare else _template(sets)
            for role in pair:
                found = twin.get(role, {})
                out[role] = {s: found.get(s) or (_slot(s, template),) * 2 for s in getattr(self, role)}
        return out

    def _twin_matches(self) -> dict[str, dict[str, tuple[str, str]]]:
        """Per set, sentence -> (the twin's word, its text in the sentence), for a shipped ``sent-`` test."""
        twin = self.id[len("sent-"):] if self.id.startswith("sent-") else None
        if twin is None or not (TESTS_DIR / f"{twin}{_EXT}").is_file():
            return {}
        base = load_test(twin)
        out = {}
        for role in "XYAB":
            words = sorted(getattr(base, role), key=len, reverse=True)
            pats = [(w, re.compile(rf"\b{re.escape(w)}\b", re.IGNORECASE)) for w in words]
            pats += [(w, re.compile(rf"\b(?:{'|'.join(map(re.escape, _forms(w)))})\b", re.IGNORECASE)) for w in words]
            out[role] = {}
            for s in getattr(self, role):
                hit = next(((w, m.group(0)) for w, p in pats for m in [p.search(s)] if m), None)
                if hit:
                    out[role][s] = hit
        return out

    def as_spec(self) -> dict:
        """The test as a WEAT spec mapping (``id``, ``title``, ``X``, ``Y``, ``A``, ``B``, ``names``), the form
        :func:`wordbias.datasets.stimuli.as_weat_spec` takes.

        Returns
        -------
        dict
            ``id`` and ``title`` (str), ``X``, ``Y``, ``A``, ``B`` (tuples of sentences) and ``names`` (dict of
            role to set name).
        """
        return {"id": self.id, "title": self.title, "X": self.X, "Y": self.Y, "A": self.A, "B": self.B,
                "names": dict(self.names)}


def _forms(word: str) -> list[str]:
    """The regular inflections a template gives a word: plural ``-s``, ``-es``, ``-ies`` (from ``-y``), the
    singular of a plural in ``-s`` or ``-ren``, ``-men`` (from ``-man``, in any word of a phrase)."""
    forms = [word + "s", word + "es"]
    if word.endswith("y"):
        forms.append(word[:-1] + "ies")
    if word.endswith("s"):
        forms.append(word[:-1])
    if word.endswith("ren"):
        forms.append(word[:-3])
    if re.search(r"man\b", word):
        forms.append(re.sub(r"man\b", "men", word))
    return forms


def _template(pair: Sequence[Sequence[str]]) -> frozenset[str]:
    """The template's tokens of a pair of sets of sentences: those found in sentences of both sets."""
    from wordbias.core.tokens import tokenize

    first, second = ({tok for s in sentences for tok in tokenize(s)} for sentences in pair)
    return frozenset(first & second)


def _slot(sentence: str, template: frozenset[str]) -> str:
    """The text of ``sentence`` from its first to its last token not in ``template`` (the whole sentence when
    every token is)."""
    from wordbias.core.tokens import token_spans

    spans = [(i, j) for i, j in token_spans(sentence) if sentence[i:j] not in template]
    return sentence[spans[0][0]:spans[-1][1]] if spans else sentence


def _sort_key(name: str) -> tuple:
    """The authors' order: the numbers in a name compared as numbers (weat2 before weat10)."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def test_names(folder: str | os.PathLike | None = None) -> list[str]:
    """Return the names of the shipped SEAT tests (or of the ``.jsonl`` files in ``folder``), in the authors'
    order.

    Parameters
    ----------
    folder : str or path-like, optional
        A folder of test files in the authors' format (default: the shipped :data:`TESTS_DIR`).

    Returns
    -------
    list of str
        The names, e.g. ``["angry_black_woman_stereotype", ..., "weat10"]``.

    Raises
    ------
    FileNotFoundError
        When the folder does not exist.

    Examples
    --------
    >>> names = test_names()
    >>> len(names), names.index("weat2") < names.index("weat10"), "sent-weat6" in names
    (46, True, True)
    """
    folder = Path(folder) if folder is not None else TESTS_DIR
    if not folder.is_dir():
        raise FileNotFoundError(f"SEAT test folder {folder} does not exist")
    return sorted((p.name[:-len(_EXT)] for p in folder.glob(f"*{_EXT}") if not p.name.startswith(".")),
                  key=_sort_key)


def _fail(path, message: str) -> None:
    raise InvalidParameterError(f"{path}: {message}")


def _sentences(path, where: str, value) -> tuple[str, ...]:
    if not isinstance(value, list):
        _fail(path, f"{where} must be a list of sentences, not {type(value).__name__}")
    if not value:
        _fail(path, f"{where} is empty: a set needs at least one sentence")
    for i, s in enumerate(value):
        if not isinstance(s, str):
            _fail(path, f"{where}: item {i + 1} is {s!r} ({type(s).__name__}), not a string (quote it in YAML)")
        if not s.strip():
            _fail(path, f"{where}: item {i + 1} is an empty string")
    dups = repeated(value)
    if dups:
        _fail(path, f"{where} lists these sentences more than once: {dups[:5]}")
    return tuple(value)


def _disjoint(path, test: str, sets: Mapping[str, tuple[str, ...]]) -> None:
    for a, b in (("X", "Y"), ("A", "B")):
        shared = sorted(set(sets[a]) & set(sets[b]))
        if shared:
            _fail(path, f"test {test!r}: {a} and {b} share sentences {shared[:3]}: a sentence cannot be in both "
                        "sets of a pair")


def _title(names: Mapping[str, str]) -> str:
    return f"{names['X']} vs {names['Y']}, {names['A']} vs {names['B']}"


def read_test_file(path: str | os.PathLike, *, test_id: str | None = None) -> SeatTest:
    """Read one SEAT test file in the authors' format (``targ1``, ``targ2``, ``attr1``, ``attr2``, each with a
    ``category`` and ``examples``).

    Parameters
    ----------
    path : str or path-like
        The file (JSON; the authors name them ``.jsonl``).
    test_id : str, optional
        The test's id (default: the file name without its extension).

    Returns
    -------
    SeatTest
        The test; its names are the files' categories.

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    InvalidParameterError
        When the file is not JSON, lacks a set, a set lacks ``examples``, a set is empty or repeats a sentence, or
        X and Y (A and B) share a sentence; the message names the file and the set.

    Examples
    --------
    >>> t = read_test_file(TESTS_DIR / "weat1.jsonl")
    >>> t.id, t.names["X"], len(t.X), t.X[:2]
    ('weat1', 'Flowers', 25, ('aster', 'clover'))
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"SEAT test file {path} does not exist")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        _fail(path, f"not a JSON test file ({exc})")
    if not isinstance(doc, Mapping):
        _fail(path, f"must be a JSON object with targ1, targ2, attr1, attr2, not {type(doc).__name__}")
    sets, names = {}, {}
    for role, key in ROLES.items():
        block = doc.get(key)
        if not isinstance(block, Mapping) or "examples" not in block:
            _fail(path, f"{key} (set {role}) is missing or has no 'examples'")
        sets[role] = _sentences(path, f"{key}.examples", block["examples"])
        names[role] = str(block.get("category") or role)
    tid = test_id or path.name.split(".")[0]
    _disjoint(path, tid, sets)
    return SeatTest(tid, _title(names), sets["X"], sets["Y"], sets["A"], sets["B"], names=names, source=str(path))


def load_test(name: str) -> SeatTest:
    """Load one shipped SEAT test by name.

    Parameters
    ----------
    name : str
        A name of :func:`test_names`, e.g. ``"sent-weat6"``, ``"weat6"``, ``"angry_black_woman_stereotype"``
        (``.jsonl`` may be given).

    Returns
    -------
    SeatTest
        The test.

    Raises
    ------
    InvalidParameterError
        When there is no such test (the message lists the names close to it).

    Examples
    --------
    >>> t = load_test("sent-weat6")
    >>> t.title, len(t.X), t.X[0]
    ('MaleNames vs FemaleNames, Career vs Family', 64, 'This is John.')
    """
    if not isinstance(name, str) or not name:
        raise InvalidParameterError(f"a SEAT test name must be a non-empty string, not {name!r}")
    stem = name[:-len(_EXT)] if name.endswith(_EXT) else name
    path = TESTS_DIR / f"{stem}{_EXT}"
    if "/" in stem or "\\" in stem or not path.is_file():
        import difflib

        close = difflib.get_close_matches(stem, test_names(), n=4)
        raise InvalidParameterError(f"no SEAT test {name!r}" + (f"; did you mean {', '.join(close)}?" if close
                                    else "; `wordbias.datasets.seat.test_names()` lists the 46 tests"))
    return read_test_file(path, test_id=stem)


def load_tests(names: Sequence[str] | None = None) -> list[SeatTest]:
    """Load several shipped SEAT tests (default: all 46, in the authors' order).

    Parameters
    ----------
    names : sequence of str, optional
        Names of :func:`test_names`; a glob pattern such as ``"sent-*"`` selects several.

    Returns
    -------
    list of SeatTest
        The tests, in the order asked (a pattern's matches in the authors' order).

    Raises
    ------
    InvalidParameterError
        When ``names`` is a string or empty, a name is unknown or a pattern matches nothing.

    Examples
    --------
    >>> [t.id for t in load_tests(["weat1", "sent-weat1*"])]
    ['weat1', 'sent-weat1', 'sent-weat10']
    """
    import fnmatch

    if names is None:
        return [load_test(n) for n in test_names()]
    if isinstance(names, str) or not list(names):
        raise InvalidParameterError(f"names must be a non-empty list of test names, not {names!r}")
    out: list[str] = []
    for n in names:
        if isinstance(n, str) and any(c in n for c in "*?["):
            hits = [t for t in test_names() if fnmatch.fnmatch(t, n)]
            if not hits:
                raise InvalidParameterError(f"the pattern {n!r} matches no SEAT test")
            out += hits
        else:
            out.append(n)
    return [load_test(n) for n in dict.fromkeys(out)]


def _set(path, tid: str, group: str, block, role: str) -> tuple[str, tuple[str, ...]]:
    where = f"test {tid!r}: {group}.{role}"
    if not isinstance(block, Mapping) or role not in block:
        _fail(path, f"test {tid!r}: {group} must be a mapping with {role!r}")
    value = block[role]
    if isinstance(value, list):
        return role, _sentences(path, where, value)
    if not isinstance(value, Mapping):
        _fail(path, f"{where} must be a list of sentences or a mapping with 'name' and 'sentences', not "
                    f"{type(value).__name__}")
    unknown = [k for k in value if k not in ("name", "sentences")]
    if unknown or "sentences" not in value:
        _fail(path, f"{where}: " + (f"unknown key(s) {unknown}; allowed: name, sentences" if unknown
                                    else "missing key 'sentences'"))
    name = value.get("name", role)
    if not isinstance(name, str) or not name.strip():
        _fail(path, f"{where}.name must be a non-empty string, not {name!r}")
    return name, _sentences(path, f"{where}.sentences", value["sentences"])


def load_sentence_lists(path: str | os.PathLike) -> tuple[str, list[SeatTest]]:
    """Read a user's YAML file of sentence sets (the format is in the module's docstring) and check it.

    Parameters
    ----------
    path : str or path-like
        The YAML file.

    Returns
    -------
    battery : str
        The battery's name (the file's ``battery``, else the file name without extensions).
    tests : list of SeatTest
        The tests, in file order.

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    InvalidParameterError
        With the file, the test and the field: a YAML error, an unknown or missing key, an empty set, a sentence
        that is not a string or is listed twice, X and Y (A and B) sharing a sentence, two tests with one id.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "mine.yaml"
    >>> _ = f.write_text('seat:\\n  - id: t\\n    targets: {X: ["He is here."], Y: ["She is here."]}\\n'
    ...                  '    attributes: {A: ["This is a salary."], B: ["This is a home."]}\\n')
    >>> battery, (t,) = load_sentence_lists(f)
    >>> battery, t.id, t.title, t.X
    ('mine', 't', 'X vs Y, A vs B', ('He is here.',))
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"sentence lists file {path} does not exist")
    doc = load_yaml(path, source=str(path))
    if not isinstance(doc, Mapping):
        _fail(path, f"must be a YAML mapping with a 'seat' list of tests, not {type(doc).__name__}")
    top = ("battery", "citation", "description", "seat", "tests")
    unknown = [k for k in doc if k not in top]
    if unknown:
        _fail(path, f"unknown key(s) {unknown}; allowed: {', '.join(top)}")
    if ("seat" in doc) == ("tests" in doc):
        _fail(path, "needs one list of tests, under 'seat' (or 'tests'), not " +
              ("both" if "seat" in doc else "none"))
    battery = doc.get("battery", path.name.split(".")[0])
    if not isinstance(battery, str) or not _NAME.match(battery):
        _fail(path, f"battery must be a name of letters, digits, - _ . (starting with a letter or digit), not "
                    f"{battery!r}")
    items = doc.get("seat", doc.get("tests"))
    if not isinstance(items, list) or not items:
        _fail(path, "'seat' must be a non-empty list of tests")
    tests, seen = [], set()
    for i, item in enumerate(items):
        if not isinstance(item, Mapping) or "id" not in item:
            _fail(path, f"seat item {i + 1} must be a mapping with an 'id'")
        tid = item["id"]
        if not isinstance(tid, str) or not _ID.match(tid):
            _fail(path, f"seat item {i + 1}: id must be letters, digits and - _ . : +, not {tid!r}")
        if tid in seen:
            _fail(path, f"two tests have the id {tid!r}; ids must be unique in the file")
        seen.add(tid)
        allowed = ("id", "title", "targets", "attributes", "notes")
        bad = [k for k in item if k not in allowed]
        missing = [k for k in ("targets", "attributes") if k not in item]
        if bad or missing:
            _fail(path, f"test {tid!r}: " + (f"unknown key(s) {bad}; allowed: {', '.join(allowed)}" if bad
                                             else f"missing key(s) {missing}"))
        names, sets = {}, {}
        for group, roles in (("targets", "XY"), ("attributes", "AB")):
            block = item[group]
            extra = [k for k in block if k not in roles] if isinstance(block, Mapping) else []
            if extra:
                _fail(path, f"test {tid!r}: {group}: unknown key(s) {extra}; allowed: {', '.join(roles)}")
            for role in roles:
                names[role], sets[role] = _set(path, tid, group, block, role)
        _disjoint(path, tid, sets)
        title = item.get("title") or _title(names)
        if not isinstance(title, str):
            _fail(path, f"test {tid!r}: title must be a string, not {title!r}")
        notes = item.get("notes")
        tests.append(SeatTest(tid, title, sets["X"], sets["Y"], sets["A"], sets["B"], names=names,
                              source=str(path), notes=None if notes is None else str(notes)))
    return battery, tests


def reported() -> pandas.DataFrame:  # noqa: F821 - pandas imported here
    """Return the numbers May et al. (2019) report, as shipped in ``data/seat/may2019_reported.csv``.

    Only what could be transcribed is there (the file's header says from where: Table 3's BERT column); the
    ``test`` column names the shipped file each row is measured on, ``mapping`` says whether the row-to-file
    match is the paper's or inferred. The file is long: one row per (test, encoder), so a further encoder's
    column of Table 3 adds rows with its name in ``encoder``.

    Returns
    -------
    pandas.DataFrame
        Columns ``table``, ``row``, ``context``, ``test``, ``mapping``, ``encoder``, ``d`` (float), ``p_text``
        (the significance the paper marks, e.g. ``"p < 0.01"``; NA where none is transcribed).

    Raises
    ------
    InvalidParameterError
        When a row names a test that is not shipped, or a (test, encoder) pair is listed twice.

    Examples
    --------
    >>> r = reported()
    >>> r.loc[r.test == "sent-weat6", ["encoder", "d"]].values.tolist()
    [['BERT', 0.08]]
    """
    import pandas as pd

    frame = pd.read_csv(REPORTED, comment="#", dtype={"p_text": "string"})
    unknown = sorted(set(frame.test) - set(test_names()))
    if unknown:
        raise InvalidParameterError(f"{REPORTED}: rows name tests that are not shipped: {unknown}")
    twice = frame[frame.duplicated(["test", "encoder"], keep=False)]
    if len(twice):
        raise InvalidParameterError(f"{REPORTED}: (test, encoder) listed more than once: "
                                    f"{sorted(set(zip(twice.test, twice.encoder)))}")
    return frame
