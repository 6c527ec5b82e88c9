"""docs/notation.md: the retired variants of the notation, as a table (from publish/retired.toml)."""

from __future__ import annotations

from ..registry import generated
from ..wording import load_retired


@generated("notation/retired.md")
def _retired_table() -> str:
    def cell(s: str) -> str:
        return s.replace("|", "\\|").replace("$", "\\$").replace("_", "\\_").replace("*", "\\*")

    rows = ["| retired variant | written instead | may still appear on |", "|---|---|---|"]
    for r in load_retired():
        where = ", ".join(f"[{p.removeprefix('docs/')}]({p.removeprefix('docs/')})" for p in r.allowed_on)
        rows.append(f"| {cell(r.variant)} | {cell(r.use)} | {where or 'no page'} |")
    return "\n".join(rows) + "\n"
