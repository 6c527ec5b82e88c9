"""Snippets of docs/transformer-block.md: one transformer block on "bank of river", in NumPy and
PyTorch, held equal to selfattn_ref.transformer_block (through selfattn_ref/topics/transformer_block.py)
and to torch.nn.TransformerEncoderLayer with the same weights, to 1e-12 in float64; the facts the page
states; and its exercises, which a reader working from the rounded numbers they show gets right."""

from __future__ import annotations

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from publish.generate import exercises as exr
from publish.generate.snippets import namespace
from selfattn_ref import examples
from selfattn_ref.topics import transformer_block as source

from snippet_checks import as_numpy, close

FOLDER = SNIPPETS / "transformer_block"
NUMPY = FOLDER / "block_numpy.py"
TORCH = FOLDER / "block_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]


@pytest.fixture(scope="module")
def B():
    return source.block()


def encoder_layer(W: source.BlockWeights, norm_first: bool):
    """torch.nn.TransformerEncoderLayer with the block's weights, built here, apart from the snippet."""
    torch = pytest.importorskip("torch")
    d_model, d_ff = W.W_1.shape
    layer = torch.nn.TransformerEncoderLayer(
        d_model, W.num_heads, dim_feedforward=d_ff, dropout=0.0, layer_norm_eps=W.eps,
        norm_first=norm_first, batch_first=True, dtype=torch.float64,
    )  # fmt: skip
    t = torch.from_numpy
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(torch.cat([t(W.W_Q).T, t(W.W_K).T, t(W.W_V).T]))
        layer.self_attn.in_proj_bias.zero_()
        layer.self_attn.out_proj.weight.copy_(t(W.W_O).T)
        layer.self_attn.out_proj.bias.zero_()
        layer.linear1.weight.copy_(t(W.W_1).T)
        layer.linear1.bias.copy_(t(W.b_1))
        layer.linear2.weight.copy_(t(W.W_2).T)
        layer.linear2.bias.copy_(t(W.b_2))
        for norm, gamma, beta in ((layer.norm1, W.gamma_1, W.beta_1), (layer.norm2, W.gamma_2, W.beta_2)):
            norm.weight.copy_(t(gamma))
            norm.bias.copy_(t(beta))
    return layer.eval()


# --- the snippets against the reference -------------------------------------------------------


def test_inputs_are_the_blocks(ns, B):
    W = B.weights
    assert tuple(ns["tokens"]) == B.tokens == examples.load(source.SLUG).tokens
    close(ns["X"], B.X)
    close(ns["X"], examples.load("bank_of_river").E)
    assert ns["d_ff"] == source.D_FF == 8
    for name in ("W_1", "b_1", "W_2", "b_2"):
        close(ns[name], getattr(W, name))
    close(ns["gamma"], W.gamma_1)
    close(ns["beta"], W.beta_1)
    close(W.gamma_2, W.gamma_1)
    close(W.beta_2, W.beta_1)
    assert W.eps == 1e-5 == ns["layer_norm"].__defaults__[0]


def test_every_step_equals_the_library(ns, B):
    s = B.steps
    close(ns["Y"], s.attention)
    close(ns["A"], s.weights[0])
    close(ns["Z"], s.norm_1)
    close(ns["hidden"], s.hidden)
    close(ns["relu"], s.relu)
    close(ns["ffn"], s.ffn)
    close(ns["out"], s.output)


def test_library_numpy_script_and_torchs_layer_agree_to_1e_12(B):
    """The issue's promise: selfattn_ref.transformer_block (NumPy and PyTorch), the NumPy script,
    the PyTorch script's own layer and a layer built here all give the same output, post-norm;
    pre-norm, the library and torch's layer agree too."""
    torch = pytest.importorskip("torch")
    import selfattn_ref.torch as ref_torch

    X = torch.from_numpy(B.X)[None]
    with torch.no_grad():
        post = encoder_layer(B.weights, norm_first=False)(X)[0]
        pre = encoder_layer(B.weights, norm_first=True)(X)[0]
    close(post, B.steps.output)
    close(namespace(NUMPY)["out"], post)
    close(namespace(TORCH)["layer_out"], post)
    close(pre, source.pre_norm().output)
    for norm_first, expected in ((False, post), (True, pre)):
        t = ref_torch.transformer_block(B.X, *B.weights.arguments(), norm_first=norm_first)
        close(t.output, expected)


def test_the_layer_is_post_norm_without_dropout():
    layer = namespace(TORCH)["layer"]
    assert layer.norm_first is False
    assert layer.dropout.p == layer.dropout1.p == layer.dropout2.p == 0.0
    assert layer.self_attn.num_heads == 1 and layer.linear1.out_features == source.D_FF


