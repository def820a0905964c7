"""wordbias.teaching.checks: the right answer passes, the placeholder asks to fill in, each recognised mistake
gives its own message, any other wrong value a hint; strict mode raises."""

import json
import math

import numpy as np
import pytest
from check_helpers import assert_status, fresh_checks  # noqa: F401, E402

from wordbias.core.errors import CheckFailed
from wordbias.measures.association import weat
from wordbias.measures.diagnostics import sensitivity
from wordbias.teaching import checks, sealed

#: a sealed multiple-choice question, as the package's sealed file holds the lessons' ones
QUESTION = sealed.seal({"q1": {"exercise": "q", "answer": "b", "feedback": {"a": "no: a", "b": "yes: b"}}})


@pytest.fixture
def vectors():
    rng = np.random.default_rng(0)
    return rng.normal(size=(3, 6)), rng.normal(size=(4, 6)), rng.normal(size=(5, 6))




# ---------------------------------------------------------------------------------------------------------
# the result object and the placeholder
# ---------------------------------------------------------------------------------------------------------

def test_result_prints_and_renders(capsys):
    r = checks.number(0.5, 0.5, exercise="half", what="one half", hint="divide")
    assert capsys.readouterr().out.strip() == str(r)
    assert repr(r).startswith("✔ half: right")
    html = r._repr_html_()
    assert "<div" in html and "half" in html
    wrong = checks.number(3.0, 0.5, exercise="a<b", what="one half", hint="divide")
    assert "a&lt;b" in wrong._repr_html_() and repr(wrong).startswith("✘")


@pytest.mark.parametrize("placeholder", [..., "...", [..., "word"], (...,)])
def test_placeholder_asks_to_fill_in(placeholder):
    assert_status(checks.number(placeholder, 1.0, exercise="e", what="x", hint="h"), "unanswered", "fill in ...")
    assert_status(checks.word_list(placeholder, {"a": [1.0]}, what="words"), "unanswered", "fill in ...")
    assert_status(checks.choice(placeholder, key="q1", sealed=QUESTION), "unanswered", "fill in ...")
    assert_status(checks.same_set(placeholder, ["x"], exercise="s", what="w"), "unanswered", "fill in ...")


@pytest.mark.parametrize("value", ["0.3", None, True, [0.1, 0.2], {"x": 1}])
def test_number_refuses_non_numbers(value):
    assert_status(checks.number(value, 0.3, exercise="e", what="a cosine", hint="h"), "invalid", "expected a number")


def test_number_accepts_numpy_and_one_element_arrays():
    assert checks.number(np.float32(0.25), 0.25, exercise="e", what="w", hint="h")
    assert checks.number(np.array([0.25]), 0.25, exercise="e", what="w", hint="h")
    assert_status(checks.number(float("nan"), 0.25, exercise="e", what="w", hint="h"), "invalid", "not a finite")


def test_number_tolerance_accepts_rounding_to_four_figures_only():
    assert checks.number(0.3052, 0.30523518, exercise="e", what="w", hint="h")
    assert not checks.number(0.305, 0.30523518 * 1.01, exercise="e", what="w", hint="h")


def test_a_mistake_equal_to_the_answer_is_ignored():
    # e.g. the sign-flip mistake when the answer is 0: the right value must pass
    assert checks.number(0.0, 0.0, exercise="e", what="w", hint="h", mistakes=[(-0.0, "flipped")])


def test_strict_mode_raises_on_failure_only(monkeypatch):
    monkeypatch.setenv(checks.STRICT_ENV, "1")
    assert checks.number(1.0, 1.0, exercise="e", what="w", hint="h")
    with pytest.raises(CheckFailed, match="fill in"):
        checks.number(..., 1.0, exercise="e", what="w", hint="h")
    monkeypatch.setenv(checks.STRICT_ENV, "0")
    assert not checks.number(2.0, 1.0, exercise="e", what="w", hint="h")


# ---------------------------------------------------------------------------------------------------------
# lesson 1
# ---------------------------------------------------------------------------------------------------------

def test_cosine(vectors):
    u, v = vectors[0][0] * 3.0, vectors[0][1]
    cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
    assert_status(checks.cosine(cos, u, v), "correct")
    assert_status(checks.cosine(float(u @ v), u, v), "wrong", "dot product")
    assert_status(checks.cosine(float(u @ v) / np.linalg.norm(u), u, v), "wrong", "one length only")
    assert_status(checks.cosine(1.0 - cos, u, v), "wrong", "cosine distance")
    assert_status(checks.cosine(cos + 0.5, u, v), "wrong", "Look at")


