"""Helpers the per-page snippet tests (tests/snippets/) share."""

import numpy as np


def as_numpy(x) -> np.ndarray:
    """A torch tensor or a NumPy array as a NumPy array."""
    return x.detach().numpy() if hasattr(x, "detach") else np.asarray(x)


def close(actual, expected):
    """Equal to the reference to 1e-12, whether the snippet computed in NumPy or in PyTorch."""
    np.testing.assert_allclose(as_numpy(actual), expected, rtol=0, atol=1e-12)
