"""The playground's modules that need no page, run in Node (a quick check, without a browser):

- the language model's links (state.js): what a #model= link opens, what it refuses and why, and the
  link written back for a state;
- language_model.js's words: the words read, the nearest words to an unknown one and its message,
  as selfattn_ref.corpus gives them;
- every explanation of the language model's mode (model_app.js, reading and explanation) holds at
  the rounding it shows, as the site's numbers audit reads it;
- arith.js: a side without a value ("0.000 ÷ 0.000") holds at no rounding (the audit says it
  "divides by zero"), so the explanation of a weight whose e^score shows as 0 takes more decimals,
  or is written the code's way, instead of failing (explain.js).

The browser tests (tests/browser/test_playground_model.py) check what the page does with them, and
hold the model's forward pass to NumPy's and PyTorch's in Chromium.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
import pytest
from claims import claim_problems

from publish import ROOT
from selfattn_ref import corpus, examples

V = corpus.VOCABULARY


@pytest.fixture(scope="module")
def modules(tmp_path_factory) -> Path:
    """The playground's modules, with limits.js which they import, and the package's weights, in a
    folder of their own that Node reads as ES modules."""
    tmp = tmp_path_factory.mktemp("playground")
    for rel in ("assets/playground", "generated/playground"):
        shutil.copytree(ROOT / "docs" / rel, tmp / rel, ignore=shutil.ignore_patterns("*.bundle.js", "*.json"))
    shutil.copy(ROOT / "selfattn_ref" / "language_model.json", tmp / "weights.json")
    (tmp / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    return tmp


def node(modules: Path, script: str, arg) -> dict:
    """Run ``script`` (an ES module's text) in Node with ``base`` (the folder's URL, for import()),
    ``arg`` (read from a JSON file) and ``fs``; what it prints, as JSON."""
    exe = shutil.which("node")
    assert exe, "Node.js is needed to run the playground's modules outside a browser"
    (modules / "arg.json").write_text(json.dumps(arg), encoding="utf-8")
    prelude = (
        'const fs = await import("node:fs");\nconst base = process.argv[1];\n'
        "const arg = JSON.parse(fs.readFileSync(new URL('arg.json', base), 'utf8'));\n"
    )
    proc = subprocess.run([exe, "--input-type=module", "-e", prelude + script, modules.as_uri() + "/"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


# --- the language model's links, and a division by zero -----------------------------------------

RUN_JS = """
const state = await import(base + "assets/playground/state.js");
const arith = await import(base + "assets/playground/arith.js");
const attention = await import(base + "assets/playground/attention.js");
const explain = await import(base + "assets/playground/explain.js");
const links = arg.links.map((hash) => {
  const {model, error} = state.decodeLink(hash, "", {presets: []});
  if (error) return error;
  const back = state.encodeModelLink(model);
  return {model, back, again: state.decodeLink("#" + back, "", {presets: []}).model};
});
// A weight whose e^score shows as 0: each case's first row, alone under the causal mask, at the
// roundings given (explanationText's), or what it threw.
const weights = arg.zeros.map(([c, labels, roundings]) => {
  const r = attention.attention(c);
  return roundings.map((dec) => {
    try {
      const e = explain.explanationText(explain.explainCell(r, "weights", 0, 0), r, labels, dec, true);
      return {lines: e.lines, decimals: e.decimals, claims: e.claims.filter((k) => !k.implied).map((k) => k.text)};
    } catch (e) {
      return {error: e.message};
    }
  });
});
const divisions = arg.divisions.map((t) => {
  try {
    return arith.holds(t);
  } catch (e) {
    return e.message;
  }
});
out.links = {links, weights, divisions};
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


@pytest.mark.parametrize("hash_", list(LINKS))
def test_a_language_model_link_opens_its_state_or_says_why_not(ran, hash_):
    got = ran["links"]["links"][list(LINKS).index(hash_)]
    want = LINKS[hash_]
    if isinstance(want, str):
        assert got == want
        return
    assert got["model"] == {**DEFAULTS, **want}
    # The link written back opens the same state, and names only what is not the default.
    assert got["again"] == got["model"]
    keys = {"greedy": "pick", "text": "model"}
    assert set(parse_qs(got["back"], keep_blank_values=True)) == {"model", *(keys.get(k, k) for k in want)}


def zero_cases() -> list:
    """Attention whose first row, alone under the causal mask, has a score far below 0, so that its
    e^score shows as 0 at the rounding asked: (the case, its labels, the roundings)."""
    ex = examples.load("bank_of_river")
    d = ex.E.shape[1]
    eye = np.eye(d).tolist()
    bank = {"X": ex.E.tolist(), "projections": "matrices", "W_Q": (-5 * np.eye(d)).tolist(), "W_K": eye, "W_V": eye,
            "scale": False, "causal": True}  # fmt: skip
    row = {"X": [[3, 0], [0, 1]], "projections": "matrices", "W_Q": [[-1, 0], [0, -1]], "W_K": [[1, 0], [0, 1]],
           "W_V": [[1, 0], [0, 1]], "causal": True}  # fmt: skip
    return [(bank, list(ex.tokens), [0, 3, 10]), (row, ["a", "b"], [1])]


