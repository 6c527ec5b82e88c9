"""The playground (docs/playground.md, docs/assets/playground/) in Chromium, on the built site.

- parity: the page's own modules (imported with import() in the page) compute what selfattn_ref
  computes, to 1e-9, on hundreds of seeded random cases, and format numbers as the pages do;
- presets: each worked example shows exactly the strings of its generated tables;
- editing, bad input (a message next to the field, the last good result kept, no NaN or Infinity,
  nothing in the console), links that carry the state (and links that are broken or hostile);
- keyboard, dark scheme, a 375 px wide screen, axe-core, instant navigation.
"""

from __future__ import annotations

import base64
import json
import math
import re
from urllib.parse import urlsplit

import numpy as np
import pytest
from browser_checks import (
    open_for_instant_navigation,
)
from playground_checks import (
    BANK,
    DEFAULT,
    PRESETS,
    SLUGS,
    Watch,
    assert_close,
    axe_violations,
    change_hash,
    check_matches_generated,
    evaluate_json,
    example_of,
    expected_mix,
    expected_table,
    field_text,
    generated_table,
    link,
    open_details,
    open_playground,
    page_text_has_no_nan,
    playground_url,
    random_cases,
    read_table,
    sixteen_by_sixteen,
)
from playground_page import SharedPage
from playwright.sync_api import Page, expect

from publish import GENERATED, ROOT
from publish.fmt import cell, num, vector
from publish.generate import playground
from publish.generate.scaffold import template
from selfattn_ref import examples
from selfattn_ref.examples.digits import last_place
from selfattn_ref.positional import sinusoidal_positional_encoding

pytestmark = pytest.mark.browser


# --- helpers ---------------------------------------------------------------------------------------


def weights_cells(page: Page) -> list[list[str]]:
    return read_table(page, "pg-weights")["rows"]


# --- parity with selfattn_ref -----------------------------------------------------------------------


PARITY_JS = """async ([url, cases]) => {
  const m = await import(url);
  return cases.map((c) => {
    const r = m.attention(c);
    return {Q: r.Q, K: r.K, V: r.V, scores: r.scores, scaled: r.scaled, logits: r.logits,
            weights: r.weights, output: r.output, PE: r.PE, X: r.X};
  });
}"""


def test_math_module_equals_numpy_reference(pg, site):
    """attention.js against the reference on seeded random cases, a quarter of them with the
    sinusoidal positional encoding added first (positional.js against selfattn_ref.positional, and
    every step then as the reference computes it from X + PE, as docs/positional-encoding.md does)."""
    page, watch = pg  # the playground's page: its modules are imported there
    cases = random_cases()
    for case in cases[::4]:
        case["positions"] = "sinusoidal"
    assert len(cases) >= 200
    results = evaluate_json(page, PARITY_JS, [site.base_url + "assets/playground/attention.js", cases])
    sizes = set()
    for i, (case, js) in enumerate(zip(cases, results, strict=True)):
        W = [case[k] for k in ("W_Q", "W_K", "W_V")] if case["projections"] == "matrices" else None
        X = np.asarray(case["X"], dtype=float)
        if case.get("positions"):
            PE = sinusoidal_positional_encoding(*X.shape)
            assert_close("PE", js["PE"], PE, f"case {i}")
            X = X + PE
        else:
            assert js["PE"] is None, f"case {i}"
        assert_close("X", js["X"], X, f"case {i}")
        ex = example_of(X, case["projections"], W, case["scale"], case["causal"])
        st = examples.run(ex)
        shape = f"{len(case['X'])}×{len(case['X'][0])}"
        where = f"case {i} ({shape}, {case['projections']}, scale={case['scale']}, causal={case['causal']})"
        sizes.add((len(case["X"]), len(case["X"][0])))
        for name in ("Q", "K", "V", "scores", "weights", "output"):
            assert_close(name, js[name], getattr(st, name), where)
        if st.scaled is None:
            assert js["scaled"] is None, where
        else:
            assert_close("scaled", js["scaled"], st.scaled, where)
        logits = st.scaled if st.scaled is not None else st.scores
        if st.mask is not None:
            logits = np.where(st.mask, logits, -np.inf)
            assert np.all(np.asarray(js["weights"])[~st.mask] == 0), f"{where}: a masked weight is not 0"
        assert_close("logits", js["logits"], logits, where)
    assert {(1, 1), (16, 16), (1, 16), (16, 1)} <= sizes
    watch.check()


FORMAT_JS = """async ([url, pairs, vectors, bounded]) => {
  const f = await import(url);
  return {
    num: pairs.map(([x, d]) => f.num(x, d)),
    integral: pairs.map(([x]) => (Number.isInteger(x) ? f.cell(x, 0, true) : null)),
    vector: vectors.map(([v, d]) => f.vector(v, d)),
    bounded: bounded.map(([x, d, e]) => [
      f.num(x, d, e), Number.isInteger(x) ? f.cell(x, d, true, e) : null, f.lastPlace(e),
    ]),
  };
}"""


def bounded_cases(rng) -> list[list[float]]:
    """(x, decimals, error) triples for the rule of a number's float64 error: errors at the edges of
    last_place (half a unit of a decimal, one float either side), errors that leave no decimal, no
    units digit, or no digit at all, and seeded errors of every size."""
    edges = [5e-11, 5.000000000000001e-11, 4.999999999999999e-11, 5e-4, 5.0000001e-4, 0.5, 0.5000000000000001, 3.0,
             50.0, 50.00000000000001, 51.0, 1e13, 5e14, 1e300, 0.0]  # fmt: skip
    xs = [399999.6398741780, -399999.6398741780, 0.10000000009313226, 1999996800001.3, 4.096e27, 17179869184.0,
          0.5, -0.5, 12.5, 15.0, 9.9999999, 999999.123456789, 1e15 + 2, -2.5e21, 0.0, 131072.0]  # fmt: skip
    cases = [[x, d, e] for x in xs for d in (0, 2, 4, 10) for e in edges]
    for _ in range(400):
        x = float(rng.normal(0, 1) * 10.0 ** rng.integers(-6, 28))
        e = abs(x) * 10.0 ** rng.uniform(-16, 1) if x else float(10.0 ** rng.uniform(-16, 3))
        cases.append([x if rng.random() < 0.8 else float(round(x)), int(rng.integers(0, 11)), e])
    return cases


