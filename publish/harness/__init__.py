"""What the tests and ``make bench`` share and no build runs: the browser they drive (``chromium``),
a static server of a built site (``server``), copies of the repository to run the project's commands
in (``repo_copy``), and the kernels that run the notebooks (``notebook_cache``, with
``jupyter_config`` and its ``jupyter/`` settings). No module of :mod:`publish.markdown`,
:mod:`publish.mkdocs`, :mod:`publish.generate`, :mod:`publish.audit` or :mod:`publish.source`
imports this package: test-only code lives here, not among the tools.
"""
