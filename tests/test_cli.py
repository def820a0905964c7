"""The `wordbias` command, run in-process through cli.main (stdout, stderr, exit status) and once as
`python -m wordbias`. End-to-end runs use tiny embeddings written to tmp_path; nothing is written in the repo."""

import pathlib
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import wordbias
from wordbias import cli
from wordbias.cli import inputs, output
from wordbias.core import paths, tidy
from wordbias.datasets import user_lists
from wordbias.measures.association import weat as weat_measure

LISTS = """\
battery: toy
weat:
  - id: flowers
    title: Flowers vs insects
    targets:
      X: {name: Flowers, words: [rose, tulip, daisy, lily]}
      Y: {name: Insects, words: [ant, wasp, flea, moth, zzzunknown]}
    attributes:
      A: {name: Pleasant, words: [love, peace, joy]}
      B: {name: Unpleasant, words: [hate, war, grief]}
"""
WORDS = ["rose", "tulip", "daisy", "lily", "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate", "war",
         "grief"] + [f"filler{i}" for i in range(20)]


def _vectors(seed=0, lean=2.0):
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(len(WORDS), 6))
    v[:4, 0] += lean       # flowers lean to pleasant
    v[8:11, 0] += 3.0      # pleasant
    v[11:14, 0] -= 3.0     # unpleasant
    return v.astype(np.float32)


def _write_w2v(path, vectors):
    lines = [f"{len(WORDS)} {vectors.shape[1]}"] + [w + " " + " ".join(f"{x:.6f}" for x in row)
                                                     for w, row in zip(WORDS, vectors)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path, monkeypatch):
    """Embedding caches go under tmp_path, never the user's cache folder."""
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def emb(tmp_path):
    return _write_w2v(tmp_path / "mine.w2v.txt", _vectors())


@pytest.fixture
def lists(tmp_path):
    path = tmp_path / "toy_lists.yaml"
    path.write_text(LISTS, encoding="utf-8")
    return path


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------------------------- basics

def test_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and out.strip() == f"wordbias {wordbias.__version__}"


