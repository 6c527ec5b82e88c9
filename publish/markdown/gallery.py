"""A Python-Markdown extension: the gallery's table of worked examples, made when the site is built.

The gallery page, docs/examples/index.md (``make update`` writes it), holds a marker line where the
table goes (:data:`publish.generate.example_pages.GALLERY_MARKER`); this extension puts there one row per
example, from the specs in selfattn_ref/examples/ as they are (:func:`publish.generate.example_pages.gallery_table`).
So the page is the same whichever examples there are, and a new example's pull request does not
rewrite it. An extension, not a hook, so that Zensical builds it too. Registered in mkdocs.yml under
``markdown_extensions`` as ``publish.markdown.gallery``.
"""

from __future__ import annotations

from markdown import Extension
from markdown.preprocessors import Preprocessor


class _Gallery(Preprocessor):
    def run(self, lines):
        from selfattn_ref import examples  # noqa: PLC0415 - only a page with the marker reads the specs

        from ..generate.example_pages import GALLERY_MARKER, with_gallery  # noqa: PLC0415

        if GALLERY_MARKER not in lines:
            return lines
        return with_gallery("\n".join(lines), examples.load_all()).split("\n")


class GalleryExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        # Before pymdownx.snippets (32) and raw HTML (20) see the marker, a comment line.
        md.preprocessors.register(_Gallery(md), "publish-gallery", 35)


def makeExtension(**kwargs):  # noqa: N802 (Python-Markdown's name)
    return GalleryExtension(**kwargs)
