"""Boolean attention masks in PyTorch. ``True`` means "this query may attend to this key"."""

from __future__ import annotations

import numpy as np
import torch


def _check_length(n, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def causal_mask(n) -> torch.Tensor:
    """(n, n) mask that lets token i attend to tokens 0..i only (lower triangle True)."""
    n = _check_length(n)
    return torch.tril(torch.ones((n, n), dtype=torch.bool))


def padding_mask(lengths, n) -> torch.Tensor:
    """(batch, 1, n) mask for sentences padded to length n: key j is real if j < length.

    lengths: (batch,), one positive length per sentence, none above n. The middle axis of
    size 1 broadcasts over the queries, so the mask fits scores of shape (batch, n, n).
    """
    n = _check_length(n)
    if isinstance(lengths, torch.Tensor):
        is_int = not (lengths.dtype.is_floating_point or lengths.dtype.is_complex or lengths.dtype == torch.bool)
        lengths_t = lengths
    else:
        try:
            lengths_arr = np.asarray(lengths)
        except (TypeError, ValueError, RuntimeError, OverflowError):  # ragged
            lengths_arr = np.asarray(0.5)  # refused below, with the message that names lengths
        is_int = np.issubdtype(lengths_arr.dtype, np.integer)
        lengths_t = torch.from_numpy(lengths_arr.astype(np.int64)) if is_int else None
    if not is_int or lengths_t.ndim != 1 or lengths_t.numel() == 0:
        raise ValueError(f"lengths must be a non-empty list of integers, got {lengths!r}")
    if bool((lengths_t < 1).any()) or bool((lengths_t > n).any()):
        raise ValueError(f"lengths must lie between 1 and n={n}, got {lengths_t.tolist()}")
    return (torch.arange(n)[None, :] < lengths_t[:, None])[:, None, :]  # (batch, 1, n)
