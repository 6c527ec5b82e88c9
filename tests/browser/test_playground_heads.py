"""Several heads and projections of any width in the playground (docs/assets/playground/), in Chromium.

- heads: attention.js's heads equal torch.nn.MultiheadAttention with the same weights copied in (as
  the library's multi_head_attention is held to it), and the library's per-head steps where torch has
  no equal (no scaling, d_k or d_v other than d); the heads setting (1 to 4, only where the heads
  divide the widths, with a message otherwise), the head shown, links that carry the heads, and the
  multi-head page's link that opens with two heads;
- d × d_k projections: W_Q, W_K with d_k columns and W_V with d_v columns open from a link and from a
  preset, and the link the playground writes opens them again, identically.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
import torch
from bs4 import BeautifulSoup
from playground_checks import (
    BANK,
    PRESETS,
    TOL,
    assert_close,
    evaluate_json,
    example_of,
    expected_table,
    link,
    open_details,
    open_playground,
    page_text_has_no_nan,
    read_table,
    state_of,
)
from playwright.sync_api import expect

import selfattn_ref
from selfattn_ref import examples

pytestmark = pytest.mark.browser

ASSETS = "assets/playground/"


# --- parity ------------------------------------------------------------------------------------------


def head_cases(seed: int = 2028, count: int = 60) -> list[dict]:
    """Random cases with 2 to 4 heads: square matrices (d = 2 to 16, divided by the heads), scaled, the
    causal mask on and off, for torch; and cases torch cannot take (no scaling; d_k and d_v other than d)."""
    rng = np.random.default_rng(seed)
    cases = []
    for c in range(count):
        h = int(rng.integers(2, 5))
        d = h * int(rng.integers(1, 16 // h + 1))
        n = int(rng.integers(1, 17))
        torch_can = c % 3 != 2
        dk = d if torch_can else h * int(rng.integers(1, 16 // h + 1))
        dv = d if torch_can else h * int(rng.integers(1, 16 // h + 1))
        X = rng.normal(0, 1, (n, d)).round(3)
        Ws = [rng.normal(0, 0.6, (d, w)) for w in (dk, dk, dv)]
        cases.append({"X": X.tolist(), "projections": "matrices", "W_Q": Ws[0].tolist(), "W_K": Ws[1].tolist(),
                      "W_V": Ws[2].tolist(), "scale": torch_can or bool(rng.integers(2)),
                      "causal": bool(rng.integers(2)), "heads": h, "torch": torch_can})  # fmt: skip
    return cases


HEADS_JS = """async ([url, cases]) => {
  const m = await import(url);
  return cases.map((c) => {
    const r = m.attention(c);
    return {output: r.output, heads: r.heads.map((a) => ({scores: a.scores, weights: a.weights, output: a.output}))};
  });
}"""


def torch_mha(case: dict) -> tuple[np.ndarray, np.ndarray]:
    """torch.nn.MultiheadAttention with the case's weights copied in (no bias, W_O = I): (output, weights per head)."""
    X = torch.tensor(case["X"], dtype=torch.float64)[None]  # (1, n, d)
    n, d = X.shape[1:]
    W_Q, W_K, W_V = (torch.tensor(case[k], dtype=torch.float64) for k in ("W_Q", "W_K", "W_V"))
    mha = torch.nn.MultiheadAttention(d, case["heads"], bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W_Q.T, W_K.T, W_V.T]))  # torch computes X·Wᵀ: the weights go in transposed
        mha.out_proj.weight.copy_(torch.eye(d, dtype=torch.float64))
    mask = torch.ones(n, n, dtype=torch.bool).triu(1) if case["causal"] else None  # True: may not attend
    out, w = mha(X, X, X, attn_mask=mask, need_weights=True, average_attn_weights=False)
    return out[0].detach().numpy(), w[0].detach().numpy()


