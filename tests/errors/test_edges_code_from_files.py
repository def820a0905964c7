"""Catalogue cases of the family "code from files": loading never runs code from a file by default.

A gensim file (``.kv``, ``.model``) is a pickle, opened by a restricted unpickler
(:mod:`wordbias.embeddings.safe_pickle`) that refuses anything a gensim embedding does not hold; a file named as
text is never unpickled; a transformer model is loaded from safetensors only (:mod:`wordbias.models.contextual`);
a trusted pickle that needs a package not installed names it and the ``pip install``. Every case writes its
crafted file into a fresh folder, and its call is wrapped in :func:`no_code_ran`: a call after which the marker file
the crafted code writes exists is counted as "wrong", whatever it raised."""
from __future__ import annotations

import contextlib
import functools
import gzip
import io
import pickle
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, CommandFailed, check, exit_status, run_cli
from crafted_pickles import System, WriteMarker

from wordbias.core.errors import EmbeddingFormatError, UnsafeFileError

F = "code from files"


class CodeRan(AssertionError):
    """The crafted file's code ran: its marker file exists after the call."""


def no_code_ran(make):
    """A call on a fresh folder: ``make(folder, marker)`` writes the crafted files and returns the call; after it,
    whatever it raised, :class:`CodeRan` if the marker exists."""
    def call():
        folder = Path(tempfile.mkdtemp(prefix="wb-code-"))
        marker = folder / "marker"
        inner = make(folder, marker)
        try:
            return inner()
        finally:
            if marker.exists():
                raise CodeRan(f"the file's code ran: {marker} was written")
    return call


def _run(*argv):
    """``wordbias ARGV`` in-process: 0, or :class:`CommandFailed` with the exit status and stderr."""
    return exit_status(*run_cli(argv))


def _crafted(name, payload=WriteMarker, wrap=None):
    """``folder/name`` holding a pickle of ``payload(marker)`` (through ``wrap(bytes)`` when given)."""
    def write(folder, marker):
        data = pickle.dumps(payload(marker), protocol=4)
        (folder / name).write_bytes(wrap(data) if wrap else data)
        return folder / name
    return write


def _load(write, **kwargs):
    def make(folder, marker):
        from wordbias import embeddings

        path = write(folder, marker)
        return lambda: embeddings.load(path, progress=False, **kwargs)
    return no_code_ran(make)


def _command(write, *argv):
    def make(folder, marker):
        path = write(folder, marker)
        args = [a(folder) if callable(a) else a for a in argv]
        return lambda: _run(*[path if a == "PATH" else a for a in args], "--out", folder / "out", "--quiet")
    return no_code_ran(make)


def _genuine_kv(folder):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(4)
    kv.add_vectors(["king", "queen", "man", "woman"], np.arange(1, 17, dtype=np.float32).reshape(4, 4))
    kv.save(str(folder / "good.kv"))
    return folder / "good.kv"


def _kv_with_payload(name="inside.kv"):
    """A genuine KeyedVectors saved by gensim, one attribute of which runs code when unpickled."""
    def write(folder, marker):
        from gensim.models import KeyedVectors

        kv = KeyedVectors(2)
        kv.add_vectors(["a", "b"], np.eye(2, dtype=np.float32))
        kv.payload = WriteMarker(marker)
        kv.save(str(folder / name))
        return folder / name
    return write


def _raw(name, data: bytes):
    def write(folder, marker):
        (folder / name).write_bytes(data.replace(b"MARKER", str(marker).encode()))
        return folder / name
    return write


def _with_specials(name, **specials):
    """A KeyedVectors pickle whose gensim lists of attributes stored apart (``__numpys``...) are ``specials``."""
    def write(folder, marker):
        from gensim.models import KeyedVectors

        kv = KeyedVectors(2)
        kv.add_vectors(["a", "b"], np.eye(2, dtype=np.float32))
        for attr, value in specials.items():
            setattr(kv, attr, value)
        (folder / name).write_bytes(pickle.dumps(kv, protocol=4))
        return folder / name
    return write


