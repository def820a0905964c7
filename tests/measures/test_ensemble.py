"""A test measured on an ensemble of runs: the runs, the combined interval, reliability, and the one-call API."""
import math
import warnings

import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import EmbeddingFormatError, EnsembleError, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.embeddings.ensemble import load_ensemble
from wordbias.measures import ensemble
from wordbias.measures.association import measurement
from wordbias.options import Resampling

WORDS = ["rose", "tulip", "lily", "daisy", "ant", "wasp", "moth", "flea",
         "love", "joy", "peace", "cheer", "hate", "war", "ugly", "grief"]
X, Y, A, B = WORDS[:4], WORDS[4:8], WORDS[8:12], WORDS[12:]


def runs(noise: float, n: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(16, 10))
    base[:4, 0] += 2
    base[8:12, 0] += 2
    return [to_keyed_vectors(WORDS, base + rng.normal(0, noise, base.shape)) for _ in range(n)]


def measure(kvs, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ensemble.on_runs(wb.weat, kvs, X, Y, A, B, label="toy", **kw)


def R(n_resamples: int) -> Resampling:
    """The measures' own resampling with ``n_resamples`` bootstrap resamples."""
    return measurement.DEFAULT_RESAMPLING.replace(n_resamples=n_resamples)


def test_each_run_is_measured_as_alone_and_summarised():
    kvs = runs(0.3)
    r = measure(kvs, resampling=R(500))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = [wb.weat(kv, X, Y, A, B, resampling=Resampling(n_resamples=500, n_permutations=100_000)) for kv in kvs]
    assert [m.effect_size for m in r.per_run] == [m.effect_size for m in alone]
    d = np.array([m.effect_size for m in alone])
    assert r.effect_size == pytest.approx(d.mean()) and r.effect_size_sd == pytest.approx(d.std(ddof=1))
    assert (r.effect_size_min, r.effect_size_max) == (d.min(), d.max())
    assert r.share_significant == np.mean([m.p_value < 0.05 for m in alone])
    # W is the joint word bootstrap's: the same resamples of the words in every run, d averaged over the runs
    records = [ensemble._run_cosines(kv, m.result) for kv, m in zip(kvs, alone)]
    w = ensemble.joint_word_variance([rec.C for rec in records], 4, 4, n_resamples=500, seed=0)
    low, high = [m.ci_low for m in alone], [m.ci_high for m in alone]
    c = ensemble.combine_runs(d, low, high, within_variance=w, within_method="joint")
    c = ensemble.in_range("weat", c, d, low, high, within_variance=w, within_method="joint")   # d stays in [-2, 2]
    # (the library's cosine matrix is a copy of the same values in another memory layout: sums may differ in the
    # last bits, so equal to 1e-6, far below any interval's Monte Carlo error)
    assert (r.ci_low, r.ci_high) == pytest.approx((c.ci_low, c.ci_high), rel=1e-6)
    assert r.combined.within_variance == pytest.approx(w, rel=1e-6)
    assert "one word bootstrap of 500 resamples applied to every run" in r.combined.method
    assert r.ci_low < r.effect_size < r.ci_high


def test_combined_interval_lies_between_the_runs_only_and_the_conservative_one():
    r = measure(runs(0.8), resampling=R(500))
    d = [m.effect_size for m in r.per_run]
    runs_only = ensemble.combine_runs(d, [np.nan] * 5, [np.nan] * 5)
    conservative = ensemble.combine_runs(d, [m.ci_low for m in r.per_run], [m.ci_high for m in r.per_run])
    width = r.ci_high - r.ci_low
    assert runs_only.ci_high - runs_only.ci_low < width < conservative.ci_high - conservative.ci_low


def test_reliability_falls_with_run_noise():
    quiet, noisy = measure(runs(0.05), resampling=R(0)), measure(runs(1.0), resampling=R(0))
    assert quiet.test_retest > 0.95 and noisy.test_retest < quiet.test_retest - 0.2
    assert quiet.n_shared_words == 8
    assert math.isfinite(quiet.consistency_pairs) and math.isfinite(quiet.consistency_words)


def test_a_word_missing_from_one_run_is_left_out_of_test_retest_only():
    kvs = runs(0.2, n=3)
    keep = [w for w in WORDS if w != "rose"]
    kvs[1] = to_keyed_vectors(keep, np.array([kvs[1][w] for w in keep]))
    r = measure(kvs, resampling=R(0))
    # that run uses 3 of X and, balanced at random, 3 of Y: the words every run used are 3 + 3
    assert len(r.per_run[1].sets[0].used) == 3 and len(r.per_run[1].sets[1].used) == 3
    assert r.n_shared_words == 6 and r.n_runs == 3


def test_the_one_call_api_refuses_an_ensemble_and_names_on_runs():
    ens = load_ensemble(runs(0.3, n=3), label="toy")
    for call in (lambda: wb.weat(ens, X, Y, A, B, resampling=Resampling(n_resamples=0, n_permutations=100_000)),
                 lambda: measurement.weats(ens, [{"id": "t", "X": X, "Y": Y, "A": A, "B": B}]),
                 lambda: measurement.wefat(ens, X, A, B, [1, 2, 3, 4])):
        with pytest.raises(InvalidParameterError, match="ensemble of training runs.*on_runs"):
            call()


def test_a_battery_on_runs_gives_one_combined_result_per_test():
    ens = load_ensemble(runs(0.3, n=3), label="toy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = ensemble.on_runs(wb.weat, ens, X, Y, A, B, resampling=R(0))
        s, t = ensemble.on_runs(measurement.weats, ens, [{"id": "t", "X": X, "Y": Y, "A": A, "B": B},
                                                                     {"id": "u", "X": Y, "Y": X, "A": A, "B": B}],
                                resampling=R(0))
    assert isinstance(r, ensemble.EnsembleMeasurement) and r.ensemble == "toy"
    assert s.effect_size == pytest.approx(r.effect_size) and (s.test, t.test) == ("t", "u")
    assert s.test_retest == pytest.approx(r.test_retest) and t.effect_size == pytest.approx(-r.effect_size)
    assert "ensemble toy" in str(r) and "<table>" in r._repr_html_()
    assert list(r.runs_frame().run) == ["run-1", "run-2", "run-3"]
    assert r.to_frame().loc[0, "n_runs"] == 3


def test_a_measure_that_returns_no_result_is_refused():
    with pytest.raises(InvalidParameterError, match="not a wordbias.result.Result"):
        ensemble.on_runs(lambda kv: 1.0, runs(0.1, n=2))


def test_a_warning_of_every_run_is_given_once_with_its_count():
    def warns(kv):
        warnings.warn("the same in every run", UserWarning, stacklevel=2)
        return wb.weat(kv, X, Y, A, B, resampling=Resampling(n_resamples=0, n_permutations=100_000))

    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        ensemble.on_runs(warns, runs(0.1, n=3))
    mine = [str(w.message) for w in got if "the same in every run" in str(w.message)]
    assert mine == ["the same in every run (in 3 of 3 runs)"]


def test_a_test_that_runs_nowhere_says_so():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [r] = ensemble.on_runs(measurement.weats, runs(0.1, n=2),
                               [{"id": "t", "X": ["nope", "none"], "Y": Y, "A": A, "B": B}], resampling=R(0))
    assert r.n_runs == 0 and math.isnan(r.effect_size) and len(r.not_run) == 2 and r.combined is None


def test_bad_ensembles_are_refused(tmp_path):
    with pytest.raises(InvalidParameterError, match="at least 2"):
        load_ensemble(runs(0.1, n=1))
    with pytest.raises(EmbeddingFormatError, match="not an ensemble"):
        load_ensemble(tmp_path)
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(EnsembleError, match="not an ensemble manifest of version"):
        load_ensemble(tmp_path)
    with pytest.raises(InvalidParameterError):
        measure(runs(0.1, n=2), alpha=1.5)


def test_a_test_the_first_run_cannot_run_is_combined_over_the_others():
    kvs = runs(0.2, n=3)
    keep = [w for w in WORDS if w not in X]                 # run 1 lacks every word of X
    kvs[0] = to_keyed_vectors(keep, np.array([kvs[0][w] for w in keep]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [r] = ensemble.on_runs(measurement.weats, kvs, [{"id": "t", "X": X, "Y": Y, "A": A, "B": B}],
                               resampling=R(200))
    assert r.per_run[0].not_run and r.n_runs == 2 and r.combined.ci_level == 0.95
    assert r.ci_low < r.effect_size < r.ci_high and len(r.not_run) == 1
