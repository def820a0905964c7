"""Fuzzing the commands that write or train: ``train``, ``seat``, ``debias``, ``compare`` over an ensemble, and
the output writer every command shares, on tiny files only.

The property is that of :mod:`test_fuzz_cli` (an int exit status, no traceback, a message with every nonzero
status), and three more for what a command writes:

- **nothing of the user's is lost**: every run happens beside a folder of the user's own files (and, for some
  runs, inside one, or through a symbolic link to one); each of those files is byte for byte what it was;
- **every written cell is safe to open**: no cell of a CSV the command wrote starts with ``=``, ``+``, ``-``,
  ``@``, a tab or a carriage return unless it reads as a number (a spreadsheet would run it as a formula);
- **every page escapes its strings**: no HTML page the command wrote holds a payload string unescaped.

Labels, test ids and file names are drawn from :data:`PAYLOADS` (script tags, formulas, ``/``, ``$...$``).
"""
from __future__ import annotations

import atexit
import contextlib
import csv
import io
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import strategies as fz
from hypothesis import event, given, note
from hypothesis import strategies as st

from wordbias import cli

#: strings a user (or an attacker) can put where a label, a test id or a file name goes
PAYLOADS = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', '=HYPERLINK("http://x.test","y")',
            "+cmd|' /C calc'!A0", "@SUM(A1)", "-2+3", "=1+2", "a/b", "$\\alpha$", "50% & <wbx>", "\tTAB", "plain")

TINY = "\n".join(f"{w} {x:.2f} {y:.2f} {z:.2f}" for w, (x, y, z) in {
    "rose": (1, .1, .2), "tulip": (.9, .3, .1), "lily": (.8, .2, .3), "ant": (.1, 1, .2), "wasp": (.2, .8, .1),
    "moth": (.3, .9, .2), "love": (1, 0, .1), "joy": (.9, .1, .1), "hate": (0, 1, .1), "ugly": (.1, .9, .2),
}.items()) + "\n"


def lists_yaml(test_id: str, title: str) -> str:
    quote = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'   # noqa: E731
    return (f"weat:\n  - id: {quote(test_id)}\n    title: {quote(title)}\n"
            "    targets: {X: [rose, tulip, lily], Y: [ant, wasp, moth]}\n"
            "    attributes: {A: [love, joy], B: [hate, ugly]}\n")


SEAT_LISTS = """seat:
  - id: flowers
    targets:
      X: ["This is a rose.", "A tulip is here.", "That is a lily."]
      Y: ["This is an ant.", "A wasp is here.", "That is a moth."]
    attributes:
      A: ["This is love.", "Joy is here."]
      B: ["This is hate.", "Ugly is here."]
"""

#: a corpus of 400 short documents where flowers go with pleasant words and insects with unpleasant ones
CORPUS = "\n".join(" ".join(words) for words in (
    [["rose", "tulip", "lily"][i % 3], "is", ["love", "joy"][i % 2], "and", "the", "garden", "grows"]
    if i % 2 else [["ant", "wasp", "moth"][i % 3], "is", ["hate", "ugly"][i % 2], "and", "the", "field", "bites"]
    for i in range(400))) + "\n"

USER_FILES = {"notes.md": "# my notes\n", "summary.html": "<p>my own page</p>\n", "forest.png": "my figure",
              "tidy.csv": "mine,1\n", "sub/keep.txt": "keep me\n", "manifest.json": "{}\n"}


def users_folder(root: Path) -> Path:
    """A folder of the user's own files, some named like the files a command writes."""
    folder = root / "users"
    for rel, text in USER_FILES.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_survived(folder: Path, before: dict[str, bytes]) -> None:
    """Every file of ``before`` (a :func:`snapshot`) still in ``folder``, byte for byte."""
    after = snapshot(folder)
    lost = sorted(k for k in before if after.get(k) != before[k])
    assert not lost, f"the user's files changed or gone: {lost}"


def run(argv: list[str]) -> tuple[int, str]:
    """``cli.main(argv)`` under the property of the command line, from an empty working folder that must stay
    empty (an empty path option must not mean "here"); its exit status and stderr."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as cwd, contextlib.chdir(cwd):
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status, code = fz.outcome(cli.main, argv)
        left = sorted(os.listdir(cwd))
    assert not left, f"the command wrote into the working folder: {left}"
    err = stderr.getvalue()
    note(f"argv: {argv!r}\nexit {code!r}\nstderr: {err[-2000:]}")
    assert status == "ok"
    assert isinstance(code, int) and not isinstance(code, bool) and 0 <= code <= 255, code
    assert "Traceback (most recent call last)" not in err, err
    if code != 0:
        assert err.strip(), "a nonzero exit status without a message on stderr"
        if code == 1:
            assert "wordbias: error: " in err, err
    event(f"{argv[0]}: exit {code}")
    return code, err


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def check_written(folder: Path) -> None:
    """Every CSV cell under ``folder`` safe to open in a spreadsheet; every HTML page free of raw payloads."""
    if not folder.is_dir():
        return
    for path in folder.rglob("*.csv"):
        with open(path, newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    assert not (cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not _is_number(cell)), \
                        f"{path.name}: a cell a spreadsheet would run as a formula: {cell!r}"
    for path in folder.rglob("*.html"):
        page = path.read_text(encoding="utf-8")
        for payload in ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<wbx>"):
            assert payload not in page, f"{path.name} holds {payload!r} unescaped"


def out_target(draw, tmp: Path, users: Path) -> str:
    """Where ``--out`` points: a new folder, a nested one, the user's folder, a link to it, an empty string."""
    kind = draw(st.sampled_from(["new"] * 5 + ["nested", "users", "link", "empty", "blank"]))
    if kind == "link":
        link = tmp / "link-to-users"
        if not link.exists():
            link.symlink_to(users, target_is_directory=True)
        return str(link)
    return {"new": str(tmp / "out"), "nested": str(tmp / "o" / "p"), "users": str(users), "empty": "",
            "blank": " "}[kind]


