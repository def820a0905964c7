"""Kurita et al. (2019) data and experiment assembly: the yaml against the authors' lists, the reduced lists,
Table 3 on a planted tiny masked LM (measured once, then shown), the template spread
(wordbias.papers.kurita2019_templates), Table 5 (wordbias.papers.kurita2019_table5)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
import pytest

from wordbias.core import paths
from wordbias.datasets import stimuli
from wordbias.measures.association import weat
from wordbias.measures.language_models import mlm
from wordbias.measures.language_models.contextual import measure
from wordbias.models import contextual, tiny_mlm
from wordbias.options import Resampling, Words
from wordbias.papers import kurita2019 as kurita
from wordbias.papers import kurita2019_gap as kgap
from wordbias.papers import kurita2019_table5 as kt5
from wordbias.papers import kurita2019_templates as kt

DATA = paths.DATA / "kurita2019"
SHA256 = {  # as recorded in data/kurita2019/SOURCE.md
    "positive_traits": "8560d9835b7e3b2538ff8aeb3b7d0f259381bff93b149e8f5da297ff67ccb66f",
    "negative_traits": "101a8f55526f269cfdf65182fb9c8513f11885d747f719f3cf3e0d018c0effff",
    "in_demand_tech_skills": "74263229df060bdd9d1b142132bd4e2d90a172a400c6d3510627d010db7ae0d6",
    "employee_job_titles_2017.csv": "4fccdca12e347d2b2b004785e78908dbcbe0d9242cca1e3673a4e82149559cc2",
    "kurita_templates_and_wordlists.json": "87b30541eeb761a285c2ffca95877255a5495f5dc9b250eb75b3a6ce320c0c18",
}


@pytest.mark.parametrize("name", sorted(SHA256))
def test_data_files_are_the_recorded_copies(name):
    assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == SHA256[name]
    assert SHA256[name] in (DATA / "SOURCE.md").read_text()


def test_job_titles_hold_no_personal_names():
    df = pd.read_csv(DATA / "employee_job_titles_2017.csv", keep_default_na=False)
    assert list(df.columns) == ["job_title", "n_employees"]
    assert len(df) == 933 and df.n_employees.sum() == 6879  # 6,882 rows, 3 of them without a title


def test_yaml_lists_are_the_authors_lists():
    authors = json.loads((DATA / "kurita_templates_and_wordlists.json").read_text())["weat_tests_final"]
    source = {"flowers_insects": "flowers_insects_pleasant_unpleasant",
              "ea_aa": "african_american_european_american_names_pleasant_unpleasant",
              "career_family": "career_family_male_female_names", "math_arts": "math_arts_male_female_terms",
              "science_arts": "science_arts_male_female_terms"}
    cats = {c.key: c for c in kurita.categories()}
    assert list(cats) == list(source)  # Table 3 order
    for key, src in source.items():
        a = authors[src]
        X, Y = (a["targets_Y"], a["targets_X"]) if key == "ea_aa" else (a["targets_X"], a["targets_Y"])
        assert cats[key].sets == {"X": tuple(X), "Y": tuple(Y), "A": tuple(a["attributes_A"]),
                                  "B": tuple(a["attributes_B"])}


def test_categories_match_tables_1_and_2():
    cats = {c.key: c for c in kurita.categories()}
    gender = cats["career_family"].log_prob_templates
    assert [t.template for t in gender] == ["TARGET likes ATTRIBUTE", "TARGET like ATTRIBUTE",
                                            "TARGET is interested in ATTRIBUTE"]
    assert gender[1].pairs == (("boys", "girls"), ("men", "women"))
    assert cats["ea_aa"].log_prob_templates[0].pairs == (("white", "black"),)
    assert cats["math_arts"].log_prob_attributes == ("X", "Y")  # math/arts words fill ATTRIBUTE, he/she TARGET
    assert cats["math_arts"].slots["A"] == "TARGET" and cats["math_arts"].slots["X"] == "ATTRIBUTE"
    for c in cats.values():
        for t in c.cosine_templates + tuple(t.template for t in c.log_prob_templates):
            assert t.count("TARGET") == 1 and t.count("ATTRIBUTE") == 1
    paper = [c.paper["log_prob"] for c in cats.values()]
    assert paper == [0.8744, 0.8864, 1.126, 0.8495, 0.9572]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """Career words planted male, family words female (as `python -m wordbias.models.tiny_mlm`)."""
    cf = stimuli.load_stimuli("kurita2019")["categories"]["career_family"]
    path = tiny_mlm.build(tmp_path_factory.mktemp("tiny"), male=[w.lower() for w in cf["A"]],
                          female=[w.lower() for w in cf["B"]], targets=[("he", "she"), ("boys", "girls"), ("men", "women")])
    return mlm.load_mlm(str(path), device="cpu"), contextual.load_encoder(str(path), device="cpu")


def test_reduced_lists(planted):
    m, _ = planted
    cats = {c.key: c for c in kurita.categories()}
    red = kurita.reduce_to_vocabulary(cats["ea_aa"], m, seed=0)
    assert len(red["Y"].words) == 5  # §3.3: "only 5 of the African American names" are in BERT's vocabulary
    assert len(red["X"].words) == 5 and len(red["X"].balanced_out) == 13
    assert red["A"].words == cats["ea_aa"].sets["A"]  # attributes are kept
    assert kurita.reduce_to_vocabulary(cats["ea_aa"], m, seed=0) == red  # seeded
    assert kurita.reduce_to_vocabulary(cats["ea_aa"], m, seed=1)["X"].words != red["X"].words
    lists_only = kurita.Table3(tuple(measure(list(cats.values()), encoder=None, masked_lm=None, vocabulary_model=m)))
    report = kurita.vocabulary_report(lists_only)
    assert report.loc[report.set == "flowers", "in_vocabulary"].item() == 9
    ea = report[report.category == cats["ea_aa"].title].set_index("set")
    assert ea.loc["European American names", "cut_to_balance"].split() == list(red["X"].balanced_out)
    assert {r.not_run for r in lists_only.results} == {""}  # no model: nothing ran, and nothing says why


def test_log_prob_test_finds_the_planted_bias(planted):
    m, _ = planted
    cats = {c.key: c for c in kurita.categories()}
    t = kurita.log_prob_test(cats["career_family"], m)
    assert np.all(t.scores_A > 0) and np.all(t.scores_B < 0)
    assert t.effect_size > 1.5 and t.p_value < 0.01 and t.p.p_method == "exact"
    # nothing is planted for flowers/insects: no significant effect
    assert kurita.log_prob_test(cats["flowers_insects"], m).p_value > 0.01


def test_table3_rows_and_unavailable_methods(planted):
    m, enc = planted
    cats = kurita.categories()[2:3]
    glove = {w: np.random.default_rng(len(w)).normal(size=5) for c in cats for r in "XYAB" for w in c.sets[r]}
    measured = kurita.table3(cats, embedding=glove, embedding_name="toy", encoder=enc, masked_lm=m, vocabulary_model=m)
    assert [r.measure for r in measured.results] == ["weat", "contextual_weat", "mlm_log_prob"]
    t = measured.to_frame()
    assert list(t.method) == ["WEAT on GloVe (reduced lists)", "WEAT on BERT (contextual vectors)",
                              "log probability bias score"]
    assert t.loc[2, "model"] == m.label and bool(t.loc[2, "significant"]) and t.loc[2, "paper_effect_size"] == 1.126
    t0 = kurita.table3(cats, embedding=glove, embedding_name="toy", encoder=None, masked_lm=None, vocabulary_model=m,
                       unavailable="no MLM here").to_frame()
    assert t0.effect_size.isna().sum() == 2 and (t0.note.iloc[1:] == "no MLM here").all()
    assert (t0.model.iloc[1:] == "-").all() and t0.significant.iloc[1:].isna().all()
    with pytest.raises(InvalidParameterError, match="needs a model whose vocabulary"):
        kurita.table3(cats, embedding=glove, embedding_name="toy", encoder=None, masked_lm=None, vocabulary_model=None)


def test_table5_attributes():
    a = kt5.table5_attributes()
    assert [len(a[k]) for k in ("salary", "pos_traits", "neg_traits", "skills")] == [932, 230, 363, 25]
    assert "." not in a["salary"] and all(w == w.lower() for ws in a.values() for w in ws)
    assert a["skills"][0] == "cloud computing"


def test_table5_and_topic_scores(planted):
    m, _ = planted
    t5, scores = kt5.table5(m)
    assert list(t5.paper_percent_male) == [88.5, 80.0, 78.9, 84.0]
    assert (t5.model == m.label).all()
    # a set whose scores are all 0 up to float rounding has no share (NaN, with a note); the others count only
    # the scores above the rounding width
    all_tied = t5.tied_within_rounding == t5.n_attributes
    assert t5.percent_male[all_tied].isna().all() and t5.note[all_tied].str.contains("undefined").all()
    assert t5.percent_male[~all_tied].between(0, 100).all() and (~all_tied).any()
    _, noise = mlm.log_prob_bias_scores(m, kt5.table5_attributes()["salary"],
                                        [mlm.TemplatePairs("TARGET is ATTRIBUTE", (("he", "she"),))],
                                        return_noise=True)
    assert t5.loc[0, "percent_male"] == pytest.approx(100 * np.mean(scores["salary"] > noise))
    t0, s0 = kt5.table5(None, unavailable="none")
    assert t0.percent_male.isna().all() and s0 == {}
    w = kgap.topic_word_scores(m, ["career", "family", "music"])
    assert w["career"] > 0 > w["family"]
    scorer, source = kgap.topic_word_scorer(m, batch_size=8)
    assert scorer(["career", "family", "music"]) == pytest.approx(w) and m.label in source
    assert kgap.topic_word_scorer(None) == (None, None)


def test_table5_displays(planted):
    m, _ = planted
    _, scores = kt5.table5(m)
    tables = kt5.table5_score_tables(scores)
    assert list(tables) == list(scores)
    for key, t in tables.items():
        assert list(t.columns) == ["attribute", "bias_score"] and t.bias_score.is_monotonic_increasing
        assert sorted(t.attribute) == sorted(kt5.table5_attributes()[key])
    ends = kt5.table5_extremes(scores, n=2)
    assert list(ends.columns) == ["most male", "most female"] and list(ends.index) == list(scores)
    top = tables["salary"].attribute.tolist()
    assert ends.loc["salary", "most male"] == f"{top[-1]}, {top[-2]}"
    assert ends.loc["salary", "most female"] == f"{top[0]}, {top[1]}"
    fig = kt5.table5_figure(scores)
    assert len(fig.axes) == len(scores)


def test_load_models_falls_back_and_says_why(planted, tmp_path, monkeypatch):
    m, _ = planted
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    missing = str(tmp_path / "no-such-model")
    models = kurita.load_models(m.path, missing, m.path)
    assert models.masked_lm.label == m.label and models.encoder.kind == "encoder"
    assert "no-such-model" in models.status["encoder"] and models.status["encoder"].endswith(
        f"Falling back to {m.path!r}.")
    assert models.vocabulary_model is models.encoder and models.run == m.label and models.no_mlm == ""
    assert f"- results: `results/kurita2019/{m.label}/`" in models.describe()
    none = kurita.load_models(missing, missing, missing)
    assert none.masked_lm is None and none.encoder is None and none.vocabulary_model is None
    assert none.no_mlm == f"no masked LM: {missing!r} is not available" and none.run == ""
    assert kurita.try_load(lambda name: name.upper(), "x") == ("X", None)


def test_table3_display():
    t3 = pd.DataFrame({"category": ["Career (a)", "Career (a)"],
                       "method": ["WEAT on GloVe (reduced lists)", "log probability bias score"],
                       "paper_effect_size": [1.5, 1.126], "paper_significant": [True, False],
                       "effect_size": [0.61234, np.nan], "significant": [False, None], "p_value": [0.0123, np.nan]})
    shown = kurita.table3_shown(t3)
    assert shown.paper.tolist() == ["1.500*", "1.126"] and shown.ours.tolist() == ["0.612", "-"]
    assert shown.p.tolist() == ["0.012", "-"]
    fig = kurita.table3_figure(t3, title="t")
    assert sorted(t.get_text() for t in fig.axes[0].get_yticklabels()) == [
        "Career\n(a) | WEAT on GloVe", "Career\n(a) | log probability bias score"]


def test_table3_for_students_is_narrow_and_names_the_model():
    t3 = pd.DataFrame({"category": ["Career (a)", "Career (a)"],
                       "method": ["WEAT on GloVe (reduced lists)", "log probability bias score"],
                       "model": ["glove-840b-caliskan", "-"],
                       "paper_effect_size": [1.5, 1.126], "paper_significant": [True, False],
                       "effect_size": [0.61234, np.nan], "significant": [False, None], "p_value": [0.0123, np.nan],
                       "effect_size_ci_low": [-0.1, np.nan], "effect_size_ci_high": [1.3, np.nan],
                       "p_two_sided": [0.0246, np.nan], "p_holm": [1.2e-5, np.nan], "p_bh": [0.0123, np.nan],
                       "p_method": ["exact", None], "n": ["8x2 targets", None],
                       "note": [None, "no masked LM: 'bert-base-uncased' is not available"]})
    shown = kurita.table3_student(t3)
    assert shown.shape[1] <= 7 and not [c for c in shown.columns if "_" in c]
    row = shown.loc[("Career (a)", "WEAT on GloVe")]
    assert (row["Model"], row["d (paper)"], row["d (ours)"], row["95% interval of d"], row["p (one-sided)"],
            row["p Holm"]) == ("glove-840b-caliskan", "1.500*", "0.612", "[-0.10, 1.30]", "0.0123", "1.2e-05")
    assert shown.loc[("Career (a)", "log probability bias score"), "d (ours)"] == "-"
    details = kurita.table3_details(t3)
    assert details.loc[("Career (a)", "log probability bias score"), "note"].startswith("no masked LM")
    assert details.loc[("Career (a)", "WEAT on GloVe"), "p (two-sided)"] == "0.0246"


def test_a_missing_masked_lm_is_one_clear_message(tmp_path, monkeypatch):
    """Offline, no transformers' "We couldn't connect to 'https://huggingface.co'": the model, that it
    is not on this machine, what the notebook does without it and how to run those sections."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))                   # an empty Hugging Face cache
    models = kurita.load_models("wordbias-test/no-such-mlm", str(tmp_path / "none"), str(tmp_path / "none"))
    why = models.status["masked LM"]
    assert why.startswith("model 'wordbias-test/no-such-mlm' is not on this machine (it is not in the Hugging "
                          "Face cache, and HF_HUB_OFFLINE is set")
    assert "couldn't connect" not in why.lower() and "OSError" not in why
    assert "Table 5 stay empty" in why and "-p mlm_model" in why


