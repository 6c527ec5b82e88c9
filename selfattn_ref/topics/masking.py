"""The computations of docs/masking.md beyond the steps of the example the_cat_sat_causal.

Three, each made of the package's functions:

- :func:`causal`: the causal mask as the matrix M that is added to the scaled scores (0 or -inf);
- :func:`zeroing`: the alternative the page rules out: softmax first, then set the weights of
  later keys to 0 (and, or not, divide each row by its new sum);
- :func:`padding`: "The cat sat" and "The cat" in one batch, the second padded with a pad token
  whose embedding is all zeros, with and without the padding mask, and "The cat" on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..attention import mix, scaled_dot_product_attention, softmax
from ..masks import causal_mask, padding_mask

SLUG = "the_cat_sat_causal"  # the example of the causal mask and of zeroing
PADDED = "the_cat_sat"  # the sentence of the padded batch, and its first two tokens
PAD = "[PAD]"  # BERT's name for it
PAD_VECTOR = np.zeros(4)  # (d,): the pad token's embedding (nn.Embedding starts its padding_idx row at 0)


@dataclass(frozen=True)
class Causal:
    """The causal mask of the_cat_sat_causal as a matrix that is added to the scaled scores."""

    tokens: tuple[str, ...]
    M: np.ndarray  # (n, n): 0 where query i may attend to key j, -inf where it may not
    masked: np.ndarray  # (n, n): scaled scores + M
    weights: np.ndarray  # (n, n)
    output: np.ndarray  # (n, d_v)
    decimals: int


@cache
def causal() -> Causal:
    """The example the_cat_sat_causal with its mask written as M (n, n) and added to the scaled
    scores (n, n); its weights and output are those of :func:`selfattn_ref.examples.run`."""
    ex = examples.load(SLUG)
    st = examples.run(ex)
    M = np.where(causal_mask(len(ex.tokens)), 0.0, -np.inf)  # (n, n)
    return Causal(ex.tokens, M, st.scaled + M, st.weights, st.output, ex.decimals)


@dataclass(frozen=True)
class Zeroing:
    """the_cat_sat_causal's scaled scores through the softmax with no mask, then the weights of
    later keys set to 0: what the page shows goes wrong."""

    tokens: tuple[str, ...]
    unmasked: np.ndarray  # (n, n) softmax of the scaled scores, no mask
    zeroed: np.ndarray  # (n, n) the same with the weights of later keys set to 0
    row_sums: np.ndarray  # (n,) what each zeroed row adds up to
    renormalized: np.ndarray  # (n, n) each zeroed row divided by its sum
    zeroed_output: np.ndarray  # (n, d_v) the zeroed weights times the values


@cache
def zeroing() -> Zeroing:
    """Softmax first, then zero: the weights (n, n) of the_cat_sat_causal's scaled scores without
    a mask, with the weights of later keys set to 0 afterwards; their row sums (n,), the rows
    divided by them, and the output (n, d_v) of the zeroed weights."""
    ex = examples.load(SLUG)
    st = examples.run(ex)
    unmasked = softmax(st.scaled)  # (n, n)
    zeroed = np.where(st.mask, unmasked, 0.0)  # (n, n)
    row_sums = zeroed.sum(axis=1)  # (n,)
    return Zeroing(ex.tokens, unmasked, zeroed, row_sums, zeroed / row_sums[:, None], mix(zeroed, st.V))


@dataclass(frozen=True)
class Padding:
    """A padded batch of two sentences, attended to with and without the padding mask."""

    sentences: tuple[tuple[str, ...], ...]  # each padded to the same length with PAD
    lengths: tuple[int, ...]  # real tokens per sentence
    X: np.ndarray  # (batch, n, d) the padded batch; identity projections, so Q = K = V = X
    mask: np.ndarray  # (batch, 1, n) True where the key is a real token
    output: np.ndarray  # (batch, n, d) with the padding mask
    weights: np.ndarray  # (batch, n, n)
    output_unmasked: np.ndarray  # (batch, n, d) without it
    weights_unmasked: np.ndarray  # (batch, n, n)
    alone_output: np.ndarray  # (length, d) the short sentence on its own, no padding
    alone_weights: np.ndarray  # (length, length)
    difference: float  # largest |output - alone| over the short sentence's real tokens, with the mask
    difference_unmasked: float  # the same without the mask


@cache
def padding() -> Padding:
    """ "The cat sat" and "The cat" + PAD in one batch X (2, 3, 4), attended to (scale 1/√d, no
    projections) with the padding mask (2, 1, 3) and without it, and "The cat" on its own."""
    ex = examples.load(PADDED)
    vec = dict(zip(ex.tokens, ex.E, strict=True)) | {PAD: PAD_VECTOR}
    short = ex.tokens[:2]  # "The cat"
    n, k = len(ex.tokens), len(short)
    sentences = (ex.tokens, (*short, *[PAD] * (n - k)))
    lengths = (n, k)
    X = np.array([[vec[t] for t in s] for s in sentences])  # (batch, n, d) = (2, 3, 4)
    mask = padding_mask(list(lengths), n)  # (2, 1, 3)
    output, weights = scaled_dot_product_attention(X, X, X, mask=mask)
    output_u, weights_u = scaled_dot_product_attention(X, X, X)
    Xs = X[1, :k]  # (k, d): "The cat" without its pad
    alone_output, alone_weights = scaled_dot_product_attention(Xs, Xs, Xs)
    return Padding(
        sentences,
        lengths,
        X,
        mask,
        output,
        weights,
        output_u,
        weights_u,
        alone_output,
        alone_weights,
        float(np.abs(output[1, :k] - alone_output).max()),
        float(np.abs(output_u[1, :k] - alone_output).max()),
    )
