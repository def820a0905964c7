"""Catalogue cases of the family "statistics": statistics that were computed, and reported, from inputs that
cannot support them.

* a target word that is also an attribute word (X and A both holding "he"): refused by every entry point,
  naming the words and the sets (:func:`wordbias.measures.association.weat.check_targets_not_attributes`);
* scores that differ only at the rounding of float32 word vectors (targets, or attributes, whose vectors are
  equal up to float32 rounding; scores equal up to 1e-7 relative): d, SC-WEAT's ES and WEFAT's r refused as a
  ratio of noise (:func:`wordbias.core.validation.spread_tolerance` with the vectors' precision), the battery's,
  the ensemble's and the command's test not run with the reason;
* a random-effects "pooling" of one study (one template): no interval, and a note;
* a WEFAT property that is not finite, or equal up to rounding.

A battery, an ensemble or a command does not raise for one test: the calls here raise :class:`NotRun` with the
reason they give (their note), or :class:`CommandFailed` with the command's exit status and stderr, so that a
result given without a note is "silent". A property near 1e155 now gives the r it has at any other scale: a
right answer, tested below the table."""
from __future__ import annotations

import itertools
import math
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, CommandFailed, check, exit_status, run_cli

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.options import Resampling, Words

F = "statistics"


class NotRun(RuntimeError):
    """A battery, an ensemble or a pooling gave no number for a test; the message is the reason it gave."""


def _ulps(v, k):
    out = np.asarray(v, dtype=np.float32)
    for _ in range(abs(k)):
        out = np.nextafter(out, np.float32(np.inf) if k > 0 else np.float32(-np.inf))
    return out


V = np.array([0.3, -0.7, 0.5, 0.2], dtype=np.float32)
CLOSE = {"t1": V, "t2": _ulps(V, 1), "t3": _ulps(V, -1), "t4": _ulps(V, 2)}     # equal up to float32 rounding
ATTRS = {"a1": [1.0, 0.0, 0.2, 0.1], "a2": [0.8, 0.3, 0.0, 0.4], "b1": [0.0, 1.0, 0.1, 0.3],
         "b2": [0.2, 0.9, 0.5, 0.0], "w": [0.6, 0.1, -0.4, 0.9], "w2": [0.1, 0.2, 0.3, 0.4],
         "w3": [0.5, -0.2, 0.1, 0.0]}
LISTS4 = (["t1", "t2"], ["t3", "t4"], ["a1", "a2"], ["b1", "b2"])
PROP4 = {"t1": 1.0, "t2": 2.0, "t3": 3.0, "t4": 4.0}
TOY = {"he": [1, 0.1], "she": [0.1, 1], "rose": [0.9, 0.2], "ant": [0.2, 0.9], "him": [1, 0], "her": [0, 1],
       "tulip": [0.8, 0.3], "wasp": [0.3, 0.8]}
EPS32 = float(np.finfo(np.float32).eps)


def _kv(extra=None):
    from wordbias import embeddings as E

    rows = {**CLOSE, **ATTRS, **(extra or {})}
    return E.to_keyed_vectors(list(rows), np.array([np.asarray(r, dtype=np.float32) for r in rows.values()]))


def _flat_attributes():
    """Attribute vectors equal up to float32 rounding: every word's cosines with them are."""
    return _kv({"a1": CLOSE["t1"], "a2": CLOSE["t2"], "b1": CLOSE["t3"], "b2": CLOSE["t4"]})


def _quiet(call):
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call()
    return run


def _mod(name):
    return __import__(f"wordbias.{name}", fromlist=["_"])


# files for the commands and the lists, written at import in a temporary folder
TMP = Path(tempfile.mkdtemp(prefix="wordbias-statistics-")).resolve()
CACHE = ["--cache-dir", TMP / "cache"]
_OUT = itertools.count()


def _write_w2v(path: Path, rows: dict) -> Path:
    vals = {w: np.asarray(v, dtype=np.float32) for w, v in rows.items()}
    path.write_text(f"{len(vals)} 4\n" + "\n".join(w + " " + " ".join(f"{float(x):.9g}" for x in v)
                                                   for w, v in vals.items()) + "\n", encoding="utf-8")
    return path


