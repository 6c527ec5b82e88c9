"""The tools write and remove only files of their own tree, never through a symbolic link, and keep
file modes (issue 27, items 2 and 3): :func:`publish.files.unsafe` decides for every writer and
remover of publish/, and ``make update`` and ``new-example`` report what it refuses."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import walkthrough
from hostile_specs import tree

from publish import ROOT
from publish.files import UnsafePath, atomic_write, remove, unsafe
from publish.generate import producers, registry
from publish.harness.repo_copy import repo_copy, run_in
from selfattn_ref._validate import excerpt
from selfattn_ref.cli import EXIT_USAGE


@pytest.fixture
def trees(tmp_path):
    """(root, outside): a tool's tree and a folder beside it, each with a file."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    for folder in (root / "gen" / "a", outside):
        folder.mkdir(parents=True)
    (root / "gen" / "a" / "t.md").write_text("ours\n", encoding="utf-8")
    (outside / "t.md").write_text("theirs\n", encoding="utf-8")
    return root, outside


def test_files_of_the_tree_are_safe(trees):
    root, _ = trees
    assert unsafe(root / "gen/a/t.md", root) is None
    assert unsafe(root / "gen/new/deeper/x.md", root) is None  # not there yet: created where it is
    assert unsafe(root / "gen/./a/t.md", root) is None


def test_a_root_reached_through_a_link_is_still_the_root(trees, tmp_path):
    root, _ = trees
    (tmp_path / "alias").symlink_to(root)
    assert unsafe(tmp_path / "alias/gen/a/t.md", tmp_path / "alias") is None
    assert unsafe(root / "gen/a/t.md", tmp_path / "alias") is None  # the real path of the same tree
    # but a path through a link that is not the root's own way in is refused, even to the same file
    assert "alias/gen/a/t.md is outside" in unsafe(tmp_path / "alias/gen/a/t.md", root)


def _links(root: Path, outside: Path) -> dict[str, tuple[Path, str]]:
    """Every way out: {case: (the path a tool is asked to write, what the refusal names)}."""
    (root / "gen/out").symlink_to(outside)  # a folder that leads out
    (root / "gen/back").symlink_to(root / "gen/a")  # a folder that leads back in: still a link
    (root / "gen/a/file_out.md").symlink_to(outside / "t.md")
    (root / "gen/a/file_in.md").symlink_to(root / "gen/a/t.md")
    (root / "gen/a/dangling.md").symlink_to(outside / "nothing.md")
    (root / "gen/dir_out").symlink_to(outside, target_is_directory=True)
    (root / "gen/a/folder").mkdir()
    os.mkfifo(root / "gen/a/fifo")
    return {
        "folder out": (root / "gen/out/t.md", "gen/out is a symbolic link"),
        "folder out, a new file": (root / "gen/out/new/x.md", "gen/out is a symbolic link"),
        "folder back in": (root / "gen/back/t.md", "gen/back is a symbolic link"),
        "file out": (root / "gen/a/file_out.md", "gen/a/file_out.md is a symbolic link"),
        "file in": (root / "gen/a/file_in.md", "gen/a/file_in.md is a symbolic link"),
        "dangling": (root / "gen/a/dangling.md", "gen/a/dangling.md is a symbolic link"),
        "dotdot": (root / "gen/a/../../../outside/t.md", "is outside"),
        "absolute": (outside / "t.md", "is outside"),
        "dotdot through a link": (root / "gen/dir_out/../root/gen/a/t.md", "gen/dir_out is a symbolic link"),
        "a folder": (root / "gen/a/folder", "is not a regular file"),
        "a fifo": (root / "gen/a/fifo", "is not a regular file"),
        "the root": (root, "is the folder"),
    }


def test_every_way_out_is_refused_with_its_reason(trees):
    root, outside = trees
    for case, (path, reason) in _links(root, outside).items():
        problem = unsafe(path, root)
        assert problem is not None and reason in problem, (case, problem)


