"""publish/mkdocs/page_weight/katex_css.py cuts the site's copy of katex.min.css to the selectors whose classes occur in
the site; every @font-face stays, the vendored file is whole. The look under the cut file is checked
in Chromium (tests/browser/test_katex_css_subset.py)."""

from __future__ import annotations

from pathlib import Path

from publish.mkdocs.page_weight.katex_css import CSS, subset, used_classes

REPO = Path(__file__).resolve().parents[2]
VENDORED = REPO / "docs" / CSS


def test_selectors_go_only_when_a_class_they_need_is_nowhere():
    css = (
        "@font-face{font-family:KaTeX_AMS;src:url(fonts/a.woff2)}"
        ".katex{font:normal 1.21em KaTeX_Main}.katex .mfrac .frac-line{border-bottom-style:solid}"
        ".katex .fbox,.katex .fcolorbox{border:.04em solid}.katex .cancel-pad{padding:0 .2em}"
        ".katex svg{display:block}.katex .x:not(.y){color:red}"
    )
    assert subset(css, {"katex", "mfrac", "frac-line", "fbox", "x"}) == (
        "@font-face{font-family:KaTeX_AMS;src:url(fonts/a.woff2)}"
        ".katex{font:normal 1.21em KaTeX_Main}.katex .mfrac .frac-line{border-bottom-style:solid}"
        ".katex .fbox{border:.04em solid}.katex svg{display:block}.katex .x:not(.y){color:red}"
    )


def test_the_classes_come_from_pages_and_scripts(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<span class="katex  mord">x</span>', encoding="utf-8")
    (tmp_path / "app.js").write_text('el.innerHTML = "<span class=\\"mfrac\\"></span>";', encoding="utf-8")
    (tmp_path / "notes.txt").write_text('class="ignored"', encoding="utf-8")
    assert used_classes(tmp_path) == {"katex", "mord", "mfrac"}


def test_the_built_site_keeps_what_its_math_uses(strict_build):
    assert strict_build.proc.returncode == 0, strict_build.proc.stderr[-2000:]
    built = (strict_build.dir / CSS).read_text(encoding="utf-8")
    whole = VENDORED.read_text(encoding="utf-8")
    assert built == subset(whole, used_classes(strict_build.dir))
    assert built.count("@font-face") == whole.count("@font-face") == 20
    assert ".katex .mfrac .frac-line{" in built and ".katex .msupsub{" in built  # fractions, subscripts
    assert ".katex .sqrt>.katex-root{" not in built  # an n-th root: on no page
    assert len(built) < 0.5 * len(whole), (len(built), len(whole))
