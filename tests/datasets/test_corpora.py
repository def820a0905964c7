"""Reading corpora (wordbias.datasets.corpora): the tokenisation rules, the shipped corpora's counts and checksums,
selections, bootstrap samples, and a clear CorpusError for each kind of bad input."""
import gzip
import hashlib
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

from wordbias.core import paths
from wordbias.core.errors import CorpusError, InvalidParameterError, SmallCorpusWarning
from wordbias.datasets import corpora
from wordbias.datasets.corpora import (
    CorpusSpec,
    bootstrap_documents,
    check_trainable,
    load_corpus,
    read_corpus,
)

# the sha256 of data/corpora/*.zip, as data/corpora/SOURCE.md records them
ZIPS = {"brown.zip": "9b275f9b3b95d7bd66ccfb7cd259f445a13bbe5d1f4107aba09fd3e8364bafa6",
        "state_union.zip": "366c1dc82b2abf896f42b2ec50ba802a0141a29f75d29ca48a7a243ce5bfbe8d",
        "inaugural.zip": "7c5fb5793e31fbeae12bf1aa0ffda5336468f07cedb50654c6d31ca384e2046b"}


def _write(path: Path, text: str, encoding="utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


def _text(n_sentences=300) -> str:
    """Running text of a few hundred tokens per 100 sentences, words repeated enough for min_count=5."""
    words = [f"w{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(40)]
    rng = np.random.default_rng(0)
    return "\n".join(" ".join(rng.choice(words, 8)).replace("w", "x") + "." for _ in range(n_sentences)) + "\n"


# ------------------------------------------------------------------------------------------------ tokenisation

def test_a_brown_line_loses_its_tags_numbers_and_punctuation():
    line = ("\n\n\tThe/at Fulton/np-tl jury/nn said/vbd ``/`` no/at evidence/nn ''/'' ,/, 1913/cd "
            "Atlanta's/np$ well-known/jj $10/nns Mr./np U.S./np --/-- ./.\n")
    assert corpora._brown_document(line, True) == (
        ("the", "fulton", "jury", "said", "no", "evidence", "atlanta's", "well-known", "mr", "u", "s"),)
    assert corpora._brown_document(line, False)[0][:2] == ("The", "Fulton")


def test_plain_text_sentences_and_tokens(tmp_path):
    text = ("Don't stop!  Well-known facts: 42 cats, 3.5 dogs? The policy\u2019s end\u2010point.\n"
            "Caf\u0065\u0301 ol\u00e9 -- 'tis so_called.\r\n\r\nA new paragraph\nwithout an end")
    corpus = read_corpus(_write(tmp_path / "t.txt", text), documents="paragraphs")
    assert corpus.document_ids == ("t.txt:1", "t.txt:4")
    assert corpus.documents == (
        (("don't", "stop"), ("well-known", "facts", "cats", "dogs"), ("the", "policy's", "end-point"),
         ("café", "olé", "tis", "so", "called")),
        (("a", "new", "paragraph", "without", "an", "end"),))
    assert corpus.n_tokens == 20
    cased = read_corpus(tmp_path / "t.txt", documents="paragraphs", lowercase=False)
    assert cased.documents[0][0] == ("Don't", "stop") and cased.sha256 == corpus.sha256
    assert cased.tokenisation["lowercase"] is False and corpus.tokenisation["documents"] == "paragraphs"
    assert re.fullmatch(corpora.TOKEN_PATTERN, "well-known") and not re.fullmatch(corpora.TOKEN_PATTERN, "b2b")


def test_a_single_file_is_cut_by_lines_by_default(tmp_path):
    corpus = read_corpus(_write(tmp_path / "lines.txt", "first line here\n\n42\nsecond. line two\n"))
    assert corpus.document_ids == ("lines.txt:1", "lines.txt:4")   # the line of numbers has no token
    assert corpus.documents[1] == (("second",), ("line", "two"))
    assert corpus.tokenisation["documents"] == "lines"


def test_a_folder_is_one_document_per_file_recursively_hidden_files_skipped(tmp_path):
    _write(tmp_path / "b.txt", "Beta text.")
    _write(tmp_path / "a" / "z.txt", "Zed text.")
    _write(tmp_path / ".hidden.txt", "\0 not read")
    _write(tmp_path / ".git" / "config", "\0 not read")
    (tmp_path / "c.txt.gz").write_bytes(gzip.compress(b"Gamma text, gzipped."))
    corpus = read_corpus(tmp_path)
    assert corpus.document_ids == ("a/z.txt", "b.txt", "c.txt.gz")
    assert corpus.sentences() == [["zed", "text"], ["beta", "text"], ["gamma", "text", "gzipped"]]
    assert corpus.tokenisation["documents"] == "files"


def test_very_long_sentences_are_cut_for_gensim(tmp_path):
    corpus = read_corpus(_write(tmp_path / "long.txt", "word " * 25_000))
    assert [len(s) for s in corpus.documents[0]] == [10_000, 10_000, 5_000]


def test_sentences_follow_the_document_order_asked_for_repeats_included():
    corpus = read_corpus("inaugural", select=["1789-*", "1793-*"])
    first, second = corpus.documents
    assert corpus.sentences([1, 0, 1]) == [list(s) for s in second + first + second]
    assert corpus.sentences() == [list(s) for s in first + second]
    with pytest.raises(InvalidParameterError, match=r"in \[0, 2\)"):
        corpus.sentences([2])


# ------------------------------------------------------------------------------------------------ shipped corpora

def test_the_shipped_zips_are_the_recorded_bytes():
    folder = Path(paths.DATA) / "corpora"
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*.zip")} == ZIPS
    source = (folder / "SOURCE.md").read_text(encoding="utf-8")
    assert all(f"{digest}  {name}" in source for name, digest in ZIPS.items())


def test_brown_counts():
    brown = read_corpus("brown")
    assert len(brown.documents) == 500 and brown.document_ids[:2] == ("ca01", "ca02")
    assert brown.document_ids[-1] == "cr09"
    assert brown.n_tokens == 1_006_060
    assert sum(len(d) for d in brown.documents) == 56_833
    assert brown.vocabulary_size(1) == 47_039 and brown.vocabulary_size(5) == 13_919
    assert brown.sha256 == "685b6ac02c697d2b0d929342978ffa555cd8582cc9c5a6b92340f0d74afe2ce9"
    assert brown.documents[0][0][:4] == ("the", "fulton", "county", "grand")


def test_the_addresses_counts_and_their_non_utf8_files():
    inaugural, union = read_corpus("inaugural"), read_corpus("state_union")
    assert (len(inaugural.documents), inaugural.n_tokens) == (59, 137_751)
    assert (len(union.documents), union.n_tokens) == (65, 347_025)
    assert inaugural.document_ids[0] == "1789-Washington.txt" and inaugural.document_ids[-1] == "2021-Biden.txt"
    assert union.document_ids[0] == "1945-Truman.txt" and union.document_ids[-1] == "2006-GWBush.txt"
    assert inaugural.sha256 == "d5e119c1db78802f159547393beb4e4cd4ab96ed97bd42ff1704d05cac9c1598"
    assert union.sha256 == "cc5338aa266da6b51c5e9fb0ae70a46ba4678507ba79c2f01ed07cbd213bc2fb"
    # Bush 2005 (cp950 quotes): "sabbatical\xa1Xand" is a dash, "man\xa1\xa6s" an apostrophe
    bush = inaugural.documents[inaugural.document_ids.index("2005-Bush.txt")]
    tokens = [t for s in bush for t in s]
    assert "sabbatical" in tokens and "america's" in tokens and not any("\u2019" in t for t in tokens)
    assert "cp950" in inaugural.tokenisation["encoding"]


def test_the_sha256_is_stable_and_covers_exactly_the_files_read():
    inaugural = read_corpus("inaugural")
    again = corpora._read(CorpusSpec("inaugural"))    # read afresh, not the memoised object
    assert again is not inaugural and again.sha256 == inaugural.sha256
    assert again.documents == inaugural.documents
    part = read_corpus("inaugural", select=["17*"])
    assert part.sha256 != inaugural.sha256 and part.document_ids == ("1789-Washington.txt", "1793-Washington.txt",
                                                                      "1797-Adams.txt")


def test_select_by_pattern_and_by_id():
    corpus = read_corpus("state_union", select=("19[4-6]*",))
    assert corpus.document_ids[0] == "1945-Truman.txt" and corpus.document_ids[-1].startswith("1969-")
    assert all(i[:3] in ("194", "195", "196") for i in corpus.document_ids)
    assert read_corpus("brown", select="ca01").document_ids == ("ca01",)
    assert read_corpus("inaugural", select=["2021-Biden.txt"]).n_tokens > 2000


def test_load_corpus_is_memoised_and_sees_edits(tmp_path):
    file = _write(tmp_path / "t.txt", "one two three")
    spec = CorpusSpec(str(file))
    first = load_corpus(spec)
    assert load_corpus(CorpusSpec(str(file))) is first
    _write(file, "one two three four")
    assert load_corpus(spec).n_tokens == 4


def test_a_spec_is_small_picklable_and_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = CorpusSpec("texts/a.txt", select=["x*"])
    assert spec.source == str(tmp_path / "texts" / "a.txt") and spec.select == ("x*",)
    assert pickle.loads(pickle.dumps(spec)) == spec and hash(spec) == hash(pickle.loads(pickle.dumps(spec)))
    assert len(pickle.dumps(CorpusSpec("brown"))) < 300


# ------------------------------------------------------------------------------------------------ bootstrap

def test_bootstrap_documents_are_a_seeded_sample_with_replacement():
    a = bootstrap_documents(500, seed=7)
    assert a.shape == (500,) and a.dtype == np.int64 and a.min() >= 0 and a.max() < 500
    assert np.array_equal(a, bootstrap_documents(500, seed=7))
    assert not np.array_equal(a, bootstrap_documents(500, seed=8))
    assert len(np.unique(a)) < 400                    # with replacement: about 63% distinct
    with pytest.raises(InvalidParameterError):
        bootstrap_documents(0, seed=1)
    with pytest.raises(InvalidParameterError):
        bootstrap_documents(5, seed=-1)


# ------------------------------------------------------------------------------------------------ bad input

def test_a_missing_path_and_an_unknown_name(tmp_path):
    with pytest.raises(CorpusError, match=r"no such file or folder"):
        read_corpus(tmp_path / "nothing.txt")
    with pytest.raises(CorpusError, match=r"unknown corpus 'inaugral': the shipped corpora are brown, state_union, "
                                          r"inaugural"):
        read_corpus("inaugral")


def test_empty_input(tmp_path):
    with pytest.raises(CorpusError, match=r"empty\.txt: the file is empty"):
        read_corpus(_write(tmp_path / "empty.txt", ""))
    (tmp_path / "folder").mkdir()
    _write(tmp_path / "folder" / ".hidden", "text")
    with pytest.raises(CorpusError, match=r"the folder holds no files"):
        read_corpus(tmp_path / "folder")
    with pytest.raises(CorpusError, match=r"no tokens"):
        read_corpus(_write(tmp_path / "numbers.txt", "1 2 3.\n4, 5 -- 6\n"))


def test_a_binary_file(tmp_path):
    _write(tmp_path / "docs" / "a.txt", "some text")
    (tmp_path / "docs" / "b.pdf").write_bytes(b"%PDF-1.4\n\0\0\x01binary")
    with pytest.raises(CorpusError, match=r"b\.pdf: looks binary, not text \(a NUL byte at offset 9\)"):
        read_corpus(tmp_path / "docs")
    assert read_corpus(tmp_path / "docs", select=["*.txt"]).n_tokens == 2     # select leaves it out


def test_text_not_in_the_encoding_names_the_file_and_the_offset(tmp_path):
    file = _write(tmp_path / "latin.txt", "caf\u00e9 au lait", encoding="latin-1")
    with pytest.raises(CorpusError, match=r"latin\.txt: not valid utf-8 at byte offset 3 .*encoding='latin-1'"):
        read_corpus(file)
    assert read_corpus(file, encoding="latin-1").documents == ((("café", "au", "lait"),),)
    with pytest.raises(InvalidParameterError, match="not a codec"):
        read_corpus(file, encoding="latin-2000")


def test_a_selection_matching_nothing(tmp_path):
    with pytest.raises(CorpusError, match=r"select pattern '1600\*' matches no document \(of 59: 1789-Washington"):
        read_corpus("inaugural", select=["17*", "1600*"])


def test_bad_document_modes(tmp_path):
    with pytest.raises(InvalidParameterError, match="documents must be one of"):
        CorpusSpec("brown", documents="sentences")
    with pytest.raises(InvalidParameterError, match="one document per file"):
        read_corpus("brown", documents="lines")


def test_too_small_for_the_settings(tmp_path):
    tiny = read_corpus(_write(tmp_path / "tiny.txt", "a few words only."))
    with pytest.raises(CorpusError, match=r"4 tokens, too few to train an embedding \(at least 1,000"):
        check_trainable(tiny, min_count=1, window=5)
    few_words = read_corpus(_write(tmp_path / "few.txt", "alpha beta gamma delta. " * 300 + "rare words here"))
    with pytest.raises(CorpusError, match=r"only 4 distinct words occur at least min_count=5 times \(of 7 distinct "
                                          r"words\); at least 10 are needed: give a larger corpus"):
        check_trainable(few_words, min_count=5, window=5)
    some_rare = read_corpus(_write(tmp_path / "some.txt", "alpha beta gamma delta. " * 300 + "e f g h i j k l. " * 2))
    with pytest.raises(CorpusError, match=r"only 4 distinct words occur at least min_count=5 times \(of 12 distinct "
                                          r"words\); at least 10 are needed: lower min_count \(min_count=2 keeps 12\)"):
        check_trainable(some_rare, min_count=5, window=5)
    corpus = read_corpus(_write(tmp_path / "ok.txt", _text()))
    check_trainable(corpus, min_count=5, window=5)
    with pytest.raises(CorpusError, match=r"only 0 distinct words occur at least min_count=1000 times.*"
                                          r"lower min_count \(min_count=\d+ keeps"):
        check_trainable(corpus, min_count=1000, window=5)
    with pytest.raises(InvalidParameterError, match="window must be a positive integer"):
        check_trainable(corpus, min_count=5, window=0)


def test_few_documents_only_matter_for_bootstrap_runs(tmp_path, recwarn):
    corpus = read_corpus(_write(tmp_path / "ok.txt", _text()), documents="paragraphs")
    assert len(corpus.documents) == 1
    check_trainable(corpus, min_count=5, window=5)
    assert not [w for w in recwarn if issubclass(w.category, SmallCorpusWarning)]
    with pytest.warns(SmallCorpusWarning, match=r"only 1 documents"):
        check_trainable(corpus, min_count=5, window=5, bootstrap=3)