def _object_array_beside(folder, marker):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(2)
    kv.add_vectors(["a", "b"], np.eye(2, dtype=np.float32))
    kv.save(str(folder / "o.kv"), sep_limit=0)
    np.save(folder / "o.kv.vectors.npy", np.array([WriteMarker(marker), 1], dtype=object), allow_pickle=True)
    return folder / "o.kv"


def _import_side_effect(folder, marker):
    """A pickle naming a module whose import writes the marker (importing it is running code)."""
    import sys

    (folder / "wb_catalogue_side_effect.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\nX = 1\n")
    sys.path.insert(0, str(folder))
    (folder / "m.kv").write_bytes(b"\x80\x02cwb_catalogue_side_effect\nX\n)R.")
    return folder / "m.kv"


def _read_vectors(write):
    def make(folder, marker):
        from wordbias import embeddings

        path = write(folder, marker)
        return lambda: embeddings.read_vectors(path)
    return no_code_ran(make)


def _zip(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("vectors.txt", data)
    return buffer.getvalue()


REFUSED = r"refused: the pickle refers to builtins\.exec, which a gensim embedding file does not hold.*trust=True"
SYSTEM = r"refused: the pickle refers to posix\.system"
AS_TEXT = r"the file is a Python pickle \(it starts with the bytes of pickle protocol 4\), not an embedding in text"
# a trusted pickle that needs a package not installed here
NEEDS = b"\x80\x02cwordbias_catalogue_missing_pkg.models\nVectors\n)R."
PYARROW = b"\x80\x02cpyarrow.lib\nTable\n)R."

CASES_CODE_FROM_FILES = [
    # gensim's own suffixes: the restricted unpickler refuses before anything runs
    Case(F, "load a crafted .kv (exec)", _load(_crafted("evil.kv")), UnsafeFileError, match=rf"evil\.kv: {REFUSED}"),
    Case(F, "load a crafted .model (os.system)", _load(_crafted("evil.model", System)), UnsafeFileError,
         match=rf"evil\.model: {SYSTEM}"),
    Case(F, "load a crafted .wv", _load(_crafted("evil.wv")), UnsafeFileError, match=REFUSED),
    Case(F, "load a crafted .kv, cache=False", _load(_crafted("evil.kv"), cache=False), UnsafeFileError,
         match=REFUSED),
    Case(F, "load a crafted .kv, mmap_mode=None", _load(_crafted("evil.kv"), mmap_mode=None), UnsafeFileError,
         match=REFUSED),
    Case(F, "load a crafted .kv.gz (gensim's compressed save)", _load(_crafted("evil.kv.gz", wrap=gzip.compress)),
         UnsafeFileError, match=rf"evil\.kv\.gz: {REFUSED}"),
    Case(F, "load a crafted pickle of no known suffix", _load(_crafted("embedding")), UnsafeFileError,
         match=REFUSED),
    Case(F, "load a crafted pickle named .pkl", _load(_crafted("vectors.pkl", System)), UnsafeFileError,
         match=SYSTEM),
    Case(F, "code inside a genuine KeyedVectors file", _load(_kv_with_payload()), UnsafeFileError,
         match=rf"inside\.kv: {REFUSED}"),
    Case(F, "format='gensim' on a crafted file", _load(_crafted("v.bin"), format="gensim"), UnsafeFileError,
         match=REFUSED),
    # a pickle under a text file's name is never unpickled
    Case(F, "load a crafted pickle named vectors.txt", _load(_crafted("vectors.txt")), UnsafeFileError,
         match=rf"vectors\.txt: {AS_TEXT}"),
    Case(F, "load a crafted pickle named glove.6B.50d.txt", _load(_crafted("glove.6B.50d.txt", System)),
         UnsafeFileError, match=rf"glove\.6B\.50d\.txt: {AS_TEXT}"),
    Case(F, "load a crafted pickle named wiki.en.vec", _load(_crafted("wiki.en.vec")), UnsafeFileError,
         match=AS_TEXT),
    Case(F, "load a crafted pickle named vectors.csv", _load(_crafted("vectors.csv")), UnsafeFileError,
         match=AS_TEXT),
    Case(F, "load a crafted pickle named vectors.txt, cache=False", _load(_crafted("vectors.txt"), cache=False),
         UnsafeFileError, match=AS_TEXT),
    Case(F, "load a crafted pickle gzipped as vectors.txt.gz", _load(_crafted("vectors.txt.gz", wrap=gzip.compress)),
         UnsafeFileError, match=rf"vectors\.txt\.gz: {AS_TEXT}"),
    Case(F, "load a crafted pickle as vectors.txt in a .zip", _load(_crafted("vectors.zip", wrap=_zip)),
         UnsafeFileError, match=rf"vectors\.zip\[vectors\.txt\]: {AS_TEXT}"),
    Case(F, "format='glove' on a crafted .kv", _load(_crafted("evil.kv"), format="glove"), UnsafeFileError,
         match=AS_TEXT),
    Case(F, "format='word2vec-binary' on a crafted .kv", _load(_crafted("evil.kv"), format="word2vec-binary"),
         UnsafeFileError, match=AS_TEXT),
    Case(F, "read_vectors on a crafted .kv", _read_vectors(_crafted("evil.kv")), UnsafeFileError, match=REFUSED),
    Case(F, "read_vectors on a crafted vectors.txt", _read_vectors(_crafted("vectors.txt")), UnsafeFileError,
         match=AS_TEXT),
    # other routes to code through a pickle a gensim file could hold
    Case(F, "a pickle calling Word2Vec(corpus_file=...)",
         _load(_raw("w.model", b"\x80\x02cgensim.models.word2vec\nWord2Vec\nNX\x0b\x00\x00\x00/etc/passwd\x86R.")),
         UnsafeFileError, match=r"calls the class gensim\.models\.word2vec\.Word2Vec\(None, '/etc/passwd'\)"),
    Case(F, "a pickle naming KeyedVectors.load (a dotted name)",
         _load(_raw("d.kv", b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00\x8c\x1agensim.models.keyedvectors"
                            b"\x8c\x11KeyedVectors.load\x93\x8c\x01x\x85R.")),
         UnsafeFileError, match=r"refers to gensim\.models\.keyedvectors\.KeyedVectors\.load"),
    Case(F, "a pickle naming gensim.utils.unpickle (a pickle inside)",
         _load(_raw("u.kv", b"\x80\x02cgensim.utils\nunpickle\nX\x01\x00\x00\x00x\x85R.")), UnsafeFileError,
         match=r"refers to gensim\.utils\.unpickle"),
    Case(F, "a pickle naming builtins.getattr", _load(_raw("g.kv", b"\x80\x02cbuiltins\ngetattr\n.")),
         UnsafeFileError, match=r"refers to builtins\.getattr"),
    Case(F, "a protocol-0 pickle calling os.system",
         _load(_raw("p0.kv", b"cos\nsystem\n(Vtouch MARKER\ntR.")), UnsafeFileError, match=r"refers to os\.system"),
    Case(F, "a pickle naming a module whose import runs code", _load(_import_side_effect), UnsafeFileError,
         match=r"refers to wb_catalogue_side_effect\.X"),
    Case(F, "a pickle encoding with the codec 'rot13'",
         _load(_raw("c.kv", b"\x80\x02c_codecs\nencode\nX\x01\x00\x00\x00aX\x05\x00\x00\x00rot13\x86R.")),
         UnsafeFileError, match=r"codec 'rot13'"),
    Case(F, "gensim's __numpys naming ../../x (a file elsewhere)", _load(_with_specials("n.kv", __numpys=["../../x"])),
         UnsafeFileError, match=r"gensim's list __numpys of a KeyedVectors is \['../../x'\]"),
    Case(F, "gensim's __scipys (unpickled by gensim without restriction)",
         _load(_with_specials("s.kv", __scipys=["m"])), UnsafeFileError, match=r"stores the sparse matrices \['m'\]"),
    Case(F, "an array file beside the .kv holding Python objects", _load(_object_array_beside), UnsafeFileError,
         match=r"o\.kv: refused: an array file stored beside it holds Python objects"),
    # an optional package a pickle needs
    Case(F, "a .kv naming pyarrow.lib.Table (not installed, or not allowed)", _load(_raw("pa.kv", PYARROW)),
         UnsafeFileError, match=r"pa\.kv: refused: the pickle refers to pyarrow\.lib\.Table"),
    Case(F, "a trusted .kv needing a package not installed", _load(_raw("needs.kv", NEEDS), trust=True),
         EmbeddingFormatError, match=r"needs\.kv: the file needs the Python package 'wordbias_catalogue_missing_pkg' "
                                     r".*pip install wordbias_catalogue_missing_pkg"),
    Case(F, "trust='yes'", _load(_crafted("evil.kv"), trust="yes"), ValueError,
         match=r"trust must be True or False, not 'yes'"),
    # the commands
    Case(F, "wordbias weat crafted.kv", _command(_crafted("evil.kv"), "weat", "PATH"), CommandFailed,
         match=rf"exit 1: wordbias: error: .*evil\.kv: {REFUSED}"),
    Case(F, "wordbias weat vectors.txt (a pickle)", _command(_crafted("vectors.txt"), "weat", "PATH"), CommandFailed,
         match=rf"exit 1: wordbias: error: .*vectors\.txt: {AS_TEXT}"),
    Case(F, "wordbias weat glove.6B.50d.txt (a pickle)", _command(_crafted("glove.6B.50d.txt", System), "weat",
                                                                  "PATH"),
         CommandFailed, match=rf"glove\.6B\.50d\.txt: {AS_TEXT}"),
    Case(F, "wordbias report crafted.model", _command(_crafted("evil.model"), "report", "PATH", "--no-ube"),
         CommandFailed, match=REFUSED),
    Case(F, "wordbias compare crafted.kv good.kv", _command(_crafted("evil.kv"), "compare", "PATH", _genuine_kv,
                                                            "--no-ube"),
         CommandFailed, match=REFUSED),
    Case(F, "wordbias compare --workers 2 crafted.kv good.kv",
         _command(_crafted("evil.kv"), "compare", "PATH", _genuine_kv, "--no-ube", "--workers", "2"),
         CommandFailed, match=REFUSED),
    Case(F, "wordbias debias crafted.kv", _command(_crafted("evil.kv"), "debias", "PATH", "--method", "hard",
                                                   "--no-checks"),
         CommandFailed, match=REFUSED),
    Case(F, "wordbias seat crafted.kv (a static embedding)", _command(_crafted("evil.kv"), "seat", "PATH"),
         CommandFailed, match=REFUSED),
    Case(F, "wordbias weat --trust-pickle needing a package not installed",
         _command(_raw("needs.kv", NEEDS), "weat", "PATH", "--trust-pickle"), CommandFailed,
         match=r"needs\.kv: the file needs the Python package .*pip install wordbias_catalogue_missing_pkg"),
]


# ---------------------------------------------------------------------------------------- transformer models


@functools.cache
def _tiny_model() -> Path:
    """A tiny BERT masked LM saved by save_pretrained (safetensors) with its fast tokenizer."""
    import torch
    from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

    folder = Path(tempfile.mkdtemp(prefix="wb-code-model-")) / "tiny"
    folder.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "he", "she", "is", "a", "nurse", "."]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizerFast(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=True).save_pretrained(folder)
    torch.manual_seed(0)
    BertForMaskedLM(BertConfig(vocab_size=len(vocab), hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                               intermediate_size=8)).save_pretrained(folder)
    return folder


