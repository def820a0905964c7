"""One common test over the catalogue, in the manner of scikit-learn's ``check_estimator``: every measure that the
catalogue declares keeps the same promises.

For each measure: it returns the one :class:`wordbias.result.Result`; the same seed gives the same numbers; the
order of the words in each list changes nothing; its tidy row passes the schema's check; an out-of-range option
raises the project's own error; it runs through :func:`wordbias.battery.ensemble.on_runs` (a language model's
rows, which are not runs of an embedding, through :func:`~wordbias.battery.ensemble.combine_rows`); a bounded measure's
interval stays in its range; a measure without a test never gets a p.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import math
import tempfile
import warnings

import numpy as np
import pandas as pd
import pytest
import tiny_causal as tiny_causal_models

from wordbias import catalogue
from wordbias.battery.ensemble import combine_rows, on_runs
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tidy import check_tidy, tidy_frame
from wordbias.datasets.bec_pro import BecProSentence
from wordbias.datasets.contextual_tests import ROLES, kurita2019_categories
from wordbias.datasets.stereoset import StereoSetExample
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import measurement, scweat, seat
from wordbias.measures.directions import direction, indirect_bias, ripa
from wordbias.measures.directions.direction_permutation import direction_test
from wordbias.measures.enumeration import ube
from wordbias.measures.language_models import bec_pro as bp
from wordbias.measures.language_models import contextual as lm
from wordbias.measures.language_models import crows_pairs as cp
from wordbias.measures.language_models import stereoset as st
from wordbias.measures.sets import ect, mac, rnd, rnsb, semaxis
from wordbias.options import Resampling, Words
from wordbias.result import Result

X = [f"x{i}" for i in range(6)]
Y = [f"y{i}" for i in range(6)]
A = [f"a{i}" for i in range(6)]
B = [f"b{i}" for i in range(6)]
PROPERTY = {w: float(i) for i, w in enumerate(X + Y)}
#: the category of the language-model measures: Kurita et al.'s career/family, which the tiny masked LM plants
CATEGORY = kurita2019_categories()[2]
#: UBE's names: the first 20 of 120 tokens
UBE_TOKENS = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
UBE_PARAMETERS = ube.UBEParameters(n=2, m=3, M=60, t=2, R=50, svm_top_words=120, case_source=None)
LANGUAGE_MODEL = {"contextual_weat", "mlm_log_prob"}
#: the benchmarks of a causal language model: sentences scored by the tiny causal model
CAUSAL = {"crows_pairs", "crows_pairs_difference", "stereoset_ss", "stereoset_lms", "stereoset_icat", "bec_pro"}
#: a few pairs in the tiny causal model's words, in CrowS-Pairs' form
PAIRS = tiny_causal_models.crows_pairs()
#: a few StereoSet intrasentence examples in the tiny causal model's words: (context, stereotype, anti-stereotype,
#: unrelated, bias type)
EXAMPLES = [StereoSetExample(str(i), "intrasentence", context.split()[0], bias, context, *options, ("1", "2", "3"),
                             (5, 5, 5), (5, 5, 5))
            for i, (context, *options, bias) in enumerate([
                ("she is a BLANK", "she is a nurse", "she is a doctor", "she is a drive", "gender"),
                ("the BLANK are lazy", "the poor are lazy", "the rich are lazy", "the well are lazy", "profession"),
                ("BLANK kids are lazy", "black kids are lazy", "white kids are lazy", "drive kids are lazy", "race"),
                ("BLANK can not drive", "women can not drive", "men can not drive", "is can not drive", "gender"),
                ("he is a BLANK", "he is a doctor", "he is a nurse", "he is a well", "profession")])]
#: BEC-Pro's one template on six of the tiny model's words as professions, and their made-up shares of women
BEC_PRO_SHARE = {"nurse": 90.0, "doctor": 40.0, "people": 55.0, "kids": 70.0, "poor": 20.0, "drive": 5.0}
SENTENCES = [BecProSentence(i, f"{person} is a {job}", "", "", "", "<person subject> is a <profession>.", person,
                            gender, job, "balanced", job)
             for i, (job, (person, gender)) in enumerate((j, g) for j in BEC_PRO_SHARE
                                                        for g in (("he", "male"), ("she", "female")))]
#: each benchmark's items
ITEMS = {"stereoset_ss": EXAMPLES, "stereoset_lms": EXAMPLES, "stereoset_icat": EXAMPLES, "bec_pro": SENTENCES}


def planted(seed: int = 0, strength: float = 1.0):
    """A 16-dimensional embedding with X near A and Y near B (``strength`` the planted association)."""
    rng = np.random.default_rng(seed)
    axis = np.zeros(16)
    axis[0] = 1.0
    rows = {}
    for words, sign in ((X, 1), (A, 1), (Y, -1), (B, -1)):
        for w in words:
            rows[w] = rng.normal(size=16) * 0.5 + sign * strength * axis
    words = list(rows)
    return to_keyed_vectors(words, np.array([rows[w] for w in words], dtype=np.float32))


@functools.cache
def tiny_lm(seed: int = 0, strength: float = 2.0):
    """The tiny planted BERT masked LM (career words male, family words female), as (encoder, masked LM)."""
    from wordbias.datasets import stimuli
    from wordbias.models import contextual, tiny_mlm

    folder = tempfile.mkdtemp(prefix="wordbias-tiny-mlm-")
    cat = stimuli.load_stimuli("kurita2019")["categories"]["career_family"]
    tiny_mlm.build(folder, male=[w.lower() for w in cat["A"]], female=[w.lower() for w in cat["B"]], seed=seed,
                   strength=strength, targets=[("he", "she"), ("boys", "girls"), ("men", "women")])
    return contextual.load_encoder(folder, device="cpu"), contextual.load_mlm(folder, device="cpu")


@functools.cache
def tiny_causal(seed: int = 0):
    """The tiny causal language model of ``tests/tiny_causal.py``, its weights drawn with ``seed``."""
    import tiny_causal as tc

    from wordbias.models.causal import load_causal

    return load_causal(str(tc.build(tempfile.mkdtemp(prefix="wordbias-tiny-causal-"), seed=seed)))


def ube_embedding(seed: int = 0, strength: float = 1.0):
    """120 random 8-dimensional tokens (``strength`` scales them: UBE is scale-free)."""
    vectors = np.random.default_rng(seed).normal(size=(120, 8)) * max(strength, 0.5)
    return to_keyed_vectors(UBE_TOKENS, vectors.astype(np.float32))


def subject(measure: str, seed: int = 0, strength: float = 1.0):
    """What ``measure`` runs on: a planted embedding, UBE's random tokens, or the tiny masked LM."""
    if measure in LANGUAGE_MODEL:
        return tiny_lm(seed, 0.5 + 1.5 * strength)       # a masked LM with no planted gap scores all alike: no d
    if measure in CAUSAL:
        return tiny_causal(seed)
    return ube_embedding(seed, strength) if measure == "ube" else planted(seed, strength)


