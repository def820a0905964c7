"""``wordbias lm``: a language model's benchmarks (CrowS-Pairs, StereoSet, BEC-Pro), with the same outputs as the
other commands."""

from __future__ import annotations

from pathlib import Path

from wordbias.cli.inputs import out_dir, show_progress
from wordbias.cli.output import finish, write_outputs
from wordbias.core.errors import CommandError

#: each benchmark's name in the page's title
_NAMES = {"crows-pairs": "CrowS-Pairs", "stereoset": "StereoSet", "bec-pro": "BEC-Pro"}
#: the smallest sample of each benchmark: one item per stratum (CrowS-Pairs' and StereoSet's bias types); BEC-Pro's four
#: professions, the fewest a correlation takes
_LEAST_SAMPLE = {"crows-pairs": 9, "stereoset": 4, "bec-pro": 4}


def run_lm(args) -> int:
    """``wordbias lm MODEL``: the ``--benchmark`` (CrowS-Pairs under each convention, StereoSet's two tasks, or
    BEC-Pro's correlation with the share of women), as ``tidy.csv``, ``summary.html`` and the forest plot in
    ``--out``."""
    from wordbias.models.log_prob import LogProbCache

    _refuse(args)
    out = out_dir(args.out, force=args.force)
    if not show_progress(args):                     # transformers' own bars (loading weights) too
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    masked = _is_masked(args.model) if args.benchmark != "crows-pairs" else False
    cache = None if masked else LogProbCache(None if args.cache_dir is None else Path(args.cache_dir) / "log-probs")
    frame = {"crows-pairs": _crows_pairs, "stereoset": _stereoset, "bec-pro": _bec_pro}[args.benchmark](
        args, masked, cache)
    written = write_outputs(frame, out, f"wordbias lm on {frame['embedding'].iloc[0]}: {_NAMES[args.benchmark]}",
                            force=args.force)
    return finish(frame, written, args)


def _refuse(args) -> None:
    """The options that do not fit the benchmark, refused before any work."""
    least = _LEAST_SAMPLE[args.benchmark]
    if args.sample is not None and args.sample < least:
        raise CommandError(f"--sample {args.sample} is too small for {args.benchmark}: at least {least}, one per "
                           "stratum")
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


def _crows_pairs(args, _masked, cache):
    """CrowS-Pairs' tidy rows under each convention."""
    from wordbias.battery.lm import crows_pairs_table, load_model
    from wordbias.datasets import crows_pairs as data

    conventions = args.conventions or None
    pll = conventions == ["pll"] or (conventions is None and _is_masked(args.model))
    conventions = conventions or (["pll"] if pll else ["harness", "shared-tokens"])
    model = load_model(args.model, convention=conventions[0], cache_dir=args.cache_dir)
    pairs = data.load()
    if args.sample is not None:
        pairs = data.sample(pairs, args.sample, seed=args.seed)
    return crows_pairs_table([model] * len(conventions), conventions=conventions, pairs=pairs, label=args.label,
                             batch_size=args.batch_size, cache=None if pll else cache, seed=args.seed,
                             progress=show_progress(args))


def _stereoset(args, masked, cache):
    """StereoSet's tidy rows: the intrasentence task, and the intersentence one for a causal model."""
    from wordbias.battery.lm import load_model, stereoset_table
    from wordbias.datasets import crows_pairs
    from wordbias.datasets import stereoset as data

    model = load_model(args.model, convention="pll" if masked else "harness", cache_dir=args.cache_dir)
    examples = [data.load(task) for task in (("intrasentence",) if masked else data.TASKS)]
    if args.sample is not None:                     # stratified by bias type, as CrowS-Pairs' sample
        examples = [crows_pairs.sample(e, args.sample, seed=args.seed) for e in examples]
    return stereoset_table(model, examples, label=args.label, n_resamples=args.n_resamples, seed=args.seed,
                           batch_size=args.batch_size, cache=cache)


def _bec_pro(args, masked, cache):
    """BEC-Pro's tidy rows: the correlation with the US share of women."""
    from wordbias.battery.lm import bec_pro_table, load_model, professions_sample
    from wordbias.datasets import bec_pro as data
    from wordbias.options import Resampling

    model = load_model(args.model, convention="pll" if masked else "harness", cache_dir=args.cache_dir)
    sentences = data.load("en")
    if args.sample is not None:
        sentences = professions_sample(sentences, args.sample, seed=args.seed)
    return bec_pro_table(model, sentences, label=args.label,
                         resampling=Resampling(n_resamples=args.n_resamples, seed=args.seed),
                         batch_size=args.batch_size, cache=cache)


def _is_masked(model: str) -> bool:
    """Whether a model folder holds a masked LM (its config names a ...ForMaskedLM architecture)."""
    import json

    config = Path(model) / "config.json"
    if not config.is_file():
        return False
    architectures = json.loads(config.read_text(encoding="utf-8")).get("architectures") or []
    return any(a.endswith("ForMaskedLM") for a in architectures)