def test_heads_equal_torch_multihead_attention(pg, site):
    """Per-head weights and outputs, and the output, against torch.nn.MultiheadAttention and the
    library's multi_head_attention; where torch has no equal, against the library's per-head steps."""
    page, watch = pg  # the playground's page: its modules are imported there
    cases = head_cases()
    results = evaluate_json(page, HEADS_JS, [site.base_url + ASSETS + "attention.js", cases])
    torch_cases = 0
    for k, (case, js) in enumerate(zip(cases, results, strict=True)):
        h = case["heads"]
        where = f"case {k} ({len(case['X'])} words, {h} heads)"
        X, Ws = np.asarray(case["X"]), [np.asarray(case[n]) for n in ("W_Q", "W_K", "W_V")]
        mask = np.tril(np.ones((len(X), len(X)), bool)) if case["causal"] else None
        assert len(js["heads"]) == h, where
        if case["torch"]:
            torch_cases += 1
            output, weights = torch_mha(case)
            lib_output, lib_weights = selfattn_ref.multi_head_attention(X, *Ws, np.eye(X.shape[1]), h, mask=mask)
            assert_close("output (torch)", js["output"], output, where)
            assert_close("output (library)", js["output"], lib_output, where)
            for a in range(h):
                assert_close(f"head {a + 1} weights (torch)", js["heads"][a]["weights"], weights[a], where)
                assert_close(f"head {a + 1} weights (library)", js["heads"][a]["weights"], lib_weights[a], where)
                d_head = X.shape[1] // h
                part = output[:, a * d_head : (a + 1) * d_head]  # W_O = I: the head's own columns
                assert_close(f"head {a + 1} output (torch)", js["heads"][a]["output"], part, where)
        Q, K, V = (X @ W for W in Ws)
        dk, dv = Q.shape[1] // h, V.shape[1] // h
        for a in range(h):
            q, key, v = Q[:, a * dk : (a + 1) * dk], K[:, a * dk : (a + 1) * dk], V[:, a * dv : (a + 1) * dv]
            scale = 1 / np.sqrt(dk) if case["scale"] else 1.0
            out, w = selfattn_ref.scaled_dot_product_attention(q, key, v, mask=mask, scale=scale)
            assert_close(f"head {a + 1} scores", js["heads"][a]["scores"], q @ key.T, where)
            assert_close(f"head {a + 1} weights", js["heads"][a]["weights"], w, where)
            assert_close(f"head {a + 1} output", js["heads"][a]["output"], out, where)
        assert_close("output = the heads side by side", js["output"],
                     np.concatenate([np.asarray(x["output"]) for x in js["heads"]], axis=1), where)  # fmt: skip
    assert torch_cases >= 30 and TOL <= 1e-9
    watch.check()


# --- the heads setting ---------------------------------------------------------------------------------