def lists(measure: str) -> tuple:
    """The word lists of ``measure``'s call: X, Y, A, B (a language model's category's), or UBE's names."""
    if measure in LANGUAGE_MODEL:
        return tuple(list(CATEGORY.sets[r]) for r in ROLES)
    if measure in CAUSAL:
        return (ITEMS.get(measure, PAIRS),)
    return (UBE_TOKENS[:20],) if measure == "ube" else (X, Y, A, B)


def _category(L) -> object:
    return dataclasses.replace(CATEGORY, sets=dict(zip(ROLES, (tuple(w) for w in L))))


#: each catalogue measure's call on its lists, with small resampling sizes
RUNNERS = {
    "weat": lambda kv, o, L: measurement.weat(kv, L[0], L[1], L[2], L[3], **o),
    "wefat": lambda kv, o, L: measurement.wefat(kv, L[0] + L[1], L[2], L[3], PROPERTY, **o),
    "sc_weat": lambda kv, o, L: scweat.sc_weat(kv, L[0], L[2], L[3], warn=False, **o),
    "seat": lambda kv, o, L: seat.seat(kv, dict(zip("XYAB", L)), cache=False, **o),   # one-word sentences, CBoW
    "direction": lambda kv, o, L: direction_test(kv, L[0], L[1], L[2], L[3], warn=False, **o),
    "ect": lambda kv, o, L: ect.ect(kv, L[0], L[1], L[2] + L[3], warn=False, **o),
    "rnd": lambda kv, o, L: rnd.rnd(kv, L[0], L[1], L[2], warn=False, **o),
    "rnsb": lambda kv, o, L: rnsb.rnsb(kv, [L[0], L[1]], L[3], L[2], warn=False, **o),
    "mac": lambda kv, o, L: mac.mac(kv, [L[0], L[1]], [L[2], L[3]], warn=False, **o),
    "semaxis": lambda kv, o, L: semaxis.semaxis(kv, L[0], L[1], L[2], L[3], warn=False, **o),
    "indirect_bias": lambda kv, o, L: indirect_bias.mean_indirect_bias(
        kv, L[2], L[3], pairs=list(zip(L[0], L[1])), warn=False, **o),
    "ripa": lambda kv, o, L: ripa.ripa(kv, L[2] + L[3], list(zip(L[0], L[1])), warn=False, **o),
    "direct_bias": lambda kv, o, L: direction.direct_bias_test(kv, L[2] + L[3], list(zip(L[0], L[1])), warn=False,
                                                               **o),
    "ube": lambda kv, o, L: ube.ube(kv, L[0], progress=False, **o),
    "contextual_weat": lambda models, o, L: lm.contextual_weat(_category(L), models[0], **o),
    "mlm_log_prob": lambda models, o, L: lm.mlm_log_prob(_category(L), models[1], **o),
    "crows_pairs": lambda m, o, L: cp.crows_pairs(m, L[0], **o),
    "crows_pairs_difference": lambda m, o, L: cp.paired_difference(
        cp.score_pairs(m, L[0], convention="harness"), cp.score_pairs(m, L[0], convention="shared-tokens"), **o),
    "stereoset_ss": lambda m, o, L: st.stereoset_ss(m, L[0], **o),
    "stereoset_lms": lambda m, o, L: st.stereoset_lms(m, L[0], **o),
    "stereoset_icat": lambda m, o, L: st.stereoset_icat(m, L[0], **o),
    "bec_pro": lambda m, o, L: bp.bec_pro(m, L[0], BEC_PRO_SHARE, **o),
}
#: the measures of the catalogue that do not return the one result yet
NOT_YET: set = set()
#: the option that fills each check's out-of-range cases, where the measure takes it
BAD_OPTIONS = [("n_resamples", -1), ("seed", -3), ("confidence_level", 1.5), ("min_fraction", 2.0),
               ("n_permutations", 0), ("alternative", "bigger")]


