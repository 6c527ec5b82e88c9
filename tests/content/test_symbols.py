"""Layer 3: one notation, complete. Every symbol of every page's math (the Markdown's $...$ and $$
blocks, with the generated tables it includes) has an entry on the Notation page, and each symbol
has one entry: one meaning (publish/audit/symbols.py). Each check is shown to fail on a planted symbol."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from publish import DOCS
from publish.audit import symbols

from pages import PAGES, expand, page_id

NOTATION = DOCS / "notation.md"
ENTRIES = symbols.notation_entries(NOTATION.read_text(encoding="utf-8"))
DEFINED = symbols.defined(ENTRIES)
OTHER_PAGES = [p for p in PAGES if p != NOTATION]


def _missing(text: str) -> list[str]:
    return [f"line {u.line}: {u.symbol}" for u in symbols.page_symbols(text) if u.symbol not in DEFINED]


@pytest.mark.parametrize("page", OTHER_PAGES, ids=page_id)
def test_every_symbol_a_page_uses_has_a_notation_entry(page):
    missing = _missing(expand(page.read_text(encoding="utf-8")))
    assert not missing, f"{page_id(page)} uses symbols that docs/notation.md does not list: " + ", ".join(missing)


def test_each_symbol_has_one_entry():
    twice = {s: lines for s, lines in DEFINED.items() if len(lines) > 1}
    assert not twice, f"symbols defined in more than one row of docs/notation.md (line numbers): {twice}"


def test_the_pages_use_every_entry_and_many_symbols():
    used = {u.symbol for p in OTHER_PAGES for u in symbols.page_symbols(expand(p.read_text(encoding="utf-8")))}
    assert not set(DEFINED) - used, sorted(set(DEFINED) - used)
    assert len(used) >= 100, len(used)
    for symbol in ("W_cls", "b_cls", "ȳ", "score_j", "PE_pos,p", "W^Q_i", "h_t", "α_j", "d_head"):
        assert symbol in used and symbol in DEFINED, symbol


def test_the_indices_have_their_own_rows():
    text = NOTATION.read_text(encoding="utf-8")
    section = text.split("## Indices", 1)[1].split("\n## ", 1)[0]
    rows = symbols.notation_entries(section)
    assert {s for e in rows for s in e.symbols} == {*symbols.INDICES, "pos", "r"}


def test_a_planted_symbol_is_caught_with_its_line():
    page = DOCS / "scaling.md"
    lines = expand(page.read_text(encoding="utf-8")).split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("## ")) + 1
    lines.insert(at, r"With a temperature $\tau$ and a new matrix $W_T$, $q_i k_i$ grows.")
    missing = _missing("\n".join(lines))
    assert set(missing) == {f"line {at + 1}: {s}" for s in ("τ", "W_T", "q_i", "k_i")}, missing


def test_a_greek_letter_not_in_the_notation_is_caught():
    assert symbols.symbols(r"\beta + \alpha_j") == ["β", "α_j", "j"]
    assert _missing(r"# Page" + "\n\n" + r"A rate $\tau$." + "\n") == ["line 3: τ"]


def test_an_exercises_script_data_is_not_read_as_math():
    """The JSON of data-exercise doubles a formula's backslashes: $\\gamma$ there is not g, a, m."""
    line = '<div class="exercise" data-exercise="{&quot;q&quot;: &quot;$\\\\gamma$ and $\\\\operatorname{LN}$&quot;}">'
    assert _missing(f"# Page\n\n{line}\n\nA rate $\\tau$.\n") == ["line 5: τ"]


def test_a_second_row_for_a_symbol_is_caught():
    text = NOTATION.read_text(encoding="utf-8") + "\n| $e$ | a score of the RNN page | one number |\n"
    twice = {s: v for s, v in symbols.defined(symbols.notation_entries(text)).items() if len(v) > 1}
    assert set(twice) == {"e"}, twice


