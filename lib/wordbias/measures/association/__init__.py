"""The WEAT-like tests: associations of target words with attribute words, tested by permuting the targets. Its
modules, each named after its measure (import the function from its module):
:mod:`~wordbias.measures.association.weat`, :mod:`~wordbias.measures.association.wefat`,
:mod:`~wordbias.measures.association.measurement`, :mod:`~wordbias.measures.association.scweat`,
:mod:`~wordbias.measures.association.seat`, :mod:`~wordbias.measures.association.ceat`,
:mod:`~wordbias.measures.association.bootstrap`, :mod:`~wordbias.measures.association.bootstrap_wefat`,
:mod:`~wordbias.measures.association.conventions`.
"""
