"""Check that ``make`` reproduced the committed outputs, file by file, within stated tolerances.

``python -m tools.repro compare`` compares every committed table (``results/**.csv``), figure
(``figures/**.png|pdf``) and executed notebook (``notebooks/*.ipynb``) in the working tree with its
version at ``--ref`` and labels it ``identical``, ``within tolerance``, ``different`` or ``new``,
with a reason. Tolerances and their justifications live in ``tools/repro_tolerances.yaml`` (read by
:mod:`tools.tolerances`). A developer tool of the repository, not part of the installed package: run it from the
repository root.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pandas as pd
import yaml

from tools.tolerances import DEFAULT_TOLERANCES, ListRule, Rule, Tolerances, glob_match, load_tolerances

DEFAULT_PATHS = ("results", "figures", "notebooks")
STATUSES = ("identical", "within tolerance", "different", "new")
PNG_CHANNEL_THRESHOLD = 32  # a pixel "changed" if some RGBA channel moved by more than this
CHAOTIC_TAG = "repro-chaotic"
#: a cell whose outputs hold sums of a language model's float32 log-probabilities, printed to more digits than float32
#: carries: its numbers may move by FLOAT32_RTOL of their value. Why that much: a sum of tens of float32 terms is good
#: to about n * 6e-8 relative; torch's scalar kernels against its AVX2 ones moved Lesson 8's sentence log-probability
#: (-43.15, 7 tokens) by 3.5e-7 of its value, and 1e-5 leaves a margin of 30 while a wrong token or sign moves it by
#: more than 1e-2. A difference of two such sums (a pair's margin, 0.78 of two sums near -40) keeps their absolute
#: error, not its own relative one: under torch's scalar kernels Lesson 8's margin moved by 3.5e-5 (4.5e-5 of its
#: value), so a number of the cell may also move by FLOAT32_ATOL, about 6 times that, still far below the 1e-2 of a
#: wrong token
FLOAT32_TAG = "repro-float32"
FLOAT32_RTOL = Decimal("1e-5")
FLOAT32_ATOL = Decimal("2e-4")

_NUMBER = re.compile(r"([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)")
_HSPACE = re.compile(r"[ \t]+")


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Comparison:
    """Outcome for one file: ``status`` is one of STATUSES, ``detail`` says why."""

    path: str
    status: str
    detail: str = ""


def _fmt(x: float) -> str:
    """Compact number for reports."""
    return f"{x:.6g}"


# --------------------------------------------------------------------------- CSV


def _is_numeric(col: pd.Series) -> bool:
    """Numeric (int/float) column; booleans count as text."""
    return pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)


def _as_text(col: pd.Series) -> np.ndarray:
    """Cells as exact strings, missing cells as a sentinel."""
    return np.array(["<missing>" if pd.isna(v) else str(v) for v in col], dtype=object)


def _numeric_ratios(a: np.ndarray, b: np.ndarray, rule: Rule, sd: np.ndarray | None = None) -> np.ndarray:
    """|a-b| / (atol + rtol|b| + sd_units·sd) per cell; 0 where equal (incl. NaN/NaN, same-sign inf)."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        diff = np.abs(a - b)
        allowed = rule.atol + rule.rtol * np.abs(b)
        if sd is not None:
            allowed = allowed + rule.sd_units * np.nan_to_num(sd, nan=0.0)
        ratio = np.where(allowed > 0, diff / np.where(allowed > 0, allowed, 1.0), np.inf)
    ratio = np.where(same, 0.0, ratio)
    return np.where(np.isnan(ratio), np.inf, ratio)


def _csv_shape_problem(old: pd.DataFrame, new: pd.DataFrame) -> str | None:
    """Describe a header or row-count mismatch, or None."""
    oc, nc = list(old.columns), list(new.columns)
    if oc != nc:
        gone, added = [c for c in oc if c not in nc], [c for c in nc if c not in oc]
        if gone or added:
            return f"columns differ: missing {gone}, added {added}"
        return f"column order differs: committed {oc}, now {nc}"
    if len(old) != len(new):
        return f"row count differs: committed {len(old)}, now {len(new)}"
    return None


