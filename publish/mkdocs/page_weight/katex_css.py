"""MkDocs hook (publish/mkdocs/hooks/page_weight.py, once the site is built): the site's copy of KaTeX's stylesheet,
assets/vendor/katex/katex.min.css, cut to the rules that the site's math can use.

katex.min.css (25 kB) styles everything KaTeX can draw: matrices, arrows, colour boxes, a dozen
fonts. A page with math loads it whole. After the build, when every page is written, this keeps
each @font-face (a font is only downloaded when a formula uses it) and each rule with a selector
whose classes all occur in a class attribute of the built site (in any page, or in a script or data
file of the site, where the playground keeps its prerendered labels: :mod:`.site_files`), and drops
the other selectors: a rule whose every selector names a class that no element of the site has
styles nothing. The cut is Material's stylesheets' (:func:`.material_css.subset`, with tinycss2),
given only the classes of class attributes: KaTeX's classes are written when the site is built,
never added by a script as Material's are, so a script's words do not count here. Classes inside
:not(...) do not count (they need not be present). The vendored file in docs/ is not touched; the
site's copy is rewritten by the build that wrote it, and a build without the hook (Zensical) ships
the whole file, heavier, not different."""

from __future__ import annotations

from pathlib import Path

from ...files import atomic_write
from . import ThemeChanged, material_css, site_files

CSS = Path("assets/vendor/katex/katex.min.css")


def used_classes(site: Path) -> set[str]:
    """Every class named in a class attribute of the site's HTML, JavaScript and JSON files."""
    return set().union(*(facts.classes for _, facts in site_files.read(site)))


def subset(css: str, classes: set[str]) -> str:
    """``css`` with only the selectors whose classes are all in ``classes``; a rule left with no
    selector goes."""
    return material_css.subset(css, material_css.Used(classes))


def on_post_build(config) -> None:
    site = Path(config["site_dir"])
    path = site / CSS
    if not path.is_file():
        raise ThemeChanged(f"KaTeX's stylesheet is not at {CSS.as_posix()} in the built site", "katex_css.py, CSS")
    atomic_write(path, subset(path.read_text(encoding="utf-8"), used_classes(site)), root=site)
