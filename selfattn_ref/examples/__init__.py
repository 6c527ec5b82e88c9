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
``W_V`` matrices: d rows each, at most 16 columns, W_Q and W_K as many as each other, W_V
any number), ``scale`` (bool, divide the scores by √d_k), ``causal`` (bool),
``decimals`` (int, the rounding the pages print); optional ``description`` (Markdown, the
first paragraphs of the example's page), ``order`` (int from 1, its place in the gallery's
reading order) and ``heads`` (int from 1 to 4, default 1: the heads of multi-head attention, as
:func:`selfattn_ref.multi_head_attention` computes them, each head taking its share of the
columns of Q, K and V and dividing its scores by √d_head, with W_O the identity; more than one
head needs d × d projection matrices, a width that the heads divide, and ``scale = true``).

A slug (the file name without ``.toml``) is lower case: letters, digits and underscores,
starting with a letter. Every example gets a page of its own on the site (made by the
publishing tools beside this package), so titles must differ too, also in case and in
Unicode's compatibility form (NFKC: "ﬁsh" is "fish"); :func:`load_all` checks both.
``python -m publish new-example <slug>`` (a contributor's command, in the repository) writes
a new file.

Keys of an RNN spec file (``rnn/<slug>.toml``): ``title``, ``embeddings_from`` (the slug of a
self-attention example, whose tokens and embeddings (n, d_in) the encoder reads), ``decimals``,
the encoder's ``W_xh`` (d_in, d_h) and ``W_hh`` (d_h, d_h), the decoder state ``s`` (d_h,), and
additive attention's ``W_s`` (d_h, d_a), ``W_h`` (d_h, d_a) and ``v`` (d_a,); d_h and d_a are
at most 16, as every matrix's columns (``rules.LIMITS["dims"]``).
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._files import UnsafeRead, named, read_text
from ..attention import mix, project, scaled_dot_product_attention, scores
from ..masks import causal_mask
from ..multihead import multi_head_attention
from . import _toml
from .digits import U, input_error, power_error, product_error, softmax_error, sum_error
from .rules import LIMITS, MAX_PRINTED, TextError, check_title, check_tokens, description_parts, normalized

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
# The largest spec file read: the largest one the limits allow (three 16 x 16 matrices besides the
# embeddings, every number 19 characters wide, the longest title, words and description in two-byte
# letters) is 26,505 bytes (tests/package/test_examples_spec.py); a file several times that is no
# spec, and is refused before it is read into memory.
MAX_SPEC_BYTES = 100_000


class SpecError(ValueError):
    """A worked-example spec file is invalid; the message names the file and the key."""


@dataclass(frozen=True)
class Example:
    """One worked example: tokens, embeddings E (n, d_model) and, unless projections are
    "none", the weight matrices W_Q, W_K, W_V (d_model, d_k)."""

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
    scores: np.ndarray  # (n, n), Q·Kᵀ; (num_heads, n, n) with several heads
    scaled: np.ndarray | None  # (n, n), Q·Kᵀ/√d_k, or None without scaling; (num_heads, n, n), by √d_head
    weights: np.ndarray  # (n, n), rows sum to 1; (num_heads, n, n)
    output: np.ndarray  # (n, d_v); with several heads Concat(head_1, ..., head_h)·W_O, W_O = I
    mask: np.ndarray | None  # (n, n) boolean, or None
    heads: tuple[Steps, ...] = ()  # with several heads: each head's steps, Q, K, V (n, d_head)


@dataclass(frozen=True)
class Errors:
    """Bounds on the float64 rounding error of every number of an example's steps (:func:`errors`),
    the fields and shapes of :class:`Steps`: how far each computed number may be from the same
    arithmetic done exactly on the spec's numbers as written. ``E``, ``W_Q``, ``W_K``, ``W_V``: the
    inputs' own (a decimal rounded into a float64; 0 for whole numbers and for weights a seed drew,
    which are what they are); ``terms`` and ``totals``: of e^score and of each row's total, as the
    pages write the softmax out."""

    E: np.ndarray  # (n, d)
    W_Q: np.ndarray | None  # (d, d_k), None without projections
    W_K: np.ndarray | None  # (d, d_k)
    W_V: np.ndarray | None  # (d, d_v)
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    V: np.ndarray  # (n, d_v)
    scores: np.ndarray  # (n, n); (num_heads, n, n) with several heads
    scaled: np.ndarray | None  # (n, n), or None without scaling
    weights: np.ndarray  # (n, n)
    output: np.ndarray  # (n, d_v)
    terms: np.ndarray  # (n, n): of e^score (or e^scaled score), 0 where masked
    totals: np.ndarray  # (n,): of each row's total of those
    heads: tuple[Errors, ...] = ()  # with several heads: each head's, on its columns


def errors(example: Example, steps: Steps | None = None) -> Errors:
    """Bounds on the float64 rounding error of every number of ``example``'s steps (``steps``, as
    :func:`run` gives them; computed when None), against exact arithmetic on the spec's numbers:
    the printed numbers keep only the digits these leave (:mod:`.digits`, which has the rule).
    A product of matrices is off by at most γ_k times the sum of its terms' sizes plus what its
    factors' errors carry; the softmax and e^score by their values at the ends of their scores'
    intervals (:func:`.digits.softmax_error`, :func:`.digits.power_error`)."""
    st = run(example) if steps is None else steps
    dE = input_error(example.E)
    Ws = (example.W_Q, example.W_K, example.W_V)
    if example.projections == "none":
        dWs = (None, None, None)
        dQ = dK = dV = dE
    else:  # the identity and drawn weights are exact; given ones are typed decimals
        dWs = tuple(input_error(W) if example.projections == "given" else np.zeros_like(W) for W in Ws)
        dQ, dK, dV = (product_error(example.E, W, dE, dW) for W, dW in zip(Ws, dWs, strict=True))
    if not st.heads:
        return Errors(dE, *dWs, dQ, dK, dV, **_attention_errors(st, dQ, dK, dV))
    width, width_v = st.heads[0].Q.shape[1], st.heads[0].V.shape[1]
    each = []
    for k, head in enumerate(st.heads):
        cols, cols_v = slice(k * width, (k + 1) * width), slice(k * width_v, (k + 1) * width_v)
        parts = _attention_errors(head, dQ[:, cols], dK[:, cols], dV[:, cols_v])
        each.append(Errors(dE, *dWs, dQ[:, cols], dK[:, cols], dV[:, cols_v], **parts))
    # The heads' outputs side by side, times W_O = I: exact (products by 1 and 0, sums with zeros).
    joined = {f: np.stack([getattr(e, f) for e in each]) for f in ("scores", "scaled", "weights", "terms", "totals")}
    output = np.concatenate([e.output for e in each], axis=-1)
    return Errors(dE, *dWs, dQ, dK, dV, output=output, heads=tuple(each), **joined)


def _attention_errors(st: Steps, dQ, dK, dV) -> dict[str, np.ndarray | None]:
    """The bounds of one head's scores, scaled scores, weights, output and softmax terms."""
    dS = product_error(st.Q, st.K.T, dQ, dK.T)  # (n, n)
    if st.scaled is not None:  # times 1/√d_k: that factor and the product each rounded once more
        factor = 1 / np.sqrt(st.Q.shape[1])
        dL = dS * factor + 3 * U * np.abs(st.scores) * factor
        L = st.scaled
    else:
        dL, L = dS, st.scores
    logits = L if st.mask is None else np.where(st.mask, L, -np.inf)
    dW = softmax_error(logits, dL, st.weights)
    with np.errstate(over="ignore"):
        terms = np.where(np.isfinite(logits), np.exp(np.where(np.isfinite(logits), logits, 0)), 0.0)
    d_terms = power_error(logits, dL, terms)
    return {
        "scores": dS,
        "scaled": None if st.scaled is None else dL,
        "weights": dW,
        "output": product_error(st.weights, st.V, dW, dV),
        "terms": d_terms,
        "totals": sum_error(terms, d_terms),
    }


def available() -> list[str]:
    """Slugs of every example file, sorted."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.toml"))


def spec_files(folder: Path) -> list[Path]:
    """The spec files of ``folder`` (``*.toml``), sorted; SpecError for a file whose name ends in
    another case (``x.TOML``), which would otherwise be left out without a word."""
    try:
        return named(folder, ".toml")
    except UnsafeRead as exc:
        raise SpecError(str(exc)) from None


def _line_of(text: str, key: str) -> str:
    """``, line N``: where ``key`` is written in the spec's ``text`` ("" if it is not there)."""
    entry = _toml.layout(text).get(key)
    return f", line {entry.line}" if entry else ""


def _where_text(text: str, path: Path, key: str, found: str) -> str:
    """``path, line N``: the line of ``found`` in the value of ``key`` (else the key's line)."""
    entry = _toml.layout(text).get(key)
    if entry is None:
        return str(path)
    lines = text.splitlines()
    found = found.split("\n")[0]  # a number typed over two lines is found on its first
    if found:
        for i in range(entry.line - 1, max(entry.value.end, entry.line)):
            if i < len(lines) and found in lines[i]:
                return f"{path}, line {i + 1}"
    return f"{path}, line {entry.line}"


def spec_location(path: Path, key: str, found: str = "") -> str:
    """``path, line N``: where ``found`` is written in the value of ``key`` in the spec file ``path``
    (else the key's line), for a check made outside the loader (the publishing tools' own, such as
    where a description's links lead), so that its message names the line as the loader's do."""
    try:
        return _where_text(Path(path).read_text(encoding="utf-8"), path, key, found)
    except (OSError, UnicodeDecodeError):
        return str(path)


def _where_token(text: str, path: Path, token: str) -> str:
    """``path, line N``: the line of the token ``token`` (a TOML string) in 'tokens', else its key's."""
    quoted = [q + token + q for q in "\"'"] if token else []
    return _where_text(text, path, "tokens", next((q for q in quoted if q in text), ""))


def _number(x) -> str:
    """A value as a message shows it: repr, but a huge integer by its number of digits, a huge
    float in short, a long text cut, and a long list or table by its size."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 10**30:
        return f"an integer of {_digits(x)} digits"
    if isinstance(x, float) and math.isfinite(x) and abs(x) >= 1e16:
        return f"{x:.3g}"
    if x is None:
        return "nothing"
    text = repr(x)
    if len(text) <= 60:
        return text
    if isinstance(x, str):
        return f"{x[:40]!r}... ({len(x)} characters)"
    if isinstance(x, list):
        return f"a list of {len(x)} values"
    if isinstance(x, dict):
        return f"a table of {len(x)} keys"
    return text[:40] + "..."


def _digits(x: int) -> int:
    """How many digits ``x`` has, also past Python's limit on converting integers to text."""
    n = max(1, int(abs(x).bit_length() * math.log10(2)))
    return n + (abs(x) >= 10**n)


class _Where:
    """Where a value of a spec is written: the file and the line of its key, of one of its rows, or
    of one number in a row (from :func:`._toml.layout`; the key's line where the layout has none)."""

    def __init__(self, path: Path, entry: _toml.Entry | None):
        self.path, self.entry = path, entry

    def __call__(self, row: int | None = None, col: int | None = None) -> str:
        if self.entry is None:
            return str(self.path)
        node = self.entry.value
        line = self.entry.line
        for index in (row, col):
            if index is None or index >= len(node.items):
                break
            node = node.items[index]
            line = node.line
        return f"{self.path}, line {line}"


def _row_name(i: int, labels, inline: bool = False) -> str:
    """ "row 2 (token 'b')", or inline (inside parentheses) "row 2, token 'b'"."""
    if labels is None or i >= len(labels):
        return f"row {i + 1}"
    return f"row {i + 1}, token {labels[i]!r}" if inline else f"row {i + 1} (token {labels[i]!r})"


def _matrix(value, where, key: str, *, rows: int | None = None, labels=None, flat: bool = False) -> np.ndarray:
    """``value`` as a (rows, columns) array, every row the same length and every number finite and at
    most MAGNITUDE in size; ``where(row, col)`` names the line of what is wrong. ``labels``: what
    each row is (the tokens of ``embeddings``); ``flat``: ``value`` is the one row of a vector."""
    if not isinstance(value, list) or not value or not all(isinstance(r, list) and r for r in value):
        raise SpecError(f"{where()}: '{key}' must be a non-empty list of non-empty lists of numbers")
    widths = [len(r) for r in value]
    if len(set(widths)) != 1:
        common = max(sorted(set(widths), key=widths.index), key=widths.count)  # the most rows have it
        i = next(i for i, w in enumerate(widths) if w != common)
        j = widths.index(common)
        raise SpecError(
            f"{where(i)}: '{key}' is ragged: {_row_name(i, labels)} has {widths[i]} numbers but "
            f"{_row_name(j, labels)} has {common}; every row needs as many"
        )
    for i, r in enumerate(value):
        for k, x in enumerate(r):
            at = where(k) if flat else where(i, k)
            cell = f"number {k + 1}" if flat else _row_name(i, labels, inline=True)
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                raise SpecError(f"{at}: '{key}' holds {_number(x)} ({cell}), which is not a number")
            if isinstance(x, float) and not math.isfinite(x):
                raise SpecError(f"{at}: '{key}' holds a value that is not finite ({x}, {cell})")
            if not abs(x) <= MAGNITUDE:  # checked before float(x): 10**400 is an int
                raise SpecError(
                    f"{at}: '{key}' holds {_number(x)} ({cell}); every number of a spec is at most {MAGNITUDE:,.0f} in "
                    "size"
                )
    arr = np.array(value, dtype=np.float64)
    if rows is not None and arr.shape[0] != rows:
        raise SpecError(f"{where()}: '{key}' must have {rows} rows, got {arr.shape[0]}")
    return arr


class _Spec:
    """One spec file's text, read as TOML and checked for unknown and missing keys; every check
    of a value names the file, the key and its line (:meth:`where`). Both kinds of example use it."""

    def __init__(self, text: str, path: Path, required: set[str], optional: frozenset[str] | set[str] = frozenset()):
        self.data = _toml.read(text, path, SpecError, f"every number of a spec is at most {MAGNITUDE:,.0f} in size")
        self.text, self.path = text, path
        self.layout = _toml.layout(text)
        unknown = sorted(set(self.data) - required - optional)
        if unknown:
            raise SpecError(
                f"{self.where(unknown[0])}: unknown key {_number(unknown[0])} "
                f"(known keys: {sorted(required | optional)})"
            )
        missing = sorted(required - set(self.data))
        if missing:
            raise SpecError(f"{path}: missing key '{missing[0]}'")

    def where(self, key: str) -> str:
        entry = self.layout.get(key)
        return f"{self.path}, line {entry.line}" if entry else str(self.path)

    def needs(self, key: str, by: str, what: str) -> None:
        """SpecError at ``by``'s line if ``key`` is missing: ``by`` needs it, and it is ``what``."""
        if key not in self.data:
            raise SpecError(
                f"{self.where(by)}: {by} = {self.data[by]!r} needs '{key}' ({what}), and the file does not have it"
            )

    def matrix(self, key: str, *, rows: int | None = None, labels=None) -> np.ndarray:
        return _matrix(self.data.get(key), _Where(self.path, self.layout.get(key)), key, rows=rows, labels=labels)

    def vector(self, key: str) -> np.ndarray:
        value = self.data.get(key)
        if not isinstance(value, list) or any(isinstance(x, list) for x in value):
            raise SpecError(f"{self.where(key)}: '{key}' must be a non-empty list of numbers")
        return _matrix([value], _Where(self.path, self.layout.get(key)), key, flat=True)[0]

    def title(self) -> str:
        """The title, in NFC (rules.check_title)."""
        try:
            return check_title(self.data["title"])
        except TextError as exc:
            raise SpecError(f"{self.where('title')}: {exc}") from None

    def decimals(self) -> int:
        decimals = self.data["decimals"]
        if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= MAX_DECIMALS:
            raise SpecError(
                f"{self.where('decimals')}: 'decimals' must be an integer from 0 to {MAX_DECIMALS}, "
                f"got {_number(decimals)}"
            )
        return decimals


def _columns(reader: _Spec, key: str, *, rows: int | None = None) -> np.ndarray:
    """``reader.matrix(key)``, with at most ``LIMITS["dims"]`` columns (d_k, d_v, d_h, d_a)."""
    M = reader.matrix(key, rows=rows)
    if M.shape[1] > MAX_WIDTH:
        raise SpecError(
            f"{reader.where(key)}: '{key}' has {M.shape[1]} columns; a matrix of an example has at most {MAX_WIDTH}"
        )
    return M


def read_spec(path: Path | str, folder: Path | str | None = None) -> str:
    """The text of the spec file ``path``, which is a regular file of ``folder`` (by default the
    folder it is in) reached through no symbolic link (:func:`selfattn_ref._files.read_text`: a
    link to /proc/self/environ is not read, a FIFO is not waited on); SpecError naming the file and
    what is wrong otherwise."""
    path = Path(path)
    try:
        size = os.lstat(path).st_size  # the file itself, not what a link leads to (read_text refuses links)
    except OSError:
        size = 0  # read_text says what is wrong
    if size > MAX_SPEC_BYTES:
        raise SpecError(f"{path}: {size:,} bytes; a spec file is at most {MAX_SPEC_BYTES:,} bytes")
    try:
        return read_text(path, path.parent if folder is None else folder)
    except UnsafeRead as exc:
        raise SpecError(f"{path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SpecError(f"{path}: not UTF-8 text (byte {exc.start + 1} is {exc.object[exc.start]:#04x})") from None
    except OSError as exc:  # missing, no permission
        raise SpecError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def load_file(path: Path | str, folder: Path | str | None = None) -> Example:
    """Read and check one spec file, a regular file of ``folder`` (by default the folder it is in)
    reached through no symbolic link (:func:`read_spec`); raise SpecError naming the file, key and line."""
    path = Path(path)
    return load_text(read_spec(path, folder), path)


def load_text(text: str, path: Path) -> Example:
    """Check ``text`` as the spec file ``path`` (which need not exist: its name gives the slug, and
    the messages name it); raise SpecError naming the file, key and line."""
    reader = _Spec(text, path, _REQUIRED, _OPTIONAL)
    spec, where = reader.data, reader.where
    title = reader.title()
    if "description" in spec:
        try:
            description_parts(spec["description"])
        except TextError as exc:
            raise SpecError(f"{_where_text(text, path, 'description', exc.found)}: {exc}") from None
    order = spec.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or order < 1):
        raise SpecError(f"{where('order')}: 'order' must be a whole number from 1 up, got {_number(order)}")
    try:
        tokens = check_tokens(spec["tokens"])  # in NFC
    except TextError as exc:
        raise SpecError(f"{_where_token(text, path, exc.found)}: {exc}") from None
    E = reader.matrix("embeddings", labels=tokens)
    if E.shape[0] != len(tokens):
        raise SpecError(
            f"{where('embeddings')}: 'embeddings' has {E.shape[0]} vectors but 'tokens' has {len(tokens)} tokens"
        )
    if E.shape[1] > MAX_WIDTH:
        raise SpecError(f"{where('embeddings')}: the embeddings have {E.shape[1]} numbers each; at most {MAX_WIDTH}")
    for key in ("scale", "causal"):
        if not isinstance(spec[key], bool):
            raise SpecError(f"{where(key)}: '{key}' must be true or false, got {_number(spec[key])}")
    decimals = reader.decimals()
    kind = spec["projections"]
    if kind not in _PROJECTIONS:
        raise SpecError(
            f"{where('projections')}: 'projections' must be one of {list(_PROJECTIONS)}, got {_number(kind)}"
        )
    d = E.shape[1]
    W_Q = W_K = W_V = None
    seed = std = None
    extra = {k for k in ("seed", "std", "W_Q", "W_K", "W_V") if k in spec}
    if kind == "identity":
        W_Q = W_K = W_V = np.eye(d)
    elif kind == "random":
        reader.needs("seed", "projections", f"an integer from 0 to {LIMITS['seed']}, the seed of the random weights")
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
                    f"{where('std')}: 'std' = {_number(std)} draws {name} with a value of {np.abs(W).max():.3g}; every "
                    f"number of an example is at most {MAGNITUDE:,.0f} in size: use a smaller std"
                )
        extra -= {"seed", "std"}
    elif kind == "given":
        for name in ("W_Q", "W_K", "W_V"):
            reader.needs(name, "projections", f"a matrix of {d} rows, one a feature of the embeddings")
        W_Q, W_K, W_V = (_columns(reader, k, rows=d) for k in ("W_Q", "W_K", "W_V"))
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
        description=normalized(spec.get("description", "")).strip(),
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
    """Why a number the example's page prints would not be finite or would not print in full,
    without exponent notation (under :data:`.rules.MAX_PRINTED` in size once rounded), or None;
    :mod:`.digits` says how many of its decimals print. The pages print the
    projections, the scores (scaled too), every dot product (the scores' terms), e to the power of
    each score with the row's total, the weights and the outputs."""
    with np.errstate(over="ignore", invalid="ignore"):
        st = run(example)
        logits = st.scaled if st.scaled is not None else st.scores
        allowed = np.ones(logits.shape, bool) if st.mask is None else st.mask
        powers = np.where(allowed, np.exp(np.where(allowed, logits, 0)), 0.0)  # (n, n), or (num_heads, n, n)
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
        if not worst < MAX_PRINTED - 0.5:  # under 1e15 once rounded: at most 15 digits before the point
            size = "not finite" if not np.isfinite(worst) else f"{worst:.3g}"
            return (
                f"the page would print {what} as {size}; every number a page prints is finite and under "
                f"{MAX_PRINTED:.0e} in size, so that it prints in full, without exponent notation: use "
                "smaller numbers"
            )
    err = errors(example, st)
    bounds = {"Q": err.Q, "K": err.K, "V": err.V, "the scores": err.scores, "the scaled scores": err.scaled,
              "e to the power of a score (the softmax step)": err.terms, "a row's total of those powers": err.totals,
              "the weights": err.weights, "the output": err.output}  # fmt: skip
    for what, bound in bounds.items():
        if bound is not None and not np.max(bound) <= 0.5:  # not even the units digit would be held
            return (
                f"the page would print {what} with float64 rounding errors of up to {np.max(bound):.2g}: the "
                "numbers that make them are large and cancel, so that not even their units digit is held "
                "(selfattn_ref.examples.errors); use smaller numbers"
            )
    return None


def random_projections(seed: int, d: int, std: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W_Q, W_K, W_V (d, d) drawn from default_rng(seed).normal(0, std), in that order."""
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(0, std, (d, d)) for _ in range(3))


# Names Windows keeps for its devices: no file or folder may be called so (nor so with any
# extension: con.toml, con.md), whatever the case. A slug names a spec, a page and a folder.
WINDOWS_DEVICES = frozenset({"con", "prn", "aux", "nul", *(f"{p}{i}" for p in ("com", "lpt") for i in range(10))})


def slug_problem(slug: str) -> str | None:
    """Why ``slug`` cannot name an example, or None if it can."""
    if not isinstance(slug, str) or not SLUG.fullmatch(slug) or len(slug) > MAX_SLUG:
        return (
            f"{_number(slug)} is not a valid example name: use lower-case letters, digits and underscores, "
            f"starting with a letter, at most {MAX_SLUG} characters (for example 'river_bank')"
        )
    if slug.split(".")[0].lower() in WINDOWS_DEVICES:  # Windows reads the name before the first dot
        return (
            f"{slug!r} is not a valid example name: {slug.upper()} is a device name on Windows (as are CON, PRN, "
            "AUX, NUL, COM0 to COM9 and LPT0 to LPT9), so no file there can be called so; choose another name"
        )
    return None


def load_all(folder: Path | None = None) -> list[Example]:
    """Every example, checked one by one (:func:`load_file`) and together: each file name is a
    valid slug, and no two examples share a slug (even in another case) or a title.
    Raises SpecError naming the file, the key and the line."""
    out: list[Example] = []
    seen_slug: dict[str, Path] = {}
    seen_title: dict[str, Path] = {}
    folder = Path(folder or EXAMPLES_DIR)
    for path in spec_files(folder):
        if problem := slug_problem(path.stem):
            raise SpecError(f"{path}: the file name gives the example's slug, and {problem}")
        if path.stem.lower() in seen_slug:
            raise SpecError(f"{path}: duplicate slug {path.stem!r}: {seen_slug[path.stem.lower()]} has it too")
        seen_slug[path.stem.lower()] = path
        ex = load_file(path, folder)
        key = " ".join(unicodedata.normalize("NFKC", ex.title).casefold().split())  # "ﬁsh" and "Fish" look alike
        if key in seen_title:
            other = seen_title[key]
            raise SpecError(
                f"{path}{_line_of(read_spec(path, folder), 'title')}: 'title' {ex.title!r} is also the "
                f"title of {other}{_line_of(read_spec(other, folder), 'title')}; every example has a "
                "page of its own, so titles must differ"
            )
        seen_title[key] = path
        out.append(ex)
    return out


def load(slug: str) -> Example:
    """Load the example ``slug`` (a file ``<slug>.toml`` in this folder)."""
    path = EXAMPLES_DIR / f"{slug}.toml"
    # slug_problem first: a name that cannot be a slug (too long, a path, a NUL) never reaches the filesystem
    if not isinstance(slug, str) or slug_problem(slug) or not os.path.lexists(path):
        raise ValueError(f"unknown example {_number(slug)}; available: {', '.join(available())}")
    return load_file(path, EXAMPLES_DIR)


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
    if not isinstance(slug, str) or slug_problem(slug) or not os.path.lexists(RNN_DIR / f"{slug}.toml"):
        raise ValueError(f"unknown RNN example {_number(slug)}; available: {', '.join(available_rnn())}")
    return load_rnn_file(RNN_DIR / f"{slug}.toml", RNN_DIR)


def load_rnn_file(path: Path | str, folder: Path | str | None = None) -> RNNExample:
    """Read and check one RNN spec file (keys: see the module's text), a regular file of ``folder``
    (by default the folder it is in) reached through no symbolic link; raise SpecError naming
    the file, the key and its line when a key is missing, unknown or has the wrong shape."""
    path = Path(path)
    reader = _Spec(read_spec(path, folder), path, _RNN_KEYS)
    spec, where = reader.data, reader.where
    title = reader.title()
    if spec["embeddings_from"] not in available():
        raise SpecError(
            f"{where('embeddings_from')}: 'embeddings_from' must name a worked example, one of {available()}, "
            f"got {_number(spec['embeddings_from'])}"
        )
    base = load(spec["embeddings_from"])
    W_xh = _columns(reader, "W_xh", rows=base.E.shape[1])
    d_h = W_xh.shape[1]
    W_hh = _columns(reader, "W_hh", rows=d_h)
    s = reader.vector("s")
    W_s = _columns(reader, "W_s", rows=d_h)
    W_h = _columns(reader, "W_h", rows=d_h)
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
