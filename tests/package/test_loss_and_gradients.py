"""Layer 1: selfattn_ref.learning and its twin, and the toy of docs/learning.md.

The gradient three ways (backpropagation written out in NumPy, PyTorch's autograd, finite
differences) agree to 1e-6 and better; the cross-entropy is PyTorch's; the toy's numbers are what the
page says about them (the loss is -ln of a weight, the gradient's rows are equal, one step makes
"cat" the largest share and lowers the loss); AdamW's first step is what the page says it is; bad
input is named the same way by both twins.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import selfattn_ref.learning as lrn  # noqa: E402
import selfattn_ref.torch.learning as tlrn  # noqa: E402
from selfattn_ref import examples, scaled_dot_product_attention  # noqa: E402
from selfattn_ref.topics import learning as topic  # noqa: E402

from snippet_checks import close  # noqa: E402

EX = examples.load("learned")
SAT, CAT = EX.tokens.index("sat"), EX.tokens.index("cat")


def random_case(seed: int):
    rng = np.random.default_rng(seed)
    n, d, d_k = rng.integers(2, 6), rng.integers(2, 6), rng.integers(1, 5)
    X, W_Q, W_K = rng.normal(size=(n, d)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k))
    return X, W_Q, W_K, int(rng.integers(n)), int(rng.integers(n))


# --- the gradient three ways ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_backpropagation_equals_autograd_and_finite_differences(seed):
    X, W_Q, W_K, query, key = random_case(seed)
    by_hand = lrn.attention_gradients(X, W_Q, W_K, query, key)
    by_autograd = tlrn.attention_gradients(X, W_Q, W_K, query, key)
    for name, W in (("W_Q", W_Q), ("W_K", W_K)):
        close(by_hand[name], by_autograd[name], 1e-12)

        def loss(M, name=name):
            args = {"W_Q": W_Q, "W_K": W_K, name: M}
            return lrn.attention_loss(X, args["W_Q"], args["W_K"], query, key)

        close(lrn.finite_difference(loss, W, delta=1e-5), by_autograd[name], 1e-6)


def test_the_pages_hand_gradient_equals_autograd_to_a_millionth():
    """The issue's test: the gradient by hand (finite differences at the page's δ, as the NumPy tab
    computes it) equals autograd's to 1e-6, entry by entry, and so does the page's worked entry."""
    t = topic.toy()
    autograd = tlrn.attention_gradients(EX.E, EX.W_Q, EX.W_K, SAT, CAT)["W_Q"].numpy()
    close(topic.finite_difference_gradient(), autograd, 1e-6)
    close(t.gradient, autograd, 1e-12)
    assert abs(t.finite_difference - autograd[t.entry]) < 1e-6
    # and the torch twin's finite differences are NumPy's
    torch_fd = tlrn.finite_difference(lambda W: tlrn.attention_loss(EX.E, W, EX.W_K, SAT, CAT), EX.W_Q, topic.DELTA)
    close(torch_fd, topic.finite_difference_gradient(), 1e-12)


def test_a_wrong_backward_pass_would_be_caught():
    """The comparison can fail: the gradient without the division by √d_k is not autograd's."""
    X, W_Q, W_K, query, key = random_case(0)
    right = lrn.attention_gradients(X, W_Q, W_K, query, key)["W_Q"]
    wrong = right * np.sqrt(W_Q.shape[1])
    with pytest.raises(AssertionError):
        close(wrong, tlrn.attention_gradients(X, W_Q, W_K, query, key)["W_Q"], 1e-6)


def test_the_torch_twin_keeps_the_gradient_of_its_loss():
    W = torch.tensor(EX.W_Q, requires_grad=True)
    tlrn.attention_loss(EX.E, W, EX.W_K, SAT, CAT).backward()
    close(W.grad, lrn.attention_gradients(EX.E, EX.W_Q, EX.W_K, SAT, CAT)["W_Q"], 1e-12)


