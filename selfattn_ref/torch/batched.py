"""Batched multi-head causal self-attention in PyTorch, written line by line as real code writes it.

The twin of :mod:`selfattn_ref.batched`, and the same layer as a ``torch.nn.Module``,
:class:`CausalSelfAttention`, in the form of nanoGPT's module of that name: its query, key and value
weights in one ``torch.nn.Linear`` (``qkv``, nanoGPT's ``c_attn``), its output projection in another
(``proj``, nanoGPT's ``c_proj``), and the causal mask kept as a buffer of ``n_ctx`` × ``n_ctx``,
cut to the length of the batch. Both run the same lines (:func:`causal_self_attention` with the
caller's matrices, the module with its parameters), so both are differentiable.

The code names the sizes as such code does: ``B`` sentences (the batch), ``T`` tokens each (the
site's n), ``C`` the width of a vector (d_model) and ``h`` heads of ``C // h`` entries (d_head).
The comments give the shape after each line, ``# (B, h, T, d_head)``. Vectors are rows: ``X @ W_Q``
is ``torch.nn.Linear`` with weight ``W_Q.T``, so ``qkv.weight`` is ``cat(W_Q.T, W_K.T, W_V.T)``, the
layout of ``torch.nn.MultiheadAttention``'s ``in_proj_weight``, and ``proj.weight`` is ``W_O.T``.

Masks are True where a query may attend to a key, as everywhere on the site and in
``torch.nn.functional.scaled_dot_product_attention``'s boolean ``attn_mask``.
``torch.nn.MultiheadAttention`` takes them the other way round: its ``key_padding_mask`` (batch, n)
and ``attn_mask`` (n, n) are True where a key is left out, so it gets ``~pad`` and ``~causal``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .._checks import padding_of
from .._validate import LAYER, divides, heads_and_weights, layer_weights, positive_integer, value_text
from ._validate import as_float_tensor, check_size, common_dtype, finite, from_numpy, shape
from .masks import causal_mask

__all__ = ["CausalSelfAttention", "CausalSteps", "causal_self_attention"]


@dataclass(frozen=True)
class CausalSteps:
    """Every intermediate tensor of :func:`causal_self_attention`, in the order the code makes them,
    and ``lines``: each line of the code with the shape of what it gives."""

    X: torch.Tensor  # (batch, n, d_model): the sentences, padded to n tokens
    Q: torch.Tensor  # (batch, n, d_model): X W_Q, every head's queries side by side
    K: torch.Tensor  # (batch, n, d_model): X W_K
    V: torch.Tensor  # (batch, n, d_model): X W_V
    Q_heads: torch.Tensor  # (batch, num_heads, n, d_head): Q with the heads as an axis
    K_heads: torch.Tensor  # (batch, num_heads, n, d_head)
    V_heads: torch.Tensor  # (batch, num_heads, n, d_head)
    scaled: torch.Tensor  # (batch, num_heads, n, n): each head's Q K^T / √d_head
    mask: torch.Tensor  # (batch, 1, n, n): the causal mask and the padding mask combined, True = may attend
    masked: torch.Tensor  # (batch, num_heads, n, n): scaled, with -inf where the mask is False
    weights: torch.Tensor  # (batch, num_heads, n, n): softmax of each row
    heads: torch.Tensor  # (batch, num_heads, n, d_head): each head's weights times its values
    concat: torch.Tensor  # (batch, n, d_model): the heads side by side again
    output: torch.Tensor  # (batch, n, d_model): concat W_O
    lines: tuple[tuple[str, tuple[int, ...]], ...]  # (a line of the code, the shape after it), in order


def _steps(X, W_Q, W_K, W_V, W_O, h: int, causal: torch.Tensor, pad: torch.Tensor) -> CausalSteps:
    """The lines of the layer on checked tensors: X (B, T, C), the four (C, C) matrices, ``causal``
    (1, 1, T, T) and ``pad`` (B, T), True where a token is real."""
    lines = []  # (a line below, the shape of what it gives), measured as it runs

    def seen(code: str, value: torch.Tensor) -> torch.Tensor:
        lines.append((code, tuple(value.shape)))
        return value

    B, T, C = X.size()  # (B, T, C)
    seen("B, T, C = X.size()", X)
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (B, T, C) each
    seen("Q, K, V = X @ W_Q, X @ W_K, X @ W_V", Q)
    for name, M, W in (("W_Q", Q, W_Q), ("W_K", K, W_K), ("W_V", V, W_V)):
        finite(M, f"the product X {name} overflows", X=X, **{name: W})
    q, k, v = (M.view(B, T, h, C // h) for M in (Q, K, V))  # (B, T, h, d_head)
    seen("q, k, v = (M.view(B, T, h, C // h) for M in (Q, K, V))", q)
    q, k, v = (M.transpose(1, 2) for M in (q, k, v))  # (B, h, T, d_head)
    seen("q, k, v = (M.transpose(1, 2) for M in (q, k, v))", q)
    att = q @ k.transpose(-2, -1) / (C // h) ** 0.5  # (B, h, T, T)
    seen("att = q @ k.transpose(-2, -1) / (C // h) ** 0.5", att)
    scaled = finite(att, "in the heads, the scaled scores overflow", X=X, W_Q=W_Q, W_K=W_K)
    mask = causal & pad[:, None, None, :]  # (B, 1, T, T)
    seen("mask = causal & pad[:, None, None, :]", mask)
    att = att.masked_fill(~mask, float("-inf"))  # (B, h, T, T)
    masked = seen('att = att.masked_fill(~mask, float("-inf"))', att)
    att = torch.softmax(att, dim=-1)  # (B, h, T, T)
    weights = seen("att = torch.softmax(att, dim=-1)", att)
    y = att @ v  # (B, h, T, d_head)
    heads = seen("y = att @ v", y)
    y = y.transpose(1, 2)  # (B, T, h, d_head)
    seen("y = y.transpose(1, 2)", y)
    y = y.contiguous().view(B, T, C)  # (B, T, C)
    concat = seen("y = y.contiguous().view(B, T, C)", y)
    output = y @ W_O  # (B, T, C)
    seen("output = y @ W_O", output)
    finite(output, "the output (the heads times W_O) overflows", X=X, W_V=W_V, W_O=W_O)
    return CausalSteps(X, Q, K, V, q, k, v, scaled, mask, masked, weights, heads, concat, output, tuple(lines))


def _pad(lengths, batch: int, n: int) -> torch.Tensor:
    return from_numpy(padding_of(lengths, batch, n))  # (batch, n), the NumPy package's checks


# --8<-- [start:causal_self_attention]
def causal_self_attention(X, W_Q, W_K, W_V, W_O, num_heads, lengths=None) -> CausalSteps:
    """Multi-head causal self-attention over a batch of padded sentences, with every step kept.

    X: (batch, n, d_model), sentence b real in its first ``lengths[b]`` tokens (all of them with
    ``lengths`` None) and padded after; W_Q, W_K, W_V, W_O: (d_model, d_model); ``num_heads``
    divides d_model. Token i of a sentence attends to the real tokens 0..i of its sentence: the
    causal mask (n, n) and the padding mask (batch, 1, n) combined into one of (batch, 1, n, n),
    shared by the heads. The heads are those of :func:`selfattn_ref.torch.multi_head_attention`,
    which gives the same output and weights with that mask. A pad token's row is computed too (it
    reads the real tokens) and is meant to be ignored. Returns :class:`CausalSteps`.
    """
    X = as_float_tensor(X, "X", ndim=3)
    h, W = heads_and_weights(as_float_tensor, X, num_heads, W_Q, W_K, W_V, W_O)
    B, T = X.shape[0], X.shape[1]
    check_size((B, h, T, T), "the heads' scores (batch, num_heads, n, n)", X=X)
    pad = _pad(lengths, B, T)  # (B, T): True where the token is real
    X, *Ws = common_dtype(X, *W.values())
    return _steps(X, *Ws, h, causal_mask(T)[None, None], pad)


# --8<-- [end:causal_self_attention]


class CausalSelfAttention(torch.nn.Module):
    """Multi-head causal self-attention as a ``torch.nn.Module``: nanoGPT's layer, without biases
    or dropout.

    ``d_model`` is the width of a vector, ``num_heads`` divides it, ``n_ctx`` is the most tokens a
    sentence may have (GPT-2's is 1,024; nanoGPT calls it ``block_size``). The parameters are
    ``qkv.weight`` (3·d_model, d_model), ``cat(W_Q.T, W_K.T, W_V.T)``, and ``proj.weight``
    (d_model, d_model), ``W_O.T``: a ``torch.nn.Linear`` multiplies by its weight transposed. The
    buffer ``causal`` (1, 1, n_ctx, n_ctx) is the causal mask, made once and moved with the module
    (``.to(device)``), and never trained. :meth:`forward` gives the output, :meth:`steps` every
    step, as :func:`causal_self_attention` does with the same weights.
    """

    def __init__(self, d_model, num_heads, n_ctx, dtype=torch.float64):
        super().__init__()
        d_model = positive_integer(d_model, "d_model")
        self.num_heads = divides(num_heads, d_model, "num_heads", f"d_model ({value_text(d_model)})")
        n_ctx = positive_integer(n_ctx, "n_ctx")
        check_size((n_ctx, n_ctx), f"with n_ctx = {value_text(n_ctx)}, the causal buffer (n_ctx, n_ctx)")
        self.qkv = torch.nn.Linear(d_model, 3 * d_model, bias=False, dtype=dtype)
        self.proj = torch.nn.Linear(d_model, d_model, bias=False, dtype=dtype)
        self.register_buffer("causal", causal_mask(n_ctx)[None, None])  # (1, 1, n_ctx, n_ctx)

    @classmethod
    def from_weights(cls, W_Q, W_K, W_V, W_O, num_heads, n_ctx) -> CausalSelfAttention:
        """The module with the given (d_model, d_model) matrices as its parameters (copied), in
        their dtype: float32 if all are float32, else float64."""
        first = as_float_tensor(W_Q, "W_Q", ndim=2)
        W = layer_weights(
            as_float_tensor,
            dict(zip(LAYER, (first, W_K, W_V, W_O), strict=True)),
            dict.fromkeys(LAYER, (first.shape[0], first.shape[0])),
            "(d_model, d_model)",
        )
        Ws = common_dtype(*W.values())
        layer = cls(first.shape[0], num_heads, n_ctx, dtype=Ws[0].dtype)
        with torch.no_grad():
            layer.qkv.weight.copy_(torch.cat([M.T for M in Ws[:3]]))  # (3·d_model, d_model)
            layer.proj.weight.copy_(Ws[3].T)  # (d_model, d_model)
        return layer

    def steps(self, X, lengths=None) -> CausalSteps:
        """Every step on X (batch, n, d_model), n at most ``n_ctx``, sentence b real in its first
        ``lengths[b]`` tokens (all with ``lengths`` None). Returns :class:`CausalSteps`."""
        C = self.proj.weight.shape[0]
        X = as_float_tensor(X, "X", ndim=3)
        n_ctx = self.causal.shape[-1]
        if X.shape[-1] != C or X.shape[1] > n_ctx:
            raise ValueError(f"X must have shape (batch, n, {C}) with n at most {n_ctx}, got {shape(X)}")
        B, T = X.shape[0], X.shape[1]
        check_size((B, self.num_heads, T, T), "the heads' scores (batch, num_heads, n, n)", X=X)
        X = X.to(self.proj.weight.dtype)
        W_Q, W_K, W_V = (M.T for M in self.qkv.weight.split(C, dim=0))  # (C, C) each
        causal = self.causal[:, :, :T, :T]  # (1, 1, T, T): the buffer, cut to this batch's length
        return _steps(X, W_Q, W_K, W_V, self.proj.weight.T, self.num_heads, causal, _pad(lengths, B, T))

    def forward(self, X, lengths=None) -> torch.Tensor:
        """The layer's output (batch, n, d_model) for X (batch, n, d_model): :meth:`steps`' ``output``."""
        return self.steps(X, lengths).output
