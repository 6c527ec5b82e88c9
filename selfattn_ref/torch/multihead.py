"""Multi-head self-attention in PyTorch."""

from __future__ import annotations

import torch

from .._validate import as_bool_mask, divides, heads_and_weights, too_large
from ..multihead import _check_heads
from ._validate import TooLarge, as_float_tensor, check_size, common_dtype, finite, shape
from .attention import scaled_dot_product_attention


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention with ``num_heads`` heads, returning ``(output, weights)``.

    X: (..., n, d_model); W_Q, W_K, W_V, W_O: (d_model, d_model). Head h uses columns
    h·d_head .. (h+1)·d_head - 1 of W_Q, W_K and W_V (d_head = d_model / num_heads),
    attends with scale 1/√d_head, and the heads' outputs are concatenated and multiplied
    by W_O. mask: boolean, broadcastable to (..., n, n). Returns output (..., n, d_model)
    and weights (..., num_heads, n, n).

    With row vectors, ``X @ W`` here is ``torch.nn.Linear`` with weight ``W.T``, so
    ``torch.nn.MultiheadAttention(bias=False)`` with ``in_proj_weight = cat(W_Q.T, W_K.T, W_V.T)``
    and ``out_proj.weight = W_O.T`` computes the same thing.
    """
    X = as_float_tensor(X, "X", min_ndim=2)
    d_model = X.shape[-1]
    num_heads, Ws = _heads_arguments(X, W_Q, W_K, W_V, W_O, num_heads)
    X, *Wl = common_dtype(X, *Ws.values())
    Ws = dict(zip(Ws, Wl, strict=True))
    d_head = d_model // num_heads
    n = X.shape[-2]
    check_size((*X.shape[:-2], num_heads, n, n), "the heads' scores (..., num_heads, n, n)", X=X)
    _check_heads(X, Ws, num_heads, X.dtype)  # the NumPy package's bounds: the same inputs refused

    def split(M):  # (..., n, d_model) -> (..., num_heads, n, d_head)
        return M.reshape(*M.shape[:-1], num_heads, d_head).transpose(-3, -2)

    Q, K, V = (
        split(finite(X @ Ws[w], f"the product X {w} overflows", X=X, **{w: Ws[w]})) for w in ("W_Q", "W_K", "W_V")
    )  # each (..., h, n, d_head)
    if mask is not None:  # checked against the scores (..., n, n) the caller's X gives, then shared by the heads
        mask = as_bool_mask(mask, "mask", (*X.shape[:-2], n, n))[..., None, :, :]  # (..., 1, n, n)
    try:
        heads, weights = scaled_dot_product_attention(Q, K, V, mask=mask)  # (..., h, n, d_head), (..., h, n, n)
    except TooLarge as exc:  # the heads' Q, K, V are ours: name the caller's arguments
        names = ("W_Q", "W_K") if "scores" in exc.what else ("W_V",)
        raise too_large(f"in the heads, {exc.what}", {"X": X, **{w: Ws[w] for w in names}}, Q.dtype) from None
    concat = heads.transpose(-3, -2).reshape(*X.shape[:-2], n, d_model)  # (..., n, h·d_head)
    output = finite(concat @ Ws["W_O"], "the output (the heads times W_O) overflows", X=X, W_V=Ws["W_V"], W_O=Ws["W_O"])
    return output, weights  # (..., n, d_model)


def _heads_arguments(X, W_Q, W_K, W_V, W_O, num_heads) -> tuple[int, dict[str, torch.Tensor]]:
    """num_heads as an int and W_Q, W_K, W_V, W_O as checked tensors (d_model, d_model) for X
    (..., n, d_model); a ValueError naming the argument otherwise (the NumPy package's reader)."""
    return heads_and_weights(as_float_tensor, X, num_heads, W_Q, W_K, W_V, W_O)


def split_heads(M, num_heads) -> torch.Tensor:
    """The columns of ``M`` cut into ``num_heads`` heads, each head an axis of its own.

    M: (..., n, num_heads·d_head) -> (..., num_heads, n, d_head). Head h gets columns
    h·d_head .. (h+1)·d_head - 1, as in :func:`multi_head_attention`: a reshape to
    (..., n, num_heads, d_head), then the two middle axes swapped, which is what real code writes as
    ``q.view(B, T, h, d_head).transpose(1, 2)``.
    """
    M = as_float_tensor(M, "M", min_ndim=2)
    num_heads = divides(num_heads, M.shape[-1], "num_heads", f"the width of M, got M {shape(M)}")
    split = M.reshape(*M.shape[:-1], num_heads, M.shape[-1] // num_heads)  # (..., n, h, d_head)
    return split.transpose(-3, -2)  # (..., h, n, d_head)


def join_heads(M) -> torch.Tensor:
    """The heads of ``M`` put back side by side, the inverse of :func:`split_heads`.

    M: (..., num_heads, n, d_head) -> (..., n, num_heads·d_head): head 1's columns, then head 2's,
    and so on (Concat(head_1, ..., head_h) of the multi-head formula).
    """
    M = as_float_tensor(M, "M", min_ndim=3)
    swapped = M.transpose(-3, -2)  # (..., n, h, d_head)
    return swapped.reshape(*swapped.shape[:-2], swapped.shape[-2] * swapped.shape[-1])  # (..., n, h·d_head)
