"""Reading YAML safely (:func:`load_yaml`): the one loader every part of wordbias uses for its YAML files.

``yaml.safe_load`` builds no arbitrary Python objects, but it still has two traps for files people edit by hand:

* a key given twice in a mapping (two ``weat:`` sections) keeps the last and silently drops the first;
* anchors and aliases (``&a``, ``*a``) let a few hundred bytes stand for billions of values (the "billion
  laughs" document), which anything that walks or prints the result -- a check, an error message -- expands
  until memory runs out.

:func:`load_yaml` refuses both: a repeated key with its two lines; anchors and aliases as soon as the parser
meets the first one, before a value is built (a file that needs them, such as the embedding registry, asks
with ``aliases=True`` and gets a bound on how far they expand instead). Errors are
:class:`YamlFileError`, an :class:`~wordbias.core.errors.InvalidParameterError` (so a ``ValueError``) that is
also a ``yaml.YAMLError``, so code that caught either keeps working; each names the file, the line and what to
do.

A document read without aliases is parsed by libyaml (C) where PyYAML has it, under the same composer and
checks in Python (:class:`_FastLoader`): a word list of 200,000 words reads in about 2 s instead of 8 s. Anything
it refuses, and any character PyYAML's own reader would refuse, is read again by the pure-Python loader, so
errors keep PyYAML's wording, line and column.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, SequenceNode
from yaml.reader import Reader
from yaml.resolver import Resolver

from wordbias.core.errors import InvalidParameterError, YamlFileError

try:
    from yaml.cyaml import CParser  # libyaml's parser, where PyYAML was built with it
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    CParser = None

__all__ = ["load_yaml", "MAX_EXPANDED_NODES", "MAX_DEPTH"]

#: with ``aliases=True``: the most values (scalars, lists, mappings) a document may hold once its aliases
#: are expanded; the shipped files hold a few thousand
MAX_EXPANDED_NODES = 100_000
#: the deepest nesting read (a list in a list in ...): the shipped files go 6 levels deep; PyYAML composes and
#: builds values recursively, so 1,000 brackets would end in Python's RecursionError instead of a message
MAX_DEPTH = 100

_MERGE_TAG = "tag:yaml.org,2002:merge"
_NO_ALIASES = ("wordbias reads this file without YAML anchors and aliases (&name, *name), so that a small file "
               "cannot expand into a huge document; write the values out in full")




def _short(value: Any, limit: int = 60) -> str:
    """``repr`` of a key for a message, cut to ``limit`` characters (a key can be a long line)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _cut(text: str, limit: int = 40) -> str:
    """An anchor's name for a message, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _line(mark) -> int:
    """The 1-based line of a PyYAML mark."""
    return mark.line + 1


class _Checks:
    """The checks of both loaders below, made while the document is composed and built: an anchor or alias
    refused unless allowed, nesting deeper than :data:`MAX_DEPTH` refused, a key repeated in a mapping
    refused."""

    def _setup(self, source: str, aliases: bool) -> None:
        self._source = source
        self._aliases = aliases
        self._depth = 0

    def compose_node(self, parent, index):
        """Refuse an anchor or an alias when the parser reaches it, before anything is composed from it."""
        if not self._aliases:
            event = self.peek_event()
            if isinstance(event, AliasEvent):
                raise YamlFileError(f"{self._source}, line {_line(event.start_mark)}, column "
                                    f"{event.start_mark.column + 1}: YAML alias *{_cut(event.anchor)} "
                                    f"refused: {_NO_ALIASES}")
            if getattr(event, "anchor", None) is not None:
                raise YamlFileError(f"{self._source}, line {_line(event.start_mark)}, column "
                                    f"{event.start_mark.column + 1}: YAML anchor &{_cut(event.anchor)} "
                                    f"refused: {_NO_ALIASES}")
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()
                raise YamlFileError(f"{self._source}, line {_line(event.start_mark)}, column "
                                    f"{event.start_mark.column + 1}: values nested more than {MAX_DEPTH} deep "
                                    "(lists in lists, mappings in mappings); wordbias's files need a few levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        """Refuse a key given twice (``yaml.safe_load`` keeps the last silently), then build the mapping."""
        if isinstance(node, MappingNode):
            seen: dict[Any, Node] = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG:       # '<<': merged keys may be overridden, that is its use
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node)
                except TypeError:                     # an unhashable key: PyYAML's own error says so
                    continue
                if first is not key_node:
                    shown = key_node.value if isinstance(key_node.value, str) else key
                    raise YamlFileError(
                        f"{self._source}, line {_line(key_node.start_mark)}: duplicate key {_short(shown)}: "
                        f"first at line {_line(first.start_mark)}, again at line {_line(key_node.start_mark)}; "
                        f"YAML would keep only the last one: merge the two or remove one")
        return super().construct_mapping(node, deep=deep)


class _SafeLoader(_Checks, yaml.SafeLoader):
    """PyYAML's ``SafeLoader`` (no Python objects built from tags), pure Python, with :class:`_Checks`."""

    def __init__(self, text: str, source: str, aliases: bool):
        yaml.SafeLoader.__init__(self, text)
        self.name = source          # PyYAML's marks print the file's name, not "<unicode string>"
        self._setup(source, aliases)


