"""Multi-head self-attention in NumPy."""

from __future__ import annotations

import numpy as np

from ._validate import TooLarge, as_float_array, check_size, finite, mask_array, positive_integer, too_large, value_text
from .attention import scaled_dot_product_attention


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
    num_heads = positive_integer(num_heads, "num_heads")
    if d_model % num_heads:
        raise ValueError(f"num_heads={value_text(num_heads, parens=True)} must divide the width of X, got X {X.shape}")
    Ws = {}
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V), ("W_O", W_O)):
        W = as_float_array(W, name, ndim=2)
        if W.shape != (d_model, d_model):
            raise ValueError(f"{name} must have shape ({d_model}, {d_model}) to match X {X.shape}, got {W.shape}")
        Ws[name] = W
    d_head = d_model // num_heads
    n = X.shape[-2]
    check_size((*X.shape[:-2], num_heads, n, n), "the heads' scores (..., num_heads, n, n)", X=X)

    def split(M):  # (..., n, d_model) -> (..., num_heads, n, d_head)
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, d_head), -2, -3)

    with np.errstate(over="ignore", invalid="ignore"):
        Q, K, V = (
            split(finite(X @ Ws[w], f"the product X {w} overflows", X=X, **{w: Ws[w]})) for w in ("W_Q", "W_K", "W_V")
        )
    if mask is not None:
        mask = mask_array(mask, "mask")
        if mask.ndim >= 3:  # (..., n, n) -> (..., 1, n, n), shared by the heads
            mask = mask[..., None, :, :]
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


def split_heads(M, num_heads) -> np.ndarray:
    """The columns of ``M`` cut into ``num_heads`` heads, each head an axis of its own.

    M: (..., n, num_heads·d_head) -> (..., num_heads, n, d_head). Head h gets columns
    h·d_head .. (h+1)·d_head - 1, as in :func:`multi_head_attention`: a reshape to
    (..., n, num_heads, d_head), then the two middle axes swapped, which is what real code writes as
    ``q.view(B, T, h, d_head).transpose(1, 2)``.
    """
    M = as_float_array(M, "M", min_ndim=2)
    num_heads = positive_integer(num_heads, "num_heads")
    if M.shape[-1] % num_heads:
        raise ValueError(f"num_heads={value_text(num_heads, parens=True)} must divide the width of M, got M {M.shape}")
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
