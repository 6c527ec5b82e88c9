"""Boolean attention masks in PyTorch. ``True`` means "this query may attend to this key"."""

from __future__ import annotations

import torch

from .._validate import as_lengths, check_size, positive_integer, value_text


def causal_mask(n) -> torch.Tensor:
    """(n, n) mask that lets token i attend to tokens 0..i only (lower triangle True)."""
    n = positive_integer(n, "n")
    check_size((n, n), f"with n = {value_text(n)}, the mask (n, n)")
    return torch.tril(torch.ones((n, n), dtype=torch.bool))


def padding_mask(lengths, n) -> torch.Tensor:
    """(batch, 1, n) mask for sentences padded to length n: key j is real if j < length.

    lengths: (batch,), one positive length per sentence, none above n. The middle axis of
    size 1 broadcasts over the queries, so the mask fits scores of shape (batch, n, n).
    """
    n = positive_integer(n, "n")
    lengths_t = torch.from_numpy(as_lengths(lengths, n))  # (batch,): the NumPy package's checks
    check_size((len(lengths_t), n), f"with {len(lengths_t)} lengths and n = {value_text(n)}, the mask (batch, 1, n)")
    return (torch.arange(n)[None, :] < lengths_t[:, None])[:, None, :]  # (batch, 1, n)


def sliding_window_mask(n, window) -> torch.Tensor:
    """(n, n) mask that lets token i attend to itself and the ``window`` - 1 tokens before it.

    Key j is allowed when 0 <= i - j < window: a causal mask cut to a band of ``window`` keys, as in
    sliding-window attention (Mistral 7B's window is 4,096). With window >= n it is
    :func:`causal_mask`; with window = 1 each token sees only itself. This counts the token itself
    in the window; the Mistral paper writes the band as "between i - W and i", one key more.
    """
    n = positive_integer(n, "n")
    window = min(positive_integer(window, "window"), n)  # a window longer than the sentence is the causal mask
    check_size((n, n), f"with n = {value_text(n)}, the mask (n, n)")
    back = torch.arange(n)[:, None] - torch.arange(n)[None, :]  # (n, n): i - j, how far back key j is
    return (back >= 0) & (back < window)
