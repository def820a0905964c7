"""wordbias.battery.ube: UBE runs (Swinger et al. 2019) as tidy rows, built on wordbias.measures only."""

import math

import numpy as np
import pytest

from wordbias.battery import ube as battery_ube
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.enumeration import ube
from wordbias.stats import multiple

TOKENS = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]   # 120 letter-only tokens


@pytest.fixture(scope="module")
def toy():
    """UBE on random vectors (ube.run's doctest): 20 of the tokens are the names, 3 groups."""
    kv = to_keyed_vectors(TOKENS, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    parameters = ube.UBEParameters(n=3, m=3, M=60, t=2, R=50, svm_top_words=120, case_source=None)
    return ube.run(kv, TOKENS[:20], parameters, progress=False)


BASE = dict(embedding="toy", paper="user", battery="toy", seed=0)


def test_defaults_are_the_papers_table2():
    assert battery_ube.UBE_DEFAULTS == {k: ube.DEFAULTS[k] for k in ("n", "m", "M", "t", "R")}


def test_ube_row_sums_up_the_run(toy):
    row = battery_ube.ube_row(toy, base=BASE, test="UBE:toy", title="toy")
    finite = np.isfinite(toy.sigma)
    assert row["statistic"] == toy.significant.sum() and row["n_x"] == len(toy.names) == 16
    assert row["n_a"] == len(toy.words) and row["n_permutations"] == 50
    assert row["p_value"] == multiple.benjamini_hochberg(toy.p[finite]).min()
    assert f"of {int(finite.sum())} testable cells" in row["note"]
    tidy.check_tidy(tidy.tidy_frame([row]))


def test_ube_row_does_not_depend_on_the_group_order(toy):
    """The paper's notebook shows the groups in its own order (swinger2019.run); the row must not change."""
    a = battery_ube.ube_row(toy, base=BASE, test="UBE:toy", title="toy")
    b = battery_ube.ube_row(toy.reorder([2, 0, 1]), base=BASE, test="UBE:toy", title="toy")
    assert a == b


def test_a_run_without_a_testable_cell_has_no_p(toy):
    import dataclasses

    none = dataclasses.replace(toy, sigma=np.full_like(toy.sigma, -np.inf))
    row = battery_ube.ube_row(none, base=BASE, test="UBE:toy", title="toy")
    assert math.isnan(row["p_value"]) and "of 0 testable cells" in row["note"]


def test_ube_battery_one_row_per_run_and_checks_its_arguments(toy):
    t = battery_ube.ube_battery({"toy names": toy, "toy names, again": toy}, label="toy", seed=0)
    assert t.test.tolist() == ["UBE:toy_names", "UBE:toy_names_again"]
    assert (t.p_value == t.p_value.iloc[0]).all() and t.p_family.str.contains("2 UBE runs").all()
    with pytest.raises(InvalidParameterError, match="label must be a non-empty string"):
        battery_ube.ube_battery({"toy": toy}, label="")
    with pytest.raises(InvalidParameterError, match="runs must map names"):
        battery_ube.ube_battery([toy], label="toy")


def test_first_names_row_says_why_it_did_not_run():
    kv = to_keyed_vectors(TOKENS, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    row = battery_ube.first_names_row(kv, base=dict(embedding="toy", seed=0), seed=0, progress=False)
    assert row["test"] == "UBE:first_names" and row["paper"] == "swinger2019"
    n_names = len(ube.name_list("first", kv, cased=False).tokens)        # a few: "al", "ed", ...
    assert 0 < n_names < 100
    assert row["note"] == (f"not run: DegenerateSetError: only {n_names} first names are in the embedding; UBE needs "
                           f"at least 100 (2 groups of 50)")
    assert "statistic" not in row


def test_the_run_is_one_result_and_the_row_is_its_view(toy):
    from wordbias.result import Result

    r = toy.to_result(test="UBE:toy", title="toy")
    finite = np.isfinite(toy.sigma)
    assert isinstance(r, Result) and r.result is toy and r.measure == "ube"
    assert r.statistic_name == "significant cells" and r.statistic == toy.n_significant()
    assert r.effect_size_name is None and math.isnan(r.effect_size) and r.interval is None
    assert r.p_value == multiple.benjamini_hochberg(toy.p[finite]).min() == toy.simes_p()
    assert r.p_method == f"rotational null, Simes over {int(finite.sum())} cells" and r.n_permutations == 50
    row = battery_ube.ube_row(toy, base=BASE, test="UBE:toy", title="toy")
    assert row["statistic"] == r.statistic and row["p_value"] == r.p_value and row["n_x"] == len(toy.names)
