"""The tolerances of the results check (:mod:`tools.repro`): read and validated from ``repro_tolerances.yaml``.

Each tolerance carries a one-line ``why``; :func:`load_tolerances` refuses a rule without one, an unknown key, a
negative or non-finite number. CSV rules (first match wins) give numeric columns an rtol/atol, list rules let a
text column of lists keep only some of its items, PNG rules allow a share of changed pixels per figure, and the
notebook setting lets a displayed number move by some units of its last digit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wordbias.core.yaml_io import load_yaml

DEFAULT_TOLERANCES = Path(__file__).with_name("repro_tolerances.yaml")

_RULE_KEYS = {"files", "columns", "rtol", "atol", "why"}
_RULE_OPTIONAL = {"sd_column", "sd_units"}
_LIST_RULE_KEYS = {"files", "columns", "separator", "min_shared", "why"}
_LIST_RULE_OPTIONAL = {"match_rows", "row_labels", "unmatched_column", "unmatched_below"}
_PNG_RULE_KEYS = {"files", "max_changed_share", "why"}
_TOP_KEYS = {"csv_rules", "list_rules", "png_rules", "png_max_changed_share", "png_why", "notebook_last_digit_units",
             "notebook_why"}


# --------------------------------------------------------------------------- tolerances


@dataclass(frozen=True)
class _ColumnScope:
    """Where a rule applies: files matching the glob ``files``, columns named in ``columns`` (or ``*``)."""

    files: str
    columns: tuple[str, ...]

    def matches(self, path: str, column: str) -> bool:
        """Whether this rule covers ``column`` of the file at repo-relative ``path``."""
        return glob_match(self.files, path) and ("*" in self.columns or column in self.columns)


@dataclass(frozen=True)
class Rule(_ColumnScope):
    """One CSV tolerance rule: the numeric columns it covers get rtol/atol (and sd_units of a spread column)."""

    rtol: float
    atol: float
    why: str
    index: int = -1  # position in the YAML list; -1 for the built-in default
    sd_column: str = ""  # a column of the committed file holding each row's own spread (e.g. over seeds)
    sd_units: float = 0.0  # ... of which this many units are added to the row's tolerance

    def label(self) -> str:
        """Short name of the rule for reports."""
        return "built-in default" if self.index < 0 else f"rule {self.index} (files {self.files!r})"


DEFAULT_RULE = Rule("**", ("*",), 1e-5, 0.0, "CSVs are written with 6 significant digits", -1)


@dataclass(frozen=True)
class ListRule(_ColumnScope):
    """A text column holding lists (e.g. a topic's top words): each cell must keep ``min_shared`` items."""

    separator: str
    min_shared: int
    why: str
    match_rows: bool = False  # rows may come in another order: pair them by their lists before comparing
    row_labels: tuple[str, ...] = ()  # columns that only number the rows (not compared when rows are paired)
    unmatched_column: str = ""  # a committed row whose value here is below unmatched_below may have no pair
    unmatched_below: float = 0.0


@dataclass(frozen=True)
class PngRule:
    """A per-file limit on the share of changed pixels (a figure of values that may move within tolerance)."""

    files: str
    max_changed_share: float
    why: str


@dataclass(frozen=True)
class Tolerances:
    """All tolerances: CSV rules (first match wins), list rules for text columns, PNG changed-pixel shares
    (per file, else the default), notebook digit units."""

    rules: tuple[Rule, ...] = ()
    png_max_changed_share: float = 0.002
    notebook_last_digit_units: float = 1.0
    list_rules: tuple[ListRule, ...] = ()
    png_rules: tuple[PngRule, ...] = ()

    def rule_for(self, path: str, column: str) -> Rule:
        """The first rule matching ``path`` and ``column``, else the built-in default."""
        return next((r for r in self.rules if r.matches(path, column)), DEFAULT_RULE)

    def list_rule_for(self, path: str, column: str) -> ListRule | None:
        """The first list rule for a text column, or None (then the text must be equal)."""
        return next((r for r in self.list_rules if r.matches(path, column)), None)

    def png_share_for(self, path: str) -> float:
        """The changed-pixel share allowed for the PNG at ``path``."""
        return next((r.max_changed_share for r in self.png_rules if glob_match(r.files, path)),
                    self.png_max_changed_share)


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a path glob: ``*``/``?`` stay within one folder, ``**`` spans folders."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            j = pattern.index("]", i + 2)
            body = pattern[i + 1 : j]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_match(pattern: str, path: str) -> bool:
    """Whether repo-relative POSIX ``path`` matches the glob ``pattern``."""
    return _glob_regex(pattern).match(path) is not None


def _number(value: Any, what: str) -> float:
    """A finite, non-negative float from a YAML value (``1e-5`` arrives as a string in YAML 1.1)."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a number, not {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number, not {value!r}") from None
    if not math.isfinite(x) or x < 0:
        raise ValueError(f"{what} must be finite and >= 0, not {value!r}")
    return x


def _why(value: Any, what: str) -> str:
    """A non-empty one-line justification."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} needs a non-empty 'why' justification")
    return value.strip()


