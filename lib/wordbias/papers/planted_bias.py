"""Measuring the measures: a planted-bias ladder on the Brown corpus and a vector-identity check on pruned vectors,
the notebook ``notebooks/src/planted_bias.ipynb`` and its lesson.

**The ladder.** word2vec runs on the Brown corpus in which a share p (the *rate*) of the sentences has the
gendered words of Bolukbasi et al.'s (2016) pairs swapped for their counterparts (counterfactual data augmentation
at rate p: Lu et al. 2018, arXiv:1807.11714; Zhao et al. 2018, doi:10.18653/v1/N18-2003; :mod:`wordbias.datasets.swap`),
several training seeds per rate (:func:`wordbias.models.ladder.train_ladder`). At rate 0 the corpus keeps its own
gender associations, at rate 1 they are mirrored, at rate 0.5 the corpus is symmetric under the swap: the planted
bias is 1 - 2p times the corpus's own. Every static measure of the catalogue is run on every run
(:func:`wordbias.battery.validity.measure_ladder`) and judged by :func:`wordbias.battery.validity.validity_table`:
validity (Spearman's rho with the rate), test-retest reliability over seeds (ICC(A,1), Du, Fang & Nguyen 2021,
doi:10.18653/v1/2021.emnlp-main.785), split-half consistency over the pairs (Spearman-Brown) and power (the share
of runs its own test flags at each rate; at 0.5 the false-positive rate).

:data:`SETTINGS`, :data:`RATES` and :data:`SEEDS` define the committed ladder: gensim's CBOW (faster than the skip-gram
of the training-runs notebook on Brown, so that the ladder's 15 runs fit in ``make``'s budget);
``seeds`` and ``rates`` are the notebook's parameters, one change away from a larger ladder.

**Vector identity.** spaCy's ``en_core_web_md`` vectors (:mod:`wordbias.embeddings.spacy_vectors`, the registered
embedding ``spacy-md``) map 514,092 keys onto 20,000 rows: many of Caliskan et al.'s African American names read a
row they share with hundreds of other keys. :func:`name_rows` counts them, :func:`race_weats` measures WEAT 3-5
with the shared-vector words kept (flagged) and dropped (:class:`wordbias.options.Words` ``shared_vectors``).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from wordbias.core import paths
from wordbias.core.validation import check_int
from wordbias.models.train import TrainingSettings

__all__ = ["CORPUS", "SETTINGS", "RATES", "SEEDS", "SEED", "SWAP_SEED", "PAIRS", "RACE_TESTS", "ladder_folder",
           "brown_ladder", "cached_ladder", "output_label", "ladder_overview", "measure", "name_summary", "tracking_notes", "name_rows",
           "race_weats", "race_table", "committed"]

#: the corpus: the Brown corpus as shipped, lower-cased
CORPUS = "brown"
#: the training settings: gensim's CBOW, otherwise the defaults of :class:`~wordbias.models.train.TrainingSettings`
#: (100 dimensions, window 5, min_count 5, 5 epochs)
SETTINGS = TrainingSettings(architecture="cbow")
#: the committed ladder's rates
RATES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: the committed ladder's training seeds per rate
SEEDS = 3
#: the ladder's ensemble seed (run ``seed-i`` trains with ``SEED + i`` at every rate)
SEED = 0
#: the seed of the sentences' uniform numbers (which sentences are swapped)
SWAP_SEED = 0
#: the shipped pair list (:data:`wordbias.datasets.swap.SHIPPED_PAIRS`)
PAIRS = "bolukbasi"
#: Caliskan et al.'s race WEATs (European vs African American names)
RACE_TESTS = ("WEAT3", "WEAT4", "WEAT5")


def _rates(rates: Sequence[float]) -> tuple[float, ...]:
    return tuple(float(r) for r in rates)


def output_label(rates: Sequence[float] = RATES, seeds: int = SEEDS) -> str:
    """The label of a ladder's outputs: ``"brown-cbow"`` for the committed ladder (:data:`RATES`, :data:`SEEDS`),
    else ``"brown-cbow-r<n rates>-s<seeds>"`` (written under ``runs/``, :func:`wordbias.papers.outputs.output_folders`).

    Parameters
    ----------
    rates : sequence of float, default RATES
        The ladder's rates.
    seeds : int, default SEEDS
        Seeds per rate.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> output_label(), output_label((0, 0.5, 1), 5)
    ('brown-cbow', 'brown-cbow-r3-s5')
    """
    seeds = check_int("seeds", seeds, min=1)
    if _rates(rates) == RATES and seeds == SEEDS:
        return f"{CORPUS}-{SETTINGS.architecture}"
    return f"{CORPUS}-{SETTINGS.architecture}-r{len(_rates(rates))}-s{seeds}"


def ladder_folder(rates: Sequence[float] = RATES, seeds: int = SEEDS) -> Path:
    """Where :func:`brown_ladder` writes a ladder: ``<cache>/ladders/<output label>-<rates>-<key>``, in the cache,
    never in the repository.

    ``key`` hashes everything else that makes the ladder's vectors: the training settings and seeds, the pairs' file,
    the swap's seed, the tokenisation's version, gensim's version and the CPU-kernel setting (trained under another
    one, the vectors differ in their last bits). So :func:`cached_ladder` never opens a ladder trained otherwise.

    Parameters
    ----------
    rates, seeds
        As :func:`output_label`.

    Returns
    -------
    pathlib.Path
        The folder.
    """
    import hashlib
    import json

    import gensim

    from wordbias.datasets import corpora, swap
    from wordbias.models import train

    tag = "_".join(f"{r:g}" for r in _rates(rates))
    document = {"settings": SETTINGS.as_dict(), "seed": SEED, "swap_seed": SWAP_SEED, "pairs": PAIRS,
                "pairs_sha256": swap.pairs_sha256(swap.load_pairs(PAIRS, lowercase=True)), "corpus": CORPUS,
                "tokenisation": corpora.TOKENISATION_VERSION, "gensim": gensim.__version__,
                "fingerprint": train._kernel_fingerprint()}
    key = hashlib.sha256(json.dumps(document, sort_keys=True).encode("utf-8")).hexdigest()[:12]
    return paths.cache_dir() / "ladders" / f"{output_label(rates, seeds)}-{tag}-{key}"


def brown_ladder(rates: Sequence[float] = RATES, seeds: int = SEEDS, *, workers: int | None = None,
                 progress: bool = False):
    """Train (or read from the cache) the ladder: ``seeds`` CBOW runs of Brown at each swap rate.

    Parameters
    ----------
    rates : sequence of float, default RATES
        The swap rates, in [0, 1].
    seeds : int, default SEEDS
        Seed runs per rate.
    workers : int, optional
        Processes training at once (default every CPU this process may use).
    progress : bool, default False
        A progress bar over the runs.

    Returns
    -------
    wordbias.models.ladder.Ladder
        The trained ladder (one ensemble per rate).
    """
    from wordbias.models.ladder import LadderSpec, load_ladder, train_ladder

    spec = LadderSpec(rates=_rates(rates), pairs=PAIRS, swap_seed=SWAP_SEED)
    path = train_ladder(CORPUS, ladder_folder(rates, seeds), spec, settings=SETTINGS, seeds=seeds, seed=SEED,
                        workers=workers, progress=progress)
    return load_ladder(path)


def cached_ladder(rates: Sequence[float] = RATES, seeds: int = SEEDS, *, workers: int | None = None):
    """The ladder as :func:`brown_ladder` wrote it to the cache, opened in a second or two; trained by
    :func:`brown_ladder` first when the cache lacks it.

    Parameters
    ----------
    rates, seeds, workers
        As :func:`brown_ladder`.

    Returns
    -------
    wordbias.models.ladder.Ladder
        The trained ladder (:func:`wordbias.models.ladder.load_ladder` checks each rate's manifest against the
        SHA-256 ``ladder.json`` records).
    """
    from wordbias.models.ladder import LADDER_FILE, load_ladder

    folder = ladder_folder(rates, seeds)
    return (load_ladder(folder) if (folder / LADDER_FILE).is_file()
            else brown_ladder(rates, seeds, workers=workers))


def ladder_overview(ladder) -> pd.DataFrame:
    """One row per rate: the sentences drawn for the swap and those it changed (a sentence without a pair word
    is drawn but unchanged), and the runs.

    Parameters
    ----------
    ladder : wordbias.models.ladder.Ladder
        The trained ladder.

    Returns
    -------
    pandas.DataFrame
        ``rate``, ``tokens`` (of the corpus), ``sentences``, ``drawn``, ``changed``, ``runs``.
    """
    corpus = ladder.manifest["corpus"]
    n = corpus["n_sentences"]
    return pd.DataFrame([{"rate": rate, "tokens": corpus["n_tokens"], "sentences": n,
                          "drawn": entry["n_sentences_swapped"],
                          "changed": entry["n_sentences_changed"], "runs": len(ensemble)}
                         for rate, entry, ensemble in zip(ladder.rates, ladder.manifest["ensembles"],
                                                          ladder.ensembles)])


def measure(ladder, *, seed: int = 0, n_permutations: int = 1_000, n_resamples: int = 200, n_splits: int = 20,
            progress: bool = False, cache: bool = True):
    """Every ladder test (:func:`wordbias.battery.validity.ladder_tests`) on every run of the ladder, on the pairs
    every run knows (:func:`wordbias.battery.validity.shared_pairs`).

    The measured ladder is cached (``<cache>/ladders/measured-<key>.npz``, no pickle) under a key of everything it
    depends on: the ladder's ``ladder.json`` (which records each rate's manifest by its SHA-256, and the manifests each
    run's vectors), the options, the package's sources, the data the tests read and the compute fingerprint; a
    damaged or mismatched file is measured again (a :class:`~wordbias.core.errors.CacheRebuiltWarning`).

    Parameters
    ----------
    ladder : wordbias.models.ladder.Ladder
        The trained ladder.
    seed, n_permutations, n_resamples, n_splits, progress
        As :func:`wordbias.battery.validity.measure_ladder`.
    cache : bool, default True
        Read and write the cache.

    Returns
    -------
    wordbias.battery.validity.Ladder
        The measured ladder: rows, item scores, half values.
    """
    from wordbias.battery.validity import Ladder, measure_ladder, shared_pairs

    label = output_label(ladder.rates, len(ladder.ensembles[0]))
    options = {"seed": seed, "n_permutations": n_permutations, "n_resamples": n_resamples, "n_splits": n_splits,
               "label": label}
    path = key = None
    if cache:
        key = _measured_key(ladder, options)
        path = paths.cache_dir() / "ladders" / f"measured-{key[:24]}.npz"
        frames = _read_frames(path, key)
        if frames is not None:
            return Ladder(*frames, label)
    runs = dict(zip(ladder.rates, ladder.ensembles))
    measured = measure_ladder(runs, shared_pairs(ladder), label=label, seed=seed, n_permutations=n_permutations,
                              n_resamples=n_resamples, n_splits=n_splits, progress=progress)
    if cache:
        _write_frames(path, key, (measured.rows, measured.items, measured.halves))
    return measured


_MEASURED_CACHE_VERSION = 1
_FRAMES = ("rows", "items", "halves")


def _measured_key(ladder, options: dict) -> str:
    import hashlib
    import json

    document = [_MEASURED_CACHE_VERSION, options, paths.compute_fingerprint(), paths.source_digest(),
                paths.data_digest("stimuli", "debiaswe", "swap"), ladder.path.read_bytes().decode("utf-8")]
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode("utf-8")).hexdigest()


def _write_frames(path: Path, key: str, frames) -> None:
    """The frames as arrays: each column's values (floats as float64, exactly; text as unicode) and a mask of its
    missing values, with the columns' names and dtypes in a JSON header."""
    import json

    import numpy as np

    from wordbias.core.keyed_arrays import write_keyed_arrays

    arrays, meta = {}, {}
    for name, frame in zip(_FRAMES, frames):
        meta[name] = [(str(c), str(frame[c].dtype)) for c in frame.columns]
        for i, c in enumerate(frame.columns):
            col = frame[c]
            missing = col.isna().to_numpy()
            numeric = pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col)
            arrays[f"{name}.{i}"] = (col.astype("float64").to_numpy(na_value=np.nan) if numeric
                                     else np.array(["" if m else str(v) for v, m in zip(col, missing)], dtype=str))
            arrays[f"{name}.{i}.missing"] = missing
    arrays["meta"] = np.array(json.dumps(meta))
    write_keyed_arrays(path, key, arrays, what="the planted-bias measurement cache")