def test_association(vectors):
    w, A, B = vectors[0][0], vectors[1], vectors[2]
    cos_a = A @ w / (np.linalg.norm(A, axis=1) * np.linalg.norm(w))
    cos_b = B @ w / (np.linalg.norm(B, axis=1) * np.linalg.norm(w))
    s = cos_a.mean() - cos_b.mean()
    assert_status(checks.association(s, w, A, B), "correct")
    assert_status(checks.association(-s, w, A, B), "wrong", "sign is flipped")
    assert_status(checks.association(cos_a.sum() - cos_b.sum(), w, A, B), "wrong", "summed")
    assert_status(checks.association(cos_a.mean(), w, A, B), "wrong", "subtract the mean over B")
    assert_status(checks.association((A @ w).mean() - (B @ w).mean(), w, A, B), "wrong", "dot products")


def test_test_statistic():
    s_x, s_y = np.array([0.3, 0.1, 0.2]), np.array([-0.1, 0.05, -0.2])
    S = s_x.sum() - s_y.sum()
    assert_status(checks.test_statistic(S, s_x, s_y), "correct")
    assert_status(checks.test_statistic(s_x.mean() - s_y.mean(), s_x, s_y), "wrong", "difference of the means")
    assert_status(checks.test_statistic(-S, s_x, s_y), "wrong", "sign is flipped")


def test_effect_size():
    s_x, s_y = np.array([0.3, 0.1, 0.2, 0.25]), np.array([-0.1, 0.05, -0.2, 0.0])
    pooled = np.concatenate([s_x, s_y])
    d = (s_x.mean() - s_y.mean()) / pooled.std(ddof=1)
    assert d == pytest.approx(weat.effect_size(s_x, s_y))
    assert_status(checks.effect_size(d, s_x, s_y), "correct")
    assert_status(checks.effect_size((s_x.mean() - s_y.mean()) / pooled.std(), s_x, s_y), "wrong",
                  "population standard deviation", "ddof=1")
    assert_status(checks.effect_size(-d, s_x, s_y), "wrong", "sign is flipped")
    assert_status(checks.effect_size(s_x.mean() - s_y.mean(), s_x, s_y), "wrong", "divide it by the standard")
    within = math.sqrt((3 * s_x.var(ddof=1) + 3 * s_y.var(ddof=1)) / 6)
    assert_status(checks.effect_size((s_x.mean() - s_y.mean()) / within, s_x, s_y), "wrong", "Cohen's d")


# ---------------------------------------------------------------------------------------------------------
# lesson 2
# ---------------------------------------------------------------------------------------------------------

def test_monte_carlo_floor():
    assert_status(checks.monte_carlo_floor(1 / 10_001, 10_000), "correct")
    assert_status(checks.monte_carlo_floor(1 / 1_234, 1_234), "wrong", "1/(R + 1)")
    assert_status(checks.monte_carlo_floor(0, 10_000), "wrong", "never 0")


def test_exact_floor():
    assert_status(checks.exact_floor(1 / 70, 4, 4), "correct")
    assert_status(checks.exact_floor(1 / math.factorial(8), 4, 4), "wrong", "orderings")
    assert_status(checks.exact_floor(1 / 2 ** 8, 4, 4), "wrong", "every subset")
    assert_status(checks.exact_floor(2 / 70, 4, 4), "wrong", "two-sided floor")


def test_two_sided():
    assert_status(checks.two_sided(0.04, 0.98, 0.02), "correct")
    assert_status(checks.two_sided(0.02, 0.98, 0.02), "wrong", "doubles it")
    assert_status(checks.two_sided(1.0, 0.98, 0.02), "wrong", "larger tail")
    assert_status(checks.two_sided(1.2, 0.6, 0.6), "wrong", "cap")
    assert_status(checks.two_sided(1.0, 0.6, 0.6), "correct")


def test_choice():
    assert_status(checks.choice(" B ", key="q1", sealed=QUESTION), "correct", "right: yes: b")
    assert_status(checks.choice("a", key="q1", sealed=QUESTION), "wrong", "not this one: no: a")
    assert_status(checks.choice("z", key="q1", sealed=QUESTION), "invalid", "one letter")
    assert_status(checks.choice(2, key="q1", sealed=QUESTION), "invalid", "one letter")
    with pytest.raises(ValueError, match="no sealed multiple-choice question 'q9'.*'q1'"):
        checks.choice("a", key="q9", sealed=QUESTION)


