"""The worked examples, defined once as TOML files in this folder.

Each ``<slug>.toml`` is one example; :func:`load` reads and checks it and
:func:`run` computes every step. A new example is one more file.

Keys of a spec file:

``title`` (str), ``tokens`` (list of str), ``embeddings`` (one list of numbers per
token, all the same length), ``projections`` ("none" for softmax(X·Xᵀ)·X, "identity",
"random" with ``seed`` (int) and ``std`` (number), or "given" with ``W_Q``, ``W_K``,
``W_V`` matrices), ``scale`` (bool, divide the scores by √d_k), ``causal`` (bool),
``decimals`` (int, the rounding the pages print); optional ``description`` (Markdown, the
first paragraphs of the example's page) and ``order`` (int from 1, its place in the gallery's
reading order).

A slug (the file name without ``.toml``) is lower case: letters, digits and underscores,
starting with a letter. Every example gets a page of its own on the site
(made by the publishing tools beside this package), so titles must differ too;
:func:`load_all` checks both. ``python -m publish new-example <slug>`` (a contributor's
command, in the repository) writes a new file.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..attention import project, scaled_dot_product_attention, scores
from ..masks import causal_mask

EXAMPLES_DIR = Path(__file__).resolve().parent

_REQUIRED = {"title", "tokens", "embeddings", "projections", "scale", "causal", "decimals"}
_OPTIONAL = {"seed", "std", "W_Q", "W_K", "W_V", "description", "order"}
_PROJECTIONS = ("none", "identity", "random", "given")
SLUG = re.compile(r"[a-z][a-z0-9_]*")
MAX_SLUG = 60
# The playground's grid goes up to 16 x 16, and a page's tables stay readable.
MAX_TOKENS = 16
MAX_WIDTH = 16
MAX_DECIMALS = 10
# A token is one word as a reader would type it; characters that Markdown tables or HTML would
# read as markup (|, `, <, >, *, [, ], \\) are not allowed.
TOKEN = re.compile(r"[^\s|`<>*\[\]\\]{1,24}")


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


@dataclass(frozen=True)
class Steps:
    """Every intermediate result of one example, in the order the pages show them."""

    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    V: np.ndarray  # (n, d_v)
    scores: np.ndarray  # (n, n), Q·Kᵀ
    scaled: np.ndarray | None  # (n, n), Q·Kᵀ/√d_k, or None without scaling
    weights: np.ndarray  # (n, n), rows sum to 1
    output: np.ndarray  # (n, d_v)
    mask: np.ndarray | None  # (n, n) boolean, or None


def available() -> list[str]:
    """Slugs of every example file, sorted."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.toml"))


