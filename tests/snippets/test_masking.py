"""Snippets of docs/masking.md: a causal mask on "The cat sat" (the example the_cat_sat_causal),
zeroing weights after the softmax instead, and a padded batch, in NumPy and PyTorch, held equal
to the reference package and to its computations for the page, selfattn_ref.topics.masking; and
the facts the page states."""

from __future__ import annotations

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from selfattn_ref import examples
from selfattn_ref.topics import masking as source

from snippet_checks import as_numpy, close, snippet_namespace

FOLDER = SNIPPETS / "masking"
NAMES = ["causal", "zeroing", "padding"]
SNIPPET_PATHS = [FOLDER / f"{name}_{lib}.py" for name in NAMES for lib in ("numpy", "torch")]
# causal_numpy.py, causal_torch.py, zeroing_numpy.py, zeroing_torch.py, padding_numpy.py, padding_torch.py
EXAMPLE = "the_cat_sat_causal"  # the fixture ref (tests/snippets/conftest.py)


def load(name: str, lib: str) -> dict:
    return snippet_namespace(FOLDER / f"{name}_{lib}.py")


@pytest.fixture(scope="module")
def plain():
    return examples.run(examples.load("the_cat_sat"))


@pytest.fixture(scope="module", params=["numpy", "torch"])
def lib(request):
    return request.param


def test_causal_prints_the_check_against_each_prefix_alone():
    """(The PyTorch tab prints these lines and its check against PyTorch's own function:
    tests/snippets/test_recordings.py, TWINS_DIFFER.)"""
    numpy_out = (FOLDER / "causal_numpy.out").read_text(encoding="utf-8")
    assert numpy_out.endswith("same as attending to each prefix alone: True\n")


# --- causal_*.py ----------------------------------------------------------------------------


def test_causal_every_step_equals_the_reference(lib, ref):
    ns = load("causal", lib)
    ex, st = ref
    assert tuple(ns["tokens"]) == ex.tokens
    close(ns["X"], ex.E)
    for name in ("Q", "K", "V"):
        close(ns[name], getattr(st, name))
    close(ns["scaled"], st.scaled)
    np.testing.assert_array_equal(as_numpy(ns["allowed"]), selfattn_ref.causal_mask(3))
    np.testing.assert_array_equal(as_numpy(ns["allowed"]), st.mask)
    np.testing.assert_array_equal(as_numpy(ns["M"]), source.causal().M)
    np.testing.assert_array_equal(as_numpy(ns["masked"]), source.causal().masked)
    close(ns["weights"], st.weights)
    close(ns["output"], st.output)
    close(ns["prefix"], st.output)


def test_causal_torch_matches_pytorchs_own_causal_attention(ref):
    torch = pytest.importorskip("torch")
    ns = load("causal", "torch")
    _, st = ref
    expected = torch.nn.functional.scaled_dot_product_attention(ns["Q"], ns["K"], ns["V"], is_causal=True)
    close(ns["builtin"], expected.numpy())
    close(expected, st.output)
    import selfattn_ref.torch as ref_torch

    out, w = ref_torch.scaled_dot_product_attention(
        *(torch.from_numpy(getattr(st, n)) for n in "QKV"), mask=ref_torch.causal_mask(3)
    )
    close(out, st.output)
    close(w, st.weights)


def test_m_is_zero_on_and_below_the_diagonal_and_minus_infinity_above():
    M = source.causal().M
    assert (M[np.tril_indices(3)] == 0).all()
    assert np.isneginf(M[np.triu_indices(3, k=1)]).all()
    np.testing.assert_array_equal(source.causal().masked, np.where(M == 0, source.causal().masked, -np.inf))


def test_the_attends_only_to_itself_and_its_output_is_its_value(ref):
    ex, st = ref
    np.testing.assert_array_equal(st.weights[0], [1, 0, 0])
    np.testing.assert_array_equal(st.output[0], ex.E[0])


def test_cat_splits_between_the_and_itself(ref):
    ex, st = ref
    assert st.scaled[1, 0] == 0 and st.scaled[1, 1] == 1
    close(np.exp(st.scaled[1, :2]).sum(), 1 + np.e)
    close(st.weights[1, :2], selfattn_ref.softmax([0.0, 1.0]))
    assert st.weights[1, 2] == 0
    close(st.output[1], st.weights[1, 0] * ex.E[0] + st.weights[1, 1] * ex.E[1])


def test_sat_row_and_output_are_unchanged_by_the_mask(ref, plain):
    _, st = ref
    assert st.mask[2].all()
    np.testing.assert_array_equal(st.weights[2], plain.weights[2])
    np.testing.assert_array_equal(st.output[2], plain.output[2])


