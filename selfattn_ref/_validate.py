"""Input checks shared by the NumPy functions (and, for the wording, by the PyTorch ones).

Every public function converts its arrays with :func:`as_float_array`, so a bad
argument fails early with a ``ValueError`` that names the argument and the shape
it got, instead of a NaN or a broadcasting error further down. Results that could overflow
are refused before they are computed, by a bound on their size that both packages compute from
the arguments alike (:func:`check_bound`), naming the arguments that were too large, and :func:`finite`
checks every result again; so are results that would hold more than :data:`MAX_ENTRIES` entries,
before they are allocated (:func:`check_size`).

The message builders here (:func:`batch_shape`, :func:`too_large`, :func:`dtype_name`,
:func:`to_real_array`, :func:`mask_array`, :func:`as_axis`, :func:`as_lengths`, :func:`as_positions`,
:func:`layer_weights`, ...) are pure
Python or NumPy and are used by ``selfattn_ref.torch`` too, so the two packages word every
message the same way. A torch tensor is recognised here without importing torch
(:func:`tensor_problem`), so the NumPy package still needs only NumPy.
"""

from __future__ import annotations

import functools
import math
import numbers
from decimal import Decimal

import numpy as np

# The most entries an array that a function makes may hold: 10**8, 800 MB of float64, far more
# than the site's examples need (the largest is a few thousand). A larger result is refused
# before it is allocated, with a message that names this limit, instead of a MemoryError or a
# raw error from the allocator.
MAX_ENTRIES = 10**8
FLOAT64_MAX = float(np.finfo(np.float64).max)


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


def digits(k: int) -> int:
    """The number of decimal digits of ``abs(k)``, also for integers too long for ``str``."""
    k = abs(int(k))
    if k < 10**15:
        return len(str(k))
    d = int(math.log10(k)) + 1  # may be one off near a power of ten: corrected below
    return d - 1 if 10 ** (d - 1) > k else d + 1 if 10**d <= k else d


