"""The numbers audit: every number a page types must be one the code gives.

It reads a page's Markdown as written (front matter, prose, inline code, math; not
fenced code and not ``--8<--`` includes, which are files the tests check on their own)
and checks:

- every decimal (a number with a point) and every percentage against the quantities of
  the sources named in the front matter, at the precision shown;
- every worked arithmetic line (``0.4223 × 1 + 0.1554 × 0 + 0.4223 × 1 = 0.8446``):
  both sides must agree within the rounding of the numbers shown, and in a dot product
  written as ``bank · river = 1×1 + 0×1 + ...`` the factors must be the two tokens'
  vectors.

A number that no code computes is listed in the front matter as a constant, with a
reason. Each problem names the page, the line, the number and what the code gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import yaml

from selfattn_ref import examples

from .fmt import cell, is_integral, num
from .quantities import Quantity, quantities


@dataclass(frozen=True)
class Problem:
    page: str
    line: int
    number: str
    message: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.number}: {self.message}"


@dataclass(frozen=True)
class Constant:
    text: str
    reason: str


@dataclass(frozen=True)
class PageSpec:
    sources: tuple[str, ...]
    constants: tuple[Constant, ...]


class AuditConfigError(ValueError):
    """The page's front matter does not say what the audit needs."""


# --- reading a page ---------------------------------------------------------------

_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def split_front_matter(text: str) -> tuple[dict, int, str]:
    """(front matter as a dict, number of lines it takes, the rest)."""
    m = _FRONT.match(text)
    if not m:
        return {}, 0, text
    meta = yaml.safe_load(m.group(1)) or {}
    return meta, m.group(0).count("\n"), text[m.end() :]


def page_spec(meta: dict, page: str) -> PageSpec:
    audit = meta.get("audit") or {}
    if not isinstance(audit, dict):
        raise AuditConfigError(f"{page}: front matter 'audit' must be a mapping with 'sources' and 'constants'")
    unknown = set(audit) - {"sources", "constants"}
    if unknown:
        raise AuditConfigError(f"{page}: unknown key 'audit.{sorted(unknown)[0]}' (use 'sources' and 'constants')")
    sources = audit.get("sources") or []
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise AuditConfigError(f"{page}: 'audit.sources' must be a list of source names")
    for s in sources:
        quantities(s)  # raises ValueError naming the unknown source
    constants = []
    for c in audit.get("constants") or []:
        if not isinstance(c, dict) or "value" not in c or not str(c.get("reason", "")).strip():
            raise AuditConfigError(
                f"{page}: each of 'audit.constants' needs a 'value' and a non-empty 'reason', got {c!r}"
            )
        constants.append(Constant(str(c["value"]).strip(), str(c["reason"])))
    return PageSpec(tuple(sources), tuple(constants))


_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_STRIP = [
    re.compile(r"<!--.*?-->"),  # HTML comments
    re.compile(r"\]\([^)]*\)"),  # link targets: ](url)
    re.compile(r"\]\[[^\]]*\]"),  # reference links: ][ref]
    re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$"),  # link definitions
    re.compile(r"\{:?[^}]*[#.=][^}]*\}"),  # attribute lists
    re.compile(r"</?[A-Za-z][^>]*>"),  # HTML tags
    re.compile(r"&#?\w+;"),  # HTML entities
]
# LaTeX that stands for an operator or a root; other commands are dropped with their name.
_LATEX = [
    (re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"),
    (re.compile(r"\\(times)\b"), "×"),
    (re.compile(r"\\(cdot)\b"), "·"),
    (re.compile(r"\\(approx)\b"), "≈"),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"\\(left|right)\b"), ""),
    (re.compile(r"\\%"), "%"),
]


def prose_lines(body: str, first_line: int) -> list[tuple[int, str]]:
    """(line number, text) for every line the audit reads: fenced code and snippet
    includes left out, markup that carries no number stripped."""
    out = []
    fence = None
    for offset, raw in enumerate(body.split("\n")):
        lineno = first_line + offset
        m = _FENCE.match(raw)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        if "--8<--" in raw:
            continue
        out.append((lineno, clean_line(raw)))
    return out


def clean_line(raw: str) -> str:
    """One line of prose with markup that carries no number stripped and LaTeX operators
    turned into the characters the arithmetic parser reads."""
    line = raw
    for pat in _STRIP:
        line = pat.sub(" ", line)
    for pat, rep in _LATEX:
        line = pat.sub(rep, line)
    return line


# --- numbers ------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.^_\\])([-−]?)(\d+(?:\.\d+)?)(?![\w.]*\d)(\s?%)?(?![\w])")


@dataclass(frozen=True)
class Token:
    text: str  # as written, sign and % included
    start: int
    end: int
    value: Decimal
    decimals: int
    percent: bool


