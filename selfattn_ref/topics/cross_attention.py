"""The numbers of cross-attention in an encoder-decoder (:mod:`selfattn_ref.cross_attention`) on the
site's examples, and the RNN decoder's attention it replaced.

The source batch is the one of docs/masking.md: "The cat sat" and "The cat" + ``[PAD]``. The target
batch is in French, "Le chat est assis" ("the cat is sitting", four words for three) and "Le chat" +
two pads, with made-up vectors: each of
"Le", "chat" and "assis" has the vector of the English word it translates ("The", "cat", "sat"), and
"est" a vector of its own. In a trained model the two languages' vectors are learned apart, and W_Q
and W_K learn which target words should read which source words; here the projections are the
identity and the heads one, scaled by 1/√d, so that the weights can be read from the vectors.

Three layers attend, each with its mask (:func:`layers`):

- the encoder, source to source (n_k × n_k): the source's padding mask;
- the decoder, target to target (n × n): the causal mask and the target's padding mask;
- cross-attention, target to source (n × n_k): the source's padding mask only, with the decoder's
  outputs as queries and the encoder's as keys and values; and, to read it word by word, the target's
  vectors as queries and the source's as keys and values (``direct_weights``).

:func:`rnn_side_by_side` puts the RNN decoder of docs/rnn-comparison.md next to it: its state s
scores the encoder's states H by dot products (Luong), one target step at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..attention import scores
from ..batched import causal_self_attention
from ..cross_attention import cross_attention
from ..masks import causal_mask, padding_mask
from ..multihead import multi_head_attention
from ..rnn import dot_attention, dot_scores, rnn_encoder
from .masking import PAD, PAD_VECTOR

SOURCE = "the_cat_sat"  # the source sentence's tokens and vectors
SOURCE_LENGTHS = (3, 2)  # "The cat sat", "The cat" + [PAD]
TARGET = ("Le", "chat", "est", "assis")  # "the cat is sitting": four target words for three source words
TARGET_LENGTHS = (4, 2)  # "Le chat est assis", "Le chat" + [PAD] [PAD]
EST = np.array([0.0, 0.0, 1.0, 1.0])  # (d,): the made-up vector of "est", the one word with no English twin
TRANSLATES = {"Le": "The", "chat": "cat", "assis": "sat"}  # a target word gets its English word's vector


@dataclass(frozen=True)
class Layers:
    """The padded source and target batches through the three attention layers of an encoder-decoder."""

    source: tuple[tuple[str, ...], ...]  # each padded with PAD to n_k tokens
    target: tuple[tuple[str, ...], ...]  # each padded with PAD to n tokens
    X_source: np.ndarray  # (batch, n_k, d)
    X_target: np.ndarray  # (batch, n, d)
    encoder_mask: np.ndarray  # (batch, n_k, n_k): the source's padding mask, on every row
    decoder_mask: np.ndarray  # (batch, n, n): the causal mask and the target's padding mask
    cross_mask: np.ndarray  # (batch, n, n_k): the source's padding mask, on every target row
    memory: np.ndarray  # (batch, n_k, d): the encoder's output
    encoder_weights: np.ndarray  # (batch, 1, n_k, n_k)
    decoder: np.ndarray  # (batch, n, d): the decoder's self-attention output, the queries' side
    decoder_weights: np.ndarray  # (batch, 1, n, n)
    output: np.ndarray  # (batch, n, d): cross-attention's output
    weights: np.ndarray  # (batch, 1, n, n_k): cross-attention's weights, one row per target token
    direct_output: np.ndarray  # (batch, n, d): cross-attention of the target's vectors over the source's
    direct_weights: np.ndarray  # (batch, 1, n, n_k): its weights, before either sentence is mixed by self-attention
    direct_scaled: np.ndarray  # (batch, n, n_k): its scores, the target's vectors against the source's, over √d_k


def _batch(sentences, vectors: dict) -> np.ndarray:
    return np.array([[vectors[t] for t in s] for s in sentences])  # (batch, length, d)


@cache
def layers() -> Layers:
    """The source batch (2, 3, 4) through the encoder's self-attention, the target batch (2, 4, 4)
    through the decoder's causal self-attention, and the decoder's rows reading the encoder's by
    cross-attention, each layer with its mask; identity projections, one head."""
    ex = examples.load(SOURCE)
    english = dict(zip(ex.tokens, ex.E, strict=True))
    vectors = english | {PAD: PAD_VECTOR, "est": EST} | {t: english[s] for t, s in TRANSLATES.items()}
    n_k, n = len(ex.tokens), len(TARGET)
    source = tuple((*ex.tokens[:k], *[PAD] * (n_k - k)) for k in SOURCE_LENGTHS)
    target = tuple((*TARGET[:k], *[PAD] * (n - k)) for k in TARGET_LENGTHS)
    X_s, X_t = _batch(source, vectors), _batch(target, vectors)  # (2, 3, 4), (2, 4, 4)
    I = np.eye(ex.E.shape[1])  # noqa: E741 - the identity
    source_keys = padding_mask(list(SOURCE_LENGTHS), n_k)  # (batch, 1, n_k)
    encoder_mask = np.broadcast_to(source_keys, (len(source), n_k, n_k))
    memory, encoder_weights = multi_head_attention(X_s, I, I, I, I, 1, mask=encoder_mask)
    decoder = causal_self_attention(X_t, I, I, I, I, 1, lengths=list(TARGET_LENGTHS))
    decoder_mask = causal_mask(n)[None] & padding_mask(list(TARGET_LENGTHS), n)  # (batch, n, n)
    cross_mask = np.broadcast_to(source_keys, (len(source), n, n_k))
    output, weights = cross_attention(decoder.output, memory, I, I, I, I, 1, mask=source_keys)
    direct_output, direct_weights = cross_attention(X_t, X_s, I, I, I, I, 1, mask=source_keys)
    direct_scaled = scores(X_t, X_s) / np.sqrt(X_s.shape[-1])  # (batch, n, n_k)
    return Layers(
        source,
        target,
        X_s,
        X_t,
        encoder_mask,
        decoder_mask,
        cross_mask,
        memory,
        encoder_weights,
        decoder.output,
        decoder.weights,
        output,
        weights,
        direct_output,
        direct_weights,
        direct_scaled,
    )


@dataclass(frozen=True)
class SideBySide:
    """The RNN page's decoder state reading its encoder's states, two ways."""

    tokens: tuple[str, ...]
    H: np.ndarray  # (n, d): the RNN encoder's states, one after another
    s: np.ndarray  # (d,): the decoder's state, the one query
    scores: np.ndarray  # (n,): s · H[j], the dot products of Luong's attention
    scaled: np.ndarray  # (n,): s · H[j] / √d_k, the scores of cross-attention
    rnn_weights: np.ndarray  # (n,): softmax(s · H[j]), Luong's dot-product attention, unscaled
    rnn_context: np.ndarray  # (d,)
    cross_weights: np.ndarray  # (n,): cross_attention of s over H, one head, identity weights: softmax(s · H[j] / √d)
    cross_output: np.ndarray  # (d,)


@cache
def rnn_side_by_side() -> SideBySide:
    """The worked RNN of docs/rnn-comparison.md: its decoder state s (d,) attending over the encoder's
    states H (n, d) by dot products, and the same query and keys through
    :func:`selfattn_ref.cross_attention.cross_attention` (which divides the scores by √d)."""
    ex = examples.load_rnn("the_cat_sat")
    H = rnn_encoder(ex.E, ex.W_xh, ex.W_hh)  # (n, d)
    context, weights = dot_attention(ex.s, H)
    I = np.eye(H.shape[1])  # noqa: E741 - the identity
    output, cross_weights = cross_attention(ex.s[None], H, I, I, I, I, 1)  # (1, d), (1, 1, n)
    dots = dot_scores(ex.s, H)  # (n,)
    return SideBySide(
        ex.tokens, H, ex.s, dots, dots / np.sqrt(H.shape[1]), weights, context, cross_weights[0, 0], output[0]
    )
