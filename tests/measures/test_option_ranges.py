"""Every public option with a range is checked on entry.

The public functions of the measures and of the permutation and multiple-testing engines are found by
introspection (``__all__``, or the names not starting with ``_`` defined in the module); each one that has a
parameter named in :data:`BAD` is called with valid arguments (:data:`VALID`) except that one, set to an
out-of-range value, and must raise :class:`InvalidParameterError` naming the parameter. A new public function
with such a parameter fails :func:`test_every_ranged_function_has_valid_arguments` until it is added to
:data:`VALID`, so nothing escapes the check.
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.options import Resampling

MODULES = ["wordbias.measures." + m for m in (
    "association.bootstrap", "directions.bootstrap_direction", "association.bootstrap_wefat", "association.ceat",
    "debiasing.debias", "directions.direction", "diagnostics.frequency", "language_models.mlm", "directions.ripa",
    "association.scweat", "diagnostics.sensitivity", "language_models.topics", "enumeration.ube", "association.weat",
    "association.wefat")]
MODULES += ["wordbias.stats." + m for m in ("resampling", "permutation", "exact_count", "montecarlo", "subset_sums",
                                            "multiple")]
MODULES += ["wordbias.core.costs"]

#: out-of-range values of each ranged parameter
BAD = {
    "alpha": [0, 1, 1.5, -0.1],
    "confidence_level": [95, 0, 1.0],
    "n_resamples": [-1, 2.5],
    "n_permutations": [0, -3, 10.5],
    "n_draws": [0],
    "ddof": [2, -1],
    "top_k": [0],
}


def public_functions():
    for name in MODULES:
        mod = importlib.import_module(name)
        names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
        for n in names:
            f = getattr(mod, n, None)
            if inspect.isfunction(f) and f.__module__ == name:
                yield f"{name.rsplit('.', 1)[1]}.{n}", f


def ranged():
    """(qualified name, function, parameter) for every public function's ranged parameter."""
    return [(q, f, p) for q, f in public_functions() for p in inspect.signature(f).parameters if p in BAD]


# ------------------------------------------------------------------------------------------------------------
# valid arguments of each function (everything but the parameter under test)
# ------------------------------------------------------------------------------------------------------------

RNG = np.random.default_rng(0)
S_X, S_Y = RNG.normal(size=6), RNG.normal(size=6) + 1
T1, T2, A1, A2 = (RNG.normal(size=(6, 4)) for _ in range(4))
C = RNG.uniform(-1, 1, size=(8, 6))


def _kv():
    from wordbias.embeddings import to_keyed_vectors

    words = [f"w{i}" for i in range(16)]
    return to_keyed_vectors(words, np.random.default_rng(1).normal(size=(16, 5)).astype(np.float32)), words


def _weat_result():
    from wordbias.measures.association import weat

    kv, w = _kv()
    return weat.weat(kv, w[:4], w[4:8], w[8:11], w[11:14])


def _wefat_result():
    from wordbias.measures.association.wefat import wefat

    kv, w = _kv()
    return wefat(kv, w[:8], w[8:11], w[11:14], {x: float(i) for i, x in enumerate(w[:8])})


def _cosines():
    from wordbias.measures.diagnostics.sensitivity import weat_cosines

    kv, w = _kv()
    return weat_cosines(kv, w[:4], w[4:8], w[8:11], w[11:14])


def _influence():
    from wordbias.measures.diagnostics.sensitivity import influence

    return influence(_cosines())


def _wordsets():
    from wordbias.core.lookup import WordSet

    return WordSet("X", ("a", "b"), ("a", "b"), ()), WordSet("Y", ("c", "d"), ("c", "d"), ())


def _frequency():
    kv, w = _kv()
    return (kv, w[:4], w[4:8], w[8:11], w[11:14]), {"counts": {x: float(100 - i) for i, x in enumerate(w)}}