def test_the_heads_setting(pg, site):
    """The two-heads example opens with 2 heads and shows each head's tables (its page's); 3 heads are
    refused on 4 dimensions, with the reason; 4 and 1 are computed; a link carries the heads; removing a
    dimension that the heads no longer divide goes back to one head, saying so."""
    page, watch = pg
    slug = "the_cat_sat_two_heads"
    open_playground(page, site, f"#preset={slug}")
    expect(page.locator("#pg-heads")).to_have_value("2")
    expect(page.locator("#pg-head option")).to_have_text(["Head 1", "Head 2"])
    expect(page.locator("#pg-heads-help")).to_have_text("2 heads of width d_head = 4 / 2 = 2")
    ex = examples.load(slug)
    st = examples.run(ex)
    labels = list(ex.tokens)
    # Three heads cannot split 4 columns: refused, with the reason and what would do.
    page.select_option("#pg-heads", "3")
    expect(page.locator("#pg-heads")).to_have_value("2")
    message = page.locator("#pg-heads-message")
    expect(message).to_have_text(
        "3 heads need widths that divide by 3: Q, K and V have 4 columns. Here 1, 2 or 4 can split them; "
        "change the dimensions or the columns of your matrices first to have 3."
    )
    assert message.get_attribute("role") == "alert"
    assert read_table(page, "pg-weights") == expected_table(st.heads[0].weights, labels, labels, 4, "query ↓ key →")
    # Four heads of width 1, as the library computes them; the last head shown.
    page.select_option("#pg-heads", "4")
    expect(message).to_have_text("")
    out4, w4 = selfattn_ref.multi_head_attention(ex.E, ex.W_Q, ex.W_K, ex.W_V, np.eye(4), 4)
    page.select_option("#pg-head", "3")
    assert read_table(page, "pg-weights") == expected_table(w4[3], labels, labels, 4, "query ↓ key →")
    assert read_table(page, "pg-output") == expected_table(out4, labels, [f"c{k}" for k in range(1, 5)], 4, "output")
    expect(page.locator("label:has(#pg-scale)")).to_contain_text("(each head by √d_head, the width of its own keys)")
    # The link carries the heads, and opens them again.
    page.wait_for_function("() => location.hash.startsWith('#s=')")
    written = page.evaluate("location.hash")
    open_playground(page, site, written)
    expect(page.locator("#pg-heads")).to_have_value("4")
    page.select_option("#pg-head", "3")
    assert read_table(page, "pg-weights") == expected_table(w4[3], labels, labels, 4, "query ↓ key →")
    # One head: the weights of one head of full width, no head to choose.
    page.select_option("#pg-heads", "1")
    expect(page.locator("#pg-head-box")).to_be_hidden()
    one = examples.run(examples.load("the_cat_sat"))
    assert read_table(page, "pg-weights") == expected_table(one.weights, labels, labels, 4, "query ↓ key →")
    # Two heads again, then a fifth dimension: 2 heads cannot split 5 columns, so back to one.
    page.select_option("#pg-heads", "2")
    page.click("#pg-add-dim")
    expect(page.locator("#pg-heads")).to_have_value("1")
    expect(message).to_have_text(
        "2 heads need widths that divide by 2: Q, K and V have 5 columns, so the playground is back to 1 head."
    )
    page_text_has_no_nan(page)
    watch.check()


def test_a_head_explains_its_own_numbers(pg, site):
    """With two heads, a weight's explanation is its head's softmax (as the page's head_2_softmax_1.md),
    an output column's names the head whose columns hold it, and the head's scores are outlined."""
    page, watch = pg
    open_playground(page, site, "#preset=the_cat_sat_two_heads")
    page.select_option("#pg-head", "1")
    page.locator("#pg-weights tbody tr").nth(1).locator("td").nth(2).click()
    lines = page.locator("#pg-explain code").text_content().split("\n")
    expect(page.locator("#pg-explain-title")).to_have_text(
        "In head 2, the weight cat gives sat: its share of row cat after the softmax."
    )
    assert "total = 1.0000 + 4.1133 + 4.1133 = 9.2265" in lines
    assert "weight = 4.1133 ÷ 9.2265 = 0.4458" in lines
    used = page.evaluate(
        "() => [...document.querySelectorAll('#playground td.pg-used')].map((td) => td.closest('table').id)"
    )
    assert used == ["pg-scaled"] * 3
    page.locator("#pg-output tbody tr").nth(0).locator("td").nth(2).click()  # column c3: head 2's
    expect(page.locator("#pg-explain-title")).to_contain_text("Output of The, column c3: head 2 mixes columns c3–c4")
    assert page.locator("#pg-explain code").text_content().split("\n")[0] == (
        "c3: 0.3333 × 0 + 0.3333 × 1 + 0.3333 × 1 = 0.6667"
    )
    watch.check()


