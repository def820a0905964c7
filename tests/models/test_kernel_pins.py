"""The Makefile's kernel pins reach PyTorch's matrix products: under ``KERNELS=x86-64-v3`` (and -v2) MKL runs its
COMPATIBLE branch, which it runs alike on Intel and AMD CPUs and whose results do not depend on the thread count.

MKL honours a named ISA branch such as ``MKL_CBWR=AVX2`` on Intel CPUs only; on other CPUs it falls back to its
AUTO branch without a warning (Intel oneMKL Developer Guide, "Specifying Code Branches"). That is why the Kurita
outputs once moved between an Intel Xeon and the AMD EPYC that made the committed ones."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import hashlib, sys, torch
for threads in sys.argv[1].split(","):   # one process, the thread counts in turn (torch.set_num_threads at run time)
    torch.set_num_threads(int(threads))
    torch.manual_seed(0)
    a, b = torch.randn(257, 384), torch.randn(384, 1536)
    layer = torch.nn.Linear(384, 1536)
    with torch.no_grad():
        out = torch.cat([(a @ b).flatten(), layer(a).flatten()])
    print(hashlib.sha256(out.numpy().tobytes()).hexdigest())
"""


def _kernel_env(kernels: str) -> dict[str, str]:
    out = subprocess.run(["make", "-s", "--no-print-directory", "kernel-env", f"KERNELS={kernels}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    env = {k: v for k, v in os.environ.items() if k not in ("MKL_CBWR", "MKL_VERBOSE")}
    for line in out.splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        env[key] = value.strip("'")
    return env


def _probe(env: dict[str, str], threads: str, verbose: bool = False) -> str:
    env = dict(env, **({"MKL_VERBOSE": "1"} if verbose else {}))
    return subprocess.run([sys.executable, "-c", PROBE, threads], env=env, capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("kernels", ["x86-64-v3", "x86-64-v2"])
def test_mkl_runs_its_compatible_branch_under_the_pins(kernels):
    env = _kernel_env(kernels)
    assert env["MKL_CBWR"] == "COMPATIBLE"
    verbose = _probe(env, "2", verbose=True)
    if "MKL_VERBOSE" not in verbose:
        pytest.skip("this torch build does not use MKL")
    assert "CNR:COMPATIBLE" in verbose and "CNR:AUTO" not in verbose


def test_matrix_products_do_not_depend_on_the_thread_count_under_the_pins():
    env = _kernel_env("x86-64-v3")
    hashes = _probe(env, "1,2,3").split()
    assert len(hashes) == 3 and len(set(hashes)) == 1, hashes
