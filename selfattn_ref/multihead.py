"""Multi-head self-attention in NumPy."""

from __future__ import annotations

import numpy as np

from ._validate import (
    NESTED,
    TooLarge,
    as_bool_mask,
    as_float_array,
    check_bound,
    check_size,
    divides,
    finite,
    heads_and_weights,
    product_bound,
    too_large,
)
from .attention import _check_scores, scaled_dot_product_attention


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """Self-attention with ``num_heads`` heads, returning ``(output, weights)``.

    X: (..., n, d_model); W_Q, W_K, W_V, W_O: (d_model, d_model). Head h uses columns
    h·d_head .. (h+1)·d_head - 1 of W_Q, W_K and W_V (d_head = d_model / num_heads),
    attends with scale 1/√d_head, and the heads' outputs are concatenated and multiplied
    by W_O. mask: boolean, broadcastable to (..., n, n). Returns output (..., n, d_model)
    and weights (..., num_heads, n, n).

    With row vectors, ``X @ W`` here is ``torch.nn.Linear`` with weight ``W.T``.
    """
    X = as_float_array(X, "X", min_ndim=2)
    d_model = X.shape[-1]
    num_heads, Ws = _heads_arguments(X, W_Q, W_K, W_V, W_O, num_heads)
    d_head = d_model // num_heads
    n = X.shape[-2]
    check_size((*X.shape[:-2], num_heads, n, n), "the heads' scores (..., num_heads, n, n)", X=X)

    _check_heads(X, Ws, num_heads, np.result_type(X, *Ws.values()))

    def split(M):  # (..., n, d_model) -> (..., num_heads, n, d_head)
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, d_head), -2, -3)

    with np.errstate(over="ignore", invalid="ignore"):
        Q, K, V = (
            split(finite(X @ Ws[w], f"the product X {w} overflows", X=X, **{w: Ws[w]})) for w in ("W_Q", "W_K", "W_V")
        )
    if mask is not None:  # checked against the scores (..., n, n) the caller's X gives, then shared by the heads
        mask = as_bool_mask(mask, "mask", (*X.shape[:-2], n, n))[..., None, :, :]  # (..., 1, n, n)
    try:
        heads, weights = scaled_dot_product_attention(Q, K, V, mask=mask)  # (..., h, n, d_head), (..., h, n, n)
    except TooLarge as exc:  # the heads' Q, K, V are ours: name the caller's arguments
        names = ("W_Q", "W_K") if "scores" in exc.what else ("W_V",)
        raise too_large(f"in the heads, {exc.what}", {"X": X, **{w: Ws[w] for w in names}}, Q.dtype) from None
    concat = np.swapaxes(heads, -2, -3).reshape(*X.shape[:-2], n, d_model)  # (..., n, h·d_head)
    with np.errstate(over="ignore", invalid="ignore"):
        output = finite(
            concat @ Ws["W_O"], "the output (the heads times W_O) overflows", X=X, W_V=Ws["W_V"], W_O=Ws["W_O"]
        )
    return output, weights


def _heads_arguments(X, W_Q, W_K, W_V, W_O, num_heads) -> tuple[int, dict[str, np.ndarray]]:
    """num_heads as an int and W_Q, W_K, W_V, W_O as checked arrays (d_model, d_model) for X
    (..., n, d_model); a ValueError naming the argument otherwise."""
    return heads_and_weights(as_float_array, X, num_heads, W_Q, W_K, W_V, W_O)


def _check_heads(X, Ws: dict, num_heads: int, dtype, level: int = NESTED, turn=None) -> np.ndarray:
    """Refuse, naming the caller's arguments, an X and W_Q, W_K, W_V, W_O (arrays or tensors, both
    packages) with which anything multi-head attention computes could overflow, from bounds on its
    projections: their product, each head's scores (as they are and divided by √d_head), the values
    its weights mix, and the heads' outputs times W_O. One ``level`` below the checks of the
    functions it calls (scaled_dot_product_attention's, on the heads' Q, K, V). ``turn``: for a layer
    that turns its queries and keys by their positions (a KV cache with rotary positions), the bound
    of the turned entries from the bound of the entries (:func:`selfattn_ref.rotary._turned_bound`)."""
    d_model = X.shape[-1]
    d_head = d_model // num_heads
    B = {}
    for w in ("W_Q", "W_K", "W_V"):
        B[w] = product_bound(X, Ws[w])  # (..., n, d_model)
        check_bound(B[w], f"the product X {w} overflows", dtype, {"X": X, w: Ws[w]}, d_model, level)
    if turn is not None:  # each head's queries and keys turned, pair by pair
        for w in ("W_Q", "W_K"):
            B[w] = turn(B[w])
            check_bound(B[w], "in the heads, the turned pairs overflow", dtype, {"X": X, w: Ws[w]}, d_model + 2, level)
    named = {"X": X, "W_Q": Ws["W_Q"], "W_K": Ws["W_K"]}
    for h in range(num_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        for factor, what in ((1.0, "the scores Q K^T"), (1 / np.sqrt(d_head), "the scaled scores Q K^T * scale")):
            _check_scores(B["W_Q"][..., cols], B["W_K"][..., cols], dtype, factor, level,
                         f"in the heads, {what} overflow", **named)  # fmt: skip
    mixed = B["W_V"].max(axis=-2, keepdims=True)  # (..., 1, d_model): no weighted sum of a head is larger
    values = {"X": X, "W_V": Ws["W_V"]}
    check_bound(
        mixed, "in the heads, the outputs (the weights times V) overflow", dtype, values, X.shape[-2] + 1, level
    )
    named = {"X": X, "W_V": Ws["W_V"], "W_O": Ws["W_O"]}
    bound = product_bound(mixed, Ws["W_O"])  # (..., 1, d_model)
    check_bound(bound, "the output (the heads times W_O) overflows", dtype, named, X.shape[-2] + d_model + 1, level)
    return np.broadcast_to(bound, X.shape)  # the bound of the output, for a block's residual sum


def split_heads(M, num_heads) -> np.ndarray:
    """The columns of ``M`` cut into ``num_heads`` heads, each head an axis of its own.

    M: (..., n, num_heads·d_head) -> (..., num_heads, n, d_head). Head h gets columns
    h·d_head .. (h+1)·d_head - 1, as in :func:`multi_head_attention`: a reshape to
    (..., n, num_heads, d_head), then the two middle axes swapped, which is what real code writes as
    ``q.view(B, T, h, d_head).transpose(1, 2)``.
    """
    M = as_float_array(M, "M", min_ndim=2)
    num_heads = divides(num_heads, M.shape[-1], "num_heads", f"the width of M, got M {M.shape}")
    split = M.reshape(*M.shape[:-1], num_heads, M.shape[-1] // num_heads)  # (..., n, h, d_head)
    return np.swapaxes(split, -2, -3)  # (..., h, n, d_head)


def join_heads(M) -> np.ndarray:
    """The heads of ``M`` put back side by side, the inverse of :func:`split_heads`.

    M: (..., num_heads, n, d_head) -> (..., n, num_heads·d_head): head 1's columns, then head 2's,
    and so on (Concat(head_1, ..., head_h) of the multi-head formula).
    """
    M = as_float_array(M, "M", min_ndim=3)
    swapped = np.swapaxes(M, -2, -3)  # (..., n, h, d_head)
    return swapped.reshape(*swapped.shape[:-2], swapped.shape[-2] * swapped.shape[-1])  # (..., n, h·d_head)
