"""The notebook pages rendered in a second process while MkDocs renders the other pages.

A cold build renders about twenty notebooks (mkdocs-jupyter's nbconvert, then
:func:`publish.notebook_hooks.clean`): about ten seconds of one core on the 2-core machine the
site is built on, while the other core has nothing to do. So as soon as the build has its
configuration (``on_config``), the notebook hook starts ``python -m publish.notebook_render`` and
gives it the notebooks that mkdocs-jupyter will render (docs/ holds them, saved with their
outputs), in the order MkDocs reaches them; once MkDocs knows its pages (``on_nav``), it sends
where each page is, which cleaning needs (a notebook's links to the site's published addresses
become links to this build's pages). The process renders each notebook with mkdocs-jupyter's own
functions and the hook's exporter, and writes it as one line of JSON: the page's cleaned HTML
(with a mark where the download link goes: its text names the page the notebook comes from,
known only once that page is read), its table of contents and its title.

MkDocs then takes each notebook page's HTML from there instead of rendering it; a page whose line
has not arrived yet is filled in at ``on_env``, once every other page is rendered. A page is
rendered in the build's own process, as mkdocs-jupyter renders it, if the process could not start,
stopped, or wrote an error for that notebook: its error, if it has one, is then raised there,
with MkDocs' usual message. A test holds the two ways to the same pages."""

from __future__ import annotations

import functools
import json
import logging
import subprocess
import sys
import tempfile
import threading
import types
from pathlib import Path, PurePosixPath

from mkdocs.structure.toc import get_toc

from publish import notebook_hooks

log = logging.getLogger("mkdocs.plugins.notebook_render")

# The options of mkdocs-jupyter's plugin that its nb2html takes (plugin.on_pre_page passes them).
NB2HTML_OPTIONS = (
    "kernel_name",
    "theme",
    "allow_errors",
    "show_input",
    "no_input",
    "no_prompt",
    "remove_tag_config",
    "highlight_extra_classes",
    "include_requirejs",
    "custom_mathjax_url",
)


