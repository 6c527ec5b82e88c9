"""What the tests and ``make bench`` share and no build runs: the browser they drive (``chromium``)
and the kernels that run the notebooks (``notebook_cache``, with ``jupyter_config`` and its
``jupyter/`` settings). No module of :mod:`publish.markdown`, :mod:`publish.mkdocs` or
:mod:`publish.generate` imports this package.
"""
