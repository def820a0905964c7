"""Balancing unequal target sets is visible: `wordbias weat --balance`, the words deleted and the seed on stderr,
and d over balancing draws beside d without balancing (Caliskan et al. 2017, Supplementary, WEAT 3)."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from wordbias import cli
from wordbias.core.errors import BalancedOutWarning, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import weat as W
from wordbias.options import Resampling, loose_options

X_WORDS = [f"flower{i}" for i in range(9)]
Y_WORDS = [f"insect{i}" for i in range(6)]
A_WORDS = ["love", "peace", "joy", "cheer"]
B_WORDS = ["hate", "war", "grief", "ugly"]
WORDS = X_WORDS + Y_WORDS + A_WORDS + B_WORDS


def _vectors(seed: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(len(WORDS), 8))
    v[:9, 0] += np.linspace(-1.5, 2.5, 9)          # the flowers differ: which ones balancing keeps moves d
    v[15:19, 0] += 2.0
    v[19:, 0] -= 2.0
    return v


def _kv():
    return to_keyed_vectors(WORDS, _vectors().astype(np.float32))


def _quiet_weat(**options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return W.weat(_kv(), X_WORDS, Y_WORDS, A_WORDS, B_WORDS,
                      **loose_options(W.DEFAULT_RESAMPLING, W.DEFAULT_WORDS, **options))


# ------------------------------------------------------------------------------------------------------------------
# the library: d over balancing draws, d without balancing
# ------------------------------------------------------------------------------------------------------------------

def test_a_balanced_test_carries_the_spread_of_d_over_every_way_to_balance():
    r = _quiet_weat(seed=0)
    s = r.balancing
    assert s is not None and s.exhaustive and s.n_draws == 84           # C(9, 6) ways to keep 6 of the 9 flowers
    assert s.deleted == {"X": r.X.balanced_out} and len(r.X.balanced_out) == 3
    assert s.d == r.effect_size and s.d_min <= r.effect_size <= s.d_max
    assert s.d_min < s.d_low <= s.d_high < s.d_max and s.d_sd > 0
    assert s.seed == 0


def test_every_seed_s_d_lies_in_the_spread_and_the_spread_does_not_depend_on_the_seed():
    results = [_quiet_weat(seed=seed) for seed in range(10)]
    ds = [r.effect_size for r in results]
    assert max(ds) - min(ds) > 0.1                                     # the seed moves d: the reason for the spread
    spreads = {(r.balancing.d_min, r.balancing.d_max, r.balancing.d_none) for r in results}
    assert len(spreads) == 1
    lo, hi, _ = spreads.pop()
    assert all(lo <= d <= hi for d in ds)


def test_the_unbalanced_d_is_the_d_of_balance_targets_none():
    balanced, whole = _quiet_weat(seed=0), _quiet_weat(balance_targets="none")
    assert whole.balancing is None and len(whole.X.words) == 9 and not whole.X.balanced_out
    assert balanced.balancing.d_none == pytest.approx(whole.effect_size, abs=1e-6)


def test_each_exhaustive_draw_is_the_d_of_that_subset():
    r = _quiet_weat(seed=0)
    s_x = W.association(_vectors()[:9], _vectors()[15:19], _vectors()[19:])
    s_y = W.association(_vectors()[9:15], _vectors()[15:19], _vectors()[19:])
    kept = [X_WORDS.index(w) for w in r.X.words]
    out = W.balance_spread(s_x, s_y, kept, range(6))
    assert out["d_draws"][out["used_row"]] == pytest.approx(r.effect_size, abs=1e-5)
    assert out["d_draws"][0] == pytest.approx(W.effect_size(s_x[:6], s_y), rel=1e-12)   # the first subset
    assert out["d_none"] == pytest.approx(W.effect_size(s_x, s_y), rel=1e-12)


def test_random_draws_are_seeded_and_start_with_the_words_kept():
    rng = np.random.default_rng(1)
    s_x, s_y = rng.normal(size=30), rng.normal(size=12)
    kept = np.arange(5, 17)
    a = W.balance_spread(s_x, s_y, kept, range(12), n_draws=50, seed=3)
    b = W.balance_spread(s_x, s_y, kept, range(12), n_draws=50, seed=3)
    c = W.balance_spread(s_x, s_y, kept, range(12), n_draws=50, seed=4)
    assert not a["exhaustive"] and a["n_draws"] == 50 and a["used_row"] == 0
    assert np.array_equal(a["d_draws"], b["d_draws"]) and not np.array_equal(a["d_draws"], c["d_draws"])
    assert a["d_draws"][0] == pytest.approx(W.effect_size(s_x[kept], s_y), rel=1e-12)


def test_the_spread_leaves_the_test_s_own_numbers_as_they_are():
    # the draws come from a stream of their own: the balancing and the Monte Carlo p of the seed are unchanged
    r = _quiet_weat(seed=5, p_method="monte-carlo", n_permutations=2000)
    rng = np.random.default_rng(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from wordbias.core import lookup
        x = lookup.word_set(_kv(), X_WORDS, name="X", min_size=2)
        y = lookup.word_set(_kv(), Y_WORDS, name="Y", min_size=2)
        bx, _ = W.balance(x, y, "random", rng)
    assert bx.words == r.X.words
    s, d, p = W.weat_from_scores(r.s_x, r.s_y, p_method="monte-carlo", n_permutations=2000, seed=rng)
    assert p.p_value == r.p_value


def test_the_spread_reads_as_one_line_with_the_words_the_seed_and_the_unbalanced_d():
    r = _quiet_weat(seed=2)
    text = r.balancing.text()
    assert "\n" not in text and "seed 2" in text and all(w in text for w in r.X.balanced_out)
    assert f"d = {r.effect_size:.3f}" in text and f"d = {r.balancing.d_none:.3f}" in text


def test_the_test_still_warns_once_per_balancing():
    with pytest.warns(BalancedOutWarning) as caught:
        W.weat(_kv(), X_WORDS, Y_WORDS, A_WORDS, B_WORDS, resampling=Resampling(seed=2, n_permutations=100_000))
    assert len([w for w in caught if issubclass(w.category, BalancedOutWarning)]) == 1


@pytest.mark.parametrize("kwargs, match", [
    ({"kept_x": [0, 9]}, "positions"),
    ({"kept_x": [0, 1, 2]}, "as many as"),
    ({"n_draws": 1}, "n_draws"),
])
def test_balance_spread_refuses_bad_input(kwargs, match):
    args = {"s_x": [0.1, 0.2, 0.3, 0.4], "s_y": [0.0, -0.1], "kept_x": [0, 1], "kept_y": [0, 1], **kwargs}
    with pytest.raises(InvalidParameterError, match=match):
        W.balance_spread(args.pop("s_x"), args.pop("s_y"), args.pop("kept_x"), args.pop("kept_y"), **args)


# ------------------------------------------------------------------------------------------------------------------
# the command: --balance, and the balancing on stderr
# ------------------------------------------------------------------------------------------------------------------

LISTS = f"""\
battery: unequal
weat:
  - id: nine_vs_six
    targets:
      X: {{name: Flowers, words: [{", ".join(X_WORDS)}]}}
      Y: {{name: Insects, words: [{", ".join(Y_WORDS)}]}}
    attributes:
      A: {{name: Pleasant, words: [{", ".join(A_WORDS)}]}}
      B: {{name: Unpleasant, words: [{", ".join(B_WORDS)}]}}
