"""Whole classes of bad or extreme input, in every public function of both packages.

Every public function of the math is listed once below (CALLS) with arguments that work and
the kind of each argument (an array, a mask, a count, a scale, an axis, lengths, widths). A test
replaces one argument at a time by a value of a bad kind and requires: a ValueError whose
message names that argument, short (no 400-digit echo), the same from NumPy and PyTorch, and no
warning on the way (warnings are errors here). So a kind of bad input that one function refuses
clearly, every function refuses clearly, in both packages; a new public function without an
entry here fails :func:`test_every_public_function_is_listed`.

The kinds (issue 27, items 9 to 12): torch tensors that are not dense numbers on the CPU
(sparse, nested, quantized, meta, MKL-DNN, masked), None and other objects inside a list,
numbers too large for float64 (Python integers, Decimal, Fraction, longdouble), masked arrays,
axes that are not integers, integers too large to allocate for, and extreme finite numbers.
"""

from __future__ import annotations

import importlib
import inspect
import re
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import torch
import torch.masked
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref._validate import MAX_ENTRIES

PACKAGES = pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
FAST = settings(max_examples=60, deadline=None)


def ones(*shape):
    return np.ones(shape)


def find(pkg, name):
    """The function ``name`` of the NumPy or PyTorch package, in whichever module has it."""
    for module in ("", ".attention", ".rnn", ".topics.scaling", ".rotary", ".kv_cache", ".language_model"):
        mod = importlib.import_module(pkg.__name__ + module)
        if hasattr(mod, name):
            return getattr(mod, name)
    raise AssertionError(f"{pkg.__name__} has no function {name}")


