"""Wrong numbers on purpose: the edits the numbers audit must catch.

- :func:`single_digit_changes`: any one digit of any audited number changed;
- :func:`swaps`: a bound number replaced by every other value the page's sources give at
  the same precision (a cell of another row, a value of another example on the page).

Each yields (line number, number as written, number after the change, the problems the audit
finds on that line); the tests require a problem on that line naming the new number. The
changes run against the audit's line check in-process, no page is written or built.
"""

from __future__ import annotations

from functools import cache

from publish.audit import Page, bindings, check_line, read_page
from publish.audit.arithmetic import chain_spans
from publish.audit.claims import blank
from publish.audit.numbers import Token, number_tokens, shown
from publish.fmt import num
from publish.quantities import quantities


def auditable_tokens(page: Page):
    """(line, token) for every number the audit holds to account: decimals, percentages, numbers
    a claim binds, integers inside worked arithmetic; constants left out."""
    constants = {c.text.replace(" ", "") for c in page.spec.constants}
    for line in page.lines:
        visible = blank(line.text)
        spans = chain_spans(visible)
        bound = {b.token.start for b in bindings(page, line)[0]}
        for tok in number_tokens(visible):
            if tok.text.replace(" ", "") in constants and tok.start not in bound:
                continue
            if tok.decimals or tok.percent or tok.start in bound or any(a <= tok.start < b for a, b in spans):
                yield line, tok


def _changed(line, tok: Token, new: str) -> str:
    return line.text[: tok.start] + new + line.text[tok.end :]


def single_digit_changes(text: str, name: str):
    page = read_page(text, name)
    for line, tok in auditable_tokens(page):
        for k, ch in enumerate(tok.text):
            if not ch.isdigit():
                continue
            for digit in "0123456789":
                if digit != ch:
                    new = tok.text[:k] + digit + tok.text[k + 1 :]
                    yield line.number, tok.text, new, check_line(page, line, _changed(line, tok, new))


@cache
def _values(sources: tuple[str, ...], decimals: int, percent: bool) -> tuple[str, ...]:
    """Every value the sources give, as a number with ``decimals`` places (and a percent sign)
    would show it. An integer shows only quantities that are integers."""
    out = set()
    for s in sources:
        for q in quantities(s):
            if percent:
                if q.proportion:
                    out.add(num(q.value * 100, decimals) + "%")
            elif decimals or abs(q.value - round(q.value)) < 1e-9:
                out.add(num(q.value, decimals))
    return tuple(sorted(out))


def swaps(text: str, name: str):
    """Every bound number replaced by every other value of the page's sources at its precision."""
    page = read_page(text, name)
    for line in page.lines:
        for b in bindings(page, line)[0]:
            if b.entry.quantity is None:
                continue  # "_": an integer taken as written, checked by the arithmetic only
            tok = b.token
            was = shown(tok) + ("%" if tok.percent else "")
            for value in _values(page.spec.sources, tok.decimals, tok.percent):
                if value != was:
                    new = value.replace("%", tok.text[len(tok.text.rstrip("% ")) :]) if tok.percent else value
                    yield line.number, tok.text, new, check_line(page, line, _changed(line, tok, new))