def test_numbers_are_formatted_as_the_pages_do(pg, site):
    """format.js against publish.fmt: Python's rounding (ties to even, from the exact
    binary value), no "-0.000", integers as integers, at most 15 digits in a number."""
    page, watch = pg  # the playground's page: its modules are imported there
    rng = np.random.default_rng(7)
    values = [0.5, 1.5, 2.5, -2.5, 0.125, 0.375, -0.125, 0.0625, 2.675, 1.0005, 0.0005, -0.0005, -0.0004, 1e-12,
              -1e-12, 0.0, -0.0, 0.1, 0.665, 0.245, 123456.5, 9.9995, -9.9995, 1e15 + 0.5, 2.0**53 + 2, 1e21,
              1e22, -1e22, 4.5e27, 1e6, -1e6, 0.09003057317038046]  # fmt: skip
    # at most 15 digits (selfattn_ref.examples.digits): long numbers get fewer decimals, and more than
    # 15 digits before the point go to exponent notation, ties to even there too
    values += [999999.123456789, 99999.99999999999, 99999.5, 999999999999999.5, 999999999999999.4, 1e15,
               1000000000000005.0, 1000000000000015.0, 12345678901234565.0, 4503599627370497.5, 1.7976931348623157e308,
               -1234567890123.4567, 1.6e13]  # fmt: skip
    values += [k / 2**j for j in range(1, 12) for k in range(-9, 10, 2)]  # exact ties at many places
    values += list(rng.normal(0, 1, 150) * 10.0 ** rng.integers(-6, 7, 150))
    values += list(rng.normal(0, 1, 150) * 10.0 ** rng.integers(7, 30, 150))  # the playground's scores reach 4e27
    pairs = [[float(x), d] for x in values for d in (0, 1, 2, 3, 4, 6, 10)]
    vectors = [[rng.normal(0, 1, 4).round(k).tolist(), 3] for k in (0, 2, 5)] + [[[1.0, 0.0, -0.0, 2.0], 3]]
    bounded = bounded_cases(rng)
    out = evaluate_json(page, FORMAT_JS, [site.base_url + "assets/playground/format.js", pairs, vectors, bounded])
    wrong = [(x, d, js, num(x, d)) for (x, d), js in zip(pairs, out["num"], strict=True) if js != num(x, d)]
    assert not wrong, f"{len(wrong)} of {len(pairs)} differ, e.g. (x, decimals, JS, Python): {wrong[:8]}"
    for (x, _), js in zip(pairs, out["integral"], strict=True):
        if js is not None:
            assert js == cell(x, 0, True), x
    for (v, d), js in zip(vectors, out["vector"], strict=True):
        assert js == vector(np.array(v), d)
    # the float64 error's rule (issue 51, item 5): the same text from Python and JavaScript
    python = [
        [num(x, d, e), cell(x, d, True, e) if float(x).is_integer() else None, last_place(e)] for x, d, e in bounded
    ]
    wrong = [(c, js, py) for c, js, py in zip(bounded, out["bounded"], python, strict=True) if js != py]
    assert not wrong, f"{len(wrong)} of {len(bounded)} differ, e.g. ((x, decimals, error), JS, Python): {wrong[:6]}"
    assert {"?", "4.000e+05", "399999.64", "0.100000000"} <= {t for t, _, _ in python}  # the rule's cases are drawn
    watch.check()


# --- presets ------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_each_preset_shows_its_pages_numbers(pg, site, slug):
    page, watch = pg
    open_playground(page, site, f"#preset={slug}")
    ex = examples.load(slug)
    expect(page.locator("#pg-preset")).to_have_value(slug)
    expect(page.locator("#pg-decimals")).to_have_value(str(ex.decimals))
    assert page.is_checked("#pg-scale") == ex.scale
    assert page.is_checked("#pg-causal") == ex.causal
    check_matches_generated(page, slug)
    page_text_has_no_nan(page)
    watch.check()


@pytest.mark.parametrize("slug", ["bank_of_river", "the_cat_sat", "learned"])
def test_page_links_open_their_example(pg, site, slug):
    """The form the worked-example pages link with: playground/?preset=<slug> (here with the key that
    Material's search adds to the links of its results, which the playground leaves alone)."""
    page, watch = pg
    open_playground(page, site, f"?preset={slug}&h=attention")
    check_matches_generated(page, slug)
    expect(page.locator("#pg-notice")).to_be_hidden()
    watch.check()


def test_choosing_a_preset_from_the_list(pg, site):
    page, watch = pg
    open_playground(page, site)
    check_matches_generated(page, DEFAULT)
    page.select_option("#pg-preset", "the_cat_sat")
    check_matches_generated(page, "the_cat_sat")
    expect(page.locator("#pg-projections")).to_have_value("identity")
    page.select_option("#pg-preset", "learned")
    assert page.evaluate("location.hash") == "#preset=learned"  # a worked example as it is: a short link
    check_matches_generated(page, "learned")  # which writes out step 3 for each word in turn
    expect(page.locator("#pg-projections")).to_have_value("learned")
    expect(page.locator("#pg-preset")).to_have_value("learned")  # still the example: no number changed
    page.select_option("#pg-decimals", "6")
    page.wait_for_function("() => location.hash === '#preset=learned&word=3&decimals=6'")
    watch.check()


def test_short_link_with_word_and_decimals(pg, site):
    page, watch = pg
    open_playground(page, site, "#preset=learned&word=2&decimals=6")
    expect(page.locator("#pg-selected")).to_have_value("1")
    expect(page.locator("#pg-decimals")).to_have_value("6")
    ex = examples.load("learned")
    st = examples.run(ex)
    tokens = list(ex.tokens)
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 6, "query ↓ key →")
    assert page.locator("#pg-mix").text_content() == expected_mix(tokens, st.weights[1], st.V, st.output[1], 6)
    watch.check()


# --- the positional encoding ----------------------------------------------------------------------------

# The positional-encoding page's link to the playground, and its worked line of "dog in last place".
PE_PAGE = ROOT / "docs" / "positional-encoding.md"
PE_LINK = re.compile(r"\]\(playground\.md(\?preset=[a-z_]+&positions=sinusoidal)\)")
PE_LINE = re.compile(r"- dog in last place: \$(\[.*?\] \+ \[.*?\] = \[.*?\])\$")


def test_the_positional_encoding_page_opens_the_playground_with_the_positions(pg, site):
    """The page's link opens "dog bites man" with the sinusoidal encoding added before the steps: X + PE,
    the scores and the weights are the page's tables; a cell of X + PE writes the page's sum, a cell of PE
    its sine or cosine; the option is in the link the playground writes, and off, the example is as it is."""
    page, watch = pg
    text = " ".join(PE_PAGE.read_text(encoding="utf-8").split())  # the link may wrap over lines
    (query,) = PE_LINK.findall(text)
    open_playground(page, site, query)
    expect(page.locator("#pg-positions")).to_be_checked()
    expect(page.locator("#pg-preset")).to_have_value("dog_bites_man")
    gen = GENERATED / "positional_encoding"
    assert read_table(page, "pg-XPE") == generated_table(gen / "dog_bites_man_embeddings.md")
    assert read_table(page, "pg-scores") == generated_table(gen / "dog_bites_man_scores.md")
    assert read_table(page, "pg-weights")["rows"] == generated_table(gen / "dog_bites_man_weights.md")["rows"]
    PE = sinusoidal_positional_encoding(3, 4)
    assert read_table(page, "pg-PE") == expected_table(PE, ["0", "1", "2"], ["x1", "x2", "x3", "x4"], 3, "pos")
    # "man bites dog": dog in last place, as the page adds it.
    open_playground(page, site, "?preset=man_bites_dog&positions=sinusoidal")
    page.locator("#pg-XPE tbody tr").nth(2).locator("td").first.click()
    lines = page.locator("#pg-explain code").text_content().split("\n")
    (page_sum,) = PE_LINE.findall(PE_PAGE.read_text(encoding="utf-8"))
    assert lines[0] == f"dog's vector + PE(2) = {page_sum}", lines
    assert lines[1] == "x1: 1 + 0.909 = 1.909", lines
    assert sorted(marked_cells(page, "pg-used")) == ["pg-PE 3 1", "pg-words 3 1"]
    # A cell of PE: pos = 2, entry x2 = 2p + 1 with p = 0, a cosine: cos(2 / 10000^(0/4)).
    page.locator("#pg-PE tbody tr").nth(2).locator("td").nth(1).click()
    # The title names both counts, as the page does: x2 of the tables is the formula's entry 2p + 1 = 1.
    expect(page.locator("#pg-explain-title")).to_contain_text(
        "PE(2), entry x2, the formula's entry 2p + 1 = 1: the cosine of pair p = 0 at the position of dog, "
        "pos = 2 (the formula counts positions, pairs and entries from 0, as the paper does; the tables count "
        "x1, x2, ... from 1)."
    )
    assert page.locator("#pg-explain code").text_content().split("\n") == [
        "PE_(pos, 2p + 1) = cos(pos / 10000^(2p/d)), with pos = 2, p = 0 and d = 4",
        "10000^(0/4) = 1",
        "2 ÷ 1 = 2",
        f"cos(2) = {num(np.cos(2), 3)}",
    ]
    # The option is part of the link, and the scores' explanations read X + PE.
    page.select_option("#pg-decimals", "4")
    page.wait_for_function("() => location.hash === '#preset=man_bites_dog&decimals=4&positions=sinusoidal'")
    page.locator("#pg-scores tbody tr").first.locator("td").first.click()
    assert sorted(marked_cells(page, "pg-used")) == [f"pg-XPE 1 {k}" for k in range(1, 5)]
    page.uncheck("#pg-positions")
    expect(page.locator("#pg-XPE")).to_be_hidden()
    page.wait_for_function("() => location.hash === '#preset=man_bites_dog&decimals=4'")
    page.select_option("#pg-decimals", "3")
    check_matches_generated(page, "man_bites_dog")
    # An edited state keeps the option in its #s= link.
    page.check("#pg-positions")
    page.fill("#pg-x-0-0", "2")
    page.wait_for_function("() => location.hash.startsWith('#s=')")
    raw = page.evaluate("location.hash").removeprefix("#s=")
    state = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    assert state["positions"] == "sinusoidal" and state["X"][0][0] == 2
    page_text_has_no_nan(page)
    watch.check()


