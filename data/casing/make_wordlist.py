"""Regenerate data/casing/scowl_en_50.txt.gz from Debian's SCOWL word lists (not run by make).

The stand-in for Appendix C.4 of Swinger et al. (2019) on an uncased vocabulary (``wordbias.datasets.casing``)
needs to know which tokens English spells in lower case. This script takes the two size-50 SCOWL lists that
Debian ships as ``/usr/share/dict/american-english`` (package ``wamerican``) and
``/usr/share/dict/british-english`` (``wbritish``), both version 2020.12.07-2, keeps the entries made only of the
52 ASCII letters (dropping possessives such as "Bill's" and words with accents), and writes their union, sorted
(Python's code-point order) and one per line, gzip-compressed with mtime 0 and no file name. Case is kept:
"Bill" and "bill" are two entries, "Lufthansa" is in neither, "Texas" only capitalised.

Usage::

    apt-get download wamerican wbritish            # the .deb files; dpkg-deb -x each into a folder
    python data/casing/make_wordlist.py AMERICAN_ENGLISH BRITISH_ENGLISH [OUT]

Only the Python standard library is used; the output is byte-for-byte deterministic for one zlib build (compare
the uncompressed sha256 in SOURCE.md otherwise).
"""

from __future__ import annotations

import gzip
import hashlib
import re
import sys
from pathlib import Path

LETTERS = re.compile(r"^[A-Za-z]+$")


def read_list(path: Path) -> set[str]:
    """The letters-only entries of one word list (one word per line, UTF-8)."""
    words = path.read_text(encoding="utf-8").split("\n")
    return {w for w in words if LETTERS.match(w)}


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    american, british = (Path(a) for a in argv[:2])
    out = Path(argv[2]) if len(argv) == 3 else Path(__file__).with_name("scowl_en_50.txt.gz")
    words = sorted(read_list(american) | read_list(british))
    text = ("\n".join(words) + "\n").encode("ascii")
    with open(out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        gz.write(text)
    print(f"{out}: {len(words):,} words, {out.stat().st_size:,} bytes; uncompressed sha256 "
          f"{hashlib.sha256(text).hexdigest()}, gzip sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