def value_text(x, parens: bool = False) -> str:
    """A value as a message shows it: an integer of more than 15 digits by its number of digits
    ("an integer of 22 digits", in parentheses with ``parens``, for the middle of a sentence),
    anything else as repr, cut to 60 characters."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        if abs(int(x)) < 10**15:
            return str(int(x))
        return f"(an integer of {digits(x)} digits)" if parens else f"an integer of {digits(x)} digits"
    text = repr(x)
    return text if len(text) <= 60 else f"{text[:57]}..."


EXCERPT = 80  # the most characters of someone's text that a message quotes


def excerpt(text, limit: int = EXCERPT, quoted: bool = True) -> str:
    """What a message quotes of text it could not read, or of anything else (``str`` of it: an
    exception's message, a path): one line, every character that is not printable shown as its escape
    (``\\x00``, ``\\n``, ``\\u202e``: repr's), cut to ``limit`` characters of the escaped text with an
    ellipsis after the cut; in single quotes, or without them with ``quoted=False`` (for text that a
    message puts in parentheses of its own). Never more, whatever ``text`` holds (a whole file, a line
    of thousands of characters, control characters)."""
    text = str(text)
    shown = repr(text[: limit + 1])[1:-1]  # escaped (repr's quotes taken off): at least as long as the text
    if len(shown) > limit or len(text) > limit:
        shown = f"{shown[:limit].rstrip(chr(92))}…"  # (a cut escape's lone backslash dropped)
    return f"'{shown}'" if quoted else shown


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


# --- overflow, decided the same way by both packages ------------------------------------------------
# NumPy and PyTorch add up a matrix product or a mean in their own orders (and PyTorch accumulates a
# float32 sum in float64), so near float64's or float32's largest number one of them can overflow
# where the other does not. So before they compute, both packages bound the size of what they will
# compute from their arguments, with the same NumPy code, and refuse when a bound could reach the
# largest number (:func:`check_bound`): the same inputs are refused by both, and whatever passes is
# computed without overflow by either. A product is bounded by |A| |B|, a mean by the sum of sizes,
# a weighted sum of rows by the largest row, each with room for the rounding of its ``terms``; a
# function that calls others checks its chain one ``level`` lower, so that the bounds of what it
# computes first leave room for the checks of what it calls.
NESTED = 1  # the level of the checks of a function that calls other checked functions
_ROOM = 2.0**-16  # what each level leaves below the next one


def magnitudes(x) -> np.ndarray:
    """|x| as a float64 NumPy array (of a torch tensor too): what the bounds are computed from."""
    if is_tensor(x):
        x = tensor_numpy(x, "x")
    return np.abs(np.asarray(x, dtype=np.float64))


def product_bound(A, B) -> np.ndarray:
    """|A| @ |B| in float64: no entry of A @ B is larger (up to its rounding). A, B: arrays, tensors
    or bounds (..., n, k), (..., k, m) -> (..., n, m)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return magnitudes(A) @ magnitudes(B)


@functools.lru_cache(maxsize=1024)
def limit_of(dtype, terms: int = 1, level: int = 0) -> float:
    """The largest a bound of a sum of ``terms`` terms computed in ``dtype`` (a NumPy or torch float
    dtype) may be: the dtype's largest number, less the room the sum's rounding needs (2·γ_terms of
    it) and 2^-16 of it for each ``level`` and this one. Cached (every checked call asks it, the
    same few values)."""
    info = np.finfo(np.dtype(dtype_name(dtype)))
    rounding = terms * float(info.eps) / (1 - min(terms * float(info.eps), 0.5))
    return float(info.max) * (1 - _ROOM) ** (level + 1) / (1 + 2 * rounding)


def check_bound(bound, what: str, dtype, operands: dict, terms: int = 1, level: int = 0) -> None:
    """Refuse with :func:`too_large` (naming ``operands``) when any entry of ``bound`` passes
    :func:`limit_of`: what the function would compute could overflow, in one package or the other."""
    with np.errstate(over="ignore", invalid="ignore"):
        within = bool(np.all(np.asarray(bound, dtype=np.float64) <= limit_of(dtype, terms, level)))
    if not within:
        raise too_large(what, operands, dtype)


def check_size(shape, what: str, **operands) -> None:
    """Refuse, before it is allocated, a result of ``shape`` that would hold more than
    :data:`MAX_ENTRIES` entries: a :class:`TooLarge` naming ``operands`` (the caller's
    arguments, e.g. "Q (1000000, 1) and K (1000000, 1) are too large: the scores Q K^T would
    hold 1,000,000,000,000 entries; at most 100,000,000"), or naming ``what`` alone without them."""
    entries = math.prod(int(k) for k in shape)
    if entries <= MAX_ENTRIES:
        return
    count = f"{entries:,}" if entries < 10**15 else f"about 10^{digits(entries) - 1}"
    message = f"{what} would hold {count} entries; at most {MAX_ENTRIES:,}"
    if operands:
        names = _join([_describe(k, v) for k, v in operands.items()])
        message = f"{names} {'is' if len(operands) == 1 else 'are'} too large: {message}"
    raise TooLarge(message, what)


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


def is_tensor(x) -> bool:
    """Whether ``x`` is a torch tensor (of any subclass), told without importing torch."""
    return any(c.__name__ == "Tensor" and c.__module__ == "torch" for c in type(x).__mro__)


def _is_masked(x) -> bool:
    """A NumPy masked array or a torch MaskedTensor: numbers with a mask of their own."""
    return isinstance(x, np.ma.MaskedArray) or any(c.__name__ == "MaskedTensor" for c in type(x).__mro__)


def masked_error(name: str) -> ValueError:
    return ValueError(
        f"{name} is a masked array, whose mask the functions would ignore: pass {name}.filled(value) with "
        "the numbers you mean (and, for attention, a boolean mask argument for the keys to leave out)"
    )


def _fake(x) -> bool:
    """A torch FakeTensor (torch's FakeTensorMode, torch.compile's tracing): shapes without numbers."""
    return any(c.__name__ == "FakeTensor" for c in type(x).__mro__)


def tensor_problem(x, name: str) -> str | None:
    """Why the torch tensor ``x`` cannot be read as an array of numbers, or None: it is nested,
    not dense (a sparse layout), quantized, fake (FakeTensorMode) or on the meta device (which hold
    no numbers) or on another device than the CPU. Both packages check this before calling into torch."""
    if _fake(x):
        return f"{name} is a fake torch tensor (FakeTensorMode), which holds shapes but no numbers"
    if x.is_nested:
        return f"{name} is a nested torch tensor (rows of different lengths): pass one tensor of rows of equal length"
    layout = str(x.layout).removeprefix("torch.")
    if layout != "strided":
        return f"{name} is a torch tensor of layout {layout}, not a dense (strided) one: pass {name}.to_dense()"
    if x.is_quantized:
        return f"{name} is a quantized torch tensor (dtype {dtype_name(x.dtype)}): pass {name}.dequantize()"
    if x.device.type == "meta":
        return f"{name} is a torch tensor on the meta device, which holds shapes but no numbers"
    if x.device.type != "cpu":
        return f"{name} is a torch tensor on device {x.device.type!r}: pass {name}.cpu()"
    return None


UNREADABLE = (
    "{name} is a torch tensor whose numbers cannot be read (one inside a torch.func transform such as vmap): "
    "call the function outside it; every function takes leading batch dimensions"
)


def tensor_numpy(x, name: str) -> np.ndarray:
    """The numbers of the torch tensor ``x`` as a NumPy array (sharing its memory), read as they are
    meant: a tensor with its negative or conjugate bit set (``torch._neg_view``, ``x.conj()``) is
    resolved first. A tensor that holds no numbers of its own (a batched tensor inside
    ``torch.func.vmap``, one of ``torch.func.grad`` or ``functionalize``) is a ValueError naming ``name``."""
    try:
        return x.detach().resolve_neg().resolve_conj().numpy()
    except RuntimeError:
        raise ValueError(UNREADABLE.format(name=name)) from None


def check_tensor(x, name: str) -> None:
    """ValueError for a masked array or tensor, or a torch tensor that :func:`tensor_problem` refuses."""
    if _is_masked(x):
        raise masked_error(name)
    if is_tensor(x) and (problem := tensor_problem(x, name)):
        raise ValueError(problem)


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


def _index(name: str, idx: tuple) -> str:
    """``Q[0][1]``: where an entry is, as the nested lists that hold it index it."""
    return name + "".join(f"[{i}]" for i in idx)


def too_large_for_float64(name: str, got: str) -> ValueError:
    return ValueError(f"{name} is too large for float64, whose numbers go up to about 1.8e308 (got {got})")


def _real(v, name: str, idx: tuple) -> float:
    """One entry of an array of Python objects as a float64, or a ValueError saying what it is."""
    where = _index(name, idx)
    if v is None:
        raise ValueError(f"{where} is None, which is not a number")
    if isinstance(v, (complex, np.complexfloating)):
        raise complex_error(name, "object")
    if isinstance(v, (str, bytes)):
        raise ValueError(f"{where} is the text {value_text(v)}, which is not a number")
    if not isinstance(v, (numbers.Real, Decimal, np.number, np.bool_)) and not hasattr(v, "__float__"):
        raise ValueError(f"{where} is {_a(type(v).__name__)}, which is not a number")
    try:
        with np.errstate(over="ignore"):
            x = float(v)
    except OverflowError:  # an integer or fraction beyond float64
        raise too_large_for_float64(where, value_text(v) if isinstance(v, int) else "a number above 1.8e308") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where} is {_a(type(v).__name__)}, which is not a number ({exc})") from None
    if math.isinf(x) and not _infinite(v):  # Decimal("1e400"), a longdouble 1e4000: finite, but not in float64
        raise too_large_for_float64(where, f"{v}")
    return x


def _infinite(v) -> bool:
    if isinstance(v, Decimal):
        return v.is_infinite()
    try:
        return bool(np.isinf(v))
    except TypeError:
        return True


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _float64(arr: np.ndarray, name: str) -> np.ndarray:
    """A real array as float64 without a RuntimeWarning: entries of a longer float type (longdouble)
    beyond float64 are a ValueError naming the first, not an infinity."""
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:
        big = np.isfinite(arr) & (np.abs(arr) > FLOAT64_MAX)
        if big.any():
            idx = tuple(int(i) for i in np.argwhere(big)[0])
            got = np.format_float_scientific(arr[idx], precision=3, unique=False)
            raise too_large_for_float64(_index(name, idx), got)
    return arr.astype(np.float64)


def _tensor_as_array(x, name: str) -> np.ndarray:
    """A torch tensor as a NumPy array, for the NumPy functions: refused as :func:`tensor_problem`
    says, complex refused, requires_grad refused; float types NumPy lacks (bfloat16, float8)
    become float32 first, which holds every one of their values exactly."""
    if problem := tensor_problem(x, name):
        raise ValueError(problem)
    if x.dtype.is_complex:
        raise complex_error(name, x.dtype)
    _refuse_grad(x, name)
    if x.dtype.is_floating_point and dtype_name(x.dtype) not in ("float16", "float32", "float64"):
        x = x.float()
    return tensor_numpy(x, name)


def to_real_array(x, name: str) -> np.ndarray:
    """``x`` as a NumPy array of real numbers (an ``np.ndarray`` or torch tensor of float32 stays
    float32, anything else becomes float64), not yet checked for shape or finiteness.

    Raises ValueError naming ``name`` for ragged rows, text, None and other non-numbers (naming
    the entry), complex numbers (their imaginary part would be lost), numbers too large for
    float64, masked arrays (whose mask would be ignored), torch tensors that require grad and
    tensors that are not dense numbers on the CPU (:func:`tensor_problem`). A torch tensor of a
    float type NumPy lacks (bfloat16, float8) is converted, exactly.
    """
    if _is_masked(x):
        raise masked_error(name)
    if is_tensor(x):
        arr = _tensor_as_array(x, name)
    else:
        try:
            arr = np.asarray(x)
        except (TypeError, ValueError, RuntimeError, OverflowError) as exc:
            raise ValueError(f"{name} must be an array of numbers (rows of equal length): {exc}") from None
    if arr.dtype.kind == "c":
        raise complex_error(name, arr.dtype)
    if arr.dtype.kind == "O":
        if arr.ndim == 0 and not isinstance(arr.item(), (numbers.Real, Decimal)) and arr.item() is not None:
            raise ValueError(f"{name} must be an array of numbers, got {_a(type(arr.item()).__name__)}")
        out = np.empty(arr.shape, np.float64)
        for idx, v in np.ndenumerate(arr):
            out[idx] = _real(v, name, idx)
        return out
    if arr.dtype.kind not in "biuf":  # text, bytes, dates, records
        raise ValueError(f"{name} must be an array of numbers (rows of equal length), got dtype {arr.dtype}")
    if (isinstance(x, np.ndarray) or (is_tensor(x) and dtype_name(x.dtype) == "float32")) and arr.dtype == np.float32:
        return arr  # float32 stays float32, as in selfattn_ref.torch
    return _float64(arr, name)


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


def mask_array(mask, name: str, meaning: str = "may attend") -> np.ndarray:
    """``mask`` as a boolean NumPy array, not yet broadcast: ``True`` where a query ``meaning``
    ("may attend"). A ragged or unreadable mask, one that is not boolean (a float tensor that
    requires grad among them), a masked array and a torch tensor that :func:`tensor_problem`
    refuses are each a ValueError naming ``name``; both packages read masks here."""
    check_tensor(mask, name)
    if is_tensor(mask):
        arr = tensor_numpy(mask, name) if dtype_name(mask.dtype) == "bool" else None
        dtype = mask.dtype
    else:
        try:
            arr = np.asarray(mask)
        except (TypeError, ValueError, RuntimeError, OverflowError) as exc:
            raise ValueError(f"{name} must be an array of booleans (True = {meaning}): {exc}") from None
        dtype = arr.dtype
    if arr is None or arr.dtype != np.bool_:
        raise ValueError(f"{name} must be boolean (True = {meaning}), got dtype {dtype_name(dtype)}")
    return arr


EVERY_QUERY = "every query needs at least one key"


def as_bool_mask(mask, name: str, target_shape: tuple[int, ...], *, min_ndim: int = 2, need: str = EVERY_QUERY):
    """Return ``mask`` as a boolean array that broadcasts to ``target_shape``, the scores' shape as the
    caller gave the arguments ((..., n, m); (..., n) for one query each, ``min_ndim`` 1).

    ``True`` means "may attend". Raises ValueError when the mask is not boolean, does not
    broadcast to the scores' shape, or leaves a row with nothing to attend to (``need`` says why
    it may not).
    """
    target_shape = tuple(int(k) for k in target_shape)
    arr = mask_array(mask, name)
    if arr.ndim < min_ndim or arr.ndim > len(target_shape):
        raise ValueError(f"{name} has shape {arr.shape}, which does not fit the scores' shape {target_shape}")
    try:
        arr = np.broadcast_to(arr, target_shape)
    except ValueError:
        raise ValueError(f"{name} has shape {arr.shape}, which does not fit the scores' shape {target_shape}") from None
    empty = ~arr.any(axis=-1)
    if empty.any():
        where = tuple(int(i) for i in np.argwhere(empty)[0])
        row = f" in row {where}" if where else ""
        raise ValueError(f"{name} allows nothing{row} (shape {arr.shape}); {need}")
    return arr


def terms_mask(mask, shape: tuple[int, ...]) -> np.ndarray:
    """softmax_terms' ``mask`` as a boolean array of the scores' ``shape`` (True where a score counts)."""
    arr = mask_array(mask, "mask", "the score counts")
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        raise ValueError(f"mask has shape {arr.shape}, which does not fit the scores' shape {shape}") from None


def _finite_number(x, name: str, what: str) -> float:
    """A Python or NumPy number (not a bool) as a finite float; ``what`` says what it must be."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.floating, np.integer)):
        raise ValueError(f"{name} must be {what}, got {value_text(x)}")
    try:
        value = float(x)
    except OverflowError:  # an int beyond float64
        raise ValueError(f"{name} must be {what}, got {value_text(x)}") from None
    if math.isinf(value) and np.isfinite(x):  # a longdouble beyond float64
        got = np.format_float_scientific(x, precision=3, unique=False)
        raise ValueError(f"{name} must be {what}, got {got}, which is too large for float64")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be {what}, got {value_text(x)}")
    return value


def as_scale(scale) -> float | None:
    """``scale`` as a float, or None; a bool, a non-number or a non-finite value is a ValueError."""
    if scale is None:
        return None
    return _finite_number(scale, "scale", "a finite number or None")


def positive_float(x, name: str) -> float:
    """``x`` as a positive finite float; anything else is a ValueError naming ``name``."""
    value = _finite_number(x, name, "a positive finite number")
    if not value > 0:
        raise ValueError(f"{name} must be a positive finite number, got {value_text(x)}")
    return value


def positive_integer(n, name: str) -> int:
    """``n`` as a Python int of at least 1 (a Python or NumPy integer, not a bool)."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {value_text(n)}")
    return int(n)


