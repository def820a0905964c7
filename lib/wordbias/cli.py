"""The ``wordbias`` command: the papers' tests on your own embedding or word lists, as one tidy table.

``wordbias weat``, ``report`` and ``compare`` run the batteries of :mod:`wordbias.battery` and write
``tidy.csv`` (the schema of :mod:`wordbias.core.tidy`), ``summary.html`` and figures into ``--out``, with a
short table on stdout; ``wordbias lists`` shows the word lists shipped (with their citations), a user's file
(checked) or the template of the YAML format (:mod:`wordbias.datasets.user_lists`); ``wordbias cache
list`` / ``clear`` show and remove the converted embedding caches. Progress bars go to
stderr; ``--quiet`` silences them and the table. Exit status: 0 done, 1 the run failed (one line
``wordbias: error: ...`` on stderr; ``--debug`` shows the traceback), 2 a usage error, 3 the outputs were
written but some tests were not run, or ran without their interval (each named on stderr with the reason,
e.g. a request refused for its cost with the way out; the reason is also in tidy.csv's ``note``).

``--out`` is checked by :func:`wordbias.core.paths.check_output_dir` (never empty, the checkout's root, the
home folder or ``/``, nor inside the package, the data or the repository's results/ and figures/); the
command writes its named files there and deletes nothing. A full disk is reported with the file being
written and the space left (:mod:`wordbias.core.io_errors`).

Examples
--------
>>> main(["--version"])                 # doctest: +ELLIPSIS
wordbias ...
0
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import traceback
import warnings
from pathlib import Path

__all__ = ["main", "build_parser", "EXIT_NOT_RUN"]

PROG = "wordbias"

_EXAMPLES = """\
examples:
  wordbias lists                                   the batteries and word lists shipped, with citations
  wordbias lists caliskan2017                      a battery's tests and words
  wordbias lists --template > my_lists.yaml        start your own lists from the commented template
  wordbias lists my_lists.yaml                     check your file and show its tests
  wordbias weat glove-6b-50d --out out/weat        Caliskan et al.'s ten WEATs on a registered embedding
  wordbias weat vectors.txt --lists my_lists.yaml --out out/mine
                                                   your lists on your word2vec/GloVe/fastText file
  wordbias report vectors.bin --out out/report     every static test of the four papers + summary.html
  wordbias compare a.txt b.txt --out out/ab        one table and a heat map across embeddings
  wordbias contextual bert-base-uncased --out out/bert
                                                   Kurita et al.'s contextual WEAT and log-probability test
  wordbias cache list                              the converted embedding caches (and `cache clear`)
  wordbias embeddings                              the registered embeddings, whether each is on this machine