MARKED_JS = """(cls) => [...document.querySelectorAll('#playground td.' + cls)].map((td) =>
  `${td.closest('table').id} ${td.parentElement.sectionRowIndex + 1} ${td.cellIndex}`)"""


def marked_cells(page: Page, cls: str) -> list[str]:
    """Where the cells with a class are: "<table id> <row> <column>", counted from 1."""
    return page.evaluate(MARKED_JS, cls)


# --- examples a contributor adds -----------------------------------------------------------------


def contributed() -> list[examples.Example]:
    """The two examples of issue 51, as a contributor adds them: `make example`'s scaffold untouched
    (The cat sat's numbers, under another name), and one with projections = "random", seed and std, as
    CONTRIBUTING describes it, on vectors of 3 numbers (the learned weights need 4)."""
    scaffold = template("zz_copy", "A copy of The cat sat", examples.load("the_cat_sat"))
    seeded = template("zz_seeded", "Seeded weights", examples.load("the_cat_sat"))
    for old, new in [('projections = "identity"', 'projections = "random"'), ("# seed = 42", "seed = 7"),
                     ("# std = 0.5", "std = 0.4"), ("[1, 0, 1, 0]", "[1, 0, 1]"), ("[0, 1, 0, 1]", "[0, 1, 1]"),
                     ("[1, 1, 1, 1]", "[1, 1, 0]")]:  # fmt: skip
        assert old in seeded, old
        seeded = seeded.replace(old, new)
    return [examples.load_text(text, examples.EXAMPLES_DIR / f"{slug}.toml")
            for slug, text in [("zz_copy", scaffold), ("zz_seeded", seeded)]]  # fmt: skip


def test_examples_a_contributor_adds(playground_context, site):
    """With the presets of every example and the two a contributor adds (the page's presets file, as a
    build gathers it, served in its place): the copy of The cat sat opens as itself, and stays itself in
    the list, the link and Reset; the seeded one shows its page's numbers, its matrices in the fields, and
    each field says which draw of which seed and std it is."""
    copy, seeded = contributed()
    body = json.dumps(playground.presets([*examples.load_all(), copy, seeded]))
    page = playground_context.new_page()
    watch = Watch().attach(page)
    page.route("**/generated/playground/presets.json", lambda r: r.fulfill(body=body, content_type="application/json"))
    open_playground(page, site, "#preset=zz_copy")
    expect(page.locator("#pg-preset")).to_have_value("zz_copy")
    check_matches_generated(page, "zz_copy", copy)
    page.select_option("#pg-decimals", "5")
    page.wait_for_function("() => location.hash === '#preset=zz_copy&word=3&decimals=5'")  # the last word written out
    page.fill("#pg-x-0-0", "3")
    expect(page.locator("#pg-preset")).to_have_value("")
    page.fill("#pg-x-0-0", "1")  # the same numbers again: the example it was opened as
    expect(page.locator("#pg-preset")).to_have_value("zz_copy")
    page.click("#pg-reset")
    page.wait_for_function("() => location.hash === '#preset=zz_copy'")
    expect(page.locator("#pg-live")).to_have_text("Reset to the example “A copy of The cat sat”.")
    page.select_option("#pg-preset", "the_cat_sat")  # chosen in the list: that one
    page.wait_for_function("() => location.hash === '#preset=the_cat_sat'")
    expect(page.locator("#pg-preset")).to_have_value("the_cat_sat")
    # The seeded example.
    open_playground(page, site, "#preset=zz_seeded")
    expect(page.locator("#pg-preset")).to_have_value("zz_seeded")
    check_matches_generated(page, "zz_seeded", seeded)
    page.focus("#pg-W_K-1-2")
    box = page.locator("#pg-matrices-explain")
    expect(box.locator(".pg-explain-title")).to_have_text(
        "W_K, row x2, column c3: one of the seeded random stand-ins for the weights training would learn, "
        "drawn by NumPy, not typed."
    )
    lines = box.locator("code").text_content().split("\n")
    assert lines[:3] == [
        "rng = np.random.default_rng(7), then rng.normal(0, 0.4, (3, 3)) three times, in the order W_Q, W_K, W_V",
        "Each entry comes from a normal distribution with mean 0 and standard deviation 0.4.",
        "W_K is draw 2 of 3; NumPy fills it row by row, so this is its entry 6 of 9.",
    ], lines
    drawn = np.random.default_rng(7).normal(0, 0.4, (3, 3, 3))  # the three draws, one after the other
    assert np.array_equal(drawn[1], seeded.W_K)
    assert lines[3].startswith(f"W_K, row x2, column c3 = {num(drawn[1][1, 2], seeded.decimals)}, rounded"), lines
    expect(page.locator("#pg-live")).to_contain_text("W_K, row x2, column c3: one of the seeded random stand-ins")
    page.close()
    watch.check()


# --- editing ----------------------------------------------------------------------------------------


def test_editing_recalculates_every_step(pg, site):
    page, watch = pg
    open_playground(page, site)
    page.fill("#pg-x-0-1", "-0.5")
    page.fill("#pg-x-2-3", "2.25")
    page.fill("#pg-name-0", "shore")
    E = np.array(PRESETS["presets"][0]["embeddings"], dtype=float)
    E[0, 1], E[2, 3] = -0.5, 2.25
    tokens = ["shore", "of", "river"]
    st = examples.run(example_of(E))
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    # The output's columns are V's, here V = X: x1..x4, as the pages and Notation name them.
    assert read_table(page, "pg-output") == expected_table(st.output, tokens, ["x1", "x2", "x3", "x4"], 3, "output")
    assert read_table(page, "pg-scores") == expected_table(st.scores, tokens, tokens, 3, "query ↓ key →")
    assert page.locator("#pg-mix").text_content() == expected_mix(tokens, st.weights[0], st.V, st.output[0], 3)
    expect(page.locator("#pg-preset")).to_have_value("")  # no longer a worked example as it is
    # The reader's choice of decimals, scaling and the causal mask.
    page.select_option("#pg-decimals", "6")
    page.check("#pg-scale")
    page.check("#pg-causal")
    st = examples.run(example_of(E, scale=True, causal=True))
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 6, "query ↓ key →")
    scaled = read_table(page, "pg-scaled")["rows"]
    assert scaled[0][1] == num(st.scaled[0, 0], 6) and scaled[0][2] == "−∞" and scaled[1][3] == "−∞"
    assert read_table(page, "pg-weights")["rows"][0][2:] == ["0.000000", "0.000000"]
    page_text_has_no_nan(page)
    watch.check()


