"""Batteries of tests as one tidy table (issue 15): every static-embedding test of the four papers
(:mod:`~wordbias.battery.static`), the same battery across embeddings (:mod:`~wordbias.battery.compare`), and a
one-page HTML summary with a forest plot (:mod:`~wordbias.battery.summary`). Rows follow the tidy schema of
:mod:`wordbias.core.tidy` (one row per test)."""
