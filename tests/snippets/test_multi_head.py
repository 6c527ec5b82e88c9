"""Snippets of docs/multi-head.md: "The cat sat" with two heads of width 2 (the example
the_cat_sat_two_heads, W_O the identity), in NumPy and PyTorch, held equal to
selfattn_ref.multi_head_attention, to selfattn_ref/topics/multi_head.py and to
torch.nn.MultiheadAttention; and the facts the page states, the seeded W_O that mixes the heads
among them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from publish.generate.snippets import namespace
from selfattn_ref import examples
from selfattn_ref.topics import multi_head as source

from snippet_checks import close

FOLDER = SNIPPETS / "multi_head"
NUMPY = FOLDER / "two_heads_numpy.py"
TORCH = FOLDER / "two_heads_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]


@pytest.fixture(scope="module")
def ex():
    return examples.load(source.SLUG)


@pytest.fixture(scope="module")
def heads():
    return source.heads()


def test_numpy_prints_the_check_against_all_heads_at_once():
    """(The PyTorch tab prints these lines and its check against torch.nn.MultiheadAttention:
    tests/snippets/test_recordings.py, TWINS_DIFFER.)"""
    numpy_out = NUMPY.with_suffix(".out").read_text(encoding="utf-8")
    assert numpy_out.endswith("same as all heads at once: True\n")


# --- the snippets against the reference -------------------------------------------------------


def test_inputs_are_the_examples(ns, ex):
    assert tuple(ns["tokens"]) == ex.tokens
    close(ns["X"], ex.E)
    for name in ("W_Q", "W_K", "W_V"):
        close(ns[name], getattr(ex, name))
    close(ns["W_O"], source.W_O)
    assert ns["num_heads"] == source.NUM_HEADS == 2
    assert ns["d_head"] == 2


def test_every_step_equals_the_reference(ns, ex, heads):
    output, weights = selfattn_ref.multi_head_attention(ex.E, ex.W_Q, ex.W_K, ex.W_V, source.W_O, 2)
    close(ns["weights"], weights)
    close(ns["output"], output)
    close(ns["weights"], heads.weights)
    close(ns["output"], heads.output)
    for h in range(2):
        close(ns["heads"][h], heads.head_outputs[h])
    close(ns["concat"], np.concatenate(heads.head_outputs, axis=1))
    close(ns["batched"], output)
    Q, K, V = selfattn_ref.project(ex.E, ex.W_Q, ex.W_K, ex.W_V)
    for name, M in (("Q", Q), ("K", K), ("V", V)):
        close(ns[name], M)


def test_torch_snippet_matches_multiheadattention_and_the_torch_reference(ex, heads):
    torch = pytest.importorskip("torch")
    import selfattn_ref.torch as ref_torch

    ns = namespace(TORCH)
    close(ns["mha_output"][0], heads.output)
    close(ns["mha_weights"][0], heads.weights)
    # Built here again, independently of the snippet.
    W = {n: torch.from_numpy(getattr(ex, n)) for n in ("W_Q", "W_K", "W_V")}
    W_O = torch.from_numpy(source.W_O)
    mha = torch.nn.MultiheadAttention(4, 2, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W["W_Q"].T, W["W_K"].T, W["W_V"].T]))
        mha.out_proj.weight.copy_(W_O.T)
    X = torch.from_numpy(ex.E)[None]
    out, w = mha(X, X, X, average_attn_weights=False)
    close(out[0], heads.output)
    close(w[0], heads.weights)
    out_t, w_t = ref_torch.multi_head_attention(X[0], W["W_Q"], W["W_K"], W["W_V"], W_O, 2)
    close(out_t, heads.output)
    close(w_t, heads.weights)


# --- what the page says ---------------------------------------------------------------------


def test_with_identity_weights_both_heads_would_be_the_same(ex):
    np.testing.assert_array_equal(ex.E[:, :2], ex.E[:, 2:])  # every embedding repeats itself
    w = source.identity_heads()
    np.testing.assert_array_equal(w[0], w[1])


def test_the_seeded_weights_of_the_learned_page_would_give_two_different_heads(ex):
    learned = examples.load("learned")
    _, w = selfattn_ref.multi_head_attention(ex.E, learned.W_Q, learned.W_K, learned.W_V, np.eye(4), 2)
    assert np.abs(w[0] - w[1]).max() > 0.05


def test_the_weights_regroup_the_features(ex):
    P = ex.W_Q
    np.testing.assert_array_equal(ex.W_K, P)
    np.testing.assert_array_equal(ex.W_V, P)
    assert set(np.unique(P)) == {0, 1}
    assert (P.sum(axis=0) == 1).all() and (P.sum(axis=1) == 1).all()  # one 1 per row and column
    Q = ex.E @ P
    np.testing.assert_array_equal(Q[:, :2], ex.E[:, [0, 2]])  # head 1: x1 and x3
    np.testing.assert_array_equal(Q[:, 2:], ex.E[:, [1, 3]])  # head 2: x2 and x4
    np.testing.assert_array_equal(source.W_O, np.eye(4))


def test_one_head_of_full_width_gives_the_weights_of_the_cat_sat(ex):
    assert ex.heads == 2  # the example computes two heads; one of full width over the same Q, K, V:
    st = examples.run(dataclasses.replace(ex, heads=1))
    plain = examples.run(examples.load("the_cat_sat"))
    np.testing.assert_allclose(st.scores, plain.scores, rtol=0, atol=0)
    np.testing.assert_allclose(st.weights, plain.weights, rtol=0, atol=1e-15)


def test_each_head_sees_the_features_of_one_token(heads):
    np.testing.assert_array_equal(heads.Q[0][1], [0, 0])  # head 1 knows nothing about cat
    np.testing.assert_array_equal(heads.Q[1][0], [0, 0])  # head 2 knows nothing about The
    for h in range(2):
        np.testing.assert_array_equal(heads.Q[h], heads.K[h])
        np.testing.assert_array_equal(heads.Q[h], heads.V[h])


def test_scores_in_head_one(heads):
    assert heads.d_head == 2
    close(heads.scaled[0, 0], [2 / np.sqrt(2), 0, 2 / np.sqrt(2)])
    close(heads.scaled[0, 0, 0], np.sqrt(2))


def test_the_two_heads_attend_to_different_things(heads):
    w1, w2 = heads.weights
    assert not np.allclose(w1, w2)
    # Head 1: The and sat give each other and themselves the same weight, cat little; cat is even.
    np.testing.assert_array_equal(w1[0], w1[2])
    assert w1[0, 0] == w1[0, 2] > w1[0, 1]
    close(w1[1], np.full(3, 1 / 3))
    # Head 2, the mirror image.
    np.testing.assert_array_equal(w2[1], w2[2])
    assert w2[1, 1] == w2[1, 2] > w2[1, 0]
    close(w2[0], np.full(3, 1 / 3))
    close(w2[1], w1[0][[1, 0, 2]])
    # sat leans towards The in head 1 and towards cat in head 2.
    assert w1[2, 0] > w1[2, 1] and w2[2, 1] > w2[2, 0]
    np.testing.assert_allclose(heads.weights.sum(axis=-1), 1, rtol=0, atol=1e-15)


def test_one_head_gives_sat_a_compromise(ex, heads):
    st = examples.run(dataclasses.replace(ex, heads=1))
    assert st.weights[2, 0] == st.weights[2, 1] < st.weights[2, 2]
    assert heads.weights[0, 2, 0] > st.weights[2, 0] and heads.weights[1, 2, 1] > st.weights[2, 1]


def test_head_outputs_and_their_concatenation(heads):
    close(heads.head_outputs[0][0], 2 * heads.weights[0, 0, 0] * np.ones(2))  # 0.4458 × [1, 1] twice
    close(heads.head_outputs[0][1], [2 / 3, 2 / 3])
    close(heads.output, np.concatenate(heads.head_outputs, axis=1) @ source.W_O)
    close(heads.output[0], [*heads.head_outputs[0][0], *heads.head_outputs[1][0]])


def test_cost_is_that_of_one_head_of_full_width():
    n, d_model = 3, 4
    for h in (1, 2, 4):
        d_head = d_model // h
        assert h * n * n * d_head == n * n * d_model == 36
    assert 4 * d_model * d_model == 64
    assert 512 // 8 == 64  # the original Transformer


def test_linear_multiplies_by_the_transposed_weight():
    torch = pytest.importorskip("torch")
    lin = torch.nn.Linear(4, 4, bias=False, dtype=torch.float64)
    W = torch.arange(16, dtype=torch.float64).reshape(4, 4)
    with torch.no_grad():
        lin.weight.copy_(W.T)
    x = torch.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=torch.float64)
    close(lin(x), (x @ W).numpy())


# --- the output projection that mixes the heads (the seeded W_O) ------------------------------------


def test_the_seeded_w_o_is_the_learned_pages_first_draw(ex):
    m = source.mixed()
    np.testing.assert_array_equal(m.W_O, np.random.default_rng(42).normal(0, 0.5, (4, 4)))
    np.testing.assert_array_equal(m.W_O, examples.load("learned").W_Q)  # "this is that page's W_Q"
    assert (source.SEED, source.MEAN, source.STD) == (42, 0, 0.5)


def test_w_o_mixes_the_heads_and_changes_no_weight(ex, heads):
    m = source.mixed()
    close(m.weights, heads.weights)  # W_O comes after the heads
    close(m.concat, np.concatenate(heads.head_outputs, axis=1))
    close(m.output, m.concat @ m.W_O)
    close(m.parts.sum(axis=0), m.output)
    close(m.parts[0], m.concat[:, :2] @ m.W_O[:2])  # head 1's columns times rows c1, c2
    close(m.parts[1], m.concat[:, 2:] @ m.W_O[2:])
    # The worked entry, column c3 of Output(The): both heads bring a good part of it.
    assert [f"{x:.4f}" for x in (m.parts[0, 0, 2], m.parts[1, 0, 2], m.output[0, 2])] == ["0.3915", "0.4490", "0.8405"]
    # With W_O = I column c1 was head 1's alone; now every entry takes in both heads.
    assert (np.abs(m.parts) > 0.01).sum() >= 20


def test_the_seeded_w_o_in_pytorch_and_multiheadattention(ex):
    torch = pytest.importorskip("torch")
    import selfattn_ref.torch as ref_torch

    m = source.mixed()
    W = {n: torch.from_numpy(getattr(ex, n)) for n in ("W_Q", "W_K", "W_V")}
    W_O = torch.from_numpy(m.W_O)
    out, w = ref_torch.multi_head_attention(torch.from_numpy(ex.E), W["W_Q"], W["W_K"], W["W_V"], W_O, 2)
    close(out, m.output)
    close(w, m.weights)
    # A W_O that is not symmetric: out_proj.weight = W_O.T, as the page's note says, and not W_O.
    assert not np.allclose(m.W_O, m.W_O.T)
    mha = torch.nn.MultiheadAttention(4, 2, bias=False, batch_first=True, dtype=torch.float64)
    X = torch.from_numpy(ex.E)[None]
    for weight, same in ((W_O.T, True), (W_O, False)):
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat([W["W_Q"].T, W["W_K"].T, W["W_V"].T]))
            mha.out_proj.weight.copy_(weight)
        got = mha(X, X, X)[0][0].detach().numpy()
        assert np.allclose(got, m.output, rtol=0, atol=1e-12) == same
