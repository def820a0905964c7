"""Bias measures, by family; each module cites the paper that defines its method, and every measure returns the
one :class:`wordbias.result.Result` or says in :mod:`wordbias.catalogue` what it is.

- :mod:`~wordbias.measures.association`      WEAT-like tests: WEAT, WEFAT, SC-WEAT, SEAT, CEAT, a test measured
                                             once (``measurement``: ``wordbias.weat``), their bootstraps and
                                             the conventions of other tools
- :mod:`~wordbias.measures.directions`       bias directions, direct and indirect bias, the direction
                                             permutation test, RIPA
- :mod:`~wordbias.measures.sets`             WEFE's set measures: ECT, RND, RNSB, MAC, SemAxis
- :mod:`~wordbias.measures.enumeration`      unsupervised bias enumeration (UBE; Swinger et al. 2019)
- :mod:`~wordbias.measures.language_models`  masked-LM bias scores, the contextual tests, topics (Kurita et al. 2019)
- :mod:`~wordbias.measures.debiasing`        hard, double-hard, INLP and LEACE debiasing, and the checks of what
                                             they leave
- :mod:`~wordbias.measures.diagnostics`      each word's influence on d; the frequency confound of a test
- :mod:`~wordbias.measures.ensemble`         one test over training runs: the interval over words and runs

The statistics they share (permutation engine, bootstrap, multiplicity) are in :mod:`wordbias.stats`.
"""
