"""The pages "Common mistakes" and "Common mistakes at scale": each mistake next to the right computation, on the
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
from ..grouped_query import repeat_kv
from ..masks import causal_mask, padding_mask
from ..multihead import split_heads
from ..rotary import pairing_permutation, rotary_embedding
from . import masking

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


# --- attention at scale: the bugs of batched heads, caches, rotary positions, shared heads ------


@dataclass(frozen=True)
class CachePosition:
    """ "sat" generated after "The cat" was read, with rotary positions: its weights over The, cat,
    sat when its query and key are turned for its position, and when the position is off."""

    right: np.ndarray  # (n,): position 2 (from 0), as the layer run on the whole sentence gives
    off_by_one: np.ndarray  # (n,): position 3, the cache's length after "sat" was added to it
    restarted: np.ndarray  # (n,): position 0, the new token numbered as if it began a sentence
    recomputed: np.ndarray  # (n,): the last row of the layer on the whole sentence, no cache


ROPE_BASE = 10000.0  # the RoFormer paper's base, in the mistakes with rotary positions


@cache
def rope_cache_position() -> CachePosition:
    """ "The cat sat" (identity projections, one head, scaled by 1/√d): "The cat" read at positions
    0 and 1 and kept in the cache turned, then "sat" turned for position 2 (right), for 3 (wrong:
    ``len(cache)`` taken after appending) and for 0 (wrong: positions counted from 0 at each step).
    Its own score is right in all three (its query and key turn alike); its scores with the cached
    keys are not. Weights (n,) each."""
    _, E, _ = _cat_sat()
    scale = 1 / np.sqrt(E.shape[1])
    cached = rotary_embedding(E[:2], [0, 1], base=ROPE_BASE)  # (2, d): the keys kept for The, cat

    def weights_at(position: int) -> np.ndarray:
        x = rotary_embedding(E[2:], [position], base=ROPE_BASE)  # (1, d): sat's query and key, turned
        K = np.vstack([cached, x])  # (3, d)
        return softmax(scores(x, K)[0] * scale)

    full = rotary_embedding(E, [0, 1, 2], base=ROPE_BASE)  # (n, d)
    _, whole = scaled_dot_product_attention(full, full, E, mask=causal_mask(len(E)))
    return CachePosition(weights_at(2), weights_at(3), weights_at(0), whole[-1])


@dataclass(frozen=True)
class Pairing:
    """ "dog bites man"'s scores with rotary positions: turned in the pairing the vectors are laid out
    for, in the other one, and in the other one after reordering the entries."""

    right: np.ndarray  # (n, n): interleaved pairs, x1 with x2 and x3 with x4, the layout of the weights
    wrong: np.ndarray  # (n, n): halves, x1 with x3 and x2 with x4, on the same vectors
    reordered: np.ndarray  # (n, n): halves after the entries are put in pairing_permutation's order: right again


@cache
def rope_pairing() -> Pairing:
    """The scores (n, n) of "dog bites man" (no projections, unscaled) with queries and keys turned for
    positions 0, 1, 2: with interleaved pairs (right, if the weights were trained so), with halves on
    the same entries (wrong: a checkpoint loaded into the other convention's code), and with halves
    after the entries are reordered (:func:`selfattn_ref.rotary.pairing_permutation`), which gives the
    right scores back."""
    E = examples.load("dog_bites_man").E
    right = rotary_embedding(E, pairing="interleaved")
    wrong = rotary_embedding(E, pairing="halves")
    reordered = rotary_embedding(E[:, pairing_permutation(E.shape[1])], pairing="halves")
    return Pairing(scores(right, right), scores(wrong, wrong), scores(reordered, reordered))


@dataclass(frozen=True)
class PaddingAxis:
    """The padded batch of docs/masking.md with its padding mask on the keys' axis and on the queries'."""

    right: np.ndarray  # (batch, n, n): mask (batch, 1, n), a column per key: no row reads the pad
    wrong: np.ndarray  # (batch, n, n): mask (batch, n, 1), a row per query: the pad's row has no key (NaN)
    unmasked: np.ndarray  # (batch, n, n): no mask at all, which the wrong mask's real rows equal


@cache
def padding_axis() -> PaddingAxis:
    """ "The cat sat" and "The cat" + [PAD] (no projections, scaled by 1/√d) with the padding mask
    (batch, 1, n), which broadcasts over the queries (right), and the same mask as (batch, n, 1),
    which broadcasts over the keys (wrong: "The" and "cat" still read the pad, and the pad's own row
    is all -inf, so its softmax is 0/0, NaN). Weights (batch, n, n)."""
    p = masking.padding()
    S = scores(p.X, p.X) / np.sqrt(p.X.shape[-1])  # (batch, n, n)
    keys = p.mask  # (batch, 1, n)
    queries = np.swapaxes(keys, -1, -2)  # (batch, n, 1): the same entries on the other axis
    with np.errstate(invalid="ignore"):
        masked = np.where(queries, S, -np.inf)
        e = np.exp(masked - masked.max(axis=-1, keepdims=True))  # -inf - -inf is NaN on the pad's row
        wrong = e / e.sum(axis=-1, keepdims=True)
    return PaddingAxis(softmax(np.where(keys, S, -np.inf)), wrong, softmax(S))


@dataclass(frozen=True)
class InvertedPadding:
    """The padded batch with the site's mask (True = may attend) and with it given where
    ``torch.nn.MultiheadAttention``'s ``key_padding_mask`` (True = leave out) is expected."""

    right: np.ndarray  # (batch, n, n): the real tokens read, the pad left out
    wrong: (
        np.ndarray
    )  # (batch, n, n): the real tokens left out: "The cat" reads only its pad, "The cat sat" nothing (NaN)


@cache
def inverted_padding() -> InvertedPadding:
    """ "The cat sat" and "The cat" + [PAD] with the padding mask as the site writes it, True where a
    key may be read (right), and the same mask read as PyTorch's ``key_padding_mask``, True where a key
    is left out (wrong): every real key is dropped, so the short sentence reads only its pad and the
    full one has no key left (0/0, NaN). ``scaled_dot_product_attention`` takes the site's
    convention, ``MultiheadAttention`` the other: pass ``~mask``. Weights (batch, n, n)."""
    p = masking.padding()
    S = scores(p.X, p.X) / np.sqrt(p.X.shape[-1])  # (batch, n, n)
    left_out = p.mask  # (batch, 1, n), read as True = leave out
    with np.errstate(invalid="ignore"):
        masked = np.where(left_out, -np.inf, S)
        e = np.exp(masked - masked.max(axis=-1, keepdims=True))
        wrong = e / e.sum(axis=-1, keepdims=True)
    return InvertedPadding(p.weights, wrong)


@dataclass(frozen=True)
class SharedHeads:
    """Four query heads sharing two key-value heads, each repeated in a row and tiled."""

    right: np.ndarray  # (num_heads, n, n): heads 1, 2 use key head 1; heads 3, 4 key head 2 (repeat_interleave)
    wrong: np.ndarray  # (num_heads, n, n): heads 1, 3 use key head 1; heads 2, 4 key head 2 (tiled, as K.repeat does)


@cache
def shared_heads_tiled() -> SharedHeads:
    """ "The cat sat" with W_Q the identity (four query heads of width 1, one feature each) and two
    key-value heads (W_K = W_V the identity's first two columns: features x1 and x2): each key head
    repeated in a row, 1, 1, 2, 2, as ``repeat_interleave`` and ``enable_gqa`` do (right), and tiled,
    1, 2, 1, 2, as ``K.repeat(1, 2, 1, 1)`` does (wrong: heads 2 and 3 read the other group's keys).
    Weights (num_heads, n, n)."""
    _, E, _ = _cat_sat()
    Q = split_heads(E, 4)  # (4, n, 1): W_Q the identity
    K = split_heads(E[:, :2], 2)  # (2, n, 1): W_K = W_V, the first two columns of the identity
    _, right = scaled_dot_product_attention(Q, repeat_kv(K, 2), repeat_kv(K, 2))
    tiled = np.concatenate([K, K])  # (4, n, 1): key heads 1, 2, 1, 2
    _, wrong = scaled_dot_product_attention(Q, tiled, tiled)
    return SharedHeads(right, wrong)


@dataclass(frozen=True)
class Unrescaled:
    """ "bank of river" through the online softmax in tiles of one key, with the running output
    rescaled when the running maximum moves (right) and without (wrong)."""

    right: np.ndarray  # (n, d): O / l with O and l both rescaled, the plain softmax's output
    wrong: np.ndarray  # (n, d): O / l with l rescaled but O not: wrong in every row whose maximum moved


@cache
def online_not_rescaled() -> Unrescaled:
    """ "bank of river" (Q = K = V = the embeddings, unscaled, as the first page computes it) read one
    key at a time by :func:`selfattn_ref.online_softmax.online_softmax_attention` (right), and by the
    same loop with the rescale e^(old m - new m) applied to the running total but not to the running
    output (wrong). "bank" meets its largest score first, so its maximum never moves and its row is
    right either way; "of" and "river" meet theirs later and get too much of the keys before it.
    Outputs (n, d)."""
    from ..online_softmax import online_softmax_attention

    E = examples.load("bank_of_river").E
    right = online_softmax_attention(E, E, E, 1, scale=1.0).output
    m = np.full(len(E), -np.inf)  # (n,)
    total = np.zeros(len(E))  # (n,)
    O = np.zeros(E.shape)  # (n, d)
    for j in range(len(E)):
        S = E @ E[j : j + 1].T  # (n, 1): one key's scores
        new = np.maximum(m, S[:, 0])
        rescale = np.exp(m - new)
        terms = np.exp(S - new[:, None])  # (n, 1)
        total = total * rescale + terms[:, 0]
        O = O + terms @ E[j : j + 1]  # WRONG: O not multiplied by the rescale
        m = new
    return Unrescaled(right, O / total[:, None])
