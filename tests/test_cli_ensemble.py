"""`wordbias train` and the measuring commands on an ensemble, end to end on a small synthetic corpus."""
import json

import numpy as np
import pandas as pd
import pytest

from wordbias import cli
from wordbias.core import tidy

LISTS = """\
battery: toy
weat:
  - id: career
    targets:
      X: {name: Male, words: [john, paul, mike, kevin]}
      Y: {name: Female, words: [amy, joan, lisa, sarah]}
    attributes:
      A: {name: Career, words: [office, salary, business, career]}
      B: {name: Family, words: [home, children, family, parents]}
"""
MALE, FEMALE = ["john", "paul", "mike", "kevin"], ["amy", "joan", "lisa", "sarah"]
CAREER, FAMILY = ["office", "salary", "business", "career"], ["home", "children", "family", "parents"]
FILLER = [f"word{i}" for i in range(60)]


def _corpus(folder):
    """120 documents in which male names and career words share their contexts, as female names and family words
    share theirs: words with the same contexts get similar vectors (the distributional hypothesis)."""
    rng = np.random.default_rng(0)
    context = {side: [f"{side}ctx{i}" for i in range(15)] for side in "mf"}
    folder.mkdir()
    for d in range(120):
        lines = []
        for _ in range(30):
            side = "m" if rng.random() < 0.5 else "f"
            words = [rng.choice(MALE + CAREER if side == "m" else FEMALE + FAMILY)]
            words += list(rng.choice(context[side], size=5)) + list(rng.choice(FILLER, size=2))
            rng.shuffle(words)
            lines.append(" ".join(words) + ".")
        (folder / f"doc{d:03d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    root = tmp_path_factory.mktemp("ens")
    corpus = _corpus(root / "corpus")
    mp = pytest.MonkeyPatch()
    mp.setenv("WORDBIAS_CACHE", str(root / "cache"))
    out = root / "runs"
    code = cli.main(["train", str(corpus), "--seeds", "2", "--bootstrap", "1", "--dim", "16", "--epochs", "10",
                     "--min-count", "2", "--workers", "1", "--out", str(out), "-q"])
    yield code, root, out
    mp.undo()


def test_train_writes_runs_and_a_manifest(trained):
    code, _, out = trained
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert [r["id"] for r in manifest["runs"]] == ["seed-1", "seed-2", "bootstrap-1"]
    assert manifest["settings"]["vector_size"] == 16 and manifest["corpus"]["n_documents"] == 120


def test_weat_on_the_ensemble_combines_the_runs(trained, capsys, monkeypatch):
    _, root, out = trained
    monkeypatch.setenv("WORDBIAS_CACHE", str(root / "cache"))
    lists = root / "lists.yaml"
    lists.write_text(LISTS, encoding="utf-8")
    res = root / "res"
    code = cli.main(["weat", str(out), "--lists", str(lists), "--out", str(res), "--n-resamples", "300",
                     "--workers", "1"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "combined over the runs" in printed
    t = tidy.read_tidy(res / "tidy.csv")
    assert list(t.embedding) == ["runs/seed-1", "runs/seed-2", "runs/bootstrap-1", "runs"]
    combined = t.iloc[-1]
    assert combined.effect_size == pytest.approx(t.effect_size[:3].mean(), abs=1e-5)
    assert combined.effect_size > 1 and combined.ci_low < combined.effect_size < combined.ci_high
    summary = pd.read_csv(res / "ensemble.csv")
    assert summary.loc[0, "n_runs"] == 3 and 0 < summary.loc[0, "test_retest"] <= 1
    assert (res / "runs.png").stat().st_size > 0


def test_train_refuses_a_folder_it_did_not_write(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("keep me")
    code = cli.main(["train", "inaugural", "--seeds", "1", "--out", str(mine), "-q"])
    err = capsys.readouterr().err
    assert code == 1 and "wordbias: error:" in err and len(err.strip().splitlines()) == 1
    assert (mine / "thesis.tex").read_text() == "keep me"


@pytest.mark.parametrize("content, message", [(b"", "empty"), (b"\x00\x01\x02binary", "binary")])
def test_a_bad_corpus_is_one_line_before_any_training(tmp_path, capsys, content, message):
    f = tmp_path / "corpus.txt"
    f.write_bytes(content)
    code = cli.main(["train", str(f), "--seeds", "1", "--out", str(tmp_path / "o"), "-q"])
    err = capsys.readouterr().err
    assert code == 1 and message in err.lower() and not (tmp_path / "o" / "manifest.json").exists()


def test_train_needs_a_run(tmp_path, capsys):
    assert cli.main(["train", "inaugural", "--seeds", "0", "--out", str(tmp_path / "o")]) == 1
    assert "nothing to train" in capsys.readouterr().err
