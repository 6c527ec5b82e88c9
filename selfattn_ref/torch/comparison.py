"""Self-attention next to attention in an RNN encoder-decoder, in PyTorch.

The same names and signatures as :mod:`selfattn_ref.comparison`: the two scoring
functions an RNN decoder uses over the encoder's states. :func:`compare` counts with
integers, so it is the NumPy module's function itself.
"""

from __future__ import annotations

import torch

from ..comparison import compare
from ._validate import as_float_tensor, batch_shape, common_dtype, finite, shape
from .attention import softmax

__all__ = ["additive_scores", "compare", "dot_attention", "dot_scores"]


def dot_scores(s, H) -> torch.Tensor:
    """The scores of :func:`dot_attention` before the softmax: s · H[j] for every j.

    s: (..., d_h); H: (..., n, d_h) -> (..., n).
    """
    s = as_float_tensor(s, "s", min_ndim=1)
    H = as_float_tensor(H, "H", min_ndim=2)
    if s.shape[-1] != H.shape[-1]:
        raise ValueError(f"s and H must have the same width, got s {shape(s)} and H {shape(H)}")
    batch_shape(("s", shape(s), 1), ("H", shape(H), 2))
    s, H = common_dtype(s, H)
    return finite((H @ s[..., :, None])[..., 0], "the scores s . H[j] overflow", s=s, H=H)  # (..., n)


def dot_attention(s, H) -> tuple[torch.Tensor, torch.Tensor]:
    """Luong's dot-product attention of a decoder state over encoder states.

    score_j = s · H[j]; weights = softmax(scores); context = weights·H.
    s: (..., d_h); H: (..., n, d_h). Returns context (..., d_h) and weights (..., n).
    """
    e = dot_scores(s, H)  # (..., n), checks s and H
    H = as_float_tensor(H, "H", min_ndim=2).to(e.dtype)
    weights = softmax(e, axis=-1)  # (..., n)
    context = (weights[..., None, :] @ H)[..., 0, :]  # (..., 1, n) @ (..., n, d_h) -> (..., d_h)
    return finite(context, "the context (the weights times H) overflows", H=H), weights


def additive_scores(s, H, W_s, W_h, v) -> torch.Tensor:
    """The scores of :func:`selfattn_ref.torch.additive_attention` before the softmax.

    score_j = v · tanh(s·W_s + H[j]·W_h). s: (..., d_s); H: (..., n, d_h);
    W_s: (d_s, d_a); W_h: (d_h, d_a); v: (d_a,) -> (..., n).
    """
    s = as_float_tensor(s, "s", min_ndim=1)
    H = as_float_tensor(H, "H", min_ndim=2)
    W_s = as_float_tensor(W_s, "W_s", ndim=2)
    W_h = as_float_tensor(W_h, "W_h", ndim=2)
    v = as_float_tensor(v, "v", ndim=1)
    if W_s.shape[0] != s.shape[-1] or W_h.shape[0] != H.shape[-1] or not (W_s.shape[1] == W_h.shape[1] == v.shape[0]):
        raise ValueError(
            f"shapes do not fit: s {shape(s)}, H {shape(H)}, W_s {shape(W_s)}, W_h {shape(W_h)}, v {shape(v)}; "
            "need W_s (d_s, d_a), W_h (d_h, d_a), v (d_a,)"
        )
    batch_shape(("s", shape(s), 1), ("H", shape(H), 2))
    s, H, W_s, W_h, v = common_dtype(s, H, W_s, W_h, v)
    before = (s @ W_s)[..., None, :] + H @ W_h  # (..., 1, d_a) + (..., n, d_a) -> (..., n, d_a)
    finite(before, "the input to tanh s W_s + H W_h overflows", s=s, H=H, W_s=W_s, W_h=W_h)
    return finite(torch.tanh(before) @ v, "the scores v . tanh(...) overflow", v=v)  # (..., n)