@pytest.mark.parametrize(
    ("tex", "want"),
    [
        (r"d_\text{model} \times d_k", ["d_model", "d_k"]),
        (r"h_{t-1}\,W_{hh}", ["h_t", "t", "W_hh"]),
        (r"M_{ij} = -\infty", ["M_i,j", "i", "j", "∞"]),
        (r"PE_{(pos,\, 2p)} = \sin(pos / 10000^{2p/d})", ["PE_pos,p", "pos", "p", "sin", "pos", "p", "d"]),
        (r"q \cdot k = q_1 k_1 + \dots + q_{d_k} k_{d_k}", ["q", "k", "q_#", "k_#", "q_#", "k_#"]),
        (r"\text{head}_i", ["head_i", "i"]),
        (r"\operatorname{Concat}(\text{head}_1, \dots, \text{head}_h)\, W_O", ["Concat", "head_#", "head_h", "W_O"]),
        (r"\sum_{l\ \text{visible}} e^{s_l}", ["Σ", "l", "e", "s_l", "l"]),
        (r"\text{logits} = \bar{y}\, W_\text{cls} + b_\text{cls}", ["logits", "ȳ", "W_cls", "b_cls"]),
        (r"0 & \text{if query } i \text{ may see key } j \\", ["i", "j"]),
        (r"(P A P^\top)(PX)", ["P", "A", "P", "⊤", "P", "X"]),
        (r"W_i^Q", ["W^Q_i", "i"]),
        (r"h_1, \dots, h_n", ["h_#", "h_#"]),
        (r"e^{900}", ["e"]),
        (r"QK^\top / \sqrt{d_k}", ["Q", "K", "⊤", "√", "d_k"]),
    ],
)
def test_the_symbols_of_a_formula(tex, want):
    assert symbols.symbols(tex) == want


# Where a page gives a letter a second meaning, the Notation entry says so and names the page, and
# the page says so where it does: (symbol, page, what the page says).
REUSES = [
    ("i", "multi-head.md", "$i$ numbers the heads, from 1 to $h$; everywhere else it numbers the queries"),
    (
        "s",
        "rnn-comparison.md",
        "$s$ is the decoder's state, as the papers write it; on the other pages it is a row of scores",
    ),
    ("h_t", "rnn-comparison.md", "not the $h$ that counts the heads of multi-head attention"),
]


@pytest.mark.parametrize(("symbol", "page", "says"), REUSES, ids=[r[0] for r in REUSES])
def test_a_reused_letter_is_said_on_its_page_and_in_the_notation(symbol, page, says):
    text = " ".join((DOCS / page).read_text(encoding="utf-8").split())
    assert says in text, (page, says)
    entry = next(e for e in ENTRIES if symbol in e.symbols)
    assert f"]({page}" in entry.text and "says" in entry.text, entry.text


def test_every_second_meaning_in_the_notation_is_listed_here():
    declared = {e.symbols[0] for e in ENTRIES if "says so" in e.text}
    assert declared == {s for s, _, _ in REUSES}, declared


# --- the API reference: the shapes of its docstrings are written with the notation's sizes ---------
# The API page (docs/api.md) is mkdocstrings' rendering of the package's docstrings, so it is read
# built. A shape is a tuple of sizes, `(..., n, d_k)`; each name in it is a size of the Notation
# page's table of sizes (as code spells it: d_\text{model} is d_model) or a name of its table of the
# shapes in code. /api/ once wrote `m` for the number of keys, which the Notation page lists as the
# index of a key, and `d` for any width.

_NAME = r"[A-Za-z_]\w*"
_ITEM = rf"(?:\.\.\.|…|\d+|{_NAME}(?:\s*[-+*/]\s*(?:{_NAME}|\d+))*)"
_SHAPE = re.compile(rf"\(\s*{_ITEM}(?:\s*,\s*{_ITEM})*\s*,?\s*\)")
# Tuples of the API page's prose that are not shapes: values, pairs of results, the heads' list.
NOT_SHAPES = {
    "(0, std)", "(0, std, shape)", "(0, STD, shape)", "(0, hidden)", "(output, weights)", "(sentence, label)",
    "(start, end)", "(training, held-out)", "(head_1, ..., head_h)", "(Zl, Zp)",
}  # fmt: skip


