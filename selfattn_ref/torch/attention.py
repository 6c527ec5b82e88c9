"""The math of attention in PyTorch: score, normalize, mix.

Shapes use ``n`` for the number of queries, ``n_k`` for the number of keys, ``d_k`` for
the width of a query or key and ``d_v`` for the width of the values, as the Notation page writes
them. Any leading batch dimensions ``...`` pass through (they must broadcast together). Float32 input stays float32;
anything else becomes float64. A result that could overflow (from the NumPy package's bound on its
size, so that both refuse the same inputs) is a ValueError naming the arguments that were too
large, and so is a result of more than ``MAX_ENTRIES`` (10**8) entries, refused before it is allocated.
"""

from __future__ import annotations

import math

import torch

from .._validate import (
    NESTED,
    as_axis,
    as_scale,
    check_bound,
    check_tensor,
    product_bound,
    tensor_numpy,
    terms_mask,
    to_real_array,
    value_text,
)
from ..attention import _check_mixed, _check_scores, _check_terms
from ._validate import (
    any_true,
    as_bool_mask,
    as_float_tensor,
    batch_shape,
    check_size,
    common_dtype,
    complex_error,
    finite,
    from_numpy,
    shape,
)


def scores(Q, K) -> torch.Tensor:
    """Dot product of every query with every key.

    Q: (..., n, d_k), K: (..., n_k, d_k) -> (..., n, n_k); entry [i, j] is Q[i] · K[j].
    """
    Q = as_float_tensor(Q, "Q", min_ndim=2)
    K = as_float_tensor(K, "K", min_ndim=2)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q and K must have the same width, got Q {shape(Q)} and K {shape(K)}")
    batch = batch_shape(("Q", shape(Q), 2), ("K", shape(K), 2))
    check_size((*batch, Q.shape[-2], K.shape[-2]), "the scores Q K^T", Q=Q, K=K)
    Q, K = common_dtype(Q, K)
    _check_scores(Q, K, Q.dtype)  # the NumPy package's bound: the same inputs refused
    return finite(Q @ K.transpose(-2, -1), "the scores Q K^T overflow", Q=Q, K=K)  # (..., n, n_k)


def _as_scores(S) -> torch.Tensor:
    """``S`` as a float tensor (float32 kept, anything else float64); ValueError if it is not numbers."""
    if isinstance(S, torch.Tensor):
        check_tensor(S, "S")  # sparse, nested, quantized, meta, masked: refused before torch computes
        if S.is_complex():
            raise complex_error("S", S.dtype)
        S = S if S.dtype == torch.float32 else S.to(torch.float64)
    else:
        S = from_numpy(to_real_array(S, "S"))  # float32 kept, else float64; -inf allowed
    return S


def softmax(S, axis: int = -1) -> torch.Tensor:
    """Softmax along ``axis``: positive weights that sum to 1.

    S: any shape -> the same shape. Subtracting the largest entry first keeps exp() from
    overflowing and changes nothing else, because softmax(s + c) = softmax(s). Entries of
    -inf (masked scores) get weight 0; NaN, +inf or a slice that is all -inf is an error.
    """
    S = _as_scores(S)
    if S.ndim == 0 or S.numel() == 0:
        as_axis(axis, None)  # an axis that is no integer is named first
        raise ValueError(f"S must have at least one entry along axis {value_text(axis)}, got shape {shape(S)}")
    axis = as_axis(axis, shape(S))
    if any_true(torch.isnan(S) | torch.isposinf(S), "S"):
        raise ValueError(f"S must not hold NaN or +infinity, shape {shape(S)}")
    top = S.amax(dim=axis, keepdim=True)
    if bool(torch.isneginf(top).any()):
        raise ValueError(
            f"S has a slice along axis {axis} that is all -infinity (nothing to attend to), shape {shape(S)}"
        )
    e = torch.exp(S - top)  # largest entry of each slice becomes exp(0) = 1
    return e / e.sum(dim=axis, keepdim=True)


def softmax_terms(S, mask=None) -> tuple[torch.Tensor, torch.Tensor]:
    """The softmax written out as the pages do by hand: e^score for every score, and the totals.

    S: (..., n_k) scores; mask: boolean, broadcastable to (..., n_k), True where a score counts
    (a masked score's term is 0, as e^-inf). Returns terms (..., n_k) and totals (...,), the sum
    of each row's terms, so that softmax(S) = terms / totals[..., None]. Unlike :func:`softmax`,
    nothing is subtracted first: these are the numbers a reader checks, so a score whose e^score
    overflows (above about 709 in float64) is an error, and so is a row with no score that counts.
    """
    S = _as_scores(S)
    if S.ndim == 0 or S.numel() == 0:
        raise ValueError(f"S must have at least one entry along its last axis, got shape {shape(S)}")
    if any_true(torch.isnan(S) | torch.isposinf(S), "S"):
        raise ValueError(f"S must not hold NaN or +infinity, shape {shape(S)}")
    allowed = ~torch.isneginf(S)  # (..., n_k)
    if mask is not None:
        allowed = allowed & from_numpy(terms_mask(mask, shape(S)))  # the NumPy package's checks
    empty = ~allowed.any(dim=-1)
    if bool(empty.any()):
        where = tuple(int(i) for i in torch.nonzero(empty)[0])
        raise ValueError(f"S has a row {where} with no score that counts (all masked or -infinity), shape {shape(S)}")
    _check_terms(tensor_numpy(S, "S"), allowed.numpy())  # the NumPy package's bound: the same scores refused
    terms = torch.where(allowed, torch.exp(torch.where(allowed, S, 0)), 0)  # (..., n_k)
    totals = terms.sum(dim=-1)  # (...,)
    return terms, totals


