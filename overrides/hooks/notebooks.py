"""MkDocs hook: the notebook pages that mkdocs-jupyter renders, made to load nothing from
elsewhere and to look like the other pages (:mod:`publish.notebook_hooks`), and executed only
when their content or the kernel's environment changed (:mod:`publish.notebook_cache`). This
file only wires them in; being a hook, it runs after the plugins (after mkdocs-jupyter)."""

from publish.notebook_cache import NotebookHook
from publish.notebook_hooks import on_page_content

_cache = NotebookHook()
on_config = _cache.on_config
on_files = _cache.on_files
on_pre_page = _cache.on_pre_page

__all__ = ["on_config", "on_files", "on_page_content", "on_pre_page"]
