"""The playground's classic-script bundle (docs/assets/playground/app.bundle.js, for pages opened from
disk): gathered from the modules and every example's preset (ignored by git, written by every build
and `make update`), written by the function its first line names, and the bundler refuses, naming the
file and the line, what it cannot turn into a classic script.

tests/browser/test_offline.py runs the bundle in Chromium from file://.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from publish import GENERATED, ROOT
from publish import files as publish_files
from publish.generate import playground, producers, registry
from publish.generate import playground_bundle as pb
from publish.generate.playground import RELPATH, _presets_json
from publish.generate.registry import name_of, with_banner
from publish.generate.update import stale_generated
from selfattn_ref import examples

BUNDLE = pb.bundle_path(pb.ENTRY)
PLAYGROUND = pb.ENTRY.parent


@pytest.fixture(scope="module")
def gathered() -> dict[Path, str]:
    producers.load()
    return registry.gather(examples.load_all())


def test_the_bundle_is_gathered_and_git_ignores_it(gathered):
    text = gathered[BUNDLE]
    first = text.splitlines()[0]
    assert first == (
        "// Generated from docs/assets/playground/app.js by publish.generate.playground_bundle:playground_bundle "
        "(make update); do not edit."
    ), first
    presets = GENERATED / RELPATH
    assert text == pb.playground_bundle({presets: gathered[presets]})  # the limits as limits.js has them
    assert "/docs/assets/playground/app.bundle.js" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    changed, _ = stale_generated()
    assert BUNDLE not in changed, "the bundle is gathered, not a committed file of make update"


def test_the_bundle_has_every_module_and_the_presets(gathered):
    text = gathered[BUNDLE]
    imported = set(
        re.findall(r'^import[^;]*?from\s*"\./([\w.-]+\.js)";', pb.ENTRY.read_text(encoding="utf-8"), re.M | re.S)
    )
    assert imported >= {"attention.js", "format.js", "state.js"}, imported
    for name in [*imported, "app.js"]:
        assert f"// ---- {name} " in text, f"{name} is not in the bundle"
    presets = with_banner(_presets_json(), GENERATED / RELPATH, name_of(_presets_json))
    assert presets == gathered[GENERATED / RELPATH]
    assert pb.json.dumps(presets) in text, "the presets are not inlined as they are gathered"
    assert '"../../generated/playground/presets.json"' in text
    # Nothing of ES module syntax is left where a classic script would choke on it.
    code = [ln for ln in text.splitlines() if not ln.lstrip().startswith(("//", "*", "/*"))]
    assert not [ln for ln in code if re.match(r"\s*(import|export)\b", ln)]
    assert "import.meta" not in "\n".join(code)


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder / "main.js"


@pytest.mark.parametrize(
    "files, message",
    [
        ({"main.js": 'import { a } from "./a.js";\n', "a.js": "export let a = 1;\n"},
         r"a\.js:1: `export let`/`export var` does not bundle"),
        ({"main.js": "const m = await import(name);\n"},
         r"main\.js:1: dynamic import\(\) bundles only as import\(\"\./<module>\.js\"\), a relative module"),
        ({"main.js": 'import("./lazy.js");\n'}, r"main\.js:1: imports './lazy\.js', and .*lazy\.js does not exist"),
        ({"main.js": 'import { x } from "lodash";\n'}, r"main\.js:1: import of 'lodash': only relative modules"),
        ({"main.js": '\n\nimport { x } from "./missing.js";\n'},
         r"main\.js:3: imports './missing\.js', and .*missing\.js"),
        ({"main.js": 'import { b } from "./b.js";\nexport const a = 1;\n', "b.js": 'import { a } from "./main.js";\n'},
         r"import cycle: .*main\.js -> .*b\.js -> .*main\.js"),
        ({"main.js": 'const u = new URL("data/none.json", import.meta.url);\n'},
         r"main\.js:1: new URL\('data/none\.json', import\.meta\.url\) names .*none\.json, which is missing"),
        ({"main.js": 'export * from "./a.js";\n', "a.js": ""}, r"main\.js:1: re-exports \(export \.\.\. from\)"),
        ({"main.js": "console.log(import.meta.resolve('./a.js'));\n"}, r"main\.js:1: only import\.meta\.url bundles"),
    ],
    ids=["export-let", "dynamic-import", "dynamic-import-missing", "bare-specifier", "missing-module", "cycle",
         "missing-json", "re-export",
         "import-meta"],
)  # fmt: skip
def test_the_bundler_refuses_what_it_cannot_bundle(tmp_path, files, message):
    entry = write(tmp_path, files)
    with pytest.raises(pb.BundleError, match=message):
        pb.bundle(entry, "test")


def test_a_fetched_file_about_to_be_written_is_inlined_though_not_on_disk(tmp_path):
    """A fresh clone has no presets.json (git ignores it): the run that gathers it gives its text, and
    the bundler inlines that instead of saying the file is missing."""
    entry = write(tmp_path, {"main.js": 'const u = new URL("data/new.json", import.meta.url);\n'})
    given = {(tmp_path / "data" / "new.json").resolve(): '{"given": true}\n'}
    read = lambda p: given[p] if p in given else p.read_text(encoding="utf-8")  # noqa: E731
    text = pb.bundle(entry, "test", read=read)
    assert pb.json.dumps('{"given": true}\n') in text and not (tmp_path / "data").exists()


def test_the_bundler_leaves_comments_and_strings_alone(tmp_path):
    """`import`/`export` in a comment line or mid-line is not a statement; import.meta.url becomes the
    module's own URL, resolved against the bundle's."""
    entry = write(
        tmp_path,
        {
            "main.js": "// import { x } from 'nowhere';\n/* export let y */\n"
            'const s = "export default 1";\nexport const here = new URL("x", import.meta.url).href;\n'
        },
    )
    text = pb.bundle(entry, "test")
    assert "// import { x } from 'nowhere';" in text and 'const s = "export default 1";' in text
    assert 'const here = new URL("x", __bundle_import_meta_url).href;' in text
    assert "return Object.freeze({ __proto__: null, here });" in text
    assert text.startswith(f"// Generated from {entry} by test (make update); do not edit.\n")
    assert '})())(bundleFetch, new URL("main.js", base).href, ' in text


def test_the_command_does_not_overwrite_a_file_it_did_not_write(tmp_path, monkeypatch, capsys):
    entry = write(tmp_path, {"main.js": "export const a = 1;\n"})
    out = pb.bundle_path(entry)
    out.write_text("// someone's own main.bundle.js\n", encoding="utf-8")
    monkeypatch.setattr(pb, "ENTRY", entry)
    monkeypatch.setattr(pb, "ROOT", tmp_path)  # the command writes inside its repository only
    monkeypatch.setattr(pb, "playground_bundle", lambda: pb.bundle(entry, pb.WRITER))
    # the command writes inside the repository only (publish.files): here, inside this test's folder
    monkeypatch.setattr(publish_files, "atomic_write", functools.partial(publish_files.atomic_write, root=tmp_path))
    assert pb.main([]) == 1
    assert "was not written by publish.generate.playground_bundle:playground_bundle" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "// someone's own main.bundle.js\n"
    assert pb.main(["--check"]) == 1
    out.unlink()
    assert pb.main([]) == 0 and pb.main(["--check"]) == 0
    first = out.read_text(encoding="utf-8").splitlines()[0]
    assert (
        first.startswith("// Generated from ")
        and "by publish.generate.playground_bundle:playground_bundle (make" in first
    )


def test_a_module_asked_for_when_needed_is_left_to_its_own_bundle(tmp_path):
    """import("./lazy.js") is not bundled with the module that asks for it: it becomes the load of
    lazy.bundle.js (whose modules are its own), which lazy_entries names so that it is written too."""
    entry = write(
        tmp_path,
        {
            "main.js": 'import { one } from "./shared.js";\n// import("./in-a-comment.js")\n'
            'export const later = () => import("./lazy.js").then((m) => m.two + one);\n',
            "shared.js": "export const one = 1;\n",
            "lazy.js": 'import { one } from "./shared.js";\nexport const two = one + 1;\n',
        },
    )
    text = pb.bundle(entry, "test")
    assert "// ---- shared.js " in text and "// ---- lazy.js " not in text and "const two" not in text
    assert 'export const later = () => __bundle_load("./lazy.bundle.js").then((m) => m.two + one);' not in text
    assert 'const later = () => __bundle_load("./lazy.bundle.js").then((m) => m.two + one);' in text
    assert pb.lazy_entries(entry) == [(tmp_path / "lazy.js").resolve()]
    lazy = pb.bundle(tmp_path / "lazy.js", "test")
    assert "// ---- shared.js " in lazy and "// ---- lazy.js " in lazy
    assert 'exported.set(base, __bundle_modules[1]); // for an import() of "lazy.js"' in lazy


def test_the_language_models_mode_has_a_bundle_with_its_weights(gathered):
    """The playground asks for its language-model mode when the reader opens it: that module's bundle
    is gathered too (git ignores it), with the weights the package keeps inlined, as gathered."""
    assert pb.lazy_entries(pb.ENTRY) == [playground.MODEL_ENTRY]
    for module in pb.lazy_entries(pb.ENTRY):  # a module asked for with import() loads its own bundle from disk
        assert pb.bundle_path(module) in gathered, f"{module.name} has no bundle: register it as the playground's are"
    app = gathered[BUNDLE]
    assert '__bundle_load("./model_app.bundle.js")' in app and "// ---- language_model.js " not in app
    bundle = gathered[pb.bundle_path(playground.MODEL_ENTRY)]
    assert bundle.startswith(
        "// Generated from docs/assets/playground/model_app.js by "
        "publish.generate.playground:model_app_bundle (make update); do not edit."
    )
    for name in ("model_app.js", "language_model.js", "attention.js", "explain.js", "views.js", "state.js"):
        assert f"// ---- {name} " in bundle, name
    weights = gathered[GENERATED / playground.WEIGHTS_RELPATH]
    assert pb.json.dumps(weights) in bundle
    package = pb.json.loads((ROOT / "selfattn_ref/language_model.json").read_text(encoding="utf-8"))
    copy = pb.json.loads(weights)
    assert copy.pop("_generated_by") == "publish.generate.playground:weights_json"
    assert copy == {k: v for k, v in package.items() if k not in ("_generated_by", "key")}
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    for path in (pb.bundle_path(playground.MODEL_ENTRY), GENERATED / playground.WEIGHTS_RELPATH):
        assert path in registry.gathered_paths() and "/" + path.relative_to(ROOT).as_posix() in ignored
