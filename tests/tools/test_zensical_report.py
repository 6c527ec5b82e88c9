"""publish/zensical_report.py (`make zensical`) measures the gap between two builds: checked here on two
small sites made for the test, one as MkDocs would build it and one with what Zensical loses."""

from __future__ import annotations

from pathlib import Path

import pytest

from publish import zensical_report as zr

PAGE = """<html><head><script src="{up}assets/javascripts/bundle.{hash}.min.js"></script>
<script src="{up}assets/javascripts/modules.js"></script>{extra}</head><body>
<nav class="md-nav md-nav--primary">{nav}</nav>
<article><a href="https://example.org/edit/main/docs/x.md" class="md-content__button" rel="edit">Edit</a>
<h1>{title}</h1><h2 id="a">A<a class="headerlink" href="#a">#</a></h2><div class="highlight"><pre>x</pre></div>
<p>{body}</p><span class="arithmatex">\\(x\\)</span></article></body></html>"""


def site(root: Path, pages: dict[str, str], nav: list[str], hash_: str, mkdocstrings_css: bool) -> zr.Build:
    for rel, body in pages.items():
        up = "../" * rel.count("/")
        links = "".join(f'<a class="md-nav__link" href="{up}{n}">{n}</a>' for n in nav)
        extra = f'<link rel="stylesheet" href="{up}assets/_mkdocstrings.css">' if mkdocstrings_css else ""
        html = PAGE.format(up=up, hash=hash_, extra=extra, nav=links, title=rel, body=body)
        if not mkdocstrings_css:  # Zensical: no edit button
            html = html.replace('<a href="https://example.org/edit/main/docs/x.md" class="md-content__button" '
                                'rel="edit">Edit</a>', "")  # fmt: skip
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(html, encoding="utf-8")
    return zr.Build(root.name, root, 1.0, "")


@pytest.fixture
def builds(tmp_path):
    mk = site(
        tmp_path / "mk",
        {"index.html": 'see <a href="notebooks/a/">the notebook</a>', "examples/one/index.html": "one",
         "notebooks/a/index.html": "cells"},
        ["index.html", "examples/one/", "notebooks/a/"], "a5f9d56c", True,
    )  # fmt: skip
    zs = site(
        tmp_path / "zs",
        {"index.html": 'see <a href="notebooks/a.ipynb">the notebook</a>', "examples/one/index.html": "one two"},
        ["index.html", "notebooks/a.ipynb"], "0123abcd", False,
    )  # fmt: skip
    (tmp_path / "zs" / "notebooks").mkdir()
    (tmp_path / "zs" / "notebooks" / "a.ipynb").write_text("{}", encoding="utf-8")
    return mk, zs


def test_the_report_measures_what_zensical_loses(builds):
    lines = zr.report(*builds)
    text = "\n".join(lines)
    assert "- pages: MkDocs 3, Zensical 2; missing from Zensical: 1" in lines
    assert "    notebooks/: 1 (notebooks/a/index.html)" in lines
    assert "Zensical copies the 1 notebooks as raw .ipynb files instead" in text
    assert "    worked examples no longer in the nav: 1 (publish/mkdocs/worked_examples.py lists them)" in lines
    assert "- pages in both: 2; with a difference in their content: 0" in lines
    assert "- links to notebooks in the pages' content, MkDocs: 1 to a page" in lines
    assert "- links to notebooks in the pages' content, Zensical: 1 to a raw .ipynb" in lines
    assert "    files the MkDocs pages load and Zensical's do not: _mkdocstrings.css" in lines  # not bundle.js
    assert "- edit links (content.action.edit): lost on 2 of 2 pages" in lines
    assert "- the site's own scripts and styles on every page: all kept" in lines


def test_the_report_lists_a_page_whose_content_differs(builds):
    mk, zs = builds
    page = zs.dir / "examples/one/index.html"
    page.write_text(page.read_text(encoding="utf-8").replace('<div class="highlight"><pre>x</pre></div>', ""))
    lines = zr.report(mk, zs)
    assert "- pages in both: 2; with a difference in their content: 1" in lines
    assert "    examples/one/index.html: code blocks 1 -> 0" in lines


def test_zensical_writes_only_into_a_folder_of_its_own(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SystemExit, match="holds files that this script did not write"):
        zr.own_folder(tmp_path)
    with pytest.raises(SystemExit, match="Zensical builds only into a folder of the repository"):
        zr.build_zensical(tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_failed_zensical_build_leaves_a_folder_the_next_run_still_owns(tmp_path, monkeypatch):
    """A Zensical build that fails half-way (as 0.0.73 did on the sitemap) leaves files in the
    folder: the next `make zensical` must not refuse the folder as someone else's."""
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    fake = tmp_path / "zensical"
    fake.write_text(
        "#!/usr/bin/env python3\nimport json, pathlib, sys\n"
        "site = pathlib.Path(json.loads(open(sys.argv[3]).read().rsplit('site_dir: ', 1)[1]))\n"
        "(site / 'index.html').write_text('half')\nsys.exit(1)\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    monkeypatch.setattr(zr, "ROOT", tmp_path)
    monkeypatch.setattr(zr.shutil, "which", lambda *a, **k: str(fake))
    site = tmp_path / "site-zensical"
    with pytest.raises(SystemExit, match=r"Zensical build failed \(exit 1\)"):
        zr.build_zensical(site)
    assert (site / "index.html").read_text(encoding="utf-8") == "half"
    zr.own_folder(site)  # no SystemExit: the folder is still this script's
