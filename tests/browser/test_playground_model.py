"""The playground's language-model mode (docs/assets/playground/model_app.js, language_model.js), in Chromium.

- parity: language_model.js, on the weights the page fetches, computes every step of the package's
  NumPy model (selfattn_ref.language_model) and of its PyTorch twin to 1e-5 on seeded sentences
  (drawn from the corpus and from random strings of the vocabulary); the top-k order, mulberry32's
  numbers, the sampled ids and the generated words are exactly the package's;
- the mode: loaded only when it is opened, its tables the package's numbers at the rounding shown,
  its state in the address, a typed text shown as typed, the keyboard.

One page for the module (test_playground's shared page): the parity is one evaluation in it. What
needs no page, the words and their messages and every explanation's arithmetic, is checked in Node
(tests/content/test_playground_node.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from urllib.parse import parse_qs, urlencode, urlsplit

import numpy as np
import pytest
import torch
from playground_checks import change_hash, evaluate_json, open_playground, page_text_has_no_nan
from playwright.sync_api import expect

from publish.fmt import num
from selfattn_ref import cli, corpus
from selfattn_ref import language_model as lm
from selfattn_ref.torch import language_model as tlm

pytestmark = pytest.mark.browser

# The playground's fixtures (tests/browser/conftest.py): one page shared by the module, put back to a
# fresh load's state before each test.

TOL = 1e-5  # the bar; the differences measured are some 1e-14
V = corpus.VOCABULARY
MODULE = "assets/playground/language_model.js"
WEIGHTS = "generated/playground/language_model.json"
SEEDS = [0, 1, 2, 53, 2**32 - 1]
TOP_K = [[1, None], [0.5, 3], [2, 5], [1, 43]]  # (temperature, top_k)


def sentences(seed: int = 53, count: int = 60) -> list[list[str]]:
    """Half of them sentences of the corpus, cut after a seeded number of words; half random strings of
    the vocabulary's words, of 1 to n_ctx words; both lengths' ends among them."""
    rng = np.random.default_rng(seed)
    drawn = [list(s.words) for s in corpus.generate(count // 2, seed=seed)]
    out = [s[: int(rng.integers(1, len(s) + 1))] for s in drawn]
    out += [
        [V[i] for i in rng.integers(0, len(V), int(rng.integers(1, corpus.CONTEXT + 1)))] for _ in range(count // 2)
    ]
    out += [["."], ["bank"], [V[i] for i in rng.integers(0, len(V), corpus.CONTEXT)], drawn[0][: corpus.CONTEXT]]
    return out


PARITY_JS = """async ([module, weights, cases, ties, streams, draws, runs]) => {
  const lm = await import(module);
  const model = lm.readWeights(await (await fetch(weights)).json());
  const last = (rows) => rows[rows.length - 1];
  const steps = cases.map((words) => {
    const s = lm.forward(model, words);
    return {
      embeddings: s.embeddings, positions: s.positions, X: s.X, final: s.final, logits: s.logits,
      probabilities: s.probabilities,
      blocks: s.blocks.map((b) => ({
        norm_1: b.norm_1, weights: b.heads.heads.map((h) => h.weights), attention: b.attention,
        sum_1: b.sum_1, norm_2: b.norm_2, hidden: b.hidden, relu: b.relu, ffn: b.ffn, output: b.output,
      })),
      topk: TOP_K.map(([T, k]) => lm.nextWordProbabilities(last(s.logits), T, k)),
      ranked: lm.ranked(last(s.probabilities), model.vocabulary, 5).map((r) => r.word),
    };
  });
  const stream = (seed, n) => {
    const r = new lm.SeededRandom(seed);
    return Array.from({length: n}, () => r.uniform());
  };
  const all = (logits) => lm.nextWordProbabilities(logits);
  return {
    vocabulary: model.vocabulary, context: model.context,
    steps,
    ties: ties.map(([logits, k]) => lm.nextWordProbabilities(logits, 1, k)),
    tiesRanked: ties.map(([logits]) => lm.ranked(all(logits), model.vocabulary, 43).map((r) => r.id)),
    streams: streams.map(([seed, n]) => stream(seed, n)),
    draws: draws.map(([p, u]) => lm.sample(p, u)),
    greedy: draws.map(([p]) => lm.greedy(p)),
    runs: runs.map(([words, temperature, seed]) => lm.generate(model, words, {temperature, seed})
      .map((g) => ({word: g.word, u: g.u, p: g.probabilities}))),
  };
}""".replace("TOP_K", json.dumps(TOP_K))


def close(name: str, got, want, where: str, tol: float = TOL) -> float:
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"{where}: {name} has shape {got.shape}, the package's {want.shape}"
    err = float(np.abs(got - want).max())
    assert err <= tol, f"{where}: {name} differs by {err:.3g}"
    return err


def test_the_model_in_javascript_equals_numpy_and_pytorch(pg, site):
    """Every step of language_model.js against NumPy, the logits, probabilities and heads' weights against
    PyTorch's torch.nn model, on 64 seeded sentences; top-k (ties to the smaller id), ranked(), mulberry32,
    sample(), greedy() and generate() exactly as the package's."""
    page, watch = pg
    cases = sentences()
    assert len(cases) >= 50
    rng = np.random.default_rng(7)
    # Logits with ties (the same largest value several times): top-k keeps the smaller ids.
    ties = [
        ([1.0, 1.0, 1.0] + [0.0] * (len(V) - 3), 2),
        ([0.0] * len(V), 5),
        (rng.integers(0, 3, len(V)).astype(float).tolist(), 7),
    ]
    streams = [(seed, 500) for seed in SEEDS]
    # Draws: random distributions and numbers u, and u past the last running total (1 - 2^-53 on a sum
    # that rounding leaves under it): the last word with a probability above 0.
    draws = []
    for _ in range(200):
        p = rng.dirichlet(np.full(len(V), 0.3))
        draws.append((p.tolist(), float(rng.random())))
    tenth = [0.0] * (len(V) - 10) + [0.1] * 10  # adds up to 0.9999999999999999
    draws.append((tenth, 1 - 2**-53))
    runs = [(case, T, seed) for case in cases[:8] for T, seed in [(1, 1), (0.5, 53), (2, 2**32 - 1), (1, None)]]
    runs = [r for r in runs if len(r[0]) < corpus.CONTEXT]
    js = evaluate_json(
        page, PARITY_JS, [site.base_url + MODULE, site.base_url + WEIGHTS, cases, ties, streams, draws, runs]
    )

    assert js["vocabulary"] == list(V) and js["context"] == corpus.CONTEXT
    torch_model = tlm.model()
    worst = {"numpy": 0.0, "torch": 0.0}
    for i, (words, got) in enumerate(zip(cases, js["steps"], strict=True)):
        where = f"sentence {i} {' '.join(words)!r}"
        st = lm.forward(words)
        for name in ("embeddings", "positions", "X", "final", "logits", "probabilities"):
            worst["numpy"] = max(worst["numpy"], close(name, got[name], getattr(st, name), where))
        for b, (gb, sb) in enumerate(zip(got["blocks"], st.blocks, strict=True), 1):
            for name in ("norm_1", "weights", "attention", "sum_1", "norm_2", "hidden", "relu", "ffn", "output"):
                worst["numpy"] = max(worst["numpy"], close(f"block {b} {name}", gb[name], getattr(sb, name), where))
        with torch.no_grad():
            *_, blocks, _, logits = torch_model.steps(torch.from_numpy(corpus.encode(words)))
        worst["torch"] = max(worst["torch"], close("logits (torch)", got["logits"], logits.numpy(), where))
        probabilities = torch.softmax(logits, dim=-1).numpy()
        worst["torch"] = max(worst["torch"], close("probabilities (torch)", got["probabilities"], probabilities, where))
        for b, (gb, tb) in enumerate(zip(got["blocks"], blocks, strict=True), 1):
            worst["torch"] = max(
                worst["torch"], close(f"block {b} weights (torch)", gb["weights"], tb.weights.numpy(), where)
            )
        last = st.logits[-1]
        for (T, k), p in zip(TOP_K, got["topk"], strict=True):
            want = lm.next_word_probabilities(last, T, k)
            assert [x > 0 for x in p] == [x > 0 for x in want], f"{where}: top-{k} keeps other words"
            close(f"top-{k} at T = {T}", p, want, where, 1e-12)
        assert got["ranked"] == [w for w, _ in lm.ranked(st.probabilities[-1], 5)], where
    for (logits, k), p, order in zip(ties, js["ties"], js["tiesRanked"], strict=True):
        want = lm.next_word_probabilities(logits, 1, k)
        assert np.flatnonzero(np.asarray(p) > 0).tolist() == np.flatnonzero(want > 0).tolist(), f"ties, top-{k}"
        p_all = lm.next_word_probabilities(logits)
        assert [V[i] for i in order] == [w for w, _ in lm.ranked(p_all, len(V))]
    for (seed, n), got in zip(streams, js["streams"], strict=True):
        rng_ = corpus.SeededRandom(seed)
        assert got == [rng_.uniform() for _ in range(n)], f"mulberry32, seed {seed}"
    assert js["draws"] == [lm.sample(p, u) for p, u in draws]
    assert js["draws"][-1] == len(V) - 1  # u past the last total: the last word with p > 0
    assert js["greedy"] == [lm.greedy(p) for p, _ in draws]
    assert len(runs) >= 20
    for (words, T, seed), got in zip(runs, js["runs"], strict=True):
        want = lm.generate(words, temperature=T, seed=seed)
        where = f"generate({' '.join(words)!r}, temperature={T}, seed={seed})"
        assert [g["word"] for g in got] == [s.word for s in want], where
        assert [g["u"] for g in got] == [s.u for s in want], where
        for g, s in zip(got, want, strict=True):
            close("probabilities", g["p"], s.probabilities, where, 1e-12)
    print(f"largest difference: NumPy {worst['numpy']:.2g}, PyTorch {worst['torch']:.2g}")
    watch.check()


