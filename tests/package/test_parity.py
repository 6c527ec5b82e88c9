"""NumPy == selfattn_ref.torch == PyTorch's own attention, on generated inputs.

Hypothesis draws the sizes, the mask kind, the scale and a seed; the arrays come from
``numpy.random.default_rng(seed)`` (much faster than drawing every entry). All three
implementations must agree to 1e-10 in float64.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

import selfattn_ref as ref
import selfattn_ref.torch as tref

from snippet_checks import close as close_to

TOL = 1e-10
FAST = settings(max_examples=80, deadline=None)

seeds = st.integers(0, 2**32 - 1)
sizes = st.integers(1, 64)
batch_shapes = st.lists(st.integers(1, 3), min_size=0, max_size=2).map(tuple)


def close(a, b, tol: float = TOL) -> None:
    """snippet_checks.close, at this file's tolerance unless told."""
    close_to(a, b, tol)


def random_mask(rng, shape) -> np.ndarray:
    """Random boolean mask of ``shape`` (..., n, m) with at least one True in every row."""
    mask = rng.random(shape) < rng.uniform(0.1, 0.9)
    keep = rng.integers(0, shape[-1], size=shape[:-1])  # one key per row that is always allowed
    np.put_along_axis(mask, keep[..., None], True, axis=-1)
    return mask


@FAST
@given(
    seed=seeds,
    n=sizes,
    m=sizes,
    d=sizes,
    d_v=sizes,
    batch=batch_shapes,
    mask_kind=st.sampled_from(["none", "random", "random-2d", "causal"]),
    scale=st.one_of(st.none(), st.floats(0.01, 2.0)),
)
def test_sdpa_numpy_torch_and_pytorch_agree(seed, n, m, d, d_v, batch, mask_kind, scale):
    rng = np.random.default_rng(seed)
    if mask_kind == "causal":
        m = n
    Q = rng.standard_normal((*batch, n, d))
    K = rng.standard_normal((*batch, m, d))
    V = rng.standard_normal((*batch, m, d_v))
    mask = {
        "none": lambda: None,
        "random": lambda: random_mask(rng, (*batch, n, m)),
        "random-2d": lambda: random_mask(rng, (n, m)),  # broadcast over the batch
        "causal": lambda: ref.causal_mask(n),
    }[mask_kind]()

    out_np, w_np = ref.scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    out_t, w_t = tref.scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    Qt, Kt, Vt = (torch.from_numpy(a) for a in (Q, K, V))
    attn_mask = None if mask is None else torch.from_numpy(mask)  # bool: True = take part, as ours
    out_pt = F.scaled_dot_product_attention(Qt, Kt, Vt, attn_mask=attn_mask, scale=scale)

    assert out_np.dtype == np.float64 and out_t.dtype == torch.float64
    assert out_np.shape == (*batch, n, d_v) and w_np.shape == (*batch, n, m)
    close(out_np, out_t)
    close(w_np, w_t)
    close(out_np, out_pt)
    close(out_t, out_pt)
    if mask_kind == "causal":
        out_causal = F.scaled_dot_product_attention(Qt, Kt, Vt, is_causal=True, scale=scale)
        close(out_t, out_causal)


@FAST
@given(seed=seeds, n=st.integers(1, 24), heads=st.integers(1, 6), d_head=st.integers(1, 8), batch=st.integers(1, 3),
       mask_kind=st.sampled_from(["none", "causal", "random"]))  # fmt: skip
def test_multi_head_attention_matches_nn_multiheadattention(seed, n, heads, d_head, batch, mask_kind):
    rng = np.random.default_rng(seed)
    d_model = heads * d_head
    X = rng.standard_normal((batch, n, d_model))
    W_Q, W_K, W_V, W_O = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(4))
    mask = {"none": None, "causal": ref.causal_mask(n), "random": random_mask(rng, (n, n))}[mask_kind]

    out_np, w_np = ref.multi_head_attention(X, W_Q, W_K, W_V, W_O, heads, mask=mask)
    out_t, w_t = tref.multi_head_attention(X, W_Q, W_K, W_V, W_O, heads, mask=mask)

    mha = torch.nn.MultiheadAttention(d_model, heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([W_Q.T, W_K.T, W_V.T])))  # Linear: x @ W.T
        mha.out_proj.weight.copy_(torch.from_numpy(W_O.T))
        Xt = torch.from_numpy(X)
        attn_mask = None if mask is None else ~torch.from_numpy(mask)  # nn.MultiheadAttention: True = NOT allowed
        out_pt, w_pt = mha(Xt, Xt, Xt, attn_mask=attn_mask, need_weights=True, average_attn_weights=False)

    assert out_np.shape == (batch, n, d_model) and w_np.shape == (batch, heads, n, n)
    close(out_np, out_t)
    close(w_np, w_t)
    close(out_np, out_pt)
    close(w_np, w_pt)