def test_writing_and_removing_refuse_what_unsafe_refuses_and_touch_nothing(trees, tmp_path):
    root, outside = trees
    cases = _links(root, outside)

    def snapshot():
        return {p: (p.read_bytes() if p.is_file() else None, os.lstat(p).st_mode) for p in sorted(tmp_path.rglob("*"))}

    before = snapshot()
    for case, (path, reason) in cases.items():
        for act in (lambda p: atomic_write(p, "new\n", root), lambda p: remove(p, root)):
            with pytest.raises(UnsafePath, match=reason.replace(".", r"\.").replace("(", r"\(")) as info:
                act(path)
            assert str(info.value).startswith("not writing or removing "), (case, str(info.value))
    assert snapshot() == before
    assert (outside / "t.md").read_text(encoding="utf-8") == "theirs\n"


def test_written_files_keep_their_mode_or_get_the_umasks(tmp_path):
    """Not mkstemp's 0600: an existing file keeps its mode (0644, 0664, 0755), a new one gets
    0666 less the umask, whatever the umask is."""
    old = os.umask(0o027)
    try:
        for mode in (0o644, 0o664, 0o755, 0o600):
            path = tmp_path / f"kept_{mode:o}"
            path.write_text("old\n", encoding="utf-8")
            path.chmod(mode)
            atomic_write(path, "new\n", tmp_path)
            assert (path.read_text(encoding="utf-8"), stat.S_IMODE(path.stat().st_mode)) == ("new\n", mode)
        for umask in (0o022, 0o002, 0o077, 0o027):
            os.umask(umask)
            path = tmp_path / f"new_{umask:o}" / "file.md"
            atomic_write(path, b"bytes\n", tmp_path)
            assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, oct(umask)
    finally:
        os.umask(old)
    assert not [p for p in tmp_path.rglob("*.tmp")]


# --- the commands, in a copy of the repository ---------------------------------------------------


@pytest.mark.slow
def test_update_leaves_files_it_did_not_write_and_follows_no_link(tmp_path):
    """`update` leaves the files of generated folders that it did not write (no banner), removes a
    file it wrote that it no longer produces, and leaves a symbolic link in a generated folder alone
    (a bannered file behind it is not removed); the up-to-date test lists what it left alone. One
    copy and one run of update for both cases (each took 10 s of a core; the first was
    tests/tools/test_hostile_specs.py's test_update_leaves_files_it_did_not_write)."""
    copy = repo_copy(tmp_path)
    mine = {
        "docs/examples/my_notes.md": "# My notes\n",
        "docs/notebooks/mine.ipynb": json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
        "docs/notebooks/examples/mine.ipynb": json.dumps({"cells": [], "metadata": {}}),
        "docs/generated/the_cat_sat/my_table.md": "| a |\n|---|\n| 1 |\n",
        "snippets/examples/stray.out": "my output\n",
    }
    for rel, text in mine.items():
        (copy / rel).write_text(text, encoding="utf-8")
    old_table = "docs/generated/the_cat_sat/old_table.md"  # a table we wrote once, no longer produced
    (copy / old_table).write_text(
        registry.banner("publish.generate.tables:example_files", "md") + "\n\n| a |\n", encoding="utf-8"
    )
    outside = tmp_path / "outside"
    outside.mkdir()
    bannered = registry.banner("publish.generate.tables:example_files", "md") + "\n\n| a |\n"
    (outside / "old.md").write_text(bannered, encoding="utf-8")
    (outside / "notebook.ipynb").write_text("{}", encoding="utf-8")
    (copy / "docs/generated/zz").symlink_to(outside)
    (copy / "docs/examples/zz_link.md").symlink_to(outside / "old.md")
    before, outside_before = tree(copy), tree(outside)
    proc = run_in(copy, sys.executable, "-m", "publish", "update")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for rel, text in mine.items():
        assert (copy / rel).read_text(encoding="utf-8") == text, rel
        assert f"left alone {rel} (not written by `make update`)" in out, out
    assert "left alone docs/generated/zz/old.md (docs/generated/zz is a symbolic link (to " in out, out
    assert "left alone docs/examples/zz_link.md (docs/examples/zz_link.md is a symbolic link (to " in out, out
    assert [line for line in out.splitlines() if "removed" in line] == [f"removed {old_table}"], out
    assert not (copy / old_table).exists()
    assert out.rstrip().splitlines()[-2:] == [
        f"{len(mine)} file(s) in generated folders were not written by `make update` and were left alone",
        "2 file(s) reached through a symbolic link or outside the repository were left alone",
    ], out
    assert tree(outside) == outside_before
    # The gathered files (git ignores them) are update's to write, there or not before.
    producers.load()
    gathered = {p.relative_to(ROOT).as_posix() for p in registry.gathered_paths()}
    after = tree(copy)
    assert gathered and gathered <= set(after), sorted(gathered)
    assert {k: v for k, v in before.items() if k != old_table and k not in gathered} == {
        k: v for k, v in after.items() if k not in gathered
    }
    # The up-to-date test lists what update left alone: the tree is not what update would make it.
    listed = (
        "from publish.generate.update import ROOT, stale_generated as s; [print(p.relative_to(ROOT)) for p in s()[1]]"
    )
    proc = run_in(copy, sys.executable, "-c", listed)
    assert proc.returncode == 0, proc.stderr
    assert {"docs/generated/zz/old.md", "docs/examples/zz_link.md"} <= set(proc.stdout.split()), proc.stdout


