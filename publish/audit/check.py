"""The checks, line by line, and the report.

On each line the audit reads:

- every claim: each number it binds is the quantity it names, at the rounding shown;
- every decimal, percentage and number grouped in thousands ("1,048,576") that no claim binds
  is an error, unless the front matter lists it as a constant with a reason;
- every worked arithmetic line adds up within the rounding of the numbers shown, and in a
  labelled dot product (``bank · river = 1×1 + 0×1 + ...``) the factors are the two tokens'
  query and key vectors in the source declared for the line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from selfattn_ref import examples

from .. import ROOT
from ..fmt import cell, is_integral, num
from ..generate.registry import generated_by
from .arithmetic import arithmetic_problems, chains
from .claims import KEPT, ClaimError, Entry, blank, quantity_names, resolve
from .numbers import Token, as_shown, number_tokens, states
from .page import Line, Page, read_page


@dataclass(frozen=True)
class Problem:
    page: str
    line: int
    number: str
    message: str
    # On a generated page: where to fix it ("selfattn_ref/examples/x.toml:5"), the file the page is made from.
    edit: str | None = None

    def __str__(self) -> str:
        if self.edit:
            return (
                f"{self.edit}: {self.number}: {self.message} (on {self.page}:{self.line}, which `make update` "
                "writes from that file: edit it there, not the page)"
            )
        return f"{self.page}:{self.line}: {self.number}: {self.message}"


@dataclass(frozen=True)
class Binding:
    """A number and the quantity a claim says it is (None for '_', an integer taken as written)."""

    token: Token
    entry: Entry


def bindings(page: Page, line: Line, text: str | None = None) -> tuple[list[Binding], list[tuple[str, str, list]]]:
    """(each number a claim on the line binds, with its entry; (claim, message, the numbers it
    was to bind) for each claim that cannot bind). ``text`` replaces the line's text (the tests
    change numbers on purpose)."""
    text = line.text if text is None else text
    visible = blank(text)
    tokens = number_tokens(visible)
    out, errors = [], []
    for m in KEPT.finditer(text):
        claim = "{{" + m.group(1) + "}}"
        span = _target(visible, m.start())
        if span is None:
            errors.append((claim, _placement(visible, m.start(), claim), []))
            continue
        bound = [t for t in tokens if span[0] <= t.start and t.end <= span[1]]
        try:
            entries = resolve(m.group(1), line.source, page.spec.sources)
        except ClaimError as exc:
            errors.append((claim, str(exc), bound))
            continue
        if len(entries) != len(bound):
            errors.append(
                (
                    claim,
                    f"names {len(entries)} quantities for the {len(bound)} numbers it binds "
                    f"({', '.join(t.text for t in bound) or 'none'})",
                    bound,
                )
            )
            continue
        out += [Binding(t, e) for t, e in zip(bound, entries, strict=True)]
    return out, errors


def _placement(visible: str, at: int, claim: str) -> str:
    """What to write for a claim at ``at`` that follows no number, math, code or list: the number
    (or the math, code or list) before it joined to it, or else where a claim goes."""
    what = "a claim follows the number it binds with nothing between them"
    before = visible[:at].rstrip()
    if _target(before, len(before)) is not None:  # only a space between
        kind = {"$": "$math$", "`": "`code`", "]": "[list]"}.get(before[-1:])
        if kind is None:
            return f"{what}: write {number_tokens(before)[-1].text.strip()}{claim}"
        return f"{what}: write it right after the {kind}, with no space"
    return (
        f"{what}: write the number right before it (NUMBER{claim}), or put the claim right after the $math$, "
        "`code` or [list] whose numbers it binds"
    )


def _target(visible: str, at: int) -> tuple[int, int] | None:
    """(start, end) of what a claim at ``at`` binds: the math, code or list just before it, or
    the number that ends there."""
    before = visible[:at]
    if before.endswith(("$", "`")):
        start = before.rfind(before[-1], 0, len(before) - 1)
        return None if start < 0 else (start, at)
    if before.endswith("]"):
        depth = 0
        for i in range(len(before) - 1, -1, -1):
            depth += {"]": 1, "[": -1}.get(before[i], 0)
            if depth == 0:
                return (i, at)
        return None
    toks = number_tokens(before)
    return (toks[-1].start, at) if toks and toks[-1].end == len(before) else None


def check_line(page: Page, line: Line, text: str | None = None) -> list[Problem]:
    """Every problem on one line. ``text`` replaces the line's text (the tests change numbers on purpose)."""
    text = line.text if text is None else text
    visible = blank(text)
    problems = [Problem(page.name, line.number, t, msg) for t, msg in arithmetic_problems(visible)]
    problems += [Problem(page.name, line.number, t, msg) for t, msg in _dot_label_problems(page, line, visible)]
    bound, errors = bindings(page, line, text)
    problems += [Problem(page.name, line.number, claim, msg) for claim, msg, _ in errors]
    for b in bound:
        q = b.entry.quantity
        if q is None:
            if b.token.decimals or b.token.percent:
                problems.append(Problem(page.name, line.number, b.token.text, "'_' stands only for an integer"))
            elif b.token.grouped:
                problems.append(Problem(page.name, line.number, b.token.text, _GROUPED_ANY))
        elif not states(b.token, q):
            problems.append(Problem(page.name, line.number, b.token.text, _claim_message(b.token, b.entry)))
    covered = {b.token.start for b in bound}
    constants = {c.text.replace(" ", "") for c in page.spec.constants}
    covered |= {t.start for _, _, failed in errors for t in failed}  # their claim's problem names them
    for tok in number_tokens(visible):
        if tok.quoted and tok.start not in covered and tok.text.replace(" ", "") not in constants:
            problems.append(Problem(page.name, line.number, tok.text, _unclaimed_message(tok, page, line)))
    return problems


