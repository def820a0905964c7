"""Core machinery shared by every measure and paper (the statistics are in :mod:`wordbias.stats`).

- :mod:`~wordbias.core.paths`        where data, results, figures and caches live; the kernel fingerprint
- :mod:`~wordbias.core.lookup`       words, word sets and word pairs to vectors (the unknown-word policy)
- :mod:`~wordbias.core.vectors`      unit rows and cosine matrices, shared by the measures
- :mod:`~wordbias.core.costs`        the budgets that refuse a request out of proportion; counts past a float
- :mod:`~wordbias.core.errors`, :mod:`~wordbias.core.validation`
                                     exceptions and warnings by kind; parameter checks at the public boundary
- :mod:`~wordbias.core.parallel`, :mod:`~wordbias.core.progress`, :mod:`~wordbias.core.atomic`
                                     worker threads, progress bars, atomic cache writes
- :mod:`~wordbias.core.figures`      figure types, label placement and reproducible saving
- :mod:`~wordbias.core.tables`       narrow, plain-named table views for readers (the CSVs keep every column)
"""
