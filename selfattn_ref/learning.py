"""How weights are learned, in NumPy: a loss, its gradient, and one step against it.

The toy of the page "How the weights are learned": one query's row of attention weights read as an
answer (which token is the right one), and :func:`attention_loss`, the cross-entropy of that answer
(:func:`cross_entropy`). The gradient of the loss says, for every weight, how fast the loss changes
when that weight changes a little. It is found two ways here: :func:`finite_difference` nudges each
weight and measures (slow, but it needs nothing but the loss), and :func:`attention_gradients` works
backwards through the steps with the chain rule, which is what backpropagation does. NumPy has no
autograd, so that backward pass is written out; ``selfattn_ref.torch.learning`` has the same
functions, its gradients from PyTorch's autograd, and the tests hold the three equal.
:func:`gradient_step` moves a weight against its gradient.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._validate import (
    NESTED,
    as_float_array,
    as_labels,
    call_number,
    check_bound,
    finite,
    magnitudes,
    positive_float,
    product_bound,
    token_index,
    value_text,
)
from .attention import softmax

__all__ = [
    "attention_gradients",
    "attention_loss",
    "cross_entropy",
    "finite_difference",
    "gradient_step",
]


def cross_entropy(logits, labels) -> float:
    """The cross-entropy loss: minus the natural log of the probability (the softmax of the logits)
    given to the right class, averaged over the rows.

    logits: (C,) with one label, or (N, C) with labels (N,); labels are class indices 0 .. C - 1.
    Computed as log-sum-exp minus the right logit, with each row's largest logit subtracted first
    (which changes nothing, as in :func:`selfattn_ref.softmax`), so that no exp() overflows.
    """
    z = as_float_array(logits, "logits", min_ndim=1)
    if z.ndim > 2:
        raise ValueError(f"logits must have shape (C,) or (N, C), got shape {z.shape}")
    y = as_labels(labels, None if z.ndim == 1 else z.shape[0], z.shape[-1])
    z2, y2 = z.reshape(-1, z.shape[-1]), y.reshape(-1)  # (N, C), (N,)
    _check_loss(z, z.dtype)
    top = z2.max(axis=1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        log_p = z2 - top - np.log(np.exp(z2 - top).sum(axis=1, keepdims=True))  # (N, C), ln softmax
        loss = -log_p[np.arange(len(y2)), y2].mean()
    return float(finite(loss, "the loss overflows", logits=z))


def _check_loss(logits, dtype, level: int = 0) -> None:
    """Refuse logits (..., C) (an array, a tensor or a bound; both packages) whose cross-entropy could
    overflow: each row's loss is at most twice the largest size plus ln C, and the mean adds them up."""
    A = magnitudes(logits)
    rows, classes = A.size // A.shape[-1], A.shape[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        bound = rows * (2 * A.max() + np.log(classes))
    check_bound(bound, "the loss overflows", dtype, {"logits": logits}, rows + classes + 2, level)


def _check_attention(X, W_Q, W_K, query: int, dtype, gradients: bool) -> None:
    """Refuse X, W_Q and W_K (both packages) with which the query's scaled scores, the loss on them or,
    with ``gradients``, the gradients for W_Q and W_K could overflow: from bounds on q = x W_Q and
    K = X W_K (the scores' derivative, the weights minus the answer, over √d_k, adds up to at most
    2/√d_k in size)."""
    named = {"X": X, "W_Q": W_Q, "W_K": W_K}
    q, K = product_bound(magnitudes(X)[query], W_Q), product_bound(X, W_K)  # (d_k,), (n, d_k)
    d_model, d_k = np.shape(W_Q)
    with np.errstate(over="ignore", invalid="ignore"):
        logits = K @ q / np.sqrt(d_k)  # (n,)
        check_bound(logits, "the scaled scores overflow", dtype, named, d_model + d_k + 1, NESTED + 1)
        _check_loss(logits, dtype, NESTED)  # cross_entropy, which the loss calls, checks them again
        if gradients:
            slope = 2 / np.sqrt(d_k)
            grad_Q = magnitudes(X)[query][:, None] * (slope * K.max(axis=0))[None, :]  # (d_model, d_k)
            grad_K = magnitudes(X).max(axis=0)[:, None] * (slope * q)[None, :]
            for name, bound in (("W_Q", grad_Q), ("W_K", grad_K)):
                check_bound(bound, f"the gradient for {name} overflows", dtype, named, 2 * len(K) + d_k + 2)


