"""The ladder of planted bias (wordbias.models.ladder): trained twice it gives the same vectors and ladder.json,
rate 0 is the unswapped ensemble (its cached runs reused), every rate has the same training seeds, load_ladder
round-trips and refuses a changed ladder, and a folder that is not a ladder's is refused and left as it is."""
import json

import numpy as np
import pytest

from wordbias.core.errors import EnsembleError, FolderNotOursError, InvalidParameterError
from wordbias.datasets.corpora import CorpusSpec
from wordbias.datasets.swap import SwapSpec
from wordbias.models.ladder import LadderSpec, load_ladder, train_ladder
from wordbias.models.train import TrainingSettings, train_ensemble

TINY = TrainingSettings(vector_size=10, epochs=1, min_count=1)
WORDS = "he she man woman king queen the a of and was said met saw at home work city".split()
RATES = (0.0, 0.5, 1.0)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """300 random sentences of eight words (2,400 tokens), pair words among them, one document a line."""
    path = tmp_path_factory.mktemp("ladder-corpus") / "corpus.txt"
    rng = np.random.default_rng(0)
    path.write_text("".join(" ".join(rng.choice(WORDS, 8)) + "\n" for _ in range(300)), encoding="utf-8")
    return CorpusSpec(str(path))


def _ladder(corpus, root, **options):
    options = {"seeds": 2, "workers": 1, "progress": False, "cache_dir": root / "cache", **options}
    return train_ladder(corpus, root / "ladder", LadderSpec(RATES, [("he", "she"), ("king", "queen")]),
                        settings=TINY, **options)


def _vectors(ladder_json) -> dict:
    """(rate, run id) -> vectors.npy SHA-256, from each rate's manifest."""
    data = json.loads(ladder_json.read_text())
    found = {}
    for entry in data["ensembles"]:
        manifest = json.loads((ladder_json.parent / entry["path"]).read_text())
        found.update({(entry["rate"], r["id"]): r["vectors_sha256"] for r in manifest["runs"]})
    return found


@pytest.fixture(scope="module")
def trained(corpus, tmp_path_factory):
    return _ladder(corpus, tmp_path_factory.mktemp("ladder-one"))


def test_trained_twice_the_ladder_is_the_same(corpus, trained, tmp_path):
    again = _ladder(corpus, tmp_path)                       # another cache: every run trained again
    assert json.loads((tmp_path / "ladder" / "timings.json").read_text())["trained"] == 6
    assert again.read_bytes() == trained.read_bytes()
    first, second = _vectors(trained), _vectors(again)
    assert first == second and len(first) == 6
    assert first[(0.5, "seed-1")] not in (first[(0.0, "seed-1")], first[(0.5, "seed-2")])
    # rate 1 only renames the pair words: the same vectors.npy, the pair words' rows exchanged (load_ladder's test)
    assert first[(1.0, "seed-1")] == first[(0.0, "seed-1")]


def test_every_rate_has_the_same_seeds_and_rate_0_is_the_unswapped_ensemble(corpus, trained, tmp_path):
    data = json.loads(trained.read_text())
    manifests = [json.loads((trained.parent / e["path"]).read_text()) for e in data["ensembles"]]
    assert {tuple(r["training_seed"] for r in m["runs"]) for m in manifests} == {(1, 2)}
    assert "swap" not in manifests[0]["corpus"]["tokenisation"]
    assert manifests[2]["corpus"]["tokenisation"]["swap"]["rate"] == 1.0
    assert [e["n_sentences_swapped"] for e in data["ensembles"]] == [0, pytest.approx(150, abs=45), 300]
    plain = train_ensemble(corpus, tmp_path / "plain", settings=TINY, seeds=2, workers=1, progress=False,
                           cache_dir=trained.parent.parent / "cache")
    assert [r["cache_key"] for r in json.loads(plain.read_text())["runs"]] == [r["cache_key"] for r in manifests[0]["runs"]]
    assert json.loads((plain.parent / "timings.json").read_text())["trained"] == 0    # the ladder's rate-0 runs


def test_a_ladder_reuses_the_unswapped_runs_already_trained(corpus, tmp_path):
    train_ensemble(corpus, tmp_path / "plain", settings=TINY, seeds=2, workers=1, progress=False,
                   cache_dir=tmp_path / "cache")
    timings = json.loads((_ladder(corpus, tmp_path).parent / "timings.json").read_text())
    assert timings["trained"] == 4
    assert timings["runs"]["rate-0/seed-1"] is None and timings["runs"]["rate-1/seed-1"] is not None


def test_load_ladder_round_trips(trained):
    ladder = load_ladder(trained.parent)
    assert ladder.rates == RATES and len(ladder) == 3 and ladder.swap_seed == 0
    assert ladder.pairs == (("he", "she"), ("king", "queen"))
    assert [e.label for e in ladder.ensembles] == ["rate-0", "rate-0.5", "rate-1"]
    assert [e.runs for e in ladder.ensembles] == [("seed-1", "seed-2")] * 3
    zero, one = ladder.ensembles[0].load(0), ladder.ensembles[2].load(0)
    assert one.vectors.shape == (len(WORDS), 10)
    for a, b in (("he", "she"), ("king", "queen"), ("the", "the")):
        assert np.array_equal(zero[a], one[b]) and (a == b or not np.array_equal(zero[a], one[a]))
    assert load_ladder(trained).path == trained


def test_load_ladder_refuses_a_changed_rate(corpus, tmp_path):
    path = _ladder(corpus, tmp_path)
    manifest = path.parent / "rate-0.5" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"seed": 0', '"seed": 9'))
    with pytest.raises(EnsembleError, match="rate 0.5: .* has another SHA-256 than ladder.json records"):
        load_ladder(path)
    with pytest.raises(EnsembleError, match="no such file"):
        load_ladder(tmp_path / "cache")


def test_a_folder_not_a_ladder_s_is_refused_and_kept(corpus, tmp_path):
    out = tmp_path / "ladder"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(FolderNotOursError, match="holds no ladder of train_ladder"):
        _ladder(corpus, tmp_path)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_an_earlier_ladder_is_replaced_but_not_with_a_foreign_file_in_it(corpus, tmp_path):
    path = _ladder(corpus, tmp_path, seeds=1)
    assert _ladder(corpus, tmp_path, seeds=1) == path        # its own folder: replaced
    (path.parent / "rate-0.5" / "notes.txt").write_text("mine")
    with pytest.raises(FolderNotOursError, match="notes.txt"):
        _ladder(corpus, tmp_path, seeds=1)
    assert (path.parent / "rate-0.5" / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("ladder, message", [
    ((0.5, 0.5), "given more than once"),
    ((0.0, 1.5), "1.5 is not a swap rate"),
    ((), "non-empty list of swap rates"),
])
def test_bad_rates_are_refused(corpus, tmp_path, ladder, message):
    with pytest.raises(InvalidParameterError, match=message):
        train_ladder(corpus, tmp_path / "x", ladder, settings=TINY, progress=False)
    assert not (tmp_path / "x").exists()


def test_a_swapped_corpus_is_refused(corpus, tmp_path):
    swapped = CorpusSpec(corpus.source, swap=SwapSpec("bolukbasi", 0.5))
    with pytest.raises(InvalidParameterError, match="the ladder's corpus must be unswapped"):
        train_ladder(swapped, tmp_path / "x", settings=TINY, progress=False)
