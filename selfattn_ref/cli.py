"""The command line: ``python -m selfattn_ref COMMAND ...`` (also installed as ``selfattn-ref``).

``explain`` prints every step of self-attention, as labelled grids, for a worked example
or for any tokens and vectors typed on the command line.
``next`` prints the most probable next words of the site's small language model
(:mod:`selfattn_ref.language_model`) after a text, and with ``--heads`` each head's weights.

Structure: :func:`build_parser` makes one argparse parser with a subparsers object, and
each subcommand is a function ``add_<name>(subparsers)`` listed in :data:`SUBCOMMANDS`
that adds its parser and sets ``func`` (a function ``(args) -> int`` returning the exit
status). A subcommand reports bad input by raising :class:`CLIError`; :func:`main` turns
that into one line ``error: ...`` on stderr and exit status 2.

Whatever the user or a spec supplies (tokens, titles, names) is printed safely: control
characters and escape sequences show escaped (``\x1b``, ``\n``), and characters the
terminal's encoding cannot show are written as ``\xe9``-style escapes, so the output
never carries terminal commands, never breaks the grid and never fails to encode. A pipe
closed early (``explain ... | head -1``) ends the command quietly.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from . import examples
from .examples import Example
from .examples.digits import FEWER, number_text, shortens
from .examples.rules import number_advice, read_number, same_tokens_problem, token_problem

PROG = "python -m selfattn_ref"
EXIT_USAGE = 2


class CLIError(Exception):
    """Bad input on the command line; the message is printed as one line after ``error:``."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error raises CLIError (one line) instead of printing usage and exiting."""

    def error(self, message: str):
        raise CLIError(f"{message} (see {self.prog} --help)")


# --------------------------------------------------------------------------------------------
# Printing text safely


def display(text: str, encoding: str | None = "utf-8") -> str:
    """``text`` as it can be printed: characters that are not printable (control characters,
    escape sequences, line breaks, format characters such as right-to-left overrides, lone
    surrogates) are shown as Python escapes (``\x1b``, ``\n``, ``\u202e``), and so are the
    characters that ``encoding`` cannot write (``café`` in ASCII is ``caf\xe9``)."""
    text = str(text)
    out = []
    for c in text:
        if c.isprintable():
            try:
                c.encode(encoding or "utf-8")
            except (UnicodeEncodeError, LookupError):
                c = c.encode("ascii", "backslashreplace").decode("ascii")
        elif "\udc80" <= c <= "\udcff":  # a byte that argv could not decode (surrogateescape)
            c = f"\\x{ord(c) - 0xDC00:02x}"
        else:
            c = c.encode("unicode_escape").decode("ascii")
        out.append(c)
    return "".join(out)


def display_width(text: str) -> int:
    """How many terminal columns ``text`` (already made printable) takes: wide East Asian
    characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int, left: bool) -> str:
    fill = " " * max(0, width - display_width(text))
    return text + fill if left else fill + text


def shown(text: str, limit: int = 60) -> str:
    """``text`` quoted and escaped for a one-line message, cut to ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def _print(text: str, stream) -> None:
    """Print ``text`` to ``stream``; characters its encoding cannot write become escapes."""
    if stream is None:  # started with that stream closed: print(file=None) would write to stdout
        return
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:
        pass
    print(text, file=stream)


# --------------------------------------------------------------------------------------------
# Formatting numbers and grids


def format_number(x: float, decimals: int, error: float = 0.0) -> str:
    """``x`` rounded to ``decimals`` places as the pages print it (:func:`.examples.digits.number_text`:
    at most 15 digits, and those its float64 ``error`` leaves, exponent notation beyond, never
    "-0.000"); NaN is a ValueError."""
    if math.isnan(x):
        raise ValueError("refusing to print NaN")
    return number_text(x, decimals, error)


def format_short(x: float, decimals: int) -> str:
    """``x`` rounded to ``decimals`` places without trailing zeros after the point:
    sqrt(4) is "2", sqrt(100) is "10" (also with decimals 0), sqrt(2) at 3 decimals "1.414"."""
    text = format_number(x, decimals)
    mantissa, e, exponent = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + e + exponent


