"""Every path README.md and CONTRIBUTING.md name is a file or folder of the repository, and so is
every path the files that run commands name (the Makefile, CI's, a pre-commit config if there is one).

A path is a word that starts with a top-level folder of the repository (``tests/content/x.py``,
``.github/workflows/ci.yml``, ``docs/generated/``), anywhere in the text, code blocks included,
or a file name in inline code (``worked_examples.py``), which must be some file's name. A
placeholder (``<slug>``, ``*``, the running example ``river_bank``) stands for any name: some file
must match. (``:softmax`` after ``selfattn_ref/attention.py`` is a section of the file, not
part of its name.) What the build or ``make update`` writes into ignored places is named by the registry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from publish import ROOT
from publish.generate import producers, registry

GUIDES = ("README.md", "CONTRIBUTING.md")
COMMANDS = ("Makefile", ".ci/run", ".github/workflows/*.yml", ".pre-commit-config.yaml")
DOCUMENTS = [*GUIDES, *sorted(p.relative_to(ROOT).as_posix() for pattern in COMMANDS for p in ROOT.glob(pattern))]
# The running example of the contributors' guide and of docs/add-an-example.md: a name to replace.
PLACEHOLDERS = ("river_bank",)
IGNORED = {".git", ".venv", "site", "site-offline", "site-zensical", ".cache", "node_modules", "build"}
TOP = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in IGNORED and not p.name.endswith("_cache"))
PATH = re.compile(rf"(?<![\w./<>*-])((?:{'|'.join(map(re.escape, TOP))})/[\w.<>*/-]*)")
FILE_NAME = re.compile(r"^[\w.-]+\.(?:py|md|toml|json|ya?ml|js|css|lock|ipynb|txt)$")


def named_paths(text: str) -> list[str]:
    """Every path the text names, as written (trailing punctuation and a ``:section`` left out)."""
    text = re.sub(r"\w+://\S+", " ", text)  # URLs name no file of the repository
    out = set()
    for m in PATH.findall(text):
        m = m.rstrip(".,;")
        while m.count(">") > m.count("<"):  # the end of a placeholder the path is in: <path relative to docs/>
            m = m[: m.rindex(">")]
        out.add(m)
    return sorted(out)


def named_file_names(text: str) -> list[str]:
    """File names in inline code (a span that is one word; not an ending, such as ``_numpy.py``)."""
    return sorted({m for m in re.findall(r"`([^`\s/]+)`", text) if FILE_NAME.match(m) and not m.startswith("_")})


def _pattern(path: str) -> str:
    for name in PLACEHOLDERS:
        path = path.replace(name, "*")
    return re.sub(r"<[^<>/]*>", "*", path)


def exists(path: str) -> bool:
    pattern = _pattern(path).rstrip("/")
    if "*" not in pattern:
        return (ROOT / pattern).exists() or ROOT / pattern in _written()
    return any(ROOT.glob(pattern)) or any(p.match(pattern) for p in _written())


def _written() -> set[Path]:
    """The files the build or `make update` writes where git does not keep them (the registry's
    gathered files), which a fresh clone does not have yet."""
    producers.load()
    return set(registry.gathered_paths())


def _all_file_names() -> set[str]:
    names = set()
    for top in TOP:
        names |= {p.name for p in (ROOT / top).rglob("*") if p.is_file()}
    return names | {p.name for p in ROOT.iterdir() if p.is_file()} | {p.name for p in _written()}


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_a_guide_or_a_command_file_names_exists(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    paths = named_paths(text)
    assert len(paths) >= 10 or document != "CONTRIBUTING.md", paths
    missing = [p for p in paths if not exists(p)]
    if document in GUIDES:
        names = _all_file_names()
        missing += [f"{n} (no file has this name)" for n in named_file_names(text) if n not in names]
    assert not missing, f"{document} names what the repository does not hold:\n" + "\n".join(missing)


def test_the_check_finds_a_missing_path():
    text = (
        "`tests/test_workflows.py` runs actionlint; see `snippets/<page>/<name>_numpy.py`, "
        "[the page](docs/add-an-example.md), `publish/generate/topics/<topic>.py`, `no_such_tool.py`,\n"
        '```\n--8<-- "snippets/real_numbers/gone_numpy.py:math"\n```\nand https://example.org/tests/x.py.'
    )
    found = named_paths(text)
    assert found == [
        "docs/add-an-example.md",
        "publish/generate/topics/<topic>.py",
        "snippets/<page>/<name>_numpy.py",
        "snippets/real_numbers/gone_numpy.py",
        "tests/test_workflows.py",
    ], found
    missing = [p for p in found if not exists(p)]
    assert missing == ["snippets/real_numbers/gone_numpy.py", "tests/test_workflows.py"], missing
    assert exists("snippets/<page>/<name>_numpy.py") and exists("selfattn_ref/examples/river_bank.toml")
    assert named_file_names(text) == ["no_such_tool.py"] and "no_such_tool.py" not in _all_file_names()
