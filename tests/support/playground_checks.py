"""What the playground's browser tests (tests/browser/test_playground*.py) share: its presets, how to
open it and read its tables, what its tables should show (the generated tables, NumPy's numbers), links
that carry a state, seeded random cases, a watch on what a clean page never does, and axe-core on it.
The module's shared page and its fixtures are in tests/browser/conftest.py (playground_page.py)."""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from browser_checks import (
    AXE_ALL,
    AXE_COLOURS,
    AXE_JS,
    AXE_SCRIPT,
    AXE_SETUP_JS,
    SAMPLE_COLOURS_JS,
    cancelled_after_load,
)
from playground_page import SharedPage
from playwright.sync_api import Page, expect

from publish.fmt import cell, is_integral, num, vector
from publish.generate import playground
from publish.generate.tables import example_files
from selfattn_ref import examples

PRESETS = playground.presets()


SLUGS = [p["slug"] for p in PRESETS["presets"]]


DEFAULT = PRESETS["default"]


TOL = 1e-9


@dataclass
class Watch:
    """What a clean page never does: console errors or warnings, uncaught errors, dialogs, failed requests."""

    problems: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    listeners: list = field(default_factory=list)

    def attach(self, page: Page) -> Watch:
        def dialog(d):
            self.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()

        self.listeners = [
            ("console", self._console),
            ("pageerror", lambda e: self.problems.append(f"uncaught: {e}")),
            ("requestfailed", self._failed),
            ("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}")),
            ("dialog", dialog),
        ]
        for event, listener in self.listeners:
            page.on(event, listener)
        return self

    def detach(self, page: Page) -> None:
        """Stop watching (the page goes on to the next test)."""
        for event, listener in self.listeners:
            page.remove_listener(event, listener)
        self.listeners = []

    def _failed(self, request) -> None:
        if cancelled_after_load(request):
            return
        self.problems.append(f"request failed: {request.url}")

    def _console(self, message) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"console {message.type}: {message.text}")

    def check(self) -> None:
        assert not self.dialogs, f"a dialog opened: {self.dialogs}"
        assert not self.problems, "\n".join(self.problems)


def playground_url(site, suffix: str = "") -> str:
    return site.base_url + "playground/" + suffix


def open_playground(page: Page, site, suffix: str = "") -> None:
    """The playground at playground/<suffix>, as a load of that address shows it: on the module's
    shared page by a new mount (playground_page.py), on another page by a load."""
    shared = SharedPage.of(page)
    if shared is not None:
        shared.open(suffix)
        return
    if page.url.startswith(playground_url(site)):
        page.goto("about:blank")  # a new document: a new #part alone would only fire hashchange
    page.goto(playground_url(site, suffix))
    page.wait_for_selector("#playground[data-state=ready]")


def link(state: dict) -> str:
    """The #s= part of a link for a state, as state.js writes it."""
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    return "#s=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def state_of(slug: str, **changes) -> dict:
    p = next(p for p in PRESETS["presets"] if p["slug"] == slug)
    projections = "learned" if slug == PRESETS["learned"] else p["projections"]
    s = {"v": 1, "words": p["tokens"], "X": p["embeddings"], "scale": p["scale"], "causal": p["causal"]}
    return {**s, "projections": projections, "decimals": p["decimals"], **changes}


READ_TABLE_JS = """(id) => {
  const t = document.getElementById(id);
  if (!t) return null;
  const head = [...t.tHead.rows[0].cells].map((c) => c.textContent);
  const rows = [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent));
  return {head, rows};
}"""


def read_table(page: Page, table_id: str) -> dict:
    return page.evaluate(READ_TABLE_JS, table_id)


def generated_table(path: Path | str) -> dict:
    """A generated Markdown table (a file, or its text) as {head, rows}, the way the page's tables read."""
    text = path.read_text(encoding="utf-8") if isinstance(path, Path) else path
    lines = [ln for ln in text.splitlines() if ln.startswith("|")]
    split = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines]
    head, body = split[0], split[2:]
    return {"head": head, "rows": [[r[0].strip("*"), *r[1:]] for r in body]}


def generated_mix(path: Path | str) -> str:
    text = path.read_text(encoding="utf-8") if isinstance(path, Path) else path
    return re.search(r"```text\n(.*?)\n```", text, re.S).group(1)


