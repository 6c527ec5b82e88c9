"""The worked examples, defined once as TOML files in this folder, and their one loader.

Each ``<slug>.toml`` is one self-attention example; :func:`load` reads and checks it and
:func:`run` computes every step. A new example is one more file. The folder ``rnn/`` holds the
other kind, the RNN encoder-decoder of the page on RNNs (:func:`load_rnn`, keys below). Both
kinds are read by the same code: one TOML reader, the same :class:`SpecError` naming the file,
the key and its line, the same checks of titles, matrices and decimals.

Keys of a spec file:

``title`` (str), ``tokens`` (list of str), ``embeddings`` (one list of numbers per
token, all the same length), ``projections`` ("none" for softmax(X·Xᵀ)·X, "identity",
"random" with ``seed`` (int) and ``std`` (number), or "given" with ``W_Q``, ``W_K``,
``W_V`` matrices), ``scale`` (bool, divide the scores by √d_k), ``causal`` (bool),
``decimals`` (int, the rounding the pages print); optional ``description`` (Markdown, the
first paragraphs of the example's page), ``order`` (int from 1, its place in the gallery's
reading order) and ``heads`` (int from 1 to 4, default 1: the heads of multi-head attention, as
:func:`selfattn_ref.multi_head_attention` computes them, each head taking its share of the
columns of Q, K and V and dividing its scores by √d_head, with W_O the identity; more than one
head needs d × d projection matrices, a width that the heads divide, and ``scale = true``).

A slug (the file name without ``.toml``) is lower case: letters, digits and underscores,
starting with a letter. Every example gets a page of its own on the site
(made by the publishing tools beside this package), so titles must differ too;
:func:`load_all` checks both. ``python -m publish new-example <slug>`` (a contributor's
command, in the repository) writes a new file.

Keys of an RNN spec file (``rnn/<slug>.toml``): ``title``, ``embeddings_from`` (the slug of a
self-attention example, whose tokens and embeddings (n, d_in) the encoder reads), ``decimals``,
the encoder's ``W_xh`` (d_in, d_h) and ``W_hh`` (d_h, d_h), the decoder state ``s`` (d_h,), and
additive attention's ``W_s`` (d_h, d_a), ``W_h`` (d_h, d_a) and ``v`` (d_a,).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..attention import mix, project, scaled_dot_product_attention, scores
from ..masks import causal_mask
from ..multihead import multi_head_attention
from .rules import LIMITS, MAX_PRINTED, DescriptionError, description_parts, title_problem, tokens_problem

EXAMPLES_DIR = Path(__file__).resolve().parent
RNN_DIR = EXAMPLES_DIR / "rnn"  # a subfolder, so that available() lists the self-attention examples only

_REQUIRED = {"title", "tokens", "embeddings", "projections", "scale", "causal", "decimals"}
_OPTIONAL = {"seed", "std", "W_Q", "W_K", "W_V", "description", "order", "heads"}
_PROJECTIONS = ("none", "identity", "random", "given")
_RNN_KEYS = {"title", "embeddings_from", "decimals", "W_xh", "W_hh", "s", "W_s", "W_h", "v"}
SLUG = re.compile(r"[a-z][a-z0-9_]*")
MAX_SLUG = 60
# The limits, stated once in .rules (the playground reads them too): its grid goes up to
# 16 x 16, and a page's tables stay readable.
MAX_TOKENS = LIMITS["words"]
MAX_WIDTH = LIMITS["dims"]
MAX_DECIMALS = LIMITS["decimals"]
MAGNITUDE = LIMITS["magnitude"]


class SpecError(ValueError):
    """A worked-example spec file is invalid; the message names the file and the key."""


@dataclass(frozen=True)
class Example:
    """One worked example: tokens, embeddings E (n, d) and, unless projections are
    "none", the weight matrices W_Q, W_K, W_V (d, d_k)."""

    slug: str
    title: str
    tokens: tuple[str, ...]
    E: np.ndarray
    projections: str
    W_Q: np.ndarray | None
    W_K: np.ndarray | None
    W_V: np.ndarray | None
    scale: bool
    causal: bool
    decimals: int
    path: Path
    seed: int | None = None  # projections = "random" only
    std: float | None = None  # projections = "random" only
    description: str = ""  # Markdown
    order: int | None = None  # place in the gallery's reading order (examples without one come last)
    heads: int = 1  # heads of multi-head attention (W_O the identity)


@dataclass(frozen=True)
class Steps:
    """Every intermediate result of one example, in the order the pages show them. With several
    heads, ``scores``, ``scaled`` and ``weights`` have one (n, n) matrix per head, and ``heads``
    holds each head's own steps (its columns of Q, K and V, (n, d_head) each)."""

    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    V: np.ndarray  # (n, d_v)
    scores: np.ndarray  # (n, n), Q·Kᵀ; (heads, n, n) with several heads
    scaled: np.ndarray | None  # (n, n), Q·Kᵀ/√d_k, or None without scaling; (heads, n, n), by √d_head
    weights: np.ndarray  # (n, n), rows sum to 1; (heads, n, n)
    output: np.ndarray  # (n, d_v); with several heads Concat(head_1, ..., head_h)·W_O, W_O = I
    mask: np.ndarray | None  # (n, n) boolean, or None
    heads: tuple[Steps, ...] = ()  # with several heads: each head's steps, Q, K, V (n, d_head)


