"""Training embeddings and ensembles (wordbias.models.train): deterministic runs (in other processes too, whatever
PYTHONHASHSEED), bootstrap samples, the manifest, the cache of runs (reused, a damaged one trained again), the
output folder's safety, and the same vectors from one process, two, or a Dask cluster."""
import hashlib
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from wordbias.core.errors import (
    CacheRebuiltWarning,
    CorpusError,
    EnsembleError,
    FolderNotOursError,
    InvalidParameterError,
)
from wordbias.datasets.corpora import CorpusSpec, bootstrap_documents, read_corpus
from wordbias.embeddings.cache_format import open_cache
from wordbias.models import train
from wordbias.models.train import TrainingSettings, read_manifest, train_embedding, train_ensemble

FAST = TrainingSettings(vector_size=10, epochs=1)


@pytest.fixture(scope="module")
def inaugural():
    return read_corpus("inaugural")


@pytest.fixture(scope="module")
def seed_3(inaugural):
    """One run on the inaugural corpus, seed 3, trained in this process (read only)."""
    return train_embedding(inaugural, FAST, seed=3)


#: the ensemble of the parallel-run tests: two seeds and one bootstrap run
PARALLEL = dict(settings=FAST, seeds=2, bootstrap=1, progress=False)


@pytest.fixture(scope="module")
def one_process(tmp_path_factory):
    """The manifest's bytes of :data:`PARALLEL` trained in this process (workers=1), with a cache of its own."""
    root = tmp_path_factory.mktemp("one-process")
    return train_ensemble("inaugural", root / "ens", workers=1, cache_dir=root / "cache", **PARALLEL).read_bytes()


def _vectors(manifest_path) -> dict:
    """Run id -> vectors.npy SHA-256, from a manifest."""
    return {r["id"]: r["vectors_sha256"] for r in json.loads(manifest_path.read_text())["runs"]}


def _no_training(*args, **kwargs):
    raise AssertionError("a run was trained although it is in the cache")


# ------------------------------------------------------------------------------------------------ single runs

def test_the_same_seed_gives_the_same_vectors_and_another_seed_others(inaugural, seed_3):
    a, b = seed_3, train_embedding(inaugural, FAST, seed=3)
    c = train_embedding(inaugural, FAST, seed=4)
    assert a.index_to_key == b.index_to_key == c.index_to_key
    assert a.vectors.dtype == np.float32 and np.array_equal(a.vectors, b.vectors)
    assert not np.allclose(a.vectors, c.vectors)


def test_fasttext_runs_are_deterministic_too(inaugural):
    settings = TrainingSettings(method="fasttext", architecture="cbow", vector_size=10, epochs=1, min_n=3, max_n=4)
    corpus = read_corpus("inaugural", select=["18*"])
    a, b = (train_embedding(corpus, settings, seed=1) for _ in range(2))
    assert np.array_equal(a.vectors, b.vectors) and a.vectors.dtype == np.float32
    assert a["unseenword"].shape == (10,)          # fastText's n-grams give unseen words a vector


_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    from wordbias.datasets.corpora import read_corpus
    from wordbias.models.train import TrainingSettings, train_embedding
    kv = train_embedding(read_corpus("inaugural"), TrainingSettings(vector_size=10, epochs=1), seed=3)
    np.save(sys.argv[1], kv.vectors)
