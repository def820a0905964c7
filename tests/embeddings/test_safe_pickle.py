"""Opening gensim's pickled files runs no code from them (wordbias.embeddings.safe_pickle): crafted files are
refused before anything of them runs (a marker file their code would write stays absent), gensim's genuine
KeyedVectors, Word2Vec, FastText and Doc2Vec files load without trust and give gensim's vectors, a file named as
text is never unpickled, and trust=True (--trust-pickle) opens a trusted file with gensim's own loader."""
from __future__ import annotations

import contextlib
import gzip
import io
import pickle
import sys
import zipfile

import numpy as np
import pytest
from crafted_pickles import System, WriteMarker
from gensim.models import Doc2Vec, FastText, KeyedVectors, Word2Vec
from gensim.models.doc2vec import TaggedDocument

import wordbias
from wordbias import cli
from wordbias import embeddings as E
from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError, UnsafeFileError
from wordbias.embeddings.safe_pickle import RestrictedUnpickler, load_saved

SENTENCES = [["the", "king", "rules", "the", "land"], ["the", "queen", "rules", "too"],
             ["a", "man", "and", "a", "woman"]] * 10


def _crafted(path, marker, payload=WriteMarker):
    path.write_bytes(pickle.dumps(payload(marker), protocol=4))
    return path


def _kv_with_payload(tmp_path, marker, name="evil.kv"):
    """A genuine KeyedVectors saved by gensim, with one attribute whose unpickling runs code (returns None)."""
    kv = KeyedVectors(4)
    kv.add_vectors(["king", "queen"], np.array([[1, 2, 3, 4], [4, 3, 2, 1]], dtype=np.float32))
    kv.payload = WriteMarker(marker)
    kv.save(str(tmp_path / name))
    return tmp_path / name


@pytest.fixture(scope="module")
def w2v():
    return Word2Vec(SENTENCES, vector_size=8, min_count=1, workers=1, seed=0)


# ------------------------------------------------------------------------------------------------ refused


@pytest.mark.parametrize("name", ["evil.kv", "evil.model", "evil.wv", "vectors.txt", "glove.6B.50d.txt",
                                  "wiki.en.vec", "vectors.csv", "no-suffix", "evil.pkl"])
@pytest.mark.parametrize("payload", [WriteMarker, System])
def test_a_crafted_pickle_is_refused_and_runs_nothing(tmp_path, name, payload):
    marker = tmp_path / "marker"
    path = _crafted(tmp_path / name, marker, payload)
    with pytest.raises(UnsafeFileError, match=rf"{name}: .*(refused|the file is a Python pickle)"):
        wordbias.load(path)
    with pytest.raises(UnsafeFileError):
        E.load(path, cache=False)
    assert not marker.exists()


def test_the_refusal_names_the_global_and_the_way_out(tmp_path):
    path = _crafted(tmp_path / "evil.kv", tmp_path / "marker")
    with pytest.raises(UnsafeFileError) as err:
        E.load(path)
    text = str(err.value)
    assert "the pickle refers to builtins.exec, which a gensim embedding file does not hold" in text
    assert "trust=True" in text and "--trust-pickle" in text and str(path) in text
    assert isinstance(err.value, EmbeddingFormatError)


def test_code_inside_a_genuine_gensim_file_is_refused(tmp_path):
    marker = tmp_path / "marker"
    path = _kv_with_payload(tmp_path, marker)
    with pytest.raises(UnsafeFileError, match=r"evil\.kv: refused: the pickle refers to builtins\.exec"):
        E.load(path)
    assert not marker.exists()


def test_trust_opens_a_trusted_file_with_gensims_loader(tmp_path):
    """trust=True runs the file's code (the marker is written): the option works, and is what it says."""
    marker = tmp_path / "marker"
    kv = E.load(_kv_with_payload(tmp_path, marker), trust=True)
    assert marker.read_text() == "ran" and kv.index_to_key == ["king", "queen"]


def test_trust_must_be_a_bool(tmp_path):
    with pytest.raises(InvalidParameterError, match="trust must be True or False, not 'yes'"):
        E.load(tmp_path, trust="yes")


