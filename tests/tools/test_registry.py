"""The registry of generated files (publish/generate/registry.py): every generated file names the function
that wrote it, that function is registered, `make update` and the build read the registry, and no
module of `publish` or `selfattn_ref` imports itself through a circle of imports; the folders of
publish/ import one another as the layout says (who runs the code: every build, MkDocs only, the
tests only)."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

from publish import ROOT
from publish.generate import producers, registry, update
from selfattn_ref import examples

PACKAGES = ("publish", "selfattn_ref")


# --- import circles ------------------------------------------------------------------------------


def module_names(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package is its __init__.py)."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``name`` imports anywhere (top level or inside a function)."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            # `from x import y` imports the module x.y when there is one, else the name y of x
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` of a non-module: its module
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def circles(root: Path, packages: tuple[str, ...]) -> list[list[str]]:
    """Every circle of imports, each as the modules in order (the strongly connected components
    of the import graph with more than one module)."""
    known = module_names(root, packages)
    graph = {name: sorted(imports_of(name, path, known)) for name, path in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(_cycle(sorted(component), graph))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _cycle(component: list[str], graph: dict[str, list[str]]) -> list[str]:
    """One circle through the component's first module, as a path back to it."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in graph[v]:
            if w == start:
                return [*paths[v], start]
            if w in members and w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    return [*component, component[0]]


def test_no_import_circles():
    found = circles(ROOT, PACKAGES)
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_circle_check_names_a_circle(tmp_path):
    """The check can fail: a package whose modules import each other, also inside a function."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import x\n")
    (pkg / "c.py").write_text("import pkg.a\nx = 1\n")
    (pkg / "d.py").write_text("from . import a\n")  # imports into the circle, is not in it
    assert circles(tmp_path, ("pkg",)) == [["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]


# --- the layout: who runs what (issue 52) ---------------------------------------------------------

# (modules, what they may not import, directly or through others, and why)
LAYOUT = (
    (
        ("publish.markdown", "publish.generate", "publish.audit", "publish.source"),
        "publish.mkdocs",
        "what every build runs (Zensical's too) and make update leans on nothing only MkDocs runs",
    ),
    (
        tuple(
            f"publish.{p.name}"
            for p in sorted((ROOT / "publish").iterdir())
            if p.name not in ("harness", "__pycache__")
        ),
        "publish.harness",
        "no tool leans on what only the tests and the bench run",
    ),
)


def layout_breaches(root: Path, packages: tuple[str, ...], rules=LAYOUT) -> list[str]:
    """Each module of a rule's folders that reaches (imports, directly or through other modules) a
    module of what the rule forbids, as the path of imports that gets there, with the rule's why."""
    known = module_names(root, packages)
    graph = {name: sorted(imports_of(name, path, known)) for name, path in known.items()}
    found = []
    for starts, forbidden, why in rules:
        inside = (forbidden, f"{forbidden}.")
        for name in sorted(n for n in known if n.startswith(starts) and not n.startswith(inside)):
            paths, queue = {name: [name]}, [name]
            while queue:
                v = queue.pop(0)
                hit = next((w for w in graph[v] if w == forbidden or w.startswith(f"{forbidden}.")), None)
                if hit:
                    found.append(f"{' -> '.join([*paths[v], hit])}: {why}")
                    break
                for w in graph[v]:
                    if w not in paths:
                        paths[w] = [*paths[v], w]
                        queue.append(w)
    return found


def test_the_folders_of_publish_say_who_runs_their_code():
    """publish/markdown, generate, audit and source import nothing of publish/mkdocs (a Zensical
    build runs them without it), and no module but publish/harness's own imports publish/harness."""
    assert not layout_breaches(ROOT, ("publish",)), "\n".join(layout_breaches(ROOT, ("publish",)))


def test_the_layout_check_names_a_breach_through_another_module(tmp_path):
    """The check can fail: an extension that imports, through a generator, a module of the hooks'
    folder; and a tool that imports the harness inside a function."""
    for folder in ("p", "p/markdown", "p/generate", "p/mkdocs", "p/harness"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "p/markdown/ext.py").write_text("from ..generate import gen\n")
    (tmp_path / "p/generate/gen.py").write_text("def f():\n    from p.mkdocs import hook\n")
    (tmp_path / "p/mkdocs/hook.py").write_text("from p.harness import browser\n")  # allowed: its own rule only
    (tmp_path / "p/harness/browser.py").write_text("")
    rules = (
        (("p.markdown", "p.generate"), "p.mkdocs", "MkDocs only"),
        (("p.markdown", "p.generate"), "p.harness", "tests"),
    )
    assert layout_breaches(tmp_path, ("p",), rules) == [
        "p.generate.gen -> p.mkdocs.hook: MkDocs only",
        "p.markdown.ext -> p.generate.gen -> p.mkdocs.hook: MkDocs only",
        "p.generate.gen -> p.mkdocs.hook -> p.harness.browser: tests",
        "p.markdown.ext -> p.generate.gen -> p.mkdocs.hook -> p.harness.browser: tests",
    ]


def test_the_registry_imports_no_producer():
    known = module_names(ROOT, PACKAGES)
    assert imports_of("publish.generate.registry", known["publish.generate.registry"], known) == {"publish"}
    assert "publish.generate.producers" not in {
        m
        for name, path in known.items()
        if name != "publish.generate.update"
        for m in imports_of(name, path, known)
        if name.startswith(
            (
                "publish.generate.topics",
                "publish.generate.tables",
                "publish.generate.example_pages",
                "publish.generate.notebooks",
            )
        )
    }