def _parse_rule(i: int, raw: Any) -> Rule:
    """Validate CSV rule number ``i`` from the YAML list."""
    where = f"csv_rules[{i}]"
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be a mapping, not {type(raw).__name__}")
    unknown = set(raw) - _RULE_KEYS - _RULE_OPTIONAL
    if unknown:
        raise ValueError(f"{where} has unknown keys {sorted(unknown)}; allowed: {sorted(_RULE_KEYS | _RULE_OPTIONAL)}")
    if ("sd_column" in raw) != ("sd_units" in raw):
        raise ValueError(f"{where}: sd_column and sd_units go together")
    missing = _RULE_KEYS - set(raw) - {"why"}
    if missing:
        raise ValueError(f"{where} lacks keys {sorted(missing)}")
    why = _why(raw.get("why"), where)
    files, cols = raw["files"], raw["columns"]
    if not isinstance(files, str) or not files:
        raise ValueError(f"{where}: 'files' must be a non-empty glob string")
    if not isinstance(cols, list) or not cols or not all(isinstance(c, str) for c in cols):
        raise ValueError(f"{where}: 'columns' must be a non-empty list of column names or ['*']")
    rtol = _number(raw["rtol"], f"{where}: rtol")
    atol = _number(raw["atol"], f"{where}: atol")
    sd_column = raw.get("sd_column", "")
    if not isinstance(sd_column, str):
        raise ValueError(f"{where}: sd_column must be a column name")
    sd_units = _number(raw.get("sd_units", 0.0), f"{where}: sd_units")
    return Rule(files, tuple(cols), rtol, atol, why, i, sd_column, sd_units)


def _checked(raw: Any, where: str, keys: set[str]) -> dict:
    """A YAML mapping with exactly the keys allowed (all required) and a non-empty ``why``."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be a mapping, not {type(raw).__name__}")
    if set(raw) != keys:
        raise ValueError(f"{where} has keys {sorted(raw)}; it needs exactly {sorted(keys)}")
    _why(raw["why"], where)
    if not isinstance(raw["files"], str) or not raw["files"]:
        raise ValueError(f"{where}: 'files' must be a non-empty glob string")
    return raw


def _parse_list_rule(i: int, raw: Any) -> ListRule:
    """Validate list rule number ``i``."""
    where = f"list_rules[{i}]"
    if isinstance(raw, dict):
        extra = {k: raw[k] for k in _LIST_RULE_OPTIONAL if k in raw}
        raw = {k: v for k, v in raw.items() if k not in _LIST_RULE_OPTIONAL}
    else:
        extra = {}
    raw = _checked(raw, where, _LIST_RULE_KEYS)
    if not isinstance(extra.get("match_rows", False), bool):
        raise ValueError(f"{where}: match_rows must be true or false")
    labels = extra.get("row_labels", [])
    if not isinstance(labels, list) or not all(isinstance(c, str) for c in labels):
        raise ValueError(f"{where}: row_labels must be a list of column names")
    if (extra.get("match_rows") and len(raw["columns"]) != 1) or (labels and not extra.get("match_rows")):
        raise ValueError(f"{where}: match_rows pairs rows by one list column; row_labels need match_rows")
    if ("unmatched_column" in extra) != ("unmatched_below" in extra) or ("unmatched_column" in extra
                                                                       and not extra.get("match_rows")):
        raise ValueError(f"{where}: unmatched_column and unmatched_below go together, with match_rows")
    unmatched_below = _number(extra.get("unmatched_below", 0.0), f"{where}: unmatched_below")
    cols = raw["columns"]
    if not isinstance(cols, list) or not cols or not all(isinstance(c, str) for c in cols):
        raise ValueError(f"{where}: 'columns' must be a non-empty list of column names")
    if not isinstance(raw["separator"], str) or not raw["separator"]:
        raise ValueError(f"{where}: 'separator' must be a non-empty string")
    if not isinstance(raw["min_shared"], int) or isinstance(raw["min_shared"], bool) or raw["min_shared"] < 1:
        raise ValueError(f"{where}: 'min_shared' must be a whole number >= 1")
    return ListRule(raw["files"], tuple(cols), raw["separator"], raw["min_shared"], raw["why"].strip(),
                    bool(extra.get("match_rows", False)), tuple(labels), str(extra.get("unmatched_column", "")),
                    unmatched_below)


def _parse_png_rule(i: int, raw: Any) -> PngRule:
    """Validate PNG rule number ``i``."""
    where = f"png_rules[{i}]"
    raw = _checked(raw, where, _PNG_RULE_KEYS)
    share = _number(raw["max_changed_share"], f"{where}: max_changed_share")
    if share >= 1:
        raise ValueError(f"{where}: max_changed_share must be below 1 (1 accepts any picture of the same size)")
    return PngRule(raw["files"], share, raw["why"].strip())


def load_tolerances(path: str | Path = DEFAULT_TOLERANCES) -> Tolerances:
    """Read and validate the tolerance YAML; raise ValueError on any malformed entry."""
    raw = load_yaml(Path(path)) or {}
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: top level must be a mapping")
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise ValueError(f"{path}: unknown top-level keys {sorted(unknown)}; allowed: {sorted(_TOP_KEYS)}")
    rules = raw.get("csv_rules") or []
    if not isinstance(rules, list):
        raise ValueError(f"{path}: csv_rules must be a list")
    kwargs: dict[str, Any] = {"rules": tuple(_parse_rule(i, r) for i, r in enumerate(rules))}
    for key, parse in (("list_rules", _parse_list_rule), ("png_rules", _parse_png_rule)):
        items = raw.get(key) or []
        if not isinstance(items, list):
            raise ValueError(f"{path}: {key} must be a list")
        kwargs[key] = tuple(parse(i, r) for i, r in enumerate(items))
    for key, why in (("png_max_changed_share", "png_why"), ("notebook_last_digit_units", "notebook_why")):
        if key in raw:
            kwargs[key] = _number(raw[key], key)
            _why(raw.get(why), key)
    if kwargs.get("png_max_changed_share", 0.0) > 1:
        raise ValueError(f"{path}: png_max_changed_share is a share, at most 1")
    return Tolerances(**kwargs)