def format_grid(
    matrix,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    decimals: int,
    encoding: str | None = "utf-8",
    errors=None,
) -> str:
    """A matrix as aligned text: column labels on top, row labels on the left, numbers right-aligned,
    each with the digits its float64 error leaves (``errors``, of the matrix's shape, or None).

    Labels are printed with :func:`display` (escaped where needed for ``encoding``), so a
    label holding a line break or an escape sequence cannot break the grid.
    """
    M = np.asarray(matrix, dtype=np.float64)
    if M.ndim != 2 or M.shape != (len(row_labels), len(col_labels)):
        raise ValueError(f"grid of shape {M.shape} does not fit {len(row_labels)} x {len(col_labels)} labels")
    E = np.zeros(M.shape) if errors is None else np.asarray(errors, dtype=np.float64)
    rows = [display(r, encoding) for r in row_labels]
    cols = [display(c, encoding) for c in col_labels]
    cells = [
        [format_number(float(x), decimals, float(e)) for x, e in zip(row, erow, strict=True)]
        for row, erow in zip(M, E, strict=True)
    ]
    label_width = max(display_width(r) for r in rows)
    widths = [max(display_width(c), *(len(row[j]) for row in cells)) for j, c in enumerate(cols)]
    lines = [" " * label_width + "".join("  " + _pad(c, w, False) for c, w in zip(cols, widths, strict=True))]
    for label, row in zip(rows, cells, strict=True):
        lines.append(
            _pad(label, label_width, True) + "".join("  " + x.rjust(w) for x, w in zip(row, widths, strict=True))
        )
    return "\n".join(lines)


def _names(prefix: str, k: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(1, k + 1)]


# --------------------------------------------------------------------------------------------
# explain


def number_problem(word: str) -> tuple[float | None, str | None]:
    """(its value, None) for ``word`` if it is a number as the command line reads one: as a spec file
    and the playground read it (:data:`.examples.rules.NUMBER_SYNTAX`, :func:`.examples.rules.read_number`),
    finite and at most :data:`.examples.MAGNITUDE` in size; else (None, what is wrong with it, as the
    end of a sentence that has just quoted it: ", which is not a number: ..." with how to write it,
    "; every number must be finite", "; every number is at most 1,000,000 in size, ...")."""
    if word.lower().lstrip("+-\u2212") in ("nan", "inf", "infinity"):
        return None, "; every number must be finite"
    x = read_number(word)
    if x is None:
        return None, f", which is not a number: {number_advice(word)}"
    if not abs(x) <= examples.MAGNITUDE:  # the limit of a spec and of the playground (1e400 is inf)
        return (
            None,
            f"; every number is at most {examples.MAGNITUDE:,.0f} in size, as in a spec file and the playground",
        )
    return x, None


def parse_vectors(text: str) -> np.ndarray:
    """Parse "1 0 1 0; 0 1 0 1" (rows split by ';', numbers by spaces or commas) into an (n, d) array.

    A number is written as in a spec file and in the playground (:data:`.examples.rules.NUMBER_SYNTAX`):
    the digits 0 to 9, a point, an exponent, and a sign "-", "+" or the minus sign "−" the site prints;
    not "1_0", another script's digits or "0x1F", which Python's float() would read."""
    rows = text.split(";")
    if rows and not rows[-1].strip() and len(rows) > 1:
        rows = rows[:-1]  # allow one trailing ';'
    if not any(r.strip() for r in rows):
        raise CLIError("--vectors is empty; give one row of numbers per token, rows separated by ';'")
    parsed: list[list[float]] = []
    for i, row in enumerate(rows, 1):
        words = row.replace(",", " ").split()
        if not words:
            raise CLIError(f"--vectors row {i} is empty")
        numbers = []
        for w in words:
            x, problem = number_problem(w)
            if problem:
                raise CLIError(f"--vectors row {i} has {shown(w)}{problem}")
            numbers.append(x)
        if parsed and len(numbers) != len(parsed[0]):
            raise CLIError(f"--vectors row {i} has {len(numbers)} numbers, row 1 has {len(parsed[0])}")
        parsed.append(numbers)
    return np.array(parsed, dtype=np.float64)


