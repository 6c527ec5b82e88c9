"""publish/mkdocs/page_weight/material_css.py cuts the site's copies of Material's stylesheets to the rules the site can
use: a class counts when a page's class attribute or a script's token names it. The look under the
cut files is checked in Chromium (tests/browser/test_material_css_look.py)."""

from __future__ import annotations

from pathlib import Path

import material

from publish.mkdocs.page_weight.material_css import (
    _SWITCHING_RULE,
    STYLESHEETS,
    SWITCHING_CSS,
    Used,
    narrow_switching,
    stylesheets,
    subset,
    switching_rule,
    transition_subjects,
    used,
)

THEME = Path(material.__file__).parent / "templates"


def test_a_rule_goes_when_a_class_it_needs_is_nowhere():
    css = ".md-typeset .bug>.admonition-title{color:red}.md-typeset .note>.admonition-title{color:blue}"
    assert subset(css, Used({"md-typeset", "note", "admonition-title"})) == (
        ".md-typeset .note>.admonition-title{color:blue}"
    )


def test_selectors_of_a_list_go_one_by_one():
    css = ".md-tag,.md-typeset .note,h1{margin:0}.planted-unused,.also-unused{color:red}"
    assert subset(css, Used({"md-typeset", "note"})) == ".md-typeset .note,h1{margin:0}"


def test_a_class_only_materials_script_names_stays(tmp_path):
    (tmp_path / "index.html").write_text('<div class="md-typeset"><p>x</p></div>', encoding="utf-8")
    js = tmp_path / "assets" / "javascripts"
    js.mkdir(parents=True)
    (js / "bundle.js").write_text('h("div",{class:"md-tooltip2__inner"});t=`md-tag--${k}`', encoding="utf-8")
    (js / "lunr").mkdir()
    (js / "lunr" / "lunr.de.min.js").write_text('var failure="abstract"', encoding="utf-8")
    use = used(tmp_path)
    css = (
        ".md-tooltip2__inner{color:red}.md-tag--blue{color:blue}.md-planted{color:green}"
        ".md-typeset .failure{color:pink}.md-typeset p{margin:0}"
    )
    # md-tag--blue: the template string begins it; lunr's stemmers write no markup.
    assert subset(css, use) == ".md-tooltip2__inner{color:red}.md-tag--blue{color:blue}.md-typeset p{margin:0}"


def test_nested_blocks_are_cut_inside_and_go_when_empty():
    css = (
        "@media screen and (min-width:76.25em){.md-nav{display:block}.md-blog{color:red}}"
        "@media print{.md-blog{display:none}}"
        "@supports selector(::-webkit-scrollbar){.md-nav::-webkit-scrollbar{width:0}}"
        "@media screen{@supports (x:y){.md-blog{a:b}.md-nav{c:d}}}"
    )
    assert subset(css, Used({"md-nav"})) == (
        "@media screen and (min-width:76.25em){.md-nav{display:block}}"
        "@supports selector(::-webkit-scrollbar){.md-nav::-webkit-scrollbar{width:0}}"
        "@media screen{@supports (x:y){.md-nav{c:d}}}"
    )


def test_what_names_no_class_stays():
    css = (
        '@charset "UTF-8";:root{--md-x:1px}@font-face{font-family:X;src:url(x.woff2)}*,:after{box-sizing:inherit}'
        "[data-md-color-scheme=slate]{color-scheme:dark}html{font-size:125%}[hidden]{display:none}@page{margin:25mm}"
    )
    assert subset(css, Used(attributes={("data-md-color-scheme", "slate")})) == css


def test_not_is_and_vendor_prefixes():
    use = Used({"a", "b"})
    assert subset(".a:not(.gone){x:y}", use) == ".a:not(.gone){x:y}"  # :not() needs nothing present
    assert subset(":is(.gone,.a) p{x:y}", use) == ":is(.gone,.a) p{x:y}"  # one argument is enough
    assert subset(":is(.gone,.none) p{x:y}", use) == ""
    # A list with a prefixed pseudo-element stays whole or goes whole (a browser drops a whole list
    # that holds one selector it does not know; a cut list could start to apply).
    assert subset(".gone::-moz-range-thumb,.a::-webkit-slider-thumb{x:y}", use) == (
        ".gone::-moz-range-thumb,.a::-webkit-slider-thumb{x:y}"
    )
    assert subset(".gone::-moz-range-thumb,.none::-webkit-slider-thumb{x:y}", use) == ""


