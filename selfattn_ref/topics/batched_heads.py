"""The numbers of batched multi-head causal self-attention (:mod:`selfattn_ref.batched`) on the
site's examples.

The batch is the one of docs/masking.md: "The cat sat" and "The cat", the second padded with
``[PAD]`` (an embedding of zeros) to three tokens. The two heads are those of docs/multi-head.md:
W_Q = W_K = W_V is the example the_cat_sat_two_heads' matrix, which gives head 1 the features x1
and x3 and head 2 the features x2 and x4, and W_O is the identity, so that the output shows each
head's part. With padding at the end, the causal mask already keeps every real token from the pads
after it: the padding mask changes only the pad's own row, and each sentence's real rows are what
the sentence gives alone (:func:`batch`'s ``alone``). Where the pads come first, or where there is
no causal mask (an encoder, :mod:`selfattn_ref.topics.cross_attention`), the padding mask is what
keeps the real tokens from reading them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..batched import CausalSteps, causal_self_attention
from .masking import PAD, PAD_VECTOR

SLUG = "the_cat_sat_two_heads"  # the sentence, W_Q = W_K = W_V and the number of heads
NUM_HEADS = 2
LENGTHS = (3, 2)  # "The cat sat", and "The cat" before its pad


@dataclass(frozen=True)
class Batch:
    """The padded batch through :func:`selfattn_ref.batched.causal_self_attention`, with both masks
    and with the causal mask alone, and each sentence on its own."""

    sentences: tuple[tuple[str, ...], ...]  # each padded with PAD to the same length
    lengths: tuple[int, ...]  # real tokens per sentence
    W: np.ndarray  # (d_model, d_model): W_Q = W_K = W_V
    W_O: np.ndarray  # (d_model, d_model): the identity
    steps: CausalSteps  # with the causal mask and the padding mask
    causal_only: CausalSteps  # with the causal mask alone (lengths None): only the pad's row differs
    alone: tuple[CausalSteps, ...]  # each sentence alone, unpadded, a batch of one
    largest_difference: float  # the largest |output - alone| over the real tokens of both sentences


@cache
def batch() -> Batch:
    """ "The cat sat" and "The cat" + PAD as X (2, 3, 4), two heads of width 2 (batch, num_heads, n,
    d_head) = (2, 2, 3, 2), through the layer with both masks, with the causal mask alone, and
    sentence by sentence."""
    ex = examples.load(SLUG)
    vec = dict(zip(ex.tokens, ex.E, strict=True)) | {PAD: PAD_VECTOR}
    n = len(ex.tokens)
    sentences = tuple((*ex.tokens[:k], *[PAD] * (n - k)) for k in LENGTHS)
    X = np.array([[vec[t] for t in s] for s in sentences])  # (2, 3, 4)
    W, W_O = ex.W_Q, np.eye(ex.E.shape[1])
    steps = causal_self_attention(X, W, W, W, W_O, NUM_HEADS, lengths=list(LENGTHS))
    causal_only = causal_self_attention(X, W, W, W, W_O, NUM_HEADS)
    alone = tuple(causal_self_attention(X[b : b + 1, :k], W, W, W, W_O, NUM_HEADS) for b, k in enumerate(LENGTHS))
    difference = max(
        float(np.abs(steps.output[b, :k] - a.output[0]).max())
        for (b, k), a in zip(enumerate(LENGTHS), alone, strict=True)
    )
    return Batch(sentences, LENGTHS, W, W_O, steps, causal_only, alone, difference)