def test_projection_choices(pg, site):
    page, watch = pg
    open_playground(page, site)
    E = np.array(PRESETS["presets"][0]["embeddings"], dtype=float)
    tokens = ["bank", "of", "river"]
    learned = examples.load("learned")
    # The learned weights on bank / of / river (4 dimensions: allowed).
    page.select_option("#pg-projections", "learned")
    st = examples.run(example_of(E, "matrices", (learned.W_Q, learned.W_K, learned.W_V), tokens=tokens))
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    # A fifth dimension: the learned weights no longer fit; they become the reader's, padded with the identity.
    page.click("#pg-add-dim")
    expect(page.locator("#pg-projections")).to_have_value("custom")
    expect(page.locator("#pg-projections-message")).to_contain_text("learned weights need vectors of 4")
    Ws = []
    for W in (learned.W_Q, learned.W_K, learned.W_V):
        P = np.eye(5)
        P[:4, :4] = W
        Ws.append(P)
    E5 = np.column_stack([E, np.zeros(3)])
    st = examples.run(example_of(E5, "matrices", Ws, tokens=tokens))
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    # The fields show the learned weights as the page's tables do, at the decimals shown (not 17
    # digits); the playground computes with every digit (the weights above are NumPy's, in full).
    for name, W in zip(("W_Q", "W_K", "W_V"), Ws, strict=True):
        shown = page.evaluate(f"() => [...document.querySelectorAll('#pg-{name} input')].map((i) => i.value)")
        assert shown == [field_text(x, 3) for x in W.ravel()], name
    expect(page.locator("#pg-rounded-note")).to_contain_text("shown rounded to them")
    page.select_option("#pg-decimals", "4")
    assert page.input_value("#pg-W_Q-0-0") == num(learned.W_Q[0, 0], 4)
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 4, "query ↓ key →")
    page.select_option("#pg-decimals", "3")
    # Asking for the learned weights with 5 dimensions is refused, with the reason next to the list.
    page.select_option("#pg-projections", "learned")
    expect(page.locator("#pg-projections")).to_have_value("custom")
    message = page.locator("#pg-projections-message")
    expect(message).to_contain_text("these have 5")
    assert message.get_attribute("role") == "alert"
    # The reader's own matrices, edited.
    page.fill("#pg-W_K-4-1", "-1.5")
    Ws[1][4, 1] = -1.5
    page.fill("#pg-x-1-4", "2")
    E5[1, 4] = 2
    open_details(page)
    st = examples.run(example_of(E5, "matrices", Ws, tokens=tokens))
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    assert read_table(page, "pg-V") == expected_table(st.V, tokens, [f"c{j}" for j in range(1, 6)], 3, "V")
    # Identity, then none: Q = K = V = X.
    page.select_option("#pg-projections", "identity")
    st = examples.run(example_of(E5, "identity", tokens=tokens))
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    page.select_option("#pg-projections", "none")
    expect(page.locator("#pg-Q")).to_be_hidden()
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    # Custom from the identity.
    page.select_option("#pg-projections", "custom")
    assert page.input_value("#pg-W_V-2-2") == "1" and page.input_value("#pg-W_V-2-3") == "0"
    watch.check()


# --- bad input --------------------------------------------------------------------------------------


def assert_field_error(page: Page, selector: str, contains: str | None = None) -> None:
    """The field is marked invalid and described by a visible message in an alert region next to the grid."""
    field_ = page.locator(selector)
    expect(field_).to_have_attribute("aria-invalid", "true")
    described = field_.get_attribute("aria-describedby")
    assert described, f"{selector} has no aria-describedby"
    message = page.locator(f"#{described}")
    expect(message).to_be_visible()
    if contains:
        expect(message).to_contain_text(contains)
    region = message.locator("xpath=ancestor::*[@role='alert'][1]")
    assert region.count() == 1, f"the message for {selector} is not inside a role=alert region"
    # Next to the field: in the same section of the page, right below the grid it belongs to.
    assert page.evaluate(
        "([f, m]) => document.querySelector(f).closest('section') === document.getElementById(m).closest('section')",
        [selector, described],
    )


BAD_NUMBERS = {
    "empty": ("", "Empty"),
    "letters": ("abc", "Not a number"),
    "overflow": ("1e999", "Too large"),
    "nan": ("NaN", "Not a number"),
    "infinity": ("Infinity", "Not a number"),
    "too large": ("2e6", "Too large"),
    "two points": ("1.2.3", "Not a number"),
}


