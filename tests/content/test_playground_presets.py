"""The playground's presets (docs/generated/playground/presets.json) are the worked examples.

The browser layer (tests/browser/test_playground.py) checks what the page does with them; this
file checks, without a browser, that the file holds exactly what selfattn_ref defines, that it is
registered with the generated-file registry as gathered from every example (git ignores it; every
build, `make update` and `make example` write it, so a new example rewrites no shared file), and that
the links of the pages name presets that exist.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from publish import GENERATED, ROOT
from publish.generate import playground, producers, registry
from selfattn_ref import examples

from pages import PAGES, page_id

PATH = GENERATED / playground.RELPATH


@pytest.fixture(scope="module")
def text() -> str:
    """The presets file as a build or `make update` writes it."""
    producers.load()
    return registry.gather(examples.load_all())[PATH]


@pytest.fixture(scope="module")
def on_disk(text) -> dict:
    return playground.parse(text)


def test_presets_file_is_gathered_and_git_ignores_it(text):
    assert PATH in registry.gathered_paths(), f"{playground.RELPATH} is not registered with @gathered"
    assert "/docs/generated/playground/presets.json" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    # nor, then, one that make update finds stale: what it rewrites (stale_generated) is some of what
    # producers.generate() gives, and test_generated_tables_are_up_to_date checks that all of it is current
    assert PATH not in producers.generate(), "a committed file of make update, which every new example rewrites"


def test_the_presets_follow_the_examples_given(text):
    """What is gathered is the examples given (a new one before its spec is on disk, as `make
    example` gives it), not the folder's."""
    new = examples.load_text(
        (examples.EXAMPLES_DIR / "the_cat_sat.toml").read_text(encoding="utf-8").replace('"The cat sat"', '"Zz"'),
        examples.EXAMPLES_DIR / "zz_new.toml",
    )
    every = [*examples.load_all(), new]
    slugs = [p["slug"] for p in playground.parse(registry.gather(every)[PATH])["presets"]]
    assert slugs == [p["slug"] for p in playground.parse(text)["presets"]] + ["zz_new"]


def test_file_is_plain_json(text):
    assert not text.startswith("<!--")  # a comment header would make it invalid JSON
    data = json.loads(text)  # its provenance is a key, which the playground does not read
    assert data.pop("_generated_by") == "publish.generate.playground:_presets_json"
    assert data == playground.presets()


def test_every_example_is_a_preset_primary_first(on_disk):
    slugs = [p["slug"] for p in on_disk["presets"]]
    assert slugs[:3] == ["bank_of_river", "the_cat_sat", "learned"]
    assert sorted(slugs) == examples.available()
    assert on_disk["default"] == "bank_of_river"
    assert on_disk["learned"] in slugs


@pytest.mark.parametrize("slug", examples.available())
def test_preset_equals_the_example(on_disk, slug):
    ex = examples.load(slug)
    (p,) = [p for p in on_disk["presets"] if p["slug"] == slug]
    assert p["title"] == ex.title
    assert p["tokens"] == list(ex.tokens)
    assert np.array_equal(np.array(p["embeddings"], dtype=float), ex.E)  # exact, not close
    assert (p["scale"], p["causal"], p["decimals"]) == (ex.scale, ex.causal, ex.decimals)
    expected_kind = {"none": "none", "identity": "identity", "random": "matrices", "given": "matrices"}
    assert p["projections"] == expected_kind[ex.projections]
    for name in ("W_Q", "W_K", "W_V"):
        if p["projections"] == "matrices":
            W = np.array(p[name], dtype=float)
            assert W.dtype == np.float64 and np.array_equal(W, getattr(ex, name)), name
        else:
            assert name not in p


def test_learned_weights_are_numpys_draw(on_disk, text):
    """The seeded weights come from NumPy's generator, every digit: nobody typed them."""
    (p,) = [p for p in on_disk["presets"] if p["slug"] == on_disk["learned"]]
    ex = examples.load(on_disk["learned"])
    assert p["origin"] == {"generator": "numpy.random.default_rng", "seed": ex.seed, "std": ex.std}
    drawn = examples.random_projections(ex.seed, ex.E.shape[1], ex.std)
    for name, W in zip(("W_Q", "W_K", "W_V"), drawn, strict=True):
        assert np.array_equal(np.array(p[name]), W), name
    # And the JSON round-trips each float exactly (shortest repr), as JSON.parse reads it.
    assert repr(float(drawn[0][0, 0])) in text