E2, E4 = np.eye(2), np.eye(4)
M34, M33 = np.ones((3, 4), bool), np.ones((3, 3), bool)
ADDITIVE = {k: (v, "array") for k, v in {"s": ones(2), "H": ones(3, 2), "W_s": E2, "W_h": E2, "v": ones(2)}.items()}
# function name -> {argument: (a value that works, its kind)}; optional arguments that are None
# by default are given a value, so that a bad one can take its place
CALLS = {
    "scores": {"Q": (ones(3, 2), "array"), "K": (ones(4, 2), "array")},
    "softmax": {"S": (ones(2, 3), "array"), "axis": (-1, "axis")},
    "softmax_terms": {"S": (ones(2, 3), "array"), "mask": (np.ones((2, 3), bool), "mask")},
    "mix": {"A": (ones(2, 3) / 3, "array"), "V": (ones(3, 2), "array")},
    "self_attention": {"X": (ones(3, 2), "array")},
    "project": {"X": (ones(3, 2), "array"), "W_Q": (E2, "array"), "W_K": (E2, "array"), "W_V": (E2, "array")},
    "scaled_dot_product_attention": {
        "Q": (ones(3, 2), "array"),
        "K": (ones(4, 2), "array"),
        "V": (ones(4, 2), "array"),
        "mask": (M34, "mask"),
        "scale": (0.5, "scale"),
    },
    "multi_head_attention": {
        "X": (ones(3, 4), "array"),
        **{w: (E4, "array") for w in ("W_Q", "W_K", "W_V", "W_O")},
        "num_heads": (2, "count"),
        "mask": (M33, "mask"),
    },
    "rnn_encoder": {
        "X": (ones(3, 2), "array"),
        "W_xh": (ones(2, 4), "array"),
        "W_hh": (E4, "array"),
        "b": (ones(4), "array"),
        "h0": (ones(4), "array"),
    },
    "additive_attention": {**ADDITIVE, "mask": (np.ones(3, bool), "mask")},
    "additive_scores": ADDITIVE,
    "dot_attention": {"s": (ones(2), "array"), "H": (ones(3, 2), "array")},
    "dot_scores": {"s": (ones(2), "array"), "H": (ones(3, 2), "array")},
    "causal_mask": {"n": (3, "count")},
    "padding_mask": {"lengths": ([1, 3], "lengths"), "n": (3, "count")},
    "sinusoidal_positional_encoding": {"n": (4, "count"), "d": (4, "count")},
    "dot_products": {"q": (ones(3, 2), "array"), "k": (ones(3, 2), "array")},
    "dot_product_variance": {"q": (np.arange(6.0).reshape(3, 2), "array"), "k": (ones(3, 2), "array")},
    "largest_weights": {"q": (ones(2, 2), "array"), "K": (ones(2, 3, 2), "array"), "scale": (1.0, "scale")},
    "variance_experiment": {"dims": ((2,), "dims"), "samples": (3, "count"), "seed": (0, "count")},
    "layer_norm": {"X": (ones(3, 4), "array"), "gamma": (ones(4), "array"), "beta": (np.zeros(4), "array")},
    "feed_forward": {
        "X": (ones(3, 4), "array"),
        "W_1": (ones(4, 8), "array"),
        "b_1": (ones(8), "array"),
        "W_2": (ones(8, 4), "array"),
        "b_2": (ones(4), "array"),
    },
    "transformer_block": {
        "X": (ones(3, 4), "array"),
        **{w: (E4, "array") for w in ("W_Q", "W_K", "W_V", "W_O")},
        "num_heads": (2, "count"),
        "W_1": (ones(4, 8), "array"),
        "b_1": (ones(8), "array"),
        "W_2": (ones(8, 4), "array"),
        "b_2": (ones(4), "array"),
        **{g: (ones(4), "array") for g in ("gamma_1", "gamma_2")},
        **{b: (np.zeros(4), "array") for b in ("beta_1", "beta_2")},
        "mask": (M33, "mask"),
    },
    "largest_weight_experiment": {
        "dims": ((2,), "dims"),
        "n": (3, "count"),
        "trials": (2, "count"),
        "seed": (0, "count"),
    },
    # attention at scale (issue 54)
    "sliding_window_mask": {"n": (3, "count"), "window": (2, "count")},
    "split_heads": {"M": (ones(3, 4), "array"), "num_heads": (2, "count")},
    "join_heads": {"M": (ones(2, 3, 2), "array")},
    "causal_self_attention": {
        "X": (ones(2, 3, 4), "array"),
        **{w: (E4, "array") for w in ("W_Q", "W_K", "W_V", "W_O")},
        "num_heads": (2, "count"),
        "lengths": ([3, 2], "lengths"),
    },
    "kv_cache_steps": {
        "X": (ones(3, 4), "array"),
        **{w: (E4, "array") for w in ("W_Q", "W_K", "W_V", "W_O")},
        "num_heads": (2, "count"),
        "rope_base": (10000.0, "scale"),
    },
    "kv_cache_shape": {
        "num_blocks": (2, "count"),
        "num_kv_heads": (2, "count"),
        "n_ctx": (8, "count"),
        "d_head": (4, "count"),
    },
    "kv_cache_bytes": {
        "num_blocks": (2, "count"),
        "num_kv_heads": (2, "count"),
        "n_ctx": (8, "count"),
        "d_head": (4, "count"),
        "bytes_per_number": (2, "count"),
    },
    "online_softmax_attention": {
        "Q": (ones(3, 2), "array"),
        "K": (ones(4, 2), "array"),
        "V": (ones(4, 2), "array"),
        "tile": (2, "count"),
        "scale": (0.5, "scale"),
    },
    "repeat_kv": {"K": (ones(1, 3, 2), "array"), "groups": (2, "count")},
    "grouped_query_attention": {
        "X": (ones(3, 4), "array"),
        "W_Q": (E4, "array"),
        "W_K": (ones(4, 2), "array"),
        "W_V": (ones(4, 2), "array"),
        "W_O": (E4, "array"),
        "num_heads": (2, "count"),
        "num_kv_heads": (1, "count"),
        "mask": (M33, "mask"),
    },
    "rotary_angles": {"positions": ([0, 1, 2], "positions"), "d": (4, "count"), "base": (10000.0, "scale")},
    "rotary_embedding": {
        "X": (ones(3, 4), "array"),
        "positions": ([0, 1, 2], "positions"),
        "base": (10000.0, "scale"),
        "pairing": ("halves", "choice"),
    },
    "pairing_permutation": {"d": (4, "count")},
    "cross_attention": {
        "X": (ones(3, 4), "array"),
        "memory": (ones(2, 4), "array"),
        **{w: (E4, "array") for w in ("W_Q", "W_K", "W_V", "W_O")},
        "num_heads": (2, "count"),
        "mask": (np.ones((3, 2), bool), "mask"),
    },
    # the language model's functions that take arrays (its others take text: tests/package/test_language_model.py)
    "next_word_probabilities": {
        "logits": (ones(2, 42), "array"),
        "temperature": (0.5, "scale"),
        "top_k": (3, "count"),
    },
    "greedy": {"probabilities": (np.full(42, 1 / 42), "array")},
    "sample": {"probabilities": (np.full(42, 1 / 42), "array"), "u": (0.5, "scale")},
    "ranked": {"probabilities": (np.full(42, 1 / 42), "array"), "k": (5, "count")},
}
NOT_LISTED = {"compare": "selfattn_ref.topics.rnn_comparison.compare counts with integers, and has no twin"}
# The modules of attention at scale (issue 54): every public function of theirs has a case above.
AT_SCALE = ("batched", "kv_cache", "online_softmax", "grouped_query", "rotary", "cross_attention")


