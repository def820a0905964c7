"""Developer tools of the repository, not part of the installed ``wordbias`` package.

- :mod:`tools.notebooks`   strip run-dependent metadata from executed notebooks (``make`` runs it on each one)
- :mod:`tools.repro`       check regenerated outputs against the committed ones (``make check-results``,
                           ``make test``, ``scripts/repro_check.sh``), within the tolerances that
- :mod:`tools.tolerances`  reads from ``tools/repro_tolerances.yaml``

Run them from the repository root: ``python -m tools.repro compare``, ``python -m tools.notebooks NB...``.
"""
