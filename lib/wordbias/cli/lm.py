"""``wordbias lm``: a language model's benchmarks (CrowS-Pairs, StereoSet, BEC-Pro), with the same outputs as the
other commands."""

from __future__ import annotations

from itertools import product
from pathlib import Path

from wordbias.cli.inputs import out_dir, show_progress
from wordbias.cli.output import finish, write_outputs
from wordbias.core.errors import CommandError

#: each benchmark's name in the page's title
_NAMES = {"crows-pairs": "CrowS-Pairs", "stereoset": "StereoSet", "bec-pro": "BEC-Pro"}
#: the smallest sample of each benchmark: one item per stratum (CrowS-Pairs' and StereoSet's bias types); BEC-Pro's four
#: professions, the fewest a correlation takes
_LEAST_SAMPLE = {"crows-pairs": 9, "stereoset": 4, "bec-pro": 4}


#: BEC-Pro's options and their values (``--language``, ``--columns``; ``--persons`` is one of its choices)
_BEC_PRO_OPTIONS = {"language": ("en", "de"), "columns": ("US", "DE", "BLS")}
_PERSONS = ("pronouns", "all")


def run_lm(args) -> int:
    """``wordbias lm MODEL [MODEL ...]``: the ``--benchmark`` (CrowS-Pairs under each convention, StereoSet's two
    tasks, or BEC-Pro's correlations with the shares of women) on each model, one job per model and specification
    (``--workers`` local processes or a Dask ``--scheduler``), as ``tidy.csv``, ``summary.html`` and the forest plot
    in ``--out``."""
    from wordbias.battery.lm_runs import RunSettings
    from wordbias.models.log_prob import LogProbCache

    _refuse(args)
    items = _ITEMS[args.benchmark](args)            # the data, and what it makes impossible, before any work
    out = out_dir(args.out, force=args.force)
    if not show_progress(args):                     # transformers' own bars (loading weights) too
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    log_probs = LogProbCache(None if args.cache_dir is None else Path(args.cache_dir) / "log-probs").folder
    settings = RunSettings(workers=args.workers, scheduler=args.scheduler, cache_dir=args.cache_dir,
                           log_probs=str(log_probs), batch_size=args.batch_size, progress=show_progress(args))
    frame = _RUNS[args.benchmark](args, items, settings)
    labels = ", ".join(dict.fromkeys(_labels(args)))
    written = write_outputs(frame, out, f"wordbias lm on {labels}: {_NAMES[args.benchmark]}", force=args.force)
    return finish(frame, written, args)


def _refuse(args) -> None:
    """The options that do not fit the benchmark or the models, refused before any work."""
    _refuse_models(args)
    least = _LEAST_SAMPLE[args.benchmark]
    if args.sample is not None and args.sample < least:
        raise CommandError(f"--sample {args.sample} is too small for {args.benchmark}: at least {least}, one per "
                           "stratum")
    _refuse_bec_pro(args)
    if args.benchmark == "crows-pairs":
        if args.n_permutations != 100_000 or args.n_resamples != 10_000:
            raise CommandError("--n-permutations and --n-resamples do not apply: CrowS-Pairs' intervals and p are "
                               "exact binomial ones (the difference between conventions has its own 10,000 "
                               "resamples)")
        if "pll" in (args.conventions or []) and len(args.conventions) > 1:
            raise CommandError("--convention pll scores a masked LM; harness and shared-tokens a causal one: not "
                               "both")
        return
    if args.conventions:
        raise CommandError(f"--convention applies to --benchmark crows-pairs only, not {args.benchmark}")
    if args.n_permutations != 100_000:
        raise CommandError(f"--n-permutations does not apply: {_NAMES[args.benchmark]} has no permutation test "
                           "(--n-resamples sets its bootstrap)")


def _refuse_models(args) -> None:
    """Several models: each once, each its own label, all masked or all causal where the benchmark's defaults
    differ between the two."""
    from wordbias.battery.lm_runs import model_label

    models = args.model
    if len(set(models)) != len(models):
        raise CommandError(f"MODEL: each model once; got {models}")
    if args.label is not None and len(models) > 1:
        raise CommandError(f"--label names one model; {len(models)} are given (each is named by its registered name "
                           "or its folder)")
    labels = [model_label(m) for m in models]
    if len(set(labels)) != len(labels):
        raise CommandError(f"MODEL: two models would share a name in the tables ({labels}): give folders of "
                           "different names")
    kinds = {is_masked(m) for m in models}
    if len(kinds) > 1 and (args.benchmark == "stereoset" or (args.benchmark == "crows-pairs"
                                                             and not args.conventions)):
        raise CommandError(f"MODEL: {args.benchmark} scores masked and causal models apart (a masked LM by its "
                           "pseudo-log-likelihood): give masked and causal models in separate runs")


