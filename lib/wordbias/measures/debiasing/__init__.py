"""Debiasing and what it leaves: hard and double-hard debiasing, INLP, LEACE, and the checks of what remains. Its
modules, each named after its measure (import the function from its module):
:mod:`~wordbias.measures.debiasing.debias`, :mod:`~wordbias.measures.debiasing.debias_checks`,
:mod:`~wordbias.measures.debiasing.double_hard`, :mod:`~wordbias.measures.debiasing.inlp`,
:mod:`~wordbias.measures.debiasing.leace`, :mod:`~wordbias.measures.debiasing.utility`.
"""
