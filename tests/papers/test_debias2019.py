"""papers.debias2019: the methods run and timed, the checks' views, the notes and the paper table, on a small
synthetic embedding (and a hand-made table)."""
from __future__ import annotations

import string
import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest

from wordbias.battery import debias as battery
from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import debias
from wordbias.papers import debias2019

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def toy():
    rng = np.random.default_rng(1)
    lists = debias.word_lists(False)
    named = [w for w in dict.fromkeys(list(lists.professions) + [w for p in lists.definitional_pairs for w in p])
             if "_" not in w]
    extra: dict[str, None] = {}
    while len(extra) < 160:
        extra["".join(rng.choice(list(string.ascii_lowercase), 6))] = None
    words = named + list(extra)
    V = rng.normal(size=(len(words), 8))
    V[len(named):, 0] += np.linspace(-3, 3, len(extra))
    return to_keyed_vectors(words, V.astype(np.float32))


def test_inlp_iterations_keep_the_papers_share():
    assert debias2019.inlp_iterations(300) == 35 and debias2019.inlp_iterations(50) == 6
    with pytest.raises(InvalidParameterError):
        debias2019.inlp_iterations(0)


def test_bad_methods(toy):
    for bad in ("hard", [], ["hard", "hard"], ["hard", "gn-glove"]):
        with pytest.raises(InvalidParameterError):
            debias2019.debias_methods(toy, bad)


def test_methods_checks_and_views(toy):
    lines = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = debias2019.debias_methods(toy, ["hard"], seed=0, label="toy", progress=lines.append)
        again = debias2019.debias_methods(toy, ["hard"], seed=0, label="toy")
    np.testing.assert_array_equal(run.embeddings["hard"].vectors, again.embeddings["hard"].vectors)
    assert run.inlp_iterations == 1 and len(lines) == 1 and lines[0].startswith("toy+hard: ")
    assert "1 direction" in debias2019.methods_table(run).loc["hard", "removed"]
    table = battery.debias_table(toy, run.embeddings, n_per_side=30, n_cluster_per_side=15, n_train=20,
                                 n_resamples=20, n_cluster_resamples=10, restrict_vocab=None)
    shown = debias2019.show_checks(table)
    assert list(shown.columns) == ["debiased:", "original", "hard"]
    assert len(shown) == len(battery.CHECKS)
    notes = debias2019.gap_notes(table)
    assert notes.startswith("- **hard**: ") and "DirectBias_1" in notes
    times = debias2019.timing_table(run, table)
    assert list(times.index) == ["original", "hard"] and "checks, total" in times.columns
    fig = debias2019.mark_chance(battery.debias_figure(table), title="toy")
    assert fig._suptitle.get_text() == "toy"
    assert sum(any(line.get_color() == "tab:red" for line in ax.get_lines()) for ax in fig.axes) == 2
    paper = debias2019.paper_table(table)
    assert len(paper) == len(debias2019.reported_numbers())
    hard = paper[(paper.method == "hard") & (paper.check == battery.CHECKS["cluster_acc"][0])]
    assert hard["ours after"].iloc[0] == table.loc["hard", "cluster_acc"]
    assert paper[paper.method == "gn-glove"]["ours after"].isna().all()


def test_notes_say_when_the_information_is_gone():
    cols = {"cluster_acc": [1.0, 0.52], "cluster_acc_low": [1.0, 0.47], "cluster_acc_high": [1.0, 0.56],
            "classifier_acc": [1.0, 0.51], "classifier_acc_low": [0.99, 0.49], "classifier_acc_high": [1.0, 0.53],
            "direct_bias": [0.2, 0.01], "direct_bias_low": [0.18, 0.0], "direct_bias_high": [0.22, 0.02]}
    t = pd.DataFrame(cols, index=pd.Index(["original", "leace"], name="method"))
    assert "gone to these checks" in debias2019.gap_notes(t)
    with pytest.raises(InvalidParameterError):
        debias2019.gap_notes(t.drop(index="original"))


def test_reported_numbers_are_cited_and_marked():
    r = debias2019.reported_numbers()
    assert set(r.confirmed) <= {"paper", "notebook", "no"}
    assert set(r.paper) == {"gonen2019", "ravfogel2020"}
    assert (r[r.paper == "gonen2019"].confirmed == "paper").all()       # read in their Section 4 (SOURCE.md)
    assert r["where"].notna().all() and r["after"].notna().all()