def test_keyframes_go_when_nothing_names_them():
    css = (
        "@keyframes pulse{0%{opacity:0}}@keyframes facts{0%{height:0}}@keyframes hoverfix{0%{x:y}}"
        ".md-a{animation:pulse 1s}.md-gone{animation:facts 1s}"
    )
    assert subset(css, Used({"md-a"}, tokens={"hoverfix"})) == (
        "@keyframes pulse{0%{opacity:0}}@keyframes hoverfix{0%{x:y}}.md-a{animation:pulse 1s}"
    )


def test_data_attribute_values_and_tab_counts():
    use = Used({"md-typeset", "tabbed-set", "tabbed-labels"}, attributes={("data-md-color-primary", "indigo")}, tabs=3)
    css = (
        "[data-md-color-primary=indigo]{a:b}[data-md-color-primary=pink]{c:d}[dir=rtl] .md-typeset{e:f}"
        ".md-typeset .tabbed-set>input:nth-child(3):checked~.tabbed-labels>:nth-child(3),"
        ".md-typeset .tabbed-set>input:nth-child(4):checked~.tabbed-labels>:nth-child(4){g:h}"
        ".md-typeset li:nth-child(9){i:j}"
    )
    assert subset(css, use) == (
        "[data-md-color-primary=indigo]{a:b}[dir=rtl] .md-typeset{e:f}"  # dir is no data-* attribute
        ".md-typeset .tabbed-set>input:nth-child(3):checked~.tabbed-labels>:nth-child(3){g:h}"
        ".md-typeset li:nth-child(9){i:j}"
    )
    assert ":nth-child(4)" in subset(css, Used(use.classes, attributes=use.attributes, tabs=None))


def test_a_set_of_tabs_that_does_not_say_how_many_turns_the_count_off(tmp_path):
    (tmp_path / "a.html").write_text('<div class="tabbed-set tabbed-alternate" data-tabs="1:3">', encoding="utf-8")
    assert used(tmp_path).tabs == 3
    (tmp_path / "b.html").write_text('<div class="tabbed-set">', encoding="utf-8")
    assert used(tmp_path).tabs is None


def test_a_file_read_again_is_read_as_it_is_now(tmp_path):
    """used() keeps what each file gave, by its content (`mkdocs serve` writes the site again after
    each edit): a file rewritten gives what it holds now, one that went gives nothing, and what the
    files of an earlier build held is not kept."""
    from publish.mkdocs.page_weight import site_files

    page = tmp_path / "index.html"
    page.write_text('<div class="a" data-md-x="1"><script>var tokenA</script></div>', encoding="utf-8")
    (tmp_path / "b.js").write_text("var tokenB", encoding="utf-8")
    first = used(tmp_path)
    assert "a" in first.classes and {"tokenA", "tokenB"} <= first.tokens and ("data-md-x", "1") in first.attributes
    page.write_text('<div class="tabbed-set c" data-tabs="1:2"><script>var tokenC</script></div>', encoding="utf-8")
    (tmp_path / "b.js").unlink()
    now = used(tmp_path)
    assert ("a" not in now.classes, "c" in now.classes, now.tabs) == (True, True, 2)
    assert "tokenC" in now.tokens and not {"tokenA", "tokenB"} & now.tokens and now.attributes == {("data-tabs", "1:2")}
    assert len(site_files._reads) == 1  # the page as it is now


