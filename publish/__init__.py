"""The publishing tools: what turns the reference (selfattn_ref) into the site, grouped by who runs
them and when.

- :mod:`publish.markdown`: the Python-Markdown extensions (and mkdocstrings' griffe extension) that
  every build runs, MkDocs' and Zensical's alike: math, the numbers audit as the build runs it, the
  gallery, lighter markup;
- :mod:`publish.mkdocs`: what only MkDocs runs, its hooks (the Zensical gap, in one folder): the
  worked examples in the nav, the notebook pages, and what lightens the built site
  (``page_weight/``); ``publish/mkdocs/hooks/`` holds the files mkdocs.yml names, which wire them in;
- :mod:`publish.generate`: everything ``make update`` (and ``make example``) writes: the registry
  of generated files, the worked examples' pages, tables, figures, notebooks, exercises, the
  playground's files, the snippets' recorded outputs, and one module a topic page (``topics/``);
- :mod:`publish.audit`: what checks the pages: the numbers audit, and the rules of their words,
  terms and symbols;
- :mod:`publish.source`: the one reader of what people write: a page's front matter, title and
  lines (fenced or not), its includes as pymdownx.snippets reads them, mkdocs.yml as the build
  reads it;
- :mod:`publish.harness`: what the tests and ``make bench`` share and no build runs: the browser,
  a static server, copies of the repository, the notebooks' kernels;
- beside them, used by all: ``files.py`` (what a tool may read, write or remove), ``escape.py``
  (spec text escaped for where it lands), ``fmt.py`` (numbers as the pages print them); and the
  contributors' commands: ``python -m publish update | new-example`` (``cli.py``: ``make update``,
  ``make example``) and ``zensical_report.py`` (``make zensical``).

``python -m publish update`` rewrites what is recorded; the tests only compare.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
GENERATED = DOCS / "generated"
