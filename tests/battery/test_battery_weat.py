"""battery.weat's rows: the note a caller gives (e.g. the paper's numbers) stays in the row with or without the
interval (it was dropped from a row run without its interval)."""
import pytest

from wordbias.battery import weat as battery_weat
from wordbias.measures.association import measurement
from wordbias.options import Resampling

KV = {"rose": [1, .1], "tulip": [.9, .2], "lily": [.8, .3], "ant": [.1, 1], "wasp": [.2, .9], "moth": [.3, .8],
      "love": [1, 0], "hate": [0, 1]}
BASE = {"embedding": "toy", "paper": "toy", "battery": "toy"}


@pytest.mark.parametrize("n_resamples", [0, 200])
def test_the_callers_note_stays_in_the_weat_row(n_resamples):
    m = measurement.weat(KV, ["rose", "tulip", "lily"], ["ant", "wasp", "moth"], ["love"], ["hate"],
                         resampling=Resampling(n_resamples=n_resamples, n_permutations=100_000))
    row = battery_weat.weat_row(m, base=BASE, note="paper: d = 1.50")
    assert "paper: d = 1.50" in row["note"]
    assert (row.get("ci_low") is None) == (m.interval is None)
    assert n_resamples or m.interval is None
    if n_resamples and m.interval is None:  # the reason comes first: tidy.run_in_part finds the rows run in part by it
        from wordbias.core import tidy
        assert len(tidy.run_in_part(__import__("pandas").DataFrame([row]))) == 1


def test_the_callers_note_stays_in_the_wefat_row():
    m = measurement.wefat(KV, ["rose", "tulip", "ant", "wasp"], ["love"], ["hate"],
                          {"rose": 0.9, "tulip": 0.8, "ant": 0.2, "wasp": 0.1}, resampling=Resampling(n_resamples=0))
    assert battery_weat.wefat_row(m, base=BASE, note="paper: r = 0.90")["note"].count("paper: r = 0.90") == 1
