"""Lighthouse's mobile performance audit of a page, as bench/run.py's [lighthouse] figure runs it.

Lighthouse (npm's `lighthouse`, pinned to LIGHTHOUSE_VERSION) with its defaults for a phone:
mobile form factor and screen, simulated throttling (slow 4G: 150 ms round trips, 1.6 Mbit/s
down; the CPU 4× slower than this machine's), performance category only. The page is served
from 127.0.0.1 and opened in Debian's Chromium headless shell (CHROME_PATH), with the flags the
tests use (publish/harness/chromium.py) and --headless; nothing else is reached.

node and npm are not part of the README's set-up: the bench installs Lighthouse itself into
CACHE (.cache/ is gitignored) on first use, with npm from the npm registry, and says so when
either is missing. This is a benchmark helper, not a test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common import CHROMIUM, CHROMIUM_ARGS, REPO, log

from publish.files import unsafe_folder

LIGHTHOUSE_VERSION = "12.8.2"
CACHE = REPO / ".cache" / "bench" / f"lighthouse-{LIGHTHOUSE_VERSION}"
NODE_MAJOR = 18  # Lighthouse 12 runs on node 18.20 and later
CHROME_FLAGS = ("--headless", *CHROMIUM_ARGS)
RUN_TIMEOUT = 300  # s for one audit (about 15 s on the 2-core machine)

# The figures read from a report (audit id -> what bench/run.py calls it).
AUDITS = {
    "first-contentful-paint": "fcp",
    "largest-contentful-paint": "lcp",
    "total-blocking-time": "tbt",
}


class Missing(RuntimeError):
    """node or npm is not installed, or Lighthouse could not be installed."""


@dataclass(frozen=True)
class Audit:
    score: float  # 0-100
    fcp: float  # ms
    lcp: float  # ms
    tbt: float  # ms
    dom: int  # elements in the page (Lighthouse's dom-size)
    main_thread: dict[str, float]  # ms of main-thread work by kind (Lighthouse's mainthread-work-breakdown)


def _node() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        missing = " and ".join(n for n, p in (("node", node), ("npm", npm)) if p is None)
        raise Missing(
            f"{missing} not found: the Lighthouse figure needs node {NODE_MAJOR}+ and npm, which are not part of "
            "the README's set-up (Debian: apt-get install nodejs npm); the other figures do not need them"
        )
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0]) < NODE_MAJOR:
        raise Missing(f"node {version} is too old for Lighthouse {LIGHTHOUSE_VERSION}: it needs node {NODE_MAJOR}.20+")
    return node, npm


def install() -> list[str]:
    """Lighthouse's command line (node and its script), installed into CACHE if it is not there."""
    node, npm = _node()
    if problem := unsafe_folder(CACHE, REPO):  # .cache or .cache/bench a link: npm would install elsewhere
        raise Missing(f"Lighthouse's folder {CACHE.relative_to(REPO)} is refused: {problem}")
    cli = CACHE / "node_modules" / "lighthouse" / "cli" / "index.js"
    package = CACHE / "node_modules" / "lighthouse" / "package.json"
    if not (cli.is_file() and json.loads(package.read_text(encoding="utf-8"))["version"] == LIGHTHOUSE_VERSION):
        log(f"installing Lighthouse {LIGHTHOUSE_VERSION} into {CACHE.relative_to(REPO)} (npm, once) ...")
        CACHE.mkdir(parents=True, exist_ok=True)
        cmd = [npm, "install", "--prefix", str(CACHE), "--save-exact", "--no-audit", "--no-fund", "--loglevel=error",
               f"lighthouse@{LIGHTHOUSE_VERSION}"]  # fmt: skip
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if proc.returncode != 0 or not cli.is_file():
            output = proc.stdout[-1500:] + proc.stderr[-1500:]
            raise Missing(f"npm could not install lighthouse@{LIGHTHOUSE_VERSION}:\n{output}")
    return [node, str(cli)]


def audit(cli: list[str], url: str, chromium: str = CHROMIUM) -> Audit:
    """One Lighthouse run of ``url`` with its mobile defaults."""
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        cmd = [*cli, url, "--output=json", f"--output-path={out}", "--quiet", "--only-categories=performance",
               f"--chrome-flags={' '.join(CHROME_FLAGS)}"]  # fmt: skip
        env = {**os.environ, "CHROME_PATH": chromium}
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env, cwd=tmp)
        if proc.returncode != 0 or not out.is_file():
            raise RuntimeError(f"lighthouse {url} failed (exit {proc.returncode}):\n{proc.stderr[-1500:]}")
        report = json.loads(out.read_text(encoding="utf-8"))
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse {url}: {report['runtimeError'].get('message')}")
    audits = report["audits"]
    values = {name: audits[key]["numericValue"] for key, name in AUDITS.items()}
    score = report["categories"]["performance"]["score"]
    if score is None or any(v is None for v in values.values()):
        raise RuntimeError(f"lighthouse {url}: no performance score ({report.get('runWarnings')})")
    breakdown = audits["mainthread-work-breakdown"].get("details", {}).get("items", [])
    return Audit(
        score=score * 100,
        dom=int(audits["dom-size"]["numericValue"]),
        main_thread={item["groupLabel"]: item["duration"] for item in breakdown},
        **values,
    )
