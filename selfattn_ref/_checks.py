"""A tally of multiply-adds and the padding of a batch, shared by the modules of attention as models
run it at scale (:mod:`selfattn_ref.batched`, :mod:`selfattn_ref.kv_cache`) and by their PyTorch twins.

:class:`MultiplyAdds` counts the multiply-adds of the matrix products a computation performs, from
the shapes of the operands it multiplies; :func:`padding_of` reads a batch's lengths. Their inputs
are read by :mod:`selfattn_ref._validate`, the one reader of every argument (positions, choices, a
layer's weights, a number of heads among them), so both packages word every message alike.
"""

from __future__ import annotations

import math

import numpy as np

from .masks import padding_mask


class MultiplyAdds:
    """A tally of the multiply-adds of the matrix products a computation performs, counted as it
    performs them.

    :meth:`matmul` multiplies two arrays (NumPy or torch) of shapes (..., n, k) and (..., k, m) and
    adds n·k·m for every matrix of the broadcast batch: one multiplication and one addition for each
    term of each entry of the result. What is counted is the product the code computes, masked
    entries included: a causal mask hides half of the scores, but ``Q @ K^T`` computes them all.
    Element-wise steps (scaling, the softmax, a rotation) are not matrix products and are not
    counted. ``counts`` holds the tally by the name each product was given, ``total`` their sum.
    """

    def __init__(self):
        self.counts: dict[str, int] = {}

    def matmul(self, a, b, what: str):
        """``a @ b``, counted under ``what``: a (..., n, k), b (..., k, m) -> (..., n, m)."""
        *batch_a, n, k = tuple(a.shape)
        *batch_b, k_b, m = tuple(b.shape)
        if k != k_b:
            raise ValueError(f"{what}: the product of shapes {tuple(a.shape)} and {tuple(b.shape)} is not defined")
        batch = np.broadcast_shapes(tuple(batch_a), tuple(batch_b))
        self.counts[what] = self.counts.get(what, 0) + math.prod(batch) * n * k * m
        return a @ b

    @property
    def total(self) -> int:
        """Every multiply-add counted so far."""
        return sum(self.counts.values())


def padding_of(lengths, batch: int, n: int) -> np.ndarray:
    """(batch, n) True where a token is real: the first ``lengths[b]`` tokens of sentence b, or every
    token with ``lengths`` None. A ValueError names ``lengths`` when it is not one length from 1 to n
    per sentence (:func:`selfattn_ref.masks.padding_mask` reads it)."""
    if lengths is None:
        return np.ones((batch, n), dtype=bool)
    pad = padding_mask(lengths, n)[:, 0, :]  # (batch, n)
    if pad.shape[0] != batch:
        raise ValueError(f"lengths must hold one length per sentence ({batch}), got {pad.shape[0]}")
    return pad
