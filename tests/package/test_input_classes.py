"""Whole classes of bad or extreme input, in every public function of both packages.

Every public function of the math that has a twin (found by introspection, tests/support/public_api.py)
is listed once below (CALLS) with arguments that work and the kind of each argument (an array, a
mask, a count, a scale, an axis, lengths, widths, a positive number, a function, labels, a token's
index, a flag, a seed). A test replaces one argument at a time by a value of a bad kind and
requires: a ValueError whose message names that argument, short (no 400-digit echo), the same
from NumPy and PyTorch, and no warning on the way (warnings are errors here). So a kind of bad
input that one function refuses clearly, every function refuses clearly, in both packages; a new
public function, or a new argument, without an entry here fails :func:`test_every_public_function_is_listed`.

The kinds (issue 27, items 9 to 12, and issue 51, item 7): torch tensors that are not dense
numbers on the CPU (sparse, nested, quantized, meta, fake, MKL-DNN, masked), None and other
objects inside a list, numbers too large for float64 (Python integers, Decimal, Fraction,
longdouble), masked arrays, axes that are not integers, integers too large to allocate for, and
extreme finite numbers. And tensors that torch stores otherwise but that hold numbers (a negative
view, a tensor made in inference mode, float32 beside float64): every function reads them as the
numbers they are.
"""

from __future__ import annotations

import functools
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
from torch._subclasses.fake_tensor import FakeTensorMode

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import corpus
from selfattn_ref._validate import MAX_ENTRIES
from selfattn_ref.kv_cache import GPT2_SMALL

from public_api import lone_functions, twin_functions

PACKAGES = pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
FAST = settings(max_examples=60, deadline=None)
TWINS = twin_functions()


def ones(*shape):
    return np.ones(shape)


def find(pkg, name):
    """The public function ``name`` of the NumPy or PyTorch package, in whichever module has it."""
    return TWINS[name][0 if pkg is ref else 1]


def total(W) -> float:
    """A function of W that returns a number, for finite_difference."""
    return float(W.sum())


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
        "seed": (0, "seed"),
    },
    "cross_entropy": {"logits": (np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0]]), "array"), "labels": ([0, 2], "labels")},
    "attention_loss": {
        "X": (np.arange(6.0).reshape(3, 2) / 6, "array"),
        "W_Q": (E2, "array"),
        "W_K": (E2, "array"),
        "query": (0, "index"),
        "key": (1, "index"),
    },
    "finite_difference": {"f": (total, "function"), "W": (ones(2, 2), "array"), "delta": (1e-3, "number")},
    "gradient_step": {"W": (ones(2, 2), "array"), "gradient": (ones(2, 2), "array"), "lr": (0.1, "number")},
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
        "rope_base": (10000.0, "number"),
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
    "rotary_angles": {"positions": ([0, 1, 2], "positions"), "d": (4, "count"), "base": (10000.0, "number")},
    "rotary_embedding": {
        "X": (ones(3, 4), "array"),
        "positions": ([0, 1, 2], "positions"),
        "base": (10000.0, "number"),
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
    # the language model's functions that take arrays or numbers (those that take text, sentences or the
    # model's weights alone are NOT_LISTED); its text and weights are "given": varied where the model is tested
    "next_word_probabilities": {
        "logits": (ones(2, 42), "array"),
        "temperature": (0.5, "number"),
        "top_k": (3, "count"),
    },
    "greedy": {"probabilities": (np.full(42, 1 / 42), "array")},
    "sample": {"probabilities": (np.full(42, 1 / 42), "array"), "u": (0.3, "scale")},  # (0.5 is a tie of the sums)
    "ranked": {"probabilities": (np.full(42, 1 / 42), "array"), "k": (5, "count")},
    "generate": {
        "text": ("the bank of the", "given"),
        "max_words": (1, "count"),
        "temperature": (0.5, "number"),
        "top_k": (3, "count"),
        "seed": (7, "seed"),
        "weights": (None, "given"),
    },
    "without_heads": {"weights": (None, "given"), "heads": ([(1, 2)], "heads")},
}
# Twins that take only text, corpus sentences or the language model's weights: tested with the model.
NOT_LISTED = {
    "forward": "text and the model's Weights: tests/package/test_language_model.py",
    "evaluate": "corpus Sentences and the model's Weights: tests/package/test_language_model.py",
    "record": "the model's Weights: tests/package/test_language_model_record.py",
    "from_record": "a record of the model's Weights: tests/package/test_language_model_record.py",
    "rounded": "the model's Weights: tests/package/test_language_model_record.py",
}
CALLS["attention_gradients"] = CALLS["attention_loss"]
CALLS["layer_norm"]["eps"] = (1e-5, "number")
CALLS["transformer_block"] |= {"eps": (1e-5, "number"), "norm_first": (True, "flag")}
CALLS["variance_experiment"]["seed"] = (0, "seed")


