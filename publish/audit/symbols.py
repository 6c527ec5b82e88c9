"""The symbols of the pages' math, and the Notation page that defines each of them once.

:func:`symbols` reads a formula (the TeX between ``$...$`` or in a ``$$`` block) and returns the
symbols a reader meets in it, each in a normal form that says what it is, not which instance:

- a letter, Latin or Greek (``X``, ``q``, ``\\alpha`` as ``α``, ``\\bar{y}`` as ``ȳ``), or one of the
  names of :data:`NAMES` that are written as several letters (``PE``, ``pos``);
- with a subscript of one letter or a label, kept as it is: ``W_Q``, ``d_k``, ``h_t``, ``d_model``
  (``d_\\text{model}``), ``W_xh``, ``W_cls``; a subscript that computes holds the index letters in
  it, in order (``h_t`` for ``h_{t-1}``, ``M_i,j`` for ``M_{ij}``, ``PE_pos,p`` for
  ``PE_{(pos,\\, 2p)}``); and ``#`` stands for a number or ``n`` (``h_#`` for ``h_1`` and ``h_n``);
  an index letter (:data:`INDICES`) is a symbol of its own too;
- a superscript that is a label joins the symbol (``W^Q_i``); ``^\\top`` is the sign ``⊤``, and any
  other superscript is read as math of its own (``e^{s_j}``: ``e`` and ``s_j``);
- a function or a word: ``\\operatorname{softmax}`` as ``softmax``, ``\\text{head}_i`` as ``head_i``,
  ``\\tanh``, ``\\sin``, ``\\max``, ``\\ln``; and the signs ``√``, ``Σ``, ``⊤``, ``∞``, ``π``.

Numbers and arithmetic (``+ - × · / = ≈``), brackets, spacing and layout (``\\begin{aligned}``, ``&``)
are not symbols. Words of prose inside a formula (``\\text{if query }``, ``\\text{otherwise}``) are
skipped: :data:`PROSE`.

:func:`notation_entries` reads the Notation page: each row of its tables defines the symbols of its
first cell, and a symbol is defined in one row only (one meaning). :func:`page_symbols` reads a
page's math (includes expanded by the caller), with the line each symbol is first used on.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from ..source.pages import INLINE_MATH
from .wording import prose

# Names written as several letters; any other run of letters is that many symbols (QK is Q and K).
NAMES = ("PE", "pos")
# Letters that number things (queries, keys, steps, pairs), in a subscript an index, not a label:
# the Notation page lists each (tests/content/test_symbols.py holds the two equal).
INDICES = ("i", "j", "l", "m", "p", "t")
# Words of prose inside a formula.
PROSE = ("if", "or", "otherwise", "visible", "and", "for")
GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε", "varepsilon": "ε",
    "mu": "μ", "sigma": "σ", "pi": "π", "theta": "θ", "lambda": "λ", "tau": "τ",
}  # fmt: skip
FUNCTIONS = ("sin", "cos", "tanh", "max", "min", "ln", "log", "exp")
SIGNS = {"sqrt": "√", "sum": "Σ", "top": "⊤", "infty": "∞"}
# Commands that are spacing, layout, arithmetic or typography: not symbols.
IGNORED = {
    "left", "right", "big", "Big", "bigg", "quad", "qquad", "cdot", "times", "approx", "ne", "neq", "to",
    "le", "leq", "ge", "geq", "ldots", "dots", "cdots", "frac", "dfrac", "begin", "end", "mid", "pm",
}  # fmt: skip


class _Reader:
    """A small reader of TeX: groups ``{...}``, commands ``\\name``, and single characters."""

    def __init__(self, tex: str):
        self.s = tex
        self.i = 0

    def done(self) -> bool:
        return self.i >= len(self.s)

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def group(self) -> str:
        """The text of the next ``{...}`` (or the next character or command, as TeX reads ``x_1``)."""
        self.skip_space()
        if self.peek() == "{":
            depth, start = 0, self.i
            while self.i < len(self.s):
                c = self.s[self.i]
                if c == "\\":
                    self.i += 2
                    continue
                depth += {"{": 1, "}": -1}.get(c, 0)
                self.i += 1
                if depth == 0:
                    return self.s[start + 1 : self.i - 1]
            return self.s[start + 1 :]
        if self.peek() == "\\":
            m = re.compile(r"\\([A-Za-z]+|.)").match(self.s, self.i)
            self.i = m.end()
            if m.group(1) in ("text", "mathrm", "operatorname", "bar"):
                return m.group(0) + "{" + self.group() + "}"
            return m.group(0)
        c = self.peek()
        self.i += 1
        return c

    def skip_space(self) -> None:
        while self.peek() == " ":
            self.i += 1


def _plain(tex: str) -> str:
    """A label's text: ``\\text{model}`` as ``model``, ``{Q}`` as ``Q``."""
    tex = re.sub(r"\\(?:text|mathrm|operatorname)\s*\{([^{}]*)\}", r"\1", tex)
    return re.sub(r"[{}\s]|\\[,;!: ]", "", tex)


