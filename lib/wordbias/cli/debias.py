"""``wordbias debias``: debias an embedding with one or more methods (hard, double-hard, INLP, LEACE), write each
debiased embedding as a word2vec binary file and, unless ``--no-checks``, the methods x checks table
(:func:`wordbias.battery.debias.debias_table`) as ``checks.csv`` with its figure ``checks.png``/``.pdf``.

``--out`` must be a new folder, an empty one, or one wordbias created (its marker,
:mod:`wordbias.core.ownership`): the command replaces its own named files there and writes into a folder of the
user's only with ``--force``. The run's files are written together (:func:`wordbias.core.atomic.run_files`): each to a
temporary name first, all moved into place only once every one is written, so a failed check or a full disk
leaves the earlier result whole."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

from wordbias.cli.inputs import embedding_label, load_embedding
from wordbias.core.atomic import run_files
from wordbias.core.errors import CommandError

#: the file suffixes left out of a debiased embedding's file name (``mine.w2v.txt`` -> ``mine+inlp.bin``)
_SUFFIXES = (".gz", ".zip", ".txt", ".bin", ".vec", ".kv", ".model", ".w2v")


def _stem(label: str) -> str:
    stem = label
    while True:
        low = stem.lower()
        cut = next((s for s in _SUFFIXES if low.endswith(s) and len(stem) > len(s)), None)
        if cut is None:
            return stem
        stem = stem[:-len(cut)]


def debiased_file_name(label: str, method: str) -> str:
    """The file of an embedding debiased by ``method``: ``<label without extensions>+<method>.bin``.

    Examples
    --------
    >>> debiased_file_name("glove-6b-50d", "inlp"), debiased_file_name("mine.w2v.txt.gz", "hard")
    ('glove-6b-50d+inlp.bin', 'mine+hard.bin')
    """
    return f"{_stem(label)}+{method}.bin"


def _out_folder(out: str, names: list[str], force: bool = False) -> Path:
    """``--out``: checked by the one output rule (:func:`wordbias.cli.output.prepare_out`: refused unless new,
    empty or wordbias's, and unless each file of ``names`` is absent or one wordbias wrote there, unchanged, the
    run manifest; ``force`` allows a folder of the user's), then created and, new or empty, marked."""
    from wordbias.cli.output import prepare_out

    return prepare_out(out, names, force=force)


def write_word2vec(kv, path: Path) -> Path:
    """Write ``kv`` as a word2vec binary file at ``path``, atomically (a word holding whitespace is refused:
    the format separates the word from its vector by a space)."""
    from wordbias.core.atomic import atomic_file
    from wordbias.core.io_errors import reraise_disk_full

    bad = next((w for w in kv.index_to_key if not w or any(c.isspace() for c in w)), None)
    if bad is not None:
        raise CommandError(f"cannot write {path.name}: the word {bad!r} is empty or holds whitespace, which the "
                           "word2vec format cannot store")
    with reraise_disk_full(path, "the debiased embedding"), atomic_file(path) as tmp:
        kv.save_word2vec_format(str(tmp), binary=True, write_header=True)
    return path


def run_debias(args) -> int:
    """``wordbias debias EMBEDDING --method M [--method ...] --out DIR``: debias, write the embeddings and (unless
    ``--no-checks``) the checks table and figure; print what was written."""
    from wordbias.battery import debias as battery

    methods = list(dict.fromkeys(args.method))
    label = embedding_label(args.embedding)
    names = [debiased_file_name(label, m) for m in methods] + ["methods.csv"] + \
        (["checks.csv", "checks.png", "checks.pdf"] if args.checks else [])
    out = _out_folder(args.out, names, args.force)
    say = (lambda msg: None) if args.quiet else (lambda msg: print(f"wordbias: {msg}", file=sys.stderr, flush=True))
    start = time.perf_counter()
    kv = load_embedding(args.embedding, args)
    say(f"loaded {label}: {len(kv):,} words x {kv.vector_size} in {time.perf_counter() - start:.1f} s")
    run = battery.debias_methods(kv, methods, seed=args.seed, label=_stem(label),
                                    n_iterations=args.inlp_iterations, progress=say)
    with run_files(out, names=names, force=args.force):    # every file moved into place together, or none
        written = _write_run(args, out, label, kv, run, say)
    if not args.quiet:
        print(f"wrote {len(written)} files to {out}: " + ", ".join(p.name for p in written))
    return 0


def _write_run(args, out: Path, label: str, kv, run, say) -> list[Path]:
    """The debiased embeddings, methods.csv and (unless ``--no-checks``) the checks' table and figure."""
    import pandas as pd

    from wordbias.battery import debias as battery
    from wordbias.core import figures as plots

    written = []
    rows = []
    for method, debiased in run.embeddings.items():
        path = write_word2vec(debiased, out / debiased_file_name(label, method))
        written.append(path)
        rows.append({"method": method, "file": path.name, "seconds": round(run.seconds[method], 3),
                     "words": len(debiased), "dim": debiased.vector_size,
                     "removed": battery.methods_table(run).loc[method, "removed"]})
        say(f"wrote {path}")
    methods_csv = out / "methods.csv"
    _write_csv(pd.DataFrame(rows), methods_csv)
    written.append(methods_csv)
    if args.checks:
        say("checks: every method x every check (WEAT 6, direct bias, Gonen & Goldberg's, utility)")
        with contextlib.redirect_stdout(sys.stderr):     # debias_table's progress lines go to stderr
            table = battery.debias_table(kv, run.embeddings, seed=args.seed, n_resamples=args.n_resamples,
                                         n_cluster_resamples=max(10, args.n_resamples // 10),
                                         restrict_vocab=args.restrict_vocab or None, progress=not args.quiet)
        for note in table.attrs.get("notes", []):
            say(f"note: {note}")
        for method, failed in table.attrs.get("errors", {}).items():
            for check, reason in failed.items():
                say(f"not run: {check} on {method}: {reason}")
        checks_csv = out / "checks.csv"
        battery.write_checks(table, checks_csv)
        written.append(checks_csv)
        fig = battery.mark_chance(battery.debias_figure(table),
                                     title=f"Debiasing {label}: every method x every check (95% intervals)")
        written += plots.save(fig, out, "checks")
        import matplotlib.pyplot as plt

        plt.close(fig)
        if not args.quiet:
            print(battery.show_checks(table).to_string())
    return written


def _write_csv(frame, path: Path) -> None:
    from wordbias.core.tidy import write_csv  # atomic, safe to open in a spreadsheet

    write_csv(frame, path, what=path.name, float_format="%.6g")
