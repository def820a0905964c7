"""scripts/notebook_deps.py: the Makefile's prerequisites of each notebook, all notebooks in one call (--make) the
same as one call per notebook."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "notebook_deps.py"


def _run(*args: str) -> str:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_one_call_for_all_gives_each_notebooks_own_files():
    sources = ["notebooks/src/debias.ipynb", "notebooks/lessons/src/01_words_as_vectors.ipynb"]
    words = _run("--make", *sources).split()
    assert [w.split("=")[0] for w in words] == ["debias", "lesson_01_words_as_vectors.ipynb"]
    for source, word in zip(sources, words):
        files = word.split("=")[1].split(",")
        assert files == _run(source).split()
        assert "lib/wordbias/__init__.py" in files and all((ROOT / f).is_file() for f in files)
    assert "lib/wordbias/battery/debias.py" in words[0] and "lib/wordbias/battery/debias.py" not in words[1]
