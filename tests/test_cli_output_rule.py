"""One output rule for every command that writes (:func:`wordbias.cli.output.prepare_out`): ``--out`` must be new,
empty, or a folder wordbias made; a folder of the user's is refused before any work (before an embedding is
loaded), naming the folder and the way out; ``--force`` writes into it, keeping the user's other files; and a run
that fails leaves no empty folder behind that it created."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from errors.catalogue import run_cli, snapshot

from wordbias.core.ownership import MARKER, RUN_MANIFEST

LISTS = """\
battery: toy
weat:
  - id: flowers
    title: Flowers vs insects
    targets:
      X: {name: Flowers, words: [rose, tulip, daisy, lily]}
      Y: {name: Insects, words: [ant, wasp, flea, moth]}
    attributes:
      A: {name: Pleasant, words: [love, peace, joy]}
      B: {name: Unpleasant, words: [hate, war, grief]}
"""
WORDS = ["rose", "tulip", "daisy", "lily", "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate", "war",
         "grief"] + [f"filler{i}" for i in range(10)]
#: what a refusal of a folder of the user's says: the folder, that wordbias did not make it, and the ways out
REFUSED = "wordbias: error: refusing to write into {folder}: wordbias did not create it"
WAYS_OUT = ("give a new or an empty folder", "or --force to write into this one anyway")


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A tiny embedding and a lists file in tmp_path (caches there too); returns (embedding, lists)."""
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(len(WORDS), 6))
    emb = tmp_path / "mine.w2v.txt"
    emb.write_text(f"{len(WORDS)} 6\n" + "".join(w + " " + " ".join(f"{x:.6f}" for x in row) + "\n"
                                               for w, row in zip(WORDS, vectors)), encoding="utf-8")
    lists = tmp_path / "lists.yaml"
    lists.write_text(LISTS, encoding="utf-8")
    return emb, lists


def _users_folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "myproj2"
    folder.mkdir()
    for name, text in {"notes.txt": "my notes\n", **files}.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _weat(emb, lists, out, *extra):
    return run_cli(["weat", emb, "--lists", lists, "--out", out, "-q", "--n-resamples", "20",
                    "--n-permutations", "200", *extra])


def test_weat_into_a_folder_of_the_users_is_refused_before_any_work(tmp_path, files):
    emb, lists = files
    users = _users_folder(tmp_path)
    before = snapshot(users)
    code, err = _weat(emb, lists, users)
    assert code == 1
    assert err.startswith(REFUSED.format(folder=users)) and "(notes.txt)" in err, err
    assert all(way in err for way in WAYS_OUT), err
    assert snapshot(users) == before and sorted(p.name for p in users.iterdir()) == ["notes.txt"]
    assert not (tmp_path / "cache").exists()          # refused before the embedding was loaded (no cache made)


def test_weat_with_force_writes_beside_the_users_files_and_replaces_a_file_of_the_same_name(tmp_path, files):
    emb, lists = files
    users = _users_folder(tmp_path, **{"summary.html": "<p>my own page</p>\n"})
    code, err = _weat(emb, lists, users)
    assert code == 1 and "summary.html is a file wordbias did not write" in err and "--force" in err, err
    code, err = _weat(emb, lists, users, "--force")
    assert code == 0, err
    assert (users / "notes.txt").read_text(encoding="utf-8") == "my notes\n"
    assert "my own page" not in (users / "summary.html").read_text(encoding="utf-8")
    assert {"tidy.csv", "summary.html", RUN_MANIFEST} <= {p.name for p in users.iterdir()}
    # a folder wordbias has written into: a rerun without --force replaces its own files, keeps the user's
    code, err = _weat(emb, lists, users)
    assert code == 0, err
    assert (users / "notes.txt").read_text(encoding="utf-8") == "my notes\n"


def test_an_empty_folder_of_the_users_is_written_and_claimed(tmp_path, files):
    emb, lists = files
    empty = tmp_path / "empty"
    empty.mkdir()
    code, err = _weat(emb, lists, empty)
    assert code == 0, err
    assert (empty / MARKER).is_file() and (empty / "tidy.csv").is_file()


