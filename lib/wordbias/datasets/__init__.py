"""Data sets shipped under ``data/``, each with its provenance.

- :mod:`~wordbias.datasets.stimuli`  the papers' word lists, templates and reported numbers (``data/stimuli``)
- :mod:`~wordbias.datasets.names`    first names and surnames with counts and demographics (Swinger et al. 2019)
- :mod:`~wordbias.datasets.gap`      the GAP coreference data set (read and checked)
- :mod:`~wordbias.datasets.user_lists`  a user's WEAT/WEFAT lists in YAML, and the shipped batteries
- :mod:`~wordbias.datasets.contextual_tests`  Kurita et al.'s categories and templates (2019), as data
- :mod:`~wordbias.datasets.casing`   a cased English word list (Swinger et al.'s Appendix C.4 stand-in)
- :mod:`~wordbias.datasets.censor`   the slurs bleeped in displayed word lists (Swinger et al. 2019, Appendix A)
"""
