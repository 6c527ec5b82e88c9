"""The offline build (`make offline`) is the whole site from disk (file://): the playground computes
there (its generated classic-script bundle, loaded by assets/javascripts/modules.js, since browsers
load no ES module from disk), and the math renders (Material's document$ never emits from disk;
modules.js stands in for it). The bundler's forms run in Chromium from disk too.

Search from disk and the links between pages are checked by test_site.py's offline test.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from publish.fmt import num
from publish.generate import playground_bundle as pb
from selfattn_ref import examples
from selfattn_ref import language_model as lm
from selfattn_ref.topics.positional_encoding import with_positions

pytestmark = pytest.mark.browser

ROWS_JS = """(id) => [...document.getElementById(id).tBodies[0].rows]
  .map((r) => [...r.cells].map((c) => c.textContent))"""


def watched(context: BrowserContext) -> list[str]:
    """What a clean page from disk never does: console errors or warnings, uncaught errors, failed
    requests, requests that are not for a file."""
    problems: list[str] = []
    context.on("console", lambda m: m.type in ("error", "warning") and problems.append(f"console {m.type}: {m.text}"))
    context.on("weberror", lambda e: problems.append(f"uncaught: {e.error}"))
    context.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} ({r.failure})"))
    context.on(
        "request",
        lambda r: (
            urlsplit(r.url).scheme not in ("file", "data", "blob", "about") and problems.append(f"request: {r.url}")
        ),
    )
    return problems


def weights_rows(tokens, weights, decimals: int) -> list[list[str]]:
    return [[t, *(num(w, decimals) for w in row)] for t, row in zip(tokens, weights, strict=True)]


def open_from_disk(page: Page, html: Path, suffix: str = "") -> None:
    assert html.is_file(), f"{html} is not in the offline build"
    page.goto(html.as_uri() + suffix)


def test_playground_works_from_disk(new_context, offline_site: Path):
    context = new_context()
    problems = watched(context)
    page = context.new_page()
    open_from_disk(page, offline_site / "playground.html")
    page.wait_for_selector("#playground[data-state=ready]")
    scripts = page.evaluate("() => [...document.scripts].map((s) => [s.type, s.getAttribute('src')])")
    assert ["", (offline_site / "assets/playground/app.bundle.js").as_uri()] in scripts, scripts
    assert not [s for s in scripts if s[0] == "module"], f"a module script on a page from disk: {scripts}"
    # The default example, as its page shows it (the presets are inlined in the bundle).
    ex = examples.load("bank_of_river")
    st = examples.run(ex)
    assert page.evaluate(ROWS_JS, "pg-weights") == weights_rows(ex.tokens, st.weights, ex.decimals)
    # An edited number: every weight computed again.
    page.fill("#pg-x-0-1", "-0.5")
    E = ex.E.copy()
    E[0, 1] = -0.5
    edited = examples.run(examples.Example(**{**ex.__dict__, "E": E}))
    want = weights_rows(ex.tokens, edited.weights, ex.decimals)
    assert want != weights_rows(ex.tokens, st.weights, ex.decimals)
    page.wait_for_function(
        f"(want) => JSON.stringify(({ROWS_JS})('pg-weights')) === JSON.stringify(want)", arg=want, timeout=5000
    )
    assert np.isclose(edited.weights.sum(axis=1), 1).all()
    expect(page.locator("#pg-preset")).to_have_value("")  # no longer the worked example as it is
    # A worked example's link to the playground, followed from disk.
    open_from_disk(page, offline_site / "playground.html", "?preset=the_cat_sat")
    page.wait_for_selector("#playground[data-state=ready]")
    expect(page.locator("#pg-preset")).to_have_value("the_cat_sat")
    cat = examples.load("the_cat_sat")
    assert page.evaluate(ROWS_JS, "pg-weights") == weights_rows(cat.tokens, examples.run(cat).weights, cat.decimals)
    # The positional-encoding page's link: the positions added from disk too (positional.js, bundled).
    open_from_disk(page, offline_site / "playground.html", "?preset=dog_bites_man&positions=sinusoidal")
    page.wait_for_selector("#playground[data-state=ready]")
    st = with_positions("dog_bites_man")
    assert page.evaluate(ROWS_JS, "pg-weights") == weights_rows(["dog", "bites", "man"], st["weights"], 3)
    # The language model's mode: its own bundle, with the weights inlined, loaded when it is opened.
    text = "she took the money to the bank"
    open_from_disk(page, offline_site / "playground.html", "#model=" + text.replace(" ", "+") + "&generate=1")
    page.wait_for_selector("#pg-panel-model[data-state=ready]")
    scripts = page.evaluate("() => [...document.scripts].map((s) => s.getAttribute('src'))")
    assert (offline_site / "assets/playground/model_app.bundle.js").as_uri() in scripts, scripts
    probabilities = lm.next_word_probabilities(lm.forward(text).logits[-1])
    top = [[w, num(p, 4)] for w, p in lm.ranked(probabilities, 5)]
    assert [[r[0], r[-1]] for r in page.evaluate(ROWS_JS, "pg-model-next")] == top
    written = [r[2] for r in page.evaluate(ROWS_JS, "pg-model-generated")]
    assert written == [s.word for s in lm.generate(text, seed=1)]
    assert not problems, "\n".join(problems)


def test_math_renders_from_disk(new_context, offline_site: Path):
    context = new_context()
    problems = watched(context)
    page = context.new_page()
    open_from_disk(page, offline_site / "real-numbers.html")
    math = page.locator(".arithmatex")
    assert math.count() > 0, "real-numbers.html has no math to check"
    page.wait_for_function(
        "() => [...document.querySelectorAll('.arithmatex')].every((e) => e.querySelector('.katex'))"
    )
    assert not problems, "\n".join(problems)


def test_bundled_modules_run_from_disk(new_context, tmp_path: Path):
    """Every form the bundler rewrites, in modules of its own, bundled and run from file:// (twice loaded:
    the modules still run once, as modules do)."""
    files = {
        "lib/math.js": "export function twice(x) { return 2 * x; }\nexport const ONE = 1;\nconst three = 3;\n"
        "export { three as THREE };\n",
        "fmt.js": 'import { ONE } from "./lib/math.js";\nexport const plusOne = (x) => x + ONE;\n'
        "globalThis.runs = (globalThis.runs || 0) + 1;\n",
        "greet.js": "export default function greet(name) { return `hello ${name}`; }\n",
        "side.js": "globalThis.sideEffect = true;\n",
        "data/numbers.json": '{"numbers": [1, 2, 3]}\n',
        "lazy/later.js": 'import { twice } from "../lib/math.js";\nexport const later = () => twice(50);\n'
        'const DATA = new URL("../data/numbers.json", import.meta.url);\n'
        "export const numbers = () => fetch(DATA).then((r) => r.json());\n",
        "main.js": 'import "./side.js";\nimport {\n  twice as double,\n  THREE,\n} from "./lib/math.js";\n'
        'import * as fmt from "./fmt.js";\nimport greet from "./greet.js";\n'
        'const DATA = new URL("data/numbers.json", import.meta.url);\n'
        'Promise.all([fetch(DATA).then((r) => r.json()), import("./lazy/later.js"), import("./lazy/later.js")])\n'
        "  .then(async ([data, lazy, again]) => {\n"
        "  document.body.dataset.result = JSON.stringify({\n"
        "    double: double(21), three: THREE, plusOne: fmt.plusOne(1), greet: greet('disk'),\n"
        "    side: globalThis.sideEffect, numbers: data.numbers, runs: globalThis.runs,\n"
        "    url: import.meta.url, strict: (function () { return this === undefined; })(),\n"
        "    later: lazy.later(), same: lazy === again, lazyNumbers: (await lazy.numbers()).numbers,\n"
        "    scripts: [...document.scripts].map((s) => s.src.split('/').slice(-2).join('/')),\n"
        "  });\n});\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    entry = tmp_path / "main.js"
    assert pb.lazy_entries(entry) == [tmp_path / "lazy" / "later.js"]
    for module in [entry, *pb.lazy_entries(entry)]:
        pb.bundle_path(module).write_text(pb.bundle(module, "test"), encoding="utf-8")
    html = tmp_path / "index.html"
    html.write_text('<!doctype html><body><script src="main.bundle.js"></script><script src="main.bundle.js">'
                    "</script></body>", encoding="utf-8")  # fmt: skip
    context = new_context()
    problems = watched(context)
    page = context.new_page()
    page.goto(html.as_uri())
    page.wait_for_function("() => document.body.dataset.result")
    result = json.loads(page.evaluate("() => document.body.dataset.result"))
    assert result == {
        "double": 42, "three": 3, "plusOne": 2, "greet": "hello disk", "side": True, "numbers": [1, 2, 3],
        "runs": 1, "url": entry.as_uri(), "strict": True, "later": 100, "same": True, "lazyNumbers": [1, 2, 3],
        "scripts": ["lazy/later.bundle.js"] + [f"{tmp_path.name}/main.bundle.js"] * 2,  # once, in the head
    }  # fmt: skip
    assert not problems, "\n".join(problems)
