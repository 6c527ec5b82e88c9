"""The KV cache in NumPy: a causal attention layer run one position at a time, with and without it.

A decoder writes a text one token at a time, and each new token attends to every token before it.
Without a cache, each step runs the layer on the whole text so far and keeps the last row: the keys
and values of the earlier tokens are computed again at every step. With the cache, each step
computes the query, key and value of the new token only, appends its key and value to those kept
from the earlier steps, and attends with its one query. A causal mask makes the two the same: no
earlier row ever depends on a later token, so nothing kept goes stale. :func:`kv_cache_steps` runs
both and counts the multiply-adds of each step's matrix products as it performs them
(:class:`selfattn_ref._checks.MultiplyAdds`); :func:`kv_cache_shape` and :func:`kv_cache_bytes` give
the cache's size for a whole model.

Published sizes, with their sources (:class:`ModelSize`): GPT-2 small (:data:`GPT2_SMALL`) has 12
layers of width 768 with 12 heads and a context of 1,024 tokens (Radford et al. 2019, "Language Models
are Unsupervised Multitask Learners", Table 2 and section 2.3; the head count is the released model's
hparams.json, n_head 12). Mistral 7B (:data:`MISTRAL_7B`) has 32 layers of width 4,096 with 32 query
heads, 8 key-value heads, a context of 8,192 tokens and a sliding window of 4,096 (Jiang et al. 2023,
"Mistral 7B", Table 1).

The layer is one multi-head causal self-attention layer (:func:`selfattn_ref.multi_head_attention`
with the causal mask), optionally with rotary position embeddings. Its inputs at every position are
given, as when a model reads a prompt one token at a time; a model that generates text would feed
back the token it chose, which changes nothing here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import MultiplyAdds
from ._validate import (
    as_float_array,
    check_size,
    divides,
    finite,
    heads_and_weights,
    positive_float,
    positive_integer,
    value_text,
)
from .attention import softmax
from .masks import causal_mask
from .multihead import _check_heads, join_heads, split_heads
from .rotary import _turned_bound, rotary_embedding

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
    K_cache: np.ndarray  # (num_heads, n_k, d_head), n_k = position: the keys kept, one row per token so far
    V_cache: np.ndarray  # (num_heads, n_k, d_head): the values kept
    weights: np.ndarray  # (num_heads, n_k): the new token's weights over the tokens so far, with the cache
    output: np.ndarray  # (d_model,): the new token's output, with the cache
    recomputed: np.ndarray  # (d_model,): the same row, from the layer run on the whole text so far
    multiply_adds: dict  # the step's matrix products with the cache: {what they compute: multiply-adds}
    multiply_adds_recomputed: dict  # the same without the cache


@dataclass(frozen=True)
class CacheRun:
    """Every step of :func:`kv_cache_steps`, and the outputs of all of them."""

    steps: tuple  # one CacheStep per token, in order
    output: np.ndarray  # (n, d_model): each token's output, with the cache
    recomputed: np.ndarray  # (n, d_model): without it
    largest_difference: float  # the largest |output - recomputed| of any entry


def _check_layer(X, W_Q, W_K, W_V, W_O, num_heads, rope_base):
    X = as_float_array(X, "X", ndim=2)
    h, W = heads_and_weights(as_float_array, X, num_heads, W_Q, W_K, W_V, W_O)
    base = _rope_base(rope_base, X.shape, h)
    check_size((h, X.shape[0], X.shape[0]), "the heads' scores (num_heads, n, n)", X=X)
    _check_heads(X, W, h, np.result_type(X, *W.values()), turn=None if base is None else _turned_bound)
    return X, h, W, base


def _rope_base(rope_base, shape: tuple, num_heads: int) -> float | None:
    """``rope_base`` as a positive float, or None; with a base, each of the ``num_heads`` heads of X
    (shape ``shape``) must have an even width, as its entries turn in pairs. Else a ValueError naming
    them (both packages)."""
    if rope_base is None:
        return None
    base = positive_float(rope_base, "rope_base")
    shape = tuple(int(k) for k in shape)
    if (shape[-1] // num_heads) % 2:
        raise ValueError(
            f"with rope_base, num_heads={value_text(num_heads, parens=True)} must leave each head an even "
            f"width (its entries turn in pairs), got X {shape}, heads of width {shape[-1] // num_heads}"
        )
    return base


def _attend(q, k, v, count: MultiplyAdds, mask, operands: dict) -> tuple[np.ndarray, np.ndarray]:
    """softmax(q kᵀ / √d_head, masked) v, counted: q (h, n_q, d_head), k and v (h, n_k, d_head),
    mask (n_q, n_k) or None. Returns the heads' outputs (h, n_q, d_head) and weights (h, n_q, n_k)."""
    with np.errstate(over="ignore", invalid="ignore"):
        S = count.matmul(q, np.swapaxes(k, -2, -1), "scores") / math.sqrt(q.shape[-1])  # (h, n_q, n_k)
    finite(S, "in the heads, the scaled scores overflow", **{n: operands[n] for n in ("X", "W_Q", "W_K")})
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    A = softmax(S, axis=-1)  # (h, n_q, n_k)
    with np.errstate(over="ignore", invalid="ignore"):
        return count.matmul(A, v, "weights times values"), A  # (h, n_q, d_head), (h, n_q, n_k)


