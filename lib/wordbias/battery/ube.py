"""UBE runs as tidy rows (:mod:`wordbias.core.tidy`): Swinger et al.'s (2019) Unsupervised Bias Enumeration on any
static embedding, summed up one row a run.

:func:`ube_row` lays out a run already made (:func:`wordbias.measures.ube.run`, or the paper notebook's
:func:`wordbias.papers.swinger2019.run`) and :func:`ube_battery` several of them; :func:`first_names_row` makes the
report's run: UBE on the SSA first names the embedding has (:func:`wordbias.measures.ube_names.name_list`), with
n, m, M scaled to the vocabulary (:func:`ube_parameters`). The row's statistic is the number of significant
(group, category) cells (UBE has no single effect size) and its p-value Simes' global p over the testable cells.
Everything here builds on :mod:`wordbias.measures`; nothing goes through a paper's module.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from wordbias import embeddings as _embeddings
from wordbias.core import multiple
from wordbias.core import tidy as _tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, LowPowerWarning
from wordbias.core.parallel import default_workers
from wordbias.core.validation import check_int, check_seed
from wordbias.measures import ube

__all__ = ["UBE_DEFAULTS", "UBE_NULL_SECONDS", "first_names_row", "ube_battery", "ube_parameters", "ube_row"]

#: Swinger et al.'s Table 2 defaults (:data:`wordbias.measures.ube.DEFAULTS`), the upper bounds of
#: :func:`ube_parameters`
UBE_DEFAULTS = {k: ube.DEFAULTS[k] for k in ("n", "m", "M", "t", "R")}
#: the rotational null's estimated time (:func:`wordbias.measures.ube_null.null_cost`, itself a pessimistic
#: estimate) that :func:`ube_parameters` keeps the run under, by lowering M
UBE_NULL_SECONDS = 60.0
#: the errors that make the report's UBE run not run (a row with NA and the reason) rather than stop the report
_NOT_RUN = (ValueError, KeyError)
#: the report's run: its test id and title
_FIRST_NAMES = ("UBE:first_names", "UBE: first-name groups x word categories (rotational null)")


def _join(*parts: str) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


def ube_parameters(vocabulary: int, n_names: int, dimension: int, *, workers: int = 2,
                   max_null_seconds: float = UBE_NULL_SECONDS) -> dict:
    """UBE's n, m, M, t, R for an embedding of ``vocabulary`` words of ``dimension``, ``n_names`` of whose
    tokens are first names: the paper's Table 2 values (n = 12, m = 64, M = 30,000, t = 3, R = 10,000) where
    the vocabulary allows, scaled down where it does not.

    The rule:

    * M = min(30,000, vocabulary // 4): the candidate words, at most a quarter of the vocabulary;
    * m = clip(round(64 · M / 30,000), 4, 64): about 470 words per category, as the paper's 30,000 / 64;
    * n = clip(n_names // 50, 2, 12): at least 50 names per group before cleaning;
    * t = 3 and R = 10,000 always (R sets the smallest p, 1/(R+1), and with it the power of
      Benjamini-Hochberg over n·m cells);
    * then, if the rotational null's estimated time (:func:`wordbias.measures.ube_null.null_cost`, R·n·M·(d + 8)
      multiply-adds at a pessimistic rate) exceeds ``max_null_seconds`` on ``workers`` threads, M is lowered
      until it fits (and m with it).

    Fewer than 100 names (n would be below 2) is an error (:class:`~wordbias.core.errors.DegenerateSetError`).

    Examples
    --------
    >>> ube_parameters(400_000, 7_071, 50)          # GloVe 6B 50d: the paper's values
    {'n': 12, 'm': 64, 'M': 30000, 't': 3, 'R': 10000}
    >>> ube_parameters(10_000, 600, 100)            # a small user embedding
    {'n': 12, 'm': 5, 'M': 2500, 't': 3, 'R': 10000}
    >>> ube_parameters(3_000_000, 9_000, 300, workers=1, max_null_seconds=30)["M"]   # time-bounded
    8116
    """
    vocabulary = check_int("vocabulary", vocabulary, min=1)
    n_names = check_int("n_names", n_names, min=0)
    dimension = check_int("dimension", dimension, min=1)
    workers = check_int("workers", workers, min=1)
    if n_names < 100:
        raise DegenerateSetError(f"only {n_names} first names are in the embedding; UBE needs at least 100 "
                                 "(2 groups of 50)")
    d = UBE_DEFAULTS
    n = int(np.clip(n_names // 50, 2, d["n"]))
    M = min(d["M"], vocabulary // 4)
    cost = ube.null_cost(d["R"], n, d["m"], M, dimension, workers).seconds
    if cost > max_null_seconds:
        M = int(M * max_null_seconds / cost)
    m = int(np.clip(round(d["m"] * M / d["M"]), 4, d["m"]))
    return dict(n=n, m=m, M=int(M), t=d["t"], R=d["R"])


def ube_row(res, *, base: dict, test: str, title: str, note: str = "") -> dict:
    """One tidy row (a dict of :data:`wordbias.core.tidy.COLUMNS`) summing up a UBE run (Swinger et al.
    2019, :class:`~wordbias.measures.ube_result.UBEResult`): the number of significant (group, category) cells as
    the statistic (UBE has no single effect size), and Simes' global p over the testable cells' rotational-null p
    (the smallest Benjamini-Hochberg adjusted p) as the p-value. ``base`` holds the row's embedding, paper,
    battery and seed. The row does not depend on the order of the groups (:meth:`UBEResult.reorder`)."""
    finite = np.isfinite(res.sigma)
    n_significant = res.n_significant()
    simes = float(multiple.benjamini_hochberg(res.p[finite]).min()) if finite.any() else math.nan
    return {**base, "test": test, "title": title, "measure": "ube", "n_x": len(res.names), "n_a": len(res.words),
            "statistic_name": "significant cells", "statistic": float(n_significant),
            "p_value": simes, "alternative": "greater",
            "p_method": f"rotational null, Simes over {int(finite.sum())} cells", "dropped": "",
            "n_permutations": res.params["R"],
            "note": _join(f"no effect size; {n_significant} of {int(finite.sum())} testable cells "
                          f"significant (Benjamini-Hochberg, alpha {res.params['alpha']})", note)}


def ube_battery(runs: Mapping, *, label: str, seed: int = 0) -> pd.DataFrame:
    """UBE runs already made (Swinger et al. 2019; :func:`wordbias.measures.ube.run`), by name (e.g.
    ``{"first names": res, "last names": res_last}``), as a tidy table: one :func:`ube_row` each (test
    ``UBE:<name>``), with Holm and Benjamini-Hochberg over their global p."""
    if not isinstance(label, str) or not label:
        raise InvalidParameterError(f"label must be a non-empty string, not {label!r}")
    if not isinstance(runs, Mapping) or not runs:
        raise InvalidParameterError(f"runs must map names to UBE results, not {type(runs).__name__}")
    base = dict(embedding=label, paper="swinger2019", battery="swinger2019", seed=check_seed("seed", seed))
    rows = [ube_row(res, base=base, test="UBE:" + "_".join(name.replace(",", " ").split()),
                    title=f"UBE: {name} groups x word categories (rotational null)") for name, res in runs.items()]
    frame = _tidy.tidy_frame(rows)
    return _tidy.adjust_family(frame, f"swinger2019 on {label}: the {len(frame)} UBE runs (Simes' global p)")


def first_names_row(embedding, *, base: dict, seed: int, progress: bool) -> dict:
    """The report's UBE row: :func:`wordbias.measures.ube.run` on the SSA first names ``embedding`` has (Appendix C.1,
    :func:`~wordbias.measures.ube_names.name_list`; they are also kept out of the SVM's non-names), with
    :func:`ube_parameters` scaled to the vocabulary, as :func:`ube_row`. The note gives the parameters, the names
    before and after cleaning, the case rule and the low-power warnings; a run the embedding cannot make (too few
    names, words or categories) gives a row with NA numbers and the reason."""
    base = {**base, "paper": "swinger2019", "battery": "swinger2019"}
    test, title = _FIRST_NAMES
    workers = default_workers()
    try:
        cased = _embeddings.is_cased(embedding)
        names = ube.name_list("first", embedding, cased=cased)
        params = ube_parameters(len(embedding.index_to_key), len(names.tokens), embedding.vector_size, workers=workers)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = ube.run(embedding, names.tokens, name_exclusions=names.tokens, cased=cased, seed=seed, workers=workers,
                          progress=progress, **params)
    except _NOT_RUN as err:
        return {**base, "test": test, "title": title, "measure": "ube", "statistic_name": "significant cells",
                "alternative": "greater", "note": _tidy.not_run_note(err)}
    warned = "; ".join(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, LowPowerWarning)))
    return ube_row(res, base=base, test=test, title=title,  # coverage NA: the names and words are the vocabulary's
                   note=_join(f"parameters scaled to the vocabulary: n={params['n']}, m={params['m']}, "
                              f"M={params['M']}, t={params['t']}, R={params['R']}; {len(names.tokens):,} first "
                              f"names in the vocabulary, {len(res.names):,} after cleaning; case rule "
                              f"{res.params.get('case_source')!s}", warned))
