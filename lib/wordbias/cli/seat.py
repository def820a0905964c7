"""``wordbias seat``: May et al.'s (2019) Sentence Encoder Association Tests on a sentence encoder or, as CBoW, a
static embedding (:func:`wordbias.battery.seat.seat_battery`), written as ``tidy.csv`` like the other commands."""

from __future__ import annotations

import sys
from pathlib import Path

from wordbias.cli.inputs import out_dir, show_progress
from wordbias.cli.output import finish, write_outputs
from wordbias.core.errors import CommandError
from wordbias.options import Resampling, Words


def run_seat(args) -> int:
    """``wordbias seat MODEL``: the shipped SEATs (``--tests``, default all 46) or a YAML file's sentence sets."""
    from wordbias.battery import seat as battery_seat
    from wordbias.datasets import seat as data_seat

    if args.lists is not None:
        if args.tests:
            raise CommandError("--tests picks shipped SEATs; it does not apply to --lists")
        name, tests = data_seat.load_sentence_lists(args.lists)
        battery, paper = f"user:{name}", "user"
    else:
        # the parser refuses an empty name (--tests '' would otherwise run all 46 tests)
        tests = [t.strip() for arg in args.tests for t in arg.split(",")] if args.tests else None
        battery, paper = "may2019", "may2019"
    if args.pooling == "cbow":
        args.pooling = None
    out = out_dir(args.out, force=args.force)
    model, label = args.model, args.label
    if args.trust_pickle and Path(model).is_file():  # a static embedding file the user trusts: gensim's own loader
        from wordbias import embeddings

        model = embeddings.load(args.model, progress=False, trust=True)
        label = label or embeddings.label(args.model)
    frame, vectors = battery_seat.seat_battery(
        model, tests, label=label, battery=battery, paper=paper, pooling=args.pooling,
        resampling=Resampling(n_resamples=args.n_resamples, n_permutations=args.n_permutations, seed=args.seed),
        words=Words(case_fold=False, balance_targets=args.balance), batch_size=args.batch_size, device=args.device,
        progress=show_progress(args))
    if not args.quiet and vectors.seconds > 0:
        print(f"wordbias: encoded {len(vectors.sentences)} sentences in {vectors.seconds:.1f} s "
              f"({vectors.rate:.0f} sentences/s)", file=sys.stderr)
    written = write_outputs(frame, out, f"wordbias seat on {frame['embedding'].iloc[0]}", force=args.force)
    return finish(frame, written, args)
