"""The notebook pages rendered in a second process while MkDocs renders the other pages.

A cold build renders about twenty notebooks (mkdocs-jupyter's nbconvert, then
:func:`publish.mkdocs.notebook_pages.clean`): about ten seconds of one core on the 2-core machine the
site is built on, while the other core has nothing to do. So as soon as the build has its
configuration (``on_config``), the notebook hook starts ``python -m publish.mkdocs.notebook_render`` and
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
with MkDocs' usual message. A test holds the two ways to the same pages.

``mkdocs serve`` builds again in the same process after each edit: a notebook page the second
process wrote for an earlier build is used again (:class:`Reuse`) where its notebook, the pages
it links to (their addresses from its page) and the code that renders it (``publish/``, KaTeX,
mkdocs-jupyter's options) are what they were; a second process is started for the others only,
once the build knows its pages. The rebuild after a page edit under ``mkdocs serve`` took about
1.1 s less (5.6 s down to 4.5 s, the build alone, on the 2-core machine)."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import subprocess
import sys
import tempfile
import threading
import types
from pathlib import Path, PurePosixPath

from mkdocs.structure.toc import get_toc

from publish.mkdocs import notebook_pages

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
        self.job = job
        self.content: dict[str, str] = {}  # src: notebook_key(src), as start() read it
        self.results: dict[str, dict] = {}
        self._done = False
        self._ready = threading.Condition()
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self._process = subprocess.Popen(
            command or [sys.executable, "-m", "publish.mkdocs.notebook_render"],
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


def start(plugin_config, docs_dir: Path, cwd: Path, cache: dict | None = None) -> Renderer | Reuse | None:
    """The process rendering the notebooks of ``docs_dir`` with mkdocs-jupyter's ``plugin_config``;
    None where it would render nothing that the build could use (mkdocs-jupyter executes notebooks,
    or keeps its own cache of pages), or cannot start. With the pages of earlier builds
    (``cache``, as :class:`Reuse` takes it), those pages where they still hold, and a process for
    the others, started once the build knows its pages."""
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
    content = {}  # (read before the process reads them; one that cannot be read is not kept)
    for src in srcs:
        try:
            content[src] = notebook_key(src)
        except OSError:
            pass
    if cache:
        return Reuse(job, cwd, cache, content)
    try:
        renderer = Renderer(job, cwd)
    except OSError:
        return None
    renderer.content = content
    return renderer


# What the second process's pages depend on besides their notebook and the pages they link to: the
# code that renders them (the publish package, KaTeX's script) and mkdocs-jupyter's version.
_PUBLISH = Path(__file__).resolve().parents[1]


def code_fingerprint() -> tuple:
    """The size and modification time of each file the second process's pages depend on, and
    mkdocs-jupyter's version: any edit of them makes every page be rendered again."""
    from importlib.metadata import version

    from publish.markdown.katex_math import KATEX_JS

    files = sorted(_PUBLISH.rglob("*.py")) + [KATEX_JS]
    stats = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files if f.is_file())
    return (version("mkdocs-jupyter"), stats)


def notebook_key(src: str) -> str:
    """The notebook's content, as a hash (a notebook saved again with the same bytes is the same)."""
    return hashlib.sha256(Path(src).read_bytes()).hexdigest()


class Reuse:
    """A rebuild's notebook pages (``mkdocs serve``): those of ``cache`` (``{src: (key, page)}``,
    from earlier builds) whose key is still the notebook's, its page's addresses and the job's; the
    others from a second process started for them alone once the build knows its pages. The same
    methods as :class:`Renderer`, which the hook calls."""

    def __init__(self, job: dict, cwd: Path, cache: dict, content: dict[str, str]) -> None:
        self.job, self.cwd, self.cache, self.content = job, cwd, cache, content
        self.results: dict[str, dict] = {}
        self.keys: dict[str, tuple] = {}  # (cache_keys, once the build's pages are known)
        self.renderer: Renderer | None = None

    def send_pages(self, pages: list[tuple[str, str]], notebooks: dict[str, str]) -> None:
        self.keys = keys = cache_keys(self.job, self.content, pages, notebooks)
        stale = []
        for src in self.job["notebooks"]:
            found = self.cache.get(src)
            if found is not None and src in keys and found[0] == keys[src]:
                self.results[src] = found[1]
            else:
                stale.append(src)
        if stale:
            try:
                self.renderer = Renderer({**self.job, "notebooks": stale}, self.cwd)
            except OSError:
                return  # the build renders them
            self.renderer.send_pages(pages, notebooks)

    def get(self, src: str, wait: bool) -> dict | None:
        if src in self.results:
            return self.results[src]
        return self.renderer.get(src, wait) if self.renderer is not None else None

    def why_not(self, src: str) -> str:
        return self.renderer.why_not(src) if self.renderer is not None else "it was not started"

    def stop(self) -> None:
        if self.renderer is not None:
            self.renderer.stop()


