"""What the site's code assumes of Material for MkDocs' and KaTeX's files and markup, each checked
against the installed Material and the vendored KaTeX (issue 52, item 4): a new release that breaks
one fails the test named after it, instead of a cut that silently does nothing or a look that
silently changes. Where the build relies on one while it runs, it stops too, with an error naming
it (publish.mkdocs.page_weight.ThemeChanged; the tests of that are here as well).

Checked elsewhere: that Material styles no span of a kind publish/markdown/code_markup.py unwraps
(tests/browser/test_code_spans_look.py), that the cut stylesheets leave every state looking the same
(tests/browser/test_material_css_look.py), that overrides/sitemap.xml lists every page
(tests/content/test_site_build.py)."""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import material
import pytest
import tinycss2
from material.plugins.search.plugin import Parser
from mkdocs.theme import Theme

from publish import DOCS, ROOT
from publish.markdown.katex_math import KATEX_JS
from publish.mkdocs.page_weight import ThemeChanged, katex_css, katex_fonts, material_css
from publish.source import mkdocs_yml

THEME = Path(material.__file__).parent / "templates"
KATEX_CSS = DOCS / katex_css.CSS


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _materials(pattern: str) -> list[Path]:
    return sorted((THEME / material_css.STYLESHEETS).glob(pattern))


# --- Material's stylesheets, as material_css cuts them ------------------------------------------------


def test_materials_stylesheets_are_named_as_the_cut_finds_them():
    """material_css.PATTERNS: one main and one palette stylesheet, which the build copies."""
    assert [len(_materials(p)) for p in material_css.PATTERNS] == [1, 1], sorted(
        p.name for p in (THEME / material_css.STYLESHEETS).iterdir()
    )


def test_materials_palette_holds_the_switching_rule_once():
    """material_css._SWITCHING_RULE, which narrow_switching moves to the site's stylesheet."""
    (palette,) = _materials("palette.*.min.css")
    assert len(material_css._SWITCHING_RULE.findall(_text(palette))) == 1


def test_a_palette_without_the_switching_rule_stops_the_build(tmp_path):
    sheets = tmp_path / material_css.STYLESHEETS
    sheets.mkdir(parents=True)
    palette = sheets / "palette.x.min.css"
    palette.write_text("[data-md-color-switching] *{transition:none}", encoding="utf-8")
    (tmp_path / material_css.SWITCHING_CSS).write_text(".own{a:b}", encoding="utf-8")
    with pytest.raises(ThemeChanged, match=r"palette\.x\.min\.css holds its rule for a switching palette 0 times"):
        material_css.narrow_switching(tmp_path, palette)
    with pytest.raises(ThemeChanged, match=r"_SWITCHING_RULE"):
        material_css.narrow_switching(tmp_path, palette)


def test_stylesheets_named_otherwise_stop_the_build(tmp_path):
    (tmp_path / material_css.STYLESHEETS).mkdir(parents=True)
    (tmp_path / material_css.STYLESHEETS / "main.x.min.css").write_text(".a{b:c}", encoding="utf-8")
    with pytest.raises(ThemeChanged, match=r"not one each of \('main\.\*\.min\.css', 'palette\.\*\.min\.css'\)"):
        material_css.on_post_build({"site_dir": str(tmp_path)})


# --- the classes the site's own files name --------------------------------------------------------------

# Where the site names a class of Material's or KaTeX's: its stylesheets and scripts, its theme
# overrides, and the markup its tools write.
OWN = [
    *sorted((DOCS / "assets" / "stylesheets").glob("*.css")),
    *sorted((DOCS / "assets" / "javascripts").glob("*.js")),
    *sorted((ROOT / "overrides").rglob("*.html")),
    *sorted((ROOT / "publish").rglob("*.py")),
]
_NAMED = re.compile(r"(?<![\w-])(md-[a-z][\w-]*[a-z]|katex(?:-[a-z]+)*)(?![\w-])")
# Words of the same form that name no class.
NOT_CLASSES = {"katex-fonts": "the subset fonts' cache folder, .cache/katex-fonts (katex_fonts.py)"}


