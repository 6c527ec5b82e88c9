"""MkDocs hook: what lightens the built site (:mod:`publish.mkdocs.page_weight`): each built page
without the theme's indentation and without mkdocstrings' stylesheet where nothing uses it, the
site's copies of Material's stylesheets cut to the rules the site can use (``material_css``), of
KaTeX's stylesheet and fonts cut to the rules and characters its math uses (``katex_css``,
``katex_fonts``), and its own scripts and stylesheets minified (``minify``). This file only wires
them in."""

from publish.mkdocs.page_weight import katex_css, katex_fonts, material_css, minify, on_post_page


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