def _tensors():
    """Tensors that are not dense numbers on the CPU, made once (torch warns as it makes some)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = torch.eye(2, dtype=torch.float64)
        return {
            "sparse COO tensor": dense.to_sparse(),
            "sparse CSR tensor": dense.to_sparse_csr(),
            "meta tensor": torch.empty(2, 2, device="meta"),
            "quantized tensor": torch.quantize_per_tensor(dense.float(), 0.1, 0, torch.qint8),
            "nested tensor": torch.nested.nested_tensor([torch.ones(1), torch.ones(2)]),
            "MKL-DNN tensor": dense.float().to_mkldnn(),
            "masked tensor": torch.masked.masked_tensor(dense, torch.eye(2, dtype=torch.bool)),
        }


TENSORS = _tensors()
BOOL_TENSORS = {
    "sparse bool tensor": torch.eye(3, dtype=torch.bool).to_sparse(),
    "meta bool tensor": torch.empty(3, 3, dtype=torch.bool, device="meta"),
}

BAD = {
    "array": {
        "None": None,
        "text": "abc",
        "bytes": b"ab",
        "a dict": {"a": 1.0},
        "a set": {1.0, 2.0},
        "an object": object(),
        "None inside": [[1.0, None], [0.0, 1.0]],
        "text inside": [[1.0, "a"], [0.0, 1.0]],
        "a dict inside": [[1.0, {}], [0.0, 1.0]],
        "a huge integer": [[10**400, 1.0], [0.0, 1.0]],
        "a huge Decimal": [[Decimal("1e400"), 1.0], [0.0, 1.0]],
        "a huge Fraction": [[Fraction(10**400), 1.0], [0.0, 1.0]],
        "a huge longdouble": np.array([[np.longdouble("1e4000"), 1.0], [0.0, 1.0]], dtype=np.longdouble),
        "NaN": [[float("nan"), 1.0], [0.0, 1.0]],
        "infinity": [[float("inf"), 1.0], [0.0, 1.0]],
        "complex": [[1j, 1.0], [0.0, 1.0]],
        "ragged": [[1.0], [1.0, 2.0]],
        "dates": np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]"),
        "a masked array": np.ma.masked_array(ones(2, 2), mask=[[False, True], [False, False]]),
        "a complex tensor": torch.ones(2, 2, dtype=torch.complex64),
        **TENSORS,
    },
    "mask": {
        "text": "causal",
        "a dict": {"a": True},
        "None inside": [[True, None]],
        "floats": [[1.0, 0.0]],
        "integers": np.ones((3, 3), dtype=np.int64),
        "uint8 tensor": torch.ones(3, 3, dtype=torch.uint8),
        "float tensor that requires grad": torch.ones(3, 3, requires_grad=True),
        "ragged": [[True], [True, False]],
        "a masked array": np.ma.masked_array(np.ones((3, 3), bool), mask=np.eye(3, dtype=bool)),
        **BOOL_TENSORS,
        **{k: v for k, v in TENSORS.items() if k != "masked tensor"},
    },
    "count": {
        "None": None,
        "a float": 1.5,
        "a whole float": 3.0,
        "a NumPy float": np.float64(3.0),
        "text": "3",
        "True": True,
        "NumPy True": np.True_,
        "zero": 0,
        "negative": -1,
        "a huge negative integer": -(10**400),
        "a list": [3],
        "complex": 3j,
    },
    "scale": {
        "text": "0.5",
        "True": True,
        "NaN": float("nan"),
        "infinity": float("inf"),
        "a huge integer": 10**400,
        "a huge negative integer": -(10**400),
        "a huge longdouble": np.longdouble("1e4000"),
        "complex": 1j,
        "a list": [0.5],
    },
    "axis": {
        "a float": 1.5,
        "a whole float": 1.0,
        "a NumPy float": np.float64(1.0),
        "True": True,
        "NumPy True": np.True_,
        "text": "1",
        "None": None,
        "a tuple": (0, 1),
        "a list": [0],
        "complex": 1j,
        "out of range": 5,
        "a huge integer": 2**70,
        "a huge negative integer": -(2**70),
    },
    "lengths": {
        "None": None,
        "text": "abc",
        "floats": [1.5],
        "whole floats": np.array([1.0, 2.0]),
        "empty": [],
        "two dimensions": [[1, 2]],
        "bools": [True],
        "None inside": [None],
        "zero": [0, 2],
        "too long": [4],
        "a huge integer": [2**70],
        "a huge negative integer": [-(2**70)],
        "uint64's largest": np.array([2**64 - 1], dtype=np.uint64),
        "a huge tensor": torch.tensor([2**62]),
        "a float tensor": torch.tensor([1.0]),
        "ragged": [[1], [1, 2]],
        "a masked array": np.ma.masked_array([1, 2], mask=[False, True]),
        "sparse tensor": torch.tensor([1, 2]).to_sparse(),
        "meta tensor": torch.empty(2, dtype=torch.int64, device="meta"),
    },
    "positions": {
        "None": None,
        "text": "abc",
        "empty": [],
        "floats": [0.5, 1.0, 2.0],
        "whole floats": np.array([0.0, 1.0, 2.0]),
        "bools": [True, False, True],
        "None inside": [0, None, 2],
        "negative": [0, -1, 2],
        "a huge integer": [0, 1, 2**70],
        "a huge negative integer": [-(2**70), 0, 1],
        "ragged": [[0], [1, 2]],
        "two dimensions": [[0, 1, 2]],
        "a masked array": np.ma.masked_array([0, 1, 2], mask=[False, True, False]),
        "a float tensor": torch.tensor([0.0, 1.0, 2.0]),
        "sparse tensor": torch.tensor([0, 1, 2]).to_sparse(),
        "meta tensor": torch.empty(3, dtype=torch.int64, device="meta"),
    },
    "choice": {
        "None": None,
        "a number": 1,
        "True": True,
        "another word": "rotate_half",
        "capitalised": "Halves",
        "empty": "",
        "bytes": b"halves",
        "a list": ["halves"],
    },
    "dims": {
        "None": None,
        "text": "ab",
        "empty": (),
        "zero": (0,),
        "a float": (1.5,),
        "True": (True,),
        "a huge integer": (10**30,),
    },
}
# None is a value they take (an argument's name, or (function, argument) where None means "all" there only)
OPTIONAL = {"b", "h0", "top_k", ("causal_self_attention", "lengths"), ("rotary_embedding", "positions")}


def _with(name: str, arg: str, value) -> dict:
    return {k: (value if k == arg else v) for k, (v, _) in CALLS[name].items()}


def _message(pkg, name: str, kwargs: dict) -> str:
    """The ValueError of ``pkg``'s function ``name`` on ``kwargs``, with warnings as errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            find(pkg, name)(**kwargs)
        except ValueError as exc:
            return str(exc)
    raise AssertionError(f"{pkg.__name__}.{name} accepted it")


