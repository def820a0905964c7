"""The arguments of the ``wordbias`` command: its subcommands and their options (:func:`build_parser`)."""

from __future__ import annotations

import argparse

PROG = "wordbias"
#: the defaults of ``--min-words`` and ``--min-coverage``: :data:`wordbias.core.tidy.MIN_WORDS` and
#: :data:`wordbias.core.tidy.MIN_FRACTION`, written out so that building the parser imports no pandas (the
#: command's ``--help`` and ``--version`` import argparse alone); tests/test_cli_startup.py checks they agree
MIN_WORDS, MIN_FRACTION = 4, 0.5

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
  wordbias train brown --seeds 10 --bootstrap 10 --out runs/brown
                                                   an ensemble of word2vec runs on the Brown corpus
  wordbias weat runs/brown --out out/brown         the WEATs on every run, combined over the runs
  wordbias train brown --seeds 3 --swap-rate 0,0.25,0.5,0.75,1 --out runs/ladder
                                                   a ladder of planted gender bias (one ensemble per swap rate)
  wordbias validity runs/ladder --out out/ladder   which static measure finds the planted bias, how reliably
  wordbias contextual bert-base-uncased --out out/bert
                                                   Kurita et al.'s contextual WEAT and log-probability test
  wordbias seat all-minilm-l6-v2 --out out/seat    May et al.'s SEATs on a sentence encoder
  wordbias lm smollm2-135m --out out/smollm2       CrowS-Pairs on a causal language model from its PyPI wheel
  wordbias debias glove-6b-50d --method inlp --out out/inlp
                                                   debias (hard, double-hard, inlp, leace) + what each left
  wordbias cache list                              the converted embedding caches (and `cache clear`)
  wordbias embeddings                              the registered embeddings, whether each is on this machine
  wordbias grade submissions --out grades.csv      a class's lesson notebooks executed and graded

EMBEDDING is a registered name (`wordbias embeddings`) or a path to a word2vec (text or binary), GloVe or
fastText .vec file (plain, .gz or .zip) or a file gensim saved (.kv, .model), or an ensemble (the folder or
manifest.json of `wordbias train`: every run measured, each test combined over the runs); LABEL=PATH names it
in compare.
Results: DIR/tidy.csv (one row per test: effect size, 95% interval, p one- and two-sided with their method,
Holm and Benjamini-Hochberg adjusted p, the words dropped), DIR/summary.html, figures. Exit status: 0 ok, 1 the run failed, 2 usage error, 3 some tests
were not run or ran only in part (outputs written; each such test and why on stderr, and in the note column
of tidy.csv).
"""


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


def _path(text: str) -> str:
    """A path option's value (or a positional naming a file, folder, embedding or battery): refused when empty
    or blank (an unset shell variable: ``--cache-dir "$CACHE"`` would otherwise mean the current folder), by
    :func:`wordbias.core.paths.given_path`; returned as given."""
    from wordbias.core.errors import InvalidParameterError
    from wordbias.core.paths import given_path

    try:
        given_path(text, "the value")
    except InvalidParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


_path.__name__ = "path"
#: the options and positionals whose value is a path, or a name standing for one (checked by :func:`_path`)
_PATH_DESTS = frozenset({"out", "cache_dir", "lists", "embedding", "embeddings", "corpus", "model", "name", "names",
                         "ladder"})


def _check_paths(parser: argparse.ArgumentParser) -> None:
    """Give every path option of ``parser`` and of its subcommands the type :func:`_path`."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _check_paths(sub)
        elif action.dest in _PATH_DESTS and action.type is None and action.nargs != 0:
            action.type = _path


def _patterns(text: str) -> str:
    """A comma-separated list of names or glob patterns (``--tests weat6,sent-*``): refused when it or one of its
    items is empty or blank (``--tests ''``, ``--tests 'weat6,'``: an unset shell variable would otherwise select
    everything, or be dropped)."""
    items = text.split(",")
    if not text.strip() or any(not item.strip() for item in items):
        where = "" if not text.strip() else f" (item {next(i for i, t in enumerate(items, 1) if not t.strip())})"
        raise argparse.ArgumentTypeError(f"an empty name or pattern in {text!r}{where}: give names or glob "
                                         "patterns separated by commas, e.g. weat6,sent-* (an unset shell variable "
                                         "gives an empty value)")
    return text


