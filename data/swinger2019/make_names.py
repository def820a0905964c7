"""Regenerate the names data of data/swinger2019/ from the public originals (not run by make).

Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are the biases in my word embedding?",
AIES 2019 (arXiv:1812.08769), Appendix C: first names from the US Social Security Administration's national baby
names (years 1938-2017, names with at least 1,000 births), last names from the 2010 Census surname file
(surnames with at least 1,000 occurrences). Race/ethnicity of first names (a posteriori statistics only, as in
their Table 3) from Tzioumis (2018).

Usage::

    python data/swinger2019/make_names.py ORIGINALS_DIR [OUT_DIR]

``ORIGINALS_DIR`` holds the three source folders (``ssa_baby_names/yobYYYY.txt.gz``,
``tzioumis_first_names/firstnames.csv``, ``census_surnames_2010/Names_2010Census.csv.gz``; see SOURCE.md for
where each came from). ``OUT_DIR`` defaults to the folder of this script. Output is byte-for-byte deterministic
(fixed float formatting, LF line endings, gzip with mtime 0), so re-running it must reproduce the sha256 values
listed in SOURCE.md. Only the Python standard library is used.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import sys
from collections import defaultdict
from pathlib import Path

FIRST_YEAR, LAST_YEAR = 1938, 2017  # Appendix C.1: "we use only years 1938-2017"
MIN_COUNT = 1000  # Appendix C.1 / C.2: "at least 1,000 times"

SSA_OUT = "ssa_first_names_1938_2017.csv"
TZIOUMIS_OUT = "tzioumis2018_first_names.csv"
CENSUS_OUT = "census2010_surnames.csv.gz"
CENSUS_COLUMNS = ["name", "count", "pctwhite", "pctblack", "pctapi", "pctaian", "pct2prace", "pcthispanic"]


def make_ssa(src: Path, out: Path) -> int:
    """One row per first name (sexes combined) with >= MIN_COUNT births over FIRST_YEAR..LAST_YEAR."""
    female: dict[str, int] = defaultdict(int)
    male: dict[str, int] = defaultdict(int)
    year_sum: dict[str, int] = defaultdict(int)
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        with gzip.open(src / f"yob{year}.txt.gz", "rt", encoding="ascii") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                name, sex, count = line.split(",")
                n = int(count)
                if sex == "F":
                    female[name] += n
                elif sex == "M":
                    male[name] += n
                else:
                    raise ValueError(f"yob{year}: unexpected sex {sex!r}")
                year_sum[name] += year * n
    rows = []
    for name in set(female) | set(male):
        total = female[name] + male[name]
        if total >= MIN_COUNT:
            rows.append((name, total, female[name], male[name]))
    rows.sort(key=lambda r: (-r[1], r[0]))
    with open(out, "w", encoding="ascii", newline="") as fh:
        fh.write("name,count,count_female,count_male,frac_female,mean_year\n")
        for name, total, f, m in rows:
            fh.write(f"{name},{total},{f},{m},{f / total:.6f},{year_sum[name] / total:.6f}\n")
    return len(rows)


def make_tzioumis(src: Path, out: Path) -> int:
    """Copy of firstnames.csv without the trailing ``ALL OTHER FIRST NAMES`` aggregate row (other lines as is)."""
    lines = src.read_bytes().decode("utf-8").splitlines(keepends=True)
    kept = [ln for ln in lines if not ln.startswith("ALL OTHER FIRST NAMES,")]
    if len(kept) != len(lines) - 1:
        raise ValueError("expected exactly one 'ALL OTHER FIRST NAMES' row")
    out.write_bytes("".join(kept).encode("utf-8"))
    return len(kept) - 1


def make_census(src: Path, out: Path) -> int:
    """Surnames with count >= MIN_COUNT; '(S)' (suppressed) written as an empty field; numbers kept as printed."""
    with gzip.open(src, "rt", encoding="ascii", newline="") as fh:
        reader = csv.DictReader(fh)
        rows = [r for r in reader if r["name"] != "ALL OTHER NAMES" and int(r["count"]) >= MIN_COUNT]
    buf = io.StringIO(newline="")
    buf.write(",".join(CENSUS_COLUMNS) + "\n")
    for r in rows:  # the source order (rank, i.e. count descending) is kept
        buf.write(",".join("" if r[c] == "(S)" else r[c] for c in CENSUS_COLUMNS) + "\n")
    with open(out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
        gz.write(buf.getvalue().encode("ascii"))
    return len(rows)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str]) -> None:
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    src = Path(argv[1])
    out = Path(argv[2]) if len(argv) == 3 else Path(__file__).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    made = {
        SSA_OUT: make_ssa(src / "ssa_baby_names", out / SSA_OUT),
        TZIOUMIS_OUT: make_tzioumis(src / "tzioumis_first_names" / "firstnames.csv", out / TZIOUMIS_OUT),
        CENSUS_OUT: make_census(src / "census_surnames_2010" / "Names_2010Census.csv.gz", out / CENSUS_OUT),
    }
    for name, n in made.items():
        print(f"{name}: {n} rows, sha256 {sha256(out / name)}")


if __name__ == "__main__":
    main(sys.argv)
