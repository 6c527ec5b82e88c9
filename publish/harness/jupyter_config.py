"""The Jupyter settings of the kernels that run the notebooks in the tests
(:mod:`publish.harness.notebook_cache`, through nbclient), from publish/harness/jupyter/.

- ``KernelManager.transport_encryption = "auto"``: each notebook's kernel talks to its client over
  local TCP, in plain text unless the kernel manager gives it CurveZMQ keys, and ipykernel (7.4)
  prints a warning saying so for every notebook. The python3 kernelspec declares "curve"
  support and pyzmq's wheels have it, so with "auto" the link is encrypted and the warning
  has no cause.

:func:`publish.harness.notebook_cache.kernel_config` reads the file of settings there and hands it to nbclient.
"""

from __future__ import annotations

from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent / "jupyter"
