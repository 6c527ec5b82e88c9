"""A transformer block in PyTorch: layer normalization, the feed-forward network, and the block.

The twin of :mod:`selfattn_ref.block`, written out with ``@``, ``mean`` and ``sqrt`` rather than
calling ``torch.nn.functional.layer_norm`` or ``torch.nn.TransformerEncoderLayer``, which the
tests compare it to (with ``dropout=0`` and the weights transposed: ``torch.nn.Linear``
multiplies by ``weight.T``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..block import EPS, _as_eps, _as_flag, _check_block, _check_ffn_bound, _check_ffn_size, _check_norm
from ._validate import as_float_tensor, common_dtype, finite, shape
from .multihead import _heads_arguments, multi_head_attention

__all__ = ["BlockSteps", "feed_forward", "layer_norm", "transformer_block"]


@dataclass(frozen=True)
class BlockSteps:
    """Every step of one transformer block, as :func:`transformer_block` computes it.

    Post-norm: ``attention`` is MultiHead(X), ``norm_1`` is Z = LN(X + attention), the
    feed-forward network reads Z, and ``output = norm_2 = LN(Z + ffn)``. Pre-norm: ``norm_1`` is
    LN(X), which attention reads, ``norm_2`` is LN(X + attention), which the feed-forward network
    reads, and ``output = sum_2``.
    """

    attention: torch.Tensor  # (..., n, d_model): the multi-head attention's output
    weights: torch.Tensor  # (..., num_heads, n, n): its attention weights
    sum_1: torch.Tensor  # (..., n, d_model): X + attention, the first residual sum
    norm_1: torch.Tensor  # (..., n, d_model): LN(sum_1) post-norm, LN(X) pre-norm
    hidden: torch.Tensor  # (..., n, d_ff): the feed-forward network's input times W_1, plus b_1
    relu: torch.Tensor  # (..., n, d_ff): max(0, hidden)
    ffn: torch.Tensor  # (..., n, d_model): relu times W_2, plus b_2
    sum_2: torch.Tensor  # (..., n, d_model): the second residual sum, the feed-forward network's input + ffn
    norm_2: torch.Tensor  # (..., n, d_model): LN(sum_2) post-norm, LN(sum_1) pre-norm
    output: torch.Tensor  # (..., n, d_model): norm_2 post-norm, sum_2 pre-norm


def _vector(v, name: str, width: int, other: str, other_shape) -> torch.Tensor:
    """``v`` as a float tensor of shape (width,), one entry per column of ``other``, or a ValueError
    naming both (the NumPy package's message)."""
    v = as_float_tensor(v, name, ndim=1)
    if shape(v) != (width,):
        raise ValueError(
            f"{name} must have shape ({width},), one entry per column of {other} {tuple(other_shape)}, got {shape(v)}"
        )
    return v


def _normalize(X, gamma, beta, eps, names: dict) -> torch.Tensor:
    """LN over the last axis of checked tensors of one dtype; ``names`` name the caller's arguments."""
    mean = X.mean(dim=-1, keepdim=True)  # (..., 1)
    centred = X - mean  # (..., d)
    variance = (centred * centred).mean(dim=-1, keepdim=True)  # (..., 1), divided by d, not d - 1
    finite(variance, "the variance of a row overflows", **{names["X"]: X})
    out = centred / torch.sqrt(variance + eps) * gamma + beta
    return finite(out, "the normalized rows times gamma, plus beta, overflow", **{names["gamma"]: gamma})


def layer_norm(X, gamma, beta, eps=EPS) -> torch.Tensor:
    """Layer normalization of each row: (x - μ) / √(σ² + ε) · γ + β, entry by entry.

    μ and σ² are the mean and the variance of the row's entries (divided by their number d, as
    ``torch.nn.LayerNorm`` does), ε = ``eps`` keeps the division away from 0. X: (..., d);
    gamma, beta: (d,) -> (..., d). With gamma all 1 and beta all 0, each row of the result has
    mean 0 and variance σ² / (σ² + ε), just under 1.
    """
    X = as_float_tensor(X, "X", min_ndim=1)
    d = X.shape[-1]
    gamma = _vector(gamma, "gamma", d, "X", shape(X))
    beta = _vector(beta, "beta", d, "X", shape(X))
    eps = _as_eps(eps)
    X, gamma, beta = common_dtype(X, gamma, beta)
    _check_norm(X, gamma, beta, {"X": "X", "gamma": "gamma"}, X.dtype)  # the NumPy package's bounds
    return _normalize(X, gamma, beta, eps, {"X": "X", "gamma": "gamma"})


def _check_ffn(W_1, b_1, W_2, b_2, d_model: int, X_shape) -> list[torch.Tensor]:
    W_1 = as_float_tensor(W_1, "W_1", ndim=2)
    if W_1.shape[0] != d_model:
        raise ValueError(f"W_1 must have one row per column of X, got X {X_shape} and W_1 {shape(W_1)}")
    d_ff = W_1.shape[1]
    b_1 = _vector(b_1, "b_1", d_ff, "W_1", shape(W_1))
    W_2 = as_float_tensor(W_2, "W_2", ndim=2)
    if W_2.shape[0] != d_ff:
        raise ValueError(f"W_2 must have one row per column of W_1, got W_1 {shape(W_1)} and W_2 {shape(W_2)}")
    b_2 = _vector(b_2, "b_2", W_2.shape[1], "W_2", shape(W_2))
    return [W_1, b_1, W_2, b_2]


def _ffn(X, W_1, b_1, W_2, b_2) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(hidden, relu, output) of the feed-forward network on checked tensors of one dtype."""
    hidden = finite(X @ W_1 + b_1, "X W_1 + b_1 overflows", X=X, W_1=W_1)  # (..., n, d_ff)
    relu = torch.clamp(hidden, min=0)  # each negative entry becomes 0
    out = finite(relu @ W_2 + b_2, "max(0, X W_1 + b_1) W_2 + b_2 overflows", W_1=W_1, W_2=W_2)
    return hidden, relu, out


def feed_forward(X, W_1, b_1, W_2, b_2) -> torch.Tensor:
    """The feed-forward network of a transformer block, on each row on its own:
    max(0, X·W_1 + b_1)·W_2 + b_2.

    X: (..., d_model); W_1: (d_model, d_ff); b_1: (d_ff,); W_2: (d_ff, d_out); b_2: (d_out,)
    -> (..., d_out). In a block, d_out = d_model.
    """
    X = as_float_tensor(X, "X", min_ndim=1)
    weights = _check_ffn(W_1, b_1, W_2, b_2, X.shape[-1], shape(X))
    _check_ffn_size(X, weights[0], weights[2])
    X, *weights = common_dtype(X, *weights)
    _check_ffn_bound(X, *weights, X.dtype)  # the NumPy package's bounds: the same inputs refused
    return _ffn(X, *weights)[2]


def transformer_block(
    X, W_Q, W_K, W_V, W_O, num_heads, W_1, b_1, W_2, b_2, gamma_1, beta_1, gamma_2, beta_2, eps=EPS, norm_first=False,
    mask=None,
) -> BlockSteps:  # fmt: skip
    """One transformer block (an encoder layer; a decoder's with a causal ``mask``), returning every
    step as :class:`BlockSteps`.

    Post-norm (``norm_first=False``, the original Transformer):
    Z = LN_1(X + MultiHead(X)), output = LN_2(Z + FFN(Z)). Pre-norm (``norm_first=True``):
    Z = X + MultiHead(LN_1(X)), output = Z + FFN(LN_2(Z)).

    X: (..., n, d_model); W_Q, W_K, W_V, W_O: (d_model, d_model) and ``num_heads`` as in
    :func:`selfattn_ref.torch.multi_head_attention`; W_1: (d_model, d_ff); b_1: (d_ff,);
    W_2: (d_ff, d_model); b_2: (d_model,); gamma_1, beta_1 (the first normalization's) and
    gamma_2, beta_2 (the second's): (d_model,); eps: layer normalization's ε; mask: boolean,
    broadcastable to (..., n, n), ``True`` where a query may attend to a key, passed to the attention
    as it is (``causal_mask(n)`` makes the block a decoder's, as in a language model).
    The output has the shape of X, (..., n, d_model).
    """
    X = as_float_tensor(X, "X", min_ndim=2)
    d_model = X.shape[-1]
    ffn_weights = _check_ffn(W_1, b_1, W_2, b_2, d_model, shape(X))
    if ffn_weights[2].shape[1] != d_model:
        raise ValueError(
            f"W_2 must have shape ({ffn_weights[0].shape[1]}, {d_model}), back to the width of X {shape(X)} for the "
            f"residual sum, got {shape(ffn_weights[2])}"
        )
    _check_ffn_size(X, ffn_weights[0], ffn_weights[2])
    norm_weights = [
        _vector(v, f"{name}_{k}", d_model, "X", shape(X))
        for k, g, b in ((1, gamma_1, beta_1), (2, gamma_2, beta_2))
        for name, v in (("gamma", g), ("beta", b))
    ]
    eps = _as_eps(eps)
    norm_first = _as_flag(norm_first, "norm_first")
    num_heads, Ws = _heads_arguments(X, W_Q, W_K, W_V, W_O, num_heads)
    dtype = common_dtype(X, *Ws.values(), *ffn_weights, *norm_weights)[0].dtype
    norm_pairs = {1: norm_weights[0:2], 2: norm_weights[2:4]}
    _check_block(X, Ws, num_heads, tuple(ffn_weights), norm_pairs, norm_first, dtype)  # the NumPy package's bounds
    X, *rest = common_dtype(X, *ffn_weights, *norm_weights)
    W_1, b_1, W_2, b_2 = rest[:4]
    norms = {1: rest[4:6], 2: rest[6:8]}

    def ln(k: int, M: torch.Tensor, what: str) -> torch.Tensor:  # the k-th normalization of M, named `what`
        return _normalize(M, *norms[k], eps, {"X": what, "gamma": f"gamma_{k}"})

    def add(a: torch.Tensor, b: torch.Tensor, what: str) -> torch.Tensor:  # a residual sum
        return finite(a + b, f"the residual sum {what} overflows", X=X)

    if norm_first:  # pre-norm: X + MultiHead(LN_1(X)), then Z + FFN(LN_2(Z))
        norm_1 = ln(1, X, "X")
        attention, weights = multi_head_attention(norm_1, W_Q, W_K, W_V, W_O, num_heads, mask)
        X, attention = common_dtype(X, attention)
        sum_1 = add(X, attention, "X + attention")  # (..., n, d_model)
        norm_2 = ln(2, sum_1, "X + attention")
        hidden, relu, ffn = _ffn(*common_dtype(norm_2, W_1, b_1, W_2, b_2))  # (..., n, d_ff) twice, (..., n, d_model)
        sum_2 = add(sum_1, ffn, "Z + FFN")
        output = sum_2
    else:  # post-norm: LN_1(X + MultiHead(X)) = Z, then LN_2(Z + FFN(Z))
        attention, weights = multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask)
        X, attention = common_dtype(X, attention)
        sum_1 = add(X, attention, "X + attention")
        norm_1 = ln(1, sum_1, "X + attention")  # Z
        hidden, relu, ffn = _ffn(*common_dtype(norm_1, W_1, b_1, W_2, b_2))
        sum_2 = add(norm_1, ffn, "Z + FFN(Z)")
        norm_2 = ln(2, sum_2, "Z + FFN(Z)")
        output = norm_2
    return BlockSteps(attention, weights, sum_1, norm_1, hidden, relu, ffn, sum_2, norm_2, output)
