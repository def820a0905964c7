"""``wordbias validity``: a ladder of planted bias (``wordbias train --swap-rate``) measured by every static
measure, and each measure's validity, reliability and power (:func:`wordbias.battery.validity.ladder_validity`),
written as tables and a figure."""

from __future__ import annotations

import math
from pathlib import Path

from wordbias.cli.inputs import show_progress
from wordbias.core.errors import CommandError

#: the files the command writes into ``--out`` (checked before any work)
VALIDITY_FILES = ("runs.csv", "tidy.csv", "validity.csv", "rate_means.csv", "ladder.png", "ladder.pdf")
#: how to make what the command reads
_TRAIN_HINT = "train a ladder with `wordbias train CORPUS --swap-rate 0,0.25,0.5,0.75,1 --out DIR` and give DIR"
#: the rate whose share of runs flagged is the false-positive rate (the corpus symmetric under the swap)
_SYMMETRIC = 0.5


def run_validity(args) -> int:
    """``wordbias validity LADDER --out DIR``: every ladder test on every run, the validity table, the files; print
    the table (one row per measure) and the files written; return 0, or
    :data:`wordbias.cli.output.EXIT_NOT_RUN` when a test did not run on some run (named on stderr)."""
    from wordbias.battery import validity
    from wordbias.cli.output import prepare_out, report_not_run

    measures = _measures(args.measures)
    _check_out_apart(args.out, args.ladder)
    out = prepare_out(args.out, VALIDITY_FILES, force=args.force)      # the output rule first, as every command
    ladder = _open_ladder(args.ladder)
    result = validity.ladder_validity(ladder, seed=args.seed, n_permutations=args.n_permutations,
                                      n_resamples=args.n_resamples, n_splits=args.n_splits,
                                      table_resamples=args.table_resamples, measures=measures,
                                      progress=show_progress(args))
    written = _write(result, out, seed=args.seed, force=args.force)
    if not args.quiet:
        rate = min(ladder.rates)
        print(f"{sum(len(e) for e in ladder.ensembles)} runs at rates {', '.join(f'{r:g}' for r in ladder.rates)}; "
              f"{len(result.pairs)} of {len(ladder.pairs)} pairs known to every run")
        print(validity_text(validity.validity_wide(result.table), rate))
        print()
        print("wrote " + ", ".join(str(p) for p in written))
    return report_not_run(result.measured.rows, written)


def _open_ladder(given: str):
    """The trained ladder at ``given`` (its folder or ``ladder.json``); a path that holds none is refused, naming
    how to train one."""
    from wordbias.models.ladder import LADDER_FILE, load_ladder

    path = Path(given).expanduser()
    if not path.exists():
        raise CommandError(f"{given}: no such folder or file; {_TRAIN_HINT}")
    file = path / LADDER_FILE if path.is_dir() else path
    if not file.is_file() or file.name != LADDER_FILE:
        what = ("an ensemble of `wordbias train` without --swap-rate (one corpus, no planted bias; `wordbias weat` "
                "measures it)" if (path / "manifest.json").is_file() or path.name == "manifest.json"
                else f"not a ladder (no {LADDER_FILE})")
        raise CommandError(f"{given}: {what}; {_TRAIN_HINT}")
    return load_ladder(file)


def _measures(text: str | None) -> list[str] | None:
    """``--measures``: the ladder's measures named, each once (None: all)."""
    if text is None:
        return None
    from wordbias.battery.validity import LEFT_OUT, ladder_tests

    names = [m.strip() for m in text.split(",")]
    known = list(ladder_tests())
    unknown = [m for m in names if m not in known]
    if unknown or len(set(names)) != len(names):
        why = "".join(f"; {m}: {LEFT_OUT[m]}" for m in unknown if m in LEFT_OUT)
        raise CommandError(f"--measures {text!r}: give some of {','.join(known)}, each once, separated by commas"
                           + why)
    return names


