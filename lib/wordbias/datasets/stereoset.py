"""StereoSet (Nadeem, Bethke & Reddy 2021, doi:10.18653/v1/2021.acl-long.416): a context and three options, a
stereotype, an anti-stereotype and an unrelated one, over four bias types.

:func:`load` reads the bundled ``data/stereoset/dev.json.gz`` (the development split; provenance, checksums and
the CC BY-SA 4.0 licence in its ``SOURCE.md``), checks its structure, and returns typed examples
(:class:`StereoSetExample`) of one task: ``"intrasentence"`` (a sentence with a blank and three fillings, §3.1)
or ``"intersentence"`` (a context sentence and three candidate next sentences, §3.2). The measures are
:mod:`wordbias.measures.language_models.stereoset`.
"""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError

__all__ = ["BIAS_TYPES", "LABELS", "TASKS", "StereoSetExample", "data_file", "load"]

#: the four bias types (domains) of StereoSet (Nadeem et al. 2021, §3)
BIAS_TYPES = ("gender", "profession", "race", "religion")
#: the gold labels of an example's three options
LABELS = ("stereotype", "anti-stereotype", "unrelated")
#: the two tasks (Nadeem et al. 2021, §3.1 and §3.2)
TASKS = ("intrasentence", "intersentence")
#: the labels an annotator may give (``related``: a meaningful option of neither kind)
ANNOTATOR_LABELS = LABELS + ("related",)
FILE = "dev.json.gz"


@dataclass(frozen=True)
class StereoSetExample:
    """One StereoSet example, an entry of the file's ``data.intrasentence`` or ``data.intersentence`` list checked
    by :func:`load`: a context, its three options, and the annotators' votes on each.

    Attributes
    ----------
    id : str
        The example's id in the data.
    task : {"intrasentence", "intersentence"}
        Its task.
    target : str
        The group or term it is about (e.g. ``"chess player"``).
    bias_type : str
        One of :data:`BIAS_TYPES`.
    context : str
        The context: a sentence with ``BLANK`` (intrasentence) or the first sentence of a discourse
        (intersentence).
    stereotype, anti_stereotype, unrelated : str
        The option with each gold label: the blank filled (intrasentence) or the candidate next sentence
        (intersentence).
    sentence_ids : tuple of str
        The three options' ids, in the order stereotype, anti-stereotype, unrelated.
    agreement : tuple of int
        Per option (same order), how many annotators gave its gold label (the data's ``gold_label``, one of the
        most frequent of its annotators' labels), out of ``annotators``.
    annotators : tuple of int
        Per option, how many annotators labelled it.
    """

    id: str
    task: str
    target: str
    bias_type: str
    context: str
    stereotype: str
    anti_stereotype: str
    unrelated: str
    sentence_ids: tuple[str, str, str]
    agreement: tuple[int, int, int]
    annotators: tuple[int, int, int]


def data_file() -> Path:
    """The bundled StereoSet development split, ``data/stereoset/dev.json.gz``.

    Returns
    -------
    pathlib.Path
        The file: ``gzip -9n`` of the authors' ``dev.json`` (both SHA-256 sums in ``SOURCE.md``). A wheel installed
        without the data lacks it, and :func:`load` then raises FileNotFoundError.

    Examples
    --------
    >>> data_file().name
    'dev.json.gz'
    """
    return paths.DATA / "stereoset" / FILE


