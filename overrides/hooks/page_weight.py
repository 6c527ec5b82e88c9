"""MkDocs hook: each built page without the theme's indentation and without mkdocstrings' stylesheet
where nothing uses it (:mod:`publish.page_weight`), the site's copies of Material's stylesheets cut to
the rules the site can use (:mod:`publish.material_css`), and of KaTeX's stylesheet and fonts cut to
the rules and characters its math uses (:mod:`publish.katex_css`, :mod:`publish.katex_fonts`), its
own scripts and stylesheets minified (:mod:`publish.minify`). This file only wires them in."""

from publish import katex_css, katex_fonts, material_css, minify
from publish.page_weight import on_post_page


def on_env(env, config, files):
    katex_fonts.on_env(env, config, files)  # the fonts subset in a second process meanwhile
    return env


def on_build_error(error) -> None:
    katex_fonts.stop_early()


def on_post_build(config) -> None:
    material_css.on_post_build(config)
    katex_css.on_post_build(config)
    katex_fonts.on_post_build(config)
    minify.on_post_build(config)


__all__ = ["on_build_error", "on_env", "on_post_build", "on_post_page"]