def _pickled_model(weights_name: str, malicious: bool = False):
    """The tiny model's folder with its weights as a torch.save pickle (a crafted one with ``malicious``)."""
    def write(folder, marker):
        import shutil

        import torch
        from safetensors.torch import load_file

        copy = folder / "model"
        shutil.copytree(_tiny_model(), copy)
        state = load_file(copy / "model.safetensors")
        (copy / "model.safetensors").unlink()
        torch.save({"payload": WriteMarker(marker)} if malicious else state, copy / weights_name)
        return copy
    return write


def _model(load: str, write):
    def make(folder, marker):
        from wordbias.models import contextual

        path = write(folder, marker)
        return lambda: getattr(contextual, load)(str(path), device="cpu")
    return no_code_ran(make)


PICKLED_WEIGHTS = r"holds its weights as {} \(a Python pickle\) and no safetensors file; wordbias loads model " \
                  r"weights from safetensors only"

CASES_CODE_FROM_MODEL_FILES = [
    Case(F, "load_mlm on a folder with pytorch_model.bin only", _model("load_mlm", _pickled_model("pytorch_model.bin")),
         UnsafeFileError, match=PICKLED_WEIGHTS.format(r"pytorch_model\.bin")),
    Case(F, "load_encoder on a folder with pytorch_model.bin only",
         _model("load_encoder", _pickled_model("pytorch_model.bin")), UnsafeFileError,
         match=PICKLED_WEIGHTS.format(r"pytorch_model\.bin")),
    Case(F, "load_mlm on a crafted pytorch_model.bin", _model("load_mlm", _pickled_model("pytorch_model.bin", True)),
         UnsafeFileError, match=PICKLED_WEIGHTS.format(r"pytorch_model\.bin")),
    Case(F, "load_mlm on a folder with model.pt only", _model("load_mlm", _pickled_model("model.pt")),
         UnsafeFileError, match=PICKLED_WEIGHTS.format(r"model\.pt")),
    Case(F, "load_encoder on a folder with a .ckpt only", _model("load_encoder", _pickled_model("last.ckpt", True)),
         UnsafeFileError, match=PICKLED_WEIGHTS.format(r"last\.ckpt")),
    Case(F, "wordbias contextual on a crafted pytorch_model.bin",
         _command(_pickled_model("pytorch_model.bin", True), "contextual", "PATH", "--device", "cpu"),
         CommandFailed, match=r"exit 1: wordbias: error: .*" + PICKLED_WEIGHTS.format(r"pytorch_model\.bin")),
]