def available() -> list[str]:
    """Slugs of every example file, sorted."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.toml"))


def _line_of(text: str, key: str) -> str:
    for i, line in enumerate(text.splitlines(), 1):
        if line.split("=")[0].strip() == key:
            return f", line {i}"
    return ""


def _where_text(text: str, path: Path, key: str, found: str) -> str:
    """``path, line N``: the line of ``found`` in the value of ``key`` (else the key's line)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.split("=")[0].strip() == key), None)
    if start is None:
        return str(path)
    if found:
        for i in range(start, len(lines)):
            if found in lines[i]:
                return f"{path}, line {i + 1}"
    return f"{path}, line {start + 1}"


def _number(x) -> str:
    """A value as a message shows it: repr, but a huge integer by its number of digits."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 10**30:
        return f"an integer of {len(str(abs(x)))} digits"
    if isinstance(x, float) and math.isfinite(x) and abs(x) >= 1e16:
        return f"{x:.3g}"
    return repr(x)


def _matrix(value, where: str, key: str, *, rows: int | None = None) -> np.ndarray:
    if not isinstance(value, list) or not value or not all(isinstance(r, list) and r for r in value):
        raise SpecError(f"{where}: '{key}' must be a non-empty list of non-empty lists of numbers")
    widths = {len(r) for r in value}
    if len(widths) != 1:
        raise SpecError(f"{where}: '{key}' is ragged: its rows have lengths {[len(r) for r in value]}")
    for r in value:
        for x in r:
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                raise SpecError(f"{where}: '{key}' holds {x!r}, which is not a number")
            if isinstance(x, float) and not math.isfinite(x):
                raise SpecError(f"{where}: '{key}' holds a value that is not finite ({x})")
            if not abs(x) <= MAGNITUDE:  # checked before float(x): 10**400 is an int
                raise SpecError(
                    f"{where}: '{key}' holds {_number(x)}; every number of a spec is at most {MAGNITUDE:,.0f} in size"
                )
    arr = np.array(value, dtype=np.float64)
    if rows is not None and arr.shape[0] != rows:
        raise SpecError(f"{where}: '{key}' must have {rows} rows, got {arr.shape[0]}")
    return arr


class _Spec:
    """One spec file's text, read as TOML and checked for unknown and missing keys; every check
    of a value names the file, the key and its line (:meth:`where`). Both kinds of example use it."""

    def __init__(self, text: str, path: Path, required: set[str], optional: frozenset[str] | set[str] = frozenset()):
        try:
            self.data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SpecError(f"{path}: not valid TOML: {exc}") from None
        self.text, self.path = text, path
        unknown = sorted(set(self.data) - required - optional)
        if unknown:
            raise SpecError(
                f"{self.where(unknown[0])}: unknown key '{unknown[0]}' (known keys: {sorted(required | optional)})"
            )
        missing = sorted(required - set(self.data))
        if missing:
            raise SpecError(f"{path}: missing key '{missing[0]}'")

    def where(self, key: str) -> str:
        return f"{self.path}{_line_of(self.text, key)}"

    def matrix(self, key: str, *, rows: int | None = None) -> np.ndarray:
        return _matrix(self.data.get(key), self.where(key), key, rows=rows)

    def vector(self, key: str) -> np.ndarray:
        value = self.data.get(key)
        if not isinstance(value, list) or any(isinstance(x, list) for x in value):
            raise SpecError(f"{self.where(key)}: '{key}' must be a non-empty list of numbers")
        return _matrix([value], self.where(key), key)[0]

    def title(self) -> str:
        title = self.data["title"]
        if problem := title_problem(title):
            raise SpecError(f"{self.where('title')}: {problem}")
        return title

    def decimals(self) -> int:
        decimals = self.data["decimals"]
        if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= MAX_DECIMALS:
            raise SpecError(
                f"{self.where('decimals')}: 'decimals' must be an integer from 0 to {MAX_DECIMALS}, got {decimals!r}"
            )
        return decimals


def load_file(path: Path | str) -> Example:
    """Read and check one spec file; raise SpecError naming the file, key and line."""
    path = Path(path)
    return load_text(path.read_text(encoding="utf-8"), path)


def load_text(text: str, path: Path) -> Example:
    """Check ``text`` as the spec file ``path`` (which need not exist: its name gives the slug, and
    the messages name it); raise SpecError naming the file, key and line."""
    reader = _Spec(text, path, _REQUIRED, _OPTIONAL)
    spec, where = reader.data, reader.where
    title = reader.title()
    if "description" in spec:
        try:
            description_parts(spec["description"])
        except DescriptionError as exc:
            raise SpecError(f"{_where_text(text, path, 'description', exc.found)}: {exc}") from None
    order = spec.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or order < 1):
        raise SpecError(f"{where('order')}: 'order' must be a whole number from 1 up, got {order!r}")
    tokens = spec["tokens"]
    if problem := tokens_problem(tokens):
        raise SpecError(f"{where('tokens')}: {problem}")
    E = reader.matrix("embeddings")
    if E.shape[0] != len(tokens):
        raise SpecError(
            f"{where('embeddings')}: 'embeddings' has {E.shape[0]} vectors but 'tokens' has {len(tokens)} tokens"
        )
    if E.shape[1] > MAX_WIDTH:
        raise SpecError(f"{where('embeddings')}: the embeddings have {E.shape[1]} numbers each; at most {MAX_WIDTH}")
    for key in ("scale", "causal"):
        if not isinstance(spec[key], bool):
            raise SpecError(f"{where(key)}: '{key}' must be true or false, got {spec[key]!r}")
    decimals = reader.decimals()
    kind = spec["projections"]
    if kind not in _PROJECTIONS:
        raise SpecError(f"{where('projections')}: 'projections' must be one of {list(_PROJECTIONS)}, got {kind!r}")
    d = E.shape[1]
    W_Q = W_K = W_V = None
    seed = std = None
    extra = {k for k in ("seed", "std", "W_Q", "W_K", "W_V") if k in spec}
    if kind == "identity":
        W_Q = W_K = W_V = np.eye(d)
    elif kind == "random":
        seed, std = spec.get("seed"), spec.get("std", 0.5)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= LIMITS["seed"]:
            raise SpecError(
                f"{where('seed')}: 'seed' must be an integer, got {_number(seed)}; a seed is from 0 to {LIMITS['seed']}"
            )
        if isinstance(std, bool) or not isinstance(std, (int, float)) or not 0 < std <= MAGNITUDE:
            raise SpecError(
                f"{where('std')}: 'std' must be a positive number at most {MAGNITUDE:,.0f}, got {_number(std)}"
            )
        W_Q, W_K, W_V = random_projections(seed, d, std)
        for name, W in zip(("W_Q", "W_K", "W_V"), (W_Q, W_K, W_V), strict=True):
            if not np.abs(W).max() <= MAGNITUDE:
                raise SpecError(
                    f"{where('std')}: 'std' = {std!r} draws {name} with a value of {np.abs(W).max():.3g}; every "
                    f"number of an example is at most {MAGNITUDE:,.0f} in size: use a smaller std"
                )
        extra -= {"seed", "std"}
    elif kind == "given":
        W_Q, W_K, W_V = (reader.matrix(k, rows=d) for k in ("W_Q", "W_K", "W_V"))
        if W_Q.shape[1] != W_K.shape[1]:
            raise SpecError(f"{where('W_K')}: 'W_Q' and 'W_K' must have the same number of columns")
        extra -= {"W_Q", "W_K", "W_V"}
    if extra:
        key = sorted(extra)[0]
        raise SpecError(f"{where(key)}: '{key}' has no effect with projections = {kind!r}")
    heads = _heads(spec, where, d, W_Q, W_K, W_V)
    ex = Example(
        slug=path.stem,
        title=title,
        description=spec.get("description", "").strip(),
        order=order,
        tokens=tuple(tokens),
        E=E,
        projections=kind,
        W_Q=W_Q,
        W_K=W_K,
        W_V=W_V,
        scale=spec["scale"],
        causal=spec["causal"],
        decimals=decimals,
        path=path,
        seed=seed,
        std=None if std is None else float(std),
        heads=heads,
    )
    if problem := printable_problem(ex):
        key = "embeddings" if kind in ("none", "identity") else ("std" if kind == "random" else "W_Q")
        raise SpecError(f"{where(key)}: {problem}")
    return ex


def _heads(spec: dict, where, d: int, W_Q, W_K, W_V) -> int:
    """The spec's ``heads`` (1 without the key), checked against the widths it splits."""
    heads = spec.get("heads", 1)
    top = LIMITS["heads"]
    if isinstance(heads, bool) or not isinstance(heads, int) or not 1 <= heads <= top:
        raise SpecError(f"{where('heads')}: 'heads' must be a whole number from 1 to {top}, got {_number(heads)}")
    if heads == 1:
        return heads
    for name, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)):
        if W is not None and W.shape != (d, d):
            raise SpecError(
                f"{where(name)}: with 'heads' = {heads}, '{name}' must be {d} × {d} (multi-head attention splits "
                f"d × d projections), got {W.shape[0]} × {W.shape[1]}"
            )
    if d % heads:
        raise SpecError(
            f"{where('heads')}: 'heads' = {heads} must divide the width of the embeddings, {d}: each head takes "
            f"d / heads of the columns of Q, K and V"
        )
    if not spec["scale"]:
        raise SpecError(
            f"{where('scale')}: with 'heads' = {heads}, 'scale' must be true: each head divides its scores by "
            "√d_head, as multi-head attention does"
        )
    return heads


