"""Sliding-window attention: the mask (selfattn_ref.masks.sliding_window_mask and its twin) beside the
causal mask, equal to PyTorch's scaled_dot_product_attention with it, what it saves counted against
the mask itself and a derivation written here, and how far several layers of windows reach."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref.topics import sliding_window as topic

from snippet_checks import close


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_the_mask_is_a_band_of_window_keys(pkg):
    for n in range(1, 9):
        for window in range(1, 11):
            i, j = np.arange(n)[:, None], np.arange(n)[None, :]
            want = (j <= i) & (i - j < window)  # itself and the window - 1 keys before it
            assert np.array_equal(np.asarray(pkg.sliding_window_mask(n, window)), want), (n, window)
        assert np.array_equal(np.asarray(pkg.sliding_window_mask(n, n)), np.asarray(pkg.causal_mask(n)))
        assert np.array_equal(np.asarray(pkg.sliding_window_mask(n, 1)), np.eye(n, dtype=bool))
    assert np.asarray(pkg.sliding_window_mask(4, 10**30)).sum() == 10  # a window longer than the sentence


def test_equal_to_pytorch_with_the_mask():
    rng = np.random.default_rng(7)
    Q, K, V = rng.standard_normal((3, 2, 9, 4))
    mask = ref.sliding_window_mask(9, 3)
    want = F.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (Q, K, V)), attn_mask=torch.from_numpy(mask))
    for pkg in (ref, tref):
        close(pkg.scaled_dot_product_attention(Q, K, V, mask=pkg.sliding_window_mask(9, 3))[0], want)


def test_what_it_saves_is_counted():
    for n in range(1, 30):
        for window in range(1, 35):
            assert topic.entries(n, window) == int(ref.sliding_window_mask(n, window).sum()), (n, window)
        assert topic.entries(n, n) == n * (n + 1) // 2  # the causal mask's
    m = topic.mistral_7b()
    assert (m.n_ctx, m.window, m.num_blocks) == (8192, 4096, 32)
    assert m.entries_causal == 8192 * 8193 // 2 == 33_558_528
    assert m.entries_window == 4096 * 4097 // 2 + 4096 * 4096 == 25_167_872  # the first 4,096 rows, then full bands
    assert m.cache_bytes_window * 2 == m.cache_bytes_causal == 2**30  # the cache keeps half the tokens
    assert m.reach == 32 * 4095 == 131_040


def test_layers_of_windows_reach_further():
    """Chaining the masks: each layer lets information move window - 1 tokens back, until the first token."""
    for n in (5, 12, 20):
        for window in (1, 2, 3, 5):
            for layers in (1, 2, 3, 6):
                assert topic.reach(n, window, layers) == min(layers * (window - 1), n - 1), (n, window, layers)


def test_the_reach_of_many_layers_is_counted_quickly():
    """Any number of layers, at a size the mask allows: no loop of 10**30 layers, no n³ matrix products
    a layer (reach(2000, 3, 3) took over a minute)."""
    assert topic.reach(2000, 3, 3) == 6
    assert topic.reach(5, 2, 10**30) == 4
    assert topic.reach(3000, 2, 5000) == 2999


def test_the_sites_example():
    w = topic.cat_sat()
    assert w.tokens == ("The", "cat", "sat") and w.window == 2
    close(w.weights[:2], w.weights_causal[:2])  # "The" and "cat" see no more than 2 tokens anyway
    assert w.weights[2, 0] == 0 and w.weights_causal[2, 0] > 0  # "sat" no longer sees "The"
    assert [f"{x:.4f}" for x in w.weights[2]] == ["0.0000", "0.2689", "0.7311"]


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_bad_input(pkg):
    with pytest.raises(ValueError, match="window must be a positive integer, got 0"):
        pkg.sliding_window_mask(3, 0)
    with pytest.raises(ValueError, match="window must be a positive integer, got 1.5"):
        pkg.sliding_window_mask(3, 1.5)
    with pytest.raises(ValueError, match=r"with n = 20000, the mask \(n, n\) would hold 400,000,000 entries"):
        pkg.sliding_window_mask(20000, 2)
