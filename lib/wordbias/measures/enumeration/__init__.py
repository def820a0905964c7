"""Swinger et al.'s (2019) unsupervised bias enumeration (UBE): names, words, the rotational null, the result.

- :mod:`~wordbias.measures.enumeration.ube`
- :mod:`~wordbias.measures.enumeration.ube_kernels`
- :mod:`~wordbias.measures.enumeration.ube_names`
- :mod:`~wordbias.measures.enumeration.ube_null`
- :mod:`~wordbias.measures.enumeration.ube_result`
- :mod:`~wordbias.measures.enumeration.ube_words`

Each module is named after its measure; import the function from its module, e.g.
``from wordbias.measures.enumeration.ube import ...``.
"""