# --- the cross-entropy ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_cross_entropy_is_pytorchs(seed):
    rng = np.random.default_rng(seed)
    logits = rng.normal(scale=5, size=(7, 3))
    labels = rng.integers(0, 3, size=7)
    want = torch.nn.functional.cross_entropy(torch.tensor(logits), torch.tensor(labels)).item()
    assert abs(lrn.cross_entropy(logits, labels) - want) < 1e-12
    assert abs(tlrn.cross_entropy(logits, labels).item() - want) < 1e-12
    # one row and one label: -ln of the softmax's share for the label
    row = logits[0]
    share = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    assert abs(lrn.cross_entropy(row, labels[0]) - -np.log(share[labels[0]])) < 1e-12


def test_cross_entropy_does_not_overflow():
    assert lrn.cross_entropy([1000.0, 0.0], 0) == pytest.approx(0.0, abs=1e-12)
    assert lrn.cross_entropy([1000.0, 0.0], 1) == pytest.approx(1000.0)
    assert tlrn.cross_entropy([1000.0, 0.0], 1).item() == pytest.approx(1000.0)


def test_attention_loss_is_minus_ln_of_the_weight():
    _, weights = scaled_dot_product_attention(EX.E @ EX.W_Q, EX.E @ EX.W_K, EX.E)
    assert abs(lrn.attention_loss(EX.E, EX.W_Q, EX.W_K, SAT, CAT) - -np.log(weights[SAT, CAT])) < 1e-12


def test_gradient_step():
    close(lrn.gradient_step([1.0, 2.0], [0.5, -1.0], 2.0), [0.0, 4.0])
    close(tlrn.gradient_step([1.0, 2.0], [0.5, -1.0], 2.0), [0.0, 4.0])


# --- the toy of docs/learning.md -------------------------------------------------------------------


def test_the_two_class_toy_is_pytorchs_cross_entropy():
    """The page's first loss: two logits, the loss for either answer being right, and 50/50."""
    two = topic.two_class()
    logits = torch.tensor(two.logits)
    for c in range(2):
        expected = torch.nn.functional.cross_entropy(logits[None], torch.tensor([c])).item()
        assert abs(two.loss[c] - expected) < 1e-12
        assert abs(two.loss[c] - -np.log(two.probabilities[c])) < 1e-12
    close(two.probabilities, torch.softmax(logits, dim=0).numpy())
    assert abs(two.loss_even - np.log(2)) < 1e-12
    # what the page says: right and confident is cheap, wrong and confident dear, 50/50 between them;
    # and its worked lines hold at the rounding shown
    assert two.probabilities[0] > 0.5 and two.loss[0] < two.loss_even < two.loss[1]
    for c in range(2):
        assert f"{-np.log(round(two.probabilities[c], 4)):.3f}" == f"{two.loss[c]:.3f}"


def test_the_toy_is_the_learned_example():
    t = topic.toy()
    st = examples.run(EX)
    close(t.weights, st.weights)
    close(t.W_Q, EX.W_Q)
    assert (t.tokens[t.query], t.tokens[t.answer]) == ("sat", "cat")
    assert abs(t.loss - -np.log(st.weights[SAT, CAT])) < 1e-12


def test_what_the_page_says_about_the_toy():
    t = topic.toy()
    # before: sat keeps the largest share for itself; after: cat has it, and the loss is lower
    assert t.weights[SAT].argmax() == SAT and t.weights_after[SAT].argmax() == CAT
    assert t.loss_after < np.log(3) < t.loss  # equal thirds lie between the two losses
    assert abs(t.loss_after - -np.log(t.weights_after[SAT, CAT])) < 1e-12
    # every row of the gradient is the same (sat's embedding is all ones); column c2 is the largest in size
    close(t.gradient, np.tile(t.gradient[0], (4, 1)))
    np.testing.assert_array_equal(EX.E[SAT], [1, 1, 1, 1])
    assert np.abs(t.gradient[0]).argmax() == 1 and t.gradient[0, 1] < 0
    # the worked entry: a positive slope, made smaller by the step
    assert t.gradient[t.entry] > 0 and t.W_Q_after[t.entry] < t.W_Q[t.entry]
    close(t.W_Q_after, EX.W_Q - topic.LR * t.gradient)
    # the other rows moved though the loss never looked at them: The and cat give cat more
    assert t.weights_after[0, CAT] > t.weights[0, CAT] and t.weights_after[CAT, CAT] > t.weights[CAT, CAT]