def _tensors():
    """Tensors that are not dense numbers on the CPU, made once (torch warns as it makes some)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = torch.eye(2, dtype=torch.float64)
        with FakeTensorMode():
            fake = torch.eye(2, dtype=torch.float64)
        return {
            "fake tensor": fake,
            "sparse COO tensor": dense.to_sparse(),
            "sparse CSR tensor": dense.to_sparse_csr(),
            "meta tensor": torch.empty(2, 2, device="meta"),
            "quantized tensor": torch.quantize_per_tensor(dense.float(), 0.1, 0, torch.qint8),
            "nested tensor": torch.nested.nested_tensor([torch.ones(1), torch.ones(2)]),
            "MKL-DNN tensor": dense.float().to_mkldnn(),
            "masked tensor": torch.masked.masked_tensor(dense, torch.eye(2, dtype=torch.bool)),
        }


TENSORS = _tensors()
with FakeTensorMode():
    _FAKE_MASK = torch.ones(3, 3, dtype=torch.bool)
BOOL_TENSORS = {
    "fake bool tensor": _FAKE_MASK,
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
    "number": {
        "None": None,
        "text": "0.1",
        "True": True,
        "zero": 0,
        "negative": -0.1,
        "NaN": float("nan"),
        "infinity": float("inf"),
        "a huge integer": 10**400,
        "a huge negative integer": -(10**400),
        "a huge longdouble": np.longdouble("1e4000"),
        "complex": 1j,
        "a list": [0.1],
        "an array": np.array([0.1]),
    },
    "function": {
        "None": None,
        "text": "loss",
        "a number": 1.0,
        "returns an array": lambda W: W,
        "returns text": lambda W: "a",
        "returns None": lambda W: None,
        "returns True": lambda W: True,
        "returns NaN": lambda W: float("nan"),
        "returns a huge integer": lambda W: 10**400,
        "raises": lambda W: 1 / 0,
        "takes no argument": lambda: 1.0,
    },
    "labels": {
        "None": None,
        "text": "ab",
        "floats": [0.5, 1.0],
        "whole floats": np.array([0.0, 1.0]),
        "bools": [True, False],
        "too few": [0],
        "negative": [0, -1],
        "too large": [0, 3],
        "a huge integer": [0, 10**400],
        "a huge negative integer": [-(10**400), 0],
        "None inside": [0, None],
        "ragged": [[0], [1, 2]],
        "a masked array": np.ma.masked_array([0, 1], mask=[False, True]),
        "a float tensor": torch.tensor([0.0, 1.0]),
        "a huge tensor": torch.tensor([0, 2**62]),
        "sparse tensor": torch.tensor([0, 1]).to_sparse(),
        "meta tensor": torch.empty(2, dtype=torch.int64, device="meta"),
    },
    "index": {
        "None": None,
        "a float": 0.5,
        "a whole float": 1.0,
        "a NumPy float": np.float64(1.0),
        "True": True,
        "text": "1",
        "negative": -1,
        "out of range": 3,
        "a huge integer": 10**400,
        "a list": [1],
        "a tensor": torch.tensor(1),
    },
    "flag": {"None": None, "one": 1, "zero": 0, "text": "True", "a float": 1.0, "a list": [True]},
    "seed": {"None": None, "a float": 1.5, "True": True, "text": "0", "negative": -1, "a list": [0], "complex": 1j},
    "given": {},  # an argument this test does not vary (text, the model's weights): see CALLS
    "heads": {
        "None": None,
        "text": "1 2",
        "one pair, not in a list": (1, 2),
        "a float": [(1, 2.0)],
        "zero": [(0, 1)],
        "too large": [(1, 3)],
        "one number": [(1,)],
        "True": [(True, 1)],
        "a huge integer": [(10**400, 1)],
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
# None is a value they take: these arguments, or these arguments of one function (function, argument)
OPTIONAL = {
    "b",
    "h0",
    "top_k",
    "max_words",
    ("generate", "seed"),
    ("causal_self_attention", "lengths"),
    ("rotary_embedding", "positions"),
    ("kv_cache_steps", "rope_base"),
}


def _takes_none(name: str, arg: str) -> bool:
    return arg in OPTIONAL or (name, arg) in OPTIONAL


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


ARGS = [pytest.param(name, arg, id=f"{name}-{arg}") for name, args in CALLS.items() for arg in args]


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
    kinds = [b for b in BAD[CALLS[name][arg][1]] if not (_takes_none(name, arg) and b == "None")]
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
    """Every public function of both twins (found by introspection) has its case above, and the case
    gives every argument the function takes, with its kind."""
    assert {"attention_gradients", "feed_forward", "softmax_terms", "largest_weights", "sample"} <= set(TWINS)
    assert set(TWINS) - set(CALLS) - set(NOT_LISTED) == set(), "a public function without a case in CALLS"
    assert (set(CALLS) | set(NOT_LISTED)) - set(TWINS) == set(), "a case for a function that no longer exists"
    assert not set(CALLS) & set(NOT_LISTED)
    for name, (numpy_f, torch_f) in TWINS.items():
        if name in NOT_LISTED:
            continue
        for f in (numpy_f, torch_f):
            assert set(inspect.signature(f).parameters) == set(CALLS[name]), f"{name}: the arguments of its case"
        assert all(kind in BAD for _, kind in CALLS[name].values()), name


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
    (  # issue 51: NumPy's attention_gradients named its internal S
        "gradients-overflow",
        lambda m: m.learning.attention_gradients(np.full((2, 2), 1e200), E2, E2, 0, 1),
        "X (2, 2), W_Q (2, 2) and W_K (2, 2) are too large: the scaled scores overflow in float64",
    ),
    (  # issue 51, item 7: the newer functions keep the size limit too, before allocating
        "ffn-huge",
        lambda m: m.feed_forward(ones(10**4, 1), ones(1, 10**4 + 1), ones(10**4 + 1), ones(10**4 + 1, 1), ones(1)),
        "X (10000, 1) and W_1 (1, 10001) are too large: the hidden layer X W_1 + b_1 would hold 100,010,000 "
        f"entries; at most {MAX_ENTRIES:,}",
    ),
    (
        "block-huge",
        lambda m: m.transformer_block(
            ones(10**4, 2),
            E2,
            E2,
            E2,
            E2,
            1,
            ones(2, 10**4 + 1),
            ones(10**4 + 1),
            ones(10**4 + 1, 2),
            ones(2),
            ones(2),
            ones(2),
            ones(2),
            ones(2),
        ),  # fmt: skip
        "X (10000, 2) and W_1 (2, 10001) are too large: the hidden layer X W_1 + b_1 would hold 100,010,000 "
        f"entries; at most {MAX_ENTRIES:,}",
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


# --- tensors torch stores otherwise, read as the numbers they hold ------------------------------

ARRAY_ARGS = [
    pytest.param(n, a, id=f"{n}-{a}") for n, args in CALLS.items() for a, (_, k) in args.items() if k == "array"
]


def _arrays(result) -> list:
    """Every array of a result (a tuple, a dict, a dataclass of steps, a number), as float64; text (the
    words of ranked and generate) as it is."""
    if isinstance(result, str):
        return [result]
    if isinstance(result, dict):
        return [a for v in result.values() for a in _arrays(v)]
    if isinstance(result, (tuple, list)):
        return [a for v in result for a in _arrays(v)]
    if hasattr(result, "__dataclass_fields__"):
        return [a for f in result.__dataclass_fields__ for a in _arrays(getattr(result, f))]
    return [np.asarray(result.detach() if isinstance(result, torch.Tensor) else result, dtype=np.float64)]


def negative_view(x) -> torch.Tensor:
    """``x`` as a tensor whose negative bit is set (the imaginary part of a conjugate, torch's lazy -x)."""
    t = torch.as_tensor(np.asarray(x, dtype=np.float64))
    view = torch.complex(torch.zeros_like(t), -t).conj().imag
    assert view.is_neg()
    return view


def inference_tensor(x) -> torch.Tensor:
    with torch.inference_mode():
        return torch.tensor(np.asarray(x, dtype=np.float64))


STORED_OTHERWISE = {
    "a negative view": (negative_view, 0.0),
    "made in inference mode": (inference_tensor, 0.0),
    "float32 beside float64": (lambda x: torch.tensor(np.asarray(x, dtype=np.float32)), 1e-6),
    "a float32 array beside float64": (lambda x: np.asarray(x, dtype=np.float32), 1e-6),
}


@PACKAGES
@pytest.mark.parametrize(("name", "arg"), ARRAY_ARGS)
def test_tensors_stored_otherwise_give_the_numbers_they_hold(pkg, name, arg):
    """A negative view, a tensor made in inference mode and float32 beside float64 are numbers like any
    other: every function gives what the plain float64 arrays give (float32 to its own precision)."""
    plain = {k: v for k, (v, _) in CALLS[name].items()}
    want = _arrays(find(pkg, name)(**plain))
    for how, (make, tolerance) in STORED_OTHERWISE.items():
        if name == "finite_difference" and tolerance:  # differences of float32 values: float32's precision / delta
            tolerance = 1e-3
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = _arrays(find(pkg, name)(**{**plain, arg: make(plain[arg])}))
        assert len(got) == len(want), how
        for g, w in zip(got, want, strict=True):
            if isinstance(w, str):
                assert g == w, f"{arg} {how}"
            else:
                np.testing.assert_allclose(g, w, rtol=tolerance, atol=tolerance, err_msg=f"{arg} {how}")


TENSOR_KINDS = ("array", "mask", "labels", "lengths", "positions")  # the kinds a tensor may be given for
TENSOR_ARGS = [
    pytest.param(n, a, id=f"{n}-{a}") for n, args in CALLS.items() for a, (_, k) in args.items() if k in TENSOR_KINDS
]


@PACKAGES
@pytest.mark.parametrize(("name", "arg"), TENSOR_ARGS)
def test_inside_vmap_every_function_says_so(pkg, name, arg):
    """Inside torch.func.vmap a tensor holds no numbers of its own: a ValueError naming the argument
    (the functions take leading batch dimensions instead), not an error from inside torch. Arrays of
    numbers, and masks, labels, lengths and positions (bool and integer tensors) alike."""
    plain = {k: v for k, (v, _) in CALLS[name].items()}
    value = np.asarray(plain[arg])
    batch = torch.stack([torch.as_tensor(value if CALLS[name][arg][1] != "array" else value.astype(np.float64))] * 2)
    with pytest.raises(ValueError) as info:
        torch.vmap(lambda x: find(pkg, name)(**{**plain, arg: x}))(batch)
    assert str(info.value).startswith(f"{arg} is a torch tensor whose numbers cannot be read")


def test_gradients_inside_inference_mode_and_no_grad():
    """PyTorch's attention_gradients runs autograd, also where the caller switched it off."""
    args = {k: v for k, (v, _) in CALLS["attention_gradients"].items()}
    want = tref.learning.attention_gradients(**args)
    for context in (torch.inference_mode, torch.no_grad):
        with context():
            got = tref.learning.attention_gradients(
                **{k: inference_tensor(v) if k == "X" else v for k, v in args.items()}
            )
        for key in ("W_Q", "W_K"):
            torch.testing.assert_close(got[key], want[key], rtol=0, atol=0)


@pytest.mark.parametrize(
    ("name", "arg"), [(n, a) for n, args in CALLS.items() for a, (_, k) in args.items() if k == "number"]
)
@pytest.mark.parametrize("value", [10**20, np.int64(10**18), 1e300, 5e-324], ids=str)
def test_large_and_tiny_numbers_give_the_same_answer_in_both_packages(name, arg, value):
    """eps, lr and delta of any size float64 holds: the same result from both packages, or the same
    ValueError (a Python integer of 21 digits is a number like 1e20, not an OverflowError)."""
    kwargs = {**{k: v for k, (v, _) in CALLS[name].items()}, arg: value}
    answers = []
    for pkg in (ref, tref):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                answers.append(_arrays(find(pkg, name)(**kwargs)))
            except ValueError as exc:
                answers.append(str(exc))
    numpy, torch_ = answers
    assert type(numpy) is type(torch_), answers
    if isinstance(numpy, str):
        assert numpy == torch_
    else:
        for a, b in zip(numpy, torch_, strict=True):
            if isinstance(a, str):
                assert a == b
            else:
                np.testing.assert_allclose(a, b, rtol=1e-12)


# --- masks: the messages say the shapes the caller gave ------------------------------------------

MASKED = {
    # function -> (its arguments without the mask, the scores' shape they give)
    "scaled_dot_product_attention": ({"Q": ones(2, 3, 2), "K": ones(2, 4, 2), "V": ones(2, 4, 2)}, (2, 3, 4)),
    "multi_head_attention": (
        {"X": ones(2, 3, 4), **{w: E4 for w in ("W_Q", "W_K", "W_V", "W_O")}, "num_heads": 2},
        (2, 3, 3),
    ),  # fmt: skip
    "additive_attention": ({"s": ones(2, 2), "H": ones(2, 3, 2), "W_s": E2, "W_h": E2, "v": ones(2)}, (2, 3)),
    "softmax_terms": ({"S": ones(2, 3, 4)}, (2, 3, 4)),
    "transformer_block": (
        {k: v for k, (v, _) in CALLS["transformer_block"].items() if k != "mask"} | {"X": ones(2, 3, 4)},
        (2, 3, 3),
    ),  # fmt: skip
    "grouped_query_attention": (
        {k: v for k, (v, _) in CALLS["grouped_query_attention"].items() if k != "mask"} | {"X": ones(2, 3, 4)},
        (2, 3, 3),
    ),  # fmt: skip
    "cross_attention": (
        {k: v for k, (v, _) in CALLS["cross_attention"].items() if k != "mask"}
        | {"X": ones(2, 3, 4), "memory": ones(2, 5, 4)},
        (2, 3, 5),
    ),  # fmt: skip
}


def test_every_function_with_a_mask_is_here():
    assert {n for n, args in CALLS.items() if any(k == "mask" for _, k in args.values())} == set(MASKED)


@PACKAGES
@pytest.mark.parametrize("name", MASKED)
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=4).map(tuple), empty_row=st.booleans())
@settings(max_examples=25, deadline=None)
def test_mask_messages_say_the_shapes_the_caller_gave(pkg, name, shape, empty_row):
    """A mask that does not fit, or leaves a row empty, is named with its own shape and the scores'
    shape the caller's arguments give: never the shape of a reshaped copy (the heads' axis of
    multi-head attention, the query axis additive attention adds)."""
    args, scores = MASKED[name]
    mask = np.ones(shape, bool)
    if empty_row:
        mask[(0,) * (len(shape) - 1)] = False  # the first row allows nothing
    try:
        np.broadcast_to(mask, scores)
        fits = len(shape) <= len(scores) and (len(shape) >= 2 or name in ("additive_attention", "softmax_terms"))
    except ValueError:
        fits = False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            find(pkg, name)(**args, mask=mask)
        except ValueError as exc:
            message = str(exc)
        else:
            assert fits and not empty_row, f"{shape} was accepted"
            return
    if not fits:
        assert message == f"mask has shape {shape}, which does not fit the scores' shape {scores}"
    else:
        empty = "S has a row" if name == "softmax_terms" else "mask allows nothing"
        assert message.startswith(empty) and f"shape {scores}" in message, message


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