_patterns.__name__ = "patterns"


def _pattern(text: str) -> str:
    """One name or glob pattern (``--select '19[4-6]*'``): refused when empty or blank."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"an empty pattern ({text!r}): give a document id or a glob pattern, "
                                         "e.g. '19[4-6]*' (an unset shell variable gives an empty value)")
    return text


_pattern.__name__ = "pattern"


def _encoding(text: str) -> str:
    """A text encoding (:func:`wordbias.datasets.corpora.check_encoding`: not ``rot13``, ``base64``, ...)."""
    from wordbias.core.errors import InvalidParameterError
    from wordbias.datasets.corpora import check_encoding

    try:
        return check_encoding(text, "the encoding")
    except InvalidParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


_encoding.__name__ = "encoding"


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


def _basic() -> argparse.ArgumentParser:
    """The options of a command that measures nothing (``train``): the seed, quiet, debug."""
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("common options")
    g.add_argument("--seed", type=_nonnegative, default=0,
                   help="the ensemble's seed: run seed-i trains with seed SEED + i (default 0)")
    g.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no summary on stdout")
    g.add_argument("--debug", action="store_true", help="show the traceback of an error")
    return p


def _trust_option(p: argparse.ArgumentParser) -> None:
    """``--trust-pickle``: open a file gensim saved with gensim's own loader (``embeddings.load(trust=True)``)."""
    p.add_argument("--trust-pickle", action="store_true",
                   help="open a file gensim saved (.kv, .model: a Python pickle) with gensim's own loader, which "
                        "runs any code the file holds: only for a file you made or trust. Without it such a file "
                        "is opened by a restricted unpickler that refuses anything but a gensim embedding or model")


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for tidy.csv, summary.html and figures: a new or empty folder, or one wordbias "
                        "wrote into (created; a folder of yours holding other files is refused unless --force; "
                        "never the checkout's root, ~ or /, nor inside the package, data/, results/ or figures/)")
    p.add_argument("--force", action="store_true",
                   help="write into --out even if it is a folder of yours holding other files, and replace any "
                        "file there named like one the command writes (tidy.csv, summary.html, the figures) that "
                        "wordbias did not write or that you changed; your other files are left alone")
    p.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="folder for the converted embedding caches (default: WORDBIAS_CACHE, else the "
                        "per-user cache folder; see `wordbias cache list`)")
    command = p.prog.split()[-1]
    if command not in ("contextual", "lm"):  # a model's weights are read from safetensors only; never a pickle
        _trust_option(p)
    if command not in ("weat", "report", "compare"):
        return
    g = p.add_argument_group("ensembles (several training runs: `wordbias train`)")
    g.add_argument("--workers", type=_positive(1), default=None, metavar="N",
                   help="processes over the runs of an ensemble (or the embeddings of compare; default: every "
                        "CPU for an ensemble, 1 for compare)")
    g.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the runs on a Dask cluster, e.g. tcp://host:8786 (pip install \"wordbias[dask]\"); "
                        "the ensemble's folder must be readable there")
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
    g.add_argument("--min-words", type=_nonnegative, default=MIN_WORDS, metavar="N",
                   help=f"flag a test (low_coverage in tidy.csv, ! in the table, a note) when a set keeps fewer "
                        f"than N of its words (default {MIN_WORDS}: with 3 words a side a WEAT's smallest "
                        "p is 1/C(6,3) = 0.05; 0 turns the rule off)")
    g.add_argument("--min-coverage", type=fraction, default=MIN_FRACTION, metavar="FRACTION",
                   help=f"flag a test when a set keeps less than FRACTION of its list (default "
                        f"{MIN_FRACTION}: past half the list missing, the test measures what the surviving "
                        "words share; 0 turns the rule off)")
    if command == "compare":
        g.add_argument("--common-vocabulary", action="store_true",
                       help="measure every embedding on the words all of them have (each set of each test "
                            "restricted to the words present in every embedding; UBE is not restricted)")