def divides(num_heads, width: int, name: str, what: str) -> int:
    """``num_heads`` as a positive integer that divides ``width`` (the width of ``what``, as the
    message says it: "the width of X, got X (2, 3, 4)"); else a ValueError naming ``name``."""
    num_heads = positive_integer(num_heads, name)
    if width % num_heads:
        raise ValueError(f"{name}={value_text(num_heads, parens=True)} must divide {what}")
    return num_heads


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


LAYER = ("W_Q", "W_K", "W_V", "W_O")


def heads_and_weights(convert, X, num_heads, W_Q, W_K, W_V, W_O) -> tuple[int, dict]:
    """The arguments of a multi-head layer on X (..., n, d_model), read alike by every such function
    of both packages: ``num_heads`` as a positive int that divides d_model (:func:`divides`), and
    W_Q, W_K, W_V, W_O converted by ``convert`` and (d_model, d_model) each (:func:`layer_weights`);
    a ValueError naming the argument and X's shape otherwise."""
    shown = tuple(int(k) for k in X.shape)
    d_model = shown[-1]
    num_heads = divides(num_heads, d_model, "num_heads", f"the width of X, got X {shown}")
    given = dict(zip(LAYER, (W_Q, W_K, W_V, W_O), strict=True))
    return num_heads, layer_weights(convert, given, dict.fromkeys(LAYER, (d_model, d_model)), f"to match X {shown}")


