"""An ensemble too large is refused before any work (wordbias.models.train: training_cost, and the check in
train_ensemble): from the corpus's size before it is read, then from its counts before any training; with the
estimate and the way out."""
from __future__ import annotations

import pytest

from wordbias.core import costs
from wordbias.core.errors import InvalidParameterError, TooCostlyError
from wordbias.datasets import corpora
from wordbias.models import train
from wordbias.models.train import MAX_RUNS, TrainingSettings, train_ensemble, training_cost

FAST = TrainingSettings(vector_size=10, epochs=1)


def test_the_estimate_of_a_brown_run_is_the_measured_one():
    seconds, n_bytes = training_cost(1_006_060, 13_919, TrainingSettings())
    assert round(seconds) == 13                      # measured: 13 s on one core
    assert 40 * 2 ** 20 < n_bytes < 80 * 2 ** 20     # the corpus, 3 x 13,919 x 100 float32 and the tables


def test_the_estimate_grows_with_each_setting():
    base = training_cost(10 ** 6, 10 ** 4, TrainingSettings(), runs=4, workers=2)
    for change in ({"epochs": 10}, {"window": 10}, {"negative": 10}, {"vector_size": 300}):
        bigger = training_cost(10 ** 6, 10 ** 4, TrainingSettings(**change), runs=4, workers=2)
        assert bigger[0] > base[0]
    assert training_cost(10 ** 6, 10 ** 4, TrainingSettings(), runs=8, workers=2)[0] == pytest.approx(2 * base[0])
    assert training_cost(10 ** 6, 10 ** 4, TrainingSettings(), runs=4, workers=4)[0] == pytest.approx(base[0] / 2)
    memory = training_cost(10 ** 6, 10 ** 4, TrainingSettings(vector_size=1000), runs=4, workers=2)[1]
    assert memory > 2 * 3 * 10 ** 4 * 1000 * 4       # two workers, each 3 arrays of words x 1000 float32
    fasttext = training_cost(10 ** 6, 10 ** 4, TrainingSettings(method="fasttext"), runs=1)[1]
    assert fasttext > 2_000_000 * 100 * 4             # its n-gram buckets
    assert training_cost(10, 10, TrainingSettings(vector_size=2 ** 63), runs=2 ** 40)[1] > 1e20   # no overflow


def _no_reading(monkeypatch):
    def refuse(spec):
        raise AssertionError("the corpus was read before the cost was checked")
    monkeypatch.setattr(train, "load_corpus", refuse)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"settings": TrainingSettings(vector_size=10 ** 8)}, r"vector_size=100,000,000.*TiB of memory"),
    ({"seeds": 2_000_000_000}, r"training 2,000,000,000 runs \(seeds=2,000,000,000, bootstrap=0\)"),
    ({"bootstrap": 10 ** 9, "seeds": 0}, r"training 1,000,000,000 runs \(seeds=0, bootstrap=1,000,000,000\)"),
    ({"settings": TrainingSettings(epochs=10 ** 9)}, r"epochs=1,000,000,000.*days"),
    ({"settings": TrainingSettings(method="fasttext", vector_size=100_000)}, r"fasttext .*word2vec rather than "
                                                                             r"fastText"),
])
def test_refused_from_the_corpus_size_before_it_is_read(tmp_path, monkeypatch, kwargs, fragment):
    _no_reading(monkeypatch)
    with pytest.raises(TooCostlyError, match=fragment) as info:
        train_ensemble("inaugural", tmp_path / "out", workers=1, progress=False, cache_dir=tmp_path / "c", **kwargs)
    message = str(info.value)
    assert "on inaugural (about 100,909 tokens and 952 words or more, from its 788 KiB)" in message, message
    assert "is estimated to take" in message and "refused before any work. Use " in message
    assert not (tmp_path / "out").exists() and not (tmp_path / "c").exists()