# --------------------------------------------------------------------------------------------------
# the template spread (CEAT's random-effects pooling) and Table 3's intervals and adjusted p
# --------------------------------------------------------------------------------------------------

from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.stats import multiple  # noqa: E402


def _dl_by_hand(y, v):
    """DerSimonian & Laird (1986) written out: (pooled, se, tau2, q, i2)."""
    y, v = np.asarray(y, float), np.asarray(v, float)
    w = 1 / v
    ybar = (w * y).sum() / w.sum()
    q = (w * (y - ybar) ** 2).sum()
    c = w.sum() - (w ** 2).sum() / w.sum()
    tau2 = max(0.0, (q - (len(y) - 1)) / c)
    ws = 1 / (v + tau2)
    return (ws * y).sum() / ws.sum(), np.sqrt(1 / ws.sum()), tau2, q, max(0.0, (q - (len(y) - 1)) / q) if q else 0.0


def test_equal_templates_have_no_between_template_variance():
    sx, sy = [1.0, 0.0, 0.4], [-1.0, -0.5, 0.1]
    r = kt.template_spread([sx] * 3, [sy] * 3, templates=["a", "b", "c"])
    d = (np.mean(sx) - np.mean(sy)) / np.std(sx + sy, ddof=1)  # WEAT's d by hand
    np.testing.assert_allclose(r.effect_sizes, [d] * 3)
    for pooled in r.pooled.values():
        assert pooled.pooled.tau2 == 0 and pooled.pooled.i2 == 0 and pooled.pooled.q == pytest.approx(0, abs=1e-12)
        assert pooled.pooled.pooled == pytest.approx(d)
    v_ceat = np.var(sx + sy, ddof=1)
    assert r.pooled["ceat"].pooled.se == pytest.approx(np.sqrt(v_ceat / 3))
    v_ho = 6 / 9 + d * d / 12  # (n_x + n_y)/(n_x n_y) + d²/(2(n_x + n_y)), Hedges & Olkin
    assert r.pooled["hedges_olkin"].pooled.se == pytest.approx(np.sqrt(v_ho / 3))