@pytest.mark.parametrize("value,message", BAD_NUMBERS.values(), ids=BAD_NUMBERS.keys())
def test_bad_number_keeps_the_last_result(pg, site, value, message):
    page, watch = pg
    open_playground(page, site)
    before = weights_cells(page)
    output_before = read_table(page, "pg-output")
    page.fill("#pg-x-1-2", value)
    assert_field_error(page, "#pg-x-1-2", message)
    expect(page.locator("#pg-stale")).to_be_visible()
    assert weights_cells(page) == before
    assert read_table(page, "pg-output") == output_before
    page_text_has_no_nan(page)
    # The link keeps the last good state: an address the playground has yet to write (300 ms after
    # the last change), written now, as leaving the page does.
    page.evaluate("() => window.dispatchEvent(new Event('pagehide'))")
    assert "s=" not in page.evaluate("location.hash")
    # Fixed: the message goes, the results follow.
    page.fill("#pg-x-1-2", "0.5")
    expect(page.locator("#pg-x-1-2")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#pg-words-errors li")).to_have_count(0)
    expect(page.locator("#pg-stale")).to_be_hidden()
    assert weights_cells(page) != before
    watch.check()


BAD_NAMES = {
    "empty": ("", "Empty"),
    "blank": ("   ", "Empty"),
    "10,000 characters": ("n" * 10_000, "at most 24 characters, this one has 10,000"),
    "two words": ("river bank", "A name is one word: no spaces or control characters."),
    "markup": ("<b>", "A name may not hold any of"),
}


@pytest.mark.parametrize("value,message", BAD_NAMES.values(), ids=BAD_NAMES.keys())
def test_bad_name_keeps_the_last_result(pg, site, value, message):
    page, watch = pg
    open_playground(page, site)
    before = read_table(page, "pg-weights")
    page.fill("#pg-name-1", value)
    assert_field_error(page, "#pg-name-1", message)
    assert read_table(page, "pg-weights") == before
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page_text_has_no_nan(page)
    page.fill("#pg-name-1", "off")
    expect(page.locator("#pg-name-1")).not_to_have_attribute("aria-invalid", "true")
    assert read_table(page, "pg-weights")["head"] == ["query ↓ key →", "bank", "off", "river"]
    watch.check()


def refused_click(page: Page, selector: str) -> None:
    """Press a button that refuses (aria-disabled, so Playwright will not click it) with the keyboard."""
    page.locator(selector).first.focus()
    page.keyboard.press("Enter")


# Clicks a button (the element a selector first finds, found again each time) so many times, in the
# page: some 0.03 s a click, where Playwright's click, which waits for the button to be visible,
# stable and the one hit, takes 0.15 s.
CLICKS_JS = """([selector, times]) => { for (let i = 0; i < times; i++) document.querySelector(selector).click(); }"""


def click_times(page: Page, selector: str, times: int) -> None:
    """Click a button ``times`` times: in the page but the last, which Playwright's mouse clicks, as a reader does."""
    page.evaluate(CLICKS_JS, [selector, times - 1])
    page.locator(selector).first.click()


def test_word_and_dimension_limits(pg, site):
    """1-16 words and 1-16 dimensions: past a limit the button says why, next to it, and nothing changes."""
    page, watch = pg
    open_playground(page, site)
    rows = page.locator("#pg-words tbody tr")
    click_times(page, "#pg-add-word", 13)
    expect(rows).to_have_count(16)
    expect(page.locator("#pg-add-word")).to_have_attribute("aria-disabled", "true")
    refused_click(page, "#pg-add-word")  # a 17th word
    expect(rows).to_have_count(16)
    message = page.locator("#pg-structure-message")
    expect(message).to_contain_text("at most 16 words")
    assert message.get_attribute("role") == "alert"
    expect(page.locator("#pg-add-word")).to_have_attribute("aria-describedby", "pg-structure-message")
    assert len(weights_cells(page)) == 16
    click_times(page, "#pg-words .pg-remove", 15)
    expect(rows).to_have_count(1)
    refused_click(page, "#pg-words .pg-remove")  # zero words
    expect(rows).to_have_count(1)
    expect(message).to_contain_text("at least one word")
    assert weights_cells(page) == [["word16", "1"]]  # one word attends only to itself
    click_times(page, "#pg-add-dim", 12)
    expect(page.locator("#pg-words thead th")).to_have_count(1 + 16 + 1)
    refused_click(page, "#pg-add-dim")
    expect(message).to_contain_text("at most 16 numbers")
    expect(page.locator("#pg-words thead th")).to_have_count(1 + 16 + 1)
    click_times(page, "#pg-remove-dim", 15)
    refused_click(page, "#pg-remove-dim")
    expect(message).to_contain_text("at least one number")
    expect(page.locator("#pg-words thead th")).to_have_count(1 + 1 + 1)
    page_text_has_no_nan(page)
    watch.check()


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


ONE_WORD = '{"v":1,"words":["a"],"X":[[X]],"scale":false,"causal":false,"projections":"none","decimals":3}'
BAD_LINKS = {
    "zero words": link({**BANK, "words": [], "X": []}),
    "17 words": link({**BANK, "words": [f"w{i}" for i in range(17)], "X": [[1, 0]] * 17}),
    "ragged row": link({**BANK, "X": [[1, 0, 1, 0], [0, 1, 0], [1, 1, 0, 0]]}),
    "17 dimensions": link({**BANK, "X": [[1] * 17] * 3}),
    "10,000-character name": link({**BANK, "words": ["b" * 10_000, "of", "river"]}),
    "a string for a number": link({**BANK, "X": [["1", 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]}),
    "NaN": "#s=" + _b64(ONE_WORD.replace("X", "NaN")),
    "1e999": "#s=" + _b64(ONE_WORD.replace("X", "1e999")),
    "learned weights on 3 dimensions": link({**BANK, "X": [[1, 0, 1]] * 3, "projections": "learned"}),
    "custom matrices missing": link({**BANK, "projections": "custom"}),
    "unknown key": link({**BANK, "extra": 1}),
    "decimals 11": link({**BANK, "decimals": 11}),
    "not base64": "#s=***",
    "not JSON": "#s=" + _b64("<script>alert(1)</script>"),
    "not UTF-8": "#s=" + base64.urlsafe_b64encode(b"\xff\xfe").decode(),
    "unknown preset": "#preset=nope",
    "two states": "#preset=bank_of_river&s=e30",
    "word out of range": "#preset=bank_of_river&word=4",
    "decimals not a number": "#preset=bank_of_river&decimals=x",
    "an option twice": "#preset=bank_of_river&word=1&word=2",
    "unknown option": "#preset=bank_of_river&zoom=2",
    "script in the hash": "#s=<script>alert(1)</script>",
    "script as a preset": "#preset=<img src=x onerror=alert(1)>",
    "unknown key in the hash": "#x=1",
    "javascript: state": "#s=javascript:alert(1)",
    "too long": "#s=" + "A" * 30_000,
    "positions not sinusoidal": "#preset=bank_of_river&positions=learned",
    "positions in a state": link({**BANK, "positions": "cosine"}),
    "one word typed two ways": link({**BANK, "words": ["b\u00e9", "be\u0301", "river"]}),
}


@pytest.mark.parametrize("fragment", BAD_LINKS.values(), ids=BAD_LINKS.keys())
def test_bad_link_falls_back_to_the_default_with_a_notice(pg, site, fragment):
    page, watch = pg
    open_playground(page, site, fragment)
    notice = page.locator("#pg-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This link could not be opened")
    expect(notice).to_contain_text("bank of river")
    assert notice.get_attribute("role") == "alert"
    assert page.evaluate("location.hash") == "#preset=bank_of_river"  # the broken state is gone from the address
    check_matches_generated(page, DEFAULT)
    assert_nothing_injected(page)
    page_text_has_no_nan(page)
    page.get_by_role("button", name="Dismiss").click()
    expect(notice).to_be_hidden()
    watch.check()


# --- safety -----------------------------------------------------------------------------------------

HOSTILE = ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>", '"><svg onload=alert(3)>']
# Names a word may have (one word, none of | ` < > * [ ] \: selfattn_ref/examples/rules.py) that
# would be markup if the page wrote them as HTML: shown as text, character for character.
AS_TEXT = ["&lt;img&gt;", '"onmouseover=alert(3)', "&#60;script&#62;"]


# Elements a link or a name could have brought in: anything in #playground that loads or runs, and an
# inline event handler anywhere. The playground draws synchronously, so such an element would be there
# as soon as the playground shows the state; it is looked for, not waited for to do something.
INJECTED_JS = """() => [
  ...document.querySelectorAll('#playground :is(img, script, svg, iframe, object, embed, link, style)'),
  ...[...document.querySelectorAll('*')].filter((e) => e.getAttributeNames().some((n) => n.startsWith('on'))),
].map((e) => e.outerHTML.slice(0, 120))"""


def assert_nothing_injected(page: Page) -> None:
    injected = page.evaluate(INJECTED_JS)
    assert injected == [], f"the page holds {injected}"


def test_a_typed_name_is_text_and_runs_nothing(pg, site):
    page, watch = pg
    open_playground(page, site)
    page.fill("#pg-name-0", AS_TEXT[0])
    assert read_table(page, "pg-weights")["head"][1] == AS_TEXT[0]
    assert read_table(page, "pg-output")["rows"][0][0] == AS_TEXT[0]
    assert page.locator("#pg-mix").text_content().splitlines()[0].endswith(f"({AS_TEXT[0]})")
    expect(page.locator("#pg-selected option").first).to_have_text(AS_TEXT[0])
    page.fill("#pg-name-0", HOSTILE[0])  # not a word: refused, the last result stays
    assert_field_error(page, "#pg-name-0", "at most 24 characters")
    assert read_table(page, "pg-weights")["head"][1] == AS_TEXT[0]
    assert_nothing_injected(page)
    watch.check()  # no dialog opened


def test_a_hash_that_is_no_state_is_ignored(pg, site):
    """A #part without "=" is an anchor (Material's skip link, a heading's permalink): no state, no
    notice, nothing run; the default example shows."""
    page, watch = pg
    open_playground(page, site, "#<script>alert(1)</script>")
    expect(page.locator("#pg-notice")).to_be_hidden()
    check_matches_generated(page, DEFAULT)
    assert_nothing_injected(page)
    watch.check()


def test_a_link_carrying_script_runs_nothing(pg, site):
    page, watch = pg
    open_playground(page, site, link({**BANK, "words": AS_TEXT}))
    expect(page.locator("#pg-notice")).to_be_hidden()
    assert read_table(page, "pg-weights")["head"][1:] == AS_TEXT
    assert [page.input_value(f"#pg-name-{i}") for i in range(3)] == AS_TEXT
    assert_nothing_injected(page)
    open_playground(page, site, link({**BANK, "words": HOSTILE}))  # names that are not words: refused
    expect(page.locator("#pg-notice")).to_contain_text("This link could not be opened: word 1: too long")
    check_matches_generated(page, DEFAULT)
    assert_nothing_injected(page)
    watch.check()


# --- sharing ----------------------------------------------------------------------------------------


def test_the_link_restores_the_whole_state(pg, site, browser):
    page, watch = pg
    open_playground(page, site)
    page.fill("#pg-name-2", "stream")
    page.fill("#pg-x-2-1", "-1.25")
    page.click("#pg-add-word")
    page.fill("#pg-name-3", "bank2")
    page.fill("#pg-x-3-3", "0.75")
    page.check("#pg-causal")
    page.check("#pg-scale")
    page.select_option("#pg-decimals", "5")
    page.select_option("#pg-projections", "custom")
    page.fill("#pg-W_Q-1-2", "0.3")
    page.select_option("#pg-selected", "2")
    # The address follows 300 ms after the last change: wait until it has not changed for 800 ms
    # (timed by the page's own clock; a busy machine delays the update, a fixed wait was flaky).
    page.wait_for_function(
        """() => {
          const w = (window.__addressWatch ||= { hash: location.hash, since: performance.now() });
          if (w.hash !== location.hash) Object.assign(w, { hash: location.hash, since: performance.now() });
          return location.hash.startsWith('#s=') && performance.now() - w.since > 800;
        }""",
        polling=100,
    )
    url = page.url
    open_details(page)
    snapshot = """() => ({
      inputs: [...document.querySelectorAll('#playground input')]
        .map((i) => [i.id, i.type === 'checkbox' ? i.checked : i.value]),
      selects: [...document.querySelectorAll('#playground select')].map((s) => [s.id, s.value]),
      tables: [...document.querySelectorAll('#playground table:not(.pg-input)')].map((t) => [t.id, t.textContent]),
      mix: document.getElementById('pg-mix').textContent,
    })"""
    before = page.evaluate(snapshot)
    other = browser.new_context().new_page()
    other_watch = Watch().attach(other)
    other.goto(url)
    other.wait_for_selector("#playground[data-state=ready]")
    open_details(other)
    assert other.evaluate(snapshot) == before
    expect(other.locator("#pg-notice")).to_be_hidden()
    other.context.close()
    # A worked example as it is gets the short link.
    page.select_option("#pg-preset", "the_cat_sat")
    page.wait_for_function("() => location.hash === '#preset=the_cat_sat'")
    watch.check()
    other_watch.check()


# Material's instant navigation fetches the page again for the first address location$ emits after
# a full load (its distinctUntilKeyChanged("pathname") lets a first value through) and swaps the
# fetched container in, emitting document$, on which app.js mounts a new playground; a later change
# of the #part alone fetches nothing. The promise settles once that has happened, or at once where
# nothing is fetched, so the test never reads a playground that is about to be replaced.


@pytest.mark.parametrize("order", ["good link first", "bad link first"])
def test_a_new_link_in_the_same_tab(pg, site, order):
    """Only the #part changes: no reload, the state (or the notice about a bad link) follows."""
    page, watch = pg
    open_playground(page, site)
    page.evaluate("() => { window.__noReload = true; }")
    fragments = ["#preset=the_cat_sat", "#preset=missing"]
    done = []
    for fragment in fragments if order == "good link first" else fragments[::-1]:
        done.append(change_hash(page, fragment))
        if fragment == "#preset=the_cat_sat":
            expect(page.locator("#pg-preset")).to_have_value("the_cat_sat")
            expect(page.locator("#pg-notice")).to_be_hidden()
            check_matches_generated(page, "the_cat_sat")
        else:
            expect(page.locator("#pg-notice")).to_contain_text("could not be opened: there is no example named")
            check_matches_generated(page, DEFAULT)
    assert done == ["fetched", "no fetch"], done  # what CHANGE_HASH_JS says of Material's navigation
    assert page.evaluate("window.__noReload === true")
    watch.check()


def test_copy_link_button(pg, site, browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watch = Watch().attach(page)
    open_playground(page, site)
    page.fill("#pg-x-0-0", "3")
    page.click("#pg-copy")
    expect(page.locator("#pg-copy-status")).to_have_text("Link copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url and "#s=" in copied
    context.close()
    watch.check()


# --- keyboard, screens, colours, accessibility --------------------------------------------------------


# Sets window.__swapped once Material's document$ emits a new document (it replays the current one
# at once, to each new subscriber).
def test_keyboard_alone(playground_context, site):
    """Tab order: the skip link, then the settings, then the grid; typing recalculates; arrows move.
    On a page of its own, loaded for it: the skip link's jump is the first navigation after a load only
    there (on the module's shared page, an earlier test's navigation left Material handling it, and
    the order of the tests decided where the focus went)."""
    page = playground_context.new_page()
    watch = Watch().attach(page)
    open_playground(page, site)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('md-skip')")
    # The browser follows the jump (same-page-links.js keeps Material's instant navigation from
    # fetching the page again for a link to a place on it), and Tab goes on from where it lands. The
    # jump is read from the hashchange event's newURL: once there, the playground puts its state back
    # in the address (app.js, readLink), which a busy machine's polling of location.hash can miss.
    page.evaluate("window.__jumps = []; addEventListener('hashchange', (e) => __jumps.push(new URL(e.newURL).hash))")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__jumps.includes('#try-it-yourself')")
    order = []
    for _ in range(20):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
        if order[-1] == "pg-name-0":
            break
    assert order[-1] == "pg-name-0", f"Tab did not reach the grid: {order}"
    settings = ["pg-preset", "pg-projections", "pg-scale", "pg-causal", "pg-decimals", "pg-copy"]
    assert [o for o in order if o in settings] == settings, order
    # Every field has an accessible name.
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('#playground input, #playground select, #playground button')]
          .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim()))
          .map((e) => e.id)"""
    )
    assert unnamed == []
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pg-x-0-0"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "bank, x1"
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    assert read_table(page, "pg-scores")["rows"][0][1] == "10"  # bank · bank = 3×3 + 1×1
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.id") == "pg-x-1-0"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "pg-x-2-0"
    page.keyboard.press("ArrowUp")
    page.keyboard.type("-2")  # the arrow selects the cell's text: typing replaces it
    assert read_table(page, "pg-scores")["rows"][1][1] == "-6"  # of · bank: 3×(-2) + 0 + 0 + 0
    watch.check()
    page.close()


COLOUR_JS = """([url, steps]) => import(url).then((m) => {
  const out = {};
  for (const scheme of ['default', 'slate']) {
    out[scheme] = Array.from({length: steps + 1}, (_, i) => m.heatColours(i / steps, scheme));
  }
  return out;
})"""


def _contrast(a: str, b: str) -> float:
    def rgb(s):
        if s.startswith("#"):
            digits = s[1:] if len(s) == 7 else "".join(c * 2 for c in s[1:])  # #fff -> ffffff
            return [int(digits[2 * i : 2 * i + 2], 16) for i in range(3)]
        return [int(v) for v in re.findall(r"\d+", s)[:3]]

    def lum(c):
        lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted([lum(rgb(a)), lum(rgb(b))], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_heatmap_text_contrast_for_every_weight(pg, site):
    page, watch = pg
    open_playground(page, site)
    colours = page.evaluate(COLOUR_JS, [site.base_url + "assets/playground/views.js", 1000])
    for scheme, cells in colours.items():
        worst = min(_contrast(c["background"], c["color"]) for c in cells)
        assert worst >= 4.5, f"{scheme}: a heatmap cell's text has contrast {worst:.2f}"
    watch.check()


def open_teaching_parts(page: Page) -> None:
    """What the playground shows as it teaches: a task done, a field's origin shown, a number
    explained, a step shown."""
    page.check("#pg-causal")  # a task done
    page.focus("#pg-x-1-0")  # where a field's number comes from
    page.locator("#pg-weights tbody tr").nth(1).locator("td").nth(0).click()
    page.click("#pg-step-next")
    page.click("#pg-step-next")
    expect(page.locator("#pg-explain")).to_be_visible()


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious(site, browser, scheme):
    """All of axe's rules in the light scheme, its colour rules in the dark (slate) one, on the default
    example, on a 16 × 16 heatmap, with error messages showing, in the language model's mode (an
    unknown word's message, a weight explained, the words generated), and with the teaching parts open
    (an explanation, a field's origin, a step, a task done) on the learned example with the positions
    added and on repeated words. One page for all of them: the states after the first are new mounts
    (playground_page.py), and axe's colour rules check only the looks of text not checked in a state
    before (axe_violations); each state had a page, or a browser context, of its own (here and in
    test_playground_teaching.py)."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    SharedPage(page, site.base_url)  # the first state loaded, the others new mounts (playground_page.py)
    watch = Watch().attach(page)
    expected = "slate" if scheme == "dark" else "default"
    problems = []
    checked: list[str] = []  # the looks of text whose colours axe has checked on this page
    model = "#model=the+cat+sat+near+the+river&generate=1"
    words = ["the", "cat", "sat", "on", "the", "mat"]
    X = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 0], [0, 1, 1]]
    twice = link({**BANK, "words": words, "X": X})
    teaching = ["#preset=learned&positions=sinusoidal", twice]
    states = [("", None), (link(sixteen_by_sixteen()), None), ("#preset=learned", "abc"), (model, None)]
    try:
        for fragment, edit in [*states, *((fragment, None) for fragment in teaching)]:
            open_playground(page, site, fragment)
            expect(page.locator("body")).to_have_attribute("data-md-color-scheme", expected)
            if fragment == model:
                open_model_mode_parts(page)
            if edit is not None:
                page.fill("#pg-x-0-0", edit)
                page.fill("#pg-name-1", " ")
                expect(page.locator("#pg-words-errors li")).to_have_count(2)  # x1 of The, and the blank name
            open_details(page)
            if fragment in teaching:
                open_teaching_parts(page)
            problems += [f"{fragment[:20]} {v}" for v in axe_violations(page, scheme, checked)]
    finally:
        context.close()
    assert not problems, "\n".join(problems)
    watch.check()


