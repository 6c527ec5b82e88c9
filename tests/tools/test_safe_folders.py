"""A build, its caches and the tools read, write and delete only in the repository (or the system's
temporary folder), never through a symbolic link (issue 51, severe 2, 3 and 4): a symlinked
``site/`` had `make build` empty the link's target, a symlinked ``.cache/`` had the KaTeX fonts
written outside the repository (and a symlinked ``.cache/katex-fonts`` a raw traceback), and a page
or spec that is a link to /proc/self/environ was read and printed. :mod:`publish.files` decides
(:func:`~publish.files.unsafe_folder`, :func:`~publish.files.unsafe_sources`); the checking functions
are tested here on trees of their own, and each entry point once (the build here, `make update` in
test_hostile_specs.py's copy, `explain` in tests/package/test_cli.py, `make build` and `make
offline` in test_make_targets.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from publish import ROOT
from publish.files import (
    BUILDING,
    UnsafePath,
    UnsafeRead,
    check_folder,
    check_sources,
    named,
    read_text,
    unsafe_folder,
    unsafe_sources,
)
from publish.harness.notebook_cache import Cache
from publish.mkdocs import worked_examples
from publish.mkdocs.page_weight import katex_fonts
from selfattn_ref import examples
from selfattn_ref._validate import excerpt


@pytest.fixture
def tree(tmp_path):
    """(root, outside): a repository (a page, a spec) and a folder beside it with a file to keep."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "docs").mkdir(parents=True)
    (root / "docs/page.md").write_text("# Page\n", encoding="utf-8")
    (root / "selfattn_ref/examples").mkdir(parents=True)
    outside.mkdir()
    (outside / "keep.txt").write_text("theirs\n", encoding="utf-8")
    return root, outside


def test_an_output_folder_or_cache_is_a_folder_of_the_repository_reached_through_no_link(tree):
    root, outside = tree
    (root / "site").symlink_to(outside)
    (root / ".cache").mkdir()
    (root / ".cache/katex-fonts").symlink_to(outside)
    (root / "linked-cache").symlink_to(root / ".cache")
    (root / "a-file").write_text("x", encoding="utf-8")
    allowed = [root / "new-site", root / ".cache/notebooks", root / "deep/er/site"]
    assert [unsafe_folder(p, root, temp=None) for p in allowed] == [None] * len(allowed)
    refused = {
        root / "site": "site is a symbolic link (to ",
        root / "site/sub": "site is a symbolic link (to ",
        root / ".cache/katex-fonts": ".cache/katex-fonts is a symbolic link (to ",
        root / "linked-cache/katex-fonts": "linked-cache is a symbolic link (to ",
        root / "a-file": "a-file is not a folder",
        root: "is the folder",
        root / "docs": "docs is a folder of the project's own files (docs/)",
        root / "docs/site": "docs/site is a folder of the project's own files (docs/)",
        root / "selfattn_ref": "selfattn_ref is a folder of the project's own files",
        root / "docs/../../outside": "is outside",
        Path("/nonexistent-folder-of-the-test/site"): "is outside",
    }
    for path, reason in refused.items():
        problem = unsafe_folder(path, root, temp=None)  # (the test's tree is in the temporary folder)
        assert problem is not None and reason in problem, (path, problem)
        if "symbolic link" in reason:
            with pytest.raises(UnsafePath, match="A build and its caches write only into folders of the repository"):
                check_folder(path, "the output folder", root)
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "theirs\n"


def test_a_folder_of_the_temporary_folder_is_allowed_but_not_that_folder_nor_a_link_there(tmp_path):
    """Where `mkdocs serve` builds (a folder it makes in the temporary folder), and the tests."""
    temp = Path(tempfile.gettempdir())
    assert tmp_path.is_relative_to(temp) or Path(os.path.realpath(tmp_path)).is_relative_to(os.path.realpath(temp))
    assert unsafe_folder(tmp_path / "site", ROOT) is None
    assert "itself" in unsafe_folder(temp, ROOT)
    (tmp_path / "link").symlink_to(ROOT / "docs")
    assert "link is a symbolic link" in unsafe_folder(tmp_path / "link", ROOT)
    assert "link is a symbolic link" in unsafe_folder(tmp_path / "link/sub", ROOT)


