"""The site builds with `mkdocs build --strict`, and the strict build catches broken links.

The validation settings in mkdocs.yml turn a link to a missing page or anchor, a link MkDocs
cannot resolve and an absolute link into warnings, which --strict makes fatal. The second test
proves that they bite: a copy of the project with one extra page holding one bad link of each kind
(tests/support/copy_build.py builds it, for test_hostile_specs.py too).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from copy_build import BAD_LINKS, LINK_CHECK_PAGE

from publish.source.mkdocs_yml import nav

from pages import EDIT_URI, built_page, edit_link

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def test_strict_build_succeeds(strict_build):
    proc = strict_build.proc  # the session's build (conftest.py), which the notebook tests read too
    assert proc.returncode == 0, f"mkdocs build --strict failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}"
    pages = [built_page(source) for _, source in nav()]
    assert len(pages) >= 20 and "index.html" in pages and "real-numbers/index.html" in pages, pages
    missing = [page for page in pages if not (strict_build.dir / page).is_file()]
    assert not missing, f"the build has no {missing}, which the nav lists"


@pytest.mark.slow
def test_strict_build_fails_on_broken_links(copy_build):
    """A copy of the project with an extra page (left out of the nav) with four bad links: the build
    fails, naming each one. (The copy, tests/support/copy_build.py's, also holds test_hostile_specs'
    spec, whose pages give no warning: that test checks that every warning names this page.)"""
    output = copy_build.output
    assert copy_build.build.returncode != 0, f"a page with broken links passed mkdocs build --strict:\n{output}"
    warned = "\n".join(line for line in copy_build.warnings() if LINK_CHECK_PAGE in line)
    unnamed = [kind for kind, link in BAD_LINKS.items() if link.split("(")[1].rstrip(")") not in warned]
    assert not unnamed, f"no warning (only WARNING fails --strict) names {unnamed}; the build said:\n{output}"


def test_strict_build_prints_no_warning(strict_build):
    """Nothing the project could prevent: no WARNING line at all (the notebooks' kernels used to
    print one each about their plain-TCP transport; publish/harness/jupyter_config.py)."""
    output = strict_build.proc.stdout + strict_build.proc.stderr
    warnings = [line for line in output.splitlines() if "WARNING" in line or "Warning:" in line]
    assert not warnings, "the build printed:\n" + "\n".join(warnings)


@pytest.mark.slow
def test_math_is_rendered_when_the_site_is_built(strict_build):
    """Every formula of every page (notebooks and worked examples included) holds KaTeX's HTML
    (publish/markdown/katex_math.py), no TeX is left for a script, and no page loads KaTeX's JavaScript,
    which the built site does not even hold; the pages with math load katex.min.css; no TeX delimiter
    is left in a page's text (tex_left)."""
    site = strict_build.dir
    pages = sorted(site.rglob("*.html"))
    formulas = 0
    for path in pages:
        html = path.read_text(encoding="utf-8")
        rel = path.relative_to(site).as_posix()
        assert not re.search(r"katex(\.min)?\.js|auto-render", html), f"{rel} refers to KaTeX's JavaScript"
        # Each formula's wrapper (pymdownx.arithmatex's class) and what opens inside it; KaTeX's HTML
        # opens with its own span. (Regular expressions: parsing the pages took most of the time.)
        math = re.findall(r'<(?:span|div) class="[^"]*\barithmatex\b[^"]*"[^>]*>(?=(.{0,80}))', html, re.S)
        formulas += len(math)
        raw = [inner[:60] for inner in math if not re.match(r'<span class="katex(?:-display)?"', inner)]
        assert not raw, f"{rel}: math left unrendered: {raw}"
        if math:
            css = re.findall(
                r'<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"|<link\b[^>]*href="([^"]+)"[^>]*rel="stylesheet"', html
            )
            css = [a or b for a, b in css]
            assert any(h.endswith("assets/vendor/katex/katex.min.css") for h in css), f"{rel} has math but {css}"
        left = tex_left(html)
        assert not left, f"{rel}: TeX delimiters left in the text, math no one rendered: {left}"
    assert formulas > 300, f"only {formulas} formulas on the whole site: is arithmatex still configured?"
    assert not list(site.rglob("katex*.js")) and not list(site.rglob("auto-render*"))