def test_the_built_site_keeps_what_it_uses(strict_build):
    assert strict_build.proc.returncode == 0, strict_build.proc.stderr[-2000:]
    built = {p.name: p.read_text(encoding="utf-8") for p in stylesheets(strict_build.dir)}
    assert sorted(n.split(".")[0] for n in built) == ["main", "palette"]
    use = used(strict_build.dir)
    for name, text in built.items():
        whole = (THEME / STYLESHEETS / name).read_text(encoding="utf-8")
        cut = subset(whole, use)
        if name.startswith("palette."):  # its rule for a switching palette moved to the site's stylesheet
            assert len(_SWITCHING_RULE.findall(cut)) == 1
            cut = _SWITCHING_RULE.sub("", cut)
        assert text == cut
    own = (strict_build.dir / SWITCHING_CSS).read_text(encoding="utf-8")
    assert "[data-md-color-switching] .md-nav__link," in own and "[data-md-color-switching] *" not in own
    main = next(t for n, t in built.items() if n.startswith("main."))
    whole = (THEME / STYLESHEETS / next(n for n in built if n.startswith("main."))).read_text(encoding="utf-8")
    assert ".md-typeset .admonition-title{" in main or ".md-typeset .admonition-title," in main  # used
    assert ".md-tooltip2__inner" in main  # only Material's script names it
    assert ".md-post" in whole and ".md-post" not in main  # the blog: on no page
    assert "@keyframes hoverfix" in main  # named by a declaration that stays
    assert len(main) < 0.75 * len(whole), (len(main), len(whole))


PALETTE_SWITCHING = (
    "[data-md-color-switching] *,[data-md-color-switching] :after,[data-md-color-switching] :before"
    "{transition-duration:0s!important}"
)


def test_the_subjects_of_transitions_in_every_state():
    css = (
        ".md-typeset a,.md-typeset a:before{transition:color 125ms}"
        "[data-md-toggle=search]:checked~.md-header .md-search__inner:not(.x){transition:width .25s}"
        ".md-typeset :hover > .headerlink, .md-typeset th[role=columnheader]::after {transition:color .25s}"
        "@media screen and (min-width:60em){.md-nav__toggle~.md-nav{transition-duration:.25s}}"
        "#top.md-x[hidden]{transition:opacity 1s}.md-search__input::placeholder{transition:color .25s}"
        ".md-nav__toggle.gone{transition:none}.md-still{transition-duration:0s}"
        "@media print{*,:after,:before{transition:none!important}}" + PALETTE_SWITCHING
    )
    assert transition_subjects(css) == {
        "a", "a::before", ".md-search__inner", ".headerlink", "th::after", ".md-nav", "#top.md-x",
    }  # fmt: skip
    # ::placeholder: the universal rule does not reach it, so neither does the narrow one
    assert switching_rule([css, ".b{transition:color 1s}"]) == (
        "[data-md-color-switching] #top.md-x,[data-md-color-switching] .b,[data-md-color-switching] .headerlink,"
        "[data-md-color-switching] .md-nav,[data-md-color-switching] .md-search__inner,"
        "[data-md-color-switching] a,[data-md-color-switching] a::before,[data-md-color-switching] th::after"
        "{transition-duration:0s!important}"
    )


def test_the_switching_rule_moves_to_the_sites_stylesheet(tmp_path):
    sheets = tmp_path / STYLESHEETS
    sheets.mkdir(parents=True)
    palette = sheets / "palette.abc.min.css"
    palette.write_text("[data-md-color-scheme=slate]{a:b}" + PALETTE_SWITCHING + ".c{d:e}", encoding="utf-8")
    (sheets / "main.abc.min.css").write_text(".md-nav__link{transition:color 125ms}", encoding="utf-8")
    (tmp_path / SWITCHING_CSS).write_text(".own{x:y}", encoding="utf-8")
    narrow_switching(tmp_path, palette)
    assert palette.read_text(encoding="utf-8") == "[data-md-color-scheme=slate]{a:b}.c{d:e}"
    assert (tmp_path / SWITCHING_CSS).read_text(encoding="utf-8") == (
        ".own{x:y}\n[data-md-color-switching] .md-nav__link{transition-duration:0s!important}\n"
    )
    narrow_switching(tmp_path, palette)  # the rule is gone: nothing more to move
    assert palette.read_text(encoding="utf-8").count("{") == 2
    assert (tmp_path / SWITCHING_CSS).read_text(encoding="utf-8").count("switching") == 1


def test_without_the_sites_stylesheet_the_palette_keeps_its_rule(tmp_path):
    sheets = tmp_path / STYLESHEETS
    sheets.mkdir(parents=True)
    palette = sheets / "palette.abc.min.css"
    palette.write_text(PALETTE_SWITCHING, encoding="utf-8")
    narrow_switching(tmp_path, palette)
    assert palette.read_text(encoding="utf-8") == PALETTE_SWITCHING