def _names_arg(message: str, arg: str) -> bool:
    return re.search(rf"(^|[^\w]){re.escape(arg)}([^\w]|$)", message) is not None


ARGS = [
    pytest.param(name, arg, id=f"{name}-{arg}")
    for name, args in CALLS.items()
    for arg in args
    if arg != "seed"  # any integer from 0 is a seed
]


def _problem(name: str, arg: str, bad: str) -> str | None:
    """What is wrong with the two packages' answers to ``name`` with ``arg`` of the bad kind ``bad``."""
    kwargs = _with(name, arg, BAD[CALLS[name][arg][1]][bad])
    messages = []
    for pkg in (ref, tref):
        try:
            messages.append(_message(pkg, name, kwargs))
        except Exception as exc:  # noqa: BLE001 - any other exception, a warning among them, is the failure
            return f"{pkg.__name__}: {type(exc).__name__}: {str(exc)[:300]}"
    numpy, torch_ = messages
    if numpy != torch_:
        return f"NumPy and PyTorch word it differently:\n  {numpy}\n  {torch_}"
    if not _names_arg(numpy, arg):
        return f"the message does not name {arg}: {numpy}"
    if len(numpy) >= 320:
        return f"a long message: {numpy}"
    if "torch." in numpy:
        return f"a dtype or layout named as torch prints it: {numpy}"
    return None


