"""Layer 1 for the computations of pages that are not worked examples (selfattn_ref.topics), the
RNN scoring functions of selfattn_ref.rnn and the RNN example's loader.

Each module has a section: its numbers, NumPy == PyTorch on the same input, properties,
and bad input raising ValueError that names the argument, with one regex for both packages.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import examples, rnn
from selfattn_ref.examples import SpecError
from selfattn_ref.topics import real_numbers, rnn_comparison, scaling
from selfattn_ref.torch import rnn as trnn
from selfattn_ref.torch.topics import scaling as tscaling

from snippet_checks import close


def ones(*shape):
    return np.ones(shape)


# === the worked RNN: selfattn_ref.examples.load_rnn, selfattn_ref.topics.rnn_comparison =========


@pytest.fixture(scope="module", name="rnn_example")
def rnn_example_fixture():
    ex = examples.load_rnn()
    return ex, rnn_comparison.rnn_steps(ex)


def test_the_worked_rnn_reads_the_cat_sat(rnn_example):
    ex, st = rnn_example
    base = examples.load("the_cat_sat")
    assert ex.tokens == base.tokens and ex.slug == "the_cat_sat"
    np.testing.assert_array_equal(ex.E, base.E)
    assert ex.W_xh.shape == ex.W_hh.shape == (4, 4) and ex.s.shape == (4,)
    assert ex.W_s.shape == ex.W_h.shape == (4, 2) and ex.v.shape == (2,)
    assert st.H.shape == (3, 4) and ex.decimals == 4


def test_the_worked_rnns_numbers(rnn_example):
    """The numbers the page quotes, at the page's rounding."""
    _, st = rnn_example
    assert [f"{x:.4f}" for x in st.H[2]] == ["0.3899", "0.3881", "0.6281", "0.4988"]
    assert [f"{x:.4f}" for x in st.additive_weights] == ["0.4190", "0.2653", "0.3157"]
    assert [f"{x:.4f}" for x in st.dot_weights] == ["0.5079", "0.1977", "0.2945"]


def test_the_worked_rnn_steps_agree_with_the_package(rnn_example):
    ex, st = rnn_example
    close(st.H, ref.rnn_encoder(ex.E, ex.W_xh, ex.W_hh))
    close(st.H, tref.rnn_encoder(ex.E, ex.W_xh, ex.W_hh))
    close(np.tanh(st.before_tanh), st.H)
    close(st.before_tanh, st.from_input + st.from_previous)
    np.testing.assert_array_equal(st.from_previous[0], 0)
    context, weights = ref.additive_attention(ex.s, st.H, ex.W_s, ex.W_h, ex.v)
    close(st.additive_weights, weights)
    close(st.additive_context, context)
    close(ref.softmax(st.additive_scores), weights)
    close(st.dot_weights, ref.softmax(st.H @ ex.s))


def test_the_rnn_data_file_is_not_a_self_attention_example():
    assert "the_cat_sat" in examples.available()
    assert all((examples.EXAMPLES_DIR / f"{slug}.toml").is_file() for slug in examples.available())
    assert examples.RNN_DIR.parent == examples.EXAMPLES_DIR
    assert examples.available_rnn() == ["the_cat_sat"]


