"""Boolean attention masks. ``True`` means "this query may attend to this key"."""

from __future__ import annotations

import numpy as np


def _check_length(n, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def causal_mask(n) -> np.ndarray:
    """(n, n) mask that lets token i attend to tokens 0..i only (lower triangle True)."""
    n = _check_length(n)
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, n) -> np.ndarray:
    """(batch, 1, n) mask for sentences padded to length n: key j is real if j < length.

    lengths: (batch,), one positive length per sentence, none above n. The middle axis of
    size 1 broadcasts over the queries, so the mask fits scores of shape (batch, n, n).
    """
    n = _check_length(n)
    try:
        lengths_arr = np.asarray(lengths)
    except (TypeError, ValueError, RuntimeError, OverflowError):  # ragged, or a tensor that requires grad
        lengths_arr = np.asarray(0.5)  # refused below, with the message that names lengths
    if lengths_arr.ndim != 1 or lengths_arr.size == 0 or not np.issubdtype(lengths_arr.dtype, np.integer):
        raise ValueError(f"lengths must be a non-empty list of integers, got {lengths!r}")
    if (lengths_arr < 1).any() or (lengths_arr > n).any():
        raise ValueError(f"lengths must lie between 1 and n={n}, got {lengths_arr.tolist()}")
    return (np.arange(n)[None, :] < lengths_arr[:, None])[:, None, :]  # (batch, 1, n)
