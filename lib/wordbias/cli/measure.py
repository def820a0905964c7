"""The commands that measure: ``weat`` (WEATs of a battery or of a user's lists on one embedding), ``report``
(every static-embedding test of the four papers), ``compare`` (the report's battery across embeddings) and
``contextual`` (Kurita et al.'s tests on a contextual model)."""

from __future__ import annotations

import sys
from pathlib import Path

from wordbias.cli.inputs import embedding_label, embedding_labels, load_embedding, out_dir, show_progress, split_label
from wordbias.cli.output import finish, write_outputs
from wordbias.core.errors import CommandError
from wordbias.options import Resampling, Words


def _resampling(args) -> Resampling:
    """The command's ``--seed``, ``--n-permutations`` and ``--n-resamples`` as a :class:`Resampling`."""
    return Resampling(n_resamples=args.n_resamples, n_permutations=args.n_permutations, seed=args.seed)


def run_weat(args) -> int:
    """``wordbias weat``: Caliskan et al.'s WEATs (their lists as ``--variant`` gives them) or a lists file's
    WEATs on one embedding."""
    from wordbias.battery import weat as battery_weat
    from wordbias.datasets import stimuli, user_lists
    from wordbias.embeddings.ensemble import is_ensemble
    from wordbias.measures.association import measurement

    if args.lists is not None:
        if args.variant is not None:
            raise CommandError("--variant picks Caliskan et al.'s lists; it does not apply to --lists")
        lists = user_lists.read_user_lists(args.lists)
        if not lists.weat:
            raise CommandError(f"{args.lists} has no WEATs (a 'weat' list); `wordbias weat` runs WEATs")
        if lists.wefat:
            print(f"wordbias: note: the {len(lists.wefat)} WEFAT(s) of {args.lists} are not run by `wordbias "
                  "weat` (only its WEATs)", file=sys.stderr)
        specs, battery, paper = list(lists.weat), f"user:{lists.battery}", "user"
        title = f"{lists.battery} ({Path(args.lists).name})"
    else:
        variant = args.variant or "glove"
        specs, paper = stimuli.weat_tests("caliskan2017", variant=variant), "caliskan2017"
        battery = "caliskan2017" if variant == "glove" else f"caliskan2017:{variant}"
        title = f"Caliskan et al. (2017) WEATs, {variant} lists"
    out = out_dir(args.out, force=args.force)
    label = args.label or embedding_label(args.embedding)
    case_fold = {"auto": None, "on": True, "off": False}[args.case_fold]
    if is_ensemble(args.embedding):
        from wordbias.battery import ensemble as battery_ensemble

        frame = battery_ensemble.weat_battery(
            args.embedding, specs, battery=battery, paper=paper, label=label, workers=args.workers,
            scheduler=args.scheduler, progress=show_progress(args),
            resampling=Resampling(n_resamples=args.n_resamples, n_permutations=args.n_permutations, seed=args.seed),
            words=Words(case_fold=case_fold, balance_targets=args.balance, min_words=args.min_words,
                        min_fraction=args.min_coverage))
        written = write_outputs(frame, out, f"wordbias weat: {title} on the ensemble {label}", force=args.force)
        return finish(frame, written, args)
    kv = load_embedding(args.embedding, args)
    results = measurement.weats(kv, specs, family=f"{battery} on {label}", resampling=_resampling(args),
                                words=Words(case_fold=case_fold, balance_targets=args.balance,
                                            min_words=args.min_words, min_fraction=args.min_coverage),
                                progress=show_progress(args))
    report_balancing(results)
    frame = battery_weat.weat_rows(results, label=label, battery=battery, paper=paper, specs=specs,
                                   paper_key="word2vec" if all(s.variant == "word2vec" for s in specs) else "glove")
    written = write_outputs(frame, out, f"wordbias weat: {title} on {label}", force=args.force)
    return finish(frame, written, args)


def report_balancing(results) -> None:
    """Name on stderr, one line per test, the words random balancing deleted from its target sets, the seed, d over
    the balancing draws and d without balancing (:class:`wordbias.measures.association.weat.BalanceSpread`)."""
    for m in results:
        spread = m.balancing
        if spread is not None:
            print(f"wordbias: note: {m.test}: {spread.text()} (--balance none keeps both sets whole)",
                  file=sys.stderr)


def _user_lists(path: str, command: str):
    """A user's lists for ``command``: their WEATs, with a note on stderr for WEFATs it does not run."""
    from wordbias.datasets import user_lists

    lists = user_lists.read_user_lists(path)
    if not lists.weat:
        raise CommandError(f"{path} has no WEATs (a 'weat' list); `wordbias {command}` runs a lists file's WEATs")
    if lists.wefat:
        print(f"wordbias: note: the {len(lists.wefat)} WEFAT(s) of {path} are not run by `wordbias {command}` "
              "(only its WEATs)", file=sys.stderr)
    return lists


def import_plotting() -> None:
    """Import what the pages and figures need (matplotlib's pyplot and fonts: about 0.7 s), while a report's
    forked UBE still runs (:func:`wordbias.battery.report.report`'s ``while_waiting``)."""
    from wordbias.battery import summary  # noqa: F401
    from wordbias.core import figures  # noqa: F401


