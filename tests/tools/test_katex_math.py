"""publish/markdown/katex_math.py: the math rendered with the vendored KaTeX when the site is built.

The renderer on its own (KaTeX's HTML, the caches, the errors and the plain-text form), then the
extension in Python-Markdown with the site's math settings, then in a strict MkDocs build of a
one-page project, where a formula KaTeX rejects fails the build naming the page and the formula.
That the HTML is what the browser's KaTeX makes is tests/browser/test_katex_look.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup

from publish.markdown import katex_math
from publish.markdown.katex_math import KatexError, in_page, plain_text, render

REPO = Path(__file__).resolve().parents[2]
# mkdocs.yml's extensions that shape math and headings (arithmatex as the site sets it).
EXTENSIONS = ["attr_list", "md_in_html", "toc", "pymdownx.arithmatex", "publish.markdown.katex_math"]
CONFIGS = {"pymdownx.arithmatex": {"generic": True}, "toc": {"permalink": True}}


def convert(text: str, extensions=EXTENSIONS) -> tuple[str, markdown.Markdown]:
    md = markdown.Markdown(extensions=extensions, extension_configs=CONFIGS)
    return md.convert(text), md


# --- the renderer ---------------------------------------------------------------------------------


def test_render_gives_katex_html_with_mathml():
    html = render(r"\frac{QK^\top}{\sqrt{d_k}}")
    soup = BeautifulSoup(html, "html.parser")
    top = soup.contents[0]
    assert top.name == "span" and top["class"] == ["katex"]
    assert soup.select_one(".katex-mathml math annotation").get_text() == r"\frac{QK^\top}{\sqrt{d_k}}"
    assert soup.select_one(".katex-html")["aria-hidden"] == "true"  # the eye's copy; MathML is read aloud
    assert soup.select_one(".mfrac") is not None and soup.select_one(".sqrt") is not None
    assert "katex-display" not in html


def test_display_math_is_katex_display():
    soup = BeautifulSoup(render(r"x^2", display=True), "html.parser")
    assert soup.contents[0]["class"] == ["katex-display"]
    assert soup.select_one("math")["display"] == "block"


def test_each_formula_is_rendered_once_and_the_engine_made_once():
    render.cache_clear()
    first = render(r"\mathrm{softmax}(x)_i")
    again = render(r"\mathrm{softmax}(x)_i")
    assert again is first
    assert render.cache_info().hits == 1 and render.cache_info().misses == 1
    assert render(r"\mathrm{softmax}(x)_i", True) != first  # display is part of the key
    assert katex_math._engine() is katex_math._engine()
    assert katex_math._engine.cache_info().currsize == 1


def test_an_engine_first_used_in_a_worker_thread_closes_cleanly_at_exit():
    """Zensical renders pages in worker threads: V8 crashed the process at exit (-11) when the
    engine made in a thread that had ended was closed from the main thread."""
    code = (
        "import threading\n"
        "from publish.markdown.katex_math import render\n"
        "t = threading.Thread(target=lambda: print(render('x^2')[:20]))\n"
        "t.start(); t.join()\n"
        "print(render('y')[:5])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == ['<span class="katex">', "<span"]


@pytest.mark.parametrize(
    ("tex", "says"),
    [
        (r"\frac{1", "Unexpected end of input"),
        (r"\notacommand x", r"Undefined control sequence: \\notacommand"),
        ("é", "LaTeX-incompatible input"),  # strict: "error", not a console warning
    ],
)
def test_a_formula_katex_rejects_raises_naming_it(tex, says):
    with pytest.raises(KatexError, match=re.escape(f"\\({tex}\\)") + ".*" + says):
        render(tex)


def test_render_wants_a_string():
    with pytest.raises(TypeError, match="tex must be a str, got bytes"):
        render(b"x")


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        (r"-\infty", "−∞"),
        (r"\sqrt{d_k}", "√(d_k)"),
        (r"QK^\top", "QK⊤"),
        (r"\frac{a+b}{2}", "(a+b)/2"),
        (r"e^{-\infty} = 0", "e^(−∞)=0"),
        (r"a < b", "a<b"),
    ],
)
def test_plain_text(tex, text):
    assert plain_text(tex) == text


# --- the extension in Python-Markdown -------------------------------------------------------------

PAGE = r"""# Scaling

## Why $-\infty$ before the softmax

The scores $QK^\top$ grow with $d_k$, and $a < b$ stays as typed.

