"""docs/kv-cache.md, its first half: what the page may quote of "The cat sat" read one token at a time
by the two-head causal layer, with and without the KV cache, and of the cache's size for published
models, and its tables. (Grouped-query attention and the sliding window, the page's second half, are
publish/generate/topics/grouped_query.py and sliding_window.py.)

The computation is :mod:`selfattn_ref.topics.kv_cache` (:func:`selfattn_ref.kv_cache.kv_cache_steps`,
which counts the multiply-adds as it performs the products, and
:func:`selfattn_ref.kv_cache.kv_cache_shape` and :func:`~selfattn_ref.kv_cache.kv_cache_bytes` for
the models of :data:`selfattn_ref.kv_cache.GPT2_SMALL` and :data:`~selfattn_ref.kv_cache.MISTRAL_7B`);
this module only formats and registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref import examples
from selfattn_ref.topics.kv_cache import NUM_HEADS, SLUG, gpt2_small, mistral_7b, run

from ...audit.quantities import Quantity, grid, source
from ...escape import md_text
from ...fmt import grouped
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table

PRODUCTS = ("queries", "keys", "values", "scores", "weights times values", "output projection")
MIB = 2**20  # bytes in a mebibyte, MiB


def _cols(d: int) -> list[str]:
    return [f"c{k + 1}" for k in range(d)]


def _decimals() -> int:
    return examples.load(SLUG).decimals


def totals() -> tuple[list[int], list[int]]:
    """Each step's multiply-adds with the cache and without it."""
    r = run()
    return [sum(s.multiply_adds.values()) for s in r.steps], [sum(s.multiply_adds_recomputed.values()) for s in r.steps]


# --- what the page may quote ---------------------------------------------------------------