def _line_of(text: str, key: str) -> str:
    for i, line in enumerate(text.splitlines(), 1):
        if line.split("=")[0].strip() == key:
            return f", line {i}"
    return ""


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
    arr = np.array(value, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise SpecError(f"{where}: '{key}' holds a value that is not finite")
    if rows is not None and arr.shape[0] != rows:
        raise SpecError(f"{where}: '{key}' must have {rows} rows, got {arr.shape[0]}")
    return arr


def load_file(path: Path | str) -> Example:
    """Read and check one spec file; raise SpecError naming the file, key and line."""
    path = Path(path)
    return load_text(path.read_text(encoding="utf-8"), path)


def load_text(text: str, path: Path) -> Example:
    """Check ``text`` as the spec file ``path`` (which need not exist: its name gives the slug, and
    the messages name it); raise SpecError naming the file, key and line."""
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from None

    def where(key: str) -> str:
        return f"{path}{_line_of(text, key)}"

    unknown = sorted(set(spec) - _REQUIRED - _OPTIONAL)
    if unknown:
        raise SpecError(
            f"{where(unknown[0])}: unknown key '{unknown[0]}' (known keys: {sorted(_REQUIRED | _OPTIONAL)})"
        )
    missing = sorted(_REQUIRED - set(spec))
    if missing:
        raise SpecError(f"{path}: missing key '{missing[0]}'")
    title = spec["title"]
    if not isinstance(title, str) or not title.strip() or "\n" in title or len(title) > 80:
        raise SpecError(f"{where('title')}: 'title' must be a non-empty string of one line, at most 80 characters")
    if "description" in spec and not isinstance(spec["description"], str):
        raise SpecError(f"{where('description')}: 'description' must be a string (Markdown)")
    order = spec.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or order < 1):
        raise SpecError(f"{where('order')}: 'order' must be a whole number from 1 up, got {order!r}")
    tokens = spec["tokens"]
    if not isinstance(tokens, list) or not tokens or not all(isinstance(t, str) and t.strip() for t in tokens):
        raise SpecError(f"{where('tokens')}: 'tokens' must be a non-empty list of non-empty strings")
    for t in tokens:
        if not TOKEN.fullmatch(t):
            raise SpecError(
                f"{where('tokens')}: token {t!r} must be one word of 1 to 24 characters, without spaces "
                "or any of | ` < > * [ ] \\"
            )
    if len(tokens) > MAX_TOKENS:
        raise SpecError(f"{where('tokens')}: 'tokens' has {len(tokens)} tokens; at most {MAX_TOKENS}")
    E = _matrix(spec["embeddings"], where("embeddings"), "embeddings")
    if E.shape[0] != len(tokens):
        raise SpecError(
            f"{where('embeddings')}: 'embeddings' has {E.shape[0]} vectors but 'tokens' has {len(tokens)} tokens"
        )
    if E.shape[1] > MAX_WIDTH:
        raise SpecError(f"{where('embeddings')}: the embeddings have {E.shape[1]} numbers each; at most {MAX_WIDTH}")
    for key in ("scale", "causal"):
        if not isinstance(spec[key], bool):
            raise SpecError(f"{where(key)}: '{key}' must be true or false, got {spec[key]!r}")
    decimals = spec["decimals"]
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= MAX_DECIMALS:
        raise SpecError(
            f"{where('decimals')}: 'decimals' must be an integer from 0 to {MAX_DECIMALS}, got {decimals!r}"
        )
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
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SpecError(f"{where('seed')}: 'seed' must be an integer, got {seed!r}")
        if isinstance(std, bool) or not isinstance(std, (int, float)) or not 0 < std < float("inf"):
            raise SpecError(f"{where('std')}: 'std' must be a positive finite number, got {std!r}")
        W_Q, W_K, W_V = random_projections(seed, d, std)
        extra -= {"seed", "std"}
    elif kind == "given":
        W_Q, W_K, W_V = (_matrix(spec.get(k), where(k), k, rows=d) for k in ("W_Q", "W_K", "W_V"))
        if W_Q.shape[1] != W_K.shape[1]:
            raise SpecError(f"{where('W_K')}: 'W_Q' and 'W_K' must have the same number of columns")
        extra -= {"W_Q", "W_K", "W_V"}
    if extra:
        key = sorted(extra)[0]
        raise SpecError(f"{where(key)}: '{key}' has no effect with projections = {kind!r}")
    return Example(
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
    )


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
    if not isinstance(slug, str) or "/" in slug or not path.is_file():
        raise ValueError(f"unknown example {slug!r}; available: {', '.join(available())}")
    return load_file(path)


def run(example: Example) -> Steps:
    """Compute every step of ``example`` with the reference functions."""
    if example.projections == "none":
        Q = K = V = example.E
    else:
        Q, K, V = project(example.E, example.W_Q, example.W_K, example.W_V)
    n, d_k = Q.shape
    S = scores(Q, K)
    scale = 1 / np.sqrt(d_k) if example.scale else 1.0
    mask = causal_mask(n) if example.causal else None
    output, weights = scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    return Steps(
        Q=Q, K=K, V=V, scores=S, scaled=S * scale if example.scale else None, weights=weights, output=output, mask=mask
    )


def number_literal(x: float) -> str:
    """``x`` as TOML and Python write it: integral values without a point, others in full (repr)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 2**53 else repr(x)
