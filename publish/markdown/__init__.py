"""The Python-Markdown extensions of the site, which every build runs: MkDocs' and Zensical's alike
(mkdocs.yml, ``markdown_extensions``; and ``api_docstrings``, the griffe extension that mkdocstrings
loads for the API page). One module an extension:

- ``katex_math``: the math rendered with the vendored KaTeX when the site is built;
- ``numbers_audit``: the numbers audit as every build runs it (:mod:`publish.audit`), the claims
  taken out of the page;
- ``gallery``: the worked examples' table on their gallery page;
- ``search_exclude``, ``number_tables``, ``code_markup``, ``path_breaks``: what the search index
  skips, which tables wait off screen, lighter highlighted code, line breaks in long names;
  ``postprocessor`` is the base of the last two. (The sources' comments are left out of the pages
  by pymdownx.striphtml, as mkdocs.yml configures it.)

Where a job is Markdown, it is an extension here rather than a MkDocs hook (:mod:`publish.mkdocs`),
so that a Zensical build does it too.
"""
