"""Does the combined interval over words and training runs cover its target? A small, seeded version of the
coverage study (the full study, its model and its figure: benchmarks/coverage_ensemble.py), and unit tests of
wordbias.measures.ensemble.combine_runs.

The model (the benchmark's code, imported): four pools of 400 latent word vectors with a planted association;
training run r moves each word by its own noise (sd sigma_run a dimension) and each set as a whole along the
bias direction (sd tau_run). The target theta is the mean over training runs of d on the whole pools. In the
"run shifts" setting (sigma_run = 0, tau_run = 0.6) the runs move d of the population itself, from run to run, by
about half a word interval: the single run's word-bootstrap interval (what users report today) then misses
theta far more often than its nominal 5%, and the combined interval (W + B/m) must not.
"""

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from wordbias.core.errors import InvalidParameterError
from wordbias.measures.association import bootstrap as bs
from wordbias.measures.ensemble import combine_runs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import coverage_ensemble as ce  # noqa: E402 - the study's own model and intervals

Z = stats.norm.ppf(0.975)

# ==================================================================================================
# combine_runs by hand
# ==================================================================================================


def test_combine_runs_by_hand():
    # three runs: d = 1.0, 1.2, 0.8, word intervals d ± z se with se = 0.3, 0.4, 0.5
    d, se = np.array([1.0, 1.2, 0.8]), np.array([0.3, 0.4, 0.5])
    c = combine_runs(d, d - Z * se, d + Z * se)
    # W = (0.09 + 0.16 + 0.25) / 3 = 1/6; B = ((0)^2 + 0.2^2 + 0.2^2) / 2 = 0.04; T = 1/6 + 0.04/3 = 0.18;
    # df = (m - 1) T^2 / (B/m)^2 = 2 * 0.0324 / (0.04/3)^2 = 364.5
    assert c.estimate == pytest.approx(1.0)
    assert c.within_variance == pytest.approx(1 / 6)
    assert c.between_variance == pytest.approx(0.04)
    assert c.standard_error == pytest.approx(math.sqrt(0.18))
    assert c.df == pytest.approx(364.5)
    half = stats.t.ppf(0.975, 364.5) * math.sqrt(0.18)          # 1.9666 * 0.42426 = 0.8344
    assert (c.ci_low, c.ci_high) == pytest.approx((1.0 - half, 1.0 + half))
    assert half == pytest.approx(0.8344, abs=1e-4)
    assert c.n_runs == 3 and c.ci_level == 0.95 and "W + B/3" in c.method


def test_combine_runs_other_levels():
    # the runs' 90% intervals are read with the 90% z; the combined interval at 99% uses the 99% t quantile
    d, se = np.array([1.0, 1.2, 0.8]), np.array([0.3, 0.4, 0.5])
    z90 = stats.norm.ppf(0.95)
    c = combine_runs(d, d - z90 * se, d + z90 * se, ci_level=0.90, confidence_level=0.99)
    assert c.within_variance == pytest.approx(1 / 6) and c.ci_level == 0.99
    assert c.ci_high - 1.0 == pytest.approx(stats.t.ppf(0.995, 364.5) * math.sqrt(0.18))


def test_no_between_run_variance_gives_the_word_interval_back():
    # every run the same d and interval: B = 0, df = inf, the normal quantile: the word interval itself
    c = combine_runs([0.7] * 4, [0.3] * 4, [1.1] * 4)
    assert c.between_variance == 0 and math.isinf(c.df)
    assert c.within_variance == pytest.approx((0.4 / Z) ** 2)
    assert (c.ci_low, c.ci_high) == pytest.approx((0.3, 1.1))


def test_missing_run_intervals_give_the_interval_over_runs_only():
    d = np.array([1.0, 1.2, 0.8])
    for low, high in (([np.nan] * 3, [np.nan] * 3), ([0.5, np.nan, 0.3], [1.5, 1.7, np.nan])):
        c = combine_runs(d, low, high)
        # W left out: T = B/m = 0.04/3, df = (m - 1) T^2 / (B/m)^2 = m - 1 = 2: the t interval of the 3 d's
        assert c.within_variance == 0 and c.df == pytest.approx(2)
        half = stats.t.ppf(0.975, 2) * d.std(ddof=1) / math.sqrt(3)
        assert (c.ci_low, c.ci_high) == pytest.approx((1.0 - half, 1.0 + half))
        assert "over runs only" in c.method


@pytest.mark.parametrize("args, message", [
    (([1.0], [0.5], [1.5]), "at least 2 runs"),
    (([1.0, np.nan], [0.5, 0.5], [1.5, 1.5]), "NaN or infinite"),
    (([1.0, np.inf], [0.5, 0.5], [1.5, 1.5]), "NaN or infinite"),
    (([1.0, 1.1], [0.5, 0.5, 0.5], [1.5, 1.5]), "differ in length"),
    (([1.0, 1.1], [0.5, 0.5], [1.5]), "differ in length"),
])
def test_combine_runs_refuses(args, message):
    with pytest.raises(InvalidParameterError, match=message):
        combine_runs(*args)


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5, -0.1])
def test_combine_runs_refuses_levels_outside_0_1(level):
    with pytest.raises(InvalidParameterError):
        combine_runs([1.0, 1.1], [0.5, 0.6], [1.5, 1.6], ci_level=level)
    with pytest.raises(InvalidParameterError):
        combine_runs([1.0, 1.1], [0.5, 0.6], [1.5, 1.6], confidence_level=level)


# ==================================================================================================
# the simulation's parts
# ==================================================================================================

@pytest.fixture(scope="module")
def pop():
    return ce.population()


