"""Scores from language models: masked-LM log-probability bias (Kurita et al. 2019), the contextual tests, topics. Its
modules, each named after its measure (import the function from its module):
:mod:`~wordbias.measures.language_models.mlm`, :mod:`~wordbias.measures.language_models.contextual`,
:mod:`~wordbias.measures.language_models.topics`.
"""
