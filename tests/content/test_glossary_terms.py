"""Layer 3: no term before its definition. The glossary's headings are the terms; a page that uses
one before it or an earlier page (in the navigation's reading order) defines it links its first use
to the entry (publish/audit/terms.py). Each rule is shown to fail on a planted mistake."""

from __future__ import annotations

import re

import pytest

from publish import DOCS
from publish.audit import terms, wording

NAV_PAGES = terms.nav_pages()
TERMS = {t.name: t for t in terms.terms()}


def _with(page: str, old: str, new: str) -> list[tuple[str, str]]:
    """The navigation's pages, with one change on one page."""
    out = []
    for rel, text in NAV_PAGES:
        if rel == page:
            assert text.count(old) == 1, (page, old)
            text = text.replace(old, new)
        out.append((rel, text))
    return out


def test_every_term_is_linked_where_it_is_used_before_it_is_defined():
    found = terms.term_problems(NAV_PAGES)
    assert not found, "glossary terms used before they are defined:\n" + "\n".join(map(str, found))


def test_the_terms_are_the_glossarys_headings():
    headings = re.findall(r"^### (.+)$", (DOCS / "glossary.md").read_text(encoding="utf-8"), re.M)
    assert set(TERMS) == set(headings) and len(headings) == len(set(headings))
    for name in ("Training", "Loss", "Cross-entropy", "Gradient", "Backpropagation", "Optimizer", "AdamW"):
        assert name in TERMS, name
    assert "Training step" in TERMS and "Head" in TERMS and "Seed" in TERMS
    assert TERMS["Key"].links_to("query-key-value") and TERMS["Training step"].anchor == "training-step"


def test_the_training_terms_are_entries_in_plain_words():
    """Each names what it is with the words of the other entries, and links those it leans on."""
    text = (DOCS / "glossary.md").read_text(encoding="utf-8")
    entry = {name: body.strip() for name, body in re.findall(r"^### (.+?)\n(.*?)(?=^### |\Z)", text, re.M | re.S)}
    leans = {
        "Training": ["loss", "backpropagation", "gradient", "optimizer"],
        "Loss": ["training", "cross-entropy"],
        "Cross-entropy": ["loss", "logit"],
        "Gradient": ["loss", "training"],
        "Backpropagation": ["training", "gradient", "loss"],
        "Optimizer": ["gradient", "training-step", "adamw"],
        "AdamW": ["optimizer", "training-step", "gradient"],
        "Training step": ["training", "loss", "gradient", "optimizer"],
    }
    for name, anchors in leans.items():
        for anchor in anchors:
            assert f"](#{anchor})" in entry[name], (name, anchor)


def test_a_planted_unlinked_first_use_is_caught_with_page_and_line():
    """The issue's cases: AdamW unlinked where it is first used (the page on how the weights are
    learned, which defines it before the positional-encoding page's "150 training steps of AdamW"),
    and heads on learned-weights before multi-head defines them."""
    found = terms.term_problems(_with("learning.md", "[**AdamW**](glossary.md#adamw)", "AdamW"))
    assert [(f.page, "AdamW" in f.message) for f in found] == [("learning.md", True)], found
    # (the page's heading "What an optimizer such as AdamW adds" comes first: headings are not checked)
    line = next(n for n, text, _ in wording.prose(dict(NAV_PAGES)["learning.md"]) if "AdamW**]" in text)
    assert found[0].line == line
    found = terms.term_problems(_with("learned-weights.md", "[heads](glossary.md#head)", "heads"))
    assert len(found) == 1 and '"Head"' in found[0].message and found[0].page == "learned-weights.md", found


def test_a_term_defined_on_an_earlier_page_needs_no_link_later():
    """Where-used defines "decoder" in bold: the pages after it use it freely; without that, the
    first later use must link."""
    assert not [f for f in terms.term_problems(NAV_PAGES) if "Decoder" in f.message]
    found = terms.term_problems(_with("where-used.md", "[**decoder**](glossary.md#decoder)", "decoder"))
    pages = [f.page for f in found if '"Decoder"' in f.message]
    assert pages and pages[0] == "where-used.md", found


def test_a_link_to_another_entry_is_caught():
    found = terms.term_problems(_with("learned-weights.md", "[heads](glossary.md#head)", "[heads](glossary.md#mask)"))
    assert any("glossary.md#mask" in f.message and "glossary.md#head" in f.message for f in found), found


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Multi-head attention and self-attention.", ["Attention", "Self-attention"]),  # not head, not attention twice
        ("The attention weights of a row.", ["Attention weight"]),  # the longer term only
        ("Two heads, one loss.", ["Head", "Loss"]),  # plurals
        ("The **softmax**: a function.", ["Softmax"]),
        ("A [softmax](glossary.md#softmax) here.", ["Softmax"]),
    ],
)
def test_what_counts_as_a_use(text, want):
    assert [u.term.name for u in terms.uses(f"# Page\n\n{text}\n", "index.md")] == want


def test_a_bold_use_defines_and_a_link_is_a_link():
    (bold,) = terms.uses("# Page\n\nThe **loss** of a model.\n", "index.md")
    assert bold.defines and not bold.linked
    (link,) = terms.uses("# Page\n\nThe [loss](glossary.md#loss) of\na model.\n", "index.md")
    assert link.linked and not link.defines
    (across,) = terms.uses("# Page\n\nThe [training\nloss](glossary.md#loss).\n", "index.md", [TERMS["Loss"]])
    assert across.linked and across.line == 4  # a link over two lines, the use on its second
    assert not terms.uses('# Loss\n\n!!! note "The loss"\n    ::: selfattn_ref.training\n', "index.md")
