"""wordbias.core.yaml_io: the safe YAML loader -- keys given twice, anchors and aliases (the
"billion laughs" document), errors with lines, and the shipped files read as ``yaml.safe_load`` reads them."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
import yaml

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError, YamlFileError
from wordbias.core.yaml_io import MAX_EXPANDED_NODES, load_yaml

PACKAGE = Path(__file__).resolve().parents[2] / "lib" / "wordbias"
#: the shipped files that share values through anchors, read with aliases=True (bounded)
WITH_ALIASES = {"registry.yaml", "kurita2019.yaml"}


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    """The classic document: ``levels`` lists of ``width`` aliases of the list before, 9**9 strings expanded."""
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def shipped_yaml() -> list[Path]:
    """Every YAML file in the package and in data/."""
    files = sorted(PACKAGE.rglob("*.yaml")) + sorted(paths.DATA.rglob("*.yaml")) + sorted(paths.DATA.rglob("*.yml"))
    assert files, "no shipped YAML found"
    return files


# ------------------------------------------------------------------------------------------- duplicate keys

def test_duplicate_top_level_key_names_the_key_the_file_and_both_lines():
    text = "battery: b\nweat:\n  - id: t1\ndescription: d\nweat:\n  - id: t2\n"
    with pytest.raises(YamlFileError) as info:
        load_yaml(text, source="my_lists.yaml")
    msg = str(info.value)
    assert msg.startswith("my_lists.yaml, line 5: duplicate key 'weat'")
    assert "first at line 2, again at line 5" in msg


def test_duplicate_nested_key_at_any_depth():
    text = "weat:\n  - id: t1\n    targets:\n      X: [a]\n      Y: [b]\n      X: [c]\n"
    with pytest.raises(YamlFileError, match=r"f.yaml, line 6: duplicate key 'X': first at line 4, again at line 6"):
        load_yaml(text, source="f.yaml")
    with pytest.raises(YamlFileError, match=r"duplicate key 'b': first at line 1, again at line 1"):
        load_yaml("a: {b: 1, c: 2, b: 3}\n", source="f.yaml")
    # keys YAML reads as equal values (1 and 1.0 -> one dict key) are duplicates too: one would be lost
    with pytest.raises(YamlFileError, match=r"duplicate key '1.0'"):
        load_yaml("1: a\n1.0: b\n", source="f.yaml")


def test_same_key_in_different_mappings_is_fine():
    text = "weat:\n  - id: t1\n    targets: {X: [a]}\n  - id: t2\n    targets: {X: [b]}\n"
    assert load_yaml(text, source="f.yaml") == yaml.safe_load(text)


def test_error_is_the_projects_error_and_a_yaml_error():
    with pytest.raises(InvalidParameterError):
        load_yaml("a: 1\na: 2\n", source="f.yaml")
    with pytest.raises(ValueError):
        load_yaml("a: 1\na: 2\n", source="f.yaml")
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: 1\na: 2\n", source="f.yaml")


# ------------------------------------------------------------------------------------------- anchors, aliases

def test_billion_laughs_is_refused_fast_and_small():
    text = billion_laughs()
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(YamlFileError, match=r"lol.yaml, line 1, column 5: YAML anchor &a0 refused"):
            load_yaml(text, source="lol.yaml")
    finally:
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 5_000_000


def test_billion_laughs_is_bounded_where_aliases_are_allowed():
    start = time.perf_counter()
    with pytest.raises(YamlFileError, match=rf"lol.yaml, line \d+: the YAML aliases .* more than "
                                            rf"{MAX_EXPANDED_NODES:,} values \(the 'billion laughs' pattern\)"):
        load_yaml(billion_laughs(), source="lol.yaml", aliases=True)
    assert time.perf_counter() - start < 1.0
    with pytest.raises(YamlFileError, match=r"more than 50 values"):
        load_yaml(billion_laughs(levels=3, width=4), source="lol.yaml", aliases=True, max_nodes=50)


def test_an_alias_in_a_small_document_is_refused():
    with pytest.raises(YamlFileError, match=r"f.yaml, line 2, column 4: YAML anchor &w refused: .*write the values "
                                            r"out in full"):
        load_yaml("a: 1\nb: &w [rose, tulip]\nc: *w\n", source="f.yaml")
    # an alias with no anchor is refused as an alias, before PyYAML's "undefined alias"
    with pytest.raises(YamlFileError, match=r"f.yaml, line 1, column 4: YAML alias \*w refused"):
        load_yaml("a: *w\n", source="f.yaml")


def test_aliases_when_allowed_load_as_safe_load():
    text = "a: &w [rose, tulip]\nb: *w\nc: {<<: {x: 1}, y: 2}\n"
    assert load_yaml(text, source="f.yaml", aliases=True) == yaml.safe_load(text)


def test_recursive_alias_is_refused():
    with pytest.raises(YamlFileError, match=r"f.yaml, line 1: a YAML alias refers to a value that contains it"):
        load_yaml("a: &x [1, *x]\n", source="f.yaml", aliases=True)


# --------------------------------------------------------------------------------- what safe_load returns

@pytest.mark.parametrize("text", [
    "",
    "# only a comment\n",
    "a: 1\nb: [x, 'yes', yes, null, 1.5, 1e3, 2020-01-02]\nc: {d: {e: [1, 2]}}\n",
    "- one\n- two: 2\n  three: 3\n",
    "just a string\n",
    "\ufeffa: 1\n",
    "a: |\n  block\n  text\nb: >\n  folded\n  text\n",
])
def test_valid_documents_load_as_safe_load(text):
    assert load_yaml(text, source="f.yaml") == yaml.safe_load(text)


def test_path_and_bytes_and_source_default(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    assert load_yaml(path) == load_yaml(path.read_bytes()) == {"a": [1, 2]}
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    with pytest.raises(YamlFileError, match=rf"^{path}, line 2: duplicate key 'a'"):
        load_yaml(path)
    with pytest.raises(YamlFileError, match=r"^<string>, line 2: duplicate key"):
        load_yaml("a: 1\na: 2\n")
    with pytest.raises(InvalidParameterError, match=r"text_or_path must be YAML text \(str\), bytes or a path, "
                                                    r"not int"):
        load_yaml(3)


def test_unsafe_tags_are_refused():
    with pytest.raises(YamlFileError, match=r"f.yaml, line 1, column 4: YAML syntax error: could not determine a "
                                            r"constructor for the tag 'tag:yaml.org,2002:python/object/apply"):
        load_yaml("a: !!python/object/apply:os.system ['echo hi']\n", source="f.yaml")


# ------------------------------------------------------------------------------- errors keep their lines

@pytest.mark.parametrize("text, fragment", [
    ("a: [1, 2\n", r"f.yaml, line 2, column 1: YAML syntax error: expected ',' or '\]'"),
    ("a:\n\t- b\n", r"f.yaml, line 2, column 1: YAML syntax error: found character '\\t' that cannot start any token"),
    ("a: 1\n  b: 2\n", r"f.yaml, line 2, column 4: YAML syntax error: mapping values are not allowed here"),
    ("a: 1\nb: x\x00y\n", r"f.yaml, line 2, column 5: YAML syntax error: character #x0000 is not allowed"),
    ("a: 1\n---\nb: 2\n", r"f.yaml, line 2, column 1: YAML syntax error: but found another document"),
])
def test_syntax_errors_give_line_and_column(text, fragment):
    with pytest.raises(YamlFileError, match=fragment):
        load_yaml(text, source="f.yaml")


def test_non_utf8_gives_byte_and_line(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nb: caf\xe9\n".encode("latin-1"))
    with pytest.raises(YamlFileError, match=rf"^{path}: not UTF-8 text \(invalid continuation byte at byte 11, "
                                            rf"line 2\); save the file as UTF-8"):
        load_yaml(path)


# ------------------------------------------------------------------------------------------ shipped files

@pytest.mark.parametrize("path", shipped_yaml(), ids=lambda p: p.name)
def test_every_shipped_file_loads_as_safe_load(path):
    expected = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert load_yaml(path, aliases=path.name in WITH_ALIASES) == expected


def test_only_the_named_shipped_files_use_aliases():
    """A shipped file that gains an anchor must be read with aliases=True by its loader (and listed here)."""
    for path in shipped_yaml():
        if path.name not in WITH_ALIASES:
            load_yaml(path)


def test_deep_nesting_is_refused_with_the_line_not_a_recursion_error():
    """Found by the fuzzing pass: without a depth limit, 1,000 nested brackets end in Python's RecursionError."""
    from wordbias.core.errors import YamlFileError
    from wordbias.core.yaml_io import MAX_DEPTH, load_yaml

    with pytest.raises(YamlFileError, match=rf"lists\.yaml, line 1, column \d+: values nested more than {MAX_DEPTH}"):
        load_yaml("weat: " + "[" * 1000 + "]" * 1000 + "\n", source="lists.yaml")
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_yaml(f"x: {deep[1:-1]}\n") is not None  # MAX_DEPTH levels, the mapping included, still read