NOISE_EMB = _write_w2v(TMP / "noise.txt", {**CLOSE, **ATTRS})


def _lists(name: str, text: str) -> Path:
    path = TMP / name
    path.write_text(text, encoding="utf-8")
    return path


NOISE_LISTS = _lists("noise.yaml", "battery: b\nweat:\n  - id: noise\n    targets: {X: [t1, t2], Y: [t3, t4]}\n"
                                   "    attributes: {A: [a1, a2], B: [b1, b2]}\n")
OVERLAP_WEAT = _lists("overlap_weat.yaml", "battery: b\nweat:\n  - id: t1\n    targets: {X: [t1, a1], Y: [t2, t3]}\n"
                                           "    attributes: {A: [a1, a2], B: [b1, b2]}\n")
OVERLAP_WEFAT = _lists("overlap_wefat.yaml", "battery: b\nwefat:\n  - id: f1\n    targets: {W: [t1, t2, b1]}\n"
                                             "    attributes: {A: [a1, a2], B: [b1, b2]}\n"
                                             "    property: {name: p, values: {t1: 1, t2: 2, b1: 3}}\n")


def _command(*argv):
    """``wordbias ARGV --out <fresh folder>``: 0, or :class:`CommandFailed` with the exit status and stderr."""
    return lambda: exit_status(*run_cli([*argv, "--out", TMP / f"out-{next(_OUT)}"]))


def _battery_row(call):
    """The first row of a battery's table: :class:`NotRun` with its note when it has no effect size."""
    def run():
        frame = _quiet(call)()
        row = frame.iloc[0]
        if not (isinstance(row.effect_size, float) and math.isfinite(row.effect_size)):
            raise NotRun(str(row.note))
        return row
    return run


def _measured(call):
    """A Result (or a list of them, or an ensemble's): :class:`NotRun` with the reason when not run."""
    def run():
        got = _quiet(call)()
        items = got if isinstance(got, list) else [got]
        for m in items:
            per_run = getattr(m, "per_run", None)
            reasons = [r.not_run for r in per_run if r.not_run] if per_run else ([m.not_run] if m.not_run else [])
            if reasons:
                raise NotRun("; ".join(reasons))
        return got
    return run


def _no_interval(call, low="low", note="note"):
    """A pooled result: :class:`NotRun` with its note when it has no interval (a NaN bound)."""
    def run():
        r = call()
        if math.isnan(getattr(r, low)):
            raise NotRun(getattr(r, note))
        return r
    return run


def _weat_battery(embedding, spec):
    from wordbias.battery import weat as battery_weat

    return lambda: battery_weat.weat_battery(embedding, [spec], label="e", battery="b", paper="user",
                                             resampling=Resampling(n_resamples=20, n_permutations=100_000))