$$
\frac{QK^\top}{\sqrt{d_k}} < 1 \quad \text{and} \quad a \& b
$$
"""


def test_extension_replaces_arithmatex_tex_with_katex_html():
    html, _ = convert(PAGE)
    soup = BeautifulSoup(html, "html.parser")
    math = soup.select(".arithmatex")
    assert [m.name for m in math] == ["span", "span", "span", "span", "div"]
    assert all(m.select_one(".katex") is not None for m in math)
    for mathml in soup.select(".katex-mathml"):
        mathml.decompose()  # the TeX source stays there, in <annotation>, for assistive tools
    assert "\\(" not in soup.get_text() and "\\[" not in soup.get_text()
    # exactly the renderer's HTML, inside arithmatex's wrapper: the TeX unescaped (< and & as typed)
    # and, for display math, with the newlines inside $$ ... $$ (as the browser's auto-render had it)
    # ("a < b", short, of two boxes, is kept whole: test_a_short_inline_formula_is_kept_whole)
    assert f'<span class="arithmatex nowrap">{in_page(r"a < b")}</span>' in html
    display = in_page(PAGE.split("$$")[1], True)
    assert f'<div class="arithmatex" style="{katex_math.height_style(display)}">{display}</div>' in html


@pytest.mark.parametrize(
    ("tex", "height"),
    [
        ("x = 1", 0.909 + 0.3473),  # no taller than the line of text: the line's height
        (r"\frac{QK^\top}{\sqrt{d_k}}", None),  # a fraction: its struts, taller and deeper than the line
    ],
)
def test_a_display_formula_carries_the_height_of_its_line(tex, height):
    """The placeholder of a formula the browser has not laid out yet (extra.css) is its line's height
    in KaTeX's em: the tallest box above the baseline and the deepest below it, from KaTeX's struts,
    and at least the line of KaTeX_Main at line-height 1.2 (test_offscreen.py holds every display
    formula of the site to its height in the browser)."""
    rendered = in_page(tex, True)
    struts = [
        (float(h), float(d or 0))
        for h, d in re.findall(r'katex-strut" style="height:([\d.]+)em(?:;vertical-align:-([\d.]+)em)?', rendered)
    ]
    assert struts, rendered
    expected = height if height is not None else max(h - d for h, d in struts) + max(d for _, d in struts)
    assert katex_math.display_height(rendered) == pytest.approx(expected, abs=1e-4)
    assert height is not None or expected > 2, expected
    assert katex_math.height_style(rendered) == f"--math-height:{katex_math.display_height(rendered):g}"
    with pytest.raises(ValueError, match="struts"):
        katex_math.display_height("<span>no KaTeX</span>")


def test_in_page_keeps_the_mathml_out_of_the_search_index():
    rendered, page = render(r"\sqrt{d_k}"), in_page(r"\sqrt{d_k}")
    # (and shorter: no xmlns, shorter inline styles; tests/tools/test_katex_markup.py)
    assert page.startswith(rendered.split("<math ")[0] + '<math data-search-exclude="">') and page != rendered
    soup = BeautifulSoup(page, "html.parser")
    assert soup.select("[data-search-exclude]") == soup.select("math")  # only the MathML, once
    # Material's own indexer: the formula once, as KaTeX's HTML shows it, without the TeX
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(f"<h1 id='t'>T</h1><p>divide by {page} now</p>")
    text = "".join(parser.data[0].text)
    assert text.startswith("<p>divide by ") and text.endswith(" now</p>"), text
    assert text.removeprefix("<p>divide by ").removesuffix(" now</p>").replace("\u200b", "") == "dk", text


def test_a_heading_with_math_keeps_its_id_and_gets_a_plain_label():
    html, md = convert(PAGE)
    without, _ = convert(PAGE, extensions=[e for e in EXTENSIONS if e != "publish.markdown.katex_math"])
    heading = BeautifulSoup(html, "html.parser").select_one("h2")
    assert heading["id"] == BeautifulSoup(without, "html.parser").select_one("h2")["id"]
    assert heading["id"] == "why-infty-before-the-softmax"
    assert "data-toc-label" not in heading.attrs  # toc takes it and removes it
    assert heading.select_one(".katex") is not None  # the heading itself shows KaTeX's rendering
    entry = md.toc_tokens[0]["children"][0]
    assert entry["name"] == "Why −∞ before the softmax"
    assert "Why −∞ before the softmax</a>" in md.toc


def test_an_authors_toc_label_is_kept():
    _, md = convert('## Scale by $\\sqrt{d_k}$ { data-toc-label="Scale by root d" }\n')
    assert md.toc_tokens[0]["name"] == "Scale by root d"


def test_a_formula_katex_rejects_in_a_page_names_it_and_its_paragraph():
    with pytest.raises(KatexError) as caught:
        convert("# Page\n\nThe weights $\\frac{1$ sum to one.\n")
    message = str(caught.value)
    assert "\\(\\frac{1\\)" in message and "Unexpected end of input" in message
    assert "in: The weights \\(\\frac{1\\) sum to one." in message


def test_a_formula_katex_rejects_in_a_heading_names_the_heading():
    with pytest.raises(KatexError, match=r"\\\(\\bad\\\).*\n  in the heading: Why \\\(\\bad\\\) here"):
        convert("## Why $\\bad$ here\n")


# --- in a strict MkDocs build ---------------------------------------------------------------------


def test_strict_build_fails_naming_the_page_and_the_formula(tmp_path: Path):
    """A one-page project with the site's math settings: KaTeX's error stops the build, and the
    output names the page (MkDocs) and the formula with its paragraph (the extension)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nFine: $x^2$.\n")
    (tmp_path / "docs" / "broken.md").write_text("# Broken\n\nThe mask adds $-\\infinity$ to a score.\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - pymdownx.arithmatex:\n      generic: true\n"
        "  - publish.markdown.katex_math\n"
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path])}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, f"a page with a formula KaTeX rejects was built:\n{output}"
    line = next((x for x in output.splitlines() if "Error reading page 'broken.md'" in x), None)
    assert line is not None, f"the build did not name the page:\n{output}"
    assert "KaTeX cannot render the formula \\(-\\infinity\\)" in line, line
    assert "Undefined control sequence: \\infinity" in line, line
    assert "in: The mask adds \\(-\\infinity\\) to a score." in output, output


