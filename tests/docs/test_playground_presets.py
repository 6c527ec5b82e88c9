"""The playground's presets (docs/generated/playground/presets.json) are the worked examples.

The browser layer (tests/browser/test_playground.py) checks what the page does with them; this
file checks, without a browser, that the file holds exactly what selfattn_ref defines, that it is
registered with the generated-file registry (so `make update` writes it and the suite's
staleness test covers it), and that the links of the pages name presets that exist.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from publish import GENERATED
from publish.producers import generate
from publish.sources import playground
from publish.update import stale_generated
from selfattn_ref import examples

from pages import PAGES, page_id

PATH = GENERATED / playground.RELPATH


@pytest.fixture(scope="module")
def on_disk() -> dict:
    assert PATH.is_file(), f"{PATH} is missing; run `make update`"
    return playground.parse(PATH.read_text(encoding="utf-8"))


def test_presets_file_is_generated_and_current():
    generated = generate()
    assert PATH in generated, f"{playground.RELPATH} is not registered with @generated"
    assert PATH.read_text(encoding="utf-8") == generated[PATH], "presets.json is stale; run `make update`"
    changed, _ = stale_generated()
    assert PATH not in changed


def test_staleness_check_covers_the_json(monkeypatch):
    """A change in what the package gives makes the suite's staleness test fail for the JSON too."""
    real = playground.presets

    def changed():
        out = real()
        out["presets"][0]["embeddings"][0][0] += 1
        return out

    monkeypatch.setattr(playground, "presets", changed)
    stale, _ = stale_generated()
    assert PATH in stale


def test_file_is_plain_json():
    text = PATH.read_text(encoding="utf-8")
    assert not text.startswith("<!--")  # a comment header would make it invalid JSON
    data = json.loads(text)  # its provenance is a key, which the playground does not read
    assert data.pop("_generated_by") == "publish.sources.playground:_presets_json"
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


def test_learned_weights_are_numpys_draw(on_disk):
    """The seeded weights come from NumPy's generator, every digit: nobody typed them."""
    (p,) = [p for p in on_disk["presets"] if p["slug"] == on_disk["learned"]]
    ex = examples.load(on_disk["learned"])
    assert p["origin"] == {"generator": "numpy.random.default_rng", "seed": ex.seed, "std": ex.std}
    drawn = examples.random_projections(ex.seed, ex.E.shape[1], ex.std)
    for name, W in zip(("W_Q", "W_K", "W_V"), drawn, strict=True):
        assert np.array_equal(np.array(p[name]), W), name
    # And the JSON round-trips each float exactly (shortest repr), as JSON.parse reads it.
    text = PATH.read_text(encoding="utf-8")
    assert repr(float(drawn[0][0, 0])) in text


PLAYGROUND_LINK = re.compile(r"\]\(playground\.md\?preset=([A-Za-z0-9_]+)\)")


def test_page_links_name_existing_presets(on_disk):
    slugs = {p["slug"] for p in on_disk["presets"]}
    links = [(page_id(p), m) for p in PAGES for m in PLAYGROUND_LINK.findall(p.read_text(encoding="utf-8"))]
    assert links, "no page links to the playground with ?preset=<slug>"
    unknown = [f"{page}: {slug}" for page, slug in links if slug not in slugs]
    assert not unknown, unknown