def shape_names(text: str) -> dict[str, str]:
    """Each name a shape of ``text`` uses (tuples with a comma, not in NOT_SHAPES), with the first
    shape it is in."""
    names: dict[str, str] = {}
    for m in _SHAPE.finditer(text):
        shape = " ".join(m.group(0).split())
        if "," not in shape or shape in NOT_SHAPES:
            continue
        for name in re.findall(_NAME, shape):
            names.setdefault(name, shape)
    return names


def code_sizes(notation: str) -> set[str]:
    """The sizes a shape may name: the symbols of the Notation page's table of sizes, and the names
    of its table of shapes in code."""
    sizes = notation.split("\n## Sizes", 1)[1].split("\n## ", 1)[0]
    in_code = notation.split("\n## Shapes in code", 1)[1].split("\n## ", 1)[0]
    names = {s for e in symbols.notation_entries(sizes) for s in e.symbols}
    for row in re.findall(r"^\| (`[^|]+) \|", in_code, re.M):
        names |= set(re.findall(r"`([^`]+)`", row))
    return names


CODE_SIZES = code_sizes(NOTATION.read_text(encoding="utf-8"))

# A size a docstring's prose defines: "Shapes use n for the number of queries, n_k for the number of
# keys, ...". The names it gives must be those the shapes use, the Notation page's.
_DEFINED = re.compile(r"\b([A-Za-z]\w*)\s+for\s+(?:the\s+number\s+of|the\s+width\s+of|their\s+width)\b")


def defined_sizes(text: str) -> list[str]:
    """The names that the prose of ``text`` defines as sizes ("m for the number of keys"), in order."""
    return _DEFINED.findall(text)


def test_the_api_pages_shapes_use_the_notations_sizes(strict_build):
    page = strict_build.dir / "api" / "index.html"
    assert page.is_file(), f"no api/index.html in the build:\n{strict_build.proc.stdout}{strict_build.proc.stderr}"
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    for signature in soup.select(".doc-signature, .doc-heading"):  # a function's arguments, not shapes
        signature.decompose()
    text = " ".join(e.get_text(" ") for e in soup.select("article .doc-contents"))  # the docstrings
    names = shape_names(text)
    assert {"n", "n_k", "d_k", "d_model", "batch"} <= set(names), sorted(names)
    unknown = {name: shape for name, shape in names.items() if name not in CODE_SIZES}
    assert not unknown, (
        "the API page's shapes use sizes that docs/notation.md does not list under Sizes or Shapes in code "
        f"(name: the first shape that uses it): {unknown}"
    )
    undefined = [name for name in defined_sizes(text) if name not in CODE_SIZES]
    assert not undefined, (
        "the API page's prose defines sizes that docs/notation.md does not list under Sizes or Shapes in code, "
        f"and that its shapes do not use: {undefined}"
    )


def test_the_shape_check_catches_a_size_the_notation_does_not_list():
    names = shape_names("Q: (..., n, d), K: (..., m, d) -> (..., n, m); the (output, weights) of it")
    assert names == {"n": "(..., n, d)", "d": "(..., n, d)", "m": "(..., m, d)"}
    assert {"n", "d", "d_model", "d_k", "n_k", "d_h", "num_heads"} <= CODE_SIZES
    assert "m" not in CODE_SIZES and "i" not in CODE_SIZES  # indices, not sizes
    defined = "Shapes use n for the number of queries, m for the number of keys, d for their width and d_v for"
    assert defined_sizes(defined + " the width of the values.") == ["n", "m", "d", "d_v"]
