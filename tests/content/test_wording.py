"""Layer 3: the words of the pages, beside the numbers: one notation, and links that land where
they say (publish/audit/wording.py). Each check is also shown to fail on a planted mistake."""

from __future__ import annotations

import re

import pytest

from publish import DOCS, ROOT
from publish.audit import wording
from publish.source import mkdocs_yml

from pages import PAGES, page_id

RULES = wording.load_retired()
PAGE_RULES = [r for r in RULES if r.where != "code"]  # read in a page's prose and math
CODE_RULES = [r for r in RULES if r.where == "code"]  # read in the code and output a page shows
NAV = mkdocs_yml.nav()


def _rel(page) -> str:
    """A page's path under docs/, as the nav and the links write it."""
    return page.relative_to(DOCS).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_uses_no_retired_variant(page):
    found = wording.notation_problems(page.read_text(encoding="utf-8"), page_id(page), RULES)
    assert not found, "retired notation (see CONTRIBUTING.md, Words and notation):\n" + "\n".join(map(str, found))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_links_land_where_they_say(page):
    found = wording.link_problems(page.read_text(encoding="utf-8"), _rel(page), NAV)
    assert not found, "links that do not land where they say:\n" + "\n".join(map(str, found))


READER_FILES = wording.reader_files()


def _root_rel(path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", READER_FILES, ids=_root_rel)
def test_the_other_texts_a_reader_meets_use_no_retired_variant(path):
    """The exercises, the examples' specs, the playground's scripts and the notebooks, for the rules
    retired everywhere (a notebook is made from its page: a stale one fails here too)."""
    found = wording.reader_text_problems(path.read_text(encoding="utf-8"), _root_rel(path), RULES)
    assert not found, "retired wording (see publish/audit/retired.toml):\n" + "\n".join(map(str, found))


def test_the_other_texts_include_each_kind():
    names = {_root_rel(p) for p in READER_FILES}
    for want in (
        "docs/exercises/learned-weights.toml",
        "selfattn_ref/examples/learned.toml",
        "docs/assets/playground/app.js",
        "docs/notebooks/learned-weights.ipynb",
        "docs/notebooks/examples/learned.ipynb",
        "docs/generated/learned/dot_products.md",
        "docs/examples/learned.md",
    ):
        assert want in names, want
    assert not any(n.endswith(".bundle.js") for n in names)
    assert not any(n.startswith("docs/generated/contributing/") for n in names)  # the table of the variants


LEARNED = next(r for r in RULES if "Learned weights" in r.variant)
STAND_INS = "seeded random stand-ins for the weights training would learn"


@pytest.mark.parametrize(
    "phrase",
    [
        "the same calculation with weight matrices that look like a trained model's (seeded random numbers)",
        "*random (seeded) matrices*: drawn from a seeded generator, like an untrained model's",
        "Nothing on this page is learned yet: the preference for sat comes from one random draw",
        'h("option", { value: "learned", text: "The learned weights (seeded)" }),',
        "- Random projections, standing in for learned ones: W_Q, W_K and W_V are drawn",
        "projection matrices drawn from a seeded generator, standing in for the weights a model would learn",
    ],
)
def test_the_old_names_of_the_learned_weights_are_caught(phrase):
    """The three things "learned weights" once named (home, page, gallery), and the playground's
    label: each is caught on a page and in the other texts."""
    assert wording.notation_problems(f"# A page\n\n{phrase}\n", "docs/index.md", [LEARNED])
    assert wording.reader_text_problems(phrase, "docs/assets/playground/app.js", [LEARNED])


def test_the_learned_weights_have_one_sentence_everywhere():
    """The name, and what the weights are, in every place that shows them."""
    for rel in ("index.md", "learned-weights.md", "examples/index.md", "examples/learned.md"):
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", (DOCS / rel).read_text(encoding="utf-8"))  # links as read
        assert STAND_INS in " ".join(text.split()), rel
    notebook = (DOCS / "notebooks" / "learned-weights.ipynb").read_text(encoding="utf-8")
    assert STAND_INS in notebook
    spec = " ".join((ROOT / "selfattn_ref/examples/learned.toml").read_text(encoding="utf-8").split())
    assert STAND_INS in spec
    assert 'text: "Learned weights: seeded random stand-ins"' in (DOCS / "assets/playground/app.js").read_text()
    exercises = (DOCS / "exercises" / "learned-weights.toml").read_text(encoding="utf-8")
    assert "seeded random stand-ins" in exercises and "learned weights" not in exercises
    assert dict((rel, t) for t, rel in NAV)["learned-weights.md"] == "Learned weights"


def test_the_retired_list_has_the_issues_variants():
    variants = " ".join(r.variant for r in RULES)
    for v in ("E for the embeddings", "√d", "focus matrix", "counting from 0", "column-vector", "Learned weights"):
        assert v in variants, (v, variants)


@pytest.mark.parametrize("rule", PAGE_RULES, ids=[r.variant for r in PAGE_RULES])
def test_a_planted_retired_variant_is_caught_with_page_and_line(rule):
    """Plant each rule's example line in a page that may not use it: the check names that page,
    that line and the variant."""
    page = next(p for p in PAGES if page_id(p) not in rule.allowed_on and p.name == "queries-keys-values.md")
    lines = page.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("## ")) + 2  # prose after a heading
    lines.insert(at, rule.example)
    found = wording.notation_problems("\n".join(lines), page_id(page), RULES)
    assert [(f.page, f.line) for f in found] == [(page_id(page), at + 1)], found
    assert rule.variant in found[0].message and rule.use in found[0].message, found[0]


