"""Fuzzing the command line, ``wordbias.cli.main(argv)``, on tiny files only.

The property (the module docstring of wordbias.cli): main returns an int exit status (0 done, 1 the run failed
with one line ``wordbias: error: ...``, 2 a usage error, others such as "some tests not run"), prints no traceback (no --debug is passed), and a nonzero status comes with
a message on stderr. Every run gets a temporary --out and --cache-dir (and WORDBIAS_CACHE is a temporary folder,
tests/conftest.py), so nothing is written outside a temporary folder.
"""
from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import strategies as fz
from hypothesis import event, given, note
from hypothesis import strategies as st

from wordbias import cli

#: a tiny GloVe text file: flowers, insects and the pleasant/unpleasant words of the lists below
TINY = "\n".join(f"{w} {x:.2f} {y:.2f} {z:.2f}" for w, (x, y, z) in {
    "rose": (1, .1, .2), "tulip": (.9, .3, .1), "lily": (.8, .2, .3), "ant": (.1, 1, .2), "wasp": (.2, .8, .1),
    "moth": (.3, .9, .2), "love": (1, 0, .1), "joy": (.9, .1, .1), "hate": (0, 1, .1), "ugly": (.1, .9, .2),
}.items()) + "\n"
LISTS = """weat:
  - id: flowers
    targets: {X: [rose, tulip, lily], Y: [ant, wasp, moth]}
    attributes: {A: [love, joy], B: [hate, ugly]}
"""

INT_TEXT = st.one_of(st.integers(0, 300).map(str), st.integers(2, 300).map(str), st.integers(-2, 300).map(str),
                    st.sampled_from(["0", "1", "2", "1e3", "abc", "", " 5", "5 ",
                                                                     "10**12", "1000000000000", "99999999999999999999",
                                                                     "-0", "0x10", "٣", "1_000", "nan", "--1"]))
TEXT = st.one_of(st.text(max_size=8), st.sampled_from(["-", "--", "-q", "--out", "/", ".", "..", "\x00", "~"]))


@st.composite
def valid_run(draw, tmp: str) -> list[str]:
    """A run that should succeed (exit 0, or "some tests not run" on the shipped battery): tiny.txt, a new
    --out, valid options; the values still vary."""
    command = draw(st.sampled_from(["weat", "weat", "weat", "report"]))
    argv = [command, str(Path(tmp) / "tiny.txt"), "--out", str(Path(tmp) / draw(st.sampled_from(["out", "o/p/q"]))),
            "--cache-dir", str(Path(tmp) / "cache")]
    if command == "weat":
        if draw(st.integers(0, 3)):
            argv += ["--lists", str(Path(tmp) / "lists.yaml")]
        else:
            argv += ["--battery", "caliskan2017", "--variant", draw(st.sampled_from(["glove", "original", "word2vec"]))]
        argv += ["--case-fold", draw(st.sampled_from(["auto", "on", "off"]))]
    else:
        argv.append("--no-ube")
    argv += ["--seed", str(draw(st.integers(0, 2 ** 64))), "--n-permutations", str(draw(st.integers(1, 500))),
             "--n-resamples", str(draw(st.integers(2, 40)))]
    if draw(st.booleans()):
        argv += ["--label", draw(TEXT.filter(lambda t: not t.startswith("-")))]
    if draw(st.booleans()):
        argv.append("--quiet")
    return argv