def _read_frames(path: Path, key: str):
    """The frames :func:`_write_frames` wrote under ``key``, or None (absent, or damaged: warned and measured again)."""
    import json

    from wordbias.core.keyed_arrays import read_keyed_arrays

    arrays = read_keyed_arrays(path, key, what="planted-bias measurement cache", stacklevel=4)
    if arrays is None:
        return None
    meta = json.loads(str(arrays["meta"]))
    out = []
    for name in _FRAMES:
        columns = {}
        for i, (c, dtype) in enumerate(meta[name]):
            values, missing = arrays[f"{name}.{i}"], arrays[f"{name}.{i}.missing"]
            col = pd.Series(values, dtype=object if values.dtype.kind == "U" else values.dtype)
            columns[c] = col.where(~missing, None).astype(dtype) if dtype != "float64" else col
        out.append(pd.DataFrame(columns))
    return tuple(out)


def _fmt(value: float) -> str:
    return "NA" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.2f}"


def tracking_notes(wide: pd.DataFrame, table: pd.DataFrame) -> str:
    """What the validity table says, measure by measure, read from its numbers: which measures track the planted
    bias (the validity interval excludes 0), which do not, how reliable they are over seeds, and their
    false-positive rate at rate 0.5.

    Parameters
    ----------
    wide : pandas.DataFrame
        :func:`wordbias.battery.validity.validity_wide` of ``table``.
    table : pandas.DataFrame
        :func:`wordbias.battery.validity.validity_table`.

    Returns
    -------
    str
        Markdown bullets.
    """
    validity = table[table["test"] == "validity"].set_index("measure")
    track, miss, none = [], [], []
    for m, v in validity.iterrows():
        if pd.isna(v["effect_size"]):
            none.append(f"{m} ({v['note']})")
            continue
        lo, hi = float(v["ci_low"]), float(v["ci_high"])
        text = f"{m} (rho {_fmt(float(v['effect_size']))} [{_fmt(lo)}, {_fmt(hi)}])"
        (track if (lo > 0 or hi < 0) else miss).append(text)
    lines = [f"* **Track the planted bias** (the validity interval excludes 0): {', '.join(track) or 'none'}.",
             f"* **Do not** (the interval covers 0): {', '.join(miss) or 'none'}."]
    if none:
        lines.append(f"* **Not measured**: {'; '.join(none)}.")
    icc_col = next((c for c in wide.columns if str(c).startswith("test-retest ICC at rate")), None)
    if icc_col is not None:
        icc = wide[icc_col].dropna().sort_values()
        if len(icc):
            lines.append(f"* **Test-retest ICC over seeds** ({icc_col.removeprefix('test-retest ICC ')}): lowest "
                         f"{icc.index[0]} {_fmt(float(icc.iloc[0]))}, highest {icc.index[-1]} "
                         f"{_fmt(float(icc.iloc[-1]))}.")
    fp = "flagged at rate 0.5"
    if fp in wide.columns:
        flagged = wide[fp].dropna()
        high = flagged[flagged > 0.05]
        named = ", ".join(f"{m} {_fmt(float(x))}" for m, x in high.items())
        lines.append(f"* **False positives at rate 0.5** (the share of runs whose own test flags a bias where the "
                     f"corpus is symmetric), of the {len(flagged)} measures with a test: "
                     + (f"{named}; the other {len(flagged) - len(high)} at most 0.05." if len(high)
                        else "none above 0.05."))
    return "\n".join(lines)


