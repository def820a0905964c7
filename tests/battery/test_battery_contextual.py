"""battery.contextual and `wordbias contextual`: Kurita et al.'s tests on a model as a tidy table."""
import math

import numpy as np
import pandas as pd
import pytest

from wordbias.battery import contextual as C
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import stimuli
from wordbias.datasets.contextual_tests import ROLES, kurita2019_categories
from wordbias.datasets.stimuli import WeatSpec
from wordbias.measures.association import weat
from wordbias.measures.language_models import contextual as measures_contextual
from wordbias.models import tiny_mlm
from wordbias.options import Resampling, Words
from wordbias.stats import multiple

_CAREER = stimuli.load_stimuli("kurita2019")["categories"]["career_family"]
MALE = tuple(w.lower() for w in _CAREER["A"])
FEMALE = tuple(w.lower() for w in _CAREER["B"])


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """The notebook's tiny masked LM: Kurita's career words planted male, family words female (he/she,
    boys/girls, men/women), as ``python -m wordbias.models.tiny_mlm`` builds it."""
    out = tmp_path_factory.mktemp("tiny")
    tiny_mlm.main([str(out)])
    return str(out)


@pytest.fixture(scope="module")
def frame(model):
    return C.report(model, n_permutations=2000, n_resamples=300, seed=0)


def test_the_papers_categories_as_a_tidy_table(frame):
    tidy.check_tidy(frame)
    assert list(frame.test.unique()) == [c.key for c in kurita2019_categories()]
    assert frame.measure.value_counts().to_dict() == {"contextual_weat": 5, "mlm_log_prob": 5}
    career = frame[(frame.test == "career_family") & (frame.measure == "mlm_log_prob")].iloc[0]
    assert career.effect_size > 1.5 and career.p_value < 0.01            # the planted bias is found
    assert career.ci_low <= career.effect_size <= career.ci_high
    # Holm and BH within each measure, over the rows with a p
    for measure, sub in frame.groupby("measure"):
        has_p = sub[sub.p_value.notna()]
        np.testing.assert_allclose(has_p.p_holm, multiple.holm(has_p.p_value.to_numpy(float)))
        np.testing.assert_allclose(has_p.p_bh, multiple.benjamini_hochberg(has_p.p_value.to_numpy(float)))
        assert has_p.p_family.str.contains(measure).all()


def test_contextual_weat_row_is_the_weat_of_the_contextual_vectors(model, frame):
    from wordbias.models import contextual

    enc = contextual.load_encoder(model)
    cat = kurita2019_categories()[2]
    reduced = measures_contextual.reduce_to_vocabulary(cat, enc, seed=0)
    by_template = measures_contextual.vectors_by_template(cat, reduced, enc)
    vectors = measures_contextual.mean_over_templates(cat, reduced, by_template)
    res = weat.weat(vectors, *(reduced[r].words for r in ROLES), resampling=Resampling(seed=0, n_permutations=2000),
                    words=Words(balance_targets="raise", case_fold=False))
    row = frame[(frame.test == cat.key) & (frame.measure == "contextual_weat")].iloc[0]
    assert row.effect_size == pytest.approx(res.effect_size, abs=1e-12)
    assert row.p_value == pytest.approx(res.p_value, abs=1e-12)
    # the same vectors computed in one pass (all templates at once): equal up to float rounding
    one_pass = measures_contextual.contextual_vectors(cat, reduced, enc)
    again = weat.weat(one_pass, *(reduced[r].words for r in ROLES),
                      resampling=Resampling(seed=0, n_permutations=2000),
                      words=Words(balance_targets="raise", case_fold=False))
    assert row.effect_size == pytest.approx(again.effect_size, rel=1e-5)


def test_undefined_scores_are_a_note_not_a_number(frame):
    # math/arts words are not planted: their log-probability scores are equal up to float rounding
    row = frame[(frame.test == "math_arts") & (frame.measure == "mlm_log_prob")].iloc[0]
    assert pd.isna(row.effect_size) and "undefined" in row.note


def test_an_encoder_without_masked_lm_head_reports_why():
    f = C.report("all-minilm-l6-v2", n_permutations=500, n_resamples=200)
    lp = f[f.measure == "mlm_log_prob"]
    assert lp.effect_size.isna().all() and lp.note.str.startswith("not run: needs a masked language model").all()
    assert f[f.measure == "contextual_weat"].effect_size.notna().all()


def test_user_lists_and_templates(model):
    spec = WeatSpec("gender_career", "Gender and career", ("he", "man"), ("she", "woman"), MALE[:4], FEMALE[:4],
                    names={"X": "male", "Y": "female", "A": "career", "B": "family"}, paper={},
                    original_finding=None)
    f = C.report(model, specs=[spec], templates=["TARGET is ATTRIBUTE.", "TARGET likes ATTRIBUTE."],
                 n_permutations=500, n_resamples=200, battery="user:mine")
    assert set(f.battery) == {"user:mine"} and set(f.paper) == {"user"}
    lp = f[f.measure == "mlm_log_prob"].iloc[0]
    assert lp.effect_size > 1 and "2 templates, 4 (template, target pair)s" in lp.note
    with pytest.raises(InvalidParameterError):
        C.user_categories([spec], templates=["no slots here"])
    with pytest.raises(InvalidParameterError):
        C.user_categories([spec], templates="TARGET is ATTRIBUTE.")


