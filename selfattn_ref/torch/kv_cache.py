"""The KV cache in PyTorch, the twin of :mod:`selfattn_ref.kv_cache`: a causal attention layer run
one position at a time, with the cache and without it, its multiply-adds counted as it runs.

:func:`kv_cache_shape`, :func:`kv_cache_bytes` and :class:`ModelSize` count with integers and are
the NumPy module's own, imported here so that both packages have them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .._checks import MultiplyAdds
from .._validate import heads_and_weights
from ..kv_cache import ModelSize, _rope_base, kv_cache_bytes, kv_cache_shape
from ..multihead import _check_heads
from ..rotary import _turned_bound
from ._validate import as_float_tensor, check_size, common_dtype, finite
from .attention import softmax
from .masks import causal_mask
from .multihead import join_heads, split_heads
from .rotary import rotary_embedding

__all__ = [
    "CacheRun",
    "CacheStep",
    "ModelSize",
    "kv_cache_bytes",
    "kv_cache_shape",
    "kv_cache_steps",
]


@dataclass(frozen=True)
class CacheStep:
    """One step of :func:`kv_cache_steps`: the token at ``position`` (counting from 1) joins."""

    position: int  # the new token's position, counting from 1: the cache holds this many tokens after the step
    K_cache: torch.Tensor  # (num_heads, n_k, d_head), n_k = position: the keys kept, one row per token so far
    V_cache: torch.Tensor  # (num_heads, n_k, d_head): the values kept
    weights: torch.Tensor  # (num_heads, n_k): the new token's weights over the tokens so far, with the cache
    output: torch.Tensor  # (d_model,): the new token's output, with the cache
    recomputed: torch.Tensor  # (d_model,): the same row, from the layer run on the whole text so far
    multiply_adds: dict  # the step's matrix products with the cache: {what they compute: multiply-adds}
    multiply_adds_recomputed: dict  # the same without the cache


@dataclass(frozen=True)
class CacheRun:
    """Every step of :func:`kv_cache_steps`, and the outputs of all of them."""

    steps: tuple  # one CacheStep per token, in order
    output: torch.Tensor  # (n, d_model): each token's output, with the cache
    recomputed: torch.Tensor  # (n, d_model): without it
    largest_difference: float  # the largest |output - recomputed| of any entry


def _check_layer(X, W_Q, W_K, W_V, W_O, num_heads, rope_base):
    X = as_float_tensor(X, "X", ndim=2)
    h, W = heads_and_weights(as_float_tensor, X, num_heads, W_Q, W_K, W_V, W_O)
    base = _rope_base(rope_base, X.shape, h)
    check_size((h, X.shape[0], X.shape[0]), "the heads' scores (num_heads, n, n)", X=X)
    X, *Ws = common_dtype(X, *W.values())
    W = dict(zip(W, Ws, strict=True))
    _check_heads(X, W, h, X.dtype, turn=None if base is None else _turned_bound)  # the NumPy package's bounds
    return X, h, W, base


def _attend(q, k, v, count: MultiplyAdds, mask, operands: dict) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(q kᵀ / √d_head, masked) v, counted: q (h, n_q, d_head), k and v (h, n_k, d_head),
    mask (n_q, n_k) or None. Returns the heads' outputs (h, n_q, d_head) and weights (h, n_q, n_k)."""
    S = count.matmul(q, k.transpose(-2, -1), "scores") / math.sqrt(q.shape[-1])  # (h, n_q, n_k)
    finite(S, "in the heads, the scaled scores overflow", **{n: operands[n] for n in ("X", "W_Q", "W_K")})
    if mask is not None:
        S = S.masked_fill(~mask, -math.inf)
    A = softmax(S, axis=-1)  # (h, n_q, n_k)
    return count.matmul(A, v, "weights times values"), A  # (h, n_q, d_head), (h, n_q, n_k)


