"""Du et al.'s (2021) reliability statistics: ICC(2,1) and Cronbach's alpha, against published and hand values."""
import numpy as np
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.stats.reliability import (
    cronbach_alpha,
    half_correlation,
    icc_a1,
    pair_scores,
    random_halves,
    spearman_brown,
    split_half,
)

# Shrout & Fleiss (1979), Table 4: six targets, four judges; their Table 3 gives ICC(2,1) = .29 and ICC(3,1) = .71
SHROUT_FLEISS = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], float)


def test_icc_matches_shrout_and_fleiss():
    assert icc_a1(SHROUT_FLEISS) == pytest.approx(0.2898, abs=5e-4)


def test_icc_absolute_agreement_penalises_a_rater_offset():
    x = np.arange(10, dtype=float)[:, None] + np.zeros((1, 3))
    assert icc_a1(x) == 1.0
    shifted = x + np.array([0.0, 0.0, 5.0])          # one run shifted: consistent but not in agreement
    assert icc_a1(shifted) < 0.8


def test_icc_of_pure_noise_is_near_zero():
    rng = np.random.default_rng(0)
    assert abs(icc_a1(rng.normal(size=(400, 5)))) < 0.05


def test_cronbach_alpha_by_hand():
    items = np.array([[1, 2, 3, 4], [2, 3, 4, 5], [1, 3, 3, 5]], float)
    total_var = np.var(items.sum(0), ddof=1)
    expected = 3 / 2 * (1 - items.var(axis=1, ddof=1).sum() / total_var)
    assert cronbach_alpha(items) == pytest.approx(expected)
    assert np.isnan(cronbach_alpha([[1, 2], [2, 1]]))          # the total does not vary


def test_pair_scores_average_to_the_weat_association():
    from wordbias.measures.association.weat import association

    rng = np.random.default_rng(1)
    W, A, B = rng.normal(size=(5, 4)), rng.normal(size=(3, 4)), rng.normal(size=(2, 4))
    assert pair_scores(W, A, B).shape == (6, 5)
    np.testing.assert_allclose(pair_scores(W, A, B).mean(axis=0), association(W, A, B))


@pytest.mark.parametrize("bad", [[[1.0, 2.0]], [[1.0], [2.0]], [[1.0, np.nan], [2.0, 3.0]], [1.0, 2.0]])
def test_bad_score_matrices_are_refused(bad):
    with pytest.raises(InvalidParameterError):
        icc_a1(bad)
    with pytest.raises(InvalidParameterError):
        cronbach_alpha(bad)


def test_spearman_brown_by_hand():
    assert spearman_brown(0.6) == pytest.approx(2 * 0.6 / 1.6)
    assert spearman_brown(0.6, length=3) == pytest.approx(3 * 0.6 / (1 + 2 * 0.6))
    np.testing.assert_allclose(spearman_brown([0.2, -0.2]), [0.4 / 1.2, -0.4 / 0.8])
    assert np.isnan(spearman_brown(-1.0))                      # 1 + r = 0
    with pytest.raises(InvalidParameterError):
        spearman_brown(1.5)
    with pytest.raises(InvalidParameterError):
        spearman_brown(0.5, length=0)


def test_split_half_is_the_corrected_mean_correlation_of_the_halves_by_hand():
    rng = np.random.default_rng(3)
    items = rng.normal(size=40) + rng.normal(size=(6, 40))
    halves = random_halves(6, 5, seed=7)
    r = np.mean([np.corrcoef(items[first].mean(axis=0), items[~first].mean(axis=0))[0, 1] for first in halves])
    assert split_half(items, n_splits=5, seed=7) == pytest.approx(2 * r / (1 + r))   # the mean r, stepped up
    assert split_half(items, n_splits=5, seed=7) == split_half(items, n_splits=5, seed=7)
    assert split_half(items, n_splits=5, seed=7) != split_half(items, n_splits=5, seed=8)


def test_random_halves_are_seeded_halves():
    a, b = random_halves(7, 4, seed=1), random_halves(7, 4, seed=1)
    np.testing.assert_array_equal(a, b)
    assert (a.sum(axis=1) == 3).all()
    assert not np.array_equal(a, random_halves(7, 4, seed=2))


def test_half_correlation_refuses_mismatched_or_short_halves():
    with pytest.raises(InvalidParameterError, match="same shape"):
        half_correlation(np.ones((2, 5)), np.ones((3, 5)))
    with pytest.raises(InvalidParameterError, match="3 observations"):
        half_correlation([1.0, 2.0], [2.0, 1.0])
    assert np.isnan(half_correlation([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))     # a half that does not vary
