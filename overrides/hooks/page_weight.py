"""MkDocs hook: each built page without the theme's indentation and without mkdocstrings' stylesheet
where nothing uses it (:mod:`publish.page_weight`), and the site's copy of KaTeX's stylesheet cut to
the rules its math uses (:mod:`publish.katex_css`). This file only wires them in."""

from publish.katex_css import on_post_build
from publish.page_weight import on_post_page

__all__ = ["on_post_build", "on_post_page"]