def _example_from_args(args: argparse.Namespace) -> Example:
    """The worked example named on the command line, or one built from --tokens and --vectors."""
    custom = args.tokens is not None or args.vectors is not None
    if args.example is not None and custom:
        raise CLIError(f"give either an example name ({args.example!r}) or --tokens/--vectors, not both")
    if args.example is not None:
        for flag in ("scale", "causal"):
            if getattr(args, flag):
                raise CLIError(f"--{flag} applies to --tokens/--vectors input; example {args.example!r} sets its own")
        if examples.slug_problem(args.example):  # refused before any file is looked for
            raise CLIError(f"unknown example {shown(args.example)}; available: {', '.join(examples.available())}")
        try:
            example = examples.load(args.example)
        except (OSError, UnicodeDecodeError) as exc:  # a spec file that cannot be read
            raise CLIError(f"cannot read example {args.example!r}: {exc}") from None
        except ValueError as exc:  # an unknown name, or a SpecError from a broken file
            raise CLIError(str(exc)) from None
        if args.decimals is not None:
            example = replace(example, decimals=args.decimals)
        return example
    if args.tokens is None:
        raise CLIError(f"give an example name (one of: {', '.join(examples.available())}) or --tokens and --vectors")
    if args.vectors is None:
        raise CLIError('--tokens needs --vectors: one row of numbers per token, e.g. --vectors "1 0; 0 1"')
    tokens = [_argv_text(tok, i) for i, tok in enumerate(args.tokens, 1)]
    # the worked examples' limits and token rule (selfattn_ref.examples), so that what the
    # command line accepts is what a spec file and the playground accept
    if len(tokens) > examples.MAX_TOKENS:
        raise CLIError(f"--tokens has {len(tokens)} tokens; at most {examples.MAX_TOKENS}")
    for i, tok in enumerate(tokens, 1):
        if not tok.strip():
            raise CLIError(f"--tokens: token {i} is empty")
        if problem := token_problem(tok):
            raise CLIError(f"--tokens: token {i} is not a token as the worked examples define it: {problem}")
    if problem := same_tokens_problem(tokens):  # a spec's rule: each token a name of its own, even in NFC or NFKC
        raise CLIError(f"--tokens: {problem}")
    E = parse_vectors(args.vectors)
    if E.shape[0] != len(tokens):
        raise CLIError(
            f"--tokens has {_count(len(tokens), 'token')} but --vectors has {_count(E.shape[0], 'row')}; "
            "give one row per token"
        )
    if E.shape[1] > examples.MAX_WIDTH:
        raise CLIError(f"--vectors has {E.shape[1]} numbers per row; at most {examples.MAX_WIDTH}")
    return Example(
        slug="command-line",
        title=" ".join(tokens),
        tokens=tuple(tokens),
        E=E,
        projections="none",
        W_Q=None,
        W_K=None,
        W_V=None,
        scale=args.scale,
        causal=args.causal,
        decimals=4 if args.decimals is None else args.decimals,
        path=None,
    )


def _argv_text(text: str, i: int) -> str:
    """Token ``i`` as typed: bytes that argv could not decode (a C locale: surrogateescape) read
    as the UTF-8 they are; CLIError if they are not UTF-8."""
    if not any("\udc80" <= c <= "\udcff" for c in text):
        return text
    try:
        return os.fsencode(text).decode("utf-8")
    except UnicodeError:
        raise CLIError(f"--tokens: token {i} is not UTF-8 text") from None


