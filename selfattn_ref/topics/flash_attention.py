"""The numbers of FlashAttention's online softmax (:mod:`selfattn_ref.online_softmax`) on the
site's first example, and the memory it saves at a published model's size.

"bank of river" as the first page computes it (no projections, no scaling: Q = K = V = the
embeddings, scale 1), its three keys read in tiles of one key and of two, each tile's running
maximum, total and output, ending on the weights and outputs of the plain softmax. At three tokens
the tiles save nothing (a tile's bookkeeping is as large as the 3 × 3 scores); :func:`memory` counts
what they save at GPT-2 small's context of 1,024 tokens and head width of 64.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from .._validate import value_text
from ..attention import scaled_dot_product_attention
from ..kv_cache import GPT2_SMALL
from ..online_softmax import OnlineSoftmax, online_softmax_attention

SLUG = "bank_of_river"
TILES = (1, 2)  # the tile sizes the page shows
MEMORY_TILE = 128  # keys per tile at GPT-2 small's size
MEMORY_SEED = 0  # the random queries, keys and values of the memory count (any give the same count)


@dataclass(frozen=True)
class Tiled:
    """bank_of_river in tiles of ``tile`` keys, beside the plain softmax."""

    tokens: tuple[str, ...]
    tile: int
    online: OnlineSoftmax  # every tile's state, the output and the weights
    weights: np.ndarray  # (n, n): the plain softmax's weights
    output: np.ndarray  # (n, d): the plain softmax's output
    largest_difference: float  # the largest |online - plain| over the weights and the outputs
    decimals: int


def tiled(tile) -> Tiled:
    """bank_of_river (n = 3, d = 4, unscaled) in tiles of ``tile`` keys (1 or 2, :data:`TILES`), with
    the plain softmax's weights (n, n) and output (n, d)."""
    if isinstance(tile, bool) or not isinstance(tile, int) or tile not in TILES:
        raise ValueError(f"tile must be one of {TILES}, got {value_text(tile)}")
    return _tiled(tile)


@cache
def _tiled(tile: int) -> Tiled:
    ex = examples.load(SLUG)
    online = online_softmax_attention(ex.E, ex.E, ex.E, tile, scale=1.0)
    output, weights = scaled_dot_product_attention(ex.E, ex.E, ex.E, scale=1.0)
    difference = max(float(np.abs(online.weights - weights).max()), float(np.abs(online.output - output).max()))
    return Tiled(ex.tokens, tile, online, weights, output, difference, ex.decimals)


@dataclass(frozen=True)
class Memory:
    """What one head's attention holds besides its inputs and output, plain and in tiles."""

    n: int  # queries and keys: GPT-2 small's context
    d_head: int  # the width of a head
    tile: int  # keys per tile
    scores_entries: int  # n · n: the scores the plain softmax makes (and as many weights)
    largest_held: int  # the most entries a step of the tiles holds: its scores and terms, m, l and the rescale


@cache
def memory() -> Memory:
    """One head of GPT-2 small (n = 1,024 tokens, d_head = 64) on seeded random queries, keys and
    values, in tiles of :data:`MEMORY_TILE` keys: the entries the tiles hold, counted from the arrays
    the run makes, against the n × n scores they never make."""
    n, d_head = GPT2_SMALL.n_ctx, GPT2_SMALL.d_model // GPT2_SMALL.num_heads
    Q, K, V = np.random.default_rng(MEMORY_SEED).standard_normal((3, n, d_head))
    run = online_softmax_attention(Q, K, V, MEMORY_TILE)
    return Memory(n, d_head, MEMORY_TILE, run.scores_entries, run.largest_held)
