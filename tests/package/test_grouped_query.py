"""Grouped-query and multi-query attention (selfattn_ref.grouped_query and its twin): equal to
torch.nn.functional.scaled_dot_product_attention with the keys and values repeated (repeat_interleave,
and enable_gqa=True), to multi_head_attention when every query head has its own key head, the cache
it saves counted, and the bug of tiling the key heads instead of repeating each in a row."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import examples
from selfattn_ref.topics import grouped_query as topic
from selfattn_ref.topics import mistakes

from snippet_checks import close

RNG = np.random.default_rng(4)
X = RNG.standard_normal((2, 5, 8))  # (batch, n, d_model)


def layer(num_heads, num_kv_heads, d_head=2):
    W_Q = RNG.standard_normal((8, num_heads * d_head))
    W_K, W_V = RNG.standard_normal((2, 8, num_kv_heads * d_head))
    W_O = RNG.standard_normal((num_heads * d_head, 8))
    return W_Q, W_K, W_V, W_O


@pytest.mark.parametrize(("num_heads", "num_kv_heads"), [(4, 2), (4, 1), (6, 3), (4, 4)])
def test_equal_to_pytorch_with_the_keys_and_values_repeated(num_heads, num_kv_heads):
    W_Q, W_K, W_V, W_O = layer(num_heads, num_kv_heads)
    mask = ref.causal_mask(5)
    q = torch.from_numpy(ref.split_heads(X @ W_Q, num_heads))  # (batch, h, n, d_head)
    k = torch.from_numpy(ref.split_heads(X @ W_K, num_kv_heads))  # (batch, h_kv, n, d_head)
    v = torch.from_numpy(ref.split_heads(X @ W_V, num_kv_heads))
    groups = num_heads // num_kv_heads
    repeated = F.scaled_dot_product_attention(
        q, k.repeat_interleave(groups, dim=-3), v.repeat_interleave(groups, dim=-3), attn_mask=torch.from_numpy(mask)
    )
    gqa = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.from_numpy(mask), enable_gqa=True)
    close(repeated, gqa)
    want = torch.from_numpy(ref.join_heads(repeated.numpy()) @ W_O)
    for pkg in (ref, tref):
        output, weights = pkg.grouped_query_attention(X, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, mask=mask)
        close(output, want)
        assert tuple(weights.shape) == (2, num_heads, 5, 5)


def test_with_a_key_head_per_query_head_it_is_multi_head_attention():
    W_Q, W_K, W_V, W_O = (RNG.standard_normal((8, 8)) for _ in range(4))
    for pkg in (ref, tref):
        close(
            pkg.grouped_query_attention(X, W_Q, W_K, W_V, W_O, 4, 4)[0],
            pkg.multi_head_attention(X, W_Q, W_K, W_V, W_O, 4)[0],
        )


def test_repeat_kv_repeats_each_head_in_a_row():
    K = RNG.standard_normal((2, 3, 5, 2))  # (batch, num_kv_heads, n, d_head)
    for pkg in (ref, tref):
        repeated = pkg.repeat_kv(K, 2)
        close(repeated, torch.from_numpy(K).repeat_interleave(2, dim=1))
        close(repeated[:, 1], K[:, 0])  # query head 2 uses key head 1
        assert not np.allclose(np.asarray(repeated), torch.from_numpy(K).repeat(1, 2, 1, 1).numpy())


def test_the_cache_saved_is_counted():
    s = topic.shared()
    assert s.K.shape == s.V.shape == (1, 3, 2) and s.K_repeated.shape == (2, 3, 2)
    assert s.kept_per_token == 2 * 1 * 2 and s.kept_per_token_multi_head == 2 * 2 * 2
    # head 1 keeps its own keys: its weights are multi-head attention's; head 2's are not
    close(s.weights[0], s.weights_multi_head[0])
    assert np.abs(s.weights[1] - s.weights_multi_head[1]).max() > 0.1
    m = topic.mistral_7b()
    per_head = 32 * 2 * 8192 * 128 * 2  # layers, keys and values, tokens, d_head, bytes (float16)
    assert (m.bytes, m.bytes_multi_head, m.bytes_multi_query) == (8 * per_head, 32 * per_head, per_head)
    assert m.bytes == 2**30 and m.bytes_multi_head == 4 * 2**30


def test_tiled_key_heads_are_a_bug():
    """The mistakes lab: the right weights are PyTorch's enable_gqa; tiling the key heads gives heads 2
    and 3 the other group's keys."""
    m = mistakes.shared_heads_tiled()
    E = examples.load("the_cat_sat").E
    q = torch.from_numpy(ref.split_heads(E, 4))
    k = torch.from_numpy(ref.split_heads(E[:, :2], 2))
    A = torch.softmax(q @ k.repeat_interleave(2, dim=0).transpose(-2, -1), dim=-1)  # d_head = 1: scale 1
    close(m.right, A)
    for head, same in enumerate([True, False, False, True]):
        assert np.allclose(m.right[head], m.wrong[head]) == same


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_bad_input(pkg):
    W_Q, W_K, W_V, W_O = layer(4, 2)
    with pytest.raises(ValueError, match=r"num_kv_heads=3 must divide num_heads \(4\)"):
        pkg.grouped_query_attention(X, W_Q, W_K, W_V, W_O, 4, 3)
    with pytest.raises(
        ValueError, match=r"W_K must have shape \(8, 4\) for 2 key-value head\(s\) of 2 .* got \(8, 6\)"
    ):
        pkg.grouped_query_attention(X, W_Q, np.ones((8, 6)), W_V, W_O, 4, 2)
    with pytest.raises(ValueError, match=r"num_heads=3 must divide the columns of W_Q, got W_Q \(8, 8\)"):
        pkg.grouped_query_attention(X, W_Q, W_K, W_V, W_O, 3, 1)
    with pytest.raises(ValueError, match=r"mask has shape \(4, 4\), which does not fit"):
        pkg.grouped_query_attention(X, W_Q, W_K, W_V, W_O, 4, 2, mask=np.ones((4, 4), bool))
    with pytest.raises(ValueError, match=r"K must have at least 3 dimension\(s\), got shape \(5, 2\)"):
        pkg.repeat_kv(np.ones((5, 2)), 2)
