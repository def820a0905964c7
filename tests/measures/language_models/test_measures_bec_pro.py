"""Kurita's association on BEC-Pro (wordbias.measures.language_models.bec_pro): the masked form on the tiny planted
masked LM, the causal form on the tiny Llama, both by hand; the per-profession difference and the correlation with
its interval on hand numbers."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_causal import tiny_causal  # noqa: E402, F401

from wordbias.core.errors import DegenerateSetError, InvalidParameterError  # noqa: E402
from wordbias.datasets.bec_pro import BecProSentence, load  # noqa: E402
from wordbias.measures.language_models import bec_pro as bp  # noqa: E402
from wordbias.options import Resampling  # noqa: E402


def sentence(i, person, gender, profession, text=None):
    text = text or f"{person} is a {profession} ."
    return BecProSentence(i, text, "", "", "", "<person subject> is a <profession> .", person, gender, profession,
                          "balanced", profession)


SENTENCES = [sentence(0, "he", "male", "nurse"), sentence(1, "she", "female", "nurse"),
             sentence(2, "he", "male", "doctor"), sentence(3, "she", "female", "doctor")]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    from wordbias.models import tiny_mlm
    from wordbias.models.contextual import load_mlm

    folder = tiny_mlm.build(tmp_path_factory.mktemp("bec"), male=["carpenter"], female=["nurse"], seed=0)
    return load_mlm(str(folder), device="cpu")


def test_masked_sentences_are_built_by_whole_words():
    s = load("en")[3625]                              # the file's Sent_TM masks "man" inside "manager"
    assert s.sent_tm == "This [MASK] is a lodging [MASK]ager."
    assert bp.masked_sentences(s, "[MASK]", 2) == ("This [MASK] [MASK] is a lodging manager.",
                                                    "This [MASK] [MASK] is a [MASK] [MASK].", 0)
    de = load("de")[0]
    assert bp.masked_sentences(de, "[MASK]") == ("[MASK] ist Trockenbaumonteur.", "[MASK] ist [MASK].", 0)


def test_the_file_mask_columns_agree_with_the_built_ones_but_for_the_ten_known_rows():
    for language, bad in (("en", "lodging manager"), ("de", "Ernährungsberater")):
        rows = load(language)
        differ = [s for s in rows if bp.masked_sentences(s, "[MASK]")[0] != s.sent_tm]
        assert len(differ) == 5 and {s.profession for s in differ} == {bad}


def test_the_person_slot_after_the_profession_is_found():
    s = sentence(0, "she", "female", "nurse", "the nurse is what she is")
    assert bp.masked_sentences(s, "[M]") == ("the nurse is what [M] is", "the [M] is what [M] is", 1)


def test_a_person_missing_as_a_whole_word_is_refused():
    s = sentence(0, "he", "male", "nurse", "the nurse is here .")
    with pytest.raises(InvalidParameterError, match="'he' is not a whole word"):
        bp.masked_sentences(s, "[MASK]")


def test_masked_associations_by_hand(planted):
    from wordbias.measures.language_models.mlm import masked_log_probs, word_pieces

    s = [sentence(0, "he", "male", "nurse"), sentence(1, "she", "female", "nurse"),
         sentence(2, "he", "male", "carpenter"), sentence(3, "she", "female", "carpenter")]
    a = bp.masked_associations(planted, s)
    for row, x in zip(s, a):
        ids = tuple(word_pieces(planted, row.person))
        tgt, prior = f"[MASK] is a {row.profession} .", "[MASK] is a [MASK] ."
        lp = masked_log_probs(planted, {tgt: [(0, ids)], prior: [(0, ids)]})
        # the sentences ran in other batches by hand: float32 products of other shapes round differently (about
        # 1e-5 seen with MKL's reproducible mode); a wrong sentence or mask would be off by far more
        assert x == pytest.approx(lp[(tgt, 0, ids)] - lp[(prior, 0, ids)], abs=1e-4)
    by = bp.profession_associations(s, a)
    assert by["nurse"] > 0.1 and by["carpenter"] < -0.1          # planted female and male


def test_causal_associations_by_hand(tiny_causal):
    from wordbias.models.log_prob import causal_log_probs

    a = bp.causal_associations(tiny_causal, SENTENCES, neutral="people")
    total = {t.text: t.total for t in causal_log_probs(tiny_causal, [s.sentence for s in SENTENCES]
                                                       + ["he is a people .", "she is a people ."])}
    expected = [total[s.sentence] - total[f"{s.person} is a people ."] for s in SENTENCES]
    np.testing.assert_allclose(a, expected, atol=1e-9)
    did = (total["she is a nurse ."] - total["he is a nurse ."]) - (total["she is a people ."]
                                                                     - total["he is a people ."])
    assert bp.profession_associations(SENTENCES, a)["nurse"] == pytest.approx(did, abs=1e-9)
    assert abs(did) > 1e-3                                          # the tiny model is not indifferent


def test_the_neutral_noun_moves_every_profession_alike(tiny_causal):
    by = [bp.profession_associations(SENTENCES, bp.causal_associations(tiny_causal, SENTENCES, neutral=w))
          for w in ("people", "kids")]
    shift = by[0]["nurse"] - by[1]["nurse"]
    assert abs(shift) > 1e-6 and by[0]["doctor"] - by[1]["doctor"] == pytest.approx(shift, abs=1e-9)


def test_profession_associations_female_minus_male():
    s = SENTENCES + [sentence(4, "she", "female", "nurse")]
    assert bp.profession_associations(s, [1.0, 2.0, 5.0, 4.0, 4.0]) == {"nurse": 2.0, "doctor": -1.0}
    with pytest.raises(InvalidParameterError, match="without both"):
        bp.profession_associations(SENTENCES[:1], [1.0])
    with pytest.raises(InvalidParameterError, match="one per sentence"):
        bp.profession_associations(SENTENCES, [1.0, 2.0])


ASSOC = {"a": 1.0, "b": 0.1, "c": 0.5, "d": -0.2, "e": -1.0, "f": 0.3}
SHARE = {"a": 90.0, "b": 70.0, "c": 50.0, "d": 8.0, "e": 2.0, "f": 30.0, "g": 1.0}


def test_correlation_on_hand_numbers():
    r = bp.correlation(ASSOC, SHARE, method="spearman", resampling=Resampling(n_resamples=0))
    # ranks of the associations 6 3 5 2 1 4 against the shares 6 5 4 2 1 3: sum d^2 = 0+4+1+0+0+1 = 6
    assert r.effect_size == pytest.approx(1 - 6 * 6 / (6 * 35))
    assert r.sets[0].used == ("a", "b", "c", "d", "e", "f") and r.sets[0].missing == ("g",)
    x, y = np.array([ASSOC[k] for k in "abcdef"]), np.array([SHARE[k] for k in "abcdef"])
    p = bp.correlation(ASSOC, SHARE, method="pearson", resampling=Resampling(n_resamples=0))
    assert p.effect_size == pytest.approx(np.corrcoef(x, y)[0, 1])
    assert np.isnan(r.ci_low)


def test_the_interval_is_seeded_and_brackets_the_estimate():
    rng = np.random.default_rng(0)
    share = {f"p{i}": float(v) for i, v in enumerate(np.linspace(1, 99, 40))}
    assoc = {k: v / 50 + float(rng.normal()) for k, v in share.items()}
    runs = [bp.correlation(assoc, share, resampling=Resampling(n_resamples=2000, seed=s)) for s in (3, 3, 4)]
    assert (runs[0].ci_low, runs[0].ci_high) == (runs[1].ci_low, runs[1].ci_high)
    assert (runs[0].ci_low, runs[0].ci_high) != (runs[2].ci_low, runs[2].ci_high)
    assert 0 < runs[0].ci_low < runs[0].effect_size < runs[0].ci_high < 1.0
    assert runs[0].ci_method.startswith("BCa 95%")


def test_too_few_or_constant_professions_are_refused():
    with pytest.raises(DegenerateSetError, match="at least 4"):
        bp.correlation({"a": 1.0, "b": 2.0, "c": 3.0}, SHARE)
    with pytest.raises(DegenerateSetError):
        bp.correlation(dict.fromkeys("abcd", 1.0), SHARE)
    with pytest.raises(InvalidParameterError, match="method"):
        bp.correlation(ASSOC, SHARE, method="kendall")


def test_correlations_over_the_share_columns():
    from wordbias.datasets.bec_pro import load_occupations, load_professions

    cols = bp.share_columns(load_professions(), load_occupations())
    assoc = {p: v for p, v in cols["US"].items()}                    # the US share itself: rho 1 with US
    res = bp.correlations(assoc, cols, resampling=Resampling(n_resamples=0), label="toy")
    assert sorted(res) == ["BLS pearson", "BLS spearman", "DE pearson", "DE spearman", "US pearson", "US spearman"]
    assert res["US spearman"].effect_size == pytest.approx(1.0)
    assert len(res["BLS spearman"].sets[0].used) == 12
    assert 0 < res["DE spearman"].effect_size < 1


def test_the_neutral_noun_defaults_to_the_sentences_language(tiny_causal, monkeypatch):
    import dataclasses

    from wordbias.models import log_prob

    seen = []
    real = log_prob.causal_log_probs
    monkeypatch.setattr(log_prob, "causal_log_probs", lambda m, texts, **k: seen.append(list(texts)) or real(m, texts, **k))
    bp.causal_associations(tiny_causal, SENTENCES)
    assert "he is a person ." in seen[-1]                            # English: "person"
    german = [dataclasses.replace(s, language="de") for s in SENTENCES]
    bp.causal_associations(tiny_causal, german)
    assert "he is a Person ." in seen[-1]                            # German: "Person"
    with pytest.raises(InvalidParameterError, match="one language"):
        bp.causal_associations(tiny_causal, SENTENCES[:2] + german[2:])


def test_associations_take_the_form_of_the_model(tiny_causal):
    a = bp.associations(tiny_causal, SENTENCES, neutral="people")
    assert a == bp.profession_associations(SENTENCES, bp.causal_associations(tiny_causal, SENTENCES,
                                                                               neutral="people"))