def test_refused_from_the_corpus_counts_before_any_training(tmp_path, monkeypatch):
    monkeypatch.setattr(costs, "available_memory", lambda: 40 * 2 ** 20)   # 40 MiB available
    monkeypatch.setattr(train, "_train_run", lambda *a: pytest.fail("a run was trained"))
    with pytest.raises(TooCostlyError, match=r"on inaugural \(137,751 tokens, 2,744 words occurring min_count=5 "
                                             r"times or more\), 1 at a time .*memory 40 MiB: the memory this machine "
                                             r"has available now"):
        train_ensemble("inaugural", tmp_path / "out", settings=TrainingSettings(vector_size=2000), workers=1,
                       progress=False, cache_dir=tmp_path / "c")


def test_the_way_out_names_the_workers_that_fit(tmp_path, monkeypatch):
    one = training_cost(137_751, 2_744, TrainingSettings(vector_size=1000), runs=8, workers=1)[1]
    two = training_cost(137_751, 2_744, TrainingSettings(vector_size=1000), runs=8, workers=2)[1]
    monkeypatch.setattr(costs, "available_memory", lambda: int(one + 0.5 * (two - one)) + 2 * (two - one))
    with pytest.raises(TooCostlyError, match=r"8 at a time .*fewer runs at once \(workers=3, `--workers 3`\)"):
        train_ensemble("inaugural", tmp_path / "out", settings=TrainingSettings(vector_size=1000), seeds=8,
                       workers=8, progress=False, cache_dir=tmp_path / "c")


def test_max_seconds_is_the_time_budget(tmp_path, monkeypatch):
    _no_reading(monkeypatch)
    with pytest.raises(TooCostlyError, match=r"over the budget \(max_seconds=1,.*pass a larger max_seconds"):
        train_ensemble("inaugural", tmp_path / "out", settings=TrainingSettings(epochs=1000), workers=1,
                       progress=False, max_seconds=1)
    for bad in (0, -1, float("nan"), "1h", True):
        with pytest.raises(InvalidParameterError, match="max_seconds"):
            train_ensemble("inaugural", tmp_path / "out", settings=FAST, workers=1, progress=False,
                           max_seconds=bad)


def test_more_runs_than_an_ensemble_has_are_refused(tmp_path, monkeypatch):
    _no_reading(monkeypatch)
    monkeypatch.setattr(costs, "available_memory", lambda: 2 ** 50)
    with pytest.raises(InvalidParameterError, match=rf"seeds \+ bootstrap = {MAX_RUNS + 1:,} runs: an ensemble has "
                                                    rf"at most {MAX_RUNS:,} runs"):
        train_ensemble("inaugural", tmp_path / "out", settings=TrainingSettings(vector_size=2, epochs=1),
                       seeds=MAX_RUNS + 1, workers=1, progress=False, max_seconds=float("inf"))


def test_a_window_wider_than_any_sentence_is_refused():
    assert TrainingSettings(window=corpora.MAX_SENTENCE_TOKENS).window == 10_000
    with pytest.raises(InvalidParameterError, match=r"window must be at most 10,000 .*not 10,001"):
        TrainingSettings(window=10_001)


def test_an_ordinary_ensemble_passes_the_check(tmp_path):
    path = train_ensemble("inaugural", tmp_path / "out", settings=FAST, seeds=2, workers=1, progress=False,
                          cache_dir=tmp_path / "c")
    assert path.is_file()


def test_check_cost_takes_another_memory_budget():
    costs.check_cost("x", 1.0, 10 * 2 ** 30, 60, "-", max_bytes=20 * 2 ** 30)     # within: nothing happens
    with pytest.raises(TooCostlyError, match=r"memory 1 GiB: the memory left"):
        costs.check_cost("x", 1.0, 2 * 2 ** 30, 60, "-", max_bytes=2 ** 30, memory_budget="the memory left")


def test_the_machines_memory_is_read():
    total, available = costs.machine_memory(), costs.available_memory()
    assert total is None or total > 2 ** 20
    assert available is None or 0 <= available <= (total or available) * 1.01