def test_same_set():
    expected = ["WEAT7", "WEAT9"]
    assert_status(checks.same_set(["WEAT9", "WEAT7"], expected, exercise="s", what="w"), "correct")
    assert_status(checks.same_set(["WEAT7"], expected, exercise="s", what="w"), "wrong", "missing ['WEAT9']")
    assert_status(checks.same_set(["WEAT7", "WEAT9", "WEAT1"], expected, exercise="s", what="w"), "wrong",
                  "['WEAT1'] should not be there")
    assert_status(checks.same_set("WEAT7", expected, exercise="s", what="w"), "invalid", "a list of names")
    assert_status(checks.same_set([], [], exercise="s", what="w"), "correct", "none")


# ---------------------------------------------------------------------------------------------------------
# lesson 3
# ---------------------------------------------------------------------------------------------------------

EMB = {w: np.ones(2) for w in ["math", "algebra", "poetry", "art", "dance", "novel"]}


def test_word_list():
    assert_status(checks.word_list(["poetry", "art", "dance"], EMB, what="arts", min_size=3, other=["math"]),
                  "correct")
    assert_status(checks.word_list(["poetry", "zzz", "art"], EMB, what="arts"), "wrong", "['zzz']")
    assert_status(checks.word_list(["poetry", "math"], EMB, what="arts", other=["math", "algebra"],
                                   other_name="X (Math)"), "wrong", "['math'] also in X (Math)")
    assert_status(checks.word_list(["poetry"], EMB, what="arts", min_size=2), "wrong", "at least 2")
    assert_status(checks.word_list("poetry", EMB, what="arts"), "invalid", "split it into words")
    assert_status(checks.word_list(["art", "art"], EMB, what="arts"), "invalid", "art")


def test_most_influential(random_embedding):
    words = list(random_embedding)
    cos = sensitivity.weat_cosines(random_embedding, words[:8], words[20:28], words[40:45], words[45:50])
    inf = sensitivity.influence(cos)
    top = inf.top(2)
    assert_status(checks.most_influential(top.word[0], inf), "correct")
    assert_status(checks.most_influential(top.word[1], inf), "wrong", "another word moves it more")
    assert_status(checks.most_influential("nonsense", inf), "wrong", "not a word of this test")
    assert_status(checks.most_influential(3, inf), "invalid", "one word")


def test_differ_in_frequency():
    class Report:   # the two attributes the check reads from a FrequencyReport
        def __init__(self, p):
            self.mann_whitney_p, self.alpha, self.flagged = p, 0.05, p < 0.05
    assert_status(checks.differ_in_frequency(True, Report(0.01)), "correct", "below")
    assert_status(checks.differ_in_frequency(np.bool_(False), Report(0.2)), "correct", "not below")
    assert_status(checks.differ_in_frequency(False, Report(0.01)), "wrong", "compare it with 0.05")
    assert_status(checks.differ_in_frequency("yes", Report(0.01)), "invalid", "True or False")


# ---------------------------------------------------------------------------------------------------------
# lesson 4
# ---------------------------------------------------------------------------------------------------------

def test_angle():
    c = 0.4213
    assert_status(checks.angle(np.degrees(np.arccos(c)), c), "correct")
    assert_status(checks.angle(np.arccos(c), c), "wrong", "radians")
    assert_status(checks.angle(90 - np.degrees(np.arccos(c)), c), "wrong", "90°")


def test_significant_associations():
    import pandas as pd
    summary = pd.DataFrame({"significant associations": [77], "tests": [569]}, index=["first names"])
    assert_status(checks.significant_associations(77, summary), "correct")
    assert_status(checks.significant_associations(np.int64(569), summary), "wrong", "number of tests")
    with pytest.raises(ValueError, match="not in the summary"):
        checks.significant_associations(77, summary, run="last names")