def test_the_pages_worked_lines_hold_at_the_rounding_shown():
    """The page types the losses at 6 decimals and the gradient at 4: the division of the rounded
    numbers gives the rounded gradient, and so does the step from the rounded entry and gradient."""
    t = topic.toy()
    up, down = round(t.loss_up, 6), round(t.loss_down, 6)
    assert f"{(up - down) / (2 * topic.DELTA):.4f}" == f"{t.gradient[t.entry]:.4f}" == f"{t.finite_difference:.4f}"
    shown = round(t.W_Q[t.entry], 4) - topic.LR * round(t.gradient[t.entry], 4)
    assert f"{shown:.4f}" == f"{t.W_Q_after[t.entry]:.4f}"
    assert f"{-np.log(round(t.weights[SAT, CAT], 4)):.3f}" == f"{t.loss:.3f}"
    assert f"{-np.log(round(t.weights_after[SAT, CAT], 4)):.3f}" == f"{t.loss_after:.3f}"


def test_adamws_first_step_moves_every_weight_by_about_the_learning_rate():
    """What the page says of AdamW: at its first step every weight moves by almost exactly the learning
    rate, whatever the size of its gradient (apart from the weight decay, off here)."""
    W = torch.tensor(EX.W_Q, requires_grad=True)
    optimizer = torch.optim.AdamW([W], lr=0.02, weight_decay=0.0)
    tlrn.attention_loss(EX.E, W, EX.W_K, SAT, CAT).backward()
    gradient = W.grad.clone()
    optimizer.step()
    moved = (W.detach() - torch.tensor(EX.W_Q)).numpy()
    assert np.abs(gradient.numpy()).min() < np.abs(gradient.numpy()).max() / 5  # gradients of very different sizes
    np.testing.assert_allclose(np.abs(moved), 0.02, rtol=1e-5)
    assert (np.sign(moved) == -np.sign(gradient.numpy())).all()


# --- bad input, worded the same by both twins ---------------------------------------------------------

E, W = EX.E, EX.W_Q
BAD = [
    ("labels-float", lambda m: m.cross_entropy([1.0, 2.0], 0.5), r"^labels must be whole numbers"),
    ("labels-range", lambda m: m.cross_entropy([1.0, 2.0], 2), r"^labels must be class indices from 0 to 1"),
    ("labels-shape", lambda m: m.cross_entropy(np.ones((3, 2)), [0, 1]), r"^labels must have shape \(3,\)"),
    ("logits-3d", lambda m: m.cross_entropy(np.ones((1, 2, 2)), [0]), r"^logits must have shape \(C,\) or \(N, C\)"),
    ("logits-nan", lambda m: m.cross_entropy([np.nan, 1.0], 0), r"^logits must hold only finite numbers"),
    ("X-1d", lambda m: m.attention_loss(np.ones(4), W, W, 0, 1), r"^X must have 2 dimension\(s\), got shape \(4,\)$"),
    ("W_Q-rows", lambda m: m.attention_loss(E, np.ones((3, 4)), W, 0, 1), r"^W_Q must have one row per embedding"),
    ("W_K-shape", lambda m: m.attention_gradients(E, W, np.ones((4, 2)), 0, 1), r"^W_Q and W_K must have the same"),
    ("query-range", lambda m: m.attention_loss(E, W, W, 3, 1), r"^query must be a token's index from 0 to 2"),
    ("key-bool", lambda m: m.attention_gradients(E, W, W, 0, True), r"^key must be a token's index from 0 to 2"),
    ("delta", lambda m: m.finite_difference(lambda w: 0.0, W, delta=0), r"^delta must be a positive finite number"),
    ("f", lambda m: m.finite_difference("loss", W), r"^f must be a function of W"),
    ("lr", lambda m: m.gradient_step(W, W, -1.0), r"^lr must be a positive finite number, got -1.0$"),
    ("gradient-shape", lambda m: m.gradient_step(W, np.ones(4), 1.0), r"^gradient must have the shape of W"),
    ("overflow", lambda m: m.attention_loss(E * 1e200, W * 1e200, W, 0, 1), r"too large"),
]


@pytest.mark.parametrize(("case", "call", "message"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("module", [lrn, tlrn], ids=["numpy", "torch"])
def test_bad_input_is_named(module, case, call, message):
    with pytest.raises(ValueError, match=message):
        call(module)