def number_tokens(line: str) -> list[Token]:
    toks = []
    for m in _NUMBER.finditer(line):
        sign, digits, pct = m.group(1), m.group(2), m.group(3)
        # A minus touching the digits is a sign ("is -0.3313", "[-1, 2]"), unless it also
        # touches what comes before it ("x-1", "2-1"): then it is a subtraction.
        if sign and m.start() > 0 and re.search(r"[\w)\]]$", line[: m.start()]):
            sign = ""
        start = m.start(2) - len(sign)
        value = Decimal(digits) * (-1 if sign else 1)
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        text = line[start : m.end()]
        toks.append(Token(text, start, m.end(), value, decimals, bool(pct)))
    return toks


def _shown(tok: Token) -> str:
    """The number as written (sign as "-", no "%"), to compare with the code's formatting
    character for character: "0.090" is not "0.09", "000" is not "0"."""
    return tok.text.replace("−", "-").rstrip("%").strip()


def matches(tok: Token, q: Quantity) -> bool:
    if tok.percent:
        return q.proportion and num(q.value * 100, tok.decimals) == _shown(tok)
    if q.value == round(q.value) and not q.proportion:
        return False  # a decimal never quotes an integer count or score
    return num(q.value, tok.decimals) == _shown(tok)


def nearest(tok: Token, qs: tuple[Quantity, ...]) -> Quantity | None:
    pool = [q for q in qs if q.proportion] if tok.percent else list(qs)
    if not pool:
        return None
    target = float(tok.value) / (100 if tok.percent else 1)
    return min(pool, key=lambda q: abs(q.value - target))


def _describe(tok: Token, q: Quantity | None) -> str:
    if q is None:
        return "no source of this page computes a proportion; add a source or list it as a constant"
    shown = num(q.value * 100, tok.decimals) + "%" if tok.percent else num(q.value, tok.decimals)
    return f"the code gives {shown} for the nearest quantity, {q.name} = {q.value:.6g}"


# --- worked arithmetic --------------------------------------------------------------


class _Parser:
    """Recursive descent over numbers, [vectors], + - × · * / ÷ √ and parentheses.

    Each value is a pair (value, uncertainty): a decimal shown with k places stands for
    anything within half a unit of its last place; integers are exact."""

    def __init__(self, text: str):
        self.toks = re.findall(r"\d+(?:\.\d+)?|[-−+×·*/÷√()\[\],]", text)
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
        if re.fullmatch(r"\d+(?:\.\d+)?", t):
            d = len(t.split(".")[1]) if "." in t else 0
            return (Decimal(t), Decimal(5) / Decimal(10) ** (d + 1) if d else Decimal(0))
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
    # An operator after a number, a vector or a bracket: "2 × 3", "[1, 0] + [0, 1]", "(1 + 2) / 3".
    return bool(re.search(r"[\d\])]\s*[×·*/÷+]|[√]|\d\s+[-−]\s*\d", text))


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


_EQ_SPLIT = re.compile(r"\s*(?:=|≈)\s*")
# The arithmetic part of a line: numbers, vectors and operators between two = signs.
_CHAIN = re.compile(r"[\d\[(√−-][\d\s.,×·*/÷+\-−√()\[\]]*(?:\s*(?:=|≈)\s*[\d\[(√−-][\d\s.,×·*/÷+\-−√()\[\]]*)+")
_DOT_LABEL = re.compile(r"(\S+)\s*·\s*(\S+)\s*=\s*$")


def arithmetic_problems(line: str, sources: tuple[str, ...]) -> list[tuple[str, str]]:
    """(text, message) for each equation on the line that does not add up."""
    problems = []
    for m in _CHAIN.finditer(line):
        chain = m.group(0).strip().rstrip(",.;:")
        parts = [p.strip().rstrip(",.;:") for p in _EQ_SPLIT.split(chain)]
        values = [_evaluate(p) for p in parts]
        if sum(v is not None for v in values) < 2 or not any(_has_operator(p) for p in parts):
            zero = [p for p in parts if re.search(r"[/÷]\s*0+(\.0*)?(?![\d.])", p)]
            if zero:
                problems.append((chain, f"'{zero[0]}' divides by zero"))
            continue
        pairs = [(parts[i], values[i]) for i in range(len(parts)) if values[i] is not None]
        for (pa, va), (pb, vb) in zip(pairs, pairs[1:], strict=False):
            if not _agree(va, vb):
                problems.append((chain, f"'{pa}' gives {_fmt_value(va)}, which does not round to '{pb}'"))
        label = _DOT_LABEL.search(line[: m.start()])
        if label:
            problems += _dot_label_problems(label.group(1), label.group(2), parts[0], chain, sources)
    return problems