def printable_problem(example: Example) -> str | None:
    """Why a number the example's page prints would not be finite or would not print in full at
    its decimals (at most :data:`.rules.MAX_PRINTED` in size), or None. The pages print the
    projections, the scores (scaled too), every dot product (the scores' terms), e to the power of
    each score with the row's total, the weights and the outputs."""
    with np.errstate(over="ignore", invalid="ignore"):
        st = run(example)
        logits = st.scaled if st.scaled is not None else st.scores
        allowed = np.ones(logits.shape, bool) if st.mask is None else st.mask
        powers = np.where(allowed, np.exp(np.where(allowed, logits, 0)), 0.0)  # (n, n), or (heads, n, n)
        products = np.abs(st.Q)[:, None, :] * np.abs(st.K)[None, :, :]  # every term of every dot product
        shown = {
            "Q": st.Q,
            "K": st.K,
            "V": st.V,
            "the scores": st.scores,
            "the scaled scores": st.scaled,
            "a term of a dot product": products,
            "e to the power of a score (the softmax step)": powers,
            "a row's total of those powers": powers.sum(axis=-1),
            "the weights": st.weights,
            "the output": st.output,
        }
    for what, M in shown.items():
        if M is None:
            continue
        worst = float(np.max(np.abs(np.where(np.isnan(M), np.inf, M)))) if np.size(M) else 0.0
        if not worst < MAX_PRINTED:
            size = "not finite" if not np.isfinite(worst) else f"{worst:.3g}"
            return (
                f"the page would print {what} as {size}; every number a page prints is finite and under "
                f"{MAX_PRINTED:.0e} in size, so that it prints in full at {example.decimals} decimals: use "
                "smaller numbers"
            )
    return None


