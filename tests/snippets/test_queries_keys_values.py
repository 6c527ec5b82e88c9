"""Snippets of docs/queries-keys-values.md: the whole calculation on "The cat sat" with
identity projections, in NumPy and PyTorch, held equal to the reference package."""

from __future__ import annotations

import numpy as np

import selfattn_ref
from publish import SNIPPETS

from snippet_checks import as_numpy, close

FOLDER = SNIPPETS / "queries_keys_values"
NUMPY = FOLDER / "the_cat_sat_numpy.py"
TORCH = FOLDER / "the_cat_sat_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]
EXAMPLE = "the_cat_sat"  # the fixture ref (tests/snippets/conftest.py)


def test_inputs_are_the_examples(ns, ref):
    ex, _ = ref
    assert tuple(ns["tokens"]) == ex.tokens
    close(ns["X"], ex.E)
    for name in ("W_Q", "W_K", "W_V"):
        close(ns[name], np.eye(4))
        close(ns[name], getattr(ex, name))


def test_every_step_equals_the_reference(ns, ref):
    _, st = ref
    for name in ("Q", "K", "V", "scores", "scaled", "weights", "output"):
        close(ns[name], getattr(st, name))
    assert ns["d_k"] == 4


def test_reference_functions_agree(ns):
    """The snippet's lines restate selfattn_ref's project, scores, softmax and mix."""
    Q, K, V = selfattn_ref.project(as_numpy(ns["X"]), np.eye(4), np.eye(4), np.eye(4))
    close(ns["Q"], Q)
    close(ns["scores"], selfattn_ref.scores(Q, K))
    close(ns["weights"], selfattn_ref.softmax(selfattn_ref.scores(Q, K) / 2))
    close(ns["output"], selfattn_ref.mix(selfattn_ref.softmax(selfattn_ref.scores(Q, K) / 2), V))
    out, w = selfattn_ref.scaled_dot_product_attention(Q, K, V)
    close(ns["output"], out)
    close(ns["weights"], w)


# --- what the page says ---------------------------------------------------------------


def test_identity_projections_give_q_k_v_equal_to_e(ref):
    ex, st = ref
    for M in (st.Q, st.K, st.V):
        np.testing.assert_array_equal(M, ex.E)


def test_scores_are_symmetric_and_sat_column_is_the_sum_of_the_others(ref):
    ex, st = ref
    np.testing.assert_array_equal(st.scores, st.scores.T)
    np.testing.assert_array_equal(ex.E[2], ex.E[0] + ex.E[1])  # sat = The + cat
    np.testing.assert_array_equal(st.scores[:, 2], st.scores[:, 0] + st.scores[:, 1])
    assert st.scores.max() == st.scores[2, 2] == 4


def test_scaling_divides_by_two(ref):
    _, st = ref
    np.testing.assert_array_equal(st.scaled, st.scores / 2)


def test_weights_rows_sum_to_one_and_follow_the_scores(ref):
    _, st = ref
    np.testing.assert_allclose(st.weights.sum(axis=1), 1, rtol=0, atol=1e-15)
    # The: equal weight on itself and on sat, less on cat; sat: most on itself.
    assert st.weights[0, 0] == st.weights[0, 2] > st.weights[0, 1]
    assert st.weights[1, 1] == st.weights[1, 2] > st.weights[1, 0]
    assert st.weights[2].argmax() == 2
    assert st.weights[2, 0] == st.weights[2, 1]
    # cat's row is The's row with The and cat swapped: softmax([0, 1, 1]).
    np.testing.assert_allclose(st.weights[1], st.weights[0][[1, 0, 2]], rtol=0, atol=1e-15)


def test_outputs_are_weighted_averages_of_zeros_and_ones(ref):
    _, st = ref
    assert (st.output > 0).all() and (st.output < 1).all()
    # Output(sat) has the same number everywhere: The and cat share a weight and cover each position once.
    np.testing.assert_allclose(st.output[2], st.output[2, 0], rtol=0, atol=1e-15)
    # Output(The) and Output(cat) swap two numbers.
    np.testing.assert_allclose(st.output[1], st.output[0][[1, 0, 3, 2]], rtol=0, atol=1e-15)