def _check_out_apart(out: str, ladder: str) -> None:
    """``--out`` neither the ladder's folder nor inside it (the ladder is written and replaced as a whole)."""
    target = Path(out).expanduser().resolve()
    folder = Path(ladder).expanduser().resolve()
    folder = folder.parent if folder.is_file() else folder
    if target == folder or folder in target.parents:
        raise CommandError(f"--out {out}: inside the ladder's folder {folder}, which `wordbias train` writes and "
                           "replaces as a whole; choose a folder outside it")


def _write(result, out: Path, *, seed: int, force: bool) -> list[Path]:
    """The command's files, moved into place together (:func:`wordbias.core.atomic.run_files`)."""
    import matplotlib.pyplot as plt

    from wordbias.battery import validity
    from wordbias.core import figures, tidy
    from wordbias.core.atomic import run_files

    def csv(frame, name: str, index: bool = False) -> None:
        tidy.write_csv(frame, out / name, what=name, index=index, float_format=tidy.FLOAT_FORMAT, na_rep="NA")

    try:
        with run_files(out, names=VALIDITY_FILES, force=force) as run:
            csv(result.measured.rows, "runs.csv")
            tidy.write_tidy(result.table, out / "tidy.csv")
            csv(validity.validity_wide(result.table), "validity.csv", index=True)
            csv(validity.rate_means(result.measured.rows), "rate_means.csv")
            figures.save(validity.ladder_figure(result.measured.rows, seed=seed), out, "ladder", beside=True)
    finally:
        plt.close("all")
    return sorted(run.written, key=lambda p: VALIDITY_FILES.index(p.name))


def _number(x, digits: int = 2) -> str:
    return "NA" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{float(x):.{digits}f}"


def _with_interval(row, name: str) -> str:
    """A figure of the wide table with its interval where it has one; NA where it is missing."""
    value = row.get(name, math.nan)
    low, high = row.get(f"{name} low", math.nan), row.get(f"{name} high", math.nan)
    text = _number(value)
    if text != "NA" and not (math.isnan(float(low)) or math.isnan(float(high))):
        text += f" [{_number(low)}, {_number(high)}]"
    return text


def validity_text(wide, rate: float) -> str:
    """The validity table as printed: one row per measure (validity rho, the test-retest ICC at ``rate``, the
    split-half consistency, each with its interval, and the false-positive rate at rate 0.5), then a legend.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame({"against": ["rate"], "validity": [-0.74], "validity low": [-0.88],
    ...                      "validity high": [-0.56], "flagged at rate 0.5": [0.0]}, index=["weat"])
    >>> print(validity_text(wide, 0.0).splitlines()[1])
    weat     rate     -0.74 [-0.88, -0.56]   NA             NA          0.00
    """
    icc = f"test-retest ICC at rate {rate:g}"
    flagged = f"flagged at rate {_SYMMETRIC:g}"
    header = ["measure", "against", "validity rho [95% CI]", f"ICC at rate {rate:g}", "split-half", flagged]
    rows, left_out = [], set()
    for measure, row in wide.iterrows():
        note = row.get("note")
        if isinstance(note, str) and note and all(math.isnan(float(row.get(c, math.nan)))
                                                  for c in ("validity", icc, "split-half")):
            left_out.add(len(rows))
            rows.append([str(measure), "not measured (the note column of validity.csv says why)"])
            continue
        rows.append([str(measure), str(row.get("against", "")), _with_interval(row, "validity"),
                     _with_interval(row, icc), _with_interval(row, "split-half"),
                     _number(row.get(flagged, math.nan))])
    shown = [header] + [r for i, r in enumerate(rows) if i not in left_out]
    widths = [max(len(r[i]) for r in shown) for i in range(len(header))]
    lines = [header] + rows
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in lines]
    lines += ["validity rho: Spearman's rho of the measure's value with the planted rate p (against rate) or with "
              "abs(1 - 2p) (against strength: a measure blind to the bias's sign)",
              f"ICC: test-retest ICC(A,1) over the training seeds at rate {rate:g}; split-half: Spearman-Brown over "
              "random halves of the pairs",
              f"{flagged}: the share of runs whose own test has p < 0.05 where the corpus is symmetric under the swap "
              "(the false-positive rate); NA: no test, or no such rate (tidy.csv's note says which)"]
    return "\n".join(lines)
