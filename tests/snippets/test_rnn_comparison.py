"""Snippets of docs/rnn-comparison.md: the tiny RNN encoder over "The cat sat" and a decoder
state attending to its hidden states (additive and dot-product scoring), in NumPy and
PyTorch, held equal to selfattn_ref.rnn and selfattn_ref.topics.rnn_comparison; and the facts
the page states, the cost counts included."""

from __future__ import annotations

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from publish.generate.snippets import namespace
from selfattn_ref import examples, rnn
from selfattn_ref.topics import rnn_comparison as comparison

from snippet_checks import close, snippet_namespace

FOLDER = SNIPPETS / "rnn_comparison"
ENCODER = [FOLDER / "rnn_encoder_numpy.py", FOLDER / "rnn_encoder_torch.py"]
DECODER = [FOLDER / "decoder_attention_numpy.py", FOLDER / "decoder_attention_torch.py"]
SNIPPET_PATHS = ENCODER + DECODER


def library(path) -> str:
    return "torch" if path.stem.endswith("_torch") else "numpy"


@pytest.fixture(scope="module")
def rnn_ref():
    ex = examples.load_rnn("the_cat_sat")
    return ex, comparison.rnn_steps(ex)


def load(path):
    return snippet_namespace(path)


@pytest.fixture(scope="module", params=ENCODER, ids=lambda p: p.name)
def encoder(request):
    return request.param, load(request.param)


@pytest.fixture(scope="module", params=DECODER, ids=lambda p: p.name)
def decoder(request):
    return request.param, load(request.param)


# --- the snippets run alone and agree with the package -----------------------------------


def test_the_inputs_are_the_data_files(encoder, decoder, rnn_ref):
    ex, _ = rnn_ref
    the_cat_sat = examples.load("the_cat_sat")
    _, ns = encoder
    assert tuple(ns["tokens"]) == the_cat_sat.tokens == ex.tokens
    for n in (ns, decoder[1]):
        close(n["X"], the_cat_sat.E)
        close(n["W_xh"], ex.W_xh)
        close(n["W_hh"], ex.W_hh)
    _, ns = decoder
    for name in ("s", "W_s", "W_h", "v"):
        close(ns[name], getattr(ex, name))


def test_encoder_states_equal_the_reference(encoder, rnn_ref):
    ex, st = rnn_ref
    _, ns = encoder
    close(ns["H"], st.H)
    close(ns["H"], selfattn_ref.rnn_encoder(ex.E, ex.W_xh, ex.W_hh))
    close(ns["H_without_the"], comparison.without_first(ex))
    close(ns["H_without_the"], selfattn_ref.rnn_encoder(ex.E[1:], ex.W_xh, ex.W_hh))


def test_the_snippets_encode_is_rnn_encoder(encoder):
    """On other inputs too: the snippet's encode() restates selfattn_ref.rnn_encoder."""
    path, ns = encoder
    rng = np.random.default_rng(7)
    E, W_xh, W_hh = rng.normal(size=(5, 3)), rng.normal(size=(3, 6)), rng.normal(0, 0.5, size=(6, 6))
    args = (E, W_xh, W_hh)
    if library(path) == "torch":
        import torch

        args = tuple(torch.from_numpy(a) for a in args)
    close(ns["encode"](*args), selfattn_ref.rnn_encoder(E, W_xh, W_hh))


def test_decoder_attention_equals_the_reference(decoder, rnn_ref):
    ex, st = rnn_ref
    _, ns = decoder
    close(ns["H"], st.H)
    close(ns["additive_scores"], st.additive_scores)
    close(ns["additive_scores"], rnn.additive_scores(ex.s, st.H, ex.W_s, ex.W_h, ex.v))
    context, weights = selfattn_ref.additive_attention(ex.s, st.H, ex.W_s, ex.W_h, ex.v)
    close(ns["additive_weights"], weights)
    close(ns["additive_context"], context)
    close(ns["dot_scores"], rnn.dot_scores(ex.s, st.H))
    context, weights = rnn.dot_attention(ex.s, st.H)
    close(ns["dot_weights"], weights)
    close(ns["dot_context"], context)
    # Luong's dot product is scaled_dot_product_attention with one query, keys = values = H, no scaling.
    out, w = selfattn_ref.scaled_dot_product_attention(ex.s[None, :], st.H, st.H, scale=1.0)
    close(ns["dot_weights"], w[0])
    close(ns["dot_context"], out[0])