def cache_keys(job: dict, content: dict[str, str], pages: list[tuple[str, str]], notebooks: dict[str, str]) -> dict:
    """What each notebook page of ``job`` that is a page of the build (``notebooks``: its URL by
    its notebook's path) depends on: its notebook's content (``content``, read before the second
    process read it), the addresses of the pages it links to as seen from its page, the job's
    options and the rendering code."""
    common = (json.dumps([job["options"], job["toc_depth"]], sort_keys=True), code_fingerprint())
    return {
        src: (content[src], notebook_pages.addresses_from(pages, notebooks[src]), *common)
        for src in job["notebooks"]
        if src in notebooks and src in content
    }


def render(src: str, options: dict, toc_depth: int, addresses) -> dict:
    """One notebook page as mkdocs-jupyter renders it and the hook cleans it, but for the
    download link: {"src", "content", "mark", "toc_tokens", "title"}. ``addresses``: a function
    giving the (address, URL relative to the page) pairs of clean(), called once the page's HTML is made."""
    from mkdocs_jupyter import convert, plugin

    html = convert.nb2html(src, execute=False, **options)
    toc_tokens, title = notebook_pages.retitled(*plugin._get_nb_toc_tokens(src, toc_depth), html)
    content, mark = notebook_pages.clean_body(html, addresses(), Path(src).name)
    return {"src": src, "content": content, "mark": mark, "toc_tokens": toc_tokens, "title": title}


def main() -> None:
    job = json.loads(sys.stdin.readline())
    out, sys.stdout = sys.stdout, sys.stderr  # what a library prints stays out of the results
    notebook_pages.on_config(None)  # the exporter the build uses
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
        return notebook_pages.addresses_from(build["pages"], url)

    for src in job["notebooks"]:
        try:
            result = render(src, job["options"], job["toc_depth"], functools.partial(addresses, src))
        except Exception as error:  # noqa: BLE001 - the build renders this page itself and raises it there
            result = {"src": src, "error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(result) + "\n")
        out.flush()


# --- the hook (publish/mkdocs/hooks/notebook_pages.py) ------------------------------------------


class _Build:
    """What one build's hook knows of its notebook pages (``mkdocs serve`` builds again and again)."""

    renderer: Renderer | None = None
    prerendered: dict[str, str] = {}  # src_uri: the mark in its body (clean_body), cleaned by the second process
    deferred: list = []  # (page, mkdocs-jupyter's render of it, ignore_h1_titles): pages whose result came late
    keys: dict[str, tuple] = {}  # src: what its page depends on (cache_keys), in this build
    # src: (its key, its page), of the last build in this process (mkdocs serve builds again after
    # each edit): Reuse takes the pages whose key still holds
    cache: dict[str, tuple] = {}


# mkdocs-jupyter logs a line at INFO for each notebook it copies beside its page, 20 on each build
# and rebuild, among which `mkdocs serve`'s log buried the numbers audit's messages: its warnings stay.
JUPYTER_LOG = "mkdocs.plugins.mkdocs_jupyter"


def on_config(config):
    """The exporter (notebook_pages.on_config); and the second process starts rendering the notebooks."""
    logging.getLogger(JUPYTER_LOG).setLevel(logging.WARNING)
    notebook_pages.on_config(config)
    _stop()
    _Build.prerendered, _Build.deferred, _Build.keys = {}, [], {}
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is not None:
        cwd = Path(config.config_file_path).parent
        _Build.renderer = start(plugin.config, Path(config.docs_dir), cwd, _Build.cache)
    return config


def on_nav(nav, config, files):
    """The second process told where the build's pages are; what each notebook page depends on."""
    renderer = _Build.renderer
    if renderer is not None:
        notebook_urls = {f.abs_src_path: f.url for f in files.documentation_pages() if notebook_pages.is_notebook(f)}
        pages = notebook_pages.published_pages(files)
        renderer.send_pages(pages, notebook_urls)
        if isinstance(renderer, Reuse):
            _Build.keys = renderer.keys
        else:
            _Build.keys = cache_keys(renderer.job, renderer.content, pages, notebook_urls)
    return nav


def on_pre_page(page, config, files):
    """A notebook page takes its HTML from the second process (after mkdocs-jupyter's on_pre_page,
    which gave it its own render: the one used when the process has no page for it)."""
    renderer = _Build.renderer
    if renderer is None or not notebook_pages.is_notebook(page):
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
    return notebook_pages.on_page_content(html, page, config, files, mark=mark)


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
    _keep()
    _stop()
    return env


def _keep() -> None:
    """The second process's pages of this build, kept for the next build in this process
    (:class:`Reuse`), each with what it depends on; none that it did not write."""
    renderer = _Build.renderer
    if renderer is None:
        return
    kept = {}
    for src, key in _Build.keys.items():
        page = renderer.get(src, wait=False)
        if page is not None:
            kept[src] = (key, page)
    _Build.cache = kept


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