def _compare_csv(path: str, committed: bytes, current: bytes, tol: Tolerances) -> Comparison:
    """Column-wise CSV comparison: numbers within the matching rule, text exactly."""
    try:
        old = pd.read_csv(io.BytesIO(committed), keep_default_na=True)
        new = pd.read_csv(io.BytesIO(current), keep_default_na=True)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        return Comparison(path, "different", f"cannot parse CSV: {exc}")
    problem = _csv_shape_problem(old, new)
    if problem:
        return Comparison(path, "different", problem)
    paired = ""
    for rule in tol.list_rules:
        if rule.match_rows and glob_match(rule.files, path) and rule.columns[0] in old.columns:
            new, problem = _pair_rows(old, new, rule)
            if problem and not problem.startswith("!"):
                return Comparison(path, "different", problem)
            old, new = old.drop(columns=list(rule.row_labels)), new.drop(columns=list(rule.row_labels))
            paired = f"; rows paired by {rule.columns[0]!r}" + (f" ({problem[1:]})" if problem else "")
            break
    worst: tuple[float, str] = (0.0, "")
    lists_changed = paired
    for col in old.columns:
        o, n = old[col], new[col]
        if not (_is_numeric(o) and _is_numeric(n)):
            ot, nt = _as_text(o), _as_text(n)
            bad = np.flatnonzero(ot != nt)
            lrule = tol.list_rule_for(path, str(col))
            if bad.size and lrule is not None:
                short = [r for r in bad if len(set(ot[r].split(lrule.separator)) & set(nt[r].split(lrule.separator)))
                         < lrule.min_shared]
                if not short:
                    worst = max(worst, (0.0, str(col)))
                    lists_changed = f"; {bad.size} list(s) in column {col!r} changed, each keeps >= {lrule.min_shared} items"
                    continue
                bad = np.asarray(short)
            if bad.size:
                r = int(bad[0])
                return Comparison(path, "different", f"text column {col!r} row {r}: committed {ot[r]!r}, now {nt[r]!r}")
            continue
        rule = tol.rule_for(path, str(col))
        a, b = n.to_numpy(dtype=float), o.to_numpy(dtype=float)
        sd = None
        if rule.sd_column:
            if rule.sd_column not in old.columns or not _is_numeric(old[rule.sd_column]):
                return Comparison(path, "different", f"{rule.label()} needs a numeric column {rule.sd_column!r}")
            sd = old[rule.sd_column].to_numpy(dtype=float)
        ratio = _numeric_ratios(a, b, rule, sd)
        bad = np.flatnonzero(ratio > 1)
        if bad.size:
            r = int(bad[0])
            return Comparison(
                path, "different",
                f"column {col!r} row {r}: committed {_fmt(b[r])}, now {_fmt(a[r])}, |diff| {_fmt(abs(a[r] - b[r]))} > "
                f"atol {_fmt(rule.atol)} + rtol {_fmt(rule.rtol)}*|committed| [{rule.label()}]; "
                f"{bad.size} cell(s) in this column out of tolerance",
            )
        if ratio.size and ratio.max() > worst[0]:
            worst = (float(ratio.max()), str(col))
    if worst[1]:
        detail = f"largest change in column {worst[1]!r}: {worst[0]:.3g} of its tolerance" + lists_changed
        return Comparison(path, "within tolerance", detail)
    if lists_changed:
        return Comparison(path, "within tolerance", "numbers unchanged" + lists_changed)
    return Comparison(path, "within tolerance", "same values as parsed; only formatting bytes differ")


def _pair_rows(old: pd.DataFrame, new: pd.DataFrame, rule: ListRule) -> tuple[pd.DataFrame, str]:
    """``new`` reordered so that row i is the one whose list (``rule.columns[0]``) shares the most items with
    committed row i, one to one, greedily by overlap; a committed row left with fewer than ``min_shared``
    shared items is a problem (returned as text)."""
    col = rule.columns[0]
    a = [set(str(v).split(rule.separator)) for v in old[col]]
    b = [set(str(v).split(rule.separator)) for v in new[col]]
    pairs = sorted(((len(x & y), i, j) for i, x in enumerate(a) for j, y in enumerate(b)), key=lambda t: (-t[0], t[1], t[2]))
    take: dict[int, int] = {}
    used: set[int] = set()
    for shared, i, j in pairs:
        if shared >= rule.min_shared and i not in take and j not in used:
            take[i] = j
            used.add(j)
    missing = [i for i in range(len(a)) if i not in take]
    excused = set()
    if rule.unmatched_column in old.columns:  # e.g. topics that recur in few NMF restarts may be gone
        low = pd.to_numeric(old[rule.unmatched_column], errors="coerce").to_numpy() < rule.unmatched_below
        excused = {i for i in missing if low[i]}
    hard = [i for i in missing if i not in excused]
    if hard:
        i = hard[0]
        return new, (f"column {col!r}: committed row {i} ({old[col].iloc[i]!r}) has no current row sharing "
                     f"{rule.min_shared} items")
    if excused:  # pair the left-over rows in order; their values are not comparable, so copy the committed ones
        rest = iter(j for j in range(len(b)) if j not in used)
        for i in sorted(excused):
            take[i] = next(rest)
    out = new.iloc[[take[i] for i in range(len(a))]].reset_index(drop=True)
    for i in sorted(excused):
        out.iloc[i] = old.iloc[i]
    return out, (f"!{len(excused)} unstable row(s) replaced" if excused else "")