@pytest.mark.parametrize(("name", "arg"), ARGS)
def test_a_bad_argument_is_one_clear_value_error_the_same_in_both_packages(name, arg):
    kinds = [b for b in BAD[CALLS[name][arg][1]] if not ((arg in OPTIONAL or (name, arg) in OPTIONAL) and b == "None")]
    problems = {bad: p for bad in kinds if (p := _problem(name, arg, bad))}
    assert not problems, "\n".join(f"{arg} = {bad}: {p}" for bad, p in problems.items())


def test_the_cases_work_with_their_good_arguments():
    # each case above fails for its bad argument only: with the good ones, every call works
    for name in CALLS:
        for pkg in (ref, tref):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                find(pkg, name)(**{k: v for k, (v, _) in CALLS[name].items()})


def test_every_public_function_is_listed():
    public = {n for n in ref.__all__} | {"softmax_terms", "additive_scores", "dot_scores"}
    scaling = importlib.import_module("selfattn_ref.topics.scaling")
    public |= {n for n, f in vars(scaling).items() if callable(f) and getattr(f, "__module__", "") == scaling.__name__}
    for name in AT_SCALE:
        module = importlib.import_module(f"selfattn_ref.{name}")
        public |= {n for n in module.__all__ if inspect.isfunction(getattr(module, n))}
    language_model = importlib.import_module("selfattn_ref.language_model")
    functions = [getattr(language_model, n) for n in language_model.__all__]
    public |= {  # those that take arrays
        f.__name__
        for f in functions
        if inspect.isfunction(f) and {"logits", "probabilities"} & set(inspect.signature(f).parameters)
    }
    public = {n for n in public if not n.startswith("_")}
    assert {"rotary_angles", "kv_cache_bytes", "causal_self_attention"} <= public
    assert {"next_word_probabilities", "greedy", "sample", "ranked"} <= public
    assert public - set(CALLS) - set(NOT_LISTED) == set()


# --- the messages the issue names ----------------------------------------------------------

