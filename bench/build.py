"""How long a cold `mkdocs build --strict` takes, and what each page costs on its first load.

Run:  .venv/bin/python bench/build.py [--runs 1] [--all-pages] [--chromium PATH]

1. Build time: builds the whole site with `mkdocs build --strict` into a new temporary folder,
   as in a fresh clone (an empty folder of subset KaTeX fonts: KATEX_FONTS_CACHE_DIR, see
   publish/mkdocs/page_weight/katex_fonts.py; no build runs a notebook); prints the wall time of
   each run. Budget: under 20 s on the 2-core machine the site is built on.
2. First load: serves that build on 127.0.0.1 (as the browser tests do) and opens each
   notebook page, and the article page it comes from (or, with --all-pages, every page of the
   built site), in a fresh headless Chromium context (no cache), waits until the network is
   idle, and adds up every response the page caused, headers and bodies (Playwright's
   request.sizes()): the HTML, CSS, JavaScript, fonts, the search worker and its index. It also
   reads the time from the start of the navigation to the end of the load event (the
   Navigation Timing entry's loadEventEnd). Budgets: under 600 kB and under 1 s per page. A
   request to any other host is printed too (there should be none).

bench/run.py (`make bench`) uses these functions for its table. This is a benchmark, not a
test: nothing fails.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common import CHROMIUM, PYTHON, REPO, launch_chromium, mkdocs_build, start, static_server
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(REPO))

BUDGET_SECONDS = 20.0
BUDGET_BYTES = 600_000
BUDGET_LOAD_SECONDS = 1.0


def cold_build(site: Path, site_url: str) -> float:
    """Wall time in seconds of `mkdocs build --strict` of the repository into ``site``."""
    return mkdocs_build(site, site_url, cold=True)


# What a build spends on the notebook pages (issue 52: mkdocs-jupyter keeps rendering them, and what
# that costs is measured): in a fresh interpreter, each notebook the build renders, converted as
# mkdocs-jupyter converts it (its public nb2html, and get_nb_toc for the table of contents, with
# mkdocs.yml's options) and cleaned as the hook cleans it (publish/mkdocs/notebook_pages.py). The
# imports are not counted: the build makes them once, whatever the number of notebooks.
_NOTEBOOKS_SCRIPT = """
import json, sys, time
from pathlib import Path
from mkdocs_jupyter import nbconvert2, plugin
from publish.mkdocs.notebook_pages import clean
from publish.source.mkdocs_yml import config
options = next(p["mkdocs-jupyter"] for p in config()["plugins"] if isinstance(p, dict) and "mkdocs-jupyter" in p)
paths = sorted(Path("docs/notebooks").glob("*.ipynb")) + sorted(Path("docs/notebooks/examples").glob("*.ipynb"))
start = time.perf_counter()
for path in paths:
    html = nbconvert2.nb2html(
        str(path), allow_errors=options["allow_errors"], no_prompt=options["no_prompt"],
        highlight_extra_classes=options["highlight_extra_classes"], include_requirejs=options["include_requirejs"],
        custom_mathjax_url=options["custom_mathjax_url"],
    )
    plugin.get_nb_toc(str(path), options["toc_depth"])
    clean(html, notebook=path.name)