def test_a_rounded_answer_is_accepted_and_a_rounding_slip_is_named(capsys):
    """checks.cosine(0.31, rose, love) for a true 0.3052 is right (rounded to 2 decimals); 0.30 (cut off) is a
    rounding slip, not a wrong method; 0.3 keeps too few figures; a dot product is still named."""
    u, v = np.array([1.0, 0.2, 0.3]), np.array([0.3, 1.0, 0.1])
    c = float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))          # 0.4754
    assert checks.cosine(round(c, 2), u, v) and "rounded to 2 decimals" in capsys.readouterr().out
    out = (not checks.cosine(0.47, u, v), capsys.readouterr().out)
    assert out[0] and "rounding slip" in out[1] and "your method is right" in out[1]
    out = (not checks.number(0.5, c, exercise="e", what="w", hint="h"), capsys.readouterr().out)   # one figure
    assert out[0] and "too few figures" in out[1] and "at least 2 significant figures" in out[1]
    out = (not checks.cosine(round(float(u @ v), 2), u, v), capsys.readouterr().out)
    assert out[0] and "dot product" in out[1] and "not a rounding slip" in out[1]


def test_a_correct_rounding_beats_a_mistake_that_rounds_the_same():
    assert_status(checks.number(0.31, 0.3104, exercise="e", what="the value", hint="h",
                                mistakes=[(0.3096, "a mistake")]), "correct", "rounded to 2 decimals")
    # the mistake is still named where the answer cannot be the right value correctly rounded
    assert_status(checks.number(0.3096, 0.3104, exercise="e", what="the value", hint="h",
                                mistakes=[(0.3096, "a mistake")]), "wrong", "a mistake")


# ---------------------------------------------------------------------------------------------------------
# precision, method against rounding
# ---------------------------------------------------------------------------------------------------------

def test_messages_say_the_precision_the_lesson_shows(vectors):
    u, v = vectors[0][0], vectors[0][1]
    cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
    r = checks.cosine(cos, u, v)
    assert "the lesson shows 4 decimals" in r.message and f"{cos:.4f}" in r.message
    assert r.shown == "4 decimals" and "2 significant figures" in r.accepted
    assert "the lesson shows 4 decimals" in checks.cosine(cos + 0.3, u, v).message        # wrong answers too
    assert "3 significant figures" in checks.monte_carlo_floor(1 / 10_001, 10_000).message
    assert "1 decimal" in checks.angle(60.0, 0.5).message
    assert checks.association(0.1, vectors[0][0], vectors[1], vectors[2]).shown == "3 decimals"


def test_a_rounded_wrong_method_is_named_as_the_method_not_a_slip(vectors):
    w, A, B = vectors[0][0], vectors[1], vectors[2]
    s = float(weat.association(w[None, :], A, B)[0])
    flipped = checks.association(round(-s, 3), w, A, B)
    assert_status(flipped, "wrong", "sign is flipped", "not a rounding slip")
    dots = float((A @ w).mean() - (B @ w).mean())
    assert_status(checks.association(round(dots, 3), w, A, B), "wrong", "dot products", "not a rounding slip")
    # a generic check names a flipped sign too
    assert_status(checks.number(-0.25, 0.25, exercise="e", what="w", hint="h"), "wrong", "sign is flipped")
    assert_status(checks.cosine(-0.4754, np.array([1.0, 0.2, 0.3]), np.array([0.3, 1.0, 0.1])), "wrong",
                  "sign is flipped")
    # a rounding slip is not a method
    s_x, s_y = np.array([0.3, 0.1, 0.2033]), np.array([-0.1, 0.05, -0.2])     # S = 0.8533
    assert_status(checks.test_statistic(0.86, s_x, s_y), "wrong", "rounding slip")
    assert_status(checks.test_statistic(0.85, s_x, s_y), "correct", "rounded to 2 decimals")


# ---------------------------------------------------------------------------------------------------------
# hints first, worked solutions on request or after three tries, and the switch
# ---------------------------------------------------------------------------------------------------------

def test_nudge_first_then_the_solution_on_the_third_try(vectors, capsys):
    u, v = vectors[0][0], vectors[0][1]
    first = checks.cosine(0.9, u, v)
    assert "Look at" in first.message and "np.linalg.norm" not in first.message and "checks.solution" not in first.message
    second = checks.cosine(0.9, u, v)
    assert 'checks.solution("cosine similarity")' in second.message and "np.linalg.norm" not in second.message
    third = checks.cosine(0.9, u, v)
    assert "Worked solution" in third.message and "np.linalg.norm" in third.message
    cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
    assert checks.cosine(cos, u, v)                                   # right: the count starts again
    assert "Worked solution" not in checks.cosine(0.9, u, v).message
    capsys.readouterr()
    text = checks.solution(first)                                     # asked for: by the result or the name
    assert "np.linalg.norm" in text and text in capsys.readouterr().out
    assert checks.solution("cosine similarity") == text
    assert "run its check cell first" in checks.solution("no such exercise")


