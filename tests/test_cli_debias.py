"""``wordbias debias``: the debiased embeddings written as word2vec binary files that load back equal, the checks
table and figure, and clear errors for a bad method or a folder that is not wordbias's."""
from __future__ import annotations

import string
import warnings

import numpy as np
import pandas as pd
import pytest

from wordbias import embeddings
from wordbias.battery import debias as battery
from wordbias.cli import main
from wordbias.cli.debias import debiased_file_name
from wordbias.core.ownership import MARKER, RUN_MANIFEST
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import debias


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A small embedding with the debiaswe pairs and professions and random words on a planted gender axis,
    saved as word2vec binary."""
    rng = np.random.default_rng(0)
    lists = debias.word_lists(False)
    named = [w for w in dict.fromkeys(list(lists.professions) + [w for p in lists.definitional_pairs for w in p])
             if "_" not in w]
    extra: dict[str, None] = {}
    while len(extra) < 200:
        extra["".join(rng.choice(list(string.ascii_lowercase), 7))] = None
    words = named + list(extra)
    V = rng.normal(size=(len(words), 10))
    V[len(named):, 0] += np.linspace(-2, 2, len(extra))
    kv = to_keyed_vectors(words, V.astype(np.float32))
    path = tmp_path_factory.mktemp("toy") / "toy.w2v.bin"
    kv.save_word2vec_format(str(path), binary=True)
    return kv, path


def _run(args, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return main(["debias", *args, "--cache-dir", str(tmp_path / "cache"), "-q"])


def test_file_name():
    assert debiased_file_name("glove-6b-50d", "double-hard") == "glove-6b-50d+double-hard.bin"
    assert debiased_file_name("toy.w2v.bin", "hard") == "toy+hard.bin"


def test_writes_the_debiased_embedding_that_loads_back_equal(toy, tmp_path):
    kv, path = toy
    out = tmp_path / "out"
    assert _run([str(path), "--method", "hard", "--no-checks", "--out", str(out)], tmp_path) == 0
    assert {p.name for p in out.iterdir()} == {MARKER, RUN_MANIFEST, "toy+hard.bin", "methods.csv"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = debias.hard_debias(kv)[0]
    back = embeddings.load(out / "toy+hard.bin", cache=False, progress=False)
    assert back.index_to_key == expected.index_to_key
    np.testing.assert_array_equal(back.vectors, expected.vectors)
    methods = pd.read_csv(out / "methods.csv")
    assert list(methods.method) == ["hard"] and methods.loc[0, "words"] == len(kv)
    # a second run into the folder it created replaces its own files
    assert _run([str(path), "--method", "hard", "--no-checks", "--out", str(out)], tmp_path) == 0


def test_a_run_s_files_land_together_or_not_at_all(toy, tmp_path, monkeypatch, capsys):
    """A rerun whose checks fail leaves the earlier run's files as they were; a file of the user's named like
    one the run writes, in a folder wordbias made, is refused before any work."""
    _, path = toy
    out = tmp_path / "out"
    assert _run([str(path), "--method", "hard", "--no-checks", "--out", str(out)], tmp_path) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken(*args, **kw):
        raise RuntimeError("the checks failed")
    monkeypatch.setattr(battery, "debias_table", broken)
    assert _run([str(path), "--method", "hard", "--seed", "3", "--out", str(out)], tmp_path) == 1
    assert "the checks failed" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    (out / "toy+leace.bin").write_bytes(b"the user's own file")
    assert _run([str(path), "--method", "leace", "--no-checks", "--out", str(out)], tmp_path) == 1
    assert "toy+leace.bin" in capsys.readouterr().err
    assert (out / "toy+leace.bin").read_bytes() == b"the user's own file"


def test_checks_table_and_figure(toy, tmp_path, monkeypatch):
    kv, path = toy

    full = battery.debias_table

    def small(original, debiased, **kw):  # the toy holds 200 words: Gonen & Goldberg's 2,500 a side do not fit
        return full(original, debiased, n_per_side=40, n_cluster_per_side=20, n_train=30, n_resamples=20,
                    n_cluster_resamples=10, restrict_vocab=kw["restrict_vocab"])
    monkeypatch.setattr(battery, "debias_table", small)
    out = tmp_path / "checked"
    assert _run([str(path), "--method", "hard", "--out", str(out)], tmp_path) == 0
    table = pd.read_csv(out / "checks.csv")
    assert list(table.method) == ["original", "hard"] and set(battery.CHECKS) <= set(table.columns)
    assert (out / "checks.png").stat().st_size > 0 and (out / "checks.pdf").stat().st_size > 0


def test_bad_method_is_a_usage_error(toy, tmp_path, capsys):
    _, path = toy
    assert _run([str(path), "--method", "lipstick", "--out", str(tmp_path / "o")], tmp_path) == 2
    assert "invalid choice: 'lipstick'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_folder_not_wordbias_s_is_refused(toy, tmp_path, capsys):
    _, path = toy
    mine = tmp_path / "thesis"
    mine.mkdir()
    (mine / "notes.md").write_text("mine")
    assert _run([str(path), "--method", "hard", "--no-checks", "--out", str(mine)], tmp_path) == 1
    err = capsys.readouterr().err
    assert "wordbias: error: refusing to write into" in err and "wordbias did not create it" in err
    assert sorted(p.name for p in mine.iterdir()) == ["notes.md"]
    file = tmp_path / "a_file"
    file.write_text("x")
    assert _run([str(path), "--method", "hard", "--no-checks", "--out", str(file)], tmp_path) == 1


def test_an_empty_folder_is_claimed(toy, tmp_path):
    _, path = toy
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _run([str(path), "--method", "hard", "--no-checks", "--out", str(empty)], tmp_path) == 0
    assert (empty / MARKER).is_file() and (empty / "toy+hard.bin").is_file()


def test_a_small_vocabulary_gets_word_selections_sized_to_it(toy, tmp_path):
    """INLP's and LEACE's 7,500 words a class need 22,500 candidates; a small embedding (one trained on a small
    corpus) gets a quarter of its vocabulary a class instead of an error."""
    _, path = toy
    assert _run([str(path), "--method", "inlp", "--method", "leace", "--no-checks", "--out", str(tmp_path / "o")],
                tmp_path) == 0
    for method in ("inlp", "leace"):
        assert len(list((tmp_path / "o").glob(f"*+{method}.bin"))) == 1