def name_rows(embedding="spacy-md", tests: Sequence[str] = RACE_TESTS) -> pd.DataFrame:
    """Every name of Caliskan et al.'s race WEATs and the row it reads in ``embedding``: the row's owner and how many
    keys share it (:func:`wordbias.core.identity.shared_rows`), with the group the name belongs to.

    Parameters
    ----------
    embedding : str or KeyedVectors, default "spacy-md"
        The embedding (loaded when a name).
    tests : sequence of str, default RACE_TESTS
        The WEATs whose target names are listed.

    Returns
    -------
    pandas.DataFrame
        ``test``, ``group``, ``word``, ``row``, ``owner``, ``own_vector``, ``keys``.
    """
    from wordbias import embeddings as _embeddings
    from wordbias.core.identity import shared_rows
    from wordbias.datasets import stimuli

    kv = _embeddings.load(embedding, progress=False) if isinstance(embedding, str) else embedding
    frames = []
    for spec in stimuli.weat_tests("caliskan2017", "glove"):
        if spec.id not in tests:
            continue
        for group, words in ((spec.names.get("X", "X"), spec.X), (spec.names.get("Y", "Y"), spec.Y)):
            t = shared_rows(kv, list(words))
            t.insert(0, "group", group)
            t.insert(0, "test", spec.id)
            frames.append(t)
    return pd.concat(frames, ignore_index=True)


