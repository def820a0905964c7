"""The encoding of a user's corpus: only text encodings are accepted (check_encoding), and a file read in the wrong
one is refused with the encoding its bytes are likely in (corpora._decode), instead of training on garbage; text in
its right encoding, in any script, is read as before."""
from __future__ import annotations

import gzip

import pytest

from wordbias.core.errors import CorpusError, InvalidParameterError
from wordbias.datasets import corpora
from wordbias.datasets.corpora import CorpusSpec, check_encoding, read_corpus, text_size

ENGLISH = "".join(f"The miller sang of the summer rain near the river, line {i}.\n" for i in range(400))
FRENCH = "".join(f"Le cœur de l’été: elle était très contente, dit-il à son frère ({i}).\n" for i in range(200))
RUSSIAN = "".join(f"Москва - столица России, город на реке Москве ({i}).\n" for i in range(200))
CHINESE = "我们 今天 去 公园 散步 , 天气 很 好 。\n" * 300
GREEK = "".join(f"Η γλώσσα είναι το σπίτι της σκέψης ({i}).\n" for i in range(200))


def _file(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", ["utf-8", "UTF8", "latin-1", "cp1252", "utf-16", "utf-32-le", "koi8-r", "gbk",
                                  "shift_jis", "mac-roman"])
def test_text_encodings_are_accepted(name):
    assert check_encoding(name) == name


@pytest.mark.parametrize("name, kind", [("rot13", "str into str"), ("rot_13", "str into str"),
                                        ("base64", "bytes into bytes"), ("base64_codec", "bytes into bytes"),
                                        ("hex", "bytes into bytes"), ("zlib", "bytes into bytes"),
                                        ("bz2", "bytes into bytes"), ("quopri", "bytes into bytes"),
                                        ("uu", "bytes into bytes")])
def test_codecs_that_are_not_text_encodings_are_refused_by_name(name, kind):
    with pytest.raises(InvalidParameterError, match=rf"--encoding {name!r} is not a text encoding .*turns {kind}"):
        check_encoding(name, "--encoding")
    with pytest.raises(InvalidParameterError, match=rf"encoding {name!r} is not a text encoding"):
        CorpusSpec("inaugural", encoding=name)


@pytest.mark.parametrize("value, fragment", [("utf-9", "is not a codec Python knows"), ("", "must be the name"),
                                             ("  ", "must be the name"), (None, "must be the name"),
                                             (b"utf-8", "must be the name"), ("undefined", "decodes nothing")])
def test_unknown_empty_and_useless_encodings_are_refused(value, fragment):
    with pytest.raises(InvalidParameterError, match=fragment):
        check_encoding(value)


@pytest.mark.parametrize("text, encoding", [(ENGLISH, "utf-8"), (FRENCH, "utf-8"), (FRENCH, "cp1252"),
                                            (FRENCH.replace("œ", "oe").replace("’", "'"), "latin-1"),
                                            (RUSSIAN, "utf-8"), (RUSSIAN, "cp1251"), (RUSSIAN, "koi8-r"),
                                            (CHINESE, "utf-8"), (CHINESE, "gbk"), (CHINESE, "utf-16"),
                                            (GREEK, "utf-8"), (GREEK, "iso-8859-7"), (ENGLISH, "utf-16"),
                                            (ENGLISH, "utf-16-be"), (ENGLISH, "utf-32"), (FRENCH, "utf-8-sig")])
def test_text_in_its_own_encoding_is_read(tmp_path, text, encoding):
    path = _file(tmp_path, "doc.txt", text.encode(encoding))
    corpus = read_corpus(path, encoding=encoding)
    assert corpus.documents == read_corpus(_file(tmp_path, "ref.txt", text.encode("utf-8"))).documents


def test_the_shipped_corpora_pass_the_checks():
    for name in corpora.SHIPPED:       # seven files in Big5, one in Latin-1, the rest UTF-8
        assert read_corpus(name).n_tokens > 100_000


