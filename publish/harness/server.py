"""A static server of a built site on 127.0.0.1, quiet (no line per request), for the tests (the
suite's server of the strict build, tests/conftest.py) and ``make bench`` (which serves text
gzip-compressed, as a real host sends it). Nothing here reaches another host.

One way for both: :func:`static_server`, then :func:`start` once there is something to serve (the
suite enters it in pytest_configure and leaves it in pytest_unconfigure, tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import io
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - http.server's signature
        pass


# What a real host (GitHub Pages among them) sends compressed: text, scripts, styles, JSON, SVG.
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "application/xml", "image/svg+xml")


class GzipHandler(QuietHandler):
    """QuietHandler that sends a text file gzip-compressed (level 6) when the browser accepts it,
    as a real host does; fonts and images as they are."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        ctype = self.guess_type(str(path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and ctype.startswith(COMPRESSED_TYPES)):
            return super().send_head()
        body = _gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@functools.lru_cache(maxsize=4096)
def _gzip_of(path: Path, mtime_ns: int, size: int) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


def _gzipped(path: Path) -> bytes:
    """The file gzip-compressed, once per version of it (a real host compresses a file once, not on
    every request: compressing on every request made the server, not the page, decide when the
    first stylesheets arrived)."""
    stat = path.stat()
    return _gzip_of(path, stat.st_mtime_ns, stat.st_size)


class Server(ThreadingHTTPServer):
    thread: threading.Thread | None = None  # serving, once start() is called

    def handle_error(self, request, client_address):
        pass  # a browser that closes a connection early (a cancelled font) is not news


@contextlib.contextmanager
def static_server(directory: Path, compress: bool = False) -> Iterator[tuple[Server, str]]:
    """A threaded http.server bound to a free port of 127.0.0.1, serving ``directory`` (which
    may not exist yet: the port, hence the base URL, is known before the build). Yields
    (server, "http://127.0.0.1:PORT/"); call ``start(server)`` once the site is built.
    ``compress``: text files gzip-compressed, as a real host sends them (GzipHandler)."""
    handler = GzipHandler if compress else QuietHandler
    httpd = Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    try:
        yield httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        if httpd.thread is not None:
            httpd.shutdown()
            httpd.thread.join(timeout=5)
        httpd.server_close()


def start(httpd: Server) -> None:
    """Serve requests from a daemon thread (until the static_server block ends)."""
    httpd.thread = threading.Thread(target=httpd.serve_forever, name="static-server", daemon=True)
    httpd.thread.start()
