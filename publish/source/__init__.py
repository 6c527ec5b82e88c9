"""The one reader of what people write: the pages (their front matter and title) and mkdocs.yml (as
the build reads it with no environment set: ``!ENV [NAME, default]`` is the default). The tools that
check and generate read these through here: :mod:`.pages`, :mod:`.mkdocs_yml`.

Readers that are still copies elsewhere (issue 52, item 2, makes them this one):

- of a page's lines: :func:`publish.audit.page.read_page` (the audit's lines, claims kept),
  :func:`publish.audit.wording.prose` (the words checks' lines, with their math), the notebooks'
  reading of a page (:mod:`publish.generate.notebooks`), and the fences, includes and math each
  of them finds with its own expressions;
- of the list of pages: tests/support/pages.py (``PAGES``, and a page with its ``--8<--``
  includes expanded as pymdownx.snippets expands them) and :func:`publish.audit.wording`'s titles;
- of mkdocs.yml: tests/content/test_notebooks.py (``MKDOCS``), tests/tools/test_hostile_specs.py
  (which reads each ``!ENV`` as None) and bench/common.py (``_env_loader``).
"""