#: the option objects a measure takes, and the options each holds
OPTION_OBJECTS = {"resampling": Resampling, "words": Words, "parameters": ube.UBEParameters}
#: the option objects' defaults in these checks, where a measure's own would be too slow
TEST_DEFAULTS = {("ube", "parameters"): UBE_PARAMETERS}


def _options(measure: str, **extra) -> dict:
    """The keywords of a call: each option the measure takes as a keyword, and those it takes inside
    ``resampling=`` / ``words=`` / ``parameters=`` built into the object (from the measure's ``DEFAULT_...``
    where its module has one), which refuses an out-of-range option as it is made."""
    f = _function(measure)
    params = inspect.signature(f).parameters
    given = {"n_resamples": 200, "n_permutations": 500, "seed": 0, **extra}
    out = {k: v for k, v in given.items() if k in params}
    for name, cls in OPTION_OBJECTS.items():
        chosen = {k: v for k, v in given.items() if k in _fields(cls) and k not in params}
        default = TEST_DEFAULTS.get((measure, name), getattr(inspect.getmodule(f), f"DEFAULT_{name.upper()}", None))
        if name in params and (chosen or default is not None):
            out[name] = default.replace(**chosen) if default is not None else cls(**chosen)
    return out


def _fields(cls) -> set:
    return set(inspect.signature(cls).parameters)


def _takes(measure: str, option: str) -> bool:
    params = inspect.signature(_function(measure)).parameters
    return option in params or any(name in params and option in _fields(cls) for name, cls in OPTION_OBJECTS.items())


def _function(measure: str):
    """The function the catalogue names for ``measure``."""
    module, name = catalogue.spec(measure).function.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def run(measure: str, on=None, lists_=None, **options) -> Result:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RUNNERS[measure](subject(measure) if on is None else on, _options(measure, **options),
                                lists(measure) if lists_ is None else lists_)