def load(task: str = "intrasentence", path: str | os.PathLike | None = None) -> list[StereoSetExample]:
    """Read one task of StereoSet into typed examples, checking the structure of every example.

    Parameters
    ----------
    task : {"intrasentence", "intersentence"}, default "intrasentence"
        The task (:data:`TASKS`).
    path : str or path-like, optional
        A StereoSet JSON file, gzipped when its name ends in ``.gz`` (``{"data": {task: [example, ...]}}``, the
        structure ``SOURCE.md`` describes); default the bundled file (:func:`data_file`).

    Returns
    -------
    list of StereoSetExample
        The examples, in the file's order (2,106 intrasentence and 2,123 intersentence in the bundled file).

    Raises
    ------
    FileNotFoundError
        When the file is missing.
    InvalidParameterError
        When ``task`` is unknown, the task is missing from the file, or an example lacks a field, has a bias type
        other than :data:`BIAS_TYPES`, an empty text, an intrasentence context without ``BLANK``, other than three
        options, gold labels other than one each of :data:`LABELS`, an unknown annotator label, or a gold label
        that is not among its annotators' most frequent; the message names the example.

    Examples
    --------
    >>> intra = load("intrasentence")
    >>> len(intra), intra[0].target, intra[0].bias_type, intra[0].stereotype
    (2106, 'chess player', 'profession', 'The chess player was asian.')
    """
    if task not in TASKS:
        raise InvalidParameterError(f"task must be one of {TASKS}, not {task!r}")
    path = Path(path) if path is not None else data_file()
    if not path.is_file():
        raise FileNotFoundError(f"StereoSet file {path} not found (the bundled copy is data/stereoset/{FILE})")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    examples = data.get("data", {}).get(task) if isinstance(data, dict) and isinstance(data.get("data"), dict) \
        else None
    if not isinstance(examples, list):
        raise InvalidParameterError(f"StereoSet file {path}: no list of {task} examples under data.{task}")
    return [_example(e, task, f"StereoSet file {path}, {task} example {i}") for i, e in enumerate(examples)]


def _text(e: dict, key: str, where: str) -> str:
    value = e.get(key) if isinstance(e, dict) else None
    if not isinstance(value, str) or not value.strip():
        raise InvalidParameterError(f"{where}: field {key!r} is missing or empty")
    return value


def _example(e: dict, task: str, where: str) -> StereoSetExample:
    """One checked example from the JSON object ``e``."""
    ident, target, context = (_text(e, k, where) for k in ("id", "target", "context"))
    where = f"{where} (id {ident})"
    bias = _text(e, "bias_type", where)
    if bias not in BIAS_TYPES:
        raise InvalidParameterError(f"{where}: bias_type is {bias!r}, not one of {BIAS_TYPES}")
    if task == "intrasentence" and "BLANK" not in context:
        raise InvalidParameterError(f"{where}: the intrasentence context {context!r} has no BLANK")
    options = e.get("sentences")
    if not isinstance(options, list) or len(options) != 3:
        raise InvalidParameterError(f"{where}: needs exactly three sentences, has "
                                    f"{len(options) if isinstance(options, list) else options!r}")
    gold = {}
    for s in options:
        label = _text(s, "gold_label", where)
        if label not in LABELS or label in gold:
            raise InvalidParameterError(f"{where}: the gold labels must be one each of {LABELS}; got "
                                        f"{[s.get('gold_label') if isinstance(s, dict) else s for s in options]}")
        gold[label] = (_text(s, "sentence", where), _text(s, "id", where), *_votes(s, label, where))
    texts, ids, agree, total = zip(*(gold[label] for label in LABELS))
    return StereoSetExample(ident, task, target, bias, context, *texts, tuple(ids), tuple(agree), tuple(total))


def _votes(s: dict, gold: str, where: str) -> tuple[int, int]:
    """(annotators who gave ``gold``, annotators) of one option, checking ``gold`` is among the most frequent."""
    labels = s.get("labels")
    if not isinstance(labels, list) or not labels:
        raise InvalidParameterError(f"{where}: sentence {s.get('id')!r} has no annotators' labels")
    counts = Counter(x.get("label") if isinstance(x, dict) else None for x in labels)
    unknown = set(counts) - set(ANNOTATOR_LABELS)
    if unknown:
        raise InvalidParameterError(f"{where}: sentence {s.get('id')!r} has annotator label(s) {sorted(map(str, unknown))}"
                                    f", not of {ANNOTATOR_LABELS}")
    if counts[gold] < max(counts.values()):
        raise InvalidParameterError(f"{where}: sentence {s.get('id')!r} has gold label {gold!r} given by "
                                    f"{counts[gold]} annotators, fewer than another label ({dict(counts)})")
    return counts[gold], len(labels)
