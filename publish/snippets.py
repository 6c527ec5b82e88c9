"""Run the standalone scripts in ``snippets/`` and record what they print.

A snippet ``snippets/<page>/<name>.py`` prints its output; the recording sits beside
it as ``<name>.out`` and is what the page shows under the code. Scripts run in a fresh
interpreter, as a reader would run a copy, with the libraries the reader would not have
blocked: a ``*_numpy.py`` snippet cannot import torch, a ``*_torch.py`` one cannot import
numpy-only helpers of ours, and none can import selfattn_ref.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import ROOT, SNIPPETS

# Run the snippet as __main__ with some modules made unimportable (None in sys.modules).
_RUNNER = (
    "import runpy, sys\n"
    "for name in sys.argv[2].split(','):\n"
    "    if name: sys.modules[name] = None\n"
    "path = sys.argv[1]; sys.argv = [path]\n"
    "runpy.run_path(path, run_name='__main__')\n"
)


@dataclass(frozen=True)
class Result:
    path: Path
    stdout: str
    stderr: str
    returncode: int

    @property
    def recording(self) -> Path:
        return self.path.with_suffix(".out")


def all_snippets() -> list[Path]:
    return sorted(p for p in SNIPPETS.rglob("*.py") if "__pycache__" not in p.parts)


def blocked_modules(path: Path) -> list[str]:
    """Modules a copy of this snippet must do without."""
    blocked = ["selfattn_ref"]
    if path.stem.endswith("_numpy"):
        blocked.append("torch")
    return blocked


_RUNS: dict[tuple[str, int, int], Result] = {}


def run(path: Path, timeout: float = 120) -> Result:
    """Run one snippet in a fresh interpreter, from a neutral folder, and capture its output.

    A run is remembered for as long as the file is unchanged (same modification time and size),
    so the generic snippet tests and the per-page tests share one run of each file."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _RUNS:
        _RUNS[key] = _run(path, timeout)
    return _RUNS[key]


def _run(path: Path, timeout: float) -> Result:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONIOENCODING"] = "utf-8"
    proc = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(path), ",".join(blocked_modules(path))],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=path.parent,
        env=env,
    )
    return Result(path, proc.stdout, proc.stderr, proc.returncode)


def run_many(paths: list[Path]) -> list[Result]:
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        return list(pool.map(run, paths))


def describe_difference(result: Result) -> str:
    """Where a recording and the snippet's output differ, line by line, with numbers named."""
    rel = result.path.relative_to(ROOT)
    rec = result.recording
    if not rec.is_file():
        return f"{rel}: no recorded output {rec.name}; run `make update`"
    old = rec.read_text(encoding="utf-8").splitlines()
    new = result.stdout.splitlines()
    msgs = []
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else "<missing line>"
        b = new[i] if i < len(new) else "<missing line>"
        if a != b:
            msgs.append(f"{rec.relative_to(ROOT)}, line {i + 1}: recorded {a!r}, but the code prints {b!r}")
    if not msgs and rec.read_text(encoding="utf-8") != result.stdout:
        msgs.append(f"{rec.relative_to(ROOT)}: differs in whitespace at the end from what the code prints")
    return "\n".join(msgs[:10] + ([f"... and {len(msgs) - 10} more lines"] if len(msgs) > 10 else []))


# What each recording was made from: a hash of the snippet and of its recording, and the
# versions of Python, NumPy and PyTorch. A snippet's output depends on nothing else (it runs alone,
# cannot import selfattn_ref, and draws from seeded generators), so `make update` runs only the
# snippets whose entry no longer matches. The tests never use this file: they run every snippet.
MANIFEST = SNIPPETS / "recordings.json"


def _versions() -> dict[str, str]:
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("numpy", "torch"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "missing"
    return out


def fingerprint(path: Path, script: str | None = None, recording: str | None = None) -> str:
    """What a recording was made from: a hash of the snippet, its recording and the modules it
    runs without. ``script`` and ``recording``: texts about to be written (default: on disk)."""
    import hashlib

    code = script.encode() if script is not None else path.read_bytes()
    rec = path.with_suffix(".out")
    if recording is not None:
        out = recording.encode()
    else:
        out = rec.read_bytes() if rec.is_file() else b"<none>"
    digest = hashlib.sha256(code)
    digest.update(b"\0" + out)
    digest.update(b"\0" + ",".join(blocked_modules(path)).encode())
    return digest.hexdigest()


_fingerprint = fingerprint


def recorded_fingerprints() -> dict[str, str]:
    """The manifest's fingerprints by snippet (relative to snippets/), whatever the versions."""
    import json

    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else {}


def manifest_text(files: dict[str, str]) -> str:
    import json

    return json.dumps({"versions": _versions(), "files": dict(sorted(files.items()))}, indent=1) + "\n"


def read_manifest() -> dict:
    return _read_manifest()


def _read_manifest() -> dict:
    import json

    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"versions": {}, "files": {}}
    if not isinstance(data, dict) or data.get("versions") != _versions() or not isinstance(data.get("files"), dict):
        return {"versions": _versions(), "files": {}}
    return data


def namespace(path: Path) -> dict:
    """Run a snippet in this process (output discarded) and return its globals, to compare
    its results with the reference package."""
    import contextlib
    import io
    import runpy

    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(path), run_name="__main__")
