"""Bias measures that no single paper owns; each module cites the paper that defines its method.

- :mod:`~wordbias.measures.measurement`  a test measured once into a ``Measurement`` (``wordbias.weat``,
                                       ``wordbias.wefat``; ``weats``: a battery with adjusted p)

- :mod:`~wordbias.measures.weat`       WEAT (Caliskan et al. 2017): association, statistic, effect size, p-value
- :mod:`~wordbias.measures.wefat`      WEFAT (Caliskan et al. 2017): word associations against a property
- :mod:`~wordbias.measures.direction`  bias directions: PCA and mean-difference directions, projections,
                                       direct bias (Bolukbasi et al. 2016)
- :mod:`~wordbias.measures.direction_permutation`  the direction permutation test (the racial bias
                                       report): cos(r, s), p one- and two-sided, measured once
- :mod:`~wordbias.measures.debias`     hard debiasing (Bolukbasi et al. 2016)
- :mod:`~wordbias.measures.ube`        unsupervised bias enumeration (Swinger et al. 2019); its steps in
                                       ube_names, ube_words, ube_null (+ ube_kernels) and ube_result
- :mod:`~wordbias.measures.mlm`        masked-LM log-probability bias scores (Kurita et al. 2019)
- :mod:`~wordbias.measures.topics`     NMF topics and the bias of topics and documents (Kurita et al. 2019, §4)
- :mod:`~wordbias.measures.bootstrap`  bootstrap intervals over the words for WEAT's effect size and statistic;
                                       WEFAT's r in bootstrap_wefat, the cosine of two directions in
                                       bootstrap_direction, the parts they share in resampling
- :mod:`~wordbias.measures.ripa`       RIPA (Ethayarajh et al. 2019): per-pair scores, their spread, a sign-flip test
- :mod:`~wordbias.measures.scweat`     SC-WEAT, the single-category WEAT (Caliskan et al. 2022) and its test
- :mod:`~wordbias.measures.sensitivity`  each word's influence on d, and d when words are dropped at random
- :mod:`~wordbias.measures.frequency`  frequency ranks of the stimuli and the frequency confound of a test
- :mod:`~wordbias.measures.ceat`       CEAT's random-effects pooling of per-context effect sizes (Guo & Caliskan 2021)
- :mod:`~wordbias.measures.contextual`  the contextual tests of Kurita et al. (2019), each measured once
"""