# --- every other function: torch module == NumPy module --------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=seeds, n=st.integers(1, 32), d=st.integers(1, 32), d_k=st.integers(1, 32), d_v=st.integers(1, 32),
       batch=batch_shapes)  # fmt: skip
def test_scores_softmax_mix_project_self_attention(seed, n, d, d_k, d_v, batch):
    rng = np.random.default_rng(seed)
    E = rng.standard_normal((*batch, n, d))
    W_Q, W_K = rng.standard_normal((d, d_k)), rng.standard_normal((d, d_k))
    W_V = rng.standard_normal((d, d_v))
    for a, b in zip(ref.project(E, W_Q, W_K, W_V), tref.project(E, W_Q, W_K, W_V), strict=True):
        close(a, b)
    Q, K, _ = ref.project(E, W_Q, W_K, W_V)
    S = ref.scores(Q, K)
    close(S, tref.scores(Q, K))
    close(ref.softmax(S), tref.softmax(S))
    close(ref.softmax(S, axis=-2), tref.softmax(S, axis=-2))
    A = ref.softmax(S)
    close(ref.mix(A, E), tref.mix(A, E))
    close(ref.self_attention(E), tref.self_attention(E))


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=st.integers(1, 20), d_in=st.integers(1, 8), d_h=st.integers(1, 8), with_bias=st.booleans())
def test_rnn_encoder(seed, n, d_in, d_h, with_bias):
    rng = np.random.default_rng(seed)
    E = rng.standard_normal((n, d_in))
    W_x, W_h = rng.standard_normal((d_in, d_h)), rng.standard_normal((d_h, d_h)) / np.sqrt(d_h)
    b, h0 = (rng.standard_normal(d_h), rng.standard_normal(d_h)) if with_bias else (None, None)
    H_np = ref.rnn_encoder(E, W_x, W_h, b, h0)
    assert H_np.shape == (n, d_h)
    close(H_np, tref.rnn_encoder(E, W_x, W_h, b, h0))


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n=st.integers(1, 20), d_s=st.integers(1, 8), d_h=st.integers(1, 8), d_a=st.integers(1, 8),
       batch=batch_shapes, masked=st.booleans())  # fmt: skip
def test_additive_attention(seed, n, d_s, d_h, d_a, batch, masked):
    rng = np.random.default_rng(seed)
    s = rng.standard_normal((*batch, d_s))
    H = rng.standard_normal((*batch, n, d_h))
    W_s, W_h, v = rng.standard_normal((d_s, d_a)), rng.standard_normal((d_h, d_a)), rng.standard_normal(d_a)
    mask = random_mask(rng, (*batch, n)) if masked else None
    c_np, w_np = ref.additive_attention(s, H, W_s, W_h, v, mask=mask)
    c_t, w_t = tref.additive_attention(s, H, W_s, W_h, v, mask=mask)
    assert c_np.shape == (*batch, d_h) and w_np.shape == (*batch, n)
    close(c_np, c_t)
    close(w_np, w_t)
    if masked:
        assert (w_np[~mask] == 0).all() and (w_t.numpy()[~mask] == 0).all()


@pytest.mark.parametrize("n", [1, 2, 7, 64])
@pytest.mark.parametrize("d", [1, 2, 5, 16, 64])
def test_sinusoidal_positional_encoding(n, d):
    P_np, P_t = ref.sinusoidal_positional_encoding(n, d), tref.sinusoidal_positional_encoding(n, d)
    assert P_np.shape == tuple(P_t.shape) == (n, d)
    assert P_t.dtype == torch.float64
    close(P_np, P_t, 1e-12)


