"""Input checks shared by the NumPy functions.

Every public function converts its arrays with :func:`as_float_array`, so a bad
argument fails early with a ``ValueError`` that names the argument and the shape
it got, instead of a NaN or a broadcasting error further down.
"""

from __future__ import annotations

import numpy as np


def as_float_array(x, name: str, *, min_ndim: int = 1, ndim: int | None = None) -> np.ndarray:
    """Return ``x`` as a float array (float32 kept, anything else float64), checked.

    Raises ValueError naming ``name`` when ``x`` is not numeric, has the wrong number
    of dimensions, is empty, or holds NaN or infinity.
    """
    if isinstance(x, np.ndarray) and x.dtype == np.float32:
        arr = x
    else:
        try:
            arr = np.asarray(x, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be an array of numbers (rows of equal length): {exc}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {arr.shape}")
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold only finite numbers (no NaN or infinity), shape {arr.shape}")
    return arr


def as_bool_mask(mask, name: str, target_shape: tuple[int, ...]) -> np.ndarray:
    """Return ``mask`` as a boolean array that broadcasts to ``target_shape``.

    ``True`` means "may attend". Raises ValueError when the mask is not boolean, does
    not broadcast to the scores' shape, or leaves a row with nothing to attend to.
    """
    arr = np.asarray(mask)
    if arr.dtype != np.bool_:
        raise ValueError(f"{name} must be boolean (True = may attend), got dtype {arr.dtype}")
    if arr.ndim < 2 or arr.ndim > len(target_shape):
        raise ValueError(f"{name} has shape {arr.shape}, which does not fit the scores' shape {target_shape}")
    try:
        arr = np.broadcast_to(arr, target_shape)
    except ValueError:
        raise ValueError(f"{name} has shape {arr.shape}, which does not fit the scores' shape {target_shape}") from None
    empty = ~arr.any(axis=-1)
    if empty.any():
        where = tuple(int(i) for i in np.argwhere(empty)[0])
        raise ValueError(
            f"{name} allows nothing in row {where} (shape {arr.shape}); every query needs at least one key"
        )
    return arr
