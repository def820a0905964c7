"""The installable package: the wheel holds the data, and an installed copy works away from
the repository (data read through importlib.resources, outputs under the current folder)."""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
#: where the developer tools lived inside the package before they moved to tools/: the wheel must not ship them
_DEVELOPER_TOOLS = {"wordbias/core/repro.py", "wordbias/core/notebooks.py", "wordbias/core/repro_tolerances.yaml"}


def _clean_source(dest: Path) -> Path:
    """The files a clean checkout of the working tree holds (tracked or new, not ignored, not deleted), copied to
    ``dest``: built in place, setuptools would also pack what a former build left in build/lib."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    source = _clean_source(tmp_path_factory.mktemp("source"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(source)], check=True, capture_output=True)
    (whl,) = out.glob("wordbias-*.whl")
    return whl


def test_the_wheel_holds_every_data_file_but_users_embeddings(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = [f for f in subprocess.run(["git", "ls-files", "-z", "data"], cwd=ROOT, check=True, capture_output=True,
                                         text=True).stdout.split("\0") if f]      # names may hold spaces
    assert tracked, "no tracked data files?"
    missing = [f for f in tracked if f"wordbias/{f}" not in names]
    assert not missing, f"data files not in the wheel: {missing}"
    assert "wordbias/embeddings/registry.yaml" in names
    assert not [n for n in names if n.startswith("wordbias/data/embeddings/") and not n.endswith("README.md")]
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "Provides-Extra: contextual" in text and "Requires-Dist: torch" in text
    assert "Requires-Dist: torch" not in text.split("Provides-Extra: contextual")[0]     # torch only in the extra
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "wordbias = wordbias.cli:run" in zipfile.ZipFile(wheel).read(entry).decode()


def _developer_tools(names) -> list[str]:
    """The entries of a wheel listing that are developer tools (tools/) or lie outside the
    package: a wheel holds ``wordbias/`` and its ``.dist-info`` only."""
    return sorted(n for n in names if n.split("/")[0] != "wordbias" and not n.split("/")[0].endswith(".dist-info")
                  or n in _DEVELOPER_TOOLS)


def test_the_wheel_ships_no_developer_tools(wheel):
    """The results check and the notebook cleaner stay in the repository."""
    names = zipfile.ZipFile(wheel).namelist()
    assert not _developer_tools(names), f"developer tools in the wheel: {_developer_tools(names)}"
    assert "wordbias/core/paths.py" in names          # the listing checked is the package's


def test_the_developer_tools_check_can_fail():
    names = ["wordbias/core/paths.py", "wordbias-0.1.0.dist-info/METADATA", "wordbias/core/repro.py",
             "tools/notebooks.py", "wordbias/core/repro_tolerances.yaml"]
    assert _developer_tools(names) == ["tools/notebooks.py", "wordbias/core/repro.py",
                                       "wordbias/core/repro_tolerances.yaml"]


def test_an_installed_copy_runs_away_from_the_repository(wheel, tmp_path):
    target, work = tmp_path / "site", tmp_path / "work"
    work.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(target), "WORDBIAS_CACHE": str(tmp_path / "cache")}
    for k in ("WORDBIAS_ROOT", "WORDBIAS_DATA", "WORDBIAS_RUNS", "WORDBIAS_EMBEDDINGS"):
        env.pop(k, None)
    probe = subprocess.run([sys.executable, "-c", "import json, wordbias; from wordbias.core import paths; "
                            "from wordbias.datasets import stimuli; print(json.dumps([wordbias.__file__, "
                            "str(paths.DATA), str(paths.ROOT), paths.IN_CHECKOUT, len(stimuli.weat_tests())]))"],
                           cwd=work, env=env, check=True, capture_output=True, text=True)
    import json

    file, data, root, in_checkout, n_weat = json.loads(probe.stdout)
    assert Path(file).is_relative_to(target) and Path(data) == target / "wordbias" / "data"
    assert Path(root) == work and not in_checkout and n_weat == 10
    run = subprocess.run([sys.executable, "-m", "wordbias", "weat", "glove-840b-caliskan", "--out", "out",
                          "--n-resamples", "200", "--n-permutations", "1000", "-q"],
                         cwd=work, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (work / "out").iterdir()) == [".wordbias-folder", ".wordbias-run.json", "forest.pdf", "forest.png", "summary.html", "tidy.csv"]
    version = subprocess.run([sys.executable, "-m", "wordbias", "--version"], cwd=work, env=env, check=True,
                             capture_output=True, text=True)
    assert version.stdout.strip() == f"wordbias {__import__('wordbias').__version__}"


def test_licence_and_citation():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["license"] == "MIT" and cff["version"] == __import__("wordbias").__version__
    titles = " ".join(r["title"] for r in cff["references"])
    for paper in ("Semantics derived automatically", "What are the biases in my word embedding",
                  "Measuring Bias in Contextualized Word Representations", "Racial bias in pre-trained word embeddings"):
        assert paper in titles
    for folder in sorted(p for p in (ROOT / "data").iterdir() if p.is_dir()):
        assert f"`{folder.name}/`" in (ROOT / "data" / "LICENSES.md").read_text(), f"no licence line for {folder.name}"
