"""Helpers the docs-layer tests share: which pages exist, and a page as the reader sees it."""

from __future__ import annotations

from pathlib import Path

from publish import DOCS, ROOT
from publish.source import includes

# The site's pages: every Markdown file under docs/ except generated includes and vendored assets.
PAGES = sorted(p for p in DOCS.rglob("*.md") if not {"generated", "assets"} & set(p.relative_to(DOCS).parts))


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def expand(text: str) -> str:
    """Expand ``--8<--`` includes exactly as the site build does (pymdownx.snippets, as mkdocs.yml
    configures it: publish.source.includes)."""
    return "\n".join(includes.snippets().run(text.split("\n")))