def test_choice_never_names_the_right_letter_before_it_is_given():
    for n in range(1, checks.SOLUTION_AFTER + 2):
        r = checks.choice("a", key="q1", sealed=QUESTION)
        assert r.tries == n and r.record()["try"] == n
        assert "yes: b" not in r.message and '"b"' not in r.message and "'b'" not in r.message
        assert "'b'" not in json.dumps(r.record()) and r.expected is None
    assert "sealed" in checks.solution("q") and '"b"' not in checks.solution("q")


@pytest.mark.parametrize("how", ["env", "lessons.yaml"])
def test_solutions_switched_off_never_print_code(vectors, capsys, monkeypatch, tmp_path, how):
    if how == "env":
        monkeypatch.setenv(checks.SOLUTIONS_ENV, "off")
    else:
        (tmp_path / "lessons.yaml").write_text("title: t\nsolutions: off\nlessons: []\n")
        monkeypatch.chdir(tmp_path)
    assert not checks.solutions_enabled()
    u, v = vectors[0][0], vectors[0][1]
    for _ in range(checks.SOLUTION_AFTER + 1):
        checks.cosine(0.9, u, v)
        checks.effect_size(5.0, np.array([0.3, 0.1]), np.array([0.0, -0.1]))
    checks.solution("cosine similarity")
    out = capsys.readouterr().out
    assert "ask your teacher" in out and "switched off" in out
    for code in ("np.dot", "np.linalg.norm", "ddof=1)", "checks.solution("):
        assert code not in out, code
    if how == "lessons.yaml":               # the environment variable wins over the index
        monkeypatch.setenv(checks.SOLUTIONS_ENV, "on")
        assert checks.solutions_enabled()


# ---------------------------------------------------------------------------------------------------------
# Run All: a cell that uses an answer waits for its check; the record for the answer key
# ---------------------------------------------------------------------------------------------------------

def test_needs_skips_until_the_check_passes(capsys):
    pending = checks.word_list(..., EMB, what="arts", exercise="your list")
    capsys.readouterr()
    assert checks.needs(pending, what="the comparison") is False
    out = capsys.readouterr().out
    assert 'fill in "your list" first' in out and "the comparison" in out and "skipped" in out
    done = checks.word_list(["poetry", "art"], EMB, what="arts", exercise="your list")
    assert checks.needs(done) is True


def test_record_holds_the_expected_value_only_once_right():
    wrong = checks.exact_floor(0.5, 4, 4)
    assert "expected" not in wrong.record() and wrong.record()["status"] == "wrong"
    right = checks.exact_floor(1 / 70, 4, 4)
    record = right._repr_mimebundle_()[checks.RECORD_MIME]
    assert record["expected"] == pytest.approx(1 / 70) and record["expected_text"] == "0.0143"
    assert record["shown"] == "4 decimals" and record["check"] == "exact_floor"
    import json
    json.dumps(record)


def test_intervals_including_zero():
    import pandas as pd
    table = pd.DataFrame({"test": ["WEAT1", "WEAT7", "WEAT9"], "effect_size_ci_low": [0.5, -0.1, -0.3],
                          "effect_size_ci_high": [1.2, 0.9, 0.4]})
    assert_status(checks.intervals_including_zero(["WEAT9", "WEAT7"], table), "correct")
    assert_status(checks.intervals_including_zero(["WEAT7"], table), "wrong", "missing ['WEAT9']", "Look at")


# ---------------------------------------------------------------------------------------------------------
# predict, then run; answers in words; lesson 6 (training runs)
# ---------------------------------------------------------------------------------------------------------

OPTIONS = {"a": "the same d", "b": "a different d"}


def test_prediction_records_any_offered_letter():
    for letter in ("a", " B "):
        r = checks.prediction(letter, OPTIONS, exercise="two runs")
        assert_status(r, "recorded", "prediction recorded", OPTIONS[letter.strip().lower()])
        assert r.done and r.given == letter and r.expected is None and r.record()["check"] == "prediction"
        assert r.record()["points"] == 0 and "expected" not in r.record() and str(r).startswith("✎")
    assert_status(checks.prediction(..., OPTIONS, exercise="two runs"), "unanswered", "fill in ...")
    assert_status(checks.prediction("z", OPTIONS, exercise="two runs"), "invalid", "one letter")
    assert_status(checks.prediction(1, OPTIONS, exercise="two runs"), "invalid", "one letter")
    with pytest.raises(Exception, match="at least 2 options"):
        checks.prediction("a", {"a": "only"}, exercise="one")