@pytest.mark.parametrize("text, written, read, message", [
    (ENGLISH, "utf-8", "utf-16", r"read as utf-16, it does not look like text: .*likely utf-8 \(its bytes are valid "
                                 r"UTF-8 and read as UTF-8 they are text\): give encoding='utf-8'"),
    (ENGLISH + "!", "utf-8", "utf-16", r"not valid utf-16 at byte offset \d+ \(b'!': truncated data\); the file is "
                                       r"likely utf-8"),
    (RUSSIAN, "utf-8", "utf-16", r"utf-16.*likely utf-8"),
    (RUSSIAN, "utf-8", "cp1251", r"read as cp1251, its text is garbled \('РњРѕСЃРєРІР°.*its bytes are valid UTF-8, "
                                 r"with \d+ distinct multi-byte characters.*give encoding='utf-8'"),
    (FRENCH, "utf-8", "cp1252", r"read as cp1252, its text is garbled.*give encoding='utf-8'"),
    (FRENCH, "utf-8", "latin-1", r"C1 control characters.*likely utf-8"),
    (FRENCH, "cp1252", "latin-1", r"C1 control characters \(\d+ of them, e\.g\. U\+0092, U\+009C\), which no text "
                                  r"holds; the file is likely cp1252"),
    (ENGLISH, "utf-16", "latin-1", r"looks binary, not text \(a NUL byte at offset 3\).*utf-16 text \(it starts with "
                                   r"the UTF-16 \(little-endian\) byte-order mark\): give encoding='utf-16'"),
    (ENGLISH, "utf-16-be", "utf-16-le", r"read as utf-16-le, .*likely utf-16-be"),
    (ENGLISH, "utf-16-le", "utf-8", r"looks binary.*give encoding='utf-16-le'"),
    (ENGLISH, "utf-32", "utf-16", r"looks binary, not text \(read as utf-16, character 0 is NUL\).*UTF-32"),
    (CHINESE, "utf-8", "gbk", r"not valid gbk at byte offset \d+ .*likely utf-8"),
    (GREEK, "utf-8", "iso-8859-7", r"iso-8859-7.*give encoding='utf-8'"),
])
def test_a_file_read_in_the_wrong_encoding_names_the_likely_one(tmp_path, text, written, read, message):
    path = _file(tmp_path, "doc.txt", text.encode(written))
    with pytest.raises(CorpusError, match=r"doc\.txt: .*" + message):
        read_corpus(path, encoding=read)


def test_a_folder_names_the_file_in_the_wrong_encoding(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    _file(folder, "a.txt", ENGLISH.encode("utf-8"))
    _file(folder, "b.txt", FRENCH.encode("utf-16"))
    with pytest.raises(CorpusError, match=r"b\.txt: looks binary.*give encoding='utf-16'"):
        read_corpus(folder)


def test_an_invalid_byte_mid_file_gives_the_offset_and_the_line(tmp_path):
    data = ENGLISH.encode("utf-8")
    at = data.index(b"line 300")
    path = _file(tmp_path, "doc.txt", data[:at] + b"\xff" + data[at:])
    with pytest.raises(CorpusError, match=rf"doc\.txt: not valid utf-8 at byte offset {at} \(b'\\xfflin': invalid "
                                          r"start byte\) on line 301; give the file's encoding"):
        read_corpus(path)
    gz = _file(tmp_path, "doc.txt.gz", gzip.compress(data[:at] + b"\xff" + data[at:]))
    with pytest.raises(CorpusError, match=rf"not valid utf-8 at byte offset {at} of the decompressed text"):
        read_corpus(gz)


@pytest.mark.parametrize("text, reason", [
    ("word" * 400, r"no space or line break in its first 1,600 characters"),
    ("a b\x01\x02\x03\x04 " * 100, r"400 of its first 800 characters are control characters, .*U\+0001"),
    ("some text \ufffd\ufffd " * 100, r"200 of its first 1,300 characters .*U\+FFFD replacement characters "
                                     r"\(e\.g\. U\+FFFD\)"),
    ("private \ue000\ue001 use " * 100, r"200 of its first 1,500 characters .*private-use .*\(e\.g\. U\+E000, "
                                       r"U\+E001\)"),
])
def test_decoded_text_that_is_not_text_is_refused(tmp_path, text, reason):
    path = _file(tmp_path, "doc.txt", text.encode("utf-8"))
    with pytest.raises(CorpusError, match=r"read as utf-8, it does not look like text: " + reason):
        read_corpus(path)


def test_a_few_odd_characters_in_text_are_kept(tmp_path):
    text = ENGLISH + "a stray \ufffd and a form feed\f and an escape \x1b here\n"
    corpus = read_corpus(_file(tmp_path, "doc.txt", text.encode("utf-8")))
    assert corpus.n_tokens > 1000


def test_the_checks_cost_little_on_brown():
    import time

    spec = CorpusSpec("brown", select=["ca*"])
    start = time.process_time()
    corpora._read(spec)
    full = time.process_time() - start
    keep = corpora._not_text, corpora._better_encoding
    try:
        corpora._not_text = lambda *a, **k: None
        corpora._better_encoding = lambda *a, **k: None
        start = time.process_time()
        corpora._read(spec)
        bare = time.process_time() - start
    finally:
        corpora._not_text, corpora._better_encoding = keep
    assert full < 1.5 * bare + 0.05, (full, bare)


def test_text_size_is_known_before_reading(tmp_path):
    path = _file(tmp_path, "doc.txt", ENGLISH.encode("utf-8"))
    assert text_size(CorpusSpec(str(path))) == len(ENGLISH.encode("utf-8"))
    gz = _file(tmp_path, "doc.txt.gz", gzip.compress(ENGLISH.encode("utf-8")))
    assert text_size(CorpusSpec(str(gz))) == len(ENGLISH.encode("utf-8"))
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.txt", "b.txt"):
        _file(folder, name, b"x" * 100)
    assert text_size(CorpusSpec(str(folder))) == 200
    assert 9_000_000 < text_size(CorpusSpec("brown")) < 11_000_000


def test_a_blank_select_pattern_is_refused():
    with pytest.raises(InvalidParameterError, match="select must hold document ids or patterns"):
        CorpusSpec("inaugural", select=["  "])