# What a page's text is without its code, scripts, styles and KaTeX's copy of each formula's TeX.
_NOT_TEXT = re.compile(r"<(script|style|pre|code|textarea|annotation)\b[^>]*>.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_TEX_DELIMITER = re.compile(r"\\\(|\\\[|\$\$")


def tex_left(page: str) -> list[str]:
    """The places of a page's text (not its code) that still hold a TeX delimiter, \\( \\[ or $$:
    math that was not rendered when the site was built."""
    import html

    text = html.unescape(_TAG.sub(" ", _NOT_TEXT.sub(" ", page)))
    return [text[max(0, m.start() - 30) : m.end() + 30].strip() for m in _TEX_DELIMITER.finditer(text)]


def test_the_tex_left_check_finds_delimiters_in_text_only():
    assert tex_left("<p>see \\(x\\) and $$y$$</p><p>\\[z\\]</p>") and len(tex_left("<p>\\(x\\) $$y$$ \\[z</p>")) == 4
    assert tex_left('<p>a<code>\\(x\\)</code><pre>$$</pre><script>"\\["</script>'
                    '<annotation encoding="application/x-tex">\\(</annotation></p>') == []  # fmt: skip


def test_every_page_has_an_edit_link_to_its_source(strict_build):
    """The edit button of every page (Material's, from edit_uri) opens the page's Markdown source; a
    worked example's opens its spec (tests/content/test_worked_examples.py checks each), and the
    gallery, generated from all of them, has none (publish/mkdocs/worked_examples.py)."""
    problems = []
    for html in sorted(strict_build.dir.rglob("*.html")):
        rel = html.relative_to(strict_build.dir).as_posix()
        if rel == "404.html" or "assets" in html.relative_to(strict_build.dir).parts:
            continue
        href = edit_link(html)
        if rel == "examples/index.html":
            if href is not None:
                problems.append(f"{rel}: the generated gallery has an edit link {href!r}")
            continue
        if rel.startswith("examples/"):
            continue
        if href is None or not href.startswith(EDIT_URI):
            problems.append(f"{rel}: edit link {href!r} does not start with {EDIT_URI}")
            continue
        src = href[len(EDIT_URI) :]
        if not (DOCS / src).is_file() or built_page(src) != rel:
            problems.append(f"{rel}: edit link {href} names {src}, which is not this page's source")
    assert not problems, "\n".join(problems)


def test_sitemap_lists_every_page_by_address_only(strict_build):
    """overrides/sitemap.xml: one <url> with one <loc> per page (the addresses Material's instant
    navigation follows), and no <lastmod>, which without a git-dated plugin is the build's date."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    root = ET.fromstring((strict_build.dir / "sitemap.xml").read_bytes())
    urls = root.findall(f"{ns}url")
    assert all([child.tag for child in url] == [f"{ns}loc"] for url in urls), "a <url> holds more than its <loc>"
    built = {
        strict_build.base_url + p.relative_to(strict_build.dir).as_posix().removesuffix("index.html")
        for p in strict_build.dir.rglob("*.html")
        if "assets" not in p.parts and p.name != "404.html"
    }
    assert {url.find(f"{ns}loc").text for url in urls} == built


def test_right_aligned_columns_use_the_align_attribute(strict_build):
    """The tables extension's use_align_attribute: a right-aligned cell says align="right", which
    Material's table styles expect (td:not([align]) is left-aligned), and no cell carries an inline
    text-align style (the same look, in half the bytes)."""
    page = (strict_build.dir / "rnn-comparison" / "index.html").read_text(encoding="utf-8")
    assert 'style="text-align' not in page
    cells = BeautifulSoup(page, "html.parser").select("article td[align=right]")
    assert len(cells) > 20 and all(re.fullmatch(r"-?[\d,]+(\.\d+)?", c.get_text()) for c in cells)


def test_the_offline_shim_is_only_on_the_offline_build(strict_build):
    """overrides/main.html: the iframe-worker shim, which runs the search worker from file://, is not
    loaded over http(s) (tests/browser/test_offline.py searches from disk, where it must be)."""
    pages = [p for p in strict_build.dir.rglob("*.html") if "assets" not in p.parts]
    assert pages and not [p for p in pages if "iframe-worker" in p.read_text(encoding="utf-8")]
    assert (strict_build.dir / "assets/vendor/iframe-worker/shim.js").is_file()  # the offline build's copy


def test_no_training_record_is_shipped(strict_build):
    """A training run's record (its figures, under docs/generated/) is for the build, not the reader:
    mkdocs.yml's exclude_docs keeps each one out of the site (the language model's was shipped)."""
    records = sorted(p.relative_to(REPO / "docs") for p in (REPO / "docs/generated").rglob("*.json"))
    records = [p for p in records if '"key"' in (REPO / "docs" / p).read_text(encoding="utf-8")[:400]]
    assert len(records) >= 3, records  # word order, reversal, language model
    shipped = [str(p) for p in records if (strict_build.dir / p).exists()]
    assert not shipped, f"add these to exclude_docs in mkdocs.yml: {shipped}"