# --- near overflow: both packages refuse the same inputs (issue 51) ---------------------------------


def _verdict(pkg, name: str, kwargs: dict) -> str:
    """ "ok", or the ValueError's message, of ``pkg``'s function on ``kwargs`` (warnings are errors)."""
    try:
        return _message(pkg, name, kwargs)
    except AssertionError:  # accepted
        return "ok"


NEAR = [p for p in ARRAY_ARGS if p.values[0] != "finite_difference"]  # its f is the caller's, and reads W its own way


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize(("name", "arg"), NEAR)
def test_the_twins_refuse_the_same_inputs_near_overflow(name, arg, dtype):
    """One argument scaled up until NumPy refuses it (bisection, 60 halvings of the scales): just below
    and just above that boundary, and on it, PyTorch gives the same answer, the same message. (NumPy
    and PyTorch add up in their own orders, and PyTorch accumulates float32 in float64: both decide
    from the same bound on what they will compute, selfattn_ref._validate.check_bound.)"""
    kwargs = {k: (np.asarray(v, dtype=dtype) if kind == "array" else v) for k, (v, kind) in CALLS[name].items()}
    base = kwargs[arg]
    if not np.any(base):
        return  # zeros stay zeros: nothing to scale
    top = float(np.log2(float(np.finfo(dtype).max) / float(np.abs(base).max()))) - 1e-9  # the largest that stays finite

    def at(log_scale: float) -> dict:
        with np.errstate(over="ignore", invalid="ignore"):
            return {**kwargs, arg: (base.astype(np.float64) * 2.0**log_scale).astype(dtype)}

    numpy_verdicts: dict[bytes, str] = {}  # by the scaled argument's bytes: once the halvings are finer
    # than the dtype resolves, a scale gives an argument already tried, and NumPy's verdict on it

    def numpy_verdict(log_scale: float) -> str:
        kw = at(log_scale)
        key = kw[arg].tobytes()
        if key not in numpy_verdicts:
            numpy_verdicts[key] = _verdict(ref, name, kw)
        return numpy_verdicts[key]

    assert numpy_verdict(0.0) == "ok"
    lo, hi = 0.0, top
    if numpy_verdict(hi) == "ok":
        assert _verdict(tref, name, at(hi)) == "ok"
        return
    for _ in range(60):  # to 2^-60 of the range of scales, far finer than any float32 input resolves
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if numpy_verdict(mid) == "ok" else (lo, mid)
    for point in (lo, hi, (lo + hi) / 2):
        numpy, torch_ = _verdict(ref, name, at(point)), _verdict(tref, name, at(point))
        assert numpy == torch_, f"at 2^{point}: NumPy {numpy!r}, PyTorch {torch_!r}"
    assert _verdict(ref, name, at(hi)) != "ok"