EXACT = [
    # item 9: tensors that are not dense numbers on the CPU, refused before torch computes
    (
        "sparse",
        lambda m: m.scores(TENSORS["sparse COO tensor"], E2),
        "Q is a torch tensor of layout sparse_coo, not a dense (strided) one: pass Q.to_dense()",
    ),
    (
        "meta",
        lambda m: m.mix(E2, TENSORS["meta tensor"]),
        "V is a torch tensor on the meta device, which holds shapes but no numbers",
    ),
    (
        "quantized",
        lambda m: m.self_attention(TENSORS["quantized tensor"]),
        "X is a quantized torch tensor (dtype qint8): pass X.dequantize()",
    ),
    (
        "nested",
        lambda m: m.softmax(TENSORS["nested tensor"]),
        "S is a nested torch tensor (rows of different lengths): pass one tensor of rows of equal length",
    ),
    # item 10: the axis
    ("axis-float", lambda m: m.softmax(E2, axis=1.5), "axis must be an integer (one axis of S), got 1.5"),
    ("axis-bool", lambda m: m.softmax(E2, axis=True), "axis must be an integer (one axis of S), got True"),
    ("axis-text", lambda m: m.softmax(E2, axis="1"), "axis must be an integer (one axis of S), got '1'"),
    ("axis-None", lambda m: m.softmax(E2, axis=None), "axis must be an integer (one axis of S), got None"),
    ("axis-tuple", lambda m: m.softmax(E2, axis=(0, 1)), "axis must be an integer (one axis of S), got (0, 1)"),
    (
        "axis-huge",
        lambda m: m.softmax(E2, axis=2**70),
        "axis (an integer of 22 digits) is out of range for S of shape (2, 2)",
    ),
    (
        "axis-of-empty-S",
        lambda m: m.softmax([], axis="x"),
        "axis must be an integer (one axis of S), got 'x'",
    ),
    # item 11: softmax_terms' mask, checked as every mask is; dtypes named alike
    (
        "terms-mask-ragged",
        lambda m: m.attention.softmax_terms(ones(2, 2), mask=[[True], [True, False]]),
        "mask must be an array of booleans (True = the score counts): setting an array element with a sequence. "
        "The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + "
        "inhomogeneous part.",
    ),
    (
        "terms-mask-grad",
        lambda m: m.attention.softmax_terms(ones(1, 2), mask=torch.ones(1, 2, requires_grad=True)),
        "mask must be boolean (True = the score counts), got dtype float32",
    ),
    (
        "terms-mask-uint8",
        lambda m: m.attention.softmax_terms(ones(1, 2), mask=torch.ones(1, 2, dtype=torch.uint8)),
        "mask must be boolean (True = the score counts), got dtype uint8",
    ),
    (
        "sdpa-mask-uint8",
        lambda m: m.scaled_dot_product_attention(E2, E2, E2, mask=torch.ones(2, 2, dtype=torch.uint8)),
        "mask must be boolean (True = may attend), got dtype uint8",
    ),
    (
        "terms-row-total-overflows",  # each e^score is finite, their sum is not
        lambda m: m.attention.softmax_terms([[1.0, 2.0], [709.5, 709.5]]),
        "S has a row (1,) whose total of e^score overflows, shape (2, 2); use softmax",
    ),
    # item 12: messages that say what is wrong
    ("None-inside", lambda m: m.scores([[1.0, None], [0.0, 1.0]], E2), "Q[0][1] is None, which is not a number"),
    ("None", lambda m: m.self_attention(None), "X is None, which is not a number"),
    (
        "text-inside",
        lambda m: m.scores([[1.0, "a"]], E2),
        "Q must be an array of numbers (rows of equal length), got dtype <U32",
    ),
    ("object-inside", lambda m: m.scores([[1.0, {}]], E2), "Q[0][1] is a dict, which is not a number"),
    (
        "longdouble",
        lambda m: m.scores(np.array([[1.0, 0.0], [0.0, np.longdouble("1e4000")]], dtype=np.longdouble), E2),
        "Q[1][1] is too large for float64, whose numbers go up to about 1.8e308 (got 1.000e+4000)",
    ),
    (
        "Decimal",
        lambda m: m.mix([[Decimal("1e400"), 0]], E2),
        "A[0][0] is too large for float64, whose numbers go up to about 1.8e308 (got 1E+400)",
    ),
    (
        "Fraction",
        lambda m: m.project(ones(1, 2), E2, E2, [[1, Fraction(10**400, 3)], [0, 1]]),
        "W_V[0][1] is too large for float64, whose numbers go up to about 1.8e308 (got a number above 1.8e308)",
    ),
    (
        "scale-longdouble",
        lambda m: m.scaled_dot_product_attention(E2, E2, E2, scale=np.longdouble("1e4000")),
        "scale must be a finite number or None, got 1.000e+4000, which is too large for float64",
    ),
    (
        "padding-huge",
        lambda m: m.padding_mask([2**70], 3),
        "lengths must lie between 1 and n=3, got [an integer of 22 digits]",
    ),
    (
        "padding-uint64",
        lambda m: m.padding_mask(np.array([1, 2**64 - 1], dtype=np.uint64), 3),
        "lengths must lie between 1 and n=3, got [1, an integer of 20 digits]",
    ),
    (
        "padding-many",
        lambda m: m.padding_mask(list(range(20)), 3),
        "lengths must lie between 1 and n=3, got [0, 1, 2, 3, 4, 5, 6, 7, ... (20 lengths)]",
    ),
    (
        "causal-huge",
        lambda m: m.causal_mask(10**12),
        f"with n = 1000000000000, the mask (n, n) would hold about 10^24 entries; at most {MAX_ENTRIES:,}",
    ),
    (
        "causal-just-too-large",
        lambda m: m.causal_mask(10**4 + 1),
        f"with n = 10001, the mask (n, n) would hold 100,020,001 entries; at most {MAX_ENTRIES:,}",
    ),
    (
        "padding-n-huge",
        lambda m: m.padding_mask([1, 2], 10**30),
        f"with 2 lengths and n = an integer of 31 digits, the mask (batch, 1, n) would hold about 10^30 entries; "
        f"at most {MAX_ENTRIES:,}",
    ),
    (
        "positional-huge",
        lambda m: m.sinusoidal_positional_encoding(10**6, 10**6),
        f"with n = 1000000 and d = 1000000, the encoding (n, d) would hold 1,000,000,000,000 entries; "
        f"at most {MAX_ENTRIES:,}",
    ),
    (
        "scores-huge",
        lambda m: m.scores(ones(10**5, 1), ones(10**5, 1)),
        "Q (100000, 1) and K (100000, 1) are too large: the scores Q K^T would hold 10,000,000,000 entries; "
        f"at most {MAX_ENTRIES:,}",
    ),
    (
        "mha-huge",
        lambda m: m.multi_head_attention(ones(10**4, 2), E2, E2, E2, E2, 2),
        f"X (10000, 2) is too large: the heads' scores (..., num_heads, n, n) would hold 200,000,000 entries; "
        f"at most {MAX_ENTRIES:,}",
    ),
    (
        "masked-array",
        lambda m: m.scores(np.ma.masked_array(E2, mask=E2.astype(bool)), E2),
        "Q is a masked array, whose mask the functions would ignore: pass Q.filled(value) with the numbers you "
        "mean (and, for attention, a boolean mask argument for the keys to leave out)",
    ),
]


