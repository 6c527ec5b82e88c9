"""MkDocs hook: the notebook pages that mkdocs-jupyter renders, made to load nothing from
elsewhere and to look like the other pages (their math rendered at build time). The work is done
in :mod:`publish.notebook_hooks`; this file only wires it in."""

from publish.notebook_hooks import on_config, on_page_content

__all__ = ["on_config", "on_page_content"]
