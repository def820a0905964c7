"""WEFE's family of measures on the report's word lists, as tidy rows (:mod:`wordbias.core.tidy`).

:func:`metric_rows` measures, each once, on Caliskan et al.'s (2017) "glove" word lists
(:func:`wordbias.datasets.stimuli.weat_tests`):

* on the three gender tests WEAT6 (male vs female names; career, family), WEAT7 (male vs female terms; math,
  arts) and WEAT8 (male vs female terms; science, arts), with the two gender lists as the groups (T1 male, T2
  female) and the other two lists as the neutral words: ECT (Dev & Phillips 2019; :func:`wordbias.measures.sets.ect.ect`,
  the neutral lists pooled), RND (Garg et al. 2018; :func:`wordbias.measures.sets.rnd.rnd`, pooled), MAC (Manzini
  et al. 2019; :func:`wordbias.measures.sets.mac.mac`, the groups as target sets, the neutral lists as attribute
  sets) and SemAxis (An et al. 2018; :func:`wordbias.measures.sets.semaxis.semaxis`, the groups compared on the axis
  from the first neutral list to the second);
* on WEAT3 (European vs African American names; pleasant, unpleasant), whose attribute lists are sentiment:
  RNSB (Sweeney & Najafian 2019; :func:`wordbias.measures.sets.rnsb.rnsb`, the names as identity terms);
* Bolukbasi et al.'s (2016, Section 5.2) indirect bias on the PCA gender direction of the debiaswe definitional
  pairs: the mean β of "softball" with the professions the paper names at its extreme of the softball−football
  direction, and of "football" with those at the other (:data:`INDIRECT_SETS`;
  :func:`wordbias.measures.directions.indirect_bias.mean_indirect_bias`).

RNSB's interval retrains a classifier per replicate, so it uses at most :data:`RNSB_RESAMPLES` replicates (its
``n_resamples`` column says how many). A measure the embedding cannot make gives a row with NA numbers and the
reason. This module builds on :mod:`wordbias.measures` and :mod:`wordbias.datasets` only.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping
from functools import partial

from wordbias.core import tidy as _tidy
from wordbias.datasets import stimuli
from wordbias.measures.association.measurement import NOT_RUN_ERRORS
from wordbias.measures.directions import indirect_bias as _ib
from wordbias.measures.sets import ect as _ect
from wordbias.measures.sets import mac as _mac
from wordbias.measures.sets import rnd as _rnd
from wordbias.measures.sets import rnsb as _rnsb
from wordbias.measures.sets import semaxis as _semaxis
from wordbias.options import Resampling, Words

__all__ = ["BATTERY", "GENDER_TESTS", "SENTIMENT_TEST", "INDIRECT_SETS", "RNSB_RESAMPLES", "metric_row",
           "metric_rows"]

#: the ``battery`` column of these rows
BATTERY = "metrics"
#: the gender WEATs the group measures run on: test -> (the two group lists, the two neutral lists)
GENDER_TESTS = {"WEAT6": (("X", "Y"), ("A", "B")), "WEAT7": (("A", "B"), ("X", "Y")),
                "WEAT8": (("A", "B"), ("X", "Y"))}
#: the WEAT whose attribute lists are sentiment: RNSB's identity terms X, Y; positive A, negative B
SENTIMENT_TEST = "WEAT3"
#: indirect bias: each sport with the professions Bolukbasi et al. (2016, Section 5.2) list at its extreme of the
#: softball - football direction ("registered nurse" as "nurse" in a vocabulary of single words)
INDIRECT_SETS = {"softball": ("pitcher", "bookkeeper", "receptionist", "nurse", "waitress"),
                 "football": ("footballer", "businessman", "pundit", "maestro", "cleric")}
#: the most bootstrap replicates (classifier fits) of RNSB's interval in the report
RNSB_RESAMPLES = 100
#: the paper of each measure (the ``paper`` column)
PAPER = {"ect": "dev2019", "rnd": "garg2018", "rnsb": "sweeney2019", "mac": "manzini2019", "semaxis": "an2018",
         "indirect_bias": "bolukbasi2016"}
#: how each measure's tests are named (``ECT:WEAT6``, ``RNSB:WEAT3``; the indirect biases ``indirect:<word>``)
LABEL = {"ect": "ECT", "rnd": "RND", "rnsb": "RNSB", "mac": "MAC", "semaxis": "SemAxis"}
#: the tidy size column of each set letter, per measure
COLUMNS = {"T1": "n_x", "T2": "n_y", "A": "n_a", "A1": "n_a", "A2": "n_b", "A_pos": "n_a", "A_neg": "n_b",
           "A_positive": "n_a", "A_negative": "n_b", "W": "n_x", "V": "n_a"}


def metric_row(m, *, base: Mapping) -> dict:
    """Return the tidy row of one measurement of ECT, RND, RNSB, MAC, SemAxis or indirect bias.

    A view of the :class:`~wordbias.result.Result`: ``base``, the paper of the measure, the
    words used per set (T1, T2 as ``n_x``, ``n_y``; the attribute sets as ``n_a``, ``n_b``), the statistic with
    its interval, p one- and two-sided where the measure has a test (NA where not: the note says why), the words
    dropped, the coverage.

    Parameters
    ----------
    m : Result
        The measurement.
    base : mapping
        The row's leading columns (embedding, seed, ...).

    Returns
    -------
    dict
        One row of the tidy schema, with ``coverage`` and ``low_coverage``.

    Examples
    --------
    >>> from wordbias.measures.sets.mac import mac
    >>> emb = {"he": [1, .1], "him": [.9, .2], "she": [.1, 1], "her": [.2, .9], "boss": [1, .3], "home": [.2, 1]}
    >>> from wordbias.options import Resampling
    >>> row = metric_row(mac(emb, [["he", "him"], ["she", "her"]], [["boss"], ["home"]],
    ...                      resampling=Resampling(n_resamples=100), warn=False), base={"embedding": "toy"})
    >>> row["paper"], row["n_x"], row["n_b"], row["p_value"], row["note"][-20:]
    ('manzini2019', 2, 1, None, ' by a paired t-test)')
    """
    return m.to_row({**base, "paper": PAPER[m.measure], "battery": base.get("battery", BATTERY)})


def _not_run(kv, base, *, test, title, measure, sets: Mapping, case_fold: bool, err, cov) -> dict:
    """The row of a measure that could not run: NA numbers, the reason, the words the embedding lacks."""
    fold = str.lower if case_fold else (lambda w: w)
    index = kv.key_to_index
    asked = {k: [fold(w) for w in ws] for k, ws in sets.items()}
    counts = {k: (sum(w in index for w in ws), len(ws)) for k, ws in asked.items()}
    row = {**base, "paper": PAPER[measure], "battery": BATTERY, "test": test, "title": title, "measure": measure,
           "dropped": _tidy.dropped_text({k: [w for w in ws if w not in index] for k, ws in asked.items()}),
           "note": _tidy.not_run_note(err)}
    return _tidy.with_coverage(row, _tidy.coverage(counts, **cov))


def metric_rows(kv, *, base: Mapping, case_fold: bool, seed: int, n_permutations: int, n_resamples: int,
                cov: Mapping) -> list[dict]:
    """Measure ECT, RND, MAC and SemAxis on WEAT6-8, RNSB on WEAT3 and the indirect bias of two sports, as tidy
    rows (see the module docstring for the design).

    Parameters
    ----------
    kv : KeyedVectors
        The embedding.
    base : mapping
        The rows' leading columns (embedding, seed, n_resamples).
    case_fold : bool
        Lower-case the words (for an uncased vocabulary).
    seed : int
        The seed of every random draw.
    n_permutations : int
        The most splits a permutation test counts exactly, and its Monte Carlo draws beyond.
    n_resamples : int
        The bootstrap resamples of each interval (RNSB: at most :data:`RNSB_RESAMPLES`).
    cov : mapping
        The coverage thresholds, ``min_words`` and ``min_fraction``.

    Returns
    -------
    list of dict
        The rows: ECT, RND, MAC, SemAxis for each of WEAT6, WEAT7, WEAT8 (tests ``ECT:WEAT6``, ...); RNSB on WEAT3
        (``RNSB:WEAT3``); indirect bias of softball and of football (``indirect:softball``, ``indirect:football``).

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(30)], np.random.default_rng(0).normal(size=(30, 5)))
    >>> rows = metric_rows(kv, base={"embedding": "random"}, case_fold=True, seed=0, n_permutations=1000,
    ...                    n_resamples=100, cov={"min_words": 4, "min_fraction": 0.5})
    >>> len(rows), {r["measure"] for r in rows} == {"ect", "rnd", "mac", "semaxis", "rnsb", "indirect_bias"}
    (15, True)
    >>> all(r["note"].startswith("not run") for r in rows)          # none of the words is known
    True
    """
    specs = {s.id: s for s in stimuli.weat_tests("caliskan2017", "glove")}
    resampling = Resampling(n_resamples=n_resamples, n_permutations=n_permutations, seed=seed)
    common = dict(resampling=resampling, words=Words(case_fold=case_fold, **cov), warn=False)
    rows = []
    for test, (groups, neutral) in GENDER_TESTS.items():
        s = specs[test]
        g1, g2 = (tuple(getattr(s, r)) for r in groups)
        n1, n2 = (tuple(getattr(s, r)) for r in neutral)
        name = {r: s.names.get(r, r) for r in "XYAB"}
        gn, nn = [name[r] for r in groups], [name[r] for r in neutral]
        pooled = f"{nn[0]} + {nn[1]}"
        runs = [
            ("ect", f"{s.title}: ECT of {gn[0]} vs {gn[1]} on {pooled}", {"T1": g1, "T2": g2, "A": n1 + n2},
             partial(_ect.ect, kv, g1, g2, n1 + n2, names={"T1": gn[0], "T2": gn[1], "A": pooled}, **common)),
            ("rnd", f"{s.title}: RND of {gn[0]} vs {gn[1]} on {pooled}", {"T1": g1, "T2": g2, "A": n1 + n2},
             partial(_rnd.rnd, kv, g1, g2, n1 + n2, names={"T1": gn[0], "T2": gn[1], "A": pooled}, **common)),
            ("mac", f"{s.title}: MAC of {gn[0]}, {gn[1]} on {nn[0]}, {nn[1]}",
             {"T1": g1, "T2": g2, "A1": n1, "A2": n2},
             partial(_mac.mac, kv, [g1, g2], [n1, n2], names={"T1": gn[0], "T2": gn[1], "A1": nn[0], "A2": nn[1]},
                     **common)),
            ("semaxis", f"{s.title}: SemAxis of {gn[0]} vs {gn[1]} on {nn[0]} - {nn[1]}",
             {"T1": g1, "T2": g2, "A_pos": n1, "A_neg": n2},
             partial(_semaxis.semaxis, kv, g1, g2, n1, n2,
                     names={"T1": gn[0], "T2": gn[1], "A_pos": nn[0], "A_neg": nn[1]}, **common)),
        ]
        rows += [_row(kv, base, f"{LABEL[run[0]]}:{test}", *run, case_fold=case_fold, cov=cov) for run in runs]
    s = specs[SENTIMENT_TEST]
    rows.append(_row(
        kv, base, f"RNSB:{SENTIMENT_TEST}", "rnsb", f"{s.title}: RNSB of the names on {s.names['B']} vs {s.names['A']}",
        {"T1": s.X, "T2": s.Y, "A_negative": s.B, "A_positive": s.A},
        partial(_rnsb.rnsb, kv, [s.X, s.Y], s.B, s.A,
                names={"T1": s.names["X"], "T2": s.names["Y"], "A_negative": s.names["B"],
                       "A_positive": s.names["A"]},
                **{**common, "resampling": _rnsb.DEFAULT_RESAMPLING.replace(
                    n_resamples=min(n_resamples, RNSB_RESAMPLES), seed=seed)}),
        case_fold=case_fold, cov=cov))
    for sport, professions in INDIRECT_SETS.items():
        title = f"Indirect gender bias of {sport} with the professions at its extreme (Bolukbasi et al. 2016)"
        rows.append(_row(
            kv, base, f"indirect:{sport}", "indirect_bias", title, {"W": (sport,), "V": professions},
            partial(_ib.mean_indirect_bias, kv, [sport], professions, names={"W": sport, "V": "professions"},
                    **common),
            case_fold=case_fold, cov=cov))
    return rows


def _row(kv, base, test, measure, title, sets, run, *, case_fold, cov) -> dict:
    """Run one measure into its row, or the row of a measure not run. BLAS runs on one thread: the products are
    small (tens of words by the dimension), and threads only add overhead to them."""
    from threadpoolctl import threadpool_limits

    try:
        with warnings.catch_warnings(), threadpool_limits(1):
            warnings.simplefilter("ignore")
            m = run()
    except NOT_RUN_ERRORS as err:
        return _not_run(kv, base, test=test, title=title, measure=measure, sets=sets, case_fold=case_fold, err=err,
                        cov=cov)
    from dataclasses import replace

    return metric_row(replace(m, title=title, test=test), base=base)
