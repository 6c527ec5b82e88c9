"""FlashAttention's online softmax (selfattn_ref.online_softmax and its twin): "bank of river" in tiles
of keys ends on the plain softmax's weights and outputs (to 1e-12, and to every printed digit), each
tile's running maximum, total and output are what their definitions give, it agrees with PyTorch's
scaled_dot_product_attention, and the memory it holds is counted."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import selfattn_ref as ref
from selfattn_ref import examples, online_softmax
from selfattn_ref.topics import flash_attention
from selfattn_ref.torch import online_softmax as tonline

from snippet_checks import close

E = examples.load("bank_of_river").E  # (3, 4): Q = K = V, unscaled, as the first page


@pytest.mark.parametrize("tile", [1, 2, 3, 5])
@pytest.mark.parametrize("pkg", [online_softmax, tonline], ids=["numpy", "torch"])
def test_bank_of_river_in_tiles_is_the_plain_softmax(pkg, tile):
    run = pkg.online_softmax_attention(E, E, E, tile, scale=1.0)
    output, weights = ref.scaled_dot_product_attention(E, E, E, scale=1.0)
    close(run.output, output, 1e-12)
    close(run.weights, weights, 1e-12)
    shown = [f"{x:.3f}" for x in np.asarray(run.output).ravel()]  # the example's 3 decimals
    assert shown == [f"{x:.3f}" for x in output.ravel()]
    assert [(t.start, t.stop) for t in run.tiles] == [(s, min(s + tile, 3)) for s in range(0, 3, tile)]


def test_each_tiles_state_is_its_definition():
    """Tile by tile, from the scores of the keys read so far (computed here): m is their largest,
    l the total of e^(s - m), O the sum of e^(s - m) times each value; the rescale is e^(old m - m)."""
    run = online_softmax.online_softmax_attention(E, E, E, 1, scale=1.0)
    S = E @ E.T  # (3, 3)
    for k, t in enumerate(run.tiles, 1):
        seen = S[:, :k]
        m = seen.max(axis=1)
        close(t.running_max, m)
        close(t.running_total, np.exp(seen - m[:, None]).sum(axis=1))
        close(t.running_output, np.exp(seen - m[:, None]) @ E[:k])
        before = np.full(3, -np.inf) if k == 1 else S[:, : k - 1].max(axis=1)
        assert np.array_equal(t.max_before, before)
        close(t.rescale, np.exp(before - m))
    assert run.tiles[0].rescale.tolist() == [0.0, 0.0, 0.0]  # nothing before the first tile
    close(run.logsumexp, np.log(np.exp(S).sum(axis=1)))


def test_the_sites_tiles():
    for tile in flash_attention.TILES:
        t = flash_attention.tiled(tile)
        assert t.largest_difference < 1e-15 and t.tokens == ("bank", "of", "river")
    one = flash_attention.tiled(1).online
    # "of" (row 2) meets its largest score, 2 (itself), at the second tile: the first tile's term is rescaled
    assert one.tiles[1].running_max.tolist() == [2.0, 2.0, 1.0]
    assert [f"{x:.4f}" for x in one.tiles[1].rescale] == ["1.0000", "0.1353", "1.0000"]


@pytest.mark.parametrize("seed", range(4))
def test_equal_to_pytorch(seed):
    rng = np.random.default_rng(seed)
    n, m, d, d_v = rng.integers(1, 9, size=4)
    Q, K, V = rng.standard_normal((n, d)), rng.standard_normal((m, d)), rng.standard_normal((m, d_v))
    tile = int(rng.integers(1, m + 2))
    want = F.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (Q, K, V)))
    a = online_softmax.online_softmax_attention(Q, K, V, tile)
    b = tonline.online_softmax_attention(Q, K, V, tile)
    close(a.output, want)
    close(b.output, want)
    close(a.weights, b.weights)
    assert [t.held for t in a.tiles] == [t.held for t in b.tiles]


def test_the_memory_it_holds_is_counted():
    """Each step holds its scores and terms (n × tile each) and m, l and the rescale (n each), never
    the n × m scores; counted from the arrays, derived here."""
    rng = np.random.default_rng(0)
    Q, K, V = rng.standard_normal((5, 3)), rng.standard_normal((11, 3)), rng.standard_normal((11, 2))
    run = online_softmax.online_softmax_attention(Q, K, V, 4)
    assert [t.held for t in run.tiles] == [2 * 5 * 4 + 3 * 5, 2 * 5 * 4 + 3 * 5, 2 * 5 * 3 + 3 * 5]
    assert run.largest_held == 55 and run.scores_entries == 5 * 11
    mem = flash_attention.memory()
    assert (mem.n, mem.d_head, mem.tile) == (1024, 64, 128)
    assert mem.scores_entries == 1024 * 1024 == 1_048_576
    assert mem.largest_held == 2 * 1024 * 128 + 3 * 1024 == 265_216


@pytest.mark.parametrize("pkg", [online_softmax, tonline], ids=["numpy", "torch"])
def test_bad_input(pkg):
    with pytest.raises(ValueError, match="tile must be a positive integer, got 0"):
        pkg.online_softmax_attention(E, E, E, 0)
    with pytest.raises(ValueError, match=r"K and V must have the same length, got K \(3, 4\) and V \(2, 4\)"):
        pkg.online_softmax_attention(E, E, E[:2], 1)
    with pytest.raises(ValueError, match=r"Q \(3, 4\), K \(3, 4\) and scale 0.5 are too large"):
        pkg.online_softmax_attention(E * 1e160, E * 1e160, E, 1)


def test_the_topics_bad_input():
    for tile in (3, True, [1], 1.0):
        with pytest.raises(ValueError, match=r"tile must be one of \(1, 2\), got"):
            flash_attention.tiled(tile)