def test_python_dash_m_version():
    proc = subprocess.run([sys.executable, "-m", "wordbias", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == f"wordbias {wordbias.__version__}"


def test_help_has_examples_and_commands(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for text in ("weat", "report", "compare", "lists", "examples:", "--lists my_lists.yaml", "Exit status"):
        assert text in out
    code, out, _ = run(capsys, "weat", "--help")
    assert code == 0 and "--n-permutations" in out and "--variant" in out and "--out DIR" in out


def test_every_help_page_prints_its_percent_signs_once(capsys):
    """argparse %-formats help strings but not descriptions: a description's "95%%" was printed as typed."""
    import argparse

    from wordbias.cli.parser import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert len(commands) >= 8
    for name in ["", *commands]:
        code, out, _ = run(capsys, *([name] if name else []), "--help")
        assert code == 0 and "%%" not in out and "%(" not in out, name


@pytest.mark.parametrize("command", [["seat", "all-minilm-l6-v2"], ["contextual", "all-minilm-l6-v2"]])
def test_a_missing_contextual_extra_says_how_to_install_it(capsys, monkeypatch, tmp_path, command):
    """A fresh `pip install wordbias` has no transformers: the command says which extra to install, in one line."""
    monkeypatch.setitem(sys.modules, "transformers", None)     # import transformers -> ModuleNotFoundError
    code, out, err = run(capsys, *command, "--out", str(tmp_path / "out"))
    assert code == 1 and "Traceback" not in err
    assert 'pip install "wordbias[contextual]"' in err and "transformers" in err and len(err.splitlines()) == 1


def test_no_command_is_a_usage_error(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == "" and "usage: wordbias" in err


@pytest.mark.parametrize("argv, fragment", [
    (["weat", "emb"], "the following arguments are required: --out"),
    (["weat", "emb", "--out", "o", "--seed", "-1"], "argument --seed: must be >= 0, not -1"),
    (["weat", "emb", "--out", "o", "--seed", "x"], "argument --seed: must be an integer, not 'x'"),
    (["weat", "emb", "--out", "o", "--n-resamples", "1"], "argument --n-resamples: must be >= 2, not 1"),
    (["weat", "emb", "--out", "o", "--n-permutations", "0"], "argument --n-permutations: must be >= 1"),
    (["weat", "emb", "--out", "o", "--battery", "x"], "argument --battery: invalid choice: 'x'"),
    (["weat", "emb", "--out", "o", "--battery", "caliskan2017", "--lists", "l.yaml"], "not allowed with argument"),
    (["weat", "emb", "--out", "o", "--variant", "w2v"], "argument --variant: invalid choice"),
    (["report", "--out", "o"], "the following arguments are required: EMBEDDING"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_usage_errors_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and fragment in err


def test_parse_defaults():
    args = cli.build_parser().parse_args(["compare", "a", "b", "--out", "o", "-q", "--no-ube"])
    assert (args.embeddings, args.seed, args.n_permutations, args.n_resamples, args.quiet, args.no_ube) == \
        (["a", "b"], 0, 100_000, 10_000, True, True)


# ---------------------------------------------------------------------------------------------- run errors

def test_unknown_embedding_is_one_line_exit_1(capsys, tmp_path):
    code, out, err = run(capsys, "weat", "no-such-embedding", "--out", str(tmp_path / "o"))
    assert code == 1 and out == ""
    assert err.startswith("wordbias: error: 'no-such-embedding' is neither a registered embedding name")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_debug_shows_the_traceback(capsys, tmp_path):
    code, _, err = run(capsys, "weat", "no-such-embedding", "--out", str(tmp_path / "o"), "--debug")
    assert code == 1 and "Traceback (most recent call last)" in err and "FileNotFoundError" in err
    assert err.rstrip().splitlines()[-1].startswith("wordbias: error: ")


def test_missing_lists_file_and_bad_lists(capsys, tmp_path, emb):
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(tmp_path / "nope.yaml"), "--out", str(tmp_path / "o"))
    assert code == 1 and err == f"wordbias: error: no word-list file at {tmp_path / 'nope.yaml'}\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text(LISTS.replace("[hate, war, grief]", "[hate, war, love]"))
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(bad), "--out", str(tmp_path / "o"))
    assert code == 1
    assert err == (f"wordbias: error: {bad}: test 'flowers': attributes A and B share words ['love']: a word "
                   "cannot be in both sets of a pair\n")
    # the lists are checked before anything is loaded or created
    assert not (tmp_path / "o").exists()


def test_variant_with_lists_is_refused(capsys, tmp_path, emb, lists):
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--variant", "glove", "--out", str(tmp_path))
    assert code == 1 and "--variant picks Caliskan et al.'s lists" in err


def test_out_inside_the_repository_results_is_refused(capsys, emb):
    for folder in (paths.RESULTS / "cli-test-should-not-exist", paths.FIGURES):
        code, _, err = run(capsys, "weat", str(emb), "--out", str(folder))
        assert code == 1 and "holds the committed results" in err
    assert not (paths.RESULTS / "cli-test-should-not-exist").exists()


def test_out_that_is_a_file_is_refused(capsys, tmp_path, emb):
    f = tmp_path / "file"
    f.write_text("x")
    code, _, err = run(capsys, "weat", str(emb), "--out", str(f))
    assert code == 1 and "exists and is not a folder" in err


def test_compare_same_embedding_twice(capsys, tmp_path, emb):
    code, _, err = run(capsys, "compare", str(emb), str(emb), "--out", str(tmp_path / "o"))
    assert code == 1 and "the same embedding is given twice" in err
    code, _, err = run(capsys, "compare", str(emb), "--out", str(tmp_path / "o"))
    assert code == 1 and "compare needs two or more embeddings" in err


# ---------------------------------------------------------------------------------------------- lists

def test_lists_prints_batteries_with_citations(capsys):
    code, out, err = run(capsys, "lists")
    assert code == 0 and err == ""
    for name in user_lists.BATTERIES:
        assert f"\n{name}  (" in "\n" + out
    assert "Caliskan, A., Bryson, J. J., & Narayanan, A. (2017)" in out.replace("\n    ", " ")
    assert "wordbias lists --template" in out


def test_lists_battery_prints_tests_and_words(capsys):
    code, out, _ = run(capsys, "lists", "caliskan2017", "--variant", "original")
    assert code == 0 and out.startswith("caliskan2017 (variant original)")
    assert "\nWEAT1: " in out and "X  Flowers (25 words)" in out and "aster clover hyacinth" in out
    assert "WEFAT1" in out
    code, out, _ = run(capsys, "lists", "swinger2019")
    assert code == 0 and "first names (9670 words)" in out and "more)" in out


def test_lists_template_prints_a_valid_file(capsys, tmp_path):
    code, out, _ = run(capsys, "lists", "--template")
    assert code == 0 and out.startswith(f"# wordbias word-list template: {user_lists.TEMPLATE}\n")
    copy = tmp_path / "copy.yaml"
    copy.write_text(out)
    assert [s.id for s in user_lists.load_user_lists(copy)] == ["career_family", "flowers_insects"]
    code, _, err = run(capsys, "lists", "caliskan2017", "--template")
    assert code == 1 and "not both" in err


def test_lists_checks_a_user_file(capsys, tmp_path, lists):
    code, out, _ = run(capsys, "lists", str(lists))
    assert code == 0
    assert out.startswith(f"{lists}: battery 'toy', 1 WEAT(s), 0 WEFAT(s): valid")
    assert "X  Flowers (4 words)" in out and "ant wasp flea moth zzzunknown" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("weat:\n  - id: a\n    targets: {X: [a, b}\n")
    code, out, err = run(capsys, "lists", str(bad))
    assert code == 1 and out == "" and err.startswith(f"wordbias: error: {bad}, line 3, column")


def test_lists_unknown_name(capsys):
    code, out, err = run(capsys, "lists", "nope")
    assert code == 1 and out == "" and "unknown battery 'nope'; shipped: caliskan2017" in err


# ---------------------------------------------------------------------------------------------- end to end

def test_weat_with_user_lists_end_to_end(capsys, tmp_path, emb, lists):
    out_dir = tmp_path / "out" / "weat"
    code, out, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(out_dir),
                         "--n-resamples", "200", "--seed", "1")
    assert code == 0, err
    assert sorted(p.name for p in out_dir.iterdir()) == [".wordbias-folder", ".wordbias-run.json", "forest.pdf", "forest.png", "summary.html", "tidy.csv"]
    t = tidy.read_tidy(out_dir / "tidy.csv")
    assert len(t) == 1
    r = t.iloc[0]
    assert (r.embedding, r.paper, r.battery, r.test, r.measure) == ("mine.w2v.txt", "user", "user:toy", "flowers",
                                                                   "weat")
    assert (r.n_x, r.n_y, r.n_a, r.n_b) == (4, 4, 3, 3)
    assert r.dropped == "Y: zzzunknown" and r.seed == 1 and r.n_resamples == 200
    assert r.p_method == "exact" and r.alternative == "greater"
    # d and p against the measure run directly on the same vectors
    from wordbias import embeddings
    kv = embeddings.load(emb, cache=False, progress=False)
    ref = weat_measure.weat(kv, ["rose", "tulip", "daisy", "lily"], ["ant", "wasp", "flea", "moth"],
                            ["love", "peace", "joy"], ["hate", "war", "grief"])
    assert r.effect_size == pytest.approx(ref.effect_size, abs=1e-5)
    assert r.p_value == pytest.approx(ref.p_value, rel=1e-5)
    assert r.ci_low <= r.effect_size <= r.ci_high
    assert r.p_holm == pytest.approx(r.p_value, rel=1e-5)            # a family of one
    # stdout: the short table and the files written
    assert "flowers" in out and f"d={ref.effect_size:.3f}" in out and "(exact)" in out
    assert f"wrote {out_dir / 'tidy.csv'}, {out_dir / 'summary.html'}" in out
    assert "<title>" in (out_dir / "summary.html").read_text()


def test_weat_quiet_prints_nothing_and_same_seed_same_table(capsys, tmp_path, emb, lists):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        code, out, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(d), "-q",
                             "--n-resamples", "100")
        assert code == 0 and out == ""
        assert "%|" not in err        # no progress bar
    assert (a / "tidy.csv").read_bytes() == (b / "tidy.csv").read_bytes()


def test_weat_caliskan_battery_on_a_tiny_embedding(capsys, tmp_path, emb):
    code, out, err = run(capsys, "weat", str(emb), "--out", str(tmp_path / "c"), "-q", "--n-resamples", "50",
                         "--label", "tiny")
    # the tiny vocabulary lacks most of Caliskan's words: the table is written, the tests not run are named on
    # stderr with the reason, and the exit status (3) tells a script
    assert code == cli.EXIT_NOT_RUN == 3 and out == ""
    t = tidy.read_tidy(tmp_path / "c" / "tidy.csv")
    skipped, partial = tidy.not_run(t), tidy.run_in_part(t)
    assert len(skipped) >= 1 and "WEAT1" not in set(skipped.test)             # flowers/insects runs
    lines = err.strip().splitlines()
    assert len(lines) == len(skipped) + len(partial) + 1 and "Traceback" not in err
    assert lines[0].startswith(f"wordbias: not run: {skipped.test.iloc[0]} (weat): DegenerateSetError: set ")
    counts = f"{len(skipped)} were not run" + (f" and {len(partial)} ran only in part" if len(partial) else "")
    assert lines[-1] == (f"wordbias: of 10 tests, {counts} (the reasons above, also in the note "
                         f"column of {tmp_path / 'c' / 'tidy.csv'}); exit status 3")
    assert t["test"].tolist() == [f"WEAT{i}" for i in range(1, 11)]
    assert set(t.embedding) == {"tiny"} and set(t.battery) == {"caliskan2017"}
    assert set(t.paper) == {"caliskan2017"}


def test_report_and_compare_end_to_end(capsys, tmp_path, emb):
    other = _write_w2v(tmp_path / "mine.w2v.bin.txt", _vectors(seed=1, lean=-2.0))
    code, out, err = run(capsys, "report", str(emb), "--out", str(tmp_path / "r"), "--no-ube",
                         "--n-resamples", "50", "--n-permutations", "200")
    assert code == cli.EXIT_NOT_RUN, err                # most of the papers' words are not in the tiny vocabulary
    assert "wordbias: not run: WEAT2 (weat): DegenerateSetError" in err
    t = tidy.read_tidy(tmp_path / "r" / "tidy.csv")
    assert set(t.embedding) == {"mine.w2v.txt"} and {"weat", "wefat"} <= set(t.measure)
    assert (tmp_path / "r" / "summary.html").exists()
    code, out, err = run(capsys, "compare", str(emb), str(other), "--out", str(tmp_path / "cmp"), "--no-ube",
                         "--n-resamples", "50", "--n-permutations", "200")
    assert code == cli.EXIT_NOT_RUN, err
    assert "wordbias: not run: mine.w2v.txt / WEAT2 (weat): " in err and "/ WEAT2 (weat)" in err
    t = tidy.read_tidy(tmp_path / "cmp" / "tidy.csv")
    assert t.embedding.unique().tolist() == ["mine.w2v.txt", "mine.w2v.bin.txt"]
    files = sorted(p.name for p in (tmp_path / "cmp").iterdir())
    assert files == [".wordbias-folder", ".wordbias-run.json", "forest.pdf", "forest.png", "heatmap.pdf", "heatmap.png", "summary.html", "tidy.csv"]
    assert "embedding" in out.splitlines()[0]


def test_labels_keep_extensions_and_disambiguate(tmp_path):
    assert inputs.embedding_label("glove-6b-50d") == "glove-6b-50d"
    assert inputs.embedding_labels(["x/mine.w2v.txt", "x/mine.w2v.bin"]) == ["mine.w2v.txt", "mine.w2v.bin"]
    assert inputs.embedding_labels(["a/v.txt", "b/v.txt"]) == ["a/v.txt", "b/v.txt"]


def test_short_table_formats(tmp_path):
    t = tidy.tidy_frame([{"embedding": "e", "test": "t", "n_x": 3, "n_y": 3, "effect_size_name": "d",
                          "effect_size": 1.23456, "ci_low": 0.5, "ci_high": 1.9, "p_value": 1e-6, "p_method": "exact",
                          "dropped": "X: a b; A: c"}, {"embedding": "e", "test": "u", "note": "not run: KeyError: x"},
                         {"embedding": "e", "test": "v", "p_value": 0.5, "p_method": "rotational null, Simes over 9"}])
    text = output.short_table(t)
    lines = text.splitlines()
    assert "d=1.235" in lines[1] and "[0.50, 1.90]" in lines[1] and "1.0e-06 (exact)" in lines[1]
    assert lines[0].split() == ["test", "n", "effect", "95%", "CI", "p", "p", "two-sided", "p", "Holm", "dropped"]
    assert lines[1].rstrip().endswith("3") and "not run" in lines[2]
    assert "0.5000 (rotational null)" in lines[3] and "Simes" not in lines[3]


# ---------------------------------------------------------------------------------------------- cache

def test_cache_list_and_clear(capsys, tmp_path, emb, lists, cache_in_tmp):
    code, out, _ = run(capsys, "cache", "list")
    assert code == 0 and "(none)" in out
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"), "-q",
                       "--n-resamples", "20")
    assert code == 0, err
    folders = [p.name for p in (cache_in_tmp / "embeddings").iterdir()]
    assert len(folders) == 1 and folders[0].startswith("mine.w2v.txt-")
    assert not any(p.name.startswith(".wordbias-cache") for p in tmp_path.iterdir())   # nothing beside the file
    code, out, _ = run(capsys, "cache", "list")
    assert code == 0 and "mine.w2v.txt" in out and "34x6" in out
    code, _, err = run(capsys, "cache", "clear")
    assert code == 1 and "needs cache names or --all" in err
    code, _, err = run(capsys, "cache", "clear", "nope")
    assert code == 1 and "no cache named ['nope']" in err
    code, out, _ = run(capsys, "cache", "clear", folders[0])
    assert code == 0 and out.startswith("removed ") and not (cache_in_tmp / "embeddings" / folders[0]).exists()


def test_cache_dir_option(capsys, tmp_path, emb, lists):
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"), "-q",
                       "--n-resamples", "20", "--cache-dir", str(tmp_path / "mycache"))
    assert code == 0, err
    assert [p.name.split("-")[0] for p in (tmp_path / "mycache").iterdir()] == ["mine.w2v.txt"]
    code, out, _ = run(capsys, "cache", "list", "--cache-dir", str(tmp_path / "mycache"))
    assert code == 0 and "mine.w2v.txt" in out
    code, out, _ = run(capsys, "cache", "clear", "--all", "--cache-dir", str(tmp_path / "mycache"))
    assert code == 0 and list((tmp_path / "mycache").iterdir()) == []


def test_weat_lists_with_wefat_notes_them_and_wefat_only_is_refused(capsys, tmp_path, emb):
    code, out, err = run(capsys, "weat", str(emb), "--lists", str(user_lists.TEMPLATE), "--out", str(tmp_path / "t"),
                         "-q", "--n-resamples", "20")
    assert code == cli.EXIT_NOT_RUN, err           # the template's career/family words are not in the tiny file
    assert "wordbias: not run: career_family (weat): " in err
    assert "the 1 WEFAT(s) of" in err and "are not run by `wordbias weat`" in err
    t = tidy.read_tidy(tmp_path / "t" / "tidy.csv")
    assert t.test.tolist() == ["career_family", "flowers_insects"] and set(t.battery) == {"user:my_study"}
    only = tmp_path / "wefat_only.yaml"
    only.write_text("wefat:\n  - id: j\n    targets: {W: [rose]}\n    attributes: {A: [love], B: [hate]}\n"
                    "    property: {name: p, values: {rose: 1}}\n")
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(only), "--out", str(tmp_path / "w"))
    assert code == 1 and "has no WEATs" in err


