"""The transformer block (selfattn_ref/block.py and its twin selfattn_ref/torch/block.py): NumPy ==
PyTorch twin == PyTorch's own modules (torch.nn.functional.layer_norm, Linear-ReLU-Linear,
torch.nn.TransformerEncoderLayer post-norm and pre-norm) on random weights; the properties of layer
normalization and of the block; float32 kept; and bad input refused with the same message in both
packages, naming the argument and the shapes."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import selfattn_ref as ref
import selfattn_ref.torch as tref

from snippet_checks import close, one_message

MODS = pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])


def weights(rng, d_model: int, d_ff: int) -> dict:
    """Random weights of a block, keyed by transformer_block's argument names (num_heads apart)."""
    W = {name: rng.normal(0, 0.5, (d_model, d_model)) for name in ("W_Q", "W_K", "W_V", "W_O")}
    W |= {"W_1": rng.normal(0, 0.5, (d_model, d_ff)), "b_1": rng.normal(0, 0.5, d_ff)}
    W |= {"W_2": rng.normal(0, 0.5, (d_ff, d_model)), "b_2": rng.normal(0, 0.5, d_model)}
    for k in (1, 2):
        W |= {f"gamma_{k}": rng.normal(1, 0.3, d_model), f"beta_{k}": rng.normal(0, 0.3, d_model)}
    return W


def encoder_layer(W: dict, num_heads: int, eps: float, norm_first: bool) -> torch.nn.TransformerEncoderLayer:
    d_model, d_ff = W["W_1"].shape
    layer = torch.nn.TransformerEncoderLayer(
        d_model, num_heads, dim_feedforward=d_ff, dropout=0.0, layer_norm_eps=eps,
        norm_first=norm_first, batch_first=True, dtype=torch.float64,
    )  # fmt: skip
    t = {k: torch.from_numpy(v) for k, v in W.items()}
    with torch.no_grad():  # nn.Linear computes x @ weight.T: every matrix goes in transposed
        layer.self_attn.in_proj_weight.copy_(torch.cat([t["W_Q"].T, t["W_K"].T, t["W_V"].T]))
        layer.self_attn.in_proj_bias.zero_()
        layer.self_attn.out_proj.weight.copy_(t["W_O"].T)
        layer.self_attn.out_proj.bias.zero_()
        layer.linear1.weight.copy_(t["W_1"].T)
        layer.linear1.bias.copy_(t["b_1"])
        layer.linear2.weight.copy_(t["W_2"].T)
        layer.linear2.bias.copy_(t["b_2"])
        for k, norm in ((1, layer.norm1), (2, layer.norm2)):
            norm.weight.copy_(t[f"gamma_{k}"])
            norm.bias.copy_(t[f"beta_{k}"])
    return layer.eval()


def block(mod, X, W: dict, num_heads: int, **kw):
    args = [W[k] for k in ("W_Q", "W_K", "W_V", "W_O")] + [num_heads]
    args += [W[k] for k in ("W_1", "b_1", "W_2", "b_2", "gamma_1", "beta_1", "gamma_2", "beta_2")]
    return mod.transformer_block(X, *args, **kw)


# --- NumPy == PyTorch twin == PyTorch's modules ------------------------------------------------


@pytest.mark.parametrize("norm_first", [False, True], ids=["post-norm", "pre-norm"])
@pytest.mark.parametrize(
    ("seed", "n", "d_model", "num_heads", "d_ff", "batch", "eps"),
    [(0, 3, 4, 1, 8, 1, 1e-5), (1, 5, 8, 2, 16, 2, 1e-5), (2, 1, 6, 3, 4, 3, 1e-3), (3, 7, 12, 4, 48, 1, 1e-6)],
)
def test_block_matches_transformer_encoder_layer(seed, n, d_model, num_heads, d_ff, batch, eps, norm_first):
    rng = np.random.default_rng(seed)
    X = rng.normal(0, 1, (batch, n, d_model))
    W = weights(rng, d_model, d_ff)
    with torch.no_grad():
        expected = encoder_layer(W, num_heads, eps, norm_first)(torch.from_numpy(X)).numpy()
    np_steps = block(ref, X, W, num_heads, eps=eps, norm_first=norm_first)
    t_steps = block(tref, torch.from_numpy(X), W, num_heads, eps=eps, norm_first=norm_first)
    close(np_steps.output, expected)
    close(t_steps.output, expected)
    for field in ("attention", "weights", "sum_1", "norm_1", "hidden", "relu", "ffn", "sum_2", "norm_2"):
        close(getattr(t_steps, field), getattr(np_steps, field))
    assert np_steps.output.shape == X.shape and np_steps.hidden.shape == (batch, n, d_ff)
    assert np_steps.weights.shape == (batch, num_heads, n, n)


