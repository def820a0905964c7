"""Catalogue cases of large and out-of-range inputs: counts past a float's range, options out of range, arrays
from neighbouring libraries, effect sizes from spreads at rounding level, resampling requests out of
proportion; and the findings of the fuzzing pass, tests/fuzz. Each class is handled by one shared mechanism
(wordbias.core.costs.ratio / count_text;
wordbias.stats.exact_count.check_exact_reach; wordbias.core.validation.check_*; as_float_array; spread_tolerance;
wordbias.core.costs.check_resampling_cost); the cases call different public functions."""
import importlib.util

import numpy as np
import pandas as pd
import pytest
from catalogue import Case, check

from wordbias.core.vectors import cosine_matrix

F = "measure inputs"
RNG = np.random.default_rng(23)
T1, T2, A1, A2 = (RNG.normal(size=(8, 5)) for _ in range(4))
S_A, S_B = [0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0]
ULP = np.nextafter(0.3, 1.0)                  # 0.3 and the next float: a spread of 2.8e-17, rounding noise
FLAT_A, FLAT_B = [0.3, ULP, 0.3, ULP], [ULP, 0.3, ULP, 0.3]


def _errors():
    from wordbias.core.errors import DegenerateSetError, InvalidParameterError, TooCostlyError

    return DegenerateSetError, InvalidParameterError, TooCostlyError


def _mod(name):
    return __import__(f"wordbias.{name}", fromlist=["_"])


def _big_weat(p_method):
    def call():
        from wordbias.embeddings import to_keyed_vectors
        from wordbias.measures.association.weat import weat

        words = [f"w{i}" for i in range(1_040)]
        kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(1_040, 8)).astype(np.float32))
        return weat(kv, words[:515], words[515:1030], words[1030:1035], words[1035:], p_method=p_method)
    return call


def _weat_names(names):
    def call():
        from wordbias.embeddings import to_keyed_vectors
        from wordbias.measures.association.weat import weat

        words = ["rose", "tulip", "ant", "wasp", "love", "hate"]
        kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(6, 3)).astype(np.float32))
        return weat(kv, words[:2], words[2:4], words[4:5], words[5:], names=names)
    return call


def _torch_tensor():
    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    return torch.tensor([[1.0, 0.0], [0.5, 0.5]])