# What the playground's state.js, run in Node (no browser), makes of the link to each example
# (#preset=<slug>, as its page links it): the link it writes back for the state it opens.
OPENED_JS = """
const m = await import(process.argv[1]);
const fs = await import("node:fs");
const presets = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = {};
for (const {slug} of presets.presets) {
  const {state, preset, error} = m.decodeLink(`#preset=${slug}`, "", presets);
  out[slug] = error ?? m.encodeLink(state, presets, preset);
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def opened(tmp_path_factory, text) -> dict[str, str]:
    """{slug: the link the playground writes for the example its link opens}, from state.js in Node."""
    node = shutil.which("node")
    assert node, "Node.js is needed to run the playground's module outside a browser"
    tmp = tmp_path_factory.mktemp("playground")
    for rel in ("assets/playground", "generated/playground"):  # state.js and the modules it imports
        shutil.copytree(ROOT / "docs" / rel, tmp / rel, ignore=shutil.ignore_patterns("*.bundle.js", "presets.json"))
    (tmp / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (tmp / "presets.json").write_text(text, encoding="utf-8")
    state_js = (tmp / "assets/playground/state.js").as_uri()
    proc = subprocess.run([node, "--input-type=module", "-e", OPENED_JS, state_js, str(tmp / "presets.json")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("slug", examples.available())
def test_the_playground_opens_each_example_as_itself(opened, slug):
    """An example's link opens it in the playground, and the playground's link names it again, even when
    another example holds the same numbers (`make example` copies The cat sat's): the preset a link names
    is the one shown. A quick check, without a browser, of what the browser tests check on the page."""
    assert opened[slug] == f"preset={slug}", f"#preset={slug} opens as {opened[slug]!r}"


PLAYGROUND_LINK = re.compile(r"\]\(playground\.md\?preset=([A-Za-z0-9_]+)\)")


def test_page_links_name_existing_presets(on_disk):
    slugs = {p["slug"] for p in on_disk["presets"]}
    links = [(page_id(p), m) for p in PAGES for m in PLAYGROUND_LINK.findall(p.read_text(encoding="utf-8"))]
    assert links, "no page links to the playground with ?preset=<slug>"
    unknown = [f"{page}: {slug}" for page, slug in links if slug not in slugs]
    assert not unknown, unknown


def test_a_build_does_not_overwrite_a_presets_file_it_did_not_write(tmp_path, monkeypatch):
    """Git ignores the gathered files, so whatever is at their place may be anyone's: a build (and
    `make update`) writes over one it wrote, and refuses, naming it, one without its banner."""
    import dataclasses
    import functools

    from publish import files
    from publish.generate import update

    path = tmp_path / "docs" / "generated" / "playground" / "presets.json"
    path.parent.mkdir(parents=True)
    new = playground._presets_json()
    monkeypatch.setattr(update, "unsafe", functools.partial(files.unsafe, root=tmp_path))
    monkeypatch.setattr(update, "atomic_write", functools.partial(files.atomic_write, root=tmp_path))
    monkeypatch.setattr(registry, "gather", lambda every: {path: new})
    producers.load()  # the presets' producer, registered at this path
    (ours,) = [p for p in registry.producers() if p.path == PATH]
    monkeypatch.setattr(registry, "producers", lambda: [dataclasses.replace(ours, path=path)])
    path.write_text('{"mine": true}\n', encoding="utf-8")
    with pytest.raises(update.UpdateError, match=r"presets.json exists and was not written by `make update`"):
        update.write_gathered([])
    assert path.read_text(encoding="utf-8") == '{"mine": true}\n'
    path.write_text('{"_generated_by": "publish.generate.playground:_presets_json", "presets": []}\n', encoding="utf-8")
    assert update.write_gathered([]) == [path]
    assert path.read_text(encoding="utf-8") == new
