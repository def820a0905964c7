"""``wordbias seat``: CBoW on the bundled GloVe 6B 50d and a user's YAML sentence sets."""
from wordbias.cli import main
from wordbias.core.tidy import read_tidy


def test_seat_command_writes_tidy_csv(tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["seat", "glove-6b-50d", "--tests", "weat6,sent-weat6", "--n-resamples", "100", "-q",
               "--out", str(out)])
    assert rc == 0
    t = read_tidy(out / "tidy.csv")
    assert t.test.tolist() == ["weat6", "sent-weat6"] and set(t.measure) == {"seat"}
    assert (t.p_holm >= t.p_value).all() and t.note.str.contains("cbow").all()
    assert "BERT d = 0.08" in t.note[1]


def test_seat_command_user_lists_and_errors(tmp_path, capsys):
    f = tmp_path / "mine.yaml"
    f.write_text('seat:\n  - id: t\n    targets: {X: ["He is here.", "The man is here."], '
                 'Y: ["She is here.", "The woman is here."]}\n'
                 '    attributes: {A: ["This is a salary."], B: ["This is a home."]}\n')
    out = tmp_path / "o"
    # one sentence per attribute set: d and p stand, no interval, so "ran in part" (exit 3)
    assert main(["seat", "glove-6b-50d", "--lists", str(f), "--n-resamples", "100", "-q", "--out", str(out)]) == 3
    t = read_tidy(out / "tidy.csv")
    assert t.battery[0] == "user:mine" and t.paper[0] == "user"
    assert main(["seat", "glove-6b-50d", "--lists", str(f), "--tests", "weat1", "-q", "--out", str(out)]) == 1
    assert "--tests" in capsys.readouterr().err
    assert main(["seat", "glove-6b-50d", "--tests", "nope", "-q", "--out", str(out)]) == 1
