"""Notebooks run in a kernel, once per content: an executed copy of each notebook, kept in
``.cache/notebooks/<key>/<name>.ipynb`` (gitignored).

No build runs a notebook: each is saved with its outputs, its snippets' recorded runs
(publish/generate/notebooks.py). The tests run every notebook from the top in a kernel, as a reader does,
and hold what each cell prints to what the file shows (tests/content/test_notebooks.py); this module
runs them and keeps what they printed, so that the same notebook in the same environment is run
once and not at every test run.

The key is the SHA-256 of everything a notebook's output depends on: the notebook's own bytes,
the files of the repository its code names (the language model's weights:
:func:`publish.generate.snippets.data_files`), and the kernel's environment (the versions of Python,
NumPy, PyTorch, the kernel and its client). Nothing else can reach the output: a notebook's code
cells are the pages' snippet files, as the pages show them (tests/content/test_notebooks.py), and a
snippet is standalone, importing numpy or torch only (and Python's own modules to read a file it
names), never selfattn_ref. A changed cell, a changed weights file, a changed NumPy: a new key, and
the notebook runs again; a run is never reused for a notebook or environment that did not
make it. The cache entry also holds its notebook's cells, checked against the notebook on every
use, so a damaged entry cannot stand in for another notebook's run.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import hashlib
import json
import platform
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import nbformat

from publish import ROOT
from publish.files import atomic_write, check_folder, unsafe

KERNEL_PACKAGES = ("numpy", "torch", "ipykernel", "jupyter_client", "nbclient", "nbformat")
CACHE_DIR = ROOT / ".cache" / "notebooks"
# How a notebook is run (nbclient's settings), part of the key. A cell's printed text in one
# output, as nbconvert's execution leaves it and as the saved notebook holds it, not in as many
# pieces as the kernel flushed; no clock readings in the cells' metadata.
RUN = {"coalesce_streams": True, "record_timing": False}
# Kernels started for one notebook before its run fails (a kernel that dies at start is started again).
KERNEL_ATTEMPTS = 3


def environment() -> dict[str, str]:
    """What the kernel runs on, beyond the notebook itself."""
    out = {"python": f"{platform.python_implementation()} {platform.python_version()}"}
    for name in KERNEL_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "missing"
    return out


def key(notebook: bytes, kernel_name: str, allow_errors: bool, env: dict[str, str] | None = None,
        files: dict[Path, bytes] | None = None) -> str:  # fmt: skip
    """The cache's key of a notebook's bytes run so; ``files``: the contents of the files its code
    names, in place of what they hold on disk."""
    from publish.generate.snippets import data_files

    digest = hashlib.sha256(notebook)
    settings = {"kernel_name": kernel_name, "allow_errors": allow_errors, "environment": env or environment(), **RUN}
    digest.update(b"\0" + json.dumps(settings, sort_keys=True).encode())
    try:
        cells = json.loads(notebook).get("cells", [])
    except (ValueError, AttributeError):
        cells = []
    code = "\n".join(
        "".join(c.get("source", "")) for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"
    )
    for path in data_files(code):
        digest.update(b"\0" + path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update((files or {}).get(path) or path.read_bytes())
    return digest.hexdigest()


def _sources(nb) -> list[tuple[str, str]]:
    return [(c.cell_type, c.source) for c in nb.cells]


def _run(coroutine) -> None:
    """``coroutine`` run to its end, from a thread that may already run an event loop (a caller under
    Playwright's synchronous API, or Jupyter's): asyncio.run refuses to start a second one in the same
    thread, so the coroutine then runs in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coroutine)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, coroutine).result()