@pytest.mark.parametrize("norm_first", [False, True], ids=["post-norm", "pre-norm"])
def test_a_causal_block_matches_transformer_encoder_layer_with_a_causal_mask(norm_first):
    """With ``mask=causal_mask(n)`` the block is a decoder's (the language model's): each token
    reads only itself and the tokens before it, as PyTorch's layer does with ``is_causal=True``."""
    rng = np.random.default_rng(5)
    n, d_model, num_heads = 5, 8, 2
    X = rng.normal(0, 1, (2, n, d_model))
    W = weights(rng, d_model, 16)
    causal = torch.nn.Transformer.generate_square_subsequent_mask(n, dtype=torch.float64)
    with torch.no_grad():
        expected = encoder_layer(W, num_heads, 1e-5, norm_first)(torch.from_numpy(X), src_mask=causal, is_causal=True)
    for mod in (ref, tref):
        steps = block(mod, X, W, num_heads, norm_first=norm_first, mask=mod.causal_mask(n))
        close(steps.output, expected.numpy())
        assert not np.asarray(steps.weights)[..., np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]].any()
    unmasked = block(ref, X, W, num_heads, norm_first=norm_first)
    assert not np.allclose(unmasked.output, expected.numpy())  # the mask changes what the block gives


@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 5)])
def test_layer_norm_matches_torch(shape):
    rng = np.random.default_rng(len(shape))
    X, gamma, beta = rng.normal(0, 3, shape), rng.normal(1, 0.5, shape[-1]), rng.normal(0, 0.5, shape[-1])
    expected = F.layer_norm(torch.from_numpy(X), shape[-1:], torch.from_numpy(gamma), torch.from_numpy(beta), 1e-5)
    close(ref.layer_norm(X, gamma, beta), expected)
    close(tref.layer_norm(X, gamma, beta), expected)
    close(tref.layer_norm(torch.from_numpy(X), gamma, beta, eps=1e-3), ref.layer_norm(X, gamma, beta, 1e-3))


@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4)])
def test_feed_forward_matches_linear_relu_linear(shape):
    rng = np.random.default_rng(7)
    X = rng.normal(0, 1, shape)
    W_1, b_1, W_2, b_2 = rng.normal(0, 1, (4, 6)), rng.normal(0, 1, 6), rng.normal(0, 1, (6, 3)), rng.normal(0, 1, 3)
    net = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 3)).double()
    with torch.no_grad():
        for linear, W, b in ((net[0], W_1, b_1), (net[2], W_2, b_2)):
            linear.weight.copy_(torch.from_numpy(W).T)
            linear.bias.copy_(torch.from_numpy(b))
        expected = net(torch.from_numpy(X))
    close(ref.feed_forward(X, W_1, b_1, W_2, b_2), expected)
    close(tref.feed_forward(X, W_1, b_1, W_2, b_2), expected)
    assert ref.feed_forward(X, W_1, b_1, W_2, b_2).shape == (*shape[:-1], 3)


# --- properties ------------------------------------------------------------------------------


