"""Snippets of docs/mistakes.md and docs/mistakes-at-scale.md: each mistake beside the right code, NumPy and PyTorch.
Each script's right and wrong arrays equal selfattn_ref.topics.mistakes, and what the page says each
mistake does is true of them. (The generic test in test_recordings.py runs each script and compares it
with its recording.)

head_scale_numpy.py head_scale_torch.py transposed_mask_numpy.py transposed_mask_torch.py
zeroed_numpy.py zeroed_torch.py wrong_axis_numpy.py wrong_axis_torch.py overflow_numpy.py
overflow_torch.py mask_added_numpy.py mask_added_torch.py shared_qk_numpy.py shared_qk_torch.py
padded_rows_numpy.py padded_rows_torch.py padding_axis_numpy.py padding_axis_torch.py
inverted_padding_numpy.py inverted_padding_torch.py shared_heads_numpy.py shared_heads_torch.py
unrescaled_numpy.py unrescaled_torch.py rope_pairing_numpy.py rope_pairing_torch.py
rope_cache_position_numpy.py rope_cache_position_torch.py
"""

from __future__ import annotations

import numpy as np
import pytest

from publish import SNIPPETS
from publish.generate.snippets import namespace
from selfattn_ref.topics import mistakes as m

from snippet_checks import as_numpy, close

FOLDER = SNIPPETS / "mistakes"
NAMES = [
    "head_scale", "transposed_mask", "zeroed", "wrong_axis", "overflow", "mask_added", "shared_qk", "padded_rows",
    "padding_axis", "inverted_padding", "shared_heads", "unrescaled", "rope_pairing", "rope_cache_position",
]  # fmt: skip
LIBS = ["numpy", "torch"]
REFERENCE = {
    "head_scale": lambda: (m.head_scale().right[0], m.head_scale().wrong[0]),
    "transposed_mask": lambda: (m.transposed_mask().right, m.transposed_mask().wrong),
    "zeroed": lambda: (m.zeroed_not_renormalized().right, m.zeroed_not_renormalized().wrong),
    "wrong_axis": lambda: (m.wrong_axis().right, m.wrong_axis().wrong),
    "overflow": lambda: (m.no_max_subtraction().right, m.no_max_subtraction().wrong),
    "mask_added": lambda: (m.mask_added().right, m.mask_added().wrong),
    "shared_qk": lambda: (m.shared_qk().right, m.shared_qk().wrong),
    "padded_rows": lambda: (m.padded_rows().pooled_right, m.padded_rows().pooled_wrong),
    "padding_axis": lambda: (m.padding_axis().right, m.padding_axis().wrong),
    "inverted_padding": lambda: (m.inverted_padding().right, m.inverted_padding().wrong),
    "shared_heads": lambda: (m.shared_heads_tiled().right, m.shared_heads_tiled().wrong),
    "unrescaled": lambda: (m.online_not_rescaled().right, m.online_not_rescaled().wrong),
    "rope_pairing": lambda: (m.rope_pairing().right, m.rope_pairing().wrong),
    "rope_cache_position": lambda: (m.rope_cache_position().right, m.rope_cache_position().off_by_one),
}


def test_every_mistake_has_a_script_in_each_library():
    assert sorted(p.name for p in FOLDER.glob("*.py")) == sorted(f"{n}_{lib}.py" for n in NAMES for lib in LIBS)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("name", NAMES)
def test_right_and_wrong_equal_the_reference(name, lib):
    if lib == "torch":
        pytest.importorskip("torch")
    ns = namespace(FOLDER / f"{name}_{lib}.py")
    right, wrong = REFERENCE[name]()
    close(ns["right"], right)
    np.testing.assert_allclose(as_numpy(ns["wrong"]), wrong, rtol=0, atol=1e-12)  # NaN where the reference has NaN


# --- what the page says each mistake does ------------------------------------------------------


def test_head_scale_flattens_every_row():
    h = m.head_scale()
    assert (h.d_k, h.d_model) == (2, 4)
    assert (h.wrong.max(axis=-1) < h.right.max(axis=-1)).all() and (h.wrong.min(axis=-1) > h.right.min(axis=-1)).all()


def test_transposed_mask_lets_the_first_token_see_the_future():
    p = m.transposed_mask()
    assert p.wrong[0, 2] > 0.4 and p.right[0, 2] == 0
    assert p.wrong[2, 2] == 1.0  # the last token sees only itself


def test_zeroing_leaves_rows_that_do_not_add_up_to_one():
    sums = m.zeroed_not_renormalized().wrong.sum(axis=1)
    assert sums[0] < 1 and sums[1] < 1 and sums[2] == pytest.approx(1)


def test_wrong_axis_normalizes_columns_not_rows():
    p = m.wrong_axis()
    np.testing.assert_allclose(p.wrong.sum(axis=0), 1)
    assert not np.allclose(p.wrong.sum(axis=1), 1)
    np.testing.assert_allclose(np.diag(p.wrong), np.diag(p.right))  # the diagonal survives (symmetric scores)