def mix(A, V) -> torch.Tensor:
    """Weighted sums of the values: row i of the result is sum_j A[i, j] · V[j].

    A: (..., n, n_k), V: (..., n_k, d_v) -> (..., n, d_v).
    """
    A = as_float_tensor(A, "A", min_ndim=2)
    V = as_float_tensor(V, "V", min_ndim=2)
    if A.shape[-1] != V.shape[-2]:
        raise ValueError(f"A must have one column per row of V, got A {shape(A)} and V {shape(V)}")
    batch = batch_shape(("A", shape(A), 2), ("V", shape(V), 2))
    check_size((*batch, A.shape[-2], V.shape[-1]), "the weighted sums A V", A=A, V=V)
    A, V = common_dtype(A, V)
    check_bound(product_bound(A, V), "the weighted sums A V overflow", A.dtype, {"A": A, "V": V}, A.shape[-1])
    return finite(A @ V, "the weighted sums A V overflow", A=A, V=V)  # (..., n, n_k) @ (..., n_k, d_v) -> (..., n, d_v)


def self_attention(X) -> torch.Tensor:
    """softmax(X · Xᵀ) · X: the first article's formula, with no projections and no scaling.

    X: (..., n, d) -> (..., n, d).
    """
    X = as_float_tensor(X, "X", min_ndim=2)
    check_size((*X.shape[:-1], X.shape[-2]), "the scores X X^T", X=X)
    _check_scores(X, X, X.dtype, what="the scores X X^T overflow", X=X)
    _check_mixed(X, X.dtype, "the weighted sums A V overflow", {"X": X}, NESTED)  # mix(softmax(S), X) below
    S = finite(X @ X.transpose(-2, -1), "the scores X X^T overflow", X=X)  # (..., n, n)
    return mix(softmax(S), X)  # rows of weights summing to 1 mix the rows of X: no overflow


def project(X, W_Q, W_K, W_V) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Queries, keys and values from embeddings: Q = X·W_Q, K = X·W_K, V = X·W_V.

    X: (..., n, d_model); W_Q, W_K: (d_model, d_k); W_V: (d_model, d_v).
    Returns Q (..., n, d_k), K (..., n, d_k), V (..., n, d_v).
    """
    X = as_float_tensor(X, "X", min_ndim=2)
    out = []
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        W = as_float_tensor(W, name, ndim=2)
        if W.shape[0] != X.shape[-1]:
            raise ValueError(
                f"{name} must have one row per embedding dimension, got X {shape(X)} and {name} {shape(W)}"
            )
        check_size((*X.shape[:-1], W.shape[1]), f"the product X {name}", X=X, **{name: W})
        X_, W = common_dtype(X, W)
        check_bound(product_bound(X_, W), f"the product X {name} overflows", W.dtype, {"X": X, name: W}, W.shape[0])
        out.append(finite(X_ @ W, f"the product X {name} overflows", X=X, **{name: W}))  # (..., n, d_k)
    Q, K, V = out
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"W_Q and W_K must have the same number of columns, got {Q.shape[-1]} and {K.shape[-1]}")
    return Q, K, V


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(Q·Kᵀ · scale, masked) · V, returning ``(output, weights)``.

    Q: (..., n, d_k), K: (..., n_k, d_k), V: (..., n_k, d_v); mask: boolean, broadcastable to
    (..., n, n_k), True where a query may attend to a key; scale: the factor applied to
    the scores, 1/√d when None (as in PyTorch). Returns output (..., n, d_v) and
    weights (..., n, n_k).
    """
    Q = as_float_tensor(Q, "Q", min_ndim=2)
    K = as_float_tensor(K, "K", min_ndim=2)
    V = as_float_tensor(V, "V", min_ndim=2)
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"K and V must have the same length, got K {shape(K)} and V {shape(V)}")
    batch = batch_shape(("Q", shape(Q), 2), ("K", shape(K), 2), ("V", shape(V), 2))
    check_size((*batch, Q.shape[-2], K.shape[-2]), "the scores Q K^T", Q=Q, K=K)
    check_size((*batch, Q.shape[-2], V.shape[-1]), "the outputs (the weights times V)", Q=Q, V=V)
    given = as_scale(scale)
    scale = 1.0 / math.sqrt(Q.shape[-1]) if given is None else given
    unscaled = scores(Q, K)  # (..., n, n_k): Q and K checked, and refused if their product could overflow
    dtype = common_dtype(Q, K, V)[0].dtype
    _check_scores(Q, K, dtype, float(scale), what="the scaled scores Q K^T * scale overflow", Q=Q, K=K,
                 scale=float(scale))  # fmt: skip
    _check_mixed(V, dtype, "the outputs (the weights times V) overflow", {"V": V})
    S = finite(unscaled * scale, "the scaled scores Q K^T * scale overflow", Q=Q, K=K, scale=scale)  # (..., n, n_k)
    if mask is not None:
        allowed = as_bool_mask(mask, "mask", S.shape)
        S = S.masked_fill(~allowed, -math.inf)  # masked scores -> -inf -> weight exactly 0
    weights = softmax(S, axis=-1)  # (..., n, n_k)
    A, V = common_dtype(weights, V)
    output = finite(A @ V, "the outputs (the weights times V) overflow", V=V)  # (..., n, d_v)
    return output, weights
