"""Coverage is part of the result: each set's words in the vocabulary of those asked, a
low-coverage flag with settable thresholds, shown in the table, the terminal, the HTML, and across embeddings."""

import html
import warnings

import numpy as np
import pytest

from wordbias import cli
from wordbias.battery import compare, summary
from wordbias.battery import direction as battery_direction
from wordbias.battery import report as battery_report
from wordbias.battery import weat as battery_weat
from wordbias.cli.output import short_table
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError, LowCoverageWarning
from wordbias.datasets import stimuli
from wordbias.embeddings import to_keyed_vectors
from wordbias.options import Resampling, Words

X = [f"x{i}" for i in range(8)]
Y = [f"y{i}" for i in range(8)]
A = [f"a{i}" for i in range(8)]
B = [f"b{i}" for i in range(12)]
SPEC = {"id": "toy", "title": "toy test", "X": X, "Y": Y, "A": A, "B": B}


def _kv(words, seed=0):
    return to_keyed_vectors(list(words), np.random.default_rng(seed).normal(size=(len(words), 10)).astype(np.float32))


def _battery(kv, spec=SPEC, **words):
    return battery_weat.weat_battery(kv, [spec], label="toy", battery="user:toy", paper="user",
                                     resampling=Resampling(n_resamples=200, n_permutations=500), words=Words(**words))


@pytest.fixture(scope="module")
def one_of_twelve():
    """B keeps 1 of its 12 words; X, Y, A are whole."""
    kv = _kv(X + Y + A + B[:1])
    with pytest.warns(LowCoverageWarning, match=r"toy on toy ran on too few of its words: B 1/12 \(below 4 words"):
        return _battery(kv)


def test_a_set_of_one_in_twelve_is_flagged_in_the_tidy_table(one_of_twelve):
    row = one_of_twelve.iloc[0]
    assert row.coverage == "X 8/8; Y 8/8; A 8/8; B 1/12"
    assert row.low_coverage is True or row.low_coverage == True       # noqa: E712 (pandas' boolean)
    assert str(one_of_twelve.low_coverage.dtype) == "boolean"
    # the interval could not be computed over one word: the row is run in part, said first, then the coverage
    assert row.note.startswith("no bootstrap interval: ")
    assert "; low coverage: B 1/12 (below 4 words and below 50% of the list)" in row.note
    assert tidy.run_in_part(one_of_twelve).test.tolist() == ["toy"]
    assert tidy.not_run(one_of_twelve).empty


def test_a_set_of_two_in_twelve_begins_the_note():
    with pytest.warns(LowCoverageWarning, match=r"B 2/12 \(below 4 words and below 50% of the list\)"):
        t = _battery(_kv(X + Y + A + B[:2]))
    assert t.note.iloc[0].startswith("low coverage: B 2/12 (below 4 words and below 50% of the list)")
    assert t.low_coverage.iloc[0] and tidy.run_in_part(t).empty


