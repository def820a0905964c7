"""The argument types the compiled kernels are declared with (``SIGNATURES``, compiled ahead by ``compile_all``,
which ``make`` runs before the notebooks) are the ones the library's real calls use: a call with other types would
compile again in every notebook, and the warm-up would save nothing.

The calls run in a fresh interpreter, so that kernels compiled by other tests of this session do not count."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from wordbias.measures.enumeration import ube_kernels
from wordbias.stats import kernels

_WORKLOAD = textwrap.dedent("""
    import json
    import numpy as np
    from wordbias.stats import kernels, permutation
    from wordbias.measures.enumeration import ube, ube_kernels
    from wordbias.measures.enumeration.ube_null import null_sigma_batch
    from wordbias.embeddings import to_keyed_vectors

    rng = np.random.default_rng(0)
    v = rng.normal(size=24)
    permutation.subset_sum_tail_exact(v, 12, float(v[:12].sum()))              # exact count
    permutation.subset_sum_tail_mc(v, 12, float(v[:12].sum()), n_permutations=2000, alternative="two-sided")
    w = rng.normal(size=300)                                                     # more values than bit masks hold
    permutation.subset_sum_tail_mc(w, 150, float(w[:150].sum()), n_permutations=2000, alternative="two-sided")
    tokens = [a + b for a in "abcdefghijklmnopqrst" for b in "abcdefghijklmnopqrst"]
    kv = to_keyed_vectors(tokens, rng.normal(size=(400, 8)).astype(np.float32))
    ube.run(kv, tokens[:40], ube.UBEParameters(n=2, m=3, M=200, t=2, R=20, seed=0), progress=False, cased=False)
    W = rng.normal(size=(50, 8))
    for dt in (np.float32, np.float64):                                          # the null in either precision
        null_sigma_batch(W.astype(dt), np.zeros(50, dtype=np.int32), rng.normal(size=(2, 3, 8)),
                         rng.normal(size=(1, 8)).astype(dt), 2)
    from wordbias.models import mlp                                              # the GAP MLP's Adam step
    X = rng.normal(size=(60, 6)).astype(np.float32)
    mlp.fit_predict(X, rng.integers(0, 3, 60), X[:5], seed=0,
                    cfg=mlp.MLPConfig(hidden=4, max_epochs=3, patience=1, n_folds=2))
    out = {}
    for mod in (kernels, ube_kernels):
        for name in mod.SIGNATURES:
            out[name] = [str(s) for s in getattr(mod, name).signatures]
    print(json.dumps(out))
""")


def _declared() -> dict[str, set[str]]:
    return {name: {str(tuple(s)) for s in sigs}
            for mod in (kernels, ube_kernels) for name, sigs in mod.SIGNATURES.items()}


def test_real_calls_use_only_the_declared_argument_types():
    run = subprocess.run([sys.executable, "-c", _WORKLOAD], capture_output=True, text=True, check=True)
    used = json.loads(run.stdout.strip().splitlines()[-1])
    declared = _declared()
    assert set(used) == set(declared)
    undeclared = {name: sorted(set(sigs) - declared[name]) for name, sigs in used.items() if set(sigs) - declared[name]}
    assert not undeclared, f"kernels called with argument types missing from SIGNATURES: {undeclared}"
    # and every declared one is used (the warm-up compiles nothing the library does not call)
    unused = {name: sorted(declared[name] - set(sigs)) for name, sigs in used.items() if declared[name] - set(sigs)}
    assert not unused, f"SIGNATURES that no call of the library uses: {unused}"


def test_compile_all_compiles_every_declared_signature():
    assert kernels.compile_all() == sum(len(v) for v in kernels.SIGNATURES.values())
    assert ube_kernels.compile_all() == sum(len(v) for v in ube_kernels.SIGNATURES.values())
    for mod in (kernels, ube_kernels):
        for name, sigs in mod.SIGNATURES.items():
            assert {tuple(s) for s in sigs} <= set(getattr(mod, name).signatures), name