@PACKAGES
@pytest.mark.parametrize(("call", "message"), [pytest.param(c, msg, id=i) for i, c, msg in EXACT])
def test_the_issues_inputs_get_their_messages(pkg, call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as info:
            call(pkg)
    assert str(info.value) == message


# --- converted, not refused: float types NumPy lacks ---------------------------------------


@PACKAGES
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float8_e4m3fn], ids=str)
def test_torch_float_types_that_numpy_lacks_are_converted_exactly(pkg, dtype):
    # Decision: convert. Every bfloat16, float16 and float8 value is a float32 value exactly, so
    # nothing is lost, and the result is what the same numbers in float64 give.
    X = torch.tensor([[1.0, 0.5], [-2.0, 0.25]]).to(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pkg.self_attention(X)
    want = ref.self_attention(X.to(torch.float64).numpy())
    np.testing.assert_array_equal(np.asarray(got), want)


# --- extreme finite numbers: a result or one ValueError, never a warning ---------------------

extreme = st.floats(allow_nan=False, allow_infinity=False, width=64)
tiny_or_huge = st.one_of(
    extreme, st.sampled_from([1e308, -1e308, 1.7976931348623157e308, 5e-324, -5e-324, 0.0, -0.0, 1e154, 1e-308])
)


tiny_or_huge32 = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from([3.4028234663852886e38, -3.4028234663852886e38, 1e-45, 1e19, -1e19]),
)


def matrices():
    """(1..4, 1..4) arrays of any finite numbers, float64 or float32 (which stays float32), the
    extremes often."""
    return st.tuples(st.integers(1, 4), st.integers(1, 4), st.booleans()).flatmap(
        lambda s: (
            hnp.arrays(np.float32, s[:2], elements=tiny_or_huge32)
            if s[2]
            else hnp.arrays(np.float64, s[:2], elements=tiny_or_huge)
        )
    )


@PACKAGES
@FAST
@given(S=matrices(), axis=st.sampled_from([0, 1, -1, -2]))
def test_softmax_of_any_finite_scores_sums_to_one_without_a_warning(pkg, S, axis):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        W = np.asarray(pkg.softmax(S, axis=axis))
    assert np.isfinite(W).all() and (W >= 0).all()
    # to a few units in the last place of W's type (float32 stays float32): one rounding per term
    np.testing.assert_allclose(W.sum(axis=axis), 1.0, rtol=0, atol=2 * S.shape[axis] * np.finfo(W.dtype).eps)