@pytest.mark.slow
def test_update_and_new_example_stop_before_writing_behind_a_link(tmp_path):
    """`update` stops before writing anything when a file it must write is behind a link, and so
    does new-example when the page it would write is one (the modes it writes: the test below)."""
    copy = repo_copy(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()

    # A file update must write, behind a link: nothing is written, the target is untouched.
    table = copy / "docs/generated/the_cat_sat/weights.md"
    (outside / "weights.md").write_text(table.read_text(encoding="utf-8"), encoding="utf-8")
    table.unlink()
    table.symlink_to(outside / "weights.md")
    spec = copy / "selfattn_ref/examples/the_cat_sat.toml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("[1, 1, 1, 1],  # sat", "[1, 1, 1, 2],  # sat"),
                    encoding="utf-8")  # fmt: skip
    before, outside_before = tree(copy), tree(outside)
    proc = run_in(copy, sys.executable, "-m", "publish", "update")
    assert proc.returncode == EXIT_USAGE, proc.stdout + proc.stderr
    assert proc.stderr == (
        "error: cannot write docs/generated/the_cat_sat/weights.md: docs/generated/the_cat_sat/weights.md is a "
        f"symbolic link (to {excerpt(str(outside / 'weights.md'))}), the file: not followed. Nothing was written.\n"
    ), proc.stderr
    assert tree(copy) == before and tree(outside) == outside_before
    spec.write_text(spec.read_text(encoding="utf-8").replace("[1, 1, 1, 2],  # sat", "[1, 1, 1, 1],  # sat"),
                    encoding="utf-8")  # fmt: skip
    table.unlink()
    table.write_text((outside / "weights.md").read_text(encoding="utf-8"), encoding="utf-8")

    # new-example: the page it would write is a link (dangling, to outside): refused, nothing written.
    (copy / "docs/examples/zz_dangling.md").symlink_to(outside / "page.md")
    before = tree(copy)
    proc = run_in(copy, sys.executable, "-m", "publish", "new-example", "zz_dangling")
    assert proc.returncode == EXIT_USAGE, proc.stdout + proc.stderr
    assert proc.stderr.startswith(
        "error: cannot write docs/examples/zz_dangling.md: docs/examples/zz_dangling.md is a symbolic link"
    ), proc.stderr
    assert tree(copy) == before and not (outside / "page.md").exists()


@pytest.mark.slow
def test_new_example_writes_new_files_with_the_umasks_mode_and_keeps_the_others(copy_build):
    """new-example writes new files with the umask's mode and keeps the mode of those it rewrites:
    the walk-through's Scaffold step (tests/support/walkthrough.py), run with the umask 027 after the
    gallery was given 0664 (one new example for both: a scaffold of its own took 10 s of a core)."""
    w = copy_build.walkthrough
    assert w.run("Scaffold") is not None and w.run("Scaffold").returncode == 0, w.run("Scaffold")
    assert (walkthrough.SCAFFOLD_UMASK, walkthrough.GALLERY_MODE) == (0o027, 0o664)
    slug = w.slug
    assert w.modes == {
        "docs/examples/index.md": 0o664,
        f"selfattn_ref/examples/{slug}.toml": 0o640,
        f"docs/examples/{slug}.md": 0o640,
        f"snippets/examples/{slug}_numpy.py": 0o640,
        f"snippets/examples/{slug}_numpy.out": 0o640,
    }, {k: oct(v) for k, v in w.modes.items()}