def _weights(example: Example) -> list:
    """The projection matrices the command line prints: W_Q, W_K, W_V when they are not the identity."""
    return [example.W_Q, example.W_K, example.W_V] if example.projections in ("random", "given") else []


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def explain_text(example: Example, encoding: str | None = "utf-8") -> str:
    """Every step of ``example`` as text: one titled, labelled grid per step.

    The title and the tokens are printed with :func:`display`: escaped where they hold
    control characters, or characters that ``encoding`` (the terminal's) cannot write.
    """
    with np.errstate(all="ignore"):  # overflow is reported below as one line, not as a warning
        try:
            steps = examples.run(example)
        except ValueError as exc:  # the numbers overflow; the message names the quantity
            inner = exc.__cause__ if isinstance(exc.__cause__, ValueError) else exc
            if example.path is None:
                raise CLIError(f"--vectors: {inner} (here Q = K = V = the vectors)") from None
            raise CLIError(str(exc)) from None
    dec = example.decimals
    toks = list(example.tokens)
    n, d = example.E.shape
    d_k = steps.Q.shape[1]
    d_v = steps.V.shape[1]
    grids = [steps.scores, steps.weights, steps.output] + ([steps.scaled] if steps.scaled is not None else [])
    if not all(np.isfinite(g).all() for g in grids):
        limit = f"{examples.MAGNITUDE:,.0f}"
        raise CLIError(f"the vectors are too large: the scores overflow (keep every entry at most {limit} in size)")
    err = examples.errors(example, steps)  # each number keeps the digits its float64 error leaves
    names = ["scores", "weights", "output", "Q", "K", "V"] + (["scaled"] if steps.scaled is not None else [])
    shown = [example.E, *(getattr(steps, name) for name in names), *_weights(example)]
    names = ["E", *names] + (["W_Q", "W_K", "W_V"] if _weights(example) else [])

    if example.projections == "none":
        q, k, v = "X", "X", "X"
        how = "no projections: Q = K = V = X"
    else:
        q, k, v = "Q", "K", "V"
        how = {
            "identity": "identity projections: W_Q = W_K = W_V = I, so Q = K = V = X",
            "random": "random projections W_Q, W_K, W_V",
            "given": "given projections W_Q, W_K, W_V",
        }[example.projections]
    scaling = f"scores divided by sqrt(d_k) = sqrt({d_k}) = {format_short(math.sqrt(d_k), dec)}"
    formula = f"softmax({q} {k}^T{' / sqrt(d_k)' if example.scale else ''}) {v}"
    if steps.heads:  # as the site's multi-head page writes it
        h, d_head = len(steps.heads), steps.heads[0].Q.shape[1]
        scaling = (
            f"each head's scores divided by sqrt(d_head) = sqrt({d_head}) = {format_short(math.sqrt(d_head), dec)}"
        )
        formula = f"Concat(head_1, ..., head_{h}) W_O with W_O = I; head_i = softmax(Q_i K_i^T / sqrt(d_head)) V_i"
    out = [
        display(example.title, encoding)
        + (f"  [{display(example.slug, encoding)}]" if example.path is not None else ""),
        f"output = {formula}",
        "; ".join([how, scaling if example.scale else "no scaling", "causal mask" if example.causal else "no mask"])
        + f"; rounded to {dec} decimals"
        + (f", {FEWER}" if shortens(shown, dec, [getattr(err, name) for name in names]) else ""),
    ]
    number = 0

    def section(title: str, matrix, rows, cols, errors=None) -> None:
        nonlocal number
        number += 1
        out.extend(["", f"{number}. {title}", format_grid(matrix, rows, cols, dec, encoding, errors)])

    # As the site's Notation page writes them: features x1, x2, ... of width d, outputs Y.
    section(
        f"Tokens and embeddings X ({_count(n, 'token')}, each of width {d})", example.E, toks, _names("x", d), err.E
    )
    if _weights(example):
        for name, W, col in (("W_Q", example.W_Q, "q"), ("W_K", example.W_K, "k"), ("W_V", example.W_V, "v")):
            dW = getattr(err, name)
            section(f"{name} ({W.shape[0]} x {W.shape[1]})", W, _names("x", d), _names(col, W.shape[1]), dW)
    if example.projections != "none":
        section(f"Queries Q = X W_Q ({n} x {d_k})", steps.Q, toks, _names("q", d_k), err.Q)
        section(f"Keys K = X W_K ({n} x {d_k})", steps.K, toks, _names("k", d_k), err.K)
        section(f"Values V = X W_V ({n} x {d_v})", steps.V, toks, _names("v", d_v), err.V)
    row_col = "row = query token, column = key token"
    if steps.heads:
        _explain_heads(section, steps, err, toks)
        return "\n".join(out)
    section(f"Scores S = {q} {k}^T ({row_col})", steps.scores, toks, toks, err.scores)
    last, d_last = steps.scores, err.scores
    if steps.scaled is not None:
        section(f"Scaled scores S / sqrt({d_k})", steps.scaled, toks, toks, err.scaled)
        last, d_last = steps.scaled, err.scaled
    if steps.mask is not None:
        masked = np.where(steps.mask, last, -np.inf)
        title = "Causal mask: each token sees itself and the tokens before it (-inf = hidden)"
        section(title, masked, toks, toks, d_last)
    section("Weights A = softmax of each row (each row sums to 1)", steps.weights, toks, toks, err.weights)
    out_cols = _names("x" if example.projections == "none" else "v", d_v)  # the columns of X, or of V
    section(f"Outputs Y = A {v} (row i = weighted sum of the rows of {v})", steps.output, toks, out_cols, err.output)
    return "\n".join(out)


