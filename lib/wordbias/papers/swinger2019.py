"""Tables and crowdsourcing materials for an Unsupervised Bias Enumeration run (Swinger et al. 2019).

- :func:`name_list`            the names of Appendix C.1/C.2 mapped to an embedding's tokens.
- :func:`group_table`          Tables 3 and 6: illustrative names, "+N", and a-posteriori demographics.
- :func:`display_order`        the paper's column order (first names by decreasing % female).
- :func:`significance_summary` Table 4's first column and Section 4.2's indirect-bias statistic.
- :func:`qualification_exam`, :func:`matching_tasks`, :func:`rating_tasks`: Section 4.1's human evaluation,
  as CSV-ready tables a class can run (the crowd's answers are not part of this project).

Demographics never enter the algorithm: they are computed after it, from the bundled SSA, Tzioumis and
Census tables (:mod:`wordbias.names`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from wordbias.datasets import names as _names
from wordbias.measures.ube import UBEResult, illustrative_names
from wordbias.measures.weat import unit_rows


@dataclass
class NameList:
    """Names of one source mapped to an embedding: ``tokens`` in frequency order of the source,
    ``counts`` the source's counts (births or people) per token, ``missing`` the names without a token."""

    kind: str
    tokens: list[str]
    counts: pd.Series
    missing: tuple[str, ...]
    n_source: int


def name_list(kind: str, kv, *, cased: bool) -> NameList:
    """Appendix C.1 (``kind="first"``: SSA 1938–2017, ≥ 1,000 births) or C.2 (``"last"``: 2010 Census
    surnames, ≥ 1,000 people), restricted to the names the embedding has."""
    if kind == "first":
        table = _names.ssa_first_names()
    elif kind == "last":
        table = _names.census_surnames()
    else:
        raise ValueError(f"kind must be 'first' or 'last', got {kind!r}")
    mapped = _names.name_tokens(table["name"], kv, cased)
    counts = table.set_index("name")["count"]
    tok_counts = pd.Series(counts.loc[mapped.names].to_numpy(), index=mapped.tokens, name="count")
    return NameList(kind=kind, tokens=mapped.tokens, counts=tok_counts, missing=mapped.missing,
                    n_source=len(table))


def demographics(res: UBEResult, kind: str) -> pd.DataFrame:
    """:func:`wordbias.names.group_demographics` of the result's groups (in the result's group order)."""
    return _names.group_demographics(res.groups(), kind=kind).reset_index(drop=True)


def display_order(demo: pd.DataFrame, kind: str) -> list[int]:
    """The paper's group order: first names by decreasing % female (Tables 3, 6); the paper does not say how
    it orders last-name groups, so those go by decreasing % White (a choice of ours)."""
    key = "pct_female" if kind == "first" else "pct_white"
    values = demo[key].to_numpy(dtype=float)
    return [int(i) for i in np.argsort(-np.nan_to_num(values, nan=-np.inf), kind="stable")]  # positions


def labels(kind: str, n: int) -> list[str]:
    """F1..Fn for first names, L1..Ln for last names (the paper's labels)."""
    return [f"{'F' if kind == 'first' else 'L'}{i + 1}" for i in range(n)]


def group_table(res: UBEResult, kv, kind: str, *, k: int = 5) -> pd.DataFrame:
    """Tables 3 / 6 for a result whose groups are already in display order: the k illustrative names
    (Section 4's greedy choice), "+N" (the group's other names), % female and mean year of birth (first
    names), and % Black, Hispanic, Asian/Pacific Islander and White, with how many names had data."""
    demo = demographics(res, kind)
    rows = []
    for i, grp in enumerate(res.groups()):
        X = unit_rows(kv[grp], f"group {i + 1}")
        pick = illustrative_names(X, k)
        rows.append(dict(group=labels(kind, res.n)[i],
                         illustrative=", ".join(grp[j].capitalize() for j in pick),
                         more=len(grp) - len(pick)))
    out = pd.DataFrame(rows)
    cols = ["pct_female", "mean_year"] if kind == "first" else []
    cols += ["pct_black", "pct_hispanic", "pct_asian", "pct_white", "n_race"]
    return pd.concat([out, demo[cols]], axis=1)


def significance_summary(res: UBEResult) -> dict:
    """Table 4's "# significant" and Section 4.2's potential indirect biases (eq. 1) for one run."""
    hits, total = res.indirect_bias()
    return dict(n_significant=res.n_significant(), n_tests=int(np.isfinite(res.sigma).sum()),
                n_cells=res.n * res.m, critical_p=res.critical_p,
                min_p=float(res.p.min()), fourtuples=total,
                pct_indirect_bias=(100.0 * hits / total) if total else float("nan"))


# --------------------------------------------------------------------------------------------------
# Section 4.1: crowdsourcing materials
# --------------------------------------------------------------------------------------------------

def group_cards(res: UBEResult, kv, kind: str, *, k: int = 5) -> pd.DataFrame:
    """What workers see for each group: its label and k illustrative names."""
    t = group_table(res, kv, kind, k=k)
    return t[["group", "illustrative"]]


def qualification_exam(res: UBEResult, kind: str, *, per_group: int = 3, seed: int = 0,
                       exclude: Sequence[Sequence[str]] | None = None) -> pd.DataFrame:
    """Section 4.1's qualification exam: ``per_group`` random names from each group (36 for n = 12), in
    random order; a worker must name each one's group. ``exclude[i]`` (e.g. the illustrative names shown on
    the group cards) are not drawn; they are compared case-insensitively."""
    rng = np.random.default_rng(seed)
    rows = []
    for i, grp in enumerate(res.groups()):
        skip = {w.lower() for w in exclude[i]} if exclude is not None else set()
        pool = [w for w in grp if w.lower() not in skip]
        if len(pool) < per_group:
            raise ValueError(f"group {i + 1} has only {len(pool)} names to draw {per_group} from")
        for w in rng.choice(pool, size=per_group, replace=False):
            rows.append(dict(name=str(w).capitalize(), answer=labels(kind, res.n)[i]))
    exam = pd.DataFrame(rows).iloc[rng.permutation(len(rows))].reset_index(drop=True)
    exam.insert(0, "question", np.arange(1, len(exam) + 1))
    return exam


def matching_tasks(res: UBEResult, kind: str, *, top: int = 12) -> pd.DataFrame:
    """Section 4.1's main task: for each of the ``top`` WEATs, each significant word triple is to be
    matched to one of the c groups that have a significant triple in that WEAT (the choices). ``answer`` is
    the group the algorithm generated; keep it from the workers."""
    lab = labels(kind, res.n)
    cats = [j for j in res.category_order() if res.significant[:, j].any()][:top]
    rows = []
    for rank, j in enumerate(cats, start=1):
        groups = [i for i in range(res.n) if res.significant[i, j]]
        for i in groups:
            rows.append(dict(weat=rank, category=f"A{j}", words=", ".join(res.selected_words(i, j)),
                             choices=" ".join(lab[g] for g in groups), n_choices=len(groups), answer=lab[i]))
    return pd.DataFrame(rows)


def rating_tasks(matching: pd.DataFrame) -> pd.DataFrame:
    """Section 4.1's offensiveness rating: each association (group, triple) on a 1–7 scale, 7 = "politically
    incorrect, possibly very offensive", 1 = "politically correct, inoffensive, or just random". The paper
    rates only associations whose crowd plurality matched ``answer``: filter after collecting the matches."""
    out = matching[["weat", "category", "answer", "words"]].rename(columns={"answer": "group"}).copy()
    out["rating_1_to_7"] = ""
    return out