DIVISIONS = ["1.0 ÷ 0.0 = 1.0", "0.0 ÷ 0.0 = 0.0", "2 ÷ 0 = 1", "0.000 ÷ 0.000 = 1.000", "1 + 0 ÷ 0 = 1"]


def test_a_weight_whose_e_to_the_score_shows_as_zero_explains_itself(ran):
    """A side without a value ("0.000 ÷ 0.000") holds nothing: false, as the audit reports a division
    by zero (arith.js's holds() threw 'not arithmetic', and the explanation of such a weight failed in
    the page, with an error in the console). bank of river with W_Q = -5·I, W_K = W_V = I and the
    causal mask: bank's only score, -10, has e^-10 = 0.0000454, "0.000" at 3 decimals: the explanation
    is written with the 5 decimals it needs, and at 0 the code's way; a row whose only score is -9 at
    1 decimal, with 4. Every line holds as the audit reads it."""
    assert ran["links"]["divisions"] == [False] * len(DIVISIONS)
    (zero, three, ten), (one,) = ran["links"]["weights"]
    for text in (zero, three, ten, one):
        assert "error" not in text, text
        assert not any("≈" in line for line in text["lines"]), text["lines"]
        assert [c for c in text["claims"] if claim_problems(c)] == [], text["lines"]
    assert "e^score would be too small to write here" in zero["lines"][0], zero  # 0 ÷ 0 up to 3 decimals
    assert "weight = 0.00005 ÷ 0.00005 = 1.00000" in three["lines"], three
    assert three["lines"][-1].startswith("(Written with 5 decimals"), three
    assert one["decimals"] == 4 and "weight = 0.0001 ÷ 0.0001 = 1.0000" in one["lines"], one
    assert "(Written with 4 decimals here: at the 1 chosen, this arithmetic would not add up.)" in one["lines"]


# --- words, the nearest words and the messages ---------------------------------------------------

WORDS_JS = """
const lm = await import(base + "assets/playground/language_model.js");
const [texts, probes, vocabulary, limit] = arg.words;
const read = (text) => {
  try {
    return {words: lm.words(text, vocabulary, limit).words};
  } catch (e) {
    return {message: e.message, word: e.word ?? null, position: e.position ?? null, nearest: e.nearest ?? null};
  }
};
out.words = {read: texts.map(read), nearest: probes.map((p) => lm.nearest(p, vocabulary))};
"""

TEXTS = [
    "she took the money", "She Took THE money.", "the cat sat.", "bank.", ".", "..", "the...",
    "  the\tcat\nsat\r\x0b\x0c", "bnak", "it's", 'say "hi"', "it's \"x\"", "back\\slash", "x" * 30, "y" * 1234,
    "ÉCOLE", "cat\u00a0sat", "straße", " ".join(["the"] * 14), " ".join(["the"] * 13), "", "   ", "a.b", "😀", "caT.",
    "<img src=x onerror=alert(1)>", "the cat 𝐬at", "RIVER. BANK.",
]  # fmt: skip


def probes(seed: int = 11, count: int = 80) -> list[str]:
    """Strings to find the nearest words of: typos of the vocabulary's words (a letter changed, dropped,
    doubled, two swapped, upper case) and random strings of letters and other characters, up to 50
    characters (the rule reads the first 40)."""
    rng = np.random.default_rng(seed)
    letters = list("abcdefghijklmnopqrstuvwxyzABKMRT.'é😀ß ")
    out = []
    for k in range(count):
        if k % 2:
            out.append("".join(rng.choice(letters, int(rng.integers(0, 51)))))
            continue
        w = list(V[int(rng.integers(1, len(V)))])
        i = int(rng.integers(0, len(w)))
        edit = k % 10
        if edit == 0:
            w[i] = str(rng.choice(letters))
        elif edit == 2 and len(w) > 1:
            del w[i]
        elif edit == 4:
            w.insert(i, w[i])
        elif edit == 6 and i + 1 < len(w):
            w[i], w[i + 1] = w[i + 1], w[i]
        else:
            w = list("".join(w).upper())
        out.append("".join(w))
    return out