""")


def test_the_same_seed_gives_the_same_vectors_in_other_processes_whatever_the_hash_seed(seed_3, tmp_path):
    """gensim seeds each word's initial vector with a hash of the word: Python's own would change with
    PYTHONHASHSEED."""
    here = seed_3.vectors
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        runs.append(subprocess.Popen([sys.executable, "-c", _SCRIPT, str(tmp_path / f"{hash_seed}.npy")], env=env,
                                     stderr=subprocess.PIPE))
    for proc in runs:
        assert proc.wait(timeout=120) == 0, proc.stderr.read().decode()[-2000:]
    assert np.array_equal(np.load(tmp_path / "1.npy"), here) and np.array_equal(np.load(tmp_path / "2.npy"), here)


def test_a_run_on_some_documents_trains_on_those_only(inaugural):
    kv = train_embedding(inaugural, TrainingSettings(vector_size=10, epochs=1, min_count=1), seed=1,
                         documents=np.array([0, 0, 1]))
    words = {t for d in inaugural.documents[:2] for s in d for t in s}
    assert set(kv.index_to_key) == words


def test_bad_settings_and_seeds(inaugural):
    with pytest.raises(InvalidParameterError, match="method must be one of"):
        TrainingSettings(method="glove")
    with pytest.raises(InvalidParameterError, match="vector_size must be a positive integer"):
        TrainingSettings(vector_size=0)
    with pytest.raises(InvalidParameterError, match="min_n=5 is larger than max_n=4"):
        TrainingSettings(min_n=5, max_n=4)
    with pytest.raises(InvalidParameterError, match="seed must be an integer"):
        train_embedding(inaugural, FAST, seed=-1)
    with pytest.raises(CorpusError, match="too few to train"):
        train_embedding(read_corpus("inaugural", select=["1793-*"]), FAST, seed=1)


# ------------------------------------------------------------------------------------------------ ensembles

def test_the_manifest(tmp_path, inaugural):
    out = tmp_path / "ens"
    path = train_ensemble("inaugural", out, settings=FAST, seeds=2, bootstrap=2, seed=5, workers=1, progress=False,
                          cache_dir=tmp_path / "cache", command="wordbias train inaugural --seeds 2 --bootstrap 2")
    assert path == out.resolve() / "manifest.json"
    text = path.read_text()
    manifest = json.loads(text)
    assert text == json.dumps(manifest, sort_keys=True, indent=2) + "\n"
    assert manifest["wordbias_ensemble_version"] == 1
    assert manifest["corpus"] == {"source": "inaugural", "sha256": inaugural.sha256, "n_documents": 59,
                                  "n_tokens": 137_751, "tokenisation": inaugural.tokenisation}
    assert manifest["settings"] == FAST.as_dict() and manifest["settings"]["vector_size"] == 10
    assert (manifest["seed"], manifest["seeds"], manifest["bootstrap"]) == (5, 2, 2)
    assert manifest["command"] == "wordbias train inaugural --seeds 2 --bootstrap 2"
    assert set(manifest["software"]) == {"gensim", "numpy", "python", "wordbias"}
    runs = manifest["runs"]
    assert [r["id"] for r in runs] == ["seed-1", "seed-2", "bootstrap-1", "bootstrap-2"]
    assert [r["training_seed"] for r in runs[:2]] == [6, 7] and runs[0]["sample_seed"] is None
    seeds = [r["training_seed"] for r in runs] + [r["sample_seed"] for r in runs[2:]]
    assert len(set(seeds)) == 6 and all(2**31 <= s < 2**32 for s in seeds[2:])
    for run in runs:
        folder = out / run["path"]
        assert run["path"] == f"runs/{run['id']}"
        assert hashlib.sha256((folder / "vectors.npy").read_bytes()).hexdigest() == run["vectors_sha256"]
        kv = open_cache(folder)
        assert len(kv.index_to_key) == run["n_words"] and kv.vector_size == 10
    assert sorted(p.name for p in out.iterdir()) == [".wordbias-folder", ".wordbias-run.json", "manifest.json", "runs", "timings.json"]
    timings = json.loads((out / "timings.json").read_text())
    assert timings["trained"] == 4 and all(t["train_seconds"] > 0 for t in timings["runs"].values())
    assert read_manifest(out) == manifest == read_manifest(path)


def test_a_bootstrap_run_is_trained_on_a_with_replacement_sample_of_the_documents(tmp_path, inaugural):
    path = train_ensemble(inaugural, tmp_path / "ens", settings=FAST, seeds=0, bootstrap=1, workers=1,
                          progress=False)
    (run,) = json.loads(path.read_text())["runs"]
    sample = bootstrap_documents(59, run["sample_seed"])
    assert run["documents_sha256"] == hashlib.sha256(sample.astype("<i8").tobytes()).hexdigest()
    assert len(sample) == 59 and len(np.unique(sample)) < 59          # drawn with replacement
    alone = train_embedding(inaugural, FAST, seed=run["training_seed"], documents=sample)
    assert np.array_equal(open_cache(tmp_path / "ens" / run["path"]).vectors, alone.vectors)
    whole = train_embedding(inaugural, FAST, seed=run["training_seed"])
    assert alone.index_to_key != whole.index_to_key


def test_a_rerun_trains_nothing_and_writes_the_same_manifest(tmp_path, monkeypatch):
    kwargs = dict(settings=FAST, seeds=2, bootstrap=1, workers=1, progress=False, cache_dir=tmp_path / "cache")
    first = train_ensemble("inaugural", tmp_path / "ens", **kwargs).read_bytes()
    monkeypatch.setattr(train, "_train_run", _no_training)
    again = train_ensemble("inaugural", tmp_path / "ens", **kwargs)
    assert again.read_bytes() == first
    assert train_ensemble("inaugural", tmp_path / "other", **kwargs).read_bytes() == first
    timings = json.loads((tmp_path / "ens" / "timings.json").read_text())
    assert timings["trained"] == 0 and all(t["cached"] and t["train_seconds"] is None
                                           for t in timings["runs"].values())


def test_a_damaged_cached_run_is_trained_again(tmp_path):
    kwargs = dict(settings=FAST, seeds=1, workers=1, progress=False, cache_dir=tmp_path / "cache")
    first = train_ensemble("inaugural", tmp_path / "ens", **kwargs).read_bytes()
    (key,) = [r["cache_key"] for r in json.loads(first)["runs"]]
    vectors = tmp_path / "cache" / "trained" / key / "vectors.npy"
    vectors.write_bytes(vectors.read_bytes()[:-100])                 # truncated
    with pytest.warns(CacheRebuiltWarning, match="vectors.npy"):
        again = train_ensemble("inaugural", tmp_path / "ens", **kwargs)
    assert again.read_bytes() == first                                # deterministic: the same vectors
    assert json.loads((tmp_path / "ens" / "timings.json").read_text())["trained"] == 1


def test_an_output_folder_not_ours_is_refused_and_left_untouched(tmp_path, monkeypatch):
    monkeypatch.setattr(train, "_train_run", _no_training)           # refused before any training
    mine = tmp_path / "thesis"
    mine.mkdir()
    (mine / "notes.md").write_text("mine")
    with pytest.raises(FolderNotOursError, match="not empty and holds no ensemble"):
        train_ensemble("inaugural", mine, settings=FAST, workers=1, progress=False)
    assert [p.name for p in mine.iterdir()] == ["notes.md"] and (mine / "notes.md").read_text() == "mine"
    (mine / "manifest.json").write_text('{"wordbias_ensemble_version": 1}')   # a look-alike, not marked
    with pytest.raises(FolderNotOursError):
        train_ensemble("inaugural", mine, settings=FAST, workers=1, progress=False)
    assert sorted(p.name for p in mine.iterdir()) == ["manifest.json", "notes.md"]


def test_an_empty_folder_or_one_wordbias_created_empty_is_used(tmp_path):
    from wordbias.core.paths import check_output_dir

    (tmp_path / "empty").mkdir()
    check_output_dir(tmp_path / "made", create=True)         # holds wordbias's marker only
    for name in ("empty", "made"):
        train_ensemble("inaugural", tmp_path / name, settings=FAST, workers=1, progress=False)
        assert read_manifest(tmp_path / name)["runs"][0]["id"] == "seed-1"


def test_an_ensemble_folder_holding_a_users_file_is_not_replaced(tmp_path):
    out = tmp_path / "ens"
    train_ensemble("inaugural", out, settings=FAST, workers=1, progress=False)
    (out / "analysis.ipynb").write_text("{}")
    with pytest.raises(FolderNotOursError, match=r"also holds files train_ensemble did not write \(analysis.ipynb\)"):
        train_ensemble("inaugural", out, settings=FAST, seeds=2, workers=1, progress=False)
    assert (out / "analysis.ipynb").read_text() == "{}" and [r["id"] for r in read_manifest(out)["runs"]] == ["seed-1"]


def test_an_ensemble_rewritten_with_fewer_runs_keeps_no_stale_run(tmp_path):
    out = tmp_path / "ens"
    train_ensemble("inaugural", out, settings=FAST, seeds=2, workers=1, progress=False)
    train_ensemble("inaugural", out, settings=FAST, seeds=1, workers=1, progress=False)
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["seed-1"]


def test_read_manifest_catches_a_changed_run(tmp_path):
    out = tmp_path / "ens"
    train_ensemble("inaugural", out, settings=FAST, workers=1, progress=False)
    vectors = out / "runs" / "seed-1" / "vectors.npy"
    data = bytearray(vectors.read_bytes())
    data[-1] ^= 1
    vectors.write_bytes(bytes(data))
    with pytest.raises(EnsembleError, match=r"run 'seed-1': .*vectors.npy has another SHA-256"):
        read_manifest(out)
    with pytest.raises(EnsembleError, match="no such file"):
        read_manifest(tmp_path)


def test_bad_ensemble_parameters(tmp_path):
    with pytest.raises(InvalidParameterError, match="nothing to train"):
        train_ensemble("inaugural", tmp_path / "e", settings=FAST, seeds=0, progress=False)
    with pytest.raises(InvalidParameterError, match="below 2\\*\\*31"):
        train_ensemble("inaugural", tmp_path / "e", settings=FAST, seed=2**31 - 1, progress=False)
    with pytest.raises(CorpusError, match="unknown corpus"):
        train_ensemble("inagural", tmp_path / "e", settings=FAST, progress=False)
    assert not (tmp_path / "e").exists()


def test_a_worker_reading_another_corpus_fails_loudly():
    with pytest.raises(CorpusError, match="this worker sees other files"):
        train._train_run(CorpusSpec("inaugural"), FAST.as_dict(), "seed", 1, None, "0" * 64, "seed-1")


def test_few_documents_warn_for_bootstrap_runs(tmp_path):
    text = " ".join(f"word{i % 50}" for i in range(3000))
    file = tmp_path / "one.txt"
    file.write_text(text.replace("word", "w").translate(str.maketrans("0123456789", "abcdefghij")))
    from wordbias.core.errors import SmallCorpusWarning

    with pytest.warns(SmallCorpusWarning, match="only 1 documents"):
        train_ensemble(file, tmp_path / "ens", settings=FAST, seeds=0, bootstrap=1, workers=1, progress=False)


# ------------------------------------------------------------------------------------------------ parallel runs

def test_two_worker_processes_give_the_same_vectors_as_one(tmp_path, one_process):
    two = train_ensemble("inaugural", tmp_path / "two", workers=2, cache_dir=tmp_path / "c2", **PARALLEL)
    assert two.read_bytes() == one_process
    assert json.loads((tmp_path / "two" / "timings.json").read_text())["workers"] == 2


def test_a_local_dask_cluster_gives_the_same_vectors(tmp_path, one_process):
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # distributed's own deprecation and port warnings
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
            remote = train_ensemble("inaugural", tmp_path / "dask", scheduler=cluster.scheduler_address,
                                    cache_dir=tmp_path / "c2", **PARALLEL)
    assert remote.read_bytes() == one_process
    assert json.loads((tmp_path / "dask" / "timings.json").read_text())["trained"] == 3


def test_without_distributed_the_scheduler_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r'pip install "wordbias\[dask\]"'):
        train_ensemble("inaugural", tmp_path / "e", settings=FAST, scheduler="tcp://127.0.0.1:1", progress=False)


def test_the_cache_key_follows_the_kernel_settings(monkeypatch):
    """Vectors trained under other BLAS kernels differ in their last bits: another KERNELS setting is another
    cache entry, never a reuse."""
    from wordbias.datasets.corpora import read_corpus
    from wordbias.models import train

    corpus = read_corpus("inaugural")
    run = train._plan(0, 1, 0)[0]
    settings = TrainingSettings(vector_size=10).as_dict()
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    v3 = train._run_key(corpus, settings, run)
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Nehalem")
    assert train._run_key(corpus, settings, run) != v3


def test_trained_runs_are_listed_and_cleared_with_the_other_caches(tmp_path):
    from wordbias.embeddings.cache_folders import clear_caches, list_caches

    train_ensemble("inaugural", tmp_path / "out", settings=FAST, seeds=2, progress=False, cache_dir=tmp_path / "c")
    listed = list_caches(tmp_path / "c")
    trained = listed[listed.folder.str.contains("/trained/")]
    assert len(trained) == 2 and trained.valid.all()
    removed = clear_caches(cache_dir=tmp_path / "c")
    assert len(removed) == 2 and list_caches(tmp_path / "c").empty
    assert (tmp_path / "out" / "manifest.json").is_file()           # the ensemble's own copy stays
