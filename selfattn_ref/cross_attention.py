"""Cross-attention in NumPy: the attention by which an encoder-decoder's decoder reads the encoder.

In self-attention the queries, keys and values all come from one sentence. In the original
Transformer's decoder (Vaswani et al. 2017), a second attention layer takes its queries from the
target sentence being written (the decoder's rows, n of them) and its keys and values from the
source sentence (the encoder's output, n_k rows, ``memory``). The scores are n × n_k, one row per target
token and one column per source token, and each target token's output is a weighted sum of the
source's values: the job the attention of an RNN decoder did over the encoder's states
(:mod:`selfattn_ref.rnn`), with every target token at once.

Three layers of an encoder-decoder attend, each with its own mask:

- the encoder's self-attention, source to source (n_k × n_k): the source's padding mask, so that no
  source token reads a pad;
- the decoder's self-attention, target to target (n × n): the causal mask, so that no target token
  reads a later one (the one it is to predict), and the target's padding mask;
- cross-attention, target to source (n × n_k): the source's padding mask only. The causal mask has no
  place here: the whole source is known before the decoder starts, and every target token may read
  all of it.
"""

from __future__ import annotations

import numpy as np

from ._validate import (
    TooLarge,
    as_bool_mask,
    as_float_array,
    batch_shape,
    check_size,
    finite,
    heads_and_weights,
    too_large,
)
from .attention import scaled_dot_product_attention
from .multihead import join_heads, split_heads

__all__ = ["cross_attention"]


# --8<-- [start:cross_attention]
def cross_attention(X, memory, W_Q, W_K, W_V, W_O, num_heads, mask=None) -> tuple[np.ndarray, np.ndarray]:
    """Multi-head attention of the rows of X (the target) over the rows of ``memory`` (the source),
    returning ``(output, weights)``.

    X: (..., n, d_model), the queries' side; memory: (..., n_k, d_model), the keys' and values' side;
    W_Q, W_K, W_V, W_O: (d_model, d_model); ``num_heads`` divides d_model. Q = X·W_Q,
    K = memory·W_K, V = memory·W_V, cut into heads as in :func:`selfattn_ref.multi_head_attention`
    (which is the case memory = X), scale 1/√d_head. mask: boolean, broadcastable to (..., n, n_k),
    True where a target token may read a source token: the source's padding mask, (batch, 1, n_k),
    from :func:`selfattn_ref.padding_mask`. Returns output (..., n, d_model) and weights
    (..., num_heads, n, n_k).
    """
    X = as_float_array(X, "X", min_ndim=2)
    memory = as_float_array(memory, "memory", min_ndim=2)
    if memory.shape[-1] != X.shape[-1]:
        raise ValueError(f"X and memory must have the same width, got X {X.shape} and memory {memory.shape}")
    h, W = heads_and_weights(as_float_array, X, num_heads, W_Q, W_K, W_V, W_O)
    batch = batch_shape(("X", X.shape, 2), ("memory", memory.shape, 2))
    n, n_k = X.shape[-2], memory.shape[-2]
    check_size((*batch, h, n, n_k), "the heads' scores (..., num_heads, n, n_k)", X=X, memory=memory)
    if mask is not None:  # checked against the scores (..., n, n_k), then shared by the heads
        mask = as_bool_mask(mask, "mask", (*batch, n, n_k))[..., None, :, :]  # (..., 1, n, n_k)
    with np.errstate(over="ignore", invalid="ignore"):
        Q = split_heads(
            finite(X @ W["W_Q"], "the product X W_Q overflows", X=X, W_Q=W["W_Q"]), h
        )  # (..., h, n, d_head)
        K = split_heads(finite(memory @ W["W_K"], "the product memory W_K overflows", memory=memory, W_K=W["W_K"]), h)
        V = split_heads(finite(memory @ W["W_V"], "the product memory W_V overflows", memory=memory, W_V=W["W_V"]), h)
    try:
        heads, weights = scaled_dot_product_attention(Q, K, V, mask=mask)  # (..., h, n, d_head), (..., h, n, n_k)
    except TooLarge as exc:  # the heads' Q, K, V are ours: name the caller's arguments
        named = {"X": X, "memory": memory, "W_Q": W["W_Q"], "W_K": W["W_K"]}
        if "scores" not in exc.what:
            named = {"memory": memory, "W_V": W["W_V"]}
        raise too_large(f"in the heads, {exc.what}", named, X.dtype) from None
    with np.errstate(over="ignore", invalid="ignore"):
        output = join_heads(heads) @ W["W_O"]  # (..., n, d_model)
    return finite(
        output, "the output (the heads times W_O) overflows", memory=memory, W_V=W["W_V"], W_O=W["W_O"]
    ), weights


# --8<-- [end:cross_attention]
