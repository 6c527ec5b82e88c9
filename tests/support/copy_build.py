"""The copy of the project that four slow tests share (a pytest plugin, loaded by tests/conftest.py),
of two layers: content (the walk-through of docs/add-an-example.md, the strict build's bad links) and
tools (a hostile spec; the modes new-example gives, which tests/tools/test_safe_files.py reads from
the walk-through's Scaffold step, run with the umask 027: walkthrough.SCAFFOLD_UMASK).

One copy of the project, changed as three tests need it, is updated and built with
``mkdocs build --strict`` once per run, instead of once per test (each build of a copy took
some 30 s of one core, and each `make update` in one 5 to 10 s):

- the walk-through (walkthrough.py, judged by tests/content/test_worked_examples.py) runs the
  commands of docs/add-an-example.md in it, as a newcomer would: scaffold an example, edit its spec,
  regenerate, preview (the strict build), test;
- tests/tools/test_hostile_specs.py adds its hostile worked-example spec before the Regenerate
  step, and reads its pages in the built site;
- tests/content/test_site_build.py adds its page of bad links (outside the nav) then too.

The changes touch different files and the build reads them all. The bad links fail the strict
build, with warnings that name their page; MkDocs writes the whole site first (it stops on the
warnings it counted once every page is written), so each test reads its own part, and the two
tests whose build must pass check that every warning names that page and nothing else stopped it:
without the page, the build passes. The tests that use the copy are put in one xdist group as they
are collected, so that one worker makes it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest


def pytest_itemcollected(item):
    """The tests that read copy_build in one xdist group (as tests/conftest.py sets its groups)."""
    if "copy_build" in getattr(item, "fixturenames", ()) and item.config.pluginmanager.hasplugin("xdist"):
        item.add_marker(pytest.mark.xdist_group("copy-build"))


# The page of bad links the copy's build holds (tests/content/test_site_build.py judges it).
BAD_LINKS = {
    "a missing page": "[a page](no-such-page.md)",
    "a missing anchor": "[a section](index.md#no-such-section)",
    "an unrecognized link": "[a folder](real-numbers/)",
    "an absolute link": "[home](/index.md)",
}
LINK_CHECK_PAGE = "zz-link-check.md"  # an extra page, left out of the nav


def link_check_page() -> str:
    lines = "\n".join(f"- {kind}: {link}" for kind, link in BAD_LINKS.items())
    return f"# Link check\n\n{lines}\n"


@dataclass(frozen=True)
class CopyBuild:
    copy: Path  # the copy of the project
    site: Path  # where its strict build wrote the site
    update: subprocess.CompletedProcess  # `python -m publish update` in the copy (the Regenerate step)
    build: subprocess.CompletedProcess  # `mkdocs build --strict` of the copy
    link_page: str  # the page of bad links, under docs/
    walkthrough: object  # walkthrough.Walkthrough: each of the page's commands, as it ran

    @property
    def output(self) -> str:
        return self.build.stdout + self.build.stderr

    def warnings(self) -> list[str]:
        """The build's warnings (only these fail --strict), each with the indented lines under it
        (MkDocs lists the pages left out of the nav on the lines after its WARNING line)."""
        found: list[str] = []
        for line in self.output.splitlines():
            if "WARNING" in line:
                found.append(line)
            elif found and line.startswith(" ") and found[-1] is not None:
                found[-1] += "\n" + line
            elif found:
                found.append(None)  # a line of another kind ends the warning above it
        return [w for w in found if w is not None]

    def other_warnings(self) -> list[str]:
        """The warnings that are not about the page of bad links alone: those that do not name it,
        and those that list pages (one per line under the WARNING line) other than it."""

        def about_the_page(warning: str) -> bool:
            head, *listed = warning.split("\n")
            return all(self.link_page in line for line in listed) if listed else self.link_page in head

        return [w for w in self.warnings() if not about_the_page(w)]

    def strict_abort_only(self) -> bool:
        """Whether the build stopped only because --strict counted warnings (no error, no traceback)."""
        out = self.output
        return bool(re.search(r"Aborted with \d+ warnings in strict mode!", out)) and not re.search(
            r"Traceback|^ERROR", out, re.M
        )


@pytest.fixture(scope="session")
def copy_build(tmp_path_factory) -> CopyBuild:
    """A copy of the project in which the walk-through ran, with the hostile spec
    (zz_hostile.toml) and the page of bad links (docs/zz-link-check.md) added before its
    Regenerate step; then built. Should the walk-through stop early, the copy is still updated and
    built for the other two tests."""
    from hostile_specs import hostile_spec_text
    from walkthrough import run_walkthrough

    from publish.harness.repo_copy import repo_copy, run_in

    copy = repo_copy(tmp_path_factory.mktemp("copy-build"))
    added = []

    def add(copy: Path) -> None:
        (copy / "selfattn_ref/examples/zz_hostile.toml").write_text(hostile_spec_text(), encoding="utf-8")
        (copy / "docs" / LINK_CHECK_PAGE).write_text(link_check_page(), encoding="utf-8")
        added.append(True)

    walkthrough = run_walkthrough(copy, before_regenerate=add)
    if not added:
        add(copy)
    update = walkthrough.run("Regenerate") or run_in(copy, sys.executable, "-m", "publish", "update")
    site = copy / "site"
    build = walkthrough.run("Preview") or run_in(
        copy, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)
    )
    return CopyBuild(copy, site, update, build, LINK_CHECK_PAGE, walkthrough)
