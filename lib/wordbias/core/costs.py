"""Budgets: a request out of proportion is refused before any work, with its estimate and the way out; and
counts too large for a float, shown and divided without an ``OverflowError``.

Every resampling entry point (bootstraps, sign-flip draws, the random word lists of the sensitivity curve)
checks its cost with :func:`check_resampling_cost`; the Monte Carlo p-value has its own estimate
(:func:`wordbias.stats.montecarlo.check_mc_cost`) and the exact count its own reach check
(:func:`wordbias.stats.exact_count.check_exact_reach`), both through :func:`check_cost`.
"""

from __future__ import annotations

import os
from fractions import Fraction
from math import comb, lgamma, log, log10  # noqa: F401  (comb: the doctests)

from wordbias.core.errors import TooCostlyError
from wordbias.core.validation import check_int, check_real

#: the default time budget of one request (a Monte Carlo p-value, a bootstrap, ...; seconds): a request
#: estimated to take longer is refused up front; pass ``max_seconds`` to allow more (``float("inf")``: no limit)
MAX_SECONDS = 600.0

#: the most memory one request may allocate by default (bytes), capped at half the machine's memory
MAX_BYTES = 4 * 2 ** 30


def memory_limit() -> int:
    """The most one request may allocate: :data:`MAX_BYTES`, or half the machine's physical memory if less."""
    try:
        half = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):  # not POSIX
        half = MAX_BYTES
    return min(MAX_BYTES, half)


def machine_memory() -> int | None:
    """The memory this machine gives the process, in bytes: its physical memory, or its control group's limit
    (a container's) when lower; None where neither can be read.

    The budget of work whose size is the user's to choose, such as training runs held in memory at once
    (:func:`wordbias.models.train.train_ensemble`): a request estimated to need more than this cannot run
    here at all, whatever else is running.

    Returns
    -------
    int or None
        Bytes.

    Examples
    --------
    >>> memory = machine_memory()
    >>> memory is None or memory > 2 ** 20
    True
    """
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX
        try:
            import psutil

            physical = int(psutil.virtual_memory().total)
        except (ImportError, OSError):
            return None
    limits = [physical]
    for path in _cgroup_limit_files():
        try:
            text = open(path, encoding="ascii").read().strip()
        except OSError:
            continue
        if text.isdigit() and 0 < int(text) < physical:
            limits.append(int(text))
    return min(limits)


def available_memory() -> int | None:
    """The memory available to new work now, in bytes: Linux's estimate (``MemAvailable`` in ``/proc/meminfo``:
    free memory and what can be reclaimed without swapping), lowered to what the process's control group (a
    container) has left under its limit; elsewhere psutil's estimate where psutil is installed, else
    :func:`machine_memory`; None where nothing tells.

    The budget of work that holds a large share of memory for its whole length, such as the training runs of an
    ensemble (:func:`wordbias.models.train.train_ensemble`): past it, the machine swaps or a process is killed.

    Returns
    -------
    int or None
        Bytes available now.

    Examples
    --------
    >>> memory = available_memory()
    >>> memory is None or memory <= (machine_memory() or memory)
    True
    """
    found = []
    try:
        for line in open("/proc/meminfo", encoding="ascii"):
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
                break
    except (OSError, ValueError, IndexError):
        pass
    for limit_file in _cgroup_limit_files():
        usage_file = limit_file.replace("memory.max", "memory.current").replace("limit_in_bytes", "usage_in_bytes")
        try:
            limit = open(limit_file, encoding="ascii").read().strip()
            usage = open(usage_file, encoding="ascii").read().strip()
        except OSError:
            continue
        if limit.isdigit() and usage.isdigit() and int(limit) < (machine_memory() or 0) + 1:
            found.append(max(0, int(limit) - int(usage)))
    if not found:
        try:
            import psutil

            found.append(int(psutil.virtual_memory().available))
        except (ImportError, OSError):
            total = machine_memory()
            return total
    return min(found)


def _cgroup_limit_files() -> list[str]:
    """The files holding this process's memory limit: cgroup v2's ``memory.max`` (of its own group and the
    root), cgroup v1's ``memory.limit_in_bytes``."""
    files = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
    try:
        for line in open("/proc/self/cgroup", encoding="utf-8"):
            number, controllers, path = line.rstrip("\n").split(":", 2)
            if number == "0" and path not in ("", "/"):
                files.append(f"/sys/fs/cgroup{path}/memory.max")
            elif "memory" in controllers.split(",") and path not in ("", "/"):
                files.append(f"/sys/fs/cgroup/memory{path}/memory.limit_in_bytes")
    except (OSError, ValueError):
        pass
    return files