# --------------------------------------------------------------------------- PNG / PDF


def _rgba(data: bytes) -> np.ndarray:
    """Decode image bytes to an int16 RGBA array."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGBA"), dtype=np.int16)


def _compare_png(path: str, committed: bytes, current: bytes, tol: Tolerances) -> Comparison:
    """Within tolerance when few pixels changed noticeably (anti-aliasing, a marker moved a pixel)."""
    from PIL import UnidentifiedImageError

    try:
        old, new = _rgba(committed), _rgba(current)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        return Comparison(path, "different", f"cannot decode PNG: {exc}")
    if old.shape != new.shape:
        (oh, ow), (nh, nw) = old.shape[:2], new.shape[:2]
        return Comparison(path, "different", f"size differs: committed {ow}x{oh}, now {nw}x{nh}")
    share = float((np.abs(old - new).max(axis=2) > PNG_CHANNEL_THRESHOLD).mean())
    limit = tol.png_share_for(path)
    status = "within tolerance" if share <= limit else "different"
    return Comparison(path, status, f"{share:.3%} of pixels changed by > {PNG_CHANNEL_THRESHOLD} (limit {limit:.3%})")


def _compare_pdf(path: str, twin: Comparison | None) -> Comparison:
    """A changed PDF is judged by the PNG with the same stem in the same folder."""
    if twin is None:
        return Comparison(path, "different", "bytes differ and there is no PNG twin to judge by")
    if twin.status in ("identical", "within tolerance"):
        return Comparison(path, "within tolerance", f"judged by its PNG twin {twin.path} ({twin.status})")
    return Comparison(path, "different", f"its PNG twin {twin.path} is {twin.status}")


def png_twin(path: str) -> str:
    """Repo-relative path of the PNG with the same stem and folder as ``path``."""
    return str(PurePosixPath(path).with_suffix(".png"))


# --------------------------------------------------------------------------- notebooks


class _NotebookDiff(Exception):
    """Raised inside the notebook comparison to report a `different` verdict."""


def _split_numbers(text: str) -> tuple[list[str], list[str]]:
    """Split display text into non-number parts (horizontal whitespace normalised) and numbers."""
    pieces = _NUMBER.split(text)
    words = [_HSPACE.sub(" ", p).strip(" \t") for p in pieces[0::2]]
    return words, pieces[1::2]


def _last_digit_unit(number: str) -> Decimal:
    """Unit of the last displayed digit: '0.6715' -> 1e-4, '1.4e-09' -> 1e-10, '77' -> 1."""
    return Decimal(1).scaleb(Decimal(number).as_tuple().exponent)


def _compare_text(old: str, new: str, units: float, chaotic: bool, where: str, rtol: Decimal = Decimal(0),
                  atol: Decimal = Decimal(0)) -> int:
    """Number-aware text comparison; return how many numbers differ (within tolerance)."""
    ow, on = _split_numbers(old)
    nw, nn = _split_numbers(new)
    if ow != nw:
        k = next((i for i, (x, y) in enumerate(zip(ow, nw)) if x != y), min(len(ow), len(nw)))
        got = (ow[k] if k < len(ow) else "<end>", nw[k] if k < len(nw) else "<end>")
        raise _NotebookDiff(f"{where}: text differs: committed {got[0][:60]!r}, now {got[1][:60]!r}")
    if chaotic:
        return sum(x != y for x, y in zip(on, nn))
    changed = 0
    for b, a in zip(on, nn):
        if a == b:
            continue
        allowed = max(_last_digit_unit(b) * Decimal(str(units)), rtol * abs(Decimal(b)), atol)
        if abs(Decimal(a) - Decimal(b)) > allowed:
            raise _NotebookDiff(
                f"{where}: number committed {b}, now {a}, allowed +-{float(allowed):g} (last displayed digit)"
            )
        changed += 1
    return changed


def _text(value: Any) -> str:
    """Notebook multiline string (str or list of str) as one string."""
    if isinstance(value, list):
        return "".join(map(str, value))
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _merged_outputs(outputs: list[dict]) -> list[dict]:
    """Outputs with consecutive stream chunks of the same stream merged (chunking is not stable)."""
    merged: list[dict] = []
    for out in outputs:
        prev = merged[-1] if merged else None
        same_stream = prev is not None and prev.get("output_type") == "stream" and prev.get("name") == out.get("name")
        if out.get("output_type") == "stream" and same_stream:
            merged[-1] = {**prev, "text": _text(prev.get("text")) + _text(out.get("text"))}
        else:
            merged.append(out)
    return merged


def _output_parts(out: dict) -> dict[str, str]:
    """Comparable parts of one output: stream text or data per MIME type."""
    kind = out.get("output_type")
    if kind == "stream":
        return {f"stream {out.get('name')}": _text(out.get("text"))}
    return {mime: _text(v) for mime, v in out.get("data", {}).items()}


def _compare_output(old: dict, new: dict, units: float, chaotic: bool, where: str,
                    rtol: Decimal = Decimal(0), atol: Decimal = Decimal(0)) -> list[str]:
    """Compare one non-error output pair; return notes for differences that are within tolerance."""
    if old.get("output_type") != new.get("output_type"):
        raise _NotebookDiff(f"{where}: output type {old.get('output_type')} became {new.get('output_type')}")
    op, np_ = _output_parts(old), _output_parts(new)
    if set(op) != set(np_):
        raise _NotebookDiff(f"{where}: output kinds {sorted(op)} became {sorted(np_)}")
    notes = []
    for mime in sorted(op):
        if op[mime] == np_[mime]:
            continue
        if mime.startswith("image/"):
            notes.append(f"{where}: embedded image differs")
        elif chaotic:  # tables of seed / NMF distributions: their rows and words may change; checked via the CSVs
            notes.append(f"{where}: differs; not compared (repro-chaotic, checked through its CSVs)")
        elif _compare_text(op[mime], np_[mime], units, chaotic, f"{where} {mime}", rtol, atol):
            notes.append(f"{where}: numbers {'ignored (repro-chaotic)' if chaotic else 'within tolerance'}")
    return notes


def _compare_cell(i: int, old: dict, new: dict, units: float) -> list[str]:
    """Compare one cell's type, source and (for code) outputs; return within-tolerance notes."""
    where = f"cell {i}"
    if old.get("cell_type") != new.get("cell_type") or _text(old.get("source", "")) != _text(new.get("source", "")):
        raise _NotebookDiff(f"{where}: source differs")
    if old.get("cell_type") != "code":
        return []
    chaotic = any(CHAOTIC_TAG in c.get("metadata", {}).get("tags", []) for c in (old, new))
    float32 = any(FLOAT32_TAG in c.get("metadata", {}).get("tags", []) for c in (old, new))
    rtol, atol = (FLOAT32_RTOL, FLOAT32_ATOL) if float32 else (Decimal(0), Decimal(0))
    oo, no = _merged_outputs(old.get("outputs", [])), _merged_outputs(new.get("outputs", []))
    for k, out in enumerate(oo + no):
        if out.get("output_type") == "error":
            side = "committed" if k < len(oo) else "current"
            raise _NotebookDiff(f"{where}: {side} notebook has an error: {out.get('ename')}: {out.get('evalue')}")
    if len(oo) != len(no):
        raise _NotebookDiff(f"{where}: {len(oo)} outputs committed, {len(no)} now")
    notes: list[str] = []
    for k, (o, n) in enumerate(zip(oo, no)):
        notes += _compare_output(o, n, units, chaotic, f"{where} output {k}", rtol, atol)
    return notes


