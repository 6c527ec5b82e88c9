"""Claims: what a number in the prose says it is.

A number on a page is followed by the quantity it claims, between double braces::

    "bank" puts 66.5%{{weights[bank, bank]}} of its focus on itself

A claim right after inline math, inline code or a bracketed list binds every number in it,
in order, one entry each, separated by ``;``::

    - of: $1 / 11.107 = 0.090${{e^score[bank, of]; row total of e^score[bank]; weights[bank, of]}}

An entry is a quantity's name as :mod:`publish.audit.quantities` gives it, without the source's
name in front (``weights[bank, of]``, not ``bank_of_river weights[bank, of]``); it may start
with a source (``dog_bites_man: weights[dog, dog]``), else it names a quantity of the
source declared above it (``<!-- audit source: dog_bites_man -->``) or of the page's only
source. A row (``output[bank]``) stands for its cells in order. ``_`` stands for an integer
that takes part in the arithmetic only (a count, a literal 2). The site does not show the
claims: :mod:`publish.markdown.numbers_audit` (a Markdown extension) removes them when the page is built.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache

from .quantities import Quantity, known_sources, quantities

# The syntax, shared with the Markdown extension that strips it from the rendered page.
# Double braces cannot be an attribute list ({: ...} / { #id .class }), and a claim never
# sits inside math or code: the extension runs after those are set aside.
CLAIM = re.compile(r"\{\{([^{}\n]*)\}\}")
# How a claim is kept in a line the audit has cleaned of markup.
OPEN, CLOSE = "\x02", "\x03"
KEPT = re.compile(f"{OPEN}([^{OPEN}{CLOSE}]*){CLOSE}")
ANY_INTEGER = "_"


@dataclass(frozen=True)
class Entry:
    text: str  # as written in the claim
    source: str | None
    quantity: Quantity | None  # None for "_"


class ClaimError(ValueError):
    """A claim names a source or a quantity that does not exist."""


@cache
def quantity_names(source: str) -> dict[str, Quantity]:
    """A source's quantities by name: the full name, and the name without the source in front."""
    out: dict[str, Quantity] = {}
    for q in quantities(source):
        out.setdefault(q.name, q)
        if q.name.startswith(source + " "):
            out.setdefault(q.name[len(source) + 1 :], q)
    return out


@cache
def _rows(source: str) -> dict[str, tuple[Quantity, ...]]:
    """'weights[bank]' -> the cells 'weights[bank, bank]', 'weights[bank, of]', ... in order."""
    rows: dict[str, list[Quantity]] = {}
    for name, q in quantity_names(source).items():
        m = re.fullmatch(r"(.*\[)([^\[\],]+), [^\[\]]+\]", name)
        if m:
            rows.setdefault(m.group(1) + m.group(2) + "]", []).append(q)
    return {k: tuple(v) for k, v in rows.items()}


def resolve(body: str, default: str | None, allowed: tuple[str, ...]) -> list[Entry]:
    """The entries of one claim, rows expanded; ClaimError naming what is wrong."""
    entries: list[Entry] = []
    for raw in body.split(";"):
        text = raw.strip()
        if text == ANY_INTEGER:
            entries.append(Entry(text, None, None))
            continue
        source, name = default, text
        m = re.match(r"([A-Za-z_]\w*):\s*(.+)$", text)
        if m and m.group(1) in known_sources():
            source, name = m.group(1), m.group(2).strip()
        if source is None:
            raise ClaimError(
                f"'{text}' names no source: start it with one of {list(allowed)} and a colon, "
                "or declare the source above it (<!-- audit source: NAME -->)"
            )
        if source not in allowed:
            raise ClaimError(f"'{text}' names the source {source!r}, which is not one of audit.sources {list(allowed)}")
        if name in quantity_names(source):
            entries.append(Entry(text, source, quantity_names(source)[name]))
        elif name in _rows(source):
            entries += [Entry(text, source, q) for q in _rows(source)[name]]
        else:
            raise ClaimError(f"{source} has no quantity '{name}'{suggestion(name, source, allowed)}")
    return entries


def _names(source: str) -> list[str]:
    return [*quantity_names(source), *_rows(source)]


def suggestion(name: str, source: str, allowed: tuple[str, ...]) -> str:
    """What a claim of ``name`` in ``source`` may have meant, from every source the page lists
    (``allowed``): the source that has the name, or the closest names of all of them, those of
    another source written with it in front. "" when nothing comes close."""
    others = [s for s in allowed if s != source]
    holders = [s for s in others if name in quantity_names(s) or name in _rows(s)]
    if holders:
        return (
            f"; {' and '.join(holders)} {'has' if len(holders) == 1 else 'have'} it: write "
            f"'{holders[0]}: {name}', or declare the source above the line (<!-- audit source: {holders[0]} -->)"
        )
    scored = []
    for s in [source, *others]:
        for near in difflib.get_close_matches(name, _names(s), n=3, cutoff=0.5):
            ratio = difflib.SequenceMatcher(None, name, near).ratio()
            scored.append((-ratio, s != source, near if s == source else f"{s}: {near}"))
    best = [text for _, _, text in sorted(scored)[:3]]
    return f"; did you mean {' or '.join(repr(n) for n in best)}?" if best else ""


def blank(line: str) -> str:
    """The line with each kept claim turned into spaces, positions unchanged."""
    return KEPT.sub(lambda m: " " * len(m.group(0)), line)