@MODS
@pytest.mark.parametrize("seed", range(5))
def test_normalized_rows_have_mean_zero_and_variance_just_under_one(mod, seed):
    """Before γ and β (γ = 1, β = 0): each row has mean 0 and variance σ² / (σ² + ε)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(rng.uniform(-5, 5), rng.uniform(0.1, 5), (4, 6))
    out = np.asarray(mod.layer_norm(X, np.ones(6), np.zeros(6), eps=1e-5))
    var = X.var(axis=1)
    close(out.mean(axis=1), np.zeros(4))
    close(out.var(axis=1), var / (var + 1e-5))
    assert (out.var(axis=1) < 1).all()


@MODS
def test_gamma_and_beta_scale_and_shift_each_column(mod):
    rng = np.random.default_rng(3)
    X, gamma, beta = rng.normal(0, 1, (5, 4)), rng.normal(0, 1, 4), rng.normal(0, 1, 4)
    plain = np.asarray(mod.layer_norm(X, np.ones(4), np.zeros(4)))
    close(mod.layer_norm(X, gamma, beta), plain * gamma + beta)


@MODS
def test_layer_norm_ignores_a_shift_of_a_row_and_leaves_a_constant_row_at_beta(mod):
    rng = np.random.default_rng(4)
    X, gamma, beta = rng.normal(0, 1, (3, 4)), rng.normal(0, 1, 4), rng.normal(0, 1, 4)
    close(mod.layer_norm(X + np.array([[5.0], [-2.0], [100.0]]), gamma, beta), mod.layer_norm(X, gamma, beta), 1e-9)
    close(mod.layer_norm(np.full((2, 4), 7.0), gamma, beta), np.tile(beta, (2, 1)))  # σ² = 0: ε keeps it finite


@MODS
@pytest.mark.parametrize("norm_first", [False, True])
def test_permuting_the_tokens_permutes_the_blocks_output(mod, norm_first):
    """Only attention mixes tokens, and it is permutation equivariant, so the block is too."""
    rng = np.random.default_rng(5)
    X, W = rng.normal(0, 1, (5, 4)), weights(rng, 4, 8)
    perm = np.array([3, 0, 4, 1, 2])
    out = np.asarray(block(mod, X, W, 2, norm_first=norm_first).output)
    close(block(mod, X[perm], W, 2, norm_first=norm_first).output, out[perm])


@MODS
def test_the_feed_forward_network_treats_each_row_on_its_own(mod):
    rng = np.random.default_rng(6)
    X = rng.normal(0, 1, (4, 3))
    args = rng.normal(0, 1, (3, 5)), rng.normal(0, 1, 5), rng.normal(0, 1, (5, 3)), rng.normal(0, 1, 3)
    together = np.asarray(mod.feed_forward(X, *args))
    for i in range(4):
        close(mod.feed_forward(X[i], *args), together[i])


def test_the_steps_are_what_their_names_say():
    rng = np.random.default_rng(8)
    X, W = rng.normal(0, 1, (3, 4)), weights(rng, 4, 8)
    eps = 1e-5
    post = block(ref, X, W, 2)
    ln = {k: (lambda M, k=k: ref.layer_norm(M, W[f"gamma_{k}"], W[f"beta_{k}"], eps)) for k in (1, 2)}
    close(post.sum_1, X + post.attention)
    close(post.norm_1, ln[1](post.sum_1))
    close(post.hidden, post.norm_1 @ W["W_1"] + W["b_1"])
    close(post.relu, np.maximum(post.hidden, 0))
    close(post.ffn, ref.feed_forward(post.norm_1, W["W_1"], W["b_1"], W["W_2"], W["b_2"]))
    close(post.sum_2, post.norm_1 + post.ffn)
    close(post.output, ln[2](post.sum_2))
    pre = block(ref, X, W, 2, norm_first=True)
    close(pre.norm_1, ln[1](X))
    close(pre.attention, ref.multi_head_attention(pre.norm_1, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2)[0])
    close(pre.norm_2, ln[2](pre.sum_1))
    close(pre.output, pre.sum_2)
    close(pre.sum_2, X + pre.attention + pre.ffn)


# --- types ------------------------------------------------------------------------------------


def test_float32_in_float32_out():
    rng = np.random.default_rng(9)
    X = rng.normal(0, 1, (3, 4)).astype(np.float32)
    W = {k: v.astype(np.float32) for k, v in weights(rng, 4, 8).items()}
    for mod, kind in ((ref, np.float32), (tref, torch.float32)):
        tensors = mod is tref
        x = torch.from_numpy(X) if tensors else X
        Wm = {k: torch.from_numpy(v) for k, v in W.items()} if tensors else W
        assert block(mod, x, Wm, 2).output.dtype == kind
        assert mod.layer_norm(x, Wm["gamma_1"], Wm["beta_1"]).dtype == kind
        assert mod.feed_forward(x, Wm["W_1"], Wm["b_1"], Wm["W_2"], Wm["b_2"]).dtype == kind
    close(block(tref, torch.from_numpy(X), W, 2).output, block(ref, X, W, 2).output, 1e-5)


@MODS
def test_mixed_float32_and_float64_give_float64(mod):
    rng = np.random.default_rng(10)
    X = rng.normal(0, 1, (3, 4)).astype(np.float32)
    W = weights(rng, 4, 8)  # float64
    x = torch.from_numpy(X) if mod is tref else X
    for norm_first in (False, True):
        assert str(block(mod, x, W, 1, norm_first=norm_first).output.dtype).endswith("float64")


def test_the_torch_block_keeps_autograd():
    rng = np.random.default_rng(11)
    W = {k: torch.from_numpy(v).requires_grad_() for k, v in weights(rng, 4, 8).items()}
    X = torch.from_numpy(rng.normal(0, 1, (3, 4))).requires_grad_()
    block(tref, X, W, 2).output.sum().backward()
    assert X.grad is not None and torch.isfinite(X.grad).all()
    assert all(w.grad is not None for w in W.values())


# --- bad input ---------------------------------------------------------------------------------


def ones(*shape):
    return np.ones(shape)


I4 = np.eye(4)
GOOD = dict(W_1=ones(4, 8), b_1=ones(8), W_2=ones(8, 4), b_2=ones(4))


def good_block(mod, X=None, **changes):
    W = {"W_Q": I4, "W_K": I4, "W_V": I4, "W_O": I4, **GOOD, "gamma_1": ones(4), "beta_1": ones(4)}
    W |= {"gamma_2": ones(4), "beta_2": ones(4)}
    kw = {k: changes.pop(k) for k in ("eps", "norm_first", "num_heads") if k in changes}
    W |= changes
    return block(mod, ones(3, 4) if X is None else X, W, kw.pop("num_heads", 1), **kw)


CASES = [
    ("ln-gamma", lambda m: m.layer_norm(ones(3, 4), ones(3), ones(4)),
     r"^gamma must have shape \(4,\), one entry per column of X \(3, 4\), got \(3,\)$"),
    ("ln-beta-2d", lambda m: m.layer_norm(ones(3, 4), ones(4), ones(1, 4)),
     r"^beta must have 1 dimension\(s\), got shape \(1, 4\)$"),
    ("ln-eps-zero", lambda m: m.layer_norm(ones(3, 4), ones(4), ones(4), eps=0),
     r"^eps must be a positive finite number, got 0$"),
    ("ln-eps-bool", lambda m: m.layer_norm(ones(3, 4), ones(4), ones(4), eps=True),
     r"^eps must be a positive finite number, got True$"),
    ("ln-eps-nan", lambda m: m.layer_norm(ones(3, 4), ones(4), ones(4), eps=float("nan")),
     r"^eps must be a positive finite number, got nan$"),
    ("ln-eps-text", lambda m: m.layer_norm(ones(3, 4), ones(4), ones(4), eps="1e-5"),
     r"^eps must be a positive finite number, got '1e-5'$"),
    ("ln-X-nan", lambda m: m.layer_norm(np.array([[1.0, np.nan]]), ones(2), ones(2)),
     r"^X must hold only finite numbers \(no NaN or infinity\), shape \(1, 2\)$"),
    ("ln-overflow", lambda m: m.layer_norm(np.array([[1e200, -1e200, 0.0, 0.0]]), ones(4), ones(4)),
     r"^X \(1, 4\) is too large: the variance of a row overflows in float64$"),
    ("ffn-W_1-rows", lambda m: m.feed_forward(ones(3, 4), ones(3, 8), ones(8), ones(8, 4), ones(4)),
     r"^W_1 must have one row per column of X, got X \(3, 4\) and W_1 \(3, 8\)$"),
    ("ffn-b_1", lambda m: m.feed_forward(ones(3, 4), ones(4, 8), ones(4), ones(8, 4), ones(4)),
     r"^b_1 must have shape \(8,\), one entry per column of W_1 \(4, 8\), got \(4,\)$"),
    ("ffn-W_2-rows", lambda m: m.feed_forward(ones(3, 4), ones(4, 8), ones(8), ones(4, 4), ones(4)),
     r"^W_2 must have one row per column of W_1, got W_1 \(4, 8\) and W_2 \(4, 4\)$"),
    ("ffn-b_2", lambda m: m.feed_forward(ones(3, 4), ones(4, 8), ones(8), ones(8, 4), ones(3)),
     r"^b_2 must have shape \(4,\), one entry per column of W_2 \(8, 4\), got \(3,\)$"),
    ("ffn-overflow", lambda m: m.feed_forward(ones(3, 4) * 1e300, ones(4, 8) * 1e10, ones(8), ones(8, 4), ones(4)),
     r"^X \(3, 4\) and W_1 \(4, 8\) are too large: X W_1 \+ b_1 overflows in float64$"),
    ("block-X-1d", lambda m: good_block(m, X=ones(4)),
     r"^X must have at least 2 dimension\(s\), got shape \(4,\)$"),
    ("block-W_2-width", lambda m: good_block(m, W_2=ones(8, 3), b_2=ones(3)),
     r"^W_2 must have shape \(8, 4\), back to the width of X \(3, 4\) for the residual sum, got \(8, 3\)$"),
    ("block-gamma_2", lambda m: good_block(m, gamma_2=ones(3)),
     r"^gamma_2 must have shape \(4,\), one entry per column of X \(3, 4\), got \(3,\)$"),
    ("block-beta_1", lambda m: good_block(m, beta_1=ones(5)),
     r"^beta_1 must have shape \(4,\), one entry per column of X \(3, 4\), got \(5,\)$"),
    ("block-norm-first", lambda m: good_block(m, norm_first=1),
     r"^norm_first must be True or False, got 1$"),
    ("block-eps", lambda m: good_block(m, eps=-1e-5),
     r"^eps must be a positive finite number, got -1e-05$"),
    ("block-heads", lambda m: good_block(m, num_heads=3),
     r"^num_heads=3 must divide the width of X, got X \(3, 4\)$"),
    ("block-W_O", lambda m: good_block(m, W_O=ones(4, 3)),
     r"^W_O must have shape \(4, 4\) to match X \(3, 4\), got \(4, 3\)$"),
    ("block-overflow", lambda m: good_block(m, X=np.arange(12.0).reshape(3, 4) * 1e154),
     r"^X \(3, 4\), W_Q \(4, 4\) and W_K \(4, 4\) are too large: in the heads, the scores Q K\^T overflow in float64$"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "pattern"), [pytest.param(c, p, id=i) for i, c, p in CASES])
def test_bad_input_raises_value_error_naming_it_in_the_same_words_in_both(call, pattern):
    one_message(call, pattern)


@MODS
def test_every_case_works_with_good_input_instead(mod):
    """The cases above fail for the reason they name: the good call beside each works."""
    mod.layer_norm(ones(3, 4), ones(4), ones(4), eps=1e-3)
    mod.layer_norm(np.array([[1e100, -1e100, 0.0, 0.0]]), ones(4), ones(4))
    mod.feed_forward(ones(3, 4), **GOOD)
    good_block(mod)
    good_block(mod, norm_first=True, eps=1e-6, num_heads=np.int64(2))
    good_block(mod, X=np.arange(12.0).reshape(3, 4) * 1e150)


def test_the_numpy_block_refuses_a_tensor_that_requires_grad():
    X = torch.ones(3, 4, dtype=torch.float64, requires_grad=True)
    with pytest.raises(ValueError, match=r"^X is a torch tensor that requires grad"):
        good_block(ref, X=X)