def _project(x, W: dict, h: int, count: MultiplyAdds, operands: dict):
    """The queries, keys and values of the rows x (t, d_model), split into h heads, counted:
    (h, t, d_head) each."""
    out = []
    for name, what in (("W_Q", "queries"), ("W_K", "keys"), ("W_V", "values")):
        with np.errstate(over="ignore", invalid="ignore"):
            M = count.matmul(x, W[name], what)  # (t, d_model)
        finite(M, f"the product X {name} overflows", X=operands["X"], **{name: W[name]})
        out.append(split_heads(M, h))  # (h, t, d_head)
    return out


def _out(heads: np.ndarray, W: dict, count: MultiplyAdds, operands: dict) -> np.ndarray:
    """The heads (h, t, d_head) side by side, times W_O, counted: (t, d_model)."""
    with np.errstate(over="ignore", invalid="ignore"):
        Y = count.matmul(join_heads(heads), W["W_O"], "output projection")  # (t, d_model)
    return finite(Y, "the output (the heads times W_O) overflows", X=operands["X"], W_V=W["W_V"], W_O=W["W_O"])


def _turn(M: np.ndarray, positions: np.ndarray, base) -> np.ndarray:
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
    K_cache = np.zeros((h, 0, X.shape[1] // h), dtype=X.dtype)  # (h, 0, d_head): nothing kept yet
    V_cache = K_cache
    steps = []
    for t in range(1, n + 1):
        cached = MultiplyAdds()
        q, k, v = _project(X[t - 1 : t], W, h, cached, operands)  # (h, 1, d_head) each
        here = np.array([t - 1])  # the new token's position, from 0
        q, k = _turn(q, here, base), _turn(k, here, base)
        K_cache = np.concatenate([K_cache, k], axis=-2)  # (h, t, d_head)
        V_cache = np.concatenate([V_cache, v], axis=-2)  # (h, t, d_head)
        heads, weights = _attend(q, K_cache, V_cache, cached, None, operands)  # (h, 1, d_head), (h, 1, t)
        output = _out(heads, W, cached, operands)[0]  # (d_model,)

        again = MultiplyAdds()
        Q, K, V = _project(X[:t], W, h, again, operands)  # (h, t, d_head) each
        everywhere = np.arange(t)  # the positions of tokens 1..t, from 0
        Q, K = _turn(Q, everywhere, base), _turn(K, everywhere, base)
        heads_all, _ = _attend(Q, K, V, again, causal_mask(t), operands)  # (h, t, d_head)
        recomputed = _out(heads_all, W, again, operands)[-1]  # (d_model,): the last row

        steps.append(CacheStep(t, K_cache, V_cache, weights[:, 0, :], output, recomputed, cached.counts, again.counts))
    output = np.stack([s.output for s in steps])  # (n, d_model)
    recomputed = np.stack([s.recomputed for s in steps])  # (n, d_model)
    return CacheRun(tuple(steps), output, recomputed, float(np.abs(output - recomputed).max()))


@dataclass(frozen=True)
class ModelSize:
    """The sizes of a published model that fix its KV cache, and where they are published."""

    name: str
    num_blocks: int  # its blocks (the papers' layers), each an attention layer with a cache of its own
    d_model: int  # the width of a vector
    num_heads: int  # query heads
    num_kv_heads: int  # key and value heads (num_heads without grouped-query attention)
    n_ctx: int  # its context: the most tokens it reads at once
    source: str  # where the figures are published
    window: int | None = None  # its sliding window in tokens, where it has one (None: it attends to the whole context)

    def __post_init__(self):
        """Sizes that make a model: positive integers, num_heads dividing d_model and num_kv_heads
        dividing num_heads (a ValueError naming the size otherwise, as the functions' arguments)."""
        for name in ("num_blocks", "d_model", "num_heads", "num_kv_heads", "n_ctx"):
            positive_integer(getattr(self, name), name)
        divides(self.num_heads, self.d_model, "num_heads", f"d_model ({value_text(self.d_model)})")
        divides(self.num_kv_heads, self.num_heads, "num_kv_heads", f"num_heads ({value_text(self.num_heads)})")
        if self.window is not None:
            positive_integer(self.window, "window")


# GPT-2 small (the 124M-parameter model; the paper's Table 2 lists it as 117M): 12 layers of width
# 768 (Radford et al. 2019, "Language Models are Unsupervised Multitask Learners", Table 2), a context
# of 1,024 tokens (same paper, section 2.3) and 12 heads (the released model's hparams.json: n_head 12).
GPT2_SMALL = ModelSize(
    "GPT-2 small",
    num_blocks=12,
    d_model=768,
    num_heads=12,
    num_kv_heads=12,
    n_ctx=1024,
    source="Radford et al. 2019, Table 2 and section 2.3; the released model's hparams.json (n_head 12)",
)


# Mistral 7B: 32 layers of width 4,096, 32 query heads of 128 and 8 key-value heads (grouped-query
# attention), a context of 8,192 tokens and a sliding window of 4,096 (Jiang et al. 2023, "Mistral 7B",
# Table 1; the released config.json agrees: hidden_size 4096, num_hidden_layers 32,
# num_attention_heads 32, num_key_value_heads 8, sliding_window 4096).
MISTRAL_7B = ModelSize(
    "Mistral 7B",
    num_blocks=32,
    d_model=4096,
    num_heads=32,
    num_kv_heads=8,
    n_ctx=8192,
    source="Jiang et al. 2023, Table 1; the released config.json",
    window=4096,
)


def _sizes(num_blocks, num_kv_heads, n_ctx, d_head) -> tuple[int, ...]:
    given = {"num_blocks": num_blocks, "num_kv_heads": num_kv_heads, "n_ctx": n_ctx, "d_head": d_head}
    return tuple(positive_integer(value, name) for name, value in given.items())


def kv_cache_shape(num_blocks, num_kv_heads, n_ctx, d_head) -> tuple[int, ...]:
    """The shape of a model's whole KV cache: (num_blocks, 2, num_kv_heads, n_ctx, d_head).

    For each block (each attention layer), keys and values (the 2), for each key-value head, one row
    of d_head numbers per token, up to ``n_ctx`` tokens: the arrays :func:`kv_cache_steps` builds up,
    ``K_cache`` and ``V_cache`` (num_heads, n_k, d_head), for every block with n_k = n_ctx, a full
    context. Only a shape: nothing is allocated.
    """
    num_blocks, num_kv_heads, n_ctx, d_head = _sizes(num_blocks, num_kv_heads, n_ctx, d_head)
    return (num_blocks, 2, num_kv_heads, n_ctx, d_head)


def kv_cache_bytes(num_blocks, num_kv_heads, n_ctx, d_head, bytes_per_number) -> int:
    """The bytes of a model's whole KV cache: the entries of :func:`kv_cache_shape` times
    ``bytes_per_number`` (2 for float16 or bfloat16, 4 for float32, 8 for float64).

    The figures are for one sequence; a batch of sentences needs one cache each. :data:`GPT2_SMALL`
    holds the sizes of GPT-2 small and their sources.
    """
    shape = kv_cache_shape(num_blocks, num_kv_heads, n_ctx, d_head)
    size = positive_integer(bytes_per_number, "bytes_per_number")
    if size not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_number must be 1, 2, 4 or 8 (the size of a number), got {value_text(size)}")
    return math.prod(shape) * size
