"""wordbias.teaching.sealed and the lessons' multiple-choice checks: the right letter and its feedback are in no
student-visible cell, no sealed byte and no traceback; the committed sealed file is the teacher's choices.yaml
sealed (byte for byte); every choice check names a sealed key, whose instructor letter is the right one."""

import json
import re

import numpy as np
import pytest
from check_helpers import assert_status, fresh_checks  # noqa: F401, E402

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.teaching import checks, sealed

LESSONS = paths.ROOT / "notebooks" / "lessons"
CHOICES = LESSONS / "src" / "choices.yaml"
pytestmark = pytest.mark.skipif(not CHOICES.is_file(), reason="needs a checkout of the repository")
CALL = re.compile(r'checks\.choice\((\w+), key="([\w-]+)"\)')


def source(cell):
    return "".join(cell["source"])


def choice_cells(folder):
    """(notebook, cell index, cells, key, answer variable) of every checks.choice call."""
    for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if "checks.choice(" in source(cell):
                match = CALL.search(source(cell))
                assert match, (path.name, source(cell))       # the call names a key, never a letter or feedback
                yield path.name, i, cells, match.group(2), match.group(1)


def test_committed_sealed_file_is_the_teachers_choices_sealed():
    assert sealed.SEALED.read_bytes().decode("utf-8") == sealed.sealed_text(sealed.read_choices(CHOICES))
    assert sealed.sealed_text(sealed.read_choices(CHOICES)) == sealed.sealed_text(sealed.read_choices(CHOICES))
    sealed.main([str(CHOICES), str(sealed.SEALED), "--check"])


def test_sealed_file_and_student_cells_hold_no_right_letter_nor_feedback():
    plain = sealed.read_choices(CHOICES)
    text = sealed.SEALED.read_text(encoding="utf-8")
    assert "right" not in text.lower()
    for item in plain.values():
        for feedback in item["feedback"].values():
            assert feedback not in text and feedback[:30] not in text
    student = "\n".join(source(c) for p in sorted((LESSONS / "student").glob("*.ipynb"))
                        for c in json.loads(p.read_text(encoding="utf-8"))["cells"])
    for item in plain.values():
        assert item["feedback"][item["answer"]][:40] not in student
    for name, i, cells, _key, _variable in choice_cells(LESSONS / "student"):
        assert re.search(r'"[a-z]"|\bright\b', source(cells[i])) is None, (name, source(cells[i]))


def test_every_choice_names_a_sealed_key_and_the_instructor_letter_is_right():
    plain = sealed.read_choices(CHOICES)
    used = set()
    for name, i, cells, key, variable in choice_cells(LESSONS / "src"):
        assert cells[i - 1]["metadata"]["nbgrader"]["grade_id"] == key, name     # the key: the solution's grade_id
        letter = re.search(rf'{variable} = "([a-z])"', source(cells[i - 1])).group(1)
        assert sealed.entry(key).open(letter).right, (name, key)
        offered = re.findall(r"^\* \*\*([a-z])\*\*:", source(cells[i - 2]), re.M)   # the statements stay visible
        assert offered == sorted(plain[key]["feedback"]) == list(sealed.entry(key).letters), (name, offered)
        used.add(key)
    assert used == set(plain) and len(used) >= 4


def test_seal_opens_each_letter_and_refuses_what_is_no_question(tmp_path):
    question = {"exercise": "q", "answer": "c", "feedback": {"a": "no a", "b": "no b", "c": "yes c"}}
    doc = sealed.seal({"k": question})
    assert doc == sealed.seal({"k": dict(question)})                       # deterministic
    entry = sealed.entry("k", doc)
    assert [entry.open(x) for x in "abc"] == [sealed.Verdict(False, "no a"), sealed.Verdict(False, "no b"),
                                             sealed.Verdict(True, "yes c")]
    with pytest.raises(InvalidParameterError, match="'d' is not one of the letters"):
        entry.open("d")
    with pytest.raises(InvalidParameterError, match="no sealed multiple-choice question 'x'; the sealed keys are"):
        sealed.entry("x", doc)
    for bad, message in [({"k": {**question, "answer": "z"}}, "'answer' 'z' is not one of its letters"),
                         ({"k": {"exercise": "q", "answer": "a"}}, "exactly the keys"),
                         ({"k": {**question, "feedback": {"a": "only"}}}, "at least 2 letters"),
                         ({"k": {**question, "feedback": {"A": "x", "b": "y"}}}, "one lower-case letter"),
                         ({}, "not empty")]:
        with pytest.raises(InvalidParameterError, match=message):
            sealed.seal(bad)
    with pytest.raises(InvalidParameterError, match="no sealed choices at"):
        sealed.load(tmp_path / "missing.json")


def test_main_seals_and_check_refuses_a_stale_file(tmp_path, capsys):
    src, out = tmp_path / "choices.yaml", tmp_path / "sealed.json"
    src.write_text('k:\n  exercise: q\n  answer: b\n  feedback:\n    a: "no"\n    b: "yes"\n', encoding="utf-8")
    sealed.main([str(src), str(out)])
    assert capsys.readouterr().out.strip() == str(out)
    assert_status(checks.choice("b", key="k", sealed=out), "correct", "right: yes")
    src.write_text(src.read_text().replace("answer: b", "answer: a"), encoding="utf-8")
    with pytest.raises(SystemExit) as stale:
        sealed.main([str(src), str(out), "--check"])
    assert stale.value.code == 1 and "is not the sealed" in capsys.readouterr().err
    src.write_text("k: [1, 2]\n", encoding="utf-8")
    with pytest.raises(SystemExit) as bad:
        sealed.main([str(src), str(out)])
    assert bad.value.code == 2 and "question 'k' must be a mapping" in capsys.readouterr().err


def test_strict_traceback_in_a_kernel_shows_no_answer(tmp_path):
    """A real kernel, %xmode Verbose (every frame's variables), strict mode, solutions off: the errors of a wrong
    cosine and a wrong sealed choice show neither the right value, the worked solution nor the right feedback."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    u, v = np.array([1.0, 0.2, 0.3]), np.array([0.3, 1.0, 0.1])
    cos = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("%xmode Verbose\nimport os\nos.environ['WORDBIAS_CHECKS_STRICT'] = '1'\n"
                                  "os.environ['WORDBIAS_SOLUTIONS'] = 'off'\nfrom wordbias.teaching import checks\n"
                                  "u, v = [1.0, 0.2, 0.3], [0.3, 1.0, 0.1]"),
        nbformat.v4.new_code_cell("for _ in range(3):\n    try:\n        checks.cosine(0.9, u, v)\n"
                                  "    except AssertionError:\n        pass\nex1 = checks.cosine(0.9, u, v)"),
        nbformat.v4.new_code_cell('ex2 = checks.choice("a", key="l02-ex2")')])
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells[1:] for o in c.outputs if o.output_type == "error"]
    assert [e.ename for e in errors] == ["CheckFailed", "CheckFailed"]
    text = "\n".join("\n".join(e.traceback) for e in errors)
    assert "ask your teacher" in text and "not this one" in text          # the student's message is there
    for secret in (f"{cos:.4f}", f"{cos:.3f}", repr(cos)[:8], "np.linalg.norm", "np.dot", "a negative d", '"b"',
                   "'b'"):
        assert secret not in text, secret
    for cell in nb.cells[1:]:
        for out in cell.outputs:
            assert "expected" not in json.dumps(out.get("data", {}).get(checks.RECORD_MIME, {}))
