"""MkDocs hook: a strict build (``mkdocs build --strict``, or ``strict: true``) stops on a number the
audit finds wrong, whatever the log level (``-q`` drops the warnings MkDocs' strict mode counts). The
audit itself is the Markdown extension :mod:`publish.claims`; this file only wires in its hook."""

from publish.claims import on_config, on_env

__all__ = ["on_config", "on_env"]