def expected_table(M, rows, cols, decimals: int, corner: str) -> dict:
    """What publish.generate.tables.matrix_table would print."""
    M = np.asarray(M, dtype=float)
    integral = is_integral(M)
    body = [[r, *(cell(x, decimals, integral) for x in row)] for r, row in zip(rows, M, strict=True)]
    return {"head": [corner, *cols], "rows": body}


def example_of(
    E, projections="none", W=None, scale=False, causal=False, decimals=3, tokens=None, heads=1
) -> examples.Example:
    """An ad-hoc example for examples.run: the reference pipeline the pages use."""
    E = np.asarray(E, dtype=float)
    n, d = E.shape
    kind = {"none": "none", "identity": "identity", "matrices": "given"}[projections]
    if projections == "identity":
        Ws = (np.eye(d),) * 3
    else:
        Ws = tuple(np.asarray(w, dtype=float) for w in W) if W else (None,) * 3
    return examples.Example(
        slug="case", title="case", tokens=tuple(tokens or (f"t{i}" for i in range(n))), E=E, projections=kind,
        W_Q=Ws[0], W_K=Ws[1], W_V=Ws[2], scale=scale, causal=causal, decimals=decimals, path=Path("case"),
        heads=heads,
    )  # fmt: skip


def expected_mix(tokens, weights_row, V, output_row, decimals: int) -> str:
    """Step 3 written out, as publish.generate.tables writes docs/generated/<slug>/mix_<i>.md."""
    width = max(len(num(w, decimals)) for w in weights_row)
    lines = [
        f"{'  ' if j == 0 else '+ '}{num(w, decimals):>{width}} × {vector(V[j], decimals)}   ({tokens[j]})"
        for j, w in enumerate(weights_row)
    ]
    return "\n".join([*lines, f"= {vector(output_row, decimals)}"])


def field_text(x: float, decimals: int) -> str:
    """What a number field shows for a value it was given (app.js, fieldText): the value as it is when
    it has at most `decimals` decimals, else rounded to them as the tables round it."""
    x = float(x)
    if float(num(x, decimals)) != x:
        return num(x, decimals)
    return str(int(x)) if x.is_integer() else repr(x)


def page_text_has_no_nan(page: Page) -> None:
    text = page.locator("body").inner_text()
    found = re.findall(r"\b(NaN|-?Infinity|undefined)\b", text)
    assert not found, f"the page shows {found}"


def random_cases(seed: int = 20240601, count: int = 240) -> list[dict]:
    """Varied sizes (1-16 words × 1-16 dimensions, the corners included), signs, integers and decimals,
    scaling and the causal mask on and off, projections none, identity and random matrices (d_k and
    d_v not always d)."""
    rng = np.random.default_rng(seed)
    corners = [(1, 1), (16, 16), (1, 16), (16, 1), (2, 3), (3, 4)]
    cases = []
    for c in range(count):
        n, d = corners[c] if c < len(corners) else (int(rng.integers(1, 17)), int(rng.integers(1, 17)))
        style = c % 3
        if style == 0:
            X = rng.integers(-3, 4, (n, d)).astype(float)
        elif style == 1:
            X = np.round(rng.normal(0, 2, (n, d)), 3)
        else:
            X = rng.normal(0, 1, (n, d)) * 10.0 ** rng.integers(-2, 2)
        kind = ["none", "identity", "matrices"][c % 3 if c >= len(corners) else int(rng.integers(3))]
        case = {"X": X.tolist(), "projections": kind, "scale": bool(rng.integers(2)), "causal": bool(rng.integers(2))}
        if kind == "matrices":
            dk = d if rng.random() < 0.5 else int(rng.integers(1, 17))
            dv = d if rng.random() < 0.5 else int(rng.integers(1, 17))
            std = float(rng.uniform(0.1, 1.5))
            case.update(W_Q=rng.normal(0, std, (d, dk)).tolist(), W_K=rng.normal(0, std, (d, dk)).tolist(),
                        W_V=rng.normal(0, std, (d, dv)).tolist())  # fmt: skip
        cases.append(case)
    return cases


# Plain data as JSON text: -Infinity, Infinity and NaN as the tokens Python's json reads, undefined
# as null (None, as Playwright gives it).
TO_JSON_JS = """(value) => JSON.stringify(value, (k, v) => (v === undefined ? null
  : typeof v === "number" && !Number.isFinite(v) ? `@@${v}@@` : v)).replace(/"@@(-?Infinity|NaN)@@"/g, "$1")"""