@source("kv_cache")
def _quantities():
    r = run()
    tok = list(examples.load(SLUG).tokens)
    d_model = r.output.shape[1]
    q = [
        Quantity("kv_cache number of heads", NUM_HEADS),
        Quantity("kv_cache d_model", d_model),
        Quantity("kv_cache d_head", d_model // NUM_HEADS),
        Quantity("kv_cache largest difference", r.largest_difference),
    ]
    cached, again = totals()
    for s, step in enumerate(r.steps):
        word = tok[s]
        name = f"kv_cache step {step.position}"
        seen = tok[: step.position]
        q += grid(f"{name} weights", step.weights, [f"head {h + 1}" for h in range(NUM_HEADS)], seen, True)
        q += grid(f"{name} output", step.output[None], [word], _cols(d_model))
        q += grid(f"{name} output without the cache", step.recomputed[None], [word], _cols(d_model))
        for what in PRODUCTS:
            q.append(Quantity(f"{name} multiply-adds[{what}]", step.multiply_adds[what]))
            q.append(Quantity(f"{name} multiply-adds without the cache[{what}]", step.multiply_adds_recomputed[what]))
        q += [
            Quantity(f"{name} multiply-adds", cached[s]),
            Quantity(f"{name} multiply-adds without the cache", again[s]),
            Quantity(f"{name} multiply-adds saved", again[s] - cached[s]),
            Quantity(f"{name} numbers kept", step.K_cache.size + step.V_cache.size),
        ]
    q += [
        Quantity("kv_cache multiply-adds, all steps", sum(cached)),
        Quantity("kv_cache multiply-adds without the cache, all steps", sum(again)),
    ]
    for label, c in (("GPT-2 small", gpt2_small()), ("Mistral 7B", mistral_7b())):
        m = c.model  # its published sizes, which the page cites (selfattn_ref.kv_cache names the sources)
        q += [
            Quantity(f"kv_cache {label} layers", m.num_blocks),
            Quantity(f"kv_cache {label} width", m.d_model),
            Quantity(f"kv_cache {label} heads", m.num_heads),
            Quantity(f"kv_cache {label} key-value heads", m.num_kv_heads),
            Quantity(f"kv_cache {label} context", m.n_ctx),
            Quantity(f"kv_cache {label} d_head", c.d_head),
            Quantity(f"kv_cache {label} numbers per token", c.numbers_per_token),
            Quantity(f"kv_cache {label} numbers", c.numbers),
            Quantity(f"kv_cache {label} MiB, float16", c.bytes["float16"] / MIB),
            Quantity(f"kv_cache {label} MiB, float32", c.bytes["float32"] / MIB),
            Quantity(f"kv_cache {label} KiB per token, float16", c.bytes_per_token["float16"] / 1024),
        ]
    return q


# --- tables --------------------------------------------------------------------------------

for _s in range(3):

    @generated(f"kv_cache/cache_{_s + 1}.md")
    def _cache(s=_s):
        """What the cache holds after step s + 1: each token's key in each head, then its value (two
        tables of four columns: one of eight hid the values at the page's width)."""
        step = run().steps[s]
        tok = examples.load(SLUG).tokens[: step.position]
        d_head = step.K_cache.shape[-1]
        tables = []
        for what, M in (("key", step.K_cache), ("value", step.V_cache)):
            cols = [f"head {h + 1} {what} c{h * d_head + c + 1}" for h in range(NUM_HEADS) for c in range(d_head)]
            tables.append(matrix_table(np.hstack(list(M)), tok, cols, _decimals(), "token ↓"))
        return "\n".join(tables)

    @generated(f"kv_cache/weights_{_s + 1}.md")
    def _weights(s=_s):
        """The new token's weights over the tokens so far, in each head, with the cache."""
        step = run().steps[s]
        tok = examples.load(SLUG).tokens[: step.position]
        rows = [f"head {h + 1}" for h in range(NUM_HEADS)]
        return matrix_table(step.weights, rows, tok, _decimals(), "head ↓ key →")  # the new token's query, by head


@generated("kv_cache/outputs.md")
def _outputs():
    """Each token's output with the cache, and then without it (the layer run on the text so far):
    two tables of four columns, as one of eight hid the second at the page's width."""
    r = run()
    tok = examples.load(SLUG).tokens
    d = r.output.shape[1]
    tables = [
        matrix_table(M, tok, [f"{c}, {how}" for c in _cols(d)], _decimals(), "token ↓")
        for M, how in ((r.output, "cache"), (r.recomputed, "no cache"))
    ]
    return "\n".join(tables)


@generated("kv_cache/multiply_adds.md")
def _multiply_adds():
    """Each step's multiply-adds, product by product, with the cache and without it."""
    r = run()
    # Short headers (the steps' tokens are in the tabs above): with them, seven columns were wider than the page.
    head = ["product"] + [f"step {s.position}, cache" for s in r.steps]
    head += [f"step {s.position}, no cache" for s in r.steps]
    lines = ["| " + " | ".join(md_text(h) for h in head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for what in PRODUCTS:
        row = [s.multiply_adds[what] for s in r.steps] + [s.multiply_adds_recomputed[what] for s in r.steps]
        lines.append(f"| {md_text(what)} | " + " | ".join(map(grouped, row)) + " |")
    cached, again = totals()
    lines.append("| **total** | " + " | ".join(f"**{grouped(x)}**" for x in cached + again) + " |")
    return "\n".join(lines) + "\n"


@generated("kv_cache/sizes.md")
def _sizes():
    """The whole cache of GPT-2 small and Mistral 7B, one sequence of its whole context. The models'
    sizes are in the page's list above the table, and in the cache's shape: six columns, which fit
    the page's width (with the sizes, twelve hid the numbers the text then quotes)."""
    lines = [
        "| model | cache shape | numbers per token | numbers | float16 | float32 |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for c in (gpt2_small(), mistral_7b()):
        lines.append(
            f"| {md_text(c.model.name)} | `{c.shape}` | {grouped(c.numbers_per_token)} | {grouped(c.numbers)} "
            f"| {grouped(c.bytes['float16'] / MIB)} MiB | {grouped(c.bytes['float32'] / MIB)} MiB |"
        )
    return "\n".join(lines) + "\n"


# --- the exercises' numbers (docs/exercises/kv-cache.toml) ----------------------------------


@topic_values("kv_cache")
def _exercise_values() -> dict:
    r = run()
    cached, again = totals()
    g = gpt2_small()
    m = g.model
    return {
        "step_3_cache": cached[2],
        "step_3_no_cache": again[2],
        "step_3_saved": again[2] - cached[2],
        "step_3_scores": r.steps[2].multiply_adds["scores"],
        "gpt2_per_token": g.numbers_per_token,
        "gpt2_per_token_keys_only": g.numbers_per_token // 2,  # a known mistake: the values forgotten
        "gpt2_per_token_one_block": g.numbers_per_token // m.num_blocks,  # a known mistake: one layer
        # GPT-2 small's sizes under its name; the bare d_model is the page's layer's (the_cat_sat_two_heads)
        "gpt2_num_blocks": m.num_blocks,
        "gpt2_num_heads": m.num_heads,
        "gpt2_d_head": g.d_head,
        "d_model": examples.load(SLUG).E.shape[1],
    }
