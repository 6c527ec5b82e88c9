"""Wrong numbers on purpose: the edits the numbers audit must catch.

- :func:`single_digit_changes`: any one digit of any audited number changed;
- :func:`swaps`: a bound number replaced by every other value the page's sources give at
  the same precision (a cell of another row, a value of another example on the page).

Each yields (line number, number as written, number after the change, the problems the audit
finds on that line); the tests require a problem on that line naming the new number. The
changes run against the audit's line check in-process, no page is written or built.

They change the page as the code would have it (:func:`put_right`): a page with a wrong number
is reported once, by the direct audit test (test_page_numbers_are_the_codes), and the mutation
tests fail only when the audit itself stops catching changes. A correct page is its own put-right
copy, with no line left out: in CI, where every page must pass the direct test, the mutations
cover every audited number.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from publish import fmt
from publish.audit import AuditConfigError, Page, bindings, check_line, read_page
from publish.audit.arithmetic import chain_spans
from publish.audit.claims import blank
from publish.audit.numbers import Token, as_shown, number_tokens, shown, states
from publish.audit.page import PageSpec
from publish.audit.quantities import quantities


def auditable_tokens(page: Page):
    """(line, token) for every number the audit holds to account: decimals, percentages, numbers
    grouped in thousands, numbers a claim binds, integers inside worked arithmetic; constants left out."""
    constants = {c.text.replace(" ", "") for c in page.spec.constants}
    for line in page.lines:
        visible = blank(line.text)
        spans = chain_spans(visible)
        bound = {b.token.start for b in bindings(page, line)[0]}
        for tok in number_tokens(visible):
            if tok.text.replace(" ", "") in constants and tok.start not in bound:
                continue
            if tok.quoted or tok.start in bound or any(a <= tok.start < b for a, b in spans):
                yield line, tok


def _written_as(value: str, tok: Token) -> str:
    """``value`` ("59.9%") written as ``tok`` is, with the space it has before its percent sign."""
    return value.replace("%", tok.text[len(tok.text.rstrip("% ")) :]) if tok.percent else value


def _changed(line, tok: Token, new: str) -> str:
    return line.text[: tok.start] + new + line.text[tok.end :]


def put_right(text: str, name: str) -> Page:
    """The page as the code would have it: every number a claim binds that is not its quantity
    replaced by the quantity as that number shows it ("69.9%" by "59.9%"), and the lines where a
    problem remains (a bare decimal, a claim that cannot bind, arithmetic that does not add up)
    left out. Those problems are the direct audit test's to report; a page with none is
    returned as it was read. A page whose front matter the audit cannot read has no lines here
    (the direct test reports why)."""
    try:
        page = read_page(text, name)
    except AuditConfigError:
        return Page(name, PageSpec((), ()), ())
    lines = []
    for line in page.lines:
        fixed = line.text
        # right to left, so that the positions of the numbers before stay where they were
        for b in sorted(bindings(page, line)[0], key=lambda b: -b.token.start):
            tok, q = b.token, b.entry.quantity
            if q is None or states(tok, q):
                continue
            fixed = fixed[: tok.start] + _written_as(as_shown(q, tok), tok) + fixed[tok.end :]
        line = replace(line, text=fixed)
        if not check_line(page, line):
            lines.append(line)
    return replace(page, lines=tuple(lines))


def single_digit_changes(text: str, name: str):
    page = put_right(text, name)
    for line, tok in auditable_tokens(page):
        for k, ch in enumerate(tok.text):
            if not ch.isdigit():
                continue
            for digit in "0123456789":
                if digit != ch:
                    new = tok.text[:k] + digit + tok.text[k + 1 :]
                    yield line.number, tok.text, new, check_line(page, line, _changed(line, tok, new))


@cache
def _values(sources: tuple[str, ...], decimals: int, percent: bool, grouped: bool) -> tuple[str, ...]:
    """Every value the sources give, as a number with ``decimals`` places (and a percent sign,
    and its thousands grouped with commas) would show it. An integer shows only quantities that are integers."""
    write = fmt.grouped if grouped else fmt.num
    out = set()
    for s in sources:
        for q in quantities(s):
            if percent:
                if q.proportion:
                    out.add(write(q.value * 100, decimals) + "%")
            elif decimals or abs(q.value - round(q.value)) < 1e-9:
                out.add(write(q.value, decimals))
    return tuple(sorted(out))


def swaps(text: str, name: str):
    """Every bound number replaced by every other value of the page's sources at its precision."""
    page = put_right(text, name)
    for line in page.lines:
        for b in bindings(page, line)[0]:
            if b.entry.quantity is None:
                continue  # "_": an integer taken as written, checked by the arithmetic only
            tok = b.token
            was = shown(tok) + ("%" if tok.percent else "")
            for value in _values(page.spec.sources, tok.decimals, tok.percent, tok.grouped):
                if value != was:
                    new = _written_as(value, tok)
                    yield line.number, tok.text, new, check_line(page, line, _changed(line, tok, new))
