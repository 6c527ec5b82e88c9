"""MkDocs hook: each built page without the theme's indentation and without mkdocstrings' stylesheet
where nothing uses it. The work is done in :mod:`publish.page_weight`; this file only wires it in."""

from publish.page_weight import on_post_page

__all__ = ["on_post_page"]