VALID = {
    "bootstrap.resampled_weat": lambda: ((C, 4, 3, np.arange(4), np.arange(4), np.arange(3), np.arange(3)), {}),
    "bootstrap.pool_effect_size": lambda: ((T1, T2, A1, A2), {}),
    "bootstrap.pool_effect_size_from_cosines": lambda: ((C, 4, 3), {}),
    "bootstrap.weat_bootstrap_from_vectors": lambda: ((T1, T2, A1, A2), {"n_resamples": 50}),
    "bootstrap.weat_bootstrap": lambda: ((_kv()[0], *(_kv()[1][i:i + 3] for i in (0, 3, 6, 9))),
                                         {"resampling": Resampling(n_resamples=50)}),
    "bootstrap.weat_bootstrap_from_cosines": lambda: ((C, 4, 3), {"n_resamples": 50}),
    "bootstrap_wefat.resampled_normalized_association": lambda: ((C[:, :3], C[:, 3:], np.arange(3), np.arange(3)), {}),
    "bootstrap_wefat.wefat_bootstrap_from_vectors": lambda: ((T1, A1, A2, np.arange(6.0)), {"n_resamples": 50}),
    "bootstrap_wefat.wefat_bootstrap": lambda: ((_kv()[0], _wefat_result()), {"n_resamples": 50}),
    "bootstrap.effect_size_bootstrap": lambda: ((S_X, S_Y), {"n_resamples": 50}),
    "bootstrap_direction.direction_bootstrap_from_vectors": lambda: ((T1, T2, A1, A2), {"n_resamples": 50}),
    "direction.direct_bias_percentile": lambda: ((T1, A1[0]), {"n_resamples": 50, "seed": 0, "level": 0.95}),
    "ceat.random_effects": lambda: (([0.1, 0.5], [0.1, 0.2]), {}),
    "ceat.weat_variance": lambda: ((S_X, S_Y), {}),
    "ceat.per_template_weat": lambda: (([S_X, S_X + 1], [S_Y, S_Y - 1]), {}),
    "ceat.pool_templates": lambda: (([S_X, S_X * 2], [S_Y, S_Y - 1]), {}),
    "frequency.frequency_diagnostics": _frequency,
    "mlm.attribute_test": lambda: ((S_X, S_Y), {"n_resamples": 50, "n_permutations": 100}),
    "ripa.sign_flip_test": lambda: ((S_X,), {}),
    "ripa.ripa": lambda: ((_kv()[0], _kv()[1][:4], [("w10", "w11"), ("w12", "w13")]), {}),
    "scweat.sc_weat_effect_size": lambda: ((S_X, S_Y), {}),
    "scweat.sc_weat_p_value": lambda: ((S_X, S_Y), {}),
    "scweat.sc_weat": lambda: ((_kv()[0], _kv()[1][:2], _kv()[1][8:11], _kv()[1][11:14]), {}),
    "sensitivity.effect_sizes": lambda: ((S_X[:, None], S_Y[:, None]), {}),
    "sensitivity.influence": lambda: ((_cosines(),), {}),
    "sensitivity.drop_curve": lambda: ((_cosines(),), {"n_draws": 10}),
    "sensitivity.plot_influence": lambda: ((_influence(),), {}),
    "ube.bh_rejections": lambda: ((np.array([0.01, 0.2]), 0.05), {}),
    "ube.run": lambda: ((_kv()[0], ["w0", "w1"]), {}),
    "weat.balance_spread": lambda: (([1.0, 0.8, 0.1], [-1.0, -0.6], [0, 1], [0, 1]), {}),
    "weat.effect_size": lambda: ((S_X, S_Y), {}),
    "weat.p_value": lambda: ((S_X, S_Y), {}),
    "weat.warn_low_power": lambda: (_wordsets(), {}),
    "weat.weat_from_scores": lambda: ((S_X, S_Y), {}),
    "weat.weat": lambda: ((_kv()[0], *(_kv()[1][i:i + 3] for i in (0, 3, 6, 9))), {}),
    "wefat.normalized_association": lambda: ((T1, A1, A2), {}),
    "wefat.wefat": lambda: ((_kv()[0], _kv()[1][:8], _kv()[1][8:11], _kv()[1][11:14],
                             {x: float(i) for i, x in enumerate(_kv()[1][:8])}), {}),
    "weat.check_ddof": lambda: ((1,), {}),
    "costs.resampling_cost": lambda: ((10, 1.0, 8.0), {}),
    "costs.check_resampling_cost": lambda: (("a test", "n_draws", 10, 1.0, 8.0), {}),
    "montecarlo.check_mc_cost": lambda: ((20, 10, 1000), {}),
    "montecarlo.mc_cost": lambda: ((20, 10, 1000), {"workers": 1}),
    "montecarlo.random_subset_sums": lambda: ((S_X, 3, 10, 0), {}),
    "permutation.subset_sum_tail": lambda: ((S_X, 3, 0.0), {}),
    "permutation.subset_sum_tail_mc": lambda: ((S_X, 3, 0.0), {"n_permutations": 100}),
}


def test_the_introspection_finds_the_ranged_functions():
    found = {q for q, _, _ in ranged()}
    assert {"bootstrap.effect_size_bootstrap", "weat.warn_low_power", "ceat.random_effects", "mlm.attribute_test",
            "permutation.subset_sum_tail_mc"} <= found


def test_every_ranged_function_has_valid_arguments():
    missing = sorted({q for q, _, _ in ranged()} - set(VALID))
    assert not missing, f"public functions with a ranged option and no valid arguments in VALID: {missing}"


@pytest.mark.parametrize("qualified,param", sorted({(q, p) for q, _, p in ranged() if q in VALID}))
def test_out_of_range_options_are_refused_naming_the_parameter(qualified, param, recwarn):
    f = dict(public_functions())[qualified]
    args, kwargs = VALID[qualified]()
    sig = inspect.signature(f)
    for bad in BAD[param]:
        bound = sig.bind_partial(*args, **kwargs)
        bound.arguments[param] = bad
        with pytest.raises(InvalidParameterError, match=param):
            f(*bound.args, **bound.kwargs)
