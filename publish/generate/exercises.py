"""Exercises graded in the page: ``docs/exercises/<page>.toml`` becomes the block that
``docs/<page>.md`` includes at its end (``docs/generated/exercises/<page>.md``).

A spec file holds a list of ``[[exercise]]`` tables. Each one names what the reader computes as an
*answer expression* over a worked example of :mod:`selfattn_ref.examples` (or over the cost model
of :func:`selfattn_ref.topics.rnn_comparison.compare`), and the expected answer is computed here, from the
package, when ``make update`` runs: nobody types it. The page's script
(``docs/assets/javascripts/exercises.js``) grades what the reader types against it, at the
rounding the question asks for.

Keys of an ``[[exercise]]`` (see ``docs/exercises/real-numbers.toml`` for a commented one):

- ``id``: a name, unique on the page (lower-case letters, digits and hyphens);
- ``question``, ``solution`` (Markdown) and ``hints`` (a list of 1 to 4 Markdown strings, shown one at
  a time); numbers in them are written as ``{{expression}}`` and filled in from the package, so that
  no number in an exercise is typed by hand;
- ``example``: the worked example's slug; with optional overrides ``scale``, ``causal`` (booleans),
  ``positions`` (true: add the sinusoidal positional encoding to the embeddings), ``heads`` and
  ``head`` (look at one head: head ``head`` of ``heads`` equal slices of Q, K and V, scaled by
  1/√d_head) and ``embedding`` (``{token = "river", vector = [...]}``: that token's embedding changed);
- or ``compare``: ``{n = ..., d = ...}``, the cost model of the RNN comparison page;
- or ``topic``: a computation of a topic page that is not a worked example: one of :data:`TOPICS`,
  ``"transformer_block"``, the block of docs/transformer-block.md, whose matrices
  are ``X``, ``Y`` (the attention's output), ``sum_1`` (X + Y), ``mean_1``, ``var_1`` (one column:
  μ and σ² of each row of X + Y), ``Z``, ``W_1``, ``b_1`` (one row), ``hidden`` (Z·W_1 + b_1),
  ``relu``, ``W_2``, ``b_2``, ``ffn``, ``sum_2`` (Z + FFN(Z)), ``mean_2``, ``var_2`` and ``out``, with
  the known mistakes ``sample_var_1`` (divided by n - 1), ``std_1`` (√σ², not σ²) and
  ``Z_over_var`` (divided by σ², not by √(σ² + ε)) and ``ffn_total`` (a row of FFN(Z) added up, not
  divided by 4), and the number ``eps`` (ε); or the name of a
  computation a topic page registers with :func:`topic_values` (the training step of
  docs/learning.md, the training run of docs/attention-that-learns.md): its numbers, named by
  dotted keys as with ``compare``;
- ``answer``: the expression; ``decimals`` (0 to 6) and ``percent`` (true: asked as a percentage);
- ``mistakes`` (optional): ``[{answer = "...", message = "..."}]``, answers a reader gets by a known
  mistake, with what to tell them.

Besides those, every exercise over a worked example knows, without being told, the answers a reader
gets by working from another value the page shows (:func:`_other_answers`): the same expression
over every other worked example the page quotes (its front matter's ``audit.sources``), and over
its own example with a setting turned the other way (without the positions; with or without the
division by √d_k, where the example or the exercise scales or sets it; without the causal mask; one
head of full width, another head, or the head without its division by √d_head), and, for a row or
an entry of the weights, plain division (each score over the total of the scores, no e^: the slip
the first page rules out). Each gets a message that says what the reader computed.

:func:`grade` grades what a reader types exactly as the page's script does (the two are held equal
by tests/browser/test_exercises_graded.py): a number within the rounding of the question is right;
the right numbers typed with fewer decimals than asked are told so (not graded), and so are those
rounded twice (the answer as shown, rounded again), with why the last decimal moved; one off in the
last of at least two decimals is right, up to rounding, and told so, unless its sign is not the
answer's (no rounding turns a sign, or moves a number that is exactly 0, a ReLU's output or a
masked key's weight); a number cut off after some decimals instead of rounded ("66" for 66.52; in a
row, the others right) is told so, with how to round, wherever cutting and rounding differ
(``cut[p]``: the answer cut off after p decimals); a known mistake gets its message; a sign turned
is told so, and so is a decimal comma ("66,5"), which the page would read as two numbers.

Expressions: ``M[row, col]`` is one number and ``M[row]`` a row, for M one of ``E``, ``Q``, ``K``,
``V``, ``scores``, ``scaled``, ``weights``, ``output``, ``exp`` (the softmax's numerators
e^score), ``scores_over_dk`` (the scores divided by d_k: a known mistake), ``plain`` (each score over
its row's total: a known mistake), ``W_Q``, ``W_K``, ``W_V``
(rows by position) and ``PE`` (the positional encoding, with ``positions``); rows are named by their token (or
their 1-based position), columns of a token-by-token matrix by token, other columns by position.
``total[row]`` is a row's sum of e^score, and ``sqrt_dk`` is √d_k. With ``compare``, an expression is
a key of its result: ``ratio``, ``rnn.multiply_adds``, ``self_attention.longest_path``, ..., and the
known mistakes ``mistake.scores_only`` (Q·Kᵀ counted, weights·V not) and ``mistake.ratio_inverted``.

A bad spec raises :class:`ExerciseSpecError` naming the file, the key and the line.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, Decimal
from functools import cache
from pathlib import Path

import numpy as np

from selfattn_ref import examples
from selfattn_ref.attention import scaled_dot_product_attention, softmax_terms
from selfattn_ref.examples import _toml
from selfattn_ref.examples.rules import GROUPED
from selfattn_ref.positional import sinusoidal_positional_encoding

from .. import DOCS, ROOT
from ..escape import md_text
from ..files import UnsafeRead, named, read_text
from ..fmt import grouped, num
from ..source.pages import split_front_matter
from .registry import generated, name_of
from .tables import operand

SPEC_DIR = DOCS / "exercises"
MAX_DECIMALS = 6
_ID = re.compile(r"[a-z][a-z0-9-]{0,40}")
_KEYS = {
    "id", "question", "hints", "solution", "example", "compare", "answer", "decimals", "percent", "mistakes",
    "scale", "causal", "positions", "heads", "head", "embedding", "topic",
}  # fmt: skip
_REQUIRED = {"id", "question", "hints", "solution", "answer", "decimals"}
_EXPR = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*\[\s*([^,\]]+?)\s*(?:,\s*([^\]]+?)\s*)?\]\s*$")
_SQUARE = ("scores", "scaled", "weights", "exp", "scores_over_dk", "plain")  # token-by-token matrices
_PLACEHOLDER = re.compile(r"\{\{(.+?)\}\}")
# A decimal, a percentage or a number grouped in thousands ("8,192", as the numbers audit reads one)
# typed in prose: numbers come from placeholders.
_TYPED_NUMBER = re.compile(rf"(?<![\w.{{])\d+(?:\.\d+)?\s?%|(?<![\w.{{])\d+\.\d+|(?<![\w.{{]){GROUPED}")


# A topic's name -> a function giving its numbers as (nested) dicts; see topic_values.
_TOPICS: dict = {}


def topic_values(name: str):
    """Register a function that returns the numbers an exercise with ``topic = name`` may ask for,
    as a dict of numbers and dicts (an expression names one by dotted keys: ``step.loss``)."""

    def register(fn):
        _TOPICS[name] = fn
        return fn

    return register


class _Values(dict):
    """The numbers of ``compare()`` or of a topic, with what to call them in a message."""

    def __init__(self, values: dict, label: str):
        super().__init__(values)
        self.label = label


class ExerciseSpecError(ValueError):
    """A spec file of exercises is wrong; the message names the file, the key and the line."""


@dataclass(frozen=True)
class Answer:
    values: tuple[float, ...]  # one number, or a row
    labels: tuple[str, ...]  # what each number is (a row's tokens), empty for one number


@dataclass(frozen=True)
class Exercise:
    page: str
    id: str
    question: str
    hints: tuple[str, ...]
    solution: str
    answer: Answer
    decimals: int
    percent: bool
    mistakes: tuple[tuple[Answer, str], ...]
    context: object  # what expressions are evaluated against


def _line(text: str, key: str, occurrence: int = 0) -> str:
    """ ", line N" of the occurrence-th line that sets ``key`` (the exercise's own), or ""."""
    found = [i for i, line in enumerate(text.splitlines(), 1) if line.split("=")[0].strip() == key]
    return f", line {found[min(occurrence, len(found) - 1)]}" if found else ""


# --- what an expression is evaluated against ------------------------------------------------------


@dataclass(frozen=True)
class ExampleContext:
    tokens: tuple[str, ...]
    matrices: dict  # name -> (n, k) array
    sqrt_dk: float
    scalars: dict = field(default_factory=dict)  # name -> a number an expression may be, such as a topic's eps


def _block_context() -> ExampleContext:
    """The transformer block of docs/transformer-block.md (see the module's docstring)."""
    from selfattn_ref.topics.transformer_block import block

    B = block()
    s, W = B.steps, B.weights
    n, d = B.X.shape

    def column(v) -> np.ndarray:  # (n,) -> (n, 1)
        return np.asarray(v, dtype=np.float64)[:, None]

    centred = s.sum_1 - column(B.mean_1)
    matrices = {
        "X": B.X, "Y": s.attention, "sum_1": s.sum_1, "mean_1": column(B.mean_1), "var_1": column(B.variance_1),
        "Z": s.norm_1, "W_1": W.W_1, "b_1": W.b_1[None, :], "hidden": s.hidden, "relu": s.relu,
        "W_2": W.W_2, "b_2": W.b_2[None, :], "ffn": s.ffn, "sum_2": s.sum_2, "mean_2": column(B.mean_2),
        "var_2": column(B.variance_2), "out": s.output,
        # known mistakes: the variance divided by n - 1, its square root, a division by σ² itself
        "sample_var_1": column((centred**2).sum(axis=1) / (d - 1)),
        "std_1": column(np.sqrt(B.variance_1)),
        "Z_over_var": centred / column(B.variance_1),
        # and the total of a row of FFN(Z), not divided by the number of entries
        "ffn_total": column(s.ffn.sum(axis=1)),
    }  # fmt: skip
    return ExampleContext(B.tokens, matrices, float(np.sqrt(d // W.num_heads)), {"eps": W.eps})


def _compare_context(result: dict) -> dict:
    """compare()'s numbers, with the known mistakes ``mistake.scores_only`` (the between-token
    multiply-adds of Q·Kᵀ alone, without weights·V, which costs the same) and ``mistake.ratio_inverted``
    (the RNN's cost over self-attention's, the division the wrong way round)."""
    attn = result["self_attention"]
    return {
        **result,
        "mistake": {
            "scores_only": attn["multiply_adds_between_tokens"] // 2,
            "ratio_inverted": result["rnn"]["multiply_adds"] / attn["multiply_adds"],
        },
    }


# The computations an exercise may name with ``topic``, each a function giving its context.
TOPICS = {"transformer_block": _block_context}


def _example_context(ex_spec: dict, where: str) -> ExampleContext:
    slug = ex_spec["example"]
    if slug not in examples.available():
        raise ExerciseSpecError(
            f"{where}: 'example' is {slug!r}, not a worked example; choose one of {examples.available()}"
        )
    ex = examples.load(slug)
    changes = {k: ex_spec[k] for k in ("scale", "causal") if k in ex_spec}
    for k, v in changes.items():
        if not isinstance(v, bool):
            raise ExerciseSpecError(f"{where}: '{k}' must be true or false, got {v!r}")
    E = ex.E.copy()
    if "embedding" in ex_spec:
        change = ex_spec["embedding"]
        if not isinstance(change, dict) or set(change) != {"token", "vector"} or change["token"] not in ex.tokens:
            raise ExerciseSpecError(
                f"{where}: 'embedding' must be {{token = <one of {list(ex.tokens)}>, vector = [...]}}"
            )
        vector = change["vector"]
        if (
            not isinstance(vector, list)
            or len(vector) != E.shape[1]
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vector)
        ):
            raise ExerciseSpecError(f"{where}: 'embedding.vector' must be {E.shape[1]} numbers")
        E[ex.tokens.index(change["token"])] = np.array(vector, dtype=np.float64)
    PE = None
    if ex_spec.get("positions", False):
        PE = sinusoidal_positional_encoding(*E.shape)
        E = E + PE
    undone = ex.heads > 1 and ex_spec.get("heads") == 1 and "head" not in ex_spec
    if undone:
        changes["heads"] = 1  # (a known mistake) one head over all the columns, as _other_answers asks
    ex = replace(ex, E=E, **changes)
    st = examples.run(ex)
    Q, K, V, scaled = st.Q, st.K, st.V, st.scaled
    weights, output, scores = st.weights, st.output, st.scores
    d_k = Q.shape[1]
    if ex.heads > 1:  # the example has heads of its own: the question names one, and reads its steps
        head = ex_spec.get("head")
        if ex_spec.get("heads") != ex.heads or not (
            isinstance(head, int) and not isinstance(head, bool) and 1 <= head <= ex.heads
        ):
            raise ExerciseSpecError(
                f"{where}: example {slug!r} has {ex.heads} heads: say heads = {ex.heads} and which head "
                f"the question is about, head = 1 to {ex.heads}"
            )
        one = st.heads[head - 1]
        Q, K, V, scores, scaled, weights = one.Q, one.K, one.V, one.scores, one.scaled, one.weights
        output = one.output
        d_k = Q.shape[1]
    elif ("heads" in ex_spec or "head" in ex_spec) and not undone:
        heads, head = ex_spec.get("heads"), ex_spec.get("head")
        if not (isinstance(heads, int) and isinstance(head, int) and heads >= 1 and 1 <= head <= heads):
            raise ExerciseSpecError(f"{where}: 'heads' and 'head' go together: 1 <= head <= heads")
        if Q.shape[1] % heads or V.shape[1] % heads:
            raise ExerciseSpecError(f"{where}: 'heads' = {heads} must divide the width {Q.shape[1]}")
        cols = slice((head - 1) * (Q.shape[1] // heads), head * (Q.shape[1] // heads))
        vcols = slice((head - 1) * (V.shape[1] // heads), head * (V.shape[1] // heads))
        Q, K, V = Q[:, cols], K[:, cols], V[:, vcols]
        d_k = Q.shape[1]
        mask = st.mask
        output, weights = scaled_dot_product_attention(Q, K, V, mask=mask, scale=1 / np.sqrt(d_k))
        scores = Q @ K.T
        scaled = scores / np.sqrt(d_k)
    if "heads" in ex_spec and ex_spec.get("scale", True) is False:  # (a known mistake) a head not scaled
        output, weights = scaled_dot_product_attention(Q, K, V, mask=st.mask, scale=1.0)
        scaled = None
    logits = scaled if scaled is not None and (ex.scale or "heads" in ex_spec) else scores
    e, _ = softmax_terms(logits, st.mask)  # e^score, 0 where the mask hides a key
    matrices = {"E": E, "Q": Q, "K": K, "V": V, "scores": scores, "weights": weights, "output": output, "exp": e}
    matrices["scores_over_dk"] = scores / d_k  # a known mistake: dividing by d_k, not √d_k
    matrices["plain"] = _plain_division(scores, st.mask)  # a known mistake: no e^, each score over their total
    if ex.W_Q is not None and "heads" not in ex_spec:
        matrices |= {"W_Q": ex.W_Q, "W_K": ex.W_K, "W_V": ex.W_V}
    if scaled is not None:
        matrices["scaled"] = scaled
    if PE is not None:
        matrices["PE"] = PE
    return ExampleContext(ex.tokens, matrices, float(np.sqrt(d_k)))


def _plain_division(scores: np.ndarray, mask) -> np.ndarray:
    """Each score over the total of its row's scores (the keys the mask leaves), 0 where the mask
    hides a key: the weights of someone who divides without raising e to the scores first. NaN
    where a row's scores add up to 0 (no such answer to recognize)."""
    allowed = np.ones_like(scores, dtype=bool) if mask is None else np.broadcast_to(mask, scores.shape)
    kept = np.where(allowed, scores, 0.0)
    totals = kept.sum(axis=-1, keepdims=True)
    return np.divide(kept, totals, out=np.full_like(kept, np.nan), where=totals != 0)


def _label_index(label: str, names: tuple[str, ...], what: str, where: str) -> int:
    if label in names:
        return names.index(label)
    if label.isdigit() and 1 <= int(label) <= len(names):
        return int(label) - 1
    raise ExerciseSpecError(f"{where}: {what} {label!r} is not one of {list(names)} (or a position 1..{len(names)})")


def evaluate(expr: str, context, where: str) -> Answer:
    """The value of an answer expression in a context; ExerciseSpecError when it names nothing."""
    expr = expr.strip()
    if isinstance(context, dict):  # compare() or a topic's numbers
        label = getattr(context, "label", "compare()")
        value = context
        for part in expr.split("."):
            if not isinstance(value, dict) or part not in value:
                raise ExerciseSpecError(f"{where}: {expr!r} is not a value of {label}; it has {sorted(context)}")
            value = value[part]
        if isinstance(value, dict) or isinstance(value, bool):
            raise ExerciseSpecError(f"{where}: {expr!r} is not a number of {label}")
        return Answer((float(value),), ())
    if expr == "sqrt_dk":
        return Answer((context.sqrt_dk,), ())
    if expr in context.scalars:
        return Answer((float(context.scalars[expr]),), ())
    m = _EXPR.match(expr)
    if not m:
        raise ExerciseSpecError(f"{where}: {expr!r} is not an answer expression such as weights[bank, river]")
    name, row, col = m.groups()
    tokens = context.tokens
    if name == "total":
        if col is not None:
            raise ExerciseSpecError(f"{where}: total[row] takes one label, got {expr!r}")
        i = _label_index(row, tokens, "row", where)
        return Answer((float(context.matrices["exp"][i].sum()),), ())
    if name not in context.matrices:
        raise ExerciseSpecError(f"{where}: {name!r} is not a matrix here; choose one of {sorted(context.matrices)}")
    M = np.asarray(context.matrices[name], dtype=np.float64)
    by_position = name.startswith("W_") or M.shape[0] != len(tokens)  # weights, and one-row vectors (b_1)
    rows = tuple(str(k + 1) for k in range(M.shape[0])) if by_position else tokens
    i = _label_index(row, rows, "row", where)
    columns = tokens if M.shape[1] == len(tokens) and name in _SQUARE else tuple(str(k + 1) for k in range(M.shape[1]))
    if col is None:
        return Answer(tuple(float(x) for x in M[i]), columns)
    return Answer((float(M[i, _label_index(col, columns, "column", where)]),), ())


# --- the answers of other values the page shows ----------------------------------------------------


def page_examples(page: str) -> tuple[str, ...]:
    """The worked examples the page docs/<page>.md quotes: its audit sources that are examples."""
    path = DOCS / f"{page}.md"
    meta, _, _ = split_front_matter(path.read_text(encoding="utf-8")) if path.is_file() else ({}, 0, "")
    sources = (meta.get("audit") or {}).get("sources") or []
    return tuple(s for s in sources if s in examples.available())


def _other_answers(spec: dict, page: str, where: str) -> list[tuple[Answer, str]]:
    """(answer, message) for what a reader gets by computing the exercise's expression from another
    value its page shows: another worked example of the page, or the exercise's own example with one
    of its settings the other way. An expression that does not apply there is skipped."""
    slug = spec["example"]
    ex = examples.load(slug)
    variants: list[tuple[dict, str]] = []
    if spec.get("positions", False):
        variants.append(
            (
                {**spec, "positions": False},
                "That is the value without the positions: add each position's encoding to its word's embedding first.",
            )
        )
    if "heads" in spec:
        rest = {k: v for k, v in spec.items() if k not in ("heads", "head")}
        if ex.heads > 1:
            rest["heads"] = 1  # the example's own heads, undone
        variants.append(
            (
                rest,
                f"That is the value of one head over all the columns; the question asks for head {spec['head']}, "
                "on its own d_head columns, scaled by √d_head.",
            )
        )
        for other in range(1, spec["heads"] + 1):
            if other != spec["head"]:
                variants.append(
                    (
                        {**spec, "head": other},
                        f"That is head {other}'s value; the question asks for head {spec['head']}.",
                    )
                )
        variants.append(({**spec, "scale": False}, "That is the value without the division by √d_head."))
    elif "scale" in spec or ex.scale:  # a page without scaling shows no scaled value
        scaled = spec.get("scale", ex.scale)
        message = (
            "That is the value without the division by √d_k."
            if scaled
            else "That is the value with the division by √d_k; this question leaves it out."
        )
        variants.append(({**spec, "scale": not scaled}, message))
    if spec.get("causal", ex.causal):
        variants.append(
            (
                {**spec, "causal": False},
                "That is the value without the causal mask: hide the keys after the query first.",
            )
        )
    for other in page_examples(page):
        if other != slug:
            shown = examples.load(other)
            changed = {**spec, "example": other}
            if shown.heads == 1:  # the other example as its page shows it: one head, not split
                changed = {k: v for k, v in changed.items() if k not in ("heads", "head")}
            title = shown.title
            variants.append(
                (
                    changed,
                    f'That is the answer for "{title}", another example on this page; '
                    f'the question is about "{ex.title}".',
                )
            )
    out = []
    for changed, message in variants:
        try:
            out.append((evaluate(spec["answer"], _example_context(changed, where), where), message))
        except (ExerciseSpecError, KeyError, ValueError):
            continue  # the expression names something that example or setting does not have
    # Slips of the arithmetic itself, on the question's own numbers.
    if m := _EXPR.match(spec["answer"]):
        if m.group(1) == "weights":
            plain = "plain" + spec["answer"].strip()[len("weights") :]
            out.append(
                (
                    evaluate(plain, _example_context(spec, where), where),
                    "That is plain division: each score over the total of the scores. The softmax divides e "
                    "raised to each score by the total of those.",
                )
            )
    return out


# --- formatting ------------------------------------------------------------------------------------


def shown(x: float, decimals: int, percent: bool) -> str:
    """A number as the page and the grader show it: ``decimals`` places, a percentage if asked."""
    return num(100 * x if percent else x, decimals)


def _fill(text: str, context, decimals: int, where: str) -> str:
    """``{{expression}}`` replaced by its value at the exercise's decimals; ``{{expression|N}}`` at N
    decimals, ``{{expression|%}}`` (or ``|%N``) as a percentage. Whole numbers print as whole numbers,
    unless N is given."""

    def one(m: re.Match) -> str:
        if m.group(1).startswith("dot:"):
            return _dot_terms(m.group(1).removeprefix("dot:"), context, decimals, where)
        expr, _, fmt = m.group(1).partition("|")
        fmt = fmt.strip()
        percent = fmt.startswith("%")
        places = fmt.removeprefix("%")
        if places and (not places.isdigit() or int(places) > MAX_DECIMALS):
            raise ExerciseSpecError(
                f"{where}: {{{{{m.group(1)}}}}}: after | comes N, % or %N, N from 0 to {MAX_DECIMALS}"
            )
        dec = int(places) if places else decimals
        ans = evaluate(expr, context, where)
        # (an explicit |N is the rounding the text asks for: "η = 2.0", as the page writes it)
        integral = not percent and not places and all(float(v).is_integer() for v in ans.values)
        # whole numbers with thousands separators (20,401,094,656), the rest at the decimals asked for
        cells = [grouped(v) if integral else shown(v, dec, percent) + ("%" if percent else "") for v in ans.values]
        return cells[0] if len(cells) == 1 else "[" + ", ".join(cells) + "]"

    return _PLACEHOLDER.sub(one, text)


def _dot_terms(args: str, context, decimals: int, where: str) -> str:
    """``{{dot: cat, sat}}``: Q[cat] · K[sat] written out term by term, "0×1 + 1×1 + ..."."""
    if isinstance(context, dict) or args.count(",") != 1:
        raise ExerciseSpecError(f"{where}: {{{{dot: row, row}}}} names two tokens of an example")
    a, b = (x.strip() for x in args.split(","))
    q = context.matrices["Q"][_label_index(a, context.tokens, "row", where)]
    k = context.matrices["K"][_label_index(b, context.tokens, "row", where)]

    def cell(x: float) -> str:
        return operand(str(int(x)) if float(x).is_integer() else num(x, decimals))  # 2×(-0.416), not 2×-0.416

    return " + ".join(f"{cell(x)}×{cell(y)}" for x, y in zip(q, k, strict=True))


# --- loading -------------------------------------------------------------------------------------


def _text(value, where: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ExerciseSpecError(f"{where}: '{key}' must be non-empty text")
    if "--8<--" in value or re.search(r"<\s*/?\s*[A-Za-z!]", value) or re.search(r"\{\s*[:#.]", value):
        raise ExerciseSpecError(f"{where}: '{key}' must be plain Markdown: no HTML, includes or attribute lists")
    if typed := _TYPED_NUMBER.findall(_PLACEHOLDER.sub("", value)):
        raise ExerciseSpecError(
            f"{where}: '{key}' types the number {typed[0]!r}; write it as {{{{expression}}}} so that the code gives it"
        )
    return value.strip()


def load_file(path: Path, root: Path | None = None) -> list[Exercise]:
    """The exercises of the spec ``path``, a regular file of ``root`` (the repository, as
    :func:`load_all` reads them; by default the folder it is in) reached through no symbolic link."""
    try:  # (publish/files.py decides)
        text = read_text(path, path.parent if root is None else root)
    except UnsafeRead as exc:
        raise ExerciseSpecError(f"{path}: {exc}") from None
    page = path.stem
    data = _toml.read(text, path, ExerciseSpecError, "an exercise's numbers are small")
    if set(data) != {"exercise"} or not isinstance(data["exercise"], list) or not data["exercise"]:
        raise ExerciseSpecError(f"{path}: a spec of exercises is a list of [[exercise]] tables, and nothing else")
    if not (DOCS / f"{page}.md").is_file():
        raise ExerciseSpecError(f"{path}: there is no page docs/{page}.md for these exercises")
    out: list[Exercise] = []
    made_by_topic: dict[str, object] = {}
    for k, spec in enumerate(data["exercise"]):

        def at(key: str, spec=spec, k=k) -> str:
            return f"{path}, exercise {k + 1} ({spec.get('id', '?')}), key '{key}'{_line(text, key, k)}"

        if unknown := sorted(set(spec) - _KEYS):
            raise ExerciseSpecError(f"{at(unknown[0])}: unknown key; the keys are {sorted(_KEYS)}")
        if missing := sorted(_REQUIRED - set(spec)):
            raise ExerciseSpecError(f"{path}, exercise {k + 1}: '{missing[0]}' is missing")
        if sum(key in spec for key in ("example", "compare", "topic")) != 1:
            raise ExerciseSpecError(f"{path}, exercise {k + 1}: give one of 'example', 'compare' and 'topic'")
        if not isinstance(spec["id"], str) or not _ID.fullmatch(spec["id"]):
            raise ExerciseSpecError(f"{at('id')}: lower-case letters, digits and hyphens, starting with a letter")
        if spec["id"] in {e.id for e in out}:
            raise ExerciseSpecError(f"{at('id')}: {spec['id']!r} is used twice on the page")
        decimals = spec["decimals"]
        if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= MAX_DECIMALS:
            raise ExerciseSpecError(f"{at('decimals')}: a whole number from 0 to {MAX_DECIMALS}")
        percent = spec.get("percent", False)
        if not isinstance(percent, bool):
            raise ExerciseSpecError(f"{at('percent')}: true or false")
        if "compare" in spec:
            args = spec["compare"]
            if not isinstance(args, dict) or not set(args) <= {"n", "d", "d_in"}:
                raise ExerciseSpecError(f"{at('compare')}: {{n = ..., d = ...}}")
            from selfattn_ref.topics.rnn_comparison import compare

            try:
                context = _compare_context(compare(**args))
            except ValueError as exc:
                raise ExerciseSpecError(f"{at('compare')}: {exc}") from None
        elif "topic" in spec:
            from .topics import load_all  # the topics' modules register their numbers

            load_all()
            every = {**TOPICS, **_TOPICS}
            if spec["topic"] not in every:
                raise ExerciseSpecError(f"{at('topic')}: {spec['topic']!r} is not one of {sorted(every)}")
            if spec["topic"] not in made_by_topic:  # (computed once for the page's exercises of the topic)
                made_by_topic[spec["topic"]] = every[spec["topic"]]()
            made = made_by_topic[spec["topic"]]
            context = made if isinstance(made, ExampleContext) else _Values(made, f"the topic {spec['topic']!r}")
        else:
            context = _example_context(spec, at("example"))
        if not isinstance(spec["answer"], str):
            raise ExerciseSpecError(f"{at('answer')}: an expression such as weights[bank, river]")
        answer = evaluate(spec["answer"], context, at("answer"))
        if not all(np.isfinite(answer.values)):
            raise ExerciseSpecError(f"{at('answer')}: the answer is not finite")
        hints = spec["hints"]
        if not isinstance(hints, list) or not 1 <= len(hints) <= 4:
            raise ExerciseSpecError(f"{at('hints')}: a list of 1 to 4 hints")
        mistakes: list[tuple[Answer, str]] = []
        for mistake in spec.get("mistakes", []):
            if not isinstance(mistake, dict) or set(mistake) != {"answer", "message"}:
                raise ExerciseSpecError(f"{at('mistakes')}: each is {{answer = ..., message = ...}}")
            wrong = evaluate(mistake["answer"], context, at("mistakes"))
            if len(wrong.values) != len(answer.values):
                raise ExerciseSpecError(f"{at('mistakes')}: {mistake['answer']!r} is not the same shape as the answer")
            if [shown(v, decimals, percent) for v in wrong.values] == [
                shown(v, decimals, percent) for v in answer.values
            ]:
                raise ExerciseSpecError(f"{at('mistakes')}: {mistake['answer']!r} shows as the right answer")
            message = _text(mistake["message"], at("mistakes"), "message")
            if markup := re.search(r"[$`]", message):
                # the page's script shows a mistake's message as text (exercises.js), never as Markdown
                raise ExerciseSpecError(
                    f"{at('mistakes')}: a 'message' is shown as plain text, so its {markup[0]!r} would show as"
                    " typed; write math and code in plain characters (σ², √(σ² + ε), np.log)"
                )
            mistakes.append((wrong, _fill(message, context, decimals, at("mistakes"))))
        if "example" in spec:
            seen = {tuple(shown(v, decimals, percent) for v in answer.values)}
            seen |= {tuple(shown(v, decimals, percent) for v in w.values) for w, _ in mistakes}
            for wrong, message in _other_answers(spec, page, at("example")):
                key = tuple(shown(v, decimals, percent) for v in wrong.values)
                if len(key) == len(answer.values) and all(np.isfinite(wrong.values)) and key not in seen:
                    seen.add(key)
                    mistakes.append((wrong, message))

        def fill(key: str, value, at=at, context=context, decimals=decimals) -> str:
            return _fill(_text(value, at(key), key), context, decimals, at(key))

        out.append(
            Exercise(
                page=page,
                id=spec["id"],
                question=fill("question", spec["question"]),
                hints=tuple(fill("hints", h) for h in hints),
                solution=fill("solution", spec["solution"]),
                answer=answer,
                decimals=decimals,
                percent=percent,
                mistakes=tuple(mistakes),
                context=context,
            )
        )
    return out


@cache
def load_all() -> dict[str, tuple[Exercise, ...]]:
    """Every page's exercises, by page name (the stem of its spec file)."""
    try:
        specs = named(SPEC_DIR, ".toml")
    except UnsafeRead as exc:
        raise ExerciseSpecError(str(exc)) from None
    return {p.name.removesuffix(".toml"): tuple(load_file(p, ROOT)) for p in specs}


# --- the block a page includes ----------------------------------------------------------------------


def _sign(x: float, decimals: int, percent: bool) -> int | None:
    """The sign of an answer, as rounding cannot change it: 1 or -1 where it shows as a nonzero
    number; 0 where it is exactly 0, by construction (a ReLU of a negative number, a masked key's
    weight), so that only 0 is right; None where it is not 0 but shows as 0 at the question's
    rounding (a number typed from rounded values may then come out on either side of 0)."""
    if x == 0:
        return 0
    if not _normalize_shown(shown(x, decimals, percent)).strip("0."):
        return None
    return 1 if x > 0 else -1


def _cut(x: float, places: int, percent: bool) -> str:
    """The number cut off after ``places`` decimals (truncated towards 0, not rounded), from the
    digits of the float (a percentage: times 100 in decimal arithmetic, so no binary noise moves a digit)."""
    exact = Decimal(repr(float(x))) * (100 if percent else 1)
    text = f"{exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN):f}"
    return _normalize_shown(text)


def grader_data(ex: Exercise) -> dict:
    """What the page's script needs to grade one exercise: the expected answer as shown, and the
    answers of known mistakes with their messages; each also at every rounding coarser than the
    question's (``rounded[p]``: at p decimals), to recognize the right number typed with fewer
    decimals, and with the sign of each number (:func:`_sign`), which no rounding changes."""

    def at(values) -> dict:
        return {
            "answer": [shown(v, ex.decimals, ex.percent) for v in values],
            "rounded": [[shown(v, p, ex.percent) for v in values] for p in range(ex.decimals)],
            "signs": [_sign(v, ex.decimals, ex.percent) for v in values],
        }

    return {
        "id": ex.id,
        "decimals": ex.decimals,
        "percent": ex.percent,
        **at(ex.answer.values),
        "cut": [[_cut(v, p, ex.percent) for v in ex.answer.values] for p in range(ex.decimals + 1)],
        "labels": list(ex.answer.labels),
        "rowSumsToOne": ex.answer.labels != () and _is_weights_row(ex),
        "mistakes": [{**at(wrong.values), "message": message} for wrong, message in ex.mistakes],
    }


# --- grading, as the page's script grades (docs/assets/javascripts/exercises.js) ------------------

MAX_LENGTH = 200
# "0.25", ".25", "-1", "−1" (a typographic minus), "66.5%", "66.5 %", "+2"; no exponents, no NaN.
# Spaces are the ASCII ones and the no-break space, digits 0-9 only, as in the page's script.
_WS = " \t\n\r\f\v\u00a0"
_NUMBER = re.compile(r"^([+\-\u2212]?)([0-9]*)(?:\.([0-9]*))?[ \t\n\r\f\v\u00a0]*(%?)$")
_SPLIT = re.compile(r"[ \t\n\r\f\v\u00a0]*[,;][ \t\n\r\f\v\u00a0]*|[ \t\n\r\f\v\u00a0]+")
# A whole number with its thousands set off by commas, as the pages print them ("18,432"): one
# number where the answer is one whole number (elsewhere a comma separates numbers, or is a decimal comma).
_GROUPED = re.compile(r"[+\-\u2212]?[0-9]{1,3}(?:,[0-9]{3})+%?")
_BRACKETS = re.compile(r"^[\[(][ \t\n\r\f\v\u00a0]*|[ \t\n\r\f\v\u00a0]*[\])]$")


@dataclass(frozen=True)
class Typed:
    negative: bool
    whole: str
    fraction: str
    percent: bool


def parse_number(text: str) -> Typed | None:
    t = text.strip(_WS)
    m = _NUMBER.fullmatch(t)
    if not t or not m or (m.group(2) == "" and not m.group(3)):
        return None
    return Typed(m.group(1) in ("-", "\u2212"), m.group(2).lstrip("0") or "0", m.group(3) or "", m.group(4) == "%")


def to_fixed_digits(n: Typed, decimals: int) -> str:
    """The typed number at ``decimals`` places, rounded half away from zero from its digits."""
    places = max(decimals, len(n.fraction))
    digits = int(n.whole + n.fraction.ljust(places, "0"))
    if places > decimals:
        drop = 10 ** (places - decimals)
        digits = digits // drop + (1 if (digits % drop) * 2 >= drop else 0)
    s = str(digits).rjust(decimals + 1, "0")
    if decimals > 0:
        s = s[:-decimals] + "." + s[-decimals:]
    return ("-" if n.negative and s.strip("0.") else "") + s


def _normalize_shown(s: str) -> str:
    s = s.replace("\u2212", "-", 1)
    return s[1:] if s.startswith("-") and not s[1:].strip("0.") else s


def _units(s: str) -> int:
    """A shown number ("-0.1554") as an integer count of its last place."""
    return int(s.replace(".", ""))


def _times_100(n: Typed) -> Typed:
    """The typed number times 100, digit for digit."""
    fraction = n.fraction.ljust(2, "0")
    return replace(n, whole=(n.whole + fraction[:2]).lstrip("0") or "0", fraction=fraction[2:])


def _short(parsed: list[Typed], decimals: int, answer: list[str], rounded: list[list[str]]) -> int | None:
    """None unless every typed number is ``answer``, some typed with fewer decimals than asked (none,
    only where the answer rounds to a whole number of two digits or more) and equal to the answer
    rounded to those. Then: the index of the first number that is the *shown* answer rounded again
    (0.2447 shows as 0.245, which rounds to 0.25, where 0.2447 itself rounds to 0.24: rounding twice
    moved the last decimal), or -1."""
    short, twice = False, -1
    for i, n in enumerate(parsed):
        places = len(n.fraction)
        if to_fixed_digits(n, decimals) == _normalize_shown(answer[i]):
            continue
        # A whole number counts too ("67" for 66.5%), where the answer rounds to a whole number of two
        # digits or more: one digit says too little ("1" for a ratio of 1.28 reads as "as probable").
        if places >= decimals or not (places > 0 or len(_normalize_shown(rounded[0][i]).strip("-%")) >= 2):
            return None
        mine = to_fixed_digits(n, places)
        if mine == _normalize_shown(rounded[places][i]):
            short = True
        elif mine == _rounded_again(answer[i], places):
            short = True
            twice = i if twice < 0 else twice
        else:
            return None
    return twice if short else None


def _rounded_short(parsed: list[Typed], decimals: int, answer: list[str], rounded: list[list[str]]) -> bool:
    """True when the typed numbers are ``answer`` rounded to fewer decimals, once or twice (:func:`_short`)."""
    return _short(parsed, decimals, answer, rounded) is not None


def _rounded_again(number: str, places: int) -> str:
    """A shown number ("0.245") rounded again, to fewer places ("0.25")."""
    return to_fixed_digits(parse_number(_normalize_shown(number)), places)


def _sign_of(s: str) -> int:
    """The sign of a number written at some decimals ("-0.0120"): -1, 0 or 1."""
    return 0 if not s.strip("-0.") else (-1 if s.startswith("-") else 1)


def _sign_fits(mine: str, sign: int | None) -> bool:
    """Whether a typed number (at the question's decimals) can be the answer of ``sign`` up to
    rounding (:func:`_sign`): never with the other sign, and only 0 where the answer is exactly 0."""
    m = _sign_of(mine)
    return sign is None or m == sign or (m == 0 and sign != 0)


def _flipped(mine: str, sign: int | None) -> bool:
    """A typed number with the sign the answer has not: the other sign, or negative where the
    answer is exactly 0 (a ReLU's output, a masked key's weight)."""
    m = _sign_of(mine)
    return sign is not None and m != 0 and (m == -sign if sign else m < 0)


# A comma between two digits, as many write the decimal point ("66,5"): the page reads a comma as
# the separator between the numbers of a row.
_DECIMAL_COMMA = re.compile(r"(?<=[0-9]),(?=[0-9])")


def _with_decimal_points(body: str, count: int) -> str | None:
    """The text with its decimal commas read as points, if that makes it the ``count`` numbers asked
    for ("66,5" -> "66.5"; "0,155, 0,422, 0,422" -> "0.155, 0.422, 0.422"), else None."""
    fixed = _DECIMAL_COMMA.sub(".", body)
    if fixed == body:
        return None
    parts = [fixed] if count == 1 else [x for x in _SPLIT.split(fixed) if x != ""]
    return fixed if len(parts) == count and all(parse_number(x) for x in parts) else None


def _row_total(parsed: list[Typed], decimals: int) -> tuple[bool, str]:
    """(whether the typed row adds up to 1 within the rounding it was typed at, its total shown at
    ``decimals`` places), in exact decimal arithmetic."""
    top = max(len(n.fraction) for n in parsed)
    total = sum((-1 if n.negative else 1) * int(n.whole + n.fraction.ljust(top, "0")) for n in parsed)
    slack = sum(10 ** (top - min(len(n.fraction), decimals)) for n in parsed)  # twice the rounding
    digits = str(abs(total)).rjust(top + 1, "0")
    as_typed = Typed(
        total < 0, digits[: len(digits) - top] if top else digits, digits[len(digits) - top :] if top else "", False
    )
    return 2 * abs(total - 10**top) <= slack, to_fixed_digits(as_typed, decimals)


def _cut_off(parsed: list[Typed], decimals: int, data: dict) -> str | None:
    """The message for numbers cut off after some decimals instead of rounded ("66" for 66.52,
    "-0.22" for -0.2253), where cutting and rounding differ, every other number typed right; else None."""
    cut, shown_at = [], data["rounded"] + [data["answer"]]
    for i, n in enumerate(parsed):
        places = len(n.fraction)
        if places > decimals:
            return None
        typed, rounded = to_fixed_digits(n, places), _normalize_shown(shown_at[places][i])
        if typed != rounded and typed != data["cut"][places][i]:
            return None  # neither rounded nor cut off: another slip
        if typed != rounded:
            cut.append(i)
    if not cut:
        return None
    how = "as a whole number" if decimals == 0 else f"to {decimals} decimal{'' if decimals == 1 else 's'}"
    rule = "To round, look at the first digit you drop: when it is 5 or more, the last digit you keep goes up by one."
    if len(parsed) == 1:
        places = len(parsed[0].fraction)
        where = "at the decimal point" if places == 0 else f"after {places} decimal{'' if places == 1 else 's'}"
        return f"Not quite: that is the answer cut off {where}, not rounded. {rule} Give it {how}."
    labels = data["labels"]
    names = [labels[i] if i < len(labels) and labels[i] else str(i + 1) for i in cut]
    if all(re.fullmatch(r"[0-9]+", label) for label in labels):
        which = (
            f"entry {names[0]} (counting from 1) is"
            if len(names) == 1
            else f"entries {', '.join(names)} (counting from 1) are"
        )
    else:
        which = f"the number for {names[0]} is" if len(names) == 1 else f"the numbers for {', '.join(names)} are"
    return f"Not quite: {which} cut off, not rounded. {rule} Give each {how}."


def _result(ok: bool, kind: str, message: str) -> dict:
    return {"ok": ok, "kind": kind, "message": message}


def grade(data: dict, text: str) -> dict:
    """What the page's script says to ``text`` for the exercise of ``data`` (:func:`grader_data`):
    ``{"ok", "kind", "message"}``, kind "right", "close" (right up to rounding), "wrong" or "input"
    (nothing was graded: not an answer of the asked form)."""
    raw = str(text)
    if len(raw) > MAX_LENGTH:
        return _result(False, "input", "That answer is too long: type only the number.")
    count = len(data["answer"])
    body = _BRACKETS.sub("", raw.strip(_WS))
    if count == 1 and data["decimals"] == 0 and _GROUPED.fullmatch(body):
        body = body.replace(",", "")
    parts = [body] if count == 1 else [x for x in _SPLIT.split(body) if x != ""]
    if raw.strip(_WS) == "":
        return _result(False, "input", "Type your answer first." if count == 1 else f"Type {count} numbers first.")
    labels = data["labels"]
    positions = bool(labels) and all(re.fullmatch(r"[0-9]+", label) for label in labels)
    parsed = [parse_number(x) for x in parts]
    if len(parts) != count or None in parsed:
        if fixed := _with_decimal_points(body, count):
            return _result(False, "input", f"Write the decimals after a point, not a comma: {fixed}.")
    if len(parts) != count:
        each = "one for each entry of the vector" if positions else f"one for each of {', '.join(labels)}"
        return _result(False, "input", f"Give {count} numbers, {each}, separated by commas (you gave {len(parts)}).")
    if None in parsed:
        which = "That" if count == 1 else f"Entry {parsed.index(None) + 1}"
        like = "in decimals, like 0.25" + (" or 25%" if data["percent"] else "")
        like = "in digits, like 3" if data["decimals"] == 0 else like
        return _result(False, "input", f"{which} is not a number this page can check: write it {like}.")
    if not data["percent"] and any(n.percent for n in parsed):
        return _result(False, "input", "Give it as a decimal, not as a percentage: 25% is 0.25.")
    decimals = data["decimals"]
    mine = [to_fixed_digits(n, decimals) for n in parsed]
    expected = [_normalize_shown(s) for s in data["answer"]]
    if mine == expected:
        return _result(True, "right", "Right.")
    for mistake in data["mistakes"]:
        if mine == [_normalize_shown(s) for s in mistake["answer"]]:
            return _result(False, "wrong", mistake["message"])
    places = f"{decimals} decimal{'' if decimals == 1 else 's'}"
    twice = _short(parsed, decimals, data["answer"], data["rounded"])
    if twice is not None:
        them = "that is the answer" if count == 1 else "those are the right numbers"
        message = f"Right so far: {them}, rounded to fewer decimals. Give {'it' if count == 1 else 'each'} to {places}."
        if twice >= 0:
            p = len(parsed[twice].fraction)
            shown_once = _normalize_shown(data["rounded"][p][twice])
            message += (
                f" Round once, from the unrounded number: {data['answer'][twice]} rounded again gives "
                f"{_rounded_again(data['answer'][twice], p)}, but the unrounded number rounds to {shown_once}."
            )
        return _result(False, "input", message)
    for mistake in data["mistakes"]:
        if _rounded_short(parsed, decimals, mistake["answer"], mistake["rounded"]):
            return _result(False, "wrong", mistake["message"])
    if data["percent"] and count == 1 and to_fixed_digits(_times_100(parsed[0]), decimals) == expected[0]:
        # The share is right, only written as a decimal: not an attempt, so the solution stays hidden.
        return _result(False, "input", "Right share, but give it as a percentage: multiply it by 100.")

    # Within one in the last decimal, with a sign the answer can have: rounded along the way (the
    # right answer first, then a known mistake). No rounding turns a number's sign, or makes a
    # number that is exactly 0 (a ReLU's output, a masked key's weight) anything else.
    def near(theirs: list[str], signs: list) -> bool:
        return decimals >= 2 and all(
            abs(_units(a) - _units(b)) <= 1 and _sign_fits(a, sign)
            for a, b, sign in zip(mine, theirs, signs, strict=True)
        )

    if near(expected, data["signs"]):
        return _result(
            True,
            "close",
            f"Right, up to rounding: the answer is {', '.join(expected)}, computed from unrounded values and rounded "
            "once, at the end. Numbers rounded along the way can move the last decimal by one.",
        )
    if cut := _cut_off(parsed, decimals, data):
        return _result(False, "wrong", cut)
    for mistake in data["mistakes"]:
        if near([_normalize_shown(s) for s in mistake["answer"]], mistake["signs"]):
            return _result(False, "wrong", mistake["message"])
    flipped = [i for i in range(count) if _flipped(mine[i], data["signs"][i])]
    # the size right, the sign not: the answer's digits, or one off in the last decimal (not where
    # the answer is exactly 0, which has no sign to turn)
    size_right = all(
        data["signs"][i] != 0 and abs(abs(_units(mine[i])) - abs(_units(expected[i]))) <= (1 if decimals >= 2 else 0)
        for i in flipped
    )
    if flipped and count == 1:
        if size_right:
            return _result(
                False,
                "wrong",
                "Check the sign: the size is right, but the sign is not. Look again at each minus sign "
                "(a negative times a negative is positive).",
            )
        which = "negative" if mine[0].startswith("-") else "positive"
        return _result(False, "wrong", f"Check the sign: {parts[0].strip(_WS)} is {which}, and the answer is not.")
    if flipped:
        names = [labels[i] if i < len(labels) and labels[i] else str(i + 1) for i in flipped]
        if positions:
            which = f"entry {names[0]}" if len(names) == 1 else f"entries {', '.join(names)}"
            which += " (counting from 1)"
        else:
            which = f"the number{'s' if len(names) > 1 else ''} for {', '.join(names)}"
        if size_right:
            return _result(
                False,
                "wrong",
                f"Not quite: {which} {'has' if len(names) == 1 else 'have'} the right size but the wrong sign.",
            )
        return _result(False, "wrong", f"Not quite: check the sign of {which}.")
    if data["rowSumsToOne"]:
        adds_up, total = _row_total(parsed, decimals)
        if not adds_up:
            return _result(False, "wrong", f"Your row adds up to {total}, but the weights of a row always add up to 1.")
    if count > 1:
        # An entry typed with fewer decimals is off only if it is not the right one rounded to those.
        def right(i: int) -> bool:
            rounded = [r[i : i + 1] for r in data["rounded"]]
            return mine[i] == expected[i] or _rounded_short([parsed[i]], decimals, data["answer"][i : i + 1], rounded)

        off = [labels[i] if i < len(labels) and labels[i] else str(i + 1) for i in range(count) if not right(i)]
        if positions:
            which = f"entry {off[0]} is" if len(off) == 1 else f"entries {', '.join(off)} are"
            return _result(False, "wrong", f"Not quite: {which} off (counting from 1).")
        noun, verb = ("number", "is") if len(off) == 1 else ("numbers", "are")
        return _result(False, "wrong", f"Not quite: the {noun} for {', '.join(off)} {verb} off.")
    how = "as a whole number" if decimals == 0 else f"to {places}"
    return _result(False, "wrong", f"Not quite. Check your arithmetic, and round {how}.")


def _is_weights_row(ex: Exercise) -> bool:
    return abs(sum(ex.answer.values) - 1) < 1e-9 and all(v >= 0 for v in ex.answer.values)


def _is_positions(ex: Exercise) -> bool:
    """A vector's entries (labels 1, 2, ...), not a row of tokens."""
    return ex.answer.labels != () and all(label.isdigit() for label in ex.answer.labels)


def _unit(ex: Exercise) -> str:
    if ex.answer.labels:
        what = f"{len(ex.answer.values)} numbers, separated by commas"
    else:
        what = "a percentage" if ex.percent else ("a whole number" if not ex.decimals else "a number")
    places = f"{ex.decimals} decimal{'s' if ex.decimals != 1 else ''}"
    return f"{what}, to {places}" if ex.decimals else what


INTRO = (
    "Work these out with pencil and paper (or a few lines of Python), then type your answer: the page checks "
    "it against the reference code at the rounding the question asks for. Hints come one at a time, and the "
    "worked solution appears after your first try."
)
NOTEBOOK_INTRO = (
    "Work these out with pencil and paper, or in a code cell of your own, then open the worked solution to "
    "compare: its numbers come from the reference code, at the rounding the question asks for. On the site's "
    "page, a form checks each answer."
)


def notebook_markdown(page: str) -> str:
    """A page's exercises for its notebook, where no script grades them: each question, what the
    answer is (as the page's form asks for it), then its hints and its worked solution, each folded
    (<details>, which Jupyter and the notebook's page on the site both show folded)."""
    parts = [NOTEBOOK_INTRO + "\n"]
    for k, ex in enumerate(load_all()[page], 1):
        labels = ", ".join(ex.answer.labels)
        if _is_positions(ex):
            order = "; the vector's entries in order, first to last"
        else:
            order = f"; in the order {md_text(labels)}" if labels and labels not in ex.question else ""
        parts.append(f"**Exercise {k}.** {ex.question} *Answer: {_unit(ex)}{order}.*\n")
        for i, h in enumerate(ex.hints, 1):
            parts.append(f"<details>\n<summary>Hint {i} of {len(ex.hints)}</summary>\n\n{h}\n\n</details>\n")
        parts.append(f"<details>\n<summary>Worked solution</summary>\n\n{ex.solution}\n\n</details>\n")
    return "\n".join(parts)


def block(page: str) -> str:
    """The Markdown (with HTML for the controls) of a page's exercises."""
    parts = [
        INTRO + "\n\n",
        # A <section>, not a <div>: Material's search (9.8) ends an exclusion at the first closing tag
        # of the same name, and the block holds <div>s. Out of the index: solutions would show in results.
        f'<section class="exercises" data-page="{html.escape(page, quote=True)}" data-search-exclude markdown>\n',
        "<noscript><p>The answers are checked by the page's script: turn on JavaScript to use them. "
        "The worked solutions are under each question.</p></noscript>\n",
    ]
    for k, ex in enumerate(load_all()[page], 1):
        data = html.escape(json.dumps(grader_data(ex), ensure_ascii=False, sort_keys=True), quote=True)
        anchor = f"exercise-{page}-{ex.id}"
        hints = "".join(
            f'<div class="exercise-hint" data-hint="{i}" hidden markdown>\n\n'
            f"**Hint {i} of {len(ex.hints)}.** {h}\n\n</div>\n\n"
            for i, h in enumerate(ex.hints, 1)
        )
        labels = ", ".join(ex.answer.labels)
        if _is_positions(ex):
            order = "; the vector's entries in order, first to last"
        else:
            order = f"; in the order {html.escape(labels)}" if labels else ""
        # A phone's decimal keypad has no comma and, on some phones, no minus sign.
        single = len(ex.answer.values) == 1 and ex.answer.values[0] >= 0
        inputmode = ' inputmode="decimal"' if single else ""
        parts.append(
            f'<div class="exercise" id="{anchor}" data-exercise="{data}" markdown>\n\n'
            f"**Exercise {k}.** {ex.question}\n\n"
            f'<form class="exercise-form" novalidate>\n'
            f'<label for="{anchor}-input">Your answer ({_unit(ex)}{order})</label>\n'
            f'<span class="exercise-controls">'
            f'<input id="{anchor}-input" class="exercise-input" type="text"{inputmode} autocomplete="off" '
            f'spellcheck="false" maxlength="200" aria-describedby="{anchor}-feedback">'
            f'<button type="submit" class="md-button md-button--primary exercise-check">Check</button>'
            f'<button type="button" class="md-button exercise-hint-button">Show a hint</button>'
            f"</span>\n"
            f'<p class="exercise-feedback" id="{anchor}-feedback" role="status" aria-live="polite"></p>\n'
            f"</form>\n\n"
            f"{hints}"
            f'<div class="exercise-solution" hidden markdown>\n\n**Worked solution.** {ex.solution}\n\n</div>\n\n'
            f"</div>\n\n"
        )
    parts.append(
        '<p class="exercise-progress"><button type="button" class="md-button exercise-reset">'
        "Clear my answers on this page</button> Your progress is kept in this browser only.</p>\n\n</section>\n"
    )
    return "".join(parts)


# --- what `make update` writes: one block a page ----------------------------------------------------


def _register(page: str) -> None:
    generated(f"exercises/{page}.md", name=name_of(block))(lambda: block(page))


for _spec in sorted(SPEC_DIR.glob("*.toml")):
    _register(_spec.stem)