# ------------------------------------------------------------------------------------------------------------
# the output writer: weat with payload labels and test ids, into new, reused, users' and linked folders
# ------------------------------------------------------------------------------------------------------------

@fz.fuzz(12)
@given(data=st.data())
def test_output_writer(data):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        users = users_folder(tmp)
        before = snapshot(users)
        test_id = data.draw(st.sampled_from(["flowers", "t1", "a-b"]), label="id")
        title = data.draw(st.sampled_from(PAYLOADS), label="title")
        (tmp / "lists.yaml").write_text(lists_yaml(test_id, title), encoding="utf-8")
        name = data.draw(st.sampled_from(["tiny.txt", "=1+2.txt", "@x.txt", "-e.txt", "+a.txt", "$a$.txt"]),
                         label="file")
        (tmp / name).write_text(TINY, encoding="utf-8")
        out = out_target(data.draw, tmp, users)
        argv = ["weat", str(tmp / name), "--lists", str(tmp / "lists.yaml"), "--out", out,
                "--cache-dir", str(tmp / "cache"), "--n-permutations", "200", "--n-resamples", "20", "--quiet"]
        if data.draw(st.booleans()):
            argv += ["--label", data.draw(st.sampled_from(PAYLOADS), label="label")]
        code, _ = run(argv)
        if code in (0, 3) and out.strip() and data.draw(st.booleans(), label="rerun"):
            if data.draw(st.booleans(), label="user edits tidy.csv") and (Path(out) / "tidy.csv").exists():
                (Path(out) / "tidy.csv").write_text("my edits\n", encoding="utf-8")
                edited = snapshot(Path(out))
                run(argv)
                after = snapshot(Path(out))
                assert after.get("tidy.csv") == edited["tidy.csv"], "a rerun replaced the user's edited tidy.csv"
            else:
                assert run(argv)[0] == code, "a rerun into its own folder ended otherwise"
        if out.strip():
            check_written(Path(out))
        assert_survived(users, before)


# ------------------------------------------------------------------------------------------------------------
# train: encodings, sizes, paths, an earlier ensemble
# ------------------------------------------------------------------------------------------------------------

ENCODINGS = st.sampled_from(["utf-8", "utf-8", "UTF8", "latin-1", "utf-16", "utf-32", "ascii", "rot13", "base64",
                             "hex", "zlib", "", " ", "nope", "utf-8-sig"])
SIZES = st.sampled_from(["1", "2", "8", "0", "-1", "", "abc", "1e3", "2000000000", "100000000", "10**12"])


@fz.fuzz(12)
@given(data=st.data())
def test_train(data):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        users = users_folder(tmp)
        before = snapshot(users)
        corpus_encoding = data.draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]), label="file encoding")
        (tmp / "corpus.txt").write_bytes(CORPUS.encode(corpus_encoding))
        out = out_target(data.draw, tmp, users)
        argv = ["train", str(tmp / "corpus.txt"), "--out", out, "--cache-dir", str(tmp / "cache"), "--quiet",
                "--dim", "8", "--epochs", "1", "--min-count", "1", "--workers", "1"]
        for opt, values in (("--encoding", ENCODINGS), ("--seeds", SIZES), ("--dim", SIZES), ("--epochs", SIZES),
                            ("--window", SIZES)):
            if data.draw(st.integers(0, 5), label=f"{opt}?") == 0:
                argv += [opt, data.draw(values, label=opt)]
        if data.draw(st.integers(0, 8), label="empty cache dir?") == 0:
            argv += ["--cache-dir", data.draw(st.sampled_from(["", " "]))]
        code, err = run(argv)
        if code == 0:
            enc = argv[len(argv) - argv[::-1].index("--encoding")] if "--encoding" in argv else "utf-8"
            # the corpus is ASCII: as UTF-8 or Latin-1 its bytes are the same; only UTF-16 reads a UTF-16 file
            assert (corpus_encoding == "utf-16") == (enc.lower().replace("-", "") == "utf16"), \
                f"trained on a {corpus_encoding} corpus read as {enc!r} and exited 0"
        assert_survived(users, before)


