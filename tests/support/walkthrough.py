"""The walk-through of docs/add-an-example.md, run as a newcomer would run it in a copy of the
repository (publish/harness/repo_copy.py): its commands, in order, each recorded. The copy's build is
shared (copy_build.py); tests/content/test_worked_examples.py judges what the walk-through gave."""

from __future__ import annotations

import re
import shlex
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from publish import DOCS, ROOT
from publish.generate import producers, registry
from publish.harness.repo_copy import run_in

WALKTHROUGH = DOCS / "add-an-example.md"


def walkthrough() -> tuple[list[tuple[str, str]], str]:
    """(the shell commands of the page in order, as (title, command)), and the spec it shows."""
    text = WALKTHROUGH.read_text(encoding="utf-8")
    blocks = re.findall(r'^```(\w+) title="([^"]+)"\n(.*?)^```', text, re.S | re.M)
    commands = [(title, body.strip()) for lang, title, body in blocks if lang == "bash"]
    specs = [body for lang, title, body in blocks if lang == "toml"]
    assert len(specs) == 1, "the page shows one spec file"
    return commands, specs[0]


# The tests that cover a worked example (their ids name its slug, or they check every example);
# the built-site ones need a second build of the copy (the strict_build fixture builds the site
# again: 30 s of a core), so the walk-through makes their checks on its own build, the Preview
# step's (test_the_walkthrough_adds_a_checked_page).
BUILT_SITE_TESTS = [
    "tests/content/test_worked_examples.py::test_built_page_is_in_the_nav_and_shows_the_references_weights",
    "tests/content/test_worked_examples.py::test_the_gallery_lists_every_example_in_the_nav",
]
WALKTHROUGH_TESTS = [
    "tests/snippets/test_examples.py",
    "tests/snippets/test_recordings.py",
    "tests/content/test_docs_numbers.py",
    "tests/content/test_docs_codeblocks.py",
    "tests/content/test_playground_presets.py",
    "tests/content/test_worked_examples.py",
    *(arg for test in BUILT_SITE_TESTS for arg in ("--deselect", test)),
]


@dataclass
class Walkthrough:
    """What running the walk-through's commands in a copy gave (run_walkthrough)."""

    commands: list[tuple[str, str]]  # the page's shell commands, (title, command)
    spec: str  # the spec file the page shows
    ran: list[tuple[str, list[str], subprocess.CompletedProcess]] = field(default_factory=list)  # (title, args, run)
    slug: str | None = None  # the example the Scaffold step made
    gathered: list[Path] = field(default_factory=list)  # the copy's gathered files
    after_scaffold: dict[Path, str | None] = field(default_factory=dict)  # their text right after it
    again: subprocess.CompletedProcess | None = None  # `python -m publish update` right after it
    modes: dict[str, int] = field(default_factory=dict)  # MODED files' permission bits right after it

    def run(self, title: str) -> subprocess.CompletedProcess | None:
        return next((proc for t, _, proc in self.ran if t == title), None)


# The Scaffold step runs under the umask 027, the gallery's mode set to 0664 before it, so that
# tests/tools/test_safe_files.py reads the modes of the files it writes (a new file gets 0666 less
# the umask, a rewritten one keeps its mode) from this run instead of scaffolding an example of its own.
SCAFFOLD_UMASK = 0o027
GALLERY_MODE = 0o664
MODED = ["docs/examples/index.md", "selfattn_ref/examples/{slug}.toml", "docs/examples/{slug}.md",
         "snippets/examples/{slug}_numpy.py", "snippets/examples/{slug}_numpy.out"]  # fmt: skip


def remove_example(copy: Path, slug: str) -> None:
    """The files of the worked example ``slug`` (its spec and what ``make update`` wrote from it:
    publish/generate/example_pages.py's list) removed from ``copy``, if it has them."""
    import shutil

    for pattern in (f"selfattn_ref/examples/{slug}.toml", f"docs/examples/{slug}.md", f"snippets/examples/{slug}_*",
                    f"docs/notebooks/examples/{slug}.ipynb"):  # fmt: skip
        for path in copy.glob(pattern):
            path.unlink()
    shutil.rmtree(copy / "docs" / "generated" / slug, ignore_errors=True)


def run_walkthrough(copy: Path, before_regenerate=lambda copy: None) -> Walkthrough:
    """The commands of docs/add-an-example.md, run as a newcomer would in ``copy`` (a fresh clone:
    the gathered files are removed, as git ignores them), each recorded; it stops at the first
    command that fails, but for the strict build, whose outcome the tests judge. Between the edit
    of the spec and the Regenerate step, ``before_regenerate(copy)`` may add to the copy (the
    other tests that share its build, tests/support/copy_build.py)."""
    commands, spec = walkthrough()
    w = Walkthrough(commands, spec)
    producers.load()
    w.gathered = [copy / p.relative_to(ROOT) for p in registry.gathered_paths()]
    for path in w.gathered:  # as a fresh clone has them: not at all (git ignores them)
        path.unlink(missing_ok=True)
    for title, command in commands:  # a contributor's own example of the page's name (river_bank, the
        args = shlex.split(command)  # name CONTRIBUTING suggests) is not in the newcomer's clone
        if title == "Scaffold" and "new-example" in args:
            remove_example(copy, args[args.index("new-example") + 1])
    for title, command in commands:
        args = shlex.split(command)
        if title == "Regenerate":
            before_regenerate(copy)
        if title == "Preview":  # `make serve`: what it serves is the strict build of the site
            proc = run_in(copy, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(copy / "site"))
        elif title == "Scaffold":  # with the umask 027 (SCAFFOLD_UMASK)
            (copy / MODED[0]).chmod(GALLERY_MODE)
            umask = f'umask {SCAFFOLD_UMASK:03o} && exec "$0" "$@"'
            proc = run_in(copy, "sh", "-c", umask, sys.executable, *args[1:])
        elif title == "Test":  # `make test`: the tests that cover a worked example, for this one
            proc = run_in(copy, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                          "-k", str(w.slug), *WALKTHROUGH_TESTS)  # fmt: skip
        else:
            proc = run_in(copy, sys.executable, *args[1:])
        w.ran.append((title, args, proc))
        if proc.returncode != 0 and title != "Preview":
            break
        if title == "Scaffold":
            w.slug = args[args.index("new-example") + 1] if "new-example" in args else None
            w.after_scaffold = {p: p.read_text(encoding="utf-8") if p.is_file() else None for p in w.gathered}
            named = [rel.format(slug=w.slug) for rel in MODED]
            w.modes = {rel: stat.S_IMODE((copy / rel).stat().st_mode) for rel in named if (copy / rel).exists()}
            w.again = run_in(copy, sys.executable, "-m", "publish", "update")
            (copy / "selfattn_ref" / "examples" / f"{w.slug}.toml").write_text(spec, encoding="utf-8")  # step 2
    return w