# --------------------------------------------------------------------------------------------------
# counts too large for a float: C(10000, 5000) has 3,009 digits
# --------------------------------------------------------------------------------------------------

def log10_count(count: int) -> float:
    """log10 of a positive integer of any size, without converting it to a float (which overflows past
    ~1.8e308): from its top 53 bits and its bit length.

    Examples
    --------
    >>> round(log10_count(comb(10_000, 5_000)), 3)
    3008.202
    """
    count = int(count)
    if count <= 0:
        raise ValueError(f"log10_count needs a positive integer, not {count}")
    shift = max(0, count.bit_length() - 53)
    return log10(count >> shift) + shift * log10(2.0)


def log10_comb(n: int, k: int) -> float:
    """log10 C(n, k) = [lnΓ(n + 1) − lnΓ(k + 1) − lnΓ(n − k + 1)] / ln 10, for sizes whose count would
    overflow a float (to about 1e-12 relative; :func:`log10_count` of ``math.comb`` is exact to rounding).

    Examples
    --------
    >>> round(log10_comb(10_000, 5_000), 3)
    3008.202
    """
    return (lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)) / log(10.0)


#: integers up to this are shown in full or with ``:.3g``; larger ones as a power of ten
_FLOAT_SAFE = 2 ** 1000


def count_text(count: int) -> str:
    """A count for a message: as ``:.3g`` would show it (``1.26e+14``) when a float holds it, else
    ``~10^3008`` (never an ``OverflowError``, nor Python's limit on the digits of ``str(int)``).

    Examples
    --------
    >>> count_text(comb(50, 25)), count_text(comb(10_000, 5_000))
    ('1.26e+14', '~1.59x10^3008')
    """
    count = int(count)
    if count < _FLOAT_SAFE:
        return f"{count:.3g}"
    return power_text(log10_count(count))


def power_text(log10_value: float) -> str:
    """A positive number given by its log10, as ``~1.59x10^3008`` (for numbers past a float's range).

    Examples
    --------
    >>> power_text(3008.2014)
    '~1.59x10^3008'
    """
    whole = int(log10_value // 1)
    return f"~{10 ** (log10_value - whole):.3g}x10^{whole}"


def ratio(numerator: float, count: int) -> float:
    """``numerator / count`` as a float for an integer ``count`` of any size: the same float as before when the
    count fits in a float, else correctly rounded through :class:`fractions.Fraction` (down to 0.0 below the
    smallest float) instead of ``OverflowError: int too large to convert to float``.

    Examples
    --------
    >>> ratio(1.0, 20), ratio(2.0, comb(1_030, 515)), ratio(1.0, comb(10_000, 5_000))    # 515 + 515 words: 7e-309
    (0.05, 6.99388398449197e-309, 0.0)
    """
    if isinstance(count, int) and abs(count) >= _FLOAT_SAFE:
        return float(Fraction(numerator) / count)
    return numerator / count


# --------------------------------------------------------------------------------------------------
# estimates and the budget they are held to
# --------------------------------------------------------------------------------------------------

def float_or_inf(n) -> float:
    """``float(n)``, or infinity when the integer is too large for a float (cost estimates).

    Examples
    --------
    >>> float_or_inf(3), float_or_inf(10 ** 400)
    (3.0, inf)
    """
    try:
        return float(n)
    except OverflowError:
        return float("inf")


def bytes_text(n: float) -> str:
    """A number of bytes for a message, in binary units (``1 GiB``), or past 10^300 B in words.

    Examples
    --------
    >>> bytes_text(16.0 * 2 ** 26)
    '1 GiB'
    """
    n = float_or_inf(n)
    if n == float("inf"):
        return "more than 10^300 B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}"
        n /= 1024


def _duration(seconds: float) -> str:
    seconds = float_or_inf(seconds)
    if seconds == float("inf"):
        return "forever (an estimate past 10^300 s)"
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.3g} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.3g} h"
    return f"{seconds / 86400:.3g} days"


