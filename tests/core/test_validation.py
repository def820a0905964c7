"""Property-based tests (hypothesis) of the word-list checks at the public boundary: any list of
non-empty distinct strings passes through in order, any set comes back sorted, any string is refused, any
repeated word is refused -- for check_words and for lookup.word_set, which uses it."""
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordbias.core import lookup
from wordbias.core.errors import InvalidParameterError, MissingWordsWarning
from wordbias.core.validation import check_disjoint, check_words

words = st.text(min_size=1, max_size=12)
distinct_lists = st.lists(words, unique=True, max_size=30)


@given(distinct_lists)
def test_a_list_of_distinct_words_passes_through_in_order(ws):
    assert check_words("X", ws) == tuple(ws)
    assert check_words("X", tuple(ws)) == tuple(ws)


@given(st.sets(words, max_size=30))
def test_a_set_comes_back_sorted(ws):
    assert check_words("X", ws) == tuple(sorted(ws))
    assert check_words("X", frozenset(ws)) == tuple(sorted(ws))


@given(st.text(max_size=20))
def test_a_string_is_refused(s):
    with pytest.raises(InvalidParameterError, match="not the string"):
        check_words("X", s)


@given(distinct_lists.filter(bool), st.data())
def test_a_repeated_word_is_refused_and_named(ws, data):
    dup = data.draw(st.sampled_from(ws))
    pos = data.draw(st.integers(0, len(ws)))
    with pytest.raises(InvalidParameterError, match="more than once") as err:
        check_words("X", ws[:pos] + [dup] + ws[pos:])
    assert repr(dup) in str(err.value)


@given(st.lists(st.one_of(st.integers(), st.none(), st.floats(allow_nan=False)), min_size=1, max_size=5))
def test_non_strings_are_refused(items):
    with pytest.raises(InvalidParameterError, match="must hold strings"):
        check_words("X", items)


@given(distinct_lists, distinct_lists)
def test_check_disjoint_names_exactly_the_shared_words(a, b):
    shared = [w for w in a if w in set(b)]
    if shared:
        with pytest.raises(InvalidParameterError) as err:
            check_disjoint("A", a, "B", b)
        assert str(shared) in str(err.value)
    else:
        check_disjoint("A", a, "B", b)


@settings(max_examples=60)
@given(distinct_lists, st.sets(words, max_size=20))
def test_word_set_keeps_order_and_reports_every_missing_word(ws, vocab):
    emb = {w: [1.0] for w in vocab}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = lookup.word_set(emb, ws, name="X", min_size=0)
    assert s.words == tuple(w for w in ws if w in vocab)
    assert s.missing == tuple(w for w in ws if w not in vocab)
    assert s.requested == tuple(ws)
    missing_warnings = [w for w in caught if issubclass(w.category, MissingWordsWarning)]
    assert len(missing_warnings) == (1 if s.missing else 0)
    if s.missing:
        assert str(list(s.missing)) in str(missing_warnings[0].message)


@settings(max_examples=60)
@given(st.sets(words, max_size=20))
def test_word_set_of_a_set_is_sorted(ws):
    emb = {w: [1.0] for w in ws}
    assert lookup.word_set(emb, ws, min_size=0).words == tuple(sorted(ws))


@given(st.text(min_size=1, max_size=20))
def test_word_set_refuses_a_string(s):
    with pytest.raises(InvalidParameterError, match="not the string"):
        lookup.word_set({s: [1.0]}, s)
