"""The numbers of rotary position embeddings (:mod:`selfattn_ref.rotary`) on the site's examples.

- :func:`turned`: the vectors of "dog bites man" and "man bites dog" turned for their positions
  (0, 1, 2), pair by pair, in both pairings: at d = 4, pair 0 turns by the position itself (in
  radians) and pair 1 by a hundredth of it, the angles of the sinusoidal encoding at d = 4;
- :func:`sentence`: each sentence through the first page's self-attention with its queries and keys
  turned (no projections, no scaling; the values are not turned), as docs/positional-encoding.md
  does with the sinusoidal encoding added instead. Unlike the added encoding, turning changes no
  vector's length, so each word's score with itself is the one without positions;
- :func:`relative_scores` and :func:`distance_check`: a query and a key turned for positions a and
  a + r, for many starting positions a and distances r, in both pairings: each score depends on r
  only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from .._validate import MAX_POSITION, as_choice, as_float_array, as_positions, check_size, integer_array, value_text
from ..attention import scaled_dot_product_attention, scores
from ..rotary import BASE, PAIRINGS, rotary_angles, rotary_embedding

SENTENCES = ("dog_bites_man", "man_bites_dog")
STARTS = range(32, 96)  # the starting positions a of the distance check (a + r never below 0)
OFFSETS = range(-32, 33)  # the distances r of the distance check, back and forward


@dataclass(frozen=True)
class Turned:
    """A sentence's vectors turned for their positions."""

    tokens: tuple[str, ...]
    positions: np.ndarray  # (n,): 0, 1, 2
    E: np.ndarray  # (n, d): the vectors before
    angles: np.ndarray  # (n, d/2): the angle of each pair at each position
    cos: np.ndarray  # (n, d/2)
    sin: np.ndarray  # (n, d/2)
    interleaved: np.ndarray  # (n, d): turned, x1 paired with x2 and x3 with x4
    halves: np.ndarray  # (n, d): turned, x1 paired with x3 and x2 with x4
    decimals: int


def turned(slug) -> Turned:
    """The example ``slug`` (one of :data:`SENTENCES`) turned for positions 0..n - 1: angles (n, d/2)
    and the vectors (n, d) in both pairings."""
    return _turned(as_choice(slug, "slug", SENTENCES))


@cache
def _turned(slug: str) -> Turned:
    ex = examples.load(slug)
    n, d = ex.E.shape
    positions = np.arange(n)
    angles = rotary_angles(positions, d)
    return Turned(
        ex.tokens,
        positions,
        ex.E,
        angles,
        np.cos(angles),
        np.sin(angles),
        rotary_embedding(ex.E, positions),
        rotary_embedding(ex.E, positions, pairing="halves"),
        ex.decimals,
    )


@dataclass(frozen=True)
class Sentence:
    """A sentence through softmax(Q Kᵀ) V with Q = K = its turned vectors and V = its vectors."""

    tokens: tuple[str, ...]
    scores: np.ndarray  # (n, n): turned · turned
    scores_without: np.ndarray  # (n, n): the plain vectors' scores, as the first page has them
    weights: np.ndarray  # (n, n)
    output: np.ndarray  # (n, d)
    mean: np.ndarray  # (d,): the outputs' average over the words


def sentence(slug, pairing="interleaved") -> Sentence:
    """The example ``slug`` with its queries and keys turned (``pairing`` as in
    :func:`selfattn_ref.rotary.rotary_embedding`), unscaled: scores and weights (n, n), output (n, d)."""
    return _sentence(as_choice(slug, "slug", SENTENCES), as_choice(pairing, "pairing", PAIRINGS))


@cache
def _sentence(slug: str, pairing: str) -> Sentence:
    t = turned(slug)
    X = t.interleaved if pairing == "interleaved" else t.halves
    output, weights = scaled_dot_product_attention(X, X, t.E, scale=1.0)
    return Sentence(t.tokens, scores(X, X), scores(t.E, t.E), weights, output, output.mean(axis=0))


def relative_scores(q, k, starts, offsets, base=BASE, pairing="interleaved") -> np.ndarray:
    """The score of the query ``q`` (d,) turned for position a with the key ``k`` (d,) turned for
    position a + r, for every a of ``starts`` and r of ``offsets`` (a + r must not be negative).

    Returns (len(starts), len(offsets)): row a, column r. Each column is one number repeated, to
    rounding: the score depends on the distance r only.
    """
    q = as_float_array(q, "q", ndim=1)[None, :]  # (1, d)
    k = as_float_array(k, "k", ndim=1)[None, :]
    if q.shape != k.shape:
        raise ValueError(f"q and k must have the same width, got q {q.shape[1:]} and k {k.shape[1:]}")
    starts = as_positions(starts, None, "starts")  # (a,)
    bad = ValueError(f"offsets must be a list of integers, got {value_text(offsets)}")
    offsets = integer_array(offsets, "offsets", bad)  # the one reader of integers, as positions are read
    if offsets.ndim != 1 or offsets.size == 0:
        raise bad
    offsets = [int(r) for r in offsets.tolist()]  # Python ints: no sum below wraps around
    check_size((len(starts), len(offsets), q.shape[1]), "the turned keys (starts, offsets, d)", q=q, k=k)
    if min(offsets) + int(starts.min()) < 0:
        raise ValueError("starts and offsets must give no negative position (a + r >= 0)")
    if max(offsets) + int(starts.max()) > MAX_POSITION:
        raise ValueError("starts and offsets must give no position beyond 2**53 (a + r <= 2**53)")
    keys_at = starts[:, None] + np.array(offsets, dtype=np.int64)[None, :]  # (a, r): the key's position
    Q = rotary_embedding(np.repeat(q, len(starts), axis=0), starts, base=base, pairing=pairing)  # (a, d)
    K = rotary_embedding(np.repeat(k, keys_at.size, axis=0), keys_at.ravel(), base=base, pairing=pairing)
    return np.einsum("ad,ard->ar", Q, K.reshape(len(starts), len(offsets), -1))  # (a, r)


@dataclass(frozen=True)
class DistanceCheck:
    """dog's vector as the query and man's as the key, at every start a and distance r."""

    starts: tuple[int, ...]
    offsets: tuple[int, ...]
    interleaved: np.ndarray  # (64, 65): a score per start (row) and distance (column), interleaved pairs
    halves: np.ndarray  # (64, 65): the same with halves
    largest_spread: float  # the largest max - min of a column, over both pairings: rounding
    smallest_range: float  # the smallest max - min of a row (one start, every distance), over both pairings
    largest_pairing_difference: float  # the largest |interleaved - halves| at one distance


@cache
def distance_check() -> DistanceCheck:
    """:func:`relative_scores` of dog (query) and man (key), from "dog bites man", for the starts
    :data:`STARTS` and the distances :data:`OFFSETS` (back and forward), in both pairings: two grids,
    a row for each start and a column for each distance."""
    ex = examples.load("dog_bites_man")
    vec = dict(zip(ex.tokens, ex.E, strict=True))
    grids = {p: relative_scores(vec["dog"], vec["man"], STARTS, OFFSETS, pairing=p) for p in PAIRINGS}
    spread = max(float((g.max(axis=0) - g.min(axis=0)).max()) for g in grids.values())
    smallest_range = min(float((g.max(axis=1) - g.min(axis=1)).min()) for g in grids.values())
    pairing_difference = float(np.abs(grids["interleaved"][0] - grids["halves"][0]).max())
    return DistanceCheck(
        tuple(STARTS), tuple(OFFSETS), grids["interleaved"], grids["halves"], spread, smallest_range, pairing_difference
    )
