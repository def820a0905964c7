"""Lesson 8 (bias in language models): its checks (a sentence's log-probability from its tokens', a CrowS-Pairs
pair's margin, whether 0.5 is inside an interval, which convention favours the shorter sentence) accept the right
answer, name each recognised mistake, ask to fill in the placeholder and refuse bad data; their worked solutions
run; and the lesson carries its content warning and calls these checks."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
import yaml
from check_helpers import assert_status, fresh_checks  # noqa: F401, E402

from wordbias.core import paths, tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.measures.language_models import crows_pairs as cp
from wordbias.models.log_prob import TokenLogProbs
from wordbias.teaching import checks

LESSONS = paths.ROOT / "notebooks" / "lessons"
LESSON = LESSONS / "src" / "08_language_models.ipynb"






LOG_PROBS = np.array([-8.216, -16.389, -4.569, -6.469, -4.027, -2.277, -1.208])


def test_sentence_log_prob_right_and_its_mistakes():
    total = LOG_PROBS.sum()
    assert_status(checks.sentence_log_prob(total, LOG_PROBS), "correct")
    assert_status(checks.sentence_log_prob(round(total, 2), LOG_PROBS), "correct")
    assert_status(checks.sentence_log_prob(..., LOG_PROBS), "unanswered", "fill in ...")
    assert_status(checks.sentence_log_prob("-43", LOG_PROBS), "invalid", "expected a number")
    for wrong, fragment in [(LOG_PROBS.mean(), "mean per token"), (-total, "negative log-likelihood"),
                            (np.exp(LOG_PROBS).sum(), "adds the tokens' probabilities"),
                            (total / math.log(10), "base 10"), (LOG_PROBS[1:].sum(), "leaves out the first token")]:
        assert_status(checks.sentence_log_prob(float(wrong), LOG_PROBS), "wrong", fragment)
    assert_status(checks.sentence_log_prob(total * 1.5, LOG_PROBS), "wrong", "Look at:")


def test_sentence_log_prob_takes_the_library_s_token_log_probs():
    scored = TokenLogProbs("The doctor was late for work.", tuple(range(7)), LOG_PROBS)
    assert_status(checks.sentence_log_prob(scored.total, scored), "correct")
    assert_status(checks.sentence_log_prob(scored.total, scored.log_probs), "correct")


@pytest.mark.parametrize("bad", [[], [-1.0, 0.5], [-1.0, math.nan], [[-1.0, -2.0]]])
def test_sentence_log_prob_refuses_what_is_no_log_probability(bad):
    with pytest.raises(InvalidParameterError, match="log_probs must be a sentence's token log-probabilities"):
        checks.sentence_log_prob(-1.0, bad)


def test_pair_margin_right_and_its_mistakes():
    more, less = np.array([-3.0, -9.5, -2.0, -1.25]), np.array([-3.0, -7.0, -4.5, -2.0, -1.5])
    margin = more.sum() - less.sum()
    assert margin == pytest.approx(2.25)
    assert_status(checks.pair_margin(margin, more, less), "correct")
    assert_status(checks.pair_margin(2.3, more, less), "wrong", "rounding slip")
    assert_status(checks.pair_margin(-margin, more, less), "wrong", "sign is flipped")
    assert_status(checks.pair_margin(float(more.mean() - less.mean()), more, less), "wrong", "means per token")
    assert_status(checks.pair_margin(math.exp(margin), more, less), "wrong", "ratio of the two probabilities")
    assert_status(checks.pair_margin(..., more, less), "unanswered")
    with pytest.raises(InvalidParameterError, match="less must be"):
        checks.pair_margin(1.0, more, [-1.0, 2.0])


def test_value_in_interval_both_ways():
    wide = cp.share_result([True] * 27 + [False] * 18, title="27 of 45")          # [0.44, 0.74]: 0.5 inside
    assert wide.ci_low < 0.5 < wide.ci_high
    assert_status(checks.value_in_interval(True, wide), "correct", "inside", "consistent with")
    assert_status(checks.value_in_interval(False, wide), "wrong", "the estimate is not 0.5", "ci_low")
    narrow = cp.share_result([True] * 905 + [False] * 603, title="905 of 1508")   # 0.60 on every pair: outside
    assert narrow.ci_low > 0.5
    assert_status(checks.value_in_interval(False, narrow), "correct", "outside", "rule out")
    assert_status(checks.value_in_interval(True, narrow), "wrong", "compare 0.5 with the interval's two ends")
    assert_status(checks.value_in_interval(np.bool_(False), narrow), "correct")
    assert_status(checks.value_in_interval("True", wide), "invalid", "no quotes")
    assert_status(checks.value_in_interval(..., wide), "unanswered", "True or False")
    assert checks.value_in_interval(True, narrow, value=0.6).passed


def length_table(harness_margin, shared_margin):
    """Tidy rows of two toy scorings of the same four pairs, two of them of unequal length."""
    rows = []
    for convention, margin in (("harness", harness_margin), ("shared-tokens", shared_margin)):
        s = cp.PairScores("toy", convention, np.array(margin, dtype=float) - 10.0, np.full(4, -10.0),
                          np.array([3, 5, 4, 4]), np.array([4, 4, 4, 4]), ("gender",) * 4, ("stereo",) * 4,
                          (0, 1, 2, 3))
        rows += [r.to_row({"embedding": "toy", "paper": "nangia2020", "battery": f"crows_pairs:{convention}"})
                 for r in cp.summarise(s).results()]
    return tidy.tidy_frame(rows)


def test_shorter_wins_more_reads_the_length_rows():
    # pair 0 has the shorter more-stereotyping sentence, pair 1 the longer: harness lets the shorter win both
    table = length_table([1.0, -1.0, 0.5, 0.5], [-1.0, -1.0, 0.5, 0.5])
    length = table[table.test == "length"].set_index("battery").effect_size
    assert length.to_dict() == {"crows_pairs:harness": 1.0, "crows_pairs:shared-tokens": 0.5}
    assert_status(checks.shorter_wins_more("a", table), "correct", "2 of 2 pairs", "1 of 2 under shared-tokens")
    assert_status(checks.shorter_wins_more(" B", table), "wrong", "compare the two rows of test 'length'")
    assert_status(checks.shorter_wins_more("d", table), "invalid")
    assert_status(checks.shorter_wins_more(..., table), "unanswered")
    assert checks.shorter_wins_more("b", length_table([-1.0, -1.0, 0, 0], [1.0, -1.0, 0, 0])).passed
    assert checks.shorter_wins_more("c", length_table([1.0, -1.0, 0, 0], [1.0, -1.0, 0, 0])).passed
    with pytest.raises(InvalidParameterError, match="crows_pairs:shared-tokens"):
        checks.shorter_wins_more("a", table[table.battery == "crows_pairs:harness"])


def test_worked_solutions_run():
    scored = TokenLogProbs("s", tuple(range(7)), LOG_PROBS)
    more, less = TokenLogProbs("m", (1, 2), np.array([-1.0, -2.0])), TokenLogProbs("l", (1, 3), np.array([-1.5, -2.0]))
    overall = cp.share_result([True] * 27 + [False] * 18, title="27 of 45")
    tokens = pd.DataFrame({"log P": scored.log_probs})
    namespace = {"tokens": tokens, "more": more, "less": less, "overall": overall}
    for result, name, expected in [(checks.sentence_log_prob(0.0, scored), "log_p_sentence", scored.total),
                                   (checks.pair_margin(0.0, more, less), "margin", 0.5),
                                   (checks.value_in_interval(False, overall), "half_inside", True)]:
        exec(checks._SOLUTIONS[result.exercise], namespace)
        assert namespace[name] == pytest.approx(expected)
    result = checks.shorter_wins_more("b", length_table([1.0, -1.0, 0, 0], [-1.0, -1.0, 0, 0]))
    exec(checks._SOLUTIONS[result.exercise], namespace)
    assert namespace["answer"] == "a"


@pytest.mark.skipif(not LESSON.is_file(), reason="needs a checkout of the repository")
def test_the_lesson_warns_and_uses_its_checks():
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    entry = {e["file"]: e for e in yaml.safe_load((LESSONS / "lessons.yaml").read_text(encoding="utf-8"))
             ["lessons"]}[LESSON.name]
    assert entry["needs"] == "lm" and "CrowS-Pairs" in entry["content_warning"]
    assert "Content warning" in "".join(nb["cells"][0]["source"])
    text = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    used = [m for t in text for m in re.findall(r"^ex\d+ = checks\.(\w+)\(", t, re.M)]
    assert used == ["sentence_log_prob", "pair_margin", "value_in_interval", "shorter_wins_more"]
    params = text[0]
    assert re.search(r"^seed = \d+", params, re.M) and re.search(r"^n_pairs = \d+", params, re.M)
