"""The math of attention in NumPy: score, normalize, mix.

Shapes use ``n`` for the number of queries, ``n_k`` for the number of keys, ``d_k`` for
the width of a query or key and ``d_v`` for the width of the values, as the Notation page writes
them. Any leading batch dimensions ``...`` pass through (they must broadcast together). Float32 input stays float32;
anything else becomes float64. A result that could overflow (from a bound on its size, computed
from the arguments as the PyTorch twin computes it, so that both refuse the same inputs) is a
ValueError naming the arguments that were too large, not a RuntimeWarning, and so is a result of
more than ``MAX_ENTRIES`` (10**8) entries, refused before it is allocated.
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    NESTED,
    as_axis,
    as_bool_mask,
    as_float_array,
    as_scale,
    batch_shape,
    check_bound,
    check_size,
    finite,
    limit_of,
    magnitudes,
    product_bound,
    terms_mask,
    to_real_array,
    value_text,
)


def scores(Q, K) -> np.ndarray:
    """Dot product of every query with every key.

    Q: (..., n, d_k), K: (..., n_k, d_k) -> (..., n, n_k); entry [i, j] is Q[i] · K[j].
    """
    Q = as_float_array(Q, "Q", min_ndim=2)
    K = as_float_array(K, "K", min_ndim=2)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q and K must have the same width, got Q {Q.shape} and K {K.shape}")
    batch = batch_shape(("Q", Q.shape, 2), ("K", K.shape, 2))
    check_size((*batch, Q.shape[-2], K.shape[-2]), "the scores Q K^T", Q=Q, K=K)
    _check_scores(Q, K, np.result_type(Q, K))
    with np.errstate(over="ignore", invalid="ignore"):
        S = Q @ np.swapaxes(K, -1, -2)  # (..., n, d_k) @ (..., d_k, n_k) -> (..., n, n_k)
    return finite(S, "the scores Q K^T overflow", Q=Q, K=K)


def _check_scores(
    queries, keys, dtype, factor: float = 1.0, level: int = 0, what: str = "the scores Q K^T overflow", **named
) -> None:
    """Refuse queries and keys (arrays, tensors or bounds, both packages) whose scores times ``factor``
    could overflow (:func:`._validate.check_bound`), naming ``named`` (else them, as Q and K)."""
    with np.errstate(over="ignore", invalid="ignore"):
        bound = product_bound(queries, np.swapaxes(magnitudes(keys), -1, -2)) * abs(factor)
    terms = np.shape(queries)[-1] + 1  # the dot product's terms, and the factor
    check_bound(bound, what, dtype, named or {"Q": queries, "K": keys}, terms, level)


def _check_mixed(V, dtype, what: str, named: dict, level: int = 0) -> None:
    """Refuse values V (..., n_k, d_v) whose weighted sums, with weights that add up to 1, could overflow:
    none is larger than the largest value of its column (with the rounding of n_k terms)."""
    check_bound(magnitudes(V).max(axis=-2), what, dtype, named, np.shape(V)[-2] + 1, level)


def _as_scores(S) -> np.ndarray:
    """``S`` as a float array (float32 kept, anything else float64; -inf allowed); ValueError if it
    is not real numbers."""
    return to_real_array(S, "S")


def softmax(S, axis: int = -1) -> np.ndarray:
    """Softmax along ``axis``: positive weights that sum to 1.

    S: any shape -> the same shape. Subtracting the largest entry first keeps exp() from
    overflowing and changes nothing else, because softmax(s + c) = softmax(s). Entries of
    -inf (masked scores) get weight 0; NaN, +inf or a slice that is all -inf is an error.
    """
    S = _as_scores(S)
    if S.ndim == 0 or S.size == 0:
        as_axis(axis, None)  # an axis that is no integer is named first
        raise ValueError(f"S must have at least one entry along axis {value_text(axis)}, got shape {S.shape}")
    axis = as_axis(axis, S.shape)
    if np.isnan(S).any() or np.isposinf(S).any():
        raise ValueError(f"S must not hold NaN or +infinity, shape {S.shape}")
    top = S.max(axis=axis, keepdims=True)
    if np.isneginf(top).any():
        raise ValueError(
            f"S has a slice along axis {axis} that is all -infinity (nothing to attend to), shape {S.shape}"
        )
    with np.errstate(over="ignore"):  # -1e308 - 1e308 is -inf, and exp(-inf) = 0 is its weight
        e = np.exp(S - top)
    return e / e.sum(axis=axis, keepdims=True)


def softmax_terms(S, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """The softmax written out as the pages do by hand: e^score for every score, and the totals.

    S: (..., n_k) scores; mask: boolean, broadcastable to (..., n_k), True where a score counts
    (a masked score's term is 0, as e^-inf). Returns terms (..., n_k) and totals (...,), the sum
    of each row's terms, so that softmax(S) = terms / totals[..., None]. Unlike :func:`softmax`,
    nothing is subtracted first: these are the numbers a reader checks, so a score whose e^score
    overflows (above about 709 in float64) is an error, and so is a row with no score that counts.
    """
    S = _as_scores(S)
    if S.ndim == 0 or S.size == 0:
        raise ValueError(f"S must have at least one entry along its last axis, got shape {S.shape}")
    if np.isnan(S).any() or np.isposinf(S).any():
        raise ValueError(f"S must not hold NaN or +infinity, shape {S.shape}")
    allowed = ~np.isneginf(S)  # (..., n_k)
    if mask is not None:
        allowed = allowed & terms_mask(mask, S.shape)
    if not allowed.any(axis=-1).all():
        where = tuple(int(i) for i in np.argwhere(~allowed.any(axis=-1))[0])
        raise ValueError(f"S has a row {where} with no score that counts (all masked or -infinity), shape {S.shape}")
    _check_terms(S, allowed)
    terms = np.where(allowed, np.exp(np.where(allowed, S, 0)), 0)  # (..., n_k)
    totals = terms.sum(axis=-1)  # (...,)
    return terms.astype(S.dtype, copy=False), totals


def _check_terms(S: np.ndarray, allowed: np.ndarray) -> None:
    """Refuse scores S (..., n_k) whose e^score, or a row's total of them (where ``allowed``), could
    overflow: decided from S (both packages), e^largest and their number times it against half the
    largest number of S's dtype, so that exp() of either library, a unit off in its last place, and
    either order of adding them up stay finite."""
    top = np.log(limit_of(S.dtype, S.shape[-1]))
    with np.errstate(invalid="ignore"):
        largest = np.where(allowed, S, -np.inf).max(axis=-1)  # (...,)
    if (largest > top).any():
        raise ValueError(f"S holds a score whose e^score overflows (largest {float(largest.max())!r}); use softmax")
    over = largest + np.log(allowed.sum(axis=-1)) > top
    if over.any():
        where = tuple(int(i) for i in np.argwhere(over)[0])
        raise ValueError(f"S has a row {where} whose total of e^score overflows, shape {S.shape}; use softmax")


def mix(A, V) -> np.ndarray:
    """Weighted sums of the values: row i of the result is sum_j A[i, j] · V[j].

    A: (..., n, n_k), V: (..., n_k, d_v) -> (..., n, d_v).
    """
    A = as_float_array(A, "A", min_ndim=2)
    V = as_float_array(V, "V", min_ndim=2)
    if A.shape[-1] != V.shape[-2]:
        raise ValueError(f"A must have one column per row of V, got A {A.shape} and V {V.shape}")
    batch = batch_shape(("A", A.shape, 2), ("V", V.shape, 2))
    check_size((*batch, A.shape[-2], V.shape[-1]), "the weighted sums A V", A=A, V=V)
    check_bound(
        product_bound(A, V), "the weighted sums A V overflow", np.result_type(A, V), {"A": A, "V": V}, A.shape[-1]
    )
    with np.errstate(over="ignore", invalid="ignore"):
        Z = A @ V  # (..., n, n_k) @ (..., n_k, d_v) -> (..., n, d_v)
    return finite(Z, "the weighted sums A V overflow", A=A, V=V)


def self_attention(X) -> np.ndarray:
    """softmax(X · Xᵀ) · X: the first article's formula, with no projections and no scaling.

    X: (..., n, d) -> (..., n, d).
    """
    X = as_float_array(X, "X", min_ndim=2)
    check_size((*X.shape[:-1], X.shape[-2]), "the scores X X^T", X=X)
    _check_scores(X, X, X.dtype, what="the scores X X^T overflow", X=X)
    _check_mixed(X, X.dtype, "the weighted sums A V overflow", {"X": X}, NESTED)  # mix(softmax(S), X) below
    with np.errstate(over="ignore", invalid="ignore"):
        S = finite(X @ np.swapaxes(X, -1, -2), "the scores X X^T overflow", X=X)  # (..., n, n)
    return mix(softmax(S), X)  # rows of weights summing to 1 mix the rows of X: no overflow


def project(X, W_Q, W_K, W_V) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries, keys and values from embeddings: Q = X·W_Q, K = X·W_K, V = X·W_V.

    X: (..., n, d_model); W_Q, W_K: (d_model, d_k); W_V: (d_model, d_v).
    Returns Q (..., n, d_k), K (..., n, d_k), V (..., n, d_v).
    """
    X = as_float_array(X, "X", min_ndim=2)
    out = []
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        W = as_float_array(W, name, ndim=2)
        if W.shape[0] != X.shape[-1]:
            raise ValueError(f"{name} must have one row per embedding dimension, got X {X.shape} and {name} {W.shape}")
        check_size((*X.shape[:-1], W.shape[1]), f"the product X {name}", X=X, **{name: W})
        dtype = np.result_type(X, W)
        check_bound(product_bound(X, W), f"the product X {name} overflows", dtype, {"X": X, name: W}, W.shape[0])
        with np.errstate(over="ignore", invalid="ignore"):
            out.append(finite(X @ W, f"the product X {name} overflows", X=X, **{name: W}))
    Q, K, V = out
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"W_Q and W_K must have the same number of columns, got {Q.shape[-1]} and {K.shape[-1]}")
    return Q, K, V


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None) -> tuple[np.ndarray, np.ndarray]:
    """softmax(Q·Kᵀ · scale, masked) · V, returning ``(output, weights)``.

    Q: (..., n, d_k), K: (..., n_k, d_k), V: (..., n_k, d_v); mask: boolean, broadcastable to
    (..., n, n_k), True where a query may attend to a key; scale: the factor applied to
    the scores, 1/√d when None (as in PyTorch). Returns output (..., n, d_v) and
    weights (..., n, n_k).
    """
    Q = as_float_array(Q, "Q", min_ndim=2)
    K = as_float_array(K, "K", min_ndim=2)
    V = as_float_array(V, "V", min_ndim=2)
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"K and V must have the same length, got K {K.shape} and V {V.shape}")
    batch = batch_shape(("Q", Q.shape, 2), ("K", K.shape, 2), ("V", V.shape, 2))
    check_size((*batch, Q.shape[-2], K.shape[-2]), "the scores Q K^T", Q=Q, K=K)
    check_size((*batch, Q.shape[-2], V.shape[-1]), "the outputs (the weights times V)", Q=Q, V=V)
    given = as_scale(scale)
    scale = 1.0 / np.sqrt(Q.shape[-1]) if given is None else given
    unscaled = scores(Q, K)  # (..., n, n_k): Q and K checked, and refused if their product could overflow
    dtype = np.result_type(Q, K, V)
    _check_scores(Q, K, dtype, float(scale), what="the scaled scores Q K^T * scale overflow", Q=Q, K=K,
                 scale=float(scale))  # fmt: skip
    _check_mixed(V, dtype, "the outputs (the weights times V) overflow", {"V": V})
    with np.errstate(over="ignore", invalid="ignore"):
        S = unscaled * float(scale)  # (..., n, n_k); a Python float keeps float32 input float32
    finite(S, "the scaled scores Q K^T * scale overflow", Q=Q, K=K, scale=float(scale))
    if mask is not None:
        allowed = as_bool_mask(mask, "mask", S.shape)
        S = np.where(allowed, S, -np.inf)
    weights = softmax(S, axis=-1)
    with np.errstate(over="ignore", invalid="ignore"):
        output = finite(weights @ V, "the outputs (the weights times V) overflow", V=V)  # (..., n, d_v)
    return output, weights
