"""MkDocs hook (publish/mkdocs/hooks/page_weight.py, once the site is built): the site's copies of its
own scripts and stylesheets (docs/assets/javascripts/*.js, docs/assets/stylesheets/*.css) without
comments and layout white space, by rjsmin and rcssmin.

Every page loads them: 31 kB as written, 18 kB minified. The files in docs/ stay as written (they
are what a contributor reads and edits); only the built site's copies, written by the same build,
are rewritten, and only when the result is smaller. A build without the hook (Zensical) ships them
as written, heavier, not different. rjsmin keeps strings, template literals and regular expressions
as they are; the browser tests run the minified copies (exercises, linked tabs, search on demand,
scrolling boxes, the playground's loader), and tests/tools/test_minify.py parses each one in V8."""

from __future__ import annotations

from pathlib import Path

import rcssmin
import rjsmin

from ...files import atomic_write

FOLDERS = {"assets/javascripts": (".js", rjsmin.jsmin), "assets/stylesheets": (".css", rcssmin.cssmin)}


def own_files(docs: Path) -> list[Path]:
    """The site's own scripts and stylesheets, relative to docs/ (vendored files and the theme's
    are elsewhere, and named .min.)."""
    out = []
    for folder, (suffix, _) in FOLDERS.items():
        for path in sorted((docs / folder).glob(f"*{suffix}")):
            if ".min." not in path.name:
                out.append(path.relative_to(docs))
    return out


def minify(path: Path, text: str) -> str:
    return FOLDERS[path.parent.as_posix()][1](text)


def on_post_build(config) -> None:
    site, docs = Path(config["site_dir"]), Path(config["docs_dir"])
    for rel in own_files(docs):
        built = site / rel
        if not built.is_file():
            continue
        text = built.read_text(encoding="utf-8")
        small = minify(rel, text)
        if len(small) < len(text):
            atomic_write(built, small, root=site)