def _named(prefix: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in OWN:
        for name in _NAMED.findall(_text(path)):
            if name.startswith(prefix) and name not in NOT_CLASSES:
                found.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    return found


def test_every_material_class_the_site_names_is_materials():
    """extra.css, scrollable.js and the other scripts, overrides/ and the tools' markup name Material's
    classes (md-typeset__scrollwrap, md-button, ...): each is in Material's stylesheet, script or
    templates, or the site's stylesheet would style, and its scripts find, nothing."""
    material = "".join(_text(p) for p in THEME.rglob("*") if p.suffix in (".css", ".js", ".html") and p.is_file())
    named = _named("md-")
    assert len(named) > 20, sorted(named)
    gone = {name: files for name, files in named.items() if name not in material}
    assert not gone, f"classes the site names that Material no longer has: {gone}"


def test_every_katex_class_the_site_names_is_katexs():
    """extra.css and the cuts name KaTeX's classes (katex, katex-display, katex-html): each is in
    KaTeX's stylesheet or script."""
    katex = _text(KATEX_CSS) + _text(KATEX_JS)
    named = _named("katex")
    assert {"katex", "katex-display", "katex-html"} <= set(named), sorted(named)
    gone = {name: files for name, files in named.items() if f'"{name}"' not in katex and f".{name}" not in katex}
    assert not gone, f"classes the site names that KaTeX no longer has: {gone}"


def test_katex_writes_its_text_in_katex_html():
    """katex_fonts cuts the fonts to the characters of <span class="katex-html">: KaTeX's markup
    still puts a formula's text there, beside the MathML."""
    from publish.markdown.katex_math import render

    html = render(r"\alpha_i = \frac{x}{\sqrt{d_k}}")
    assert 'class="katex-html"' in html and "<math" in html
    assert {"α", "x", "d", "k"} <= katex_fonts.characters([html], [])


def test_math_without_katex_html_stops_the_build(tmp_path):
    (tmp_path / katex_fonts.FONTS).mkdir(parents=True)
    (tmp_path / katex_fonts.FONTS / "KaTeX_Main-Regular.woff2").write_bytes(
        (DOCS / katex_fonts.FONTS / "KaTeX_Main-Regular.woff2").read_bytes()
    )
    (tmp_path / "index.html").write_text('<span class="katex"><span class="katex-text">x</span></span>', "utf-8")
    with pytest.raises(ThemeChanged, match=r"no text in a <span class=\"katex-html\">"):
        katex_fonts.on_post_build({"site_dir": str(tmp_path), "config_file_path": str(tmp_path / "mkdocs.yml")})


# --- KaTeX's files, as the site vendors and the build cuts them ----------------------------------------


def test_katex_files_are_where_the_site_looks_for_them():
    """katex_css.CSS, which mkdocs.yml's extra_css lists; katex_math's KATEX_JS; every woff2 font
    the stylesheet's @font-face rules name is in katex_fonts.FONTS, and every font there is named."""
    assert katex_css.CSS.as_posix() in mkdocs_yml.config()["extra_css"]
    assert KATEX_CSS.is_file() and KATEX_JS.is_file()
    named = set(re.findall(r"url\((?:fonts/)?([^)]+\.woff2)\)", _text(KATEX_CSS)))
    vendored = {p.name for p in (DOCS / katex_fonts.FONTS).glob("*.woff2")}
    assert named == vendored and len(named) == 20, (sorted(named - vendored), sorted(vendored - named))


def test_katex_css_is_flat_rules_and_font_faces():
    """The cut keeps every @font-face and cuts rules (katex_css); KaTeX's stylesheet holds no
    @media or other block that the cut would have to go into."""
    rules = tinycss2.parse_stylesheet(_text(KATEX_CSS), skip_whitespace=True, skip_comments=True)
    at = {r.lower_at_keyword for r in rules if r.type == "at-rule"}
    assert at == {"font-face"}, at


# --- Material's search, as publish/markdown/search_exclude.py marks what it skips -----------------------


def _indexed(html: str) -> str:
    parser = Parser()
    parser.feed(html)
    parser.close()
    return " ".join(f"{s.title} {''.join(s.text)}" for s in parser.data)


def test_materials_search_skips_what_the_site_marks():
    """Material's search (its plugin's Parser) leaves out an element with data-search-exclude and its
    content, up to the element's closing tag, and keeps what follows: the mark that
    publish/markdown/search_exclude.py puts on an output's <pre> and a table of numbers."""
    page = markdown.Markdown(extensions=["tables", "pymdownx.superfences", "publish.markdown.search_exclude"]).convert(
        '# Page\n\nBefore.\n\n```text title="Output"\nsecret output 0.123\n```\n\n'
        "| token | a |\n|---|---:|\n| bank | 0.456 |\n\nAfter the table.\n"
    )
    assert page.count("data-search-exclude") == 2, page
    indexed = _indexed(page)
    assert "Before." in indexed and "After the table." in indexed
    assert "secret output" not in indexed and "0.456" not in indexed


# --- Material's sitemap, as overrides/sitemap.xml replaces it ------------------------------------------


def test_materials_sitemap_is_the_one_the_override_replaces():
    """overrides/sitemap.xml takes the place of the theme's sitemap.xml (a static template of the
    theme), which Material's instant navigation fetches."""
    theme = Theme(name="material", custom_dir=str(ROOT / "overrides"))
    assert "sitemap.xml" in theme.static_templates
    env = theme.get_env()
    assert Path(env.loader.get_source(env, "sitemap.xml")[1]) == ROOT / "overrides" / "sitemap.xml"
    assert any("sitemap.xml" in _text(p) for p in (THEME / "assets" / "javascripts").glob("bundle.*.min.js"))
