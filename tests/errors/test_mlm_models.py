"""Catalogue cases for the masked-LM score, Kurita et al. (2019), its GAP case study and the model loaders:
templates with the wrong placeholders, empty lists, bad counts and seeds, devices this machine
lacks, damaged model files."""
import atexit
import functools
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, check

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError, ModelFileError, ModelUnavailable
from wordbias.datasets.contextual_tests import kurita2019_categories
from wordbias.measures.language_models import contextual as contextual_tests
from wordbias.measures.language_models import mlm
from wordbias.models import contextual, tiny_mlm
from wordbias.papers import kurita2019, kurita2019_gap

E = InvalidParameterError
_TMP = Path(tempfile.mkdtemp(prefix="wordbias-errors-"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


@functools.cache
def _tiny_path() -> Path:
    """The planted tiny MLM: ``build/tiny-bert-mlm`` when it is there, else built (about 10 s)."""
    built = paths.ROOT / "build" / "tiny-bert-mlm"
    if (built / "config.json").is_file() and (built / "model.safetensors").is_file():
        return built
    return tiny_mlm.build(_TMP / "tiny", seed=0)


@functools.cache
def _tiny():
    return mlm.load_mlm(str(_tiny_path()), device="cpu")


def _damaged_copy(name: str, damage) -> str:
    """A copy of the tiny model with one file damaged by ``damage(path)``."""
    folder = _TMP / name
    if not folder.exists():
        shutil.copytree(_tiny_path(), folder)
        damage(folder)
    return str(folder)


def _truncate_weights(folder: Path) -> None:
    with open(folder / "model.safetensors", "r+b") as fh:
        fh.truncate(5000)


def _garble_config(folder: Path) -> None:
    (folder / "config.json").write_text('{"model_type": "bert", ', encoding="utf-8")


def _increase(templates, targets=("he", "she"), attributes=("nurse",), **kw):
    return lambda: mlm.increased_log_probability(_tiny(), templates, targets, attributes, **kw)


def _scores(templates, attributes=("nurse", "engineer"), **kw):
    return lambda: mlm.log_prob_bias_scores(_tiny(), attributes, templates, **kw)


HE_SHE = (("he", "she"),)
OK = mlm.TemplatePairs("TARGET is a ATTRIBUTE", HE_SHE)

CASES_MLM_TEMPLATES = [
    Case("MLM templates", "a literal [MASK] in the template", _increase(["[MASK] TARGET is a ATTRIBUTE"]), E,
         match=r"holds the model's special token '\[MASK\]'"),
    Case("MLM templates", "a literal [MASK] (log_prob_bias_scores)",
         _scores([mlm.TemplatePairs("[MASK] TARGET is a ATTRIBUTE", HE_SHE)]), E,
         match=r"holds the model's special token '\[MASK\]'"),
    Case("MLM templates", "a literal [CLS]", _increase(["[CLS] TARGET is a ATTRIBUTE"]), E,
         match=r"special token '\[CLS\]'"),
    Case("MLM templates", "ATTRIBUTE missing", _increase(["TARGET is nice"]), E,
         match="must hold the placeholder ATTRIBUTE exactly once, not 0 times"),
    Case("MLM templates", "TARGET repeated", _scores([mlm.TemplatePairs("TARGET and TARGET like ATTRIBUTE", HE_SHE)]),
         E, match="must hold the placeholder TARGET exactly once, not 2 times"),
    Case("MLM templates", "an empty template list (NaN today)", _scores([]), E, match="templates is empty"),
    Case("MLM templates", "an empty template list (increased_log_probability)", _increase([]), E,
         match="templates is empty"),
    Case("MLM templates", "one template given as a string", _increase("TARGET is ATTRIBUTE"), E,
         match="templates must be a list of templates, not the string"),
    Case("MLM templates", "one TemplatePairs not in a list", _scores(OK), E,
         match="templates must be a list of TemplatePairs"),
    Case("MLM templates", "a target pair of three words",
         _scores([mlm.TemplatePairs("TARGET is ATTRIBUTE", (("he", "she", "it"),))]), E,
         match="a target pair must be two words"),
]

CASES_MLM_PARAMETERS = [
    Case("MLM parameters", "share_favouring_first([nan, nan]) (not 0.0)",
         lambda: mlm.share_favouring_first([float("nan"), float("nan")]), E,
         match=r"2 of the 2 bias scores are NaN \(positions \[0, 1\]\)"),
    Case("MLM parameters", "share_favouring_first noise -1", lambda: mlm.share_favouring_first([0.5], noise=-1), E,
         match=r"noise must be >= 0\.0, not -1\.0"),
    Case("MLM parameters", "batch_size 0 (log_prob_bias_scores)", _scores([OK], batch_size=0), E,
         match="batch_size must be >= 1, not 0"),
    Case("MLM parameters", "batch_size 0 (masked_log_probs)",
         lambda: mlm.masked_log_probs(_tiny(), {"[MASK] is here": [(0, (2002,))]}, batch_size=0), E,
         match="batch_size must be >= 1, not 0"),
    Case("MLM parameters", "prior_mask 'one'", _increase(["TARGET is ATTRIBUTE"], prior_mask="one"), E,
         match="prior_mask must be one of 'per_piece', 'single'; not 'one'"),
    Case("MLM parameters", "attributes given as a string", _scores([OK], attributes="nurse"), E,
         match="attributes must be a list of words, not the string 'nurse'"),
    Case("MLM parameters", "targets given as a string", _increase(["TARGET is ATTRIBUTE"], targets="he"), E,
         match=r"targets must be a list of words, not the string 'he'"),
    Case("MLM parameters", "attribute_test n_permutations 0",
         lambda: mlm.attribute_test([1, 2, 3], [0, 1, 2], n_permutations=0), E, match="n_permutations must be >= 1"),
    Case("MLM parameters", "attribute_test n_permutations 10.7",
         lambda: mlm.attribute_test([1, 2, 3], [0, 1, 2], n_permutations=10.7), E,
         match="n_permutations must be an integer, not 10.7"),
    Case("MLM parameters", "attribute_test seed -1", lambda: mlm.attribute_test([1, 2, 3], [0, 1, 2], seed=-1), E,
         match="seed must be an integer >= 0"),
    Case("MLM parameters", "attribute_test seed 'abc'", lambda: mlm.attribute_test([1, 2, 3], [0, 1, 2], seed="abc"),
         E, match="seed must be .*not 'abc'"),
    Case("MLM parameters", "attribute_test p_method 'randm'",
         lambda: mlm.attribute_test([1, 2, 3], [0, 1, 2], p_method="randm"), E,
         match="p_method must be one of 'auto', 'exact'"),
    Case("MLM parameters", "attribute_test A given as a string",
         lambda: mlm.attribute_test([1, 2, 3], [0, 1, 2], A="abc", B=["d", "e", "f"]), E,
         match="A must be a list of words, not the string 'abc'"),
    Case("MLM parameters", "attribute_test NaN score",
         lambda: mlm.attribute_test([1, float("nan"), 3], [0, 1, 2]), E,
         match=r"scores_A holds non-finite bias scores at positions \[1\]"),
]

CASES_MODELS = [
    Case("models", "device 'cuda:99'", lambda: contextual.load_mlm(str(_tiny_path()), device="cuda:99"), E,
         match=r"device 'cuda:99' is not available.*available here: 'cpu'"),
    Case("models", "device 'gpu'", lambda: contextual.load_encoder(str(_tiny_path()), device="gpu"), E,
         match=r"device 'gpu' is not a torch device name.*available here: 'cpu'"),
    Case("models", "a truncated model.safetensors", lambda: contextual.load_mlm(
        _damaged_copy("truncated", _truncate_weights), device="cpu"), ModelFileError,
         match=r"the file .*truncated/model\.safetensors is damaged: truncated: the tensors end at byte [\d,]+ "
               r"but the file has 5,000 bytes"),
    Case("models", "a config.json that is not JSON", lambda: contextual.load_mlm(
        _damaged_copy("garbled", _garble_config), device="cpu"), ModelFileError,
         match=r"the file .*garbled/config\.json is damaged: not valid JSON"),
    Case("models", "a model folder that does not exist", lambda: contextual.load_mlm("/nonexistent/tiny-bert-mlm"),
         ModelUnavailable, match="there is no folder /nonexistent/tiny-bert-mlm"),
    Case("models", "a file instead of the model folder",
         lambda: contextual.load_mlm(str(_tiny_path() / "config.json")), ModelUnavailable,
         match="is a file; give the folder that holds config.json"),
    Case("models", "span_embeddings batch_size 0",
         lambda: contextual.span_embeddings(_tiny(), ["he is"], [[(0, 2)]], batch_size=0), E,
         match="batch_size must be >= 1, not 0"),
    Case("models", "word_in_template_embeddings words as a string",
         lambda: contextual.word_in_template_embeddings(_tiny(), "nurse", ["TARGET is ATTRIBUTE"], slot="ATTRIBUTE",
                                                        other="TARGET"), E,
         match="words must be a list of words, not the string 'nurse'"),
]

_P, _G = [0.9, 0.5, 0.4, 0.1, 0.2, 0.3], ["female"] * 3 + ["male"] * 3
CASES_KURITA = [
    Case("Kurita GAP", "alternative 'bigger'",
         lambda: kurita2019_gap.gender_permutation_test(_P, _G, alternative="bigger"), E,
         match="alternative must be one of 'greater', 'less', 'two-sided'; not 'bigger'"),
    Case("Kurita GAP", "p_method 'randm'", lambda: kurita2019_gap.gender_permutation_test(_P, _G, p_method="randm"),
         E, match="p_method must be one of 'auto'"),
    Case("Kurita GAP", "n_permutations 0", lambda: kurita2019_gap.gender_permutation_test(_P, _G, n_permutations=0),
         E, match="n_permutations must be >= 1, not 0"),
    Case("Kurita GAP", "seed 'abc'", lambda: kurita2019_gap.gender_permutation_test(_P, _G, seed="abc"), E,
         match="seed must be .*not 'abc'"),
    Case("Kurita GAP", "run seeds as a string", lambda: kurita2019_gap.run(None, seeds="01"), E,
         match="seeds must be a list of integer seeds"),
    Case("Kurita GAP", "run seed -1", lambda: kurita2019_gap.run(None, seed=-1), E, match="seed must be >= 0, not -1"),
]

NOTEBOOK_OK = dict(mlm_model="bert-base-uncased", encoder_model="bert-base-uncased",
                   fallback_encoder="all-minilm-l6-v2", glove="glove-840b-caliskan", seed=0, n_permutations=100_000,
                   batch_size=32, gap_seeds=5)


def _notebook(**changes):
    return lambda: kurita2019.check_parameters(**{**NOTEBOOK_OK, **changes})


CASES_KURITA_NOTEBOOK = [
    Case("Kurita notebook", "-p seed abc", _notebook(seed="abc"), E, match="seed must be an integer, not 'abc'"),
    Case("Kurita notebook", "-p seed -1", _notebook(seed=-1), E, match="seed must be >= 0, not -1"),
    Case("Kurita notebook", "-p n_permutations abc", _notebook(n_permutations="abc"), E,
         match="n_permutations must be an integer, not 'abc'"),
    Case("Kurita notebook", "-p batch_size 0", _notebook(batch_size=0), E, match="batch_size must be >= 1, not 0"),
    Case("Kurita notebook", "-p gap_seeds 0", _notebook(gap_seeds=0), E, match="gap_seeds must be >= 1, not 0"),
    Case("Kurita notebook", "-p mlm_model ''", _notebook(mlm_model=""), E, match="mlm_model must be a model"),
    Case("Kurita", "table3 resampling not a Resampling",
         lambda: kurita2019.table3([], embedding=None, embedding_name="x", encoder=None, masked_lm=None,
                                   vocabulary_model=None, resampling={"n_permutations": 0}), E,
         match="resampling must be a Resampling or None, not dict"),
    Case("Kurita", "reduce_to_vocabulary seed 'abc'",
         lambda: contextual_tests.reduce_to_vocabulary(kurita2019_categories()[0], _tiny(), seed="abc"), E,
         match="seed must be .*not 'abc'"),
]

ALL = CASES_MLM_TEMPLATES + CASES_MLM_PARAMETERS + CASES_MODELS + CASES_KURITA + CASES_KURITA_NOTEBOOK


@pytest.mark.parametrize("case", ALL, ids=lambda c: c.id)
def test_case(case):
    check(case)


def test_device_cuda_without_a_gpu_is_named():
    """``device='cuda'`` on a machine without a GPU: the device and what is available are named."""
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    check(Case("models", "device 'cuda' without a GPU", lambda: contextual.load_mlm(str(_tiny_path()), device="cuda"),
               E, match=r"device 'cuda' is not available: torch .* sees no CUDA GPU.*available here: 'cpu'"))


def test_the_tiny_model_still_loads_and_scores():
    """The checks refuse only bad input: the planted model loads and scores a good template."""
    scores = mlm.log_prob_bias_scores(_tiny(), ["nurse", "engineer"], [OK])
    assert scores.shape == (2,) and np.isfinite(scores).all()