def open_model_mode_parts(page: Page) -> None:
    """The language model's mode with what only a click shows: a weight explained, the words generated
    (the link asks for them), and an unknown word's message over the last results."""
    page.wait_for_selector("#pg-panel-model[data-state=ready]")
    page.locator("#pg-model-b2h1 tbody tr").nth(2).locator("td").first.click()
    expect(page.locator("#pg-model-explain")).to_be_visible()
    expect(page.locator("#pg-model-generated-box")).to_be_visible()
    page.fill("#pg-model-text", "the cat sta")
    expect(page.locator("#pg-model-text-message")).to_contain_text("'sta', is not in the model's vocabulary")


def test_dark_scheme_follows_the_toggle(pg, site):
    """The heatmap repaints when the reader switches the scheme on the page."""
    page, watch = pg
    open_playground(page, site)
    cell_ = page.locator("#pg-weights tbody tr").first.locator("td").first
    light = cell_.evaluate("(e) => getComputedStyle(e).backgroundColor")
    page.locator("[data-md-component=palette] label:not([hidden])").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    expect(cell_).not_to_have_css("background-color", light)
    watch.check()


NARROW = {"width": 375, "height": 812}


@pytest.fixture(scope="module")
def narrow_page(module_context, site) -> SharedPage:
    """One page on the playground at 375 px for the module's narrow-screen tests (each had a browser
    context and a load of its own), put back before each test as the module's page is (SharedPage);
    the site's own rendering (skip_offscreen), as a new context shows it."""
    context = module_context(viewport=NARROW, device_scale_factor=1, skip_offscreen=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield SharedPage(page, site.base_url)
    page.close()


@pytest.fixture
def narrow(narrow_page):
    """The 375 px page as a fresh load of playground/ shows it, watched for problems."""
    page = narrow_page.page
    watch = Watch().attach(page)
    narrow_page.reset()
    yield page, watch
    watch.detach(page)


def test_narrow_screen(narrow, site, tmp_path):
    """At 375 px the page itself never scrolls sideways; a 16 × 16 grid scrolls inside its own box."""
    page, watch = narrow
    open_playground(page, site, link(sixteen_by_sixteen()))
    open_details(page)
    widths = page.evaluate(
        "() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth})"
    )
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths
    for box in ("#pg-words", "#pg-weights", "#pg-output", "#pg-mix"):
        page.locator(box).scroll_into_view_if_needed()  # off screen, the browser skips laying it out
        # and lays it out at its next frame (read at once, it may still be skipped: as wide as its box)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        scroll = page.evaluate(
            """(sel) => { const e = document.querySelector(sel); const box = e.closest('.pg-scroll');
                 return {overflow: getComputedStyle(box).overflowX, inner: box.scrollWidth, outer: box.clientWidth,
                         right: box.getBoundingClientRect().right}; }""",
            box,
        )
        assert scroll["overflow"] == "auto" and scroll["inner"] > scroll["outer"], (box, scroll)
        assert scroll["right"] <= widths["view"], (box, scroll)
    # A box that scrolls and holds no field can take focus, so that the keyboard can scroll it; in a
    # table whose numbers take focus, a number does (one per table), and the focused one scrolls into view.
    for box in ("#pg-weights", "#pg-output"):
        wrap = page.locator(box).locator("xpath=..")
        assert wrap.get_attribute("role") == "region"
        assert page.locator(f"{box} td[tabindex='0']").count() == 1
    assert page.locator("#pg-mix").get_attribute("tabindex") == "0"
    shot = tmp_path / "playground-375.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0
    print(f"screenshot: {shot}")
    # The language model's mode, on 12 words (and the 13th generated): its heatmaps scroll in their boxes.
    words = "she took the wet boat back to the bank of the river"
    open_playground(page, site, "#model=" + words.replace(" ", "+") + "&generate=1")
    open_model_mode_parts(page)
    widths = page.evaluate(
        "() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth})"
    )
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths
    for box in ("#pg-model-text", "#pg-model-b1h1", "#pg-model-next", "#pg-model-explain pre"):
        right = page.locator(box).evaluate("(e) => (e.closest('.pg-scroll') ?? e).getBoundingClientRect().right")
        assert right <= widths["view"], (box, right)
    shot = tmp_path / "playground-model-375.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"screenshot: {shot}")
    watch.check()


