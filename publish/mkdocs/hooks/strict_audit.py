"""MkDocs hook: the numbers audit told of each page MkDocs converts, and a strict build (``mkdocs
build --strict``, or ``strict: true``) stops on a number the audit finds wrong, whatever the log
level (``-q`` drops the warnings MkDocs' strict mode counts). The audit itself is the Markdown
extension :mod:`publish.markdown.numbers_audit`; the hook's work is done in
:mod:`publish.mkdocs.strict_audit`; this file only wires it in."""

from publish.mkdocs.strict_audit import on_config, on_env, on_page_markdown

__all__ = ["on_config", "on_env", "on_page_markdown"]
