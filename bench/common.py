"""What the benchmark scripts share: the repository, a quiet static server on 127.0.0.1,
`mkdocs build`, Debian's Chromium, and a temporary copy of the repository (the server, the browser
and the copy are the tests' too: publish/harness/).

Nothing here reaches another host: the server binds 127.0.0.1 and the browser only opens its
pages (a request elsewhere is reported by the script that made it).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as a script: the publishing tools beside this folder

from publish.harness.chromium import CHROMIUM as _CHROMIUM  # noqa: E402
from publish.harness.chromium import CHROMIUM_ARGS  # noqa: E402
from publish.harness.repo_copy import project_files, repo_copy  # noqa: E402, F401 - the scripts' names
from publish.harness.server import GzipHandler, QuietHandler, Server, start, static_server  # noqa: E402, F401
from publish.source import mkdocs_yml  # noqa: E402

PYTHON = sys.executable
CHROMIUM = str(_CHROMIUM)  # publish/harness/chromium.py: the browser and flags the tests use too
BUILD_TIMEOUT = 900  # seconds; a cold build takes well under a minute


def stop_group(proc: subprocess.Popen, timeout: float = 20) -> None:
    """Stop a process started with start_new_session=True and everything it started (its process
    group: a server's notebook kernels, make's children): SIGTERM, then SIGKILL after ``timeout``."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on right now (for `mkdocs serve`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mkdocs_env(site_url: str | None = None, root: Path = REPO) -> dict[str, str]:
    """The environment of a build as published. For a copy of the
    repository, PYTHONPATH puts the copy's package ahead of the editable install (which points
    at this repository)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if site_url is not None:
        env["SITE_URL"] = site_url
    if root != REPO:
        env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def mkdocs_build(
    site: Path, site_url: str | None = None, root: Path = REPO, strict: bool = True, cold: bool = False
) -> float:
    """`mkdocs build [--strict]` of ``root`` into ``site`` (emptied first); its wall time in
    seconds. ``cold``: as in a fresh clone, with an empty folder for the build's one cache, the
    subset KaTeX fonts (publish/mkdocs/page_weight/katex_fonts.py; the repository's own .cache/katex-fonts/ is left
    as it is). No build runs a notebook (they are saved with their outputs).
    Raises RuntimeError with mkdocs' output if the build fails."""
    shutil.rmtree(site, ignore_errors=True)
    cmd = [PYTHON, "-m", "mkdocs", "build", *(["--strict"] if strict else []), "--site-dir", str(site)]
    env = mkdocs_env(site_url, root)
    with tempfile.TemporaryDirectory(prefix="bench-katex-fonts-") as cache:
        if cold:
            env["KATEX_FONTS_CACHE_DIR"] = cache
        start_time = time.perf_counter()
        proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
        elapsed = time.perf_counter() - start_time
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise RuntimeError(f"mkdocs build{' --strict' if strict else ''} failed (exit {proc.returncode}):\n{tail}")
    return elapsed


FLOOR_MD = Path(__file__).with_name("floor.md")


def floor_build(site: Path, html: str | None = None) -> None:
    """The floor page: bare Material (the site's theme settings: palette, features, ``font: false``;
    no extension, plugin, hook, extra CSS or JavaScript beyond the theme's defaults) with the first
    source article's text (bench/floor.md) as its one page, built into ``site``.

    With ``html``, the same bare Material with that HTML as it is (a raw HTML block) as its one
    page instead: bench/run.py's same-content floor of a page, which holds the page's own
    <article>. One page per site, as for the floor page: the search index, which Material's
    search loads on every page (bare Material's default plugins), holds that page alone."""
    import yaml

    config = mkdocs_yml.config()
    theme = {k: v for k, v in config["theme"].items() if k != "custom_dir"}  # the theme, not our overrides
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        if html is None:
            shutil.copy(FLOOR_MD, docs / "index.md")
        else:  # a raw HTML block: Python-Markdown passes it through untouched
            (docs / "index.md").write_text(f'<div class="floor-content">\n{html}\n</div>\n', encoding="utf-8")
        floor = {"site_name": config["site_name"], "theme": theme}
        (Path(tmp) / "mkdocs.yml").write_text(yaml.safe_dump(floor, allow_unicode=True), encoding="utf-8")
        shutil.rmtree(site, ignore_errors=True)
        cmd = [PYTHON, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
        proc = subprocess.run(cmd, cwd=tmp, env=mkdocs_env(), capture_output=True, text=True, timeout=BUILD_TIMEOUT)
        if proc.returncode != 0:
            raise RuntimeError(f"the floor page's build failed:\n{proc.stdout[-1500:]}{proc.stderr[-1500:]}")


def launch_chromium(playwright, executable: str = CHROMIUM, extra_args: tuple[str, ...] = ()):
    """Debian's Chromium headless shell (publish/harness/chromium.py), with the test suite's flags
    (Playwright's own browsers cannot be downloaded here)."""
    return playwright.chromium.launch(executable_path=executable, args=[*CHROMIUM_ARGS, *extra_args])


def package_location(root: Path) -> Path:
    """Where `import selfattn_ref` resolves from, run in ``root`` with mkdocs_env(root=root)."""
    proc = subprocess.run(
        [PYTHON, "-c", "import selfattn_ref; print(selfattn_ref.__file__)"],
        cwd=root,
        env=mkdocs_env(root=root),
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(proc.stdout.strip()).resolve()


@contextlib.contextmanager
def temporary_copy(prefix: str) -> Iterator[Path]:
    """A copy of the repository in a temporary folder, removed afterwards; refuses to go on if
    the package would be imported from anywhere but the copy."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        root = repo_copy(Path(tmp), compiled=False)
        where = package_location(root)
        if not where.is_relative_to(root.resolve()):
            raise RuntimeError(f"in the copy {root}, selfattn_ref is imported from {where}, not from the copy")
        yield root


def log(message: str) -> None:
    """Progress, on stderr (stdout is for the results)."""
    print(message, file=sys.stderr, flush=True)
