"""Sealed multiple-choice answers: the right letter of a lesson's question where a student cannot read it.

The teacher writes the plaintext, ``notebooks/lessons/src/choices.yaml``: for each question a key (the grade_id of
its solution cell), the exercise's name, the right letter and, for each letter, the feedback a student gets on
choosing it::

    l02-ex2:
      exercise: one-sided p near 1
      answer: b
      feedback:
        a: "a p near 1 in one tail is a small p in the other ..."
        b: "a one-sided p near 1 goes with a negative d ..."

``python -m wordbias.teaching.sealed choices.yaml choices.sealed.json`` seals it into the package's data file
(:data:`SEALED`), which :func:`wordbias.teaching.checks.choice` reads. In the sealed file the right letter is only a
salted SHA-256 digest, and each letter's feedback is XORed with a key stream derived from that letter (SHA-256 in
counter mode; Python's standard library only), so the file holds no plaintext feedback and no plaintext answer.
The salt is derived from the question's key, so that sealing the same text again gives the same bytes
(``--check`` says whether a sealed file is up to date).

What this protects, and what not: a student who reads the check cell, the sealed file or a check's record learns
neither the right letter nor its feedback. The letters are few, so a student who rebuilds the digest by hand can
still test them offline; the seal keeps the answer out of sight, it is no cipher against a determined reader. A
student who tries letters through the check has each try counted (the record's ``try``).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from wordbias.core.errors import InvalidParameterError

__all__ = ["FORMAT", "SEALED", "Verdict", "SealedChoice", "seal", "sealed_text", "read_choices", "load", "entry",
           "write", "main"]

#: the sealed file's format, also mixed into every digest
FORMAT = "wordbias.sealed-choices/1"
#: the package's sealed choices, which :func:`wordbias.teaching.checks.choice` reads
SEALED = Path(__file__).with_name("choices.sealed.json")

_LETTER = re.compile(r"^[a-z]$")


def _digest(*parts: str) -> bytes:
    return hashlib.sha256("\0".join((FORMAT, *parts)).encode("utf-8")).digest()


def _salt(key: str) -> str:
    return _digest("salt", key).hex()[:32]


def _answer_digest(salt: str, key: str, letter: str) -> str:
    return _digest("answer", salt, key, letter).hex()


def _xor(data: bytes, salt: str, key: str, letter: str) -> bytes:
    """``data`` XORed with the key stream of ``letter``: SHA-256(secret, block number) for each 32-byte block,
    the secret derived from the salt, the key and the letter (the same call encrypts and decrypts)."""
    secret = _digest("feedback", salt, key, letter)
    stream = b"".join(hashlib.sha256(secret + i.to_bytes(8, "big")).digest() for i in range(len(data) // 32 + 1))
    return bytes(a ^ b for a, b in zip(data, stream))


@dataclass(frozen=True)
class Verdict:
    """What a letter tried on a sealed question gets.

    Attributes
    ----------
    right : bool
        Whether the letter is the right one.
    feedback : str
        The teacher's feedback on that letter.
    """

    right: bool
    feedback: str


@dataclass(frozen=True)
class SealedChoice:
    """One sealed question.

    Attributes
    ----------
    key : str
        The question's key (the grade_id of its solution cell).
    exercise : str
        The exercise's name.
    letters : tuple of str
        The letters offered.
    salt : str
        The salt of the digests.
    answer_sha256 : str
        The digest of the right letter.
    feedback : dict of str to str
        Each letter's encrypted feedback (hexadecimal).
    """

    key: str
    exercise: str
    letters: tuple[str, ...]
    salt: str
    answer_sha256: str
    feedback: dict

    def open(self, letter: str) -> Verdict:
        """Whether ``letter`` is right, and its feedback.

        Parameters
        ----------
        letter : str
            One of :attr:`letters` (lower case).

        Returns
        -------
        Verdict
            The letter's verdict.

        Raises
        ------
        InvalidParameterError
            When ``letter`` is not offered.
        """
        if letter not in self.letters:
            raise InvalidParameterError(f"{letter!r} is not one of the letters {list(self.letters)} of {self.key!r}")
        text = _xor(bytes.fromhex(self.feedback[letter]), self.salt, self.key, letter).decode("utf-8")
        return Verdict(_answer_digest(self.salt, self.key, letter) == self.answer_sha256, text)


def _checked(key: str, item) -> tuple[str, str, dict]:
    """The exercise name, right letter and feedback of one plaintext question, checked."""
    where = f"question {key!r}"
    if not isinstance(item, Mapping) or set(item) != {"exercise", "answer", "feedback"}:
        raise InvalidParameterError(f"{where} must be a mapping with exactly the keys 'exercise', 'answer' and "
                                    f"'feedback'; got {sorted(item) if isinstance(item, Mapping) else item!r}")
    exercise, answer, feedback = item["exercise"], item["answer"], item["feedback"]
    if not isinstance(exercise, str) or not exercise.strip():
        raise InvalidParameterError(f"{where}: 'exercise' must be the exercise's name, a non-empty string")
    if not isinstance(feedback, Mapping) or len(feedback) < 2:
        raise InvalidParameterError(f"{where}: 'feedback' must map at least 2 letters to their feedback")
    bad = [k for k, v in feedback.items()
           if not (isinstance(k, str) and _LETTER.match(k)) or not isinstance(v, str) or not v.strip()]
    if bad:
        raise InvalidParameterError(f"{where}: every feedback key must be one lower-case letter and its value a "
                                    f"non-empty string; not so for {bad}")
    if not isinstance(answer, str) or answer not in feedback:
        raise InvalidParameterError(f"{where}: 'answer' {answer!r} is not one of its letters {sorted(feedback)}")
    return exercise.strip(), answer, dict(feedback)


def seal(choices: Mapping) -> dict:
    """The sealed form of the teacher's plaintext questions.

    Parameters
    ----------
    choices : mapping
        Key -> ``{"exercise": name, "answer": letter, "feedback": {letter: text}}`` (``choices.yaml``).

    Returns
    -------
    dict
        ``{"format": FORMAT, "choices": {key: {"exercise", "letters", "salt", "answer_sha256", "feedback"}}}``:
        the right letter only as a digest, each feedback encrypted (hexadecimal).

    Raises
    ------
    InvalidParameterError
        A question without its name, right letter or feedback, or with a right letter it does not offer.

    Examples
    --------
    >>> s = seal({"q1": {"exercise": "q", "answer": "b", "feedback": {"a": "no", "b": "yes"}}})
    >>> entry("q1", s).open("b")
    Verdict(right=True, feedback='yes')
    """
    if not isinstance(choices, Mapping) or not choices:
        raise InvalidParameterError("the choices must be a mapping of question keys to questions, and not empty")
    out = {}
    for key in sorted(choices):
        if not isinstance(key, str) or not key.strip():
            raise InvalidParameterError(f"a question key must be a non-empty string, not {key!r}")
        exercise, answer, feedback = _checked(key, choices[key])
        salt = _salt(key)
        out[key] = {"exercise": exercise, "letters": sorted(feedback), "salt": salt,
                    "answer_sha256": _answer_digest(salt, key, answer),
                    "feedback": {k: _xor(feedback[k].encode("utf-8"), salt, key, k).hex() for k in sorted(feedback)}}
    return {"format": FORMAT, "choices": out}


def sealed_text(choices: Mapping) -> str:
    """:func:`seal` of ``choices`` as the text of the sealed file.

    Parameters
    ----------
    choices : mapping
        The teacher's questions, as :func:`read_choices` returns them.

    Returns
    -------
    str
        JSON with sorted keys and one final newline: the same questions always give the same text.
    """
    return json.dumps(seal(choices), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def read_choices(path: str | Path) -> dict:
    """The teacher's plaintext questions (``choices.yaml``), read.

    Parameters
    ----------
    path : str or Path
        The YAML file.

    Returns
    -------
    dict
        Key -> question, as :func:`seal` takes it.
    """
    from wordbias.core.yaml_io import load_yaml

    doc = load_yaml(Path(path))
    if not isinstance(doc, Mapping):
        raise InvalidParameterError(f"{path}: expected a mapping of question keys to questions")
    return dict(doc)


@functools.lru_cache(maxsize=8)
def _load_file(path: str, mtime_ns: int) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def load(path: str | Path | None = None) -> dict:
    """A sealed file, read (the package's :data:`SEALED` by default).

    Parameters
    ----------
    path : str, Path or None
        The sealed file.

    Returns
    -------
    dict
        Its content.

    Raises
    ------
    InvalidParameterError
        When the file is missing or not a sealed file of this format.
    """
    path = Path(SEALED if path is None else path)
    if not path.is_file():
        raise InvalidParameterError(f"no sealed choices at {path}: seal the teacher's choices.yaml with python -m "
                                    "wordbias.teaching.sealed CHOICES.yaml OUT.json")
    doc = _load_file(str(path), path.stat().st_mtime_ns)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("choices"), dict):
        raise InvalidParameterError(f"{path} is not a sealed choices file of format {FORMAT!r}")
    return doc


def entry(key: str, sealed: str | Path | Mapping | None = None) -> SealedChoice:
    """One sealed question.

    Parameters
    ----------
    key : str
        The question's key.
    sealed : str, Path, mapping or None
        The sealed file, or its content (:func:`seal`); None for the package's.

    Returns
    -------
    SealedChoice
        The question.

    Raises
    ------
    InvalidParameterError
        When no question has that key (the message lists the keys).
    """
    doc = sealed if isinstance(sealed, Mapping) else load(sealed)
    choices = doc["choices"]
    if not isinstance(key, str) or key not in choices:
        raise InvalidParameterError(f"no sealed multiple-choice question {key!r}; the sealed keys are "
                                    f"{sorted(choices)} (add it to choices.yaml and seal it again)")
    item = choices[key]
    return SealedChoice(key, item["exercise"], tuple(item["letters"]), item["salt"], item["answer_sha256"],
                        dict(item["feedback"]))


def write(src: str | Path, out: str | Path) -> Path:
    """Seal the plaintext ``src`` (YAML) into ``out``.

    Parameters
    ----------
    src, out : str or Path
        The teacher's ``choices.yaml`` and the sealed file to write.

    Returns
    -------
    Path
        ``out``.
    """
    out = Path(out)
    out.write_text(sealed_text(read_choices(src)), encoding="utf-8")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``python -m wordbias.teaching.sealed CHOICES.yaml OUT.json [--check]``.

    Parameters
    ----------
    argv : sequence of str or None
        The arguments; None for ``sys.argv[1:]``.
    """
    ap = argparse.ArgumentParser(prog="python -m wordbias.teaching.sealed",
                                 description="seal the teacher's multiple-choice answers for the lessons' checks")
    ap.add_argument("choices", help="the teacher's plaintext (notebooks/lessons/src/choices.yaml)")
    ap.add_argument("out", help="the sealed file (lib/wordbias/teaching/choices.sealed.json)")
    ap.add_argument("--check", action="store_true", help="write nothing; fail unless OUT is the sealed CHOICES")
    args = ap.parse_args(argv)
    try:
        text = sealed_text(read_choices(args.choices))
    except (InvalidParameterError, OSError) as err:
        ap.exit(2, f"error: {err}\n")
    out = Path(args.out)
    if args.check:
        if not out.is_file() or out.read_text(encoding="utf-8") != text:
            ap.exit(1, f"error: {out} is not the sealed {args.choices}: run python -m wordbias.teaching.sealed "
                       f"{args.choices} {out}\n")
        print(f"{out} is up to date")
        return
    out.write_text(text, encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()