# ------------------------------------------------------------------------------------------------------- outputs

def _refused(capsys, emb, out, fragment):
    code, stdout, err = run(capsys, "weat", str(emb), "--out", out)
    assert code == 1 and stdout == "", err
    assert err.startswith("wordbias: error: --out ") and fragment in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_out_folders_refused_by_one_check(capsys, tmp_path, emb, monkeypatch):
    """Empty, the checkout's root, home and / (under any spelling), the package, data/, a file and a path under
    a file: one line each, naming the path and what to do, and nothing is created. An empty --out is refused
    sooner, by the parser's check of every path option (a usage error, 2)."""
    for empty in ("", "   "):
        code, stdout, err = run(capsys, "weat", str(emb), "--out", empty)
        assert code == 2 and stdout == "", err
        assert f"argument --out: the value is empty ({empty!r})" in err and "Traceback" not in err
    if paths.IN_CHECKOUT:
        monkeypatch.chdir(paths.ROOT / "lib")
        _refused(capsys, emb, "..", "the root of the wordbias checkout")
        _refused(capsys, emb, str(paths.ROOT) + "/", "the root of the wordbias checkout")
        monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    _refused(capsys, emb, "~", "your home folder")
    _refused(capsys, emb, "~/.", "your home folder")
    _refused(capsys, emb, "/", "the file system's root")
    _refused(capsys, emb, "/..", "the file system's root")
    package = pathlib.Path(wordbias.__file__).resolve().parent
    _refused(capsys, emb, str(package / "cli-out"), "the installed wordbias package")
    _refused(capsys, emb, str(paths.DATA / "stimuli" / "cli-out"), "data folder")
    f = tmp_path / "file.txt"
    f.write_text("x")
    _refused(capsys, emb, str(f / "sub"), f"cannot be a folder: {f} is a file")
    assert not (package / "cli-out").exists() and not (paths.DATA / "stimuli" / "cli-out").exists()
    assert list(home.iterdir()) == []


