"""Bad input raises ValueError whose message names the argument and the shapes it got.

Every case runs against the NumPy package and ``selfattn_ref.torch``, with one regex:
the two packages word their messages the same way.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import selfattn_ref as ref
import selfattn_ref.torch as tref

from snippet_checks import one_message


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
        "rnn-X-3d",
        lambda m: m.rnn_encoder(ones(1, 3, 2), ones(2, 2), ones(2, 2)),
        r"^X must have 2 dimension\(s\), got shape \(1, 3, 2\)$",
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
        r"^W_K must have one row per embedding dimension, got X \(3, 4\) and W_K \(3, 4\)$",
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
        r"^shapes do not fit: X \(3, 2\), W_xh \(3, 4\), W_hh \(4, 4\)",
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
        r"^mask has shape \(2, 2\), which does not fit the scores' shape \(3, 3\)$",  # the caller's, not the heads'.
    ),
    (
        "additive-mask-empty",
        lambda m: m.additive_attention(ones(2), ones(3, 2), ones(2, 2), ones(2, 2), ones(2), mask=np.zeros(3, bool)),
        r"^mask allows nothing \(shape \(3,\)\); every decoder state needs at least one encoder state to read$",
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


@pytest.mark.parametrize(("call", "pattern"), [pytest.param(c, p, id=i) for i, c, p in CASES])
def test_bad_input_raises_value_error_in_the_same_words_in_both(call, pattern):
    one_message(call, pattern)


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


# --- overflow, complex numbers, batch shapes, masks that are not arrays -------------------

BIG = 1e200  # finite, but its square is not
MAX = float(np.finfo(np.float64).max)


def full(shape, value):
    return np.full(shape, value)


def find(pkg, name):
    """The function ``name`` of the NumPy or PyTorch package, wherever its module puts it
    (the RNN scoring functions live in the rnn module, the scaling experiments in topics)."""
    import importlib

    for module in ("", ".rnn", ".topics.scaling"):
        try:
            mod = importlib.import_module(pkg.__name__ + module)
        except ImportError:
            continue
        if hasattr(mod, name):
            return getattr(mod, name)
    raise AssertionError(f"{pkg.__name__} has no function {name}")


# (id, call with the package, the exact message). Each runs on NumPy and PyTorch, with
# warnings turned into errors: an overflow is one ValueError, not a RuntimeWarning first.
EXACT = [
    # finite input whose result overflows names the caller's arguments, never an internal S
    (
        "scores-overflow",
        lambda m: m.scores(full((2, 2), BIG), full((3, 2), BIG)),
        "Q (2, 2) and K (3, 2) are too large: the scores Q K^T overflow in float64",
    ),
    (
        "scores-overflow-to-nan",  # inf - inf: NaN, not inf
        lambda m: m.scores(np.array([[BIG, BIG]]), np.array([[BIG, -BIG]])),
        "Q (1, 2) and K (1, 2) are too large: the scores Q K^T overflow in float64",
    ),
    (
        "scores-overflow-float32",
        lambda m: m.scores(full((2, 2), 1e20).astype(np.float32), full((2, 2), 1e20).astype(np.float32)),
        "Q (2, 2) and K (2, 2) are too large: the scores Q K^T overflow in float32",
    ),
    (
        "self-attention-overflow",
        lambda m: m.self_attention(full((3, 2), BIG)),
        "X (3, 2) is too large: the scores X X^T overflow in float64",
    ),
    (
        "project-overflow",
        lambda m: m.project(ones(3, 2), np.eye(2), full((2, 2), MAX), np.eye(2)),
        "X (3, 2) and W_K (2, 2) are too large: the product X W_K overflows in float64",
    ),
    (
        "mix-overflow",
        lambda m: m.mix(full((2, 2), 2.0), full((2, 3), MAX)),
        "A (2, 2) and V (2, 3) are too large: the weighted sums A V overflow in float64",
    ),
    (
        "sdpa-scores-overflow",
        lambda m: m.scaled_dot_product_attention(full((2, 2), BIG), full((2, 2), BIG), ones(2, 2)),
        "Q (2, 2) and K (2, 2) are too large: the scores Q K^T overflow in float64",
    ),
    (
        "sdpa-scale-overflow",
        lambda m: m.scaled_dot_product_attention(full((2, 2), 1e150), full((2, 2), 1e150), ones(2, 2), scale=1e300),
        "Q (2, 2), K (2, 2) and scale 1e+300 are too large: the scaled scores Q K^T * scale overflow in float64",
    ),
    (
        "sdpa-scale-huge-int",
        lambda m: m.scaled_dot_product_attention(ones(2, 2), ones(2, 2), ones(2, 2), scale=10**400),
        "scale must be a finite number or None, got an integer of 401 digits",
    ),
    (
        "mha-projection-overflow",
        lambda m: m.multi_head_attention(full((2, 4), BIG), W4 * BIG, W4, W4, W4, 2),
        "X (2, 4) and W_Q (4, 4) are too large: the product X W_Q overflows in float64",
    ),
    (
        "mha-head-scores-overflow",
        lambda m: m.multi_head_attention(full((2, 4), 1e100), W4 * 1e80, W4 * 1e80, W4, W4, 2),
        "X (2, 4), W_Q (4, 4) and W_K (4, 4) are too large: in the heads, the scores Q K^T overflow in float64",
    ),
    (
        "mha-output-overflow",
        lambda m: m.multi_head_attention(full((2, 4), 1e100), W4, W4 * 1e-100, W4 * 1e200, W4 * 1e100, 2),
        "X (2, 4), W_V (4, 4) and W_O (4, 4) are too large: the output (the heads times W_O) overflows in float64",
    ),
    (
        "rnn-overflow",
        lambda m: m.rnn_encoder(full((2, 2), BIG), full((2, 2), BIG), np.eye(2)),
        "X (2, 2), W_xh (2, 2) and W_hh (2, 2) are too large: at step 1, the input to tanh overflows in float64",
    ),
    (
        "rnn-overflow-bias",
        lambda m: m.rnn_encoder(ones(2, 2), np.eye(2), np.eye(2), b=[MAX, 0.0], h0=[MAX, 0.0]),
        "X (2, 2), W_xh (2, 2), W_hh (2, 2), b (2,) and h0 (2,) are too large: at step 1, the input to tanh "
        "overflows in float64",
    ),
    (
        "additive-overflow",
        lambda m: m.additive_attention(full(2, BIG), full((3, 2), -BIG), full((2, 2), BIG), np.eye(2), ones(2)),
        "s (2,), H (3, 2), W_s (2, 2) and W_h (2, 2) are too large: the input to tanh s W_s + H W_h overflows in "
        "float64",
    ),
    (
        "additive-v-overflow",
        lambda m: m.additive_attention(ones(2), ones(3, 2), np.eye(2), np.eye(2), full(2, MAX)),
        "v (2,) is too large: the scores v . tanh(...) overflow in float64",
    ),
    (
        "dot-scores-overflow",
        lambda m: find(m, "dot_scores")(full(2, BIG), full((3, 2), BIG)),
        "s (2,) and H (3, 2) are too large: the scores s . H[j] overflow in float64",
    ),
    (
        "dot-attention-overflow",
        lambda m: find(m, "dot_attention")(full(2, BIG), full((3, 2), BIG)),
        "s (2,) and H (3, 2) are too large: the scores s . H[j] overflow in float64",
    ),
    (
        "additive-scores-overflow",
        lambda m: find(m, "additive_scores")(ones(2), ones(3, 2), np.eye(2), np.eye(2), full(2, MAX)),
        "v (2,) is too large: the scores v . tanh(...) overflow in float64",
    ),
    (
        "dot-products-overflow",
        lambda m: find(m, "dot_products")(full((3, 2), BIG), full((3, 2), BIG)),
        "q (3, 2) and k (3, 2) are too large: the dot products q . k overflow in float64",
    ),
    (
        "variance-overflow",  # the dot products are finite, their squares are not
        lambda m: find(m, "dot_product_variance")(np.array([[1e160], [-1e160]]), np.array([[1e0], [1e0]])),
        "q (2, 1) and k (2, 1) are too large: the variance of the dot products overflows in float64",
    ),
    (
        "largest-weights-overflow",
        lambda m: find(m, "largest_weights")(full((2, 2), 1e160), full((2, 3, 2), 1e160), scale=1.0),
        "q (2, 2), K (2, 3, 2) and scale 1.0 are too large: the scores q . K[j] * scale overflow in float64",
    ),
    (
        "largest-weights-scale-huge-int",
        lambda m: find(m, "largest_weights")(ones(2, 2), ones(2, 3, 2), scale=10**400),
        "scale must be a positive finite number, got an integer of 401 digits",
    ),
    # complex numbers are refused, not cast to real with a ComplexWarning
    (
        "complex-array",
        lambda m: m.scores(ones(2, 2) * (1 + 1j), ones(2, 2)),
        "Q must hold real numbers, got dtype complex128 (complex: the imaginary part would be lost)",
    ),
    (
        "complex-list",
        lambda m: m.self_attention([[1.0, 2j]]),
        "X must hold real numbers, got dtype complex128 (complex: the imaginary part would be lost)",
    ),
    (
        "complex-tensor",
        lambda m: m.mix(ones(2, 2), torch.ones(2, 2, dtype=torch.complex64)),
        "V must hold real numbers, got dtype complex64 (complex: the imaginary part would be lost)",
    ),
    (
        "complex-softmax",
        lambda m: m.softmax(np.array([1.0, 1j])),
        "S must hold real numbers, got dtype complex128 (complex: the imaginary part would be lost)",
    ),
    (
        "complex-W",
        lambda m: m.project(ones(3, 2), np.eye(2), np.eye(2) * 1j, np.eye(2)),
        "W_K must hold real numbers, got dtype complex128 (complex: the imaginary part would be lost)",
    ),
    # text and other non-numbers
    (
        "text-that-looks-like-numbers",
        lambda m: m.scores([["1", "2"]], ones(2, 2)),
        "Q must be an array of numbers (rows of equal length), got dtype <U1",
    ),
    (
        "int-too-large",  # not "an array of numbers" nor "NaN or infinity": a number too large for float64
        lambda m: m.scores([[10**400, 1]], ones(2, 2)),
        "Q[0][0] is too large for float64, whose numbers go up to about 1.8e308 (got an integer of 401 digits)",
    ),
    # batch dimensions that do not broadcast: the arguments and their shapes, not NumPy's or torch's text
    (
        "scores-batch",
        lambda m: m.scores(ones(2, 3, 2), ones(4, 3, 2)),
        "Q and K must have batch dimensions that broadcast together, got Q (2, 3, 2) and K (4, 3, 2)",
    ),
    (
        "sdpa-batch-V",
        lambda m: m.scaled_dot_product_attention(ones(2, 3, 2), ones(2, 3, 2), ones(4, 3, 2)),
        "Q, K and V must have batch dimensions that broadcast together, got Q (2, 3, 2), K (2, 3, 2) and V (4, 3, 2)",
    ),
    (
        "mix-batch",
        lambda m: m.mix(ones(2, 3, 3), ones(4, 3, 2)),
        "A and V must have batch dimensions that broadcast together, got A (2, 3, 3) and V (4, 3, 2)",
    ),
    (
        "additive-batch",
        lambda m: m.additive_attention(ones(2, 2), ones(3, 3, 2), np.eye(2), np.eye(2), ones(2)),
        "s and H must have batch dimensions that broadcast together, got s (2, 2) and H (3, 3, 2)",
    ),
    (
        "dot-attention-batch",
        lambda m: find(m, "dot_attention")(ones(2, 2), ones(3, 3, 2)),
        "s and H must have batch dimensions that broadcast together, got s (2, 2) and H (3, 3, 2)",
    ),
    (
        "mask-batch",
        lambda m: m.scaled_dot_product_attention(
            ones(2, 3, 2), ones(2, 3, 2), ones(2, 3, 2), mask=np.ones((4, 3, 3), bool)
        ),
        "mask has shape (4, 3, 3), which does not fit the scores' shape (2, 3, 3)",
    ),
    # masks that are not arrays
    (
        "additive-mask-true",
        lambda m: m.additive_attention(ones(2), ones(3, 2), np.eye(2), np.eye(2), ones(2), mask=True),
        "mask has shape (), which does not fit the scores' shape (3,)",
    ),
    (
        "sdpa-mask-true",
        lambda m: m.scaled_dot_product_attention(ones(2, 2), ones(2, 2), ones(2, 2), mask=True),
        "mask has shape (), which does not fit the scores' shape (2, 2)",
    ),
    (
        "mha-mask-text",
        lambda m: m.multi_head_attention(ones(3, 4), W4, W4, W4, W4, 2, mask="causal"),
        "mask must be boolean (True = may attend), got dtype <U6",
    ),
    (
        "mask-tensor-int",
        lambda m: m.scaled_dot_product_attention(ones(2, 2), ones(2, 2), ones(2, 2), mask=torch.ones(2, 2, dtype=int)),
        "mask must be boolean (True = may attend), got dtype int64",
    ),
    (
        "padding-ragged",
        lambda m: m.padding_mask([[1], [1, 2]], 3),
        "lengths must be a non-empty list of integers, got [[1], [1, 2]]",
    ),
]


@pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])
@pytest.mark.parametrize(("call", "message"), [pytest.param(c, msg, id=i) for i, c, msg in EXACT])
def test_bad_input_exact_message(mod, call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning or ComplexWarning on the way
        with pytest.raises(ValueError) as info:
            call(mod)
    assert str(info.value) == message


def test_ragged_mask_names_the_mask_in_both_packages():
    messages = []
    for mod in (ref, tref):
        with pytest.raises(ValueError) as info:
            mod.scaled_dot_product_attention(ones(2, 2), ones(2, 2), ones(2, 2), mask=[[True], [True, False]])
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("mask must be an array of booleans (True = may attend): ")


def test_the_inputs_just_below_overflow_still_work():
    # the checks refuse what could overflow, in either package: a bound on what a function computes
    # (|Q| |K|, the largest value a weighted sum mixes), with room for its rounding, 2^-16 of the
    # largest number; inputs whose results come nearer than that to it pass
    for mod in (ref, tref):
        S = mod.scores(full((1, 2), 9e153), full((1, 2), 9e153))
        assert float(S[0, 0]) == pytest.approx(1.62e308)
        out, w = mod.scaled_dot_product_attention(ones(2, 2), ones(2, 2), full((2, 2), MAX * 0.9999))
        assert float(out[0, 0]) == MAX * 0.9999 and float(w[0, 0]) == 0.5
        with pytest.raises(ValueError, match=r"^V \(2, 2\) is too large: the outputs \(the weights times V\) overflow"):
            mod.scaled_dot_product_attention(ones(2, 2), ones(2, 2), full((2, 2), MAX))  # 0.5 MAX + 0.5 MAX: too near
        assert float(mod.rnn_encoder(full((1, 1), 1e300), np.eye(1), np.eye(1))[0, 0]) == 1.0


# --- tensors that require grad --------------------------------------------------------------

GRAD_MESSAGE = (
    "{name} is a torch tensor that requires grad, which the NumPy functions cannot follow: "
    "pass {name}.detach(), or use selfattn_ref.torch to keep the gradient"
)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda X: ref.scores(X, ones(3, 2)), "Q"),
        (lambda X: ref.self_attention(X), "X"),
        (lambda X: ref.softmax(X), "S"),
        (lambda X: ref.project(ones(3, 2), np.eye(2), np.eye(2), X[:2]), "W_V"),
        (lambda X: ref.scaled_dot_product_attention(ones(3, 2), ones(3, 2), X), "V"),
        (lambda X: ref.multi_head_attention(X[:, :1], np.eye(1), np.eye(1), np.eye(1), np.eye(1), 1), "X"),
        (lambda X: ref.rnn_encoder(X, np.eye(2), np.eye(2)), "X"),
        (lambda X: ref.additive_attention(ones(2), X, np.eye(2), np.eye(2), ones(2)), "H"),
    ],
    ids=["scores", "self_attention", "softmax", "project", "sdpa", "mha", "rnn_encoder", "additive"],
)
def test_numpy_side_refuses_a_tensor_that_requires_grad(call, name):
    # Decision: refuse rather than detach. The NumPy functions cannot carry a gradient, and a
    # silent detach would hand back numbers that look right while the backward pass is lost.
    X = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
    with pytest.raises(ValueError) as info:
        call(X)
    assert str(info.value) == GRAD_MESSAGE.format(name=name)
    # what the message says to do works: the detached tensor, or the PyTorch twin with its gradient
    call(X.detach())
    out = tref.self_attention(X)
    out.sum().backward()
    assert X.grad is not None and X.grad.shape == (3, 2)


# --- the worked examples: names and numbers --------------------------------------------------


def test_examples_load_refuses_names_that_cannot_be_slugs_before_touching_the_filesystem():
    from selfattn_ref import examples

    for name in ("a" * 300, "../bank_of_river", "bank\x00", "Bank_Of_River", ""):
        with pytest.raises(ValueError, match=r"^unknown example .*; available: .*bank_of_river"):
            examples.load(name)
        with pytest.raises(ValueError, match=r"^unknown RNN example .*; available: the_cat_sat$"):
            examples.load_rnn(name)


def test_examples_run_names_the_example_when_its_numbers_overflow():
    from dataclasses import replace

    from selfattn_ref import examples

    ex = examples.load("bank_of_river")
    with pytest.raises(ValueError) as info:
        examples.run(replace(ex, E=ex.E * 1e200))
    assert str(info.value) == (
        "example 'bank_of_river': Q (3, 4) and K (3, 4) are too large: the scores Q K^T overflow in float64"
    )
    learned = examples.load("learned")
    with pytest.raises(ValueError) as info:
        examples.run(replace(learned, W_K=learned.W_K * 1e308))
    assert str(info.value) == (
        "example 'learned': X (3, 4) and W_K (4, 4) are too large: the product X W_K overflows in float64"
    )