def run_report(args) -> int:
    """``wordbias report``: every static-embedding test of the four papers on one embedding, or a lists file's
    WEATs."""
    from wordbias.battery import report as battery_report
    from wordbias.battery import weat as battery_weat
    from wordbias.embeddings.ensemble import is_ensemble

    lists = None
    if args.lists is not None:
        if args.no_ube:
            raise CommandError("--no-ube applies to the report's battery; with --lists no UBE run is made")
        lists = _user_lists(args.lists, "report")
    out = out_dir(args.out, force=args.force)
    label = args.label or embedding_label(args.embedding)
    if is_ensemble(args.embedding):
        from wordbias.battery import ensemble as battery_ensemble

        options = dict(workers=args.workers, scheduler=args.scheduler, progress=show_progress(args), label=label,
                       seed=args.seed, n_permutations=args.n_permutations, n_resamples=args.n_resamples,
                       min_words=args.min_words, min_fraction=args.min_coverage, balance_targets=args.balance)
        if lists is None:
            frame = battery_ensemble.report(args.embedding, ube=not args.no_ube, **options)
            title = f"wordbias report on the ensemble {label}"
        else:
            frame = battery_ensemble.weat_battery(
                args.embedding, list(lists.weat), battery=f"user:{lists.battery}", paper="user", label=label,
                workers=args.workers, scheduler=args.scheduler, progress=show_progress(args),
                resampling=Resampling(n_resamples=args.n_resamples, n_permutations=args.n_permutations, seed=args.seed),
                words=Words(min_words=args.min_words, min_fraction=args.min_coverage, balance_targets=args.balance))
            title = f"wordbias report: {lists.battery} ({Path(args.lists).name}) on the ensemble {label}"
        written = write_outputs(frame, out, title, force=args.force)
        return finish(frame, written, args)
    kv = load_embedding(args.embedding, args)
    if lists is None:
        frame = battery_report.report(kv, label=label, seed=args.seed, n_permutations=args.n_permutations,
                                      n_resamples=args.n_resamples, ube=not args.no_ube, progress=show_progress(args),
                                      min_words=args.min_words, min_fraction=args.min_coverage,
                                      balance_targets=args.balance, concurrent=True, while_waiting=import_plotting)
        title = f"wordbias report on {label}"
    else:
        frame = battery_weat.weat_battery(kv, list(lists.weat), label=label, battery=f"user:{lists.battery}",
                                          paper="user", resampling=_resampling(args),
                                          words=Words(min_words=args.min_words, min_fraction=args.min_coverage,
                                                      balance_targets=args.balance),
                                          progress=show_progress(args))
        title = f"wordbias report: {lists.battery} ({Path(args.lists).name}) on {label}"
    written = write_outputs(frame, out, title, force=args.force)
    return finish(frame, written, args)


def run_compare(args) -> int:
    """``wordbias compare``: the report's battery, or a lists file's WEATs, on two or more embeddings, stacked
    into one table with a heat map."""
    from wordbias.battery import compare
    from wordbias.embeddings.ensemble import is_ensemble

    if len(args.embeddings) < 2:
        raise CommandError("compare needs two or more embeddings (use `wordbias report` for one)")
    given = [split_label(a) for a in args.embeddings]
    names = [name for _, name in given]
    labels = embedding_labels(names)
    labels = [own or lab for (own, _), lab in zip(given, labels)]
    if len(set(labels)) != len(labels):
        raise CommandError(f"two embeddings share a label: {sorted({x for x in labels if labels.count(x) > 1})}; "
                           "give each its own with LABEL=PATH")
    options = {"seed": args.seed, "n_permutations": args.n_permutations, "n_resamples": args.n_resamples,
               "progress": show_progress(args), "min_words": args.min_words, "min_fraction": args.min_coverage,
               "common_vocabulary": args.common_vocabulary}
    if args.balance != "random":
        options["balance_targets"] = args.balance
    if args.lists is not None:
        if args.no_ube:
            raise CommandError("--no-ube applies to the report's battery; with --lists no UBE run is made")
        options["lists"] = _user_lists(args.lists, "compare")
    else:
        options["ube"] = not args.no_ube
    out = out_dir(args.out, force=args.force)
    options.update(workers=args.workers or 1, scheduler=args.scheduler)
    parallel = (args.workers or 1) > 1 or args.scheduler is not None
    if "ube" in options and not parallel:
        options.update(concurrent=True, while_waiting=import_plotting)   # each report's UBE beside its other tests
    # an ensemble travels as its path (its runs are loaded where they are measured); so does every embedding when
    # the embeddings are measured in parallel (each worker loads its own; with --trust-pickle they are loaded here)
    in_workers = parallel and args.cache_dir is None and not args.trust_pickle
    loaded = {lab: (name if is_ensemble(name) or in_workers else load_embedding(name, args))
              for lab, name in zip(labels, names)}
    frame = compare.compare(loaded, **options)
    written = write_outputs(frame, out, "wordbias compare: " + ", ".join(labels), heatmap=True, force=args.force)
    return finish(frame, written, args)


def run_contextual(args) -> int:
    """``wordbias contextual``: Kurita et al.'s contextual WEAT and log-probability test on a model."""
    from wordbias.battery import contextual
    from wordbias.datasets import user_lists

    specs, battery = None, None
    if args.lists is not None:
        lists = user_lists.read_user_lists(args.lists)
        if not lists.weat:
            raise CommandError(f"{args.lists} has no WEATs (a 'weat' list); `wordbias contextual` runs WEATs")
        specs, battery = list(lists.weat), f"user:{lists.battery}"
    elif args.templates:
        raise CommandError("--template applies to --lists; the paper's categories use the paper's templates")
    out = out_dir(args.out, force=args.force)
    frame = contextual.report(args.model, label=args.label, specs=specs,
                              templates=tuple(args.templates or contextual.DEFAULT_TEMPLATES), battery=battery,
                              seed=args.seed, n_permutations=args.n_permutations, n_resamples=args.n_resamples,
                              device=args.device, progress=show_progress(args))
    written = write_outputs(frame, out, f"wordbias contextual on {frame['embedding'].iloc[0]}", force=args.force)
    return finish(frame, written, args)
