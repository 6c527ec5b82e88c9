"""Batched multi-head causal self-attention in NumPy, written line by line as real code writes it.

This is the layer of a decoder such as GPT-2, in the form of nanoGPT's ``CausalSelfAttention``: a
batch of sentences padded to one length goes in as one array, the heads become an axis of their own
(a reshape, then a transpose), the causal mask and the padding mask are combined into one, and the
heads are put back side by side and projected. :func:`causal_self_attention` returns every
intermediate array and the shape after every line; its PyTorch twin,
``selfattn_ref.torch.batched``, also has the layer as a ``torch.nn.Module`` that keeps the causal
mask as a buffer.

The code names the sizes as such code does: ``B`` sentences (the batch), ``T`` tokens each (the
site's n), ``C`` the width of a vector (d_model) and ``h`` heads of ``C // h`` entries (d_head).
The comments give the shape after each line, ``# (B, h, T, d_head)``. Vectors are rows, as
everywhere on the site: ``X @ W_Q`` is ``torch.nn.Linear`` with weight ``W_Q.T``. Masks are True where
a query may attend to a key, as in ``torch.nn.functional.scaled_dot_product_attention``;
``torch.nn.MultiheadAttention``'s ``key_padding_mask`` and ``attn_mask`` are True where a key is left
out, the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import padding_of
from ._validate import as_float_array, check_size, finite, heads_and_weights
from .attention import softmax
from .masks import causal_mask

__all__ = ["CausalSteps", "causal_self_attention"]


@dataclass(frozen=True)
class CausalSteps:
    """Every intermediate array of :func:`causal_self_attention`, in the order the code makes them,
    and ``lines``: each line of the code with the shape of what it gives."""

    X: np.ndarray  # (batch, n, d_model): the sentences, padded to n tokens
    Q: np.ndarray  # (batch, n, d_model): X W_Q, every head's queries side by side
    K: np.ndarray  # (batch, n, d_model): X W_K
    V: np.ndarray  # (batch, n, d_model): X W_V
    Q_heads: np.ndarray  # (batch, num_heads, n, d_head): Q with the heads as an axis
    K_heads: np.ndarray  # (batch, num_heads, n, d_head)
    V_heads: np.ndarray  # (batch, num_heads, n, d_head)
    scaled: np.ndarray  # (batch, num_heads, n, n): each head's Q K^T / √d_head
    mask: np.ndarray  # (batch, 1, n, n): the causal mask and the padding mask combined, True = may attend
    masked: np.ndarray  # (batch, num_heads, n, n): scaled, with -inf where the mask is False
    weights: np.ndarray  # (batch, num_heads, n, n): softmax of each row
    heads: np.ndarray  # (batch, num_heads, n, d_head): each head's weights times its values
    concat: np.ndarray  # (batch, n, d_model): the heads side by side again
    output: np.ndarray  # (batch, n, d_model): concat W_O
    lines: tuple[tuple[str, tuple[int, ...]], ...]  # (a line of the code, the shape after it), in order


# --8<-- [start:causal_self_attention]
def causal_self_attention(X, W_Q, W_K, W_V, W_O, num_heads, lengths=None) -> CausalSteps:
    """Multi-head causal self-attention over a batch of padded sentences, with every step kept.

    X: (batch, n, d_model), sentence b real in its first ``lengths[b]`` tokens (all of them with
    ``lengths`` None) and padded after; W_Q, W_K, W_V, W_O: (d_model, d_model); ``num_heads``
    divides d_model. Token i of a sentence attends to the real tokens 0..i of its sentence: the
    causal mask (n, n) and the padding mask (batch, 1, n) combined into one of (batch, 1, n, n),
    shared by the heads. The heads are those of :func:`selfattn_ref.multi_head_attention`, which
    gives the same output and weights with that mask. A pad token's row is computed too (it reads
    the real tokens) and is meant to be ignored. Returns :class:`CausalSteps`.
    """
    X = as_float_array(X, "X", ndim=3)
    h, W = heads_and_weights(as_float_array, X, num_heads, W_Q, W_K, W_V, W_O)
    W_Q, W_K, W_V, W_O = W.values()
    check_size((X.shape[0], h, X.shape[1], X.shape[1]), "the heads' scores (batch, num_heads, n, n)", X=X)
    pad = padding_of(lengths, X.shape[0], X.shape[1])  # (B, T): True where the token is real
    causal = causal_mask(X.shape[1])[None, None]  # (1, 1, T, T): in PyTorch, a buffer of the module

    lines = []  # (a line below, the shape of what it gives), measured as it runs

    def seen(code: str, value: np.ndarray) -> np.ndarray:
        lines.append((code, tuple(value.shape)))
        return value

    with np.errstate(over="ignore", invalid="ignore"):
        B, T, C = X.shape  # (B, T, C)
        seen("B, T, C = X.shape", X)
        Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (B, T, C) each
        seen("Q, K, V = X @ W_Q, X @ W_K, X @ W_V", Q)
        for name, M in (("W_Q", Q), ("W_K", K), ("W_V", V)):
            finite(M, f"the product X {name} overflows", X=X, **{name: W[name]})
        q, k, v = (M.reshape(B, T, h, C // h) for M in (Q, K, V))  # (B, T, h, d_head)
        seen("q, k, v = (M.reshape(B, T, h, C // h) for M in (Q, K, V))", q)
        q, k, v = (M.swapaxes(1, 2) for M in (q, k, v))  # (B, h, T, d_head)
        seen("q, k, v = (M.swapaxes(1, 2) for M in (q, k, v))", q)
        att = q @ k.swapaxes(-2, -1) / (C // h) ** 0.5  # (B, h, T, T)
        seen("att = q @ k.swapaxes(-2, -1) / (C // h) ** 0.5", att)
        scaled = finite(att, "in the heads, the scaled scores overflow", X=X, W_Q=W_Q, W_K=W_K)
        mask = causal & pad[:, None, None, :]  # (B, 1, T, T)
        seen("mask = causal & pad[:, None, None, :]", mask)
        att = np.where(mask, att, -np.inf)  # (B, h, T, T)
        masked = seen("att = np.where(mask, att, -np.inf)", att)
        att = softmax(att, axis=-1)  # (B, h, T, T)
        weights = seen("att = softmax(att, axis=-1)", att)
        y = att @ v  # (B, h, T, d_head)
        heads = seen("y = att @ v", y)
        y = y.swapaxes(1, 2)  # (B, T, h, d_head)
        seen("y = y.swapaxes(1, 2)", y)
        y = y.reshape(B, T, C)  # (B, T, C)
        concat = seen("y = y.reshape(B, T, C)", y)
        output = y @ W_O  # (B, T, C)
        seen("output = y @ W_O", output)
    finite(output, "the output (the heads times W_O) overflows", X=X, W_V=W_V, W_O=W_O)
    return CausalSteps(X, Q, K, V, q, k, v, scaled, mask, masked, weights, heads, concat, output, tuple(lines))


# --8<-- [end:causal_self_attention]