def test_one_template_pooled_is_its_own_d_without_an_interval():
    sx, sy = [[0.9, 0.2, 0.5]], [[-0.3, 0.1, -0.6]]
    r = kt.template_spread(sx, sy, templates=["only"])
    d = weat.effect_size(sx[0], sy[0])
    for pooled in r.pooled.values():
        p = pooled.pooled
        assert p.k == 1 and p.pooled == pytest.approx(d) and p.q == pytest.approx(0, abs=1e-12)
        # one template has no between-template variance: no interval, p, tau2 or I2, and a note saying so
        assert all(np.isnan(x) for x in (p.se, p.low, p.high, p.p_value, p.tau2, p.i2))
        assert "no between-study variance" in p.note
    frame = r.to_frame()
    assert frame.note.str.contains("no between-study variance").all()
    assert list(frame.template) == ["only", kt.POOLED] * 2 and list(frame.columns) == kt.FRAME_COLUMNS


def test_template_spread_matches_random_effects_by_hand():
    rng = np.random.default_rng(5)
    sx = rng.normal(0.3, 0.2, (4, 6)) + np.array([[0.0], [0.2], [-0.1], [0.4]])
    sy = rng.normal(0.0, 0.2, (4, 6))
    r = kt.template_spread(sx, sy, templates=list("abcd"), category="c", method="m", model="x")
    d = np.array([weat.effect_size(a, b) for a, b in zip(sx, sy)])
    np.testing.assert_allclose(r.effect_sizes, d)
    for name, var in (("ceat", [np.var(np.r_[a, b], ddof=1) for a, b in zip(sx, sy)]),
                      ("hedges_olkin", 12 / 36 + d ** 2 / 24)):
        pooled, se, tau2, q, i2 = _dl_by_hand(d, var)
        p = r.pooled[name].pooled
        assert (p.pooled, p.se, p.tau2, p.q, p.i2) == pytest.approx((pooled, se, tau2, q, i2))
    assert r.pooled["ceat"].pooled.tau2 > 0  # the templates were made to differ
    frame = r.to_frame()
    assert len(frame) == 2 * 5 and set(frame.variance_method) == {"ceat", "hedges_olkin"}
    per = frame[frame.template != kt.POOLED]
    assert per.groupby("variance_method").relative_weight.sum().tolist() == pytest.approx([1, 1])
    pooled_rows = frame[frame.template == kt.POOLED].set_index("variance_method")
    assert pooled_rows.loc["ceat", "d"] == pytest.approx(r.pooled["ceat"].pooled.pooled)
    assert pooled_rows.loc["ceat", "variance"] == pytest.approx(r.pooled["ceat"].pooled.se ** 2)
    # deterministic
    pd.testing.assert_frame_equal(frame, kt.template_spread(sx, sy, templates=list("abcd"), category="c",
                                                                method="m", model="x").to_frame())