def _cases() -> list[Case]:
    weat, wefat, scweat, measurement = (_mod(f"measures.association.{m}") for m in ("weat", "wefat", "scweat",
                                                                                     "measurement"))
    ceat, bootstrap = (_mod(f"measures.association.{m}") for m in ("ceat", "bootstrap"))
    ensemble = _mod("measures.ensemble")
    sensitivity, user_lists = _mod("measures.diagnostics.sensitivity"), _mod("datasets.user_lists")
    kurita = _mod("papers.kurita2019_templates")
    overlap = r"target set X and attribute set A share words: \['he'\]"
    noise = r"rounding level"
    s = 0.5 * (1 + 1e-7 * np.array([0.3, -1.0, 0.8, -0.2, 1.0, 0.1]))
    cos = np.array([0.61, 0.61 + 6e-8, 0.61 - 6e-8, 0.61 + 1.2e-7])
    spec4 = dict(zip(("X", "Y", "A", "B"), LISTS4), id="noise")
    prop_close = [0.3, np.nextafter(0.3, 1), 0.3, np.nextafter(0.3, 0)]
    return [
        # a target word that is also an attribute word
        Case(F, "weat: 'he' in X and in A", lambda: weat.weat(TOY, ["he", "rose"], ["ant", "wasp"], ["he", "him"],
                                                              ["her"]), InvalidParameterError, match=overlap),
        Case(F, "weat: 'her' in Y and in B", lambda: weat.weat(TOY, ["rose", "tulip"], ["ant", "her"], ["he"],
                                                               ["her", "she"]),
             InvalidParameterError, match=r"target set Y and attribute set B share words: \['her'\]"),
        Case(F, "weat: 'He' in X, 'he' in A, case folded", lambda: weat.weat(TOY, ["He", "rose"], ["ant", "wasp"],
                                                                             ["he", "him"], ["her"],
                                                                             words=Words(case_fold=True)),
             InvalidParameterError, match=overlap),
        Case(F, "weat: X's word in B, named sets", lambda: weat.weat(
             TOY, ["rose", "she"], ["ant", "wasp"], ["he"], ["her", "she"], names={"X": "flowers", "B": "female"}),
             InvalidParameterError, match=r"target set X \('flowers'\) and attribute set B \('female'\) share words"),
        Case(F, "wordbias.weat: 'he' in X and in A", lambda: measurement.weat(TOY, ["he", "rose"], ["ant", "wasp"],
                                                                              ["he", "him"], ["her"],
                                                                              resampling=Resampling(n_resamples=0, n_permutations=100_000)),
             InvalidParameterError, match=overlap),
        Case(F, "weat_bootstrap: 'he' in X and in A", lambda: bootstrap.weat_bootstrap(TOY, ["he", "rose"],
                                                                                       ["ant", "wasp"], ["he", "him"],
                                                                                       ["her"],
                                                                                       resampling=Resampling(n_resamples=10)),
             InvalidParameterError, match=overlap),
        Case(F, "weat_cosines (word influence): 'he' in X and in A", lambda: sensitivity.weat_cosines(
             TOY, ["he", "rose"], ["ant", "wasp"], ["he", "him"], ["her"]), InvalidParameterError, match=overlap),
        Case(F, "weats (battery): a word in X and in A", _measured(lambda: measurement.weats(_kv(), [
             {"id": "t", "X": ["t1", "a1"], "Y": ["t2", "t3"], "A": ["a1", "a2"], "B": ["b1", "b2"]}],
                                                                                             resampling=Resampling(n_resamples=0, n_permutations=100_000))), NotRun, match=r"InvalidParameterError: target set X and attribute set A share words"),
        Case(F, "wefat: 'he' in W and in A", lambda: _mod("measures.association.wefat").wefat(
             TOY, ["he", "rose", "ant"], ["he", "him"], ["her"], {"he": 1.0, "rose": 2.0, "ant": 3.0}),
             InvalidParameterError, match=r"target set 'W' and attribute set 'A' share words: \['he'\]"),
        Case(F, "wordbias.wefat: 'her' in W and in B", lambda: measurement.wefat(TOY, ["her", "rose", "ant"],
                                                                                 ["he", "him"], ["her"],
                                                                                 {"her": 1.0, "rose": 2.0, "ant": 3.0},
                                                                                 resampling=Resampling(n_resamples=0)), InvalidParameterError, match=r"attribute set 'B' share words: \['her'\]"),
        Case(F, "lists file: a WEAT's X word in A", lambda: user_lists.load_user_lists(OVERLAP_WEAT),
             InvalidParameterError, match=r"test 't1': target set X and attribute set A share words: \['a1'\]"),
        Case(F, "lists file: a WEFAT's W word in B", lambda: user_lists.load_user_lists(OVERLAP_WEFAT),
             InvalidParameterError, match=r"test 'f1': target set W and attribute set B share words: \['b1'\]"),
        Case(F, "command weat --lists: a WEAT's X word in A", _command("weat", NOISE_EMB, "--lists", OVERLAP_WEAT,
                                                                       "-q", "--n-resamples", "20", *CACHE),
             CommandFailed, match=r"exit 1: wordbias: error: .*target set X and attribute set A share words"),
        # scores at the rounding level of float32 vectors
        Case(F, "weat: X and Y vectors equal up to float32 rounding", _quiet(lambda: weat.weat(_kv(), *LISTS4)),
             DegenerateSetError, match=r"same association s\(w, A, B\).*" + noise),
        Case(F, "wordbias.weat: X and Y vectors equal up to float32 rounding",
             _quiet(lambda: measurement.weat(_kv(), *LISTS4,
                                             resampling=Resampling(n_resamples=0, n_permutations=100_000))), DegenerateSetError, match=noise),
        Case(F, "weats: X and Y vectors equal up to float32 rounding",
             _measured(lambda: measurement.weats(_kv(), [spec4],
                                                 resampling=Resampling(n_resamples=0, n_permutations=100_000))), NotRun,
             match=r"not run: DegenerateSetError: .*" + noise),
        Case(F, "weat_battery: X and Y vectors equal up to float32 rounding",
             _battery_row(_weat_battery(_kv(), spec4)), NotRun, match=r"not run: DegenerateSetError.*" + noise),
        Case(F, "effect_size: float32 scores equal up to 1e-7 relative", lambda: weat.effect_size(
             s[:3].astype(np.float32), s[3:].astype(np.float32)), DegenerateSetError, match=noise),
        Case(F, "effect_size: scores equal up to 1e-7 relative, from float32 vectors", lambda: weat.effect_size(
             s[:3], s[3:], input_eps=EPS32), DegenerateSetError, match=noise),
        Case(F, "weat_from_scores: float32 scores equal up to 1e-7 relative", lambda: weat.weat_from_scores(
             s[:3].astype(np.float32), s[3:].astype(np.float32)), DegenerateSetError, match=noise),
        Case(F, "sc_weat: attribute vectors equal up to float32 rounding", lambda: scweat.sc_weat(
             _flat_attributes(), ["w"], ["a1", "a2"], ["b1", "b2"]), DegenerateSetError,
             match=r"same cosine with every attribute word.*" + noise),
        Case(F, "sc_weat_effect_size: float32 cosines one ulp apart", lambda: scweat.sc_weat_effect_size(
             cos[:2].astype(np.float32), cos[2:].astype(np.float32)), DegenerateSetError, match=noise),
        Case(F, "wefat: target vectors equal up to float32 rounding", lambda: wefat.wefat(
             _kv(), list(PROP4), ["a1", "a2"], ["b1"], PROP4), DegenerateSetError,
             match=r"same association s\(w, A, B\).*" + noise),
        Case(F, "wefat: attribute vectors equal up to float32 rounding", lambda: wefat.wefat(
             _flat_attributes(), ["w", "w2", "w3"], ["a1", "a2"], ["b1"], {"w": 1.0, "w2": 2.0, "w3": 3.0}),
             DegenerateSetError, match=r"same cosine with every attribute word.*" + noise),
        Case(F, "wefats: target vectors equal up to float32 rounding", _measured(lambda: measurement.wefats(_kv(),
                                                                                                            [{"id": "n", "W": list(PROP4), "A": ["a1", "a2"], "B": ["b1"], "property": PROP4}],
                                                                                                            resampling=Resampling(n_resamples=0))), NotRun, match=r"not run: DegenerateSetError: .*" + noise),
        Case(F, "ensemble weat: two runs of vectors equal up to float32 rounding", _measured(lambda: ensemble.on_runs(
             measurement.weats, [_kv(), _kv()], [{"id": "twins", **dict(zip("XYAB", LISTS4))}],
             resampling=Resampling(n_resamples=0), label="twins")), NotRun, match=r"DegenerateSetError.*" + noise),
        Case(F, "combine_runs: runs' d equal up to rounding, no interval over words", _no_interval(
             lambda: ensemble.combine_runs([0.5, np.nextafter(0.5, 1), np.nextafter(0.5, 0)], [np.nan] * 3,
                                           [np.nan] * 3), low="ci_low", note="method"),
             NotRun, match=r"equal up to rounding.*no interval"),
        Case(F, "command weat: X and Y vectors equal up to float32 rounding", _command(
             "weat", NOISE_EMB, "--lists", NOISE_LISTS, "-q", "--n-resamples", "20", *CACHE), CommandFailed,
             match=r"exit 3: (.*\n)?wordbias: not run: noise \(weat\): DegenerateSetError.*" + noise),
        # one study
        Case(F, "random_effects: one study", _no_interval(lambda: ceat.random_effects([0.8], [0.04])), NotRun,
             match=r"one study: no between-study variance"),
        Case(F, "random_effects: one study, one-sided", _no_interval(lambda: ceat.random_effects(
             [0.8], [0.04], alternative="greater")), NotRun, match=r"one study"),
        Case(F, "pool_templates: one template", _no_interval(lambda: ceat.pool_templates(
             [[0.9, 0.2, 0.5]], [[-0.3, 0.1, -0.6]]).pooled), NotRun, match=r"one study"),
        Case(F, "template_spread: one template", _no_interval(lambda: kurita.template_spread(
             [[0.9, 0.2, 0.5]], [[-0.3, 0.1, -0.6]], templates=["only"]).to_frame().iloc[1]), NotRun,
             match=r"no between-study variance"),
        # the property
        Case(F, "regress: an infinite property", lambda: wefat.regress([0.1, 0.4, 0.2, 0.9], [1.0, np.inf, 2.0, 3.0]),
             InvalidParameterError, match=r"prop holds non-finite property values at positions \[1\]"),
        Case(F, "regress: a NaN score", lambda: wefat.regress([0.1, np.nan, 0.2, 0.9], [1.0, 2.0, 2.5, 3.0]),
             InvalidParameterError, match=r"s holds non-finite scores at positions \[1\]"),
        Case(F, "regress: a property equal up to rounding", lambda: wefat.regress([0.1, 0.4, 0.2, 0.9], prop_close),
             DegenerateSetError, match=r"property is the same up to rounding"),
        Case(F, "regress: s and prop of different lengths", lambda: wefat.regress([0.1, 0.4, 0.2, 0.9], [1.0, 2.0, 3.0]),
             InvalidParameterError, match=r"one value per target word each, not 4 and 3"),
    ]