# --- the mode --------------------------------------------------------------------------------------

MODEL_FILES = ("model_app.js", "language_model.js", "language_model.json", "model_app.bundle.js")
READY = "#pg-panel-model[data-state=ready]"


def rows(page, table_id: str) -> list[list[str]]:
    return page.evaluate(
        "(id) => [...document.getElementById(id).tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))",
        table_id,
    )


def link_of(text: str, **options) -> str:
    return "#" + urlencode({"model": text, **options})


def expected(text: str, temperature: float, decimals: int) -> dict:
    """What the mode shows, from the package: the next words' table and each head's weights."""
    st = lm.forward(text)
    p = lm.next_word_probabilities(st.logits[-1], temperature)
    last = st.logits[-1]
    top = [
        [w, num(last[V.index(w)], decimals), num(last[V.index(w)] / temperature, decimals), num(q, decimals)]
        for w, q in lm.ranked(p, 5)
    ]
    labels = labelled(st.words)
    heads = {
        f"pg-model-b{b}h{h + 1}": [
            [labels[i], *(num(x, decimals) for x in row)] for i, row in enumerate(block.weights[h])
        ]
        for b, block in enumerate(st.blocks, 1)
        for h in range(block.weights.shape[0])
    }
    return {"next": top, "heads": heads}