def seeded(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("batch", [(), (2,), (2, 3)])
def test_dot_attention_numpy_torch_and_sdpa_agree(batch):
    s, H = seeded(1, (*batch, 5), (*batch, 7, 5))
    context, weights = rnn.dot_attention(s, H)
    assert context.shape == (*batch, 5) and weights.shape == (*batch, 7)
    np.testing.assert_allclose(weights.sum(axis=-1), 1, rtol=0, atol=1e-14)
    tcontext, tweights = trnn.dot_attention(s, H)
    close(tcontext, context)
    close(tweights, weights)
    close(rnn.dot_scores(s, H), np.einsum("...nd,...d->...n", H, s))
    close(trnn.dot_scores(s, H), rnn.dot_scores(s, H))
    out, w = ref.scaled_dot_product_attention(s[..., None, :], H, H, scale=1.0)
    close(out[..., 0, :], context)
    close(w[..., 0, :], weights)


@pytest.mark.parametrize("batch", [(), (3,)])
def test_additive_scores_are_what_additive_attention_normalizes(batch):
    s, H, W_s, W_h, v = seeded(2, (*batch, 3), (*batch, 6, 4), (3, 5), (4, 5), (5,))
    e = rnn.additive_scores(s, H, W_s, W_h, v)
    assert e.shape == (*batch, 6)
    close(ref.softmax(e), ref.additive_attention(s, H, W_s, W_h, v)[1])
    close(trnn.additive_scores(s, H, W_s, W_h, v), e)
    close(trnn.additive_attention(s, H, W_s, W_h, v)[1], ref.additive_attention(s, H, W_s, W_h, v)[1])


def test_float32_stays_float32():
    s, H = (a.astype(np.float32) for a in seeded(3, (4,), (3, 4)))
    assert rnn.dot_attention(s, H)[0].dtype == np.float32
    assert trnn.dot_attention(torch.from_numpy(s), torch.from_numpy(H))[0].dtype == torch.float32


def test_compare_counts():
    c = rnn_comparison.compare(3, 4)
    assert c["rnn"] == {
        "sequential_steps": 3,
        "longest_path": 3,
        "multiply_adds_within_tokens": 48,
        "multiply_adds_between_tokens": 48,
        "multiply_adds": 96,
    }
    assert c["self_attention"] == {
        "sequential_steps": 1,
        "longest_path": 1,
        "multiply_adds_within_tokens": 144,
        "multiply_adds_between_tokens": 72,
        "multiply_adds": 216,
    }
    assert (c["n"], c["d"], c["d_in"], c["ratio"], c["between_tokens_ratio"]) == (3, 4, 4, 2.25, 1.5)
    c = rnn_comparison.compare(10, 6, d_in=3)
    assert c["rnn"]["multiply_adds"] == 10 * 3 * 6 + 10 * 6 * 6
    assert c["self_attention"]["multiply_adds"] == 3 * 10 * 3 * 6 + 2 * 10 * 10 * 6
    assert c["ratio"] == pytest.approx((3 * 3 + 2 * 10) / (3 + 6))


# === selfattn_ref.topics.scaling =========================================================================


def test_dot_products_and_their_variance():
    q, k = seeded(4, (100, 8), (100, 8))
    close(scaling.dot_products(q, k), np.einsum("nd,nd->n", q, k))
    close(tscaling.dot_products(q, k), scaling.dot_products(q, k))
    assert scaling.dot_product_variance(q, k) == pytest.approx(np.var(np.einsum("nd,nd->n", q, k)), rel=1e-14)
    assert tscaling.dot_product_variance(q, k) == pytest.approx(scaling.dot_product_variance(q, k), rel=1e-12)
    assert scaling.dot_products([1, 2, 3], [4, 5, 6]) == 32


@pytest.mark.parametrize("batch", [(), (5,), (2, 3)])
def test_largest_weights(batch):
    q, K = seeded(5, (*batch, 16), (*batch, 8, 16))
    got = scaling.largest_weights(q, K)
    assert got.shape == batch
    want = ref.softmax(np.einsum("...nd,...d->...n", K, q) / 4).max(axis=-1)  # √16 = 4
    close(got, want)
    close(scaling.largest_weights(q, K, scale=0.25), want)
    close(scaling.largest_weights(q, K, scale=1.0), ref.softmax(np.einsum("...nd,...d->...n", K, q)).max(axis=-1))
    close(tscaling.largest_weights(q, K), got)
    close(tscaling.largest_weights(q, K, scale=1.0), scaling.largest_weights(q, K, scale=1.0))
    assert np.all((1 / 8 <= got) & (got <= 1))


def test_one_key_gets_all_the_weight():
    q, K = seeded(6, (10, 3), (10, 1, 3))
    np.testing.assert_array_equal(scaling.largest_weights(q, K), 1)


def test_the_experiments_are_deterministic_and_follow_their_draw_order():
    assert scaling.variance_experiment() == scaling.variance_experiment()
    assert tscaling.largest_weight_experiment(dims=(4,), trials=10) == tscaling.largest_weight_experiment(
        dims=(4,), trials=10
    )
    rng = np.random.default_rng(0)
    rows = scaling.variance_experiment(dims=(3, 5), samples=50)
    for d, row in zip((3, 5), rows, strict=True):
        q, k = rng.standard_normal((50, d)), rng.standard_normal((50, d))
        assert row["d"] == d
        assert row["variance"] == pytest.approx(np.var((q * k).sum(axis=1)), rel=1e-14)
    g = torch.Generator().manual_seed(0)
    rows = tscaling.largest_weight_experiment(dims=(2,), n=3, trials=20)
    q = torch.randn((20, 2), generator=g, dtype=torch.float64)
    K = torch.randn((20, 3, 2), generator=g, dtype=torch.float64)
    assert rows[0]["unscaled"] == pytest.approx(float(scaling.largest_weights(q.numpy(), K.numpy(), 1.0).mean()))
    assert rows[0]["scaled"] == pytest.approx(float(scaling.largest_weights(q.numpy(), K.numpy()).mean()))


def test_the_experiments_show_what_the_page_says():
    for r in scaling.variance_experiment():
        assert r["variance"] / r["d"] == pytest.approx(1, abs=0.05)
    rows = scaling.largest_weight_experiment()
    assert rows[-1]["d"] == 512 and rows[-1]["unscaled"] > 0.95 and rows[-1]["scaled"] < 0.4
    assert math.isclose(rows[-1]["scaled"], 0.3607, abs_tol=5e-5)


# === selfattn_ref.topics.real_numbers: "bank" in a sentence about money ==========================


def test_bank_of_money_is_bank_of_river_with_money_for_river():
    river, money = real_numbers.sentences()
    ex = examples.load("bank_of_river")
    assert river.tokens == ex.tokens == ("bank", "of", "river") and money.tokens == ("bank", "of", "money")
    np.testing.assert_array_equal(river.E, ex.E)
    np.testing.assert_array_equal(money.E[:2], ex.E[:2])
    bank, of, river_v, money_v = ex.E[0], ex.E[1], ex.E[2], money.E[2]
    # What the page says of the features: bank has x1 and x3, river shares x1, money x3 instead,
    # and both share x2 with "of".
    np.testing.assert_array_equal(bank, [1, 0, 1, 0])
    np.testing.assert_array_equal(bank * river_v, [1, 0, 0, 0])
    np.testing.assert_array_equal(bank * money_v, [0, 0, 1, 0])
    np.testing.assert_array_equal(of * river_v, of * money_v)
    assert (of * money_v).sum() == 1


def test_bank_of_money_is_the_three_steps_in_numpy_and_pytorch():
    for s in real_numbers.sentences():
        S = s.E @ s.E.T
        np.testing.assert_array_equal(s.scores, S)
        close(s.weights, ref.softmax(S))
        close(s.output, ref.self_attention(s.E))
        close(s.output, tref.self_attention(torch.from_numpy(s.E)))
        close(s.output, s.weights @ s.E)


def test_bank_takes_the_same_weights_and_leans_towards_the_feature_it_shares():
    river, money = real_numbers.sentences()
    np.testing.assert_array_equal(money.scores[0], [2, 0, 1])  # "again 2, 0 and 1"
    np.testing.assert_array_equal(money.scores[0], river.scores[0])
    close(money.weights[0], river.weights[0])
    # x1 and x3 of "bank" trade places: x1 ahead beside "river", x3 ahead beside "money".
    close(money.output[0], river.output[0][[2, 1, 0, 3]])
    assert river.output[0, 0] > river.output[0, 2] and money.output[0, 2] > money.output[0, 0]
    assert [f"{x:.3f}" for x in money.output[0]] == ["0.665", "0.335", "0.910", "0.090"]


# === bad input ==================================================================================

# (id, call with the module, regex the message must match); both packages word them the same.
CASES = [
    (
        "dot-s-H-width",
        lambda m: m.dot_attention(ones(3), ones(4, 2)),
        r"^s and H must have the same width, got s \(3,\) and H \(4, 2\)$",
    ),
    (
        "dot-H-1d",
        lambda m: m.dot_attention(ones(3), ones(3)),
        r"^H must have at least 2 dimension\(s\), got shape \(3,\)$",
    ),
    (
        "dot-scores-nan",
        lambda m: m.dot_scores(np.array([1.0, np.nan]), ones(3, 2)),
        r"^s must hold only finite numbers \(no NaN or infinity\), shape \(2,\)$",
    ),
    (
        "additive-shapes",
        lambda m: m.additive_scores(ones(2), ones(3, 5), ones(2, 4), ones(2, 4), ones(4)),
        r"^shapes do not fit: s \(2,\), H \(3, 5\), W_s \(2, 4\), W_h \(2, 4\), v \(4,\)",
    ),
    (
        "additive-v-2d",
        lambda m: m.additive_scores(ones(2), ones(3, 2), ones(2, 2), ones(2, 2), ones(2, 1)),
        r"^v must have 1 dimension\(s\), got shape \(2, 1\)$",
    ),
]
COMPARE_CASES = [
    ("compare-n-zero", lambda m: m.compare(0, 4), r"^n must be a positive integer, got 0$"),
    ("compare-d-float", lambda m: m.compare(3, 4.0), r"^d must be a positive integer, got 4\.0$"),
    ("compare-d_in-bool", lambda m: m.compare(3, 4, True), r"^d_in must be a positive integer, got True$"),
    # a count beyond float64's range made the ratios raise OverflowError
    ("compare-n-huge", lambda m: m.compare(10**400, 4), r"^n must be at most 10\*\*15, got a larger integer$"),
    ("compare-d-long", lambda m: m.compare(3, 10**16), r"^d must be at most 10\*\*15, got a larger integer$"),
    ("steps-not-an-example", lambda m: m.rnn_steps("the_cat_sat"), r"^ex must be an RNNExample .*, got str$"),
    (
        "without-first-one-token",
        lambda m: m.without_first(dataclasses.replace(examples.load_rnn(), tokens=("The",))),
        r"^ex must have at least 2 tokens to drop the first, got 1$",
    ),
]
SCALING_CASES = [
    (
        "dot-products-shapes",
        lambda m: m.dot_products(ones(3, 4), ones(3, 5)),
        r"^q and k must have the same shape, got q \(3, 4\) and k \(3, 5\)$",
    ),
    (
        "variance-one-sample",
        lambda m: m.dot_product_variance(ones(1, 4), ones(1, 4)),
        r"^q must hold at least 2 samples to have a variance, got shape \(1, 4\)$",
    ),
    (
        "variance-k-1d",
        lambda m: m.dot_product_variance(ones(3, 4), ones(4)),
        r"^k must have 2 dimension\(s\), got shape \(4,\)$",
    ),
    (
        "largest-K-shape",
        lambda m: m.largest_weights(ones(3, 4), ones(2, 8, 4)),
        r"^K must have shape \(\.\.\., n, d\) for q of shape \(\.\.\., d\), got q \(3, 4\) and K \(2, 8, 4\)$",
    ),
    (
        "largest-scale-zero",
        lambda m: m.largest_weights(ones(4), ones(8, 4), scale=0),
        r"^scale must be a positive finite number, got 0$",
    ),
    (
        "largest-q-inf",
        lambda m: m.largest_weights(np.array([1.0, np.inf]), ones(3, 2)),
        r"^q must hold only finite numbers \(no NaN or infinity\), shape \(2,\)$",
    ),
    (
        "variance-samples",
        lambda m: m.variance_experiment(samples=1),
        r"^samples must be an integer of at least 2, got 1$",
    ),
    ("variance-dims-empty", lambda m: m.variance_experiment(dims=()), r"^dims must hold at least one width, got \(\)$"),
    (
        "variance-dims-zero",
        lambda m: m.variance_experiment(dims=(4, 0)),
        r"^each of dims must be an integer of at least 1, got 0$",
    ),
    (
        "variance-dims-int",
        lambda m: m.variance_experiment(dims=4),
        r"^dims must be a sequence of positive integers, got 4$",
    ),
    ("largest-n", lambda m: m.largest_weight_experiment(n=0), r"^n must be an integer of at least 1, got 0$"),
    (
        "largest-trials",
        lambda m: m.largest_weight_experiment(trials=2.5),
        r"^trials must be an integer of at least 1, got 2\.5$",
    ),
    (
        "largest-seed",
        lambda m: m.largest_weight_experiment(seed=-1),
        r"^seed must be an integer of at least 0, got -1$",
    ),
]


@pytest.mark.parametrize(("call", "pattern"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
@pytest.mark.parametrize("module", [rnn, trnn], ids=["numpy", "torch"])
def test_rnn_scoring_bad_input_is_named(module, call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call(module)


@pytest.mark.parametrize(("call", "pattern"), [c[1:] for c in COMPARE_CASES], ids=[c[0] for c in COMPARE_CASES])
def test_rnn_comparison_bad_input_is_named(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call(rnn_comparison)


@pytest.mark.parametrize(("call", "pattern"), [c[1:] for c in SCALING_CASES], ids=[c[0] for c in SCALING_CASES])
@pytest.mark.parametrize("module", [scaling, tscaling], ids=["numpy", "torch"])
def test_scaling_bad_input_is_named(module, call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call(module)


GOOD = examples.RNN_DIR / "the_cat_sat.toml"


@pytest.mark.parametrize(
    ("old", "new", "pattern"),
    [
        ("decimals = 4", "decimals = 4\nseed = 1", r"unknown key 'seed'"),
        ("decimals = 4", "", r"missing key 'decimals'"),
        ('embeddings_from = "the_cat_sat"', 'embeddings_from = "the_dog"', r"'embeddings_from' must name a worked"),
        ("s = [0.5, -0.5, 0.5, -0.5]", "s = [0.5, -0.5, 0.5]", r"'s' must have 4 entries, got 3"),
        ("s = [0.5, -0.5, 0.5, -0.5]", "s = [[0.5, -0.5, 0.5, -0.5]]", r"'s' must be a non-empty list of numbers"),
        ("v = [1.0, -0.5]", "v = [1.0, -0.5, 2.0]", r"'W_s', 'W_h' and 'v' must have the same attention width"),
        ("v = [1.0, -0.5]", 'v = [1.0, "x"]', r"'v' holds 'x' \(number 2\), which is not a number"),
        ("  [-0.2,  0.0,  0.3,  0.5],\n]", "]", r"'W_xh' must have 4 rows, got 3"),
        ("decimals = 4", "decimals = 11", r"'decimals' must be an integer from 0 to 10, got 11"),
        ('title = "', 'title = "', None),
    ],
)
def test_a_broken_rnn_file_is_named(tmp_path, old, new, pattern):
    text = GOOD.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    if pattern is None:
        assert examples.load_rnn_file(path).slug == "broken"
        return
    with pytest.raises(SpecError, match=pattern) as info:
        examples.load_rnn_file(path)
    assert str(path) in str(info.value)


def test_an_unknown_rnn_example_is_named():
    with pytest.raises(ValueError, match=r"unknown RNN example 'the_dog'; available: the_cat_sat"):
        examples.load_rnn("the_dog")
