"""MkDocs hook: the notebook pages that mkdocs-jupyter renders, made to load nothing from
elsewhere and to look like the other pages (:mod:`publish.notebook_hooks`), and executed only
when their content or the kernel's environment changed (:mod:`publish.notebook_cache`). This
file only wires them in; being a hook, it runs after the plugins (after mkdocs-jupyter)."""

from publish import notebook_hooks
from publish.notebook_cache import NotebookHook

_cache = NotebookHook()
on_config = _cache.on_config
on_files = _cache.on_files


def on_page_content(html, page, config, files):
    html = _cache.on_page_content(html, page, config, files)  # first: the page's file is its source again
    return notebook_hooks.on_page_content(html, page, config, files)


__all__ = ["on_config", "on_files", "on_page_content"]
