"""Snippets of docs/learning.md: one step of gradient descent on "The cat sat" (example learned),
held equal to the reference package.

- gradient_numpy.py: the gradient of the loss for W_Q by finite differences (NumPy has no autograd);
- gradient_torch.py: the same gradient by PyTorch's autograd (the weights from NumPy's generator).

Both print the same numbers; each is held equal to selfattn_ref.topics.learning.toy(), whose
gradient is the backpropagation of selfattn_ref.learning.
"""

from __future__ import annotations

import inspect

from publish import SNIPPETS
from publish.generate.snippets import namespace
from selfattn_ref import examples
from selfattn_ref.topics import learning as topic

from snippet_checks import as_numpy, close

FOLDER = SNIPPETS / "learning"
NUMPY = FOLDER / "gradient_numpy.py"
TORCH = FOLDER / "gradient_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]


def test_the_weights_are_the_examples_stand_ins(ns):
    ex = examples.load("learned")
    assert tuple(ns["tokens"]) == ex.tokens
    close(ns["X"], ex.E)
    close(ns["W_Q"], ex.W_Q)
    close(ns["W_K"], ex.W_K)


def test_the_loss_gradient_and_step_are_the_packages(ns):
    t = topic.toy()
    assert ns["lr"] == topic.LR
    close(ns["weights_of"](ns["W_Q"]), t.weights)
    assert abs(float(as_numpy(ns["loss_of"](ns["W_Q"]))) - t.loss) < 1e-12
    # finite differences (NumPy) agree with backpropagation to a millionth; autograd (PyTorch) to the last bits
    numpy_tab = "delta" in inspect.signature(ns["gradient_of"]).parameters
    close(ns["gradient"], t.gradient, 1e-6 if numpy_tab else 1e-12)
    assert abs(float(as_numpy(ns["loss"])) - t.loss) < 1e-12
    close(ns["W_Q_after"], t.W_Q_after, 1e-5)
    close(ns["weights_of"](ns["W_Q_after"]), t.weights_after, 1e-5)


def test_the_numpy_tab_nudges_by_the_pages_delta():
    ns = namespace(NUMPY)
    assert inspect.signature(ns["gradient_of"]).parameters["delta"].default == topic.DELTA
    close(ns["gradient"], topic.finite_difference_gradient(), 1e-12)


def test_the_printed_numbers_are_the_packages():
    t = topic.toy()
    lines = NUMPY.with_suffix(".out").read_text(encoding="utf-8").splitlines()
    row = ", ".join(f"{tok} {w:.4f}" for tok, w in zip(t.tokens, t.weights[t.query], strict=True))
    assert lines[0] == f"sat's attention weights: {row}"
    assert lines[1] == f"loss = -ln({t.weights[t.query, t.answer]:.4f}) = {t.loss:.3f}"
    assert lines[5].split()[1:] == [f"{x:.4f}" for x in t.gradient[0]]
    row = ", ".join(f"{tok} {w:.4f}" for tok, w in zip(t.tokens, t.weights_after[t.query], strict=True))
    assert lines[-2] == f"sat's attention weights: {row}"
    assert lines[-1] == f"loss = -ln({t.weights_after[t.query, t.answer]:.4f}) = {t.loss_after:.3f}"
