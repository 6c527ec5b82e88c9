"""A classic-script bundle of an ES-module entry and the modules it imports, for pages opened from disk.

Browsers load no ES module from file:// (Chromium refuses them as cross-origin), and fetch() fails
there too, so the playground (docs/assets/playground/app.js) only shows its fallback text in the
offline build. ``bundle(entry)`` turns the entry and the relative modules it imports, in dependency
order, into one classic script, ``<entry>.bundle.js`` beside it:

- each module runs in a function of its own, in strict mode, once per document (a guard keyed by the
  entry's path: Material re-runs a page's scripts on instant navigation, where a module would not);
- ``import {a, b as c} from "./x.js"``, ``import * as ns from``, ``import "./x.js"`` become constants
  bound to the exports of the module already run; ``export function/class/const``, ``export default``
  and ``export {a, b as c}`` become the module's exports (``export let/var`` is refused: its live
  binding would be lost);
- ``import.meta.url`` is the URL the module would have, resolved against the bundle's own script URL;
- every ``new URL("<file>.json", import.meta.url)`` names a file that is inlined: fetch() of that URL,
  inside the bundle, answers with the file's text, as the server would (other URLs go to fetch());
- ``import("./x.js")``, a module asked for only when it is needed (so that no reader who does not
  need it pays for it), is not in the bundle: it becomes a load of that module's own bundle,
  ``x.bundle.js`` beside it (a classic script added to the page then), which answers with the module's
  exports. Its bundle is written as this one is (:func:`lazy_entries` names the modules that need one).

No npm at build time, no parser: the forms above are matched at the start of lines, and any other
``import``/``export`` statement, an ``import()`` of anything but a relative module named in quotes,
a bare specifier or another use of ``import.meta`` stops the bundle with a message naming the file
and the line. The modules themselves
stay as they are; the site loads them as modules over http(s) and this bundle only from disk
(docs/assets/javascripts/modules.js chooses).

``python publish/generate/playground_bundle.py [--check]`` writes (or checks) the playground's bundle;
every build and ``make update`` write it too (publish/generate/playground.py registers it as a
file gathered from every example, which git ignores).
"""

from __future__ import annotations

import json
import posixpath
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ENTRY = DOCS / "assets" / "playground" / "app.js"
WRITER = (
    "publish.generate.playground_bundle:playground_bundle"  # as the registry names it (publish/generate/registry.py)
)
INLINED_SUFFIXES = (".json",)

