"""Batched multi-head causal self-attention (selfattn_ref.batched and its twin), and the heads as an
axis of their own (split_heads, join_heads): the shape after every line, equal to the package's
multi_head_attention, to torch.nn.functional.scaled_dot_product_attention and to
torch.nn.MultiheadAttention, the module with its causal buffer, and the site's padded batch."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import batched
from selfattn_ref.topics import batched_heads, masking, mistakes
from selfattn_ref.torch import batched as tbatched

from snippet_checks import close

RNG = np.random.default_rng(54)
X = RNG.standard_normal((3, 4, 6))  # B = 3 sentences of T = 4 tokens, C = 6
W = [RNG.standard_normal((6, 6)) for _ in range(4)]  # W_Q, W_K, W_V, W_O
LENGTHS = [4, 2, 3]
HEADS = 3  # d_head = 2


def combined_mask(lengths, n) -> np.ndarray:
    """(batch, n, n): the causal mask and the padding mask, made independently of the code under test."""
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    return np.array([(j <= i) & (j < k) for k in lengths])


@pytest.fixture(scope="module", name="steps")
def steps_fixture():
    return batched.causal_self_attention(X, *W, HEADS, lengths=LENGTHS), tbatched.causal_self_attention(
        X, *W, HEADS, lengths=LENGTHS
    )


def test_the_shape_after_every_line(steps):
    expected = [
        (3, 4, 6),  # B, T, C
        (3, 4, 6),  # Q, K, V
        (3, 4, 3, 2),  # view: (B, T, h, d_head)
        (3, 3, 4, 2),  # transpose: (B, h, T, d_head)
        (3, 3, 4, 4),  # scores
        (3, 1, 4, 4),  # mask, shared by the heads
        (3, 3, 4, 4),  # masked
        (3, 3, 4, 4),  # softmax
        (3, 3, 4, 2),  # weights times values
        (3, 4, 3, 2),  # transpose back
        (3, 4, 6),  # heads joined
        (3, 4, 6),  # W_O
    ]
    for st in steps:
        assert [s for _, s in st.lines] == expected
        assert tuple(st.Q_heads.shape) == (3, 3, 4, 2) and tuple(st.concat.shape) == (3, 4, 6)


@pytest.mark.parametrize(
    ("func", "index"), [(batched.causal_self_attention, 0), (tbatched._steps, 1)], ids=["numpy", "torch"]
)
def test_every_line_named_is_a_line_of_the_code(steps, func, index):
    """The text beside each shape is a line of the function that ran, so the table cannot drift
    from the code."""
    code = {line.split("  #")[0].strip() for line in inspect.getsource(func).splitlines()}
    for text, _ in steps[index].lines:
        assert text in code, f"{text!r} is not a line of {func.__qualname__}"


def test_the_twins_agree(steps):
    np_steps, t_steps = steps
    for field in ("Q", "K", "V", "Q_heads", "scaled", "masked", "weights", "heads", "concat", "output"):
        a, b = getattr(np_steps, field), getattr(t_steps, field)
        assert np.array_equal(np.isinf(a), np.isinf(b.numpy())), field
        close(np.where(np.isinf(a), 0, a), torch.where(torch.isinf(b), 0, b))
    assert np.array_equal(np_steps.mask, t_steps.mask.numpy())


def test_equal_to_multi_head_attention_with_the_combined_mask(steps):
    mask = combined_mask(LENGTHS, 4)
    assert np.array_equal(steps[0].mask[:, 0], mask)
    for pkg, st in zip((ref, tref), steps, strict=True):
        output, weights = pkg.multi_head_attention(X, *W, HEADS, mask=mask)
        close(st.output, output)
        close(st.weights, weights)


def test_equal_to_pytorchs_scaled_dot_product_attention(steps):
    st = steps[0]
    heads = F.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (st.Q_heads, st.K_heads, st.V_heads)), attn_mask=torch.from_numpy(st.mask)
    )  # boolean attn_mask: True = take part, the site's convention
    close(st.heads, heads)
    # is_causal=True applies the causal mask alone: equal on the rows where padding changes nothing
    causal_only = batched.causal_self_attention(X, *W, HEADS)
    heads_causal = F.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (causal_only.Q_heads, causal_only.K_heads, causal_only.V_heads)), is_causal=True
    )
    close(causal_only.heads, heads_causal)


def test_equal_to_torch_multihead_attention(steps):
    """nn.MultiheadAttention's masks mean the opposite of ours: True = leave out. key_padding_mask
    (batch, n) is the padding, attn_mask (n, n) the causal mask; its weights are W.T, stacked."""
    mha = torch.nn.MultiheadAttention(6, HEADS, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([torch.from_numpy(w).T for w in W[:3]]))  # (18, 6)
        mha.out_proj.weight.copy_(torch.from_numpy(W[3]).T)
    x = torch.from_numpy(X)
    real = torch.from_numpy(np.arange(4)[None, :] < np.array(LENGTHS)[:, None])  # (batch, n), True = real
    output, weights = mha(
        x,
        x,
        x,
        key_padding_mask=~real,
        attn_mask=~torch.ones(4, 4, dtype=torch.bool).tril(),
        average_attn_weights=False,
    )
    close(steps[0].output, output)
    close(steps[0].weights, weights)


def test_the_module_keeps_the_causal_mask_as_a_buffer(steps):
    layer = tbatched.CausalSelfAttention.from_weights(*W, HEADS, n_ctx=8)
    assert set(dict(layer.named_buffers())) == {"causal"} and tuple(layer.causal.shape) == (1, 1, 8, 8)
    assert "causal" in layer.state_dict() and "causal" not in dict(layer.named_parameters())
    assert not any(p.shape == (8, 8) for p in layer.parameters())
    # its qkv weight is MultiheadAttention's in_proj_weight layout: cat(W_Q.T, W_K.T, W_V.T)
    close(layer.qkv.weight, torch.cat([torch.from_numpy(w).T for w in W[:3]]))
    x = torch.from_numpy(X)
    close(layer(x, LENGTHS), steps[0].output)  # the buffer (8, 8) cut to T = 4
    close(layer.steps(x[:, :2], [2, 2, 2]).output, batched.causal_self_attention(X[:, :2], *W, HEADS).output)
    with pytest.raises(ValueError, match=r"X must have shape \(batch, n, 6\) with n at most 8, got \(1, 9, 6\)"):
        layer(torch.zeros(1, 9, 6))


def test_the_function_keeps_the_gradient():
    Ws = [torch.from_numpy(w).requires_grad_() for w in W]
    tbatched.causal_self_attention(X, *Ws, HEADS, lengths=LENGTHS).output.sum().backward()
    assert all(w.grad is not None and bool(w.grad.abs().sum() > 0) for w in Ws)


def test_float32_stays_float32():
    st = batched.causal_self_attention(X.astype(np.float32), *(w.astype(np.float32) for w in W), HEADS)
    tst = tbatched.causal_self_attention(X.astype(np.float32), *(w.astype(np.float32) for w in W), HEADS)
    assert st.output.dtype == np.float32 and tst.output.dtype == torch.float32


@pytest.mark.parametrize("pkg", [batched, tbatched], ids=["numpy", "torch"])
def test_bad_input(pkg):
    with pytest.raises(ValueError, match=r"lengths must hold one length per sentence \(3\), got 2"):
        pkg.causal_self_attention(X, *W, HEADS, lengths=[4, 2])
    with pytest.raises(ValueError, match=r"lengths must lie between 1 and n=4, got \[4, 5, 1\]"):
        pkg.causal_self_attention(X, *W, HEADS, lengths=[4, 5, 1])
    with pytest.raises(ValueError, match=r"X must have 3 dimension\(s\), got shape \(4, 6\)"):
        pkg.causal_self_attention(X[0], *W, HEADS)
    with pytest.raises(ValueError, match=r"num_heads=4 must divide the width of X, got X \(3, 4, 6\)"):
        pkg.causal_self_attention(X, *W, 4)
    with pytest.raises(ValueError, match=r"W_O must have shape \(6, 6\) to match X \(3, 4, 6\), got \(6, 5\)"):
        pkg.causal_self_attention(X, *W[:3], W[3][:, :5], HEADS)
    with pytest.raises(ValueError, match=r"X \(3, 4, 6\), W_Q \(6, 6\) and W_K \(6, 6\) are too large"):
        pkg.causal_self_attention(X * 1e154, *W, HEADS)


# --- the heads as an axis: split_heads, join_heads -------------------------------------------


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_split_and_join_heads(pkg):
    M = RNG.standard_normal((2, 5, 6))  # (batch, n, num_heads·d_head)
    split = pkg.split_heads(M, 3)
    assert tuple(split.shape) == (2, 3, 5, 2)
    close(split[:, 1], M[:, :, 2:4])  # head 2 is columns 3-4
    close(pkg.join_heads(split), M)
    close(split, torch.from_numpy(M).view(2, 5, 3, 2).transpose(1, 2))  # what real code writes
    with pytest.raises(ValueError, match=r"num_heads=4 must divide the width of M, got M \(2, 5, 6\)"):
        pkg.split_heads(M, 4)
    with pytest.raises(ValueError, match=r"M must have at least 3 dimension\(s\), got shape \(5, 6\)"):
        pkg.join_heads(M[0])


# --- the site's batch: selfattn_ref.topics.batched_heads ------------------------------------


def test_the_sites_padded_batch():
    b = batched_heads.batch()
    assert b.sentences == (("The", "cat", "sat"), ("The", "cat", "[PAD]")) and b.lengths == (3, 2)
    assert [s for _, s in b.steps.lines][3] == (2, 2, 3, 2)  # (B, h, T, d_head)
    # each sentence's real rows are what the sentence gives alone
    assert b.largest_difference < 1e-15
    # the padding mask changes only the pad's own row: with the causal mask alone it reads itself too
    real = np.array([[True] * 3, [True, True, False]])
    close(b.steps.output[real], b.causal_only.output[real])
    assert b.steps.weights[1, :, 2, 2].max() == 0 and b.causal_only.weights[1, :, 2, 2].min() > 0
    # the numbers: "cat" in the short sentence, head 2, reads "The" and itself
    assert [f"{x:.4f}" for x in b.steps.weights[1, 1, 1]] == ["0.1956", "0.8044", "0.0000"]


# --- the mistakes lab: the padding mask on the wrong axis, and read with the opposite convention -----


def test_a_padding_mask_broadcast_on_the_queries_axis_is_a_bug():
    m = mistakes.padding_axis()
    p = masking.padding()
    close(m.right, p.weights)
    real = np.array([[True] * 3, [True, True, False]])  # the real query rows
    close(m.wrong[real], m.unmasked[real])  # the real tokens still read the pad
    assert m.wrong[1, 0, 2] > 0.2 and m.right[1, 0, 2] == 0
    assert np.isnan(m.wrong[1, 2]).all()  # the pad's row has no key at all: 0/0


def test_the_sites_mask_given_as_multihead_attentions_key_padding_mask_is_a_bug():
    """nn.MultiheadAttention leaves out the keys where key_padding_mask is True; given the site's mask
    (True = may attend) it drops the real tokens, as computed in the lab."""
    m = mistakes.inverted_padding()
    p = masking.padding()
    mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(4, dtype=torch.float64).repeat(3, 1))
        mha.out_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    x = torch.from_numpy(p.X)
    for mask, want in ((~p.mask[:, 0], m.right), (p.mask[:, 0], m.wrong)):
        _, weights = mha(x, x, x, key_padding_mask=torch.from_numpy(mask), average_attn_weights=False)
        got = weights[:, 0].detach().numpy()
        assert np.array_equal(np.isnan(got), np.isnan(want))
        close(np.nan_to_num(got), np.nan_to_num(want))
    assert np.isnan(m.wrong[0]).all() and m.wrong[1, :, 2].tolist() == [1.0, 1.0, 1.0]
