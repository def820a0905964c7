"""Monte Carlo draws of random size-k subsets of N pooled values: the counts behind the Monte Carlo
permutation p (:func:`wordbias.stats.permutation.subset_sum_tail_mc`) and the sums themselves
(:func:`random_subset_sums`), with the estimate of their cost that refuses a request out of proportion
before any draw (:func:`check_mc_cost`).

Each draw is a uniformly random size-k subset, from a xoshiro256** generator, made one of two ways, chosen
by (N, k) alone (:func:`mc_uses_mask`):

- for N ≤ 128 with the smaller side at least N/4: a random bit mask (N independent bits, each set with a
  probability q/8 near k/N), redrawn while its number of set bits is more than a few from k and then brought
  to exactly k by flipping uniformly random positions; its sum read from byte tables (one lookup per 8
  values), in :func:`wordbias.stats.kernels._mc_mask_blocks`. Why this is uniform: its docstring (the law of
  the mask is invariant under every permutation of the positions, and so is each step);
- otherwise a partial Fisher–Yates shuffle (the smaller side of the partition is drawn), in
  :func:`wordbias.stats.kernels._mc_blocks`.

Draws come in blocks of :data:`MC_BLOCK`, block b seeded from (seed, b) alone, so the draws are bit for bit
the same for any number of threads, and the first R do not depend on how many follow.
"""

from __future__ import annotations

import numpy as np

from wordbias.core.costs import MAX_SECONDS, check_cost, draws_text, float_or_inf
from wordbias.core.parallel import default_workers, run_tasks
from wordbias.core.validation import check_int, check_seed
from wordbias.stats.subset_sums import check_values_and_k, check_workers

# count_random_subsets and mc_key serve wordbias.stats.permutation; the public API is:
__all__ = ["MC_BLOCK", "MC_VALUES_PER_SECOND", "mc_cost", "check_mc_cost", "random_subset_sums"]

#: Monte Carlo draws per block; block b uses its own generator seeded from (seed, b)
MC_BLOCK = 2 ** 14

#: the largest N drawn as bit masks (two 64-bit words: :func:`~wordbias.stats.kernels._mc_mask_blocks`)
MASK_MAX_N = 128

#: drawn values per second and thread of :func:`~wordbias.stats.kernels._mc_blocks`, measured on a laptop
#: core (5-6e8 for N = 16 to 200); an estimate's time is (draws x (smaller side + 1)) / (rate x threads)
#: (an overestimate where the bit masks of :func:`mc_uses_mask` are used: 2-3x faster at N = 50 to 128)
MC_VALUES_PER_SECOND = 5e8


def mc_uses_mask(n: int, k: int) -> bool:
    """Whether size-k subsets of N values are drawn as bit masks (:func:`~wordbias.stats.kernels._mc_mask_blocks`)
    rather than by a partial Fisher–Yates shuffle: N ≤ 128 and the smaller side at least N/4 (where the
    masks are faster). The draws, and so the p-values, for a given seed depend on which."""
    return n <= MASK_MAX_N and 4 * min(k, n - k) >= n


