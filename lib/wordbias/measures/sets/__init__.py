"""WEFE's set measures (ECT, RND, RNSB, MAC, SemAxis) and what they share: look-up, bootstrap, permutation test. Its
modules, each named after its measure (import the function from its module):
:mod:`~wordbias.measures.sets.set_measures`, :mod:`~wordbias.measures.sets.ect`, :mod:`~wordbias.measures.sets.rnd`,
:mod:`~wordbias.measures.sets.rnsb`, :mod:`~wordbias.measures.sets.mac`, :mod:`~wordbias.measures.sets.semaxis`.
"""
