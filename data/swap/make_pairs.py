"""Regenerate data/swap/bolukbasi_gender_pairs.csv from the debiaswe lists in data/debiaswe (not run by make).

The pairs of the counterfactual swap ``"bolukbasi"`` (``wordbias.datasets.swap``): Bolukbasi et al.'s (2016) ten
definitional pairs, then their 52 equalize pairs, each put in male-female order (the definitional pairs are
female-male, the equalize pairs male-female but for ``wives/husbands`` and ``ex_girlfriend/ex_boyfriend``),
lower-cased; a pair holding a phrase (a word with ``_``) left out; a pair equal to an earlier one as a set (after
lower-casing) left out. What remains is written in that order, with the header ``male,female``, one pair a line,
``\\n`` line ends.

Usage::

    python data/swap/make_pairs.py [OUT]      # default: data/swap/bolukbasi_gender_pairs.csv beside this script

Only the Python standard library is used; the output is byte-for-byte deterministic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEBIASWE = HERE.parent / "debiaswe"
#: the equalize pairs listed female-male (every other equalize pair is male-female)
FEMALE_FIRST = {("wives", "husbands"), ("ex_girlfriend", "ex_boyfriend")}


def pairs() -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(the pairs kept, the phrase pairs left out, the duplicate pairs left out), each pair as in its list."""
    kept, phrases, duplicates, seen = [], [], [], set()
    for name, female_first in (("definitional_pairs.json", True), ("equalize_pairs.json", False)):
        for pair in json.loads((DEBIASWE / name).read_text(encoding="utf-8")):
            a, b = (w.lower() for w in pair)
            if female_first or (a, b) in FEMALE_FIRST:
                a, b = b, a
            if "_" in a or "_" in b:
                phrases.append("/".join(pair))
            elif frozenset((a, b)) in seen:
                duplicates.append("/".join(pair))
            else:
                seen.add(frozenset((a, b)))
                kept.append((a, b))
    return kept, phrases, duplicates


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE / "bolukbasi_gender_pairs.csv"
    kept, phrases, duplicates = pairs()
    out.write_bytes(("male,female\n" + "".join(f"{a},{b}\n" for a, b in kept)).encode("utf-8"))
    print(f"{out}: {len(kept)} pairs; left out {len(phrases)} phrase pairs ({', '.join(phrases)}) and "
          f"{len(duplicates)} duplicates ({', '.join(duplicates)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