def test_the_numpy_snippets_softmax_is_the_packages():
    """The PyTorch snippet calls torch.softmax; the NumPy one writes it out."""
    ns = namespace(DECODER[0])
    e = np.array([3.0, -1.0, 0.5, 700.0])
    close(ns["softmax"](e), selfattn_ref.softmax(e))


# --- what the page says: the encoder ---------------------------------------------------------


def test_the_steps_written_out_add_up(rnn_ref):
    ex, st = rnn_ref
    previous = np.zeros(4)
    for t in range(len(ex.tokens)):
        close(st.from_input[t], ex.E[t] @ ex.W_xh)
        close(st.from_previous[t], previous @ ex.W_hh)
        close(st.H[t], np.tanh(st.from_input[t] + st.from_previous[t]))
        previous = st.H[t]


def test_each_state_depends_on_the_one_before_and_never_on_later_tokens(rnn_ref):
    ex, st = rnn_ref
    changed = ex.E.copy()
    changed[1:] = [[0.3, -0.7, 2.0, 1.0], [5.0, 0.0, -1.0, 0.5]]  # other words after "The"
    H = selfattn_ref.rnn_encoder(changed, ex.W_xh, ex.W_hh)
    np.testing.assert_array_equal(H[0], st.H[0])  # h1 reads only what came before it
    assert np.abs(H[1:] - st.H[1:]).min() > 1e-3
    # "The" reaches h3 only through h2 and h1: with W_hh = 0 the last state forgets it.
    no_memory = np.zeros_like(ex.W_hh)
    with_the = selfattn_ref.rnn_encoder(ex.E, ex.W_xh, no_memory)[-1]
    without_the = selfattn_ref.rnn_encoder(ex.E[1:], ex.W_xh, no_memory)[-1]
    np.testing.assert_array_equal(with_the, without_the)


def test_dropping_the_changes_the_last_state_as_the_page_says(rnn_ref):
    ex, st = rnn_ref
    H2 = comparison.without_first(ex)
    assert H2.shape == (2, 4)
    np.testing.assert_array_equal(H2[0], selfattn_ref.rnn_encoder(ex.E[1:2], ex.W_xh, ex.W_hh)[0])
    # "unit u2 of the last state drops from 0.3881 to 0.3198 and unit u3 from 0.6281 to 0.5469"
    assert st.H[-1, 1] > H2[-1, 1] and st.H[-1, 2] > H2[-1, 2]
    assert [f"{x:.4f}" for x in (st.H[-1, 1], H2[-1, 1], st.H[-1, 2], H2[-1, 2])] == [
        "0.3881",
        "0.3198",
        "0.6281",
        "0.5469",
    ]


def test_the_weights_are_round_numbers_with_one_decimal(rnn_ref):
    ex, _ = rnn_ref
    for name in ("W_xh", "W_hh", "s", "W_s", "W_h", "v"):
        M = getattr(ex, name)
        np.testing.assert_array_equal(M, np.round(M, 1))
        assert np.abs(M).max() <= 1


# --- what the page says: the decoder ---------------------------------------------------------


def test_both_scorings_put_the_most_weight_on_h1_and_differ(rnn_ref):
    _, st = rnn_ref
    for w in (st.additive_weights, st.dot_weights):
        assert w.argmax() == 0
        np.testing.assert_allclose(w.sum(), 1, rtol=0, atol=1e-15)
    assert f"{st.additive_weights[0]:.2%}" == "41.90%" and f"{st.dot_weights[0]:.2%}" == "50.79%"
    assert np.abs(st.additive_context - st.dot_context).max() > 0.01
    close(st.additive_context, st.additive_weights @ st.H)
    close(st.dot_context, st.dot_weights @ st.H)


def test_the_additive_steps_written_out_add_up(rnn_ref):
    ex, st = rnn_ref
    close(st.s_part, ex.s @ ex.W_s)
    close(st.h_parts, st.H @ ex.W_h)
    close(st.additive_hidden, np.tanh(st.s_part + st.h_parts))
    close(st.additive_scores, st.additive_hidden @ ex.v)


