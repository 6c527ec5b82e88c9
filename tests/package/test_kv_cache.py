"""The KV cache (selfattn_ref.kv_cache and its twin): one position at a time with and without the
cache gives the same numbers, what the cache holds after each step, the multiply-adds counted as
the code performs them against a derivation written here, the cache's size for published models,
and the bug of a new token's rotary position taken off by one (selfattn_ref.topics.mistakes)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import selfattn_ref as ref
from selfattn_ref import examples, kv_cache
from selfattn_ref._checks import MultiplyAdds
from selfattn_ref.topics import kv_cache as topic
from selfattn_ref.topics import mistakes
from selfattn_ref.torch import kv_cache as tkv_cache

from snippet_checks import close

RNG = np.random.default_rng(2)
N, D, HEADS = 6, 8, 2  # d_head = 4
X = RNG.standard_normal((N, D))
W = [RNG.standard_normal((D, D)) / math.sqrt(D) for _ in range(4)]


@pytest.fixture(scope="module", name="runs")
def runs_fixture():
    return {
        (pkg.__name__, rope): pkg.kv_cache_steps(X, *W, HEADS, rope_base=rope)
        for pkg in (kv_cache, tkv_cache)
        for rope in (None, 10000.0)
    }


@pytest.mark.parametrize("rope", [None, 10000.0], ids=["no positions", "rotary"])
@pytest.mark.parametrize("pkg", [kv_cache, tkv_cache], ids=["numpy", "torch"])
def test_with_and_without_the_cache_the_same_numbers(runs, pkg, rope):
    run = runs[(pkg.__name__, rope)]
    assert run.largest_difference < 1e-14  # rounding only: float64 holds about 16 digits
    close(run.output, run.recomputed, 1e-14)
    assert [s.position for s in run.steps] == list(range(1, N + 1))


def test_without_positions_it_is_the_causal_layer(runs):
    output, weights = ref.multi_head_attention(X, *W, HEADS, mask=ref.causal_mask(N))
    close(runs[("selfattn_ref.kv_cache", None)].output, output)
    for t, step in enumerate(runs[("selfattn_ref.kv_cache", None)].steps, 1):
        close(step.weights, weights[:, t - 1, :t])


@pytest.mark.parametrize("rope", [None, 10000.0], ids=["no positions", "rotary"])
def test_what_the_cache_holds(runs, rope):
    """After step t, the keys and values of tokens 1..t, (num_heads, t, d_head); each step adds one row
    and changes none kept before; with rotary positions the keys are kept turned."""
    steps = runs[("selfattn_ref.kv_cache", rope)].steps
    K = ref.split_heads(X @ W[1], HEADS)  # (h, n, d_head)
    if rope is not None:
        K = ref.rotary_embedding(K, base=rope)
    V = ref.split_heads(X @ W[2], HEADS)
    for t, step in enumerate(steps, 1):
        assert step.K_cache.shape == step.V_cache.shape == (HEADS, t, D // HEADS)
        close(step.K_cache, K[:, :t])
        close(step.V_cache, V[:, :t])
        if t > 1:
            assert np.array_equal(step.K_cache[:, : t - 1], steps[t - 2].K_cache)


def test_the_twins_agree(runs):
    for rope in (None, 10000.0):
        a, b = runs[("selfattn_ref.kv_cache", rope)], runs[("selfattn_ref.torch.kv_cache", rope)]
        close(a.output, b.output)
        for s, t in zip(a.steps, b.steps, strict=True):
            close(s.K_cache, t.K_cache)
            close(s.weights, t.weights)
            assert s.multiply_adds == t.multiply_adds and s.multiply_adds_recomputed == t.multiply_adds_recomputed


def test_the_multiply_adds_counted_are_the_derivation(runs):
    """Derived here, product by product: with the cache, the new token's q, k, v and output rows
    (4 products of 1 × d by d × d), its scores and its weighted sum over t keys (t·d_head per head,
    h heads); without it, the same for all t rows and the t × t scores."""
    for step in runs[("selfattn_ref.kv_cache", 10000.0)].steps:
        t = step.position
        assert step.multiply_adds == {
            "queries": D * D,
            "keys": D * D,
            "values": D * D,
            "scores": HEADS * t * (D // HEADS),
            "weights times values": HEADS * t * (D // HEADS),
            "output projection": D * D,
        }
        assert sum(step.multiply_adds.values()) == 4 * D * D + 2 * t * D
        assert sum(step.multiply_adds_recomputed.values()) == 4 * t * D * D + 2 * t * t * D


def test_the_tally_counts_the_product_it_computes():
    count = MultiplyAdds()
    a, b = np.ones((5, 2, 3)), np.ones((3, 4))
    assert count.matmul(a, b, "x").shape == (5, 2, 4)
    assert count.counts == {"x": 5 * 2 * 3 * 4} and count.total == 120
    count.matmul(np.ones((2, 3)), np.ones((3, 1)), "x")
    assert count.counts == {"x": 126}
    with pytest.raises(ValueError, match=r"x: the product of shapes \(2, 3\) and \(2, 3\) is not defined"):
        count.matmul(np.ones((2, 3)), np.ones((2, 3)), "x")


def test_the_cache_size_is_the_cache_the_run_builds(runs):
    last = runs[("selfattn_ref.kv_cache", None)].steps[-1]
    shape = kv_cache.kv_cache_shape(1, HEADS, N, D // HEADS)
    assert shape == (1, 2, HEADS, N, D // HEADS)
    assert math.prod(shape) == last.K_cache.size + last.V_cache.size
    assert kv_cache.kv_cache_bytes(1, HEADS, N, D // HEADS, 8) == last.K_cache.nbytes + last.V_cache.nbytes


def test_published_models_cache_sizes():
    """GPT-2 small: keys and values, 12 layers, 1,024 tokens, 768 numbers (12 heads of 64) each."""
    g = topic.gpt2_small()
    assert (g.model.num_blocks, g.model.d_model, g.model.num_heads, g.model.n_ctx) == (12, 768, 12, 1024)
    assert g.numbers == 2 * 12 * 1024 * 768 == 18_874_368
    assert g.bytes == {"float16": 37_748_736, "float32": 75_497_472}  # 36 MiB and 72 MiB
    assert g.numbers_per_token == 2 * 12 * 768 and g.bytes_per_token == {"float16": 36_864, "float32": 73_728}
    m = topic.mistral_7b()
    assert m.numbers == 2 * 32 * 8 * 128 * 8192 and m.bytes["float16"] == 2**30  # 1 GiB
    assert tkv_cache.kv_cache_bytes is kv_cache.kv_cache_bytes and tkv_cache.ModelSize is kv_cache.ModelSize


def test_the_sites_example():
    run, turned = topic.run(), topic.rotary_run()
    assert run.largest_difference < 1e-15 and turned.largest_difference < 1e-15
    assert [s.K_cache.shape for s in run.steps] == [(2, 1, 2), (2, 2, 2), (2, 3, 2)]
    assert [sum(s.multiply_adds.values()) for s in run.steps] == [72, 80, 88]
    assert [sum(s.multiply_adds_recomputed.values()) for s in run.steps] == [72, 160, 264]
    # rotary positions change the weights but not their sum, and not the first step (position 0)
    close(run.steps[0].weights, turned.steps[0].weights)
    assert np.abs(run.steps[2].weights - turned.steps[2].weights).max() > 0.01


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("pkg", [kv_cache, tkv_cache], ids=["numpy", "torch"])
def test_bad_input(pkg):
    with pytest.raises(ValueError, match=r"X must have 2 dimension\(s\), got shape \(1, 6, 8\)"):
        pkg.kv_cache_steps(X[None], *W, HEADS)
    with pytest.raises(ValueError, match="rope_base must be a positive finite number, got -1.0"):
        pkg.kv_cache_steps(X, *W, HEADS, rope_base=-1.0)
    with pytest.raises(ValueError, match=r"bytes_per_number must be 1, 2, 4 or 8 \(the size of a number\), got 3"):
        pkg.kv_cache_bytes(12, 12, 1024, 64, 3)
    with pytest.raises(ValueError, match="n_ctx must be a positive integer, got 0"):
        pkg.kv_cache_shape(12, 12, 0, 64)
    # a model's sizes are checked when it is made (topics.kv_cache.size divided by num_heads = 0)
    with pytest.raises(ValueError, match="^num_heads must be a positive integer, got 0$"):
        pkg.ModelSize("m", num_blocks=2, d_model=8, num_heads=0, num_kv_heads=1, n_ctx=4, source="s")
    with pytest.raises(ValueError, match=r"^num_kv_heads=3 must divide num_heads \(4\)$"):
        pkg.ModelSize("m", num_blocks=2, d_model=8, num_heads=4, num_kv_heads=3, n_ctx=4, source="s")
    with pytest.raises(ValueError, match=r"X \(6, 8\), W_Q \(8, 8\) and W_K \(8, 8\) are too large"):
        pkg.kv_cache_steps(X * 1e160, *W, HEADS)
    # heads of odd width cannot turn in pairs: said with the caller's X, not the heads' internal shape
    with pytest.raises(ValueError) as info:
        pkg.kv_cache_steps(X[:, :6], *(w[:6, :6] for w in W), HEADS, rope_base=10000.0)
    assert str(info.value) == (
        "with rope_base, num_heads=2 must leave each head an even width (its entries turn in pairs), "
        "got X (6, 6), heads of width 3"
    )
    # a turned query or key that could overflow: refused before it is computed, naming the caller's arguments
    big = np.full((4, 4), 0.75 * np.finfo(np.float64).max / 4)  # X W_Q = 0.75 MAX everywhere; a turned pair 1.5 MAX
    with pytest.raises(ValueError, match=r"^X \(2, 4\) and W_Q \(4, 4\) are too large: in the heads, the turned pairs"):
        pkg.kv_cache_steps(np.ones((2, 4)), big, *[np.eye(4)] * 3, 2, rope_base=10000.0)


def test_a_rotary_position_off_by_one_in_the_cache():
    """The mistakes lab: "sat" turned for its position (2, from 0) is what the layer on the whole
    sentence gives, and what kv_cache_steps gives; turned for 3 or for 0, its weights are wrong."""
    m = mistakes.rope_cache_position()
    close(m.right, m.recomputed, 1e-15)
    E = examples.load("the_cat_sat").E
    eye = np.eye(4)
    run = kv_cache.kv_cache_steps(E, eye, eye, eye, eye, 1, rope_base=mistakes.ROPE_BASE)
    close(m.right, run.steps[2].weights[0])
    assert np.abs(m.off_by_one - m.right).max() > 0.05 and np.abs(m.restarted - m.right).max() > 0.05
    assert [f"{x:.4f}" for x in m.right] == ["0.0729", "0.2866", "0.6405"]


def test_the_docstring_states_the_published_sizes_and_their_sources():
    doc = " ".join(kv_cache.__doc__.split())
    g, m = kv_cache.GPT2_SMALL, kv_cache.MISTRAL_7B
    assert (
        f"{g.num_blocks} layers of width {g.d_model} with {g.num_heads} heads and a context of {g.n_ctx:,} tokens"
        in doc
    )
    assert (
        f"{m.num_blocks} layers of width {m.d_model:,} with {m.num_heads} query heads, {m.num_kv_heads} key-value "
        f"heads, a context of {m.n_ctx:,} tokens and a sliding window of {m.window:,}" in doc
    )
    assert "Radford et al. 2019" in doc and "Jiang et al. 2023" in doc and "n_head 12" in doc