@st.composite
def argvs(draw, tmp: str) -> list[str]:
    if draw(st.integers(0, 2)) == 0:
        return draw(valid_run(tmp))
    out = str(Path(tmp) / draw(st.sampled_from(["out", "out/nested", "tiny.txt", "lists.yaml", ".", "bad.yaml"])))
    cache = str(Path(tmp) / draw(st.sampled_from(["cache", "cache", "tiny.txt", "nope/deeper"])))
    emb = str(Path(tmp) / draw(st.sampled_from(["tiny.txt", "tiny.txt", "tiny.txt", "missing.txt", "bad.yaml"])))
    command = draw(st.sampled_from(["weat"] * 5 + ["lists", "lists", "cache", "report", "bogus", None]))
    argv: list[str] = []
    if command == "weat":
        argv = ["weat", emb, "--out", out, "--cache-dir", cache]
        which = draw(st.sampled_from(["lists", "lists", "lists", "battery", "none", "both"]))
        if which in ("lists", "both"):
            argv += ["--lists", str(Path(tmp) / draw(st.sampled_from(["lists.yaml", "lists.yaml", "bad.yaml",
                                                                       "tiny.txt", "none.yaml"])))]
        if which in ("battery", "both"):
            argv += ["--battery", draw(st.sampled_from(["caliskan2017", "nope"]))]
        if draw(st.integers(0, 3)) == 0:
            argv += ["--variant", draw(st.sampled_from(["glove", "original", "word2vec", "x"]))]
        if draw(st.integers(0, 3)) == 0:
            argv += ["--case-fold", draw(st.sampled_from(["auto", "on", "off", "yes"]))]
        if draw(st.integers(0, 4)) == 0:
            argv += ["--label", draw(TEXT)]
    elif command == "report":
        argv = ["report", emb, "--out", out, "--cache-dir", cache, "--no-ube"]
    elif command == "lists":
        argv = ["lists"]
        name = draw(st.sampled_from([None, "caliskan2017", "kurita2019", "lists.yaml", "bad.yaml", "tiny.txt",
                                     "none.yaml", "nope", "-"]))
        if name is not None:
            argv.append(name if "." not in name else str(Path(tmp) / name))
        if draw(st.integers(0, 4)) == 0:
            argv.append("--template")
        if draw(st.integers(0, 4)) == 0:
            argv += ["--variant", draw(st.sampled_from(["glove", "original", "word2vec", "x"]))]
    elif command == "cache":
        argv = ["cache", draw(st.sampled_from(["list", "list", "clear", "show"])), "--cache-dir", cache]
        argv += draw(st.lists(st.sampled_from(["tiny-1234", "x", "--all", "..", "/"]), max_size=2))
    elif command == "bogus":
        argv = ["bogus"]
    # common options, valid and not (the numbers as a user would type them)
    if command in ("weat", "report", "lists"):
        for opt in ("--seed", "--n-permutations", "--n-resamples"):
            if draw(st.integers(0, 3)) == 0:
                argv += [opt, draw(INT_TEXT)]
        if command != "lists":
            # keep a run of the tiny battery fast when the options are valid
            if "--n-resamples" not in argv:
                argv += ["--n-resamples", "20"]
            if "--n-permutations" not in argv:
                argv += ["--n-permutations", "200"]
    if draw(st.booleans()):
        argv.append("--quiet")
    if draw(st.integers(0, 12)) == 0:
        argv.insert(draw(st.integers(0, len(argv))), draw(TEXT))       # a stray argument
    return argv


@fz.fuzz(40)
@given(data=st.data(), bad_yaml=fz.yaml_documents())
def test_cli(data, bad_yaml):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tiny.txt").write_text(TINY, encoding="utf-8")
        (Path(tmp) / "lists.yaml").write_text(LISTS, encoding="utf-8")
        (Path(tmp) / "bad.yaml").write_bytes(bad_yaml)
        argv = data.draw(argvs(tmp), label="argv")
        note(f"bad.yaml: {bad_yaml!r}")
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status, code = fz.outcome(cli.main, argv)
        err = stderr.getvalue()
        note(f"exit {code!r}\nstderr: {err[-2000:]}")
        assert status == "ok"
        assert isinstance(code, int) and not isinstance(code, bool) and 0 <= code <= 255, code
        event(f"{argv[0] if argv else '(none)'}: exit {code}")
        assert "Traceback (most recent call last)" not in err, err
        if code != 0:
            assert err.strip(), "a nonzero exit status without a message on stderr"
            if code == 1:
                assert "wordbias: error: " in err, err
