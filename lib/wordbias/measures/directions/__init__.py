"""Bias directions: projections on a direction, direct and indirect bias, the direction permutation test, RIPA. Its
modules, each named after its measure (import the function from its module):
:mod:`~wordbias.measures.directions.direction`, :mod:`~wordbias.measures.directions.direction_permutation`,
:mod:`~wordbias.measures.directions.bootstrap_direction`, :mod:`~wordbias.measures.directions.ripa`,
:mod:`~wordbias.measures.directions.indirect_bias`.
"""