def _explain_heads(section, steps, err, toks) -> None:
    """The steps of each head (its columns of Q, K and V), then the heads side by side; ``err``:
    the bounds of their float64 errors."""
    d_head = steps.heads[0].Q.shape[1]
    d_v = steps.V.shape[1]
    for h, (head, e) in enumerate(zip(steps.heads, err.heads, strict=True), 1):
        cols = _names("v", d_v)[(h - 1) * d_head : h * d_head]
        first, last = (h - 1) * d_head + 1, h * d_head
        title = f"Head {h}: columns {first} to {last} of Q, K and V; scores Q_{h} K_{h}^T"
        section(title, head.scores, toks, toks, e.scores)
        section(f"Head {h}: scaled scores S_{h} / sqrt({d_head})", head.scaled, toks, toks, e.scaled)
        if head.mask is not None:
            masked = np.where(head.mask, head.scaled, -np.inf)
            section(f"Head {h}: causal mask (-inf = hidden)", masked, toks, toks, e.scaled)
        section(f"Head {h}: weights A_{h} = softmax of each row", head.weights, toks, toks, e.weights)
        section(f"Head {h}: output A_{h} V_{h}", head.output, toks, cols, e.output)
    title = "Outputs Y = the heads' outputs side by side, times W_O = I"
    section(title, steps.output, toks, _names("v", d_v), err.output)


def run_explain(args: argparse.Namespace) -> int:
    example = _example_from_args(args)
    _print(explain_text(example, getattr(sys.stdout, "encoding", None)), sys.stdout)
    return 0


def integer_option(text: str, low: int, high: int) -> int:
    """An option's whole number from ``low`` to ``high``, written in the digits 0 to 9 (as a spec file,
    a link and the playground write one: not "1e1", "-1", "1.0", "²", "٣" or "３", nor more digits than
    ``high`` has); else an argparse error that says which numbers it takes."""
    t = text.strip()
    if t.isascii() and t.isdecimal() and len(t) <= len(str(high)) and low <= int(t) <= high:
        return int(t)
    raise argparse.ArgumentTypeError(f"must be an integer from {low:,} to {high:,}, got {shown(text, 20)}")


def _decimals(text: str) -> int:
    return integer_option(text, 0, examples.MAX_DECIMALS)