# --- what the page says: the costs ------------------------------------------------------------


def count_rnn(n, d_in, d):
    """Multiply-adds of the matrix products an RNN layer runs, counted as it runs them."""
    rng = np.random.default_rng(0)
    E, W_xh, W_hh = rng.normal(size=(n, d_in)), rng.normal(size=(d_in, d)), rng.normal(size=(d, d))
    count, h = 0, np.zeros(d)
    for x in E:
        count += x.size * W_xh.shape[1] + h.size * W_hh.shape[1]  # (d_in,)@(d_in, d), (d,)@(d, d)
        h = np.tanh(x @ W_xh + h @ W_hh)
    return count, len(E)  # (multiply-adds, steps one after another)


def count_self_attention(n, d_in, d):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d_in))
    W = [rng.normal(size=(d_in, d)) for _ in range(3)]

    def matmul(A, B):
        return A @ B, A.shape[0] * A.shape[1] * B.shape[1]

    (Q, c1), (K, c2), (V, c3) = (matmul(X, w) for w in W)
    S, c4 = matmul(Q, K.T)
    Z, c5 = matmul(selfattn_ref.softmax(S / np.sqrt(d)), V)
    return c1 + c2 + c3, c4 + c5


@pytest.mark.parametrize(("n", "d_in", "d"), [(3, 4, 4), (1, 1, 1), (5, 3, 7), (8, 2, 2), (2, 6, 3)])
def test_counts_are_what_the_computations_do(n, d_in, d):
    c = comparison.compare(n, d, d_in)
    rnn_madds, rnn_steps = count_rnn(n, d_in, d)
    assert c["rnn"]["multiply_adds"] == rnn_madds and c["rnn"]["sequential_steps"] == rnn_steps == n
    within, between = count_self_attention(n, d_in, d)
    assert c["self_attention"]["multiply_adds_within_tokens"] == within
    assert c["self_attention"]["multiply_adds_between_tokens"] == between
    assert c["self_attention"]["multiply_adds"] == within + between
    assert c["rnn"]["longest_path"] == n and c["self_attention"]["longest_path"] == 1
    assert c["self_attention"]["sequential_steps"] == 1


def test_the_cat_sat_counts_and_the_formulas_on_the_page():
    c = comparison.compare(3, 4)
    assert c["rnn"]["multiply_adds"] == 3 * (4 * 4 + 4 * 4) == 96
    assert c["self_attention"]["multiply_adds"] == 3 * 3 * 4 * 4 + 3 * 3 * 4 + 3 * 3 * 4 == 216
    assert c["ratio"] == 216 / 96 == 2.25
    for n, d in comparison.CASES:
        c = comparison.compare(n, d)
        assert c["rnn"]["multiply_adds"] == n * d * d + n * d * d
        assert c["self_attention"]["multiply_adds"] == 3 * n * d * d + n * n * d + n * n * d
        assert c["ratio"] == (3 * d + 2 * n) / (2 * d)
        assert c["between_tokens_ratio"] == 2 * n / d
    assert [comparison.compare(n, 512)["ratio"] for n in (64, 512, 4096)] == [1.625, 2.5, 9.5]
    assert comparison.compare(64, 512)["between_tokens_ratio"] == 0.25
    assert comparison.compare(4096, 512)["between_tokens_ratio"] == 16


@pytest.mark.parametrize("d", [4, 64, 512, 1000])
def test_when_each_is_cheaper(d):
    """In all the RNN is always cheaper (ratio at least 3/2, growing with n); between tokens
    self-attention is cheaper exactly when 2n < d."""
    ratios = []
    for n in range(1, 2 * d + 2):
        c = comparison.compare(n, d)
        assert c["rnn"]["multiply_adds"] < c["self_attention"]["multiply_adds"]
        assert c["ratio"] > 1.5
        ratios.append(c["ratio"])
        between_cheaper = c["self_attention"]["multiply_adds_between_tokens"] < c["rnn"]["multiply_adds_between_tokens"]
        assert between_cheaper == (2 * n < d)
    assert ratios == sorted(ratios)