@pytest.mark.parametrize("module, name", [
    ("builtins", "eval"), ("builtins", "exec"), ("builtins", "getattr"), ("builtins", "__import__"),
    ("builtins", "open"), ("builtins", "compile"), ("os", "system"), ("posix", "system"), ("nt", "system"),
    ("subprocess", "Popen"), ("subprocess", "check_output"), ("shutil", "rmtree"), ("runpy", "run_path"),
    ("importlib", "import_module"), ("pickle", "loads"), ("_pickle", "loads"), ("numpy", "load"),
    ("numpy.lib.npyio", "load"), ("numpy.testing", "assert_equal"), ("gensim.utils", "unpickle"),
    ("gensim.utils", "pickle"), ("gensim.utils", "SaveLoad"), ("gensim.models.keyedvectors", "KeyedVectors.load"),
    ("gensim.models.keyedvectors", "np"), ("gensim.models.word2vec", "LineSentence"), ("copyreg", "__newobj__"),
    ("functools", "partial"), ("types", "CodeType"), ("types", "FunctionType"), ("operator", "attrgetter"),
    ("__main__", "MyKeyedVectors"), ("pyarrow.lib", "Table"), ("torch", "load"), ("webbrowser", "open"),
])
def test_find_class_refuses_everything_a_gensim_file_does_not_hold(module, name):
    unpickler = RestrictedUnpickler(io.BytesIO(b""), "x.kv")
    with pytest.raises(UnsafeFileError, match=rf"x\.kv: refused: the pickle refers to {module}\.{name}, "):
        unpickler.find_class(module, name)