if CParser is not None:
    class _FastLoader(_Checks, Composer, CParser, SafeConstructor, Resolver):
        """The same loader with libyaml's parser (C) under PyYAML's composer, constructor and resolver (Python):
        the same checks at the same events, the same values, about five times faster (a 200,000-word list:
        about 1.7 s instead of 8 s). Used for documents without aliases whose characters PyYAML's reader
        accepts; any error it meets is reported by the pure-Python loader instead, in PyYAML's words."""

        def __init__(self, text: str, source: str):
            CParser.__init__(self, text)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._setup(source, False)
else:  # pragma: no cover - PyYAML built without libyaml
    _FastLoader = None


def _expanded_size(root: Node, source: str, limit: int) -> int:
    """How many nodes the document holds once every alias is expanded (a node reached twice counts twice), by
    a walk of the composed graph -- where an alias is a shared node -- that stops once past ``limit``.

    Counting shared nodes once per path without expanding them keeps this fast for any document: each node
    is visited once and its expanded size remembered. A node that contains itself (``&a [*a]``) is refused."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            on_path.discard(key)
            size = 1 + sum(sizes[id(c)] for c in _children(node))
            if size > limit:
                raise YamlFileError(
                    f"{source}, line {_line(node.start_mark)}: the YAML aliases (*name) expand this value to more "
                    f"than {limit:,} values (the 'billion laughs' pattern); refused before reading it. Write the "
                    f"values out, or use fewer aliases")
            sizes[key] = size
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise YamlFileError(f"{source}, line {_line(node.start_mark)}: a YAML alias refers to a value that "
                                f"contains it (a recursive structure), which wordbias cannot read; write the value "
                                f"out")
        on_path.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) not in sizes:
                stack.append((child, False))
    return sizes[id(root)]


def _children(node: Node) -> list[Node]:
    """The nodes directly inside a list or mapping node (keys and values); none for a scalar."""
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _yaml_error(exc: yaml.YAMLError, text: str, source: str) -> YamlFileError:
    """PyYAML's error as a :class:`YamlFileError` naming the file, the line and column, and the problem."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if isinstance(exc, yaml.reader.ReaderError):   # a character YAML does not allow (a NUL, a control code)
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        return YamlFileError(f"{source}, line {line}, column {column}: YAML syntax error: character "
                             f"#x{exc.character:04x} is not allowed in YAML ({exc.reason}); remove it")
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    if context and getattr(exc, "context_mark", None) is not None and exc.context_mark is not mark:
        problem += f" ({context} at line {_line(exc.context_mark)})"
    where = f", line {_line(mark)}, column {mark.column + 1}" if mark is not None else ""
    return YamlFileError(f"{source}{where}: YAML syntax error: {problem}")


