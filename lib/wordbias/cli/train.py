"""``wordbias train``: word embeddings trained on a corpus, several runs (seeds, bootstrap samples) as an
ensemble (:func:`wordbias.models.train.train_ensemble`); with ``--swap-rate``, one ensemble per rate of a
counterfactual swap of word pairs, a ladder of planted bias (:func:`wordbias.models.ladder.train_ladder`)."""

from __future__ import annotations

import json
import shlex
import sys

from wordbias.cli.inputs import show_progress
from wordbias.core.errors import CommandError


def run_train(args) -> int:
    """``wordbias train CORPUS --out DIR``: train ``--seeds`` runs and ``--bootstrap`` runs, write the runs and
    the manifest, print what was written."""
    from wordbias.cli.output import prepare_out
    from wordbias.datasets import corpora
    from wordbias.models import train

    if args.seeds + args.bootstrap < 1:
        raise CommandError("nothing to train: give --seeds N or --bootstrap N (at least one run)")
    rates = _swap_rates(args)
    if args.documents is not None and (args.corpus in corpora.SHIPPED):
        raise CommandError("--documents applies to a single text file, not to a shipped corpus")
    if args.encoding is not None and (args.corpus in corpora.SHIPPED):   # not silently ignored
        raise CommandError(f"--encoding applies to your own text files, not to a shipped corpus ({args.corpus}'s "
                           "files are read in their own known encodings)")
    # --out first, by the one output rule (train_ensemble checks it again, at every depth, before training); no
    # --force: the ensemble takes the folder's place as a whole, which would remove the user's files in it
    prepare_out(args.out, (), create=False, force_option=None)
    spec = corpora.CorpusSpec(
        source=args.corpus if args.corpus in corpora.SHIPPED else str(_absolute(args.corpus)),
        lowercase=not args.keep_case, encoding=args.encoding or "utf-8", documents=args.documents or "auto",
        select=tuple(args.select) if args.select else None)
    settings = train.TrainingSettings(method=args.method, architecture=args.architecture, vector_size=args.dim,
                                      window=args.window, min_count=args.min_count, epochs=args.epochs,
                                      negative=args.negative)
    command = "wordbias " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["train"] else None
    if rates is not None:
        return _run_ladder(args, spec, settings, rates, command)
    manifest = train.train_ensemble(spec, args.out, settings=settings, seeds=args.seeds, bootstrap=args.bootstrap,
                                    seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                                    cache_dir=args.cache_dir, progress=show_progress(args), command=command)
    if not args.quiet:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        c = data["corpus"]
        print(f"trained {len(data['runs'])} runs ({args.seeds} seeds, {args.bootstrap} bootstrap samples) of "
              f"{args.method} {args.architecture} {args.dim}d on {c['source']} ({c['n_documents']:,} documents, "
              f"{c['n_tokens']:,} tokens)")
        print(f"wrote {manifest} and {manifest.parent / 'runs'}/")
        print(f"measure it: wordbias weat {shlex.quote(str(manifest.parent))} --out OUT")
    return 0


def _swap_rates(args) -> tuple[float, ...] | None:
    """The rates of ``--swap-rate`` (None without it), each a number in [0, 1], none repeated; ``--swap-pairs``
    and ``--swap-seed`` only with it."""
    if args.swap_rate is None:
        for option, value in (("--swap-pairs", args.swap_pairs), ("--swap-seed", args.swap_seed)):
            if value is not None:
                raise CommandError(f"{option} applies to a ladder of swapped corpora: give --swap-rate too (e.g. "
                                   "--swap-rate 0,0.25,0.5,0.75,1)")
        return None
    rates = []
    for i, item in enumerate(args.swap_rate.split(","), 1):
        try:
            rate = float(item)
        except ValueError:
            rate = None
        if rate is None or not 0 <= rate <= 1:   # NaN fails too
            raise CommandError(f"--swap-rate {args.swap_rate!r}: item {i} ({item.strip()!r}) is not a rate; give "
                               "numbers in [0, 1] (the share of sentences swapped) separated by commas, e.g. "
                               "0,0.25,0.5,0.75,1")
        if rate in rates:
            raise CommandError(f"--swap-rate {args.swap_rate!r}: the rate {item.strip()} is given twice; each rate is "
                               "one ensemble")
        rates.append(rate)
    return tuple(rates)


def _run_ladder(args, spec, settings, rates: tuple[float, ...], command: str | None) -> int:
    """``--swap-rate``: train the ladder, print what was written and how to measure it."""
    from wordbias.models import ladder as ladders

    ladder = ladders.LadderSpec(rates=rates, pairs=args.swap_pairs or "bolukbasi", swap_seed=args.swap_seed or 0)
    path = ladders.train_ladder(spec, args.out, ladder, settings=settings, seeds=args.seeds, bootstrap=args.bootstrap,
                                seed=args.seed, workers=args.workers, scheduler=args.scheduler,
                                cache_dir=args.cache_dir, progress=show_progress(args), command=command)
    if not args.quiet:
        data = json.loads(path.read_text(encoding="utf-8"))
        c, pairs = data["corpus"], data["pairs"]
        runs = args.seeds + args.bootstrap
        print(f"trained a ladder of {len(rates)} rates x {runs} runs ({args.seeds} seeds, {args.bootstrap} bootstrap "
              f"samples) of {args.method} {args.architecture} {args.dim}d on {c['source']} ({c['n_sentences']:,} "
              f"sentences, {c['n_tokens']:,} tokens), {pairs['n_pairs']} pairs ({pairs['source']}) swapped")
        for entry in data["ensembles"]:
            print(f"  rate {ladders.rate_label(entry['rate'])}: {entry['n_sentences_swapped']:,} sentences drawn, "
                  f"{entry['n_sentences_changed']:,} changed; {path.parent / entry['path']}")
        print(f"wrote {path}")
        first = path.parent / data["ensembles"][-1]["path"]
        print(f"measure it: wordbias validity {shlex.quote(str(path.parent))} --out OUT (measure a rate: wordbias "
              f"weat {shlex.quote(str(first.parent))} --out OUT)")
    return 0


def _absolute(path: str):
    from pathlib import Path

    p = Path(path).expanduser()
    if not p.exists():
        raise CommandError(f"{path}: no such file or folder, and not a shipped corpus (brown, state_union, "
                           "inaugural)")
    return p.resolve()
