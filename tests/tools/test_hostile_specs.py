"""A worked example is data: a hostile or clumsy spec cannot run code, inject markup or lose a file.

- Markup: spec text (title, tokens, description) rendered with the site's Markdown extensions
  (mkdocs.yml) shows exactly as typed, in the page, the gallery, the tables and the built site.
- Code: generated scripts hold spec values only as literals; a title with a carriage return or a
  token with a NUL byte is refused before anything runs.
- Files: `make update` and `new-example` never delete or overwrite a file they did not write,
  refuse reserved names before writing, write all or nothing, and an interrupted run cannot pass
  the build's staleness check.
- Numbers: a spec whose page would print a number that is not finite, or too large to print in
  full, is refused with the file, the key and the line.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import text_strategies
from bs4 import BeautifulSoup
from hostile_specs import BASE, BUILD_TITLE, BUILD_TOKENS, spec_text, tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from publish import GENERATED, ROOT, audit
from publish.generate import example_pages as ep
from publish.generate import playground, producers, registry, scaffold
from publish.generate.playground_limits import limits_module
from publish.harness.repo_copy import repo_copy, run_in
from publish.source import includes, mkdocs_yml
from publish.source.pages import split_front_matter
from selfattn_ref import examples
from selfattn_ref.cli import EXIT_USAGE
from selfattn_ref.examples import SpecError, rules
from selfattn_ref.examples.rules import LIMITS, description_parts, title_problem, token_problem, tokens_problem

# What a spec can hold is checked by the tools (publish/, selfattn_ref.examples): no page or spec a
# contributor writes can fail these tests, so `make test-fast` leaves them to `make test`.

SPEC = examples.EXAMPLES_DIR / "zz_hostile.toml"  # never written: the text is checked as this file


# --- rendering a page as the site does, without a build ---------------------------------------------


def _markdown() -> markdown.Markdown:
    """Python-Markdown with mkdocs.yml's extensions, as the suite's builds read them (the numbers audit
    off: NUMBERS_AUDIT=false, tests/conftest.py), and MkDocs' own: toc, tables, fenced_code."""
    configs = mkdocs_yml.markdown_extensions(published=False)
    names = ["toc", "tables", "fenced_code", *configs]
    configs["pymdownx.snippets"]["base_path"] = [str(ROOT)]
    return markdown.Markdown(extensions=list(dict.fromkeys(names)), extension_configs=configs)


def generate(ex: examples.Example) -> dict[Path, str]:
    """Every file the registry generates for ``ex`` alone."""
    producers.load()  # every producer registered (run alone, this module imports only some)
    return registry.generate([ex], per_example_only=True)


def audit_problems(ex: examples.Example, files: dict[Path, str] | None = None) -> list[str]:
    """What the numbers audit finds on the page and the gallery row of ``ex`` alone (``files``:
    what :func:`generate` gives), read without sources (a new example's quantities are not
    registered): every decimal, percentage and equation of its text would be one, and the page's
    own prose has none."""
    files = files or generate(ex)
    found = []
    for path in (ep.page_path(ex.slug), ep.PAGES_DIR / "index.md"):
        text = ep.with_gallery(files[path], [ex])  # the gallery's table, as the build makes it
        body = text.split("---\n", 2)[2] if text.startswith("---\n") else text
        found += [f"{p.page}:{p.line}: {p.number}: {p.message}" for p in audit.audit_text(body, path.name)]
    return found


def render(ex: examples.Example, files: dict[Path, str] | None = None) -> tuple[str, str]:
    """(the page's HTML, the gallery's HTML) of ``ex`` alone, its includes taken from what the
    registry generates for it (``files``, as :func:`generate` gives them; a recording is a
    placeholder line)."""
    files = files or generate(ex)

    def expand(text: str) -> str:
        def expanded(line: str) -> str:
            if (inc := includes.include(line)) is None:
                return line
            path = ROOT / inc[1]
            body = files[path] if path in files else "(recorded output)\n"
            return textwrap.indent(body.rstrip("\n"), inc[0])

        return "\n".join(map(expanded, text.split("\n")))

    page = files[ep.page_path(ex.slug)]
    page = split_front_matter(page)[2]  # the front matter, which MkDocs reads apart
    md = _markdown()
    html = md.convert(expand(page))
    md.reset()
    return html, md.convert(ep.with_gallery(files[ep.PAGES_DIR / "index.md"], [ex]))


_BENIGN: set[str] = set()


def _benign_tags() -> set[str]:
    """The elements of a plain example's page (the_cat_sat's), plus those a description may hold
    (``wbr``: a line-break opportunity in long code, publish/markdown/path_breaks.py)."""
    if not _BENIGN:
        page, _ = render(BASE)
        _BENIGN.update(
            {el.name for el in BeautifulSoup(page, "html.parser").find_all(True)}, {"em", "strong", "code", "a", "wbr"}
        )
    return _BENIGN


def _text(el) -> str:
    return " ".join(el.get_text().split())


def shown_description(description: str) -> list[str]:
    """What each paragraph of a description shows: its text with the allowed markup gone."""
    return [" ".join("".join(p.text for p in parts).split()) for parts in description_parts(description)]