def test_without_the_mask_the_and_cat_looked_ahead(ref, plain):
    _, st = ref
    assert plain.weights[0, 2] == plain.weights[1, 2] > 0
    assert (st.weights[np.triu_indices(3, k=1)] == 0).all()
    np.testing.assert_allclose(st.weights.sum(axis=1), 1, rtol=0, atol=1e-15)


# --- zeroing_*.py ---------------------------------------------------------------------------


def test_zeroing_every_step_equals_the_reference(lib, ref):
    ns = load("zeroing", lib)
    _, st = ref
    z = source.zeroing()
    close(ns["scaled"], st.scaled)
    np.testing.assert_array_equal(as_numpy(ns["allowed"]), st.mask)
    close(ns["masked_weights"], st.weights)
    close(ns["zeroed"], z.zeroed)
    close(ns["row_sums"], z.row_sums)
    close(ns["renormalized"], z.renormalized)
    close(ns["renormalized"], st.weights)
    close(ns["zeroed"] @ ns["V"], z.zeroed_output)
    close(ns["zeroed_output"], z.zeroed_output)


def test_zeroed_rows_do_not_sum_to_one_and_the_outputs_shrink(ref, plain):
    _, st = ref
    z = source.zeroing()
    np.testing.assert_array_equal(z.unmasked, plain.weights)
    assert z.row_sums[0] < 1 and z.row_sums[1] < 1
    assert z.row_sums[2] == pytest.approx(1, abs=1e-15)  # sat hides nothing
    close(z.row_sums[0], plain.weights[0, 0])
    close(z.zeroed_output[0], plain.weights[0, 0] * st.V[0])  # [0.4223, 0, 0.4223, 0]
    assert (z.zeroed_output[:2] <= st.output[:2] + 1e-15).all() and (z.zeroed_output[:2] < st.output[:2]).any()
    assert (z.zeroed_output[0] < st.output[0]).any()


def test_what_a_zeroed_row_keeps_depends_on_the_hidden_tokens(ref):
    """The row sum after zeroing changes when only a later token changes: the future leaks in."""
    ex, st = ref
    E2 = ex.E.copy()
    E2[2] = [2, 2, 2, 2]  # a different "sat"
    unmasked = selfattn_ref.softmax(selfattn_ref.scores(E2, E2) / 2)
    zeroed = np.where(st.mask, unmasked, 0.0)
    assert abs(zeroed[0].sum() - source.zeroing().row_sums[0]) > 0.1
    # The masked weights of "The" and "cat" do not change at all.
    _, w2 = selfattn_ref.scaled_dot_product_attention(E2, E2, E2, mask=st.mask)
    np.testing.assert_array_equal(w2[:2], st.weights[:2])


def test_dividing_by_the_row_sum_is_the_softmax_over_the_visible_keys():
    rng = np.random.default_rng(0)
    for _ in range(50):
        s = rng.normal(0, 3, 6)
        visible = rng.random(6) < 0.5
        visible[rng.integers(6)] = True
        full = selfattn_ref.softmax(s)
        zeroed = np.where(visible, full, 0)
        expected = selfattn_ref.softmax(np.where(visible, s, -np.inf))
        np.testing.assert_allclose(zeroed / zeroed.sum(), expected, rtol=1e-12, atol=1e-15)


def test_zeroing_then_dividing_gives_nan_when_the_visible_weights_underflow():
    s = np.array([0.0, 800.0])  # the second key is hidden and scores far above the first
    visible = np.array([True, False])
    zeroed = np.where(visible, selfattn_ref.softmax(s), 0.0)
    assert zeroed.sum() == 0
    with np.errstate(invalid="ignore"):
        assert np.isnan(zeroed / zeroed.sum()).all()
    np.testing.assert_array_equal(selfattn_ref.softmax(np.where(visible, s, -np.inf)), [1, 0])
    # The masked softmax divides by a sum of at least e^0 = 1.
    masked = np.where(visible, s, -np.inf)
    assert np.exp(masked - masked.max()).sum() >= 1


# --- padding_*.py ---------------------------------------------------------------------------