def test_template_spread_is_undefined_within_rounding_and_checks_its_input():
    r = kt.template_spread([[1.0, 1.0 + 1e-9], [0.5, 0.0]], [[1.0, 1.0], [-0.5, 0.1]], templates=["flat", "ok"],
                               noise=1e-6)
    assert r.pooled == {} and "'flat'" in r.undefined and "'ok'" not in r.undefined
    assert np.isnan(r.effect_sizes[0]) and r.effect_sizes[1] == pytest.approx(weat.effect_size([0.5, 0.0], [-0.5, 0.1]))
    frame = r.to_frame()
    assert list(frame.template) == ["flat", "ok"] and frame.note.str.startswith("undefined").all()
    with pytest.raises(InvalidParameterError, match="one row per template"):
        kt.template_spread([[1.0, 0.0]], [[0.0, 1.0]], templates=["a", "b"])
    with pytest.raises(InvalidParameterError, match="not the string"):
        kt.template_spread([[1.0, 0.0]], [[0.0, 1.0]], templates="a")
    with pytest.raises(InvalidParameterError, match="noise"):
        kt.template_spread([[1.0, 0.0]], [[0.0, 1.0]], templates=["a"], noise=-1)


def test_template_associations_by_brute_force():
    rng = np.random.default_rng(2)
    words = {r: [f"{r}{i}" for i in range(3)] for r in "XYAB"}
    vecs = {w: rng.normal(size=(2, 4)) for ws in words.values() for w in ws}
    sx, sy = kt.template_associations(vecs, *(words[r] for r in "XYAB"))
    assert sx.shape == (2, 3) and sy.shape == (2, 3)

    def cos(a, b):
        return a @ b / np.linalg.norm(a) / np.linalg.norm(b)

    for t in range(2):
        for j, w in enumerate(words["Y"]):
            want = (np.mean([cos(vecs[w][t], vecs[a][t]) for a in words["A"]])
                    - np.mean([cos(vecs[w][t], vecs[b][t]) for b in words["B"]]))
            assert sy[t, j] == pytest.approx(want)
    with pytest.raises(InvalidParameterError, match="no template vectors"):
        kt.template_associations(vecs, ["nope"], words["Y"], words["A"], words["B"])


