"""The page "Common mistakes": each classic mistake next to the right computation, on the
site's small examples, so that the page can say in numbers what goes wrong.

Every ``*_wrong`` array here is deliberately wrong: it is what the mistake computes, kept so
that the page (and the tests) can quote it. The right arrays use the package's functions.
Shapes: ``n`` tokens (3, "The cat sat"), heads ``h``, widths as in :mod:`selfattn_ref.attention`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..attention import scaled_dot_product_attention, scores, softmax
from ..masks import causal_mask, padding_mask

# Stand-ins for learned weights in the Q-and-K mistake, (d_model, d_k) = (4, 2).
W_Q = np.array([[1, 0], [0, 1], [1, 0], [0, 0]], dtype=np.float64)
W_K = np.array([[0, 1], [1, 0], [0, 0], [1, 1]], dtype=np.float64)
OVERFLOW_FACTOR = 30  # the embeddings times this: scaled scores of 0 to 1800
# e^x overflows above these: the natural logarithm of the largest float64 and float32.
EXP_LIMIT_FLOAT64 = float(np.log(np.finfo(np.float64).max))  # 709.78...
EXP_LIMIT_FLOAT32 = float(np.log(np.float64(np.finfo(np.float32).max)))  # 88.72...
PAD_VECTOR = np.zeros(4)  # the pad token's embedding, as on the masking page


def _cat_sat() -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """(tokens, E (n, d), scaled scores (n, n)) of "The cat sat" with identity projections."""
    ex = examples.load("the_cat_sat")
    st = examples.run(ex)
    return ex.tokens, ex.E, st.scaled


def _naive_softmax(S, axis: int = -1) -> np.ndarray:
    """exp(S) / sum(exp(S)) without subtracting the largest score: overflows to inf, then NaN.
    S: any shape -> the same shape."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(S)
        return e / e.sum(axis=axis, keepdims=True)


@dataclass(frozen=True)
class Pair:
    """The right result and the mistake's, as the page shows them."""

    right: np.ndarray  # (n, n) weights, or as the field's comment says
    wrong: np.ndarray


@dataclass(frozen=True)
class HeadScale:
    """Two heads' weights, scaled the right way and the wrong way."""

    right: np.ndarray  # (num_heads, n, n) weights, scores divided by √d_k (the head's width, 2)
    wrong: np.ndarray  # (num_heads, n, n) weights, scores divided by √d_model (4)
    d_k: int
    d_model: int


@cache
def head_scale() -> HeadScale:
    """Two heads of width d_k = 2 on "The cat sat" (identity projections: head 1 sees features
    1-2, head 2 features 3-4), scaled by 1/√d_k (right) or 1/√d_model (wrong). Weights (num_heads, n, n)."""
    _, E, _ = _cat_sat()
    d_model, h = E.shape[1], 2
    d_k = d_model // h
    X = np.swapaxes(E.reshape(E.shape[0], h, d_k), 0, 1)  # (h, n, d_k)
    _, right = scaled_dot_product_attention(X, X, X, scale=1 / np.sqrt(d_k))
    _, wrong = scaled_dot_product_attention(X, X, X, scale=1 / np.sqrt(d_model))
    return HeadScale(right, wrong, d_k, d_model)


@cache
def transposed_mask() -> Pair:
    """Causal weights with np.tril (right) and with np.triu (wrong: each token sees the future), (n, n)."""
    _, _, S = _cat_sat()
    n = S.shape[0]
    right = softmax(np.where(causal_mask(n), S, -np.inf))
    wrong = softmax(np.where(causal_mask(n).T, S, -np.inf))
    return Pair(right, wrong)


@cache
def zeroed_not_renormalized() -> Pair:
    """Causal weights (right) and the unmasked softmax with the future set to 0 afterwards (wrong:
    rows no longer add up to 1), (n, n) each."""
    _, _, S = _cat_sat()
    allowed = causal_mask(S.shape[0])
    right = softmax(np.where(allowed, S, -np.inf))
    wrong = np.where(allowed, softmax(S), 0.0)
    return Pair(right, wrong)


@cache
def wrong_axis() -> Pair:
    """Softmax along each row (right) and down each column (wrong: columns add up to 1, rows do not),
    (n, n) each."""
    _, _, S = _cat_sat()
    return Pair(softmax(S, axis=-1), softmax(S, axis=0))


@cache
def no_max_subtraction() -> Pair:
    """Weights of "The cat sat" with embeddings OVERFLOW_FACTOR times larger: softmax with the
    row's largest score subtracted (right) and without (wrong: e^900 overflows, inf/inf = NaN), (n, n)."""
    _, E, _ = _cat_sat()
    X = E * OVERFLOW_FACTOR
    S = scores(X, X) / np.sqrt(X.shape[1])  # (n, n), the scaled scores: 0 to 1800
    return Pair(softmax(S), _naive_softmax(S))


@cache
def big_scores() -> np.ndarray:
    """The scaled scores of :func:`no_max_subtraction`, (n, n)."""
    _, E, _ = _cat_sat()
    X = E * OVERFLOW_FACTOR
    return scores(X, X) / np.sqrt(X.shape[1])


@cache
def mask_added() -> Pair:
    """Causal weights with -inf above the diagonal (right) and with the 0/1 mask (1 = may attend)
    added to the scores (wrong: a hidden key still gets weight), (n, n) each."""
    _, _, S = _cat_sat()
    allowed = causal_mask(S.shape[0])
    return Pair(softmax(np.where(allowed, S, -np.inf)), softmax(S + allowed))


@dataclass(frozen=True)
class SharedQK:
    """Scaled scores with keys from W_K (right) and from W_Q (wrong)."""

    right: np.ndarray  # (n, n) scaled scores with Q = E·W_Q, K = E·W_K
    wrong: np.ndarray  # (n, n) scaled scores with K = E·W_Q too: a symmetric matrix


@cache
def shared_qk() -> SharedQK:
    """Scaled scores of "The cat sat" with Q = E·W_Q and K = E·W_K (right), and with the keys
    made by W_Q too (wrong), (n, n) each."""
    _, E, _ = _cat_sat()
    Q, K = E @ W_Q, E @ W_K  # (n, d_k)
    return SharedQK(scores(Q, K) / np.sqrt(W_Q.shape[1]), scores(Q, Q) / np.sqrt(W_Q.shape[1]))


@dataclass(frozen=True)
class PaddedRows:
    """A padded sentence's outputs, and its sentence vector pooled two ways."""

    tokens: tuple[str, ...]  # "The", "cat", "[PAD]"
    output: np.ndarray  # (n, d) with the padding mask: the [PAD] row is an output too
    pooled_right: np.ndarray  # (d,) the mean of the real tokens' outputs
    pooled_wrong: np.ndarray  # (d,) the mean of every row's output, [PAD] included


@cache
def padded_rows() -> PaddedRows:
    """ "cat sat" padded to three tokens, with the padding mask on the keys: the pad token's query
    row still gets an output, and averaging over every row (wrong) differs from averaging over the
    real tokens (right). Output (n, d), pooled vectors (d,)."""
    tokens, E, _ = _cat_sat()
    X = np.stack([E[1], E[2], PAD_VECTOR])  # (3, 4): cat, sat, [PAD]
    mask = padding_mask([2], 3)[0]  # (1, 3): keys cat, sat
    output, _ = scaled_dot_product_attention(X, X, X, mask=mask)
    return PaddedRows((*tokens[1:], "[PAD]"), output, output[:2].mean(axis=0), output.mean(axis=0))
