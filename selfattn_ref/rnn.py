"""A tiny RNN encoder and the attention an RNN decoder uses over its states.

This is the setting attention was first invented for (Bahdanau et al., 2014): the
decoder's state ``s`` scores every encoder state ``H[j]`` and reads a weighted sum of them,
with additive scoring (Bahdanau) or a dot product (Luong).

Names, as on the page ``docs/rnn-comparison.md``: the encoder's weights are ``W_xh`` (input to
hidden) and ``W_hh`` (hidden to hidden); additive attention's are ``W_s`` (decoder state to
attention units), ``W_h`` (encoder state to attention units) and ``v``.
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    as_bool_mask,
    as_float_array,
    batch_shape,
    check_bound,
    check_size,
    finite,
    magnitudes,
    product_bound,
)
from .attention import _check_mixed, softmax


def rnn_encoder(X, W_xh, W_hh, b=None, h0=None) -> np.ndarray:
    """Hidden states of a tanh RNN, h_t = tanh(X[t]·W_xh + h_{t-1}·W_hh + b).

    X: (n, d_in); W_xh: (d_in, d_h); W_hh: (d_h, d_h); b: (d_h,) or None; h0: (d_h,) or
    None for zeros. Returns H: (n, d_h), one state per token, computed one after another.
    """
    X = as_float_array(X, "X", ndim=2)
    W_xh = as_float_array(W_xh, "W_xh", ndim=2)
    W_hh = as_float_array(W_hh, "W_hh", ndim=2)
    d_h = W_hh.shape[0]
    if W_xh.shape[0] != X.shape[1] or W_xh.shape[1] != d_h or W_hh.shape != (d_h, d_h):
        raise ValueError(
            f"shapes do not fit: X {X.shape}, W_xh {W_xh.shape}, W_hh {W_hh.shape}; "
            "need W_xh (d_in, d_h) and W_hh (d_h, d_h)"
        )
    check_size((X.shape[0], d_h), "the states (n, d_h)", X=X, W_hh=W_hh)
    zeros = np.zeros(d_h, dtype=np.result_type(X, W_xh, W_hh))  # float32 in, float32 out
    b = zeros if b is None else as_float_array(b, "b", ndim=1)
    h = zeros if h0 is None else as_float_array(h0, "h0", ndim=1)
    if b.shape != (d_h,) or h.shape != (d_h,):
        raise ValueError(f"b and h0 must have shape ({d_h},), got b {b.shape} and h0 {h.shape}")
    operands = {"X": X, "W_xh": W_xh, "W_hh": W_hh}  # the caller's arguments, to name on overflow
    if b is not zeros:
        operands["b"] = b
    if h0 is not None:
        operands["h0"] = h
    _check_steps(X, W_xh, W_hh, b, h, operands, np.result_type(X, W_xh, W_hh, b, h))
    states = []
    for t, x in enumerate(X, 1):  # sequential: step t needs h_{t-1}
        with np.errstate(over="ignore", invalid="ignore"):
            before = finite(x @ W_xh + h @ W_hh + b, f"at step {t}, the input to tanh overflows", **operands)
        h = np.tanh(before)  # (d_h,)
        states.append(h)
    return np.stack(states)  # (n, d_h)


def _check_steps(X, W_xh, W_hh, b, h0, operands: dict, dtype) -> None:
    """Refuse an RNN's arguments (both packages) with which the input to tanh could overflow at some
    step: |x_t| |W_xh| + |h| |W_hh| + |b|, where h is h0 at the first step and at most 1 in size after
    (tanh's values)."""
    with np.errstate(over="ignore", invalid="ignore"):
        inputs = product_bound(X, W_xh) + magnitudes(b)  # (n, d_h)
        first = magnitudes(h0) @ magnitudes(W_hh)  # (d_h,)
        later = magnitudes(W_hh).sum(axis=0)  # (d_h,): |h| at most 1
        bound = inputs + np.where(np.arange(len(inputs))[:, None] == 0, first, later)
    terms = np.shape(X)[1] + np.shape(W_hh)[0] + 1
    for t, row in enumerate(bound, 1):
        check_bound(row, f"at step {t}, the input to tanh overflows", dtype, operands, terms)


def _additive_inputs(s, H, W_s, W_h, v):
    s = as_float_array(s, "s", min_ndim=1)
    H = as_float_array(H, "H", min_ndim=2)
    W_s = as_float_array(W_s, "W_s", ndim=2)
    W_h = as_float_array(W_h, "W_h", ndim=2)
    v = as_float_array(v, "v", ndim=1)
    if W_s.shape[0] != s.shape[-1] or W_h.shape[0] != H.shape[-1] or not (W_s.shape[1] == W_h.shape[1] == v.shape[0]):
        raise ValueError(
            f"shapes do not fit: s {s.shape}, H {H.shape}, W_s {W_s.shape}, W_h {W_h.shape}, v {v.shape}; "
            "need W_s (d_s, d_a), W_h (d_h, d_a), v (d_a,)"
        )
    batch = batch_shape(("s", s.shape, 1), ("H", H.shape, 2))
    check_size((*batch, H.shape[-2], W_h.shape[1]), "the input to tanh s W_s + H W_h", H=H, W_h=W_h)
    _check_additive(s, H, W_s, W_h, v, np.result_type(s, H, W_s, W_h, v))
    return s, H, W_s, W_h, v


def _check_additive(s, H, W_s, W_h, v, dtype) -> None:
    """Refuse additive attention's arguments (both packages) whose input to tanh, or scores v . tanh,
    could overflow (tanh is at most 1 in size)."""
    with np.errstate(over="ignore", invalid="ignore"):
        before = product_bound(s, W_s)[..., None, :] + product_bound(H, W_h)  # (..., n, d_a)
    named = {"s": s, "H": H, "W_s": W_s, "W_h": W_h}
    check_bound(before, "the input to tanh s W_s + H W_h overflows", dtype, named, np.shape(W_s)[0] + np.shape(W_h)[0])
    with np.errstate(over="ignore"):
        sizes = magnitudes(v).sum()
    check_bound(sizes, "the scores v . tanh(...) overflow", dtype, {"v": v}, np.shape(v)[0])


def additive_scores(s, H, W_s, W_h, v) -> np.ndarray:
    """The scores of :func:`additive_attention` before the softmax.

    score_j = v · tanh(s·W_s + H[j]·W_h). s: (..., d_s); H: (..., n, d_h);
    W_s: (d_s, d_a); W_h: (d_h, d_a); v: (d_a,) -> (..., n).
    """
    s, H, W_s, W_h, v = _additive_inputs(s, H, W_s, W_h, v)
    with np.errstate(over="ignore", invalid="ignore"):
        before = (s @ W_s)[..., None, :] + H @ W_h  # (..., 1, d_a) + (..., n, d_a) -> (..., n, d_a)
        finite(before, "the input to tanh s W_s + H W_h overflows", s=s, H=H, W_s=W_s, W_h=W_h)
        return finite(np.tanh(before) @ v, "the scores v . tanh(...) overflow", v=v)  # (..., n)


def _context(weights, H):
    """weights (..., n) times H (..., n, d_h) -> (..., d_h), refusing an overflow."""
    with np.errstate(over="ignore", invalid="ignore"):
        context = (weights[..., None, :] @ H)[..., 0, :]  # (..., 1, n) @ (..., n, d_h) -> (..., d_h)
    return finite(context, "the context (the weights times H) overflows", H=H)


def additive_attention(s, H, W_s, W_h, v, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """Bahdanau (additive) attention of a decoder state over encoder states.

    score_j = v · tanh(s·W_s + H[j]·W_h); weights = softmax(scores); context = weights·H.
    s: (..., d_s); H: (..., n, d_h); W_s: (d_s, d_a); W_h: (d_h, d_a); v: (d_a,);
    mask: boolean (..., n), True where the state may be read. Returns context (..., d_h)
    and weights (..., n).
    """
    e = additive_scores(s, H, W_s, W_h, v)  # (..., n), checks every argument
    H = as_float_array(H, "H", min_ndim=2)
    _check_mixed(H, np.result_type(e, H), "the context (the weights times H) overflows", {"H": H})
    if mask is not None:
        e = np.where(_state_mask(mask, e.shape), e, -np.inf)
    weights = softmax(e, axis=-1)  # (..., n)
    return _context(weights, H), weights


def _state_mask(mask, shape: tuple[int, ...]) -> np.ndarray:
    """additive_attention's ``mask`` as a boolean array of the scores' ``shape`` (..., n): checked as
    every mask is, with the shapes the caller gave (both packages)."""
    need = "every decoder state needs at least one encoder state to read"
    return as_bool_mask(mask, "mask", shape, min_ndim=1, need=need)


def dot_scores(s, H) -> np.ndarray:
    """The scores of :func:`dot_attention` before the softmax: s · H[j] for every j.

    s: (..., d_h); H: (..., n, d_h) -> (..., n).
    """
    s = as_float_array(s, "s", min_ndim=1)
    H = as_float_array(H, "H", min_ndim=2)
    if s.shape[-1] != H.shape[-1]:
        raise ValueError(f"s and H must have the same width, got s {s.shape} and H {H.shape}")
    batch = batch_shape(("s", s.shape, 1), ("H", H.shape, 2))
    check_size((*batch, H.shape[-2]), "the scores s . H[j]", s=s, H=H)
    _check_dot(s, H, np.result_type(s, H))
    with np.errstate(over="ignore", invalid="ignore"):
        return finite((H @ s[..., :, None])[..., 0], "the scores s . H[j] overflow", s=s, H=H)  # (..., n)


def _check_dot(s, H, dtype) -> None:
    """Refuse s and H (both packages) whose scores s . H[j] could overflow."""
    bound = product_bound(H, magnitudes(s)[..., :, None])[..., 0]  # (..., n)
    check_bound(bound, "the scores s . H[j] overflow", dtype, {"s": s, "H": H}, np.shape(s)[-1])


def dot_attention(s, H) -> tuple[np.ndarray, np.ndarray]:
    """Luong's dot-product attention of a decoder state over encoder states.

    score_j = s · H[j]; weights = softmax(scores); context = weights·H.
    s: (..., d_h); H: (..., n, d_h). Returns context (..., d_h) and weights (..., n).
    """
    e = dot_scores(s, H)  # (..., n), checks s and H
    H = as_float_array(H, "H", min_ndim=2)
    _check_mixed(H, np.result_type(e, H), "the context (the weights times H) overflows", {"H": H})
    weights = softmax(e, axis=-1)  # (..., n)
    return _context(weights, H), weights
