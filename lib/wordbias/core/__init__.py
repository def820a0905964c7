"""Core machinery shared by every measure and paper.

- :mod:`~wordbias.core.paths`        where data, results, figures and caches live; the kernel fingerprint
- :mod:`~wordbias.core.lookup`       words, word sets and word pairs to vectors (the unknown-word policy)
- :mod:`~wordbias.core.permutation`  the permutation engine: exact, Monte Carlo and normal tail probabilities
- :mod:`~wordbias.core.kernels`      its compiled (numba) kernels
- :mod:`~wordbias.core.multiple`     Holm and Benjamini-Hochberg adjusted p-values for a family of tests
- :mod:`~wordbias.core.errors`, :mod:`~wordbias.core.validation`
                                     exceptions and warnings by kind; parameter checks at the public boundary
- :mod:`~wordbias.core.parallel`, :mod:`~wordbias.core.progress`, :mod:`~wordbias.core.cache`
                                     worker threads, progress bars, atomic cache writes
- :mod:`~wordbias.core.figures`      figure types, label placement and reproducible saving
- :mod:`~wordbias.core.tables`       narrow, plain-named table views for readers (the CSVs keep every column)
- :mod:`~wordbias.core.censor`       bleeping slurs in displayed word lists
- :mod:`~wordbias.core.notebooks`, :mod:`~wordbias.core.repro`
                                     cleaning executed notebooks; checking outputs against committed ones
"""
