"""FlashAttention's online softmax in PyTorch, the twin of :mod:`selfattn_ref.online_softmax`:
attention over the keys one tile at a time.

The plain computation makes the whole matrix of scores, n queries × n_k keys, before its softmax.
FlashAttention (Dao et al. 2022) never makes it: it reads the keys and values in tiles of ``tile``
keys and keeps, for each query, three things that summarise the tiles read so far: the largest
score seen (the running maximum m), the total of e^(score - m) over those keys (the running
total l), and the sum of e^(score - m) times each key's value (the running output O, not yet
divided by l). When a tile brings a larger maximum, the total and the output so far are multiplied
by e^(old m - new m), which puts them on the new maximum's scale; after the last tile, O / l is the
output, exactly the softmax's weighted sum. The largest array it holds is one tile of scores,
n × tile, where the plain softmax holds n × n_k.

:func:`online_softmax_attention` returns each tile's state and the result. FlashAttention also cuts
the queries into blocks, each independent of the others; here every query is in one block, so that
each tile's state is one table. The weights are not part of its result (FlashAttention keeps
m + ln l for each query, from which it computes them again when it needs them); they are computed
here that way, tile by tile, to show they are the plain softmax's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .._validate import as_scale, positive_integer
from ._validate import as_float_tensor, check_size, common_dtype, finite, shape

__all__ = ["OnlineSoftmax", "Tile", "online_softmax_attention"]


@dataclass(frozen=True)
class Tile:
    """The state after one tile of keys: keys ``start`` to ``stop`` - 1 (numbered from 0)."""

    start: int  # the tile's first key, from 0
    stop: int  # one past its last key
    scores: torch.Tensor  # (n, tile): the tile's scores, Q K_tile^T times the scale
    tile_max: torch.Tensor  # (n,): each query's largest score in this tile
    max_before: torch.Tensor  # (n,): the running maximum before the tile (-inf before the first)
    running_max: torch.Tensor  # (n,): the running maximum m after it
    rescale: torch.Tensor  # (n,): e^(max_before - running_max), what the total and output so far are multiplied by
    terms: torch.Tensor  # (n, tile): e^(score - running_max) for the tile's keys
    total_before: torch.Tensor  # (n,): the running total before the tile (0 before the first)
    running_total: torch.Tensor  # (n,): l = total_before · rescale + the tile's terms added up
    output_before: torch.Tensor  # (n, d_v): the running output before the tile (0 before the first)
    running_output: torch.Tensor  # (n, d_v): O = output_before · rescale + terms V_tile, not yet divided by l
    held: int  # the entries of the arrays this step holds besides the output O: scores, terms, rescale, m, l


@dataclass(frozen=True)
class OnlineSoftmax:
    """The tiles of :func:`online_softmax_attention` and what they give."""

    tiles: tuple  # one Tile per tile of keys, in order
    output: torch.Tensor  # (n, d_v): the last running output divided by the last running total
    logsumexp: torch.Tensor  # (n,): m + ln l, the natural logarithm of each row's total of e^score
    weights: torch.Tensor  # (n, n_k): e^(score - logsumexp), tile by tile: the softmax of the scores
    largest_held: int  # the most entries any step holds besides the output: 2 · n · tile + 3 · n at most
    scores_entries: int  # n · n_k: the entries of the matrix of scores it never makes (and of the weights)


# --8<-- [start:online_softmax_attention]
def online_softmax_attention(Q, K, V, tile, scale=None) -> OnlineSoftmax:
    """Attention over the keys in tiles of ``tile`` keys, with a running maximum, total and output.

    Q: (n, d_k), K: (n_k, d_k), V: (n_k, d_v); tile: how many keys a tile holds (the last may hold fewer);
    scale: the factor applied to the scores, 1/√d_k when None (as
    :func:`selfattn_ref.torch.scaled_dot_product_attention`, whose output and weights it gives, to
    rounding). For each tile of keys: its scores S (n, tile); the new running maximum
    m = max(old m, the tile's largest); rescale = e^(old m - m); the terms e^(S - m);
    l = l · rescale + the terms' sum; O = O · rescale + terms V_tile. Then output = O / l.
    Returns :class:`OnlineSoftmax`, with each tile's state.
    """
    Q = as_float_tensor(Q, "Q", ndim=2)
    K = as_float_tensor(K, "K", ndim=2)
    V = as_float_tensor(V, "V", ndim=2)
    if Q.shape[1] != K.shape[1]:
        raise ValueError(f"Q and K must have the same width, got Q {shape(Q)} and K {shape(K)}")
    if K.shape[0] != V.shape[0]:
        raise ValueError(f"K and V must have the same length, got K {shape(K)} and V {shape(V)}")
    tile = positive_integer(tile, "tile")
    given = as_scale(scale)
    scale = 1.0 / math.sqrt(Q.shape[1]) if given is None else given
    n, n_k, d_v = Q.shape[0], K.shape[0], V.shape[1]
    check_size((n, min(tile, n_k)), "a tile of scores (n, tile)", Q=Q, K=K)
    check_size((n, n_k), "the weights (n, n_k)", Q=Q, K=K)
    Q, K, V = common_dtype(Q, K, V)
    running_max = torch.full((n,), -math.inf, dtype=Q.dtype)  # (n,): nothing seen yet
    running_total = torch.zeros(n, dtype=Q.dtype)  # (n,)
    running_output = torch.zeros((n, d_v), dtype=Q.dtype)  # (n, d_v)
    tiles = []
    for start in range(0, n_k, tile):
        stop = min(start + tile, n_k)
        S = Q @ K[start:stop].T * float(scale)  # (n, b): this tile's scores only
        finite(S, "the scaled scores Q K^T * scale overflow", Q=Q, K=K, scale=float(scale))
        tile_max = S.amax(dim=1)  # (n,)
        new_max = torch.maximum(running_max, tile_max)  # (n,)
        rescale = torch.exp(running_max - new_max)  # (n,): 0 at the first tile, e^-inf
        terms = torch.exp(S - new_max[:, None])  # (n, b), each at most 1
        new_total = running_total * rescale + terms.sum(dim=1)  # (n,)
        new_output = running_output * rescale[:, None] + terms @ V[start:stop]  # (n, d_v)
        finite(new_output, "the running output (the terms times V) overflows", V=V)
        held = (
            S.numel() + terms.numel() + rescale.numel() + new_max.numel() + new_total.numel()
        )  # O is the output's own
        tiles.append(
            Tile(
                start,
                stop,
                S,
                tile_max,
                running_max,
                new_max,
                rescale,
                terms,
                running_total,
                new_total,
                running_output,
                new_output,
                held,
            )
        )
        running_max, running_total, running_output = new_max, new_total, new_output
    output = running_output / running_total[:, None]  # (n, d_v)
    logsumexp = running_max + torch.log(running_total)  # (n,)
    weights = torch.cat([torch.exp(t.scores - logsumexp[:, None]) for t in tiles], dim=1)  # (n, n_k)
    return OnlineSoftmax(tuple(tiles), output, logsumexp, weights, max(t.held for t in tiles), n * n_k)


# --8<-- [end:online_softmax_attention]
