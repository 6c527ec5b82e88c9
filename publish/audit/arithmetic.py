"""Worked arithmetic: both sides of an equation agree within the rounding of the numbers shown.

A line such as ``0.4223 × 1 + 0.1554 × 0 + 0.4223 × 1 = 0.8446`` is parsed (numbers, "1,024" among
them as the audit reads it, [vectors], + - × · * / ÷ √ and parentheses) into intervals: a decimal
shown with k places stands for anything within half a unit of its last place; integers are exact.
Each side must overlap the next.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# What worked arithmetic is: stated in the spec rules, which refuse it in a spec's text
from selfattn_ref.examples.rules import CHAIN, EQ_SPLIT, GROUPED, OPERATOR, chain_spans, chains

__all__ = ["CHAIN", "arithmetic_problems", "chain_spans", "chains", "equations"]


class _Parser:
    """Recursive descent over numbers, [vectors], + - × · * / ÷ √ and parentheses.

    Each value is a pair (value, uncertainty): a decimal shown with k places stands for
    anything within half a unit of its last place; integers are exact."""

    def __init__(self, text: str):
        self.toks = re.findall(rf"{GROUPED}|\d+(?:\.\d+)?|[-−+×·*/÷√()\[\],]", text)
        if "".join(self.toks).replace(" ", "") != re.sub(r"\s+", "", text):
            raise ValueError("not arithmetic")
        self.i = 0

    def parse(self):
        v = self.expr()
        if self.i != len(self.toks):
            raise ValueError("trailing input")
        return v

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def expr(self):
        v = self.term()
        while self.peek() in ("+", "-", "−"):
            op = self.take()
            w = self.term()
            v = _zip(v, w, lambda a, b, op=op: (a[0] + b[0] if op == "+" else a[0] - b[0], a[1] + b[1]))
        return v

    def term(self):
        v = self.factor()
        while self.peek() in ("×", "·", "*", "/", "÷"):
            op = self.take()
            w = self.factor()
            if op in ("/", "÷"):
                v = _zip(v, w, _div)
            else:
                v = _zip(v, w, lambda a, b: (a[0] * b[0], abs(a[0]) * b[1] + abs(b[0]) * a[1] + a[1] * b[1]))
        return v

    def factor(self):
        t = self.take()
        if t is None:
            raise ValueError("incomplete")
        if t in ("-", "−"):
            return _zip(self.factor(), None, lambda a, _: (-a[0], a[1]))
        if t == "√":
            return _zip(self.factor(), None, _sqrt)
        if t == "(":
            v = self.expr()
            if self.take() != ")":
                raise ValueError("unbalanced")
            return v
        if t == "[":
            items = [self.expr()]
            while self.peek() == ",":
                self.take()
                items.append(self.expr())
            if self.take() != "]" or any(isinstance(x, list) for x in items):
                raise ValueError("bad vector")
            return items
        if re.fullmatch(rf"{GROUPED}|\d+(?:\.\d+)?", t):  # "1,024" is 1024, as the audit reads it
            d = len(t.split(".")[1]) if "." in t else 0
            return (Decimal(t.replace(",", "")), Decimal(5) / Decimal(10) ** (d + 1) if d else Decimal(0))
        raise ValueError(f"unexpected {t}")


def _div(a, b):
    if b[0] == 0:
        raise ValueError("division by zero")
    q = a[0] / b[0]
    return q, (a[1] + abs(q) * b[1]) / abs(b[0])


def _sqrt(a, _):
    if a[0] < 0:
        raise ValueError("root of a negative number")
    r = a[0].sqrt()
    return r, (a[1] / (2 * r) if r else a[1].sqrt())


def _zip(v, w, f):
    if w is None:
        return [f(x, None) for x in v] if isinstance(v, list) else f(v, None)
    if isinstance(v, list) and isinstance(w, list):
        if len(v) != len(w):
            raise ValueError("vectors of different lengths")
        return [f(x, y) for x, y in zip(v, w, strict=True)]
    if isinstance(v, list):
        return [f(x, w) for x in v]
    if isinstance(w, list):
        return [f(v, y) for y in w]
    return f(v, w)


def _evaluate(text: str):
    try:
        return _Parser(text).parse()
    except (ValueError, InvalidOperation, ArithmeticError):
        return None


def _has_operator(text: str) -> bool:
    return bool(OPERATOR.search(text))


def _agree(a, b) -> bool:
    if isinstance(a, list) != isinstance(b, list):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_agree(x, y) for x, y in zip(a, b, strict=True))
    return abs(a[0] - b[0]) <= a[1] + b[1]


def _fmt_value(v) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_fmt_value(x) for x in v) + "]"
    return f"{v[0].normalize():f} (±{v[1].normalize():f})" if v[1] else f"{v[0].normalize():f}"


def arithmetic_problems(line: str) -> list[tuple[str, str]]:
    """(text, message) for each equation on the line that does not add up."""
    problems = []
    for m, parts, values in equations(line):
        chain = m.group(0).strip().rstrip(",.;:")
        if values is None:
            zero = [p for p in parts if re.search(r"[/÷]\s*0+(\.0*)?(?![\d.])", p)]
            if zero:
                problems.append((chain, f"'{zero[0]}' divides by zero"))
            continue
        pairs = [(parts[i], values[i]) for i in range(len(parts)) if values[i] is not None]
        for (pa, va), (pb, vb) in zip(pairs, pairs[1:], strict=False):
            if not _agree(va, vb):
                problems.append((chain, f"'{pa}' gives {_fmt_value(va)}, which does not round to '{pb}'"))
    return problems


def equations(line: str):
    """(match, sides, values or None when it is not arithmetic) for each chain of = on the line."""
    for m in chains(line):
        chain = m.group(0).strip().rstrip(",.;:")
        parts = [p.strip().rstrip(",.;:") for p in EQ_SPLIT.split(chain)]
        values = [_evaluate(p) for p in parts]
        if sum(v is not None for v in values) < 2 or not any(_has_operator(p) for p in parts):
            yield m, parts, None
        else:
            yield m, parts, values