def test_overflow_gives_nan_only_without_the_max_subtraction():
    p = m.no_max_subtraction()
    assert np.isnan(p.wrong).any() and np.isfinite(p.right).all()
    with np.errstate(over="ignore"):  # the limits the page states
        assert m.big_scores().max() > m.EXP_LIMIT_FLOAT64 and np.isinf(np.exp(np.float64(900)))
        assert np.isfinite(np.exp(np.float64(709.78))) and np.isinf(np.exp(np.float64(709.79)))
        assert np.isfinite(np.exp(np.float32(88.72))) and np.isinf(np.exp(np.float32(88.73)))


def test_added_mask_leaves_weight_on_hidden_keys():
    p = m.mask_added()
    hidden = ~np.tril(np.ones((3, 3), dtype=bool))
    assert (p.wrong[hidden] > 0).all() and (p.right[hidden] == 0).all()
    np.testing.assert_allclose(p.wrong[2], p.right[2])  # a row with nothing hidden is unchanged


def test_shared_matrix_makes_scores_symmetric():
    s = m.shared_qk()
    np.testing.assert_allclose(s.wrong, s.wrong.T)
    assert not np.allclose(s.right, s.right.T)


def test_padding_row_has_an_output_that_changes_the_average():
    p = m.padded_rows()
    assert p.tokens[-1] == "[PAD]" and np.abs(p.output[-1]).max() > 0
    assert not np.allclose(p.pooled_right, p.pooled_wrong)


def test_a_padding_mask_on_the_queries_axis_hides_a_row_not_a_key():
    p = m.padding_axis()
    real = np.array([[True] * 3, [True, True, False]])
    np.testing.assert_array_equal(p.wrong[real], p.unmasked[real])  # the real tokens read the pad as unmasked
    assert (p.wrong[1, :2, 2] > 0.2).all() and (p.right[1, :, 2] == 0).all()
    assert np.isnan(p.wrong[1, 2]).all() and not np.isnan(p.right).any()  # the pad's row: 0/0


def test_the_sites_mask_as_key_padding_mask_leaves_out_the_real_tokens():
    p = m.inverted_padding()
    assert np.isnan(p.wrong[0]).all()  # "The cat sat": no key left
    np.testing.assert_array_equal(p.wrong[1], np.tile([0.0, 0.0, 1.0], (3, 1)))  # only the pad
    assert not np.isnan(p.right).any()


def test_tiled_key_value_heads_swap_heads_2_and_3_and_repeating_is_pytorchs():
    """repeat_interleave (and scaled_dot_product_attention's enable_gqa) pair query head i with key
    head i // groups; K.repeat tiles the stack, which gives heads 2 and 3 the other group's keys."""
    import torch
    import torch.nn.functional as F

    t = m.shared_heads_tiled()
    differ = [h for h in range(4) if not np.allclose(t.right[h], t.wrong[h])]
    assert differ == [1, 2]
    X = torch.tensor([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]], dtype=torch.float64)
    Q, K = X.reshape(3, 4, 1).transpose(0, 1), X[:, :2].reshape(3, 2, 1).transpose(0, 1)
    out = F.scaled_dot_product_attention(Q, K, K, enable_gqa=True)  # (4, 3, 1)
    close(out, torch.from_numpy(t.right) @ K.repeat_interleave(2, dim=0))


def test_the_unrescaled_output_is_right_only_where_the_maximum_never_moves():
    u = m.online_not_rescaled()
    close(u.wrong[0], u.right[0])  # bank: its largest score first
    assert not np.allclose(u.wrong[1:], u.right[1:])
    assert u.wrong.max() > 1 >= u.right.max()  # more than any value's entry


def test_the_other_rotary_pairing_changes_the_scores_but_not_a_words_own_and_reordering_repairs_it():
    p = m.rope_pairing()
    np.testing.assert_allclose(np.diag(p.wrong), np.diag(p.right), rtol=0, atol=1e-12)  # lengths kept
    assert np.abs(p.wrong - p.right).max() > 2  # dog and man: 1.4930 against -0.8323
    assert p.wrong[0, 2] < 0 < p.right[0, 2]
    for lib in LIBS:
        ns = namespace(FOLDER / f"rope_pairing_{lib}.py")
        close(ns["reordered"], p.right)  # the entries reordered: the right scores


def test_a_rotary_position_off_by_one_in_the_cache_moves_sats_weights_and_the_right_one_is_the_whole_sentences():
    """The page: "sat" turned for position 2 gives the last row of the layer run on the whole sentence;
    turned for 3 (the cache's length after its key was appended), other weights, its own the largest."""
    c = m.rope_cache_position()
    for lib in LIBS:
        ns = namespace(FOLDER / f"rope_cache_position_{lib}.py")
        close(ns["whole"], c.recomputed)
        close(ns["right"], ns["whole"])  # what the script prints: position 2 gives the whole sentence's row
    close(c.right, c.recomputed, 1e-15)
    assert np.abs(c.off_by_one - c.right).max() > 0.05
    assert c.off_by_one[2] > c.right[2] and c.off_by_one[1] < c.right[1]
