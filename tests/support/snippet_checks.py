"""Helpers the tests share: the per-page snippet tests (tests/snippets/) and the package's
NumPy == PyTorch checks (tests/package/)."""

import numpy as np


def as_numpy(x) -> np.ndarray:
    """A torch tensor or a NumPy array as a NumPy array."""
    return x.detach().numpy() if hasattr(x, "detach") else np.asarray(x)


def close(actual, expected, tol: float = 1e-12) -> None:
    """Of the same shape and equal to within ``tol`` (absolute; 1e-12 unless told), whether
    either side was computed in NumPy or in PyTorch."""
    actual, expected = as_numpy(actual), as_numpy(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape}, expected {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=0, atol=tol)


def torch_namespace(path):
    """Run a PyTorch snippet in this process (publish.generate.snippets.namespace) and put back the global
    settings it changes (thread count, deterministic algorithms, the random generator)."""
    import pytest

    from publish.generate.snippets import namespace

    torch = pytest.importorskip("torch")
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    try:
        with torch.random.fork_rng(devices=[]):
            return namespace(path)
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
