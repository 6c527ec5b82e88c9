"""The playground's modules that need no page, run in Node (a quick check, without a browser):

- the language model's links (state.js): what a #model= link opens, what it refuses and why, and the
  link written back for a state;
- arith.js: a division by a number shown as 0 holds at no rounding (the audit says it "divides by
  zero"), so an explanation whose total rounds to 0 takes more decimals instead of failing
  (explain.js: a row of scores that are all far below 0 at a rounding of 1 decimal).

The browser tests (tests/browser/test_playground_model.py) check what the page does with them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from urllib.parse import parse_qs

import pytest

from publish import ROOT

RUN_JS = """
const base = process.argv[1];
const state = await import(base + "assets/playground/state.js");
const arith = await import(base + "assets/playground/arith.js");
const attention = await import(base + "assets/playground/attention.js");
const explain = await import(base + "assets/playground/explain.js");
const links = JSON.parse(process.argv[2]).map((hash) => {
  const {model, error} = state.decodeLink(hash, "", {presets: []});
  if (error) return error;
  const back = state.encodeModelLink(model);
  return {model, back, again: state.decodeLink("#" + back, "", {presets: []}).model};
});
// A row whose one unmasked score is -9: e^-9 = 0.0001, which rounds to 0.0 at 1 decimal.
const r = attention.attention({X: [[3, 0], [0, 1]], projections: "matrices", W_Q: [[-1, 0], [0, -1]],
                               W_K: [[1, 0], [0, 1]], W_V: [[1, 0], [0, 1]], causal: true});
let weight;
try {
  const e = explain.explanationText(explain.explainCell(r, "weights", 0, 0), r, ["a", "b"], 1, true);
  weight = {lines: e.lines, decimals: e.decimals, holds: e.claims.every((c) => arith.holds(c.text))};
} catch (e) {
  weight = {error: e.message};
}
const divisions = ["1.0 ÷ 0.0 = 1.0", "0.0 ÷ 0.0 = 0.0", "2 ÷ 0 = 1"].map((t) => {
  try {
    return arith.holds(t);
  } catch (e) {
    return e.message;
  }
});
console.log(JSON.stringify({links, weight, divisions}));
"""

LINKS = {
    "#model=she+took+the+money": {"text": "she took the money"},
    "#model=The%20CAT%20sat.&temperature=0.5&decimals=2&seed=53&generate=1": {
        "text": "The CAT sat.", "temperature": 0.5, "decimals": 2, "seed": 53, "generate": True,
    },
    "#model=&pick=greedy": {"text": "", "greedy": True},
    "#model=%3Cscript%3Ealert(1)%3C%2Fscript%3E": {"text": "<script>alert(1)</script>"},
    "#model=a&seed=4294967295&temperature=1000000": {"text": "a", "seed": 4294967295, "temperature": 1_000_000},
    "#model=a&temperature=0": '"temperature" must be a positive number, at most 1,000,000',
    "#model=a&temperature=1000001": '"temperature" must be a positive number, at most 1,000,000',
    "#model=a&temperature=abc": '"temperature" must be a positive number, at most 1,000,000',
    "#model=a&seed=4294967296": '"seed" must be a whole number from 0 to 4,294,967,295',
    "#model=a&seed=-1": '"seed" must be a whole number from 0 to 4,294,967,295',
    "#model=a&seed=1&pick=greedy": 'a link gives "seed" or "pick=greedy", not both',
    "#model=a&pick=best": '"pick" must be "greedy" (the most probable word), or left out',
    "#model=a&generate=yes": '"generate" must be 1 (the generated words shown), or left out',
    "#model=a&decimals=11": '"decimals" must be a whole number from 0 to 10',
    "#model=a&word=2": "the link holds a part the playground does not know",
    "#model=a&preset=bank_of_river": "the link names more than one state",
    "#model=a&temperature=1&temperature=2": "the link holds a part the playground does not know",
}  # fmt: skip
DEFAULTS = {"text": "she took the money to the bank", "temperature": 1, "decimals": 4, "seed": 1, "greedy": False,
            "generate": False}  # fmt: skip


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> dict:
    node = shutil.which("node")
    assert node, "Node.js is needed to run the playground's modules outside a browser"
    tmp = tmp_path_factory.mktemp("playground")
    for rel in ("assets/playground", "generated/playground"):  # the modules, and limits.js, which they import
        shutil.copytree(ROOT / "docs" / rel, tmp / rel, ignore=shutil.ignore_patterns("*.bundle.js", "*.json"))
    (tmp / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    proc = subprocess.run([node, "--input-type=module", "-e", RUN_JS, tmp.as_uri() + "/", json.dumps(list(LINKS))],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("hash_", list(LINKS))
def test_a_language_model_link_opens_its_state_or_says_why_not(ran, hash_):
    got = ran["links"][list(LINKS).index(hash_)]
    want = LINKS[hash_]
    if isinstance(want, str):
        assert got == want
        return
    assert got["model"] == {**DEFAULTS, **want}
    # The link written back opens the same state, and names only what is not the default.
    assert got["again"] == got["model"]
    keys = {"greedy": "pick", "text": "model"}
    assert set(parse_qs(got["back"], keep_blank_values=True)) == {"model", *(keys.get(k, k) for k in want)}


def test_a_division_by_a_number_shown_as_zero_does_not_hold_and_takes_more_decimals(ran):
    """Before, arith.js's holds() threw 'not arithmetic: 0.0 ÷ 0.0' and the explanation of such a weight
    failed (in the page: no explanation, an error in the console); now the line does not hold at 1
    decimal, and the explanation is written with the 4 it needs, and says so."""
    assert ran["divisions"] == [False, False, False]
    weight = ran["weight"]
    assert "error" not in weight, weight
    assert weight["holds"] and weight["decimals"] == 4, weight
    assert "weight = 0.0001 ÷ 0.0001 = 1.0000" in weight["lines"]
    assert "(Written with 4 decimals here: at the 1 chosen, this arithmetic would not add up.)" in weight["lines"]
