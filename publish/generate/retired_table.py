"""CONTRIBUTING.md, "Words and notation": the retired variants of the site's words and notation, as a
table (from publish/audit/retired.toml), in docs/generated/contributing/retired.md, which it links. Not a
page of the site: the paths are written out, as a contributor reads them."""

from __future__ import annotations

from ..audit.wording import load_retired
from .registry import generated


@generated("contributing/retired.md")
def _retired_table() -> str:
    def cell(s: str) -> str:
        return s.replace("|", "\\|").replace("$", "\\$").replace("_", "\\_").replace("*", "\\*")

    rows = ["| retired variant | written instead | read in | may still appear in |", "|---|---|---|---|"]
    read = {"math": "the pages' math", "text": "the pages' text", "code": "the code the pages show"}
    for r in load_retired():
        where = ", ".join(f"`{p}`" for p in r.allowed_on)
        also = " and every other text a reader meets" if r.everywhere else ""
        rows.append(f"| {cell(r.variant)} | {cell(r.use)} | {read[r.where]}{also} | {where or 'nothing'} |")
    return "\n".join(rows) + "\n"
