"""What checks the pages. The tests run every check; every build runs the numbers audit too (the
Markdown extension :mod:`publish.markdown.numbers_audit`).

The numbers audit: every number a page types is the quantity its claim names. Split by job:

- :mod:`.page` reads a page: its front matter (``audit: sources``, ``constants``), the lines of
  prose it checks, and which source each line's claims name;
- :mod:`.claims` is the claim syntax (``66.5%{{weights[bank, bank]}}``) and what a claim names;
- :mod:`.numbers` finds the numbers a line states and compares one with a quantity;
- :mod:`.arithmetic` evaluates worked arithmetic with the rounding of the numbers shown;
- :mod:`.check` runs the checks on each line and reports each problem with the page, the
  line, the number, the quantity claimed and what the code gives;
- :mod:`.quantities` is what a page may quote: every quantity the code computes for a source (a
  worked example, or a topic's module in ``publish/generate/topics/``).

The pages' words, beside the numbers: :mod:`.wording` (one notation, with the retired variants in
``retired.toml``, and links that say where they go), :mod:`.terms` (no term before its definition)
and :mod:`.symbols` (every symbol of the math on the Notation page, once).
"""

from .check import Binding, Problem, audit_page, audit_text, bindings, check_line
from .claims import CLAIM, ClaimError
from .page import AuditConfigError, Line, Page, read_page

__all__ = [
    "CLAIM",
    "AuditConfigError",
    "Binding",
    "ClaimError",
    "Line",
    "Page",
    "Problem",
    "audit_page",
    "audit_text",
    "bindings",
    "check_line",
    "read_page",
]