def _subscript(tex: str) -> tuple[str, bool]:
    """(what the subscript adds to the symbol's form, whether it is a label rather than an index)."""
    plain = _plain(tex)
    if "_" in re.sub(r"\\(?:text|mathrm)\s*\{[^{}]*\}", "", tex):
        return "#", False  # q_{d_k}: the last entry of q
    if re.fullmatch(r"[0-9]+|n", plain):
        return "#", False  # x_1, h_n: one of a numbered list
    if re.fullmatch(r"[A-Za-z]", plain):
        return plain, plain not in INDICES  # h_t, Q_i: an index; d_k, W_h, head_h: a label
    letters = re.findall(r"pos|[a-z]", plain)
    indices = [x for x in letters if x in INDICES or x == "pos"]
    if re.search(r"\\(?:text|mathrm)", tex) or re.fullmatch(r"[A-Za-z]+", plain) and len(indices) < len(letters):
        return plain, True  # d_model, W_cls, W_xh
    return (",".join(dict.fromkeys(indices)) if indices else "#"), False


def symbols(tex: str) -> list[str]:
    """The symbols of the formula ``tex``, in their normal forms, in the order they appear (repeats
    included)."""
    out: list[str] = []
    r = _Reader(tex)
    last: int | None = None  # the symbol (index in out) a sub- or superscript attaches to

    def add(symbol: str, attaches: bool = True) -> None:
        nonlocal last
        out.append(symbol)
        last = len(out) - 1 if attaches else None

    while not r.done():
        c = r.peek()
        if c == "\\":
            command = r.group()
            name, _, arg = command[1:].partition("{")
            if name in ("operatorname", "text", "mathrm"):
                word = arg[:-1]
                if word and word not in PROSE and not re.search(r"\s", word):
                    add(_plain(word))
                else:
                    last = None
            elif name == "bar":
                add(unicodedata.normalize("NFC", _plain(arg[:-1]) + "\u0304"))  # ȳ
            elif name in GREEK:
                add(GREEK[name])
            elif name in FUNCTIONS:
                add(name)
            elif name in SIGNS:
                add(SIGNS[name], attaches=False)
            elif name in ("begin", "end"):
                r.group()
                last = None
            elif name not in ("!", ",", ";", ":", " "):
                last = None  # arithmetic, a line break, a brace
            continue
        if c in "_^":
            r.i += 1
            arg = r.group()
            if last is None:
                out.extend(symbols(arg))
            elif c == "^" and arg.strip() == "\\top":
                out.append("⊤")
            elif c == "^" and re.fullmatch(r"[A-Z]", _plain(arg)):
                out[last] = _attach(out[last], "^" + _plain(arg))
            elif c == "^":
                out.extend(symbols(arg))
            else:
                form, label = _subscript(arg)
                out[last] = _attach(out[last], "_" + form)
                if not label:
                    out.extend(s for s in symbols(arg) if s in INDICES or s == "pos")
            continue
        m = _LETTERS.match(r.s, r.i)
        if m:
            add(m.group(0))
            r.i = m.end()
            continue
        r.i += 1
        if c not in " {}":
            last = None
    return out


_LETTERS = re.compile("|".join(NAMES) + r"|[A-Za-z]")


def _attach(symbol: str, part: str) -> str:
    """A sub- or superscript added to a symbol, the superscript first (``W^Q_i``)."""
    base, _, sub = symbol.partition("_")
    if part.startswith("^"):
        return base + part + (f"_{sub}" if sub else "")
    return f"{base}{part}" if not sub else f"{symbol},{part[1:]}"


@dataclass(frozen=True)
class Use:
    symbol: str
    line: int


def page_symbols(text: str) -> list[Use]:
    """Each symbol of the page ``text`` (its includes expanded), with the first line it is on."""
    first: dict[str, int] = {}
    for lineno, _, math in prose(text):
        for tex in math:
            for s in symbols(tex):
                first.setdefault(s, lineno)
    return [Use(s, n) for s, n in first.items()]


@dataclass(frozen=True)
class Entry:
    symbols: tuple[str, ...]
    line: int
    text: str  # the row as written


_ROW = re.compile(r"^\|(.*)\|\s*$")


def notation_entries(text: str) -> list[Entry]:
    """Each row of the Notation page's tables that defines symbols: those of its first cell."""
    out = []
    for k, line in enumerate(text.split("\n"), 1):
        m = _ROW.match(line.strip())
        if not m or re.fullmatch(r"[\s|:-]*", m.group(1)):
            continue
        first = m.group(1).split("|")[0]
        found = []
        for tex in INLINE_MATH.findall(first):
            got = symbols(tex)
            # an index in a subscript (the i of Q_i) is used there, defined in its own row
            found += got if len(got) == 1 else [s for s in got if s not in INDICES and s != "pos"]
        if found:
            out.append(Entry(tuple(dict.fromkeys(found)), k, line))
    return out


def defined(entries: Iterable[Entry]) -> dict[str, list[int]]:
    """Symbol -> the lines of the rows that define it (more than one: two meanings)."""
    out: dict[str, list[int]] = {}
    for e in entries:
        for s in e.symbols:
            out.setdefault(s, []).append(e.line)
    return out
