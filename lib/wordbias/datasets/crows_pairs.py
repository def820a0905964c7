"""CrowS-Pairs (Nangia, Vania, Bhalerao & Bowman 2020, doi:10.18653/v1/2020.emnlp-main.154): 1,508 pairs of a
more-stereotyping and a less-stereotyping sentence over nine bias types.

:func:`load` reads the bundled ``data/crows_pairs/crows_pairs_anonymized.csv`` (provenance, checksum and the
CC BY-SA 4.0 licence in its ``SOURCE.md``), checks its columns and values, and returns typed pairs
(:class:`CrowsPair`). The measures are :mod:`wordbias.measures.language_models.crows_pairs`.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError

__all__ = ["BIAS_TYPES", "DIRECTIONS", "CrowsPair", "data_file", "load", "sample"]

#: the nine bias types of CrowS-Pairs (Nangia et al. 2020, Table 1), in the paper's order
BIAS_TYPES = ("race-color", "socioeconomic", "gender", "disability", "nationality", "sexual-orientation",
              "physical-appearance", "religion", "age")
#: ``stereo``: ``sent_more`` states a stereotype of a disadvantaged group (``sent_less``: the same of an advantaged
#: one); ``antistereo``: ``sent_less`` violates a stereotype of a disadvantaged group and ``sent_more`` says the same
#: of an advantaged one (Nangia et al. 2020, §2; the data statement, ``data/crows_pairs/DATA_README.md``)
DIRECTIONS = ("stereo", "antistereo")
#: the columns the reader needs
COLUMNS = ("sent_more", "sent_less", "stereo_antistereo", "bias_type")
FILE = "crows_pairs_anonymized.csv"


@dataclass(frozen=True)
class CrowsPair:
    """One pair of CrowS-Pairs: two sentences that differ only in the words naming a group, the first the more
    stereotyping (:func:`load` reads them).

    Attributes
    ----------
    index : int
        The pair's row number in the file (0-based, the file's first column).
    sent_more : str
        The more-stereotyping sentence.
    sent_less : str
        The less-stereotyping sentence.
    stereo_antistereo : {"stereo", "antistereo"}
        Whether ``sent_more`` states a stereotype or violates one (:data:`DIRECTIONS`).
    bias_type : str
        One of :data:`BIAS_TYPES`.
    """

    index: int
    sent_more: str
    sent_less: str
    stereo_antistereo: str
    bias_type: str


def data_file() -> Path:
    """The bundled CrowS-Pairs file, ``data/crows_pairs/crows_pairs_anonymized.csv``.

    Returns
    -------
    pathlib.Path
        The file, the original bytes of ``data/crows_pairs_anonymized.csv`` in nyu-mll/crows-pairs (SHA-256 in
        ``SOURCE.md``). A wheel installed without the data lacks it, and :func:`load` then raises FileNotFoundError.

    Examples
    --------
    >>> data_file().name
    'crows_pairs_anonymized.csv'
    """
    return paths.DATA / "crows_pairs" / FILE


def load(path: str | os.PathLike | None = None) -> list[CrowsPair]:
    """Read CrowS-Pairs into typed pairs, checking the columns and every value.

    Parameters
    ----------
    path : str or path-like, optional
        A CSV file with the columns ``sent_more``, ``sent_less``, ``stereo_antistereo`` and ``bias_type`` (the
        first, unnamed column, if present, is the pair's index); default the bundled file (:func:`data_file`).

    Returns
    -------
    list of CrowsPair
        The pairs, in the file's order (1,508 for the bundled file).

    Raises
    ------
    FileNotFoundError
        When the file is missing.
    InvalidParameterError
        When a column is missing, or a row has an empty sentence, two identical sentences, a direction other than
        :data:`DIRECTIONS` or a bias type other than :data:`BIAS_TYPES`; the message names the row.

    Examples
    --------
    >>> pairs = load()
    >>> len(pairs), pairs[0].bias_type, pairs[0].stereo_antistereo
    (1508, 'race-color', 'stereo')
    """
    path = Path(path) if path is not None else data_file()
    if not path.is_file():
        raise FileNotFoundError(f"CrowS-Pairs file {path} not found (the bundled copy is data/crows_pairs/{FILE})")
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise InvalidParameterError(f"CrowS-Pairs file {path}: missing column(s) {missing}; it has "
                                        f"{reader.fieldnames}")
        return [_pair(row, i, path) for i, row in enumerate(reader)]


def _pair(row: dict, i: int, path: Path) -> CrowsPair:
    """One checked pair from a CSV row (``i``: its 0-based data row)."""
    where = f"CrowS-Pairs file {path}, data row {i + 1}"
    more, less = (row["sent_more"] or "").strip(), (row["sent_less"] or "").strip()
    if not more or not less:
        raise InvalidParameterError(f"{where}: an empty sentence")
    if more == less:
        raise InvalidParameterError(f"{where}: the two sentences are identical ({more!r})")
    direction, bias = row["stereo_antistereo"], row["bias_type"]
    if direction not in DIRECTIONS:
        raise InvalidParameterError(f"{where}: stereo_antistereo is {direction!r}, not one of {DIRECTIONS}")
    if bias not in BIAS_TYPES:
        raise InvalidParameterError(f"{where}: bias_type is {bias!r}, not one of {BIAS_TYPES}")
    first = row.get("") or row.get(None)
    index = int(first) if isinstance(first, str) and first.strip().isdigit() else i
    return CrowsPair(index, row["sent_more"], row["sent_less"], direction, bias)


def sample(pairs: Sequence[CrowsPair], n: int, *, seed: int = 0) -> list[CrowsPair]:
    """A seeded sample of ``n`` pairs, stratified by bias type: each type keeps its share of the pairs (largest
    remainders), at least one pair each; the pairs stay in the data set's order.

    A sample keeps a run within a time budget; its intervals are wider than the whole set's (the full set is the
    default everywhere a sample is not asked for).

    Parameters
    ----------
    pairs : sequence of CrowsPair
        The pairs (:func:`load`).
    n : int
        The pairs to keep, from the number of bias types present up to ``len(pairs)`` (all of them).
    seed : int, default 0
        The seed of the draw within each type.

    Returns
    -------
    list of CrowsPair
        The sample.

    Raises
    ------
    InvalidParameterError
        When ``n`` is not an integer from the number of bias types present to ``len(pairs)``, or ``seed`` is
        negative or not an integer.

    Examples
    --------
    >>> s = sample(load(), 90, seed=0)
    >>> len(s), len({p.bias_type for p in s}), sum(p.bias_type == "race-color" for p in s)   # 516/1508 of 90
    (90, 9, 31)
    """
    import numpy as np

    from wordbias.core.validation import check_int, check_seed

    pairs = list(pairs)
    types = list(dict.fromkeys(p.bias_type for p in pairs))
    n = check_int("n", n, min=len(types), max=len(pairs))
    rng = np.random.default_rng(check_seed("seed", seed))
    by_type = {t: [i for i, p in enumerate(pairs) if p.bias_type == t] for t in types}
    exact = {t: n * len(ix) / len(pairs) for t, ix in by_type.items()}
    take = {t: max(1, int(exact[t])) for t in types}
    for t in sorted(types, key=lambda t: exact[t] - int(exact[t]), reverse=True)[:n - sum(take.values())]:
        take[t] += 1
    chosen = sorted(i for t in types for i in rng.choice(by_type[t], size=take[t], replace=False))
    return [pairs[i] for i in chosen]
