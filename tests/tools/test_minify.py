"""publish/mkdocs/page_weight/minify.py: the built site's copies of the site's own scripts and stylesheets are minified,
parse as the originals do, keep every string and template literal, and the files in docs/ stay as
written. What the scripts do is checked in Chromium on the built (minified) site by the browser layer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from publish.markdown.katex_math import evaluate
from publish.mkdocs.page_weight.material_css import SWITCHING_CSS
from publish.mkdocs.page_weight.minify import minify, own_files

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def _parses(js: str) -> str:
    return evaluate(f"(function(){{try{{new Function({json.dumps(js)});return 'ok'}}catch(e){{return String(e)}}}})()")


def test_own_files_are_the_sites_scripts_and_stylesheets_not_vendored_ones():
    names = {p.as_posix() for p in own_files(DOCS)}
    assert {"assets/javascripts/exercises.js", "assets/javascripts/search-on-demand.js"} <= names
    assert "assets/stylesheets/extra.css" in names
    assert not [n for n in names if ".min." in n or "vendor" in n]


def test_minified_scripts_parse_and_keep_their_strings():
    for rel in own_files(DOCS):
        text = (DOCS / rel).read_text(encoding="utf-8")
        small = minify(rel, text)
        assert len(small) < len(text), rel
        if rel.suffix == ".js":
            assert _parses(text) == "ok", rel
            assert _parses(small) == "ok", rel
            # The template literals and double-quoted strings of the code (not of comments) survive.
            code = re.sub(r"^\s*//.*$", "", text, flags=re.M)
            for literal in re.findall(r'`[^`]*`|"(?:[^"\\\n]|\\.)*"', code):
                assert literal in small, (rel, literal)


def test_a_broken_script_is_seen():
    assert _parses("const a = ;") != "ok"


def test_the_built_site_serves_minified_copies_and_docs_keeps_the_originals(strict_build):
    assert strict_build.proc.returncode == 0, strict_build.proc.stderr[-2000:]
    for rel in own_files(DOCS):
        original = (DOCS / rel).read_text(encoding="utf-8")
        built = (strict_build.dir / rel).read_text(encoding="utf-8")
        small = minify(rel, original)
        if rel == SWITCHING_CSS:  # and after it the palette's rule for a switching palette (material_css)
            assert re.fullmatch(
                r"\[data-md-color-switching\] [^{}]+\{transition-duration:0s!important\}", built[len(small) :]
            )
            built = built[: len(small)]
        assert built == small, rel
        assert len(built) < len(original), rel