EXPLAIN_EPILOG = f"""\
examples:
  {PROG} explain bank_of_river
      the first article's example: softmax(X X^T) X, 3 decimals
  {PROG} explain the_cat_sat
      scores scaled by sqrt(d_k), 4 decimals
  {PROG} explain learned
      random W_Q, W_K, W_V (seed 42): prints the W matrices and Q, K, V too
  {PROG} explain --tokens bank of river --vectors "1 0 1 0; 0 1 0 1; 1 1 0 0"
      your own tokens and vectors (no projections: Q = K = V = X)
  {PROG} explain --tokens I saw it --vectors "1 0; 0 1; 1 1" --scale --causal --decimals 2
      scaled by sqrt(d_k), each token attending only to itself and earlier tokens

named examples: {", ".join(examples.available())}
"""


def add_explain(subparsers) -> None:
    p = subparsers.add_parser(
        "explain",
        help="print every step of self-attention for a worked example or your own vectors",
        description="Print every step of self-attention as labelled grids (rows and columns named by\n"
        "token): tokens and embeddings, W_Q/W_K/W_V and Q/K/V when the example projects,\n"
        "scores, scaled scores when it scales, weights and outputs.",
        epilog=EXPLAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "example",
        nargs="?",
        metavar="EXAMPLE",
        help=f"a worked example by name, one of: {', '.join(examples.available())}",
    )
    p.add_argument(
        "--tokens",
        nargs="+",
        metavar="TOKEN",
        help=f"your own tokens, at most {examples.MAX_TOKENS}, one word each, e.g. --tokens bank of river",
    )
    p.add_argument(
        "--vectors",
        metavar="ROWS",
        help='one vector per token: rows separated by ";", numbers by spaces, '
        f"at most {examples.MAX_WIDTH} a row, each at most {examples.MAGNITUDE:,.0f} in size, "
        'e.g. "1 0 1 0; 0 1 0 1; 1 1 0 0"',
    )
    p.add_argument("--scale", action="store_true", help="divide the scores by sqrt(d_k) (only with --tokens)")
    p.add_argument(
        "--causal",
        action="store_true",
        help="let each token attend only to itself and earlier ones (only with --tokens)",
    )
    p.add_argument(
        "--decimals",
        type=_decimals,
        metavar="N",
        help=f"round to N decimals, 0 to {examples.MAX_DECIMALS} "
        "(default: the example's own rounding, or 4 for --tokens)",
    )
    p.set_defaults(func=run_explain)


# --------------------------------------------------------------------------------------------
# next: the small language model's next word (selfattn_ref.language_model)


def _temperature(text: str) -> float:
    """--temperature's value: a number as --vectors reads one (:func:`number_problem`, whose
    messages it ends with), above 0, at most MAGNITUDE."""
    value, problem = number_problem(text.strip())
    if problem is None and value > 0:
        return value
    limit = f"{examples.MAGNITUDE:,.0f}"
    raise argparse.ArgumentTypeError(
        f"must be a positive number, at most {limit}, got {shown(text, 20)}{problem or ''}"
    )


def _top(text: str) -> int:
    from . import corpus

    return integer_option(text, 1, len(corpus.VOCABULARY))


def _seed(text: str) -> int:
    """--seed's value: an integer of SeededRandom's, 0 to 2**32 - 1, in digits."""
    from .corpus import _MASK

    return integer_option(text, 0, _MASK)