def check_cost(what: str, seconds: float, n_bytes: float, max_seconds: float, way_out: str, *,
               max_bytes: float | None = None, memory_budget: str | None = None) -> None:
    """Refuse, before any work, a request estimated to take more than ``max_seconds`` or to allocate more
    than :func:`memory_limit` (raise :data:`MAX_BYTES` to allow more), or than ``max_bytes`` when given
    (described in the message by ``memory_budget``): :class:`~wordbias.core.errors.TooCostlyError` with the
    estimate and ``way_out``.

    Examples
    --------
    >>> check_cost("10 draws", 1.0, 80, max_seconds=60, way_out="-")     # within budget: nothing happens
    """
    max_seconds = check_real("max_seconds", max_seconds, low=0, low_open=True) if max_seconds != float("inf") \
        else max_seconds
    limit = memory_limit() if max_bytes is None else max_bytes
    budget = memory_budget or "wordbias.core.costs.MAX_BYTES or half this machine's"
    if seconds > max_seconds or n_bytes > limit:
        raise TooCostlyError(
            f"{what} is estimated to take {_duration(seconds)} and {bytes_text(n_bytes)} of memory, over the budget "
            f"(max_seconds={max_seconds:g}, memory {bytes_text(limit)}: {budget}); refused before any work. "
            f"{way_out}")


def duration_text(seconds: float) -> str:
    """A duration for a message: seconds, minutes, hours or days.

    Examples
    --------
    >>> duration_text(90), duration_text(7200), duration_text(4e6)
    ('90 s', '2 h', '46.3 days')
    """
    return _duration(seconds)


def draws_text(n: int) -> str:
    """A number of draws for a message: with thousands separators, or as a power of ten past 10^15."""
    return f"{n:,}" if n < 10 ** 15 else count_text(n)


#: multiply-adds per second of numpy's vectorised resampling statistics (gathers, index counts, matrix
#: products over a batch of resamples), a conservative figure for one laptop core
RESAMPLE_OPS_PER_SECOND = 2e8


def resampling_cost(n_draws: int, ops_per_draw: float, bytes_per_draw: float, *, held_draws: int | None = None,
                    fixed_bytes: float = 0.0, rate: float = RESAMPLE_OPS_PER_SECOND) -> tuple[float, float]:
    """(seconds, bytes) of ``n_draws`` resamples (bootstrap replicates, random partitions, sign patterns,
    random subsets of a word list): time = n_draws × ``ops_per_draw`` / ``rate``; memory = ``held_draws``
    (the resamples held at once: all of them unless the computation goes in batches) × ``bytes_per_draw`` +
    ``fixed_bytes``. Integers of any size give an infinite estimate, not an ``OverflowError``.

    Examples
    --------
    >>> resampling_cost(10_000, 2_000, 800)
    (0.1, 8000000.0)
    """
    draws = float_or_inf(check_int("n_draws", n_draws, min=1))
    held = draws if held_draws is None else min(draws, float_or_inf(held_draws))
    return draws * ops_per_draw / rate, held * bytes_per_draw + fixed_bytes


def check_resampling_cost(what: str, name: str, n_draws: int, ops_per_draw: float, bytes_per_draw: float, *,
                          max_seconds: float = MAX_SECONDS, held_draws: int | None = None, fixed_bytes: float = 0.0,
                          rate: float = RESAMPLE_OPS_PER_SECOND, way_out: str = "") -> None:
    """The one cost check of every resampling entry point (bootstraps, sign-flip draws, the random word
    lists of the sensitivity curve): refuse, before any work, ``n_draws`` resamples whose estimate
    (:func:`resampling_cost`) is over ``max_seconds`` or :func:`memory_limit`, with
    :class:`~wordbias.core.errors.TooCostlyError` naming ``name`` = ``n_draws``, the estimate and the way out
    (a smaller ``name``, ``way_out``, or a larger ``max_seconds``). The Monte Carlo p-value has its own
    estimate (:func:`~wordbias.stats.montecarlo.check_mc_cost`) through the same :func:`check_cost`.

    Examples
    --------
    >>> check_resampling_cost("a bootstrap", "n_resamples", 10 ** 12, 1_000, 800)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.TooCostlyError: a bootstrap with n_resamples=1,000,000,000,000 is estimated to take 57.9 days and 728 TiB of memory, over the budget (max_seconds=600, memory 4 GiB: wordbias.core.costs.MAX_BYTES or half this machine's); refused before any work. Use a smaller n_resamples (10,000 is the usual number), or pass a larger max_seconds if you mean it.
    """
    n_draws = check_int(name, n_draws, min=1)
    seconds, n_bytes = resampling_cost(n_draws, ops_per_draw, bytes_per_draw, held_draws=held_draws,
                                       fixed_bytes=fixed_bytes, rate=rate)
    usual = "10,000 is the usual number" if name == "n_resamples" else "a few thousand are usually enough"
    check_cost(f"{what} with {name}={draws_text(n_draws)}", seconds, n_bytes, max_seconds,
               f"Use a smaller {name} ({usual}){', ' + way_out if way_out else ''}, or pass a larger max_seconds "
               f"if you mean it.")
