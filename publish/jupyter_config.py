"""The Jupyter settings of the kernels that run the notebooks in the tests
(:mod:`publish.notebook_cache`, through nbclient), from publish/jupyter/.

- ``KernelManager.transport_encryption = "auto"``: each notebook's kernel talks to the build over
  local TCP, in plain text unless the kernel manager gives it CurveZMQ keys, and ipykernel (7.4)
  prints a warning saying so for every notebook. The python3 kernelspec declares "curve"
  support and pyzmq's wheels have it, so with "auto" the link is encrypted and the warning
  has no cause.

mkdocs-jupyter reads the reader's own nbconvert configuration (``NbConvertApp.load_config_file``)
from the folders in ``JUPYTER_CONFIG_PATH`` among others; :func:`use` puts publish/jupyter/ first
on that path, for this process (and the kernels it starts).
"""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent / "jupyter"


def use() -> None:
    paths = [p for p in os.environ.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p]
    if str(CONFIG_DIR) not in paths:
        os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(CONFIG_DIR), *paths])
