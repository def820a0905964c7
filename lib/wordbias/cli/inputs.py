"""What the commands take in: an embedding named or given by path (with its label in the outputs), the ``--out``
folder, whether to show progress; what is wrong with them is a :class:`~wordbias.core.errors.CommandError`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from wordbias.core.errors import CommandError


def embedding_label(name_or_path: str) -> str:
    """The embedding's label in outputs: the registered name, else the file name with its extensions
    (``mine.w2v.txt`` and ``mine.w2v.bin`` stay apart)."""
    from wordbias.embeddings import REGISTRY

    if name_or_path in REGISTRY:
        return name_or_path
    return Path(name_or_path).name or str(name_or_path)


def split_label(arg: str) -> tuple[str | None, str]:
    """``LABEL=PATH`` as (label, path); an argument that is an existing path or a registered name as it is
    (a file name may hold ``=``)."""
    from wordbias.embeddings import REGISTRY

    label, eq, rest = arg.partition("=")
    if not eq or arg in REGISTRY or os.path.lexists(arg):
        return None, arg
    if not label.strip() or not rest:
        raise CommandError(f"{arg!r}: write LABEL=PATH (a label, '=', then a registered name or a path)")
    return label.strip(), rest


def embedding_labels(names: list[str]) -> list[str]:
    """Labels for several embeddings, the full path as given where file names collide; one embedding given
    twice, under any spelling (``a.txt`` and ``./a.txt``, an absolute path, a symbolic link, a registered name
    and its file), is refused (:func:`wordbias.battery.compare.check_distinct`)."""
    from wordbias.battery import compare

    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise CommandError(f"the same embedding is given twice: {dup}; compare needs different embeddings")
    compare.check_distinct([(n, n) for n in names])
    labels = [embedding_label(n) for n in names]
    return [n if labels.count(lab) > 1 else lab for n, lab in zip(names, labels)]


def out_dir(out: str, *, force: bool = False) -> Path:
    """The ``--out`` folder, checked by the one output rule and created (:func:`wordbias.cli.output.prepare_out`:
    not empty, not the checkout's root, home or ``/``, not inside the package, the data, results/ or figures/,
    not a file, not a link to a folder of the user's; absent, empty or wordbias's, each file the command may
    write there, :data:`wordbias.cli.output.RUN_FILES`, absent or wordbias's, unchanged, unless ``force``), before
    any work."""
    from wordbias.cli.output import RUN_FILES, prepare_out

    return prepare_out(out, RUN_FILES, force=force)


def show_progress(args) -> bool:
    """Progress bars on stderr only when it is a terminal and not ``--quiet``: a log or a pipe gets none (a bar
    redrawn with carriage returns would share lines with the warnings there)."""
    stream = sys.stderr
    return not args.quiet and bool(getattr(stream, "isatty", lambda: False)())


def load_embedding(name_or_path: str, args):
    from wordbias import embeddings

    options = {} if args.cache_dir is None else {"cache_dir": args.cache_dir}
    return embeddings.load(name_or_path, progress=show_progress(args), trust=getattr(args, "trust_pickle", False),
                           **options)
