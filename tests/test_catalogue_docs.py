"""docs/guide/measures.md's table is the catalogue: every row, read back, equals its
:data:`wordbias.catalogue.CATALOGUE` entry, in the catalogue's order, and a row that differs is found."""
from __future__ import annotations

import dataclasses
import math

import pytest

from wordbias.catalogue import CATALOGUE, MeasureSpec
from wordbias.core import paths

PAGE = paths.ROOT / "docs/guide/measures.md"
HEADER = ("measure", "name", "effect size", "range", "no bias", "more bias", "full colour at", "test",
          "coverage counts", "runs combine by", "reference", "function")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_rows(text: str) -> list[list[str]]:
    """The cells of the page's catalogue table (the table whose header is :data:`HEADER`), row by row."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("|") and tuple(_cells(line)) == HEADER), None)
    assert start is not None, f"{PAGE.name} has no table with the header {HEADER}"
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(_cells(line))
    return rows


def _number(text: str) -> float:
    return {"∞": math.inf, "-∞": -math.inf}.get(text, None) or float(text)


def _range(text: str) -> tuple[float, float]:
    low, high = text[1:-1].split(", ")
    assert text[0] == ("(" if low == "-∞" else "["), text
    assert text[-1] == (")" if high == "∞" else "]"), text
    return _number(low), _number(high)


def parse_row(cells: list[str]) -> MeasureSpec:
    """One table row as the :class:`MeasureSpec` it states."""
    assert len(cells) == len(HEADER), cells
    measure, name, effect, span, no_bias, more, colour, test, coverage, combine, reference, function = cells
    low, high = _range(span)
    return MeasureSpec(measure=measure.strip("`"), name=name, reference=reference,
                       effect_size_name=None if effect == "none: statistic only" else effect, low=low, high=high,
                       no_bias=None if no_bias == "none" else _number(no_bias), more_bias=more,
                       scale=None if colour.startswith("not coloured") or colour == "largest shown" else
                       _number(colour), test=None if test == "none: descriptive" else test, coverage_of=coverage,
                       combine=combine, function=function.strip("`"))


def _colour_text(spec: MeasureSpec, cell: str) -> bool:
    """Whether the "full colour at" cell says what the heat map does with the measure."""
    if spec.no_bias is None:
        return cell == "not coloured (no value of no bias)"
    if spec.effect_size_name is None:
        return cell == "not coloured (no effect size)"
    return cell == ("largest shown" if spec.scale is None else f"{spec.scale:g}")


def differences(text: str) -> list[str]:
    """Every way the page's table differs from the catalogue (empty when it states the catalogue exactly)."""
    rows = table_rows(text)
    found = [parse_row(cells) for cells in rows]
    if [s.measure for s in found] != list(CATALOGUE):
        return [f"the table's measures {[s.measure for s in found]} are not the catalogue's {list(CATALOGUE)}"]
    out = []
    for cells, spec in zip(rows, found):
        want = CATALOGUE[spec.measure]
        out += [f"{spec.measure}: {f.name} is {getattr(spec, f.name)!r} on the page, {getattr(want, f.name)!r} in "
                f"the catalogue" for f in dataclasses.fields(MeasureSpec) if getattr(spec, f.name) !=
                getattr(want, f.name)]
        if not _colour_text(want, cells[HEADER.index("full colour at")]):
            out.append(f"{spec.measure}: the heat map's colour is misstated: {cells[HEADER.index('full colour at')]!r}")
    return out


def _range_text(s: MeasureSpec) -> str:
    text = {math.inf: "∞", -math.inf: "-∞"}
    low, high = text.get(s.low, f"{s.low:g}"), text.get(s.high, f"{s.high:g}")
    return f"{'(' if s.low == -math.inf else '['}{low}, {high}{')' if s.high == math.inf else ']'}"


def expected_table() -> str:
    """The catalogue as the page's table (what to paste into the page when the catalogue changes)."""
    out = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    for s in CATALOGUE.values():
        colour = ("not coloured (no value of no bias)" if s.no_bias is None else "not coloured (no effect size)"
                  if s.effect_size_name is None else "largest shown" if s.scale is None else f"{s.scale:g}")
        cells = [f"`{s.measure}`", s.name, s.effect_size_name or "none: statistic only", _range_text(s),
                 "none" if s.no_bias is None else f"{s.no_bias:g}", s.more_bias, colour,
                 s.test or "none: descriptive", s.coverage_of, s.combine, s.reference, f"`{s.function}`"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def test_the_page_states_the_catalogue():
    found = differences(PAGE.read_text(encoding="utf-8"))
    assert found == [], "\n".join(found) + f"\n\nthe table as the catalogue gives it:\n{expected_table()}"


def test_the_expected_table_is_the_page_s_table():
    """The table printed on a failure is one the page's check accepts (so pasting it repairs the page)."""
    text = PAGE.read_text(encoding="utf-8")
    rows = table_rows(text)
    start = text.index("| " + " | ".join(HEADER) + " |")
    end = start + len("\n".join(text[start:].splitlines()[:len(rows) + 2]))
    assert differences(text[:start] + expected_table() + text[end:]) == []
    assert expected_table() in text


@pytest.mark.parametrize("old, new", [
    ("| `ect` | ECT Spearman rho | rho | [-1, 1] | 1 | below |", "| `ect` | ECT Spearman rho | rho | [-1, 1] | 0 | below |"),
    ("| rnsb | [0, ∞) |", "| rnsb | [0, 1] |"),
    ("| mac | [0, 2] | none | below | not coloured (no value of no bias) | none: descriptive |",
     "| mac | [0, 2] | none | below | not coloured (no value of no bias) | the words are exchangeable |"),
    ("| the words of T1, T2 and A found in the vocabulary | mean |",
     "| the words of T1, T2 and A found in the vocabulary | mean and t |"),
    ("| `wefat` | WEFAT correlation | r | [-1, 1] | 0 | either | 1 |",
     "| `wefat` | WEFAT correlation | r | [-1, 1] | 0 | either | largest shown |"),
])
def test_a_row_that_differs_is_found(old, new):
    text = PAGE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    assert differences(text.replace(old, new))


def test_a_missing_row_is_found():
    text = PAGE.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `seat` |"))
    assert differences(text.replace(row + "\n", ""))