def test_reveal_says_whether_the_prediction_held_and_is_no_check(capsys, monkeypatch):
    b, a, unanswered = (checks.prediction(x, OPTIONS, exercise="two runs") for x in ("b", "a", ...))
    monkeypatch.setenv(checks.STRICT_ENV, "1")            # a prediction that did not hold never raises
    held = checks.reveal(b, {"a": False, "b": True}, "d moved")
    assert held and held.held and held.actual == "b" and "held: d moved" in held.message
    missed = checks.reveal(a, {"a": False, "b": True})
    assert not missed and missed.predicted == "a" and "you predicted (a); the result is (b)" in missed.message
    none = checks.reveal(unanswered, {"a": 1 > 2, "b": 2 > 1})
    assert none.predicted is None and "you made no prediction" in none.message and "(b)" in none.message
    assert checks.RECORD_MIME not in json_of(missed)              # no record: a teacher's tally counts checks only
    assert "<div" in missed._repr_html_() and str(missed).startswith("↻")
    with pytest.raises(Exception, match="exactly one outcome"):
        checks.reveal(a, {"a": True, "b": True})
    with pytest.raises(Exception, match="prediction check"):
        checks.reveal("a", {"a": True, "b": False})


def json_of(outcome):
    return getattr(outcome, "_repr_mimebundle_", lambda: {})()


def test_written_answer_is_recorded_at_its_length_and_lists_the_points():
    points = ["the number of runs", "the spread of d"]
    short = checks.written("Report the runs.", exercise="report", points=points, min_words=10)
    assert_status(short, "wrong", "3 words", "at least 10")
    long = checks.written("Report how many runs were trained and how d spread over them, with an interval.",
                          exercise="report", points=points, min_words=10)
    assert_status(long, "recorded", "recorded (15 words)", "grades it", "the number of runs", "the spread of d")
    assert long.done and long.record()["points"] == 0 and "expected" not in long.record()
    assert long.record()["given"].startswith("Report how many runs")
    assert_status(checks.written(..., exercise="report", points=points), "unanswered", "fill in ...")
    assert_status(checks.written(["a list"], exercise="report", points=points), "invalid", "in words")
    for _ in range(checks.SOLUTION_AFTER):
        r = checks.written("short", exercise="report2", points=points, min_words=5)
    assert "Worked solution" in r.message and "the spread of d" in r.message


@pytest.fixture(scope="module")
def runs_result():
    """Five toy "training runs": one embedding plus a little noise each, measured with ensemble.on_runs."""
    from wordbias.embeddings import to_keyed_vectors
    from wordbias.measures import ensemble
    from wordbias.measures.association import measurement

    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(20)]
    base = rng.normal(size=(20, 6))
    base[:5, 0] += 1.0                      # X leans to A
    base[10:15, 0] += 2.0                   # A
    base[15:20, 0] -= 2.0                   # B
    runs = [to_keyed_vectors(words, base + rng.normal(0, 0.3, base.shape)) for _ in range(5)]
    return ensemble.on_runs(measurement.weat, runs, words[:5], words[5:10], words[10:15], words[15:20], alpha=0.2,
                            resampling=measurement.DEFAULT_RESAMPLING.replace(n_resamples=300), label="toy")


def test_run_spread(runs_result):
    d = np.array([m.effect_size for m in runs_result.per_run])
    assert_status(checks.run_spread(float(d.std(ddof=1)), runs_result), "correct")
    assert runs_result.effect_size_sd == pytest.approx(d.std(ddof=1))
    assert_status(checks.run_spread(float(d.std()), runs_result), "wrong", "population standard deviation")
    assert_status(checks.run_spread(float(d.var(ddof=1)), runs_result), "wrong", "variance")
    assert_status(checks.run_spread(float(d.max() - d.min()), runs_result), "wrong", "range")


def test_interval_or_runs(runs_result):
    m = runs_result.per_run[0]
    d = np.array([r.effect_size for r in runs_result.per_run])
    truth = "a" if m.ci_high - m.ci_low > d.max() - d.min() else "b"
    assert_status(checks.interval_or_runs(truth, runs_result), "correct", "wide", "spans")
    assert_status(checks.interval_or_runs({"a": "b", "b": "a"}[truth], runs_result), "wrong", "not this one")
    assert_status(checks.interval_or_runs("c", runs_result), "invalid")
    assert_status(checks.interval_or_runs(..., runs_result), "unanswered")