def labelled(words) -> list[str]:
    """The tables' labels: a word that comes twice with its place as a subscript (state.js, wordLabels)."""
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    return [w + str(i + 1).translate(sub) if words.count(w) > 1 else w for i, w in enumerate(words)]


def test_the_mode_loads_only_when_opened(new_context, site):
    """A playground load asks for none of the mode's files; opening the tab asks for its two modules
    and the weights, once, and shows the package's next words."""
    context = new_context()
    page = context.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url.rsplit("/", 1)[-1]))
    page.goto(site.base_url + "playground/")
    page.wait_for_selector("#playground[data-state=ready]")
    page.wait_for_load_state("networkidle")
    assert not [f for f in asked if f in MODEL_FILES], asked
    assert page.evaluate("scrollY") == 0  # no link named a state: the page opens on its introduction
    assert page.locator("#pg-panel-model").is_hidden()
    page.get_by_role("tab", name="The trained language model").click()
    page.wait_for_selector(READY)
    page.wait_for_load_state("networkidle")
    assert sorted(f for f in asked if f in MODEL_FILES) == ["language_model.js", "language_model.json", "model_app.js"]
    assert rows(page, "pg-model-next") == expected(MODEL_DEFAULTS_TEXT, 1, 4)["next"]
    page.get_by_role("tab", name="Self-attention, step by step").click()
    page.get_by_role("tab", name="The trained language model").click()
    assert sorted(f for f in asked if f in MODEL_FILES) == ["language_model.js", "language_model.json", "model_app.js"]
    # The pages' link (/next-word/, /trained-model/) opens the page on the playground, under the header,
    # once the mode is shown (before, the page was too short to scroll that far: it stayed at the top).
    page.goto(site.base_url + "playground/?model=the+cat+sat")
    page.wait_for_selector(READY)
    top = page.evaluate("() => document.getElementById('playground').getBoundingClientRect().top")
    assert abs(top - 72) < 2, f"the playground is {top} px from the top after the pages' link"  # 3.6rem
    context.close()


