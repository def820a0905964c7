"""`wordbias validity LADDER --out DIR`: a tiny ladder measured by the command gives its files (every measure on
every run, the validity table tidy and wide, the means per rate, the figure) and the table on stdout, the same
bytes when run again, and a folder that is not a ladder, an --out inside the ladder or an unknown measure is
refused in one line before any work."""
import contextlib
import io

import numpy as np
import pandas as pd
import pytest

from wordbias import cli
from wordbias.battery.validity import LEFT_OUT, ladder_lists, ladder_tests
from wordbias.core import tidy
from wordbias.models.ladder import LadderSpec, train_ladder
from wordbias.models.train import TrainingSettings, train_ensemble

TINY = TrainingSettings(vector_size=10, epochs=1, min_count=1)
PAIRS = [("he", "she"), ("man", "woman"), ("boy", "girl"), ("father", "mother"), ("son", "daughter")]
RATES = (0.0, 0.5, 1.0)
#: few draws: the command's numbers are checked for their place and their repeatability, not their precision
FEW = ["--n-permutations", "20", "--n-resamples", "10", "--n-splits", "2", "--table-resamples", "20"]
#: a measure against the rate, one against the strength, one without a test, and RNSB (its own resampling): the
#: command's paths (every measure on a ladder: tests/battery/test_validity.py); the figure of all twelve takes ~4 s
MEASURES = ["weat", "ect", "mac", "rnsb"]
FILES = ["ladder.pdf", "ladder.png", "rate_means.csv", "runs.csv", "tidy.csv", "validity.csv"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """300 random sentences of eight words: the pairs' words and the ladder's career, family, pleasant and
    unpleasant words and a few professions and occupations, one document a line."""
    lists = ladder_lists()
    words = sorted({w for p in PAIRS for w in p} | set(lists["career"] + lists["family"] + lists["pleasant"][:10]
                                                       + lists["unpleasant"][:10] + lists["professions"][:10]
                                                       + lists["occupations"][:10]))
    path = tmp_path_factory.mktemp("validity-corpus") / "corpus.txt"
    rng = np.random.default_rng(0)
    path.write_text("".join(" ".join(rng.choice(words, 8)) + "\n" for _ in range(300)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def ladder(corpus, tmp_path_factory):
    """3 rates x 2 seeds, trained through the Python API; returns the ladder's folder."""
    root = tmp_path_factory.mktemp("validity-ladder")
    path = train_ladder(str(corpus), root / "ladder", LadderSpec(RATES, PAIRS), settings=TINY, seeds=2, workers=1,
                        progress=False, cache_dir=root / "cache")
    return path.parent


@pytest.fixture(scope="module")
def measured(ladder, tmp_path_factory):
    """The command run twice into two folders, the second --quiet: (exit status, stdout) of each, and the
    folders."""
    base = tmp_path_factory.mktemp("validity-out")
    done = []
    for name, quiet in (("one", []), ("two", ["-q"])):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = cli.main(["validity", str(ladder), "--out", str(base / name), "--measures", ",".join(MEASURES),
                             *quiet, *FEW])
        done.append((code, printed.getvalue()))
    return done, base / "one", base / "two"


def test_the_command_writes_every_file_and_prints_the_table(measured):
    ((code, printed), _), out, _ = measured
    assert code in (0, cli.EXIT_NOT_RUN)
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == FILES
    runs = pd.read_csv(out / "runs.csv")
    measures = [m for m in ladder_tests() if m in MEASURES]
    assert len(runs) == len(RATES) * 2 * len(measures)
    assert sorted(set(zip(runs["rate"], runs["run"]))) == [(r, i) for r in RATES for i in (0, 1)]
    assert set(runs["measure"]) == set(measures)
    # rate 1 renames the pairs' words into each other (the same vectors, the rows exchanged): WEAT's d is mirrored
    weat = runs[runs.measure == "weat"].set_index(["rate", "run"])["effect_size"]
    assert weat.loc[1.0].to_numpy() == pytest.approx(-weat.loc[0.0].to_numpy(), abs=1e-5)
    assert weat.loc[0.0].abs().min() > 0
    wide = pd.read_csv(out / "validity.csv", index_col=0)
    assert sorted(wide.index) == sorted(measures + list(LEFT_OUT))
    assert {"validity", "validity low", "test-retest ICC at rate 0", "split-half", "flagged at rate 0.5"} \
        <= set(wide.columns)
    table = tidy.read_tidy(out / "tidy.csv")
    assert set(table.test) >= {"validity", "test-retest ICC at rate 0", "split-half", "flagged at rate 0.5"}
    means = pd.read_csv(out / "rate_means.csv")
    assert set(means.rate) == set(RATES) and means.n.max() == 2
    assert "6 runs at rates 0, 0.5, 1; 5 of 5 pairs known to every run" in printed
    lines = printed.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("measure"))
    assert "validity rho [95% CI]" in lines[header] and "flagged at rate 0.5" in lines[header]
    shown = [line.split()[0] for line in lines[header + 1:header + 1 + len(wide)]]
    assert sorted(shown) == sorted(wide.index)
    assert "ube" in printed and "not measured" in printed
    assert f"wrote {out / 'runs.csv'}" in printed


def test_two_runs_give_the_same_files_and_quiet_prints_nothing(measured):
    (first, (code, printed)), one, two = measured
    assert code == first[0] and printed == ""
    for name in FILES:
        if name.endswith(".csv"):
            assert (one / name).read_bytes() == (two / name).read_bytes(), name


@pytest.fixture(scope="module")
def ensemble(corpus, ladder):
    """An ensemble of `wordbias train` without --swap-rate (the ladder's rate-0 runs, from the cache)."""
    manifest = train_ensemble(str(corpus), ladder.parent / "plain", settings=TINY, seeds=1, workers=1,
                              progress=False, cache_dir=ladder.parent / "cache")
    return manifest.parent


@pytest.mark.parametrize("target, options, message", [
    ("ensemble", [], "an ensemble of `wordbias train` without --swap-rate"),
    ("missing", [], "no such folder or file"),
    ("ladder", ["--measures", "ube"], "ube: not measured: UBE"),
    ("ladder", ["--measures", "weat,weat"], "each once"),
    ("ladder", ["--out-inside"], "inside the ladder's folder"),
])
def test_bad_input_is_refused_before_any_work(ladder, ensemble, tmp_path, capsys, target, options, message):
    given = {"ensemble": ensemble, "missing": tmp_path / "no-ladder", "ladder": ladder}[target]
    out = ladder / "out" if options == ["--out-inside"] else tmp_path / "out"
    options = [o for o in options if o != "--out-inside"]
    assert cli.main(["validity", str(given), "--out", str(out), *options]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    if target != "missing":
        assert "wordbias train CORPUS --swap-rate" in err or target == "ladder"
    assert not out.exists()


def test_a_folder_of_yours_is_refused_without_force(ladder, tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert cli.main(["validity", str(ladder), "--out", str(out), "-q", "--measures", "weat", *FEW]) == 1
    assert "--force" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