def assert_shown_as_typed(ex: examples.Example, page_html: str, gallery_html: str) -> None:
    soup = BeautifulSoup(page_html, "html.parser")
    repository = mkdocs_yml.repository()  # the one link off the site, which the page itself writes
    for el in soup.find_all(True):  # no element carries a script, or a link off the site
        for name, value in el.attrs.items():
            assert not name.lower().startswith("on"), (el.name, name)
            if name in ("href", "src") and value != repository:
                assert ":" not in value.split("#")[0], value
    assert not soup.find_all(["script", "img", "iframe", "object", "embed", "style", "form"])
    assert {el.name for el in soup.find_all(True)} <= _benign_tags()  # no element a plain example lacks
    h1 = soup.find("h1")
    for a in h1.find_all("a", class_="headerlink"):
        a.decompose()
    assert _text(h1) == " ".join(ex.title.split())
    # the description: the paragraphs between the title and the first admonition
    paragraphs = []
    for el in h1.find_next_siblings():
        if el.name != "p":
            break
        paragraphs.append(_text(el))
    assert paragraphs == shown_description(ex.description)
    allowed = {"em", "strong", "code", "a", "wbr"}
    for el in h1.find_next_siblings():
        if el.name != "p":
            break
        assert {c.name for c in el.find_all(True)} <= allowed
    # the tokens: the embeddings table's row labels and the focus sentences
    table = soup.find("table")
    assert [_text(td) for td in table.select("tbody td strong")] == list(ex.tokens)
    focus = [li for li in soup.find_all("li") if li.find("strong") and re.search(r"attend|attention", li.get_text())]
    assert [_text(li.find("strong")) for li in focus] == list(ex.tokens)
    # the gallery's row: a link with the title, the tokens as text
    row = BeautifulSoup(gallery_html, "html.parser").select("tbody tr")[0]
    cells = row.find_all("td")
    assert _text(cells[0]) == " ".join(ex.title.split()) and cells[0].find("a")["href"] == f"{ex.slug}.md"
    assert _text(cells[1]) == " ".join(ex.tokens)
    assert [c.name for c in cells[1].find_all(True)] == []


# --- notebooks: as Jupyter shows a cell, and as the site's notebook pages do -------------------------
# Jupyter renders a Markdown cell with marked (CommonMark, GitHub's flavour: ~~ and ~ strike through,
# bare addresses become links), then MathJax reads the text it shows (processEscapes: \$ a dollar,
# \\ a backslash; $, $$, \( and \[ open math). markdown-it-py's CommonMark with strikethrough
# stands in for marked; the autolinks are checked on the source (marked finds them there).
_MATHJAX = re.compile(r"\\\\|\\\$|\$|\\\(|\\\[|\\begin\{")
_AUTOLINK = re.compile(r"(?i)[a-z][a-z0-9+.-]*:/|www\.|@")
MADE = ["a", "del", "s", "img", "script", "iframe", "math", "sup", "sub", "b", "i", "strong", "input"]


def mathjax_shows(text: str) -> str:
    """The text MathJax (processEscapes) leaves of rendered ``text``; AssertionError on math in it."""

    def one(m: re.Match) -> str:
        assert m.group(0) in ("\\\\", "\\$"), f"MathJax would read math at {m.group(0)!r} in {text!r}"
        return m.group(0)[1]

    return _MATHJAX.sub(one, text)


def _notebook_markdown(source: str) -> tuple[BeautifulSoup, BeautifulSoup]:
    """(Jupyter's rendering of the Markdown ``source``, the site notebook page's: nbconvert's mistune
    as mkdocs-jupyter sets it up, then the site's clean-up and KaTeX pass)."""
    return tuple(BeautifulSoup(html, "html.parser") for html in _notebook_html(source))


@functools.lru_cache(maxsize=256)  # (most checks share their title, or their tokens, with others)
def _notebook_html(source: str) -> tuple[str, str]:
    from markdown_it import MarkdownIt

    from publish.mkdocs import notebook_pages

    jupyter = BeautifulSoup(MarkdownIt("commonmark").enable(["strikethrough", "table"]).render(source), "html.parser")
    for node in jupyter.find_all(string=True):
        if not node.find_parent("code"):
            node.replace_with(mathjax_shows(str(node)))
    site = notebook_pages.clean(f'<div class="jp-RenderedMarkdown">{markdown2html(source)}</div>')
    return str(jupyter), site


def assert_notebook_shows_as_typed(ex: examples.Example, files: dict[Path, str]) -> None:
    """The title in the example's notebook (its introduction), and the tokens in a table as a page's
    notebook includes it (publish/generate/notebooks.py), show as typed in Jupyter and on the site's notebook
    page: no link, strikethrough, formula or other element made of them."""
    from publish.generate import notebooks
    from publish.mkdocs import notebook_pages

    nb = json.loads(files[ep.notebook_path(ex.slug)])
    intro = "".join(nb["cells"][0]["source"])
    text_of_source = re.sub(r"`[^`]*`|\]\([^)]*\)", "", intro)
    assert not _AUTOLINK.search(text_of_source), f"an address Jupyter would link: {intro!r}"
    title = "Notebook: " + " ".join(ex.title.split())
    for view in _notebook_markdown(intro):
        h1 = view.find("h1")
        for a in h1.find_all("a", class_=["anchor-link", "headerlink"]):
            a.decompose()
        assert _text(h1) == title and not h1.find_all(True), h1
        assert _text(view.find("em")) == " ".join(ex.title.split()) and not view.find("em").find_all(True)
        assert not view.find_all(MADE) and not view.select(".katex, .arithmatex")
    # the notebook page's title and table of contents, as the page shows its heading
    shown = notebook_pages.shown_headings(markdown2html(intro))
    assert [" ".join(t.split()) for t in shown.values()] == [title]
    table = "\n".join(line for line in files[GENERATED / ex.slug / "embeddings.md"].splitlines()
                      if not line.startswith("<!--"))  # fmt: skip
    source = notebooks.nb_markdown(table)
    assert not _AUTOLINK.search(re.sub(r"`[^`]*`", "", source)), source
    for view in _notebook_markdown(source):
        assert [_text(td) for td in view.select("tbody td strong")] == list(ex.tokens)
        assert not view.select(".katex, .arithmatex")
        assert {el.name for el in view.select("tbody *")} <= {"tr", "td", "strong"}


