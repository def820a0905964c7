"""Diagnostics of a test: each word's influence on d, and the frequency confound of its lists. Its modules, each named
after its measure (import the function from its module): :mod:`~wordbias.measures.diagnostics.sensitivity`,
:mod:`~wordbias.measures.diagnostics.frequency`.
"""