def test_the_multi_head_page_opens_the_playground_with_two_heads(pg, site):
    """The multi-head page's link (in the built page) opens the two-heads example with 2 heads."""
    page, watch = pg
    soup = BeautifulSoup((site.dir / "multi-head" / "index.html").read_text(encoding="utf-8"), "html.parser")
    [a] = [a for a in soup.select("article a") if a.get_text() == "open the playground with two heads"]
    assert a["href"] == "../playground/?preset=the_cat_sat_two_heads", a["href"]
    open_playground(page, site, "?preset=the_cat_sat_two_heads")
    expect(page.locator("#pg-heads")).to_have_value("2")
    st = examples.run(examples.load("the_cat_sat_two_heads"))
    labels = list(examples.load("the_cat_sat_two_heads").tokens)
    assert read_table(page, "pg-weights") == expected_table(st.heads[0].weights, labels, labels, 4, "query ↓ key →")
    watch.check()


# --- d × d_k projections -----------------------------------------------------------------------------


def decoded(fragment: str) -> dict:
    """The state of a "#s=" link."""
    assert fragment.startswith("#s="), fragment
    text = fragment[3:]
    return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


LINKS_JS = """async ([base, presets, fragments, extra]) => {
  const s = await import(base + 'state.js');
  const out = {refused: fragments.map((f) => s.decodeLink(f, '', presets).error)};
  // A worked example with a 4 × 2 W_Q, W_K and a 4 × 3 W_V, as presets.json would hold it.
  const more = {...presets, presets: [...presets.presets, extra]};
  const state = s.stateFromPreset(more, extra.slug);
  const short = s.encodeLink(state, more);
  const back = s.decodeLink('#' + short, '', more).state;
  const edited = {...state, X: state.X.map((r, i) => r.map((x, k) => (i === 0 && k === 0 ? x + 1 : x)))};
  const long = s.encodeLink(edited, more);
  out.preset = {short, same: JSON.stringify(back) === JSON.stringify(state), long: long.slice(0, 2),
                again: JSON.stringify(s.decodeLink('#' + long, '', more).state) === JSON.stringify(edited),
                widths: [state.W_Q[0].length, state.W_K[0].length, state.W_V[0].length]};
  return out;
}"""

NARROW = {"W_Q": [[1, 0], [0, 1], [1, 0], [0, 0]], "W_K": [[1, 0], [0, 1], [0, 1], [1, 0]],
          "W_V": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]}  # fmt: skip


