"""Input checks shared by the PyTorch functions, mirroring ``selfattn_ref._validate``.

The messages are the NumPy ones word for word (they are built by the same functions),
with shapes printed as tuples (``(3, 4)``, not ``torch.Size([3, 4])``) and dtypes as
NumPy names them (``float64``, not ``torch.float64``), so the two packages raise the same
message for the same bad input. Tensors that require grad are accepted: the functions
here are differentiable. Tensors that are not dense numbers on the CPU (sparse, nested,
quantized, meta, masked) are refused before any torch function sees them, as the NumPy
package refuses them; masks and lengths are read by the NumPy package's functions.
"""

from __future__ import annotations

import numpy as np
import torch

from .. import _validate as _np
from .._validate import (
    UNREADABLE,
    TooLarge,
    batch_shape,
    check_dims,
    check_size,
    check_tensor,
    complex_error,
    not_finite_error,
    to_real_array,
    too_large,
)

__all__ = [
    "TooLarge",
    "any_true",
    "as_bool_mask",
    "as_float_tensor",
    "batch_shape",
    "check_size",
    "common_dtype",
    "complex_error",
    "finite",
    "from_numpy",
    "shape",
]


def shape(t) -> tuple[int, ...]:
    """A tensor's shape as a plain tuple, for error messages."""
    return tuple(t.shape)


def from_numpy(arr: np.ndarray) -> torch.Tensor:
    """A NumPy array (a read-only broadcast view too) as a tensor of its own."""
    return torch.from_numpy(np.array(arr, order="C"))  # a copy, also of a 0-d array


def as_float_tensor(x, name: str, *, min_ndim: int = 1, ndim: int | None = None) -> torch.Tensor:
    """Return ``x`` as a float tensor (float32 kept, anything else float64), checked.

    Raises ValueError naming ``name`` when ``x`` is not an array of real numbers, has the
    wrong number of dimensions, is empty, or holds NaN or infinity. A tensor with its negative bit set
    is resolved (copied only then), so no result, not even a view such as split_heads', carries it.
    """
    if isinstance(x, torch.Tensor):
        check_tensor(x, name)  # sparse, nested, quantized, meta, masked: refused before torch computes
        if x.is_complex():
            raise complex_error(name, x.dtype)
        x = x.resolve_neg()  # a negative view (torch's lazy -x) as the numbers it holds
        t = x if x.dtype == torch.float32 else x.to(torch.float64)
    else:
        t = from_numpy(to_real_array(x, name))  # NumPy's conversion and messages
    check_dims(t, name, min_ndim=min_ndim, ndim=ndim)
    if any_true(~torch.isfinite(t), name):
        raise not_finite_error(name, t.shape)
    return t


def any_true(condition: torch.Tensor, name: str) -> bool:
    """Whether any entry of the boolean tensor ``condition`` (a test of the argument ``name``) is
    true; a ValueError naming ``name`` where its numbers cannot be read (a batched tensor inside
    torch.func.vmap), instead of torch's error about data-dependent control flow."""
    try:
        return bool(condition.any())
    except RuntimeError:
        raise ValueError(UNREADABLE.format(name=name)) from None


def finite(result: torch.Tensor, what: str, **operands) -> torch.Tensor:
    """``result`` if every entry is finite; else raise TooLarge naming ``operands``
    (the NumPy package's :func:`selfattn_ref._validate.finite`)."""
    if not bool(torch.isfinite(result).all()):
        raise too_large(what, operands, result.dtype)
    return result


def common_dtype(*tensors: torch.Tensor) -> list[torch.Tensor]:
    """Cast to float64 if any tensor is float64 (NumPy's rule: float32 with float64 gives float64)."""
    dtype = torch.float64 if any(t.dtype == torch.float64 for t in tensors) else torch.float32
    return [t.to(dtype) for t in tensors]


def as_bool_mask(mask, name: str, target_shape: tuple[int, ...], **how) -> torch.Tensor:
    """Return ``mask`` as a boolean tensor broadcast to ``target_shape``: the NumPy package's
    :func:`selfattn_ref._validate.as_bool_mask` (``how``: its ``min_ndim`` and ``need``), whose checks
    and messages it shares."""
    return from_numpy(_np.as_bool_mask(mask, name, tuple(target_shape), **how))
