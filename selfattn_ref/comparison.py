"""Self-attention next to attention in an RNN encoder-decoder.

Two things, for the page ``docs/rnn-comparison.md``:

- the tiny worked RNN: an encoder reads "The cat sat" one token after another, and a
  decoder state ``s`` attends to its hidden states with additive (Bahdanau) and
  dot-product (Luong) scoring. Its weights are data, in ``examples/rnn/<slug>.toml``;
  :func:`load_rnn_example` reads them and :func:`run_rnn_example` computes every step.
- :func:`compare`, which counts what one layer of each kind costs for n tokens of width d.

Row-vector convention, as in the rest of the package: h_t = tanh(x_t·W_xh + h_{t-1}·W_hh).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import examples
from ._validate import as_float_array, batch_shape, finite
from .attention import softmax
from .examples import SpecError, _matrix
from .rnn import additive_attention, rnn_encoder

RNN_DIR = Path(__file__).parent / "examples" / "rnn"

_RNN_KEYS = {"title", "embeddings_from", "decimals", "W_xh", "W_hh", "s", "W_s", "W_h", "v"}


# --- scoring a decoder state against encoder states -------------------------------------


def dot_attention(s, H) -> tuple[np.ndarray, np.ndarray]:
    """Luong's dot-product attention of a decoder state over encoder states.

    score_j = s · H[j]; weights = softmax(scores); context = weights·H.
    s: (..., d_h); H: (..., n, d_h). Returns context (..., d_h) and weights (..., n).
    """
    s = as_float_array(s, "s", min_ndim=1)
    H = as_float_array(H, "H", min_ndim=2)
    if s.shape[-1] != H.shape[-1]:
        raise ValueError(f"s and H must have the same width, got s {s.shape} and H {H.shape}")
    batch_shape(("s", s.shape, 1), ("H", H.shape, 2))
    with np.errstate(over="ignore", invalid="ignore"):
        e = finite((H @ s[..., :, None])[..., 0], "the scores s . H[j] overflow", s=s, H=H)  # (..., n)
    weights = softmax(e, axis=-1)  # (..., n)
    with np.errstate(over="ignore", invalid="ignore"):
        context = (weights[..., None, :] @ H)[..., 0, :]  # (..., 1, n) @ (..., n, d_h) -> (..., d_h)
    return finite(context, "the context (the weights times H) overflows", H=H), weights


def dot_scores(s, H) -> np.ndarray:
    """The scores of :func:`dot_attention` before the softmax: s · H[j] for every j.

    s: (..., d_h); H: (..., n, d_h) -> (..., n).
    """
    s = as_float_array(s, "s", min_ndim=1)
    H = as_float_array(H, "H", min_ndim=2)
    if s.shape[-1] != H.shape[-1]:
        raise ValueError(f"s and H must have the same width, got s {s.shape} and H {H.shape}")
    batch_shape(("s", s.shape, 1), ("H", H.shape, 2))
    with np.errstate(over="ignore", invalid="ignore"):
        return finite((H @ s[..., :, None])[..., 0], "the scores s . H[j] overflow", s=s, H=H)  # (..., n)


def additive_scores(s, H, W_s, W_h, v) -> np.ndarray:
    """The scores of :func:`selfattn_ref.additive_attention` before the softmax.

    score_j = v · tanh(s·W_s + H[j]·W_h). s: (..., d_s); H: (..., n, d_h);
    W_s: (d_s, d_a); W_h: (d_h, d_a); v: (d_a,) -> (..., n).
    """
    s = as_float_array(s, "s", min_ndim=1)
    H = as_float_array(H, "H", min_ndim=2)
    W_s = as_float_array(W_s, "W_s", ndim=2)
    W_h = as_float_array(W_h, "W_h", ndim=2)
    v = as_float_array(v, "v", ndim=1)
    if W_s.shape[0] != s.shape[-1] or W_h.shape[0] != H.shape[-1] or not (W_s.shape[1] == W_h.shape[1] == v.shape[0]):
        raise ValueError(
            f"shapes do not fit: s {s.shape}, H {H.shape}, W_s {W_s.shape}, W_h {W_h.shape}, v {v.shape}; "
            "need W_s (d_s, d_a), W_h (d_h, d_a), v (d_a,)"
        )
    batch_shape(("s", s.shape, 1), ("H", H.shape, 2))
    with np.errstate(over="ignore", invalid="ignore"):
        before = (s @ W_s)[..., None, :] + H @ W_h  # (..., 1, d_a) + (..., n, d_a) -> (..., n, d_a)
        finite(before, "the input to tanh s W_s + H W_h overflows", s=s, H=H, W_s=W_s, W_h=W_h)
        return finite(np.tanh(before) @ v, "the scores v . tanh(...) overflow", v=v)  # (..., n)


# --- the worked RNN ------------------------------------------------------------------------


@dataclass(frozen=True)
class RNNExample:
    """The tiny RNN encoder-decoder: tokens and embeddings E (n, d_in) from a worked
    example, encoder weights W_xh (d_in, d_h) and W_hh (d_h, d_h), a decoder state s
    (d_h,), and additive attention's W_s (d_h, d_a), W_h (d_h, d_a) and v (d_a,)."""

    slug: str
    title: str
    tokens: tuple[str, ...]
    E: np.ndarray
    W_xh: np.ndarray
    W_hh: np.ndarray
    s: np.ndarray
    W_s: np.ndarray
    W_h: np.ndarray
    v: np.ndarray
    decimals: int
    path: Path