# The argument, sent the same way: JSON text, parsed in the page (Playwright's conversion of an
# argument, value by value, took 1.4 s of a 0.2 s call for the 240 parity cases), -Infinity,
# Infinity and NaN as strings that the parse turns back into numbers.
_NOT_FINITE = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN')
FROM_JSON_JS = """([text, marked]) => JSON.parse(text, marked
  ? (k, v) => (typeof v === "string" && /^@@(-?Infinity|NaN)@@$/.test(v) ? Number(v.slice(2, -2)) : v) : undefined)"""


def to_json(value) -> list:
    """[JSON text, whether it marks a number that is not finite] for FROM_JSON_JS."""
    marked = False

    def mark(match: re.Match) -> str:
        nonlocal marked
        if match.group(0).startswith('"'):
            return match.group(0)
        marked = True
        return f'"@@{match.group(0)}@@"'

    text = json.dumps(value)
    if "NaN" not in text and "Infinity" not in text:  # the regular expression takes 0.2 s on 100,000 numbers
        return [text, False]
    return [_NOT_FINITE.sub(mark, text), marked]


def evaluate_json(page: Page, js: str, arg):
    """page.evaluate(js, arg) for a large argument or answer of plain data (numbers, strings, lists,
    objects): each goes as one JSON string. Playwright's own conversion, value by value, took most
    of the time of the tests that send or read some 100,000 numbers."""
    run = f"(arg) => Promise.resolve(({js})(({FROM_JSON_JS})(arg))).then({TO_JSON_JS})"
    return json.loads(page.evaluate(run, to_json(arg)))


def assert_close(name: str, got, want, where: str) -> None:
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"{where}: {name} has shape {got.shape}, NumPy's {want.shape}"
    both_inf = np.isneginf(got) & np.isneginf(want)
    with np.errstate(invalid="ignore"):  # -inf - -inf where both are masked
        err = np.where(both_inf, 0.0, np.abs(got - want) / np.maximum(1.0, np.abs(want)))
    assert np.all(np.isfinite(err)) and err.max() <= TOL, f"{where}: {name} differs by {err.max():.3g}"


def open_details(page: Page) -> None:
    """Open "Q, K and V" (filled in only while open) and wait for its tables to be drawn."""
    page.evaluate("() => { for (const d of document.querySelectorAll('#playground details')) d.open = true; }")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")  # the toggle event
    page.wait_for_function(
        "() => [...document.querySelectorAll('#playground details:not([hidden]) table')].every((t) => t.tHead)"
    )


READ_FIELDS_JS = """(id) => {
  const t = document.getElementById(id);
  return t && [...t.tBodies[0].rows].map((r) => [...r.querySelectorAll('input')].map((i) => i.value));
}"""