def _attention_inputs(X, W_Q, W_K, query, key, gradients: bool = False):
    X = as_float_array(X, "X", ndim=2)
    n, d_model = X.shape
    Ws = []
    for name, W in (("W_Q", W_Q), ("W_K", W_K)):
        W = as_float_array(W, name, ndim=2)
        if W.shape[0] != d_model:
            raise ValueError(f"{name} must have one row per embedding dimension, got X {X.shape} and {name} {W.shape}")
        Ws.append(W)
    if Ws[0].shape != Ws[1].shape:
        raise ValueError(f"W_Q and W_K must have the same shape, got {Ws[0].shape} and {Ws[1].shape}")
    query, key = token_index(query, "query", n), token_index(key, "key", n)
    _check_attention(X, *Ws, query, np.result_type(X, *Ws), gradients)  # refused here, with the caller's names
    return X, Ws[0], Ws[1], query, key


def _logits(X, W_Q, W_K, query: int) -> np.ndarray:
    """The query's row of scaled scores (n,); a ValueError naming X, W_Q and W_K when they overflow."""
    with np.errstate(over="ignore", invalid="ignore"):
        logits = (X[query] @ W_Q) @ (X @ W_K).T / np.sqrt(W_Q.shape[1])  # (d_k,) @ (d_k, n) -> (n,)
    return finite(logits, "the scaled scores overflow", X=X, W_Q=W_Q, W_K=W_K)


def attention_loss(X, W_Q, W_K, query: int, key: int) -> float:
    """The loss of reading one query's attention row as an answer: the cross-entropy of its scaled
    scores (its logits) for the right key, which is -ln of the weight the query gives that key.

    X: (n, d_model); W_Q, W_K: (d_model, d_k); query, key: token indices, counted from 0 (the
    query whose row is the answer, and the key that is the right answer).
    """
    X, W_Q, W_K, query, key = _attention_inputs(X, W_Q, W_K, query, key)
    return cross_entropy(_logits(X, W_Q, W_K, query), key)


# --8<-- [start:backward]
def attention_gradients(X, W_Q, W_K, query: int, key: int) -> dict[str, np.ndarray]:
    """The gradient of :func:`attention_loss` for W_Q and W_K, by backpropagation.

    Returns ``{"W_Q", "W_K"}``, each (d_model, d_k): entry [r, c] is how fast the loss changes
    per unit change of that entry of the weight. The forward pass runs again, then each step's
    gradient is worked out from the next one's (the chain rule), from the loss back to the weights.
    """
    X, W_Q, W_K, query, key = _attention_inputs(X, W_Q, W_K, query, key, gradients=True)
    d_k = W_Q.shape[1]
    # forward: the query's row of scores, its weights, the loss -ln weights[key]
    x = X[query]  # (d_model,)
    q, K = x @ W_Q, X @ W_K  # (d_k,), (n, d_k)
    weights = softmax(q @ K.T / np.sqrt(d_k))  # (n,)
    # backward, one step at a time
    d_scores = (weights - np.eye(len(weights))[key]) / np.sqrt(d_k)  # (n,): the weights minus the answer, /√d_k
    d_q = d_scores @ K  # (d_k,): each key pulls the query by its share of the error
    d_K = np.outer(d_scores, q)  # (n, d_k)
    return {"W_Q": np.outer(x, d_q), "W_K": X.T @ d_K}  # q = x W_Q and K = X W_K, run backwards
    # --8<-- [end:backward]


def finite_difference(f: Callable, W, delta: float = 1e-3) -> np.ndarray:
    """The gradient of ``f`` at ``W``, entry by entry, by central differences.

    ``f`` takes an array of the shape of W and returns a number. Entry [r, c] of the result is
    (f(W with [r, c] + δ) - f(W with [r, c] - δ)) / 2δ for δ = ``delta``: the slope of f along
    that entry, measured. W: any shape -> the same shape; 2 calls of f per entry.
    """
    W = as_float_array(W, "W", min_ndim=1)
    if not callable(f):
        raise ValueError(f"f must be a function of W that returns a number, got {value_text(f)}")
    delta = positive_float(delta, "delta")
    grad = np.zeros_like(W)
    for index in np.ndindex(W.shape):
        up, down = W.copy(), W.copy()
        up[index] += delta
        down[index] -= delta
        at = f"at W with entry {index} {{}} delta"
        grad[index] = (call_number(f, up, at.format("+")) - call_number(f, down, at.format("-"))) / (2 * delta)
    return finite(grad, "the finite differences overflow", W=W, delta=delta)


def gradient_step(W, gradient, lr: float) -> np.ndarray:
    """One step of gradient descent: W - lr · gradient. W, gradient: any shape, the same -> that shape."""
    W = as_float_array(W, "W", min_ndim=1)
    gradient = as_float_array(gradient, "gradient", min_ndim=1)
    if gradient.shape != W.shape:
        raise ValueError(f"gradient must have the shape of W, got W {W.shape} and gradient {gradient.shape}")
    lr = positive_float(lr, "lr")
    with np.errstate(over="ignore", invalid="ignore"):
        return finite(W - lr * gradient, "the step W - lr * gradient overflows", W=W, gradient=gradient, lr=lr)
