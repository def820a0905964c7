"""`wordbias train --swap-rate`: the command writes a ladder (one ensemble per rate, ladder.json) that
load_ladder opens, with a user's pairs and seed, and refuses bad options in one line before any training."""
import json

import numpy as np
import pytest

from wordbias import cli
from wordbias.models.ladder import load_ladder

WORDS = "he she king queen the a of and was said met saw at home work city".split()


@pytest.fixture
def corpus(tmp_path):
    """200 random sentences of eight words, one document a line."""
    rng = np.random.default_rng(1)
    path = tmp_path / "corpus.txt"
    path.write_text("".join(" ".join(rng.choice(WORDS, 8)) + "\n" for _ in range(200)), encoding="utf-8")
    return path


def _train(corpus, out, *options):
    return cli.main(["train", str(corpus), "--out", str(out), "--seeds", "1", "--dim", "8", "--epochs", "1",
                     "--min-count", "1", "--workers", "1", "--cache-dir", str(out.parent / "cache"), *options])


def test_the_command_writes_a_ladder(corpus, tmp_path, capsys):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("male,female\nHe,She\n", encoding="utf-8")
    out = tmp_path / "ladder"
    assert _train(corpus, out, "--swap-rate", "1,0", "--swap-pairs", str(pairs), "--swap-seed", "4",
                  "--bootstrap", "1") == 0
    printed = capsys.readouterr().out
    assert "trained a ladder of 2 rates x 2 runs" in printed and f"wrote {out / 'ladder.json'}" in printed
    assert "measure a rate: wordbias weat" in printed
    ladder = load_ladder(out)
    assert ladder.rates == (0.0, 1.0) and ladder.pairs == (("he", "she"),) and ladder.swap_seed == 4
    assert [e.runs for e in ladder.ensembles] == [("seed-1", "bootstrap-1")] * 2
    data = json.loads((out / "ladder.json").read_text())
    assert data["pairs"]["source"] == str(pairs) and data["command"] is None   # not run from the shell
    assert data["ensembles"][1]["n_sentences_swapped"] == 200


@pytest.mark.parametrize("options, message", [
    (["--swap-rate", "0,1.5"], "item 2 ('1.5') is not a rate"),
    (["--swap-rate", "0,,1"], "item 2 ('') is not a rate"),
    (["--swap-rate", "0.5,.50"], "the rate .50 is given twice"),
    (["--swap-seed", "3"], "--swap-seed applies to a ladder of swapped corpora: give --swap-rate too"),
    (["--swap-rate", "0,1", "--swap-pairs", "no-such-pairs"], "neither a shipped pair list"),
])
def test_bad_swap_options_are_refused_before_any_training(corpus, tmp_path, capsys, options, message):
    out = tmp_path / "ladder"
    assert _train(corpus, out, "-q", *options) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and not (tmp_path / "cache").exists()
