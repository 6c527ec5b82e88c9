"""Snippets of docs/where-used.md: a causal mask on "The cat sat", in NumPy and PyTorch,
held equal to the reference package and its example the_cat_sat_causal."""

from __future__ import annotations

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from publish.generate.snippets import namespace
from selfattn_ref import examples

from snippet_checks import as_numpy, close

FOLDER = SNIPPETS / "where_used"
NUMPY = FOLDER / "causal_mask_numpy.py"
TORCH = FOLDER / "causal_mask_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]
EXAMPLE = "the_cat_sat_causal"  # the fixture ref (tests/snippets/conftest.py)


def test_example_is_the_cat_sat_with_a_causal_mask():
    causal, plain = examples.load("the_cat_sat_causal"), examples.load("the_cat_sat")
    assert causal.causal and not plain.causal
    assert causal.tokens == plain.tokens and causal.projections == plain.projections == "identity"
    assert causal.scale == plain.scale and causal.decimals == plain.decimals
    np.testing.assert_array_equal(causal.E, plain.E)


def test_every_step_equals_the_reference(ns, ref):
    ex, st = ref
    assert tuple(ns["tokens"]) == ex.tokens
    for name in ("Q", "K", "V"):
        close(ns[name], getattr(st, name))
    close(ns["scaled"], st.scaled)
    np.testing.assert_array_equal(as_numpy(ns["mask"]), st.mask)
    np.testing.assert_array_equal(as_numpy(ns["masked"]), np.where(st.mask, st.scaled, -np.inf))
    close(ns["weights"], st.weights)
    close(ns["output"], st.output)


def test_mask_is_the_packages(ns):
    np.testing.assert_array_equal(as_numpy(ns["mask"]), selfattn_ref.causal_mask(3))


def test_torch_snippet_matches_pytorchs_own_causal_attention():
    torch = pytest.importorskip("torch")
    ns = namespace(TORCH)
    expected = torch.nn.functional.scaled_dot_product_attention(ns["Q"], ns["K"], ns["V"], is_causal=True)
    close(ns["output"], expected.numpy())


# --- what the page says ---------------------------------------------------------------


def test_weights_are_zero_above_the_diagonal(ref):
    _, st = ref
    assert (st.weights[np.triu_indices(3, k=1)] == 0).all()
    np.testing.assert_allclose(st.weights.sum(axis=1), 1, rtol=0, atol=1e-15)


def test_the_first_token_reads_only_itself(ref):
    ex, st = ref
    np.testing.assert_array_equal(st.weights[0], [1, 0, 0])
    np.testing.assert_array_equal(st.output[0], ex.E[0])


def test_cat_splits_between_the_and_itself_and_sat_sees_everything(ref):
    _, st = ref
    plain = examples.run(examples.load("the_cat_sat"))
    assert st.weights[1, 1] > st.weights[1, 0] > 0
    close(st.weights[1, :2], selfattn_ref.softmax(plain.scaled[1, :2]))
    # The last token has no future to hide: its row is the encoder's.
    close(st.weights[2], plain.weights[2])
    close(st.output[2], plain.output[2])