def random_projections(seed: int, d: int, std: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W_Q, W_K, W_V (d, d) drawn from default_rng(seed).normal(0, std), in that order."""
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(0, std, (d, d)) for _ in range(3))


def slug_problem(slug: str) -> str | None:
    """Why ``slug`` cannot name an example, or None if it can."""
    if not isinstance(slug, str) or not SLUG.fullmatch(slug) or len(slug) > MAX_SLUG:
        return (
            f"{slug!r} is not a valid example name: use lower-case letters, digits and underscores, "
            f"starting with a letter, at most {MAX_SLUG} characters (for example 'river_bank')"
        )
    return None


def load_all(folder: Path | None = None) -> list[Example]:
    """Every example, checked one by one (:func:`load_file`) and together: each file name is a
    valid slug, and no two examples share a slug (even in another case) or a title.
    Raises SpecError naming the file, the key and the line."""
    out: list[Example] = []
    seen_slug: dict[str, Path] = {}
    seen_title: dict[str, Path] = {}
    for path in sorted((folder or EXAMPLES_DIR).glob("*.toml")):
        if problem := slug_problem(path.stem):
            raise SpecError(f"{path}: the file name gives the example's slug, and {problem}")
        if path.stem.lower() in seen_slug:
            raise SpecError(f"{path}: duplicate slug {path.stem!r}: {seen_slug[path.stem.lower()]} has it too")
        seen_slug[path.stem.lower()] = path
        ex = load_file(path)
        key = " ".join(ex.title.casefold().split())
        if key in seen_title:
            other = seen_title[key]
            raise SpecError(
                f"{path}{_line_of(path.read_text(encoding='utf-8'), 'title')}: 'title' {ex.title!r} is also the "
                f"title of {other}{_line_of(other.read_text(encoding='utf-8'), 'title')}; every example has a "
                "page of its own, so titles must differ"
            )
        seen_title[key] = path
        out.append(ex)
    return out


def load(slug: str) -> Example:
    """Load the example ``slug`` (a file ``<slug>.toml`` in this folder)."""
    path = EXAMPLES_DIR / f"{slug}.toml"
    # slug_problem first: a name that cannot be a slug (too long, a path, a NUL) never reaches the filesystem
    if not isinstance(slug, str) or slug_problem(slug) or not path.is_file():
        raise ValueError(f"unknown example {slug!r}; available: {', '.join(available())}")
    return load_file(path)


def run(example: Example) -> Steps:
    """Compute every step of ``example`` with the reference functions (with several heads,
    :func:`selfattn_ref.multi_head_attention`, W_O the identity, and each head's steps).

    Numbers too large to compute with (a result that overflows) raise ValueError naming the
    example and the quantity, e.g. "example 'x': Q (3, 4) and K (3, 4) are too large: ...".
    """
    try:
        if example.projections == "none":
            Q = K = V = example.E
        else:
            Q, K, V = project(example.E, example.W_Q, example.W_K, example.W_V)
        n, d_k = Q.shape
        mask = causal_mask(n) if example.causal else None
        if example.heads > 1:
            return _run_heads(example, Q, K, V, mask)
        S = scores(Q, K)
        scale = 1 / np.sqrt(d_k) if example.scale else 1.0
        output, weights = scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    except ValueError as exc:
        raise ValueError(f"example {example.slug!r}: {exc}") from exc
    return Steps(
        Q=Q, K=K, V=V, scores=S, scaled=S * scale if example.scale else None, weights=weights, output=output, mask=mask
    )


def _run_heads(example: Example, Q, K, V, mask) -> Steps:
    """Several heads: the output and weights of :func:`selfattn_ref.multi_head_attention` (W_O the
    identity), and each head's steps on its own columns of Q, K and V (n, d_head)."""
    h = example.heads
    d = example.E.shape[1]
    eye = np.eye(d)
    Ws = (eye, eye, eye) if example.projections == "none" else (example.W_Q, example.W_K, example.W_V)
    output, weights = multi_head_attention(example.E, *Ws, eye, h, mask=mask)  # (n, d), (h, n, n)
    d_head = d // h
    each = []
    for k in range(h):
        cols = slice(k * d_head, (k + 1) * d_head)
        q, key, v = Q[:, cols], K[:, cols], V[:, cols]  # (n, d_head)
        S = scores(q, key)
        each.append(Steps(Q=q, K=key, V=v, scores=S, scaled=S * (1 / np.sqrt(d_head)), weights=weights[k],
                          output=mix(weights[k], v), mask=mask))  # fmt: skip
    stack = np.stack
    return Steps(
        Q=Q,
        K=K,
        V=V,
        scores=stack([s.scores for s in each]),
        scaled=stack([s.scaled for s in each]),
        weights=weights,
        output=output,
        mask=mask,
        heads=tuple(each),
    )


def number_literal(x: float) -> str:
    """``x`` as TOML and Python write it: integral values without a point, others in full (repr)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 2**53 else repr(x)


# --- the other kind: the RNN encoder-decoder of docs/rnn-comparison.md -------------------------


@dataclass(frozen=True)
class RNNExample:
    """The tiny RNN encoder-decoder: the tokens and embeddings E (n, d_in) of a self-attention
    example, the encoder's weights W_xh (d_in, d_h) and W_hh (d_h, d_h), a decoder state s
    (d_h,), and additive attention's W_s (d_h, d_a), W_h (d_h, d_a) and v (d_a,)."""

    slug: str
    title: str
    tokens: tuple[str, ...]
    E: np.ndarray  # (n, d_in)
    W_xh: np.ndarray  # (d_in, d_h), input to hidden
    W_hh: np.ndarray  # (d_h, d_h), hidden to hidden
    s: np.ndarray  # (d_h,), the decoder's state
    W_s: np.ndarray  # (d_h, d_a), decoder state to attention units
    W_h: np.ndarray  # (d_h, d_a), encoder state to attention units
    v: np.ndarray  # (d_a,)
    decimals: int
    path: Path


def available_rnn() -> list[str]:
    """Slugs of every RNN spec file (``rnn/<slug>.toml``), sorted."""
    return sorted(p.stem for p in RNN_DIR.glob("*.toml"))


def load_rnn(slug: str = "the_cat_sat") -> RNNExample:
    """Load the RNN example ``slug`` (a file ``rnn/<slug>.toml`` in this folder)."""
    # a name that cannot be a slug (too long, a path, a NUL) is refused before touching the filesystem
    if not isinstance(slug, str) or slug_problem(slug) or not (RNN_DIR / f"{slug}.toml").is_file():
        raise ValueError(f"unknown RNN example {slug!r}; available: {', '.join(available_rnn())}")
    return load_rnn_file(RNN_DIR / f"{slug}.toml")


def load_rnn_file(path: Path | str) -> RNNExample:
    """Read and check one RNN spec file (keys: see the module's text); raise SpecError naming
    the file, the key and its line when a key is missing, unknown or has the wrong shape."""
    path = Path(path)
    reader = _Spec(path.read_text(encoding="utf-8"), path, _RNN_KEYS)
    spec, where = reader.data, reader.where
    title = reader.title()
    if spec["embeddings_from"] not in available():
        raise SpecError(
            f"{where('embeddings_from')}: 'embeddings_from' must name a worked example, one of {available()}, "
            f"got {spec['embeddings_from']!r}"
        )
    base = load(spec["embeddings_from"])
    W_xh = reader.matrix("W_xh", rows=base.E.shape[1])
    d_h = W_xh.shape[1]
    W_hh = reader.matrix("W_hh", rows=d_h)
    s = reader.vector("s")
    W_s = reader.matrix("W_s", rows=d_h)
    W_h = reader.matrix("W_h", rows=d_h)
    v = reader.vector("v")
    if W_hh.shape != (d_h, d_h):
        raise SpecError(f"{where('W_hh')}: 'W_hh' must have shape ({d_h}, {d_h}), got {W_hh.shape}")
    if s.shape != (d_h,):
        raise SpecError(f"{where('s')}: 's' must have {d_h} entries, got {s.shape[0]}")
    if W_h.shape[1] != W_s.shape[1] or v.shape != (W_s.shape[1],):
        raise SpecError(
            f"{where('v')}: 'W_s', 'W_h' and 'v' must have the same attention width, "
            f"got {W_s.shape}, {W_h.shape} and {v.shape}"
        )
    return RNNExample(
        slug=path.stem,
        title=title,
        tokens=base.tokens,
        E=base.E,
        W_xh=W_xh,
        W_hh=W_hh,
        s=s,
        W_s=W_s,
        W_h=W_h,
        v=v,
        decimals=reader.decimals(),
        path=path,
    )
