"""Bias measures that no single paper owns; each module cites the paper that defines its method.

- :mod:`~wordbias.measures.measurement`  a test measured once into a ``Result`` (``wordbias.weat``,
                                       ``wordbias.wefat``; ``weats``: a battery with adjusted p)

- :mod:`~wordbias.measures.weat`       WEAT (Caliskan et al. 2017): association, statistic, effect size, p-value
- :mod:`~wordbias.measures.wefat`      WEFAT (Caliskan et al. 2017): word associations against a property
- :mod:`~wordbias.measures.direction`  bias directions: PCA and mean-difference directions, projections,
                                       direct bias (Bolukbasi et al. 2016)
- :mod:`~wordbias.measures.direction_permutation`  the direction permutation test (the racial bias
                                       report): cos(r, s), p one- and two-sided, measured once
- :mod:`~wordbias.measures.debias`     hard debiasing (Bolukbasi et al. 2016)
- :mod:`~wordbias.measures.debias_checks`  what debiasing leaves (Gonen & Goldberg 2019): clustering, classifier
                                       and bias-by-neighbours checks, each with an interval
- :mod:`~wordbias.measures.utility`    what an embedding still knows: analogy accuracy, WordSim-353 and
                                       SimLex-999 rho, as gensim computes them, vectorised, with intervals
- :mod:`~wordbias.measures.double_hard`  double-hard debiasing (Wang et al. 2020)
- :mod:`~wordbias.measures.inlp`       iterative nullspace projection, INLP (Ravfogel et al. 2020)
- :mod:`~wordbias.measures.leace`      LEACE, closed-form linear concept erasure (Belrose et al. 2023)
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
- :mod:`~wordbias.measures.ect`        ECT, the embedding coherence test (Dev & Phillips 2019)
- :mod:`~wordbias.measures.rnd`        RND, the relative norm distance (Garg et al. 2018)
- :mod:`~wordbias.measures.rnsb`       RNSB, the relative negative sentiment bias (Sweeney & Najafian 2019)
- :mod:`~wordbias.measures.mac`        MAC, the mean average cosine distance (Manzini et al. 2019)
- :mod:`~wordbias.measures.semaxis`    SemAxis scores and two target sets compared on an axis (An et al. 2018)
- :mod:`~wordbias.measures.indirect_bias`  indirect bias β (Bolukbasi et al. 2016, §5.2)
- :mod:`~wordbias.measures.set_measures`  what those six share: checks, look-up, bootstrap, permutation test
"""
