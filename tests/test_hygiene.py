"""Code hygiene: the lint configuration is the one the Makefile and the pre-commit hook run, at one version."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pinned(name):
    m = re.search(rf"^{name}==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M)
    assert m, f"requirements.txt pins no {name}"
    return m.group(1)


def test_the_pre_commit_hook_runs_the_pinned_ruff():
    hook = (ROOT / ".pre-commit-config.yaml").read_text()
    assert f"rev: v{_pinned('ruff')}" in hook
    assert f'"ruff=={_pinned("ruff")}"' in (ROOT / "pyproject.toml").read_text()


def test_make_test_runs_the_lint():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^test: lint ", makefile, re.M)
    assert re.search(r"^lint: .*\n\t\$\(VENV\)/bin/ruff check \.$", makefile, re.M)


@pytest.mark.skipif(shutil.which("ruff", path=str(Path(sys.executable).parent)) is None, reason="ruff not installed")
def test_ruff_finds_a_planted_error(tmp_path):
    """The configuration is live: an unused import in a file under lib/ is reported."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    bad = "import os\n"
    r = subprocess.run([ruff, "check", "--config", str(ROOT / "pyproject.toml"), "--stdin-filename",
                        str(ROOT / "lib/wordbias/_planted.py"), "-"], input=bad, text=True, capture_output=True)
    assert r.returncode == 1 and "F401" in r.stdout


# --- the project speaks of itself alone: no tracker numbers or development sessions in its text -------------------

#: where the project's text lives (docs/_generated is built from the library, so the library's check covers it)
SCANNED = ("lib", "tests", "docs", "notebooks/src", "benchmarks", "scripts", "tools", "README.md", "Makefile")
SKIPPED_DIRS = {"_generated", "__pycache__", ".ipynb_checkpoints"}
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".txt", ".yaml", ".yml", ".toml", ".cfg", ".sh", ".csv", ".json", ".rst"}
#: other projects whose own trackers may be cited by number ("WEFE issue #5"): their name comes just before it
EXTERNAL = ("sweater", "wefe", "sent-bias")
TRACKER = re.compile(r"\b(?:issues?|sessions?)\s*#?\d+|(?<![\w&/])#\d+\b", re.I)
#: a colour such as ``color: #222`` or ``"#888888"`` is not a tracker number (the rule is for a hash and its number
#: only: a docstring may open with a quote and the word issue)
COLOUR = re.compile(r"""(?:(?:colou?r|background)\s*[:=]\s*|["'])$""", re.I)
#: this file's own examples of tracker references (the parametrize table of the recogniser's test): the one
#: stretch of the scanned text left out, cut exactly once from this file only
OWN_FILE = Path("tests") / Path(__file__).name
OWN_EXAMPLES = re.compile(r'^@pytest\.mark\.parametrize\("text, expected", \[$.*?^def test_tracker_references_are_'
                          r'recognised\(', re.M | re.S)


def without_own_examples(rel, text):
    """``text`` of the file ``rel`` (relative to the repository), less this file's table of examples."""
    if rel != OWN_FILE:
        return text
    kept, n = OWN_EXAMPLES.subn("", text)
    assert n == 1, f"{OWN_FILE}: the table of examples was not found once (found {n} times)"
    return kept


def _scanned_files(root):
    for name in SCANNED:
        top = root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in paths:
            rel = path.relative_to(root)
            if path.is_file() and not SKIPPED_DIRS & set(rel.parts) and (path.suffix in TEXT_SUFFIXES
                                                                          or path.name in ("Makefile", "README.md")):
                yield rel, without_own_examples(rel, path.read_text(encoding="utf-8", errors="replace"))


def tracker_references(text):
    """The tracker references in ``text`` (the word issue or session and a number, or a number after a hash), less
    colours and other projects' issues named with the project (sweater's issue and its number)."""
    found = []
    for m in TRACKER.finditer(text):
        before = text[max(0, m.start() - 40):m.start()].rsplit("\n", 1)[-1]
        if (m.group(0).startswith("#") and COLOUR.search(before)) or any(p in before.lower() for p in EXTERNAL):
            continue
        found.append(" ".join(m.group(0).split()))
    return found


@pytest.mark.parametrize("text, expected", [
    ("the goals of issue 15, item 7", ["issue 15"]), ("as in Session 19:", ["Session 19"]), ("fixed (#23).", ["#23"]),
    ("issues 26 and 28", ["issues 26"]), ("color: #222; padding", []), ('style = ("#444444", "s")', []),
    ("a random split (WEFE issue #5)", []), ("sweater <= 0.1.6 (R, before issue #39's fix)", []),
    ("2,000 rotations, 1.3x its floor", []), ('    """Issue 16: not', ["Issue 16"]),
    ("(sent-bias pull request #2)", [])])
def test_tracker_references_are_recognised(text, expected):
    assert tracker_references(text) == expected


def test_only_this_files_table_of_examples_is_left_out():
    """The table is cut from this file alone, and a reference anywhere else in this file is still found."""
    text = (ROOT / OWN_FILE).read_text(encoding="utf-8")
    assert tracker_references(text)                                         # the table holds references
    assert tracker_references(without_own_examples(OWN_FILE, text)) == []
    number = 41                                                             # kept apart, so this line is clean
    planted = text + f"\n# fixed in issue {number}\n"
    assert tracker_references(without_own_examples(OWN_FILE, planted)) == [f"issue {number}"]
    other = Path("tests") / "test_other.py"
    assert tracker_references(without_own_examples(other, text)) == tracker_references(text)
    with pytest.raises(AssertionError, match="not found once"):
        without_own_examples(OWN_FILE, "no table here")


def test_no_tracker_numbers_or_sessions_in_the_library_tests_docs_notebooks_and_benchmarks():
    """The code, tests, docs, notebook sources and benchmarks describe what is: no tracker or session numbers."""
    hits = [f"{rel}: {ref}" for rel, text in _scanned_files(ROOT) for ref in tracker_references(text)]
    assert not hits, "tracker references (describe what is instead):\n" + "\n".join(hits)
