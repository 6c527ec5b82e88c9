"""Snippets of docs/kv-cache.md: kv_cache_numpy.py and kv_cache_torch.py ("The cat sat" generated with
and without the cache), grouped_query_numpy.py and grouped_query_torch.py (two query heads sharing one
key-value head) and sliding_window_numpy.py and sliding_window_torch.py (a window of two), held equal
to selfattn_ref.kv_cache, grouped_query and masks (through selfattn_ref.topics) and to PyTorch's
scaled_dot_product_attention; the multiply-adds the scripts compute by formula equal to those the
package counts as it performs the products; and the counts the page writes with thousands' commas,
which the numbers audit does not read."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from publish import DOCS, SNIPPETS
from publish.audit.claims import CLAIM
from publish.generate.topics import kv_cache as page
from selfattn_ref import examples
from selfattn_ref.grouped_query import grouped_query_attention, repeat_kv
from selfattn_ref.kv_cache import GPT2_SMALL, MISTRAL_7B, kv_cache_steps
from selfattn_ref.masks import causal_mask, sliding_window_mask
from selfattn_ref.topics import grouped_query, kv_cache, sliding_window

from snippet_checks import as_numpy, close, snippet_namespace

FOLDER = SNIPPETS / "kv_cache"
PAGE = DOCS / "kv-cache.md"


def _ns(name: str, library: str):
    return snippet_namespace(FOLDER / f"{name}_{library}.py")


@pytest.fixture(scope="module", params=["numpy", "torch"])
def library(request):
    return request.param


# --- the KV cache -------------------------------------------------------------------------------


def test_the_cache_gives_the_outputs_of_the_whole_layer(library):
    ns = _ns("kv_cache", library)
    r = kv_cache.run()
    ex = examples.load(kv_cache.SLUG)
    close(ns["X"], ex.E)
    close(ns["W_Q"], ex.W_Q)
    close(np.stack([as_numpy(c) for c in ns["cache"]]), r.output)
    close(np.stack([as_numpy(c) for c in ns["no_cache"]]), r.recomputed)
    for got, step in zip(ns["weights"], r.steps, strict=True):
        close(got, step.weights)
    close(ns["K_cache"], r.steps[-1].K_cache)
    close(ns["V_cache"], r.steps[-1].V_cache)
    assert r.largest_difference <= 1e-12


def test_the_cache_is_pytorchs_causal_attention_at_every_step():
    r = kv_cache.run()
    ex = examples.load(kv_cache.SLUG)
    X, W = torch.from_numpy(ex.E), torch.from_numpy(ex.W_Q)
    for t, step in enumerate(r.steps, start=1):
        q, k, v = ((X[:t] @ W).view(t, 2, 2).transpose(0, 1) for _ in range(3))
        heads = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (2, t, 2)
        close(heads.transpose(0, 1).reshape(t, 4)[-1], step.output)


def test_the_scripts_formulas_are_the_multiply_adds_counted(library):
    """The scripts write the counts as formulas; the package counts each product as it performs it."""
    ns = _ns("kv_cache", library)
    cached, again = page.totals()
    assert ns["multiply_adds"] == cached == [72, 80, 88]
    assert ns["multiply_adds_no_cache"] == again == [72, 160, 264]
    # and on another size: d_model = 6, three heads, five tokens, random weights
    rng = np.random.default_rng(1)
    X, *W = (rng.standard_normal(s) for s in [(5, 6)] + [(6, 6)] * 4)
    run = kv_cache_steps(X, *W, 3)
    for t, step in enumerate(run.steps, start=1):
        assert sum(step.multiply_adds.values()) == 4 * 36 + 2 * t * 6
        assert sum(step.multiply_adds_recomputed.values()) == 4 * t * 36 + 2 * t * t * 6
    assert run.largest_difference <= 1e-12


def test_the_sizes_are_the_published_ones_and_the_page_writes_them():
    g, m = kv_cache.gpt2_small(), kv_cache.mistral_7b()
    assert (GPT2_SMALL.num_blocks, GPT2_SMALL.d_model, GPT2_SMALL.num_heads, GPT2_SMALL.n_ctx) == (12, 768, 12, 1024)
    assert (MISTRAL_7B.num_blocks, MISTRAL_7B.d_model, MISTRAL_7B.num_heads, MISTRAL_7B.num_kv_heads) == (
        32,
        4096,
        32,
        8,
    )
    assert (MISTRAL_7B.n_ctx, MISTRAL_7B.window) == (8192, 4096)
    assert g.numbers == 12 * 2 * 12 * 1024 * 64 and g.numbers_per_token == 2 * 12 * 12 * 64
    assert m.numbers_per_token * 4 == 2 * 32 * 32 * 128  # "four times as many" with a pair per query head
    text = PAGE.read_text(encoding="utf-8")
    for count in (g.numbers, g.numbers_per_token, m.numbers_per_token, 1024, 8192, 4096, 768):
        assert f"{count:,}" in text, count
    for source in ("Table 2", "section 2.3", "`hparams.json`", "Table 1"):
        assert source in text


# --- grouped-query attention --------------------------------------------------------------------


def test_grouped_query_is_sdpa_with_the_keys_repeated(library):
    ns = _ns("grouped_query", library)
    s = grouped_query.shared()
    close(ns["A"], s.weights)
    close(ns["output"], s.output)
    close(ns["K"], s.K)
    close(ns["K_rep"], s.K_repeated)
    assert (ns["kept_per_token"], ns["kept_per_token_multi_head"]) == (s.kept_per_token, s.kept_per_token_multi_head)
    Q = examples.load(grouped_query.SLUG).E @ s.W_Q  # (3, 4): two query heads of width 2
    q = torch.from_numpy(Q.reshape(3, 2, 2).transpose(1, 0, 2).copy())  # (2, 3, 2)
    k, v = torch.from_numpy(s.K), torch.from_numpy(s.V)
    builtin = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    close(builtin, F.scaled_dot_product_attention(q, k.repeat_interleave(2, dim=0), v.repeat_interleave(2, dim=0)))
    close(builtin.transpose(0, 1).reshape(3, 4), s.output)


def test_the_page_says_what_sharing_changes():
    s = grouped_query.shared()
    close(s.weights[0], s.weights_multi_head[0])  # head 1 attends as with its own keys
    assert not np.allclose(s.weights[1], s.weights_multi_head[1])
    close(s.output, s.output_multi_head)  # "the outputs happen to be the same here"
    # but not in general: random weights, four query heads, two key-value heads
    rng = np.random.default_rng(2)
    X, W_Q = rng.standard_normal((5, 8)), rng.standard_normal((8, 8))
    W_K, W_V, W_O = rng.standard_normal((8, 4)), rng.standard_normal((8, 4)), rng.standard_normal((8, 8))
    out, _ = grouped_query_attention(X, W_Q, W_K, W_V, W_O, 4, 2)
    assert not np.allclose(
        out, grouped_query_attention(X, W_Q, np.hstack([W_K] * 2), np.hstack([W_V] * 2), W_O, 4, 4)[0]
    )
    # repeat_interleave, not repeat: heads 1, 2 share key head 1
    K = np.arange(6.0).reshape(2, 3, 1)
    np.testing.assert_array_equal(repeat_kv(K, 2)[:, 0, 0], [0, 0, 3, 3])
    m = grouped_query.mistral_7b()
    assert m.bytes * 4 == m.bytes_multi_head and m.bytes // 8 == m.bytes_multi_query  # "a quarter"


# --- the sliding window ---------------------------------------------------------------------------


def test_the_window_is_the_packages_and_pytorchs(library):
    ns = _ns("sliding_window", library)
    w = sliding_window.cat_sat()
    np.testing.assert_array_equal(as_numpy(ns["sliding"]), w.mask)
    np.testing.assert_array_equal(as_numpy(ns["causal"]), causal_mask(3))
    close(ns["weights"], w.weights)
    close(ns["weights_causal"], w.weights_causal)
    close(ns["output"], w.output)
    close(ns["output_causal"], w.output_causal)
    X = torch.from_numpy(examples.load(sliding_window.SLUG).E)
    close(F.scaled_dot_product_attention(X, X, X, attn_mask=torch.from_numpy(w.mask)), w.output)


def test_the_windows_counts():
    assert sliding_window.entries(3, 2) == int(sliding_window_mask(3, 2).sum()) == 5
    assert sliding_window.entries(8, 2) == 15 and sliding_window.reach(8, 2, 3) == 3
    m = sliding_window.mistral_7b()
    assert m.reach == 131_040 and m.cache_bytes_window * 2 == m.cache_bytes_causal
    assert m.entries_window == sum(min(i + 1, 4096) for i in range(8192))
    assert m.entries_causal == 8192 * 8193 // 2
    shown = CLAIM.sub("", PAGE.read_text(encoding="utf-8"))  # as the reader sees it, the claims removed
    assert "131,040" in shown and "32 × 4,096" in shown
    close(sliding_window.cat_sat().weights[2, 1:], sliding_window.cat_sat().weights[1, :2])  # "the weights cat gives"
