"""The numbers of the KV cache (:mod:`selfattn_ref.kv_cache`) on the site's example, and its size
for published models.

"The cat sat" read one token at a time by the two-head causal layer of
:mod:`selfattn_ref.topics.batched_heads` (W_Q = W_K = W_V the example the_cat_sat_two_heads'
matrix, W_O the identity), with and without the cache, and again with rotary position embeddings
(base 10,000). The cache's size is counted for GPT-2 small and for Mistral 7B
(:data:`selfattn_ref.kv_cache.GPT2_SMALL`, :data:`selfattn_ref.kv_cache.MISTRAL_7B`, which give the
figures' sources), at float16 and float32.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..kv_cache import GPT2_SMALL, MISTRAL_7B, CacheRun, ModelSize, kv_cache_bytes, kv_cache_shape, kv_cache_steps

SLUG = "the_cat_sat_two_heads"
NUM_HEADS = 2
ROPE_BASE = 10000.0  # the RoFormer paper's base
BYTES = {"float16": 2, "float32": 4}  # the sizes of a number the page counts in


@cache
def run() -> CacheRun:
    """ "The cat sat" (n = 3, d_model = 4) one token at a time, with and without the cache: each
    step's cache (num_heads, n_k, d_head), weights (num_heads, n_k) over the n_k tokens so far, outputs
    (d_model,) and multiply-adds."""
    ex = examples.load(SLUG)
    return kv_cache_steps(ex.E, ex.W_Q, ex.W_K, ex.W_V, np.eye(ex.E.shape[1]), NUM_HEADS)


@cache
def rotary_run() -> CacheRun:
    """:func:`run` with rotary position embeddings: each query and key turned by its position (from
    0) before it is used or kept."""
    ex = examples.load(SLUG)
    return kv_cache_steps(ex.E, ex.W_Q, ex.W_K, ex.W_V, np.eye(ex.E.shape[1]), NUM_HEADS, rope_base=ROPE_BASE)


@dataclass(frozen=True)
class CacheSize:
    """A model's KV cache for one sequence at its full context."""

    model: ModelSize
    d_head: int  # d_model / num_heads
    shape: tuple  # (num_blocks, 2, num_kv_heads, n_ctx, d_head)
    numbers: int  # the entries of that shape
    numbers_per_token: int  # the entries one more token adds: 2 · num_blocks · num_kv_heads · d_head
    bytes: dict  # {"float16": bytes, "float32": bytes}
    bytes_per_token: dict  # the same, for one token


def size(model: ModelSize) -> CacheSize:
    """The KV cache of ``model`` for one sequence of its whole context, counted from
    :func:`selfattn_ref.kv_cache.kv_cache_shape` and :func:`selfattn_ref.kv_cache.kv_cache_bytes`."""
    if not isinstance(model, ModelSize):
        raise ValueError(f"model must be a ModelSize (selfattn_ref.kv_cache), got {type(model).__name__}")
    d_head = model.d_model // model.num_heads
    shape = kv_cache_shape(model.num_blocks, model.num_kv_heads, model.n_ctx, d_head)
    one = kv_cache_shape(model.num_blocks, model.num_kv_heads, 1, d_head)
    return CacheSize(
        model,
        d_head,
        shape,
        int(np.prod(shape)),
        int(np.prod(one)),
        {k: kv_cache_bytes(model.num_blocks, model.num_kv_heads, model.n_ctx, d_head, b) for k, b in BYTES.items()},
        {k: kv_cache_bytes(model.num_blocks, model.num_kv_heads, 1, d_head, b) for k, b in BYTES.items()},
    )


@cache
def gpt2_small() -> CacheSize:
    """GPT-2 small's cache (:data:`selfattn_ref.kv_cache.GPT2_SMALL`), at its whole context."""
    return size(GPT2_SMALL)


@cache
def mistral_7b() -> CacheSize:
    """Mistral 7B's cache (:data:`selfattn_ref.kv_cache.MISTRAL_7B`), at its whole context, with its 8
    key-value heads (grouped-query attention) and without a sliding window; see
    :mod:`selfattn_ref.topics.grouped_query` and :mod:`selfattn_ref.topics.sliding_window` for what each
    saves."""
    return size(MISTRAL_7B)
