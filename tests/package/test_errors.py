"""Bad input raises ValueError whose message names the argument and the shapes it got.

Every case runs against the NumPy package and ``selfattn_ref.torch``, with one regex:
the two packages word their messages the same way.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import selfattn_ref as ref
import selfattn_ref.torch as tref


def ones(*shape):
    return np.ones(shape)


def nan_at(shape, value=np.nan):
    a = np.ones(shape)
    a.flat[-1] = value
    return a


def mask_without_row_1():
    m = np.ones((3, 3), dtype=bool)
    m[1] = False
    return m


W4 = np.eye(4)

# (id, call with the module, regex the message must match)
CASES = [
    # wrong number of dimensions
    (
        "scores-Q-1d",
        lambda m: m.scores(ones(3), ones(3, 3)),
        r"^Q must have at least 2 dimension\(s\), got shape \(3,\)$",
    ),
    (
        "sdpa-K-1d",
        lambda m: m.scaled_dot_product_attention(ones(2, 3), ones(3), ones(3, 3)),
        r"^K must have at least 2 dimension\(s\), got shape \(3,\)$",
    ),
    (
        "project-W-3d",
        lambda m: m.project(ones(3, 4), ones(1, 4, 4), W4, W4),
        r"^W_Q must have 2 dimension\(s\), got shape \(1, 4, 4\)$",
    ),
    (
        "rnn-E-3d",
        lambda m: m.rnn_encoder(ones(1, 3, 2), ones(2, 2), ones(2, 2)),
        r"^E must have 2 dimension\(s\), got shape \(1, 3, 2\)$",
    ),
    (
        "additive-v-2d",
        lambda m: m.additive_attention(ones(2), ones(3, 2), ones(2, 2), ones(2, 2), ones(2, 1)),
        r"^v must have 1 dimension\(s\), got shape \(2, 1\)$",
    ),
    ("mix-A-scalar", lambda m: m.mix(1.0, ones(1, 2)), r"^A must have at least 2 dimension\(s\), got shape \(\)$"),
    # widths and lengths that do not fit
    (
        "Q-K-width",
        lambda m: m.scores(ones(3, 2), ones(3, 4)),
        r"^Q and K must have the same width, got Q \(3, 2\) and K \(3, 4\)$",
    ),
    (
        "sdpa-Q-K-width",
        lambda m: m.scaled_dot_product_attention(ones(2, 5, 3), ones(2, 4, 2), ones(2, 4, 2)),
        r"^Q and K must have the same width, got Q \(2, 5, 3\) and K \(2, 4, 2\)$",
    ),
    (
        "K-V-length",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(4, 2), ones(5, 2)),
        r"^K and V must have the same length, got K \(4, 2\) and V \(5, 2\)$",
    ),
    (
        "mix-A-V",
        lambda m: m.mix(ones(3, 4), ones(3, 2)),
        r"^A must have one column per row of V, got A \(3, 4\) and V \(3, 2\)$",
    ),
    (
        "project-W-rows",
        lambda m: m.project(ones(3, 4), W4, ones(3, 4), W4),
        r"^W_K must have one row per embedding dimension, got E \(3, 4\) and W_K \(3, 4\)$",
    ),
    (
        "project-W_Q-W_K-cols",
        lambda m: m.project(ones(3, 4), ones(4, 2), ones(4, 3), W4),
        r"^W_Q and W_K must have the same number of columns, got 2 and 3$",
    ),
    (
        "mha-W-shape",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, ones(4, 2), 2),
        r"^W_O must have shape \(4, 4\) to match X \(3, 4\), got \(4, 2\)$",
    ),
    (
        "rnn-shapes",
        lambda m: m.rnn_encoder(ones(3, 2), ones(3, 4), ones(4, 4)),
        r"^shapes do not fit: E \(3, 2\), W_xh \(3, 4\), W_hh \(4, 4\)",
    ),
    (
        "rnn-bias",
        lambda m: m.rnn_encoder(ones(3, 2), ones(2, 4), ones(4, 4), ones(3)),
        r"^b and h0 must have shape \(4,\), got b \(3,\) and h0 \(4,\)$",
    ),
    (
        "additive-shapes",
        lambda m: m.additive_attention(ones(2), ones(3, 5), ones(2, 4), ones(2, 4), ones(4)),
        r"^shapes do not fit: s \(2,\), H \(3, 5\), W_s \(2, 4\), W_h \(2, 4\), v \(4,\)",
    ),
    # masks
    (
        "mask-shape",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(4, 2), ones(4, 2), mask=np.ones((3, 3), bool)),
        r"^mask has shape \(3, 3\), which does not fit the scores' shape \(3, 4\)$",
    ),
    (
        "mask-1d",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(4, 2), ones(4, 2), mask=np.ones(4, bool)),
        r"^mask has shape \(4,\), which does not fit the scores' shape \(3, 4\)$",
    ),
    (
        "mask-too-many-dims",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(3, 2), ones(3, 2), mask=np.ones((2, 3, 3), bool)),
        r"^mask has shape \(2, 3, 3\), which does not fit the scores' shape \(3, 3\)$",
    ),
    (
        "mask-int",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(3, 2), ones(3, 2), mask=np.ones((3, 3), int)),
        r"^mask must be boolean \(True = may attend\), got dtype \S*int64$",
    ),
    (
        "mask-float",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(3, 2), ones(3, 2), mask=np.ones((3, 3))),
        r"^mask must be boolean \(True = may attend\), got dtype \S*float64$",
    ),
    (
        "mask-row-empty",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(3, 2), ones(3, 2), mask=mask_without_row_1()),
        r"^mask allows nothing in row \(1,\) \(shape \(3, 3\)\); every query needs at least one key$",
    ),
    (
        "mask-row-empty-batched",
        lambda m: m.scaled_dot_product_attention(
            ones(2, 3, 2), ones(2, 3, 2), ones(2, 3, 2), mask=mask_without_row_1()
        ),
        r"^mask allows nothing in row \(0, 1\) \(shape \(2, 3, 3\)\)",
    ),
    (
        "mha-mask-shape",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, W4, 2, mask=np.ones((2, 2), bool)),
        r"^mask has shape \(2, 2\), which does not fit the scores' shape \(2, 3, 3\)$",
    ),
    (
        "additive-mask-empty",
        lambda m: m.additive_attention(ones(2), ones(3, 2), ones(2, 2), ones(2, 2), ones(2), mask=np.zeros(3, bool)),
        r"^mask allows nothing in row \(0,\)",
    ),
    (
        "additive-mask-int",
        lambda m: m.additive_attention(ones(2), ones(3, 2), ones(2, 2), ones(2, 2), ones(2), mask=np.ones(3, int)),
        r"^mask must be boolean",
    ),
    # non-finite entries
    (
        "Q-nan",
        lambda m: m.scores(nan_at((3, 2)), ones(3, 2)),
        r"^Q must hold only finite numbers \(no NaN or infinity\), shape \(3, 2\)$",
    ),
    (
        "V-inf",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(3, 2), nan_at((3, 2), np.inf)),
        r"^V must hold only finite numbers \(no NaN or infinity\), shape \(3, 2\)$",
    ),
    (
        "X-neg-inf",
        lambda m: m.self_attention(nan_at((2, 2), -np.inf)),
        r"^X must hold only finite numbers .*shape \(2, 2\)$",
    ),
    (
        "W-nan",
        lambda m: m.multi_head_attention(ones(3, 4), W4, nan_at((4, 4)), W4, W4, 1),
        r"^W_K must hold only finite numbers .*shape \(4, 4\)$",
    ),
    ("softmax-nan", lambda m: m.softmax(nan_at((2, 3))), r"^S must not hold NaN or \+infinity, shape \(2, 3\)$"),
    (
        "softmax-inf",
        lambda m: m.softmax(nan_at((2, 3), np.inf)),
        r"^S must not hold NaN or \+infinity, shape \(2, 3\)$",
    ),
    (
        "softmax-all-neg-inf",
        lambda m: m.softmax(np.array([[0.0, 1.0], [-np.inf, -np.inf]])),
        r"^S has a slice along axis -1 that is all -infinity \(nothing to attend to\), shape \(2, 2\)$",
    ),
    ("softmax-axis", lambda m: m.softmax(ones(2, 3), axis=2), r"^axis 2 is out of range for S of shape \(2, 3\)$"),
    (
        "scale-nan",
        lambda m: m.scaled_dot_product_attention(ones(2, 2), ones(2, 2), ones(2, 2), scale=float("nan")),
        r"^scale must be a finite number or None, got nan$",
    ),
    (
        "scale-str",
        lambda m: m.scaled_dot_product_attention(ones(2, 2), ones(2, 2), ones(2, 2), scale="0.5"),
        r"^scale must be a finite number or None, got '0.5'$",
    ),
    # empty sequences and non-numbers
    ("Q-empty", lambda m: m.scores(ones(0, 2), ones(3, 2)), r"^Q must not be empty, got shape \(0, 2\)$"),
    (
        "K-empty",
        lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(0, 2), ones(0, 2)),
        r"^K must not be empty, got shape \(0, 2\)$",
    ),
    ("X-empty-list", lambda m: m.self_attention([[]]), r"^X must not be empty, got shape \(1, 0\)$"),
    ("softmax-empty", lambda m: m.softmax([]), r"^S must have at least one entry along axis -1, got shape \(0,\)$"),
    ("X-ragged", lambda m: m.self_attention([[1, 2], [3]]), r"^X must be an array of numbers \(rows of equal length\)"),
    ("X-strings", lambda m: m.self_attention([["a", "b"]]), r"^X must be an array of numbers"),
    ("softmax-strings", lambda m: m.softmax(["a", "b"]), r"^S must be an array of numbers"),
    ("softmax-ragged", lambda m: m.softmax([[1, 2], [3]]), r"^S must be an array of numbers"),
    # num_heads
    (
        "num_heads-0",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, W4, 0),
        r"^num_heads must be a positive integer, got 0$",
    ),
    (
        "num_heads-float",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, W4, 2.0),
        r"^num_heads must be a positive integer, got 2.0$",
    ),
    (
        "num_heads-bool",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, W4, True),
        r"^num_heads must be a positive integer, got True$",
    ),
    (
        "num_heads-divide",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, W4, 3),
        r"^num_heads=3 must divide the width of X, got X \(3, 4\)$",
    ),
    # causal_mask, padding_mask, positional encoding
    ("causal-0", lambda m: m.causal_mask(0), r"^n must be a positive integer, got 0$"),
    ("causal-negative", lambda m: m.causal_mask(-2), r"^n must be a positive integer, got -2$"),
    ("causal-float", lambda m: m.causal_mask(2.5), r"^n must be a positive integer, got 2.5$"),
    ("causal-bool", lambda m: m.causal_mask(True), r"^n must be a positive integer, got True$"),
    ("padding-zero-length", lambda m: m.padding_mask([0, 2], 3), r"^lengths must lie between 1 and n=3, got \[0, 2\]$"),
    ("padding-too-long", lambda m: m.padding_mask([2, 5], 3), r"^lengths must lie between 1 and n=3, got \[2, 5\]$"),
    (
        "padding-float",
        lambda m: m.padding_mask([1.5], 3),
        r"^lengths must be a non-empty list of integers, got \[1.5\]$",
    ),
    ("padding-empty", lambda m: m.padding_mask([], 3), r"^lengths must be a non-empty list of integers, got \[\]$"),
    (
        "padding-2d",
        lambda m: m.padding_mask([[1, 2]], 3),
        r"^lengths must be a non-empty list of integers, got \[\[1, 2\]\]$",
    ),
    ("padding-bad-n", lambda m: m.padding_mask([1], 0), r"^n must be a positive integer, got 0$"),
    ("positional-d", lambda m: m.sinusoidal_positional_encoding(4, 0), r"^d must be a positive integer, got 0$"),
    # the softmax written out: e^score and the row totals
    ("terms-ragged", lambda m: m.attention.softmax_terms([[1.0], [1.0, 2.0]]), r"^S must be an array of numbers"),
    ("terms-nan", lambda m: m.attention.softmax_terms(nan_at((2, 3))), r"^S must not hold NaN or \+infinity"),
    (
        "terms-overflow",
        lambda m: m.attention.softmax_terms([[1.0, 800.0]]),
        r"^S holds a score whose e\^score overflows \(largest 800\.0\); use softmax$",
    ),
    (
        "terms-mask-dtype",
        lambda m: m.attention.softmax_terms(ones(2, 3), mask=ones(2, 3)),
        r"^mask must be boolean \(True = the score counts\), got dtype float64$",
    ),
    (
        "terms-mask-shape",
        lambda m: m.attention.softmax_terms(ones(2, 3), mask=np.ones((2, 2), bool)),
        r"^mask has shape \(2, 2\), which does not fit the scores' shape \(2, 3\)$",
    ),
    (
        "terms-empty-row",
        lambda m: m.attention.softmax_terms(ones(3, 3), mask=mask_without_row_1()),
        r"^S has a row \(1,\) with no score that counts \(all masked or -infinity\), shape \(3, 3\)$",
    ),
]


@pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])
@pytest.mark.parametrize(("call", "pattern"), [pytest.param(c, p, id=i) for i, c, p in CASES])
def test_bad_input_raises_value_error(mod, call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call(mod)


def test_torch_messages_print_shapes_as_tuples():
    # "(3, 2)", never "torch.Size([3, 2])", so the regexes above fit both packages
    with pytest.raises(ValueError) as info:
        tref.scores(torch.ones(3, 2), torch.ones(3, 4))
    assert "torch.Size" not in str(info.value)


@pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])
def test_torch_tensor_masks_are_checked_too(mod):
    Q = torch.ones(3, 2, dtype=torch.float64)
    with pytest.raises(ValueError, match=r"^mask must be boolean \(True = may attend\), got dtype \S*int64$"):
        mod.scaled_dot_product_attention(Q, Q, Q, mask=torch.ones(3, 3, dtype=torch.int64))
    with pytest.raises(ValueError, match=r"^mask allows nothing in row \(2,\)"):
        mod.scaled_dot_product_attention(
            Q, Q, Q, mask=torch.tensor([[1, 0, 0], [1, 1, 0], [0, 0, 0]], dtype=torch.bool)
        )


def test_every_case_fails_with_good_input_instead():
    # Guard against a case that raises for some unrelated reason: fixing the bad argument
    # makes the same call work.
    for mod in (ref, tref):
        mod.scores(ones(3, 2), ones(3, 2))
        mod.scaled_dot_product_attention(ones(3, 2), ones(4, 2), ones(4, 2), mask=np.ones((3, 4), bool))
        mod.multi_head_attention(ones(3, 4), W4, W4, W4, W4, 2)
        mod.multi_head_attention(ones(3, 4), W4, W4, W4, W4, np.int64(4))
        mod.padding_mask([1, 3], 3)
        mod.causal_mask(np.int64(2))
        mod.rnn_encoder(ones(3, 2), ones(2, 4), ones(4, 4), ones(4))
        mod.attention.softmax_terms([[1.0, 700.0]], mask=np.ones((1, 2), bool))
        mod.additive_attention(ones(2), ones(3, 2), ones(2, 2), ones(2, 2), ones(2), mask=np.array([True, False, True]))