def _dot_label_problems(a: str, b: str, expr: str, chain: str, sources) -> list[tuple[str, str]]:
    """In 'bank · river = 1×1 + 0×1 + ...' the factors must be the two tokens' vectors."""
    a, b = a.strip("*`\"'“”"), b.strip("*`\"'“”")
    for slug in sources:
        if slug not in examples.available():
            continue
        ex = examples.load(slug)
        if a in ex.tokens and b in ex.tokens:
            st = examples.run(ex)
            u, v = st.Q[ex.tokens.index(a)], st.K[ex.tokens.index(b)]
            terms = [t.strip() for t in re.split(r"\s*\+\s*", expr)]
            got = []
            for t in terms:
                fs = re.split(r"\s*[×·*]\s*", t)
                if len(fs) != 2:
                    return []
                got.append(tuple(Decimal(f) for f in fs))
            want = [(Decimal(num(x, ex.decimals)), Decimal(num(y, ex.decimals))) for x, y in zip(u, v, strict=True)]
            if got != want:
                integral = is_integral(u) and is_integral(v)
                shown = " + ".join(
                    f"{cell(x, ex.decimals, integral)}×{cell(y, ex.decimals, integral)}"
                    for x, y in zip(u, v, strict=True)
                )
                return [(chain, f"the factors are not {a}'s and {b}'s vectors in {slug}: the code gives {shown}")]
            return []
    return []


# --- the audit ------------------------------------------------------------------------


def audit_line(line: str, lineno: int, page: str, spec: PageSpec) -> list[Problem]:
    qs = tuple(q for s in spec.sources for q in quantities(s))
    constants = {c.text for c in spec.constants}
    problems = []
    for text, message in arithmetic_problems(line, spec.sources):
        problems.append(Problem(page, lineno, text, message))
    for tok in number_tokens(line):
        if tok.decimals == 0 and not tok.percent:
            continue  # integers are checked where they take part in arithmetic
        if tok.text.replace(" ", "") in {c.replace(" ", "") for c in constants}:
            continue
        if any(matches(tok, q) for q in qs):
            continue
        problems.append(
            Problem(
                page,
                lineno,
                tok.text,
                f"not a number the code gives for {list(spec.sources)}; "
                + _describe(tok, nearest(tok, qs))
                + " (if it is a constant, list it under audit.constants with a reason)",
            )
        )
    return problems


def audit_text(text: str, page: str) -> list[Problem]:
    meta, front_lines, body = split_front_matter(text)
    spec = page_spec(meta, page)
    problems = []
    for lineno, line in prose_lines(body, front_lines + 1):
        problems += audit_line(line, lineno, page, spec)
    used = {c.text for c in spec.constants}
    seen = {t.text.replace(" ", "") for _, line in prose_lines(body, 1) for t in number_tokens(line)}
    for c in used:
        if c.replace(" ", "") not in seen:
            problems.append(Problem(page, 1, c, "listed as a constant but not used on the page"))
    return problems


def audit_page(path: Path, root: Path) -> list[Problem]:
    return audit_text(path.read_text(encoding="utf-8"), str(path.relative_to(root)))


def auditable_tokens(text: str) -> list[tuple[int, Token]]:
    """(line number in the file, token) for every number the audit holds to account:
    decimals, percentages, and integers inside worked arithmetic. Used by the tests that
    change digits on purpose."""
    meta, front_lines, body = split_front_matter(text)
    constants = {str(c.get("value")).replace(" ", "") for c in (meta.get("audit") or {}).get("constants") or []}
    out = []
    for lineno, line in prose_lines(body, front_lines + 1):
        spans = [
            (m.start(), m.end())
            for m in _CHAIN.finditer(line)
            if any(_has_operator(p) for p in _EQ_SPLIT.split(m.group(0)))
        ]
        for tok in number_tokens(line):
            in_chain = any(a <= tok.start < b for a, b in spans)
            if tok.text.replace(" ", "") in constants:
                continue
            if tok.decimals or tok.percent or in_chain:
                out.append((lineno, tok))
    return out


def single_digit_changes(text: str, page: str):
    """Every page with one digit of one audited number changed, as
    (line number, number as written, number after the change, problems the audit finds
    on that line). The tests require every change to be caught."""
    meta, _, _ = split_front_matter(text)
    spec = page_spec(meta, page)
    lines = dict(prose_lines(split_front_matter(text)[2], split_front_matter(text)[1] + 1))
    for lineno, tok in auditable_tokens(text):
        line = lines[lineno]
        for k, ch in enumerate(line[tok.start : tok.end]):
            if not ch.isdigit():
                continue
            for new in "0123456789":
                if new == ch:
                    continue
                pos = tok.start + k
                changed = line[:pos] + new + line[pos + 1 :]
                new_text = changed[tok.start : tok.end]
                yield lineno, tok.text, new_text, audit_line(changed, lineno, page, spec)
