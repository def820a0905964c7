"""Bias measures that no single paper owns; each module cites the paper that defines its method.

- :mod:`~wordbias.measures.weat`       WEAT (Caliskan et al. 2017): association, statistic, effect size, p-value
- :mod:`~wordbias.measures.wefat`      WEFAT (Caliskan et al. 2017): word associations against a property
- :mod:`~wordbias.measures.direction`  bias directions: PCA and mean-difference directions, projections,
                                       direct bias (Bolukbasi et al. 2016)
- :mod:`~wordbias.measures.debias`     hard debiasing (Bolukbasi et al. 2016)
- :mod:`~wordbias.measures.ube`        unsupervised bias enumeration (Swinger et al. 2019)
- :mod:`~wordbias.measures.mlm`        masked-LM log-probability bias scores (Kurita et al. 2019)
- :mod:`~wordbias.measures.topics`     NMF topics and the bias of topics and documents (Kurita et al. 2019, §4)
- :mod:`~wordbias.measures.bootstrap`  bootstrap intervals over the words for WEAT's effect size and statistic
- :mod:`~wordbias.measures.ripa`       RIPA (Ethayarajh et al. 2019): per-pair scores, their spread, a sign-flip test
- :mod:`~wordbias.measures.scweat`     SC-WEAT, the single-category WEAT (Caliskan et al. 2022) and its test
- :mod:`~wordbias.measures.sensitivity`  each word's influence on d, and d when words are dropped at random
- :mod:`~wordbias.measures.frequency`  frequency ranks of the stimuli and the frequency confound of a test
- :mod:`~wordbias.measures.ceat`       CEAT's random-effects pooling of per-context effect sizes (Guo & Caliskan 2021)
"""
