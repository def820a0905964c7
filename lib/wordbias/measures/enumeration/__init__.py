"""Swinger et al.'s (2019) unsupervised bias enumeration (UBE): names, words, the rotational null, the result. Its
modules, each named after its measure (import the function from its module):
:mod:`~wordbias.measures.enumeration.ube`, :mod:`~wordbias.measures.enumeration.ube_kernels`,
:mod:`~wordbias.measures.enumeration.ube_names`, :mod:`~wordbias.measures.enumeration.ube_null`,
:mod:`~wordbias.measures.enumeration.ube_result`, :mod:`~wordbias.measures.enumeration.ube_words`.
"""