def check_matches_generated(page: Page, slug: str, ex: examples.Example | None = None) -> None:
    """Every table the playground shows for a worked example is the table its page shows, labels
    included (the output's columns x1, x2, ... without projections, c1, c2, ... with them, as the
    pages and Notation name them); with several heads, each head's tables are its page's. Its
    matrices, for any example with matrices: the learned example's in the learned weights' tables,
    every other's (seeded or given in its spec) in the fields of "Your projection matrices", each
    shown as a field shows a number it was given (field_text). The page's tables are those
    publish.generate.tables.example_files writes into docs/generated/<slug>/ (test_worked_examples holds the
    two equal), so that `ex`, an example that is not on disk, can be checked too."""
    ex = ex or examples.load(slug)
    if ex.projections != "none":
        open_details(page)
    gen = example_files(ex)
    tables = {"pg-output": "output.md"}
    if ex.projections != "none":
        tables |= {"pg-Q": "Q.md", "pg-K": "K.md", "pg-V": "V.md"}
    learned = slug == PRESETS["learned"]  # the one example the playground shows as "learned" (state.js)
    if learned:
        tables |= {"pg-learned-W_Q": "W_Q.md", "pg-learned-W_K": "W_K.md", "pg-learned-W_V": "W_V.md"}
    elif ex.projections in ("random", "given"):
        expect(page.locator("#pg-projections")).to_have_value("custom")
        for name in ("W_Q", "W_K", "W_V"):
            want = [[field_text(x, ex.decimals) for x in row] for row in getattr(ex, name)]
            assert page.evaluate(READ_FIELDS_JS, f"pg-{name}") == want, f"{slug}: the fields of {name}"
    for table_id, name in tables.items():
        got, want = read_table(page, table_id), generated_table(gen[name])
        assert got == want, f"{slug}: #{table_id} shows {got}, docs/generated/{slug}/{name} has {want}"
    if ex.heads == 1:
        expect(page.locator("#pg-head-box")).to_be_hidden()
    for k in range(ex.heads):
        prefix = f"head_{k + 1}_" if ex.heads > 1 else ""
        if ex.heads > 1:
            page.select_option("#pg-head", str(k))
        for table_id, name in {"pg-weights": "weights.md", "pg-scores": "scores.md"}.items():
            got, want = read_table(page, table_id), generated_table(gen[f"{prefix}{name}"])
            assert got == want, f"{slug}: #{table_id} shows {got}, docs/generated/{slug}/{prefix}{name} has {want}"
        if ex.scale or ex.causal:
            got = read_table(page, "pg-scaled")
            want = generated_table(gen[f"{prefix}{'scaled' if ex.scale else 'scores'}.md"])
            if ex.causal:  # the masked entries: −∞, as docs/generated/masking/masked_scores.md shows them
                for i, row in enumerate(want["rows"]):
                    row[2 + i :] = ["−∞"] * len(row[2 + i :])
            assert got == want, f"{slug}: the scaled scores show {got}, the page's table {want}"
        else:
            expect(page.locator("#pg-scaled")).to_be_hidden()
        for i in range(len(ex.tokens)):
            page.select_option("#pg-selected", str(i))
            want = generated_mix(gen[f"{prefix}mix_{i}.md"])
            expect(page.locator("#pg-mix")).to_have_text(want, use_inner_text=False)
    if ex.heads > 1:
        page.select_option("#pg-head", "0")


BANK = state_of("bank_of_river")


def axe_violations(page: Page, scheme: str, checked: list[str] | None = None) -> list[str]:
    """axe-core injected into the page as it is: all its rules in the light scheme, its colour rules
    on #playground in the dark one, the colour rules on one element of each look of text (browser_checks'
    SAMPLE_COLOURS_JS: two elements that look the same pass or fail together), which cut axe's time
    on a 16 x 16 heatmap from 5-6 s to under 2 s. (Injected once in a document: a shared page,
    playground_page.py, keeps it over its new mounts.) ``checked``: the looks that axe's colour rules
    have already checked on this page in this scheme (in states shown before), which are not sampled
    again; the new ones are added to it."""
    checked = [] if checked is None else checked
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    page.evaluate(AXE_SETUP_JS)
    root = None if scheme == "light" else "#playground"
    looks = page.evaluate(SAMPLE_COLOURS_JS, [checked, root])
    assert looks or checked, f"no text to check the contrast of in {root or 'the page'}"
    checked += looks
    if scheme == "light":
        return page.evaluate(AXE_JS, [None, AXE_ALL])
    return page.evaluate(AXE_JS, [root, AXE_COLOURS])


def sixteen_by_sixteen() -> dict:
    rng = np.random.default_rng(3)
    return {**BANK, "words": [f"w{i}" for i in range(16)], "X": np.round(rng.normal(0, 1.5, (16, 16)), 2).tolist(),
            "scale": True, "causal": True, "projections": "identity", "decimals": 3}  # fmt: skip


CHANGE_HASH_JS = """(h) => new Promise((resolve, reject) => {
  const harness = window.__pgHarness;
  if (!harness) return reject(new Error('change_hash needs the shared page (playground_page.py)'));
  if (harness.navigated) { location.hash = h; return resolve('no fetch'); }
  let replayed = true;  // document$ replays the document it last emitted
  const sub = document$.subscribe(() => {
    if (replayed) return;
    queueMicrotask(() => sub.unsubscribe());
    resolve('fetched');
  });
  replayed = false;
  location.hash = h;
})"""


def change_hash(page: Page, fragment: str) -> str:
    """Set location.hash, as a link pasted into the address bar does, and let the page settle: the
    first change of the #part after a full load makes Material fetch the page again and swap its
    content in (instant navigation), which mounts a new playground (CHANGE_HASH_JS waits for that)."""
    done = page.evaluate(CHANGE_HASH_JS, fragment)
    page.wait_for_selector("#playground[data-state=ready]")
    return done
