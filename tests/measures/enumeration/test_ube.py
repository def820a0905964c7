"""Tests for wordbias.measures.enumeration.ube: the generalised WEAT (Lemmas 1-3 of Swinger et al. 2019), the word selection,
the fast rotational null against explicit d×d Haar rotations, BH, determinism, and planted/null
embeddings."""

import string

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import weat
from wordbias.measures.enumeration import ube


def unit(x):
    x = np.asarray(x, dtype=np.float64)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


# --------------------------------------------------------------------------------------------------
# Section 2.1: Lemmas 1-3 as property tests on random data
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_lemma1_two_groups_equal_size_is_weat_statistic(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    X1, X2 = rng.normal(size=(k, 7)), rng.normal(size=(k, 7))
    A1, A2 = rng.normal(size=(int(rng.integers(1, 6)), 7)), rng.normal(size=(int(rng.integers(1, 6)), 7))
    s = weat.test_statistic(weat.association(X1, A1, A2), weat.association(X2, A1, A2))
    assert s == pytest.approx(2 * k * ube.g([X1, X2], [A1, A2]), rel=1e-10, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_lemma2_single_group(seed):
    rng = np.random.default_rng(seed)
    names, words = rng.normal(size=(30, 6)), rng.normal(size=(40, 6))
    xi = rng.choice(30, size=int(rng.integers(1, 29)), replace=False)
    ai = rng.choice(40, size=int(rng.integers(1, 39)), replace=False)
    xc, ac = np.setdiff1d(np.arange(30), xi), np.setdiff1d(np.arange(40), ai)
    X, A = names[xi], words[ai]
    g1 = ube.g([X], [A], names=names, words=words)
    assert g1 == pytest.approx(2 * ube.g([X, names], [A, words], words=words), abs=1e-12)
    factor = 2 * len(xc) / 30 * len(ac) / 40
    assert g1 == pytest.approx(factor * ube.g([X, names[xc]], [A, words[ac]], words=words), abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_lemma3_decomposition_into_single_group_tests(n):
    rng = np.random.default_rng(n)
    names, words = rng.normal(size=(50, 8)), rng.normal(size=(60, 8))
    Xs = [names[rng.choice(50, size=int(rng.integers(1, 10)), replace=False)] for _ in range(n)]
    As = [words[rng.choice(60, size=int(rng.integers(1, 10)), replace=False)] for _ in range(n)]
    lhs = ube.g(Xs, As, words=words)
    single = np.array([[ube.g([Xs[i]], [As[j]], names=names, words=words) for j in range(n)] for i in range(n)])
    assert lhs == pytest.approx(np.trace(single) - single.sum() / n, abs=1e-12)


def test_g_is_symmetric_in_group_order_and_needs_universes_for_one_group():
    rng = np.random.default_rng(0)
    Xs = [rng.normal(size=(3, 4)) for _ in range(3)]
    As = [rng.normal(size=(2, 4)) for _ in range(3)]
    assert ube.g(Xs, As) == pytest.approx(ube.g(Xs[::-1], As[::-1]))
    with pytest.raises(ValueError, match="universes"):
        ube.g(Xs[:1], As[:1])
    with pytest.raises(ValueError, match="as many"):
        ube.g(Xs, As[:2])
    with pytest.raises(DegenerateSetError, match="X_2"):
        ube.g([Xs[0], np.zeros((0, 4))], As[:2])


# --------------------------------------------------------------------------------------------------
# Step 3: selection, by hand
# --------------------------------------------------------------------------------------------------

def test_select_words_by_hand():
    # two groups along ±e1; four words in one category
    Xbar = np.array([[1.0, 0.0], [-1.0, 0.0]])
    W = unit([[1, 0.1], [1, 1], [-1, 0.2], [-1, 2]])
    cat = np.zeros(4, dtype=np.int64)
    Abar = W.mean(axis=0, keepdims=True)
    sel, sigma = ube.select_words(W, cat, Xbar, Abar, t=1)
    assert sel[0][0].tolist() == [0] and sel[1][0].tolist() == [2]   # most extreme word of each Voronoi set
    mu = Xbar.mean(axis=0)
    assert sigma[0, 0] == pytest.approx((Xbar[0] - mu) @ (W[0] - Abar[0]))
    assert sigma[1, 0] == pytest.approx((Xbar[1] - mu) @ (W[2] - Abar[0]))
    sel2, sigma2 = ube.select_words(W, cat, Xbar, Abar, t=2)
    assert sel2[0][0].tolist() == [0, 1]
    assert sigma2[0, 0] == pytest.approx((Xbar[0] - mu) @ (W[[0, 1]].mean(axis=0) - Abar[0]))
    _, sigma3 = ube.select_words(W, cat, Xbar, Abar, t=3)    # only 2 words per Voronoi set: no test
    assert np.all(np.isneginf(sigma3))


def _random_problem(seed, d=12, n=4, m=5, M=400):
    rng = np.random.default_rng(seed)
    W = unit(rng.normal(size=(M, d)))
    cat = rng.integers(0, m, size=M)
    Xbar = 0.3 * rng.normal(size=(n, d)) + rng.normal(size=d)
    Abar = np.stack([W[cat == j].mean(axis=0) for j in range(m)])
    return W, cat, Xbar, Abar


def test_kernel_equals_numpy_selection():
    W, cat, Xbar, Abar = _random_problem(1)
    rng = np.random.default_rng(2)
    Z = np.stack([Xbar @ ube.haar_rotation(rng, Xbar.shape[1]) for _ in range(6)])
    fast = ube.null_sigma_batch(W, cat.astype(np.int32), Z, Abar, 3)
    for k in range(len(Z)):
        _, slow = ube.select_words(W, cat, Z[k], Abar, 3)
        np.testing.assert_allclose(fast[k], slow, rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------------------------------
# Step 4: the fast rotation is exact
# --------------------------------------------------------------------------------------------------

def test_haar_frame_is_the_first_rows_of_the_haar_rotation_from_the_same_draws():
    d, r = 9, 3
    F = ube.haar_frames(np.random.default_rng(5), 1, d, r)[0]
    U = ube.haar_rotation(np.random.default_rng(5), d)
    np.testing.assert_allclose(U @ U.T, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(F, U[:r], atol=1e-12)


def test_haar_rotations_are_uniform():
    """Haar: every entry of U has mean 0 and variance 1/d, and det = ±1 equally often."""
    rng = np.random.default_rng(0)
    d = 4
    Us = ube.haar_frames(rng, 4000, d, d)
    assert abs(Us[:, 0, 0].mean()) < 0.03
    assert np.mean(Us[:, 1, 2] ** 2) == pytest.approx(1 / d, abs=0.02)
    dets = np.linalg.det(Us)
    np.testing.assert_allclose(np.abs(dets), 1, atol=1e-10)
    assert 0.45 < np.mean(dets > 0) < 0.55


@pytest.mark.parametrize("seed", range(3))
def test_fast_null_equals_explicit_rotation_of_every_name(seed):
    """Rotating all names by an explicit d×d Haar matrix U' and re-running Step 3 gives exactly what the
    fast path computes from the r-frame (first r rows of U) and X̄ = C B, with U' = B_fullᵀ U."""
    rng = np.random.default_rng(seed)
    d, n, group_size = 10, 4, 6
    names = unit(rng.normal(size=(n * group_size, d)) + rng.normal(size=d))
    labels = np.repeat(np.arange(n), group_size)
    Xbar = np.stack([names[labels == i].mean(axis=0) for i in range(n)])
    W, cat, _, Abar = _random_problem(seed + 10, d=d, n=n)
    C, B = ube.span_factors(Xbar)
    r = len(B)
    Q, _ = np.linalg.qr(np.hstack([B.T, rng.normal(size=(d, d - r))]))
    B_full = Q.T.copy()
    B_full[:r] = B               # rows: B (equal to ±Q's first columns), then an orthonormal complement
    np.testing.assert_allclose(B_full @ B_full.T, np.eye(d), atol=1e-10)
    U = ube.haar_rotation(np.random.default_rng([99, 0]), d)   # the first rotation of seed 99
    U_prime = B_full.T @ U
    rotated = names @ U_prime
    Xbar_slow = np.stack([rotated[labels == i].mean(axis=0) for i in range(n)])
    _, sigma_slow = ube.select_words(W, cat, Xbar_slow, Abar, 3)
    F = ube.rotation_frames(99, 0, d, r, count=1)
    Z = np.einsum("nr,brd->bnd", C, F)
    sigma_fast = ube.null_sigma_batch(W, cat.astype(np.int32), Z, Abar, 3)[0]
    np.testing.assert_allclose(sigma_fast, sigma_slow, atol=1e-10)
    # and rotational_null draws exactly these rotations from the same seed
    null = ube.rotational_null(W, cat, Xbar, Abar, 3, 1, seed=99, progress=False, dtype=np.float64)
    np.testing.assert_allclose(null[0], sigma_fast, atol=1e-6)


def test_rotational_null_is_deterministic_whatever_batch_and_workers():
    W, cat, Xbar, Abar = _random_problem(3)
    a = ube.rotational_null(W, cat, Xbar, Abar, 3, 150, seed=7, batch_size=8, workers=2, progress=False)
    b = ube.rotational_null(W, cat, Xbar, Abar, 3, 150, seed=7, batch_size=3, workers=1, progress=False)
    c = ube.rotational_null(W, cat, Xbar, Abar, 3, 150, seed=8, batch_size=8, workers=2, progress=False)
    d = ube.rotational_null(W, cat, Xbar, Abar, 3, 70, seed=7, batch_size=8, workers=2, progress=False)
    assert np.array_equal(a, b)
    assert np.array_equal(a[:70], d)          # a prefix of the rotations is the smaller null
    assert not np.array_equal(a, c)
    assert a.shape == (150, 4, 5) and a.dtype == np.float32
    assert len({a[k].tobytes() for k in range(150)}) == 150   # no repeated rotation across blocks


# --------------------------------------------------------------------------------------------------
# p-values and Benjamini-Hochberg
# --------------------------------------------------------------------------------------------------

def test_p_values_add_one_rule_and_cells_without_a_test():
    null = np.array([[[0.0, 1.0]], [[2.0, 1.0]], [[3.0, -np.inf]]], dtype=np.float32)   # R=3, n=1, m=2
    sigma = np.array([[2.0, -np.inf]])
    p = ube.p_values(sigma, null)
    assert p[0, 0] == pytest.approx((1 + 2) / 4)   # 2.0 and 3.0 are ≥ 2.0
    assert p[0, 1] == 1.0


def test_benjamini_hochberg_by_hand():
    p = np.array([0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216])
    sig, crit = ube.bh_rejections(p, 0.05)
    # k·α/N = 0.005, 0.010, 0.015, ...: only the first two pass, and step-up keeps it at two
    assert sig.tolist() == [True, True] + [False] * 8
    assert crit == 0.008
    sig, crit = ube.bh_rejections(np.full((2, 3), 0.5), 0.05)
    assert not sig.any() and crit == 0.0 and sig.shape == (2, 3)


# --------------------------------------------------------------------------------------------------
# Section 4 helpers
# --------------------------------------------------------------------------------------------------

def test_illustrative_names_greedy():
    X = unit([[1, 0.05], [0.8, 0.6], [0.8, -0.6], [0.0, 1.0]])
    centre = X.mean(axis=0)
    order = ube.illustrative_names(X, 3)
    assert order[0] == int(np.argmin(np.linalg.norm(X - centre, axis=1)))
    # second: the name whose average with the first is closest to the centre
    second = min((k for k in range(4) if k != order[0]),
                  key=lambda k: np.linalg.norm((X[order[0]] + X[k]) / 2 - centre))
    assert order[1] == second
    assert len(set(order.tolist())) == 3
    assert len(ube.illustrative_names(X[:2], 5)) == 2


def test_indirect_bias_by_hand():
    sig = np.ones((2, 2), dtype=bool)
    A = {(0, 0): np.array([1.0, 0]), (1, 0): np.array([-1.0, 0]),
         (0, 1): np.array([0.9, 0.1]), (1, 1): np.array([-0.9, 0.1])}
    assert ube.indirect_bias(A, sig) == (1, 1)
    A[(0, 1)], A[(1, 1)] = A[(1, 1)], A[(0, 1)]
    assert ube.indirect_bias(A, sig) == (0, 1)
    sig[1, 1] = False
    assert ube.indirect_bias(A, sig) == (0, 0)


# --------------------------------------------------------------------------------------------------
# Step 2: candidate words
# --------------------------------------------------------------------------------------------------

def test_candidate_words_follow_appendix_c4():
    vocab = ["the", "John", "john", "apple", "Apple", "U.S.", "2019", "New_York", "new_york", "ice_cream",
             "ALLCAPS", "allcaps", "mary", "bank"]
    kv = to_keyed_vectors(vocab, np.eye(len(vocab), dtype=np.float32))
    words = ube.candidate_words(kv, 10, exclude=["mary"], cased=True)
    # john: "John" more frequent; new_york: "New_York" more frequent; allcaps: "ALLCAPS" more frequent
    assert words == ["the", "apple", "ice_cream", "bank"]
    with pytest.warns(UserWarning, match="only 4"):
        ube.candidate_words(kv, 10, exclude=["mary"], cased=True)
    assert ube.candidate_words(kv, 3, cased=False) == ["the", "john", "apple"]


# --------------------------------------------------------------------------------------------------
# the whole algorithm on synthetic embeddings
# --------------------------------------------------------------------------------------------------

def _token(rng, k=7):
    return "".join(rng.choice(list(string.ascii_lowercase), size=k))


def synthetic_embedding(seed, planted: bool, d=24, n=3, m=4, names_per_group=40, words_per_cat=60,
                        other=400):
    """Names in n groups, words in m categories, plus 'other' frequent words for the SVM. With
    ``planted``, category c's words are split into n thirds, third i shifted towards group i's direction;
    without, words are independent of the names."""
    rng = np.random.default_rng(seed)
    if planted:   # mutually orthogonal directions, so that only the planted shift links words to groups
        basis = np.linalg.qr(rng.normal(size=(d, 1 + n + m)))[0].T
        name_dir, group_dirs, cat_dirs = basis[0], basis[1:1 + n], basis[1 + n:]
    else:         # random directions: the names' configuration is as likely as any rotation of it
        name_dir = unit(rng.normal(size=d))
        group_dirs = unit(rng.normal(size=(n, d)))
        cat_dirs = unit(rng.normal(size=(m, d)))
    tokens, vecs, names, plant = [], [], [], {}
    for i in range(n):
        for _ in range(names_per_group):
            w = _token(rng).capitalize()
            names.append(w)
            tokens.append(w)
            vecs.append(2.0 * name_dir + 2.5 * group_dirs[i] + 0.4 * rng.normal(size=d))
    for j in range(m):
        for q in range(words_per_cat):
            w = _token(rng)
            v = 4.0 * cat_dirs[j] + 0.3 * rng.normal(size=d)
            if planted and j < 2:
                i = q % n
                v += 2.0 * (group_dirs[i] - group_dirs.mean(axis=0))
                plant.setdefault((i, j), []).append(w)
            tokens.append(w)
            vecs.append(v)
    order = list(rng.permutation(len(tokens)))     # names and category words first (most frequent)
    for _ in range(other):
        order.append(len(tokens))
        tokens.append(_token(rng))
        vecs.append(rng.normal(size=d))
    kv = to_keyed_vectors([tokens[k] for k in order], np.asarray(vecs, dtype=np.float32)[order])
    return kv, names, plant


def _run(kv, names, seed, R=400):
    parameters = ube.UBEParameters(n=3, m=4, M=240, t=3, R=R, seed=seed, svm_top_words=len(kv.index_to_key),
                                   clean_fraction=0.1)
    return ube.run(kv, names, parameters, cased=True, progress=False)


def test_planted_biases_are_recovered():
    kv, names, plant = synthetic_embedding(0, planted=True)
    res = _run(kv, names, seed=0)
    groups = res.groups()
    # the groups are recovered (each K-means group is one planted group)
    truth = {w: k // 40 for k, w in enumerate(names)}
    for grp in groups:
        assert len({truth[w] for w in grp}) == 1
    group_of = {truth[grp[0]]: i for i, grp in enumerate(groups)}
    # the category of each planted word set
    found = 0
    for (pi, pj), words in plant.items():
        i = group_of[pi]
        cats = {res.word_category[res.words.index(w)] for w in words}
        assert len(cats) == 1
        j = cats.pop()
        assert res.significant[i, j], (pi, pj, res.p[i, j])
        assert set(res.selected_words(i, j)) <= set(words)
        found += 1
    assert found == 6
    # planted categories come first in the output order
    assert set(res.category_order()[:2]) == {res.word_category[res.words.index(plant[(0, j)][0])] for j in (0, 1)}
    hits, total = res.indirect_bias()
    assert total >= 3 and hits / total >= 0.5


def test_null_embedding_gives_no_more_false_discoveries_than_alpha_allows():
    """Under the complete null BH controls the family-wise error at α: over 12 independent null
    embeddings, the expected number with any discovery is ≤ 12·0.05 = 0.6."""
    runs_with_discoveries = 0
    total_discoveries = 0
    for seed in range(12):
        kv, names, _ = synthetic_embedding(100 + seed, planted=False)
        res = _run(kv, names, seed=seed, R=200)
        total_discoveries += res.n_significant()
        runs_with_discoveries += res.n_significant() > 0
    assert runs_with_discoveries <= 3
    assert total_discoveries <= 6


def test_run_is_deterministic_and_reorder_is_consistent():
    kv, names, _ = synthetic_embedding(1, planted=True)
    a, b = _run(kv, names, seed=3, R=100), _run(kv, names, seed=3, R=100)
    assert a.names == b.names and np.array_equal(a.name_group, b.name_group)
    assert np.array_equal(a.null, b.null) and np.array_equal(a.p, b.p)
    assert a.tests().equals(b.tests())
    r = a.reorder([2, 0, 1])
    assert r.groups()[0] == a.groups()[2]
    assert r.selected_words(0, 1) == a.selected_words(2, 1)
    assert np.array_equal(r.p[1], a.p[0]) and r.indirect_bias() == a.indirect_bias()
    assert (r.word_group == 0).sum() == (a.word_group == 2).sum()
    assert r.grid(top=4).iloc[:, 0].tolist() == a.grid(top=4).iloc[:, 2].tolist()


def test_cleaning_removes_word_like_names():
    kv, names, _ = synthetic_embedding(2, planted=False)
    # make 10 'names' look like ordinary words (as "May" or "Virginia" do in real embeddings)
    vec = np.array(kv.vectors)
    rng = np.random.default_rng(0)
    words = [w for w in kv.index_to_key if w.islower()][:200]
    for w in names[:10]:   # a copy of an ordinary word, slightly perturbed
        vec[kv.key_to_index[w]] = vec[kv.key_to_index[words[rng.integers(200)]]] + 0.1 * rng.normal(size=vec.shape[1])
    kv2 = to_keyed_vectors(list(kv.index_to_key), vec)
    cl = ube.clean_names(kv2, names, fraction=10 / len(names), top_words=len(kv2.index_to_key), seed=0)
    assert set(cl.removed_tokens) == set(names[:10])
    assert cl.kept.sum() == len(names) - 10
    assert not set(cl.non_names) & set(names)
    with pytest.raises(DegenerateSetError, match="at least 10"):
        ube.clean_names(kv2, names[:5])


# --------------------------------------------------------------------------------------------------
# Step 2's case rule on an uncased vocabulary, category labels, the tidy table
# --------------------------------------------------------------------------------------------------

def _uncased_run(wordlist, seed=0):
    kv, names, _ = synthetic_embedding(2, planted=True)
    parameters = ube.UBEParameters(n=3, m=4, M=None, t=3, R=60, seed=seed, svm_top_words=len(kv.index_to_key),
                                   clean_fraction=0.1, case_source="wordlist")
    return kv, names, ube.run(kv, names, parameters, cased=False, wordlist=wordlist, progress=False)


def test_run_with_the_stand_in_keeps_only_words_the_list_has_in_lower_case():
    kv, names, _ = synthetic_embedding(2, planted=True)
    vocab = [w for w in kv.index_to_key if w not in set(names)]
    listed = vocab[::2]                                      # every other token is a listed lower-case word
    wordlist = listed + [w.capitalize() for w in vocab[1::2]]  # the others are listed only capitalised
    _, _, res = _uncased_run(wordlist)
    assert res.params["case_source"] == "wordlist"
    assert set(res.words) <= set(listed) and res.words == [w for w in kv.index_to_key if w in set(res.words)]
    assert len(res.words) == len([w for w in listed if w not in set(res.names)])
    # deterministic: the same list (in another order) gives the same result
    _, _, again = _uncased_run(list(reversed(wordlist)))
    assert again.words == res.words and np.array_equal(again.p, res.p) and again.tests().equals(res.tests())


def test_parameters_default_to_table_2_and_refuse_out_of_range_values_naming_them():
    p = ube.UBEParameters()
    assert {k: getattr(p, k) for k in ube.DEFAULTS} == ube.DEFAULTS
    assert (p.seed, p.clean_fraction, p.svm_top_words, p.case_source) == (0, 0.2, 50_000, "auto")
    bad = dict(n=[0, 1, 2.5], m=[0], M=[0, 63], t=[0], alpha=[0, 1, 1.5], R=[0, 1.5], seed=[-1, "abc"],
               clean_fraction=[1.0, -0.1], svm_top_words=[0], case_source=["none", True])
    for name, values in bad.items():
        for value in values:
            with pytest.raises(InvalidParameterError, match=name):
                ube.UBEParameters(**{name: value})
    with pytest.raises(InvalidParameterError, match="R"):
        p.replace(R=0)
    drawn = ube.UBEParameters(seed=np.random.default_rng(5))
    assert isinstance(drawn.seed, int) and drawn.seed == ube.UBEParameters(seed=np.random.default_rng(5)).seed


def test_run_refuses_parameters_that_are_not_a_ube_parameters_object():
    kv, names, _ = synthetic_embedding(3, planted=False)
    with pytest.raises(InvalidParameterError, match="parameters must be a UBEParameters or None, not dict"):
        ube.run(kv, names, {"n": 3}, progress=False)
    for name, value in (("batch_size", 0), ("workers", 0), ("cased", "yes"), ("progress", None)):
        with pytest.raises(InvalidParameterError, match=name):
            ube.run(kv, names, ube.UBEParameters(n=3, m=4, M=240, t=3, R=20), **{"progress": False, name: value})


def test_run_records_the_resolved_case_rule():
    kv, names, _ = synthetic_embedding(3, planted=False)
    parameters = ube.UBEParameters(n=3, m=4, M=240, t=3, R=20, svm_top_words=len(kv.index_to_key),
                                   clean_fraction=0.1)
    res = ube.run(kv, names, parameters, cased=True, progress=False)
    assert res.params["case_source"] == "embedding"           # "auto" on a cased vocabulary: C.4 itself
    with pytest.raises(InvalidParameterError, match="vocabulary is uncased"):
        ube.run(kv, names, parameters.replace(case_source="embedding"), cased=False, progress=False)


def test_central_words_are_the_closest_to_the_category_mean():
    kv, names, _ = synthetic_embedding(1, planted=True)
    res = _run(kv, names, seed=0, R=20)
    for j in range(res.m):
        members = [w for w, c in zip(res.words, res.word_category) if c == j]
        U = np.array([kv[w] / np.linalg.norm(kv[w]) for w in members], dtype=np.float64)
        cos = U @ U.mean(axis=0)
        expected = [members[k] for k in np.argsort(-cos, kind="stable")[:3]]
        assert res.central_words(j) == expected
        assert res.category_label(j) == f"A{j}: {', '.join(expected)}" and res.category_label(j, 0) == f"A{j}"
    labels = res.grid(top=4).index
    assert labels.name == "category: most central words" and all(": " in x for x in labels)
    assert res.grid(top=4, central=0).index.tolist() == [x.split(":")[0] for x in labels]


def test_central_words_ignore_a_perturbation_of_1e6_in_the_vectors():
    rng = np.random.default_rng(0)
    W = rng.normal(size=(300, 20))
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    category = rng.integers(0, 5, size=300)
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(5)])
    a = ube.central_words(W, category, Abar)
    Wp = W + 1e-7 * rng.normal(size=W.shape)
    b = ube.central_words(Wp, category, np.stack([Wp[category == j].mean(axis=0) for j in range(5)]))
    assert [x.tolist() for x in a] == [x.tolist() for x in b]


def test_tests_table_shows_no_inf_for_cells_without_a_test():
    import dataclasses

    kv, names, _ = synthetic_embedding(1, planted=True)
    res = _run(kv, names, seed=0, R=20)
    sigma = res.sigma.copy()
    sigma[0, 1] = -np.inf                               # a cell with fewer than t words in its Voronoi set
    table = dataclasses.replace(res, sigma=sigma).tests()
    row = table[(table.group == 0) & (table.category == 1)].iloc[0]
    assert not row.tested and np.isnan(row.sigma) and np.isnan(row.p)
    assert np.isfinite(table.sigma.dropna()).all() and table.tested.sum() == res.n * res.m - 1
    assert "inf" not in table.to_csv(index=False)
    assert (table.central_words == table.category.map(lambda j: ", ".join(res.central_words(j)))).all()


def test_the_steps_are_defined_once_and_importable_from_ube():
    """measures.ube is the method's front door: each step module's public names are the same objects there."""
    from wordbias.measures.enumeration import ube_names, ube_null, ube_result, ube_words

    for module in (ube_names, ube_words, ube_null, ube_result):
        for name in module.__all__:
            assert name in ube.__all__ and getattr(ube, name) is getattr(module, name), (module.__name__, name)
    assert len(ube.__all__) == len(set(ube.__all__))


def test_anisotropy_is_the_mean_cosine_of_random_pairs():
    from wordbias.core.errors import DegenerateSetError
    from wordbias.embeddings import to_keyed_vectors
    from wordbias.measures.enumeration.ube import anisotropy

    rng = np.random.default_rng(1)
    words = [f"w{i}" for i in range(300)]
    spread = to_keyed_vectors(words, rng.normal(size=(300, 30)).astype(np.float32))
    cone = to_keyed_vectors(words, (rng.normal(size=(300, 30)) + 4).astype(np.float32))
    assert abs(anisotropy(spread)) < 0.05 < 0.9 < anisotropy(cone)
    assert anisotropy(spread, seed=3) == anisotropy(spread, seed=3) != anisotropy(spread, seed=4)
    # by hand: three pairs drawn with seed 0
    pairs = np.random.default_rng(0).integers(0, 300, (3, 2))
    v = cone.vectors.astype(np.float64)
    by_hand = np.mean([v[i] @ v[j] / np.linalg.norm(v[i]) / np.linalg.norm(v[j]) for i, j in pairs])
    assert anisotropy(cone, n_pairs=3, seed=0) == pytest.approx(by_hand, rel=1e-12)
    # zero vectors are left out of the mean; all zero is an error
    half = cone.vectors.copy()
    half[::2] = 0
    assert 0.9 < anisotropy(to_keyed_vectors(words, half)) <= 1
    with pytest.raises(DegenerateSetError, match="nonzero"):
        anisotropy(to_keyed_vectors(words, np.zeros((300, 30), dtype=np.float32)))
