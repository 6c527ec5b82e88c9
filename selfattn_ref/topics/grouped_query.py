"""The numbers of grouped-query and multi-query attention (:mod:`selfattn_ref.grouped_query`) on
the site's example, and the cache they save.

"The cat sat" with the two query heads of docs/multi-head.md (W_Q the example the_cat_sat_two_heads'
matrix: head 1 reads the features x1 and x3, head 2 x2 and x4) and one key-value head shared by
both, multi-query attention: W_K = W_V are the first two columns of that matrix, so the shared keys
and values are head 1's. Head 1 attends as it does with its own keys; head 2 now compares its
queries, made of x2 and x4, with keys made of x1 and x3. The cache per token is counted from the arrays the
layer makes, and for Mistral 7B (8 key-value heads for 32 query heads) from
:func:`selfattn_ref.kv_cache.kv_cache_bytes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..grouped_query import grouped_query_attention, repeat_kv
from ..kv_cache import MISTRAL_7B, kv_cache_bytes
from ..multihead import multi_head_attention, split_heads

SLUG = "the_cat_sat_two_heads"
NUM_HEADS = 2
NUM_KV_HEADS = 1


@dataclass(frozen=True)
class Shared:
    """Two query heads with their own keys and values (multi-head) and with one shared pair (multi-query)."""

    tokens: tuple[str, ...]
    W_Q: np.ndarray  # (d_model, num_heads·d_head)
    W_K: np.ndarray  # (d_model, num_kv_heads·d_head): the shared key head's columns
    W_V: np.ndarray  # (d_model, num_kv_heads·d_head)
    K: np.ndarray  # (num_kv_heads, n, d_head): the keys kept, one head
    V: np.ndarray  # (num_kv_heads, n, d_head): the values kept
    K_repeated: np.ndarray  # (num_heads, n, d_head): the keys each query head uses, K's head repeated by repeat_kv
    weights: np.ndarray  # (num_heads, n, n): multi-query
    output: np.ndarray  # (n, d_model): multi-query, W_O the identity
    weights_multi_head: np.ndarray  # (num_heads, n, n): each head with its own keys and values
    output_multi_head: np.ndarray  # (n, d_model)
    kept_per_token: int  # numbers kept per token, keys and values: 2 · num_kv_heads · d_head
    kept_per_token_multi_head: int  # 2 · num_heads · d_head
    decimals: int


@cache
def shared() -> Shared:
    """ "The cat sat" (n = 3, d_model = 4) with 2 query heads of width 2 sharing 1 key-value head,
    beside multi-head attention with the same W_Q; weights (num_heads, n, n), outputs (n, d_model)."""
    ex = examples.load(SLUG)
    W = ex.W_Q  # (4, 4): W_Q = W_K = W_V of the example
    d_head = W.shape[1] // NUM_HEADS
    W_K = W_V = W[:, : NUM_KV_HEADS * d_head]  # (4, 2): head 1's columns, shared
    W_O = np.eye(W.shape[1])
    output, weights = grouped_query_attention(ex.E, W, W_K, W_V, W_O, NUM_HEADS, NUM_KV_HEADS)
    output_mh, weights_mh = multi_head_attention(ex.E, W, W, W, W_O, NUM_HEADS)
    K, V = split_heads(ex.E @ W_K, NUM_KV_HEADS), split_heads(ex.E @ W_V, NUM_KV_HEADS)  # (1, 3, 2) each
    K_mh = split_heads(ex.E @ W, NUM_HEADS)  # (2, 3, 2): what multi-head keeps of the keys
    n = len(ex.tokens)
    return Shared(
        ex.tokens,
        W,
        W_K,
        W_V,
        K,
        V,
        repeat_kv(K, NUM_HEADS // NUM_KV_HEADS),
        weights,
        output,
        weights_mh,
        output_mh,
        (K.size + V.size) // n,
        2 * K_mh.size // n,
        ex.decimals,
    )


@dataclass(frozen=True)
class Saved:
    """A model's KV cache with its key-value heads and with one per query head, in float16."""

    name: str
    num_heads: int
    num_kv_heads: int
    bytes: int  # its cache, one sequence of its whole context, float16
    bytes_multi_head: int  # the same with num_kv_heads = num_heads
    bytes_multi_query: int  # the same with one key-value head


@cache
def mistral_7b() -> Saved:
    """Mistral 7B's cache (:data:`selfattn_ref.kv_cache.MISTRAL_7B`) with its 8 key-value heads, with 32
    (one per query head) and with 1, for one sequence of 8,192 tokens in float16 (2 bytes a number)."""
    m = MISTRAL_7B
    d_head = m.d_model // m.num_heads

    def size(kv_heads: int) -> int:
        return kv_cache_bytes(m.num_blocks, kv_heads, m.n_ctx, d_head, 2)

    return Saved(m.name, m.num_heads, m.num_kv_heads, size(m.num_kv_heads), size(m.num_heads), size(1))