def test_out_through_a_symlink_to_results_is_refused(capsys, tmp_path, emb):
    link = tmp_path / "link"
    link.symlink_to(paths.RESULTS, target_is_directory=True)
    _refused(capsys, emb, str(link / "mine"), "holds the committed results")


def test_out_an_existing_folder_keeps_its_other_files(capsys, tmp_path, emb, lists):
    """A folder of the user's is written only with --force, and its other files are kept."""
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "sub").mkdir()
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(out), "-q", "--n-resamples",
                       "20", "--force")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == [".wordbias-run.json", "forest.pdf", "forest.png", "notes.txt", "sub", "summary.html", "tidy.csv"]
    assert (out / "notes.txt").read_text() == "mine"


def _big_lists(tmp_path):
    """A WEAT of 66 + 66 target words (Monte Carlo p: too many partitions to count) beside a small one, and an
    embedding holding them."""
    X, Y = [f"x{i}" for i in range(66)], [f"y{i}" for i in range(66)]
    A, B = ["a1", "a2", "a3"], ["b1", "b2", "b3"]
    words = X + Y + A + B
    v = np.random.default_rng(0).normal(size=(len(words), 4))
    emb = tmp_path / "big.txt"
    emb.write_text(f"{len(words)} 4\n" + "\n".join(w + " " + " ".join(f"{x:.4f}" for x in r)
                                                    for w, r in zip(words, v)) + "\n")
    lists = tmp_path / "big.yaml"
    lists.write_text(f"battery: big\nweat:\n  - id: big\n    targets: {{X: [{', '.join(X)}], Y: [{', '.join(Y)}]}}\n"
                     f"    attributes: {{A: [{', '.join(A)}], B: [{', '.join(B)}]}}\n"
                     "  - id: small\n    targets: {X: [x1, x2, x3], Y: [y1, y2, y3]}\n"
                     f"    attributes: {{A: [{', '.join(A)}], B: [{', '.join(B)}]}}\n")
    return emb, lists


