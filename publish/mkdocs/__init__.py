"""What only MkDocs runs: its hooks, which Zensical does not run (the gap ``make zensical`` lists is
this folder). mkdocs.yml names the files of ``publish/mkdocs/hooks/``, a few lines each that wire in
these modules (MkDocs loads a hook from its file, outside any package):

- ``strict_audit``: a strict build stops on the numbers audit's problems, whatever the log level
  (hook ``hooks/strict_audit.py``, the first);
- ``worked_examples``: the output folder and the sources checked before anything is read, the specs
  checked, a stale generated file refused, the worked examples listed in the nav, their edit
  buttons pointed at their specs (hook ``hooks/worked_examples.py``);
- ``notebook_pages``: how a notebook page is made from the HTML mkdocs-jupyter renders (hook
  ``hooks/notebook_pages.py``);
- ``page_weight/``: what lightens a page after the build: the templates' indentation and unused
  stylesheets out of each page, Material's and KaTeX's stylesheets and KaTeX's fonts cut to what the
  site uses, the site's own scripts and stylesheets minified (hook ``hooks/page_weight.py``).
"""