@lru_cache(maxsize=1)
def _ensemble(root: str) -> Path:
    """Two training runs of the tiny corpus (trained once per test session)."""
    root = Path(root)
    (root / "corpus.txt").write_text(CORPUS, encoding="utf-8")
    code = cli.main(["train", str(root / "corpus.txt"), "--out", str(root / "runs"), "--seeds", "2", "--dim", "8",
                     "--epochs", "1", "--min-count", "1", "--workers", "1", "--quiet",
                     "--cache-dir", str(root / "cache")])
    assert code == 0, code
    return root / "runs"


_ENSEMBLE_ROOT = tempfile.mkdtemp(prefix="wb-fuzz-ensemble-")
atexit.register(shutil.rmtree, _ENSEMBLE_ROOT, ignore_errors=True)     # a folder this module made


@fz.fuzz(6)
@given(data=st.data())
def test_compare_ensembles(data):
    runs = _ensemble(_ENSEMBLE_ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        users = users_folder(tmp)
        before = snapshot(users)
        (tmp / "a").mkdir()
        (tmp / "b").mkdir()
        (tmp / "a" / "vectors.txt").write_text(TINY, encoding="utf-8")
        (tmp / "b" / "vectors.txt").write_text(TINY.replace("1.00", "0.95"), encoding="utf-8")
        (tmp / "lists.yaml").write_text(lists_yaml("flowers", data.draw(st.sampled_from(PAYLOADS))), "utf-8")
        picks = data.draw(st.lists(st.sampled_from(["ensemble", "a", "b", "labelled"]), min_size=2, max_size=3,
                                   unique=True))
        embeddings = []
        for pick in picks:
            if pick == "ensemble":
                embeddings.append(str(runs))
            elif pick == "labelled":
                embeddings.append(f"{data.draw(st.sampled_from(PAYLOADS), label='label')}={tmp / 'a' / 'vectors.txt'}")
            else:
                embeddings.append(str(tmp / pick / "vectors.txt"))
        out = out_target(data.draw, tmp, users)
        argv = ["compare", *embeddings, "--lists", str(tmp / "lists.yaml"), "--out", out, "--quiet",
                "--cache-dir", str(tmp / "cache"), "--n-permutations", "200", "--n-resamples", "20", "--workers", "1"]
        code, err = run(argv)
        if code == 0 and out.strip():
            tidy = Path(out) / "tidy.csv"
            if tidy.exists():
                with open(tidy, newline="", encoding="utf-8") as fh:
                    rows = list(csv.DictReader(fh))
                assert all(r.get("effect_size") not in ("", "NA") for r in rows), \
                    "a test that did not run went unreported (exit 0)"
        if out.strip():
            check_written(Path(out))
        assert_survived(users, before)


# ------------------------------------------------------------------------------------------------------------
# seat and debias: options and patterns
# ------------------------------------------------------------------------------------------------------------

@fz.fuzz(8)
@given(data=st.data())
def test_seat(data):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "tiny.txt").write_text(TINY, encoding="utf-8")
        (tmp / "sentences.yaml").write_text(SEAT_LISTS, encoding="utf-8")
        argv = ["seat", str(tmp / "tiny.txt"), "--out", str(tmp / "out"), "--cache-dir", str(tmp / "cache"),
                "--n-permutations", "200", "--n-resamples", "20", "--quiet"]
        patterns = [data.draw(st.sampled_from(["", " ", ",", "weat6", "sent-weat6", "nope*", "weat6,", ",,"]),
                              label="--tests") for _ in range(data.draw(st.integers(0, 2)))]
        for pattern in patterns:
            argv += ["--tests", pattern]
        if not patterns or data.draw(st.booleans()):      # never all 46 shipped tests: they take a minute
            argv += ["--lists", str(tmp / "sentences.yaml")]
        if data.draw(st.integers(0, 3)) == 0:
            argv += ["--label", data.draw(st.sampled_from(PAYLOADS))]
        if data.draw(st.integers(0, 4)) == 0:
            argv += ["--pooling", data.draw(st.sampled_from(["cbow", "mean", "cls"]))]
        code, err = run(argv)
        if any(not p.strip(" ,") for p in patterns):
            assert code not in (0, 3), f"an empty --tests pattern {patterns!r} ran tests"
        check_written(tmp / "out")


@fz.fuzz(6)
@given(data=st.data())
def test_debias(data):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        users = users_folder(tmp)
        before = snapshot(users)
        (tmp / "tiny.txt").write_text(TINY, encoding="utf-8")
        out = out_target(data.draw, tmp, users)
        argv = ["debias", str(tmp / "tiny.txt"), "--out", out, "--cache-dir", str(tmp / "cache"), "--no-checks",
                "--quiet"]
        for _ in range(data.draw(st.integers(0, 2))):
            argv += ["--method", data.draw(st.sampled_from(["hard", "double-hard", "inlp", "leace", "x", ""]))]
        if data.draw(st.integers(0, 3)) == 0:
            argv += ["--inlp-iterations", data.draw(SIZES)]
        if data.draw(st.integers(0, 3)) == 0:
            argv += ["--restrict-vocab", data.draw(SIZES)]
        run(argv)
        assert_survived(users, before)
        assert not os.path.exists(Path.cwd() / "tiny+hard.bin")