def test_a_short_inline_formula_is_kept_whole():
    """On a phone, "$K = X W_K$" broke after its "=", as KaTeX lets a line break after a relation or an
    operator: a short formula of several boxes gets the class nowrap (extra.css), on its own element
    (no wrapper: the page has no more elements); one of one box never breaks, and a long one may."""
    long = r"q \cdot k = q_1 k_1 + q_2 k_2 + q_3 k_3"
    html, _ = convert(f"So $K = X W_K$ and $d = 512$ then $h_t$ and ${long}$ end.\n")
    soup = BeautifulSoup(html, "html.parser")
    classes = {m.select_one("annotation").get_text(): m["class"] for m in soup.select(".arithmatex")}
    assert classes == {"K = X W_K": ["arithmatex", "nowrap"], "d = 512": ["arithmatex", "nowrap"],
                       "h_t": ["arithmatex"], long: ["arithmatex"]}  # fmt: skip
    assert katex_math.held_whole("d = 512", katex_math.in_page("d = 512", False))
    assert not katex_math.held_whole("h_t", katex_math.in_page("h_t", False))
    assert not soup.select("span.nowrap > .arithmatex")  # no punctuation after any: no wrapper


def test_an_inline_formula_of_one_box_or_a_short_one_keeps_the_punctuation_after_it_on_its_line():
    """Of width $d$: the colon goes with the formula (a span that does not wrap, extra.css's
    .nowrap), so a phone never starts a line with it; so does the full stop after a short formula
    of several boxes ($\\sqrt{64} = 8$). A long formula, which may break between its boxes, and a
    formula followed by a space or by a letter are left as they are."""
    long = r"q \cdot k = q_1 k_1 + q_2 k_2 + q_3 k_3"
    html, _ = convert(f"Width $d$: then $h_t$, and $\\sqrt{{64}} = 8$. Then ${long}$. And $d$ and $d$s.\n")
    soup = BeautifulSoup(html, "html.parser")
    kept = [(w.select_one(".arithmatex .katex-mathml annotation").get_text(), w.get_text()[-1])
            for w in soup.select("span.nowrap")]  # fmt: skip
    assert kept == [("d", ":"), ("h_t", ","), ("\\sqrt{64} = 8", ".")], kept
    assert len(katex_math.plain_text(long)) > katex_math.SHORT
    assert all(len(w.select(".arithmatex")) == 1 and w.parent.name == "p" for w in soup.select("span.nowrap"))
    text = soup.p.get_text()  # the punctuation moved, not lost or doubled
    assert text.startswith("Width ") and text.endswith("s.") and text.count(":") == text.count(",") == 1
