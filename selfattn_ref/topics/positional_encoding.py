"""The computations of docs/positional-encoding.md that need no training.

"dog bites man" and "man bites dog" with each word's sinusoidal position encoding added to its
embedding, through softmax(X·Xᵀ)·X as in the worked examples (no projections, no scaling). The
page's training run, which needs PyTorch's autograd, is :mod:`selfattn_ref.training.word_order`.
"""

from __future__ import annotations

import numpy as np

from .. import examples
from ..attention import scaled_dot_product_attention, scores
from ..positional import sinusoidal_positional_encoding

SENTENCES = ("dog_bites_man", "man_bites_dog")  # the examples the page encodes


def with_positions(slug: str) -> dict[str, np.ndarray]:
    """The example ``slug`` with its positions encoded: the encoding "PE" (n, d), "X" = the
    embeddings + PE (n, d), the "scores" X·Xᵀ (n, n), the "weights" (n, n), the "output" (n, d), and the
    outputs' "mean" over the words (d,). ValueError for an unknown slug."""
    ex = examples.load(slug)  # ValueError naming the slug if there is no such example
    n, d = ex.E.shape
    PE = sinusoidal_positional_encoding(n, d)  # (n, d)
    X = ex.E + PE  # (n, d)
    output, weights = scaled_dot_product_attention(X, X, X, scale=1.0)  # (n, d), (n, n)
    return {"PE": PE, "X": X, "scores": scores(X, X), "weights": weights, "output": output, "mean": output.mean(axis=0)}
