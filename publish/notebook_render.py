"""The notebook pages rendered in a second process while MkDocs renders the other pages.

A cold build renders about twenty notebooks (mkdocs-jupyter's nbconvert, then
:func:`publish.notebook_hooks.clean`): about ten seconds of one core on the 2-core machine the
site is built on, while the other core has nothing to do. So when the build knows its pages
(``on_nav``), the notebook hook starts ``python -m publish.notebook_render`` and gives it each
notebook page, with what cleaning it needs (where the site's published addresses lead from that
page). The process renders them one by one in the order MkDocs reaches them, with mkdocs-jupyter's
own functions and the hook's exporter, and writes each as one line of JSON: the page's cleaned
HTML (with a mark where the download link goes: its text names the page the notebook comes
from, known only once that page is read), its table of contents and its title.

MkDocs then takes each notebook page's HTML from there instead of rendering it; a page whose line
has not arrived yet is filled in at ``on_env``, once every other page is rendered. A page is
rendered in the build's own process, as mkdocs-jupyter renders it, if the process could not start,
stopped, or wrote an error for that notebook: its error, if it has one, is then raised there,
with MkDocs' usual message. A test holds the two ways to the same pages."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

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
    """The second process, and the pages it has written so far (:meth:`get`)."""

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
        self._reader = threading.Thread(target=self._read, args=(json.dumps(job),), daemon=True)
        self._reader.start()

    def _read(self, job: str) -> None:
        try:
            try:
                self._process.stdin.write(job)
                self._process.stdin.close()
            except OSError:  # it stopped before reading its job: every page is rendered here
                pass
            for line in self._process.stdout:
                try:
                    result = json.loads(line)
                    src = result["src"]
                except (ValueError, KeyError, TypeError):
                    continue  # not a line of ours: that page is rendered here
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

    def stop(self) -> None:
        """The process stopped (killed if it still runs: a build that ends early), its pipes closed."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._reader.join()
        self._process.stdout.close()
        self._stderr.close()


def start(plugin_config, notebooks: list[tuple[str, tuple[tuple[str, str], ...]]], cwd: Path) -> Renderer | None:
    """The process rendering ``notebooks`` ((path, addresses) pairs, in the build's order) with
    mkdocs-jupyter's ``plugin_config``; None where it renders nothing that the build could use
    (it executes notebooks, or keeps its own cache of pages) or cannot start."""
    if plugin_config["execute"] or plugin_config["cache"] or not notebooks:
        return None
    job = {
        "options": {key: plugin_config[key] for key in NB2HTML_OPTIONS},
        "toc_depth": plugin_config["toc_depth"],
        "notebooks": [{"src": src, "addresses": list(map(list, addresses))} for src, addresses in notebooks],
    }
    try:
        return Renderer(job, cwd)
    except OSError:
        return None


def render(src: str, options: dict, toc_depth: int, addresses: tuple[tuple[str, str], ...]) -> dict:
    """One notebook page as mkdocs-jupyter renders it and the hook cleans it, but for the
    download link: {"src", "content", "mark", "toc_tokens", "title"}."""
    from mkdocs_jupyter import convert, plugin

    from publish import notebook_hooks

    content, mark = notebook_hooks.clean_body(convert.nb2html(src, execute=False, **options), addresses, Path(src).name)
    toc_tokens, title = plugin._get_nb_toc_tokens(src, toc_depth)
    return {"src": src, "content": content, "mark": mark, "toc_tokens": toc_tokens, "title": title}


def main() -> None:
    job = json.load(sys.stdin)
    out, sys.stdout = sys.stdout, sys.stderr  # what a library prints stays out of the results
    from publish import notebook_hooks

    notebook_hooks.on_config(None)  # the exporter the build uses
    for item in job["notebooks"]:
        addresses = tuple(tuple(pair) for pair in item["addresses"])
        try:
            result = render(item["src"], job["options"], job["toc_depth"], addresses)
        except Exception as error:  # noqa: BLE001 - the build renders this page itself and raises it there
            result = {"src": item["src"], "error": f"{type(error).__name__}: {error}"}
        out.write(json.dumps(result) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
