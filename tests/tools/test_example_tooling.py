"""The tooling around worked examples, run in copies of the repository: a bad spec stops the build,
the tests and `make update` with the message the page shows; two examples added on two branches
merge without a conflict (no file is shared by the examples). Moved from
tests/content/test_worked_examples.py, where they were marked tooling."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from publish import ROOT
from publish.generate import example_pages as ep
from publish.generate import registry, scaffold, spec_messages, update
from publish.harness.repo_copy import repo_copy, run_in
from selfattn_ref import examples
from selfattn_ref.cli import EXIT_USAGE


@pytest.fixture(scope="module")
def broken_clone(tmp_path_factory):
    """A copy whose examples include a ragged spec (the case the page shows second)."""
    copy = repo_copy(tmp_path_factory.mktemp("broken"))
    (what, _, files), (_, _, message) = spec_messages.broken()[1], spec_messages.cases()[1]
    assert what == "Ragged embeddings" and list(files) == [spec_messages.NAME]
    (copy / "selfattn_ref/examples" / spec_messages.NAME).write_text(files[spec_messages.NAME], encoding="utf-8")
    return copy, message


def test_a_bad_spec_stops_the_build(broken_clone):
    copy, message = broken_clone
    proc = run_in(copy, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(copy / "site"))
    assert proc.returncode != 0
    assert f"{copy}/{message}" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_a_bad_spec_stops_the_tests(broken_clone):
    copy, message = broken_clone
    proc = run_in(copy, sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/package/test_cli.py")
    assert proc.returncode == pytest.ExitCode.USAGE_ERROR
    assert f"bad worked-example spec: {copy}/{message}" in proc.stderr


def test_a_bad_spec_stops_make_update(broken_clone):
    copy, message = broken_clone
    proc = run_in(copy, sys.executable, "-m", "publish", "update")
    assert proc.returncode == EXIT_USAGE
    assert proc.stderr == f"error: bad worked-example spec: {copy}/{message}\n"


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    config = ["-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=base"]
    return subprocess.run(["git", *config, *args], cwd=repo, capture_output=True, text=True, timeout=60)


def test_two_examples_added_on_two_branches_merge_without_a_conflict(tmp_path, monkeypatch):
    """What `make example` writes for two new examples, each from the same commit, computed as it
    computes it (update.plan, nothing written to the repository): the only files both write are
    the gathered ones, which git ignores; committed on two branches of a git repository holding
    those files as they are now (and .gitignore), the branches merge without a conflict.

    The scripts' runs are stubbed (what a script prints changes no file's name), and the repository
    holds only the files the two examples write, not a copy of the project: the two plans take most
    of its few seconds."""
    from publish.generate import snippets

    monkeypatch.setattr(
        update, "_run_pending", lambda todo, want=None: [snippets.Result(p, f"{p.stem}\n", "", 0) for p, _ in todo]
    )
    writes = {}
    for slug in ("zz_alpha", "zz_beta"):
        path, text, ex = scaffold.prepare(slug)
        only = [ep.snippet_path(slug, lib) for lib in ep.LIBRARIES]
        p = update.plan([*examples.load_all(), ex], only=only, extra={path: text})
        assert not p.removals, p.removals
        writes[slug] = p.writes
    both = set(writes["zz_alpha"]) & set(writes["zz_beta"])
    # only gathered files, which git ignores: the playground's presets and bundle (the language model's
    # gathered files depend on no example)
    assert both <= set(registry.gathered_paths()) and len(both) == 2, sorted(registry.relative(p) for p in both)

    repo = tmp_path / "repo"
    for path in {*writes["zz_alpha"], *writes["zz_beta"], ROOT / ".gitignore"}:
        if path.is_file():
            (repo / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, repo / path.relative_to(ROOT))
    repo.mkdir(exist_ok=True)
    assert _git(repo, "init", "-q").returncode == 0
    for command in (("add", "-A"), ("commit", "-q", "-m", "base")):
        assert _git(repo, *command).returncode == 0
    for slug in ("zz_alpha", "zz_beta"):
        assert _git(repo, "checkout", "-q", "-b", slug, "base").returncode == 0
        for path, text in writes[slug].items():
            (repo / path.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            (repo / path.relative_to(ROOT)).write_text(text, encoding="utf-8")
        for command in (("add", "-A"), ("commit", "-q", "-m", f"Add {slug}")):
            assert _git(repo, *command).returncode == 0
    merge = _git(repo, "merge", "-q", "--no-edit", "zz_alpha")
    assert merge.returncode == 0, merge.stdout + merge.stderr + _git(repo, "diff", "--name-only").stdout
    tracked = set(_git(repo, "ls-files").stdout.split())
    assert {"selfattn_ref/examples/zz_alpha.toml", "selfattn_ref/examples/zz_beta.toml"} <= tracked
    assert not {registry.relative(p) for p in registry.gathered_paths()} & tracked