def _text(text_or_path: str | bytes | os.PathLike, source: str | None) -> tuple[str, str]:
    """``(text, source)``: a ``str`` is the YAML text itself; ``bytes`` and a file are decoded as UTF-8."""
    if isinstance(text_or_path, str):
        return text_or_path, source or "<string>"
    if isinstance(text_or_path, os.PathLike):
        source = source or str(text_or_path)
        data = Path(text_or_path).read_bytes()
    elif isinstance(text_or_path, (bytes, bytearray)):
        source, data = source or "<bytes>", bytes(text_or_path)
    else:
        raise InvalidParameterError(f"text_or_path must be YAML text (str), bytes or a path, not "
                                    f"{type(text_or_path).__name__}")
    try:
        return data.decode("utf-8"), source
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise YamlFileError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start}, line {line}); save the "
                            f"file as UTF-8") from None


def load_yaml(text_or_path: str | bytes | os.PathLike, *, source: str | None = None, aliases: bool = False,
              max_nodes: int = MAX_EXPANDED_NODES) -> Any:
    """Parse one YAML document safely: what ``yaml.safe_load`` returns, or a :class:`YamlFileError`.

    Parameters
    ----------
    text_or_path : str, bytes or path-like
        The YAML text (a ``str``), its UTF-8 bytes, or a file (a :class:`pathlib.Path` or other path-like; a
        ``str`` is always text, never a file name).
    source : str, optional
        What to call the document in errors (the file's path); default the path, or ``"<string>"``.
    aliases : bool
        Allow anchors and aliases (``&name``, ``*name``). Off by default: the first one is refused where the
        parser meets it. On, the document is refused if its aliases would expand it beyond ``max_nodes``
        values, or if an alias refers to a value that contains it; both are checked before any value is built.
    max_nodes : int
        With ``aliases=True``, the most scalars, lists and mappings the expanded document may hold.

    Returns
    -------
    The document as plain Python values (dicts, lists, str, int, float, bool, None, dates), or ``None`` for an
    empty one.

    Raises
    ------
    YamlFileError
        (an :class:`~wordbias.core.errors.InvalidParameterError` and a ``yaml.YAMLError``) for text that is not
        UTF-8, a YAML syntax error, a key given twice in a mapping, an anchor or alias (or too many of them).
        Each message starts with ``source`` and gives the line (both lines for a repeated key).

    Examples
    --------
    >>> load_yaml("weat:\\n  - id: t1\\n    words: [rose, tulip]\\n", source="lists.yaml")
    {'weat': [{'id': 't1', 'words': ['rose', 'tulip']}]}
    >>> load_yaml("weat: [a]\\nbattery: b\\nweat: [c]\\n", source="lists.yaml")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.YamlFileError: lists.yaml, line 3: duplicate key 'weat': first at line 1, again at line 3; YAML would keep only the last one: merge the two or remove one
    >>> load_yaml("a: &x [1, 2]\\nb: *x\\n", source="s.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.YamlFileError: s.yaml, line 1, column 4: YAML anchor &x refused: ...
    >>> load_yaml("a: &x [1, 2]\\nb: *x\\n", source="s.yaml", aliases=True)
    {'a': [1, 2], 'b': [1, 2]}
    >>> load_yaml("a: [1, 2\\n", source="s.yaml")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.YamlFileError: s.yaml, line 2, column 1: YAML syntax error: expected ',' or ']', but got '<stream end>' (while parsing a flow sequence at line 1)
    """
    text, source = _text(text_or_path, source)
    if not aliases and _FastLoader is not None and not Reader.NON_PRINTABLE.search(text):
        fast = _FastLoader(text, source)
        try:
            node = fast.get_single_node()
            return None if node is None else fast.construct_document(node)
        except YamlFileError:
            raise
        except yaml.YAMLError:
            pass                                  # told below by the pure-Python loader, in PyYAML's words
        finally:
            fast.dispose()
    try:
        loader = _SafeLoader(text, source, aliases)
    except yaml.YAMLError as exc:                 # the reader checks the characters as it is made
        raise _yaml_error(exc, text, source) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if aliases:
            _expanded_size(node, source, max_nodes)
        return loader.construct_document(node)
    except YamlFileError:
        raise
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, source) from None
    finally:
        loader.dispose()
