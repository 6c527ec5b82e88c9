"""Run the standalone scripts in ``snippets/`` and record what they print.

A snippet ``snippets/<page>/<name>.py`` prints its output; the recording sits beside
it as ``<name>.out`` and is what the page shows under the code. Scripts run in a fresh
interpreter, as a reader would run a copy, with the libraries the reader would not have
blocked: a ``*_numpy.py`` snippet cannot import torch, a ``*_torch.py`` one cannot import
numpy-only helpers of ours, and none can import selfattn_ref.

Where the system can fork (POSIX), a "fresh interpreter" is a fork of a server process that has
started exactly as the interpreter above would (same command line, environment and blocked
modules) and imported the libraries the snippet may use (numpy; and torch unless torch is
blocked), and nothing else: each snippet runs in its own child, from its folder, with its output
captured, and the child exits after it, so no state passes from one snippet to the next; the global random
generators (Python's, NumPy's, PyTorch's) are seeded afresh in each child, as a new interpreter
seeds them, so a snippet that forgot its seed still shows it. Importing
torch once per server instead of once per snippet is most of the snippet layer's time.
"""

from __future__ import annotations

import atexit
import os
import queue
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT, SNIPPETS
from ..source import includes

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


# --- what a page shows of a script -----------------------------------------------------------
# A page shows a script twice (CONTRIBUTING, "Code blocks"): its "math" section, then the whole
# script. pymdownx.snippets shows a file's section as the lines between "# --8<-- [start:NAME]" and
# "# --8<-- [end:NAME]", and leaves the marker lines out of every include. A file whose first lines
# are for the build, not the reader (a generated file's banner, "# no-twin: <reason>"), puts them
# above a "script" section, which the page then includes as the whole script: what a reader sees and
# copies, and what a notebook runs, carries no build marker.
SCRIPT_SECTION = "script"


def shown_whole(code: str) -> str:
    """The script ``code`` as a page shows it whole: its ``script`` section if it has one, else every
    line; without section markers, as pymdownx.snippets includes it (publish.source.includes, its
    own preprocessor), ending in one newline."""
    lines = includes.section(code, SCRIPT_SECTION) if includes.has_section(code, SCRIPT_SECTION) else code.split("\n")
    return "\n".join(line for line in lines if not includes.is_marker(line)).rstrip("\n") + "\n"


# A code of the package that a page shows (``--8<-- "selfattn_ref/<module>.py:<section>"``) is an
# excerpt, not a script: it calls the package's own helpers and runs when the package is imported. Its
# block says so, and offers no copy button (Material leaves it out of a block with the class no-copy):
#
#     ```{ .python .no-copy title="selfattn_ref/learning.py: an excerpt of the package" }
#     --8<-- "selfattn_ref/learning.py:backward"
#     ```
EXCERPT_CLASS = "no-copy"
EXCERPT_TITLE = ": an excerpt of the package"
_FENCE_ATTRIBUTES = re.compile(r"^\{(.*)\}$")


def fence_info(info: str) -> tuple[str, tuple[str, ...], str | None]:
    """(language, classes, title) of a fenced block's opening line after its backticks, in either
    form pymdownx.superfences reads: ``python title="x.py"`` or ``{ .python .no-copy title="x.py" }``
    (the language is the first class)."""
    info = info.strip()
    title = re.search(r'title="([^"]*)"', info)
    if m := _FENCE_ATTRIBUTES.match(info):
        classes = tuple(re.findall(r"(?<![\w\"])\.([\w-]+)", m.group(1)))
        return (classes[0] if classes else ""), classes[1:], title.group(1) if title else None
    return (info.split()[0] if info else ""), (), title.group(1) if title else None


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


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


# The fork server: reads a snippet's path per line on stdin; for each, forks a child that runs it as
# _RUNNER would (its folder as the working directory, its argv, __main__, stdout and stderr to files)
# and answers one JSON line: {"stdout", "stderr", "returncode"}. Started as `python -c _SERVER
# blocked,modules preload,modules` with the environment of a snippet run.
_SERVER = r"""
import json, os, runpy, sys, tempfile, traceback
requests, answers = sys.stdin, os.fdopen(os.dup(1), 'w', encoding='utf-8')
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # whatever an import prints stays out of the answers
for name in sys.argv[1].split(','):
    if name: sys.modules[name] = None
for name in sys.argv[2].split(','):
    if name: __import__(name)
for line in requests:
    path = line.rstrip('\n')
    out = tempfile.TemporaryFile(); err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.dup2(out.fileno(), 1); os.dup2(err.fileno(), 2); os.chdir(os.path.dirname(path))
            sys.argv = [path]; sys.stdin = open(os.devnull)
            # Global generators drawn afresh, as in a new interpreter (a fork would share the server's).
            import random; random.seed()
            if sys.modules.get('numpy'): sys.modules['numpy'].random.seed()
            if sys.modules.get('torch'): sys.modules['torch'].seed()
            runpy.run_path(path, run_name='__main__')
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if not isinstance(exc.code, int) and exc.code is not None: print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc(); code = 1
        try:
            sys.stdout.flush(); sys.stderr.flush()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    texts = []
    for f in (out, err):
        f.seek(0); texts.append(f.read().decode('utf-8', 'replace')); f.close()
    answers.write(json.dumps({'stdout': texts[0], 'stderr': texts[1], 'returncode': code}) + '\n'); answers.flush()
"""