def _refuse_bec_pro(args) -> None:
    """``--language``, ``--columns`` and ``--persons``: bec-pro's, each value known and given once."""
    given = [f"--{n}" for n in ("language", "columns", "persons") if getattr(args, n) is not None]
    if given and args.benchmark != "bec-pro":
        raise CommandError(f"{' and '.join(given)} apply to --benchmark bec-pro only, not {args.benchmark}")
    for name, allowed in _BEC_PRO_OPTIONS.items():
        values = getattr(args, name) or []
        unknown = [v for v in values if v not in allowed]
        if unknown or len(set(values)) != len(values):
            raise CommandError(f"--{name} takes some of {' '.join(allowed)}, each once; got {' '.join(values)}")
    if args.persons is not None and args.persons not in _PERSONS:
        raise CommandError(f"--persons is pronouns (He/She, Er/Sie) or all (the 18 person words), not "
                           f"{args.persons!r}")


def _labels(args) -> list[str]:
    from wordbias.battery.lm_runs import model_label

    return [args.label] if args.label else [model_label(m) for m in args.model]


def _models(args) -> list[str]:
    """The models as the jobs load them: a folder given by an absolute path on a cluster (its workers may run in
    another folder)."""
    return [str(Path(m).resolve()) if args.scheduler and Path(m).exists() else m for m in args.model]


def _crows_pairs_items(args):
    from wordbias.datasets import crows_pairs as data

    pairs = data.load()
    return pairs if args.sample is None else data.sample(pairs, args.sample, seed=args.seed)


def _crows_pairs(args, pairs, settings):
    """CrowS-Pairs' tidy rows under each convention, and the paired differences between the models."""
    from wordbias.battery.lm_runs import crows_pairs_runs

    pll = args.conventions == ["pll"] or (not args.conventions and is_masked(args.model[0]))
    conventions = args.conventions or (["pll"] if pll else ["harness", "shared-tokens"])
    return crows_pairs_runs(_models(args), pairs, conventions=conventions, labels=_labels(args), seed=args.seed,
                            settings=settings)


def _stereoset_items(args):
    from wordbias.datasets import crows_pairs
    from wordbias.datasets import stereoset as data

    masked = is_masked(args.model[0])
    examples = [data.load(task) for task in (("intrasentence",) if masked else data.TASKS)]
    if args.sample is not None:                     # stratified by bias type, as CrowS-Pairs' sample
        examples = [crows_pairs.sample(e, args.sample, seed=args.seed) for e in examples]
    return examples


def _stereoset(args, examples, settings):
    """StereoSet's tidy rows: the intrasentence task, and the intersentence one for a causal model."""
    from wordbias.battery.lm_runs import stereoset_runs

    return stereoset_runs(_models(args), examples, labels=_labels(args), n_resamples=args.n_resamples,
                          seed=args.seed, settings=settings)


def _bec_pro_items(args) -> dict:
    """Per language, the sentences (the pronouns' or every person word's; a sample of professions), checked to
    give each column the four professions a correlation needs."""
    from wordbias.battery.lm import professions_sample
    from wordbias.datasets import bec_pro as data
    from wordbias.measures.language_models.bec_pro import share_columns

    sentences = {}
    for language in args.language or ["en"]:
        s = data.load(language)
        s = data.pronoun_sentences(s) if (args.persons or "pronouns") == "pronouns" else s
        sentences[language] = s if args.sample is None else professions_sample(s, args.sample, seed=args.seed)
    shares = share_columns(data.load_professions(), data.load_occupations())
    for column, s in product(args.columns or _BEC_PRO_OPTIONS["columns"], sentences.values()):
        asked = {x.profession_en for x in s}
        found = sorted(asked & set(shares[column]))
        if len(found) < 4:
            raise CommandError(f"--columns {column}: {len(found)} of the {len(asked)} professions sampled have a "
                               f"{column} share of women ({', '.join(found) or 'none'}); a correlation needs 4: "
                               f"sample more (--sample) or leave {column} out of --columns")
    return sentences


def _bec_pro(args, sentences, settings):
    """BEC-Pro's tidy rows: per language, the correlation with each share of women."""
    from wordbias.battery.lm_runs import bec_pro_runs
    from wordbias.options import Resampling

    return bec_pro_runs(_models(args), sentences, columns=args.columns or _BEC_PRO_OPTIONS["columns"],
                        labels=_labels(args), resampling=Resampling(n_resamples=args.n_resamples, seed=args.seed),
                        settings=settings)


_ITEMS = {"crows-pairs": _crows_pairs_items, "stereoset": _stereoset_items, "bec-pro": _bec_pro_items}
_RUNS = {"crows-pairs": _crows_pairs, "stereoset": _stereoset, "bec-pro": _bec_pro}


def is_masked(model: str) -> bool:
    """Whether a model folder holds a masked LM (:func:`wordbias.battery.lm_runs.is_masked`)."""
    from wordbias.battery.lm_runs import is_masked as masked

    return masked(model)