def test_the_numbers_do_not_change(one_of_twelve):
    kv = _kv(X + Y + A + B[:1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loose = _battery(kv, min_words=0, min_fraction=0.0)
    assert not loose.low_coverage.any() and not loose.note.fillna("").str.startswith("low coverage").any()
    for c in ("effect_size", "statistic", "p_value", "p_two_sided"):
        assert loose[c].iloc[0] == one_of_twelve[c].iloc[0]


def test_terminal_table_marks_the_row_and_prints_the_legends(one_of_twelve):
    text = short_table(one_of_twelve)
    lines = text.splitlines()
    assert "8/8/8/1!" in lines[1]
    assert any(x.startswith("n = words used per set: X/Y/A/B") for x in lines)
    assert any(x.startswith("d > 0: X is closer to A") for x in lines)
    assert any(x.startswith("! = low coverage: a set kept fewer than 4 of its words or less than 50%") for x in lines)


def test_terminal_table_without_a_flag_has_no_mark_legend():
    kv = _kv(X + Y + A + B)
    t = _battery(kv)
    text = short_table(t)
    assert "!" not in text and "n = words used per set" in text


def test_html_marks_the_row_and_shows_the_note_in_full(one_of_twelve, tmp_path):
    page = summary.write_html(one_of_twelve, tmp_path / "s.html", title="toy").read_text()
    assert "<tr class=lowcov>" in page and "class='lowcov-mark'" in page and "! low coverage" in page
    assert tidy.LOW_COVERAGE in page and "in vocabulary: X 8/8; Y 8/8; A 8/8; B 1/12" in page
    note = one_of_twelve.note.iloc[0]
    assert len(note) > 80 and html.escape(note) in page          # in full, not clipped


def test_a_set_at_the_threshold_is_not_flagged():
    kv = _kv(X + Y + A + B[:6])            # B 6/12: exactly half, and more than 4 words
    with warnings.catch_warnings():
        warnings.simplefilter("error", LowCoverageWarning)
        t = _battery(kv)
    assert t.coverage.iloc[0] == "X 8/8; Y 8/8; A 8/8; B 6/12" and not t.low_coverage.iloc[0]
    spec = {**SPEC, "B": B[:4]}             # B 4/4: exactly min_words
    with warnings.catch_warnings():
        warnings.simplefilter("error", LowCoverageWarning)
        t = _battery(_kv(X + Y + A + B[:4]), spec)
    assert not t.low_coverage.iloc[0]
    assert not tidy.coverage_flag(4, 8) and tidy.coverage_flag(3, 8) and tidy.coverage_flag(4, 9)


def test_user_thresholds_change_the_flag():
    kv = _kv(X + Y + A + B[:6])
    with pytest.warns(LowCoverageWarning, match=r"B 6/12 \(below 60% of the list\)"):
        t = _battery(kv, min_fraction=0.6)
    assert t.low_coverage.iloc[0]
    with pytest.warns(LowCoverageWarning, match=r"X 8/8 \(below 9 words\)"):
        t = _battery(kv, min_words=9)
    assert t.note.iloc[0].startswith("low coverage: X 8/8 (below 9 words), Y 8/8")
    with warnings.catch_warnings():
        warnings.simplefilter("error", LowCoverageWarning)
        t = _battery(_kv(X + Y + A + B[:3]), min_words=3, min_fraction=0.25)
    assert not t.low_coverage.iloc[0]


@pytest.mark.parametrize("kw, fragment", [
    (dict(min_words=-1), "min_words must be >= 0"), (dict(min_words=2.5), "min_words must be an integer"),
    (dict(min_words=True), "min_words must be an integer"), (dict(min_fraction=1.5), "min_fraction must be <= 1"),
    (dict(min_fraction=-0.1), "min_fraction must be >= 0"), (dict(min_fraction="0.5"), "min_fraction must be a number"),
    (dict(min_fraction=float("nan")), "min_fraction must be finite"),
])
def test_invalid_thresholds_are_refused(kw, fragment):
    kv = _kv(X + Y + A + B)
    with pytest.raises(InvalidParameterError, match=fragment):
        _battery(kv, **kw)
    with pytest.raises(InvalidParameterError, match=fragment):
        battery_direction.direction_battery(kv, label="toy", **kw)
    with pytest.raises(InvalidParameterError, match=fragment):
        battery_report.report(kv, label="toy", ube=False, progress=False, **kw)
    with pytest.raises(InvalidParameterError, match=fragment):
        tidy.coverage_flag(1, 2, **kw)


@pytest.mark.parametrize("argv, fragment", [
    (["--min-words", "-1"], "--min-words"), (["--min-coverage", "1.5"], "--min-coverage"),
    (["--min-coverage", "half"], "--min-coverage")])
def test_cli_refuses_invalid_thresholds(capsys, tmp_path, argv, fragment):
    code = cli.main(["weat", "glove-6b-50d", "--out", str(tmp_path / "o"), *argv])
    assert code == 2 and fragment in capsys.readouterr().err


def test_cli_options_only_where_they_apply():
    p = cli.build_parser()
    args = p.parse_args(["compare", "a", "b", "--out", "o", "--min-words", "5", "--min-coverage", "0.3",
                         "--common-vocabulary"])
    assert (args.min_words, args.min_coverage, args.common_vocabulary) == (5, 0.3, True)
    args = p.parse_args(["report", "a", "--out", "o"])
    assert (args.min_words, args.min_coverage) == (tidy.MIN_WORDS, tidy.MIN_FRACTION)
    with pytest.raises(SystemExit):
        p.parse_args(["report", "a", "--out", "o", "--common-vocabulary"])


def test_tidy_round_trip_keeps_coverage(one_of_twelve, tmp_path):
    back = tidy.read_tidy(tidy.write_tidy(one_of_twelve, tmp_path / "t.csv"))
    assert back.coverage.equals(one_of_twelve.coverage) and back.low_coverage.equals(one_of_twelve.low_coverage)
    assert ",True," in (tmp_path / "t.csv").read_text()


def _caliskan_words():
    spec = stimuli.weat_tests("caliskan2017", "glove")[0]          # WEAT1: flowers, insects, pleasant, unpleasant
    return spec, [w.lower() for r in "XYAB" for w in getattr(spec, r)]


@pytest.fixture(scope="module")
def two_embeddings():
    spec, words = _caliskan_words()
    lacking = {w.lower() for w in spec.X[5:]}                        # b has 5 of the 25 flowers
    return {"a": _kv(words, seed=1), "b": _kv([w for w in words if w not in lacking], seed=2)}


def _compare(embs, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = compare.compare(embs, ube=False, progress=False, n_permutations=200, n_resamples=100, **kw)
    return t, [str(w.message) for w in caught if issubclass(w.category, LowCoverageWarning)]


def test_compare_notes_tests_measured_on_different_words(two_embeddings):
    t, warned = _compare(two_embeddings)
    w1 = t[t.test == "WEAT1"].set_index("embedding")
    assert w1.coverage["a"].startswith("X 25/25") and w1.coverage["b"].startswith("X 5/25")
    note = "measured on different words across embeddings: X 25/25 on a, 5/25 on b"
    assert all(note in n for n in w1.note)
    assert w1.low_coverage["b"] and not w1.low_coverage["a"]
    assert sum("WEAT1 was measured on different words" in m for m in warned) == 1
    # WEAT2 is not run on either (none of its words), on the same (no) words: no such note
    assert not t[t.test == "WEAT2"].note.str.contains("different words").any()


def test_compare_common_vocabulary_measures_the_same_words(two_embeddings):
    t, warned = _compare(two_embeddings, common_vocabulary=True)
    w1 = t[t.test == "WEAT1"].set_index("embedding")
    assert w1.coverage["a"] == w1.coverage["b"] and w1.coverage["a"].startswith("X 5/25")
    assert (w1.n_x["a"], w1.n_y["a"]) == (w1.n_x["b"], w1.n_y["b"])
    assert not t.note.fillna("").str.contains("different words").any()
    assert not any("different words" in m for m in warned)
    assert t.attrs["parameters"]["a"]["words_removed_for_common_vocabulary"] == 20
    with pytest.raises(InvalidParameterError, match="common_vocabulary"):
        compare.compare(two_embeddings, common_vocabulary="yes")


def test_common_vocabulary_shares_the_matrix_instead_of_copying_it(two_embeddings):
    """A 3,000,000 x 300 embedding is 3.6 GB: the restricted embedding forgets words in its lookup only."""
    pairs, removed = compare._common_vocabulary(list(two_embeddings.items()), None)
    (_, a), (_, original) = pairs[0], next(iter(two_embeddings.items()))
    assert removed["a"] and all(w not in a for w in removed["a"])
    assert np.shares_memory(np.asarray(a.vectors), np.asarray(original.vectors))
    kept = next(w for w in a.key_to_index)
    assert np.array_equal(a[kept], original[kept])
