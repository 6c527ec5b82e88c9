"""The one reader of what people write: the pages (their front matter, title and lines, fenced or
not: :mod:`.pages`), their includes (as pymdownx.snippets reads them: :mod:`.includes`) and
mkdocs.yml (as MkDocs' loader reads it, as published or in this environment: :mod:`.mkdocs_yml`).
The tools that check and generate, and the tests, read these through here.

A reader still apart: the list of pages, tests/support/pages.py's ``PAGES`` (every Markdown file of
docs/ but the generated includes) beside :func:`.mkdocs_yml.nav` (the navigation's pages, which the
words checks read in reading order): two lists, of two things.
"""