def _missing(tmp_path: Path, argv: list[str]) -> list[str]:
    """``argv`` with each ``missing...`` input made a path under ``tmp_path`` (a model is then never looked up
    on the Hugging Face hub)."""
    return [str(tmp_path / a) if a.startswith("missing") else a for a in argv]


@pytest.mark.parametrize("argv", [
    ["weat", "missing.txt"],
    ["report", "missing.txt"],
    ["compare", "missing-a.txt", "missing-b.txt"],
    ["seat", "missing-model"],
    ["contextual", "missing-model"],
    ["debias", "missing.txt", "--method", "hard"],
    ["validity", "missing-ladder"],
], ids=lambda argv: argv[0])
def test_every_writing_command_refuses_a_folder_of_the_users_first_and_offers_force(tmp_path, monkeypatch, argv):
    """The embedding or model does not exist: the folder's refusal comes first, so the rule is applied before
    anything is loaded."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    argv = _missing(tmp_path, argv)
    users = _users_folder(tmp_path)
    code, err = run_cli([*argv, "--out", users])
    assert code == 1 and err.startswith(REFUSED.format(folder=users)), err
    assert all(way in err for way in WAYS_OUT), err
    assert sorted(p.name for p in users.iterdir()) == ["notes.txt"]
    code, err = run_cli([*argv, "--out", users, "--force"])
    assert code == 1 and "refusing" not in err, err          # forced past the rule: the missing input's error


def test_train_refuses_a_folder_of_the_users_before_reading_the_corpus_and_has_no_force(tmp_path):
    """The ensemble takes the folder's place as a whole: a folder of the user's is refused (another folder is
    the way out), before the corpus is read."""
    users = _users_folder(tmp_path)
    code, err = run_cli(["train", tmp_path / "missing-corpus.txt", "--out", users])
    assert code == 1 and err.startswith(REFUSED.format(folder=users)), err
    assert "give a new or an empty folder" in err and "--force" not in err, err
    code, err = run_cli(["train", tmp_path / "missing-corpus.txt", "--out", users, "--force"])
    assert code == 2 and "unrecognized arguments: --force" in err, err


def test_a_bad_list_file_leaves_no_out_folder(tmp_path, files):
    emb, _ = files
    bad = tmp_path / "bad.yaml"
    bad.write_text("battery: toy\nweat: [\n", encoding="utf-8")
    code, err = _weat(emb, bad, tmp_path / "out")
    assert code == 1 and "bad.yaml" in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [
    ["weat", "missing.txt"],
    ["report", "missing.txt"],
    ["debias", "missing.txt", "--method", "hard"],
    ["validity", "missing-ladder"],
], ids=lambda argv: argv[0])
def test_a_run_that_fails_before_measuring_leaves_no_folder_it_created(tmp_path, argv):
    """The folder (and its parents the run created) is made before the embedding is loaded; the load fails and
    none of them is left behind. A folder that was there before is kept."""
    argv = _missing(tmp_path, argv)
    code, err = run_cli([*argv, "--out", tmp_path / "new" / "a" / "b"])
    assert code == 1 and "missing" in err, err
    assert not (tmp_path / "new").exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    code, err = run_cli([*argv, "--out", kept / "b"])
    assert code == 1 and kept.is_dir() and list(kept.iterdir()) == []


def test_the_short_table_names_the_battery_of_a_test_run_in_several():
    from wordbias.cli.output import short_table
    from wordbias.core.tidy import tidy_frame

    rows = [{"embedding": "m", "battery": f"stereoset:{task}:mean", "test": "overall", "measure": "stereoset_ss",
             "effect_size_name": "SS", "effect_size": v} for task, v in (("intrasentence", 60.0), ("intersentence", 50.0))]
    text = short_table(tidy_frame(rows))
    assert "stereoset:intrasentence:mean overall" in text and "stereoset:intersentence:mean overall" in text
    assert "stereoset:" not in short_table(tidy_frame(rows[:1]))          # one battery: the test alone
