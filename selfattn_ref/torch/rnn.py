"""A tiny RNN encoder and the attention an RNN decoder uses over its states, in PyTorch.

The twin of :mod:`selfattn_ref.rnn`: the same names, arguments and results. The encoder's
weights are ``W_xh`` (input to hidden) and ``W_hh`` (hidden to hidden); additive attention's
are ``W_s`` (decoder state to attention units), ``W_h`` (encoder state to attention units) and ``v``.
"""

from __future__ import annotations

import math

import torch

from ..attention import _check_mixed
from ..rnn import _check_additive, _check_dot, _check_steps, _state_mask
from ._validate import as_float_tensor, batch_shape, check_size, common_dtype, finite, from_numpy, shape
from .attention import softmax


def rnn_encoder(X, W_xh, W_hh, b=None, h0=None) -> torch.Tensor:
    """Hidden states of a tanh RNN, h_t = tanh(X[t]·W_xh + h_{t-1}·W_hh + b).

    X: (n, d_in); W_xh: (d_in, d_h); W_hh: (d_h, d_h); b: (d_h,) or None; h0: (d_h,) or
    None for zeros. Returns H: (n, d_h), one state per token, computed one after another.
    """
    X = as_float_tensor(X, "X", ndim=2)
    W_xh = as_float_tensor(W_xh, "W_xh", ndim=2)
    W_hh = as_float_tensor(W_hh, "W_hh", ndim=2)
    d_h = W_hh.shape[0]
    if W_xh.shape[0] != X.shape[1] or W_xh.shape[1] != d_h or tuple(W_hh.shape) != (d_h, d_h):
        raise ValueError(
            f"shapes do not fit: X {shape(X)}, W_xh {shape(W_xh)}, W_hh {shape(W_hh)}; "
            "need W_xh (d_in, d_h) and W_hh (d_h, d_h)"
        )
    check_size((X.shape[0], d_h), "the states (n, d_h)", X=X, W_hh=W_hh)
    zeros = torch.zeros(d_h, dtype=common_dtype(X, W_xh, W_hh)[0].dtype)  # float32 in, float32 out
    b = zeros if b is None else as_float_tensor(b, "b", ndim=1)
    h = zeros if h0 is None else as_float_tensor(h0, "h0", ndim=1)
    if tuple(b.shape) != (d_h,) or tuple(h.shape) != (d_h,):
        raise ValueError(f"b and h0 must have shape ({d_h},), got b {shape(b)} and h0 {shape(h)}")
    operands = {"X": X, "W_xh": W_xh, "W_hh": W_hh}  # the caller's arguments, to name on overflow
    if b is not zeros:
        operands["b"] = b
    if h0 is not None:
        operands["h0"] = h
    X, W_xh, W_hh, b, h = common_dtype(X, W_xh, W_hh, b, h)
    _check_steps(X, W_xh, W_hh, b, h, operands, X.dtype)  # the NumPy package's bounds: the same inputs refused
    states = []
    for t, x in enumerate(X, 1):  # sequential: step t needs h_{t-1}
        before = finite(x @ W_xh + h @ W_hh + b, f"at step {t}, the input to tanh overflows", **operands)
        h = torch.tanh(before)  # (d_h,)
        states.append(h)
    return torch.stack(states)  # (n, d_h)


def additive_scores(s, H, W_s, W_h, v) -> torch.Tensor:
    """The scores of :func:`additive_attention` before the softmax.

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
    batch = batch_shape(("s", shape(s), 1), ("H", shape(H), 2))
    check_size((*batch, H.shape[-2], W_h.shape[1]), "the input to tanh s W_s + H W_h", H=H, W_h=W_h)
    s, H, W_s, W_h, v = common_dtype(s, H, W_s, W_h, v)
    _check_additive(s, H, W_s, W_h, v, s.dtype)
    before = (s @ W_s)[..., None, :] + H @ W_h  # (..., 1, d_a) + (..., n, d_a) -> (..., n, d_a)
    finite(before, "the input to tanh s W_s + H W_h overflows", s=s, H=H, W_s=W_s, W_h=W_h)
    return finite(torch.tanh(before) @ v, "the scores v . tanh(...) overflow", v=v)  # (..., n)


def additive_attention(s, H, W_s, W_h, v, mask=None) -> tuple[torch.Tensor, torch.Tensor]:
    """Bahdanau (additive) attention of a decoder state over encoder states.

    score_j = v · tanh(s·W_s + H[j]·W_h); weights = softmax(scores); context = weights·H.
    s: (..., d_s); H: (..., n, d_h); W_s: (d_s, d_a); W_h: (d_h, d_a); v: (d_a,);
    mask: boolean (..., n), True where the state may be read. Returns context (..., d_h)
    and weights (..., n).
    """
    e = additive_scores(s, H, W_s, W_h, v)  # (..., n), checks every argument
    H = as_float_tensor(H, "H", min_ndim=2).to(e.dtype)
    _check_mixed(H, H.dtype, "the context (the weights times H) overflows", {"H": H})
    if mask is not None:
        allowed = from_numpy(_state_mask(mask, shape(e)))  # (..., n): the NumPy package's checks and messages
        e = e.masked_fill(~allowed, -math.inf)
    weights = softmax(e, axis=-1)  # (..., n)
    context = (weights[..., None, :] @ H)[..., 0, :]  # (..., 1, n) @ (..., n, d_h) -> (..., d_h)
    return finite(context, "the context (the weights times H) overflows", H=H), weights


def dot_scores(s, H) -> torch.Tensor:
    """The scores of :func:`dot_attention` before the softmax: s · H[j] for every j.

    s: (..., d_h); H: (..., n, d_h) -> (..., n).
    """
    s = as_float_tensor(s, "s", min_ndim=1)
    H = as_float_tensor(H, "H", min_ndim=2)
    if s.shape[-1] != H.shape[-1]:
        raise ValueError(f"s and H must have the same width, got s {shape(s)} and H {shape(H)}")
    batch = batch_shape(("s", shape(s), 1), ("H", shape(H), 2))
    check_size((*batch, H.shape[-2]), "the scores s . H[j]", s=s, H=H)
    s, H = common_dtype(s, H)
    _check_dot(s, H, s.dtype)
    return finite((H @ s[..., :, None])[..., 0], "the scores s . H[j] overflow", s=s, H=H)  # (..., n)


def dot_attention(s, H) -> tuple[torch.Tensor, torch.Tensor]:
    """Luong's dot-product attention of a decoder state over encoder states.

    score_j = s · H[j]; weights = softmax(scores); context = weights·H.
    s: (..., d_h); H: (..., n, d_h). Returns context (..., d_h) and weights (..., n).
    """
    e = dot_scores(s, H)  # (..., n), checks s and H
    H = as_float_tensor(H, "H", min_ndim=2).to(e.dtype)
    _check_mixed(H, H.dtype, "the context (the weights times H) overflows", {"H": H})
    weights = softmax(e, axis=-1)  # (..., n)
    context = (weights[..., None, :] @ H)[..., 0, :]  # (..., 1, n) @ (..., n, d_h) -> (..., d_h)
    return finite(context, "the context (the weights times H) overflows", H=H), weights
