"""The GAP coreference data set (Webster et al. 2018) as Kurita et al. (2019, §4) use it.

Each row pairs an ambiguous pronoun P of a Wikipedia paragraph with two names A and B; the label says whether
P refers to A, to B or to neither. :func:`load` reads and checks a split (``data/gap``); :func:`spans` gives the
character spans of A, B and P whose contextual vectors the GAP classifier is trained on (computed and cached by
:func:`wordbias.papers.kurita2019_gap.features`); :func:`label_codes` the labels as class indices. Data only.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import GapFormatError

#: the folder holding the three GAP files and their SOURCE.md
DATA_DIR = paths.DATA / "gap"
SPLITS = ("development", "test", "validation")
COLUMNS = ("ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref", "B", "B-offset", "B-coref", "URL")
LABELS = ("A", "B", "neither")
FEMALE_PRONOUNS = frozenset({"she", "her", "hers"})
MALE_PRONOUNS = frozenset({"he", "him", "his"})

_OFFSETS = ("Pronoun-offset", "A-offset", "B-offset")
_BOOLS = {"TRUE": True, "FALSE": False}


# ----------------------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------------------


def split_path(split: str) -> Path:
    """The file of a GAP split: ``data/gap/gap-<split>.tsv``.

    Parameters
    ----------
    split : {"development", "test", "validation"}
        The split (:data:`SPLITS`).

    Returns
    -------
    pathlib.Path
        The split's file.

    Raises
    ------
    ValueError
        If ``split`` is not a GAP split.

    Examples
    --------
    >>> split_path("test").name
    'gap-test.tsv'
    """
    if split not in SPLITS:
        raise ValueError(f"unknown GAP split {split!r}; use one of {SPLITS}")
    return DATA_DIR / f"gap-{split}.tsv"


def read_tsv(path: str | Path) -> pd.DataFrame:
    """Parse and check one GAP file (Webster et al. 2018 format; Kurita et al. 2019, §4 "Dataset").

    Parameters
    ----------
    path : str or path-like
        A tab-separated file with the GAP header (:data:`COLUMNS`).

    Returns
    -------
    pandas.DataFrame
        One row per example: the columns as published, offsets as ints, ``A-coref``/``B-coref`` as bools,
        plus ``label`` ("A", "B" or "neither") and ``gender`` ("female" for she/her/hers, "male" for
        he/him/his).

    Raises
    ------
    wordbias.core.errors.GapFormatError
        Naming the file and line for an empty file, a wrong header, a wrong number of fields, a non-integer
        offset or a coref value other than TRUE/FALSE; naming the ID for a repeated ID, a row whose A and B
        are both TRUE, an unknown pronoun, or an offset that does not point at its word
        (``Text[o:o+len(w)] != w``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "gap-mine.tsv"
    >>> row = ["mine-1", "Alice met Bob before she left.", "she", "21", "Alice", "0", "TRUE", "Bob", "10",
    ...        "FALSE", "http://example.org"]
    >>> _ = path.write_text("\\t".join(COLUMNS) + "\\n" + "\\t".join(row) + "\\n")
    >>> df = read_tsv(path)
    >>> df.loc[0, ["ID", "Pronoun", "label", "gender"]].tolist(), int(df.loc[0, "B-offset"])
    (['mine-1', 'she', 'A', 'female'], 10)
    """
    path = Path(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise GapFormatError(f"{path}: empty file")
    header = lines[0].split("\t")
    if tuple(header) != COLUMNS:
        raise GapFormatError(f"{path}, line 1: header {header} is not the GAP header {list(COLUMNS)}")
    rows = [line.split("\t") for line in lines[1:]]
    widths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    bad = np.flatnonzero(widths != len(COLUMNS))
    if bad.size:
        i = int(bad[0])
        raise GapFormatError(f"{path}, line {i + 2}: {widths[i]} tab-separated fields, expected {len(COLUMNS)}"
                             + (f" ({bad.size} malformed lines in all)" if bad.size > 1 else ""))
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    for col in _OFFSETS:
        ok = df[col].str.fullmatch(r"\d+").to_numpy(dtype=bool)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise GapFormatError(f"{path}, line {i + 2} (ID {df.at[i, 'ID']}): {col} = {df.at[i, col]!r} "
                                 "is not a non-negative integer")
        df[col] = df[col].astype(np.int64)
    for col in ("A-coref", "B-coref"):
        ok = df[col].isin(list(_BOOLS)).to_numpy()
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise GapFormatError(f"{path}, line {i + 2} (ID {df.at[i, 'ID']}): {col} = {df.at[i, col]!r}, "
                                 "expected TRUE or FALSE")
        df[col] = df[col].map(_BOOLS).astype(bool)
    _check_rows(df, path)
    df["label"] = np.select([df["A-coref"], df["B-coref"]], ["A", "B"], "neither")
    df["gender"] = np.where(df["Pronoun"].str.lower().isin(list(FEMALE_PRONOUNS)), "female", "male")
    return df


def _check_rows(df: pd.DataFrame, path: Path) -> None:
    """Row-level checks of :func:`read_tsv`: unique IDs, one referent at most, known pronouns, offsets."""
    dup = df["ID"].duplicated()
    if dup.any():
        raise GapFormatError(f"{path}: duplicate ID {df.loc[dup, 'ID'].iloc[0]!r}")
    both = (df["A-coref"] & df["B-coref"]).to_numpy()
    if both.any():
        i = int(np.flatnonzero(both)[0])
        raise GapFormatError(f"{path}, line {i + 2}: row {df.at[i, 'ID']} has both A-coref and B-coref TRUE")
    known = df["Pronoun"].str.lower().isin(list(FEMALE_PRONOUNS | MALE_PRONOUNS)).to_numpy()
    if not known.all():
        i = int(np.flatnonzero(~known)[0])
        raise GapFormatError(f"{path}, line {i + 2}: row {df.at[i, 'ID']} has pronoun {df.at[i, 'Pronoun']!r}, "
                             f"not one of {sorted(FEMALE_PRONOUNS | MALE_PRONOUNS)}")
    for word, off in (("Pronoun", "Pronoun-offset"), ("A", "A-offset"), ("B", "B-offset")):
        found = [t[o:o + len(w)] for t, o, w in zip(df["Text"], df[off], df[word])]
        wrong = np.flatnonzero(np.asarray(found, dtype=object) != df[word].to_numpy(dtype=object))
        if wrong.size:
            i = int(wrong[0])
            raise GapFormatError(f"{path}, line {i + 2}: row {df.at[i, 'ID']}: Text[{off}={df.at[i, off]}:+"
                                 f"{len(df.at[i, word])}] is {found[i]!r}, not {word} = {df.at[i, word]!r}")


def load(split: str) -> pd.DataFrame:
    """Load a GAP split from ``data/gap``, with :func:`read_tsv`'s checks.

    Parameters
    ----------
    split : {"development", "test", "validation"}
        As for :func:`split_path`.

    Returns
    -------
    pandas.DataFrame
        The split as :func:`read_tsv` gives it; ``df.attrs["split"]`` records the split (used to name feature
        caches).

    Raises
    ------
    ValueError
        If ``split`` is not a GAP split.
    wordbias.core.errors.GapFormatError
        If the file is not in the published format.

    Examples
    --------
    >>> df = load("validation")
    >>> len(df), df.attrs["split"], df["gender"].value_counts().to_dict()
    (454, 'validation', {'male': 227, 'female': 227})
    >>> df.loc[0, ["ID", "Pronoun", "label"]].tolist()
    ['validation-1', 'him', 'neither']
    """
    df = read_tsv(split_path(split))
    df.attrs["split"] = split
    return df


# ----------------------------------------------------------------------------------------------------
# what the classifier reads (§4 "Model": "BERT embeddings for P, A and B, given the context")
# ----------------------------------------------------------------------------------------------------


def spans(df: pd.DataFrame) -> list[list[tuple[int, int]]]:
    """Character spans [(A), (B), (P)] of each row, in the kernel's feature order A, B, P.

    Parameters
    ----------
    df : pandas.DataFrame
        GAP rows (:func:`load`): at least the columns ``A``, ``A-offset``, ``B``, ``B-offset``, ``Pronoun``
        and ``Pronoun-offset``.

    Returns
    -------
    list of list of tuple of (int, int)
        Per row, the ``(start, end)`` character spans of A, B and the pronoun.

    Examples
    --------
    >>> df = pd.DataFrame({"A": ["Alice"], "A-offset": [0], "B": ["Bob"], "B-offset": [10],
    ...                    "Pronoun": ["she"], "Pronoun-offset": [21]})  # "Alice met Bob before she left."
    >>> spans(df)
    [[(0, 5), (10, 13), (21, 24)]]
    """
    out = []
    for a, ao, b, bo, p, po in zip(df["A"], df["A-offset"], df["B"], df["B-offset"], df["Pronoun"],
                                   df["Pronoun-offset"]):
        out.append([(int(ao), int(ao) + len(a)), (int(bo), int(bo) + len(b)), (int(po), int(po) + len(p))])
    return out


def label_codes(labels) -> np.ndarray:
    """Labels "A"/"B"/"neither" as class indices 0/1/2 (the order of :data:`LABELS`).

    Parameters
    ----------
    labels : array_like of str
        The labels (e.g. the ``label`` column of :func:`load`).

    Returns
    -------
    numpy.ndarray of int64
        The class indices, in the shape of ``labels``.

    Raises
    ------
    ValueError
        If a label is not one of :data:`LABELS`.

    Examples
    --------
    >>> label_codes(["neither", "A", "B"]).tolist()
    [2, 0, 1]
    """
    labels = np.asarray(labels, dtype=object)
    codes = np.full(labels.shape, -1, dtype=np.int64)
    for k, name in enumerate(LABELS):
        codes[labels == name] = k
    if (codes < 0).any():
        raise ValueError(f"unknown label {labels[codes < 0][0]!r}; expected one of {LABELS}")
    return codes