def test_contextual_template_spread_reads_the_measured_vectors(planted):
    _, enc = planted
    cat = kurita.categories()[2]
    (ctx,) = [r for r in measure([cat], encoder=enc, masked_lm=None) if r.measure == "contextual_weat"]
    red = ctx.reduced
    assert ctx.vectors[red["X"].words[0]].shape[0] == len(cat.cosine_templates)
    spread = kt.contextual_template_spread(ctx)
    # each template's d is WEAT on the vectors of that one template, computed independently
    for i, template in enumerate(cat.cosine_templates):
        one = {}
        for role in kurita.ROLES:
            slot = cat.slots[role]
            other = "ATTRIBUTE" if slot == "TARGET" else "TARGET"
            v = contextual.word_in_template_embeddings(enc, red[role].words, [template], slot=slot, other=other)
            one.update(zip(red[role].words, v))
        want = weat.weat(one, *(red[r].words for r in kurita.ROLES),
                         words=Words(balance_targets="raise", case_fold=False)).effect_size
        assert spread.effect_sizes[i] == pytest.approx(want, rel=1e-5)
    assert spread.templates == cat.cosine_templates and spread.model == enc.label
    assert spread.to_frame().equals(kt.contextual_template_spread(ctx).to_frame())
    (not_run,) = [r for r in measure([cat], encoder=None, masked_lm=None, vocabulary_model=enc,
                                         why_not_run={"contextual_weat": "none"})
                  if r.measure == "contextual_weat"]
    with pytest.raises(InvalidParameterError, match="needs a contextual WEAT that ran.*none"):
        kt.contextual_template_spread(not_run)