_GROUPED_ANY = (
    "'_' stands only for an integer written plainly (a count, a literal 2): a number grouped in thousands is "
    "a figure, so claim the quantity it is, or list it under audit.constants with a reason"
)


def _unclaimed_message(tok: Token, page: Page, line: Line) -> str:
    """A bare number: say how to claim it, with the quantities of the line's sources it could be."""
    # The line's own source first; when none of its quantities is the number, every source the page lists.
    sources = list(page.spec.sources)
    if line.source:
        sources = [line.source, *(s for s in sources if s != line.source)]

    def could_be(among: list[str]) -> list[tuple[str, str]]:
        return [
            (s, name)
            for s in among
            for name, q in quantity_names(s).items()
            if not name.startswith(s + " ") and states(tok, q)
        ]

    could = could_be(sources[:1] if line.source else sources) or could_be(sources[1:] if line.source else [])
    default = line.source or (sources[0] if len(sources) == 1 else None)

    def prefix(s: str) -> str:  # another source than the line's is named in the claim
        return "" if s == default else s + ": "

    hint = (
        "; it could be " + " or ".join(f"{tok.text.strip()}{{{{{prefix(s)}{n}}}}}" for s, n in could[:4])
        if could
        else f"; no quantity of {', '.join(sources) or 'any source'} is {tok.text.strip()} at the rounding shown"
    )
    return (
        "no claim says which quantity this is: write it right after the number, as "
        f"{tok.text.strip()}{{{{QUANTITY}}}}, or list the number under audit.constants with a reason" + hint
    )


def _claim_message(tok: Token, entry: Entry) -> str:
    q = entry.quantity
    what = f"the sentence claims {describe(entry)}"
    if tok.percent and not q.proportion:
        return f"{what} = {q.value:.6g}, which is not a share, so not a percentage"
    if tok.decimals == 0 and not tok.percent and abs(q.value - round(q.value)) >= 1e-9:
        return f"{what} = {q.value:.6g}, not an integer: show it with its decimals"
    return f"{what}, and the code gives {as_shown(q, tok)} for it ({q.value:.6g}), not {tok.text.strip()}"


