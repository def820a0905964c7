"""``wordbias lm``: a language model's benchmarks (CrowS-Pairs), with the same outputs as the other commands."""

from __future__ import annotations

from pathlib import Path

from wordbias.cli.inputs import out_dir, show_progress
from wordbias.cli.output import finish, write_outputs
from wordbias.core.errors import CommandError


def run_lm(args) -> int:
    """``wordbias lm MODEL``: CrowS-Pairs under each convention, as ``tidy.csv``, ``summary.html`` and the forest
    plot in ``--out``."""
    from wordbias.battery.lm import crows_pairs_table, load_model
    from wordbias.datasets import crows_pairs as data
    from wordbias.models.log_prob import LogProbCache

    if args.n_permutations != 100_000 or args.n_resamples != 10_000:
        raise CommandError("--n-permutations and --n-resamples do not apply: CrowS-Pairs' intervals and p are exact "
                           "binomial ones (the difference between conventions has its own 10,000 resamples)")
    conventions = args.conventions or None
    out = out_dir(args.out, force=args.force)
    pll = conventions == ["pll"] or (conventions is None and _is_masked(args.model))
    conventions = conventions or (["pll"] if pll else ["harness", "shared-tokens"])
    if "pll" in conventions and len(conventions) > 1:
        raise CommandError("--convention pll scores a masked LM; harness and shared-tokens a causal one: not both")
    if not show_progress(args):                     # transformers' own bars (loading weights) too
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    model = load_model(args.model, convention=conventions[0], cache_dir=args.cache_dir)
    pairs = data.load()
    if args.pairs is not None:
        pairs = data.sample(pairs, args.pairs, seed=args.seed)
    cache = None if pll else LogProbCache(None if args.cache_dir is None else Path(args.cache_dir) / "log-probs")
    frame = crows_pairs_table([model] * len(conventions), conventions=conventions, pairs=pairs, label=args.label,
                              batch_size=args.batch_size, cache=cache, seed=args.seed, progress=show_progress(args))
    written = write_outputs(frame, out, f"wordbias lm on {frame['embedding'].iloc[0]}: CrowS-Pairs",
                            force=args.force)
    return finish(frame, written, args)


def _is_masked(model: str) -> bool:
    """Whether a model folder holds a masked LM (its config names a ...ForMaskedLM architecture)."""
    import json

    config = Path(model) / "config.json"
    if not config.is_file():
        return False
    architectures = json.loads(config.read_text(encoding="utf-8")).get("architectures") or []
    return any(a.endswith("ForMaskedLM") for a in architectures)