def name_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per test and group of :func:`name_rows`: the names found in the embedding and those whose vector is not
    their own (a row owned by another key).

    Parameters
    ----------
    rows : pandas.DataFrame
        :func:`name_rows`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``test`` and ``group``: ``found``, ``shared``.

    Examples
    --------
    >>> rows = pd.DataFrame({"test": ["WEAT3"] * 3, "group": ["a", "a", "b"], "row": pd.array([1, None, 2]),
    ...                      "own_vector": [False, False, True]})
    >>> name_summary(rows).to_dict("index")
    {('WEAT3', 'a'): {'found': 1, 'shared': 1}, ('WEAT3', 'b'): {'found': 1, 'shared': 0}}
    """
    found = rows["row"].notna()
    out = rows.assign(found=found, shared=found & ~rows["own_vector"].astype(bool))
    return out.groupby(["test", "group"])[["found", "shared"]].sum()


def race_weats(embedding="spacy-md", *, policies: Sequence[str] = ("keep", "drop"), seed: int = 0,
               n_resamples: int = 10_000) -> pd.DataFrame:
    """WEAT 3-5 on ``embedding`` under each shared-vector policy, as tidy rows (``battery`` names the policy).

    Parameters
    ----------
    embedding : str or KeyedVectors, default "spacy-md"
        The embedding.
    policies : sequence of {"keep", "drop"}, default ("keep", "drop")
        :class:`wordbias.options.Words` ``shared_vectors``: keep the words whose vector is not their own (flagged
        in the note) or drop them (listed in ``dropped``).
    seed : int, default 0
        The seed of the balancing, the bootstrap and the Monte Carlo p.
    n_resamples : int, default 10000
        Bootstrap resamples of each interval.

    Returns
    -------
    pandas.DataFrame
        The tidy rows, one per test and policy.
    """
    from wordbias import embeddings as _embeddings
    from wordbias.battery.weat import weat_row
    from wordbias.core import tidy
    from wordbias.datasets import stimuli
    from wordbias.measures.association import measurement
    from wordbias.options import Resampling, Words

    kv = _embeddings.load(embedding, progress=False) if isinstance(embedding, str) else embedding
    label = embedding if isinstance(embedding, str) else "embedding"
    specs = [s for s in stimuli.weat_tests("caliskan2017", "glove") if s.id in RACE_TESTS]
    rows = []
    for policy in policies:
        results = measurement.weats(kv, specs, resampling=Resampling(seed=seed, n_resamples=n_resamples),
                                    words=Words(case_fold=False, shared_vectors=policy))
        rows += [weat_row(r, base={"embedding": label, "paper": "caliskan2017",
                                   "battery": f"shared vectors: {policy}"}) for r in results]
    return tidy.tidy_frame(rows)


def race_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The race WEATs side by side under each policy: d [interval], p, coverage.

    Parameters
    ----------
    rows : pandas.DataFrame
        :func:`race_weats`.

    Returns
    -------
    pandas.DataFrame
        One row per test, a column block per policy.
    """
    out = rows.assign(policy=rows["battery"].str.removeprefix("shared vectors: "))
    out["d [95% CI]"] = [f"{d:.2f} [{lo:.2f}, {hi:.2f}]" if pd.notna(d) else "NA"
                         for d, lo, hi in zip(out["effect_size"], out["ci_low"], out["ci_high"])]
    out["p"] = out["p_value"].map(lambda p: "NA" if pd.isna(p) else f"{p:.3g}")
    table = out.pivot(index="test", columns="policy", values=["d [95% CI]", "p", "coverage"])
    policies = list(dict.fromkeys(out["policy"]))             # in the order measured: keep, then drop
    return table.reindex(columns=pd.MultiIndex.from_product([["d [95% CI]", "p", "coverage"], policies]))


def committed() -> dict[str, pd.DataFrame]:
    """The committed ladder's tables (``results/planted_bias/brown-cbow/``), as the notebook wrote them.

    Returns
    -------
    dict of str to pandas.DataFrame
        ``"runs"`` (every measure on every run: the tidy rows with ``rate`` and ``run``), ``"validity"`` (one row per
        measure, :func:`wordbias.battery.validity.validity_wide`), ``"tidy"`` (the validity table's tidy rows),
        ``"rate_means"`` and ``"ladder"`` (the sentences swapped per rate).

    Examples
    --------
    >>> tables = committed()
    >>> sorted(tables), tables["validity"].index.name
    (['ladder', 'rate_means', 'runs', 'tidy', 'validity'], 'measure')
    """
    from wordbias.core import tidy

    folder = paths.COMMITTED_RESULTS / "planted_bias" / output_label()
    return {"runs": pd.read_csv(folder / "runs.csv"), "validity": pd.read_csv(folder / "validity.csv", index_col=0),
            "tidy": tidy.read_tidy(folder / "tidy.csv"), "rate_means": pd.read_csv(folder / "rate_means.csv"),
            "ladder": pd.read_csv(folder / "ladder.csv")}