CASES_STATISTICS = _cases()


@pytest.mark.parametrize("case", CASES_STATISTICS, ids=lambda c: c.id)
def test_case(case):
    check(case)


# --------------------------------------------------------------------------------------------------
# right answers: a property's scale does not change r or p
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("factor", [1e150, 1e155, 1e-160, 2.0 ** -1000])
def test_wefat_property_at_any_scale_gives_the_same_r_and_p(factor):
    from wordbias.measures.association import wefat

    emb = {"j1": [1, .1], "j2": [.8, .3], "j3": [.45, .6], "j4": [.2, .9], "j5": [.6, .5], "she": [1, 0],
           "her": [.9, .2], "he": [0, 1]}
    prop = {"j1": 4.0, "j2": 3.0, "j3": 2.5, "j4": 1.0, "j5": 3.3}
    ref = wefat.wefat(emb, list(prop), ["she", "her"], ["he"], prop)
    got = wefat.wefat(emb, list(prop), ["she", "her"], ["he"], {k: v * factor for k, v in prop.items()})
    assert got.pearson_r == pytest.approx(ref.pearson_r, rel=1e-12) and got.p_value == pytest.approx(ref.p_value,
                                                                                                        rel=1e-9)
    assert got.slope == pytest.approx(ref.slope * factor, rel=1e-12)


def test_a_property_whose_range_overflows():
    from wordbias.measures.association import wefat

    s = [0.1, 0.4, 0.2, 0.9, 0.5]
    prop = np.array([-1.0, 0.5, -0.2, 1.7, 0.1])
    ref, big = wefat.regress(s, prop), wefat.regress(s, prop * 1e308)     # ptp of the big one is inf
    assert big["pearson_r"] == pytest.approx(ref["pearson_r"], rel=1e-12)
    assert big["p_value"] == pytest.approx(ref["p_value"], rel=1e-9)
    assert big["slope"] == math.inf                                       # 3.04e308: beyond the float range