MODEL_DEFAULTS_TEXT = "she took the money to the bank"


def test_the_mode_shows_the_packages_numbers_and_keeps_them_in_the_address(pg, site):
    """A link opens the mode with its text, temperature, decimals and seed; the next words, every head's
    weights and the generated words are the package's at the rounding shown; an edit goes to the
    address, and the other tab has its own."""
    page, watch = pg
    text = "the animal near the street was cold so it"
    open_playground(page, site, link_of(text, temperature="2", decimals="3", seed="7", generate="1"))
    page.wait_for_selector(READY)
    assert page.input_value("#pg-model-text") == text
    assert page.input_value("#pg-model-temperature") == "2" and page.input_value("#pg-model-seed") == "7"
    assert page.input_value("#pg-model-decimals") == "3"
    want = expected(text, 2, 3)
    assert rows(page, "pg-model-next") == want["next"]
    for table, cells in want["heads"].items():
        assert rows(page, table) == cells, table
    steps = lm.generate(text, temperature=2, seed=7)
    assert rows(page, "pg-model-generated") == [
        [str(k), num(s.u, 3), s.word, num(s.probabilities[V.index(s.word)], 3)] for k, s in enumerate(steps, 1)
    ]
    assert (
        page.text_content("#pg-model-command") == f'python -m selfattn_ref next "{text}" --temperature 2 --decimals 3'
    )
    # The command the page shows for its words prints them, with the same numbers.
    shown = page.text_content("#pg-model-generated-command")
    assert shown == f'python -m selfattn_ref next "{text}" --generate --seed 7 --temperature 2 --decimals 3'
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(shlex.split(shown)[3:]) == 0
    printed = re.findall(r"^ +\d+\. (\S+) +u = (\S+)  probability (\S+)$", out.getvalue(), re.M)
    assert printed == [(r[2], r[1], r[3]) for r in rows(page, "pg-model-generated")]
    # An edit: the words as typed, read in lower case; the address follows.
    page.fill("#pg-model-text", "The CAT sat")
    page.wait_for_function("() => location.hash.startsWith('#model=The+CAT+sat&')")
    assert parse_qs(urlsplit(page.url).fragment) == {
        "model": ["The CAT sat"], "temperature": ["2"], "decimals": ["3"], "seed": ["7"], "generate": ["1"],
    }  # fmt: skip
    assert rows(page, "pg-model-next") == expected("the cat sat", 2, 3)["next"]
    page.select_option("#pg-model-pick", "greedy")
    expect(page.locator("#pg-model-seed")).to_be_hidden()
    page.wait_for_function("() => location.hash.includes('pick=greedy')")
    assert "seed=" not in page.url
    assert [r[2] for r in rows(page, "pg-model-generated")] == [
        s.word for s in lm.generate("the cat sat", temperature=2)
    ]
    # The other mode keeps its own state in the address, and the model's comes back with its tab.
    page.get_by_role("tab", name="Self-attention, step by step").click()
    page.wait_for_function("() => location.hash === '#preset=bank_of_river'")
    page.get_by_role("tab", name="The trained language model").click()
    page.wait_for_function("() => location.hash.startsWith('#model=The+CAT+sat&')")
    # A new link in the same tab (hashchange) opens its state.
    change_hash(page, link_of("she took the boat to the bank"))
    page.wait_for_selector(READY)
    expect(page.locator("#pg-model-text")).to_have_value("she took the boat to the bank")
    assert rows(page, "pg-model-next") == expected("she took the boat to the bank", 1, 4)["next"]
    watch.check()