def test_projections_of_other_widths_open_and_round_trip(pg, site):
    """W_Q, W_K (4 × 2) and W_V (4 × 3): a link opens them (they were refused as "ragged"), the tables
    have 2 and 3 columns, the link the playground writes opens them again identically, and so does an
    example with such matrices; W_Q and W_K of different widths, a ragged or a 17-column matrix and
    heads that do not divide are refused with a reason."""
    page, watch = pg
    state = {**state_of("bank_of_river"), "projections": "custom", **NARROW}
    open_playground(page, site, link(state))
    expect(page.locator("#pg-notice")).to_be_hidden()
    open_details(page)
    tokens = ["bank", "of", "river"]
    st = examples.run(example_of(state["X"], "matrices", [NARROW[k] for k in ("W_Q", "W_K", "W_V")], tokens=tokens))
    assert read_table(page, "pg-Q") == expected_table(st.Q, tokens, ["c1", "c2"], 3, "Q")
    assert read_table(page, "pg-V") == expected_table(st.V, tokens, ["c1", "c2", "c3"], 3, "V")
    assert read_table(page, "pg-weights") == expected_table(st.weights, tokens, tokens, 3, "query ↓ key →")
    assert read_table(page, "pg-output") == expected_table(st.output, tokens, ["c1", "c2", "c3"], 3, "output")
    expect(page.locator("#pg-dk")).to_have_value("2")
    expect(page.locator("#pg-dv")).to_have_value("3")
    # The link it writes (after a change and back) is the same state, and opens the same tables.
    page.select_option("#pg-decimals", "4")
    page.select_option("#pg-decimals", "3")
    page.evaluate("() => window.dispatchEvent(new Event('pagehide'))")  # writes the address now
    written = page.evaluate("location.hash")
    assert decoded(written) == state, "the link written is not the state opened"
    tables = [read_table(page, t) for t in ("pg-Q", "pg-V", "pg-weights", "pg-output")]
    open_playground(page, site, written)
    open_details(page)
    assert [read_table(page, t) for t in ("pg-Q", "pg-V", "pg-weights", "pg-output")] == tables
    # d_k changed in the page: W_Q and W_K get a third column (the identity's), and 3 heads fit V but not Q.
    page.select_option("#pg-dk", "3")
    assert page.evaluate("() => document.querySelectorAll('#pg-W_Q thead th').length") == 4  # corner + 3
    assert page.input_value("#pg-W_K-2-2") == "1" and page.input_value("#pg-W_K-3-2") == "0"
    page.select_option("#pg-heads", "3")
    expect(page.locator("#pg-heads")).to_have_value("3")
    page.select_option("#pg-dk", "2")
    expect(page.locator("#pg-heads")).to_have_value("1")
    expect(page.locator("#pg-heads-message")).to_contain_text("Q and K have 2 columns, V 3")
    # From presets.json (an example with such matrices) and hostile links, in the module itself.
    extra = {"slug": "narrow", "title": "Narrow", "tokens": tokens, "embeddings": state["X"],
             "projections": "matrices", "scale": False, "causal": False, "heads": 1, "decimals": 3,
             "origin": {"given": True}, **NARROW}  # fmt: skip
    bad = {
        "W_Q and W_K of different widths": link({**state, "W_K": NARROW["W_V"]}),
        "a ragged W_V": link({**state, "W_V": [[1, 0, 0], [0, 1], [0, 0, 1], [1, 1, 1]]}),
        "17 columns": link({**state, "W_V": [[1] * 17] * 4}),
        "3 heads on 4 columns": link({**state_of("bank_of_river"), "heads": 3}),
        "5 heads": link({**state_of("bank_of_river"), "heads": 5}),
        "heads as text": link({**state_of("bank_of_river"), "heads": "2"}),
    }
    presets = json.loads(json.dumps(PRESETS))
    got = page.evaluate(LINKS_JS, [site.base_url + ASSETS, presets, list(bad.values()), extra])
    assert dict(zip(bad, got["refused"], strict=True)) == {
        "W_Q and W_K of different widths": "W_Q and W_K must have the same number of columns, got 2 and 3",
        "a ragged W_V": "row 2 of W_V has 2 numbers where row 1 has 3 (a ragged table)",
        "17 columns": "W_V must have 1 to 16 columns",
        "3 heads on 4 columns": "3 heads need widths that divide by 3: Q, K and V have 4 columns",
        "5 heads": '"heads" must be a whole number from 1 to 4',
        "heads as text": '"heads" must be a whole number from 1 to 4',
    }
    assert got["preset"] == {"short": "preset=narrow", "same": True, "long": "s=", "again": True, "widths": [2, 2, 3]}
    page_text_has_no_nan(page)
    watch.check()


def test_two_heads_without_projections_split_the_words_vectors(pg, site):
    """Without projections (Q = K = V = X), head 2 of bank / of / river takes x3 and x4 of the vectors,
    unscaled as the example is; the output's columns keep the vectors' names, x1 to x4."""
    page, watch = pg
    open_playground(page, site, link({**BANK, "heads": 2}))
    expect(page.locator("#pg-notice")).to_be_hidden()
    expect(page.locator("#pg-heads")).to_have_value("2")
    words = BANK["words"]
    E = np.asarray(BANK["X"], dtype=float)
    heads = [examples.run(example_of(E[:, cols], tokens=words)) for cols in (slice(0, 2), slice(2, 4))]
    page.select_option("#pg-head", "1")
    assert read_table(page, "pg-weights") == expected_table(heads[1].weights, words, words, 3, "query ↓ key →")
    output = np.concatenate([h.output for h in heads], axis=1)
    assert read_table(page, "pg-output") == expected_table(output, words, ["x1", "x2", "x3", "x4"], 3, "output")
    expect(page.locator("#pg-head-help")).to_contain_text("head 1 columns x1–x2, head 2 columns x3–x4")
    watch.check()