# --- the functions without a twin that take arrays or numbers: the language model's corpus and its
# tokenizer (issue 53), found by introspection too; the same rules, in the one package -------------

# the corpus and the tokenizer (issue 53), and the topics of attention at scale (issue 54) that take arguments
AT_SCALE_TOPICS = ("kv_cache", "flash_attention", "rotary", "sliding_window", "batched_heads", "grouped_query")
LONE = lone_functions(
    ("selfattn_ref.corpus", "selfattn_ref.bpe", *(f"selfattn_ref.topics.{m}" for m in AT_SCALE_TOPICS))
)
V = len(corpus.VOCABULARY)
SENTENCES = list(corpus.held_out()[:2])
ROWS = [np.full((len(s.words) - 1, V), 1 / V) for s in SENTENCES]  # one row of probabilities a next word
COUNTS = np.ones((V, V), dtype=np.int64)
LONE_CALLS = {
    "corpus.bigram_probabilities": {"counts": (COUNTS, "counts"), "smoothing": (0.01, "number")},
    "corpus.bigram_scores": {
        "sentences": (SENTENCES, "given"),
        "counts": (COUNTS, "counts"),
        "smoothing": (0.01, "number"),
    },
    "corpus.decode": {"ids": ([0, 5], "ids")},
    "corpus.generate": {"count": (3, "count"), "seed": (0, "seed")},
    "corpus.groups_of": {"sentence": (SENTENCES[0], "given"), "j": (1, "position")},
    "corpus.held_out": {"seed": (0, "seed")},
    "corpus.nearest": {"word": ("bnak", "given"), "k": (3, "count")},
    "corpus.score": {"sentences": (SENTENCES, "given"), "probabilities": (ROWS, "rows")},
    "corpus.training": {"seed": (0, "seed"), "size": (5, "count")},
    "corpus.words": {"text": ("the bank", "given"), "limit": (13, "count")},
    "corpus.SeededRandom.below": {"k": (3, "count")},
    "bpe.learn": {"words": (["low", "lower", "newest"], "given"), "merges": (2, "count")},
    "kv_cache.size": {"model": (GPT2_SMALL, "model")},
    "flash_attention.tiled": {"tile": (2, "tile")},
    "rotary.turned": {"slug": ("dog_bites_man", "choice")},
    "rotary.sentence": {"slug": ("dog_bites_man", "choice"), "pairing": ("halves", "choice")},
    "rotary.relative_scores": {
        "q": (ones(4), "array"),
        "k": (ones(4), "array"),
        "starts": ([0, 1, 2], "positions"),
        "offsets": ([0, 1, 2], "offsets"),
        "base": (10000.0, "number"),
        "pairing": ("halves", "choice"),
    },
    "sliding_window.entries": {"n": (5, "count"), "window": (2, "count")},
    "sliding_window.reach": {"n": (5, "count"), "window": (2, "count"), "num_blocks": (3, "count")},
}
LONE_NOT_LISTED = {
    "corpus.best_possible": "corpus Sentences: tests/package/test_corpus.py",
    "corpus.bigram_counts": "corpus Sentences: tests/package/test_corpus.py",
    "corpus.encode": "text: tests/package/test_corpus.py",
    "corpus.next_word_odds": "text: tests/package/test_corpus.py",
    "corpus.every_sentence": "no argument",
    "corpus.SeededRandom.uniform": "no argument",
    "corpus.SeededRandom.choice": "a sequence of anything, one of which it returns",
    "bpe.split": "a word and the merges learn() gives: tests/package/test_bpe.py",
}
BAD_ROW = [[0.5, 0.5]]  # a row of the wrong width, for the places of a list of rows
BAD |= {
    "counts": {
        **BAD["array"],
        "floats": np.ones((V, V)),
        "negative": -COUNTS,
        "the wrong shape": np.ones((2, 2), dtype=np.int64),
        "a masked array of counts": np.ma.masked_array(COUNTS, mask=np.eye(V, dtype=bool)),
        "a float tensor": torch.ones(V, V),
        "a huge integer inside": [[10**400] * V] * V,
    },
    # word ids are labels of another range: the same bad kinds, their ranges the vocabulary's
    "ids": {**BAD["labels"], "too few": [], "too large": [0, V], "a huge tensor": torch.tensor([0, 2**62])},
    "position": {**BAD["index"], "out of range": 99},  # a word's position in a sentence
    # offsets from a position: integers, negative ones too (as long as a + r >= 0)
    "offsets": {k: v for k, v in BAD["positions"].items() if k != "negative"},
    "tile": {**BAD["count"], "not a tile of the example": 3},
    "model": {"None": None, "text": "GPT-2 small", "a dict": {"n_ctx": 1024}, "a tuple of sizes": (12, 768, 12)},
    "rows": {
        "None": None,
        "text": "ab",
        "a dict": {"a": 1.0},
        "one too few": ROWS[:1],
        "None inside": [None, ROWS[1]],
        "the wrong width": [BAD_ROW, ROWS[1]],
        "NaN": [np.full_like(ROWS[0], np.nan), ROWS[1]],
        "negative": [-ROWS[0], ROWS[1]],
        "a masked array": [np.ma.masked_array(ROWS[0], mask=np.eye(*ROWS[0].shape, dtype=bool)), ROWS[1]],
        "complex": [ROWS[0] + 0j, ROWS[1]],
        "ragged": [[[0.5], [0.5, 0.5]], ROWS[1]],
        "a huge integer": [[[10**400] * V] * len(ROWS[0]), ROWS[1]],
        **{k: [v, ROWS[1]] for k, v in TENSORS.items()},
    },
}


