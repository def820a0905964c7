"""Diagnostics of a test: each word's influence on d, and the frequency confound of its lists.

- :mod:`~wordbias.measures.diagnostics.sensitivity`
- :mod:`~wordbias.measures.diagnostics.frequency`

Each module is named after its measure; import the function from its module, e.g.
``from wordbias.measures.diagnostics.sensitivity import ...``.
"""