def test_words_nearest_words_and_messages_are_the_packages(ran):
    """language_model.js reads a text as selfattn_ref.corpus.words does, and an unknown word's message
    names the same word, place and nearest words (corpus.nearest, on 80 seeded strings); it is the
    package's message, as `python -m selfattn_ref next` prints it, wherever Python's repr() of the word
    shows it as typed (it escapes a character it cannot print, which the page shows as typed)."""
    found = probes()
    js = ran["words"]
    for text, got in zip(TEXTS, js["read"], strict=True):
        try:
            want = {"words": list(corpus.words(text))}
        except ValueError as exc:
            message = str(exc)
            unknown = re.match(r"word (\d+), ", message)
            if unknown is None or got.get("word") is None:  # no word, or too many: the same message
                assert got.get("message") == message, f"{text!r}: JavaScript reads {got}"
                continue
            assert got["position"] == int(unknown.group(1)) - 1, (text, got)
            assert got["nearest"] == corpus.nearest(got["word"]), (text, got)
            assert repr(got["word"][:24]) in message, (text, got)
            if got["word"].isprintable():
                assert got["message"] == message, text
            else:  # Python escapes a character it cannot print; the page shows the word as typed
                assert got["message"] != message and "\\x" in message, (text, got["message"], message)
            continue
        assert got == want, text
    assert js["nearest"] == [corpus.nearest(p) for p in found]


# --- every explanation of the language model's mode ---------------------------------------------

EXPLANATIONS_JS = """
const app = await import(base + "assets/playground/model_app.js");
const model = lm.readWeights(JSON.parse(fs.readFileSync(new URL("weights.json", base), "utf8")));
out.explanations = [];
for (const state of arg.explanations) {
  const r = app.reading(model, state);
  const n = r.words.length;
  const tables = [["next", r.top.length, 3], ["generated", r.generated ? r.generated.length : 0, 3]];
  model.blocks.forEach((_, b) => {
    for (let h = 0; h < model.numHeads && state.heads; h++) tables.push([`b${b + 1}h${h + 1}`, n, n]);
  });
  for (const [table, rows, cols] of tables) {
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const e = app.explanation(model, r, table, i, j);
        const where = `${state.text} (T = ${state.temperature}, ${state.decimals} decimals) ${table} ${i},${j}`;
        out.explanations.push({where, title: e.title, lines: e.lines,
                               claims: e.claims.filter((c) => !c.implied).map((c) => c.text),
                               shown: e.claims.every((c) => c.implied || e.lines[c.line].includes(c.text))});
      }
    }
  }
}
"""


def test_every_explanation_of_the_language_models_mode_adds_up_as_the_audit_reads_it(ran):
    """Every number of the mode explains itself with arithmetic that holds at the rounding it shows, as
    the site's numbers audit reads it (publish.audit.arithmetic), at 0 to 4 decimals and temperatures
    from 1e-23 to 3, greedy and seeded (every weight of the four heads on two of the sentences): 475
    explanations, 3,625 claims. A temperature under 10^-6 was written "1e-7" in its line, which is
    not arithmetic (the explanation threw); a line with a number in exponent notation is not a claim."""
    found = ran["explanations"]
    claims = [(e["where"], c) for e in found for c in e["claims"]]
    print(f"{len(found)} explanations, {len(claims)} claims")
    assert len(found) > 350 and len(claims) > 3000, (len(found), len(claims))
    for e in found:
        assert e["title"] and e["shown"], e["where"]
        assert not [line for line in e["lines"] if re.search(r"\b(NaN|undefined|Infinity)\b", line)], e["where"]
    for where, text in claims:
        assert claim_problems(text) == [], f"{where}: {text!r}: {claim_problems(text)}"


EXPLAINED = [
    {"text": t, "temperature": T, "decimals": d, "seed": seed, "greedy": seed is None, "generate": True,
     "heads": heads}
    for t, T, d, seed, heads in [
        ("she took the money to the bank", 1, 4, 1, False),
        ("near the street the animal was cold so it", 0.25, 2, 53, True),
        ("the cat", 3, 0, None, True),
        ("she took the wet boat back to the bank", 1.5, 1, 2**32 - 1, False),
        # temperatures JavaScript writes in exponent notation, and logits ÷ T beyond 15 digits
        ("the cat", 1e-7, 10, 3, False),
        ("the cat", 1e-23, 4, None, False),
    ]
]  # fmt: skip


@pytest.fixture(scope="module")
def ran(modules) -> dict:
    """One run of Node for the module: the links, the words and every explanation."""
    arg = {
        "links": list(LINKS),
        "zeros": zero_cases(),
        "divisions": DIVISIONS,
        "words": [TEXTS, probes(), list(V), corpus.CONTEXT],
        "explanations": EXPLAINED,
    }
    script = "const out = {};\n" + RUN_JS + WORDS_JS + EXPLANATIONS_JS + "console.log(JSON.stringify(out));\n"
    return node(modules, script, arg)
