"""publish/mkdocs/page_weight/katex_fonts.py cuts the site's copies of KaTeX's woff2 fonts to the
characters of the site's KaTeX HTML; the vendored fonts stay whole, and a font fontTools cannot
subset stops the build with its name and stays whole. The look under the subset fonts is checked in Chromium
(tests/browser/test_katex_fonts_subset.py)."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from publish.mkdocs.page_weight.katex_fonts import (
    ALWAYS,
    FONTS,
    cache_key,
    cached_subset,
    on_post_build,
    subset_woff2,
    used_characters,
    with_scripts,
)

REPO = Path(__file__).resolve().parents[2]
VENDORED = REPO / "docs" / FONTS


def cmap(data: bytes) -> dict[int, str]:
    return TTFont(BytesIO(data)).getBestCmap()


def test_the_characters_come_from_katex_html_in_pages_and_scripts(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<p>prose Q</p><span class="katex"><span class="katex-mathml"><math><mi>m</mi></math></span>'
        '<span class="katex-html" aria-hidden="true"><span class="mord">x<span>&#x221E;</span></span>\n'
        "<span>&nbsp;</span></span>after</span>",
        encoding="utf-8",
    )
    (tmp_path / "app.js").write_text(
        'el.innerHTML = "<span class=\\"katex-html\\"><span>\\u2211</span></span>z";', encoding="utf-8"
    )
    (tmp_path / "data.json").write_text('{"label": "<span class=\\"katex-html\\">\\"y</span>"}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text('<span class="katex-html">w</span>', encoding="utf-8")
    assert used_characters(tmp_path) == {"x", "∞", "∑", '"', "y"} | ALWAYS


def test_a_letter_brings_its_whole_script():
    assert with_scripts({"α", "+", "∞"}) == {"+", "∞", *map(chr, range(0x370, 0x400))}
    kept = with_scripts({"x", "1"})
    assert set("0123456789ABCXYZabcxyz") <= kept and not kept & {"α", "+", "∑"}


def test_a_subset_font_maps_what_is_asked_with_the_same_widths():
    whole = (VENDORED / "KaTeX_Main-Regular.woff2").read_bytes()
    cut = subset_woff2(whole, set("x+∞") | ALWAYS, "KaTeX_Main-Regular.woff2")
    assert len(cut) < 0.5 * len(whole), (len(cut), len(whole))
    before, after = TTFont(BytesIO(whole)), TTFont(BytesIO(cut))
    kept = set(after.getBestCmap())
    assert {ord(c) for c in "x+∞ \u00a0"} <= kept and ord("y") not in kept
    for code in kept:
        assert after["hmtx"][after.getBestCmap()[code]] == before["hmtx"][before.getBestCmap()[code]]
    for table in ("hhea", "OS/2"):
        for field in ("ascent", "descent", "lineGap", "sTypoAscender", "sTypoDescender", "usWinAscent", "usWinDescent"):
            assert getattr(after[table], field, None) == getattr(before[table], field, None), (table, field)
    assert after["head"].unitsPerEm == before["head"].unitsPerEm


def test_a_font_fonttools_cannot_read_stops_the_build_and_stays_whole(tmp_path):
    fonts = tmp_path / FONTS
    fonts.mkdir(parents=True)
    good = (VENDORED / "KaTeX_Main-Regular.woff2").read_bytes()
    (fonts / "KaTeX_Main-Regular.woff2").write_bytes(good)
    broken = good[: len(good) // 2]  # a truncated download
    (fonts / "KaTeX_Size1-Regular.woff2").write_bytes(broken)
    (tmp_path / "index.html").write_text('<span class="katex-html">x</span>', encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"^KaTeX font KaTeX_Size1-Regular\.woff2: fontTools could not subset it"):
        on_post_build({"site_dir": str(tmp_path), "config_file_path": str(tmp_path / "mkdocs.yml")})
    assert (fonts / "KaTeX_Size1-Regular.woff2").read_bytes() == broken


def test_a_subset_is_reused_for_the_same_font_and_characters_only(tmp_path):
    whole = (VENDORED / "KaTeX_Size1-Regular.woff2").read_bytes()
    cut = cached_subset(whole, {"(", ")"}, "KaTeX_Size1-Regular.woff2", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [f"{cache_key(whole, {'(', ')'})}.woff2"]
    # A planted entry under the key is what a second call returns: it did not subset again.
    (tmp_path / f"{cache_key(whole, {'(', ')'})}.woff2").write_bytes(b"planted")
    assert cached_subset(whole, {"(", ")"}, "KaTeX_Size1-Regular.woff2", tmp_path) == b"planted"
    # Another character set, another key: a fresh subset, never the planted bytes.
    again = cached_subset(whole, {"(", ")", "["}, "KaTeX_Size1-Regular.woff2", tmp_path)
    assert again != b"planted" and again.startswith(b"wOF2") and cut.startswith(b"wOF2")
    assert cache_key(whole, {"("}) != cache_key(whole + b"x", {"("})


def test_the_built_site_ships_every_font_cut_to_its_math(strict_build):
    assert strict_build.proc.returncode == 0, strict_build.proc.stderr[-2000:]
    chars = used_characters(strict_build.dir)
    assert set("(x)=∑∞−…") <= chars
    vendored = sorted(VENDORED.glob("*.woff2"))
    assert len(vendored) == 20
    total_whole = total_cut = 0
    cuts = []
    for path in vendored:
        whole, cut = path.read_bytes(), (strict_build.dir / FONTS / path.name).read_bytes()
        cuts.append((cut, whole))
        total_whole, total_cut = total_whole + len(whole), total_cut + len(cut)
        if cut == whole:  # left whole: its subset was no smaller (Caligraphic: Latin letters and digits)
            continue
        assert len(cut) < len(whole), path.name
        wanted = {ord(c) for c in chars} & set(cmap(whole))
        assert wanted <= set(cmap(cut)), (path.name, sorted(map(chr, wanted - set(cmap(cut)))))
        assert cmap(cut) == cmap(subset_woff2(whole, with_scripts(chars), path.name)), path.name
    main = cmap((strict_build.dir / FONTS / "KaTeX_Main-Regular.woff2").read_bytes())
    assert {ord(c) for c in "0123456789()=+,.[]∞−…→≈⋅" + "\u00a0 "} <= set(main)
    assert ord("∫") not in main and ord("Ω") in main  # no integral on the site; Greek is there (α)
    assert total_cut < 0.75 * total_whole, (total_cut, total_whole)
    assert sum(cut != whole for cut, whole in cuts) >= 15, "most fonts are cut"


def test_a_subset_is_the_same_bytes_every_time(monkeypatch):
    """Whenever it is made: the second cut is made at another time, as fontTools reads it
    (SOURCE_DATE_EPOCH, the reproducible-builds convention its 'head' table's timestamp follows)."""
    whole = (VENDORED / "KaTeX_Caligraphic-Bold.woff2").read_bytes()
    chars = with_scripts({"A"})
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first = subset_woff2(whole, chars, "KaTeX_Caligraphic-Bold.woff2")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # 2 January 1970
    assert subset_woff2(whole, chars, "KaTeX_Caligraphic-Bold.woff2") == first


# --- subset in a second process while MkDocs writes the pages ------------------------------------


def _early_build(tmp_path: Path, page_math: str, site_math: str, monkeypatch):
    """on_env given one page whose content holds ``page_math``'s KaTeX HTML, then on_post_build
    of a site whose page holds ``site_math``'s; the cache folder (one font: Size1-Regular)."""
    from types import SimpleNamespace

    from publish.mkdocs.page_weight import katex_fonts

    font = "KaTeX_Size1-Regular.woff2"
    docs, site, cache = tmp_path / "docs", tmp_path / "site", tmp_path / "cache"
    for folder in (docs, site):
        (folder / FONTS).mkdir(parents=True)
        (folder / FONTS / font).write_bytes((VENDORED / font).read_bytes())
    (site / "index.html").write_text(f'<p><span class="katex-html">{site_math}</span></p>', encoding="utf-8")
    monkeypatch.setenv("KATEX_FONTS_CACHE_DIR", str(cache))
    config = {"docs_dir": str(docs), "site_dir": str(site), "config_file_path": str(tmp_path / "mkdocs.yml")}
    page = SimpleNamespace(content=f'<span class="katex-html">{page_math}</span>')
    files = [SimpleNamespace(page=page, src_uri="index.md", abs_src_path=None, is_documentation_page=lambda: True)]
    katex_fonts.on_env(None, config, files)
    started = katex_fonts._Early.process is not None
    on_post_build(config)
    return started, sorted(p.name for p in cache.iterdir()), (site / FONTS / font).read_bytes()


def test_the_fonts_are_subset_in_a_second_process_from_the_pages_math(tmp_path, monkeypatch, caplog):
    from publish.mkdocs.page_weight import katex_fonts

    def here(*args):
        raise AssertionError("subset in the build's own process")

    monkeypatch.setattr(katex_fonts, "subset_woff2", here)  # (the second process has its own)
    whole = (VENDORED / "KaTeX_Size1-Regular.woff2").read_bytes()
    started, cached, cut = _early_build(tmp_path, "(x)", "(x)", monkeypatch)
    chars = with_scripts(set("(x)") | ALWAYS)
    assert started and cached == [f"{cache_key(whole, chars)}.woff2"]
    assert cut == (tmp_path / "cache" / cached[0]).read_bytes() and len(cut) < len(whole)
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


def test_fonts_subset_early_for_other_characters_are_subset_again_with_a_warning(tmp_path, monkeypatch, caplog):
    whole = (VENDORED / "KaTeX_Size1-Regular.woff2").read_bytes()
    started, cached, cut = _early_build(tmp_path, "(x)", "(x)[", monkeypatch)
    right = f"{cache_key(whole, with_scripts(set('(x)[') | ALWAYS))}.woff2"
    assert started and right in cached and len(cached) == 2
    assert cut == (tmp_path / "cache" / right).read_bytes()  # the site's characters, not the early guess
    (warning,) = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert "subset twice" in warning and "only in the site: '['" in warning


def test_fonts_are_subset_in_the_build_when_no_second_process_starts(tmp_path, monkeypatch, caplog):
    from publish.mkdocs.page_weight import katex_fonts

    def no_process(*args, **kwargs):
        raise OSError("no second process")

    monkeypatch.setattr(katex_fonts._SPAWN, "Process", no_process)
    whole = (VENDORED / "KaTeX_Size1-Regular.woff2").read_bytes()
    started, cached, _ = _early_build(tmp_path, "(x)", "(x)", monkeypatch)
    assert not started and cached == [f"{cache_key(whole, with_scripts(set('(x)') | ALWAYS))}.woff2"]
    assert not [r for r in caplog.records if r.levelname == "WARNING"]
