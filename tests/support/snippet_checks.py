"""Helpers the tests share: the per-page snippet tests (tests/snippets/) and the package's
NumPy == PyTorch checks (tests/package/), its refusals of bad input among them (one_message)."""

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


def snippet_namespace(path) -> dict:
    """A snippet's globals after a run in this process: a PyTorch one (``*_torch.py``) with torch's
    global settings put back (torch_namespace), a NumPy one as it is."""
    if path.stem.endswith("_torch"):
        return torch_namespace(path)
    from publish.generate.snippets import namespace

    return namespace(path)


def one_message(call, pattern: str) -> str:
    """``call(selfattn_ref)`` and ``call(selfattn_ref.torch)`` both raise ValueError, with one message
    (the two packages word it the same way) that matches the regular expression ``pattern``."""
    import pytest

    import selfattn_ref
    import selfattn_ref.torch

    messages = []
    for package in (selfattn_ref, selfattn_ref.torch):
        with pytest.raises(ValueError, match=pattern) as info:
            call(package)
        messages.append(str(info.value))
    assert messages[0] == messages[1], f"NumPy's and PyTorch's messages differ: {messages}"
    return messages[0]