@dataclass(frozen=True)
class RNNSteps:
    """Every intermediate result of the worked RNN, in the order the page shows them."""

    from_input: np.ndarray  # (n, d_h), x_t·W_xh
    from_previous: np.ndarray  # (n, d_h), h_{t-1}·W_hh (h_0 = 0)
    before_tanh: np.ndarray  # (n, d_h), their sum
    H: np.ndarray  # (n, d_h), the hidden states h_1 .. h_n
    s_part: np.ndarray  # (d_a,), s·W_s
    h_parts: np.ndarray  # (n, d_a), h_j·W_h
    additive_hidden: np.ndarray  # (n, d_a), tanh(s·W_s + h_j·W_h)
    additive_scores: np.ndarray  # (n,)
    additive_weights: np.ndarray  # (n,), sum to 1
    additive_context: np.ndarray  # (d_h,)
    dot_scores: np.ndarray  # (n,)
    dot_weights: np.ndarray  # (n,), sum to 1
    dot_context: np.ndarray  # (d_h,)


def _vector(value, where: str, key: str) -> np.ndarray:
    if not isinstance(value, list) or any(isinstance(x, list) for x in value):
        raise SpecError(f"{where}: '{key}' must be a non-empty list of numbers")
    return _matrix([value], where, key)[0]


def load_rnn_example(slug: str = "the_cat_sat") -> RNNExample:
    """Load the worked RNN ``slug`` (a file ``examples/rnn/<slug>.toml``)."""
    path = RNN_DIR / f"{slug}.toml"
    # a name that cannot be a slug (too long, a path, a NUL) is refused before touching the filesystem
    if not isinstance(slug, str) or examples.slug_problem(slug) or not path.is_file():
        known = sorted(p.stem for p in RNN_DIR.glob("*.toml"))
        raise ValueError(f"unknown RNN example {slug!r}; available: {', '.join(known)}")
    return load_rnn_file(path)


def load_rnn_file(path: Path | str) -> RNNExample:
    """Read and check one RNN spec file; raise SpecError (a ValueError) naming the file and
    the key when a key is missing, unknown or has the wrong shape.

    Keys: ``title``, ``embeddings_from`` (a worked example's slug: its tokens and embeddings,
    (n, d_in)), ``decimals``, ``W_xh`` (d_in, d_h), ``W_hh`` (d_h, d_h), ``s`` (d_h,),
    ``W_s`` (d_h, d_a), ``W_h`` (d_h, d_a), ``v`` (d_a,).
    """
    path = Path(path)
    try:
        spec = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from None
    unknown, missing = sorted(set(spec) - _RNN_KEYS), sorted(_RNN_KEYS - set(spec))
    if unknown:
        raise SpecError(f"{path}: unknown key '{unknown[0]}' (known keys: {sorted(_RNN_KEYS)})")
    if missing:
        raise SpecError(f"{path}: missing key '{missing[0]}'")
    if not isinstance(spec["title"], str) or not spec["title"].strip():
        raise SpecError(f"{path}: 'title' must be a non-empty string")
    if spec["embeddings_from"] not in examples.available():
        raise SpecError(
            f"{path}: 'embeddings_from' must name a worked example, one of {examples.available()}, "
            f"got {spec['embeddings_from']!r}"
        )
    base = examples.load(spec["embeddings_from"])
    d_in = base.E.shape[1]
    where = str(path)
    W_xh = _matrix(spec["W_xh"], where, "W_xh", rows=d_in)
    d_h = W_xh.shape[1]
    W_hh = _matrix(spec["W_hh"], where, "W_hh", rows=d_h)
    s = _vector(spec["s"], where, "s")
    W_s = _matrix(spec["W_s"], where, "W_s", rows=d_h)
    W_h = _matrix(spec["W_h"], where, "W_h", rows=d_h)
    v = _vector(spec["v"], where, "v")
    if W_hh.shape != (d_h, d_h):
        raise SpecError(f"{path}: 'W_hh' must have shape ({d_h}, {d_h}), got {W_hh.shape}")
    if s.shape != (d_h,):
        raise SpecError(f"{path}: 's' must have {d_h} entries, got {s.shape[0]}")
    if W_h.shape[1] != W_s.shape[1] or v.shape != (W_s.shape[1],):
        raise SpecError(
            f"{path}: 'W_s', 'W_h' and 'v' must have the same attention width, "
            f"got {W_s.shape}, {W_h.shape} and {v.shape}"
        )
    decimals = spec["decimals"]
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 10:
        raise SpecError(f"{path}: 'decimals' must be an integer from 0 to 10, got {decimals!r}")
    return RNNExample(
        slug=path.stem,
        title=str(spec["title"]),
        tokens=base.tokens,
        E=base.E,
        W_xh=W_xh,
        W_hh=W_hh,
        s=s,
        W_s=W_s,
        W_h=W_h,
        v=v,
        decimals=decimals,
        path=path,
    )