def _compare_notebook(path: str, committed: bytes, current: bytes, tol: Tolerances) -> Comparison:
    """Cells and outputs must match; numbers may move by their last displayed digit."""
    try:
        old, new = json.loads(committed), json.loads(current)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return Comparison(path, "different", f"cannot parse notebook JSON: {exc}")
    oc, nc = old.get("cells", []), new.get("cells", [])
    if len(oc) != len(nc):
        return Comparison(path, "different", f"{len(oc)} cells committed, {len(nc)} now")
    notes: list[str] = []
    try:
        for i, (o, n) in enumerate(zip(oc, nc)):
            notes += _compare_cell(i, o, n, tol.notebook_last_digit_units)
    except _NotebookDiff as exc:
        return Comparison(path, "different", str(exc))
    if not notes:
        detail = "same sources and outputs; only metadata or execution counts differ"
        return Comparison(path, "within tolerance", detail)
    shown = "; ".join(notes[:3]) + (f"; and {len(notes) - 3} more" if len(notes) > 3 else "")
    return Comparison(path, "within tolerance", shown)


# --------------------------------------------------------------------------- dispatch


def compare_file(
    path: str, committed: bytes, current: bytes | None, tol: Tolerances, twin: Comparison | None = None
) -> Comparison:
    """Classify one file; ``current`` None means deleted. ``twin`` is the PNG verdict for a PDF."""
    if current is None:
        return Comparison(path, "different", "deleted in the working tree")
    if committed == current:
        return Comparison(path, "identical")
    suffix = PurePosixPath(path).suffix.lower()
    if suffix == ".csv":
        return _compare_csv(path, committed, current, tol)
    if suffix == ".png":
        return _compare_png(path, committed, current, tol)
    if suffix == ".pdf":
        return _compare_pdf(path, twin)
    if suffix == ".ipynb":
        return _compare_notebook(path, committed, current, tol)
    return Comparison(path, "different", "bytes differ (no tolerance for this file type)")


