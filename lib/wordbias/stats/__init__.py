"""The statistics below the measures: no embeddings, no word lists, only numbers.

- :mod:`~wordbias.stats.permutation`  the permutation engine: exact, Monte Carlo and normal tail probabilities of
                                      a two-sample statistic
- :mod:`~wordbias.stats.exact_count`, :mod:`~wordbias.stats.montecarlo`, :mod:`~wordbias.stats.subset_sums`
                                      its exact count, its random draws, the inputs they share
- :mod:`~wordbias.stats.kernels`      their compiled (numba) kernels
- :mod:`~wordbias.stats.resampling`   the bootstrap: resampling plans, percentile and BCa intervals
- :mod:`~wordbias.stats.multiple`     Holm and Benjamini-Hochberg adjusted p-values for a family of tests, and a
                                      tidy table's family adjusted at once
- :mod:`~wordbias.stats.reliability`  test-retest reliability (ICC) and internal consistency (Cronbach's alpha)

The sign-flip test of paired scores is :func:`wordbias.measures.directions.ripa.sign_flip_test`.
"""