@dataclass
class Cache:
    folder: Path
    kernel_name: str = ""
    allow_errors: bool = False
    runs: int = 0  # notebooks executed by this object (the others came from the cache)

    def path(self, notebook: Path) -> Path:
        digest = key(notebook.read_bytes(), self.kernel_name, self.allow_errors)
        return self.folder / digest / notebook.name

    def lookup(self, notebook: Path) -> Path | None:
        """The executed copy of ``notebook`` if the cache holds one for its current content: a
        regular file of the cache's folder, which is one of the repository (or of the system's
        temporary folder) reached through no symbolic link (UnsafePath otherwise)."""
        cached = self.path(notebook)
        check_folder(self.folder, "the notebooks' cache")
        if not cached.is_file() or unsafe(cached, self.folder):
            return None
        try:
            same = _sources(nbformat.read(cached, as_version=4)) == _sources(nbformat.read(notebook, as_version=4))
        except (OSError, ValueError):
            same = False
        return cached if same else None

    def ensure(self, notebooks: list[Path]) -> dict[Path, Path]:
        """{notebook: its executed copy}, running (together) those the cache lacks."""
        todo = [nb for nb in notebooks if self.lookup(nb) is None]
        if todo:
            _run(self._run_all(todo))
        out = {}
        for nb in notebooks:
            cached = self.lookup(nb)
            if cached is None:  # written a moment ago: only a concurrent writer of bad data gets here
                raise RuntimeError(f"{nb}: its executed copy in {self.folder} does not match it")
            out[nb] = cached
        return out

    async def _run_all(self, notebooks: list[Path]) -> None:
        results = await asyncio.gather(*(self._run(nb) for nb in notebooks), return_exceptions=True)
        errors = [f"{nb}: {exc}" for nb, exc in zip(notebooks, results, strict=True) if isinstance(exc, Exception)]
        if errors:
            raise RuntimeError("notebook execution failed:\n" + "\n".join(errors))

    async def _run(self, notebook: Path) -> None:
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError

        target = self.path(notebook)  # the key of the bytes read now, before the run
        failures: list[str] = []
        while True:
            nb = nbformat.read(notebook, as_version=4)
            client = NotebookClient(
                nb,
                config=kernel_config(),  # the kernels' settings of publish/harness/jupyter/: no transport warning
                kernel_name=self.kernel_name or nb.metadata.get("kernelspec", {}).get("name", "python3"),
                allow_errors=self.allow_errors,
                **RUN,
                resources={"metadata": {"path": str(notebook.parent)}},  # as nbconvert: cwd = the notebook's folder
            )
            try:
                await client.async_execute()
                break
            except CellExecutionError:
                raise  # the notebook's own code failed: running it again would fail again
            except Exception as exc:  # noqa: BLE001 - the kernel's: named in the error if it persists
                # The kernel died or never answered: most often, a kernel of its own started on a
                # local port that another process took between the kernel manager choosing it and
                # the kernel binding it ("Address already in use"). A new kernel gets new ports.
                failures.append(f"{type(exc).__name__}: {exc}")
                # nbclient registered this client's clean-up for the exit; with no kernel left to
                # clean up, it would print a traceback then.
                atexit.unregister(client._cleanup_kernel)
                if len(failures) == KERNEL_ATTEMPTS:
                    raise RuntimeError(f"its kernel failed {KERNEL_ATTEMPTS} times: " + "; ".join(failures)) from exc
        self.runs += 1
        # Written whole under a temporary name, then renamed: a reader never sees half a file
        # (nbformat.write's text: nbformat.writes and a final newline).
        text = nbformat.writes(nb)
        check_folder(self.folder, "the notebooks' cache")  # of the repository, through no link
        atomic_write(target, text if text.endswith("\n") else text + "\n", root=self.folder)


def kernel_config():
    """The Jupyter settings of publish/harness/jupyter/ (:mod:`publish.harness.jupyter_config`), for nbclient."""
    import json

    from traitlets.config import Config

    from .jupyter_config import CONFIG_DIR

    return Config(json.loads((CONFIG_DIR / "jupyter_nbconvert_config.json").read_text(encoding="utf-8")))
