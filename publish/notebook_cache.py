"""Notebooks executed once per content: an executed copy of each notebook, kept in
``.cache/notebooks/<key>/notebooks/<name>.ipynb`` (gitignored), that mkdocs-jupyter renders instead of running
the notebook again on every build.

The key is the SHA-256 of everything a notebook's output depends on: the notebook's own bytes
and the kernel's environment (the versions of Python, NumPy, PyTorch, the kernel and its client).
Nothing else can reach the output: a notebook's code cells are the pages' snippet files, as the
pages show them (tests/docs/test_notebooks.py), and a snippet is standalone, importing numpy or torch
only, never selfattn_ref nor a file of the repository. A changed cell, a changed NumPy: a new key,
and the notebook runs again; an output is never served for a notebook or environment that did not
make it. The cache entry also holds its notebook's cells, checked against the notebook on every
use, so a damaged entry cannot show another notebook's output.

The notebooks to run (mkdocs-jupyter's ``include`` minus ``execute_ignore``, when ``execute`` is
true) run together, one kernel each, in a thread started as MkDocs lists the files, while MkDocs
renders the Markdown pages; a notebook page waits for them. A cold build waits for the slowest
notebook, not for their sum, and does the rest of its work meanwhile. This module takes over
``execute`` from mkdocs-jupyter (which then only renders): without the hook, mkdocs-jupyter would
execute every notebook itself, as before.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import os
import pathlib
import platform
import shutil
import threading
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import nbformat

from publish.files import atomic_write

KERNEL_PACKAGES = ("numpy", "torch", "ipykernel", "jupyter_client", "nbclient", "nbformat")
CACHE_DIR = Path(".cache") / "notebooks"  # under the folder of mkdocs.yml
# Another folder for one build (bench/run.py's cold builds use an empty one, not deleting this).
CACHE_DIR_ENV = "NOTEBOOK_CACHE_DIR"
# How a notebook is run (nbclient's settings), part of the key. A cell's printed text in one
# output, as nbconvert's execution leaves it, not in as many pieces as the kernel flushed; no clock
# readings in the cells' metadata: the executed copy is what a reader downloads.
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


def key(notebook: bytes, kernel_name: str, allow_errors: bool, env: dict[str, str] | None = None) -> str:
    digest = hashlib.sha256(notebook)
    settings = {"kernel_name": kernel_name, "allow_errors": allow_errors, "environment": env or environment(), **RUN}
    digest.update(b"\0" + json.dumps(settings, sort_keys=True).encode())
    return digest.hexdigest()


def _sources(nb) -> list[tuple[str, str]]:
    return [(c.cell_type, c.source) for c in nb.cells]


@dataclass
class Cache:
    folder: Path
    kernel_name: str = ""
    allow_errors: bool = False
    runs: int = 0  # notebooks executed by this object (the others came from the cache)
    # {notebook: the name its copy takes under the key's folder}, by default the notebook's file name.
    # The hook gives the page's path in docs/ (notebooks/masking.ipynb): mkdocs-jupyter matches its
    # include and execute_ignore patterns against the path of the file it renders, the copy's.
    names: dict[Path, str] = field(default_factory=dict)

    def path(self, notebook: Path) -> Path:
        digest = key(notebook.read_bytes(), self.kernel_name, self.allow_errors)
        return self.folder / digest / self.names.get(notebook, notebook.name)

    def lookup(self, notebook: Path) -> Path | None:
        """The executed copy of ``notebook`` if the cache holds one for its current content."""
        cached = self.path(notebook)
        if not cached.is_file():
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
            asyncio.run(self._run_all(todo))
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
                config=kernel_config(),  # the kernels' settings of publish/jupyter/: no transport warning
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
        atomic_write(target, text if text.endswith("\n") else text + "\n", root=self.folder)


def kernel_config():
    """The Jupyter settings of publish/jupyter/ (:mod:`publish.jupyter_config`), for nbclient."""
    import json

    from traitlets.config import Config

    from .jupyter_config import CONFIG_DIR

    return Config(json.loads((CONFIG_DIR / "jupyter_nbconvert_config.json").read_text(encoding="utf-8")))


# --- MkDocs hook ---------------------------------------------------------------------------------


class NotebookHook:
    """on_config: take ``execute`` over from mkdocs-jupyter, and turn its cache of rendered pages on
    (see below); on_files: run what the cache lacks, and point each executed notebook's file at its
    executed copy, for mkdocs-jupyter's on_pre_page to key its cache on; on_pre_page: point it back
    at the source, but for mkdocs-jupyter's render, which reads the executed copy; on_post_page:
    put the executed copy where mkdocs-jupyter (include_source) copied the source for download, so
    that a reader downloads the notebook with the outputs the page shows.

    mkdocs-jupyter keys its cache of rendered HTML on the bytes of the file it renders and its
    settings. With execution left to it, that key misses the kernel's environment, so this hook
    turns the cache on only while it hands mkdocs-jupyter the executed copy: those bytes hold the
    outputs, and a rendered page is reused only for the very outputs it shows. (A notebook that is
    not executed, execute_ignore, is rendered from its own bytes, outputs included.) The rendered
    pages sit beside the executed copies, in a folder named after the versions of mkdocs-jupyter
    and nbconvert, which render them."""

    def __init__(self) -> None:
        self.execute = False
        self.plugin = None
        self.cache: Cache | None = None
        self.sources: dict[int, str] = {}  # id(file) -> its source path, while it points at the copy
        self.executed: dict[int, str] = {}  # id(file) -> its executed copy, from on_pre_page to on_post_page
        self._running: _Run | None = None

    def on_config(self, config):
        plugin = config.plugins.get("mkdocs-jupyter")
        if plugin is None:
            return config
        # First of all on_pre_page handlers, before mkdocs-jupyter's: a hook's events run after the
        # plugins' (this class's on_pre_page, after mkdocs-jupyter's, is one of them).
        pre_page = config.plugins.events["pre_page"]
        if self._await_notebooks not in pre_page:
            pre_page.insert(0, self._await_notebooks)
        self.plugin = plugin
        self.execute = bool(plugin.config["execute"])
        root = Path(config.config_file_path).resolve().parent
        folder = Path(os.environ[CACHE_DIR_ENV]) if os.environ.get(CACHE_DIR_ENV) else root / CACHE_DIR
        self.cache = Cache(folder, plugin.config["kernel_name"], bool(plugin.config["allow_errors"]))
        if self.execute:
            plugin.config["execute"] = False  # it renders; this hook executes
            plugin.config["cache"] = True
            renderer = "-".join(f"{n}-{environment_version(n)}" for n in ("mkdocs-jupyter", "nbconvert"))
            plugin.config["cache_dir"] = str(folder / f"html-{renderer}")
        return config

    def _to_execute(self, file) -> bool:
        if not self.plugin.should_include(file):
            return False
        return not any(pathlib.PurePath(file.abs_src_path).match(p) for p in self.plugin.config["execute_ignore"])

    def on_files(self, files, config):
        """Start running what the cache lacks, in a thread (the kernels are processes of their own),
        and point each executed notebook's file at its executed copy: its path follows from the
        notebook's bytes, and the copy is there before a notebook page is read (_await_notebooks).
        Meanwhile MkDocs renders the Markdown pages, which come first in the files' order, and
        more so in a cold build, where running the notebooks takes half the time."""
        self.sources = {}
        self.executed = {}
        self._running = None
        if self.execute and self.cache is not None:
            todo = [f for f in files if self._to_execute(f)]
            self.cache.names = {Path(f.abs_src_path): f.src_uri for f in todo}
            notebooks = [Path(f.abs_src_path) for f in todo]
            copies = {nb: self.cache.path(nb) for nb in notebooks}  # the keys of the bytes read now
            self._running = _Run(self.cache, notebooks, copies)
            for f in todo:
                self.sources[id(f)] = f.abs_src_path
                f.abs_src_path = str(copies[Path(f.abs_src_path)])  # what mkdocs-jupyter keys and renders
        return files

    def _await_notebooks(self, page, config, files):
        """Before mkdocs-jupyter's on_pre_page (which reads the executed copy to key its cache of
        rendered pages): the notebooks have run, or the build stops with their errors."""
        if self._running is not None and id(page.file) in self.sources:
            self._running.wait()
        return page

    def on_pre_page(self, page, config, files):
        """After mkdocs-jupyter's on_pre_page (which keyed its cache on the executed copy): the page
        reads its source as any page does, and only mkdocs-jupyter's render reads the executed copy."""
        source = self.sources.pop(id(page.file), None)
        if source is None:
            return page
        executed, page.file.abs_src_path = page.file.abs_src_path, source
        self.executed[id(page.file)] = executed
        render = page.render

        def render_executed(config, files):
            page.file.abs_src_path = executed
            try:
                render(config, files)
            finally:
                page.file.abs_src_path = source  # the page's source, as for any page (on_post_page ships the copy)

        page.render = render_executed
        return page

    def on_post_page(self, output, page, config):
        """After mkdocs-jupyter's on_post_page, which copied the notebook's source beside the page's
        HTML for its download link (include_source): the executed copy there instead, outputs and
        all, the very file the page was rendered from."""
        executed = self.executed.pop(id(page.file), None)
        if executed is not None and self.plugin is not None and self.plugin.config["include_source"]:
            target = Path(page.file.abs_dest_path).parent / Path(page.file.abs_src_path).name
            shutil.copyfile(executed, target)  # as mkdocs-jupyter copied the source: the site's file modes
        return output


class _Run:
    """Cache.ensure(notebooks) in a thread of its own, started at once; wait() returns when it is
    done, or raises MkDocs' PluginError naming what failed."""

    def __init__(self, cache: Cache, notebooks: list[Path], copies: dict[Path, Path]) -> None:
        self.copies = copies
        self.error: BaseException | None = None
        self.done: dict[Path, Path] = {}
        self.thread = threading.Thread(target=self._run, args=(cache, notebooks), name="notebooks")
        self.thread.start()

    def _run(self, cache: Cache, notebooks: list[Path]) -> None:
        try:
            self.done = cache.ensure(notebooks)
        except BaseException as exc:  # raised in the build's thread by wait()
            self.error = exc

    def wait(self) -> None:
        self.thread.join()
        from mkdocs.exceptions import PluginError

        if isinstance(self.error, RuntimeError):
            raise PluginError(str(self.error)) from None
        if self.error is not None:
            raise self.error
        moved = [str(nb) for nb, copy in self.copies.items() if self.done.get(nb) != copy]
        if moved:  # a notebook changed while it ran: its copy is under another key
            raise PluginError(f"notebooks changed while the build ran them: {moved}")


def environment_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "missing"
