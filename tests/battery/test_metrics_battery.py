"""battery.metrics: ECT, RND, MAC, SemAxis, RNSB and indirect bias as tidy rows of the report."""
import numpy as np
import pytest

from wordbias import embeddings
from wordbias.battery import metrics
from wordbias.core import tidy
from wordbias.datasets import stimuli
from wordbias.measures.sets.ect import ect
from wordbias.options import Resampling


@pytest.fixture(scope="module")
def glove():
    return embeddings.load("glove-6b-50d", progress=False)


@pytest.fixture(scope="module")
def rows(glove):
    return metrics.metric_rows(glove, base={"embedding": "glove"}, case_fold=True, seed=0, n_permutations=2_000,
                               n_resamples=500, cov={"min_words": 4, "min_fraction": 0.5})


def test_rows_are_tidy_and_complete(rows):
    t = tidy.tidy_frame(rows)
    assert len(t) == 15 and (t.battery == "metrics").all()
    assert t.measure.value_counts().to_dict() == {"ect": 3, "rnd": 3, "mac": 3, "semaxis": 3, "rnsb": 1,
                                                  "indirect_bias": 2}
    assert t.effect_size.notna().all() and t.ci_low.notna().all()
    assert ((t.ci_low <= t.effect_size) | (t.measure == "rnsb")).all()    # RNSB's bootstrap is biased upwards
    has_p = t.measure.isin(["ect", "rnd", "semaxis"])
    assert t[has_p].p_value.notna().all() and t[~has_p].p_value.isna().all()
    assert t[~has_p].note.str.contains("no test:").all()
    assert set(t.paper) == {"dev2019", "garg2018", "manzini2019", "an2018", "sweeney2019", "bolukbasi2016"}
    assert not t.low_coverage.any()                                       # the sport is a probe word, not judged


def test_a_row_is_the_measure_itself(glove, rows):
    s = {x.id: x for x in stimuli.weat_tests("caliskan2017", "glove")}["WEAT6"]
    X, Y, A, B = ([w.lower() for w in getattr(s, r)] for r in "XYAB")
    m = ect(glove, X, Y, A + B, resampling=Resampling(n_resamples=500, n_permutations=2_000), warn=False)
    row = next(r for r in rows if r["test"] == "ECT:WEAT6")
    assert row["measure"] == "ect"
    assert row["effect_size"] == m.effect_size and row["p_value"] == m.p_value and row["ci_low"] == m.ci_low
    assert (row["n_x"], row["n_y"], row["n_a"]) == (8, 8, 16)


def test_not_run_rows_say_why():
    kv = embeddings.to_keyed_vectors([f"w{i}" for i in range(20)], np.random.default_rng(0).normal(size=(20, 4)))
    t = tidy.tidy_frame(metrics.metric_rows(kv, base={"embedding": "x"}, case_fold=True, seed=0, n_permutations=100,
                                            n_resamples=100, cov={"min_words": 4, "min_fraction": 0.5}))
    assert t.note.str.startswith("not run").all() and t.effect_size.isna().all()
    assert t.dropped.str.len().gt(0).all() and t.low_coverage.all()