class _Server:
    """One fork server (see _SERVER) for snippets that block the same modules."""

    def __init__(self, blocked: list[str]):
        preload = ["numpy"] + ([] if "torch" in blocked else ["torch"])
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER, ",".join(blocked), ",".join(preload)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=_env(),
            cwd=ROOT,
        )

    def run(self, path: Path, timeout: float) -> Result | None:
        """The run, or None if the server is gone (the caller then runs the snippet in a subprocess)."""
        import json

        try:
            self.proc.stdin.write(str(path.resolve()) + "\n")
            self.proc.stdin.flush()
        except OSError:
            return None
        timer = threading.Timer(timeout, self.proc.kill)
        timer.start()
        try:
            line = self.proc.stdout.readline()
        finally:
            timer.cancel()
        if not line:
            return None
        answer = json.loads(line)
        return Result(path, answer["stdout"], answer["stderr"], answer["returncode"])

    def close(self) -> None:
        """Stop an idle server (at exit, every run answered): killed, not left to exit, which with
        PyTorch loaded took some 0.3 s of a core per server, and of the wait of the process that
        started it. An idle server holds nothing to flush or remove (each run's files are closed)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()


_IDLE: dict[tuple[str, ...], queue.SimpleQueue] = {}  # blocked modules -> idle servers
_ALL_SERVERS: list[_Server] = []
_LOCK = threading.Lock()


def _close_servers() -> None:
    for server in _ALL_SERVERS:
        server.close()


def _run_forked(path: Path, timeout: float) -> Result | None:
    blocked = tuple(blocked_modules(path))
    with _LOCK:
        idle = _IDLE.setdefault(blocked, queue.SimpleQueue())
        try:
            server = idle.get_nowait()
        except queue.Empty:
            server = _Server(list(blocked))
            if not _ALL_SERVERS:
                atexit.register(_close_servers)
            _ALL_SERVERS.append(server)
    result = server.run(path, timeout)
    if result is not None:
        idle.put(server)
    return result


def _run(path: Path, timeout: float) -> Result:
    if _forks():
        result = _run_forked(path, timeout)
        if result is not None:
            return result
    proc = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(path), ",".join(blocked_modules(path))],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=path.parent,
        env=_env(),
    )
    return Result(path, proc.stdout, proc.stderr, proc.returncode)


def _forks() -> bool:
    return hasattr(os, "fork") and os.environ.get("SNIPPETS_FORK", "1") != "0"


def run_many(paths: list[Path]) -> list[Result]:
    """The runs of ``paths`` (:func:`run`), in their order, side by side. With fork servers, one
    thread per set of blocked modules (the NumPy snippets', the PyTorch snippets'): each set's runs
    then take one server, where threads that took two snippets of one set at once started a second
    server of it (PyTorch's import: 1.5 s of a core). Without, as many threads as cores."""
    if not _forks():
        with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            return list(pool.map(run, paths))
    sets: dict[tuple[str, ...], list[Path]] = {}
    for path in paths:
        sets.setdefault(tuple(blocked_modules(path)), []).append(path)
    with ThreadPoolExecutor(max_workers=max(1, len(sets))) as pool:
        runs = {r.path: r for done in pool.map(lambda some: [run(p) for p in some], sets.values()) for r in done}
    return [runs[path] for path in paths]


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


# What each recording was made from: a hash of the snippet and of its recording, the files of the
# repository it names (data_files: the language model's weights), and the versions of Python, NumPy
# and PyTorch. A snippet's output depends on nothing else (it runs alone, cannot import selfattn_ref,
# reads no file but those it names, and draws from seeded generators), so `make update` runs only the
# snippets whose entry no longer matches. The tests never use this file: they run every snippet.
# What each recording was made from: beside ``<name>.out``, ``<name>.fingerprint.json`` holds a hash
# of the script, the recording and the modules it runs without, and the versions it ran with. One
# file per recording, so that two contributors who add scripts (or worked examples) touch no file in
# common. ``make update`` writes it with the recording (publish/generate/update.py).
FINGERPRINT_SUFFIX = ".fingerprint.json"
FINGERPRINT_WRITER = (
    "publish.generate.update:plan"  # the name its "_generated_by" key gives (publish.generate.registry)
)


def fingerprint_path(script: Path) -> Path:
    """Where the fingerprint of ``script``'s recording is: beside it, ``<name>.fingerprint.json``."""
    return script.with_name(script.stem + FINGERPRINT_SUFFIX)


def script_of(fingerprint: Path) -> Path:
    """The script a fingerprint file is of."""
    return fingerprint.with_name(fingerprint.name[: -len(FINGERPRINT_SUFFIX)] + ".py")


def versions() -> dict[str, str]:
    """The versions of Python, NumPy and PyTorch, which a recorded result is made with."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("numpy", "torch"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "missing"
    return out


# A path from the repository's root, quoted in a script: "selfattn_ref/language_model.json".
_NAMED = re.compile(r"""["']([\w.-]+(?:/[\w.-]+)+)["']""")


def data_files(code: str) -> list[Path]:
    """The files of the repository that a script's code names by their path from the root, in
    quotes (``WEIGHTS = "selfattn_ref/language_model.json"``): what it reads besides itself, from a
    clone of the repository. Only regular files of the repository reached through no link count."""
    from ..files import unsafe

    found = {ROOT / m for m in _NAMED.findall(code)}
    return sorted(p for p in found if p.is_file() and unsafe(p) is None)


def fingerprint(path: Path, script: str | None = None, recording: str | None = None,
                data: dict[Path, str] | None = None) -> str:  # fmt: skip
    """What a recording was made from: a hash of the snippet, its recording, the files of the
    repository it names (:func:`data_files`) and the modules it runs without. ``script``,
    ``recording`` and ``data`` (a file's path -> its text): texts about to be written (default: on
    disk)."""
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
    for file in data_files(code.decode()):
        text = (data or {}).get(file)
        digest.update(b"\0" + file.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(text.encode() if text is not None else file.read_bytes())
    return digest.hexdigest()


_fingerprint = fingerprint


def fingerprint_text(digest: str) -> str:
    """The text of a fingerprint file: the hash, and the versions this run records with."""
    import json

    data = {"_generated_by": FINGERPRINT_WRITER, "fingerprint": digest, "versions": versions()}
    return json.dumps(data, indent=1) + "\n"


def read_fingerprint(script: Path) -> dict | None:
    """The fingerprint file of ``script`` as {"fingerprint", "versions"}, or None if it has none
    (or one that is not a fingerprint file)."""
    import json

    try:
        data = json.loads(fingerprint_path(script).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("fingerprint"), str):
        return None
    return data


def recorded_fingerprints(scripts: list[Path] | None = None) -> dict[Path, str]:
    """The recorded fingerprint of each script (default: every snippet), whatever the versions."""
    out = {}
    for script in all_snippets() if scripts is None else scripts:
        if data := read_fingerprint(script):
            out[script] = data["fingerprint"]
    return out


def current_fingerprints(scripts: list[Path] | None = None) -> dict[Path, str]:
    """Like :func:`recorded_fingerprints`, but only those made with the versions of this run: a
    recording made with another Python, NumPy or PyTorch is made again."""
    now = versions()
    out = {}
    for script in all_snippets() if scripts is None else scripts:
        if (data := read_fingerprint(script)) and data.get("versions") == now:
            out[script] = data["fingerprint"]
    return out


def recorded_versions() -> dict[str, str] | None:
    """The versions every recording was made with, or None if they differ (or there is none)."""
    found = set()
    for script in all_snippets():
        data = read_fingerprint(script)
        if data and isinstance(data.get("versions"), dict):
            found.add(tuple(sorted(data["versions"].items())))
    return dict(found.pop()) if len(found) == 1 else None


def all_fingerprints() -> list[Path]:
    """Every fingerprint file under snippets/, its script there or not."""
    return sorted(SNIPPETS.rglob("*" + FINGERPRINT_SUFFIX))


def namespace(path: Path) -> dict:
    """Run a snippet in this process (output discarded) and return its globals, to compare
    its results with the reference package."""
    import contextlib
    import io
    import runpy

    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(path), run_name="__main__")