def test_a_test_refused_for_its_cost_is_named_on_stderr_and_exits_3(capsys, tmp_path):
    emb, lists = _big_lists(tmp_path)
    out = tmp_path / "o"
    code, stdout, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(out), "-q",
                            "--n-resamples", "20", "--n-permutations", str(10 ** 12))
    assert code == 3 and stdout == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in err
    assert lines[0].startswith("wordbias: not run: big (weat): TooCostlyError: a Monte Carlo p-value with "
                               "n_permutations=1,000,000,000,000")
    assert "Use fewer permutations" in lines[0] and "lower --n-permutations" in lines[0]
    # the small test is counted exactly: it needs no Monte Carlo draw, so it runs whole (d, exact p, interval)
    assert lines[1].startswith("wordbias: of 2 tests, 1 were not run")
    assert lines[1].endswith("exit status 3")
    t = tidy.read_tidy(out / "tidy.csv")                      # the other test is written, the refusal kept in note
    assert t.test.tolist() == ["big", "small"] and (out / "summary.html").exists()
    assert t.note[0].startswith("not run: TooCostlyError: ") and pd.notna(t.effect_size[1])
    assert t.p_method[1] == "exact" and pd.notna(t.ci_low[1])
    assert "Exit status: " in cli.build_parser().epilog and "3 some tests" in cli.build_parser().epilog


