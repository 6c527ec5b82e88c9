"""Properties every attention implementation must have, on generated inputs.

Each property runs against the NumPy package and against ``selfattn_ref.torch``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import selfattn_ref as ref
import selfattn_ref.torch as tref

FAST = settings(max_examples=50, deadline=None)
seeds = st.integers(0, 2**32 - 1)
batch_shapes = st.lists(st.integers(1, 3), min_size=0, max_size=2).map(tuple)

impls = pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])


def arr(x) -> np.ndarray:
    return x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def random_mask(rng, shape) -> np.ndarray:
    mask = rng.random(shape) < 0.5
    keep = rng.integers(0, shape[-1], size=shape[:-1])
    np.put_along_axis(mask, keep[..., None], True, axis=-1)
    return mask


@impls
@FAST
@given(seed=seeds, n=st.integers(1, 40), m=st.integers(1, 40), batch=batch_shapes, spread=st.floats(0.0, 50.0))
def test_weight_rows_sum_to_one(mod, seed, n, m, batch, spread):
    S = np.random.default_rng(seed).normal(0, spread, (*batch, n, m))
    W = arr(mod.softmax(S))
    assert (W >= 0).all() and (W <= 1).all()
    np.testing.assert_allclose(W.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@impls
@FAST
@given(seed=seeds, n=st.integers(1, 30), m=st.integers(1, 30), shift=st.floats(-1e3, 1e3))
def test_adding_a_constant_to_a_row_of_scores_changes_nothing(mod, seed, n, m, shift):
    rng = np.random.default_rng(seed)
    S = rng.standard_normal((n, m)) * 5
    row = rng.integers(0, n)
    shifted = S.copy()
    shifted[row] += shift
    np.testing.assert_allclose(arr(mod.softmax(shifted)), arr(mod.softmax(S)), rtol=0, atol=1e-11)
    # and a different constant for every row at once
    per_row = S + rng.uniform(-100, 100, (n, 1))
    np.testing.assert_allclose(arr(mod.softmax(per_row)), arr(mod.softmax(S)), rtol=0, atol=1e-11)


@impls
@FAST
@given(seed=seeds, n=st.integers(1, 30), d=st.integers(1, 16), data=st.data())
def test_permuting_tokens_permutes_self_attention_output(mod, seed, n, d, data):
    X = np.random.default_rng(seed).standard_normal((n, d))
    perm = np.array(data.draw(st.permutations(range(n))), dtype=int)
    np.testing.assert_allclose(arr(mod.self_attention(X[perm])), arr(mod.self_attention(X))[perm], rtol=0, atol=1e-12)
    # the same holds with projections and scaling: attention has no notion of order
    W = np.random.default_rng(seed + 1).standard_normal((3, d, d))
    Q, K, V = mod.project(X, *W)
    Qp, Kp, Vp = mod.project(X[perm], *W)
    out, w = mod.scaled_dot_product_attention(Q, K, V)
    out_p, w_p = mod.scaled_dot_product_attention(Qp, Kp, Vp)
    np.testing.assert_allclose(arr(out_p), arr(out)[perm], rtol=0, atol=1e-10)
    np.testing.assert_allclose(arr(w_p), arr(w)[perm][:, perm], rtol=0, atol=1e-12)


@impls
@FAST
@given(seed=seeds, n=st.integers(1, 30), m=st.integers(1, 30), d=st.integers(1, 16), masked=st.booleans())
def test_each_output_lies_within_the_range_of_the_values(mod, seed, n, m, d, masked):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.standard_normal((n, d)) * 3, rng.standard_normal((m, d)) * 3, rng.standard_normal((m, d))
    out = arr(mod.scaled_dot_product_attention(Q, K, V, mask=random_mask(rng, (n, m)) if masked else None)[0])
    eps = 1e-12
    assert (out >= V.min(axis=0) - eps).all() and (out <= V.max(axis=0) + eps).all()


@impls
@FAST
@given(seed=seeds, n=st.integers(1, 20), m=st.integers(1, 20), big=st.sampled_from([1e4, 1e5, 1e300]))
def test_huge_scores_do_not_overflow(mod, seed, n, m, big):
    rng = np.random.default_rng(seed)
    S = rng.choice([-big, big], size=(n, m)) * rng.uniform(0.5, 1.0, (n, m))
    W = arr(mod.softmax(S))
    assert np.isfinite(W).all()
    np.testing.assert_allclose(W.sum(axis=-1), 1.0, rtol=0, atol=1e-12)
    # the largest score of each row gets (almost) all the weight
    assert (W[np.arange(n), S.argmax(axis=-1)] > 0.5).all()
    # and through attention: queries and keys whose dot products are about ±1e4
    Q = rng.choice([-100.0, 100.0], size=(n, 1))
    K = rng.choice([-100.0, 100.0], size=(m, 1))
    out, w = mod.scaled_dot_product_attention(Q, K, rng.standard_normal((m, 3)), scale=1.0)
    assert np.isfinite(arr(out)).all() and np.isfinite(arr(w)).all()


def test_exp_of_1e4_would_overflow_without_the_max_trick():
    # Why the property above matters: the naive formula gives NaN.
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp([1e4, 0.0]) / np.exp([1e4, 0.0]).sum()
    assert np.isnan(naive).any()
    np.testing.assert_array_equal(ref.softmax([1e4, 0.0]), [1.0, 0.0])


@impls
@FAST
@given(seed=seeds, n=st.integers(1, 30), m=st.integers(1, 30), batch=batch_shapes)
def test_masked_positions_get_weight_exactly_zero(mod, seed, n, m, batch):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.standard_normal((*batch, n, 4)), rng.standard_normal((*batch, m, 4)), rng.standard_normal((m, 2))
    mask = random_mask(rng, (*batch, n, m))
    _, w = mod.scaled_dot_product_attention(Q, K, np.broadcast_to(V, (*batch, m, 2)), mask=mask)
    w = arr(w)
    assert (w[~mask] == 0.0).all()
    assert (w[mask] > 0).all()  # allowed keys keep a positive weight (scores here are moderate)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@impls
@pytest.mark.parametrize("n", [1, 2, 5])
def test_causal_mask_is_the_lower_triangle(mod, n):
    M = arr(mod.causal_mask(n))
    assert M.shape == (n, n) and M.dtype == np.bool_
    for i in range(n):
        for j in range(n):
            assert M[i, j] == (j <= i)
    # with the causal mask, the first token can only attend to itself
    _, w = mod.scaled_dot_product_attention(np.ones((n, 2)), np.ones((n, 2)), np.ones((n, 2)), mask=M)
    assert arr(w)[0, 0] == 1.0
    np.testing.assert_allclose(arr(w)[n - 1], np.full(n, 1 / n), rtol=0, atol=1e-15)


@impls
@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 50), d=st.integers(1, 64))
def test_sinusoidal_encoding_known_values(mod, n, d):
    P = arr(mod.sinusoidal_positional_encoding(n, d))
    assert P.shape == (n, d) and P.dtype == np.float64
    expected_row0 = np.array([0.0 if i % 2 == 0 else 1.0 for i in range(d)])  # sin(0) = 0, cos(0) = 1
    np.testing.assert_array_equal(P[0], expected_row0)
    assert (np.abs(P) <= 1).all()
    pos = np.arange(n)
    np.testing.assert_allclose(P[:, 0], np.sin(pos), rtol=0, atol=1e-12)  # column 0: frequency 1
    if d >= 2:
        np.testing.assert_allclose(P[:, 1], np.cos(pos), rtol=0, atol=1e-12)
    if d >= 4:
        np.testing.assert_allclose(P[:, 2], np.sin(pos / 10000 ** (2 / d)), rtol=0, atol=1e-12)
    # each sin/cos pair lies on the unit circle
    for i in range(0, d - 1, 2):
        np.testing.assert_allclose(P[:, i] ** 2 + P[:, i + 1] ** 2, 1.0, rtol=0, atol=1e-12)


@impls
def test_sinusoidal_encoding_exact_small_case(mod):
    P = arr(mod.sinusoidal_positional_encoding(2, 4))
    expected = [[0, 1, 0, 1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)]]
    np.testing.assert_allclose(P, expected, rtol=0, atol=1e-15)


@impls
@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 20), data=st.data())
def test_padding_mask_shape_and_values(mod, n, data):
    lengths = data.draw(st.lists(st.integers(1, n), min_size=1, max_size=5))
    M = arr(mod.padding_mask(lengths, n))
    assert M.shape == (len(lengths), 1, n) and M.dtype == np.bool_
    for b, length in enumerate(lengths):
        assert M[b, 0].tolist() == [j < length for j in range(n)]
    # it broadcasts over the queries of (batch, n, n) scores and hides the padding keys
    rng = np.random.default_rng(n)
    X = rng.standard_normal((len(lengths), n, 3))
    _, w = mod.scaled_dot_product_attention(X, X, X, mask=M)
    w = arr(w)
    for b, length in enumerate(lengths):
        assert (w[b, :, length:] == 0).all()
