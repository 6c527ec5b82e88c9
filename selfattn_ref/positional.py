"""Sinusoidal positional encoding (Vaswani et al., 2017)."""

from __future__ import annotations

import numpy as np

from ._validate import check_size, positive_integer, value_text


def sinusoidal_positional_encoding(n, d) -> np.ndarray:
    """(n, d) matrix PE with PE[pos, 2p] = sin(pos / 10000^(2p/d)) and PE[pos, 2p+1] = cos(...).

    Add it to the embeddings (n, d) so that the same word at two positions gets two
    different vectors. Works for odd d too (the last column is a sine).
    """
    n = positive_integer(n, "n")
    d = positive_integer(d, "d")
    check_size((n, d), f"with n = {value_text(n)} and d = {value_text(d)}, the encoding (n, d)")
    pos = np.arange(n)[:, None]  # (n, 1)
    even = np.arange(0, d, 2)[None, :]  # (1, ceil(d/2)): the even column indices 2p
    angle = pos / np.power(10000.0, even / d)  # (n, ceil(d/2))
    PE = np.zeros((n, d))
    PE[:, 0::2] = np.sin(angle)
    PE[:, 1::2] = np.cos(angle[:, : d // 2])
    return PE