def as_choice(value, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of the words ``choices``; anything else is a ValueError naming ``name``
    and listing them."""
    if not isinstance(value, str) or value not in choices:
        listed = " or ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be {listed}, got {value_text(value)}")
    return value


def as_axis(axis, shape: tuple[int, ...] | None, name: str = "S") -> int:
    """``axis`` as an int that indexes an axis of ``name`` of ``shape`` (negative counts from the
    end); a bool, float, text, None, tuple or an axis out of range is a ValueError naming ``axis``.
    With ``shape`` None only the type is checked."""
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)):
        raise ValueError(f"axis must be an integer (one axis of {name}), got {value_text(axis)}")
    if shape is not None and not -len(shape) <= axis < len(shape):
        shape = tuple(int(k) for k in shape)
        raise ValueError(f"axis {value_text(axis, parens=True)} is out of range for {name} of shape {shape}")
    return int(axis)


def _shown_list(values: list) -> str:
    """ "[1, 2, ...]": up to 8 values of a list as a message shows them, huge integers by their digits."""
    shown = ", ".join(value_text(v) for v in values[:8])
    return f"[{shown}, ... ({len(values)} values)]" if len(values) > 8 else f"[{shown}]"


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def integer_array(x, name: str, bad: ValueError) -> np.ndarray:
    """``x`` read as integers, exactly: an array of an integer dtype, or of Python's integers (dtype
    object: [0, 2**63] stays itself, where NumPy would read floats); a list of integers, an integer,
    an integer array or an integer tensor. Anything else is ``bad`` (floats, even whole ones, bools,
    text, ragged lists), and so is a masked array or a tensor that :func:`tensor_problem` refuses,
    with their own messages. The one reader of integer arguments (lengths, labels, word ids, counts)."""
    check_tensor(x, name)
    if is_tensor(x):
        if x.dtype.is_floating_point or x.dtype.is_complex or dtype_name(x.dtype) == "bool":
            raise bad
        return tensor_numpy(x, name)
    if _is_int(x) or (isinstance(x, (list, tuple)) and x and all(_is_int(v) for v in x)):
        arr = np.empty(() if _is_int(x) else len(x), dtype=object)  # Python's integers, as they are
        arr[...] = x
        return arr
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError, RuntimeError, OverflowError):  # ragged
        raise bad from None
    if arr.dtype == object:
        if not all(_is_int(v) for v in arr.ravel()):
            raise bad
    elif arr.dtype.kind not in "iu":
        raise bad
    return arr


def as_lengths(lengths, n: int) -> np.ndarray:
    """padding_mask's ``lengths`` as an int64 array (batch,), each from 1 to ``n``; anything else
    (not integers, ragged, empty, not one dimension, out of range, a masked array, a tensor that
    :func:`tensor_problem` refuses) is a ValueError naming ``lengths`` and showing it briefly."""
    arr = integer_array(
        lengths, "lengths", ValueError(f"lengths must be a non-empty list of integers, got {value_text(lengths)}")
    )
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"lengths must be a non-empty list of integers, got {value_text(lengths)}")
    values = [int(v) for v in arr.tolist()]  # Python ints: uint64's largest stays itself, not -1
    if not all(1 <= v <= n for v in values):
        shown = ", ".join(value_text(v) for v in values[:8])
        shown += f", ... ({len(values)} lengths)" if len(values) > 8 else ""
        raise ValueError(f"lengths must lie between 1 and n={n}, got [{shown}]")
    return np.array(values, dtype=np.int64)


# The largest position a token may have: every integer up to 2**53 is a float64 exactly, so the
# angle of a rotary pair, position times its frequency, is computed from the position itself.
MAX_POSITION = 2**53


def as_positions(positions, n: int | None, name: str = "positions") -> np.ndarray:
    """The positions of ``n`` tokens (of one or more with ``n`` None) as an int64 array (n,), each
    from 0 to :data:`MAX_POSITION` (2**53), read by :func:`integer_array` as lengths and labels are.
    Anything else (not integers, booleans, empty, the wrong length, negative, a masked array, a
    tensor that :func:`tensor_problem` refuses) is a ValueError naming the argument, ``name``."""
    count = "one or more" if n is None else f"{n}"
    bad = ValueError(
        f"{name} must be a list of {count} integers from 0 to 2**53, one per row, got {value_text(positions)}"
    )
    arr = integer_array(positions, name, bad)
    if arr.ndim != 1 or arr.size == 0:
        raise bad
    values = [int(v) for v in arr.tolist()]  # Python ints: uint64's largest stays itself
    if n is not None and len(values) != n:
        raise ValueError(f"{name} must hold {n} integers, one per row, got {len(values)}")
    if not all(0 <= v <= MAX_POSITION for v in values):
        raise ValueError(f"{name} must lie between 0 and 2**53, got {_shown_list(values)}")
    return np.array(values, dtype=np.int64)


def as_labels(labels, n: int | None, classes: int) -> np.ndarray:
    """cross_entropy's ``labels`` as int64: one class index (``n`` None, shape ()) or ``n`` of them
    (shape (n,)), each from 0 to ``classes`` - 1. Anything else (not whole numbers, booleans, the
    wrong shape, out of range, a masked array, a tensor that :func:`tensor_problem` refuses) is a
    ValueError naming ``labels``, which shows it briefly. Both packages read labels here."""
    if is_tensor(labels) and (
        labels.dtype.is_floating_point or labels.dtype.is_complex or dtype_name(labels.dtype) == "bool"
    ):
        check_tensor(labels, "labels")
        raise ValueError(f"labels must be whole numbers (class indices), got dtype {dtype_name(labels.dtype)}")
    arr = integer_array(
        labels, "labels", ValueError(f"labels must be whole numbers (class indices), got {value_text(labels)}")
    )
    want = () if n is None else (n,)
    if arr.shape != want:
        raise ValueError(f"labels must have shape {want}, one per row of logits, got shape {arr.shape}")
    values = [int(v) for v in arr.ravel().tolist()]
    if not all(0 <= v < classes for v in values):
        got = value_text(values[0]) if n is None else _shown_list(values)
        raise ValueError(f"labels must be class indices from 0 to {classes - 1}, got {got}")
    return np.array(values, dtype=np.int64).reshape(want)


def token_index(i, name: str, n: int) -> int:
    """``i`` as the index of one of the ``n`` rows of X, from 0 (a Python or NumPy integer, not a
    bool); anything else is a ValueError naming ``name`` and showing ``i`` briefly."""
    if not _is_int(i) or not 0 <= i < n:
        raise ValueError(f"{name} must be a token's index from 0 to {n - 1} (X has {n} rows), got {value_text(i)}")
    return int(i)


def call_number(f, arg, where: str) -> float:
    """``f(arg)`` as one finite float, for :func:`finite_difference`'s ``f``. An exception from f, or a
    result that is not one finite real number (an array of several, text, None, NaN), is a ValueError
    naming f and ``where`` it was called ("at W with entry (0, 1) + delta")."""
    try:
        y = f(arg)
    except Exception as exc:  # noqa: BLE001 - whatever f raises, said as f's problem, the cause kept
        raise ValueError(f"f raised {type(exc).__name__} ({excerpt(exc, 60, quoted=False)}) {where}") from exc
    size = tuple(y.shape) if hasattr(y, "shape") else None
    if size is not None and size != ():
        raise ValueError(f"f must return one number, got an array of shape {size} {where}")
    if is_tensor(y):
        y = y.detach().item()
    elif isinstance(y, np.ndarray):
        y = y.item()
    if isinstance(y, (bool, np.bool_)) or not isinstance(y, (numbers.Real, np.number)):
        raise ValueError(f"f must return one number, got {value_text(y)} {where}")
    try:
        value = float(y)
    except OverflowError:
        raise ValueError(f"f must return a number that float64 holds, got {value_text(y)} {where}") from None
    if not math.isfinite(value):
        raise ValueError(f"f must return a finite number, got {value!r} {where}")
    return value
