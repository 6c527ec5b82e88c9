"""Helpers the docs-layer tests share: which pages exist, and a page as the reader sees it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown

from publish import DOCS, ROOT

# The site's pages: every Markdown file under docs/ except generated includes and vendored assets.
PAGES = sorted(p for p in DOCS.rglob("*.md") if not {"generated", "assets"} & set(p.relative_to(DOCS).parts))


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@cache
def _snippet_preprocessor():
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(ROOT)], "check_paths": True}},
    )
    return md.preprocessors["snippet"]


def expand(text: str) -> str:
    """Expand ``--8<--`` includes exactly as the site build does (pymdownx.snippets)."""
    return "\n".join(_snippet_preprocessor().run(text.split("\n")))