def _lm_options(p: argparse.ArgumentParser) -> None:
    """``wordbias lm``'s BEC-Pro options and its jobs (several models, several specifications). The values are
    checked by the command (:mod:`wordbias.cli.lm`), which names the option it refuses."""
    g = p.add_argument_group("bec-pro")
    g.add_argument("--language", nargs="+", metavar="LANG",
                   help="the sentences' languages: en, de or both (default en)")
    g.add_argument("--columns", nargs="+", metavar="COLUMN",
                   help="the shares of women correlated with: US and DE (BEC-Pro's), BLS (Winogender's, for the 12 "
                        "professions it names) (default all three)")
    g.add_argument("--persons", metavar="WHICH",
                   help="pronouns (default: He/She, Er/Sie, 600 sentences a language) or all (the 18 person words, "
                        "5,400)")
    g = p.add_argument_group("jobs (one per model and convention or language)")
    g.add_argument("--workers", type=_positive(1), default=1, metavar="N",
                   help="local processes over the jobs (default 1: one after another in this process)")
    g.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run the jobs on a Dask cluster, e.g. tcp://host:8786 (pip install \"wordbias[dask]\"); "
                        "the model folders and the cache must be readable there")


def _balance_option(p, more: str = "") -> None:
    """``--balance``: how a WEAT-like test treats target sets of unequal size (``Words(balance_targets=...)``)."""
    p.add_argument("--balance", choices=["random", "none"], default="random",
                   help="target sets of unequal size: random (default; Caliskan et al.'s rule) deletes words of "
                        f"the larger set at random, seeded by --seed{more}; none keeps both sets whole")


def _validity_parser(sub, fmt) -> None:
    """``wordbias validity LADDER --out DIR``: its own measuring options (per run, smaller defaults than a
    single embedding's: a ladder has many runs) and the validity table's."""
    p = sub.add_parser("validity", formatter_class=fmt,
                       help="which static measure finds a planted bias: validity, reliability, power on a ladder",
                       description=_paragraph("""
                                       Measure a ladder of planted bias (`wordbias train CORPUS --swap-rate ...`)
                                       with every static measure (WEAT, SC-WEAT, WEFAT, the direction test, direct
                                       bias, RIPA, ECT, RND, RNSB, MAC, SemAxis, indirect bias; UBE takes no gender
                                       pairs) on every run, on the pairs whose two words every run knows, and judge
                                       each measure: its validity (Spearman's rho of its value with the planted
                                       rate, or with abs(1 - 2p) for a measure blind to the sign), its test-retest
                                       reliability over seeds (ICC(A,1)), its split-half consistency over the pairs
                                       (Spearman-Brown) and its power (the share of runs its own test flags at each
                                       rate: at 0.5, where the corpus is symmetric, the false-positive rate), each
                                       with its 95% interval. Writes runs.csv (every measure on every run, with rate
                                       and run), tidy.csv (the validity table's tidy rows), validity.csv (one row
                                       per measure), rate_means.csv and the figure ladder.png/.pdf into --out, and
                                       prints the table."""),
                       epilog="examples:\n  wordbias train brown --seeds 3 --swap-rate 0,0.25,0.5,0.75,1 --out "
                              "runs/ladder\n  wordbias validity runs/ladder --out out/ladder\n"
                              "  wordbias validity runs/ladder --measures weat,ripa,semaxis --out out/three\n")
    p.add_argument("ladder", metavar="LADDER",
                   help="the folder of `wordbias train --swap-rate` (or its ladder.json)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for the tables and the figure: a new or empty folder, or one wordbias wrote into "
                        "(created; a folder of yours holding other files is refused unless --force; not inside the "
                        "ladder's folder)")
    p.add_argument("--force", action="store_true",
                   help="write into --out even if it is a folder of yours holding other files, and replace any "
                        "file there named like one the command writes (runs.csv, tidy.csv, validity.csv, "
                        "rate_means.csv, ladder.png/.pdf); your other files are left alone")
    p.add_argument("--measures", metavar="NAMES", default=None,
                   help="some of the measures, comma-separated, e.g. weat,ripa,semaxis (default: all twelve)")
    g = p.add_argument_group("measuring each run")
    g.add_argument("--n-permutations", type=_positive(1), default=1_000, metavar="N",
                   help="Monte Carlo draws of a permutation test when it cannot be counted exactly (default 1000)")
    g.add_argument("--n-resamples", type=_positive(2), default=200, metavar="N",
                   help="bootstrap resamples of each run's intervals (default 200; RNSB at most 100)")
    g.add_argument("--n-splits", type=_positive(1), default=20, metavar="N",
                   help="random splits of the pairs into halves, for the split-half consistency (default 20)")
    g.add_argument("--table-resamples", type=_positive(2), default=1_000, metavar="N",
                   help="bootstrap resamples of the validity table's intervals (default 1000)")
    g = p.add_argument_group("common options")
    g.add_argument("--seed", type=_nonnegative, default=0,
                   help="seed of every random step: the measures, the splits, the table's bootstraps (default 0)")
    g.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no table on stdout")
    g.add_argument("--debug", action="store_true", help="show the traceback of an error")


