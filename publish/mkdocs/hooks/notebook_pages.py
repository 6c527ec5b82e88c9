"""MkDocs hook: the notebook pages that mkdocs-jupyter renders, made to load nothing from
elsewhere and to look like the other pages, their math rendered at build time
(:mod:`publish.mkdocs.notebook_pages`), from the HTML mkdocs-jupyter made (MkDocs' on_page_content);
under `mkdocs serve`, mkdocs-jupyter's own cache on. No notebook runs in a build: each is saved with
its outputs (publish/generate/notebooks.py). This file only wires it in; being a hook, it runs after
the plugins (after mkdocs-jupyter)."""

from publish.mkdocs.notebook_pages import on_config, on_page_content, on_shutdown, on_startup

__all__ = ["on_config", "on_page_content", "on_shutdown", "on_startup"]