@pytest.mark.parametrize("case", CASES_CODE_FROM_FILES + CASES_CODE_FROM_MODEL_FILES, ids=lambda c: c.name)
def test_case(case):
    if case in CASES_CODE_FROM_MODEL_FILES:
        pytest.importorskip("torch")
        pytest.importorskip("transformers")
    check(case)


def test_the_check_counts_code_that_ran_as_wrong():
    """The guard itself can fail: a call that runs the file's code is 'wrong' even when it raises the error."""
    from catalogue import outcome

    def make(folder, marker):
        def call():
            marker.write_text("ran")
            raise UnsafeFileError("refused")
        return call

    kind, detail = outcome(Case(F, "ran", no_code_ran(make), UnsafeFileError, match="refused"))
    assert kind == "wrong" and "the file's code ran" in detail


def test_trust_runs_the_code_of_a_trusted_file(tmp_path):
    """The way out works: trust=True and --trust-pickle open the file with gensim's loader (its code runs)."""
    import wordbias
    from wordbias import cli

    marker = tmp_path / "marker"
    path = _kv_with_payload("trusted.kv")(tmp_path, marker)
    assert wordbias.load(path, trust=True).index_to_key == ["a", "b"] and marker.exists()
    marker.unlink()
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        cli.main(["weat", str(path), "--out", str(tmp_path / "out"), "--quiet", "--trust-pickle"])
    assert marker.exists()