SCROLL_CUE_JS = """() => {
  const box = document.getElementById('pg-words').closest('.pg-scroll');
  const input = box.querySelector('.pg-number');
  const last = box.querySelector('thead th:nth-last-child(2)');  // x4 (the last is the hidden "remove")
  return {marked: box.hasAttribute('data-scrollable'), shadow: getComputedStyle(box).backgroundImage,
          field: getComputedStyle(input).backgroundColor, hidden: last.getBoundingClientRect().left
          >= box.getBoundingClientRect().right, wider: box.scrollWidth > box.clientWidth};
}"""


def test_the_word_table_shows_that_more_columns_scroll_in_at_375px(narrow, site):
    """At 375 px the grid of bank / of / river shows word, x1, x2: the box is marked as the site's wide
    tables are (data-scrollable, extra.css), with the shadow at the edge that has more to show, which
    the fields no longer cover; at 1280 px nothing scrolls and the mark goes."""
    page, watch = narrow
    open_playground(page, site)
    page.wait_for_function(
        "() => document.getElementById('pg-words').closest('.pg-scroll').hasAttribute('data-scrollable')"
    )
    cue = page.evaluate(SCROLL_CUE_JS)
    assert cue["marked"] and cue["wider"] and cue["hidden"], cue
    assert cue["shadow"].count("rgba(0, 0, 0, 0.28)") == 2, cue  # extra.css's two edge shadows
    assert cue["field"] == "rgba(0, 0, 0, 0)", cue  # a field lets the shadow under it show
    try:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.wait_for_function(
            "() => !document.getElementById('pg-words').closest('.pg-scroll').hasAttribute('data-scrollable')"
        )
        cue = page.evaluate(SCROLL_CUE_JS)
    finally:
        page.set_viewport_size(NARROW)  # the module's 375 px page
    assert not cue["wider"] and cue["field"] != "rgba(0, 0, 0, 0)", cue  # fields look like fields again
    watch.check()