def test_softmax_of_the_extremes_is_exact():
    for pkg in (ref, tref):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.asarray(pkg.softmax([1e308, -1e308])).tolist() == [1.0, 0.0]
            assert np.asarray(pkg.softmax(np.array([3e38, -3e38], dtype=np.float32))).tolist() == [1.0, 0.0]


@PACKAGES
@FAST
@given(
    A=matrices(),
    B=matrices(),
    name=st.sampled_from(sorted(n for n, a in CALLS.items() if len(a) <= 3 and "array" in {k for _, k in a.values()})),
)
def test_any_finite_numbers_give_a_result_or_one_value_error(pkg, A, B, name):
    """Arrays of any finite float64 numbers, in place of the arrays of the functions with one to
    three arguments: the result is finite, or a ValueError says why; never a warning, never
    another exception."""
    kwargs = {k: v for k, (v, _) in CALLS[name].items()}
    arrays = [k for k, (_, kind) in CALLS[name].items() if kind == "array"]
    for arg, M in zip(arrays, (A, B), strict=False):
        kwargs[arg] = M
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = find(pkg, name)(**kwargs)
        except ValueError:
            return
    for r in result if isinstance(result, tuple) else (result,):
        assert np.isfinite(np.asarray(r, dtype=np.float64)).all()


# Small sizes, and sizes whose array is over the limit however small the other size is: never
# an allocation of hundreds of megabytes in a test.
counts = st.one_of(st.integers(-(10**50), 48), st.integers(MAX_ENTRIES + 1, 10**50))


@PACKAGES
@FAST
@given(name=st.sampled_from(["causal_mask", "sinusoidal_positional_encoding"]), sizes=st.tuples(counts, counts))
def test_any_integer_sizes_give_an_array_or_a_short_message(pkg, name, sizes):
    sizes = sizes[: len(CALLS[name])]  # (n,) or (n, d)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = find(pkg, name)(*sizes)
        except ValueError as exc:
            message = str(exc)
            assert len(message) < 200 and re.match(r"^(n|d) must be a positive integer|^with n = ", message), message
            assert min(sizes) < 1 or sizes[0] * sizes[-1] > MAX_ENTRIES
            return
    assert tuple(result.shape) == (sizes[0], sizes[-1])


@PACKAGES
@FAST
@given(lengths=st.lists(st.integers(-(2**80), 2**80), min_size=1, max_size=12), n=st.integers(1, 40))
def test_any_lengths_give_a_mask_or_a_short_message(pkg, lengths, n):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            mask = pkg.padding_mask(lengths, n)
        except ValueError as exc:
            message = str(exc)
            assert message.startswith(f"lengths must lie between 1 and n={n}, got [") and len(message) < 320
            assert "-1]" not in message or -1 in lengths
            assert not all(1 <= k <= n for k in lengths)
            return
    assert np.asarray(mask).sum(axis=-1).ravel().tolist() == lengths


@FAST
@given(
    kind=st.sampled_from(
        [
            torch.int8,
            torch.uint8,
            torch.int16,
            torch.int32,
            torch.int64,
            torch.float16,
            torch.bfloat16,
            torch.float32,
            torch.float64,
            torch.uint16,
            torch.uint32,
            torch.uint64,
        ]
    ),  # fmt: skip
    where=st.sampled_from(["sdpa", "terms", "mha", "additive"]),
)
def test_masks_of_any_dtype_are_named_alike_in_both_packages(kind, where):
    mask = torch.ones(3, 3, dtype=kind)
    calls = {
        "sdpa": lambda m: m.scaled_dot_product_attention(ones(3, 2), ones(3, 2), ones(3, 2), mask=mask),
        "terms": lambda m: m.attention.softmax_terms(ones(3, 3), mask=mask),
        "mha": lambda m: m.multi_head_attention(ones(3, 2), E2, E2, E2, E2, 1, mask=mask),
        "additive": lambda m: m.additive_attention(ones(2), ones(3, 2), E2, E2, ones(2), mask=mask[0]),
    }
    messages = []
    for pkg in (ref, tref):
        with pytest.raises(ValueError) as info:
            calls[where](pkg)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert messages[0].endswith(f"got dtype {str(kind).removeprefix('torch.')}")
