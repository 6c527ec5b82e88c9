"""A transformer block in NumPy: layer normalization, the feed-forward network, and the block.

The block is the original Transformer's encoder layer: multi-head self-attention, then the
feed-forward network, each wrapped in a residual connection and a layer normalization. With
``norm_first=False`` (post-norm, the paper's order) each normalization comes after its residual
sum; with ``norm_first=True`` (pre-norm, GPT-2's order) it comes first, inside the residual.
With ``mask=causal_mask(n)`` each token reads only itself and the tokens before it: the block of a
decoder, as in a language model (GPT-2's is pre-norm and causal).
``torch.nn.TransformerEncoderLayer`` computes the same with ``dropout=0`` and its weights
transposed (``torch.nn.Linear`` multiplies by ``weight.T``); the tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import (
    NESTED,
    as_float_array,
    check_bound,
    check_size,
    finite,
    magnitudes,
    positive_float,
    product_bound,
)
from .multihead import _check_heads, _heads_arguments, multi_head_attention

__all__ = ["BlockSteps", "feed_forward", "layer_norm", "transformer_block"]

EPS = 1e-5  # layer normalization's ε, PyTorch's default (torch.nn.LayerNorm's eps)


@dataclass(frozen=True)
class BlockSteps:
    """Every step of one transformer block, as :func:`transformer_block` computes it.

    Post-norm: ``attention`` is MultiHead(X), ``norm_1`` is Z = LN(X + attention), the
    feed-forward network reads Z, and ``output = norm_2 = LN(Z + ffn)``. Pre-norm: ``norm_1`` is
    LN(X), which attention reads, ``norm_2`` is LN(X + attention), which the feed-forward network
    reads, and ``output = sum_2``.
    """

    attention: np.ndarray  # (..., n, d_model): the multi-head attention's output
    weights: np.ndarray  # (..., num_heads, n, n): its attention weights
    sum_1: np.ndarray  # (..., n, d_model): X + attention, the first residual sum
    norm_1: np.ndarray  # (..., n, d_model): LN(sum_1) post-norm, LN(X) pre-norm
    hidden: np.ndarray  # (..., n, d_ff): the feed-forward network's input times W_1, plus b_1
    relu: np.ndarray  # (..., n, d_ff): max(0, hidden)
    ffn: np.ndarray  # (..., n, d_model): relu times W_2, plus b_2
    sum_2: np.ndarray  # (..., n, d_model): the second residual sum, the feed-forward network's input + ffn
    norm_2: np.ndarray  # (..., n, d_model): LN(sum_2) post-norm, LN(sum_1) pre-norm
    output: np.ndarray  # (..., n, d_model): norm_2 post-norm, sum_2 pre-norm


def _as_eps(eps) -> float:
    """``eps`` as a float; anything but a positive finite number is a ValueError."""
    return positive_float(eps, "eps")


def _as_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _vector(v, name: str, width: int, other: str, other_shape) -> np.ndarray:
    """``v`` as a float array of shape (width,), one entry per column of ``other``, or a ValueError
    naming both."""
    v = as_float_array(v, name, ndim=1)
    if v.shape != (width,):
        raise ValueError(
            f"{name} must have shape ({width},), one entry per column of {other} {tuple(other_shape)}, got {v.shape}"
        )
    return v


def _check_norm(M, gamma, beta, names: dict, dtype, level: int = 0) -> np.ndarray:
    """Refuse rows M (an array, a tensor or a bound, (..., d)) whose layer normalization could
    overflow, naming ``names`` (as :func:`_normalize`'s); both packages. The mean adds up d sizes, the
    variance d squares of at most twice the largest size, and a normalized entry is at most √d in
    size (its square is at most d times the variance), so the output at most √d |γ| + |β|: returned,
    of the shape of M, for what is computed from it."""
    A = magnitudes(M)
    d = A.shape[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        check_bound(A.sum(axis=-1), "the variance of a row overflows", dtype, {names["X"]: M}, d, level)
        square = d * (2 * A.max(axis=-1)) ** 2
        check_bound(square, "the variance of a row overflows", dtype, {names["X"]: M}, d + 2, level)
        out = np.sqrt(d) * magnitudes(gamma) + magnitudes(beta)  # (d,)
    check_bound(out, "the normalized rows times gamma, plus beta, overflow", dtype, {names["gamma"]: gamma}, 4, level)
    return np.broadcast_to(out, A.shape)


def _check_ffn_bound(M, W_1, b_1, W_2, b_2, dtype, level: int = 0) -> np.ndarray:
    """Refuse an input M (an array, a tensor or a bound, (..., d_model)) and weights with which the
    feed-forward network could overflow; the bound of its output (..., d_out). Both packages."""
    with np.errstate(over="ignore", invalid="ignore"):
        hidden = product_bound(M, W_1) + magnitudes(b_1)  # (..., d_ff): ReLU keeps it or makes it 0
        check_bound(hidden, "X W_1 + b_1 overflows", dtype, {"X": M, "W_1": W_1}, W_1.shape[0] + 1, level)
        out = product_bound(hidden, W_2) + magnitudes(b_2)
    check_bound(
        out, "max(0, X W_1 + b_1) W_2 + b_2 overflows", dtype, {"W_1": W_1, "W_2": W_2}, W_2.shape[0] + 1, level
    )
    return out


def _check_block(X, Ws: dict, num_heads: int, ffn: tuple, norms: dict, norm_first: bool, dtype) -> None:
    """Refuse the arguments of a transformer block (both packages) with which any of its steps could
    overflow: the bounds of each step from the bounds of the one before, two levels below the checks of
    multi-head attention, which it calls, and one below the others."""
    A = magnitudes(X)

    def add(a, b, what: str) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            total = a + b
        check_bound(total, f"the residual sum {what} overflows", dtype, {"X": X}, 2, NESTED)
        return total

    def norm(k: int, M, what: str) -> np.ndarray:
        return _check_norm(M, *norms[k], {"X": what, "gamma": f"gamma_{k}"}, dtype, NESTED)

    if norm_first:  # X + MultiHead(LN_1(X)), then Z + FFN(LN_2(Z))
        attention = _check_heads(norm(1, A, "X"), Ws, num_heads, dtype, NESTED + 1)
        sum_1 = add(A, attention, "X + attention")
        add(sum_1, _check_ffn_bound(norm(2, sum_1, "X + attention"), *ffn, dtype, NESTED), "Z + FFN")
    else:  # LN_1(X + MultiHead(X)) = Z, then LN_2(Z + FFN(Z))
        sum_1 = add(A, _check_heads(X, Ws, num_heads, dtype, NESTED + 1), "X + attention")
        z = norm(1, sum_1, "X + attention")
        norm(2, add(z, _check_ffn_bound(z, *ffn, dtype, NESTED), "Z + FFN(Z)"), "Z + FFN(Z)")


def _normalize(X, gamma, beta, eps, names: dict) -> np.ndarray:
    """LN over the last axis of checked arrays; ``names`` name the caller's arguments in errors."""
    with np.errstate(over="ignore", invalid="ignore"):
        mean = X.mean(axis=-1, keepdims=True)  # (..., 1)
        centred = X - mean  # (..., d)
        variance = (centred * centred).mean(axis=-1, keepdims=True)  # (..., 1), divided by d, not d - 1
        finite(variance, "the variance of a row overflows", **{names["X"]: X})
        out = centred / np.sqrt(variance + eps) * gamma + beta
    return finite(out, "the normalized rows times gamma, plus beta, overflow", **{names["gamma"]: gamma})


def layer_norm(X, gamma, beta, eps=EPS) -> np.ndarray:
    """Layer normalization of each row: (x - μ) / √(σ² + ε) · γ + β, entry by entry.

    μ and σ² are the mean and the variance of the row's entries (divided by their number d, as
    ``torch.nn.LayerNorm`` does), ε = ``eps`` keeps the division away from 0. X: (..., d);
    gamma, beta: (d,) -> (..., d). With gamma all 1 and beta all 0, each row of the result has
    mean 0 and variance σ² / (σ² + ε), just under 1.
    """
    X = as_float_array(X, "X", min_ndim=1)
    d = X.shape[-1]
    gamma = _vector(gamma, "gamma", d, "X", X.shape)
    beta = _vector(beta, "beta", d, "X", X.shape)
    eps = _as_eps(eps)
    dtype = np.result_type(X, gamma, beta)  # computed in it throughout, as the PyTorch twin does
    X, gamma, beta = (a.astype(dtype, copy=False) for a in (X, gamma, beta))
    _check_norm(X, gamma, beta, {"X": "X", "gamma": "gamma"}, dtype)
    return _normalize(X, gamma, beta, eps, {"X": "X", "gamma": "gamma"})


def _check_ffn(W_1, b_1, W_2, b_2, d_model: int, X_shape) -> tuple[np.ndarray, ...]:
    W_1 = as_float_array(W_1, "W_1", ndim=2)
    if W_1.shape[0] != d_model:
        raise ValueError(f"W_1 must have one row per column of X, got X {X_shape} and W_1 {W_1.shape}")
    d_ff = W_1.shape[1]
    b_1 = _vector(b_1, "b_1", d_ff, "W_1", W_1.shape)
    W_2 = as_float_array(W_2, "W_2", ndim=2)
    if W_2.shape[0] != d_ff:
        raise ValueError(f"W_2 must have one row per column of W_1, got W_1 {W_1.shape} and W_2 {W_2.shape}")
    b_2 = _vector(b_2, "b_2", W_2.shape[1], "W_2", W_2.shape)
    return W_1, b_1, W_2, b_2


def _check_ffn_size(X, W_1, W_2) -> None:
    """Refuse, before it is allocated, a hidden layer (..., d_ff) or an output (..., d_out) of more
    than MAX_ENTRIES entries, naming the arguments (both packages)."""
    rows = tuple(X.shape)[:-1]
    check_size((*rows, W_1.shape[1]), "the hidden layer X W_1 + b_1", X=X, W_1=W_1)
    check_size((*rows, W_2.shape[1]), "the output max(0, X W_1 + b_1) W_2 + b_2", X=X, W_2=W_2)


def _ffn(X, W_1, b_1, W_2, b_2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hidden, relu, output) of the feed-forward network on checked arrays."""
    with np.errstate(over="ignore", invalid="ignore"):
        hidden = finite(X @ W_1 + b_1, "X W_1 + b_1 overflows", X=X, W_1=W_1)  # (..., n, d_ff)
        relu = np.maximum(hidden, 0)  # each negative entry becomes 0
        out = finite(relu @ W_2 + b_2, "max(0, X W_1 + b_1) W_2 + b_2 overflows", W_1=W_1, W_2=W_2)
    return hidden, relu, out


def feed_forward(X, W_1, b_1, W_2, b_2) -> np.ndarray:
    """The feed-forward network of a transformer block, on each row on its own:
    max(0, X·W_1 + b_1)·W_2 + b_2.

    X: (..., d_model); W_1: (d_model, d_ff); b_1: (d_ff,); W_2: (d_ff, d_out); b_2: (d_out,)
    -> (..., d_out). In a block, d_out = d_model.
    """
    X = as_float_array(X, "X", min_ndim=1)
    W_1, b_1, W_2, b_2 = _check_ffn(W_1, b_1, W_2, b_2, X.shape[-1], X.shape)
    _check_ffn_size(X, W_1, W_2)
    _check_ffn_bound(X, W_1, b_1, W_2, b_2, np.result_type(X, W_1, b_1, W_2, b_2))
    return _ffn(X, W_1, b_1, W_2, b_2)[2]


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
    :func:`selfattn_ref.multi_head_attention`; W_1: (d_model, d_ff); b_1: (d_ff,);
    W_2: (d_ff, d_model); b_2: (d_model,); gamma_1, beta_1 (the first normalization's) and
    gamma_2, beta_2 (the second's): (d_model,); eps: layer normalization's ε; mask: boolean,
    broadcastable to (..., n, n), ``True`` where a query may attend to a key, passed to the attention
    as it is (``causal_mask(n)`` makes the block a decoder's, as in a language model).
    The output has the shape of X, (..., n, d_model).
    """
    X = as_float_array(X, "X", min_ndim=2)
    d_model = X.shape[-1]
    W_1, b_1, W_2, b_2 = _check_ffn(W_1, b_1, W_2, b_2, d_model, X.shape)
    if W_2.shape[1] != d_model:
        raise ValueError(
            f"W_2 must have shape ({W_1.shape[1]}, {d_model}), back to the width of X {X.shape} for the "
            f"residual sum, got {W_2.shape}"
        )
    _check_ffn_size(X, W_1, W_2)
    norms = {
        k: (
            _vector(g, f"gamma_{k}", d_model, "X", X.shape),
            _vector(b, f"beta_{k}", d_model, "X", X.shape),
        )
        for k, g, b in ((1, gamma_1, beta_1), (2, gamma_2, beta_2))
    }
    eps = _as_eps(eps)
    norm_first = _as_flag(norm_first, "norm_first")
    num_heads, Ws = _heads_arguments(X, W_Q, W_K, W_V, W_O, num_heads)
    dtype = np.result_type(X, *Ws.values(), W_1, b_1, W_2, b_2, *(v for pair in norms.values() for v in pair))
    _check_block(X, Ws, num_heads, (W_1, b_1, W_2, b_2), norms, norm_first, dtype)

    def ln(k: int, M: np.ndarray, what: str) -> np.ndarray:  # the k-th normalization of M, named `what`
        return _normalize(M, *norms[k], eps, {"X": what, "gamma": f"gamma_{k}"})

    def add(a: np.ndarray, b: np.ndarray, what: str) -> np.ndarray:  # a residual sum
        with np.errstate(over="ignore", invalid="ignore"):
            return finite(a + b, f"the residual sum {what} overflows", X=X)

    if norm_first:  # pre-norm: X + MultiHead(LN_1(X)), then Z + FFN(LN_2(Z))
        norm_1 = ln(1, X, "X")
        attention, weights = multi_head_attention(norm_1, W_Q, W_K, W_V, W_O, num_heads, mask)
        sum_1 = add(X, attention, "X + attention")  # (..., n, d_model)
        norm_2 = ln(2, sum_1, "X + attention")
        hidden, relu, ffn = _ffn(norm_2, W_1, b_1, W_2, b_2)  # (..., n, d_ff) twice, (..., n, d_model)
        sum_2 = add(sum_1, ffn, "Z + FFN")
        output = sum_2
    else:  # post-norm: LN_1(X + MultiHead(X)) = Z, then LN_2(Z + FFN(Z))
        attention, weights = multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask)
        sum_1 = add(X, attention, "X + attention")
        norm_1 = ln(1, sum_1, "X + attention")  # Z
        hidden, relu, ffn = _ffn(norm_1, W_1, b_1, W_2, b_2)
        sum_2 = add(norm_1, ffn, "Z + FFN(Z)")
        norm_2 = ln(2, sum_2, "Z + FFN(Z)")
        output = norm_2
    return BlockSteps(attention, weights, sum_1, norm_1, hidden, relu, ffn, sum_2, norm_2, output)