IDENT = r"[A-Za-z_$][\w$]*"
SIDE_EFFECT_IMPORT = re.compile(r"""^import\s*(["'])(?P<spec>[^"'\n]+)\1[ \t]*;?[ \t]*$""", re.M)
IMPORT = re.compile(r"""^import\s+(?P<clause>[\w$\s{},*]+?)\s+from\s*(["'])(?P<spec>[^"'\n]+)\2[ \t]*;?[ \t]*$""", re.M)
EXPORT_DECL = re.compile(
    rf"^export\s+(?P<default>default\s+)?(?P<kind>(?:async\s+)?function\*?|class)\s+(?P<name>{IDENT})", re.M
)
EXPORT_CONST = re.compile(rf"^export\s+const\s+(?P<name>{IDENT})\s*=", re.M)
EXPORT_DEFAULT_EXPR = re.compile(r"^export\s+default\s+", re.M)
EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\}[ \t]*;?[ \t]*$", re.M)
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*(["'])(?P<spec>\.{1,2}/[^"'\n]+\.js)\1\s*\)""")
URL_OF_FILE = re.compile(r"""new\s+URL\(\s*(["'])(?P<rel>[^"'\n]+)\1\s*,\s*import\.meta\.url\s*\)""")
META_URL = "__bundle_import_meta_url"
LOAD = "__bundle_load"  # a module's import("./x.js"), in its bundle: the load of x.bundle.js
DEFAULT = "__bundle_default"


class BundleError(ValueError):
    """A module uses a form the bundler does not handle; the message names the file and the line."""


@dataclass
class Module:
    path: Path
    code: str = ""
    imports: list[Path] = field(default_factory=list)  # the modules it needs, in the order it names them
    exports: dict[str, str] = field(default_factory=dict)  # exported name -> local name
    inlined: dict[str, Path] = field(default_factory=dict)  # URL relative to the module -> file
    clauses: list[tuple[str, Path]] = field(default_factory=list)  # each import's clause and module, in order
    lazy: list[Path] = field(default_factory=list)  # the modules it asks for with import("./x.js")


def _where(path: Path, text: str, pos: int) -> str:
    return f"{_rel(path)}:{text.count(chr(10), 0, pos) + 1}"


def _rel(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def _resolve(module: Path, spec: str, text: str, pos: int) -> Path:
    if not spec.startswith(("./", "../")):
        raise BundleError(f"{_where(module, text, pos)}: import of {spec!r}: only relative modules (./, ../) bundle")
    target = (module.parent / spec).resolve()
    if not target.is_file():
        raise BundleError(f"{_where(module, text, pos)}: imports {spec!r}, and {_rel(target)} does not exist")
    return target


def _import_bindings(clause: str, index: int, where: str) -> str:
    """`const ... = modules[index]` lines for an import clause."""
    clause = " ".join(clause.split())
    source = f"__bundle_modules[{index}]"
    out = []
    default, _, rest = clause.partition(",") if not clause.startswith(("{", "*")) else ("", "", clause)
    if default.strip():
        out.append(f"const {default.strip()} = {source}.default;")
    rest = rest.strip()
    if rest.startswith("*"):
        m = re.fullmatch(rf"\*\s*as\s+({IDENT})", rest)
        if not m:
            raise BundleError(f"{where}: cannot read the import clause {clause!r}")
        out.append(f"const {m.group(1)} = {source};")
    elif rest.startswith("{"):
        if not rest.endswith("}"):
            raise BundleError(f"{where}: cannot read the import clause {clause!r}")
        names = []
        for part in filter(None, (p.strip() for p in rest[1:-1].split(","))):
            m = re.fullmatch(rf"({IDENT})(?:\s+as\s+({IDENT}))?", part)
            if not m:
                raise BundleError(f"{where}: cannot read {part!r} in the import clause {clause!r}")
            names.append(m.group(1) if not m.group(2) else f"{m.group(1)}: {m.group(2)}")
        out.append(f"const {{ {', '.join(names)} }} = {source};")
    elif rest:
        raise BundleError(f"{where}: cannot read the import clause {clause!r}")
    return " ".join(out)


def _code_lines(text: str):
    """(position, line) of each line that is not a comment line."""
    pos = 0
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        if not stripped.startswith(("//", "*", "/*")):
            yield pos, line
        pos += len(line)


def read_module(path: Path, read: Callable[[Path], str]) -> Module:
    """The module's exports, imports and inlined files, and its text with import/export statements
    rewritten (the import bindings are filled in by :func:`bundle`, which knows the order)."""
    text = read(path)
    mod = Module(path)
    for pos, line in _code_lines(text):
        if len(re.findall(r"\bimport\s*\(", line)) != len(DYNAMIC_IMPORT.findall(line)):
            raise BundleError(
                f'{_where(path, text, pos)}: dynamic import() bundles only as import("./<module>.js"), a relative '
                "module named in quotes"
            )
        for m in DYNAMIC_IMPORT.finditer(line):
            target = _resolve(path, m.group("spec"), text, pos)
            if target not in mod.lazy:
                mod.lazy.append(target)
        if re.search(r"\bimport\.meta\b(?!\.url\b)", line):
            raise BundleError(f"{_where(path, text, pos)}: only import.meta.url bundles")
        if re.match(r"export\s+(let|var)\b", line):
            raise BundleError(
                f"{_where(path, text, pos)}: `export let`/`export var` does not bundle (its binding would not be "
                "live): export a const or a function"
            )
        if re.match(r"export\s*(\*|\{[^}]*\}\s*from\b)", line):
            raise BundleError(f"{_where(path, text, pos)}: re-exports (export ... from) do not bundle")
    for m in URL_OF_FILE.finditer(text):
        rel = m.group("rel")
        if rel.endswith(INLINED_SUFFIXES):
            target = (path.parent / rel).resolve()
            try:  # read as the bundle reads it: a file about to be written is given, not on disk yet
                read(target)
            except OSError:
                where = _where(path, text, m.start())
                missing = f"new URL({rel!r}, import.meta.url) names {_rel(target)}, which is missing"
                raise BundleError(f"{where}: {missing}") from None
            mod.inlined[rel] = target

    def imported(m: re.Match) -> str:
        target = _resolve(path, m.group("spec"), text, m.start())
        mod.imports.append(target)
        mod.clauses.append((m.groupdict().get("clause") or "", target))
        return f"/*__bundle_import_{len(mod.clauses) - 1}__*/"

    def lazy(m: re.Match) -> str:
        return f"{LOAD}({json.dumps(m.group('spec').removesuffix('.js') + '.bundle.js')})"

    code = SIDE_EFFECT_IMPORT.sub(imported, text)
    code = IMPORT.sub(imported, code)

    def decl(m: re.Match) -> str:
        name = m.group("name")
        mod.exports["default" if m.group("default") else name] = name
        return f"{m.group('kind')} {name}"

    code = EXPORT_DECL.sub(decl, code)

    def const(m: re.Match) -> str:
        mod.exports[m.group("name")] = m.group("name")
        return f"const {m.group('name')} ="

    code = EXPORT_CONST.sub(const, code)

    def default_expr(m: re.Match) -> str:
        mod.exports["default"] = DEFAULT
        return f"const {DEFAULT} = "

    code = EXPORT_DEFAULT_EXPR.sub(default_expr, code)

    def listed(m: re.Match) -> str:
        for part in filter(None, (p.strip() for p in m.group("names").split(","))):
            n = re.fullmatch(rf"({IDENT})(?:\s+as\s+({IDENT}))?", part)
            if not n:
                raise BundleError(f"{_where(path, text, m.start())}: cannot read {part!r} in an export list")
            mod.exports[n.group(2) or n.group(1)] = n.group(1)
        return ""

    code = EXPORT_LIST.sub(listed, code)
    for pos, line in _code_lines(code):
        if re.match(r"(import|export)\b", line):
            raise BundleError(f"{_where(path, code, pos)}: this import/export form does not bundle: {line.strip()!r}")
    mod.code = DYNAMIC_IMPORT.sub(lazy, code).replace("import.meta.url", META_URL)
    return mod


def _order(entry: Path, read: Callable[[Path], str]) -> list[Module]:
    """Every module the entry needs, each after the modules it imports; refuses a cycle."""
    done: dict[Path, Module] = {}
    order: list[Module] = []

    def visit(path: Path, stack: tuple[Path, ...]) -> None:
        if path in done:
            return
        if path in stack:
            cycle = " -> ".join(_rel(p) for p in (*stack[stack.index(path) :], path))
            raise BundleError(f"import cycle: {cycle}; the bundle runs each module once, after its imports")
        mod = read_module(path, read)
        for dep in mod.imports:
            visit(dep, (*stack, path))
        done[path] = mod
        order.append(mod)

    visit(entry.resolve(), ())
    return order


def lazy_entries(entry: Path, read: Callable[[Path], str] | None = None) -> list[Path]:
    """The modules that the bundle of ``entry`` loads when they are asked for (``import("./x.js")``),
    each of which needs its own bundle, and theirs in turn; in the order first asked for."""
    read = read or (lambda p: p.read_text(encoding="utf-8"))
    found: list[Path] = []
    todo = [entry.resolve()]
    while todo:
        for m in _order(todo.pop(0), read):
            for target in m.lazy:
                if target not in found:
                    found.append(target)
                    todo.append(target)
    return found


def bundle_path(entry: Path) -> Path:
    """Where the bundle of an entry goes: beside it, ``<name>.bundle.js`` (what modules.js loads from disk)."""
    return entry.with_name(entry.stem + ".bundle.js")


def bundle(entry: Path, writer: str, read: Callable[[Path], str] | None = None) -> str:
    """The classic script that runs ``entry`` as its modules would run, from disk as well.

    ``writer`` names the function that writes the file, for its first line; ``read`` gives a file's
    text (by default the file on disk: a generated file can be given before it is written)."""
    read = read or (lambda p: p.read_text(encoding="utf-8"))
    entry = entry.resolve()
    out_dir = bundle_path(entry).parent
    modules = _order(entry, read)
    index = {m.path: i for i, m in enumerate(modules)}
    rel = {m.path: posixpath.relpath(m.path.as_posix(), out_dir.as_posix()) for m in modules}
    key = _rel(entry)
    names = ", ".join(rel[m.path] for m in modules)
    inlined = {}
    for m in modules:
        for url, target in m.inlined.items():
            inlined[posixpath.normpath(posixpath.join(posixpath.dirname(rel[m.path]), url))] = read(target)
    lines = [
        f"// Generated from {key} by {writer} (make update); do not edit.",
        f"// The modules, each after those it imports: {names}; the files they fetch, inlined: "
        + (", ".join(sorted(inlined)) or "none")
        + ".",
        "// A classic script, for pages opened from disk (file://), where browsers load no ES module and",
        "// fetch() fails: docs/assets/javascripts/modules.js loads it there, and the modules themselves over http(s).",
        "(() => {",
        '  "use strict";',
        '  const done = (globalThis[Symbol.for("selfattn.bundles")] ??= new Set());',
        f"  if (done.has({json.dumps(key)})) return; // once per document, as a module runs",
        f"  done.add({json.dumps(key)});",
        "  const script = document.currentScript;",
        f'  if (!script || !script.src) throw new Error("{bundle_path(entry).name} runs from a <script src>");',
        "  const base = script.src;",
        "  const inlined = new Map([",
        *(f"    [new URL({json.dumps(url)}, base).href, {json.dumps(text)}]," for url, text in sorted(inlined.items())),
        "  ]);",
        "  const bundleFetch = (input, init) => {",
        "    const href = new URL(input instanceof Request ? input.url : String(input), base).href;",
        "    if (!inlined.has(href)) return fetch(input, init);",
        '    const headers = { "Content-Type": "application/json" };',
        "    return Promise.resolve(new Response(inlined.get(href), { headers }));",
        "  };",
        "  const __bundle_modules = [];",
        # What a module's import("./x.js") becomes: x.bundle.js added to the page, once (a second
        # import() waits for the same load), and the exports its entry registers under its address.
        '  const exported = (globalThis[Symbol.for("selfattn.bundle.exports")] ??= new Map());',
        '  const loads = (globalThis[Symbol.for("selfattn.bundle.loads")] ??= new Map());',
        "  const loadBundle = (href) => {",
        "    if (!loads.has(href)) {",
        "      const load = new Promise((resolve, reject) => {",
        "        if (exported.has(href)) return resolve(exported.get(href));",
        '        const tag = document.createElement("script");',
        "        tag.src = href;",
        "        tag.onload = () =>",
        "          exported.has(href) ? resolve(exported.get(href)) : reject(new Error(`${href} gave no module`));",
        "        tag.onerror = () => reject(new Error(`could not load ${href}`));",
        "        document.head.append(tag);",
        "      });",
        "      loads.set(href, load.catch((e) => {",
        "        loads.delete(href); // asked for again, it is loaded again",
        "        throw e;",
        "      }));",
        "    }",
        "    return loads.get(href);",
        "  };",
    ]
    for m in modules:
        code = m.code
        for i, (clause, target) in enumerate(m.clauses):
            where = f"{_rel(m.path)} (import of {_rel(target)})"
            code = code.replace(f"/*__bundle_import_{i}__*/", _import_bindings(clause, index[target], where), 1)
        exports = ", ".join(f"{json.dumps(k)}: {v}" if k != v else v for k, v in m.exports.items())
        lines += [
            f"  // ---- {rel[m.path]} " + "-" * max(0, 90 - len(rel[m.path])),
            f"  __bundle_modules[{index[m.path]}] = ((fetch, {META_URL}, {LOAD}) => (() => {{",
            code.rstrip("\n"),
            f"return Object.freeze({{ __proto__: null{', ' if exports else ''}{exports} }});",
            f"  }})())(bundleFetch, new URL({json.dumps(rel[m.path])}, base).href, "
            f"(spec) => loadBundle(new URL(spec, new URL({json.dumps(rel[m.path])}, base)).href));",
        ]
    lines += [
        f"  exported.set(base, __bundle_modules[{index[entry]}]); // for an import() of {json.dumps(rel[entry])}",
        "})();",
    ]
    return "\n".join(lines) + "\n"


def playground_bundle(overrides: Mapping[Path, str] | None = None) -> str:
    """The playground's bundle, docs/assets/playground/app.bundle.js. ``overrides`` gives the text
    of files by path (a generated file that `make update` is about to write, such as the presets)."""
    given = {Path(p).resolve(): t for p, t in (overrides or {}).items()}
    return bundle(ENTRY, WRITER, read=lambda p: given[p] if p in given else p.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = bundle_path(ENTRY)
    try:
        text = playground_bundle()
    except BundleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    current = out.read_text(encoding="utf-8") if out.is_file() else None
    if "--check" in args:
        if current != text:
            print(f"{_rel(out)} is out of date: run `make update` (or python publish/generate/playground_bundle.py)")
            return 1
        return 0
    if current is not None and not current.startswith(f"// Generated from {_rel(ENTRY)} by {WRITER} "):
        print(f"error: {_rel(out)} exists and was not written by {WRITER}: not overwriting it", file=sys.stderr)
        return 1
    if current != text:
        from publish.files import atomic_write  # noqa: PLC0415 - also run as a script

        atomic_write(out, text, root=ROOT)
        print(f"wrote {_rel(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
