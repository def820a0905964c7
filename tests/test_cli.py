"""The `wordbias` command, run in-process through cli.main (stdout, stderr, exit status) and once as
`python -m wordbias`. End-to-end runs use tiny embeddings written to tmp_path; nothing is written in the repo."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import wordbias
from wordbias import cli
from wordbias.core import paths, tidy
from wordbias.datasets import user_lists
from wordbias.measures import weat as weat_measure

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
    assert [s.id for s in user_lists.load_user_lists(copy)[1]] == ["career_family", "flowers_insects"]
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
    assert sorted(p.name for p in out_dir.iterdir()) == ["summary.html", "tidy.csv"]
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
    assert code == 0, err
    t = tidy.read_tidy(tmp_path / "c" / "tidy.csv")
    assert t["test"].tolist() == [f"WEAT{i}" for i in range(1, 11)]
    assert set(t.embedding) == {"tiny"} and set(t.battery) == {"caliskan2017"}
    assert set(t.paper) == {"caliskan2017"}


def test_report_and_compare_end_to_end(capsys, tmp_path, emb):
    other = _write_w2v(tmp_path / "mine.w2v.bin.txt", _vectors(seed=1, lean=-2.0))
    code, out, err = run(capsys, "report", str(emb), "--out", str(tmp_path / "r"), "--no-ube",
                         "--n-resamples", "50", "--n-permutations", "200")
    assert code == 0, err
    t = tidy.read_tidy(tmp_path / "r" / "tidy.csv")
    assert set(t.embedding) == {"mine.w2v.txt"} and {"weat", "wefat"} <= set(t.measure)
    assert (tmp_path / "r" / "summary.html").exists()
    code, out, err = run(capsys, "compare", str(emb), str(other), "--out", str(tmp_path / "cmp"), "--no-ube",
                         "--n-resamples", "50", "--n-permutations", "200")
    assert code == 0, err
    t = tidy.read_tidy(tmp_path / "cmp" / "tidy.csv")
    assert t.embedding.unique().tolist() == ["mine.w2v.txt", "mine.w2v.bin.txt"]
    files = sorted(p.name for p in (tmp_path / "cmp").iterdir())
    assert files == ["heatmap.pdf", "heatmap.png", "summary.html", "tidy.csv"]
    assert "embedding" in out.splitlines()[0]


def test_labels_keep_extensions_and_disambiguate(tmp_path):
    assert cli._label("glove-6b-50d") == "glove-6b-50d"
    assert cli._labels(["x/mine.w2v.txt", "x/mine.w2v.bin"]) == ["mine.w2v.txt", "mine.w2v.bin"]
    assert cli._labels(["a/v.txt", "b/v.txt"]) == ["a/v.txt", "b/v.txt"]


def test_short_table_formats(tmp_path):
    t = tidy.tidy_frame([{"embedding": "e", "test": "t", "n_x": 3, "n_y": 3, "effect_size_name": "d",
                          "effect_size": 1.23456, "ci_low": 0.5, "ci_high": 1.9, "p_value": 1e-6, "p_method": "exact",
                          "dropped": "X: a b; A: c"}, {"embedding": "e", "test": "u", "note": "not run: KeyError: x"},
                         {"embedding": "e", "test": "v", "p_value": 0.5, "p_method": "rotational null, Simes over 9"}])
    text = cli.short_table(t)
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
    assert code == 0, err
    assert "the 1 WEFAT(s) of" in err and "are not run by `wordbias weat`" in err
    t = tidy.read_tidy(tmp_path / "t" / "tidy.csv")
    assert t.test.tolist() == ["career_family", "flowers_insects"] and set(t.battery) == {"user:my_study"}
    only = tmp_path / "wefat_only.yaml"
    only.write_text("wefat:\n  - id: j\n    targets: {W: [rose]}\n    attributes: {A: [love], B: [hate]}\n"
                    "    property: {name: p, values: {rose: 1}}\n")
    code, _, err = run(capsys, "weat", str(emb), "--lists", str(only), "--out", str(tmp_path / "w"))
    assert code == 1 and "has no WEATs" in err
