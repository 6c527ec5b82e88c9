"""Input checks and a tally of multiply-adds, shared by the modules of attention as models run it at
scale (:mod:`selfattn_ref.batched`, :mod:`selfattn_ref.kv_cache`, :mod:`selfattn_ref.online_softmax`,
:mod:`selfattn_ref.grouped_query`, :mod:`selfattn_ref.rotary`, :mod:`selfattn_ref.cross_attention`)
and by their PyTorch twins.

They add to :mod:`selfattn_ref._validate` what those modules need and the older ones did not: a word
from a fixed list (:func:`as_choice`), the positions of the tokens (:func:`as_positions`), the
weight matrices of a layer checked against one another (:func:`layer_weights`), and
:class:`MultiplyAdds`, which counts the multiply-adds of the matrix products a computation performs,
from the shapes of the operands it multiplies. Everything here is pure Python or NumPy and words its
messages as ``_validate`` does, so that both packages raise the same message for the same bad input.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import check_tensor, dtype_name, is_tensor, positive_integer, value_text
from .masks import padding_mask

# The largest position a token may have: every integer up to 2**53 is a float64 exactly, so the
# angle of a rotary pair, position times its frequency, is computed from the position itself.
MAX_POSITION = 2**53


def as_choice(value, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of the words ``choices``; anything else is a ValueError naming ``name``
    and listing them."""
    if not isinstance(value, str) or value not in choices:
        listed = " or ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be {listed}, got {value_text(value)}")
    return value


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def as_positions(positions, n: int | None) -> np.ndarray:
    """The positions of ``n`` tokens (of one or more with ``n`` None) as an int64 array (n,), each
    from 0 to :data:`MAX_POSITION` (2**53); a list or tuple of integers, an integer array or an
    integer tensor. Anything else (not integers, booleans, empty, the wrong length, negative, a
    masked array, a tensor that :func:`selfattn_ref._validate.tensor_problem` refuses) is a
    ValueError naming ``positions``."""
    check_tensor(positions, "positions")
    count = "one or more" if n is None else f"{n}"
    bad = ValueError(
        f"positions must be a list of {count} integers from 0 to 2**53, one per row, got {value_text(positions)}"
    )
    if is_tensor(positions):
        if positions.dtype.is_floating_point or positions.dtype.is_complex or dtype_name(positions.dtype) == "bool":
            raise bad
        arr = positions.detach().numpy()
    elif isinstance(positions, (list, tuple)) and all(_is_int(v) for v in positions):
        arr = np.empty(len(positions), dtype=object)  # Python's integers as they are: NumPy would
        arr[:] = positions  # read [0, 2**64] as floats
    else:
        try:
            arr = np.asarray(positions)
        except (TypeError, ValueError, RuntimeError, OverflowError):  # ragged
            raise bad from None
    if arr.ndim != 1:
        raise bad
    if arr.dtype == object:
        if not all(_is_int(v) for v in arr):
            raise bad
        values = [int(v) for v in arr]
    elif np.issubdtype(arr.dtype, np.integer):
        values = arr.tolist()
    else:
        raise bad
    if not values:
        raise bad
    if n is not None and len(values) != n:
        raise ValueError(f"positions must hold {n} integers, one per row, got {len(values)}")
    if not all(0 <= v <= MAX_POSITION for v in values):
        shown = ", ".join(value_text(v) for v in values[:8]) + (", ..." if len(values) > 8 else "")
        raise ValueError(f"positions must lie between 0 and 2**53, got [{shown}]")
    return np.array(values, dtype=np.int64)


def layer_weights(convert, given: dict, shapes: dict, context: str) -> dict:
    """The weight matrices of a layer, each converted by ``convert`` (the package's
    ``as_float_array`` or ``as_float_tensor``) and checked against the shape it must have.

    ``given`` maps each argument's name to its value, ``shapes`` to the (rows, columns) it must
    have; ``context`` says why ("to match X (2, 3, 4)"). A matrix of another shape is a ValueError
    naming it, the shape it must have and the shape it has."""
    out = {}
    for name, value in given.items():
        W = convert(value, name, ndim=2)
        if tuple(W.shape) != tuple(shapes[name]):
            raise ValueError(f"{name} must have shape {tuple(shapes[name])} {context}, got {tuple(W.shape)}")
        out[name] = W
    return out


def divides(num_heads, width: int, name: str, what: str) -> int:
    """``num_heads`` as a positive integer that divides ``width`` (the width of ``what``, as the
    message says it: "the width of X (2, 3, 4)"); else a ValueError naming ``name``."""
    num_heads = positive_integer(num_heads, name)
    if width % num_heads:
        raise ValueError(f"{name}={value_text(num_heads, parens=True)} must divide {what}")
    return num_heads


class MultiplyAdds:
    """A tally of the multiply-adds of the matrix products a computation performs, counted as it
    performs them.

    :meth:`matmul` multiplies two arrays (NumPy or torch) of shapes (..., n, k) and (..., k, m) and
    adds n·k·m for every matrix of the broadcast batch: one multiplication and one addition for each
    term of each entry of the result. What is counted is the product the code computes, masked
    entries included: a causal mask hides half of the scores, but ``Q @ K^T`` computes them all.
    Element-wise steps (scaling, the softmax, a rotation) are not matrix products and are not
    counted. ``counts`` holds the tally by the name each product was given, ``total`` their sum.
    """

    def __init__(self):
        self.counts: dict[str, int] = {}

    def matmul(self, a, b, what: str):
        """``a @ b``, counted under ``what``: a (..., n, k), b (..., k, m) -> (..., n, m)."""
        *batch_a, n, k = tuple(a.shape)
        *batch_b, k_b, m = tuple(b.shape)
        if k != k_b:
            raise ValueError(f"{what}: the product of shapes {tuple(a.shape)} and {tuple(b.shape)} is not defined")
        batch = np.broadcast_shapes(tuple(batch_a), tuple(batch_b))
        self.counts[what] = self.counts.get(what, 0) + math.prod(batch) * n * k * m
        return a @ b

    @property
    def total(self) -> int:
        """Every multiply-add counted so far."""
        return sum(self.counts.values())


def padding_of(lengths, batch: int, n: int) -> np.ndarray:
    """(batch, n) True where a token is real: the first ``lengths[b]`` tokens of sentence b, or every
    token with ``lengths`` None. A ValueError names ``lengths`` when it is not one length from 1 to n
    per sentence (:func:`selfattn_ref.masks.padding_mask` reads it)."""
    if lengths is None:
        return np.ones((batch, n), dtype=bool)
    pad = padding_mask(lengths, n)[:, 0, :]  # (batch, n)
    if pad.shape[0] != batch:
        raise ValueError(f"lengths must hold one length per sentence ({batch}), got {pad.shape[0]}")
    return pad
