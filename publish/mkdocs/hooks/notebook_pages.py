"""MkDocs hook: the notebook pages that mkdocs-jupyter renders, made to load nothing from
elsewhere and to look like the other pages, their math rendered at build time
(:mod:`publish.mkdocs.notebook_pages`), in a second process while MkDocs renders the other pages
(:mod:`publish.mkdocs.notebook_render`). No notebook runs in a build: each is saved with its
outputs (publish/generate/notebooks.py). This file only wires them in; being a hook, it runs after
the plugins (after mkdocs-jupyter)."""

from publish.mkdocs.notebook_render import (
    on_build_error,
    on_config,
    on_env,
    on_nav,
    on_page_content,
    on_post_build,
    on_pre_page,
)

__all__ = ["on_build_error", "on_config", "on_env", "on_nav", "on_page_content", "on_post_build", "on_pre_page"]