def _git(repo: Path, *args: str) -> bytes:
    """Run git in ``repo`` and return stdout bytes; raise RuntimeError on failure."""
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, check=False)
    if proc.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def _names(raw: bytes) -> set[str]:
    """Paths from NUL-separated git output."""
    return {p for p in raw.decode("utf-8", errors="surrogateescape").split("\0") if p}


def repo_root(path: str | Path = ".") -> Path:
    """Top-level folder of the git repository containing ``path``."""
    return Path(_git(Path(path), "rev-parse", "--show-toplevel").decode().strip())


def compare_tree(
    repo: str | Path, ref: str = "HEAD", paths: Sequence[str] = DEFAULT_PATHS, tol: Tolerances | None = None
) -> list[Comparison]:
    """Compare every output under ``paths`` in the working tree of ``repo`` with its version at ``ref``."""
    root = repo_root(repo)
    tol = load_tolerances() if tol is None else tol
    committed = _names(_git(root, "ls-tree", "-r", "-z", "--name-only", ref, "--", *paths))
    tracked = _names(_git(root, "ls-files", "-z", "--", *paths))
    untracked = _names(_git(root, "ls-files", "-z", "--others", "--exclude-standard", "--", *paths))
    results: dict[str, Comparison] = {}
    for path in sorted((tracked | untracked) - committed):
        if (root / path).is_file():
            results[path] = Comparison(path, "new", "not in " + ref)
    ordered = sorted(committed, key=lambda p: (p.lower().endswith(".pdf"), p))  # PNG twins before PDFs
    for path in ordered:
        old = _git(root, "show", "--no-textconv", f"{ref}:{path}")
        file = root / path
        new = file.read_bytes() if file.is_file() else None
        results[path] = compare_file(path, old, new, tol, twin=results.get(png_twin(path)))
    return [results[p] for p in sorted(results)]


# --------------------------------------------------------------------------- CLI


def summary(results: Iterable[Comparison]) -> str:
    """One line: counts per status (``new`` only when there are new files)."""
    counts = {s: 0 for s in STATUSES}
    for r in results:
        counts[r.status] += 1
    line = (
        f"repro: {counts['identical']} identical, {counts['within tolerance']} within tolerance, "
        f"{counts['different']} different"
    )
    return line + (f", {counts['new']} new" if counts["new"] else "")


def write_report(results: Iterable[Comparison], path: str | Path) -> None:
    """Write path,status,detail rows to a CSV file."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["path", "status", "detail"])
        w.writerows([r.path, r.status, r.detail] for r in results)


def _parser() -> argparse.ArgumentParser:
    """Command-line interface."""
    p = argparse.ArgumentParser(prog="python -m tools.repro", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare", help="compare working-tree outputs with a committed version")
    c.add_argument("--repo", default=".", help="a folder inside the git repository (default: current folder)")
    c.add_argument("--ref", default="HEAD", help="commit to compare with (default: HEAD)")
    c.add_argument("--tolerances", default=str(DEFAULT_TOLERANCES),
                   help="tolerance YAML (default: tools/repro_tolerances.yaml)")
    c.add_argument("--report", help="write a CSV report (path,status,detail) here")
    c.add_argument("--paths", nargs="+", default=list(DEFAULT_PATHS), help="folders to compare")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return 0 if nothing is different or new, 1 otherwise, 2 on usage errors."""
    args = _parser().parse_args(argv)
    try:
        tol = load_tolerances(args.tolerances)
        results = compare_tree(args.repo, args.ref, args.paths, tol)
    except (ValueError, RuntimeError, OSError, yaml.YAMLError) as exc:
        print(f"repro: error: {exc}", file=sys.stderr)
        return 2
    for r in results:
        if r.status != "identical":
            print(f"{r.status:<16}  {r.path}: {r.detail}")
    if args.report:
        write_report(results, args.report)
    print(summary(results))
    return 1 if any(r.status in ("different", "new") for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
