"""Boolean attention masks. ``True`` means "this query may attend to this key"."""

from __future__ import annotations

import numpy as np

from ._validate import as_lengths, check_size, positive_integer, value_text


def causal_mask(n) -> np.ndarray:
    """(n, n) mask that lets token i attend to tokens 0..i only (lower triangle True)."""
    n = positive_integer(n, "n")
    check_size((n, n), f"with n = {value_text(n)}, the mask (n, n)")
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, n) -> np.ndarray:
    """(batch, 1, n) mask for sentences padded to length n: key j is real if j < length.

    lengths: (batch,), one positive length per sentence, none above n. The middle axis of
    size 1 broadcasts over the queries, so the mask fits scores of shape (batch, n, n).
    """
    n = positive_integer(n, "n")
    lengths = as_lengths(lengths, n)  # (batch,)
    check_size((len(lengths), n), f"with {len(lengths)} lengths and n = {value_text(n)}, the mask (batch, 1, n)")
    return (np.arange(n)[None, :] < lengths[:, None])[:, None, :]  # (batch, 1, n)
