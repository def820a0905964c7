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