def test_the_command(model, tmp_path, capsys):
    from wordbias import cli

    assert cli.main(["contextual", model, "--out", str(tmp_path / "o"), "--n-permutations", "500",
                     "--n-resamples", "200", "-q"]) == 0
    assert sorted(p.name for p in (tmp_path / "o").iterdir())[-2:] == ["summary.html", "tidy.csv"]
    assert len(tidy.read_tidy(tmp_path / "o" / "tidy.csv")) == 10
    assert cli.main(["contextual", "/nonexistent/model", "--out", str(tmp_path / "x")]) == 1
    assert "wordbias: error:" in capsys.readouterr().err
    assert cli.main(["contextual", model, "--template", "TARGET is ATTRIBUTE.", "--out", str(tmp_path / "y")]) == 1


def test_report_models_takes_an_encoder_and_a_separate_masked_lm(model, monkeypatch):
    from wordbias.models import contextual

    with pytest.raises(InvalidParameterError, match="needs an encoder"):
        C.report_models(None)
    enc, mlm_model = contextual.load_encoder("all-minilm-l6-v2"), contextual.load_mlm(model)
    # the paper's categories cut to career/family: MiniLM on all five took half a minute, and one shows the point
    career_only = [c for c in kurita2019_categories() if c.key == "career_family"]
    monkeypatch.setattr(C, "kurita2019_categories", lambda: career_only)
    f = C.report_models(enc, mlm_model, n_permutations=500, n_resamples=200)
    assert set(f.embedding) == {f"all-minilm-l6-v2+{mlm_model.label}"}
    assert set(f.test) == {"career_family"} and set(f.measure) == {"contextual_weat", "mlm_log_prob"}
    career = f[(f.test == "career_family") & (f.measure == "mlm_log_prob")].iloc[0]
    assert career.effect_size > 1.5                              # the masked LM's planted bias
    f2 = C.report_models(enc, None, why_no_mlm="not on this machine", n_permutations=500, n_resamples=200)
    assert f2[f2.measure == "mlm_log_prob"].note.str.contains("not on this machine").all()


def test_the_tidy_table_is_a_view_of_measured_results(model, monkeypatch):
    """Measured once: tidy_table reads the measured results (the same numbers as the results) and runs no test."""
    from wordbias.measures.association import bootstrap
    from wordbias.measures.language_models import mlm
    from wordbias.models import contextual

    enc, masked_lm = contextual.load_encoder(model), contextual.load_mlm(model)
    cats = kurita2019_categories()[2:3]
    results = measures_contextual.measure(cats, encoder=enc, masked_lm=masked_lm,
                                          resampling=Resampling(n_permutations=500, n_resamples=200))

    def broken(*args, **kwargs):
        raise AssertionError("the tidy view ran a test")

    for module, name in ((weat, "weat"), (weat, "p_value"), (bootstrap, "weat_bootstrap"), (mlm, "attribute_test")):
        monkeypatch.setattr(module, name, broken)
    f = C.tidy_table(results, label="tiny", battery="b")
    assert f.measure.tolist() == ["contextual_weat", "mlm_log_prob"] and set(f.embedding) == {"tiny"}
    for r, (_, row) in zip(results, f.iterrows()):
        assert (row.effect_size, row.p_value, row.p_two_sided, row.ci_low, row.ci_high) == pytest.approx(
            (r.effect_size, r.p_value, r.p_two_sided, r.ci_low, r.ci_high))
    static = measures_contextual.CategoryResult(cats[0], "weat", "glove", seed=0, n_permutations=500,
                                                n_resamples=200, confidence_level=0.95)
    with pytest.raises(InvalidParameterError, match="takes the measures"):
        C.tidy_table([static], label="tiny")


def test_each_measured_test_is_one_result(model):
    from wordbias.models import contextual
    from wordbias.result import Result

    enc, masked_lm = contextual.load_encoder(model), contextual.load_mlm(model)
    cats = kurita2019_categories()[2:3]
    results = measures_contextual.measure(cats, encoder=enc, masked_lm=masked_lm,
                                          resampling=Resampling(n_permutations=500, n_resamples=200))
    f = C.tidy_table(results, label="tiny", battery="b")
    for r, (_, row) in zip(results, f.iterrows()):
        res = r.to_result()
        assert isinstance(res, Result) and res.result is r and res.measure == r.measure == row.measure
        assert (res.effect_size, res.p_value, res.p_two_sided, res.ci_low, res.ci_high) == pytest.approx(
            (row.effect_size, row.p_value, row.p_two_sided, row.ci_low, row.ci_high), nan_ok=True)
        assert res.test == row.test and res.statistic_name == row.statistic_name and res.effect_size_name == "d"
    weat_result = results[0].to_result()
    assert [s.letter for s in weat_result.sets] == list(ROLES) and weat_result.interval is results[0].interval
    not_run = measures_contextual.CategoryResult(cats[0], "mlm_log_prob", "", seed=0, n_permutations=500,
                                                 n_resamples=200, confidence_level=0.95, not_run="no model")
    assert not_run.to_result().not_run == "no model" and math.isnan(not_run.to_result().effect_size)
