"""The exercises at the end of the pages (publish/exercises.py): one generated block a page."""

from __future__ import annotations

from ..exercises import SPEC_DIR, block
from ..registry import generated, name_of


def _register(page: str) -> None:
    generated(f"exercises/{page}.md", name=name_of(block))(lambda: block(page))


for _spec in sorted(SPEC_DIR.glob("*.toml")):
    _register(_spec.stem)
