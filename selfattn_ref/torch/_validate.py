"""Input checks shared by the PyTorch functions, mirroring ``selfattn_ref._validate``.

The messages are the NumPy ones word for word, with shapes printed as tuples
(``(3, 4)``, not ``torch.Size([3, 4])``), so one regex matches both packages.
"""

from __future__ import annotations

import numpy as np
import torch


def shape(t) -> tuple[int, ...]:
    """A tensor's shape as a plain tuple, for error messages."""
    return tuple(t.shape)


def as_float_tensor(x, name: str, *, min_ndim: int = 1, ndim: int | None = None) -> torch.Tensor:
    """Return ``x`` as a float tensor (float32 kept, anything else float64), checked.

    Raises ValueError naming ``name`` when ``x`` is not numeric, has the wrong number
    of dimensions, is empty, or holds NaN or infinity.
    """
    if isinstance(x, torch.Tensor):
        if x.is_complex():
            raise ValueError(f"{name} must be an array of numbers (rows of equal length): got dtype {x.dtype}")
        t = x if x.dtype == torch.float32 else x.to(torch.float64)
    elif isinstance(x, np.ndarray) and x.dtype == np.float32:
        t = torch.from_numpy(x.copy())
    else:
        try:
            arr = np.asarray(x, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be an array of numbers (rows of equal length): {exc}") from None
        t = torch.from_numpy(arr.copy())
    if ndim is not None and t.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {shape(t)}")
    if t.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {shape(t)}")
    if t.numel() == 0:
        raise ValueError(f"{name} must not be empty, got shape {shape(t)}")
    if not bool(torch.isfinite(t).all()):
        raise ValueError(f"{name} must hold only finite numbers (no NaN or infinity), shape {shape(t)}")
    return t


def common_dtype(*tensors: torch.Tensor) -> list[torch.Tensor]:
    """Cast to float64 if any tensor is float64 (NumPy's rule: float32 with float64 gives float64)."""
    dtype = torch.float64 if any(t.dtype == torch.float64 for t in tensors) else torch.float32
    return [t.to(dtype) for t in tensors]


def as_mask_like(mask):
    """``mask`` as a tensor or a NumPy array, not yet checked, so that it can be indexed."""
    return mask if isinstance(mask, torch.Tensor) else np.asarray(mask)


def as_bool_mask(mask, name: str, target_shape: tuple[int, ...]) -> torch.Tensor:
    """Return ``mask`` as a boolean tensor broadcast to ``target_shape``.

    ``True`` means "may attend". Raises ValueError when the mask is not boolean, does
    not broadcast to the scores' shape, or leaves a row with nothing to attend to.
    """
    target_shape = tuple(target_shape)
    mask = as_mask_like(mask)
    is_bool = mask.dtype == torch.bool if isinstance(mask, torch.Tensor) else mask.dtype == np.bool_
    if not is_bool:
        raise ValueError(f"{name} must be boolean (True = may attend), got dtype {mask.dtype}")
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