def test_a_retired_variant_is_allowed_only_where_listed():
    rule = next(r for r in RULES if r.allowed_on)
    text = f"# A page\n\n{rule.example}\n"
    assert not wording.notation_problems(text, rule.allowed_on[0], [rule])
    assert wording.notation_problems(text, "docs/masking.md", [rule])


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_the_code_a_page_shows_uses_no_retired_variant(page):
    shown = wording.shown_code(page.read_text(encoding="utf-8"))
    found = [f for path in shown for f in wording.code_notation_problems((ROOT / path).read_text(), path, RULES)]
    assert not found, "retired notation in code (see CONTRIBUTING.md, Words and notation):\n" + "\n".join(
        map(str, found)
    )


def test_the_code_pages_show_is_read():
    shown = {path for page in PAGES for path in wording.shown_code(page.read_text(encoding="utf-8"))}
    assert "snippets/scaling/largest_weight_numpy.py" in shown and "snippets/scaling/variance_torch.out" in shown
    assert len(shown) >= 120, len(shown)  # every script and its recording, NumPy and PyTorch


@pytest.mark.parametrize("rule", CODE_RULES, ids=[r.variant for r in CODE_RULES])
def test_a_planted_retired_variant_in_code_is_caught_with_file_and_line(rule):
    path = "snippets/scaling/largest_weight_numpy.py"
    lines = (ROOT / path).read_text(encoding="utf-8").split("\n")
    lines.insert(5, rule.example)
    found = wording.code_notation_problems("\n".join(lines), path, RULES)
    assert [(f.page, f.line) for f in found] == [(path, 6)], found
    assert rule.variant in found[0].message and rule.use in found[0].message, found[0]
    # a page's prose is not code: the rule does not read it
    assert not wording.notation_problems(f"# A page\n\n{rule.example}\n", "docs/x.md", [rule])


def test_code_and_includes_are_not_read():
    text = '# A page\n\n```python\nE = X  # focus matrix\n```\n\n--8<-- "docs/generated/x/focus matrix.md"\n'
    assert not wording.notation_problems(text, "docs/x.md", RULES)


def test_a_planted_wrong_next_page_link_is_caught():
    """The RNN page once sent its reader to "the next page" for the scaling page, which is not the
    next page of the nav: plant that link again and the check names the page, the line and the
    page that is next."""
    page = DOCS / "rnn-comparison.md"
    lines = page.read_text(encoding="utf-8").split("\n")
    lines.append("Why the scores are divided is the subject of the [next page](scaling.md).")
    found = wording.link_problems("\n".join(lines), "rnn-comparison.md", NAV)
    pages = [rel for _, rel in NAV]
    want = pages[pages.index("rnn-comparison.md") + 1]
    assert len(found) == 1 and found[0].line == len(lines), found
    assert "[next page] links to scaling.md" in found[0].message and want in found[0].message, found[0]


def test_next_and_previous_page_links_that_are_right_pass():
    pages = [rel for _, rel in NAV]
    k = pages.index("learned-weights.md")
    text = f"# Page\n\nOn the [previous page]({pages[k - 1]}), and on the [next page]({pages[k + 1]}).\n"
    assert not wording.link_problems(text, "learned-weights.md", NAV)
    text = f"# Page\n\nOn the [previous page]({pages[k + 1]}).\n"
    assert wording.link_problems(text, "learned-weights.md", NAV)


def test_a_link_named_after_another_page_is_caught():
    text = "# Page\n\nThe page on [learned weights](masking.md) shows it; see [Masking](scaling.md).\n"
    found = wording.link_problems(text, "where-used.md", NAV)
    assert [f.line for f in found] == [3, 3], found
    assert "learned-weights.md" in found[0].message and "masking.md" in found[1].message, found