@pytest.mark.parametrize("spelling", ["dot", "absolute", "symlink", "parent"])
def test_compare_one_file_under_two_spellings_is_refused(capsys, tmp_path, emb, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.txt").symlink_to(emb)
    other = {"dot": "./mine.w2v.txt", "absolute": str(emb), "symlink": "link.txt",
             "parent": "sub/../mine.w2v.txt"}[spelling]
    code, _, err = run(capsys, "compare", "mine.w2v.txt", other, "--out", str(tmp_path / "o"))
    assert code == 1 and err.count("\n") == 1
    assert f"the same embedding is given twice: 'mine.w2v.txt' and {other!r} are one file ({emb})" in err
    assert not (tmp_path / "o").exists()


def test_compare_a_registered_name_and_its_file_is_refused(capsys, tmp_path):
    from wordbias.embeddings import REGISTRY, registry

    found = registry.existing_source(REGISTRY["glove-840b-caliskan"])
    if found is None:
        pytest.skip("the bundled glove-840b-caliskan file is absent")
    code, _, err = run(capsys, "compare", "glove-840b-caliskan", str(found), "--out", str(tmp_path / "o"))
    assert code == 1 and f"'glove-840b-caliskan' and {str(found)!r} are one file" in err


def test_a_full_disk_is_one_line_naming_the_file_and_the_way_out(capsys, tmp_path, emb, lists, monkeypatch):
    import errno

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    out = tmp_path / "o"
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(out), "-q", "--n-resamples",
                       "20")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"wordbias: error: cannot write the tidy table to {out / 'tidy.csv'}: no space left on "
                          "the device ([Errno 28] No space left on device")
    assert "free on that disk" in err and "another --out folder" in err
    assert not out.exists()     # no half-written temporary file left, nor the empty folder the run made
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(out), "--debug")
    assert code == 1 and "DiskFullError" in err and "Traceback" in err


