"""Snippets of docs/online-softmax.md, online_softmax_numpy.py and online_softmax_torch.py: "bank of
river" in tiles of one key and of two, each tile's state held equal to
selfattn_ref.online_softmax (through selfattn_ref.topics.flash_attention), the weights and outputs to
the plain softmax's and to PyTorch's scaled_dot_product_attention within 1e-12; and the counts the
page states, which it writes with thousands' commas the numbers audit does not read."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from publish import DOCS, SNIPPETS
from publish.audit.claims import CLAIM
from selfattn_ref import examples, scaled_dot_product_attention
from selfattn_ref.kv_cache import GPT2_SMALL
from selfattn_ref.online_softmax import online_softmax_attention
from selfattn_ref.topics import flash_attention as source

from snippet_checks import as_numpy, close, torch_namespace

FOLDER = SNIPPETS / "online_softmax"
NUMPY = FOLDER / "online_softmax_numpy.py"
TORCH = FOLDER / "online_softmax_torch.py"
PAGE = DOCS / "online-softmax.md"


SNIPPET_PATHS = [NUMPY, TORCH]  # the fixture ns (tests/snippets/conftest.py) runs each


def test_the_script_prints_both_tilings_equal_to_the_plain_softmax():
    """(test_recordings holds the PyTorch tab to these lines and its check against PyTorch's function.)"""
    numpy_out = NUMPY.with_suffix(".out").read_text(encoding="utf-8")
    assert numpy_out.endswith("tiles of 2: weights and outputs equal to the plain softmax's within 1e-12: True\n")
    assert "tiles of 1: weights and outputs equal to the plain softmax's within 1e-12: True\n" in numpy_out


def test_the_example_is_the_first_pages(ns):
    ex = examples.load(source.SLUG)
    assert list(ns["words"]) == list(ex.tokens)
    for name in ("Q", "K", "V"):
        close(ns[name], ex.E)


@pytest.mark.parametrize("size", source.TILES)
def test_every_tiles_state_is_the_packages(ns, size):
    run = source.tiled(size).online
    states = ns[f"states{size}"]
    assert len(states) == len(run.tiles) == -(-3 // size)
    for (m, rescale, l, O), tile in zip(states, run.tiles, strict=True):
        close(m, tile.running_max)
        close(rescale, tile.rescale)
        close(l, tile.running_total)
        close(O, tile.running_output)
    close(ns[f"Y{size}"], run.output)
    close(ns[f"A{size}"], run.weights)


@pytest.mark.parametrize("size", source.TILES)
def test_the_tiles_end_on_the_plain_softmax_within_1e_12(ns, size):
    t = source.tiled(size)
    assert t.largest_difference <= 1e-12
    close(ns[f"A{size}"], t.weights)  # close() is absolute, 1e-12
    close(ns[f"Y{size}"], t.output)
    close(ns["A"], t.weights)
    close(ns["Y"], t.output)
    close(t.online.logsumexp, np.log(np.exp(examples.load(source.SLUG).E @ examples.load(source.SLUG).E.T).sum(1)))


def test_the_torch_script_matches_scaled_dot_product_attention():
    ns = torch_namespace(TORCH)
    E = torch.from_numpy(examples.load(source.SLUG).E)
    builtin = F.scaled_dot_product_attention(E, E, E, scale=1.0)
    close(ns["builtin"], builtin)
    close(ns["Y1"], builtin)
    close(ns["Y2"], builtin)


def test_the_scripts_tiles_work_on_other_sizes_too():
    """The script's function, not only on its example: random queries, keys and values, every tile
    size from 1 to past the keys, equal to the plain attention."""
    from publish.generate.snippets import namespace

    online = namespace(NUMPY)["online_attention"]
    rng = np.random.default_rng(3)
    Q, K, V = rng.standard_normal((5, 4)) * 3, rng.standard_normal((7, 4)) * 3, rng.standard_normal((7, 2))
    want, weights = scaled_dot_product_attention(Q, K, V, scale=1.0)
    for tile in range(1, 9):
        Y, A, states = online(Q, K, V, tile)
        close(Y, want)
        close(A, weights)
        assert len(states) == -(-7 // tile)


def test_the_rows_the_page_follows():
    """ "of" meets its largest score at the second key, "river" at the last, "bank" at the first."""
    tiles = source.tiled(1).online.tiles
    rescales = np.array([t.rescale for t in tiles[1:]])  # (2, 3): steps 2 and 3, rows bank, of, river
    close(rescales[:, 0], [1, 1])
    close(rescales[:, 1], [np.exp(-2), 1])
    close(rescales[:, 2], [1, np.exp(-1)])
    # tiles of two reach, after their first step, the state of tiles of one after their second
    two = source.tiled(2).online.tiles
    close(two[0].running_total, tiles[1].running_total)
    close(two[0].running_output, tiles[1].running_output)


def test_the_memory_counts_the_page_writes():
    """The counts the page writes with commas ("1,048,576"), held here to the run's and to the formula the
    page gives (the numbers audit holds each to its quantity too, and the formula's sum to its result)."""
    m = source.memory()
    n, tile = GPT2_SMALL.n_ctx, source.MEMORY_TILE
    assert (m.n, m.d_head, m.tile) == (1024, 64, 128) == (n, GPT2_SMALL.d_model // GPT2_SMALL.num_heads, tile)
    assert m.scores_entries == n * n == 1_048_576
    assert m.largest_held == 2 * n * tile + 3 * n == 265_216
    shown = CLAIM.sub("", PAGE.read_text(encoding="utf-8"))  # as the reader sees it, the claims removed
    for count in (m.scores_entries, m.largest_held, m.n):
        assert f"{count:,}" in shown
    assert "2 × 1,024 × 128 + 3 × 1,024 = 265,216" in shown
    small = source.tiled(1).online
    assert (small.largest_held, small.scores_entries) == (15, 9)
    # twice the context: four times the scores, about twice what a step holds
    double = online_softmax_attention(*np.random.default_rng(0).standard_normal((3, 2 * n, 8)), tile)
    assert double.scores_entries == 4 * m.scores_entries
    assert double.largest_held == 2 * m.largest_held


def test_a_tile_never_holds_the_whole_scores():
    m = source.memory()
    assert m.largest_held < m.scores_entries / 3
    assert as_numpy(source.tiled(2).online.tiles[0].scores).shape == (3, 2)
