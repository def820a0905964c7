"""Core machinery shared by every measure and paper.

- :mod:`~wordbias.core.paths`        where data, results, figures and caches live; the kernel fingerprint
- :mod:`~wordbias.core.lookup`       words, word sets and word pairs to vectors (the unknown-word policy)
- :mod:`~wordbias.core.vectors`      unit rows and cosine matrices, shared by the measures
- :mod:`~wordbias.core.permutation`  the permutation engine: exact, Monte Carlo and normal tail probabilities
- :mod:`~wordbias.core.exact_count`, :mod:`~wordbias.core.montecarlo`, :mod:`~wordbias.core.subset_sums`
                                     its exact count, its random draws, the inputs they share
- :mod:`~wordbias.core.kernels`      their compiled (numba) kernels
- :mod:`~wordbias.core.costs`        the budgets that refuse a request out of proportion; counts past a float
- :mod:`~wordbias.core.multiple`     Holm and Benjamini-Hochberg adjusted p-values for a family of tests
- :mod:`~wordbias.core.errors`, :mod:`~wordbias.core.validation`
                                     exceptions and warnings by kind; parameter checks at the public boundary
- :mod:`~wordbias.core.parallel`, :mod:`~wordbias.core.progress`, :mod:`~wordbias.core.atomic`
                                     worker threads, progress bars, atomic cache writes
- :mod:`~wordbias.core.figures`      figure types, label placement and reproducible saving
- :mod:`~wordbias.core.tables`       narrow, plain-named table views for readers (the CSVs keep every column)
"""
