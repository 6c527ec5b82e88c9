"""Grouped-query and multi-query attention in PyTorch, the twin of :mod:`selfattn_ref.grouped_query`:
query heads that share key and value heads.

Multi-head attention gives every head its own queries, keys and values. During generation the keys
and values of every earlier token are kept (the KV cache, :mod:`selfattn_ref.torch.kv_cache`), and they
are what fills a GPU's memory; the queries are used once. Grouped-query attention (Ainslie et al.
2023) keeps ``num_heads`` query heads but only ``num_kv_heads`` key and value heads: the query
heads form ``num_kv_heads`` groups of ``num_heads / num_kv_heads`` heads each, and every head of a
group attends with the same keys and values. With ``num_kv_heads = 1`` it is multi-query attention
(Shazeer 2019), with ``num_kv_heads = num_heads`` plain multi-head attention. The cache shrinks by
the factor num_heads / num_kv_heads; the queries, the scores and the output are as many as before.

Query head i uses key and value head i // (num_heads / num_kv_heads): heads 0 and 1 share key
head 0, heads 2 and 3 key head 1, and so on (:func:`repeat_kv`), as
``torch.repeat_interleave`` and ``scaled_dot_product_attention(..., enable_gqa=True)`` pair them.
"""

from __future__ import annotations

import torch

from .._validate import divides, positive_integer, too_large, value_text
from ._validate import TooLarge, as_bool_mask, as_float_tensor, check_size, common_dtype, finite, shape
from .attention import scaled_dot_product_attention
from .multihead import join_heads, split_heads

__all__ = ["grouped_query_attention", "repeat_kv"]


def repeat_kv(K, groups) -> torch.Tensor:
    """Each key (or value) head repeated ``groups`` times in a row, so that every query head has one.

    K: (..., num_kv_heads, n, d_head) -> (..., num_heads, n, d_head), num_heads = num_kv_heads ·
    groups: heads 0, 0, ..., 1, 1, ..., each ``groups`` times
    (``torch.repeat_interleave(K, groups, dim=-3)``, the ``repeat_kv`` of Llama's code), not
    0, 1, 0, 1 (``K.repeat``), which would pair the query heads with the wrong keys.
    """
    K = as_float_tensor(K, "K", min_ndim=3)
    groups = positive_integer(groups, "groups")
    check_size((*K.shape[:-3], K.shape[-3] * groups, *K.shape[-2:]), "the repeated heads", K=K)
    return torch.repeat_interleave(K, groups, dim=-3)  # (..., num_heads, n, d_head)


def grouped_query_attention(
    X, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, mask=None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Self-attention with ``num_heads`` query heads sharing ``num_kv_heads`` key and value heads,
    returning ``(output, weights)``.

    X: (..., n, d_model); W_Q: (d_model, num_heads·d_head); W_K, W_V: (d_model,
    num_kv_heads·d_head); W_O: (num_heads·d_head, d_model); ``num_kv_heads`` divides ``num_heads``.
    Query head i attends with key and value head i // (num_heads / num_kv_heads), scale
    1/√d_head; the heads' outputs are joined and multiplied by W_O. mask: boolean, broadcastable to
    (..., n, n), shared by the heads. Returns output (..., n, d_model) and weights
    (..., num_heads, n, n). With num_kv_heads = num_heads it is
    :func:`selfattn_ref.torch.multi_head_attention`; the keys and values it keeps per token are
    2·num_kv_heads·d_head numbers instead of 2·num_heads·d_head.
    """
    X = as_float_tensor(X, "X", min_ndim=2)
    n, d_model = X.shape[-2], X.shape[-1]
    W_Q = as_float_tensor(W_Q, "W_Q", ndim=2)
    if W_Q.shape[0] != d_model:
        raise ValueError(f"W_Q must have one row per column of X, got X {shape(X)} and W_Q {shape(W_Q)}")
    h = divides(num_heads, W_Q.shape[1], "num_heads", f"the columns of W_Q, got W_Q {shape(W_Q)}")
    h_kv = divides(num_kv_heads, h, "num_kv_heads", f"num_heads ({value_text(h)})")
    d_head = W_Q.shape[1] // h
    W = {"W_Q": W_Q}
    for name, value, want in (
        ("W_K", W_K, (d_model, h_kv * d_head)),
        ("W_V", W_V, (d_model, h_kv * d_head)),
        ("W_O", W_O, (h * d_head, d_model)),
    ):
        W[name] = as_float_tensor(value, name, ndim=2)
        if shape(W[name]) != want:
            raise ValueError(
                f"{name} must have shape {want} for {h_kv} key-value head(s) of {d_head} with X {shape(X)}, "
                f"got {shape(W[name])}"
            )
    check_size((*X.shape[:-2], h, n, n), "the heads' scores (..., num_heads, n, n)", X=X)
    if mask is not None:  # checked against the scores (..., n, n) of X, then shared by the heads
        mask = as_bool_mask(mask, "mask", (*X.shape[:-2], n, n))[..., None, :, :]  # (..., 1, n, n)
    X, *Ws = common_dtype(X, *W.values())
    W = dict(zip(W, Ws, strict=True))
    projected = {w: finite(X @ W[w], f"the product X {w} overflows", X=X, **{w: W[w]}) for w in ("W_Q", "W_K", "W_V")}
    Q = split_heads(projected["W_Q"], h)  # (..., h, n, d_head)
    K = repeat_kv(split_heads(projected["W_K"], h_kv), h // h_kv)  # (..., h_kv, n, d_head) -> (..., h, n, d_head)
    V = repeat_kv(split_heads(projected["W_V"], h_kv), h // h_kv)  # (..., h, n, d_head)
    try:
        heads, weights = scaled_dot_product_attention(Q, K, V, mask=mask)  # (..., h, n, d_head), (..., h, n, n)
    except TooLarge as exc:  # the heads' Q, K, V are ours: name the caller's arguments
        names = ("W_Q", "W_K") if "scores" in exc.what else ("W_V",)
        raise too_large(f"in the heads, {exc.what}", {"X": X, **{w: W[w] for w in names}}, X.dtype) from None
    output = join_heads(heads) @ W["W_O"]  # (..., n, d_model)
    return finite(output, "the output (the heads times W_O) overflows", X=X, W_V=W["W_V"], W_O=W["W_O"]), weights