print(json.dumps({"notebooks": len(paths), "seconds": time.perf_counter() - start}))
"""


def notebook_pages_cost() -> tuple[int, float]:
    """(notebooks, seconds): what converting and cleaning every notebook page costs a build."""
    proc = subprocess.run([PYTHON, "-c", _NOTEBOOKS_SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"timing the notebook pages failed:\n{proc.stderr.strip()[-2000:]}")
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    return found["notebooks"], found["seconds"]


@dataclass(frozen=True)
class PageLoad:
    doc: int  # bytes of the HTML document (headers and body)
    other: int  # bytes of everything else the page loaded
    requests: int
    load: float  # seconds from the start of the navigation to the end of the load event
    elsewhere: tuple[str, ...]  # URLs requested from any host but the local server
    gzip: int = 0  # bytes, each response's body gzip-compressed (what a real host sends), headers as they came

    @property
    def total(self) -> int:
        return self.doc + self.other


def load_page(browser, url: str, base: str) -> PageLoad:
    """Open ``url`` in a fresh context (empty cache), wait for the network to be idle (and
    500 ms for late requests such as the search index), and measure."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    finished, elsewhere = [], []
    context.on("requestfinished", lambda r: finished.append(r))
    context.on("request", lambda r: None if r.url.startswith((base, "data:", "blob:")) else elsewhere.append(r.url))
    try:
        page = context.new_page()
        page.goto(url, wait_until="networkidle")
        page.wait_for_timeout(500)
        # networkidle can come before the load event has ended on a busy machine (loadEventEnd
        # still 0, which read as a 0 s load): wait until the entry has it.
        page.wait_for_function("() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
        load_ms = page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; }"
        )
        doc = other = compressed = 0
        for request in finished:
            sizes = request.sizes()
            size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
            response = request.response()
            body = response.body() if response is not None else b""
            compressed += sizes["responseHeadersSize"] + len(gzip.compress(body, compresslevel=6))
            if request.url == url:
                doc += size
            else:
                other += size
    finally:
        context.close()
    return PageLoad(doc, other, len(finished), load_ms / 1000, tuple(elsewhere), compressed)


def site_pages(site: Path) -> list[str]:
    """Every page of a built site as a path under its base URL ("", "scaling/", ...), in the
    order of the folders; 404.html is left out (no link leads to it)."""
    pages = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site)
        if "assets" in rel.parts or rel.as_posix() == "404.html":
            continue
        path = rel.as_posix()
        pages.append(path[: -len("index.html")] if path == "index.html" or path.endswith("/index.html") else path)
    return pages


def notebook_pages() -> list[str]:
    """Each notebook page and, after it, the article page it comes from."""
    from publish.generate.notebooks import NOTEBOOKS

    return [path for nb in NOTEBOOKS for path in (f"notebooks/{nb.page}/", f"{nb.page}/")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="cold builds to time (default 1)")
    parser.add_argument("--all-pages", action="store_true", help="every page, not only notebooks and their articles")
    parser.add_argument("--chromium", default=str(CHROMIUM))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        site = Path(tmp) / "site"
        with static_server(site) as (httpd, base):
            print(f"cold `mkdocs build --strict` (as in a fresh clone), {os.cpu_count()} CPUs:")
            for run in range(args.runs):
                elapsed = cold_build(site, base)
                verdict = "within" if elapsed < BUDGET_SECONDS else "OVER"
                print(f"  run {run + 1}: {elapsed:.1f} s ({verdict} the {BUDGET_SECONDS:.0f} s budget)")
            notebooks, spent = notebook_pages_cost()
            what = "mkdocs-jupyter's conversion, the hook's clean"
            print(f"  of which the {notebooks} notebook pages ({what}): {spent:.1f} s")
            start(httpd)
            print("\nfirst load per page (HTML + every asset it loads), fresh browser cache:")
            print(f"  {'page':<40} {'HTML':>9} {'assets':>10} {'total':>10} {'requests':>9} {'load':>8}")
            with sync_playwright() as p:
                browser = launch_chromium(p, args.chromium)
                for path in site_pages(site) if args.all_pages else notebook_pages():
                    r = load_page(browser, base + path, base)
                    over = r.total >= BUDGET_BYTES or r.load >= BUDGET_LOAD_SECONDS
                    flag = "  OVER" if over else "  ok"
                    line = f"  {path or '/':<40} {r.doc:>9,} {r.other:>10,} {r.total:>10,} {r.requests:>9}"
                    print(f"{line} {r.load:>7.2f}s{flag}")
                    for url in r.elsewhere:
                        print(f"    request off the machine: {url}")
                browser.close()


if __name__ == "__main__":
    main()