def test_log_prob_template_spread_on_the_planted_model(planted):
    m, _ = planted
    cat = kurita.categories()[2]  # career/family: career words planted male, family words female
    sa, sb, noise = kt.log_prob_template_scores(cat, m)
    A, B = list(cat.sets["A"]), list(cat.sets["B"])
    for i, tp in enumerate(cat.log_prob_templates):
        want = mlm.log_prob_bias_scores(m, A + B, [mlm.TemplatePairs(tp.template, tp.pairs)])
        np.testing.assert_allclose(np.r_[sa[i], sb[i]], want)
    assert (sa > 0).all() and (sb < 0).all() and noise > 0
    spread = kt.log_prob_template_spread(cat, m)
    assert spread.undefined == "" and (spread.effect_sizes > 1.5).all()
    assert spread.templates[1] == "TARGET like ATTRIBUTE (boys/girls, men/women)"
    assert spread.pooled["ceat"].pooled.pooled > 1.5
    table = kt.template_table(cat, contextual_result=None, masked_lm=m)
    assert set(table.method) == {kurita.LOG_PROB} and len(table) == 2 * (len(cat.log_prob_templates) + 1)
    pd.testing.assert_frame_equal(table, kt.template_table(cat, contextual_result=None, masked_lm=m))


def _resampling(n_resamples: int) -> Resampling:
    """The contextual tests' default resampling with ``n_resamples`` bootstrap resamples."""
    from wordbias.measures.language_models.contextual import DEFAULT_RESAMPLING

    return DEFAULT_RESAMPLING.replace(n_resamples=n_resamples)