def markdown2html(source: str) -> str:
    """A Markdown cell as nbconvert renders it for mkdocs-jupyter (whose import sets the heading ids)."""
    from mkdocs_jupyter import convert  # noqa: F401
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return markdown2html_mistune(source)


def test_the_notebooks_markdown_keeps_the_sites_markup_and_makes_its_text_text():
    """publish.escape.nb_markdown: what the site's Markdown shows as text (an escaped dollar or
    backslash, a tilde, a bare address) is text for Jupyter and the notebook pages too; its code,
    math, links, tags and other references are kept as they are."""
    from publish.escape import nb_markdown, nb_text

    line = (
        "**b** `a$b~c@d` $x^2$ [l](https://x.org/a:b@c) <span>~</span> &dollar; &bsol; &amp; \\$ ~s~ "
        "http://e.co www.e.co a@b.co"
    )
    assert nb_markdown(line) == (
        "**b** `a$b~c@d` $x^2$ [l](https://x.org/a:b@c) <span>\\~</span> &bsol;&dollar; &bsol;&bsol; &amp; "
        "&bsol;&dollar; \\~s\\~ http&colon;//e.co www&period;e.co a&commat;b.co"
    )
    assert nb_markdown("```python\nx = '$a~b' # http://e.co\n```") == "```python\nx = '$a~b' # http://e.co\n```"
    shown = "&bsol;&dollar;x&bsol;&dollar; &bsol;&bsol;( \\~ a&colon;b &commat; www&period;x"
    assert nb_text("$x$ \\( ~ a:b @ www.x") == shown


def test_the_notebook_pages_read_math_and_its_escapes_as_mathjax_does():
    """The site's KaTeX pass over a notebook page (publish/mkdocs/notebook_pages.py) reads what Jupyter's
    MathJax reads: \\$ is a dollar and \\\\ a backslash, never math; $...$ and $$...$$ are math."""
    from publish.mkdocs import notebook_pages

    assert notebook_pages.plain("\\$x\\$ costs \\$5, \\\\(y\\\\) and $-\\infty$") == "$x$ costs $5, \\(y\\) and −∞"
    body = notebook_pages.clean('<div class="jp-RenderedMarkdown"><p>\\$x\\$ and $y$ and $$z$$</p></div>')
    soup = BeautifulSoup(body, "html.parser")
    assert soup.find("p").get_text().startswith("$x$ and ") and len(soup.select(".katex")) == 2


def check_end_to_end(title: str, tokens: list[str], description: str) -> None:
    """Through new-example's template, the loader, the generators and Markdown: either the spec is
    refused with the file, key and line, or every context shows the text as typed."""
    text = spec_text(title, tokens, description)
    refused = title_problem(title) or tokens_problem(tokens)
    try:
        description_parts(description)
    except ValueError:
        refused = refused or "description"
    try:
        ex = examples.load_text(text, SPEC)
    except SpecError as exc:
        assert refused, f"refused a valid spec: {exc}"
        assert re.match(rf"{re.escape(str(SPEC))}, line \d+: ", str(exc)), str(exc)
        assert "\n" not in str(exc) and "\r" not in str(exc)
        return
    assert not refused, f"accepted {refused}"
    nfc = [rules.normalized(t) for t in tokens]
    assert (ex.title, list(ex.tokens)) == (rules.normalized(title), nfc)  # the TOML context: read back (in NFC)
    files = generate(ex)
    assert audit_problems(ex, files) == []  # spec text that passes the spec check passes the numbers audit
    page, gallery = render(ex, files)
    assert_shown_as_typed(ex, page, gallery)
    assert_notebook_shows_as_typed(ex, files)
    for library in ep.LIBRARIES:  # the Python context: the tokens are a literal, nothing else is spec text
        assert_script_holds_literals(ep.script(ex, library), ex)
    preset = json.loads(playground.dumps(playground.preset(ex)))  # the JSON context
    assert (preset["title"], preset["tokens"]) == (ex.title, nfc)


def assert_script_holds_literals(source: str, ex: examples.Example) -> None:
    tree = ast.parse(source)
    imports = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert imports <= {"numpy", "torch"}, imports
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    tokens = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "tokens")
    assert ast.literal_eval(tokens.value) == list(ex.tokens)
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert calls <= {"fmt", "show", "print", "max", "len", "zip", "float", "range"}, calls
    from dataclasses import replace

    library = "numpy" if "self-attention step by step, in NumPy.\n" in source else "torch"
    assert ep.script(replace(ex, title="T"), library) == source  # the title is not in a script at all


# --- markup: titles, tokens and descriptions, shown as typed -----------------------------------------

