"""docs/kv-cache.md, sliding-window attention: what the page may quote of "The cat sat" with a window
of two tokens, beside the causal mask, and of what Mistral 7B's window saves, and its tables.

The computation is :mod:`selfattn_ref.topics.sliding_window` (:func:`selfattn_ref.masks.sliding_window_mask`
on the example the_cat_sat_causal, the scores a window lets through counted row by row, and the
reach of several layers found by chaining the masks); this module only formats and registers.
"""

from __future__ import annotations

from selfattn_ref.topics.sliding_window import cat_sat, entries, mistral_7b, reach

from ...audit.quantities import Quantity, grid, source
from ...fmt import grouped
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table

MIB = 2**20
REACH = (8, 2, 3)  # n, window, layers of the small reach the page shows


def _cols(d: int) -> list[str]:
    return [f"c{k + 1}" for k in range(d)]


@source("sliding_window")
def _quantities():
    w = cat_sat()
    tok = list(w.tokens)
    n = len(tok)
    q = [
        Quantity("sliding_window window", w.window),
        Quantity("sliding_window scores let through", entries(n, w.window)),
        Quantity("sliding_window scores let through, causal", entries(n, n)),
        Quantity("sliding_window reach of 3 layers of window 2", reach(*REACH)),
    ]
    q += grid("sliding_window weights", w.weights, tok, tok, True)
    q += grid("sliding_window weights, causal", w.weights_causal, tok, tok, True)
    q += grid("sliding_window output", w.output, tok, _cols(w.output.shape[1]))
    q += grid("sliding_window output, causal", w.output_causal, tok, _cols(w.output.shape[1]))
    m = mistral_7b()
    q += [
        Quantity("sliding_window Mistral 7B window", m.window),
        Quantity("sliding_window Mistral 7B context", m.n_ctx),
        Quantity("sliding_window Mistral 7B blocks", m.num_blocks),
        Quantity("sliding_window Mistral 7B reach", m.reach),
        Quantity("sliding_window Mistral 7B MiB, float16", m.cache_bytes_window / MIB),
        Quantity("sliding_window Mistral 7B MiB, float16, causal", m.cache_bytes_causal / MIB),
    ]
    return q


@generated("sliding_window/mask.md")
def _mask():
    w = cat_sat()
    return matrix_table(w.mask.astype(float), w.tokens, w.tokens, 0, "query ↓ key →")


@generated("sliding_window/weights.md")
def _weights():
    w = cat_sat()
    return weights_table(w.weights, w.tokens, w.tokens, w.decimals, "attention weights of “The cat sat”, window of 2")


@generated("sliding_window/weights_causal.md")
def _weights_causal():
    w = cat_sat()
    return weights_table(w.weights_causal, w.tokens, w.tokens, w.decimals, "attention weights of “The cat sat”, causal")


@generated("sliding_window/mistral.md")
def _mistral():
    """Mistral 7B's scores per head and layer, and its cache, with the causal mask alone and with its window."""
    m = mistral_7b()
    lines = [
        f"| Mistral 7B, {grouped(m.n_ctx)} tokens | causal mask alone | window of {grouped(m.window)} |",
        "|---|---:|---:|",
        f"| scores, one head of one layer | {grouped(m.entries_causal)} | {grouped(m.entries_window)} |",
        f"| KV cache, float16, all {m.num_blocks} layers | {grouped(m.cache_bytes_causal / MIB)} MiB | "
        f"{grouped(m.cache_bytes_window / MIB)} MiB |",
    ]
    return "\n".join(lines) + "\n"


@topic_values("sliding_window")
def _exercise_values() -> dict:
    n, window, layers = REACH
    return {
        "n": n,
        "window": window,
        "layers": layers,
        "entries": entries(n, window),
        "entries_causal": entries(n, n),
        "entries_full_band": n * window,  # a known mistake: every row counted as a whole window
        "reach": reach(n, window, layers),
        "reach_window_times_layers": window * layers,  # a known mistake: the token itself counted as a step back
    }