"""


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    emb = tmp_path / "vectors.txt"
    emb.write_text("".join(w + " " + " ".join(f"{x:.6f}" for x in row) + "\n" for w, row in zip(WORDS, _vectors())))
    (tmp_path / "my.yaml").write_text(LISTS)
    return emb, tmp_path / "my.yaml"


def _run(capsys, tmp_path, emb, lists, *extra):
    out = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = cli.main([str(a) for a in ("weat", emb, "--lists", lists, "--out", out, "--n-resamples", 200,
                                          "--quiet", *extra)])
    _, err = capsys.readouterr()
    return code, pd.read_csv(out / "tidy.csv").iloc[0], err


def test_the_command_balances_at_random_and_says_so_on_stderr(files, tmp_path, capsys):
    emb, lists = files
    code, row, err = _run(capsys, tmp_path, emb, lists, "--seed", "3")
    assert code == 0 and (row["n_x"], row["n_y"]) == (6, 6)
    lines = [line for line in err.splitlines() if "balanced by deleting" in line]
    assert len(lines) == 1 and "nine_vs_six" in lines[0] and "seed 3" in lines[0]
    deleted = row["dropped"].split("balanced out: ")[1].split()
    assert len(deleted) == 3 and all(w in lines[0] for w in deleted)


def test_the_spread_on_stderr_contains_the_d_the_command_printed(files, tmp_path, capsys):
    emb, lists = files
    for seed in ("0", "7"):
        _, row, err = _run(capsys, tmp_path, emb, lists, "--seed", seed)
        m = re.search(r"ranges (-?[\d.]+) to (-?[\d.]+) \(middle 95% (-?[\d.]+) to (-?[\d.]+), SD ([\d.]+)\)", err)
        assert m, err
        low, high = float(m.group(1)), float(m.group(2))
        assert low - 5e-4 <= row["effect_size"] <= high + 5e-4
        assert f"d = {row['effect_size']:.3f}" in err


def test_balance_none_gives_the_unbalanced_d_and_no_balancing(files, tmp_path, capsys):
    emb, lists = files
    code, row, err = _run(capsys, tmp_path, emb, lists, "--balance", "none")
    assert code == 0 and (row["n_x"], row["n_y"]) == (9, 6)
    assert "balanced" not in err and "balanced out" not in str(row["dropped"])
    _, balanced, err_random = _run(capsys, tmp_path, emb, lists)
    d_none = float(re.search(r"without balancing \(balance_targets='none'\) d = (-?[\d.]+)", err_random).group(1))
    assert row["effect_size"] == pytest.approx(d_none, abs=5e-4)
    assert row["effect_size"] != pytest.approx(balanced["effect_size"], abs=1e-3)


def test_the_command_refuses_an_unknown_balance(files, tmp_path, capsys):
    emb, lists = files
    code = cli.main(["weat", str(emb), "--lists", str(lists), "--out", str(tmp_path / "o"), "--balance", "smallest"])
    assert code == 2 and "argument --balance: invalid choice: 'smallest'" in capsys.readouterr().err


def _sizes_by_balance(capsys, out, command, embeddings, lists) -> dict:
    """The (n_x, n_y) of every row ``command`` writes with ``--balance none`` and with ``--balance random``."""
    sizes = {}
    for balance in ("none", "random"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = cli.main([command, *embeddings, "--lists", str(lists), "--out", f"{out}-{balance}",
                             "--n-resamples", "200", "--quiet", "--balance", balance])
        assert code == 0, capsys.readouterr().err
        rows = pd.read_csv(f"{out}-{balance}/tidy.csv")
        sizes[balance] = set(zip(rows.n_x, rows.n_y))
    return sizes


@pytest.mark.parametrize("command", ["report", "compare"])
def test_balance_reaches_report_and_compare(files, tmp_path, capsys, command):
    """``--balance none`` keeps both target sets whole in ``report`` and ``compare`` too; the default balances."""
    emb, lists = files
    other = tmp_path / "other.txt"                  # a second embedding: the same words, other vectors
    other.write_text("".join(w + " " + " ".join(f"{x:.6f}" for x in row[::-1]) + "\n"
                             for w, row in zip(WORDS, _vectors())))
    embeddings = [str(emb)] if command == "report" else [str(emb), str(other)]
    assert _sizes_by_balance(capsys, tmp_path / command, command, embeddings, lists) == {
        "none": {(9, 6)}, "random": {(6, 6)}}


def test_seat_takes_balance():
    from wordbias.cli.parser import build_parser

    assert build_parser().parse_args(["seat", "all-minilm-l6-v2", "--out", "o", "--balance", "none"]).balance == "none"


#: the unequal test in words a training corpus keeps (the tokenizer drops tokens with digits)
ALPHA_LISTS = {"flower": "rose tulip daisy lily iris orchid poppy violet aster".split(),
               "insect": "ant wasp flea moth gnat tick".split()}


@pytest.mark.parametrize("command", ["report", "compare"])
def test_balance_reaches_every_run_of_an_ensemble(files, tmp_path, capsys, command):
    """``--balance none`` keeps both target sets whole in each training run of an ensemble too, and in the rows
    combined over the runs; the default balances each run at random."""
    emb, _ = files
    x, y = ALPHA_LISTS["flower"], ALPHA_LISTS["insect"]
    lists = tmp_path / "alpha.yaml"
    lists.write_text(LISTS.replace(", ".join(X_WORDS), ", ".join(x)).replace(", ".join(Y_WORDS), ", ".join(y)))
    vocabulary = x + y + A_WORDS + B_WORDS
    rng = np.random.default_rng(0)
    corpus = tmp_path / "corpus.txt"                # every word of the lists, in 300 short random sentences
    corpus.write_text("".join(" ".join(rng.choice(vocabulary, size=8)) + "\n" for _ in range(300)), encoding="utf-8")
    runs = tmp_path / "runs"
    code = cli.main(["train", str(corpus), "--out", str(runs), "--seeds", "2", "--dim", "8", "--epochs", "1",
                     "--min-count", "1", "--workers", "1", "--quiet", "--cache-dir", str(tmp_path / "cache")])
    assert code == 0
    other = tmp_path / "other.txt"                  # compare: the ensemble beside one embedding of the same words
    other.write_text("".join(w + " " + " ".join(f"{v:.6f}" for v in rng.normal(size=8)) + "\n" for w in vocabulary))
    embeddings = [str(runs)] if command == "report" else [str(runs), str(other)]
    assert _sizes_by_balance(capsys, tmp_path / f"{command}-ensemble", command, embeddings, lists) == {
        "none": {(9, 6)}, "random": {(6, 6)}}
