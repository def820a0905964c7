"""The GAP coreference data set (Webster et al. 2018) as Kurita et al. (2019, §4) use it.

Each row pairs an ambiguous pronoun P of a Wikipedia paragraph with two names A and B; the label says whether
P refers to A, to B or to neither. :func:`load` reads and checks a split (``data/gap``), :func:`features`
gives the contextual vectors of A, B and P that the GAP classifier is trained on (cached on disk).
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.cache import atomic_file
from wordbias.core.errors import CacheRebuiltWarning
from wordbias.models import contextual

#: the folder holding the three GAP files and their SOURCE.md
DATA_DIR = paths.DATA / "gap"
#: default on-disk cache of the features and of the classifier's seed studies (gitignored)
CACHE_DIR = paths.CACHE / "gap"
SPLITS = ("development", "test", "validation")
COLUMNS = ("ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref", "B", "B-offset", "B-coref", "URL")
LABELS = ("A", "B", "neither")
FEMALE_PRONOUNS = frozenset({"she", "her", "hers"})
MALE_PRONOUNS = frozenset({"he", "him", "his"})

_OFFSETS = ("Pronoun-offset", "A-offset", "B-offset")
_BOOLS = {"TRUE": True, "FALSE": False}


class GapFormatError(ValueError):
    """A GAP file that does not have the published format (the message names the file and line or ID)."""


# ----------------------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------------------


def split_path(split: str) -> Path:
    """The file of a GAP split: ``data/gap/gap-<split>.tsv``."""
    if split not in SPLITS:
        raise ValueError(f"unknown GAP split {split!r}; use one of {SPLITS}")
    return DATA_DIR / f"gap-{split}.tsv"


def read_tsv(path: str | Path) -> pd.DataFrame:
    """Parse and check one GAP file (Webster et al. 2018 format; Kurita et al. 2019, §4 "Dataset").

    Columns as published, offsets as ints, ``A-coref``/``B-coref`` as bools, plus ``label`` ("A", "B" or
    "neither") and ``gender`` ("female" for she/her/hers, "male" for he/him/his). Raises
    :class:`GapFormatError` naming the file and line for a wrong header, a wrong number of fields, a
    non-integer offset or a coref value other than TRUE/FALSE; naming the ID for a row whose A and B are
    both TRUE, an unknown pronoun, or an offset that does not point at its word (``Text[o:o+len(w)] != w``).
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
    """Load a GAP split ("development", "test" or "validation") from ``data/gap`` with :func:`read_tsv`'s
    checks; ``df.attrs["split"]`` records the split (used to name feature caches)."""
    df = read_tsv(split_path(split))
    df.attrs["split"] = split
    return df


# ----------------------------------------------------------------------------------------------------
# contextual features (§4 "Model": "BERT embeddings for P, A and B, given the context")
# ----------------------------------------------------------------------------------------------------


def spans(df: pd.DataFrame) -> list[list[tuple[int, int]]]:
    """Character spans [(A), (B), (P)] of each row, in the kernel's feature order A, B, P.

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


def _features_key(model, texts: Sequence[str], sp, max_length: int, batch_size: int) -> str:
    """sha256 of everything the features depend on: model (name, path, size), texts, spans, max_length,
    batch_size (padding changes the float rounding) and the compute fingerprint (kernels, versions)."""
    h = hashlib.sha256()
    cfg = model.model.config
    h.update(json.dumps([model.name, str(model.path), model.kind, cfg.hidden_size, cfg.num_hidden_layers,
                         int(max_length), int(batch_size), paths.compute_fingerprint()], sort_keys=True).encode())
    for t, s in zip(texts, sp):
        h.update(t.encode("utf-8"))
        h.update(np.asarray(s, dtype=np.int64).tobytes())
    return h.hexdigest()


def features(model, df: pd.DataFrame, *, batch_size: int = 32, max_length: int = 512,
             cache_dir: str | Path | None = None, progress: bool = False) -> np.ndarray:
    """Contextual features of a GAP frame: [n, 3·hidden] float32, the final-layer vectors of A, B and P.

    Kurita et al. (2019) §4 "Model": "BERT embeddings for P, A and B, given the context", concatenated as
    [A, B, P] (the Kaggle kernel's order). A name split into several WordPieces gets the mean of its pieces
    (:func:`wordbias.models.contextual.span_embeddings`). With ``cache_dir`` the array is stored there as
    ``<model label>-<split>-<hash[:16]>.npz`` (no pickle, written atomically), the hash covering the model
    name and path, the texts, the spans, ``max_length``, ``batch_size`` and
    :func:`wordbias.core.paths.compute_fingerprint`; a cached file is used only if its stored full hash and
    the array's shape match. A cached file that is damaged (truncated, not a zip, missing arrays) or holds
    data of the wrong shape or dtype is reported with a :class:`~wordbias.core.errors.CacheRebuiltWarning`
    and recomputed (then overwritten).
    """
    texts = df["Text"].tolist()
    sp = spans(df)
    cache_file = key = None
    if cache_dir is not None:
        key = _features_key(model, texts, sp, max_length, batch_size)
        split = df.attrs.get("split", "rows")
        cache_file = Path(cache_dir) / f"{model.label}-{split}-{key[:16]}.npz"
        cached = _read_features(cache_file, key, (len(texts), 3 * model.model.config.hidden_size))
        if cached is not None:
            return cached
    vecs = contextual.span_embeddings(model, texts, sp, batch_size=batch_size, max_length=max_length,
                                      progress=progress, desc=f"GAP {df.attrs.get('split', '')}".strip())
    X = vecs.reshape(len(texts), -1)
    if cache_file is not None:
        with atomic_file(cache_file, what="the GAP feature cache") as tmp:
            np.savez(tmp, features=X, key=np.array(key))
    return X


def _read_features(path: Path, key: str, shape: tuple[int, int]) -> np.ndarray | None:
    """The cached features at ``path`` if it holds ``key`` and a float32 array of ``shape``; ``None`` if the
    file is absent, or (with a :class:`~wordbias.core.errors.CacheRebuiltWarning`) damaged or wrong."""
    import zipfile

    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            stored_key, X = str(z["key"]), z["features"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    else:
        if stored_key == key and X.shape == shape and X.dtype == np.float32:
            return X
        problem = (f"holds key {stored_key[:16]}..., shape {X.shape}, dtype {X.dtype}; expected key "
                   f"{key[:16]}..., shape {shape}, float32")
    warnings.warn(f"GAP feature cache {path}: {problem}; recomputing it", CacheRebuiltWarning, stacklevel=3)
    return None


def label_codes(labels) -> np.ndarray:
    """Labels "A"/"B"/"neither" as class indices 0/1/2 (the order of :data:`LABELS`).

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

