"""How weights are learned, in PyTorch: the twin of :mod:`selfattn_ref.learning`.

The same functions, names and arguments. The gradients come from PyTorch's autograd
(:func:`attention_gradients` runs the loss forward and calls ``torch.autograd.grad``) where the
NumPy module writes the backward pass out; the tests hold the two equal, and equal to the finite
differences. The other functions keep the gradient of tensors that require it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import torch

from .._validate import as_labels, call_number, positive_float, token_index, value_text
from ..learning import _check_attention, _check_loss
from ._validate import as_float_tensor, common_dtype, finite, shape

__all__ = [
    "attention_gradients",
    "attention_loss",
    "cross_entropy",
    "finite_difference",
    "gradient_step",
]


def cross_entropy(logits, labels) -> torch.Tensor:
    """The cross-entropy loss: minus the natural log of the probability (the softmax of the logits)
    given to the right class, averaged over the rows.

    logits: (C,) with one label, or (N, C) with labels (N,); labels are class indices 0 .. C - 1.
    Returns a 0-d tensor (``torch.nn.functional.cross_entropy``'s number, which the tests compare).
    """
    z = as_float_tensor(logits, "logits", min_ndim=1)
    if z.ndim > 2:
        raise ValueError(f"logits must have shape (C,) or (N, C), got shape {shape(z)}")
    y = torch.from_numpy(as_labels(labels, None if z.ndim == 1 else z.shape[0], z.shape[-1]))
    z2, y2 = z.reshape(-1, z.shape[-1]), y.reshape(-1)  # (N, C), (N,)
    _check_loss(z, z.dtype)  # the NumPy package's bound: the same logits refused
    top = z2.amax(dim=1, keepdim=True)  # as the NumPy twin: each row's largest logit subtracted first
    log_p = z2 - top - torch.log(torch.exp(z2 - top).sum(dim=1, keepdim=True))  # (N, C), ln softmax
    return finite(-log_p[torch.arange(len(y2)), y2].mean(), "the loss overflows", logits=z)


def _attention_inputs(X, W_Q, W_K, query, key, gradients: bool = False):
    X = as_float_tensor(X, "X", ndim=2)
    n, d_model = X.shape
    Ws = []
    for name, W in (("W_Q", W_Q), ("W_K", W_K)):
        W = as_float_tensor(W, name, ndim=2)
        if W.shape[0] != d_model:
            raise ValueError(
                f"{name} must have one row per embedding dimension, got X {shape(X)} and {name} {shape(W)}"
            )
        Ws.append(W)
    if Ws[0].shape != Ws[1].shape:
        raise ValueError(f"W_Q and W_K must have the same shape, got {shape(Ws[0])} and {shape(Ws[1])}")
    query, key = token_index(query, "query", n), token_index(key, "key", n)
    X, W_Q, W_K = common_dtype(X, *Ws)  # float32 with float64 computes in float64, as NumPy does
    _check_attention(X, W_Q, W_K, query, X.dtype, gradients)  # the NumPy package's bounds
    return X, W_Q, W_K, query, key


def attention_loss(X, W_Q, W_K, query: int, key: int) -> torch.Tensor:
    """The loss of reading one query's attention row as an answer: the cross-entropy of its scaled
    scores (its logits) for the right key, which is -ln of the weight the query gives that key.

    X: (n, d_model); W_Q, W_K: (d_model, d_k); query, key: token indices, counted from 0. Returns
    a 0-d tensor, differentiable in W_Q and W_K.
    """
    X, W_Q, W_K, query, key = _attention_inputs(X, W_Q, W_K, query, key)
    logits = (X[query] @ W_Q) @ (X @ W_K).T / math.sqrt(W_Q.shape[1])  # (d_k,) @ (d_k, n) -> (n,)
    return cross_entropy(finite(logits, "the scaled scores overflow", X=X, W_Q=W_Q, W_K=W_K), key)


def attention_gradients(X, W_Q, W_K, query: int, key: int) -> dict[str, torch.Tensor]:
    """The gradient of :func:`attention_loss` for W_Q and W_K, by autograd.

    Returns ``{"W_Q", "W_K"}``, each (d_model, d_k): entry [r, c] is how fast the loss changes
    per unit change of that entry. PyTorch records the forward pass and runs it backwards.
    """
    X, W_Q, W_K, query, key = _attention_inputs(X, W_Q, W_K, query, key, gradients=True)
    # Autograd records the forward pass, also when the caller has switched it off (torch.no_grad,
    # torch.inference_mode) or made the tensors in inference mode: copies that autograd may use.
    with torch.inference_mode(False), torch.enable_grad():
        X, W_Q, W_K = (t.detach().clone() for t in (X, W_Q, W_K))
        W_Q.requires_grad_(True)
        W_K.requires_grad_(True)
        loss = attention_loss(X, W_Q, W_K, query, key)
        d_W_Q, d_W_K = torch.autograd.grad(loss, (W_Q, W_K))
    return {"W_Q": d_W_Q, "W_K": d_W_K}


def finite_difference(f: Callable, W, delta: float = 1e-3) -> torch.Tensor:
    """The gradient of ``f`` at ``W``, entry by entry, by central differences.

    ``f`` takes a tensor of the shape of W and returns a number. Entry [r, c] of the result is
    (f(W with [r, c] + δ) - f(W with [r, c] - δ)) / 2δ for δ = ``delta``. W: any shape -> the same
    shape; 2 calls of f per entry, without autograd.
    """
    W = as_float_tensor(W, "W", min_ndim=1).detach()
    if not callable(f):
        raise ValueError(f"f must be a function of W that returns a number, got {value_text(f)}")
    delta = positive_float(delta, "delta")
    grad = torch.zeros_like(W)
    with torch.no_grad():
        for index in itertools.product(*map(range, W.shape)):
            up, down = W.clone(), W.clone()
            up[index] += delta
            down[index] -= delta
            at = f"at W with entry {index} {{}} delta"
            grad[index] = (call_number(f, up, at.format("+")) - call_number(f, down, at.format("-"))) / (2 * delta)
    return finite(grad, "the finite differences overflow", W=W, delta=delta)


def gradient_step(W, gradient, lr: float) -> torch.Tensor:
    """One step of gradient descent: W - lr · gradient. W, gradient: any shape, the same -> that shape."""
    W = as_float_tensor(W, "W", min_ndim=1)
    gradient = as_float_tensor(gradient, "gradient", min_ndim=1)
    if gradient.shape != W.shape:
        raise ValueError(f"gradient must have the shape of W, got W {shape(W)} and gradient {shape(gradient)}")
    lr = positive_float(lr, "lr")
    return finite(W - lr * gradient, "the step W - lr * gradient overflows", W=W, gradient=gradient, lr=lr)