def test_an_unknown_word_a_hostile_text_and_bad_settings(pg, site):
    """Each gets the package's message next to its field, shows as typed and runs nothing; the results
    stay those of the last sentence the model could read, and say so; a bad link falls back with a notice."""
    page, watch = pg
    open_playground(page, site, link_of("she took the money to the bank"))
    page.wait_for_selector(READY)
    before = rows(page, "pg-model-next")
    for text in ["she took the bnak", "she took the <img src=x onerror=alert(1)>", "", " ".join(["the"] * 14)]:
        page.fill("#pg-model-text", text)
        with pytest.raises(ValueError) as exc:
            corpus.words(text)
        message = str(exc.value)
        expect(page.locator("#pg-model-text-message")).to_have_text(message[0].upper() + message[1:] + ".")
        assert page.get_attribute("#pg-model-text", "aria-invalid") == "true"
        expect(page.locator("#pg-model-stale")).to_be_visible()
        assert rows(page, "pg-model-next") == before
    assert page.locator("#playground img").count() == 0
    page.fill("#pg-model-text", "the cat sat")
    expect(page.locator("#pg-model-stale")).to_be_hidden()
    floor = (
        "The temperature must be a number from 0.01 to 1,000,000; for the most likely word every time, use greedy "
        "decoding (set “Each word” to “The most probable (greedy)”)."
    )
    for value, message in [
        ("abc", "Not a number: use digits, a point and a minus sign, such as 0.5 or -2."),
        ("0", floor),
        ("0.009999999999999998", floor),
        ("2e6", "The temperature must be a number from 0.01 to 1,000,000."),
    ]:
        page.fill("#pg-model-temperature", value)
        expect(page.locator("#pg-model-temperature-message")).to_have_text(message)
        expect(page.locator("#pg-model-stale")).to_be_visible()
    with pytest.raises(ValueError, match="temperature 1e-320 is too small"):
        lm.next_word_probabilities(lm.forward("the cat sat").logits[-1], 1e-320)
    page.fill("#pg-model-temperature", "0.5")
    expect(page.locator("#pg-model-stale")).to_be_hidden()
    page.fill("#pg-model-seed", "4294967296")
    expect(page.locator("#pg-model-seed-message")).to_have_text(
        "The seed must be a whole number from 0 to 4,294,967,295."
    )
    page.fill("#pg-model-seed", "4294967295")
    page.fill("#pg-model-text", " ".join(["the"] * 13))
    page.click("#pg-model-generate")
    expect(page.locator("#pg-model-generate-message")).to_have_text(
        "The sentence has 13 words, as many as the model reads: there is no room for another."
    )
    page_text_has_no_nan(page)
    # A link with a text that is markup: shown as typed; a link with a bad setting: the default, with a notice.
    hostile = "<script>alert(1)</script>"
    open_playground(page, site, link_of(hostile))
    page.wait_for_selector(READY)
    expect(page.locator("#pg-model-text")).to_have_value(hostile)
    with pytest.raises(ValueError) as exc:
        corpus.words(hostile)
    message = str(exc.value)
    assert message.startswith("word 1, '<script>alert(1)</script'... (25 characters), is not")
    expect(page.locator("#pg-model-text-message")).to_have_text(message[0].upper() + message[1:] + ".")
    # Nothing read yet: no empty results under their headings, until a sentence the model can read.
    for heading in ("#pg-model-next-heading", "#pg-model-heads-heading"):
        expect(page.locator(heading)).to_be_hidden()
    page.fill("#pg-model-text", "the cat")
    for heading in ("#pg-model-next-heading", "#pg-model-heads-heading"):
        expect(page.locator(heading)).to_be_visible()
    open_playground(page, site, link_of("the cat", temperature="0"))
    expect(page.locator("#pg-notice")).to_contain_text(
        '"temperature" must be a number from 0.01 to 1,000,000; for the most likely'
    )
    expect(page.locator("#pg-panel-attention")).to_be_visible()
    watch.check()


def test_the_keyboard_reaches_the_mode_and_its_numbers(pg, site):
    """The arrow keys move between the tabs; Tab reaches the sentence, and a weight, which explains
    itself (the arrow keys move between the weights, Escape closes the explanation)."""
    page, watch = pg
    open_playground(page, site)
    page.focus("#pg-tab-attention")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(READY)
    assert page.evaluate("() => document.activeElement.id") == "pg-tab-model"
    assert page.get_attribute("#pg-tab-model", "aria-selected") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "pg-model-text"
    first = page.locator("#pg-model-b1h1 td[tabindex='0']")
    first.focus()
    box = page.locator("#pg-model-explain")
    expect(box).to_be_visible()
    assert box.get_attribute("data-table") == "b1h1" and box.get_attribute("data-cell") == "0,0"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert box.get_attribute("data-cell") == "1,1"
    expect(page.locator("#pg-model-explain-title")).to_have_text(
        "In block 1, head 1, the weight took gives took: its share of row took after the softmax."
    )
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()
    assert page.evaluate("() => document.activeElement.closest('table').id") == "pg-model-b1h1"
    page.keyboard.press("Shift+Tab")
    page.focus("#pg-tab-model")
    page.keyboard.press("Home")
    assert page.get_attribute("#pg-tab-attention", "aria-selected") == "true"
    expect(page.locator("#pg-panel-model")).to_be_hidden()
    watch.check()