def mc_mask_parameters(n: int, k: int) -> tuple[int, int]:
    """(q, window) of :func:`~wordbias.stats.kernels._mc_mask_blocks`: each bit set with probability q/8, the
    nearest eighth to k/N, and masks kept when their number of set bits is within ``window`` of k (about
    half a standard deviation, at least 2: fewer redraws against fewer repairs)."""
    q = min(7, max(1, (8 * k + n // 2) // n))
    window = max(2, round(0.5 * (n * q / 8 * (1 - q / 8)) ** 0.5))
    return q, window


def mc_cost(n: int, k: int, n_permutations: int, workers: int, store: bool = False) -> tuple[float, float]:
    """Estimate the time and memory of ``n_permutations`` Monte Carlo draws of size-k subsets of N values.

    Parameters
    ----------
    n : int
        N, the number of pooled values.
    k : int
        The subset size (the smaller side of the partition is drawn).
    n_permutations : int
        The draws (at least 1; a number too large for a float gives an infinite estimate).
    workers : int
        The threads drawing (at least 1 is counted).
    store : bool, default False
        Whether the sums are kept (8 bytes a draw).

    Returns
    -------
    seconds : float
        The time, from :data:`MC_VALUES_PER_SECOND`: draws x (smaller side + 1) / (rate x threads).
    n_bytes : float
        The memory for the per-block counts (and the sums if stored).

    Raises
    ------
    InvalidParameterError
        When ``n``, ``k`` or ``n_permutations`` is not an integer in its range.

    Examples
    --------
    >>> seconds, n_bytes = mc_cost(50, 25, 10 ** 20, workers=1)
    >>> f"{n_bytes / 2 ** 50:.0f} PiB"
    '43 PiB'
    """
    n, k = check_int("n", n, min=0), check_int("k", k, min=0)
    kk = min(k, n - k)
    # 10**400 draws: an infinite estimate, not an OverflowError
    draws = float_or_inf(check_int("n_permutations", n_permutations, min=1))
    seconds = draws * (kk + 1) / (MC_VALUES_PER_SECOND * max(1, workers))
    n_bytes = 8.0 * (draws / MC_BLOCK + 1) + (8.0 * draws if store else 0.0)
    return seconds, n_bytes


def check_mc_cost(n: int, k: int, n_permutations: int, *, workers: int | None = None, store: bool = False,
                  max_seconds: float = MAX_SECONDS) -> None:
    """Refuse a Monte Carlo request out of proportion, before any draw.

    A request whose estimate (:func:`mc_cost`) is over ``max_seconds`` or over the memory limit
    (:func:`wordbias.core.costs.memory_limit`) is refused, saying how long and how much memory it would take
    and what to do instead.

    Parameters
    ----------
    n : int
        N, the number of pooled values.
    k : int
        The subset size.
    n_permutations : int
        The draws (at least 1).
    workers : int, optional
        The threads drawing (default: the CPUs available).
    store : bool, default False
        Whether the sums are kept.
    max_seconds : float, default MAX_SECONDS
        The time budget (:data:`wordbias.core.costs.MAX_SECONDS`).

    Raises
    ------
    TooCostlyError
        When the draws would take more than ``max_seconds`` or too much memory.
    InvalidParameterError
        When an argument is not valid.

    Examples
    --------
    >>> from wordbias.core.errors import TooCostlyError
    >>> check_mc_cost(50, 25, 10 ** 5, workers=1)                        # a fraction of a second: fine
    >>> try:
    ...     check_mc_cost(50, 25, 10 ** 12, workers=1, max_seconds=60)
    ... except TooCostlyError as err:
    ...     print(type(err).__name__)
    TooCostlyError
    """
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n, k = check_int("n", n, min=0), check_int("k", k, min=0)
    workers = check_workers(workers)
    workers = default_workers() if workers is None else workers
    seconds, n_bytes = mc_cost(n, k, n_permutations, workers, store)
    check_cost(f"a Monte Carlo p-value with n_permutations={draws_text(n_permutations)} (N={n}, k={k}, "
               f"{workers} thread(s))", seconds, n_bytes, max_seconds,
               "Use fewer permutations (10**5 to 10**7 resolve p to 1e-5 to 1e-7), p_method='normal' (the normal "
               "approximation, instant), or pass a larger max_seconds if you mean it.")


def mc_key(seed) -> np.uint64:
    """The 64-bit key of the Monte Carlo streams: from a seed via ``SeedSequence``, or drawn from a
    ``numpy.random.Generator`` (advancing it)."""
    if isinstance(seed, np.random.Generator):
        return np.uint64(seed.integers(0, 2 ** 64, dtype=np.uint64))
    return np.uint64(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


def count_random_subsets(values: np.ndarray, k: int, thr: float, n_permutations: int, key: np.uint64, store: bool,
                         workers: int | None, progress: bool, thr_lo: float | None = None
                         ) -> tuple[int, np.ndarray | None] | tuple[int, np.ndarray | None, int]:
    """Draw ``n_permutations`` random size-k subsets with :func:`~wordbias.stats.kernels._mc_mask_blocks` or
    :func:`~wordbias.stats.kernels._mc_blocks` (:func:`mc_uses_mask`), in
    blocks of :data:`MC_BLOCK` spread over ``workers`` threads; returns (#{sums ≥ thr}, the sums or None),
    and also #{sums ≤ thr_lo} of the same draws when ``thr_lo`` is given.
    Each block writes its own slice of the preallocated outputs, so the order in which they finish does
    not matter. The inputs are the engine's, already checked (``key`` from :func:`mc_key`)."""
    from wordbias.stats import kernels  # imports numba (0.3 s): only when draws are needed

    n = values.size
    use_mask = mc_uses_mask(n, k)
    if use_mask:
        q, window = mc_mask_parameters(n, k)
        tab = kernels.mask_sum_table(values)
    complement = (n - k) < k                      # draw the smaller side of the partition
    kk = n - k if complement else k
    total = float(values.sum())
    n_blocks = (n_permutations + MC_BLOCK - 1) // MC_BLOCK
    counts = np.zeros(n_blocks, dtype=np.int64)
    counts_lo = np.zeros(n_blocks if thr_lo is not None else 0, dtype=np.int64)
    lo = float(thr_lo) if thr_lo is not None else -np.inf
    sums = np.empty(n_permutations if store else 0, dtype=np.float64)
    workers = default_workers() if workers is None else max(1, int(workers))
    per_task = max(1, min(64, -(-n_blocks // (4 * workers))))
    tasks = [(b, min(b + per_task, n_blocks)) for b in range(0, n_blocks, per_task)]

    def run(task) -> int:
        b0, b1 = task
        if use_mask:
            kernels._mc_mask_blocks(values, k, q, window, tab, thr, key, b0, b1, n_permutations, MC_BLOCK, sums,
                                   counts, lo, counts_lo)
        else:
            kernels._mc_blocks(values, kk, complement, total, thr, key, b0, b1, n_permutations, MC_BLOCK, sums,
                              counts, lo, counts_lo)
        return min(b1 * MC_BLOCK, n_permutations) - b0 * MC_BLOCK

    run_tasks(run, tasks, workers=workers, total=n_permutations, desc="random partitions", unit="partition",
              progress=progress)
    if thr_lo is not None:
        return int(counts.sum()), (sums if store else None), int(counts_lo.sum())
    return int(counts.sum()), (sums if store else None)


def random_subset_sums(values, k: int, n_permutations: int, seed: np.random.Generator | int, *,
                       progress: bool = False, workers: int | None = None,
                       max_seconds: float = MAX_SECONDS) -> np.ndarray:
    """Return the sums over ``n_permutations`` uniformly random size-``k`` subsets (drawn without replacement).

    The draws are the ones :func:`~wordbias.stats.permutation.subset_sum_tail_mc` makes for the same generator or
    seed, so the sums depend only on the seed (not on ``workers``), and the first R sums do not depend on how many
    follow.

    Parameters
    ----------
    values, k : array_like of float, int
        The N pooled values and the subset size (:mod:`~wordbias.stats.subset_sums`).
    n_permutations : int
        R, the draws (at least 1).
    seed : numpy.random.Generator or int
        The seed (an integer >= 0) or a generator (one 64-bit draw is taken from it).
    progress : bool, default False
        Whether to show a progress bar.
    workers : int, optional
        The threads drawing (default: the CPUs available).
    max_seconds : float, default MAX_SECONDS
        The time budget; a request estimated to take longer (or too much memory) is refused before any draw.

    Returns
    -------
    numpy.ndarray
        The R sums (float64), in the order drawn.

    Raises
    ------
    TooCostlyError
        When the draws would take more than ``max_seconds`` or too much memory.
    DegenerateSetError, InvalidParameterError
        On input the engine refuses (:mod:`~wordbias.stats.subset_sums`).

    Examples
    --------
    >>> random_subset_sums([0.0, 1.0, 2.0, 3.0], 2, 5, seed=0)
    array([3., 3., 1., 1., 1.])
    """
    values, k = check_values_and_k(values, k)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    workers = check_workers(workers)
    check_mc_cost(values.size, k, n_permutations, workers=workers, store=True, max_seconds=max_seconds)
    _, sums = count_random_subsets(values, k, np.inf, n_permutations, mc_key(seed), True, workers, progress)
    return sums