# --- what the page says ---------------------------------------------------------------------


def test_the_attention_is_the_first_pages(B):
    """W_Q = 2·I cancels the division by √d_head = 2: the block's attention is softmax(X Xᵀ) X."""
    st = examples.run(examples.load("bank_of_river"))
    close(B.steps.attention, st.output)
    close(B.steps.weights[0], st.weights)
    close(B.steps.attention, selfattn_ref.self_attention(B.X))
    close(B.weights.W_Q, 2 * np.eye(4))
    for name in ("W_K", "W_V", "W_O"):
        close(getattr(B.weights, name), np.eye(4))


def test_every_row_of_x_plus_y_has_mean_one(B):
    close(B.X.sum(axis=1), [2, 2, 2])
    close(B.steps.attention.sum(axis=1), [2, 2, 2])
    close(B.mean_1, [1, 1, 1])


def test_normalized_rows_have_mean_zero_and_variance_just_under_one(B):
    """Before γ and β (here 1 and 0, so after them too): mean 0 and variance σ² / (σ² + ε) < 1."""
    for rows, sums, variance in ((B.steps.norm_1, B.steps.sum_1, B.variance_1), (B.steps.output, B.steps.sum_2, None)):
        close(rows.mean(axis=1), np.zeros(3))
        var = sums.var(axis=1) if variance is None else variance
        close(rows.var(axis=1), var / (var + B.weights.eps))
        assert (rows.var(axis=1) < 1).all() and (rows.var(axis=1) > 0.9999).all()


def test_epsilon_is_what_keeps_river_from_one(B):
    s = B.steps
    dev = s.sum_1[2] - B.mean_1[2]
    close(np.abs(dev), np.full(4, np.sqrt(B.variance_1[2])))  # all four entries σ from the mean
    close(dev / np.sqrt(B.variance_1[2]), [1, 1, -1, -1])
    assert f"{s.norm_1[2, 0]:.5f}" == "0.99999"


def test_bank_and_of_are_mirrors_until_the_feed_forward_network(B):
    swap = [1, 0, 3, 2]
    s = B.steps
    for M in (B.X, s.attention, s.sum_1, s.norm_1):
        close(M[1], M[0][swap])
    assert not np.allclose(s.ffn[1], s.ffn[0][swap])
    assert f"{s.ffn[0, 1]:.3f}" == "0.199" and f"{s.ffn[1, 0]:.3f}" == "-2.238"  # the page's example


def test_the_relu_zeroes_13_of_24_and_the_network_widens_to_8(B):
    s = B.steps
    assert s.hidden.shape == (3, 8) and int((s.hidden < 0).sum()) == 13
    close(s.relu, np.where(s.hidden < 0, 0, s.hidden))


def test_pre_norm_rows_keep_means_of_their_own():
    P = source.pre_norm()
    assert (np.abs(P.output.mean(axis=1)) > 0.1).all()
    assert P.output[1].var() > 7


def test_the_exercises_are_right_from_the_rounded_numbers_they_show(B):
    """A reader who works each exercise from the numbers its question shows, rounded as shown, gets
    the expected answer at the rounding asked for (and a near miss is never the case)."""
    r3 = lambda v: np.round(np.asarray(v, dtype=float), 3)  # noqa: E731
    s, W = B.steps, B.weights
    by_id = {e.id: e for e in exr.load_all()["transformer-block"]}
    shown = {k: exr.grader_data(e)["answer"][0] for k, e in by_id.items()}
    river = r3(s.sum_1[2])
    assert shown["variance-river"] == f"{((river - river.mean()) ** 2).mean():.3f}"
    bank, mu, var = r3(s.sum_1[0]), r3(B.mean_1[0]), r3(B.variance_1[0])
    assert shown["normalize-bank"] == f"{(bank[0] - mu) / np.sqrt(var + W.eps):.3f}"
    entry = r3(s.norm_1[2]) @ r3(W.W_1[:, 1]) + r3(W.b_1[1])
    assert entry < 0 and shown["relu-river"] == f"{max(0.0, entry):.2f}"
    assert exr.grader_data(by_id["relu-river"])["mistakes"][0]["answer"] == [f"{entry:.2f}"]
    of = r3(s.norm_1[1]) + r3(s.ffn[1])
    assert shown["second-mean-of"] == f"{of.mean():.3f}"
    assert as_numpy(s.norm_1).sum(axis=1) == pytest.approx(0, abs=1e-12)