def test_a_full_disk_while_writing_the_heat_map(capsys, tmp_path, emb, monkeypatch):
    import errno

    from wordbias.core import figures

    other = _write_w2v(tmp_path / "other.txt", _vectors(seed=1))

    real = figures.save

    def full(fig, folder, name, **kwargs):
        if name != "heatmap":
            return real(fig, folder, name, **kwargs)
        raise OSError(errno.EDQUOT, "Disk quota exceeded", str(tmp_path / "o" / "heatmap.png"))

    monkeypatch.setattr(figures, "save", full)
    code, _, err = run(capsys, "compare", str(emb), str(other), "--out", str(tmp_path / "o"), "-q", "--no-ube",
                       "--n-resamples", "20", "--n-permutations", "100")
    assert code == 1 and err.count("\n") == 1
    assert "cannot write the heat map to " in err and "the disk quota is exceeded" in err


def test_an_interval_refused_for_its_cost_is_named_on_stderr_and_exits_3(capsys, tmp_path, emb, lists):
    """d and p computed, the bootstrap interval refused before any work: the row is written with the reason,
    the command says so and exits 3."""
    out = tmp_path / "o"
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(out), "-q", "--n-resamples",
                       str(10 ** 9))
    assert code == 3 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0].startswith("wordbias: run in part: flowers (weat): no bootstrap interval: TooCostlyError: a WEAT "
                               "bootstrap with n_resamples=1,000,000,000")
    assert "lower --n-permutations or --n-resamples" in lines[0]
    assert lines[1].startswith("wordbias: of 1 tests, 1 ran only in part (the reasons above")
    r = tidy.read_tidy(out / "tidy.csv").iloc[0]
    assert pd.notna(r.effect_size) and pd.notna(r.p_value) and pd.isna(r.ci_low)
    assert r.note.startswith("no bootstrap interval: TooCostlyError: ")


