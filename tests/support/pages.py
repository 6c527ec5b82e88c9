"""Helpers the docs-layer tests share: which pages exist, a page as the reader sees it, and where a
built page comes from (its source, its edit link)."""

from __future__ import annotations

import re
from pathlib import Path

from publish import DOCS, ROOT
from publish.source import includes, mkdocs_yml

# The site's pages: every Markdown file under docs/ except generated includes and vendored assets.
PAGES = sorted(p for p in DOCS.rglob("*.md") if not {"generated", "assets"} & set(p.relative_to(DOCS).parts))


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def expand(text: str) -> str:
    """Expand ``--8<--`` includes exactly as the site build does (pymdownx.snippets, as mkdocs.yml
    configures it: publish.source.includes)."""
    return "\n".join(includes.snippets().run(text.split("\n")))


# mkdocs.yml's edit_uri: the address under which Material's edit button opens a page's source.
EDIT_URI = mkdocs_yml.config()["edit_uri"]


def built_page(source: str) -> str:
    """The built page of a Markdown page under docs/ (x.md -> x/index.html, a folder's index.md or
    README.md -> its index.html), as MkDocs names it (its File, use_directory_urls); a notebook's
    (x.ipynb) as a Markdown page's, as mkdocs-jupyter makes it a page."""
    from mkdocs.structure.files import File

    page = Path(source).with_suffix(".md").as_posix() if source.endswith(".ipynb") else source
    return File(page, str(DOCS), "", use_directory_urls=True).dest_uri


def edit_link(html: Path) -> str | None:
    """The address of a built page's edit button, if it has one."""
    match = re.search(
        r'<a href="([^"]+)" title="[^"]*" class="md-content__button md-icon"[^>]*rel="edit"',
        html.read_text(encoding="utf-8"),
    )
    return match.group(1) if match else None
