"""The numbers of sliding-window attention (:func:`selfattn_ref.masks.sliding_window_mask`) on the
site's example, and what the window saves at a published model's size.

- :func:`cat_sat`: "The cat sat" as a decoder sees it (the example the_cat_sat_causal: identity
  projections, scaled), with a window of 2: "sat" no longer sees "The";
- :func:`entries`: the scores a window lets through, counted row by row, against the causal mask's;
- :func:`reach`: how far back a token's output can depend on after several layers of windows,
  found by chaining the masks (each layer lets information move at most window - 1 tokens back, so
  L layers reach L · (window - 1) tokens back);
- :func:`mistral_7b`: Mistral 7B's window of 4,096 in its context of 8,192: the scores, the cache
  (which keeps at most the last ``window`` tokens, a "rolling buffer") and the reach of its 32
  layers. The Mistral paper counts the band one key wider ("between i - W and i"), and so writes
  the reach as 32 × 4,096.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from .._validate import check_size, positive_integer
from ..attention import softmax
from ..kv_cache import MISTRAL_7B, kv_cache_bytes
from ..masks import causal_mask, sliding_window_mask

SLUG = "the_cat_sat_causal"
WINDOW = 2  # the window of the example


@dataclass(frozen=True)
class Windowed:
    """the_cat_sat_causal with the causal mask and with a sliding window."""

    tokens: tuple[str, ...]
    window: int
    causal: np.ndarray  # (n, n) boolean: the causal mask
    mask: np.ndarray  # (n, n) boolean: the sliding window's
    weights_causal: np.ndarray  # (n, n)
    weights: np.ndarray  # (n, n): with the window
    output_causal: np.ndarray  # (n, d_v)
    output: np.ndarray  # (n, d_v): with the window
    decimals: int


@cache
def cat_sat() -> Windowed:
    """ "The cat sat" (n = 3), causal and with a window of :data:`WINDOW`: masks and weights (n, n),
    outputs (n, d_v), from the example's scaled scores and values."""
    ex = examples.load(SLUG)
    st = examples.run(ex)
    n = len(ex.tokens)
    causal, window = causal_mask(n), sliding_window_mask(n, WINDOW)
    weights_causal = softmax(np.where(causal, st.scaled, -np.inf))
    weights = softmax(np.where(window, st.scaled, -np.inf))
    return Windowed(
        ex.tokens, WINDOW, causal, window, weights_causal, weights, weights_causal @ st.V, weights @ st.V, ex.decimals
    )


def entries(n, window) -> int:
    """The scores a sliding window of ``window`` keys lets through in an n × n matrix, counted row by
    row: row i lets through its last i + 1 keys, or ``window`` of them when that is fewer. Equal to the True entries of
    :func:`selfattn_ref.masks.sliding_window_mask` (n, n), without making it; the causal mask's
    count is ``entries(n, n)``, n(n + 1)/2."""
    n, window = positive_integer(n, "n"), positive_integer(window, "window")
    check_size((n,), f"with n = {n}, the rows")
    return int(np.minimum(np.arange(1, n + 1), window).sum())


def reach(n, window, num_blocks) -> int:
    """How many tokens back the last of n tokens can read after ``num_blocks`` blocks (layers) of
    sliding-window attention, found by chaining the (n, n) mask: key j reaches query i through L
    layers when a path of L allowed steps leads from j to i. At most n - 1.

    What the last query reaches is always a run of keys up to itself (each row of the mask is one), so
    each layer adds what the row of the farthest key reached allows: one row of the mask a layer, and
    no more than n - 1 layers (the first token is reached by then), where multiplying the masks took
    n³ steps a layer."""
    n, num_blocks = positive_integer(n, "n"), positive_integer(num_blocks, "num_blocks")
    mask = sliding_window_mask(n, window)  # (n, n), checks n and window
    farthest = int(np.argmax(mask[-1]))  # layer 1: the first key the last query may read
    for _ in range(min(num_blocks, n) - 1):  # each further layer
        farthest = int(np.argmax(mask[farthest]))  # the first key that the farthest token reached may read
    return n - 1 - farthest


@dataclass(frozen=True)
class Saved:
    """What Mistral 7B's window saves at its context, for one sequence."""

    n_ctx: int  # its context
    window: int
    num_blocks: int  # its blocks (layers)
    entries_causal: int  # scores per head and layer with the causal mask alone
    entries_window: int  # with the window
    cache_bytes_causal: int  # the KV cache at the whole context, float16
    cache_bytes_window: int  # with only the last `window` tokens kept
    reach: int  # tokens back the last token can read through all its blocks: num_blocks · (window - 1)


@cache
def mistral_7b() -> Saved:
    """Mistral 7B (:data:`selfattn_ref.kv_cache.MISTRAL_7B`): a window of 4,096 at a context of 8,192,
    32 layers, 8 key-value heads of 128, float16 (2 bytes a number)."""
    m = MISTRAL_7B
    d_head = m.d_model // m.num_heads
    return Saved(
        m.n_ctx,
        m.window,
        m.num_blocks,
        entries(m.n_ctx, m.n_ctx),
        entries(m.n_ctx, m.window),
        kv_cache_bytes(m.num_blocks, m.num_kv_heads, m.n_ctx, d_head, 2),
        kv_cache_bytes(m.num_blocks, m.num_kv_heads, min(m.n_ctx, m.window), d_head, 2),
        m.num_blocks * (m.window - 1),
    )