def test_every_test_run_in_full_exits_0_and_says_nothing_on_stderr(capsys, tmp_path, emb, lists):
    code, out, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"), "-q",
                         "--n-resamples", "50")
    assert code == 0 and out == "" and err == ""


# ------------------------------------------------------------------------------------------------------ coverage

def test_weat_marks_low_coverage_in_the_table_and_the_outputs(capsys, tmp_path, emb, lists):
    # the toy lists keep 4/4 X, 4/5 Y, 3/3 A and 3/3 B: A and B are below 4 words
    from wordbias.core.errors import LowCoverageWarning

    with pytest.warns(LowCoverageWarning, match=r"flowers on mine.w2v.txt ran on too few of its words: A 3/3 "
                                                r"\(below 4 words\)"):
        code, out, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"),
                             "--n-resamples", "200")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("flowers") and "4/4/3/3!" in lines[1]
    assert "n = words used per set: X/Y/A/B" in out and "d > 0: X is closer to A" in out
    assert "! = low coverage: a set kept fewer than 4 of its words or less than 50% of its list" in out
    t = tidy.read_tidy(tmp_path / "o" / "tidy.csv")
    assert t.coverage[0] == "X 4/4; Y 4/5; A 3/3; B 3/3" and t.low_coverage[0]
    assert t.note[0].startswith("low coverage: A 3/3 (below 4 words), B 3/3 (below 4 words)")
    page = (tmp_path / "o" / "summary.html").read_text()
    assert "<tr class=lowcov>" in page and "! low coverage" in page


def test_weat_coverage_thresholds_from_the_command_line(capsys, tmp_path, emb, lists):
    import warnings

    from wordbias.core.errors import LowCoverageWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", LowCoverageWarning)
        code, out, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"),
                             "--n-resamples", "200", "--min-words", "3", "--min-coverage", "0.8")
    assert code == 0, err
    assert "!" not in out.splitlines()[1]
    t = tidy.read_tidy(tmp_path / "o" / "tidy.csv")
    assert not t.low_coverage[0] and t.coverage[0] == "X 4/4; Y 4/5; A 3/3; B 3/3"
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"),
                       "--min-coverage", "1.2")
    assert code == 2 and "--min-coverage: must be in [0, 1]" in err


def test_a_bad_workers_variable_is_an_error_before_any_work(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("WORDBIAS_WORKERS", "two")
    assert cli.main(["report", "glove-6b-50d", "--out", str(tmp_path / "r"), "-q"]) == 1
    assert "WORDBIAS_WORKERS must be a positive integer" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