def test_the_sources_hold_no_link_and_no_fifo(tree):
    root, outside = tree
    assert unsafe_sources(root) == []
    (root / "docs/env.md").symlink_to("/proc/self/environ")
    (root / "docs/inside.md").symlink_to(root / "docs/page.md")
    (root / "selfattn_ref/examples/fifo.toml").parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(root / "selfattn_ref/examples/fifo.toml")
    (root / "snippets").symlink_to(outside)
    assert unsafe_sources(root) == [
        "docs/env.md is a symbolic link (to '/proc/self/environ'): not read",
        f"docs/inside.md is a symbolic link (to {excerpt(str(root / 'docs/page.md'))}): not read",
        "selfattn_ref/examples/fifo.toml is not a regular file: not read",
        f"snippets is a symbolic link (to {excerpt(str(outside))}): not read",
    ]
    assert unsafe_sources(root, reported=lambda p: p.name == "inside.md")[1].startswith("selfattn_ref")
    with pytest.raises(UnsafeRead, match="not read: docs/env.md is a symbolic link"):
        read_text(root / "docs/env.md", root)
    with pytest.raises(UnsafeRead, match="not read: selfattn_ref/examples/fifo.toml is not a regular file"):
        read_text(root / "selfattn_ref/examples/fifo.toml", root)  # refused, not waited on
    assert read_text(root / "docs/page.md", root) == "# Page\n"


def test_a_file_named_in_another_case_is_named_not_left_out(tree):
    root, _ = tree
    (root / "docs/a.toml").write_text("", encoding="utf-8")
    assert named(root / "docs", ".toml") == [root / "docs/a.toml"]
    (root / "docs/b.TOML").write_text("", encoding="utf-8")
    with pytest.raises(UnsafeRead, match=r"b\.TOML: the file's name ends in '\.toml', in lower case: rename it b"):
        named(root / "docs", ".toml")


def test_the_katex_font_cache_is_checked_against_the_repository(tree, monkeypatch):
    """It was checked against .cache itself: a symlinked .cache had the fonts written outside."""
    root, outside = tree
    monkeypatch.setattr(katex_fonts, "ROOT", root)
    monkeypatch.delenv(katex_fonts.CACHE_DIR_ENV, raising=False)
    (root / ".cache").symlink_to(outside)
    with pytest.raises(UnsafePath, match=r"\.cache is a symbolic link .*a folder on the way"):
        katex_fonts.cached_subset(b"font", {"a"}, "x.woff2", root / ".cache/katex-fonts")
    (root / ".cache").unlink()
    (root / ".cache").mkdir()
    (root / ".cache/katex-fonts").symlink_to(outside)
    with pytest.raises(UnsafePath, match=r"\.cache/katex-fonts is a symbolic link .*the folder: not followed"):
        katex_fonts.check_cache(root / ".cache/katex-fonts")
    # KATEX_FONTS_CACHE_DIR: the folder its user chose (a copy of the repository shares the original's), not a link
    given = outside / "fonts"
    monkeypatch.setenv(katex_fonts.CACHE_DIR_ENV, str(given))
    assert katex_fonts.check_cache(given) == given
    given.symlink_to(outside)
    with pytest.raises(UnsafePath, match="fonts is a symbolic link"):
        katex_fonts.check_cache(given)
    assert sorted(p.name for p in outside.iterdir()) == ["fonts", "keep.txt"]