def _cases():
    Degenerate, Invalid, Costly = _errors()
    weat, boot = _mod("measures.association.weat"), _mod("measures.association.bootstrap")
    boot_direction, boot_wefat = _mod("measures.directions.bootstrap_direction"), _mod("measures.association.bootstrap_wefat")
    perm, ceat, scweat = _mod("stats.permutation"), _mod("measures.association.ceat"), _mod("measures.association.scweat")
    montecarlo, exact_count = _mod("stats.montecarlo"), _mod("stats.exact_count")
    ripa, sens, mlm, ube = _mod("measures.directions.ripa"), _mod("measures.diagnostics.sensitivity"), _mod("measures.language_models.mlm"), _mod("measures.enumeration.ube")
    multiple, wefat = _mod("stats.multiple"), _mod("measures.association.wefat")
    cases = [
        # 1. counts past a float's range: integers or logarithms, never "int too large to convert to float"
        Case(F, "WEAT of 515+515 words, exact p", _big_weat("exact"), Costly,
             match=r"exact count of the ~\d\.\d+x10\^308 partitions \(N=1030, k=515\) needs more than .* and cannot "
                   r"succeed"),
        Case(F, "exact subset-sum tail of 10,000 values", lambda: perm.subset_sum_tail_exact(
             np.random.default_rng(1).normal(size=10_000), 5_000, 0.0), Costly, match=r"~1\.59x10\^3008 partitions"),
        Case(F, "Monte Carlo p with 10**400 permutations", lambda: perm.subset_sum_tail(
             np.arange(30.0), 15, 300.0, p_method="mc", n_permutations=10 ** 400), Costly,
             match=r"n_permutations=~1x10\^400 .* is estimated to take forever"),
        Case(F, "random subset sums, 10**30 of them", lambda: montecarlo.random_subset_sums(np.arange(30.0), 15,
             10 ** 30, 0), Costly, match=r"n_permutations=1e\+30 \(N=30, k=15"),
        # 2. options out of range
        Case(F, "warn_low_power alpha 1.5", lambda: weat.warn_low_power(
             *(_mod("core.lookup").WordSet(k, ("a", "b"), ("a", "b"), ()) for k in "XY"), alpha=1.5), Invalid,
             match=r"alpha must be < 1.0, not 1.5"),
        Case(F, "UBE Benjamini-Hochberg alpha 0", lambda: ube.bh_rejections(np.array([0.01, 0.2]), 0), Invalid,
             match=r"alpha must be > 0.0, not 0"),
        Case(F, "random effects confidence_level 95", lambda: ceat.random_effects([0.1, 0.5], [0.1, 0.2],
             confidence_level=95), Invalid, match=r"confidence_level must be < 1.0, not 95"),
        Case(F, "pool_effect_size ddof 2", lambda: boot.pool_effect_size(T1, T2, A1, A2, ddof=2), Invalid,
             match=r"ddof must be one of 0, 1; not 2"),
        Case(F, "Monte Carlo cost of 0 permutations", lambda: montecarlo.mc_cost(20, 10, 0, workers=1), Invalid,
             match=r"n_permutations must be >= 1, not 0"),
        Case(F, "sign-flip test n_resamples -5", lambda: ripa.sign_flip_test(np.arange(30.0), n_resamples=-5),
             Invalid, match=r"n_resamples must be >= 1, not -5"),
        # 3. arrays from neighbouring libraries
        Case(F, "effect_size of a DataFrame", lambda: weat.effect_size(pd.DataFrame({"s": S_A, "t": S_A}), S_B),
             Invalid, match=r"s_x is a pandas DataFrame of shape \(4, 2\) \(columns \['s', 't'\]\): which column"),
        Case(F, "WEAT bootstrap of a dict of word vectors", lambda: boot.weat_bootstrap_from_vectors(
             {"rose": T1[0], "tulip": T1[1]}, T2, A1, A2), Invalid,
             match=r"set X is a dict \('rose' -> \.\.\.\): a mapping of word -> value is not an array"),
        Case(F, "RIPA scores of a ragged vector list", lambda: ripa.ripa_scores([[1.0, 2.0], [3.0]], [[1.0, 0.0]],
             [[0.0, 1.0]]), Invalid, match=r"W is a ragged list: its rows have different lengths \(length 2: rows "
             r"\[0\]; length 1: rows \[1\]\)"),
        Case(F, "Holm over a DataFrame of p-values", lambda: multiple.holm(pd.DataFrame({"p": [0.1, 0.2]})), Invalid,
             match=r"p is a pandas DataFrame .* Pass one column"),
        Case(F, "CEAT templates as a set of scores", lambda: ceat.weat_variance({0.1, 0.2}, [0.3, 0.4]), Invalid,
             match=r"s_x is a set, which has no order"),
        # 4. effect sizes from spreads at rounding level
        Case(F, "effect_size, scores 0.3 up to one ULP", lambda: weat.effect_size(FLAT_A, FLAT_B), Degenerate,
             match=r"same association s\(w, A, B\): the effect size is undefined \(their spread \d\.\de-17 is at "
             r"rounding level"),
        Case(F, "effect-size bootstrap, scores 0.3 up to one ULP", lambda: boot.effect_size_bootstrap(FLAT_A, FLAT_B),
             Degenerate, match=r"every score of s_a and s_b is 0\.3 up to rounding: the effect size is undefined"),
        Case(F, "SC-WEAT effect size, cosines 0.3 up to one ULP", lambda: scweat.sc_weat_effect_size(FLAT_A, FLAT_B),
             Degenerate, match=r"same cosine with every attribute word.*at rounding level"),
        Case(F, "CEAT per-template d, scores 0.3 up to one ULP", lambda: ceat.per_template_weat([FLAT_A], [FLAT_B]),
             Degenerate, match=r"rounding level"),
        Case(F, "WEFAT regression, s equal up to one ULP", lambda: wefat.regress(FLAT_A, [1.0, 2.0, 3.0, 4.0]),
             Degenerate, match=r"same association s\(w, A, B\): a correlation is undefined \(their spread"),
        Case(F, "normal approximation, values equal up to one ULP", lambda: perm.subset_sum_tail_normal(
             FLAT_A + FLAT_B, 4, 1.2), Degenerate, match=r"all values are equal up to rounding"),
        # 5. resampling requests out of proportion
        Case(F, "WEAT bootstrap with 10**12 resamples", lambda: boot.weat_bootstrap_from_vectors(
             T1, T2, A1, A2, n_resamples=10 ** 12), Costly,
             match=r"a WEAT bootstrap with n_resamples=1,000,000,000,000 is estimated to take .* Use a smaller "
                   r"n_resamples"),
        Case(F, "attribute test with 10**12 resamples", lambda: mlm.attribute_test(S_A, S_B, n_resamples=10 ** 12),
             Costly, match=r"an effect-size bootstrap with n_resamples=1,000,000,000,000"),
        Case(F, "RIPA sign-flip test with 10**12 resamples", lambda: ripa.sign_flip_test(
             np.arange(1.0, 41.0), n_resamples=10 ** 12), Costly,
             match=r"a sign-flip test of 40 values with n_resamples=1,000,000,000,000 .* max_seconds"),
        Case(F, "drop curve with 10**12 draws", lambda: sens.drop_curve(_sens_cosines(), n_draws=10 ** 12), Costly,
             match=r"a drop curve over 5 fraction\(s\) with n_draws=1,000,000,000,000 .*Use a smaller n_draws"),
        Case(F, "direction bootstrap with 10**12 resamples in batches", lambda: boot_direction.direction_bootstrap_from_vectors(
             T1, T2, A1, A2, n_resamples=10 ** 12, batch=100), Costly,
             match=r"a direction bootstrap with n_resamples=1,000,000,000,000 is estimated to take"),
        # 6. the fuzzing pass: each class through one shared check at the boundary
        # 6a. integer options as Python ints (validation.check_int): an unsigned numpy k cannot wrap around
        Case(F, "subset-sum tail, k a numpy uint16 of 300", lambda: perm.subset_sum_tail([0.0, 1.0, 2.0, 3.0],
             np.uint16(300), 3.0), Invalid, match=r"subset size k=300 must be between 1 and N-1 \(N=4\)"),
        Case(F, "subset-sum tail, k the string '1'", lambda: perm.subset_sum_tail([0.0, 1.0], "1", 0.0), Invalid,
             match=r"k must be an integer, not '1' \(str\)"),
        Case(F, "exact tail, k 1.0", lambda: perm.subset_sum_tail_exact([0.0, 1.0, 2.0], 1.0, 2.0), Invalid,
             match=r"k must be an integer, not 1\.0 \(float\)"),
        Case(F, "subset-sum tail, exact_max_n '10'", lambda: perm.subset_sum_tail([0.0, 1.0, 2.0], 1, 2.0,
             exact_max_n="10"), Invalid, match=r"exact_max_n must be an integer, not '10'"),
        Case(F, "Monte Carlo tail, workers 2.5", lambda: perm.subset_sum_tail_mc([0.0, 1.0, 2.0], 1, 2.0,
             n_permutations=10, workers=2.5), Invalid, match=r"workers must be an integer, not 2\.5"),
        # 6b. the pooled values and the observed sum (subset_sums.check_values_and_k, validation.check_finite / check_real)
        Case(F, "subset-sum tail of no values", lambda: perm.subset_sum_tail([], 0, 0.0), Degenerate,
             match=r"values holds 0 value\(s\): a partition .* needs at least 2"),
        Case(F, "subset-sum tail, k 0 of 4 values", lambda: perm.subset_sum_tail([0.0, 1.0, 2.0, 3.0], 0, 0.0),
             Invalid, match=r"subset size k=0 must be between 1 and N-1 \(N=4\)"),
        Case(F, "subset-sum tail with a NaN value", lambda: perm.subset_sum_tail([0.0, float("nan")], 1, 0.0),
             Invalid, match=r"values holds non-finite values at positions \[1\]"),
        Case(F, "subset-sum tail with a None value", lambda: perm.subset_sum_tail([0.0, None, 1.0], 1, 0.0),
             Invalid, match=r"values must be .*: it holds None \(a missing value\)"),
        Case(F, "subset-sum tail, observed sum None", lambda: perm.subset_sum_tail([0.0, 0.0], 1, None), Invalid,
             match=r"observed_sum must be a number, not None"),
        Case(F, "normal tail, observed sum infinite", lambda: perm.subset_sum_tail_normal([0.0, 1.0, 2.0], 1,
             float("inf")), Invalid, match=r"observed_sum must be finite, not inf"),
        Case(F, "subset-sum count, threshold 10**400", lambda: exact_count.count_subsets_at_least([0.0, 1.0, 2.0],
             1, 10 ** 400), Invalid, match=r"threshold must be finite"),
        Case(F, "subset-sum tail, max_seconds 'soon'", lambda: perm.subset_sum_tail([0.0, 1.0, 2.0], 1, 2.0,
             max_seconds="soon"), Invalid, match=r"max_seconds must be a number, not 'soon'"),
        Case(F, "WEAT from scores, s_x empty", lambda: weat.weat_from_scores([], [0.0, 1.0]), Degenerate,
             match=r"s_x has 0 score\(s\); it needs at least 1"),
        Case(F, "WEAT from scores, a NaN score", lambda: weat.weat_from_scores([float("nan"), 1.0], [0.0, 1.0]),
             Invalid, match=r"s_x holds non-finite scores at positions \[0\]"),
        Case(F, "effect size, an infinite score in s_y", lambda: weat.effect_size(S_A, [0.1, float("inf"), 0.2]),
             Invalid, match=r"s_y holds non-finite scores at positions \[1\]"),
        Case(F, "p-value, s_y empty", lambda: weat.p_value(S_A, []), Degenerate,
             match=r"s_y has 0 score\(s\); it needs at least 1"),
        # 6c. WEAT's display names (weat.check_names)
        Case(F, "WEAT names as a string", _weat_names("XYAB"), Invalid,
             match=r"names must be a mapping of the sets 'X', 'Y', 'A', 'B' to display names .* not str 'XYAB'"),
        Case(F, "WEAT names with a number as a name", _weat_names({"X": 1}), Invalid,
             match=r"names must give each set a non-empty string as its display name, not \{'X': 1\}"),
        Case(F, "WEAT names with an unknown set", _weat_names({"Z": "zebras"}), Invalid,
             match=r"names may map only the sets 'X', 'Y', 'A', 'B' to display names; not \['Z'\]"),
        # 6d. direct bias and directions (validation.check_real / as_float_array)
        Case(F, "direct bias, c -1", lambda: _mod("measures.directions.direction").direct_bias([[1.0, 0.0]], [1.0, 0.0], c=-1.0),
             Invalid, match=r"c must be >= 0, not -1\.0"),
        Case(F, "direct bias, c '1'", lambda: _mod("measures.directions.direction").direct_bias([[1.0, 0.0]], [1.0, 0.0], c="1"),
             Invalid, match=r"c must be a number, not '1'"),
        Case(F, "direct bias, atol NaN", lambda: _mod("measures.directions.direction").direct_bias([[1.0, 0.0]], [1.0, 0.0],
             atol=float("nan")), Invalid, match=r"atol must be finite, not nan"),
        Case(F, "direct bias, X one vector", lambda: _mod("measures.directions.direction").direct_bias([1.0, 0.0], [1.0, 0.0]),
             Invalid, match=r"X: expected a 2-D array of word vectors, got shape \(2,\)"),
        Case(F, "direct bias, X a string", lambda: _mod("measures.directions.direction").direct_bias("ab", [1.0, 0.0]),
             Invalid, match=r"X must be a set of word vectors .* not the string 'ab'"),
        Case(F, "direct bias, g a matrix", lambda: _mod("measures.directions.direction").direct_bias([[1.0, 0.0]], [[1.0, 0.0]]),
             Invalid, match=r"direction: expected a 1-D vector, got shape \(1, 2\)"),
        Case(F, "direct bias, g of another dimension", lambda: _mod("measures.directions.direction").direct_bias([[1.0, 0.0]],
             [1.0]), Invalid, match=r"vectors of shape \(1, 2\) do not match a direction of dimension 1"),
        Case(F, "projection on a non-unit direction", lambda: _mod("measures.directions.direction").project([[1.0, 0.0]],
             [2.0, 0.0]), Invalid, match=r"direction must have unit length"),
        # 6e. vector sets of different dimensions (validation.check_same_dimension)
        Case(F, "WEAT bootstrap, X of 2 dimensions, the others 1", lambda: boot.weat_bootstrap_from_vectors(
             [[1.0, 0.0], [0.0, 1.0]], [[1.0], [2.0]], [[1.0]], [[1.0]]), Invalid,
             match=r"the four sets have vectors of different dimensions: \{'X': 2, 'Y': 1, 'A': 1, 'B': 1\}"),
        Case(F, "WEAT cosines, A of 4 dimensions", lambda: boot.target_attribute_cosines(T1, T2, A1[:, :4], A2),
             Invalid, match=r"different dimensions: \{'X': 5, 'Y': 5, 'A': 4, 'B': 5\}"),
        Case(F, "WEFAT bootstrap, B of 3 dimensions", lambda: boot_wefat.wefat_bootstrap_from_vectors(
             T1, A1, A2[:, :3], np.arange(8.0)), Invalid,
             match=r"the three sets have vectors of different dimensions: \{'W': 5, 'A': 5, 'B': 3\}"),
        Case(F, "WEAT bootstrap, a 3-D set", lambda: boot.weat_bootstrap_from_vectors(T1, T2, [[[1.0]]], A2),
             Invalid, match=r"set A: expected a 2-D array of word vectors"),
        Case(F, "mean-difference direction, B of 1 dimension", lambda: _mod("measures.directions.direction")
             .mean_difference_direction([[1.0, 0.0]], [[1.0]]), Invalid,
             match=r"sets A and B have vectors of different dimensions: \{'A': 2, 'B': 1\}"),
        Case(F, "cosine matrix, W and V of different dimensions", lambda: cosine_matrix(T1, A1[:, :2]), Invalid,
             match=r"the sets W and V have vectors of different dimensions: \{'W': 5, 'V': 2\}"),
    ]
    tensor = _torch_tensor()
    if tensor is not None:      # a torch tensor converts: the case is a ragged list of tensors instead
        cases.append(Case(F, "torch tensors of different lengths as a vector set", lambda: boot.target_attribute_cosines(
            [tensor[0], tensor[0][:1]], T2[:, :2], A1[:, :2], A2[:, :2]), Invalid, match=r"set X is a ragged list"))
    return cases


def _sens_cosines():
    from wordbias.embeddings import to_keyed_vectors
    from wordbias.measures.diagnostics.sensitivity import weat_cosines

    words = [f"w{i}" for i in range(12)]
    kv = to_keyed_vectors(words, np.random.default_rng(2).normal(size=(12, 5)).astype(np.float32))
    return weat_cosines(kv, words[:3], words[3:6], words[6:9], words[9:])


CASES_MEASURE_INPUTS = _cases()


@pytest.mark.parametrize("case", CASES_MEASURE_INPUTS, ids=lambda c: c.id)
def test_case(case):
    check(case)


def test_torch_and_series_inputs_are_converted_not_refused():
    from wordbias.measures.association import weat

    d = weat.effect_size(pd.Series(S_A), pd.Series(S_B))
    assert d == weat.effect_size(S_A, S_B)
    if importlib.util.find_spec("torch") is not None:
        import torch

        assert weat.effect_size(torch.tensor(S_A, dtype=torch.float64), torch.tensor(S_B, dtype=torch.float64)) == d
