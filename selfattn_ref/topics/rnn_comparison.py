"""The computations of docs/rnn-comparison.md: self-attention next to attention in an RNN
encoder-decoder.

- the tiny worked RNN: an encoder reads "The cat sat" one token after another, and a decoder
  state ``s`` attends to its hidden states with additive (Bahdanau) and dot-product (Luong)
  scoring. Its weights are data, ``selfattn_ref/examples/rnn/<slug>.toml``, read by
  :func:`selfattn_ref.examples.load_rnn`; :func:`rnn_steps` computes every step with the
  functions of :mod:`selfattn_ref.rnn`, and :func:`without_first` reads the sentence without
  its first token;
- :func:`compare`, which counts what one layer of each kind costs for n tokens of width d, and
  :data:`CASES`, the (n, d) pairs the page's cost table shows.

Row-vector convention, as in the rest of the package: h_t = tanh(x_t·W_xh + h_{t-1}·W_hh).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..examples import RNNExample
from ..rnn import additive_attention, additive_scores, dot_attention, dot_scores, rnn_encoder

# The (n, d) pairs of the cost table: the tiny example, a 64-token sentence at the original
# Transformer's width, n = d, and a long input.
CASES = ((3, 4), (64, 512), (512, 512), (4096, 512))


@dataclass(frozen=True)
class RNNSteps:
    """Every intermediate result of the worked RNN, in the order the page shows them."""

    from_input: np.ndarray  # (n, d_h), x_t·W_xh
    from_previous: np.ndarray  # (n, d_h), h_{t-1}·W_hh (h_0 = 0)
    before_tanh: np.ndarray  # (n, d_h), their sum
    H: np.ndarray  # (n, d_h), the hidden states h_1 .. h_n
    s_part: np.ndarray  # (d_a,), s·W_s
    h_parts: np.ndarray  # (n, d_a), h_j·W_h
    additive_hidden: np.ndarray  # (n, d_a), tanh(s·W_s + h_j·W_h)
    additive_scores: np.ndarray  # (n,)
    additive_weights: np.ndarray  # (n,), sum to 1
    additive_context: np.ndarray  # (d_h,)
    dot_scores: np.ndarray  # (n,)
    dot_weights: np.ndarray  # (n,), sum to 1
    dot_context: np.ndarray  # (d_h,)


def _check(ex) -> RNNExample:
    if not isinstance(ex, RNNExample):
        raise ValueError(f"ex must be an RNNExample (selfattn_ref.examples.load_rnn), got {type(ex).__name__}")
    return ex


def rnn_steps(ex: RNNExample) -> RNNSteps:
    """Every step of the worked RNN ``ex``, computed with the package's functions.

    The encoder's states H (n, d_h), then for each kind of scoring the scores and weights
    (n,) and the context (d_h,); :class:`RNNSteps` lists every field with its shape.
    """
    ex = _check(ex)
    H = rnn_encoder(ex.E, ex.W_xh, ex.W_hh)  # (n, d_h), one state after another
    previous = np.vstack([np.zeros((1, H.shape[1])), H[:-1]])  # (n, d_h): h_0 = 0, h_1, .., h_{n-1}
    from_input, from_previous = ex.E @ ex.W_xh, previous @ ex.W_hh
    additive_context, additive_weights = additive_attention(ex.s, H, ex.W_s, ex.W_h, ex.v)
    dot_context, dot_weights = dot_attention(ex.s, H)
    s_part, h_parts = ex.s @ ex.W_s, H @ ex.W_h  # (d_a,), (n, d_a)
    return RNNSteps(
        from_input=from_input,
        from_previous=from_previous,
        before_tanh=from_input + from_previous,
        H=H,
        s_part=s_part,
        h_parts=h_parts,
        additive_hidden=np.tanh(s_part + h_parts),
        additive_scores=additive_scores(ex.s, H, ex.W_s, ex.W_h, ex.v),
        additive_weights=additive_weights,
        additive_context=additive_context,
        dot_scores=dot_scores(ex.s, H),
        dot_weights=dot_weights,
        dot_context=dot_context,
    )


def without_first(ex: RNNExample) -> np.ndarray:
    """The encoder's states when it reads the sentence of ``ex`` without its first token:
    ex.E[1:] (n - 1, d_in) -> H (n - 1, d_h)."""
    ex = _check(ex)
    if len(ex.tokens) < 2:
        raise ValueError(f"ex must have at least 2 tokens to drop the first, got {len(ex.tokens)}")
    return rnn_encoder(ex.E[1:], ex.W_xh, ex.W_hh)


# --8<-- [start:compare]
def compare(n: int, d: int, d_in: int | None = None) -> dict:
    """What one layer costs for n tokens: a tanh RNN encoder and self-attention.

    Both read n vectors of width d_in (default d) and give n vectors of width d.
    Multiply-adds count the matrix products only, one multiply and one add a term:
      RNN: x_t·W_xh n·d_in·d, h_{t-1}·W_hh n·d·d (every step, the first too)
      self-attention: x·W_Q, x·W_K, x·W_V 3·n·d_in·d,
                      Q·Kᵀ n·n·d, weights·V n·n·d
    Not counted: biases, tanh, the division by √d_k, the softmax, an output
    projection. "Within tokens" products read one token; "between tokens" ones
    carry information from token to token. The longest path is the most updates
    (RNN state updates, or attention steps) on the way from one token's input to
    another token's output.
    """
    d_in = d if d_in is None else d_in
    for name, x in (("n", n), ("d", d), ("d_in", d_in)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ValueError(f"{name} must be a positive integer, got {x!r}")
        if x > 10**15:  # so that the ratios below, floats, cannot overflow
            raise ValueError(f"{name} must be at most 10**15, got a larger integer")
    rnn = {
        "sequential_steps": n,  # h_t needs h_{t-1}
        "longest_path": n,  # x_1 -> h_1 -> h_2 -> ... -> h_n
        "multiply_adds_within_tokens": n * d_in * d,  # x_t·W_xh
        "multiply_adds_between_tokens": n * d * d,  # h_{t-1}·W_hh
    }
    attn = {
        "sequential_steps": 1,  # every row at once, in a few matrix products
        "longest_path": 1,  # x_1 -> y_n in one weighted sum
        "multiply_adds_within_tokens": 3 * n * d_in * d,  # x·W_Q, x·W_K, x·W_V
        "multiply_adds_between_tokens": n * n * d + n * n * d,  # Q·Kᵀ, weights·V
    }
    within = "multiply_adds_within_tokens"
    between = "multiply_adds_between_tokens"
    for m in (rnn, attn):
        m["multiply_adds"] = m[within] + m[between]
    return {
        "n": n,
        "d": d,
        "d_in": d_in,
        "rnn": rnn,
        "self_attention": attn,
        # (3·d_in + 2·n) / (d_in + d), and 2·n / d
        "ratio": attn["multiply_adds"] / rnn["multiply_adds"],
        "between_tokens_ratio": attn[between] / rnn[between],
    }


# --8<-- [end:compare]