def _lone(name: str):
    """The lone function ``name``; a method bound to a fresh instance (SeededRandom(0))."""
    f = LONE[name]
    return functools.partial(f, corpus.SeededRandom(0)) if name.startswith("corpus.SeededRandom.") else f


def test_every_lone_function_is_listed():
    """Every public function of the corpus and the tokenizer (found by introspection) has its case, or
    says why it has none; a case gives every argument the function takes, with its kind."""
    assert {"corpus.generate", "corpus.bigram_probabilities", "bpe.learn", "corpus.SeededRandom.below"} <= set(LONE)
    assert set(LONE) == set(LONE_CALLS) | set(LONE_NOT_LISTED) and not set(LONE_CALLS) & set(LONE_NOT_LISTED)
    for name, args in LONE_CALLS.items():
        assert set(inspect.signature(LONE[name]).parameters) - {"self"} == set(args), name
        assert all(kind in BAD for _, kind in args.values()), name


def test_the_lone_cases_work_with_their_good_arguments():
    for name, args in LONE_CALLS.items():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _lone(name)(**{k: v for k, (v, _) in args.items()})


@pytest.mark.parametrize(
    ("name", "arg"), [pytest.param(n, a, id=f"{n}-{a}") for n, args in LONE_CALLS.items() for a in args]
)
def test_a_bad_argument_of_a_lone_function_is_one_clear_value_error(name, arg):
    """As for the twins: a ValueError naming the argument, short, no warning on the way."""
    problems = {}
    for bad, value in BAD[LONE_CALLS[name][arg][1]].items():
        kwargs = {k: (value if k == arg else v) for k, (v, _) in LONE_CALLS[name].items()}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                _lone(name)(**kwargs)
            except ValueError as exc:
                message = str(exc)
            except Exception as exc:  # noqa: BLE001 - any other exception, a warning among them, is the failure
                problems[bad] = f"{type(exc).__name__}: {str(exc)[:300]}"
                continue
            else:
                problems[bad] = "accepted"
                continue
        if not _names_arg(message, arg):
            problems[bad] = f"the message does not name {arg}: {message}"
        elif len(message) >= 320 or "torch." in message:
            problems[bad] = f"a long message, or torch's names: {message}"
    assert not problems, "\n".join(f"{arg} = {bad}: {p}" for bad, p in problems.items())
