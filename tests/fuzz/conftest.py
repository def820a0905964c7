"""The settings profiles of the fuzzing pass.

Two profiles, registered here and applied per test through :func:`strategies.fuzz` (never loaded globally, so
the rest of the suite keeps its own hypothesis settings):

- ``wordbias-fuzz`` (the default, what ``make test`` runs): ``derandomize=True`` (the same examples on every
  run, so CI is deterministic), ``database=None`` (no ``.hypothesis/`` folder in the checkout),
  ``deadline=None`` (the first call of a numba kernel compiles for seconds), and each test's own fixed
  ``max_examples`` (sized so that the whole folder runs in well under 60 s on two busy cores);
- ``wordbias-fuzz-long`` (``WORDBIAS_FUZZ=long``): random (not derandomized) exploration with
  ``WORDBIAS_FUZZ_SCALE`` (default 20) times as many examples per test, for a longer manual run.

No health check is suppressed: the tests take no function-scoped fixture (temporary folders come from
``tempfile``, output is captured with ``contextlib.redirect_*``).
"""
from __future__ import annotations

from hypothesis import Phase, Verbosity, settings

DEFAULT = "wordbias-fuzz"
LONG = "wordbias-fuzz-long"

# the explain phase (which parts of a failing example matter) is left out of the fixed budget: it can take
# longer than the search itself; the long profile keeps it
settings.register_profile(DEFAULT, derandomize=True, deadline=None, database=None, max_examples=20,
                          print_blob=False, verbosity=Verbosity.normal,
                          phases=(Phase.explicit, Phase.generate, Phase.shrink))
settings.register_profile(LONG, derandomize=False, deadline=None, database=None, max_examples=400,
                          print_blob=True, verbosity=Verbosity.normal,
                          phases=tuple(Phase))