def _seconds(text: str) -> float:
    """A positive number of seconds (``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


_seconds.__name__ = "seconds"


def _grade_parser(sub, fmt) -> None:
    """``wordbias grade SUBMISSIONS --out grades.csv``: a class's lesson notebooks executed and graded."""
    p = sub.add_parser("grade", formatter_class=fmt,
                       help="execute and grade a class's lesson notebooks into a table (one row per exercise)",
                       description=_paragraph("""
                                       Grade the students' lesson notebooks of SUBMISSIONS (one folder per student,
                                       each notebook named like its lesson's file). A copy of each notebook is
                                       executed (worked solutions off, checks not strict, errors allowed, one time
                                       limit per notebook; the submissions are never written) and each exercise,
                                       a check cell of the instructor lesson found by its nbgrader grade_id, gets a
                                       row: its status (correct, wrong, unanswered, invalid, recorded, error,
                                       missing, edited, timeout, no-record), the points earned and possible, the
                                       answer given, the student's tries, whether the check cell is the lesson's
                                       (SHA-256) and the check's message. Writes the grades to --out, the points per
                                       student and lesson beside it (<stem>_totals.csv), the written answers to
                                       grade by hand (<stem>_written.csv) and the executed copies
                                       (<stem>_executed/ or --executed). Files that are no lesson notebook of a
                                       student, and check cells that failed as cells, are named on stderr."""),
                       epilog="examples:\n  wordbias grade submissions --out grades.csv\n"
                              "  wordbias grade submissions --lessons course/src --timeout 600 --jobs 2 --out "
                              "week1/grades.csv\n")
    p.add_argument("submissions", metavar="SUBMISSIONS", type=_path,
                   help="the folder of one folder per student: SUBMISSIONS/<student>/<lesson file>.ipynb")
    p.add_argument("--out", required=True, metavar="FILE.csv", type=_path,
                   help="the grades table; <stem>_totals.csv and <stem>_written.csv are written beside it (a file "
                        "of those names that wordbias did not write, or that was changed since, is refused)")
    p.add_argument("--lessons", metavar="FOLDER", type=_path, default=None,
                   help="the instructor sources (default: notebooks/lessons/src of the checkout)")
    p.add_argument("--executed", metavar="FOLDER", type=_path, default=None,
                   help="the folder for the executed copies (default: <stem>_executed beside --out): a new or "
                        "empty folder, or one this command wrote; never inside SUBMISSIONS")
    p.add_argument("--timeout", type=_seconds, default=300.0, metavar="SECONDS",
                   help="the time limit of each notebook; its kernel is killed past it and the checks not reached "
                        "are timeout (default 300)")
    p.add_argument("--kernel", default="python3", metavar="KERNEL",
                   help="the Jupyter kernel the notebooks run in (default python3: this Python's)")
    p.add_argument("--jobs", type=_positive(1), default=1, metavar="N",
                   help="notebooks executed at once, each in its own kernel (default 1: one after another)")
    g = p.add_argument_group("common options")
    g.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr and no summary on stdout")
    g.add_argument("--debug", action="store_true", help="show the traceback of an error")


