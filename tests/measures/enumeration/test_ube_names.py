"""Step 1's input (wordbias.measures.enumeration.ube_names, Swinger et al. 2019, Appendix C.1-C.2): a source's names mapped to
an embedding, on tiny embeddings of real names, checked against the bundled SSA and Census tables read
independently."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from wordbias.core import paths
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.enumeration import ube_names

DATA = paths.DATA / "swinger2019"


def _source(kind):
    """The bundled name table of ``kind``, read without the library (names such as "Na" kept as text)."""
    file = "ssa_first_names_1938_2017.csv" if kind == "first" else "census2010_surnames.csv.gz"
    return pd.read_csv(DATA / file, keep_default_na=False, na_values=[])


# --------------------------------------------------------------------------------------------------
# name_list on a tiny embedding of real names
# --------------------------------------------------------------------------------------------------

def _tiny_kv(tokens, seed=0):
    rng = np.random.default_rng(seed)
    return to_keyed_vectors(list(tokens), rng.normal(size=(len(tokens), 5)).astype(np.float32))


def _expected(table, vocab, cased):
    form = (lambda s: s.capitalize()) if cased else (lambda s: s.lower())
    sub = table[table["count"] >= 1000]
    hit = sub[sub["name"].map(form).isin(set(vocab))]
    return [form(s) for s in hit["name"]], hit["count"].tolist(), len(sub)


@pytest.mark.parametrize("cased", [True, False])
def test_name_list_first(cased):
    vocab = ["Mary", "John", "Smith", "Zzqxv", "the", "James"] if cased else \
        ["mary", "john", "smith", "zzqxv", "the", "james"]
    kv = _tiny_kv(vocab)
    nl = ube_names.name_list("first", kv, cased=cased)
    ssa = _source("first")
    tokens, counts, n_source = _expected(ssa, vocab, cased)
    assert nl.kind == "first"
    assert nl.tokens == tokens
    # SSA frequency order: James (3.78M) > John (3.55M) > Mary (2.10M) > Smith (2,750)
    j = "James" if cased else "james"
    assert nl.tokens[0] == j and len(nl.tokens) == 4
    assert list(nl.counts.index) == nl.tokens
    assert nl.counts.tolist() == counts
    assert int(nl.counts[j]) == int(ssa.loc[ssa["name"] == "James", "count"].iloc[0])
    assert nl.n_source == n_source == len(ssa)
    assert len(nl.missing) == n_source - 4
    assert "Michael" in nl.missing and "Mary" not in nl.missing


@pytest.mark.parametrize("cased", [True, False])
def test_name_list_last(cased):
    vocab = ["Smith", "Johnson", "John", "Mary", "Qqqzx"] if cased else ["smith", "johnson", "john", "mary",
                                                                         "qqqzx"]
    kv = _tiny_kv(vocab, seed=1)
    nl = ube_names.name_list("last", kv, cased=cased)
    census = _source("last")
    tokens, counts, n_source = _expected(census, vocab, cased)
    assert nl.kind == "last"
    assert nl.tokens == tokens and len(tokens) == 4
    assert nl.tokens[:2] == (["Smith", "Johnson"] if cased else ["smith", "johnson"])
    assert nl.counts.tolist() == counts
    s = "Smith" if cased else "smith"
    assert int(nl.counts[s]) == int(census.loc[census["name"] == "SMITH", "count"].iloc[0])
    assert nl.n_source == n_source
    assert len(nl.missing) == n_source - 4
    assert "WILLIAMS" in nl.missing and "SMITH" not in nl.missing


def test_name_list_case_mismatch_finds_nothing_and_bad_kind_raises():
    kv = _tiny_kv(["mary", "john"])
    nl = ube_names.name_list("first", kv, cased=True)     # looks up "Mary", the embedding has "mary"
    assert nl.tokens == [] and len(nl.counts) == 0 and len(nl.missing) == nl.n_source
    with pytest.raises(ValueError, match="kind must be one of 'first', 'last'; not 'middle'"):
        ube_names.name_list("middle", kv, cased=True)


def test_name_list_is_frozen_and_described():
    kv = _tiny_kv(["mary", "john", "the"])
    nl = ube_names.name_list("first", kv, cased=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        nl.kind = "last"
    assert ube_names.describe_names(nl) == (
        f"first names: {nl.n_source:,} in the data (>= 1,000), 2 in the embedding, {nl.n_source - 2:,} missing")