HOSTILE_TITLES = [
    'Hdr { onclick="window.__p=1" }',
    "Hdr {: .x #y onclick=alert(1) }",
    "*em* _u_ **b** `c` $x$ \\(y\\) #h C#",
    "[link](javascript:alert(1)) ![i](x.png)",
    "| a | b |",
    '!!! note "x"',
    '=== "tab"',
    '--8<-- ".git/config"',
    "1. list",
    "- item",
    "a\\*b\\_c",
    "quote ' and \" both",
    # what Jupyter and the notebook pages read besides (issue 51, severe 1)
    "Read http://example.com/phish then $x^2$ and ~~gone~~ now",
    "$$x$$ and \\(y\\) and \\$ and \\\\ and \\begin{x}",
    "www.example.com a@b.co ~s~ mailto:x",
    "{{weights[a, a]}} [a](b) `c` *x* _y_ x",
]
HOSTILE_TOKENS = [
    ["_x_", "$y$", "#h"],
    ["&lt;b&gt;", "&amp;", "&#60;"],
    ["{:x}", "{onclick=1}", "a}b"],
    ["!", "(x)", "~~s~~", "==m=="],
    ["--8<--", "-", "+", "1."],
    ["'\"", "é", "日本"],
    ["&dollar;", "$$x$$", "http://e.co", "a@b.co", "~s~", "{{c}}", "--"],
]
HOSTILE_DESCRIPTIONS = [
    "Plain prose with a < b and c > d, & entities &amp; &lt;b&gt; stay text.",
    "Math $x^2$ and \\(y\\), headings\n# not a heading\n\n- not a list\n+ nor this\n\n1. nor this",
    '!!! warning "no admonition"\n\n??? note\n\n=== "no tab"',
    "*emphasis*, **strong**, `code with $x$ and *stars*` and [a page](../masking.md#step-1).",
    "_underscores_ stay, | pipes | too |, and \\* backslashes \\",
    "    four spaces do not make code\n\n```\nnor a fence\n```",
    "A [reference][ref] is text.\n\n[ref]: ../masking.md",
]


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_a_hostile_title_shows_as_typed(title):
    check_end_to_end(title, ["a", "b"], "Plain.")


@pytest.mark.parametrize("tokens", HOSTILE_TOKENS, ids=lambda t: " ".join(t))
def test_hostile_tokens_show_as_typed(tokens):
    check_end_to_end("Tokens", tokens, "Plain.")


@pytest.mark.parametrize("description", HOSTILE_DESCRIPTIONS)
def test_a_hostile_description_shows_as_typed(description):
    check_end_to_end("Description", ["a", "b"], description)


# --- property: generated hostile text through new-example, update's generators and Markdown ---------

MARKUP = list("<>&\"'`*_{}[]()#!|$\\-+=:.~^/ ;") + ["\r", "\n", "\x00", "\t", "\u2028", "\u202e", "é"]
FRAGMENTS = ["<script>", "</title>", "&lt;", "&#60;", "--8<--", "{: onclick=x}", "javascript:", "](", "![",
             "$x$", "\\(", "```", "!!!", "===", "|", "[a](../masking.md)", "*x*", "`c`", "<!--"]  # fmt: skip
# With every Unicode class the rules refuse, combining marks and numbers the audit reads
# (tests/support/text_strategies.py).
hostile_text = st.lists(st.one_of(st.sampled_from(MARKUP), st.sampled_from(FRAGMENTS), st.text("abXY9", max_size=3),
                                  text_strategies.any_char, st.sampled_from(text_strategies.NUMBERISH)),
                        min_size=1, max_size=12).map("".join)  # fmt: skip


# Tokens: mostly valid (markup characters a token may hold), sometimes not.
TOKEN_CHARS = list("_$#{}&;!()~^=:+-.'\"/%@?,é日") + ["ab", "X9", "&lt;", "&#60;", "{:", "--8", "e\u0301"]
token_text = st.one_of(
    st.lists(st.sampled_from(TOKEN_CHARS), min_size=1, max_size=8).map("".join),
    text_strategies.valid_word,
    hostile_text.map(lambda s: s[:24]),
)
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(title=hostile_text)
def test_property_a_hostile_title_never_becomes_markup_or_code(title):
    check_end_to_end(title, ["a", "b"], "Plain.")


@PROPERTY
@given(tokens=st.lists(token_text, min_size=1, max_size=4))
def test_property_hostile_tokens_never_become_markup_or_code(tokens):
    check_end_to_end("Tokens", tokens, "Plain.")


@pytest.mark.parametrize("tokens", [["9."], ["1)", "x"], ["-", "+"], ["#", "=", ">"]])
def test_tokens_that_start_a_line_stay_text(tokens):
    """A token that starts a line of Markdown (a list item of the dot products) shows as typed: not
    an ordered list ("9.": hypothesis found it), a bullet, a heading or a quote."""
    check_end_to_end("Tokens", tokens, "Plain.")


@pytest.mark.parametrize("description", ["*x**x*", "**a***b*", "*a***b**", "`[a](../masking.md)`c`"])
def test_emphasis_side_by_side_stays_apart(description):
    """Two emphasised parts side by side show as two, not as one around asterisks (hypothesis found
    "*x**x*" shown as "x**x" when the page wrote each part back as asterisks)."""
    check_end_to_end("Description", ["a", "b"], description)


@PROPERTY
@given(description=st.lists(hostile_text, min_size=1, max_size=3).map("\n\n".join))
def test_property_a_hostile_description_never_becomes_markup(description):
    check_end_to_end("Description", ["a", "b"], description)


# --- code: generated scripts embed spec values only as literals -----------------------------------


def test_scripts_hold_spec_values_as_literals_even_past_the_checks():
    """Defence in depth: even an Example the loader would refuse becomes a script whose only
    spec text is the token literal (the title is not in it), which compiles and imports nothing else."""
    from dataclasses import replace

    ex = replace(BASE, title="Zz\rimport os; os.system('touch PWNED') #", tokens=('a"\n', "\\x", "'''\r\x00"))
    for library in ep.LIBRARIES:
        source = ep.script(ex, library)
        compile(source, "script.py", "exec")
        assert_script_holds_literals(source, ex)
        assert "os.system" not in source


# --- files: a copy of the repository, as a contributor's clone -----------------------------------------
# (repo_copy and run_in: test_worked_examples.py's, for every copy of the docs layer)


UNDECODABLE = {  # argv as Python holds bytes it could not decode (surrogateescape): b"\xff", latin-1 "café"
    "\udcff": "\\xff",
    "caf\udce9": "\\xe9",
    "a\udcc3": "\\xc3",  # the first byte of a UTF-8 sequence, alone
}