class Renderer:
    """The second process, and the pages it has written so far (:meth:`get`). Its input: one line
    of JSON, the job (the notebooks, the options); then, from :meth:`send_pages`, one line with the
    build's pages."""

    def __init__(self, job: dict, cwd: Path, command: list[str] | None = None) -> None:
        self.results: dict[str, dict] = {}
        self._done = False
        self._ready = threading.Condition()
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self._process = subprocess.Popen(
            command or [sys.executable, "-m", "publish.notebook_render"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
        )
        self._writer: threading.Thread | None = None
        self._write(json.dumps(job) + "\n", close=False)  # (a few kB: the pipe holds it)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _write(self, text: str, close: bool) -> None:
        try:
            self._process.stdin.write(text)
            self._process.stdin.flush()
            if close:
                self._process.stdin.close()
        except OSError:  # it has stopped: every page is rendered in the build
            pass

    def send_pages(self, pages: list[tuple[str, str]], notebooks: dict[str, str]) -> None:
        """The build's pages, (published address, URL) each, and each notebook page's URL by its
        notebook's path (what :func:`render` needs), written beside the build (the pipe may be full)."""
        line = json.dumps({"pages": pages, "notebooks": notebooks}) + "\n"
        self._writer = threading.Thread(target=self._write, args=(line, True), daemon=True)
        self._writer.start()

    def _read(self) -> None:
        try:
            for line in self._process.stdout:
                try:
                    result = json.loads(line)
                    src = result["src"]
                except (ValueError, KeyError, TypeError):
                    continue  # not a line of ours: that page is rendered in the build
                with self._ready:
                    self.results[src] = result
                    self._ready.notify_all()
        finally:
            with self._ready:
                self._done = True
                self._ready.notify_all()

    def get(self, src: str, wait: bool) -> dict | None:
        """The page of notebook ``src`` if the process wrote it without an error, else None; with
        ``wait``, first waits until it is written or the process has stopped."""
        with self._ready:
            if wait:
                self._ready.wait_for(lambda: src in self.results or self._done)
            result = self.results.get(src)
        return result if result is not None and "error" not in result else None

    def why_not(self, src: str) -> str:
        """Why the process gave no page for ``src`` (once :meth:`get` with ``wait`` said so)."""
        result = self.results.get(src)
        if result is not None:
            return result.get("error", "it did")
        self._stderr.seek(0)
        last = [line for line in self._stderr.read().splitlines() if line.strip()][-1:]
        return f"it stopped (exit {self._process.wait()}){': ' + last[0] if last else ''}"

    def stop(self) -> None:
        """The process stopped (killed if it still runs: a build that ends early), its pipes closed."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if self._writer is not None:
            self._writer.join()
        self._reader.join()
        for pipe in (self._process.stdin, self._process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        self._stderr.close()


def notebooks(plugin_config, docs_dir: Path) -> list[str]:
    """The paths of the notebooks in ``docs_dir`` that mkdocs-jupyter renders (its ``include`` and
    ``ignore`` patterns, as it matches them), in the order MkDocs reaches their pages."""
    found = []
    for path in docs_dir.rglob("*.ipynb"):
        rel = PurePosixPath(path.relative_to(docs_dir).as_posix())
        if any(path.match(p) for p in plugin_config["ignore"]):
            continue
        if any(path.match(p) for p in plugin_config["include"]):
            found.append((rel.parts[:-1], rel.stem != "index", rel.name, str(path)))
    return [path for *_, path in sorted(found)]  # (mkdocs.structure.files.file_sort_key)


def start(plugin_config, docs_dir: Path, cwd: Path) -> Renderer | None:
    """The process rendering the notebooks of ``docs_dir`` with mkdocs-jupyter's ``plugin_config``;
    None where it would render nothing that the build could use (mkdocs-jupyter executes notebooks,
    or keeps its own cache of pages), or cannot start."""
    if plugin_config["execute"] or plugin_config["cache"]:
        return None
    srcs = notebooks(plugin_config, docs_dir)
    if not srcs:
        return None
    job = {
        "options": {key: plugin_config[key] for key in NB2HTML_OPTIONS},
        "toc_depth": plugin_config["toc_depth"],
        "notebooks": srcs,
    }
    try:
        return Renderer(job, cwd)
    except OSError:
        return None


def render(src: str, options: dict, toc_depth: int, addresses) -> dict:
    """One notebook page as mkdocs-jupyter renders it and the hook cleans it, but for the
    download link: {"src", "content", "mark", "toc_tokens", "title"}. ``addresses``: a function
    giving the (address, URL relative to the page) pairs of clean(), called once the page's HTML is made."""
    from mkdocs_jupyter import convert, plugin

    html = convert.nb2html(src, execute=False, **options)
    toc_tokens, title = plugin._get_nb_toc_tokens(src, toc_depth)
    content, mark = notebook_hooks.clean_body(html, addresses(), Path(src).name)
    return {"src": src, "content": content, "mark": mark, "toc_tokens": toc_tokens, "title": title}


def main() -> None:
    job = json.loads(sys.stdin.readline())
    out, sys.stdout = sys.stdout, sys.stderr  # what a library prints stays out of the results
    notebook_hooks.on_config(None)  # the exporter the build uses
    build: dict = {}

    def addresses(src: str) -> tuple[tuple[str, str], ...]:
        if not build:
            line = sys.stdin.readline()  # the build's pages (Renderer.send_pages)
            if not line:
                raise SystemExit(0)  # the build has stopped
            build.update(json.loads(line))
        url = build["notebooks"].get(src)
        if url is None:
            raise LookupError(f"{src} is not a page of this build")
        return notebook_hooks.addresses_from(build["pages"], url)

    for src in job["notebooks"]:
        try:
            result = render(src, job["options"], job["toc_depth"], functools.partial(addresses, src))
        except Exception as error:  # noqa: BLE001 - the build renders this page itself and raises it there
            result = {"src": src, "error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(result) + "\n")
        out.flush()


# --- the hook (overrides/hooks/notebooks.py) ---------------------------------------------------


class _Build:
    """What one build's hook knows of its notebook pages (``mkdocs serve`` builds again and again)."""

    renderer: Renderer | None = None
    prerendered: dict[str, str] = {}  # src_uri: the mark in its body (clean_body), cleaned by the second process
    deferred: list = []  # (page, mkdocs-jupyter's render of it, ignore_h1_titles): pages whose result came late


def on_config(config):
    """The exporter (notebook_hooks.on_config); and the second process starts rendering the notebooks."""
    notebook_hooks.on_config(config)
    _stop()
    _Build.prerendered, _Build.deferred = {}, []
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is not None:
        _Build.renderer = start(plugin.config, Path(config.docs_dir), Path(config.config_file_path).parent)
    return config


def on_nav(nav, config, files):
    """The second process told where the build's pages are."""
    if _Build.renderer is not None:
        notebook_pages = {f.abs_src_path: f.url for f in files.documentation_pages() if notebook_hooks.is_notebook(f)}
        _Build.renderer.send_pages(notebook_hooks.published_pages(files), notebook_pages)
    return nav


def on_pre_page(page, config, files):
    """A notebook page takes its HTML from the second process (after mkdocs-jupyter's on_pre_page,
    which gave it its own render: the one used when the process has no page for it)."""
    renderer = _Build.renderer
    if renderer is None or not notebook_hooks.is_notebook(page):
        return page
    own_render = page.render
    ignore_h1_titles = config.plugins["mkdocs-jupyter"].config["ignore_h1_titles"]

    def render(self, config, files):
        result = renderer.get(self.file.abs_src_path, wait=False)
        if result is None:  # not yet (or it failed): on_env waits for it
            self.content, self.toc = "", get_toc([])
            _Build.deferred.append((self, own_render, ignore_h1_titles))
            return
        _take(self, result, ignore_h1_titles)

    page.render = types.MethodType(render, page)
    return page


def _take(page, result: dict, ignore_h1_titles: bool) -> None:
    """The page as mkdocs-jupyter's render would leave it, from the second process's ``result``."""
    page.content = result["content"]
    page.toc = get_toc(result["toc_tokens"])
    if result["title"] is not None and not ignore_h1_titles:
        page.title = result["title"]
    _Build.prerendered[page.file.src_uri] = result["mark"]


def on_page_content(html: str, page, config, files) -> str:
    if any(page is deferred for deferred, _, _ in _Build.deferred):
        return html  # on_env makes it
    mark = _Build.prerendered.get(page.file.src_uri)
    return notebook_hooks.on_page_content(html, page, config, files, mark=mark)


def on_env(env, config, files):
    """The notebook pages whose HTML had not come when MkDocs reached them, once it has come (or
    rendered here, as mkdocs-jupyter renders them, if it will not come)."""
    deferred, _Build.deferred = _Build.deferred, []
    for page, own_render, ignore_h1_titles in deferred:
        result = _Build.renderer.get(page.file.abs_src_path, wait=True)
        if result is not None:
            _take(page, result, ignore_h1_titles)
        else:  # rendered here: slower, the same page (and its error raised here, if it has one)
            log.info(
                "%s: rendered in the build, not beside it: %s",
                page.file.src_uri,
                _Build.renderer.why_not(page.file.abs_src_path),
            )
            own_render(config, files)
        page.content = on_page_content(page.content, page, config, files)
    _stop()
    return env


def on_post_build(config):
    _stop()


def on_build_error(error):
    _stop()


def _stop() -> None:
    if _Build.renderer is not None:
        _Build.renderer.stop()
        _Build.renderer = None


if __name__ == "__main__":
    main()