def test_combined_variance_agrees_with_combine_runs_and_names_the_mistakes(runs_result):
    from scipy import stats

    from wordbias.measures import ensemble

    d = np.array([r.effect_size for r in runs_result.per_run])
    low = np.array([r.ci_low for r in runs_result.per_run])
    high = np.array([r.ci_high for r in runs_result.per_run])
    z = stats.norm.ppf(0.975)
    m = len(d)
    W = (((high - low) / (2 * z)) ** 2).mean()
    B = d.var(ddof=1)
    c = ensemble.combine_runs(d, low, high)
    assert W + B / m == pytest.approx(c.standard_error ** 2)
    assert_status(checks.combined_variance(W + B / m, d, low, high), "correct")
    for wrong, fragment in [(W + B, "not divided by the number of runs"), ((W + B) / m, "W is divided by m"),
                            (W, "W alone"), (B / m, "B/m alone"), (W + d.var() / m, "population variance"),
                            ((((high - low) / 2) ** 2).mean() + B / m, "not divided by z"),
                            ((((high - low) / z) ** 2).mean() + B / m, "whole width")]:
        assert_status(checks.combined_variance(wrong, d, low, high), "wrong", fragment)


def test_share_significant(runs_result):
    p = np.array([r.p_value for r in runs_result.per_run])
    share = float((p < runs_result.alpha).mean())
    assert share == runs_result.share_significant
    assert_status(checks.share_significant(share, runs_result), "correct")
    if share not in (0.0, 0.5):
        assert_status(checks.share_significant(1 - share, runs_result), "wrong", "NOT significant")
    if (p < runs_result.alpha).sum() > 1:
        assert_status(checks.share_significant(float((p < runs_result.alpha).sum()), runs_result), "wrong",
                      "number of runs")


# ---------------------------------------------------------------------------------------------------------
# a correct rounding always passes; "too few figures" only for a rounding
# ---------------------------------------------------------------------------------------------------------

def test_lesson_2_floor_written_with_a_carry_passes():
    # 1/(10000 + 1) = 9.999e-5; to 2 significant figures 1.0e-4, which a float writes 0.0001 (also 1/R)
    assert_status(checks.monte_carlo_floor(0.0001, 10_000), "correct")
    assert_status(checks.monte_carlo_floor(0.00009999, 10_000), "correct")
    assert_status(checks.monte_carlo_floor(0.0002, 10_000), "wrong")


def test_lesson_6_combined_variance_rounded_to_3_decimals_passes():
    """Lesson 6's three runs (WEAT 6 on Brown, seeds 0-2): T = 0.36438, and the population variance's mistake
    gives 0.36393, which rounds to 0.364 too; the correct rounding wins."""
    d = [0.905382607316753, 0.8142400838817587, 0.9363782657982973]
    low = [-0.7983623439334115, -0.855370721705032, -0.7464018031021918]
    high = [1.5651251663434238, 1.558725420868428, 1.5603318675275526]
    assert_status(checks.combined_variance(0.364, d, low, high), "correct", "rounded to 3 decimals")
    assert_status(checks.combined_variance(0.3644, d, low, high), "correct")
    assert_status(checks.combined_variance(0.36393, d, low, high), "wrong", "population variance")


def test_an_integer_answer_is_not_called_too_few_figures():
    r = checks.number(1.0, 0.62, exercise="e", what="a share", hint="h")
    assert_status(r, "wrong", "Look at") and "few figures" not in r.message
    assert "few figures" not in checks.number(0.0, 0.33, exercise="e2", what="a share", hint="h").message
    assert_status(checks.number(0.6, 0.62, exercise="e3", what="a share", hint="h"), "wrong", "too few figures")
    assert_status(checks.number(1.0, 1.3, exercise="e4", what="a ratio", hint="h"), "wrong", "too few figures")


def test_a_comma_separated_string_is_told_to_be_split():
    r = checks.word_list("he, him, his", EMB, what="male words")
    assert_status(r, "invalid", 'split it into words: a list of strings, e.g. ["he", "him"]')
    assert "['he, him, his']" not in r.message


