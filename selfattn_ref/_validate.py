"""Input checks shared by the NumPy functions (and, for the wording, by the PyTorch ones).

Every public function converts its arrays with :func:`as_float_array`, so a bad
argument fails early with a ``ValueError`` that names the argument and the shape
it got, instead of a NaN or a broadcasting error further down. Results that overflow
are refused by :func:`finite`, naming the arguments that were too large.

The message builders here (:func:`batch_shape`, :func:`too_large`, :func:`dtype_name`,
:func:`to_real_array`) are pure Python or NumPy and are used by ``selfattn_ref.torch``
too, so the two packages word every message the same way.
"""

from __future__ import annotations

import numpy as np


class TooLarge(ValueError):
    """A result overflowed to infinity or NaN although the inputs were finite.

    ``what`` says which result (e.g. "the scores Q K^T overflow"), so that a caller that
    computed the inputs itself can name its own arguments instead.
    """

    def __init__(self, message: str, what: str):
        super().__init__(message)
        self.what = what


def dtype_name(dtype) -> str:
    """A dtype as NumPy prints it, for NumPy and torch dtypes alike: "float64", not "torch.float64"."""
    return str(dtype).removeprefix("torch.")


def _join(items: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _describe(name: str, value) -> str:
    """``name`` and its shape (arrays) or value (numbers): "Q (2, 3)", "scale 1e+300"."""
    if hasattr(value, "shape") and len(tuple(value.shape)) > 0:
        return f"{name} {tuple(value.shape)}"
    if hasattr(value, "shape"):  # a 0-d array or tensor
        return f"{name} {float(value)!r}"
    return f"{name} {value!r}"


def too_large(what: str, operands: dict, dtype) -> TooLarge:
    """The error for a result that overflowed: "Q (2, 2) and K (2, 2) are too large: the
    scores Q K^T overflow in float64". ``operands`` maps the user's argument names to their
    values, in the order to name them."""
    names = _join([_describe(k, v) for k, v in operands.items()])
    verb = "is" if len(operands) == 1 else "are"
    return TooLarge(f"{names} {verb} too large: {what} in {dtype_name(dtype)}", what)


def finite(result: np.ndarray, what: str, **operands) -> np.ndarray:
    """``result`` if every entry is finite; else raise :class:`TooLarge` naming ``operands``.

    Compute ``result`` under ``np.errstate(over="ignore", invalid="ignore")``: the
    overflow is reported here, as one error, not as a RuntimeWarning.
    """
    if not np.all(np.isfinite(result)):
        raise too_large(what, operands, result.dtype)
    return result


def batch_shape(*named: tuple[str, tuple[int, ...], int]) -> tuple[int, ...]:
    """The broadcast of the batch dimensions of several arrays.

    ``named`` holds (argument name, shape, number of trailing non-batch dimensions), for
    example ("Q", (2, 5, 3), 2). Raises ValueError naming every argument and its shape when
    the leading dimensions do not broadcast together.
    """
    try:
        return np.broadcast_shapes(*(tuple(s)[: len(s) - core] for _, s, core in named))
    except ValueError:
        raise ValueError(
            f"{_join([n for n, _, _ in named])} must have batch dimensions that broadcast together, "
            f"got {_join([f'{n} {tuple(s)}' for n, s, _ in named])}"
        ) from None


def _refuse_grad(x, name: str) -> None:
    if getattr(x, "requires_grad", False) is True:  # a torch tensor that autograd tracks
        raise ValueError(
            f"{name} is a torch tensor that requires grad, which the NumPy functions cannot follow: "
            f"pass {name}.detach(), or use selfattn_ref.torch to keep the gradient"
        )


def complex_error(name: str, dtype) -> ValueError:
    return ValueError(
        f"{name} must hold real numbers, got dtype {dtype_name(dtype)} (complex: the imaginary part would be lost)"
    )


def to_real_array(x, name: str) -> np.ndarray:
    """``x`` as a NumPy array of real numbers (an ``np.ndarray`` of float32 stays float32,
    anything else becomes float64), not yet checked for shape or finiteness.

    Raises ValueError naming ``name`` for ragged rows, text and other non-numbers, complex
    numbers (their imaginary part would be lost), numbers too large for float64, and torch
    tensors that require grad.
    """
    _refuse_grad(x, name)
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError, RuntimeError, OverflowError) as exc:
        raise ValueError(f"{name} must be an array of numbers (rows of equal length): {exc}") from None
    if arr.dtype.kind == "c":
        raise complex_error(name, arr.dtype)
    if arr.dtype.kind not in "biufO":  # text, bytes, dates, records
        raise ValueError(f"{name} must be an array of numbers (rows of equal length), got dtype {arr.dtype}")
    if isinstance(x, np.ndarray) and arr.dtype == np.float32:
        return arr
    try:
        return arr.astype(np.float64)
    except (TypeError, ValueError, OverflowError) as exc:  # objects that are not real numbers
        if any(isinstance(v, complex) for v in arr.flat):
            raise complex_error(name, "object") from None
        raise ValueError(f"{name} must be an array of numbers (rows of equal length): {exc}") from None


def check_dims(arr, name: str, *, min_ndim: int = 1, ndim: int | None = None) -> None:
    """The checks after conversion, shared with torch: the number of dimensions, and not empty."""
    shape = tuple(arr.shape)
    if ndim is not None and len(shape) != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {shape}")
    if len(shape) < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {shape}")
    if 0 in shape:
        raise ValueError(f"{name} must not be empty, got shape {shape}")


def not_finite_error(name: str, shape) -> ValueError:
    return ValueError(f"{name} must hold only finite numbers (no NaN or infinity), shape {tuple(shape)}")


def as_float_array(x, name: str, *, min_ndim: int = 1, ndim: int | None = None) -> np.ndarray:
    """Return ``x`` as a float array (float32 kept, anything else float64), checked.

    Raises ValueError naming ``name`` when ``x`` is not an array of real numbers, has the
    wrong number of dimensions, is empty, or holds NaN or infinity.
    """
    arr = to_real_array(x, name)
    check_dims(arr, name, min_ndim=min_ndim, ndim=ndim)
    if not np.all(np.isfinite(arr)):
        raise not_finite_error(name, arr.shape)
    return arr


def mask_array(mask, name: str) -> np.ndarray:
    """``mask`` as a NumPy array, not yet checked; a ragged or unreadable mask is a ValueError
    naming ``name``."""
    _refuse_grad(mask, name)
    try:
        return np.asarray(mask)
    except (TypeError, ValueError, RuntimeError, OverflowError) as exc:
        raise ValueError(f"{name} must be an array of booleans (True = may attend): {exc}") from None


def as_bool_mask(mask, name: str, target_shape: tuple[int, ...]) -> np.ndarray:
    """Return ``mask`` as a boolean array that broadcasts to ``target_shape``.

    ``True`` means "may attend". Raises ValueError when the mask is not boolean, does
    not broadcast to the scores' shape, or leaves a row with nothing to attend to.
    """
    arr = mask_array(mask, name)
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


def as_scale(scale) -> float | None:
    """``scale`` as a float, or None; a bool, a non-number or a non-finite value is a ValueError."""
    if scale is None:
        return None
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.floating, np.integer)):
        raise ValueError(f"scale must be a finite number or None, got {scale!r}")
    try:
        value = float(scale)
    except OverflowError:  # an int beyond float64
        raise ValueError(f"scale must be a finite number or None, got an integer of {len(str(scale))} digits") from None
    if not np.isfinite(value):
        raise ValueError(f"scale must be a finite number or None, got {scale!r}")
    return value