@pytest.mark.parametrize("n", [1, 3, 8])
def test_masks(n):
    assert ref.causal_mask(n).dtype == np.bool_ and tref.causal_mask(n).dtype == torch.bool
    np.testing.assert_array_equal(ref.causal_mask(n), tref.causal_mask(n).numpy())
    lengths = [1, n, max(1, n // 2)]
    np.testing.assert_array_equal(ref.padding_mask(lengths, n), tref.padding_mask(lengths, n).numpy())
    np.testing.assert_array_equal(ref.padding_mask(lengths, n), tref.padding_mask(torch.tensor(lengths), n).numpy())


# --- dtypes: float32 in, float32 out; everything else float64 ----------------------------


def _float32_calls(mod, rng):
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
    X, W, v = f(2, 5, 4), f(4, 4), f(4)
    mask = ref.causal_mask(5)
    return {
        "scores": mod.scores(X, X),
        "softmax": mod.softmax(X),
        "mix": mod.mix(f(2, 5, 5), X),
        "self_attention": mod.self_attention(X),
        "project": mod.project(X, W, W, W),
        "sdpa": mod.scaled_dot_product_attention(X, X, X),
        "sdpa scale+mask": mod.scaled_dot_product_attention(X, X, X, mask=mask, scale=np.float64(0.3)),
        "multi_head_attention": mod.multi_head_attention(X, W, W, W, W, 2, mask=mask),
        "rnn_encoder": mod.rnn_encoder(X[0], W, W),
        "rnn_encoder b h0": mod.rnn_encoder(X[0], W, W, v, v),
        "additive_attention": mod.additive_attention(v, X[0], W, W, v),
    }


def _flat(x):
    return list(x) if isinstance(x, tuple) else [x]


def test_float32_in_float32_out():
    np_out = _float32_calls(ref, np.random.default_rng(1))
    t_out = _float32_calls(tref, np.random.default_rng(1))
    for name in np_out:
        for a, b in zip(_flat(np_out[name]), _flat(t_out[name]), strict=True):
            assert a.dtype == np.float32, f"numpy {name}: {a.dtype}"
            assert b.dtype == torch.float32, f"torch {name}: {b.dtype}"
            close(a, b, 1e-5)


def test_float32_tensor_input_stays_float32():
    X = torch.randn(3, 4, dtype=torch.float32, generator=torch.Generator().manual_seed(0))
    out, w = tref.scaled_dot_product_attention(X, X, X)
    assert out.dtype == w.dtype == torch.float32
    close(out, F.scaled_dot_product_attention(X, X, X), 1e-6)


@pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])
def test_other_input_becomes_float64(mod):
    ints = [[1, 0], [0, 1]]
    assert str(mod.self_attention(ints).dtype).endswith("float64")
    assert str(mod.self_attention(np.array(ints, dtype=np.float16)).dtype).endswith("float64")
    assert str(mod.scores(np.ones((2, 2), np.float32), np.ones((2, 2))).dtype).endswith("float64")  # mixed
    assert str(mod.self_attention(torch.tensor(ints)).dtype).endswith("float64")


def test_torch_functions_keep_autograd():
    # The torch twins are made of differentiable ops, so a reader can backprop through them.
    X = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    out, _ = tref.scaled_dot_product_attention(X, X, X, mask=tref.causal_mask(3))
    out.sum().backward()
    assert X.grad is not None and torch.isfinite(X.grad).all()


@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
def test_softmax_terms_are_the_softmax_written_out(batch):
    """e^score where the mask allows (0 elsewhere, and for -inf), totals the row sums, and
    terms / totals the softmax of the masked scores; NumPy == PyTorch."""
    rng = np.random.default_rng(7)
    S = rng.normal(0, 3, (*batch, 4, 5))
    mask = random_mask(rng, S.shape)
    terms, totals = ref.attention.softmax_terms(S, mask)
    np.testing.assert_array_equal(terms, np.where(mask, np.exp(S), 0))
    np.testing.assert_array_equal(totals, terms.sum(axis=-1))
    close(terms / totals[..., None], ref.softmax(np.where(mask, S, -np.inf)))
    t_terms, t_totals = tref.attention.softmax_terms(S, mask)
    close(t_terms, terms)
    close(t_totals, totals)
    S_inf = np.where(mask, S, -np.inf)  # -inf counts as masked
    np.testing.assert_array_equal(ref.attention.softmax_terms(S_inf)[0], terms)
    close(tref.attention.softmax_terms(torch.from_numpy(S_inf))[0], terms)
    e, total = ref.attention.softmax_terms([0.0, 1.0])
    assert e.tolist() == [1.0, np.e] and total == 1 + np.e
    f32 = ref.attention.softmax_terms(S.astype(np.float32))[0]
    assert (
        f32.dtype == np.float32 and tref.attention.softmax_terms(torch.from_numpy(S).float())[0].dtype == torch.float32
    )