@pytest.mark.parametrize("arg", ["SLUG", "--title", "--from"])
@pytest.mark.parametrize("value", list(UNDECODABLE), ids=list(UNDECODABLE.values()))
def test_new_example_names_the_argument_that_holds_bytes_that_are_not_text(capsys, arg, value):
    """new-example --title $'\\xff' said "'utf-8' codec can't encode ... position 339" (issue 27,
    item 13): every argument of the command says which one holds the bytes, and nothing is written."""
    from publish import cli

    argv = {"SLUG": [value], "--title": ["zz_bytes", "--title", value], "--from": ["zz_bytes", "--from", value]}[arg]
    before = sorted(examples.EXAMPLES_DIR.iterdir())
    assert cli.main(["new-example", *argv, "--no-update"]) == EXIT_USAGE
    err = capsys.readouterr().err
    shown = value.replace(value[-1], UNDECODABLE[value])
    assert err == (
        f"error: argument {arg}: '{shown}' holds bytes that are not UTF-8 text ({UNDECODABLE[value]}): give it in "
        "UTF-8 (a terminal or locale in another encoding sends other bytes) (see python -m publish new-example "
        "--help)\n"
    ), err
    assert sorted(examples.EXAMPLES_DIR.iterdir()) == before


def test_utf8_bytes_a_c_locale_could_not_decode_are_read_as_utf8():
    from publish.cli import text_argument

    as_a_c_locale_decodes = "Le café, 日本".encode().decode("ascii", "surrogateescape")
    assert as_a_c_locale_decodes.startswith("Le caf\udcc3\udca9")
    assert text_argument(as_a_c_locale_decodes) == "Le café, 日本"
    assert text_argument("plain") == "plain"


def test_the_scaffold_refuses_a_title_no_file_can_hold():
    with pytest.raises(
        ValueError, match=r"^--title: the title holds U\+DCFF, a lone surrogate, half of a character and not text$"
    ):
        scaffold.prepare("zz_bytes", title="a\udcff")