def _numbers(r: Result) -> tuple:
    return (r.statistic, r.effect_size, r.ci_low, r.ci_high, r.p_value, r.p_two_sided)


MEASURED = sorted(RUNNERS)


def test_every_catalogue_measure_is_checked_or_named_as_not_yet():
    assert set(catalogue.CATALOGUE) == set(RUNNERS) | NOT_YET
    assert not set(RUNNERS) & NOT_YET


@pytest.mark.parametrize("measure", MEASURED)
def test_returns_the_one_result(measure):
    r = run(measure)
    assert isinstance(r, Result) and r.measure == measure and r.not_run is None
    assert r.effect_size_name == catalogue.spec(measure).effect_size_name


@pytest.mark.parametrize("measure", MEASURED)
def test_same_seed_same_numbers(measure):
    np.testing.assert_array_equal(_numbers(run(measure)), _numbers(run(measure)))


@pytest.mark.parametrize("measure", MEASURED)
def test_invariant_to_word_order(measure):
    r = run(measure)
    shuffled = [list(reversed(words)) for words in lists(measure)]
    s = run(measure, lists_=shuffled)
    # the statistic is a function of the sets, not of their order: equal up to float32 summation order
    np.testing.assert_allclose([s.statistic, s.effect_size], [r.statistic, r.effect_size], rtol=1e-5, atol=1e-6,
                               equal_nan=True)
    assert s.coverage == r.coverage


@pytest.mark.parametrize("measure", MEASURED)
def test_to_row_passes_the_tidy_check(measure):
    row = run(measure).to_row({"embedding": "planted", "paper": "user", "battery": "checks"})
    frame = check_tidy(tidy_frame([row]))
    assert frame.measure.iloc[0] == measure and frame.coverage.iloc[0]


@pytest.mark.parametrize("measure", MEASURED)
@pytest.mark.parametrize("option, value", BAD_OPTIONS)
def test_an_out_of_range_option_raises_the_projects_error(measure, option, value):
    if not _takes(measure, option):
        pytest.skip(f"{measure} takes no {option}")
    with pytest.raises(InvalidParameterError, match=option):
        run(measure, **{option: value})


@pytest.mark.parametrize("measure", MEASURED)
def test_runs_through_on_runs(measure):
    runs = [subject(measure, seed) for seed in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if measure in LANGUAGE_MODEL | CAUSAL:      # models are not embedding runs: their rows are combined
            rows = tidy_frame([run(measure, one).to_row({"embedding": f"planted/run-{i + 1}", "paper": "user",
                                                          "battery": "checks"}) for i, one in enumerate(runs)])
            table = pd.concat([combine_rows(rows, label="planted"), rows], ignore_index=True)
        else:
            table = on_runs(lambda one: run(measure, one), runs, label="planted")
    combined = table.iloc[0]
    assert combined.embedding == "planted" and len(table) == 4
    column = "effect_size" if catalogue.spec(measure).effect_size_name else "statistic"
    assert combined[column] == pytest.approx(table[column].iloc[1:].mean())
    if catalogue.spec(measure).combine != "mean and t":
        assert math.isnan(combined.p_value)


@pytest.mark.parametrize("measure", MEASURED)
def test_a_bounded_interval_stays_in_range(measure):
    s = catalogue.spec(measure)
    for strength in (0.0, 3.0):                     # no planted bias, and a bias near the edge of the range
        r = run(measure, subject(measure, 1, strength))
        if measure == "ube":                        # a count of cells has no interval
            assert r.interval is None and math.isnan(r.ci_low)
        else:
            assert s.low <= r.ci_low <= r.ci_high <= s.high, (strength, r.ci_low, r.ci_high)
        value = r.effect_size if s.effect_size_name else r.statistic
        assert s.low <= value <= s.high


@pytest.mark.parametrize("measure", MEASURED)
def test_a_measure_without_a_test_never_gets_a_p(measure):
    r = run(measure)
    row = r.to_row({"embedding": "planted", "paper": "user", "battery": "checks"})
    if catalogue.has_test(measure):
        assert 0 < row["p_value"] <= 1
    else:
        assert row.get("p_value") is None and math.isnan(r.p_value)
        assert any("no test" in n for n in r.notes)