def run_rnn_example(ex: RNNExample) -> RNNSteps:
    """Every step of the worked RNN, computed with the package's functions.

    The encoder's states H (n, d_h), then for each kind of scoring the scores and weights
    (n,) and the context (d_h,); :class:`RNNSteps` lists every field with its shape.
    """
    H = rnn_encoder(ex.E, ex.W_xh, ex.W_hh)  # (n, d_h), one state after another
    previous = np.vstack([np.zeros((1, H.shape[1])), H[:-1]])  # (n, d_h): h_0 = 0, h_1, .., h_{n-1}
    from_input, from_previous = ex.E @ ex.W_xh, previous @ ex.W_hh
    additive_context, additive_weights = additive_attention(ex.s, H, ex.W_s, ex.W_h, ex.v)
    dot_context, dot_weights = dot_attention(ex.s, H)
    s_part, h_parts = ex.s @ ex.W_s, H @ ex.W_h  # (d_a,), (n, d_a)
    return RNNSteps(
        from_input=from_input,
        from_previous=from_previous,
        before_tanh=from_input + from_previous,
        H=H,
        s_part=s_part,
        h_parts=h_parts,
        additive_hidden=np.tanh(s_part + h_parts),
        additive_scores=additive_scores(ex.s, H, ex.W_s, ex.W_h, ex.v),
        additive_weights=additive_weights,
        additive_context=additive_context,
        dot_scores=dot_scores(ex.s, H),
        dot_weights=dot_weights,
        dot_context=dot_context,
    )


# --- what a layer costs ---------------------------------------------------------------------


# --8<-- [start:compare]
def compare(n: int, d: int, d_in: int | None = None) -> dict:
    """What one layer costs for n tokens: a tanh RNN encoder and self-attention.

    Both read n vectors of width d_in (default d) and give n vectors of width d.
    Multiply-adds count the matrix products only, one multiply and one add a term:
      RNN: x_t·W_xh n·d_in·d, h_{t-1}·W_hh n·d·d (every step, the first too)
      self-attention: x·W_Q, x·W_K, x·W_V 3·n·d_in·d,
                      Q·Kᵀ n·n·d, weights·V n·n·d
    Not counted: biases, tanh, the division by √d, the softmax, an output
    projection. "Within tokens" products read one token; "between tokens" ones
    carry information from token to token. The longest path is the most updates
    (RNN state updates, or attention steps) on the way from one token's input to
    another token's output.
    """
    d_in = d if d_in is None else d_in
    for name, x in (("n", n), ("d", d), ("d_in", d_in)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ValueError(f"{name} must be a positive integer, got {x!r}")
    rnn = {
        "sequential_steps": n,  # h_t needs h_{t-1}
        "longest_path": n,  # x_1 -> h_1 -> h_2 -> ... -> h_n
        "multiply_adds_within_tokens": n * d_in * d,  # x_t·W_xh
        "multiply_adds_between_tokens": n * d * d,  # h_{t-1}·W_hh
    }
    attn = {
        "sequential_steps": 1,  # every row at once, in a few matrix products
        "longest_path": 1,  # x_1 -> z_n in one weighted sum
        "multiply_adds_within_tokens": 3 * n * d_in * d,  # x·W_Q, x·W_K, x·W_V
        "multiply_adds_between_tokens": n * n * d + n * n * d,  # Q·Kᵀ, weights·V
    }
    within = "multiply_adds_within_tokens"
    between = "multiply_adds_between_tokens"
    for m in (rnn, attn):
        m["multiply_adds"] = m[within] + m[between]
    return {
        "n": n,
        "d": d,
        "d_in": d_in,
        "rnn": rnn,
        "self_attention": attn,
        # (3·d_in + 2·n) / (d_in + d), and 2·n / d
        "ratio": attn["multiply_adds"] / rnn["multiply_adds"],
        "between_tokens_ratio": attn[between] / rnn[between],
    }


# --8<-- [end:compare]