def test_new_example_refuses_reserved_and_hand_written_names(tmp_path):
    copy = repo_copy(tmp_path)
    page = copy / "docs/examples/river.md"
    page.write_text("# River\n\nMy own page about rivers.\n", encoding="utf-8")
    before = tree(copy)
    cases = {
        "index": "the name 'index' is reserved (the gallery is docs/examples/index.md)",
        "masking": "the name 'masking' is reserved (docs/masking.md is a page of the site)",
        "generated": "the name 'generated' is reserved (docs/generated/ is a folder of the site)",
        "notebooks": "the name 'notebooks' is reserved (docs/notebooks/ is a folder of the site)",
        "multi_head": "the name 'multi_head' is reserved (docs/multi-head.md is a page of the site)",
        "playground": "the name 'playground' is reserved (docs/playground.md is a page of the site)",
        "river": "docs/examples/river.md exists and was not written by `make update`",
    }
    for slug, message in cases.items():
        proc = run_in(copy, sys.executable, "-m", "publish", "new-example", slug)
        assert proc.returncode == EXIT_USAGE, (slug, proc.stdout, proc.stderr)
        assert proc.stderr.startswith(f"error: {message}"), (slug, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stdout == ""
        assert tree(copy) == before, f"new-example {slug} changed files"


def test_a_reserved_slug_in_a_spec_stops_update_and_the_build(tmp_path):
    copy = repo_copy(tmp_path)
    spec = copy / "selfattn_ref/examples/masking.toml"
    spec.write_text(spec_text("Masking again", ["a", "b"]), encoding="utf-8")
    before = tree(copy)
    proc = run_in(copy, sys.executable, "-m", "publish", "update")
    assert proc.returncode == EXIT_USAGE
    assert proc.stderr == (
        f"error: bad worked-example spec: {spec}: the slug 'masking' is reserved "
        "(docs/masking.md is a page of the site); rename the file\n"
    )
    assert tree(copy) == before
    proc = run_in(copy, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert proc.returncode != 0 and "the slug 'masking' is reserved" in proc.stdout + proc.stderr


_ZZ = spec_text("Zz", ["a"])
HOSTILE_FILES = [
    (
        "carriage return in the title",
        _ZZ.replace('title = "Zz"', "title = \"Zz\\rimport os; open('PWNED', 'w') #\""),
        "line 6: 'title' must be one line",
    ),
    ("NUL in a token", _ZZ.replace('tokens = ["a"]', 'tokens = ["a\\u0000"]'), "line 12: token 'a\\x00' holds U+0000"),
    (
        "1e150",
        _ZZ.replace("[1, 1, 1, 1],", "[1e150, 1, 1, 1],"),
        "line 15: 'embeddings' holds 1e+150 (row 1, token 'a')",
    ),  # fmt: skip
]


def test_hostile_spec_files_stop_update_before_anything_runs(tmp_path):
    copy = repo_copy(tmp_path)
    for what, text, message in HOSTILE_FILES:
        spec = copy / "selfattn_ref/examples/zz.toml"
        spec.write_text(text, encoding="utf-8")
        before = tree(copy)
        proc = run_in(copy, sys.executable, "-m", "publish", "update")
        assert proc.returncode == EXIT_USAGE, (what, proc.stderr)
        assert proc.stderr.startswith(f"error: bad worked-example spec: {spec}, {message}"), (what, proc.stderr)
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
        assert tree(copy) == before and not list(copy.rglob("PWNED")), what
        spec.unlink()
    # Files no tool reads (issue 51, severe 3 and two minor items): a link to the environment, a
    # FIFO (update hung), a name in another case (left out without a word), a page that is a link.
    links = {
        "selfattn_ref/examples/zz.toml": (lambda p: p.symlink_to("/proc/self/environ"),
                                          "selfattn_ref/examples/zz.toml is a symbolic link (to '/proc/self/environ')"),
        "docs/zz-page.md": (lambda p: p.symlink_to("/proc/self/environ"), "docs/zz-page.md is a symbolic link"),
        "snippets/zz.py": (os.mkfifo, "snippets/zz.py is not a regular file: not read"),
        "selfattn_ref/examples/zz.TOML": (lambda p: p.write_text(_ZZ, encoding="utf-8"),
                                          "zz.TOML: the file's name ends in '.toml', in lower case: rename it zz.toml"),
    }  # fmt: skip
    for rel, (make, message) in links.items():
        make(copy / rel)
        before = tree(copy)
        proc = run_in(copy, sys.executable, "-m", "publish", "update", SECRET_FOR_THE_TEST="s3cr3t")
        assert proc.returncode == EXIT_USAGE and message in proc.stderr, (rel, proc.stderr)
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr and "s3cr3t" not in proc.stderr, rel
        assert tree(copy) == before, rel
        (copy / rel).unlink()


# That update leaves the files it did not write, and removes one it wrote that it no longer produces:
# tests/tools/test_safe_files.py's test_update_leaves_files_it_did_not_write_and_follows_no_link,
# in the same copy and run of update as its symbolic links.


@pytest.mark.slow
def test_an_interrupted_update_fails_the_staleness_check_and_a_failed_one_writes_nothing(tmp_path):
    """A change to a spec, then a run killed after the generated files but before the recordings:
    the build's check names the recordings. And a run whose writing fails puts every file back."""
    copy = repo_copy(tmp_path)
    spec = copy / "selfattn_ref/examples/the_cat_sat.toml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("[1, 1, 1, 1],  # sat", "[1, 1, 1, 2],  # sat"),
                    encoding="utf-8")  # fmt: skip
    driver = textwrap.dedent(
        """
        import json, sys
        from publish.generate import update
        from selfattn_ref import examples
        p = update.plan()
        assert any(path.suffix == ".out" for path in p.writes), "the change changes a recording"
        before = {path: (path.read_bytes() if path.is_file() else None) for path in p.writes}
        real, count = update._atomic_write, [0]
        def failing(path, text):
            count[0] += 1
            if count[0] == 5:
                raise OSError("disk full")
            real(path, text)
        update._atomic_write = failing
        try:
            update.apply(p, verbose=False)
        except OSError:
            pass
        restored = all((path.read_bytes() if path.is_file() else None) == data for path, data in before.items())
        update._atomic_write = real
        # killed after the generated files, before the recordings and their fingerprints
        kept = lambda k: k.suffix != ".out" and not k.name.endswith(".fingerprint.json")  # noqa: E731
        partial = update.Plan(writes={k: v for k, v in p.writes.items() if kept(k)})
        update.apply(partial, verbose=False)
        print(json.dumps({"restored": restored, "stale": update.stale_examples(examples.load_all())}))
        """
    )
    proc = run_in(copy, sys.executable, "-c", driver)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["restored"] is True
    assert result["stale"] == [
        "docs/notebooks/examples/the_cat_sat.ipynb",  # it shows the recording, which is the old one
        "snippets/examples/the_cat_sat_numpy.out (not recorded from the script as it is)",
        "snippets/examples/the_cat_sat_torch.out (not recorded from the script as it is)",
    ]
    build = run_in(copy, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site"))
    assert build.returncode != 0
    assert "the_cat_sat_numpy.out (not recorded from the script as it is)" in build.stdout + build.stderr


class TagScan(HTMLParser):
    """Every element's event-handler attributes (on...) and every script's text, from the tokenizer
    that BeautifulSoup's "html.parser" uses, without building the tree: a whole built site is
    scanned in a fifth of the time."""

    def __init__(self) -> None:
        super().__init__()
        self.handlers: list[tuple[str, str]] = []  # (element, attribute)
        self.scripts: list[str] = []
        self._in_script = False

    @classmethod
    def of(cls, text: str) -> TagScan:
        scan = cls()
        scan.feed(text)
        scan.close()
        return scan

    def handle_starttag(self, tag, attrs):
        self.handlers += [(tag, name) for name, _ in attrs if name.lower().startswith("on")]
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_startendtag(self, tag, attrs):
        self.handlers += [(tag, name) for name, _ in attrs if name.lower().startswith("on")]

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data


def test_the_site_scan_finds_handlers_and_scripts():
    """The scan of the built site below can fail: it finds a handler on any element, empty or not,
    and a script's text, as BeautifulSoup does."""
    page = (
        '<p>on the page onclick="x"</p><div class="a" ONMOUSEOVER="f()"><img src=x onerror=alert(1)/>'
        "<br onfocus><script>let a = '<b>'; window.__p = 1;</script><script src=a.js></script></div>"
    )
    scan = TagScan.of(page)
    assert scan.handlers == [("div", "onmouseover"), ("img", "onerror"), ("br", "onfocus")]
    assert scan.scripts == ["let a = '<b>'; window.__p = 1;", ""]
    soup = BeautifulSoup(page, "html.parser")
    assert [(el.name, a) for el in soup.find_all(True) for a in el.attrs if a.startswith("on")] == scan.handlers
    assert [el.get_text() for el in soup.find_all("script")] == scan.scripts


# --- one full strict build with a hostile spec ----------------------------------------------------------


@pytest.mark.slow
def test_a_hostile_spec_builds_a_site_that_shows_it_as_typed(copy_build):
    """`make update` and `mkdocs build --strict` of a copy holding the hostile spec (tests/support/copy_build.py's,
    which test_site_build's page of bad links shares: one build for both, and for the walk-through).
    The build fails on the warnings of those links, which all name that page, and on nothing else:
    without it, the build passes."""
    assert copy_build.update.returncode == 0, copy_build.update.stdout + copy_build.update.stderr
    assert not copy_build.other_warnings() and copy_build.strict_abort_only(), copy_build.output
    site = copy_build.site
    page = BeautifulSoup((site / "examples/zz_hostile/index.html").read_text(encoding="utf-8"), "html.parser")
    assert page.title.string == f"{BUILD_TITLE} - Self-attention, with real numbers"
    h1 = page.select_one("article h1")
    for a in h1.find_all("a"):
        a.decompose()
    assert _text(h1) == BUILD_TITLE
    nav = [a for a in page.select("nav a") if _text(a) == BUILD_TITLE]
    assert nav and all(not a.find(True) or a.find(True).name == "span" for a in nav)
    assert [_text(s) for s in page.select("article table")[0].select("tbody td strong")] == BUILD_TOKENS
    for html in site.rglob("*.html"):  # nowhere on the site: no handler, no script of the spec
        scan = TagScan.of(html.read_text(encoding="utf-8"))
        assert not scan.handlers, (html, scan.handlers)
        assert "window.__p" not in " ".join(scan.scripts), html
    gallery = BeautifulSoup((site / "examples/index.html").read_text(encoding="utf-8"), "html.parser")
    row = next(tr for tr in gallery.select("article tbody tr") if _text(tr.find("td")) == BUILD_TITLE)
    assert _text(row.find_all("td")[1]) == " ".join(BUILD_TOKENS)
    presets = json.loads((site / "generated/playground/presets.json").read_text(encoding="utf-8"))
    preset = next(p for p in presets["presets"] if p["slug"] == "zz_hostile")
    assert (preset["title"], preset["tokens"]) == (BUILD_TITLE, BUILD_TOKENS)
    # The notebook's page (issue 51, severe 1: its heading held a link, a formula and a strikethrough)
    notebook = BeautifulSoup((site / "notebooks/examples/zz_hostile/index.html").read_text(encoding="utf-8"),
                             "html.parser")  # fmt: skip
    assert notebook.title.string == f"Notebook: {BUILD_TITLE} - Self-attention, with real numbers"
    h1 = notebook.select_one("article h1")
    for a in h1.find_all("a", class_="headerlink"):
        a.decompose()
    assert _text(h1) == f"Notebook: {BUILD_TITLE}" and not h1.find_all(True), h1
    intro = h1.find_next_sibling("p")
    assert _text(intro.find("em")) == BUILD_TITLE and not intro.find("em").find_all(True)
    cells = notebook.select("article .jp-Cell")
    assert cells and not [el for cell in cells for el in cell.select(".katex, del, s, img, script")]
    assert not [a for cell in cells for a in cell.select("a") if ":" in a.get("href", "").split("#")[0]]
    # The search index (the example pages stay out of it; the gallery lists their titles and tokens),
    # whose text the search shows as HTML: the title and the tokens as typed
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    gallery_entry = next(d for d in index["docs"] if d["location"] == "examples/")
    shown = _text(BeautifulSoup(gallery_entry["text"], "html.parser"))
    assert f"{BUILD_TITLE} {' '.join(BUILD_TOKENS)}" in shown, shown


def test_the_limits_are_the_rules(tmp_path):
    """The playground's limits file is the rules' (and the registry writes it)."""
    text = (ROOT / "docs/generated/playground/limits.js").read_text(encoding="utf-8")
    limits = json.loads(re.search(r"SPEC_LIMITS = Object\.freeze\((\{.*?\})\);", text, re.S).group(1))
    assert limits == LIMITS
    assert text == registry.banner(limits_module, "js") + "\n" + limits_module()


NAMES = ["bank", "a b", "x" * 24, "x" * 25, "a\tb", "a\u00a0b", "a\u200bb", "a\u2028b", "\u202eab", "a\x00",
         "a\x7f", "a|b", "a`b", "<b>", "a*b", "[a]", "a\\b", "_x_", "$y$", "#h", "{:x}", "&lt;", "é", "日本", "🙂",
         "'\"", "", "66.5%", "e\u0301" * 24, "e\u0301" * 25, "\u212b"]  # fmt: skip


def in_state_js(tmp_path: Path, expression: str, data: list):
    """``expression`` (JavaScript, of ``m``, the playground's state.js, and ``data``) as Node computes
    it, the module beside the generated limits file it imports."""
    node = shutil.which("node")
    assert node, "Node.js is needed to run the playground's module outside a browser"
    for rel in ("assets/playground", "generated/playground"):  # state.js and the modules it imports
        shutil.copytree(ROOT / "docs" / rel, tmp_path / rel, ignore=shutil.ignore_patterns("*.bundle.js"))
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="ascii")  # lone surrogates as \\uXXXX
    script = (
        f"const m = await import({json.dumps((tmp_path / 'assets/playground/state.js').as_uri())});"
        "const fs = await import('node:fs');"
        "const data = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));"
        f"console.log(JSON.stringify({expression}));"
    )
    proc = subprocess.run([node, "--input-type=module", "-e", script, str(tmp_path / "data.json")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_playground_checks_a_name_as_the_spec_checks_a_token(tmp_path):
    """state.js's nameError and rules.token_problem accept and refuse the same names (run in Node,
    whose Unicode, 17.0 in Node 20, is not Python's 14.0: the playground's module beside its
    generated limits file, which lists the code points Python refuses)."""
    names = text_strategies.sample_names(NAMES)
    js = in_state_js(tmp_path, "{limits: m.LIMITS, ok: data.map((n) => m.nameError(n) === null)}", names)
    python = [token_problem(n) is None for n in names]
    differ = [(ascii(n), python[i], js["ok"][i]) for i, n in enumerate(names) if python[i] != js["ok"][i]]
    assert not differ, differ[:10]
    assert sum(python[: len(NAMES)]) == 14 and 50 < sum(python) < len(names) - 300  # not all-or-nothing
    assert (js["limits"]["words"], js["limits"]["dims"], js["limits"]["nameLength"], js["limits"]["decimals"]) == (
        LIMITS["words"], LIMITS["dims"], LIMITS["tokenLength"], LIMITS["decimals"])  # fmt: skip
    assert js["limits"]["magnitude"] == LIMITS["magnitude"]


NUMBERS = ["1", "-2", "+3", "\u22124", "0.5", "-0.5", "\u22120.5", ".5", "5.", "-.5", "\u2212.5", "1e3", "1E-3",
           "1e\u22123", "1e+3", "007", "0.50", "1000000", "1000001", "-1e6", "1e7", "1e999", "1_0", "1_000", "0x1F",
           "0o17", "0b1", "\u0663", "\uff13", "\u0661.\u0665", "\uff0d1", "\u20131", "--1", "+-1", "1.2.3", "1e",
           "e3", ".", "-", "nan", "inf", "-inf", "Infinity", "\u2212inf", "1.5e", "1ee3", "\u00bd", "1/2", "1%", "٫5",
           "1\u066b5", "\u00b2", "1\u00b2", "\U0001d7d9"]  # fmt: skip


def test_a_number_is_read_alike_by_the_spec_the_command_line_and_the_playground(tmp_path):
    """One grammar (rules.NUMBER_SYNTAX): a number typed on the command line, written in a spec file
    and typed in the playground is read as the same value by all three, or refused by all three
    (issue 51: the command line read "1_0", "\u0663" and "\uff13", which the others refuse, and
    refused the minus sign "\u2212" the site prints)."""
    from selfattn_ref.cli import CLIError, parse_vectors
    from selfattn_ref.examples import _toml

    rng = random.Random(51)  # and 300 seeded words of the characters numbers are made of, and of look-alikes
    pool = "0123456789.+-\u2212eE_x\u0663\uff13"
    words = NUMBERS + ["".join(rng.choice(pool) for _ in range(rng.randint(1, 6))) for _ in range(300)]
    js = in_state_js(tmp_path, "data.map((t) => m.parseNumber(t).value ?? null)", words)
    verdicts = {}
    for word, typed in zip(words, js, strict=True):
        try:
            cli = float(parse_vectors(word)[0, 0])
        except CLIError:
            cli = None
        try:
            spec = _toml.read(f"x = [{word}]", "zz.toml", SpecError, "")["x"]
            spec = spec[0] if len(spec) == 1 and isinstance(spec[0], (int, float)) else None
        except SpecError:
            spec = None
        if spec is not None and not (abs(spec) <= LIMITS["magnitude"]):  # the spec refuses it next (_matrix)
            spec = None
        verdicts[word] = (cli, None if spec is None else float(spec), typed)
    differ = {w: v for w, v in verdicts.items() if len({*v}) != 1}
    assert not differ, list(differ.items())[:8]
    assert verdicts["\u22120.5"] == (-0.5, -0.5, -0.5) and verdicts[".5"] == (0.5, 0.5, 0.5)
    assert verdicts["1_0"] == verdicts["\u0663"] == verdicts["\uff13"] == verdicts["0x1F"] == (None, None, None)
    assert sum(v[0] is not None for v in verdicts.values()) > 40  # not all-or-nothing


# --- numbers in spec text: what the spec check refuses, the audit would have refused on the page -----

AUDITED = [
    ("description", "It puts about 66.5% of its focus on itself.", "the_cat_sat.md:6: 66.5%: no claim says"),
    ("description", "It is *5*% of it.", "the_cat_sat.md:6: 5 %: no claim says"),
    ("title", "Version 2.5", "the_cat_sat.md:4: 2.5: no claim says"),
    ("title", "Why 2 × 3 = 7", "the_cat_sat.md:4: 2 × 3 = 7: '2 × 3' gives 6, which does not round to '7'"),
    ("tokens", ("5", "%", "x"), "index.md:9: 5 %: no claim says"),
    ("tokens", ("x_1.5", "a", "b"), "the_cat_sat.md:59: 1.5: no claim says"),
    ("tokens", ("1", "+", "2", "=", "4"), "index.md:9: 1 + 2 = 4: '1 + 2' gives 3, which does not round to '4'"),
]


@pytest.mark.parametrize(("key", "value", "problem"), AUDITED, ids=[str(a[1]) for a in AUDITED])
def test_numbers_the_spec_check_refuses_are_those_the_audit_would_report(monkeypatch, key, value, problem):
    """The spec check refuses each (test_spec_rules.py); past it, the page it would make fails the
    numbers audit there, on the generated page, where the contributor cannot fix it."""
    from dataclasses import replace

    import numpy as np

    assert rules.audited_number(" ".join(value) if key == "tokens" else value) is not None or key == "tokens"
    monkeypatch.setattr(rules, "_number_error", lambda *args, **kwargs: None)  # the check as it was
    ex = replace(BASE, **{key: value})
    if key == "tokens":
        ex = replace(ex, E=np.ones((len(value), 4)))
    assert any(p.startswith(problem) for p in audit_problems(ex)), audit_problems(ex)


def test_the_characters_the_pages_escape_are_those_the_rules_read_as_spaces():
    from publish import escape

    assert set(escape._MD) == set(rules.ESCAPED)
