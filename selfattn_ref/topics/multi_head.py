"""The computations of docs/multi-head.md: "The cat sat" with two heads of width 2.

The embeddings and W_Q = W_K = W_V come from the example the_cat_sat_two_heads (a matrix that
regroups the features: head 1 gets x1 and x3, head 2 gets x2 and x4). The output projection
:data:`W_O` is the identity, so the output is the two heads' outputs side by side. Everything is
computed by :func:`selfattn_ref.examples.run`, which calls :func:`selfattn_ref.multi_head_attention`
for an example with several heads.

:func:`mixed` then shows an output projection that mixes the heads: the same attention with
:func:`seeded_W_O`, a seeded random stand-in for the W_O training would learn, drawn as the page on
learned weights draws its matrices (``numpy.random.default_rng(SEED).normal(MEAN, STD, (4, 4))``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..multihead import multi_head_attention

SLUG = "the_cat_sat_two_heads"
NUM_HEADS = 2
W_O = np.eye(4)  # (d_model, d_model): the identity, so that the output shows each head's part
SEED = 42  # of the seeded W_O of mixed(), as on the page on learned weights
MEAN = 0.0  # its entries' normal distribution
STD = 0.5


@dataclass(frozen=True)
class Heads:
    """Every step of the_cat_sat_two_heads, head by head."""

    tokens: tuple[str, ...]
    d_head: int
    Q: tuple[np.ndarray, ...]  # per head, (n, d_head): columns h·d_head .. (h+1)·d_head - 1 of E·W_Q
    K: tuple[np.ndarray, ...]  # per head, (n, d_head)
    V: tuple[np.ndarray, ...]  # per head, (n, d_head)
    scaled: np.ndarray  # (num_heads, n, n): Q_h·K_hᵀ / √d_head
    weights: np.ndarray  # (num_heads, n, n), from multi_head_attention
    head_outputs: tuple[np.ndarray, ...]  # per head, (n, d_head): weights_h · V_h
    output: np.ndarray  # (n, d_model), from multi_head_attention
    decimals: int


@cache
def heads() -> Heads:
    """the_cat_sat_two_heads as :func:`selfattn_ref.examples.run` computes it (its spec has
    ``heads = 2``: :func:`selfattn_ref.multi_head_attention` with W_O the identity), with each
    head's queries, keys and values (n, d_head), scaled scores and weights (num_heads, n, n) and
    output (n, d_head)."""
    ex = examples.load(SLUG)
    if ex.heads != NUM_HEADS or not np.array_equal(W_O, np.eye(ex.E.shape[1])):
        raise ValueError(f"{SLUG} must have {NUM_HEADS} heads and W_O the identity, as the page says")
    st = examples.run(ex)
    each = st.heads
    return Heads(
        tokens=ex.tokens,
        d_head=each[0].Q.shape[1],
        Q=tuple(h.Q for h in each),
        K=tuple(h.K for h in each),
        V=tuple(h.V for h in each),
        scaled=st.scaled,
        weights=st.weights,
        head_outputs=tuple(h.output for h in each),
        output=st.output,
        decimals=ex.decimals,
    )


@cache
def identity_heads() -> np.ndarray:
    """(num_heads, n, n): the weights of the two heads of the_cat_sat_two_heads' embeddings with
    W_Q = W_K = W_V = W_O = identity."""
    E = examples.load(SLUG).E
    eye = np.eye(E.shape[1])
    return multi_head_attention(E, eye, eye, eye, eye, NUM_HEADS)[1]


def seeded_W_O(d_model: int) -> np.ndarray:
    """(d_model, d_model): a seeded random stand-in for a trained output projection,
    ``numpy.random.default_rng(SEED).normal(MEAN, STD, (d_model, d_model))``."""
    return np.random.default_rng(SEED).normal(MEAN, STD, (d_model, d_model))


@dataclass(frozen=True)
class Mixed:
    """the_cat_sat_two_heads with :func:`seeded_W_O` as its output projection."""

    W_O: np.ndarray  # (d_model, d_model): row k multiplies column k of the heads side by side
    concat: np.ndarray  # (n, d_model): Concat(head_1, ..., head_h), the output with W_O the identity
    parts: np.ndarray  # (num_heads, n, d_model): each head's columns of concat times its rows of W_O
    output: np.ndarray  # (n, d_model): concat·W_O, from multi_head_attention; the sum of parts
    weights: np.ndarray  # (num_heads, n, n): the heads' weights, the same as with W_O the identity


@cache
def mixed() -> Mixed:
    """The output of :func:`selfattn_ref.multi_head_attention` on the_cat_sat_two_heads with
    W_O = :func:`seeded_W_O` (d_model, d_model): the heads side by side (n, d_model), what each head
    brings to the output through its rows of W_O (num_heads, n, d_model), and the output (n, d_model)."""
    ex = examples.load(SLUG)
    d_model = ex.E.shape[1]
    W = seeded_W_O(d_model)
    output, weights = multi_head_attention(ex.E, ex.W_Q, ex.W_K, ex.W_V, W, NUM_HEADS)
    concat = heads().output  # W_O is the identity there: the heads side by side
    d_head = d_model // NUM_HEADS
    rows = [slice(h * d_head, (h + 1) * d_head) for h in range(NUM_HEADS)]  # head h's columns of concat
    parts = np.stack([concat[:, r] @ W[r, :] for r in rows])  # (num_heads, n, d_model)
    return Mixed(W_O=W, concat=concat, parts=parts, output=output, weights=weights)