def test_a_see_link_must_name_its_page():
    text = "# Page\n\nThe details: see [the details](scaling.md).\n"
    found = wording.link_problems(text, "where-used.md", NAV)
    assert len(found) == 1 and "scaling.md" in found[0].message, found


def test_the_home_page_lists_the_pages_in_the_navs_order():
    home = DOCS / "index.md"
    text = home.read_text(encoding="utf-8")
    assert not wording.link_problems(text, "index.md", NAV)
    # Swap two items of its numbered list: the check objects.
    a = "[Masking](masking.md)"
    b = "[Why divide by √d_k](scaling.md)"
    assert a in text and b in text
    swapped = text.replace(a, "\0").replace(b, a).replace("\0", b)
    found = wording.link_problems(swapped, "index.md", NAV)
    assert found and all("numbered list" in f.message for f in found), found


# Pages with math that need not link the Notation page: the page itself, and the playground's app.
NO_NOTATION_LINK = {"notation.md", "playground.md"}


MATH_PAGES = [
    p
    for p in PAGES
    if any(math for _, _, math in wording.prose(p.read_text(encoding="utf-8"))) and _rel(p) not in NO_NOTATION_LINK
]


def test_pages_use_symbols():
    assert len(MATH_PAGES) >= 10, [page_id(p) for p in MATH_PAGES]


@pytest.mark.parametrize("page", MATH_PAGES, ids=page_id)
def test_a_page_with_symbols_links_the_notation_page(page):
    text = page.read_text(encoding="utf-8")
    first_math = next(lineno for lineno, _, math in wording.prose(text) if math)
    links = [lineno for lineno, line, _ in wording.prose(text) if "(notation.md" in line or "(../notation.md" in line]
    assert links, f"{page_id(page)} uses symbols (line {first_math}) but never links the Notation page"
    assert links[0] <= first_math + 40, (
        f"{page_id(page)}: the first link to the Notation page (line {links[0]}) is far after the first "
        f"symbol (line {first_math})"
    )


def test_the_nav_has_the_reference_pages():
    pages = dict((rel, title) for title, rel in NAV)
    for rel in ("notation.md", "cheat-sheet.md", "glossary.md", "further-reading.md", "how-this-site-is-checked.md"):
        assert rel in pages, rel
    assert "transformer-block.md" in pages


def test_a_bad_retired_rule_is_reported(tmp_path):
    bad = tmp_path / "retired.toml"
    bad.write_text('[[retired]]\nvariant = "x"\nuse = "y"\nin = "prose"\npattern = "x"\nexample = "x"\n')
    with pytest.raises(ValueError, match="'in' must be one of"):
        wording.load_retired(bad)
    bad.write_text('[[retired]]\nvariant = "x"\nuse = "y"\nin = "text"\npattern = "("\nexample = "x"\n')
    with pytest.raises(ValueError, match="not a regular expression"):
        wording.load_retired(bad)
    math_rule = '[[retired]]\nvariant = "x"\nuse = "y"\nin = "math"\npattern = "x"\nexample = "x"\n'
    bad.write_text(math_rule + "everywhere = true\n")
    with pytest.raises(ValueError, match="only for a rule in"):
        wording.load_retired(bad)


# --- the repository the pages tell readers to clone -------------------------------------------------
# mkdocs.yml sets no repo_url (Material would fetch the repository's stars from an outside API on
# every page view); its edit_uri names the repository. A page that tells the reader to clone or copy
# the repository links it, and the home page does.

_CLONE = re.compile(
    r"(?i)\bclone\b|\b(?:copy|clone) of (?:\[)?the repository\b|\bfrom (?:a clone of )?(?:\[)?the repository\b"
)
repository = mkdocs_yml.repository


def clone_without_link(text: str, repo: str) -> list[int]:
    """The lines of a page that speak of cloning or copying the repository, on a page that never links it."""
    said = [lineno for lineno, line, _ in wording.prose(text) if _CLONE.search(line)]
    return said if said and f"]({repo})" not in text else []


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_a_page_that_says_clone_links_the_repository(page):
    lines = clone_without_link(page.read_text(encoding="utf-8"), repository())
    assert not lines, f"{page_id(page)}, lines {lines}: says to clone or copy the repository, without a link to it"


def test_the_home_page_links_the_repository():
    assert f"]({repository()})" in (DOCS / "index.md").read_text(encoding="utf-8")


def test_a_clone_without_a_link_is_caught():
    repo = repository()
    assert repo == "https://github.com/selfattention-explained/site"
    assert clone_without_link("# Page\n\nClone the repository and run `make venv`.\n", repo) == [3]
    assert clone_without_link(f"# Page\n\nClone [the repository]({repo}) and run it.\n", repo) == []