def test_template_tables_summary_and_figure(planted):
    m, enc = planted
    cats = kurita.categories()[2:4]
    measured = measure(cats, encoder=enc, masked_lm=m, vocabulary_model=m, resampling=_resampling(200))
    tt = kt.template_tables(measured, masked_lm=m)
    assert list(tt.columns) == kt.FRAME_COLUMNS
    assert list(dict.fromkeys(tt.category)) == [c.title for c in cats]
    pd.testing.assert_frame_equal(tt, kt.template_tables(measured, masked_lm=m))
    summary = kt.template_summary(tt)
    assert len(summary) == 4 and summary.columns[:4].tolist() == ["category", "method", "model", "per template"]
    fig = kt.template_figure(tt, title="t")
    assert len(fig.axes) == 2 and fig.axes[0].get_title(loc="left").startswith(kurita.CONTEXTUAL_WEAT)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert cats[0].title in labels and "TARGET is interested in ATTRIBUTE" in labels
    # without the masked LM only the contextual spread, from the vectors already measured
    only = kt.template_tables(measured, masked_lm=None)
    assert set(only.method) == {kurita.CONTEXTUAL_WEAT}
    pd.testing.assert_frame_equal(only.reset_index(drop=True),
                                  tt[tt.method == kurita.CONTEXTUAL_WEAT].reset_index(drop=True), check_dtype=False)
    import matplotlib.pyplot as plt
    plt.close("all")