def test_population_effect_size_is_the_librarys(pop):
    # the truth's shortcut (s(w) = ŵ · (mean â − mean b̂), no 400 x 400 cosines) is the library's pool d
    rng = np.random.default_rng(3)
    vecs = ce.run_vectors(pop.sets, pop.u, ce.setting("realistic"), rng)
    ref = bs.pool_effect_size_from_cosines(bs.target_attribute_cosines(*vecs), ce.POOL, ce.POOL)
    assert ce.pool_effect_size(*vecs) == pytest.approx(ref, abs=1e-12)


def test_without_run_noise_the_combined_interval_is_the_word_interval(pop):
    # identical runs: B = 0 and every run has the same interval, so the combined interval has the single run's
    # centre and width (symmetrised: d ± half the word interval's width); the joint bootstrap's variance of the
    # mean is the single run's bootstrap variance
    s = ce.setting("no run noise")
    sim = ce.simulate(pop, s, 8, 10, ms=(3,), seed=5)
    assert np.all(sim.runs == sim.runs[:, :, :1])
    iv = ce.intervals(sim, 3)
    naive, comb = iv[ce.NAIVE], iv[ce.COMBINED]
    np.testing.assert_allclose(comb[:, 0], naive[:, 0])
    np.testing.assert_allclose(comb[:, 2] - comb[:, 1], naive[:, 2] - naive[:, 1])
    rng = np.random.default_rng(0)
    C = bs.target_attribute_cosines(*(p[:8] for p in pop.sets))
    v3 = ce.joint_bootstrap_variance([C, C, C], 8, (1, 3), 500, rng)
    assert v3[0] == pytest.approx(v3[1])


def test_replications_are_reproducible_one_by_one(pop):
    # every draw of replication k comes from default_rng([seed, setting, n, k]): a replication rerun alone, or in
    # another batch, gives the same numbers
    s = ce.setting("realistic")
    sim = ce.simulate(pop, s, 8, 3, ms=(2,), seed=7, setting_index=3)
    again = ce.replicate(pop, s, 8, (2,), ce.replication_rng(7, 3, 8, 2))
    np.testing.assert_array_equal(sim.runs[2], again[0])
    np.testing.assert_array_equal(sim.joint_variance[2], again[1])


# ==================================================================================================
# the coverage
# ==================================================================================================

REPS = 150
# the acceptance region of a 95% coverage in REPS replications: if the true coverage were 95%, the number of hits k
# (binomial(150, 0.95): mean 142.5, sd 2.7 hits or 1.8 percentage points) would fall below K_LOW with probability
# <= 0.05% and above K_HIGH with probability <= 0.05%: K_LOW = 132 (a coverage of 0.880, 3.9 sd below 95%),
# K_HIGH = 149 (0.993: an interval that misses at most once in 150 is too wide). A coverage outside fails the test
# (a false alarm once in 1,000 seeds); inside, 95% stands.
K_LOW = int(stats.binom.ppf(0.0005, REPS, 0.95))
K_HIGH = int(stats.binom.isf(0.0005, REPS, 0.95))


@pytest.fixture(scope="module")
def run_shifts(pop):
    s = ce.setting("run shifts")
    tr = ce.truth(pop, s, runs=2000, seed=26)
    sim = ce.simulate(pop, s, 16, REPS, ms=(5, 10), seed=26, setting_index=ce.SETTINGS.index(s))
    return tr, sim


def test_the_truth_is_precise(run_shifts):
    tr, sim = run_shifts
    # theta's Monte Carlo error over 2,000 runs (sd of d_pop over runs / sqrt(2000), about 0.013) is small
    # against the intervals' widths (about 1.2 at n = 16)
    width = np.mean(sim.runs[:, 2, 0] - sim.runs[:, 1, 0])
    assert tr["theta_mcse"] < 0.02 < 0.05 * width
    assert 0.6 < tr["theta"] < 1.0                         # the design: a moderate population d
    # the design: the runs move d of 16 words by most of the word interval's half-width (0.50 against 0.61 in
    # the full study)
    spread = ce.run_spread(sim)
    assert spread["sd_runs_sample"] > 0.4 * spread["word_half_width"]


def test_combined_interval_covers_and_a_single_run_does_not(run_shifts):
    tr, sim = run_shifts
    theta = tr["theta"]
    naive = ce.coverage(sim.runs[:, :, 0], theta)
    runs_only = {m: ce.coverage(ce.intervals(sim, m)[ce.RUNS_ONLY], theta) for m in (5, 10)}
    for m in (5, 10):
        # the full study (1,000 replications, n = 16): 0.947 at m = 5, 0.956 at m = 10
        combined = ce.coverage(ce.intervals(sim, m)[ce.COMBINED], theta)
        assert K_LOW / REPS <= combined <= K_HIGH / REPS, (m, combined)
        # the library's default for WEATs, W from one word bootstrap applied to every run (0.955 / 0.957 in the full
        # study): within the same acceptance region
        joint = ce.coverage(ce.intervals(sim, m)[ce.PROPOSED], theta)
        assert K_LOW / REPS <= joint <= K_HIGH / REPS, (m, joint)
        # the single run's word interval ignores the runs: it under-covers clearly (0.72 in the full study), below
        # the acceptance region of 95% and well below the combined interval on the same replications
        assert naive < K_LOW / REPS and naive < combined - 0.1, (naive, combined)
        # the interval over runs only ignores the words (0.80 and 0.68 in the full study)
        assert runs_only[m] < combined - 0.1, (m, runs_only[m], combined)
    # and it narrows with more runs while the words' sampling error stays: it covers less at m = 10 than at m = 5
    assert runs_only[10] < runs_only[5]
