"""How long a cold `mkdocs build --strict` takes, and how much each page with a notebook weighs.

Run:  .venv/bin/python bench/build.py [--runs 1] [--chromium /usr/bin/chromium]

1. Build time: removes mkdocs-jupyter's cache folder (.cache/mkdocs-jupyter, unused while
   mkdocs.yml sets cache: false, removed all the same) and builds the whole site with
   `mkdocs build --strict` into a new temporary folder, every notebook executed; prints the wall
   time of each run. Budget: under 30 s on the 2-core machine the site is built on.
2. Bytes transferred: serves that build on 127.0.0.1 (as the browser tests do) and opens each
   notebook page, and the article page it comes from, in a fresh headless Chromium context (no
   cache), waits until the network is idle, and adds up every response the page caused, headers
   and bodies (Playwright's request.sizes()): the HTML, CSS, JavaScript, fonts, the search
   worker and its index. Budget: under 1 MB for a page with a notebook. A request to any other
   host is printed too (there should be none).

This is a benchmark, not a test: nothing fails.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from selfattn_ref.publish.notebooks import NOTEBOOKS  # noqa: E402

BUDGET_SECONDS = 30.0
BUDGET_BYTES = 1_000_000


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - http.server's signature
        pass


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a browser that closes a connection early (a cancelled font) is not news


def cold_build(site: Path, site_url: str) -> float:
    shutil.rmtree(REPO / ".cache" / "mkdocs-jupyter", ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": site_url}
    env.pop("NOTEBOOKS_EXECUTE", None)
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"mkdocs build --strict failed:\n{proc.stdout}{proc.stderr}")
    return elapsed


def transferred(browser, url: str, base: str) -> tuple[int, int, int, list[str]]:
    """(bytes of the HTML document, bytes of everything else, number of requests, other hosts)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    finished, elsewhere = [], []
    context.on("requestfinished", lambda r: finished.append(r))
    context.on("request", lambda r: None if r.url.startswith((base, "data:", "blob:")) else elsewhere.append(r.url))
    page = context.new_page()
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(500)  # late requests (the search index) finish too
    doc = other = 0
    for request in finished:
        sizes = request.sizes()
        size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        if request.url == url:
            doc += size
        else:
            other += size
    context.close()
    return doc, other, len(finished), elsewhere


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="cold builds to time (default 1)")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        site = Path(tmp) / "site"
        site.mkdir()
        httpd = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        base = f"http://127.0.0.1:{httpd.server_address[1]}/"
        print(f"cold `mkdocs build --strict` ({len(NOTEBOOKS)} notebooks executed), {os.cpu_count()} CPUs:")
        times = []
        for run in range(args.runs):
            times.append(cold_build(site, base))
            verdict = "within" if times[-1] < BUDGET_SECONDS else "OVER"
            print(f"  run {run + 1}: {times[-1]:.1f} s ({verdict} the {BUDGET_SECONDS:.0f} s budget)")
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        print("\nbytes transferred per page (HTML + every asset it loads), fresh browser cache:")
        print(f"  {'page':<40} {'HTML':>9} {'assets':>10} {'total':>10} {'requests':>9}")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox", "--disable-gpu"])
            for nb in NOTEBOOKS:
                for path in (f"notebooks/{nb.page}/", f"{nb.page}/"):
                    doc, other, count, elsewhere = transferred(browser, base + path, base)
                    total = doc + other
                    flag = "" if path.startswith(f"{nb.page}/") else ("  ok" if total < BUDGET_BYTES else "  OVER 1 MB")
                    print(f"  {path:<40} {doc:>9,} {other:>10,} {total:>10,} {count:>9}{flag}")
                    for url in elsewhere:
                        print(f"    request off the machine: {url}")
            browser.close()
        httpd.shutdown()
        httpd.server_close()


if __name__ == "__main__":
    main()
