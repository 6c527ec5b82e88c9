"""Input checks shared by the PyTorch functions, mirroring ``selfattn_ref._validate``.

The messages are the NumPy ones word for word (they are built by the same functions),
with shapes printed as tuples (``(3, 4)``, not ``torch.Size([3, 4])``) and dtypes as
NumPy names them (``float64``, not ``torch.float64``), so the two packages raise the same
message for the same bad input. Tensors that require grad are accepted: the functions
here are differentiable.
"""

from __future__ import annotations

import torch

from .._validate import (
    TooLarge,
    batch_shape,
    check_dims,
    complex_error,
    dtype_name,
    mask_array,
    not_finite_error,
    to_real_array,
    too_large,
)

__all__ = [
    "TooLarge",
    "as_bool_mask",
    "as_float_tensor",
    "as_mask_like",
    "batch_shape",
    "common_dtype",
    "complex_error",
    "finite",
    "shape",
]


def shape(t) -> tuple[int, ...]:
    """A tensor's shape as a plain tuple, for error messages."""
    return tuple(t.shape)


def as_float_tensor(x, name: str, *, min_ndim: int = 1, ndim: int | None = None) -> torch.Tensor:
    """Return ``x`` as a float tensor (float32 kept, anything else float64), checked.

    Raises ValueError naming ``name`` when ``x`` is not an array of real numbers, has the
    wrong number of dimensions, is empty, or holds NaN or infinity.
    """
    if isinstance(x, torch.Tensor):
        if x.is_complex():
            raise complex_error(name, x.dtype)
        t = x if x.dtype == torch.float32 else x.to(torch.float64)
    else:
        t = torch.from_numpy(to_real_array(x, name).copy())  # NumPy's conversion and messages
    check_dims(t, name, min_ndim=min_ndim, ndim=ndim)
    if not bool(torch.isfinite(t).all()):
        raise not_finite_error(name, t.shape)
    return t


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


def as_mask_like(mask, name: str = "mask"):
    """``mask`` as a tensor or a NumPy array, not yet checked, so that it can be indexed."""
    return mask if isinstance(mask, torch.Tensor) else mask_array(mask, name)


def as_bool_mask(mask, name: str, target_shape: tuple[int, ...]) -> torch.Tensor:
    """Return ``mask`` as a boolean tensor broadcast to ``target_shape``.

    ``True`` means "may attend". Raises ValueError when the mask is not boolean, does
    not broadcast to the scores' shape, or leaves a row with nothing to attend to.
    """
    target_shape = tuple(target_shape)
    mask = as_mask_like(mask, name)
    is_bool = mask.dtype == torch.bool if isinstance(mask, torch.Tensor) else mask.dtype.kind == "b"
    if not is_bool:
        raise ValueError(f"{name} must be boolean (True = may attend), got dtype {dtype_name(mask.dtype)}")
    t = mask if isinstance(mask, torch.Tensor) else torch.from_numpy(mask.copy())
    if t.ndim < 2 or t.ndim > len(target_shape):
        raise ValueError(f"{name} has shape {shape(t)}, which does not fit the scores' shape {target_shape}")
    try:
        t = torch.broadcast_to(t, target_shape)
    except RuntimeError:
        raise ValueError(f"{name} has shape {shape(t)}, which does not fit the scores' shape {target_shape}") from None
    empty = ~t.any(dim=-1)
    if bool(empty.any()):
        where = tuple(int(i) for i in torch.nonzero(empty)[0])
        raise ValueError(f"{name} allows nothing in row {where} (shape {shape(t)}); every query needs at least one key")
    return t