def test_a_cache_entry_that_is_a_link_is_not_read(tmp_path, monkeypatch):
    folder = tmp_path / "fonts"
    folder.mkdir()
    monkeypatch.setenv(katex_fonts.CACHE_DIR_ENV, str(folder))
    (tmp_path / "secret").write_bytes(b"not a font")
    (folder / f"{katex_fonts.cache_key(b'font', {'a'})}.woff2").symlink_to(tmp_path / "secret")
    with pytest.raises(UnsafeRead, match=r"\.woff2 is a symbolic link"):
        katex_fonts.cached_subset(b"font", {"a"}, "x.woff2", folder)


def test_the_notebook_cache_follows_no_link(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "cache").symlink_to(tmp_path / "real")
    notebook = tmp_path / "n.ipynb"
    notebook.write_text("{}", encoding="utf-8")
    with pytest.raises(UnsafePath, match="the notebooks' cache .*cache is a symbolic link"):
        Cache(tmp_path / "cache").lookup(notebook)


def test_a_build_refuses_a_linked_output_folder_before_it_empties_it(tmp_path):
    """`mkdocs build -d <link>` (as `make build` with a symlinked site/): one message, no traceback,
    and the link's target keeps its files. And a KaTeX fonts' cache that is a link, the same."""
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep.txt").write_text("theirs\n", encoding="utf-8")
    (tmp_path / "site").symlink_to(target)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    cases = [
        (["-d", str(tmp_path / "site")], env, "the output folder (site_dir, --site-dir) "),
        (["-d", str(tmp_path / "new-site")], {**env, katex_fonts.CACHE_DIR_ENV: str(tmp_path / "site")},
         "the KaTeX fonts' cache "),
    ]  # fmt: skip
    for args, environ, what in cases:
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", *args]
        proc = subprocess.run(cmd, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0 and "Traceback" not in out, out
        errors = [line for line in out.splitlines() if line.startswith("ERROR")]
        assert len(errors) == 1 and what in errors[0] and "site is a symbolic link (to " in errors[0], out
        assert sorted(p.name for p in target.iterdir()) == ["keep.txt"]
    assert not (tmp_path / "new-site").exists()


def test_a_build_empties_only_a_folder_that_is_new_empty_or_an_earlier_build(tmp_path):
    """MkDocs empties its output folder: `mkdocs build -d .venv` (or -d notes, or -d /tmp/theirs)
    passed every check and deleted the folder's files (adversarial run of issue 51)."""
    config = {"config_file_path": str(ROOT / "mkdocs.yml")}
    kept = {".venv": "pyvenv.cfg", "notes": "draft.md", "built": "404.html", "built2": "sitemap.xml"}
    for folder, name in kept.items():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_text("theirs\n", encoding="utf-8")
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden/.keep").write_text("", encoding="utf-8")
    for folder in ("built", "built2", "hidden", "new", "empty"):
        (tmp_path / "empty").mkdir(exist_ok=True)
        site = tmp_path / folder
        assert worked_examples.check_folders(_Config(config, site)) is None, folder
    for folder in (".venv", "notes"):
        with pytest.raises(PluginError, match=r"holds files no build made \(such as '(pyvenv\.cfg|draft\.md)'\)"):
            worked_examples.check_folders(_Config(config, tmp_path / folder))
        assert (tmp_path / folder / kept[folder]).read_text(encoding="utf-8") == "theirs\n"
    assert unsafe_folder(tmp_path / "notes", ROOT) is None  # a cache's folder may hold its own files


def test_a_build_stopped_half_way_leaves_a_folder_the_next_build_empties(tmp_path, monkeypatch):
    """MkDocs empties its output folder and copies the static files (assets/) before it writes
    404.html and sitemap.xml: a build stopped in between (Ctrl-C) left a folder that every later
    build refused as someone's files. The build marks its folder while it is under way."""
    config = _Config({"config_file_path": str(ROOT / "mkdocs.yml")}, tmp_path / "site")
    config.config_file_path = config["config_file_path"]

    def stop(*_):  # the build stops right after on_config's checks
        raise examples.SpecError("stopped here")

    monkeypatch.setattr(worked_examples.examples, "load_all", stop)
    with pytest.raises(PluginError, match="stopped here"):
        worked_examples.on_config(config)
    assert (tmp_path / "site" / BUILDING).is_file()  # marked, once the folder passed its checks
    (tmp_path / "site/assets").mkdir()
    (tmp_path / "site/assets/extra.css").write_text("a half-copied build\n", encoding="utf-8")
    assert worked_examples.check_folders(config) is None  # stopped here: the next build may empty it
    worked_examples.on_post_build(config)  # a build that ends removes the mark ...
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["assets"]
    with pytest.raises(PluginError, match=r"holds files no build made \(such as 'assets'\)"):
        worked_examples.check_folders(config)  # ... and without it (nor 404.html) the folder is someone's
    (tmp_path / "site" / BUILDING).symlink_to(tmp_path / "site/assets/extra.css")
    with pytest.raises(PluginError, match=r"holds files no build made"):
        worked_examples.check_folders(config)  # a link named as the mark is no mark


class _Config(dict):
    """What check_folders reads of MkDocs' config: site_dir, and config_file_path (the KaTeX cache)."""

    def __init__(self, config, site_dir):
        super().__init__(config)
        self.site_dir = str(site_dir)


def test_no_file_of_the_repository_a_page_can_include_is_a_link(tree, tmp_path):
    """A page's `--8<-- "tests/env.txt"` (pymdownx.snippets reads any file of the repository) read a
    link tests/env.txt -> /proc/self/environ and put the environment in the built page: only docs/,
    snippets/, the specs and overrides/ were checked (adversarial run of issue 51, severe class 3)."""
    root, outside = tree
    check_sources(root)
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (root / ".venv").symlink_to(venv)  # a linked virtual environment, and the tools' own links
    (root / ".cache/bench/node_modules/.bin").mkdir(parents=True)
    (root / ".cache/bench/node_modules/.bin/lighthouse").symlink_to(outside / "keep.txt")
    (root / "tests/sub").mkdir(parents=True)
    check_sources(root)
    (root / "tests/sub/env.txt").symlink_to("/proc/self/environ")
    os.mkfifo(root / "fifo")
    with pytest.raises(UnsafeRead, match=r"^fifo is not a regular file: not read \(and 1 more\)"):
        check_sources(root)
    (root / "fifo").unlink()
    with pytest.raises(UnsafeRead, match=r"^tests/sub/env.txt is a symbolic link \(to '/proc/self/environ'\)"):
        check_sources(root)


def test_an_include_of_a_file_not_in_the_repository_names_the_page_line_and_path():
    """`--8<-- "/etc/passwd"` on a page: pymdownx.snippets refused it (restrict_base_path), but the
    build stopped with a traceback; a typo in a path too. Now one PluginError names page, line and path
    and says what an include names; an include of a file of the repository passes, as does an escaped one."""
    from types import SimpleNamespace

    def page(text):
        return SimpleNamespace(file=SimpleNamespace(src_uri="glossary.md", content_string=text))

    fine = '# T\n\n--8<-- "docs/generated/next_word/playground.md"\n;--8<-- "/etc/passwd"\n'
    assert worked_examples.on_page_markdown("md", page(fine), None, None) == "md"
    for target, says in [
        ("/etc/passwd", "a file outside the repository"),
        ("../../etc/passwd", "a file outside the repository"),
        ("docs/generated/no_such.md", "no file of the repository"),
    ]:
        text = f'---\ntitle: T\n---\n# T\n\n!!! tip\n    --8<-- "{target}"\n'
        with pytest.raises(PluginError) as caught:
            worked_examples.on_page_markdown("md", page(text), None, None)
        message = str(caught.value)
        assert message.startswith(f"glossary.md, line 7: --8<-- '{target}' includes {says}"), message
        assert message.endswith("(docs/generated/..., snippets/...)"), message