def test_every_column_and_button_reachable_at_375px(narrow, site):
    """(From test_playground_teaching.py: a number explained and a step shown, on a 16 x 16 grid.)"""
    page, watch = narrow
    eye = np.eye(16).tolist()
    state = {**sixteen_by_sixteen(), "projections": "custom", "W_Q": eye, "W_K": eye, "W_V": eye}
    open_playground(page, site, link(state))
    open_details(page)
    page.locator("#pg-weights tbody tr").nth(15).locator("td").nth(15).click()
    page.click("#pg-step-next")
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    unreachable = page.evaluate(
        """(width) => {
          const out = [];
          const targets = [...document.querySelectorAll('#playground :is(button, select, input, th, td)')]
            .filter((e) => e.getClientRects().length > 0);
          for (const e of targets) {
            e.scrollIntoView({block: 'center', inline: 'nearest'});
            const r = e.getBoundingClientRect();
            if (r.left < -0.5 || r.right > width + 0.5 || r.width === 0) {
              out.push(`${e.tagName} ${e.id || e.textContent.slice(0, 20)} [${r.left}, ${r.right}]`);
            }
          }
          return {count: targets.length, out};
        }""",
        width,
    )
    assert unreachable["count"] > 16 * 16 * 4, unreachable["count"]
    assert unreachable["out"] == [], unreachable["out"][:10]
    # Every button fits on the screen as a whole (none wider than the screen).
    widest = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#playground button')].map((b) => b.offsetWidth))"
    )
    assert widest <= width - 32
    watch.check()


def test_instant_navigation_mounts_and_unmounts(pg, site):
    """Reached through a page's link (Material's instant navigation, no reload), left and come back to."""
    page, watch = pg
    open_for_instant_navigation(page, site.base_url + "real-numbers/")
    page.evaluate("() => { window.__noReload = true; }")
    page.get_by_role("link", name="open the playground on this example").click()
    page.wait_for_url(re.compile(r"/playground/\?preset=bank_of_river"))
    page.wait_for_selector("#playground[data-state=ready]")
    assert page.evaluate("window.__noReload === true"), "the link reloaded the page"
    # the page opens on the playground, just under the header, not on the introduction above it
    page.wait_for_function("() => Math.abs(document.getElementById('playground').getBoundingClientRect().top - 72) < 2")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    top = page.evaluate("() => document.getElementById('playground').getBoundingClientRect().top")
    assert abs(top - 72) < 2, f"the playground is {top} px from the top after a page's link"  # 3.6rem
    check_matches_generated(page, "bank_of_river")
    page.fill("#pg-x-0-0", "2")
    page.wait_for_function("() => location.hash.startsWith('#s=')")
    assert "preset=" not in urlsplit(page.url).query
    page.locator("a.md-header__button.md-logo").click()  # home, instantly
    page.wait_for_url(site.base_url)
    assert page.evaluate("window.__noReload === true")
    assert "#" not in page.url, "the playground wrote its state into another page's address"
    page.go_back()
    page.wait_for_selector("#playground[data-state=ready]")
    assert page.input_value("#pg-x-0-0") == "2"
    assert page.evaluate("document.querySelectorAll('#playground .pg-controls').length") == 1
    watch.check()


def test_fields_and_results_stay_finite_with_extreme_numbers(pg, site):
    """The largest numbers allowed give finite results: no NaN and no Infinity on the page."""
    page, watch = pg
    state = {**BANK, "X": [[1e6, -1e6, 1e6, 1e6], [-1e6, 1e6, 0, 1e-6], [0.5, 0, 0, -1e6]], "scale": True}
    open_playground(page, site, link(state))
    expect(page.locator("#pg-notice")).to_be_hidden()
    st = examples.run(example_of(state["X"], scale=True))
    tokens = BANK["words"]
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    assert read_table(page, "pg-scores") == expected_table(st.scores, tokens, tokens, 3, "query ↓ key →")
    page_text_has_no_nan(page)
    assert math.isfinite(float(read_table(page, "pg-scores")["rows"][0][1]))
    watch.check()


# --- the shared page's reset (playground_page.py) -------------------------------------------------------


def test_the_reset_leaves_no_trace_of_the_test_before(pg, site, shared_page, playground_context):
    """What a test may leave on the module's page (a bad value and its message, focus, open parts,
    an explanation, a step, a task done, a link's notice, a pending address, scroll, storage, a
    cookie, selected text) is each seen by the reset's comparison, and the reset undoes all of it by
    a new mount: the page is then what a new page shows after a load, and behaves so (the first Tab,
    a link the notice was carried to, no address written later). A trace it cannot undo (a global,
    the palette switched) makes it load the page in full."""
    page, watch = pg
    other = SharedPage(playground_context.new_page(), site.base_url)
    other.full_load()
    assert shared_page.fingerprint() == other.fresh  # the module's page, as the reset left it for this test
    other.page.keyboard.press("Tab")
    assert other.page.evaluate("document.activeElement.classList.contains('md-skip')")
    other.page.close()

    def bad_value():
        page.fill("#pg-x-1-2", "abc")  # a message next to the field, the focus in it
        expect(page.locator("#pg-words-errors li")).to_have_count(1)

    def explanation():
        page.locator("#pg-weights tbody tr").first.locator("td").first.click()
        expect(page.locator("#pg-explain")).to_be_visible()

    def bad_link_notice():  # app.js carries it to the next playground at the address it wrote
        open_playground(page, site, "#preset=nope")
        expect(page.locator("#pg-notice")).to_be_visible()

    def scrolled():
        page.evaluate("() => { window.scrollTo(0, 300); document.querySelector('.pg-scroll').scrollLeft = 5; }")

    traces = {
        "a bad value": bad_value,
        "Q, K and V open": lambda: open_details(page),
        "an explanation": explanation,
        "a step": lambda: page.click("#pg-step-next"),
        "a task done": lambda: page.check("#pg-causal"),
        "a bad link's notice": bad_link_notice,
        "an edit not yet in the address": lambda: page.fill("#pg-x-0-0", "2"),
        "scrolled": scrolled,
        "storage": lambda: page.evaluate("() => { localStorage.setItem('k', '1'); sessionStorage.setItem('k', '2'); }"),
        "a cookie": lambda: page.evaluate("() => { document.cookie = 'k=1; path=/'; }"),
        "selected text": lambda: page.evaluate("() => getSelection().selectAllChildren(document.querySelector('h1'))"),
    }
    for name, leave in traces.items():
        leave()
        assert shared_page.fingerprint() != shared_page.fresh, f"the reset does not see {name}"
        assert shared_page.reset() == "remounted", f"{name}: {shared_page.left[-1]}"
    for leave in traces.values():
        leave()
    assert shared_page.reset() == "remounted", shared_page.left[-1]
    page.keyboard.press("Tab")  # the keyboard starts from the top of the page again, as after a load
    assert page.evaluate("document.activeElement.classList.contains('md-skip')")
    assert shared_page.reset() == "remounted", shared_page.left[-1]
    page.evaluate("() => window.dispatchEvent(new Event('pagehide'))")  # what a playground has pending, written now
    assert page.url == playground_url(site), "a playground of the test before wrote the address"
    open_playground(page, site, "#preset=bank_of_river")  # where the bad link's notice was carried to
    expect(page.locator("#pg-notice")).to_be_hidden()
    check_matches_generated(page, DEFAULT)
    for name, leave in {
        "a global": lambda: page.evaluate("() => { window.__left = 1; }"),
        "the palette switched": lambda: page.locator("[data-md-component=palette] label:not([hidden])").click(),
    }.items():
        leave()
        assert shared_page.reset() == "loaded", name
        assert shared_page.fingerprint() == shared_page.fresh
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")
    assert page.evaluate("window.__left") is None
    watch.check()
