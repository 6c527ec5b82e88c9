"""Snippets of docs/learned-weights.md: "The cat sat" with seeded random W_Q, W_K, W_V,
in NumPy and PyTorch (which takes the matrices from NumPy's generator), held equal to
the reference package."""

from __future__ import annotations

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from selfattn_ref import examples

from snippet_checks import as_numpy, close

FOLDER = SNIPPETS / "learned_weights"
NUMPY = FOLDER / "learned_weights_numpy.py"
TORCH = FOLDER / "learned_weights_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]
EXAMPLE = "learned"  # the fixture ref (tests/snippets/conftest.py)


def test_weights_are_the_examples_seeded_draws(ns, ref):
    ex, _ = ref
    assert ex.projections == "random" and ex.seed == 42 and ex.std == 0.5
    assert tuple(ns["tokens"]) == ex.tokens
    close(ns["X"], ex.E)
    W = selfattn_ref.examples.random_projections(42, 4, 0.5)
    for name, expected in zip(("W_Q", "W_K", "W_V"), W, strict=True):
        close(ns[name], getattr(ex, name))
        close(ns[name], expected)


def test_every_step_equals_the_reference(ns, ref):
    _, st = ref
    for name in ("Q", "K", "V", "scaled", "weights", "output"):
        close(ns[name], getattr(st, name))
    close(ns["Q"] @ ns["K"].T, st.scores)


def test_torch_reference_agrees(ref):
    torch = pytest.importorskip("torch")
    import selfattn_ref.torch as ref_torch

    ex, st = ref
    Q, K, V = ref_torch.project(
        torch.from_numpy(ex.E), *(torch.from_numpy(getattr(ex, n)) for n in ("W_Q", "W_K", "W_V"))
    )
    out, w = ref_torch.scaled_dot_product_attention(Q, K, V)
    close(out, st.output)
    close(w, st.weights)


# --- what the page says ---------------------------------------------------------------


def test_the_three_matrices_differ(ref):
    ex, _ = ref
    assert not np.allclose(ex.W_Q, ex.W_K) and not np.allclose(ex.W_K, ex.W_V) and not np.allclose(ex.W_Q, ex.W_V)
    assert ex.W_Q.shape == ex.W_K.shape == ex.W_V.shape == (4, 4)


def test_with_identity_weights_a_token_scores_itself_at_least_as_high_as_any_same_length_token():
    st = examples.run(examples.load("the_cat_sat"))
    E = examples.load("the_cat_sat").E
    norms = np.linalg.norm(E, axis=1)
    for i in range(3):
        for j in range(3):
            if norms[i] == norms[j]:
                assert st.scores[i, i] >= st.scores[i, j]


def test_every_token_attends_most_to_sat(ns, ref):
    _, st = ref
    assert st.weights.argmax(axis=1).tolist() == [2, 2, 2]
    assert as_numpy(ns["weights"]).argmax(axis=1).tolist() == [2, 2, 2]
    # cat now gives sat more than itself; The gives sat more than itself.
    assert st.weights[1, 2] > st.weights[1, 1] and st.weights[0, 2] > st.weights[0, 0]


def test_scores_are_no_longer_symmetric_and_sat_column_is_the_sum(ref):
    ex, st = ref
    assert not np.allclose(st.scores, st.scores.T)
    # E_sat = E_The + E_cat, so K_sat = K_The + K_cat and sat's score is the sum of the other two.
    np.testing.assert_allclose(st.scores[:, 2], st.scores[:, 0] + st.scores[:, 1], rtol=0, atol=1e-12)
    assert (st.scores[:, :2] > 0).all()  # both positive, so sat's score is the largest in every row


def test_outputs_have_negative_entries_and_stay_within_each_column_of_v(ref):
    _, st = ref
    assert (st.output < 0).any()
    assert (st.V < 0).any() and (st.V > 1).any()  # V = E W_V is no longer made of 0s and 1s
    close(st.V, examples.load("learned").E @ examples.load("learned").W_V)
    assert (st.output >= st.V.min(axis=0) - 1e-15).all() and (st.output <= st.V.max(axis=0) + 1e-15).all()
    # The second position is negative for every token.
    assert (st.output[:, 1] < 0).all()