def next_text(text, top: int = 5, temperature: float = 1.0, heads: bool = False, decimals: int = 4,
              encoding: str | None = "utf-8", generate: bool = False, seed: int | None = None) -> str:  # fmt: skip
    """What ``next`` prints for ``text`` (as :func:`selfattn_ref.corpus.words` reads it): the ``top``
    most probable next words at ``temperature`` and, with ``heads``, each head's weights, as grids;
    with ``generate``, the words the model writes after it (:func:`selfattn_ref.language_model.generate`:
    the most probable each time, or drawn with the numbers of ``seed``)."""
    from . import language_model as lm

    with np.errstate(all="ignore"):
        try:
            steps = lm.forward(text)
            probabilities = lm.next_word_probabilities(steps.logits[-1], temperature)
        except ValueError as exc:  # an unknown word, too many words, a temperature too small for the logits
            raise CLIError(str(exc)) from None
        if generate and len(steps.words) >= lm.load().context:
            raise CLIError(
                f"--generate: the text has {len(steps.words)} words, as many as the model reads: there is no room "
                "for another"
            )
        written = lm.generate(list(steps.words), temperature=temperature, seed=seed) if generate else []
    said = display(" ".join(steps.words), encoding)
    w = lm.load()
    out = [
        f'Next word after "{said}" ({_count(len(steps.words), "word")} of at most {w.context})',
        f"the trained language model: {len(w.blocks)} blocks of {w.num_heads} heads, d_model = {w.d_model}, "
        f"{len(w.vocabulary)} words; temperature {repr(float(temperature)).removesuffix('.0')}; "
        f"rounded to {decimals} decimals",
    ]
    ranked = lm.ranked(probabilities, top)
    width = max(display_width(display(word, encoding)) for word, _ in ranked)
    out += [f"{k:>4}. {_pad(display(word, encoding), width, True)}  {format_number(p, decimals)}"
            for k, (word, p) in enumerate(ranked, 1)]  # fmt: skip
    if heads:
        toks = list(steps.words)
        number = 0
        for b, block in enumerate(steps.blocks, 1):
            for h in range(block.weights.shape[0]):
                number += 1
                title = f"{number}. Block {b}, head {h + 1}: weights (row = word reading, column = word read)"
                out += ["", title, format_grid(block.weights[h], toks, toks, decimals, encoding)]
    if written:
        how = "the most probable each time" if seed is None else f"drawn with seed {seed}"
        t = repr(float(temperature)).removesuffix(".0")
        out += ["", f'Generated after "{said}", word by word ({how}, temperature {t}):']
        width = max(display_width(display(g.word, encoding)) for g in written)
        for k, g in enumerate(written, 1):
            u = "" if g.u is None else f"u = {format_number(g.u, decimals)}  "
            p = format_number(g.probabilities[lm.load().vocabulary.index(g.word)], decimals)
            out.append(f"{k:>4}. {_pad(display(g.word, encoding), width, True)}  {u}probability {p}")
        out.append(display(" ".join([*steps.words, *(g.word for g in written)]), encoding))
    return "\n".join(out)


def run_next(args: argparse.Namespace) -> int:
    words = []
    for i, word in enumerate(" ".join(args.text).split(), 1):
        try:
            words.append(_argv_text(word, i))
        except CLIError:
            raise CLIError(f"TEXT: word {i} is not UTF-8 text") from None
    decimals = 4 if args.decimals is None else args.decimals
    encoding = getattr(sys.stdout, "encoding", None)
    if args.seed is not None and not args.generate:
        raise CLIError(f"argument --seed: draws the words of --generate; give --generate too (see {PROG} next --help)")
    text = " ".join(words)
    _print(
        next_text(text, args.top, args.temperature, args.heads, decimals, encoding, args.generate, args.seed),
        sys.stdout,
    )
    return 0