def test_a_refused_module_is_not_even_imported(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    (tmp_path / "wb_import_side_effect.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\nX = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    data = b"\x80\x02cwb_import_side_effect\nX\n."
    (tmp_path / "m.kv").write_bytes(data)
    with pytest.raises(UnsafeFileError, match=r"wb_import_side_effect\.X"):
        E.load(tmp_path / "m.kv")
    assert not marker.exists() and "wb_import_side_effect" not in sys.modules


def test_gensim_classes_can_be_filled_but_never_called(tmp_path):
    """A pickle that calls Word2Vec(corpus_file=...) would train on any file: refused (REDUCE on a class)."""
    class CallsWord2Vec:
        def __reduce__(self):
            return (Word2Vec, (None, "/etc/passwd"))
    (tmp_path / "call.model").write_bytes(pickle.dumps(CallsWord2Vec(), protocol=4))
    with pytest.raises(UnsafeFileError, match=r"calls the class gensim\.models\.word2vec\.Word2Vec\(None, '/etc/passwd'"):
        E.load(tmp_path / "call.model")


def test_gensim_classes_cannot_be_created_with_arguments_or_changed():
    unpickler = RestrictedUnpickler(io.BytesIO(b""), "x.kv")
    stand_in = unpickler.find_class("gensim.models.keyedvectors", "KeyedVectors")
    assert type(stand_in.__new__(stand_in)) is KeyedVectors
    with pytest.raises(UnsafeFileError, match="creates gensim.models.keyedvectors.KeyedVectors with arguments"):
        stand_in.__new__(stand_in, 5)
    with pytest.raises(UnsafeFileError, match="sets the attribute '__new__'"):
        stand_in.__new__ = print
    with pytest.raises(UnsafeFileError, match=r"calls the class"):
        stand_in(4)


@pytest.mark.parametrize("data, match", [
    # copyreg._reconstructor on a base other than object (protocol 0/1)
    (b"\x80\x02ccopyreg\n_reconstructor\ncgensim.models.keyedvectors\nKeyedVectors\ncbuiltins\nint\nK\x01\x87R.",
     r"rebuilds 'KeyedVectors' on <class 'int'>"),
    # _codecs.encode with another codec than latin1 (codecs are looked up, and imported, by name)
    (b"\x80\x02c_codecs\nencode\nX\x01\x00\x00\x00aX\x05\x00\x00\x00rot13\x86R.", r"codec 'rot13'"),
    # a persistent id
    (b"\x80\x02X\x01\x00\x00\x00xQ.", r"persistent id"),
    # numpy's random-state helper with a constructor that is not allowed
    (b"\x80\x02cnumpy.random._pickle\n__randomstate_ctor\nX\x07\x00\x00\x00MT19937cos\nsystem\n\x86R.",
     r"os\.system"),
])
def test_other_routes_to_code_are_refused(tmp_path, data, match):
    (tmp_path / "r.kv").write_bytes(data)
    with pytest.raises(UnsafeFileError, match=match):
        E.load(tmp_path / "r.kv")


def _kv_pickle_with_specials(tmp_path, name, **specials):
    kv = KeyedVectors(2)
    kv.add_vectors(["a", "b"], np.eye(2, dtype=np.float32))
    for attr, value in specials.items():
        setattr(kv, attr, value)
    (tmp_path / name).write_bytes(pickle.dumps(kv, protocol=4))
    return tmp_path / name


@pytest.mark.parametrize("specials, match", [
    ({"__numpys": ["../../../tmp/x"]}, r"gensim's list __numpys of a KeyedVectors is \['../../../tmp/x'\]"),
    ({"__numpys": "vectors"}, r"__numpys of a KeyedVectors is 'vectors', not a list of attribute names"),
    ({"__scipys": ["matrix"]}, r"stores the sparse matrices \['matrix'\] in files beside it"),
    ({"__recursive_saveloads": ["index_to_key"]}, r"the attribute 'index_to_key' .* is a list, not a gensim object"),
])
def test_the_attributes_gensim_stores_apart_are_checked(tmp_path, specials, match):
    path = _kv_pickle_with_specials(tmp_path, "s.kv", **specials)
    with pytest.raises(UnsafeFileError, match=match):
        E.load(path)


def test_an_array_file_holding_python_objects_is_refused(tmp_path):
    marker = tmp_path / "marker"
    kv = KeyedVectors(2)
    kv.add_vectors(["a", "b"], np.eye(2, dtype=np.float32))
    kv.save(str(tmp_path / "o.kv"), sep_limit=0)        # the matrix in o.kv.vectors.npy
    np.save(tmp_path / "o.kv.vectors.npy", np.array([WriteMarker(marker), 1], dtype=object), allow_pickle=True)
    for mmap_mode in ("r", None):
        with pytest.raises(UnsafeFileError, match=r"o\.kv: refused: an array file stored beside it holds Python "):
            E.load(tmp_path / "o.kv", mmap_mode=mmap_mode)
    assert not marker.exists()


def test_a_damaged_pickle_is_a_format_error(tmp_path):
    (tmp_path / "junk.kv").write_bytes(b"\x80\x04garbage")
    with pytest.raises(EmbeddingFormatError, match=r"junk\.kv: not a file gensim can load"):
        E.load(tmp_path / "junk.kv")
    (tmp_path / "list.kv").write_bytes(pickle.dumps([1, 2], protocol=4))
    with pytest.raises(EmbeddingFormatError, match=r"list\.kv: not a file gensim can load: it holds a list"):
        E.load(tmp_path / "list.kv")


# ------------------------------------------------------------------------------------------------ names of text


@pytest.mark.parametrize("name", ["vectors.txt", "glove.6B.50d.txt", "wiki.vec", "v.tsv", "v.text"])
def test_a_pickle_named_as_text_is_never_unpickled_even_when_genuine(tmp_path, w2v, name):
    w2v.wv.save(str(tmp_path / name))
    with pytest.raises(UnsafeFileError, match=rf"{name}: the file is a Python pickle .* pass format='gensim'"):
        E.load(tmp_path / name)
    assert E.load(tmp_path / name, format="gensim").index_to_key == w2v.wv.index_to_key  # as the message says


def test_a_pickle_inside_a_gz_or_zip_named_as_text(tmp_path):
    data = pickle.dumps(WriteMarker(tmp_path / "marker"), protocol=4)
    (tmp_path / "v.txt.gz").write_bytes(gzip.compress(data))
    with zipfile.ZipFile(tmp_path / "v.zip", "w") as zf:
        zf.writestr("vectors.txt", data)
    for name in ("v.txt.gz", "v.zip"):
        with pytest.raises(UnsafeFileError, match="the file is a Python pickle"):
            E.load(tmp_path / name)
    assert not (tmp_path / "marker").exists()


@pytest.mark.parametrize("fmt", ["glove", "word2vec-text", "fasttext-vec", "word2vec-binary"])
def test_a_text_format_asked_for_on_a_pickle(tmp_path, fmt):
    path = _crafted(tmp_path / "evil.kv", tmp_path / "marker")
    with pytest.raises(UnsafeFileError, match=r"evil\.kv: the file is a Python pickle"):
        E.load(path, format=fmt)
    assert not (tmp_path / "marker").exists()


# ------------------------------------------------------------------------------------------------ genuine files


def _same(kv, ref):
    return kv.index_to_key == ref.index_to_key and np.array_equal(kv.vectors, ref.vectors)


@pytest.mark.parametrize("sep_limit", [10 * 1024 ** 2, 0])
def test_genuine_keyed_vectors_load_without_trust(tmp_path, w2v, sep_limit):
    w2v.wv.save(str(tmp_path / "w.kv"), sep_limit=sep_limit)   # arrays inline, or in w.kv.vectors.npy
    assert (tmp_path / "w.kv.vectors.npy").exists() == (sep_limit == 0)
    kv = E.load(tmp_path / "w.kv")
    assert _same(kv, w2v.wv)
    assert isinstance(kv.vectors, np.memmap) == (sep_limit == 0)


def test_genuine_models_load_without_trust(tmp_path, w2v):
    ft = FastText(SENTENCES, vector_size=6, min_count=1, workers=1, seed=0, bucket=500)
    d2v = Doc2Vec([TaggedDocument(s, [i]) for i, s in enumerate(SENTENCES[:3])], vector_size=5, min_count=1,
                  workers=1, seed=0)
    hs = Word2Vec(SENTENCES, vector_size=8, min_count=1, workers=1, seed=0, hs=1, negative=0, sg=1)
    w2v.save(str(tmp_path / "w.model"))
    w2v.save(str(tmp_path / "split.model"), sep_limit=0)
    w2v.save(str(tmp_path / "w.model.gz"))
    w2v.save(str(tmp_path / "p2.model"), pickle_protocol=2)
    ft.save(str(tmp_path / "f.model"))
    ft.wv.save(str(tmp_path / "f.kv"))
    d2v.save(str(tmp_path / "d.model"))
    hs.save(str(tmp_path / "hs.model"))
    for name, ref in [("w.model", w2v.wv), ("split.model", w2v.wv), ("w.model.gz", w2v.wv), ("p2.model", w2v.wv),
                      ("f.model", ft.wv), ("f.kv", ft.wv), ("d.model", d2v.wv), ("hs.model", hs.wv)]:
        assert _same(E.load(tmp_path / name), ref), name
        assert _same(E.load(tmp_path / name, trust=True), ref), name   # the same as gensim's own loader


def test_load_saved_gives_gensims_objects(tmp_path, w2v):
    w2v.save(str(tmp_path / "w.model"))
    model = load_saved(tmp_path / "w.model")
    assert type(model) is Word2Vec and _same(model.wv, w2v.wv)
    assert np.array_equal(model.syn1neg, w2v.syn1neg) and model.random.random() == Word2Vec.load(
        str(tmp_path / "w.model")).random.random()


def test_read_vectors_opens_gensim_files_too(tmp_path, w2v):
    w2v.wv.save(str(tmp_path / "w.kv"))
    words, vectors = E.read_vectors(tmp_path / "w.kv")
    assert words == w2v.wv.index_to_key and np.array_equal(vectors, w2v.wv.vectors)
    with pytest.raises(UnsafeFileError):
        E.read_vectors(_crafted(tmp_path / "evil.kv", tmp_path / "marker"))
    assert not (tmp_path / "marker").exists()


# ------------------------------------------------------------------------------------------------ optional packages


def test_a_trusted_file_needing_a_package_not_installed_says_which(tmp_path):
    (tmp_path / "needs.kv").write_bytes(b"\x80\x02cwb_no_such_package.sub\nThing\n)R.")
    with pytest.raises(UnsafeFileError, match=r"wb_no_such_package\.sub\.Thing"):
        E.load(tmp_path / "needs.kv")
    with pytest.raises(EmbeddingFormatError, match=r"needs\.kv: the file needs the Python package "
                                                   r"'wb_no_such_package' .*: pip install wb_no_such_package"):
        E.load(tmp_path / "needs.kv", trust=True)


# ------------------------------------------------------------------------------------------------ the command


def _run(*argv):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main([str(a) for a in argv])
    return code, err.getvalue()


@pytest.mark.parametrize("name", ["evil.kv", "evil.model", "vectors.txt", "glove.6B.50d.txt"])
@pytest.mark.parametrize("command", ["weat", "report"])
def test_the_commands_refuse_a_crafted_pickle(tmp_path, name, command):
    marker = tmp_path / "marker"
    path = _crafted(tmp_path / name, marker)
    code, err = _run(command, path, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and err.startswith(f"wordbias: error: {path}: ") and "Traceback" not in err
    assert not marker.exists()


def test_compare_and_debias_refuse_a_crafted_pickle(tmp_path, w2v):
    marker = tmp_path / "marker"
    path = _crafted(tmp_path / "evil.kv", marker)
    w2v.wv.save(str(tmp_path / "good.kv"))
    for argv in (["compare", path, tmp_path / "good.kv", "--no-ube"], ["compare", path, tmp_path / "good.kv",
                                                                        "--no-ube", "--workers", "2"],
                 ["debias", path, "--method", "hard", "--no-checks"]):
        code, err = _run(*argv, "--out", tmp_path / f"out{len(argv)}", "--quiet")
        assert code == 1 and "refused: the pickle refers to builtins.exec" in err, (argv, err)
    assert not marker.exists()


def test_trust_pickle_on_the_command_line(tmp_path):
    marker = tmp_path / "marker"
    path = _kv_with_payload(tmp_path, marker)
    code, err = _run("weat", path, "--out", tmp_path / "out", "--quiet")
    assert code == 1 and "--trust-pickle" in err and not marker.exists()
    code, err = _run("weat", path, "--out", tmp_path / "out2", "--quiet", "--trust-pickle")
    assert marker.exists() and "refused" not in err


def test_every_command_taking_an_embedding_has_trust_pickle():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for command in ("weat", "report", "compare", "seat", "debias"):
        assert "--trust-pickle" in sub.choices[command].format_help(), command
    assert "--trust-pickle" not in sub.choices["contextual"].format_help()
