"""docs/kv-cache.md, grouped-query and multi-query attention: what the page may quote of "The cat sat"
with two query heads sharing one key-value head, beside multi-head attention, and of the cache it
saves, and its tables.

The computation is :mod:`selfattn_ref.topics.grouped_query` (:func:`selfattn_ref.grouped_query.grouped_query_attention`
on the example the_cat_sat_two_heads, and :func:`selfattn_ref.kv_cache.kv_cache_bytes` for Mistral
7B); this module only formats and registers.
"""

from __future__ import annotations

from selfattn_ref.kv_cache import MISTRAL_7B
from selfattn_ref.topics.grouped_query import NUM_HEADS, NUM_KV_HEADS, mistral_7b, shared

from ...audit.quantities import Quantity, grid, source
from ...fmt import grouped
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table

MIB = 2**20


def _cols(d: int) -> list[str]:
    return [f"c{k + 1}" for k in range(d)]


@source("grouped_query")
def _quantities():
    s = shared()
    tok = list(s.tokens)
    q = [
        Quantity("grouped_query number of query heads", NUM_HEADS),
        Quantity("grouped_query number of key-value heads", NUM_KV_HEADS),
        Quantity("grouped_query numbers kept per token", s.kept_per_token),
        Quantity("grouped_query numbers kept per token, multi-head", s.kept_per_token_multi_head),
    ]
    for h in range(NUM_HEADS):
        q += grid(f"grouped_query head {h + 1} weights", s.weights[h], tok, tok, True)
        q += grid(f"grouped_query head {h + 1} weights, multi-head", s.weights_multi_head[h], tok, tok, True)
    q += grid("grouped_query shared K", s.K[0], tok, _cols(s.K.shape[-1]))
    q += grid("grouped_query output", s.output, tok, _cols(s.output.shape[1]))
    q += grid("grouped_query output, multi-head", s.output_multi_head, tok, _cols(s.output.shape[1]))
    m = mistral_7b()
    q += [
        Quantity("grouped_query Mistral 7B query heads", m.num_heads),
        Quantity("grouped_query Mistral 7B key-value heads", m.num_kv_heads),
        Quantity("grouped_query Mistral 7B MiB, float16", m.bytes / MIB),
        Quantity("grouped_query Mistral 7B MiB, float16, multi-head", m.bytes_multi_head / MIB),
        Quantity("grouped_query Mistral 7B MiB, float16, multi-query", m.bytes_multi_query / MIB),
    ]
    return q


@generated("grouped_query/shared_keys.md")
def _shared_keys():
    """The one key head (its values are the same numbers here), and each query head's copy of it."""
    s = shared()
    return matrix_table(s.K[0], s.tokens, _cols(s.K.shape[-1]), 0, "token ↓")


for _h in range(NUM_HEADS):

    @generated(f"grouped_query/weights_{_h + 1}.md")
    def _weights(h=_h):
        s = shared()
        title = f"attention weights of “The cat sat”, query head {h + 1}, sharing one key-value head"
        return weights_table(s.weights[h], s.tokens, s.tokens, s.decimals, title)

    @generated(f"grouped_query/weights_{_h + 1}_multi_head.md")
    def _weights_mh(h=_h):
        s = shared()
        title = f"attention weights of “The cat sat”, head {h + 1}, with its own keys and values"
        return weights_table(s.weights_multi_head[h], s.tokens, s.tokens, s.decimals, title)


@generated("grouped_query/mistral.md")
def _mistral():
    """Mistral 7B's cache with 32, 8 and 1 key-value heads, one sequence of 8,192 tokens, float16."""
    m = mistral_7b()
    groups = m.num_heads // m.num_kv_heads
    rows = [
        (f"multi-head: {m.num_heads} key-value heads, one per query head", m.bytes_multi_head),
        (f"grouped-query, as Mistral 7B: {m.num_kv_heads} key-value heads, groups of {groups}", m.bytes),
        ("multi-query: 1 key-value head", m.bytes_multi_query),
    ]
    lines = ["| attention | cache, float16 |", "|---|---:|"]
    lines += [f"| {label} | {grouped(size / MIB)} MiB |" for label, size in rows]
    return "\n".join(lines) + "\n"


@topic_values("grouped_query")
def _exercise_values() -> dict:
    m = mistral_7b()
    return {
        "mistral_mib": m.bytes / MIB,
        "mistral_mib_multi_head": m.bytes_multi_head / MIB,
        "mistral_mib_multi_query": m.bytes_multi_query / MIB,
        "mistral_groups": m.num_heads // m.num_kv_heads,
        "mistral_kv_heads": m.num_kv_heads,
        "mistral_heads": m.num_heads,
        "mistral_context": MISTRAL_7B.n_ctx,
    }
