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


# --- the project speaks of itself alone: no tracker numbers or development sessions in what it ships ----------------

#: where the project's text lives (docs/_generated is built from the library, so the library's check covers it)
SCANNED = ("lib", "docs", "notebooks/src", "benchmarks", "scripts", "tools", "README.md", "Makefile")
SKIPPED_DIRS = {"_generated", "__pycache__", ".ipynb_checkpoints"}
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".txt", ".yaml", ".yml", ".toml", ".cfg", ".sh", ".csv", ".json", ".rst"}
#: other projects whose own trackers may be cited by number ("WEFE issue #5"): their name comes just before it
EXTERNAL = ("sweater", "wefe", "sent-bias")
TRACKER = re.compile(r"\b(?:issues?|sessions?)\s*#?\d+|(?<![\w&/])#\d+\b", re.I)
#: a colour such as ``color: #222`` or ``"#888888"`` is not a tracker number
COLOUR = re.compile(r"""(?:(?:colou?r|background)\s*[:=]\s*|["'])$""", re.I)


def _scanned_files(root):
    for name in SCANNED:
        top = root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in paths:
            rel = path.relative_to(root)
            if path.is_file() and not SKIPPED_DIRS & set(rel.parts) and (path.suffix in TEXT_SUFFIXES
                                                                          or path.name in ("Makefile", "README.md")):
                yield rel, path.read_text(encoding="utf-8", errors="replace")


def tracker_references(text):
    """The tracker references in ``text`` (``issue 23``, ``session 19``, ``#23``), less colours and other projects'
    issues named with the project (``sweater issue #39``)."""
    found = []
    for m in TRACKER.finditer(text):
        before = text[max(0, m.start() - 40):m.start()].rsplit("\n", 1)[-1]
        if COLOUR.search(before) or any(p in before.lower() for p in EXTERNAL):
            continue
        found.append(" ".join(m.group(0).split()))
    return found


@pytest.mark.parametrize("text, expected", [
    ("the goals of issue 15, item 7", ["issue 15"]), ("as in Session 19:", ["Session 19"]), ("fixed (#23).", ["#23"]),
    ("issues 26 and 28", ["issues 26"]), ("color: #222; padding", []), ('style = ("#444444", "s")', []),
    ("a random split (WEFE issue #5)", []), ("sweater <= 0.1.6 (R, before issue #39's fix)", []),
    ("2,000 rotations, 1.3x its floor", [])])
def test_tracker_references_are_recognised(text, expected):
    assert tracker_references(text) == expected


def test_no_tracker_numbers_or_sessions_in_the_library_docs_notebooks_and_benchmarks():
    """The code, docs, notebook sources and benchmarks describe what is: no ``issue 23``, ``session 19`` or ``#23``."""
    hits = [f"{rel}: {ref}" for rel, text in _scanned_files(ROOT) for ref in tracker_references(text)]
    assert not hits, "tracker references (describe what is instead):\n" + "\n".join(hits)