def describe(entry: Entry) -> str:
    """'bank_of_river weights[bank, river]', or 'scaling: the_cat_sat weights[sat, sat]' for a
    quantity whose name does not start with its source."""
    name = entry.quantity.name
    return name if name.startswith(entry.source + " ") else f"{entry.source}: {name}"


_DOT_LABEL = re.compile(r"(\S+)\s*·\s*(\S+)\s*=\s*$")


# The examples a dot-product label may name, loaded and run once per version of their files: a page's
# check asks for them on every such line, and the mutation tests check each line hundreds of times.
# Keyed on each file's modification time and size, so that `make serve` sees an edit.
def _example_key(slug: str) -> tuple[str, int, int]:
    st = (examples.EXAMPLES_DIR / f"{slug}.toml").stat()
    return (slug, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=256)
def _loaded(key: tuple[str, int, int]) -> examples.Example:
    return examples.load(key[0])


@functools.lru_cache(maxsize=256)
def _steps(key: tuple[str, int, int]) -> examples.Steps:
    return examples.run(_loaded(key))


def _dot_label_problems(page: Page, line: Line, visible: str) -> list[tuple[str, str]]:
    """In 'bank · river = 1×1 + 0×1 + ...' the factors must be the two tokens' query and key
    vectors in the line's source."""
    problems = []
    for m in chains(visible):
        label = _DOT_LABEL.search(visible[: m.start()])
        if not label:
            continue
        chain = m.group(0).strip().rstrip(",.;:")
        expr = re.split(r"\s*(?:=|≈)\s*", chain)[0]
        a, b = label.group(1).strip("*`\"'“”"), label.group(2).strip("*`\"'“”")
        available = examples.available()
        candidates = [s for s in page.spec.sources if s in available]
        loaded = {s: _loaded(_example_key(s)) for s in candidates}
        if not any(a in ex.tokens and b in ex.tokens for ex in loaded.values()):
            continue
        if line.source is None:
            problems.append(
                (chain, f"'{a} · {b}' is a dot product of which example? Declare it: <!-- audit source: NAME -->")
            )
            continue
        if line.source not in candidates:
            continue
        ex = loaded[line.source]
        if a not in ex.tokens or b not in ex.tokens:
            problems.append((chain, f"{line.source} has no tokens '{a}' and '{b}'"))
            continue
        st = _steps(_example_key(line.source))
        u, v = st.Q[ex.tokens.index(a)], st.K[ex.tokens.index(b)]
        got = []
        for t in (t.strip() for t in re.split(r"\s*\+\s*", expr)):
            fs = re.split(r"\s*[×·*]\s*", t)
            if len(fs) != 2:
                got = None
                break
            got.append(tuple(f.strip() for f in fs))
        if got is None:
            continue
        want = [(num(x, ex.decimals), num(y, ex.decimals)) for x, y in zip(u, v, strict=True)]
        if [tuple(Decimal(x) for x in p) for p in got] != [tuple(Decimal(x) for x in p) for p in want]:
            integral = is_integral(u) and is_integral(v)
            shown_ = " + ".join(
                f"{cell(x, ex.decimals, integral)}×{cell(y, ex.decimals, integral)}" for x, y in zip(u, v, strict=True)
            )
            problems.append(
                (chain, f"the factors are not {a}'s and {b}'s vectors in {line.source}: the code gives {shown_}")
            )
    return problems


def audit_text(text: str, page: str, root: Path = ROOT) -> list[Problem]:
    """Every problem of the page ``text`` (named ``page``). A page that ``make update`` generates
    from a spec file (its banner names it, relative to ``root``) has its problems pointed at that
    file: the line of the spec that holds the number, or the generator when no line does."""
    doc = read_page(text, page)
    problems = []
    for line in doc.lines:
        problems += check_line(doc, line)
    seen = {t.text.replace(" ", "") for line in doc.lines for t in number_tokens(blank(line.text))}
    for c in doc.spec.constants:
        if c.text.replace(" ", "") not in seen:
            problems.append(Problem(page, 1, c.text, "listed as a constant but not used on the page"))
    made = generated_by(text)
    if not made or not problems:  # (what `make update` writes is worked out only to point a problem)
        return problems
    lines = text.splitlines()
    written = _written_lines(page, made[0], root)
    return [
        _typed(p, made[0]) if written is not None and lines[p.line - 1] not in written else _at_origin(p, *made, root)
        for p in problems
    ]