def test_padding_every_step_equals_the_reference(lib):
    ns = load("padding", lib)
    p = source.padding()
    assert [tuple(s) for s in ns["batch"]] == list(p.sentences)
    np.testing.assert_array_equal(as_numpy(ns["lengths"]), p.lengths)
    close(ns["X"], p.X)
    np.testing.assert_array_equal(as_numpy(ns["mask"]), selfattn_ref.padding_mask([3, 2], 3))
    np.testing.assert_array_equal(as_numpy(ns["mask"]), p.mask)
    close(ns["output"], p.output)
    close(ns["weights"], p.weights)
    close(ns["output_unmasked"], p.output_unmasked)
    close(ns["weights_unmasked"], p.weights_unmasked)
    close(ns["alone"][0], p.alone_output)
    # The real tokens' outputs are those of "The cat" alone.
    assert np.abs(as_numpy(ns["output"])[1, :2] - as_numpy(ns["alone"])[0]).max() < 1e-15
    close(np.abs(as_numpy(ns["output_unmasked"])[1, :2] - as_numpy(ns["alone"])[0]).max(), p.difference_unmasked)


def test_padded_batch_is_the_cat_sat_and_the_cat_with_a_zero_pad():
    p = source.padding()
    ex = examples.load("the_cat_sat")
    assert p.sentences == (("The", "cat", "sat"), ("The", "cat", "[PAD]"))
    assert p.lengths == (3, 2)
    np.testing.assert_array_equal(p.X[0], ex.E)
    np.testing.assert_array_equal(p.X[1, :2], ex.E[:2])
    np.testing.assert_array_equal(p.X[1, 2], np.zeros(4))
    assert p.mask.shape == (2, 1, 3)
    np.testing.assert_array_equal(p.mask[:, 0, :], [[True, True, True], [True, True, False]])


def test_with_the_mask_the_real_tokens_attend_as_in_the_short_sentence_alone():
    p = source.padding()
    assert p.difference < 1e-15
    np.testing.assert_allclose(p.weights[1, :2, :2], p.alone_weights, rtol=0, atol=1e-15)
    assert (p.weights[1, :, 2] == 0).all()
    # "The" alone: softmax([1, 0]), 0.7311 on itself and 0.2689 on "cat".
    close(p.alone_weights[0], selfattn_ref.softmax([1.0, 0.0]))
    # The first sentence has nothing to hide: the mask changes nothing there.
    np.testing.assert_array_equal(p.output[0], p.output_unmasked[0])


def test_without_the_mask_the_pad_takes_attention(plain):
    p = source.padding()
    assert p.difference_unmasked > 0.1
    w = p.weights_unmasked[1]
    assert w[0, 2] == w[1, 2] > 0
    close(w[0], plain.weights[2][[2, 0, 1]])  # softmax([1, 0, 0]): 0.5761, 0.2119, 0.2119
    close(w[0, 2], plain.weights[2, 0])


def test_the_pads_own_row_is_an_even_blend_and_a_row_with_nothing_is_an_error():
    p = source.padding()
    close(p.weights[1, 2], [0.5, 0.5, 0])
    hide_pad_row = np.array([[True, True, False], [True, True, False], [False, False, False]])
    with pytest.raises(ValueError, match="allows nothing in row"):
        selfattn_ref.scaled_dot_product_attention(p.X[1], p.X[1], p.X[1], mask=hide_pad_row)
    with np.errstate(invalid="ignore"):
        row = np.full(3, -np.inf)
        e = np.exp(row - row.max())
        assert np.isnan(e / e.sum()).all()  # 0 / 0


def test_causal_and_padding_combine_with_and():
    p = source.padding()
    both = selfattn_ref.causal_mask(3) & selfattn_ref.padding_mask([3, 2], 3)
    assert both.shape == (2, 3, 3)
    out, w = selfattn_ref.scaled_dot_product_attention(p.X, p.X, p.X, mask=both)
    causal = examples.run(examples.load("the_cat_sat_causal"))
    np.testing.assert_array_equal(w[0], causal.weights)
    np.testing.assert_array_equal(w[1, :2, :2], causal.weights[:2, :2])
    assert (w[1, :, 2] == 0).all()


def test_pytorch_conventions_for_boolean_masks():
    torch = pytest.importorskip("torch")
    p = source.padding()
    X = torch.from_numpy(p.X)
    mask = torch.from_numpy(p.mask)
    # scaled_dot_product_attention: True = may attend, as on the page.
    out = torch.nn.functional.scaled_dot_product_attention(X, X, X, attn_mask=mask)
    close(out, p.output)
    # MultiheadAttention's key_padding_mask: True = ignore, so it takes ~mask[:, 0, :], shape (batch, n).
    mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(4, dtype=torch.float64).repeat(3, 1))
        mha.out_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    key_padding_mask = ~mask[:, 0, :]
    assert tuple(key_padding_mask.shape) == (2, 3)
    out_mha, _ = mha(X, X, X, key_padding_mask=key_padding_mask)
    close(out_mha, p.output)
