"""as_float_array (foreign array types) and the one tolerance for spreads at rounding level."""
import importlib.util

import numpy as np
import pandas as pd
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import as_float_array, degenerate_spread, spread_tolerance
from wordbias.measures.association import bootstrap, ceat, scweat, weat

HAS_TORCH = importlib.util.find_spec("torch") is not None


def test_plain_input_converts_as_numpy_does():
    for v in ([1, 2.5], (0.1, 0.2), np.arange(3, dtype=np.float32), [[1.0, 2.0], [3.0, 4.0]]):
        got = as_float_array("v", v)
        assert got.dtype == np.float64 and np.array_equal(got, np.asarray(v, dtype=np.float64))


@pytest.mark.skipif(not HAS_TORCH, reason="torch not installed")
def test_torch_tensors_are_converted():
    import torch

    t = torch.tensor([[0.1, 0.2], [0.3, 0.4]], requires_grad=True)
    assert np.array_equal(as_float_array("X", t), t.detach().numpy().astype(np.float64))
    s_x, s_y = torch.tensor([0.5, 0.9, 0.7]), torch.tensor([0.1, -0.2, 0.3])
    assert weat.effect_size(s_x, s_y) == weat.effect_size(s_x.numpy(), s_y.numpy())


def test_series_converted_dataframe_dict_ragged_set_refused():
    s = pd.Series([0.5, 0.9, 0.7])
    assert np.array_equal(as_float_array("s_x", s), s.to_numpy())
    with pytest.raises(InvalidParameterError, match=r"s_x is a pandas DataFrame of shape \(3, 2\).*one column"):
        weat.effect_size(pd.DataFrame({"score": [1.0, 2, 3], "other": [0.0, 1, 2]}), [0.1, 0.2])
    with pytest.raises(InvalidParameterError, match=r"set A is a dict .* not an array; pass a list"):
        bootstrap.weat_bootstrap_from_vectors(np.eye(3), np.eye(3), {"good": [1.0, 0, 0]}, np.eye(3))
    with pytest.raises(InvalidParameterError, match=r"ragged list.*length 3: rows \[0\]; length 2: rows \[1\]"):
        bootstrap.target_attribute_cosines([[1.0, 0, 0], [1.0, 0]], np.eye(3), np.eye(3), np.eye(3))
    with pytest.raises(InvalidParameterError, match=r"set, which has no order"):
        scweat.sc_weat_effect_size({0.1, 0.2}, [0.3])


def test_spread_tolerance_is_rounding_level():
    assert degenerate_spread(1e-17, [0.3] * 10) and not degenerate_spread(1e-9, [0.3] * 10)
    assert spread_tolerance(np.full(10_000, 0.3)) < 1e-12


def _noise(center=0.3, spread=1e-17, n=8):
    """n scores around ``center``, every other one moved by ``spread``: at 1e-17 (below the float spacing at
    0.3, 5.6e-17) by one unit in the last place instead, so they differ as summation order makes them differ."""
    v = np.full(n, center)
    v[::2] = center + spread if center + spread != center else np.nextafter(center, 1.0)
    return v[: n // 2], v[n // 2:]


@pytest.mark.parametrize("call", [
    lambda a, b: weat.effect_size(a, b),
    lambda a, b: bootstrap.effect_size_bootstrap(a, b, n_resamples=50),
    lambda a, b: scweat.sc_weat_effect_size(a, b),
    lambda a, b: ceat.weat_variance(a, b),
    lambda a, b: ceat.per_template_weat([a], [b]),
])
def test_a_spread_of_1e17_is_refused_and_1e9_is_not(call):
    a, b = _noise(spread=1e-17)
    pooled = np.concatenate([a, b])
    assert 0 < pooled.std() < 1e-16                      # not exactly equal: rounding-level differences
    with pytest.raises(DegenerateSetError, match=r"rounding"):
        call(a, b)
    a, b = _noise(spread=1e-9)
    call(a, b)                                           # a genuine (if small) spread is not refused


def test_rounding_level_resamples_are_undefined():
    # one attribute word a side: s(w, A, B) = ±sqrt(2) for every word, equal up to rounding on each side
    a, b = _noise(spread=1e-17)
    d = bootstrap.resampled_weat(np.column_stack([np.r_[a, b], np.zeros(8)]), 4, 1, np.arange(4), np.arange(4),
                                 np.arange(1), np.arange(1))[1]
    assert np.isnan(d)


# --------------------------------------------------------------------------------------------------
# the fuzzing pass: shared checks at the boundary
# --------------------------------------------------------------------------------------------------

def test_check_same_dimension_names_each_set():
    from wordbias.core.validation import check_same_dimension

    assert check_same_dimension({"A": np.ones((2, 3)), "B": np.ones((5, 3)), "g": np.ones(3)}) == 3
    with pytest.raises(InvalidParameterError, match=r"the four sets have vectors of different dimensions: "
                                                    r"\{'X': 2, 'Y': 1, 'A': 1, 'B': 1\}"):
        check_same_dimension({"X": np.ones((2, 2)), "Y": np.ones((2, 1)), "A": np.ones((1, 1)),
                              "B": np.ones((1, 1))}, "the four sets")


def test_check_finite_names_the_positions():
    from wordbias.core.validation import check_finite

    v = np.array([1.0, 2.0])
    assert check_finite("s", v) is v
    with pytest.raises(InvalidParameterError, match=r"s holds non-finite scores at positions \[0, 2\]"):
        check_finite("s", np.array([np.nan, 1.0, -np.inf]), "scores")


def test_none_is_not_read_as_nan():
    with pytest.raises(InvalidParameterError, match=r"s_x must be .*, not None"):
        as_float_array("s_x", None)
    with pytest.raises(InvalidParameterError, match=r"it holds None"):
        as_float_array("s_x", [1.0, None])
    with pytest.raises(InvalidParameterError, match=r"it holds None"):
        as_float_array("X", [[1.0, 2.0], [None, 0.0]])
    assert np.isnan(as_float_array("s_x", [1.0, float("nan")])[1])     # a NaN itself converts (checked later)


def test_check_real_of_an_integer_past_a_float():
    from wordbias.core.validation import check_real

    with pytest.raises(InvalidParameterError, match=r"c must be finite"):
        check_real("c", 10 ** 400)
