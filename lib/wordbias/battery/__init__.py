"""Batteries of tests as tidy tables (:mod:`wordbias.core.tidy`, one row per test), built on :mod:`wordbias.measures`
only: each test is measured once into a :class:`~wordbias.result.Result` and the rows are views
of it. :mod:`~wordbias.battery.weat` (WEATs and WEFATs: a paper's lists or a user's YAML),
:mod:`~wordbias.battery.direction` (direction tests, direct bias, RIPA), :mod:`~wordbias.battery.ube` (UBE runs),
:mod:`~wordbias.battery.report` (``wordbias report``: every static-embedding test of the four papers),
:mod:`~wordbias.battery.contextual` (contextual models), :mod:`~wordbias.battery.compare` (the same battery across
embeddings) and :mod:`~wordbias.battery.summary` (the terminal table, the HTML page and the forest plot)."""
