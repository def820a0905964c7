"""The shipped SEAT test sets and a user's YAML sentence sets."""
import hashlib

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import seat


def test_shipped_files_match_their_checksums():
    sums = dict(reversed(line.split()) for line in (seat.SEAT_DIR / "SHA256SUMS").read_text().splitlines())
    assert len(sums) == 46 == len(seat.test_names())
    for name, digest in sums.items():
        assert hashlib.sha256((seat.TESTS_DIR / name).read_bytes()).hexdigest() == digest, name


def test_every_test_loads_with_equal_targets():
    for t in seat.load_tests():
        assert len(t.X) == len(t.Y) > 0 and t.A and t.B, t.id
        assert not set(t.X) & set(t.Y) and not set(t.A) & set(t.B)


def test_words_of_sentences():
    t = seat.load_test("sent-weat6")
    w = t.words
    assert w["X"]["This is John."] == "John" and len(w["X"]) == len(t.X)
    assert seat.load_test("weat6").words == {}


def test_reported_numbers_name_shipped_tests():
    r = seat.reported()
    assert set(r.test) <= set(seat.test_names()) and r.d.notna().all()


def test_reported_is_one_row_per_test_and_encoder():
    """Table 3's 14 (row, context) cells once per encoder; only BERT is transcribed (data/seat/SOURCE.md)."""
    r = seat.reported()
    assert r.groupby("encoder").size().to_dict() == {"BERT": 14}
    assert not r.duplicated(["test", "encoder"]).any()
    cells = {(t.row, t.context) for t in r.itertuples()}
    assert len(cells) == 14
    assert all(set(zip(g.row, g.context)) == cells for _, g in r.groupby("encoder"))
    assert set(r.context) == {"word", "sent", "sent (u)"} and r.table.eq(3).all()
    assert r.p_text.isna().all()  # sent-bias pull request #2 gives BERT's d without the paper's marks
    d = r.set_index(["test", "encoder"]).d
    assert d["weat1", "BERT"] == 0.22 and d["heilman_double_bind_likable_one_sentence", "BERT"] == 0.99
    assert d["sent-angry_black_woman_stereotype", "BERT"] == -0.17


def test_reported_rejects_a_test_and_encoder_listed_twice(tmp_path, monkeypatch):
    f = tmp_path / "reported.csv"
    rows = seat.REPORTED.read_text().splitlines()
    f.write_text("\n".join(rows + [rows[-1]]) + "\n")
    monkeypatch.setattr(seat, "REPORTED", f)
    with pytest.raises(InvalidParameterError, match="listed more than once"):
        seat.reported()


def test_unknown_test_suggests_names():
    with pytest.raises(InvalidParameterError, match="did you mean"):
        seat.load_test("sent-weat7c")
    with pytest.raises(InvalidParameterError, match="matches no SEAT test"):
        seat.load_tests(["nothing-*"])


GOOD = """battery: mine
seat:
  - id: t1
    targets:
      X: {name: Men, sentences: ["He is here.", "The man is here."]}
      Y: ["She is here.", "The woman is here."]
    attributes:
      A: {name: Career, sentences: ["This is a salary."]}
      B: ["This is a home."]
"""


def test_yaml_sentence_sets(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(GOOD)
    battery, (t,) = seat.load_sentence_lists(f)
    assert battery == "mine" and t.names == {"X": "Men", "Y": "Y", "A": "Career", "B": "B"}
    assert t.title == "Men vs Y, Career vs B" and t.Y == ("She is here.", "The woman is here.")


@pytest.mark.parametrize("text, match", [
    (GOOD.replace('B: ["This is a home."]', 'B: []'), "attributes.B is empty"),
    (GOOD.replace('B: ["This is a home."]', 'B: ["This is a salary."]'), "A and B share sentences"),
    (GOOD.replace('"She is here.", "The woman', '"She is here.", "She is here.", "The woman'), "more than once"),
    (GOOD.replace("sentences: [\"This is a salary.\"]", "words: [\"This is a salary.\"]"), "unknown key"),
    (GOOD.replace('B: ["This is a home."]', "B: [yes]"), "not a string"),
    (GOOD + GOOD.split("seat:\n")[1], "two tests have the id"),
    ("seat: [", "s.yaml"),
    ("weat: []", "unknown key"),
])
def test_bad_yaml_names_file_and_problem(tmp_path, text, match):
    f = tmp_path / "s.yaml"
    f.write_text(text)
    with pytest.raises(InvalidParameterError, match=match) as err:
        seat.load_sentence_lists(f)
    assert "s.yaml" in str(err.value)