# --- banners -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generation() -> tuple[dict[Path, str], dict]:
    """Every generated file, and what each producer read (registry.generate's ``reads``)."""
    reads: dict = {}
    return producers.generate(reads=reads), reads


@pytest.fixture(scope="module")
def generated(generation) -> dict[Path, str]:
    return generation[0]


def test_a_second_pass_runs_again_what_read_a_new_recording_and_gives_what_a_whole_one_gives(generation):
    """`make update` generates again once it has run the snippets (the notebooks show their
    recordings): registry.regenerate runs only the producers that read a changed file, and gives
    every file, in the same order, as running every producer again does."""
    before, reads = generation
    every = examples.load_all()
    outs = sorted((ROOT / "snippets").rglob("*.out"))
    for changed in ({outs[0]: "changed\n"}, {p: p.read_text(encoding="utf-8") + "# changed\n" for p in outs}):
        with registry.pending(changed):
            whole = producers.generate(every)
        assert [p for p in whole if whole[p] != before[p]], "no generated file shows a recording"
        assert list(registry.regenerate(every, before, reads, changed).items()) == list(whole.items())


def resolve(name: str):
    """The function a banner names (``module:qualname``; a function defined in another
    function's body is named with ``<locals>`` and resolves to the module only)."""
    module, _, qualname = name.partition(":")
    obj = importlib.import_module(module)
    if "<locals>" in qualname:
        return obj
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_generated_file_names_a_registered_producer(generated):
    writers = registry.writers()
    problems = []
    for path in generated:
        name = registry.writer_of(path)
        if name is None:
            problems.append(f"{registry.relative(path)}: its first lines name no producer")
        elif name not in writers:
            problems.append(f"{registry.relative(path)}: names {name}, which is not registered")
        elif not callable(resolve(name)) and "<locals>" not in name:
            problems.append(f"{registry.relative(path)}: names {name}, which is not a function")
    assert not problems, "\n".join(problems)
    assert len(generated) > 200


def test_banners_by_kind(generated):
    page = ROOT / "docs/examples/the_cat_sat.md"
    assert page.read_text(encoding="utf-8").splitlines()[7] == (
        "<!-- Generated from selfattn_ref/examples/the_cat_sat.toml by publish.generate.example_pages:page "
        "(make update); do not edit. -->"
    )
    table = ROOT / "docs/generated/the_cat_sat/weights.md"
    assert table.read_text(encoding="utf-8").splitlines()[0] == (
        "<!-- Generated by publish.generate.tables:example_files (make update); do not edit. -->"
    )
    script = ROOT / "snippets/examples/the_cat_sat_torch.py"
    assert script.read_text(encoding="utf-8").splitlines()[0] == (
        "# Generated by publish.generate.example_pages:script (make update); do not edit."
    )
    notebook = json.loads((ROOT / "docs/notebooks/masking.ipynb").read_text(encoding="utf-8"))
    assert notebook["metadata"]["selfattn_ref"]["generated_by"] == "publish.generate.notebooks:notebook"
    producers.load()  # the presets are gathered (git ignores them): as a build writes them
    gathered = registry.gather(examples.load_all())
    presets = json.loads(gathered[ROOT / "docs/generated/playground/presets.json"])
    assert presets["_generated_by"] == "publish.generate.playground:_presets_json"
    bundle = gathered[ROOT / "docs/assets/playground/app.bundle.js"]
    assert bundle.startswith("// Generated from docs/assets/playground/app.js by publish.generate.playground_bundle:")
    limits = (ROOT / "docs/generated/playground/limits.js").read_text(encoding="utf-8")
    assert limits.startswith(
        "// Generated by publish.generate.playground_limits:limits_module (make update); do not edit.\n"
    )


def test_a_file_without_a_banner_is_not_ours(tmp_path):
    for name, text in {
        "notes.md": "# My notes\n\nGenerated nothing.\n",
        "mine.ipynb": json.dumps({"cells": [], "metadata": {}}),
        "data.json": "[1, 2]",
        "helper.py": "print('hi')\n",
    }.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert registry.writer_of(path) is None and not registry.made_by_us(path), name


# --- update and the build read the registry --------------------------------------------------------


def test_a_registered_producer_is_written_and_checked(monkeypatch):
    """A producer registered with the registry alone is part of what `make update` writes and what
    the staleness check compares: nothing else lists files."""
    path = ROOT / "docs/generated/zz_test/never_written.md"
    monkeypatch.setattr(registry, "_PRODUCERS", dict(registry._PRODUCERS))

    @registry.generated("zz_test/never_written.md")
    def zz_table() -> str:
        return "| a |\n|---|\n| 1 |\n"

    changed, _ = update.stale_generated()
    assert changed[path] == (
        "<!-- Generated by test_registry:test_a_registered_producer_is_written_and_checked.<locals>.zz_table "
        "(make update); do not edit. -->\n\n| a |\n|---|\n| 1 |\n"
    )
    assert "zz_test" in registry.reserved_slugs()
    assert not path.exists()


def test_the_build_hook_and_update_list_no_folders_by_hand():
    for module in ("publish/generate/update.py", "publish/mkdocs/worked_examples.py"):
        text = (ROOT / module).read_text(encoding="utf-8")
        for folder in ("rglob(", "PAGES_DIR", "NOTEBOOKS_DIR", "SNIPPETS_DIR", "GENERATED /"):
            assert folder not in text, f"{module} lists generated files by hand ({folder})"