EMBEDDING is a registered name (`wordbias embeddings`) or a path to a word2vec (text or binary), GloVe or
fastText .vec file (plain, .gz or .zip) or a file gensim saved (.kv, .model); LABEL=PATH names it in compare.
Results: DIR/tidy.csv (one row per test: effect size, 95% interval, p one- and two-sided with their method,
Holm and Benjamini-Hochberg adjusted p, the words dropped), DIR/summary.html, figures. Exit status: 0 ok, 1 the run failed, 2 usage error, 3 some tests
were not run or ran only in part (outputs written; each such test and why on stderr, and in the note column
of tidy.csv).
"""


# --------------------------------------------------------------------------------------------------
# argument parsing
# --------------------------------------------------------------------------------------------------

def _nonnegative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {value}")
    return value


def _positive(minimum: int):
    def parse(text: str) -> int:
        value = _nonnegative(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, not {value}")
        return value
    parse.__name__ = "integer"
    return parse


def _common() -> argparse.ArgumentParser:
    """The options every command takes."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("common options")
    g.add_argument("--seed", type=_nonnegative, default=0, help="seed of every random step (default 0)")
    g.add_argument("--n-permutations", type=_positive(1), default=100_000, metavar="N",
                   help="Monte Carlo draws of a permutation test when it cannot be counted exactly (default 100000)")
    g.add_argument("--n-resamples", type=_positive(2), default=10_000, metavar="N",
                   help="bootstrap resamples of each interval (default 10000)")
    g.add_argument("-q", "--quiet", action="store_true", help="no progress bars and no table on stdout")
    g.add_argument("--debug", action="store_true", help="show the traceback of an error")
    return p


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for tidy.csv, summary.html and figures (created; other files in it are left "
                        "alone; never the checkout's root, ~ or /, nor inside the package, data/, results/ or "
                        "figures/)")
    p.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="folder for the converted embedding caches (default: WORDBIAS_CACHE, else the "
                        "per-user cache folder; see `wordbias cache list`)")
    command = p.prog.split()[-1]
    if command not in ("weat", "report", "compare"):
        return
    from wordbias.core import tidy

    def fraction(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number in [0, 1], not {text!r}") from None
        if not 0 <= value <= 1:
            raise argparse.ArgumentTypeError(f"must be in [0, 1] (a fraction of the list, 0.5 for half), not {text}")
        return value
    fraction.__name__ = "fraction"
    g = p.add_argument_group("coverage (how much of each word list the embedding has)")
    g.add_argument("--min-words", type=_nonnegative, default=tidy.MIN_WORDS, metavar="N",
                   help=f"flag a test (low_coverage in tidy.csv, ! in the table, a note) when a set keeps fewer "
                        f"than N of its words (default {tidy.MIN_WORDS}: with 3 words a side a WEAT's smallest "
                        "p is 1/C(6,3) = 0.05; 0 turns the rule off)")
    g.add_argument("--min-coverage", type=fraction, default=tidy.MIN_FRACTION, metavar="FRACTION",
                   help=f"flag a test when a set keeps less than FRACTION of its list (default "
                        f"{tidy.MIN_FRACTION}: past half the list missing, the test measures what the surviving "
                        "words share; 0 turns the rule off)")
    if command == "compare":
        g.add_argument("--common-vocabulary", action="store_true",
                       help="measure every embedding on the words all of them have (each set of each test "
                            "restricted to the words present in every embedding; UBE is not restricted)")


def build_parser() -> argparse.ArgumentParser:
    """The ``wordbias`` argument parser (subcommands ``weat``, ``report``, ``compare``, ``lists``).

    Examples
    --------
    >>> args = build_parser().parse_args(["weat", "glove-6b-50d", "--out", "o", "--seed", "3"])
    >>> args.command, args.embedding, args.battery, args.seed, args.n_permutations
    ('weat', 'glove-6b-50d', None, 3, 100000)
    """
    from wordbias import __version__

    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=fmt, epilog=_EXAMPLES,
        description="Measure social bias in word embeddings with the tests of Caliskan et al. (2017), the "
                    "racial bias report, Swinger et al. (2019), Ethayarajh et al. (2019) and Kurita et al. "
                    "(2019), on the papers' word lists or your own.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = _common()

    p = sub.add_parser("weat", parents=[common], formatter_class=fmt,
                       help="WEATs of a battery or of your own lists on one embedding",
                       description="Run WEATs (Caliskan et al. 2017) on one embedding: d with its 95% BCa "
                                   "bootstrap interval, the permutation p (one- and two-sided, method named), "
                                   "Holm and Benjamini-Hochberg adjusted p over the battery, and every word "
                                   "dropped.",
                       epilog="examples:\n  wordbias weat glove-6b-50d --out out/weat\n"
                              "  wordbias weat GoogleNews-vectors-negative300.bin.gz --variant word2vec --out out/w2v\n"
                              "  wordbias weat vectors.txt --lists my_lists.yaml --out out/mine\n")
    p.add_argument("embedding", metavar="EMBEDDING", help="a registered name or a path to an embedding file")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--battery", choices=["caliskan2017"], default=None,
                       help="a shipped battery (default caliskan2017)")
    which.add_argument("--lists", metavar="FILE.yaml", help="your own word lists (see `wordbias lists --template`)")
    p.add_argument("--variant", choices=["glove", "original", "word2vec"], default=None,
                   help="Caliskan et al.'s word lists: as run on GloVe (default), as printed, or as run on "
                        "word2vec (Table S1); never guessed from the file name")
    p.add_argument("--case-fold", choices=["auto", "on", "off"], default="auto",
                   help="fold case when looking words up: auto (default) folds for an uncased vocabulary")
    p.add_argument("--label", help="the embedding's name in the outputs (default: the registered name or the "
                                   "file name)")
    _run_options(p)

    p = sub.add_parser("report", parents=[common], formatter_class=fmt,
                       help="every static-embedding test of the four papers, with an HTML summary",
                       description="Every test of the four papers that applies to a static embedding: "
                                   "Caliskan et al.'s WEATs and WEFATs, the racial report's direction tests and "
                                   "direct bias, RIPA on the gender pairs, and a UBE run scaled to the "
                                   "vocabulary; one tidy table and a one-page HTML summary with a forest plot.",
                       epilog="example:\n  wordbias report vectors.txt --out out/report\n")
    p.add_argument("embedding", metavar="EMBEDDING", help="a registered name or a path to an embedding file")
    p.add_argument("--label", help="the embedding's name in the outputs")
    p.add_argument("--lists", metavar="FILE.yaml", help="your own word lists: their WEATs instead of the papers' "
                                                        "battery (see `wordbias lists --template`)")
    p.add_argument("--no-ube", action="store_true", help="leave out the UBE run (the slowest part)")
    _run_options(p)

    p = sub.add_parser("compare", parents=[common], formatter_class=fmt,
                       help="the report's battery across embeddings: one table and a heat map",
                       description="The report's tests on each embedding, stacked into one tidy table, with a "
                                   "heat map (test x embedding, effect sizes with their intervals).",
                       epilog="examples:\n  wordbias compare glove-6b-50d mine.w2v.txt --out out/compare\n"
                              "  wordbias compare glove-6b-50d mine=runs/seed1.txt --lists my_lists.yaml "
                              "--out out/mine\n")
    p.add_argument("embeddings", metavar="EMBEDDING", nargs="+",
                   help="two or more names or paths; LABEL=PATH names one in the outputs")
    p.add_argument("--lists", metavar="FILE.yaml", help="your own word lists: their WEATs on every embedding "
                                                        "instead of the report's battery")
    p.add_argument("--no-ube", action="store_true", help="leave out the UBE runs")
    _run_options(p)

    p = sub.add_parser("contextual", parents=[common], formatter_class=fmt,
                       help="Kurita et al.'s contextual WEAT and log-probability test on a model",
                       description="Kurita et al. (2019) on a contextual model: WEAT on contextual vectors (any "
                                   "encoder) and the log-probability bias score with its attribute test (a masked "
                                   "language model), over the paper's five categories and templates or your own "
                                   "lists, with 95%% intervals, one- and two-sided p and Holm/Benjamini-Hochberg "
                                   "adjusted p. A model without a masked-LM head gets the log-probability rows "
                                   "with the reason instead of numbers. Needs the contextual extra "
                                   "(pip install \"wordbias[contextual]\").",
                       epilog="examples:\n  wordbias contextual bert-base-uncased --out out/bert\n"
                              "  wordbias contextual /models/my-bert --lists my_lists.yaml --template "
                              "'TARGET is ATTRIBUTE.' --out out/mine\n")
    p.add_argument("model", metavar="MODEL", help="a local model folder, or a Hugging Face id already on this "
                                                  "machine (HF_HUB_OFFLINE=1 keeps it offline)")
    p.add_argument("--lists", metavar="FILE.yaml", help="your own word lists (their WEATs; X, Y fill TARGET, "
                                                        "A, B fill ATTRIBUTE)")
    p.add_argument("--template", action="append", metavar="TEXT", dest="templates",
                   help="a template with TARGET and ATTRIBUTE, for --lists (repeat for several; default: "
                        "'TARGET is ATTRIBUTE.' and 'TARGET are ATTRIBUTE.')")
    p.add_argument("--device", default=None, help="cpu, cuda, cuda:1, mps (default: a GPU if torch sees one)")
    p.add_argument("--label", help="the model's name in the outputs")
    _run_options(p)

    p = sub.add_parser("lists", parents=[common], formatter_class=fmt,
                       help="the batteries and word lists shipped, a lists file, or the YAML template",
                       description="Without NAME: the batteries shipped, with their citations. With a battery "
                                   "NAME: its tests and words. With a path to your YAML file: the file checked "
                                   "and its tests shown. --template: the commented template of the format.",
                       epilog="examples:\n  wordbias lists\n  wordbias lists kurita2019\n"
                              "  wordbias lists --template > my_lists.yaml\n  wordbias lists my_lists.yaml\n")
    p.add_argument("name", nargs="?", metavar="NAME", help="a battery name or a path to your YAML lists")
    p.add_argument("--template", action="store_true", help="print the template of the YAML format (and its path)")
    p.add_argument("--variant", choices=["glove", "original", "word2vec"], default="glove",
                   help="which Caliskan lists to show (default glove)")

    p = sub.add_parser("embeddings", parents=[common], formatter_class=fmt,
                       help="the registered embeddings: whether each is on this machine, its size, citation",
                       description="The embeddings wordbias knows by name: where each comes from, whether it is "
                                   "on this machine (and where), its size and its citation. Any other embedding "
                                   "is given by its path.",
                       epilog="example:\n  wordbias embeddings\n")
    p.add_argument("name", nargs="?", metavar="NAME", help="one registered embedding, in full")

    p = sub.add_parser("cache", formatter_class=fmt, help="list or clear the converted embedding caches",
                       description="The caches of converted embeddings (a memory-mappable copy of each text or "
                                   "binary file loaded), under WORDBIAS_CACHE or the per-user cache folder.",
                       epilog="examples:\n  wordbias cache list\n  wordbias cache clear mine.w2v.txt-1a2b3c4d\n"
                              "  wordbias cache clear --all\n")
    p.add_argument("action", choices=["list", "clear"], help="list the caches, or remove some (or --all)")
    p.add_argument("names", nargs="*", metavar="NAME", help="with clear: the caches to remove (name or folder)")
    p.add_argument("--all", action="store_true", help="with clear: remove every cache")
    p.add_argument("--cache-dir", metavar="DIR", default=None, help="the cache folder (default: as loading uses)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    p.add_argument("--debug", action="store_true", help="show the traceback of an error")
    return parser


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------

class _RunError(Exception):
    """An error of the command itself (bad output folder, a module missing), shown as one line."""


def _label(name_or_path: str) -> str:
    """The embedding's label in outputs: the registered name, else the file name with its extensions
    (``mine.w2v.txt`` and ``mine.w2v.bin`` stay apart)."""
    from wordbias.embeddings import REGISTRY

    if name_or_path in REGISTRY:
        return name_or_path
    return Path(name_or_path).name or str(name_or_path)


def _split_label(arg: str) -> tuple[str | None, str]:
    """``LABEL=PATH`` as (label, path); an argument that is an existing path or a registered name as it is
    (a file name may hold ``=``)."""
    from wordbias.embeddings import REGISTRY

    label, eq, rest = arg.partition("=")
    if not eq or arg in REGISTRY or os.path.lexists(arg):
        return None, arg
    if not label.strip() or not rest:
        raise _RunError(f"{arg!r}: write LABEL=PATH (a label, '=', then a registered name or a path)")
    return label.strip(), rest


def _labels(names: list[str]) -> list[str]:
    """Labels for several embeddings, the full path as given where file names collide; one embedding given
    twice, under any spelling (``a.txt`` and ``./a.txt``, an absolute path, a symbolic link, a registered name
    and its file), is refused (:func:`wordbias.battery.compare.check_distinct`)."""
    from wordbias.battery import compare

    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise _RunError(f"the same embedding is given twice: {dup}; compare needs different embeddings")
    compare.check_distinct([(n, n) for n in names])
    labels = [_label(n) for n in names]
    return [n if labels.count(lab) > 1 else lab for n, lab in zip(names, labels)]


def _out_dir(out: str) -> Path:
    """The ``--out`` folder, checked and created (:func:`wordbias.core.paths.check_output_dir`: not empty, not
    the checkout's root, home or ``/``, not inside the package, the data, results/ or figures/, not a file)."""
    from wordbias.core import paths

    return paths.check_output_dir(out, what="--out", create=True)


def _progress(args) -> bool:
    """Progress bars on stderr only when it is a terminal and not ``--quiet``: a log or a pipe gets none (a bar
    redrawn with carriage returns would share lines with the warnings there)."""
    stream = sys.stderr
    return not args.quiet and bool(getattr(stream, "isatty", lambda: False)())


def _load(name_or_path: str, args):
    from wordbias import embeddings

    options = {} if args.cache_dir is None else {"cache_dir": args.cache_dir}
    return embeddings.load(name_or_path, progress=_progress(args), **options)


def _fmt(x, digits: int = 3) -> str:
    import math

    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    try:
        import pandas as pd

        if x is pd.NA:
            return ""
    except ImportError:  # pragma: no cover
        pass
    x = float(x)
    if x != 0 and abs(x) < 10 ** -digits:
        return f"{x:.1e}"
    return f"{x:.{digits}f}"


def short_table(frame) -> str:
    """The few columns of a tidy table shown on stdout: (embedding,) test, set sizes, effect size with its
    interval, p with its method, two-sided p, Holm's adjusted p and the number of words dropped, then a legend:
    what ``n`` and the sign of d mean, and, when a test ran on too few of its words (``low_coverage``, marked
    ``!`` after its n), the rule that flagged it.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> print(short_table(tidy_frame([{"test": "WEAT1", "n_x": 8, "n_y": 8, "effect_size_name": "d",
    ...     "effect_size": 1.5, "ci_low": 0.9, "ci_high": 1.8, "p_value": 2e-4, "p_method": "exact",
    ...     "p_holm": 4e-4, "dropped": "X: aster", "coverage": "X 8/9; Y 8/8", "low_coverage": False},
    ...     {"test": "WEAT2", "n_x": 3, "n_y": 3, "effect_size_name": "d", "effect_size": 0.5,
    ...     "coverage": "X 3/8; Y 3/8", "low_coverage": True}])))
    test   n     effect   95% CI        p               p two-sided  p Holm  dropped
    WEAT1  8/8   d=1.500  [0.90, 1.80]  0.0002 (exact)               0.0004  1
    WEAT2  3/3!  d=0.500
    n = words used per set: X/Y/A/B (WEFAT W/A/B; direction tests T1/T2/A1/A2; direct bias and RIPA professions/pairs)
    d > 0: X is closer to A (relative to B) than Y is
    ! = low coverage: a set kept fewer than 4 of its words or less than 50% of its list (note column of tidy.csv)
    """
    import pandas as pd

    from wordbias.core import tidy

    several = frame["embedding"].nunique(dropna=True) > 1
    by_measure = frame.duplicated(["embedding", "test"]).any()     # a test run by several measures: name them
    rows, flagged = [], 0
    for _, r in frame.iterrows():
        sizes = "/".join(str(int(v)) for v in (r.n_x, r.n_y, r.n_a, r.n_b) if not pd.isna(v))
        ci = f"[{r.ci_low:.2f}, {r.ci_high:.2f}]" if pd.notna(r.ci_low) and pd.notna(r.ci_high) else ""
        note = r.note if isinstance(r.note, str) else ""
        low = r.get("low_coverage")
        low = low is not None and not pd.isna(low) and bool(low) and not note.startswith(tidy.NOT_RUN)
        if low:
            flagged += 1
            sizes += "!"
        if pd.notna(r.effect_size):
            effect = f"{r.effect_size_name}={_fmt(r.effect_size)}"
        else:
            effect = "not run" if note.startswith("not run") else ""
        method = r.p_method.split(",")[0].strip() if isinstance(r.p_method, str) else ""
        dropped = r.dropped if isinstance(r.dropped, str) else ""
        n_dropped = sum(len(part.split(":", 1)[-1].split()) for part in dropped.split(";") if part.strip())
        test = f"{r.test} ({r.measure})" if by_measure and isinstance(r.measure, str) else str(r.test)
        row = [test, sizes, effect, ci, _fmt(r.p_value, 4) + (f" ({method})" if method and pd.notna(r.p_value)
                                                                     else ""),
               _fmt(r.p_two_sided, 4), _fmt(r.p_holm, 4), str(n_dropped or "")]
        rows.append(([str(r.embedding)] if several else []) + row)
    if not rows:
        return "(no tests)"
    header = (["embedding"] if several else []) + ["test", "n", "effect", "95% CI", "p", "p two-sided", "p Holm",
                                                   "dropped"]
    widths = [max(len(x[i]) for x in rows + [header]) for i in range(len(header))]
    lines = ["  ".join(x[i].ljust(widths[i]) for i in range(len(header))).rstrip() for x in [header] + rows]
    lines.append("n = words used per set: X/Y/A/B (WEFAT W/A/B; direction tests T1/T2/A1/A2; direct bias and RIPA "
                 "professions/pairs)")
    if (frame["effect_size_name"] == "d").fillna(False).any():
        lines.append("d > 0: X is closer to A (relative to B) than Y is")
    if flagged:
        params = frame.attrs.get("parameters") or {}
        params = next((v for v in params.values() if isinstance(v, dict)), params)   # compare: per embedding
        min_words = params.get("min_words", tidy.MIN_WORDS)
        min_fraction = params.get("min_fraction", tidy.MIN_FRACTION)
        lines.append(f"! = low coverage: a set kept fewer than {min_words} of its words or less than "
                     f"{min_fraction:.0%} of its list (note column of tidy.csv)")
    return "\n".join(lines)


def _write_outputs(frame, out: Path, title: str, *, heatmap: bool = False) -> list[Path]:
    """tidy.csv, summary.html, the forest plot (forest.png, forest.pdf) and for compare the heat map
    (heatmap.png, heatmap.pdf); named files only, nothing else in ``out`` is touched. A full disk raises
    :class:`~wordbias.core.errors.DiskFullError` naming the file."""
    from wordbias.battery import summary
    from wordbias.core import tidy

    written = [tidy.write_tidy(frame, out / "tidy.csv")]

    path = out / "summary.html"
    result = summary.write_html(frame, path, title=title, figure_dir=out)
    written.append(Path(result) if isinstance(result, (str, os.PathLike)) else path)
    names = ("forest", "heatmap") if heatmap else ("forest",)
    written += [out / f"{n}.{ext}" for n in names for ext in ("png", "pdf") if (out / f"{n}.{ext}").exists()]
    import matplotlib.pyplot as plt

    plt.close("all")
    return written


#: exit status of a run whose outputs were written but some of whose tests were not run, or ran only in part
EXIT_NOT_RUN = 3
#: the most tests not run named one by one on stderr (the rest are counted; all are in tidy.csv's note)
_NOT_RUN_SHOWN = 20
#: the most characters of a reason shown on stderr (tidy.csv's note has it in full)
_REASON_WIDTH = 700
#: the command's way out of a test refused for its cost (the reason names the library's)
_COSTLY_HINT = ("With the command: lower --n-permutations or --n-resamples (or leave UBE out with --no-ube), "
                "then run again.")


def _reason_line(note: str, prefix: str) -> str:
    """The reason of a ``note`` after ``prefix``, on one line, shortened, with the command's way out of a cost
    refusal."""
    reason = textwrap.shorten(_one_line(note[len(prefix):].lstrip(": ")), _REASON_WIDTH,
                              placeholder=" ... (in full in tidy.csv)")
    if any(f"{name}:" in reason for name in ("TooCostlyError", "ExactCountTooLarge")):
        reason += f" {_COSTLY_HINT}"
    return reason


def _report_not_run(frame, written: list[Path]) -> int:
    """Name on stderr each test of ``frame`` that did not run, or ran without a part (its interval), with the
    embedding, the test, the measure and the reason (which says what to do, e.g. a cost refusal's estimate
    and way out), and return :data:`EXIT_NOT_RUN`; 0 when every test ran in full."""
    from wordbias.core import tidy

    skipped, partial = tidy.not_run(frame), tidy.run_in_part(frame)
    if skipped.empty and partial.empty:
        return 0
    several = frame["embedding"].nunique(dropna=True) > 1
    lines = [("not run", r, _reason_line(str(r.note), tidy.NOT_RUN)) for r in skipped.itertuples()]
    lines += [("run in part", r, _reason_line(str(r.note), "")) for r in partial.itertuples()]
    for kind, r, reason in lines[:_NOT_RUN_SHOWN]:
        who = f"{r.embedding} / {r.test}" if several else str(r.test)
        measure = f" ({r.measure})" if isinstance(r.measure, str) else ""
        print(f"wordbias: {kind}: {who}{measure}: {reason}", file=sys.stderr)
    if len(lines) > _NOT_RUN_SHOWN:
        print(f"wordbias: ... and {len(lines) - _NOT_RUN_SHOWN} more", file=sys.stderr)
    csv = next((str(p) for p in written if p.name == "tidy.csv"), "tidy.csv")
    counts = ([f"{len(skipped)} were not run"] if len(skipped) else []) + \
        ([f"{len(partial)} ran only in part"] if len(partial) else [])
    print(f"wordbias: of {len(frame)} tests, {' and '.join(counts)} (the reasons above, also in the note column of {csv}); exit status "
          f"{EXIT_NOT_RUN}", file=sys.stderr)
    return EXIT_NOT_RUN


def _finish(frame, written: list[Path], args) -> int:
    """Print the short table and the files written (unless ``--quiet``), report the tests not run on stderr
    (always); return the exit status: 0, or :data:`EXIT_NOT_RUN` when some tests were not run."""
    if not args.quiet:
        print(short_table(frame))
        print()
        print("wrote " + ", ".join(str(p) for p in written))
    return _report_not_run(frame, written)


# --------------------------------------------------------------------------------------------------
# commands
# --------------------------------------------------------------------------------------------------

def _cmd_weat(args) -> int:
    from wordbias.battery import static
    from wordbias.datasets import stimuli, user_lists

    if args.lists is not None:
        if args.variant is not None:
            raise _RunError("--variant picks Caliskan et al.'s lists; it does not apply to --lists")
        lists = user_lists.read_user_lists(args.lists)
        if not lists.weat:
            raise _RunError(f"{args.lists} has no WEATs (a 'weat' list); `wordbias weat` runs WEATs")
        if lists.wefat:
            print(f"wordbias: note: the {len(lists.wefat)} WEFAT(s) of {args.lists} are not run by `wordbias "
                  "weat` (only its WEATs)", file=sys.stderr)
        specs, battery, paper = list(lists.weat), f"user:{lists.battery}", "user"
        title = f"{lists.battery} ({Path(args.lists).name})"
    else:
        variant = args.variant or "glove"
        specs, paper = stimuli.weat_tests("caliskan2017", variant=variant), "caliskan2017"
        battery = "caliskan2017" if variant == "glove" else f"caliskan2017:{variant}"
        title = f"Caliskan et al. (2017) WEATs, {variant} lists"
    out = _out_dir(args.out)
    label = args.label or _label(args.embedding)
    kv = _load(args.embedding, args)
    case_fold = {"auto": None, "on": True, "off": False}[args.case_fold]
    frame = static.weat_battery(kv, specs, label=label, battery=battery, paper=paper, seed=args.seed,
                                n_permutations=args.n_permutations, n_resamples=args.n_resamples,
                                case_fold=case_fold, progress=_progress(args), min_words=args.min_words,
                                min_fraction=args.min_coverage)
    written = _write_outputs(frame, out, f"wordbias weat: {title} on {label}")
    return _finish(frame, written, args)


def _user_lists(path: str, command: str):
    """A user's lists for ``command``: their WEATs, with a note on stderr for WEFATs it does not run."""
    from wordbias.datasets import user_lists

    lists = user_lists.read_user_lists(path)
    if not lists.weat:
        raise _RunError(f"{path} has no WEATs (a 'weat' list); `wordbias {command}` runs a lists file's WEATs")
    if lists.wefat:
        print(f"wordbias: note: the {len(lists.wefat)} WEFAT(s) of {path} are not run by `wordbias {command}` "
              "(only its WEATs)", file=sys.stderr)
    return lists


def _cmd_report(args) -> int:
    from wordbias.battery import static

    lists = None
    if args.lists is not None:
        if args.no_ube:
            raise _RunError("--no-ube applies to the report's battery; with --lists no UBE run is made")
        lists = _user_lists(args.lists, "report")
    out = _out_dir(args.out)
    label = args.label or _label(args.embedding)
    kv = _load(args.embedding, args)
    if lists is None:
        frame = static.report(kv, label=label, seed=args.seed, n_permutations=args.n_permutations,
                              n_resamples=args.n_resamples, ube=not args.no_ube, progress=_progress(args),
                              min_words=args.min_words, min_fraction=args.min_coverage)
        title = f"wordbias report on {label}"
    else:
        frame = static.weat_battery(kv, list(lists.weat), label=label, battery=f"user:{lists.battery}",
                                    paper="user", seed=args.seed, n_permutations=args.n_permutations,
                                    n_resamples=args.n_resamples, progress=_progress(args),
                                    min_words=args.min_words, min_fraction=args.min_coverage)
        title = f"wordbias report: {lists.battery} ({Path(args.lists).name}) on {label}"
    written = _write_outputs(frame, out, title)
    return _finish(frame, written, args)


def _cmd_compare(args) -> int:
    from wordbias.battery import compare

    if len(args.embeddings) < 2:
        raise _RunError("compare needs two or more embeddings (use `wordbias report` for one)")
    given = [_split_label(a) for a in args.embeddings]
    names = [name for _, name in given]
    labels = _labels(names)
    labels = [own or lab for (own, _), lab in zip(given, labels)]
    if len(set(labels)) != len(labels):
        raise _RunError(f"two embeddings share a label: {sorted({x for x in labels if labels.count(x) > 1})}; "
                        "give each its own with LABEL=PATH")
    options = {"seed": args.seed, "n_permutations": args.n_permutations, "n_resamples": args.n_resamples,
               "progress": _progress(args), "min_words": args.min_words, "min_fraction": args.min_coverage,
               "common_vocabulary": args.common_vocabulary}
    if args.lists is not None:
        if args.no_ube:
            raise _RunError("--no-ube applies to the report's battery; with --lists no UBE run is made")
        options["lists"] = _user_lists(args.lists, "compare")
    else:
        options["ube"] = not args.no_ube
    out = _out_dir(args.out)
    loaded = {lab: _load(name, args) for lab, name in zip(labels, names)}
    frame = compare.compare(loaded, **options)
    written = _write_outputs(frame, out, "wordbias compare: " + ", ".join(labels), heatmap=True)
    return _finish(frame, written, args)


def _wrap(words, width: int = 100, limit: int = 60) -> str:
    words = list(words)
    text = " ".join(words[:limit]) + (f" ... ({len(words) - limit} more)" if len(words) > limit else "")
    return textwrap.fill(text, width=width, initial_indent="      ", subsequent_indent="      ")


def _print_sets(rows) -> None:
    """Print a battery's sets grouped by test (rows: dicts with test, title, set, set_name, words, note)."""
    last = None
    for r in rows:
        if r["test"] != last:
            print(f"\n{r['test']}: {r['title']}")
            last = r["test"]
        print(f"  {r['set']}  {r['set_name']} ({len(r['words'])} words)"
              + (f"  [{r['note']}]" if isinstance(r.get("note"), str) and r["note"] else ""))
        if r["words"]:
            print(_wrap(r["words"]))


def _cmd_lists(args) -> int:
    from wordbias.datasets import user_lists

    if args.template:
        if args.name:
            raise _RunError("give either NAME or --template, not both")
        print(f"# wordbias word-list template: {user_lists.TEMPLATE}")
        print(user_lists.TEMPLATE.read_text(encoding="utf-8"), end="")
        return 0
    if args.name is None:
        table = user_lists.batteries()
        for _, r in table.iterrows():
            print(f"{r['name']}  ({r['n_tests']} tests or lists)")
            print(textwrap.fill(r["contents"], width=100, initial_indent="  ", subsequent_indent="  "))
            print(textwrap.fill("citation: " + r["citation"], width=100, initial_indent="  ",
                                subsequent_indent="    "))
            print()
        print("Your own lists: `wordbias lists --template > my_lists.yaml`, edit, then "
              "`wordbias weat EMBEDDING --lists my_lists.yaml --out DIR`.")
        return 0
    if args.name in user_lists.BATTERIES:
        table = user_lists.battery_words(args.name, variant=args.variant)
        citation = user_lists.batteries().set_index("name").loc[args.name, "citation"]
        print(f"{args.name}" + (f" (variant {args.variant})" if args.name == "caliskan2017" else ""))
        print(textwrap.fill("citation: " + citation, width=100, subsequent_indent="  "))
        _print_sets(table.to_dict("records"))
        return 0
    path = Path(args.name)
    if path.suffix.lower() in (".yaml", ".yml") or path.exists():
        lists = user_lists.read_user_lists(path)
        print(f"{path}: battery {lists.battery!r}, {len(lists.weat)} WEAT(s), {len(lists.wefat)} WEFAT(s): valid")
        if lists.citation:
            print(textwrap.fill("citation: " + lists.citation, width=100, subsequent_indent="  "))
        rows = []
        for s in lists.weat:
            rows += [{"test": s.id, "title": s.title, "set": r, "set_name": s.names[r], "words": getattr(s, r)}
                     for r in ("X", "Y", "A", "B")]
        for s in lists.wefat:
            rows += [{"test": s.id, "title": s.title, "set": r, "set_name": r, "words": getattr(s, r),
                      "note": f"property: {s.property.name}" if r == "W" else None} for r in ("W", "A", "B")]
        _print_sets(rows)
        return 0
    raise _RunError(f"unknown battery {args.name!r}; shipped: {', '.join(user_lists.BATTERIES)} "
                    "(or give the path of your YAML lists)")


def _cmd_cache(args) -> int:
    from wordbias.embeddings import cache

    if args.action == "list":
        if args.names or args.all:
            raise _RunError("`wordbias cache list` takes no names and no --all")
        table = cache.list_caches(args.cache_dir)
        if not args.quiet:
            print(f"caches under {cache.cache_root(args.cache_dir)}:")
            if table.empty:
                print("(none)")
            else:
                shown = table.assign(MB=(table["bytes"] / 2**20).round(1)).drop(columns=["bytes", "folder"])
                print(shown.to_string(index=False))
            others = cache.foreign_folders(args.cache_dir)
            if others:
                print(f"({len(others)} other folder(s) there are not wordbias caches and are never cleared)")
        return 0
    if bool(args.names) == bool(args.all):
        raise _RunError("`wordbias cache clear` needs cache names or --all (not both)")
    removed = cache.clear_caches(None if args.all else args.names, cache_dir=args.cache_dir)
    missing = [n for n in args.names if not any(p.name == n or p.name.startswith(n + "-") for p in removed)]
    if not args.quiet:
        for p in removed:
            print(f"removed {p}")
        if not removed:
            print("nothing removed")
        kept = cache.foreign_folders(args.cache_dir)
        if kept and removed:
            print(f"kept {len(kept)} folder(s) that wordbias did not write: "
                  + ", ".join(p.name for p in kept[:10]) + (", ..." if len(kept) > 10 else ""))
    if missing and not removed:
        raise _RunError(f"no cache named {missing} under {cache.cache_root(args.cache_dir)} "
                        "(see `wordbias cache list`)")
    others = cache.foreign_folders(args.cache_dir)
    if args.all and not removed and others:
        raise _RunError(f"{cache.cache_root(args.cache_dir)} holds no wordbias cache; its {len(others)} other "
                        "folder(s) were left alone: is it the cache folder? (see `wordbias cache list`)")
    return 0


def _cmd_embeddings(args) -> int:
    from wordbias import embeddings

    table = embeddings.available()
    if args.name is not None:
        if args.name not in embeddings.REGISTRY:
            raise _RunError(embeddings.unknown_name_message(args.name))
        spec, row = embeddings.REGISTRY[args.name], table.set_index("name").loc[args.name]
        print(f"{spec.name}: {spec.description}")
        print(f"  format {spec.format}, {spec.n_words:,} words x {spec.dim} dimensions, "
              f"{'cased' if spec.cased else 'uncased'}" if spec.n_words else
              f"  format {spec.format}, {spec.dim} dimensions, {'cased' if spec.cased else 'uncased'}")
        print(f"  on this machine: {'yes, ' + str(row['path']) if row['available'] else 'no'}"
              + (" (cached)" if row["cached"] else ""))
        if not row["available"]:
            print(f"  get it from {spec.url} and put {' or '.join(spec.files)} in {row['folder']}")
        print(textwrap.fill("citation: " + spec.citation, width=100, initial_indent="  ", subsequent_indent="    "))
        return 0
    for _, r in table.iterrows():
        spec = embeddings.REGISTRY[r["name"]]
        size = f"{spec.n_words:,} x {spec.dim}" if spec.n_words else f"{spec.dim}d"
        print(f"{r['name']:<32} {'here' if r['available'] else 'absent':<7} {size:<16} {spec.format}")
    print(f"\n{int(table['available'].sum())} of {len(table)} on this machine; `wordbias embeddings NAME` for "
          "one (where to get it, its citation). Any other embedding: give its path.")
    return 0


def _cmd_contextual(args) -> int:
    from wordbias.battery import contextual
    from wordbias.datasets import user_lists

    specs, battery = None, None
    if args.lists is not None:
        lists = user_lists.read_user_lists(args.lists)
        if not lists.weat:
            raise _RunError(f"{args.lists} has no WEATs (a 'weat' list); `wordbias contextual` runs WEATs")
        specs, battery = list(lists.weat), f"user:{lists.battery}"
    elif args.templates:
        raise _RunError("--template applies to --lists; the paper's categories use the paper's templates")
    out = _out_dir(args.out)
    frame = contextual.report(args.model, label=args.label, specs=specs,
                              templates=tuple(args.templates or contextual.DEFAULT_TEMPLATES), battery=battery,
                              seed=args.seed, n_permutations=args.n_permutations, n_resamples=args.n_resamples,
                              device=args.device, progress=_progress(args))
    written = _write_outputs(frame, out, f"wordbias contextual on {frame['embedding'].iloc[0]}")
    return _finish(frame, written, args)


_COMMANDS = {"weat": _cmd_weat, "report": _cmd_report, "compare": _cmd_compare, "contextual": _cmd_contextual,
             "lists": _cmd_lists, "cache": _cmd_cache, "embeddings": _cmd_embeddings}


def _one_line(text: str) -> str:
    """``text`` on one line (its lines stripped and joined by spaces)."""
    return " ".join(line.strip() for line in str(text).splitlines() if line.strip())


def _message(exc: BaseException) -> str:
    """An error as the one line the command prints (a ``KeyError``'s key without quotes)."""
    msg = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return _one_line(msg) or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """Run the ``wordbias`` command with ``argv`` (default ``sys.argv[1:]``) and return the exit status:
    0 done, 1 the run failed (``wordbias: error: ...`` on stderr, one line: a bad ``--out``, a full disk, a
    missing file...), 2 a usage error (argparse's message), 3 (:data:`EXIT_NOT_RUN`) the outputs were written
    but some tests were not run or ran only in part (``wordbias: not run: ...`` / ``wordbias: run in part:
    ...`` on stderr, one line each, with the reason).

    Examples
    --------
    >>> main(["lists", "no-such-battery"])
    1
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # --help, --version (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():
            if args.quiet:
                warnings.simplefilter("ignore", category=FutureWarning)
            return _COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print("wordbias: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:            # stdout closed early (`wordbias lists | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)   # as the Python docs advise (signal module, SIGPIPE)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except ModuleNotFoundError as exc:
        if args.debug:
            traceback.print_exc()
        name = exc.name or ""
        hint = (" (this command needs the battery modules of this version of wordbias)"
                if name.startswith("wordbias") else "")
        print(f"wordbias: error: {_message(exc)}{hint}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the command's boundary: one line, or the traceback with --debug
        if args.debug:
            traceback.print_exc()
        print(f"wordbias: error: {_message(exc)}", file=sys.stderr)
        return 1