def add_next(subparsers) -> None:
    from . import corpus

    p = subparsers.add_parser(
        "next",
        help="print the small language model's most probable next words, and its heads' weights",
        description="Read TEXT with the site's small language model (trained here, 2 blocks of 2 heads) and\n"
        "print the most probable next words with their probabilities; --heads adds each head's\n"
        f"attention weights. TEXT is at most {corpus.CONTEXT} words of the model's vocabulary (read in\n"
        "lower case):\n"
        + "\n".join("  " + " ".join(corpus.VOCABULARY[i : i + 14]) for i in range(0, len(corpus.VOCABULARY), 14)),
        epilog=f"""\
examples:
  {PROG} next "she took the money to the bank"
      the word after bank, when the thing carried is money
  {PROG} next "near the street the animal was cold so it" --heads
      each head's weights too
  {PROG} next "the animal near the street was cold so it" --top 3 --temperature 2
      the three most probable words at temperature 2 (flatter)
  {PROG} next "she took the money to the bank" --generate --seed 1
      then the words the model writes after it, each drawn with the seeded numbers (the playground's)
""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("text", nargs="+", metavar="TEXT", help="the words the model reads (quoted, or as separate words)")
    p.add_argument("--top", type=_top, default=5, metavar="K",
                   help=f"print the K most probable words, 1 to {len(corpus.VOCABULARY)} (default 5)")  # fmt: skip
    p.add_argument("--temperature", type=_temperature, default=1.0, metavar="T",
                   help="divide the logits by T before softmax: below 1 sharper, above 1 flatter "
                   "(default 1)")  # fmt: skip
    p.add_argument("--heads", action="store_true", help="print each head's attention weights, block by block")
    p.add_argument("--generate", action="store_true",
                   help=f"then write the words that follow, one at a time, until '.' or {corpus.CONTEXT} words: the "
                   "most probable each time, or drawn with --seed")  # fmt: skip
    p.add_argument("--seed", type=_seed, metavar="S",
                   help="with --generate, draw each word from its probabilities with the numbers of S (mulberry32, "
                   "0 to 4,294,967,295), as selfattn_ref.language_model.generate and the playground do")  # fmt: skip
    p.add_argument("--decimals", type=_decimals, metavar="N",
                   help=f"round to N decimals, 0 to {examples.MAX_DECIMALS} (default 4)")  # fmt: skip
    p.set_defaults(func=run_next)


# To add a subcommand: write add_<name>(subparsers) that calls subparsers.add_parser("<name>", help=...)
# and p.set_defaults(func=<function (args) -> int>), then list it here. Raise CLIError for bad input.
# (The contributor's commands, `update` and `new-example`, are the publishing tools' own command
# line, `python -m publish`, which reuses build_parser and run.)
SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [add_explain, add_next]


def build_parser(
    prog: str = PROG,
    subcommands: Sequence[Callable[[argparse._SubParsersAction], None]] = SUBCOMMANDS,
    description: str = "The reference implementation behind the self-attention site.",
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    if epilog is None:
        epilog = (
            f"examples:\n  {prog} explain bank_of_river\n"
            f'  {prog} explain --tokens bank of river --vectors "1 0 1 0; 0 1 0 1; 1 1 0 0" --scale\n\n'
            f"Run '{prog} COMMAND --help' for a command's options, e.g. '{prog} explain --help'."
        )
    parser = _Parser(
        prog=prog, description=description, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for add in subcommands:
        add(subparsers)
    parser.set_defaults(command_names=list(subparsers.choices))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    A reader who closes the pipe early (``explain ... | head -1``) has what they wanted: the
    command stops quietly, with status 0 and no traceback. Output that cannot be written at
    all (a full disk) is one line ``error: ...`` and status 2, like every other failure.
    """
    try:
        code = run(build_parser(), argv)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not while Python exits
        return code
    except BrokenPipeError:
        _drop_stdout()
        return 0
    except OSError as exc:  # e.g. ENOSPC: the output went nowhere
        _drop_stdout()
        _print(f"error: cannot write the output: {display(' '.join(str(exc).split()))}", sys.stderr)
        return EXIT_USAGE


def _drop_stdout() -> None:
    """Point stdout at /dev/null: nothing more can be written, and Python's flush at exit stays quiet."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (in-process callers)
        pass


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` with ``parser``, run the chosen subcommand, and turn a CLIError into one line
    ``error: ...`` on stderr and exit status 2."""
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help (status 0)
            return exc.code if isinstance(exc.code, int) else 0
        if args.command is None:
            raise CLIError(f"choose a command: {', '.join(args.command_names)} (see {parser.prog} --help)")
        return args.func(args)
    except CLIError as exc:
        message = " ".join(str(exc).split())  # one line, whatever the message held
        _print(f"error: {display(message)}", sys.stderr)  # escape sequences from argv shown escaped
        return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