def test_table3_intervals_two_sided_and_adjusted_p(planted):
    m, enc = planted
    cats = kurita.categories()[2:4]
    glove = {w: np.random.default_rng(len(w)).normal(size=5) for c in cats for r in "XYAB" for w in c.sets[r]}
    kw = dict(embedding=glove, embedding_name="toy", encoder=enc, masked_lm=m, vocabulary_model=m,
              resampling=_resampling(500))
    measured = kurita.table3(cats, **kw)
    t = measured.to_frame()
    for col in ("effect_size_ci_low", "effect_size_ci_high", "p_two_sided", "alternative", "p_holm", "p_bh",
                "p_family"):
        assert col in t.columns
    # Holm and BH within each method, against core.multiple directly
    for method, rows in t[t.p_value.notna()].groupby("method"):
        adj = multiple.adjust(rows.p_value.to_numpy(), family="x")
        np.testing.assert_allclose(rows.p_holm, adj.p_holm)
        np.testing.assert_allclose(rows.p_bh, adj.p_bh)
        assert (rows.p_family == kurita.table3_family(method, len(rows))).all()
    assert t.loc[t.p_value.isna(), ["p_holm", "p_bh"]].isna().all().all()
    # the WEAT rows' interval and two-sided p, recomputed from their parts
    cat = cats[0]
    red = kurita.reduce_to_vocabulary(cat, m)
    g = weat.weat(glove, *(red[r].words for r in kurita.ROLES), names=dict(cat.names))
    row = t[(t.category == cat.title) & (t.method == kurita.GLOVE_WEAT)].iloc[0]
    assert row.effect_size == g.effect_size and row.p_value == g.p_value
    from wordbias.measures.association import bootstrap
    ci = bootstrap.weat_bootstrap(glove, g, resampling=Resampling(n_resamples=500, seed=0)).effect_size
    assert (row.effect_size_ci_low, row.effect_size_ci_high) == (ci.low, ci.high)
    assert row.p_two_sided == weat.p_value(g.s_x, g.s_y, alternative="two-sided").p_value
    ctx = t[t.method == kurita.CONTEXTUAL_WEAT]
    assert (ctx.effect_size_ci_low <= ctx.effect_size).all() and (ctx.effect_size <= ctx.effect_size_ci_high).all()
    lp = t[(t.method == kurita.LOG_PROB) & t.p_value.notna()].iloc[0]
    test = kurita.log_prob_test(cat, m, n_resamples=500)
    assert lp.p_two_sided == pytest.approx(weat.p_value(test.scores_A, test.scores_B, alternative="two-sided").p_value)
    assert (lp.effect_size_ci_low, lp.effect_size_ci_high) == (test.effect_size_ci.low, test.effect_size_ci.high)
    with pytest.raises(InvalidParameterError, match="confidence_level"):
        kurita.table3(cats, **{**kw, "resampling": _resampling(500).replace(confidence_level=1.5)})
    shown = kurita.table3_shown(t)
    assert shown.ci.str.match(r"^(\[-?\d+\.\d\d, -?\d+\.\d\d\]|-)$").all()


def test_table3_and_the_tidy_table_are_views_of_one_measurement(planted, monkeypatch):
    """The tests run once; Table 3, the tidy table, the reduced lists and the contextual template spread
    are read off the results: with every test function broken, the views still give the same numbers."""
    from wordbias.battery import contextual as contextual_battery
    from wordbias.measures.association import bootstrap

    m, enc = planted
    cats = kurita.categories()[2:4]
    glove = {w: np.random.default_rng(len(w)).normal(size=5) for c in cats for r in "XYAB" for w in c.sets[r]}
    measured = kurita.table3(cats, embedding=glove, embedding_name="toy", encoder=enc, masked_lm=m,
                             vocabulary_model=enc, resampling=_resampling(300))
    assert [r.measure for r in measured.results] == ["weat", "contextual_weat", "mlm_log_prob"] * 2

    def broken(*args, **kwargs):
        raise AssertionError("a view ran a test again")

    for module, names in ((weat, ("weat", "p_value")), (bootstrap, ("weat_bootstrap", "effect_size_bootstrap")),
                          (mlm, ("attribute_test", "log_prob_bias_scores")),
                          (contextual, ("word_in_template_embeddings", "span_embeddings"))):
        for name in names:
            monkeypatch.setattr(module, name, broken)
    t3 = measured.to_frame()
    tidy_table = contextual_battery.tidy_table(measured.contextual, label="toy")
    assert len(kurita.vocabulary_report(measured)) == 4
    kt.template_tables(measured.results, masked_lm=None)
    for r in measured.contextual:
        row = t3[(t3.category == r.category.title) & (t3.method == kurita.METHODS[r.measure])].iloc[0]
        tidy_row = tidy_table[(tidy_table.test == r.category.key) & (tidy_table.measure == r.measure)].iloc[0]
        for column, tidy_column in (("effect_size", "effect_size"), ("p_value", "p_value"),
                                    ("p_two_sided", "p_two_sided"), ("effect_size_ci_low", "ci_low"),
                                    ("effect_size_ci_high", "ci_high")):
            assert row[column] == pytest.approx(tidy_row[tidy_column], nan_ok=True)
            assert row[column] == pytest.approx(getattr(r, tidy_column), nan_ok=True)