# ---------------------------------------------------------------------------------------------------------
# solutions off: nothing shows the right answer; the record a grader reads
# ---------------------------------------------------------------------------------------------------------

def test_solutions_off_a_result_not_passed_holds_no_expected_value(monkeypatch, vectors):
    monkeypatch.setenv(checks.SOLUTIONS_ENV, "off")
    u, v = vectors[0][0], vectors[0][1]
    cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))

    class Report:
        mann_whitney_p, alpha, flagged = 0.01, 0.05, True
    for _ in range(checks.SOLUTION_AFTER + 1):
        for r in (checks.cosine(0.9, u, v), checks.cosine(..., u, v), checks.cosine("x", u, v),
                  checks.differ_in_frequency(False, Report()), checks.choice("a", key="q1", sealed=QUESTION),
                  checks.same_set(["x"], ["y"], exercise="s", what="w", solution="answer = ['y']")):
            assert not r.passed and r.expected is None, r
            assert "expected" not in r.record() and "np.linalg.norm" not in r.message and "['y']" not in r.message
            assert r.accepted not in ("True", "the letter 'b'") and "'y'" not in r.record()["accepted"]
    assert "missing 1 name;" in checks.same_set(["x"], ["y"], exercise="s", what="w").message
    assert checks.cosine(cos, u, v).expected == pytest.approx(cos)          # once right, it is there
    monkeypatch.setenv(checks.SOLUTIONS_ENV, "on")
    assert checks.cosine(0.9, u, v).expected == pytest.approx(cos)          # solutions on: the teacher may see it


def test_record_carries_points_the_answer_and_the_try():
    for value in [0.5, "0.1", ..., 1 / 70]:
        r = checks.exact_floor(value, 4, 4)
    record = r.record()
    assert record["points"] == 1 and record["given"] == 0.0142857 and record["try"] == 3    # 1/70 to 6 figures
    # the last bits of a float32 computation, which move with the CPU's kernels, do not reach the record
    assert (checks.exact_floor(0.3052351772785187, 4, 4).record()["given"]
            == checks.exact_floor(0.30523520708084106, 4, 4).record()["given"] == 0.305235)
    assert record["status"] == "correct" and "grade_id" not in record
    wrong = checks.exact_floor(0.5, 4, 4).record()
    assert wrong["points"] == 0 and wrong["given"] == 0.5 and wrong["try"] == 6
    long = checks.written("word " * 1_000, exercise="essay", points=["p"], min_words=5).record()
    assert len(long["given"]) == checks.GIVEN_MAX_CHARS and long["points"] == 0 and long["status"] == "recorded"
    listed = checks.same_set([f"w{i}" for i in range(80)], ["w0"], exercise="s", what="w").record()
    assert listed["given"][:2] == ["w0", "w1"] and len(listed["given"]) == checks.GIVEN_MAX_ITEMS
    assert checks.number(np.array([np.nan]), 1.0, exercise="n", what="w", hint="h").record()["given"] == ["nan"]
    json.dumps([record, wrong, long, listed], allow_nan=False)
    checks.reset_tries("exact floor")
    assert checks.exact_floor(0.5, 4, 4).tries == 1


def test_needs_counts_a_recorded_prediction_as_done(capsys):
    predicted = checks.prediction("a", OPTIONS, exercise="two runs")
    assert not predicted and predicted.done and checks.needs(predicted) is True
    assert checks.needs(checks.prediction(..., OPTIONS, exercise="two runs")) is False


def test_strict_mode_raises_once_without_context_and_never_for_recorded(monkeypatch, vectors):
    monkeypatch.setenv(checks.STRICT_ENV, "1")
    u, v = vectors[0][0], vectors[0][1]
    with pytest.raises(CheckFailed) as info:
        checks.cosine(0.9, u, v)                              # cosine calls number: one error, from the wrapper
    assert info.value.__suppress_context__ and info.value.__context__ is None
    assert checks.cosine.__wrapped__.__name__ == "cosine"
    frames = [tb.tb_frame.f_code.co_name for tb in _walk(info.value.__traceback__)]
    assert "number" not in frames and "report" not in frames, frames
    assert checks.prediction("a", OPTIONS, exercise="p").status == "recorded"
    assert checks.written("one two three", exercise="w", points=["p"], min_words=3).status == "recorded"
    with pytest.raises(CheckFailed, match="write at least 5"):
        checks.written("one two three", exercise="w", points=["p"], min_words=5)


def _walk(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next