def _project(x, W: dict, h: int, count: MultiplyAdds, operands: dict):
    """The queries, keys and values of the rows x (t, d_model), split into h heads, counted:
    (h, t, d_head) each."""
    out = []
    for name, what in (("W_Q", "queries"), ("W_K", "keys"), ("W_V", "values")):
        M = count.matmul(x, W[name], what)  # (t, d_model)
        finite(M, f"the product X {name} overflows", X=operands["X"], **{name: W[name]})
        out.append(split_heads(M, h))  # (h, t, d_head)
    return out


def _out(heads: torch.Tensor, W: dict, count: MultiplyAdds, operands: dict) -> torch.Tensor:
    """The heads (h, t, d_head) side by side, times W_O, counted: (t, d_model)."""
    Y = count.matmul(join_heads(heads), W["W_O"], "output projection")  # (t, d_model)
    return finite(Y, "the output (the heads times W_O) overflows", X=operands["X"], W_V=W["W_V"], W_O=W["W_O"])


def _turn(M: torch.Tensor, positions: list[int], base) -> torch.Tensor:
    return M if base is None else rotary_embedding(M, positions, base=base)


def kv_cache_steps(X, W_Q, W_K, W_V, W_O, num_heads, rope_base=None) -> CacheRun:
    """A causal multi-head attention layer run on X one position at a time, with and without a KV cache.

    X: (n, d_model), the input at each position; W_Q, W_K, W_V, W_O: (d_model, d_model);
    ``num_heads`` divides d_model; ``rope_base``: None for no position information, or the base of
    rotary position embeddings (10,000 in the RoFormer paper), turning each query and key by its
    position (numbered from 0) before it is used or kept.

    Step t (t = 1..n) with the cache: the query, key and value of token t, (1, d_model) each; its key
    and value appended to the cache, which then holds a row for each of the t tokens so far,
    (num_heads, n_k, d_head) with n_k = t; its query attends over the cache; the heads joined and
    multiplied by W_O. Without it: the layer on tokens 1..t, t rows of d_model entries, with the
    causal mask, all t rows, of which the last is kept. Both count the
    multiply-adds of their matrix products as they perform them: with the cache 4·d_model² + 2·t·d_model,
    without it 4·t·d_model² + 2·t²·d_model (the t × t scores, masked ones included). Returns
    :class:`CacheRun`; its ``largest_difference`` is rounding, a few units in the last place of float64.
    """
    X, h, W, base = _check_layer(X, W_Q, W_K, W_V, W_O, num_heads, rope_base)
    operands = {"X": X, **W}
    n = X.shape[0]
    K_cache = torch.zeros((h, 0, X.shape[1] // h), dtype=X.dtype)  # (h, 0, d_head): nothing kept yet
    V_cache = K_cache
    steps = []
    for t in range(1, n + 1):
        cached = MultiplyAdds()
        q, k, v = _project(X[t - 1 : t], W, h, cached, operands)  # (h, 1, d_head) each
        here = [t - 1]  # the new token's position, from 0
        q, k = _turn(q, here, base), _turn(k, here, base)
        K_cache = torch.cat([K_cache, k], dim=-2)  # (h, t, d_head)
        V_cache = torch.cat([V_cache, v], dim=-2)  # (h, t, d_head)
        heads, weights = _attend(q, K_cache, V_cache, cached, None, operands)  # (h, 1, d_head), (h, 1, t)
        output = _out(heads, W, cached, operands)[0]  # (d_model,)

        again = MultiplyAdds()
        Q, K, V = _project(X[:t], W, h, again, operands)  # (h, t, d_head) each
        everywhere = list(range(t))  # the positions of tokens 1..t, from 0
        Q, K = _turn(Q, everywhere, base), _turn(K, everywhere, base)
        heads_all, _ = _attend(Q, K, V, again, causal_mask(t), operands)  # (h, t, d_head)
        recomputed = _out(heads_all, W, again, operands)[-1]  # (d_model,): the last row

        steps.append(CacheStep(t, K_cache, V_cache, weights[:, 0, :], output, recomputed, cached.counts, again.counts))
    output = torch.stack([s.output for s in steps])  # (n, d_model)
    recomputed = torch.stack([s.recomputed for s in steps])  # (n, d_model)
    return CacheRun(tuple(steps), output, recomputed, float((output - recomputed).abs().max()))
