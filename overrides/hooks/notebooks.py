"""MkDocs hook: the notebook pages that mkdocs-jupyter renders, made to load nothing from
elsewhere and to look like the other pages, their math rendered at build time
(:mod:`publish.notebook_hooks`), and executed only
when their content or the kernel's environment changed (:mod:`publish.notebook_cache`). This
file only wires them in; being a hook, it runs after the plugins (after mkdocs-jupyter)."""

from publish.notebook_cache import NotebookHook
from publish.notebook_hooks import on_config as _quiet_kernels
from publish.notebook_hooks import on_page_content

_cache = NotebookHook()


def on_config(config):
    _quiet_kernels(config)  # the kernels' settings (publish/jupyter/), for mkdocs-jupyter if it executes
    return _cache.on_config(config)


on_files = _cache.on_files
on_pre_page = _cache.on_pre_page
on_post_page = _cache.on_post_page  # the download is the executed notebook, with its outputs

__all__ = ["on_config", "on_files", "on_page_content", "on_post_page", "on_pre_page"]
