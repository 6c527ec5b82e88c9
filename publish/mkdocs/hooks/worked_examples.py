"""MkDocs hook: the worked examples, from their spec files to the site (checks the specs, stops
the build on a stale generated file, lists the examples in the nav, points their edit buttons at
the specs; checks the output folder, and marks it as a build's while the build is under way; names
a page's include of a file that is not in the repository).
The work is done in :mod:`publish.mkdocs.worked_examples`; this file only wires it in."""

from publish.mkdocs.worked_examples import on_config, on_page_context, on_page_markdown, on_post_build

__all__ = ["on_config", "on_page_context", "on_page_markdown", "on_post_build"]