def audit_page(path: Path, root: Path) -> list[Problem]:
    return audit_text(path.read_text(encoding="utf-8"), str(path.relative_to(root)), root)


def _written_lines(page: str, source: str | None, root: Path) -> frozenset[str] | None:
    """The lines that ``make update`` writes into the generated page ``page`` (named relative to
    ``root``) from the spec file ``source`` as it is now; None when that cannot be told (a page made
    from several specs, a spec that does not load: its own check reports it)."""
    spec = root / source if source and source.endswith(".toml") and "*" not in source else None
    if spec is None or not spec.is_file():
        return None
    st = spec.stat()
    return _generated_lines(str(spec), st.st_mtime_ns, st.st_size, page)


@functools.lru_cache(maxsize=64)
def _generated_lines(spec: str, mtime_ns: int, size: int, page: str) -> frozenset[str] | None:
    """(keyed on the spec file's time and size, so that an edit is seen)"""
    from ..generate import producers, registry  # noqa: PLC0415 - only for a problem on a generated page

    try:
        every = examples.load_all(Path(spec).parent)  # the pages of one example link the others
    except examples.SpecError:
        return None
    producers.load()
    made = {registry.relative(p): text for p, text in registry.generate(every, per_example_only=True).items()}
    return frozenset(made[page].splitlines()) if page in made else None


def _typed(problem: Problem, source: str) -> Problem:
    """``problem`` on a line of a generated page that ``make update`` does not write from ``source``:
    typed into the page, or left from an older spec. The change belongs in the spec."""
    found = problem.message.split(": write it right after the number")[0]  # no advice to edit the page
    return replace(
        problem,
        message=(
            f"this line is not one that `make update` writes from {source}: the page is generated from that "
            f"file, and `make update` rewrites it, so an edit of the page is lost. Make the change in {source} "
            f"(its title, description, tokens or numbers), then run `make update` (the audit: {found})"
        ),
    )


# Keys of a spec whose text a generated page shows as prose (where a number on it can come from).
_SPEC_TEXT = ("description", "title", "tokens")


def _at_origin(problem: Problem, source: str | None, writer: str, root: Path) -> Problem:
    """``problem`` of a generated page, pointed at the file to edit: the spec's line that holds the
    number (of each spec, for a page made from several: ``selfattn_ref/examples/*.toml``), else the
    module of the generator that wrote it."""
    specs = sorted(root.glob(source)) if source and source.endswith(".toml") else []
    number = problem.number.strip().rstrip("%").strip()
    for spec in specs:
        lines = spec.read_text(encoding="utf-8").splitlines()
        starts = {key: i for i, text in enumerate(lines) for key in _SPEC_TEXT if re.match(rf"{key}\s*=", text)}
        for key, start in sorted(starts.items(), key=lambda kv: _SPEC_TEXT.index(kv[0])):
            for i in range(start, len(lines)):
                if i > start and re.match(r"[A-Za-z_][\w-]*\s*=", lines[i]):  # the next key: not this one's value
                    break
                if re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", lines[i]):
                    message = problem.message
                    if message.startswith("no claim says which quantity this is"):
                        message = (
                            f"the spec's '{key}' holds a number that no claim can bind (a spec's text holds no "
                            "claims, so the audit cannot tell which quantity it is): write it in words, or leave "
                            "the numbers to the tables the page shows"
                        )
                    return replace(problem, message=message, edit=f"{spec.relative_to(root).as_posix()}:{i + 1}")
    return replace(
        problem,
        message=f"{problem.message} (the generator {writer} wrote this number, not a spec's text)",
        edit=writer.split(":")[0].replace(".", "/") + ".py",
    )