def _paragraph(text: str) -> str:
    """``text`` on one line, its white space folded: a subcommand's description, written in the source as a
    wrapped paragraph (the help prints a description as it is: :class:`argparse.RawDescriptionHelpFormatter`)."""
    return " ".join(text.split())


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
                       description=_paragraph("""
                                       Run WEATs (Caliskan et al. 2017) on one embedding: d with its 95% BCa
                                       bootstrap interval, the permutation p (one- and two-sided, method named),
                                       Holm and Benjamini-Hochberg adjusted p over the battery, and every word
                                       dropped."""),
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
    _balance_option(p, "; this command names them on stderr with d over 100 balancing draws and d without "
                       "balancing")
    _run_options(p)

    p = sub.add_parser("report", parents=[common], formatter_class=fmt,
                       help="every static-embedding test of the four papers, with an HTML summary",
                       description=_paragraph("""
                                       Every test of the four papers that applies to a static embedding: Caliskan et
                                       al.'s WEATs and WEFATs, the racial report's direction tests and direct bias,
                                       RIPA on the gender pairs, and a UBE run scaled to the vocabulary; one tidy
                                       table and a one-page HTML summary with a forest plot."""),
                       epilog="example:\n  wordbias report vectors.txt --out out/report\n")
    p.add_argument("embedding", metavar="EMBEDDING", help="a registered name or a path to an embedding file")
    p.add_argument("--label", help="the embedding's name in the outputs")
    p.add_argument("--lists", metavar="FILE.yaml", help="your own word lists: their WEATs instead of the papers' "
                                                        "battery (see `wordbias lists --template`)")
    p.add_argument("--no-ube", action="store_true", help="leave out the UBE run (the slowest part)")
    _balance_option(p)
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
    _balance_option(p)
    _run_options(p)

    p = sub.add_parser("train", parents=[_basic()], formatter_class=fmt,
                       help="train word embeddings on a corpus: several seeds and bootstrap samples (an ensemble)",
                       description=_paragraph("""
                                       Train word2vec or fastText (gensim) on a corpus, N times with different seeds
                                       (--seeds) and on N bootstrap samples of its documents (--bootstrap; Antoniak
                                       & Mimno 2018), one process per run, each run cached; write the runs and a
                                       manifest (corpus checksum, tokenisation, every setting, seeds, software
                                       versions) into --out. The same command gives the same vectors. Measure the
                                       ensemble with `wordbias weat DIR`, `report DIR` or `compare DIR ...`. With
                                       --swap-rate, a ladder of planted bias: one such ensemble per rate of a
                                       counterfactual swap of gendered word pairs (DIR/rate-P/), and
                                       DIR/ladder.json."""),
                       epilog="examples:\n  wordbias train brown --seeds 10 --bootstrap 10 --out runs/brown\n"
                              "  wordbias train my_corpus/ --seeds 5 --dim 300 --out runs/mine\n"
                              "  wordbias train brown --seeds 3 --swap-rate 0,0.25,0.5,0.75,1 --out runs/ladder\n"
                              "  wordbias weat runs/brown --out out/brown\n")
    p.add_argument("corpus", metavar="CORPUS",
                   help="a shipped corpus (brown, state_union, inaugural), a text file (one document a line, or "
                        "--documents paragraphs) or a folder of text files (one document a file)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for the runs and manifest.json: a new or empty folder, or one `wordbias train` "
                        "wrote (created; the ensemble takes the folder's place as a whole, so a folder holding "
                        "other files is refused)")
    p.add_argument("--seeds", type=_nonnegative, default=1, metavar="N", help="runs with different seeds (default 1)")
    p.add_argument("--bootstrap", type=_nonnegative, default=0, metavar="N",
                   help="runs on bootstrap samples of the documents (default 0)")
    p.add_argument("--method", choices=["word2vec", "fasttext"], default="word2vec", help="default word2vec")
    p.add_argument("--architecture", choices=["skipgram", "cbow"], default="skipgram", help="default skipgram")
    p.add_argument("--dim", type=_positive(1), default=100, metavar="N", help="vector size (default 100)")
    p.add_argument("--window", type=_positive(1), default=5, metavar="N", help="context window (default 5)")
    p.add_argument("--min-count", type=_positive(1), default=5, metavar="N",
                   help="ignore words seen fewer times (default 5)")
    p.add_argument("--epochs", type=_positive(1), default=5, metavar="N", help="passes over the corpus (default 5)")
    p.add_argument("--negative", type=_positive(1), default=5, metavar="N", help="negative samples (default 5)")
    p.add_argument("--keep-case", action="store_true", help="do not lower-case the text")
    p.add_argument("--documents", choices=["lines", "paragraphs"], default=None,
                   help="how a single text file splits into documents (default lines)")
    p.add_argument("--select", action="append", metavar="PATTERN", type=_pattern,
                   help="keep only the documents whose name matches (fnmatch; repeat for several), e.g. '19[4-6]*'")
    p.add_argument("--encoding", default=None, type=_encoding,
                   help="your text files' encoding (default utf-8; e.g. latin-1, cp1252, utf-16)")
    p.add_argument("--workers", type=_positive(1), default=None, metavar="N",
                   help="processes, one run each (default: every CPU)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="train on a Dask cluster, e.g. tcp://host:8786 (pip install \"wordbias[dask]\"); the "
                        "corpus must be readable there")
    p.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="folder for the trained runs' caches (default: as loading uses)")
    g = p.add_argument_group("a planted bias (a ladder: one ensemble per rate of a counterfactual swap)")
    g.add_argument("--swap-rate", metavar="RATES", default=None,
                   help="train a ladder: at each rate (comma-separated, each in [0, 1], e.g. 0,0.25,0.5,0.75,1) the "
                        "ensemble of --seeds (and --bootstrap) runs on the corpus with that share of its sentences "
                        "swapped, each word of --swap-pairs replaced by its counterpart; writes DIR/rate-P/ (one "
                        "ensemble a rate) and DIR/ladder.json")
    g.add_argument("--swap-pairs", metavar="NAME|FILE", type=_path, default=None,
                   help="the pairs swapped: bolukbasi (default; Bolukbasi et al.'s 2016 gender pairs, 45), or a .csv "
                        "or .tsv file (a header row, then one pair a row) or a .json file (a list of pairs)")
    g.add_argument("--swap-seed", type=_nonnegative, default=None, metavar="S",
                   help="the seed that draws the sentences swapped, the same at every rate (default 0)")

    _validity_parser(sub, fmt)

    p = sub.add_parser("contextual", parents=[common], formatter_class=fmt,
                       help="Kurita et al.'s contextual WEAT and log-probability test on a model",
                       description=_paragraph("""
                                       Kurita et al. (2019) on a contextual model: WEAT on contextual vectors (any
                                       encoder) and the log-probability bias score with its attribute test (a masked
                                       language model), over the paper's five categories and templates or your own
                                       lists, with 95% intervals, one- and two-sided p and Holm/Benjamini-Hochberg
                                       adjusted p. A model without a masked-LM head gets the log-probability rows
                                       with the reason instead of numbers. Needs the contextual extra (pip install
                                       "wordbias[contextual]")."""),
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

    p = sub.add_parser("lm", parents=[common], formatter_class=fmt,
                       help="a language model's benchmarks: CrowS-Pairs, StereoSet, BEC-Pro",
                       description=_paragraph("""
                                       CrowS-Pairs (Nangia et al. 2020) on a language model: the share of pairs whose
                                       more-stereotyping sentence the model scores higher, overall, per bias type
                                       (Holm and Benjamini-Hochberg adjusted p across the nine types), per direction,
                                       with exact 95% intervals and binomial p against 0.5; the length confound; and
                                       the paired difference between the conventions. --benchmark stereoset: StereoSet
                                       (Nadeem et al. 2021) SS with its exact interval and binomial p against 50, LMS
                                       and ICAT (descriptive), per task and bias type. --benchmark bec-pro: BEC-Pro
                                       (Bartl et al. 2020), Spearman's correlation of the professions' associations
                                       with the share of women (BEC-Pro's US and German columns, Winogender's BLS),
                                       in English and German, with a bootstrap interval; by default on the
                                       pronouns' sentences (He/She, Er/Sie: Kurita et al.'s he/she pair). MODEL is a
                                       registered causal model (smollm2-135m, gemma-3-270m: pip install --no-deps -r
                                       requirements-lm.txt) or a model folder; several models are scored one job per
                                       model and specification (convention, language), in local processes
                                       (--workers) or on a Dask cluster (--scheduler), with the same numbers as one
                                       by one, and CrowS-Pairs adds the paired difference between every two models
                                       under each convention. Needs the contextual extra."""),
                       epilog="examples:\n  wordbias lm smollm2-135m --out out/smollm2\n"
                              "  wordbias lm gemma-3-270m --sample 300 --out out/gemma\n"
                              "  wordbias lm smollm2-135m --benchmark stereoset --sample 200 --out out/stereoset\n"
                              "  wordbias lm /models/bert-base-uncased --convention pll --out out/bert\n"
                              "  wordbias lm smollm2-135m gemma-3-270m --sample 300 --workers 2 --out out/both\n"
                              "  wordbias lm smollm2-135m --benchmark bec-pro --language en de --out out/bec-pro\n"
                              "  wordbias lm smollm2-135m gemma-3-270m --scheduler tcp://127.0.0.1:8786 --out out/d\n")
    p.add_argument("model", metavar="MODEL", nargs="+",
                   help="smollm2-135m, gemma-3-270m, or a model folder on this machine; several for a run over "
                        "models")
    p.add_argument("--benchmark", choices=("crows-pairs", "stereoset", "bec-pro"), default="crows-pairs",
                   help="the benchmark (default crows-pairs)")
    p.add_argument("--convention", action="append", choices=("harness", "shared-tokens", "pll"),
                   dest="conventions", help="crows-pairs only: how a sentence is scored (repeat for several; "
                                            "default harness and shared-tokens for a causal model; pll for a masked "
                                            "one)")
    p.add_argument("--sample", "--pairs", type=_positive(1), default=None, metavar="N", dest="sample",
                   help="a seeded sample (--seed) of N items, stratified: crows-pairs N pairs by bias type (at least "
                        "9; default all 1,508), stereoset N examples per task by bias type (at least 4; default "
                        "all), bec-pro N professions by group, each with all its sentences (at least 4; default "
                        "all 60)")
    p.add_argument("--batch-size", type=_positive(1), default=16, metavar="N",
                   help="sentences run through the model at once (default 16)")
    p.add_argument("--label", help="the model's name in the outputs (one model only)")
    _lm_options(p)
    _run_options(p)

    p = sub.add_parser("seat", parents=[common], formatter_class=fmt,
                       help="May et al.'s Sentence Encoder Association Tests (SEAT) on a sentence encoder",
                       description=_paragraph("""
                                       May et al. (2019) SEAT: WEAT on sentence vectors, over the authors' 46 test
                                       sets (CC BY-NC 4.0) or your own sentence sets, with 95% intervals, one- and
                                       two-sided p and Holm/Benjamini-Hochberg adjusted p. MODEL is the bundled
                                       all-minilm-l6-v2 (mean pooling), a Hugging Face id or folder (--pooling cls
                                       or mean), or a static embedding's name or file (CBoW: the mean of its word
                                       vectors)."""),
                       epilog="examples:\n  wordbias seat all-minilm-l6-v2 --tests 'sent-*' --out out/seat\n"
                              "  wordbias seat glove-6b-50d --tests weat6,sent-weat6 --out out/cbow\n"
                              "  wordbias seat /models/my-bert --pooling mean --lists my_sentences.yaml --out out/mine\n")
    p.add_argument("model", metavar="MODEL", help="all-minilm-l6-v2, a Hugging Face id or folder on this machine, "
                                                  "or a static embedding (registered name or file)")
    p.add_argument("--tests", action="append", metavar="NAMES", type=_patterns,
                   help="shipped tests, comma-separated, glob patterns allowed (e.g. 'sent-*'; repeat for more; "
                        "default: all 46)")
    p.add_argument("--lists", metavar="FILE.yaml", help="your own sentence sets (see wordbias.datasets.seat)")
    p.add_argument("--pooling", choices=("mean", "cls", "cbow"), default=None,
                   help="a transformer's sentence vector (default: its sentence-transformers configuration, else "
                        "cls); cbow: a static embedding's (the default for one)")
    p.add_argument("--batch-size", type=_positive(1), default=32, metavar="N",
                   help="sentences run through the model at once (default 32)")
    p.add_argument("--device", default=None, help="cpu, cuda, cuda:1, mps (default: a GPU if torch sees one)")
    p.add_argument("--label", help="the encoder's name in the outputs")
    _balance_option(p)
    _run_options(p)

    p = sub.add_parser("debias", parents=[_basic()], formatter_class=fmt,
                       help="debias an embedding (hard, double-hard, INLP, LEACE) and check what each left",
                       description=_paragraph("""
                                       Debias EMBEDDING with each --method: hard debias (Bolukbasi et al. 2016),
                                       double-hard debias (Wang et al. 2020), INLP (Ravfogel et al. 2020; iterations
                                       scaled to the dimension, 35 for 300d) or LEACE (Belrose et al. 2023), each
                                       with the authors' word lists. Writes each debiased embedding into --out as
                                       word2vec binary (<embedding>+<method>.bin, which `wordbias weat` and the rest
                                       read), methods.csv, and unless --no-checks the table of every method x every
                                       check (WEAT 6, direct bias, Gonen & Goldberg's clustering, classifier and
                                       bias-by-neighbours checks, analogies, WordSim-353, SimLex-999; 95% intervals)
                                       as checks.csv with its figure checks.png/.pdf. Progress goes to stderr."""),
                       epilog="examples:\n  wordbias debias glove-6b-50d --method inlp --out out/inlp\n"
                              "  wordbias debias vectors.bin --method hard --method leace --no-checks --out out/d\n")
    p.add_argument("embedding", metavar="EMBEDDING", help="a registered name or an embedding file")
    p.add_argument("--method", action="append", required=True, choices=("hard", "double-hard", "inlp", "leace"),
                   help="a debiasing method (repeat for several)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="folder for the outputs: a new or empty folder, or one wordbias created (a folder of "
                        "yours with other files is refused unless --force)")
    p.add_argument("--force", action="store_true",
                   help="write into --out even if it is a folder of yours holding other files, and replace any "
                        "file there named like one the command writes (the .bin files, methods.csv, checks.csv, "
                        "checks.png/.pdf) that wordbias did not write or that you changed")
    p.add_argument("--checks", action=argparse.BooleanOptionalAction, default=True,
                   help="measure every method x every check (default; about 10 s a method on GloVe 6B 50d)")
    p.add_argument("--n-resamples", type=_positive(10), default=1000, metavar="N",
                   help="bootstrap resamples of the checks' intervals (default 1000; the clustering's, which "
                        "refit K-means, a tenth of them)")
    p.add_argument("--restrict-vocab", type=_nonnegative, default=30_000, metavar="N",
                   help="the analogy check among the N most frequent words (default 30000, word2vec's "
                        "compute-accuracy threshold; 0: all)")
    p.add_argument("--inlp-iterations", type=_positive(1), default=None, metavar="N",
                   help="INLP's iterations (default: 35 x dimension / 300, the paper's share)")
    p.add_argument("--cache-dir", metavar="DIR", default=None,
                   help="folder for the converted embedding caches (default: as loading uses)")
    _trust_option(p)

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
    _grade_parser(sub, fmt)
    _check_paths(parser)
    return parser
