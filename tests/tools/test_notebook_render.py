"""The notebook pages as MkDocs builds them (publish/mkdocs/notebook_render.py, with
publish/mkdocs/notebook_pages.py): rendered in a second process while MkDocs renders the other
pages, with the same HTML, table of contents and title as mkdocs-jupyter's own render in the build;
a page the process does not render, or a notebook it cannot read, left to the build; a rebuild under
`mkdocs serve` rendering again only the notebook that was edited, and every page again when the
rendering code changes. Tests of the tools (moved from tests/content/test_notebooks.py, where they were
marked tooling): no page or notebook edit can fail them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from publish import ROOT
from publish.generate import notebooks as nbs
from publish.mkdocs.notebook_pages import clean


def test_the_lean_exporter_renders_the_page_nbconverts_exporter_renders():
    """The build's exporter (publish.mkdocs.notebook_pages._lean_exporter) skips two passes whose work
    clean() undoes: the page is the same, but for the blank lines around it. One page's notebook
    and one worked example's, and an image, which clean() refuses without alt text."""
    script = (
        "import json, sys\n"
        "from mkdocs_jupyter import nbconvert2\n"
        "from publish.mkdocs import notebook_pages as nh\n"
        "kw = dict(execute=False, no_prompt=True, highlight_extra_classes='highlight', include_requirejs=False,\n"
        "          custom_mathjax_url='')\n"
        "files = sys.argv[1:]\n"
        "plain = [nh.clean(nbconvert2.nb2html(f, **kw)) for f in files]\n"
        "nh._lean_exporter()\n"
        "lean = [nh.clean(nbconvert2.nb2html(f, **kw)) for f in files]\n"
        "print(json.dumps([nbconvert2.HTMLExporter._lean, [a.strip() == b.strip() for a, b in zip(plain, lean)]]))\n"
    )
    example = sorted((nbs.NOTEBOOKS_DIR / "examples").glob("*.ipynb"))[0]
    files = [str(nbs.NOTEBOOKS_DIR / "masking.ipynb"), str(example)]
    proc = subprocess.run([sys.executable, "-c", script, *files], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [True, [True, True]]
    html = '<div class="jp-RenderedMarkdown"><p><img src="x.png"></p></div>'
    with pytest.raises(ValueError, match=r"x\.ipynb: an image without alt text"):
        clean(html, notebook="x.ipynb")


def _plugin_config() -> dict:
    from mkdocs.config import load_config

    return load_config(str(ROOT / "mkdocs.yml")).plugins["mkdocs-jupyter"].config


def _notebooks_in(tmp_path: Path, *names: str) -> Path:
    """A docs/ folder holding the site's notebooks/<name> of ``names`` (the second process renders
    a folder's notebooks)."""
    folder = tmp_path / "docs" / "notebooks"
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_bytes((nbs.NOTEBOOKS_DIR / name).read_bytes())
    return tmp_path / "docs"


def test_the_second_process_renders_a_notebook_page_as_the_build_does(tmp_path):
    """publish/mkdocs/notebook_render.py renders the notebook pages beside the build: with the link back
    to its page added, a page's HTML, table of contents and title are what the build makes of it
    in its own process (mkdocs-jupyter's render, then clean())."""
    from mkdocs_jupyter import nbconvert2
    from mkdocs_jupyter import plugin as jupyter_plugin

    from publish.mkdocs import notebook_pages, notebook_render

    config = _plugin_config()
    docs = _notebooks_in(tmp_path, "masking.ipynb")
    src = str(docs / "notebooks" / "masking.ipynb")
    address = nbs.site_url() + nbs.page_address("masking.md")
    addresses = ((address, "../../masking/"),)  # from the notebook's page to the page's
    article = ("../../masking/", "Masking")
    renderer = notebook_render.start(config, docs, ROOT)
    try:
        renderer.send_pages([(address, "masking/")], {src: "notebooks/masking/"})
        result = renderer.get(src, wait=True)
    finally:
        renderer.stop()
    assert result is not None, "the second process wrote no page"
    notebook_pages.on_config(None)  # the build's exporter
    options = {key: config[key] for key in notebook_render.NB2HTML_OPTIONS}
    expected = clean(nbconvert2.nb2html(src, execute=False, **options), "masking.ipynb", article, addresses)
    got = notebook_pages.with_download_link(result["content"], result["mark"], "masking.ipynb", article)
    assert got == expected
    assert 'href="../../masking/"' in got and "Download the notebook (masking.ipynb)" in got
    html = nbconvert2.nb2html(src, execute=False, **options)  # named as the page shows its headings
    toc_tokens, title = notebook_pages.retitled(*jupyter_plugin._get_nb_toc_tokens(src, config["toc_depth"]), html)
    assert (result["toc_tokens"], result["title"]) == (json.loads(json.dumps(toc_tokens)), title)


def test_the_second_process_renders_the_notebooks_mkdocs_jupyter_renders_in_the_builds_order(tmp_path):
    from publish.mkdocs import notebook_render

    config = _plugin_config()
    docs = tmp_path / "docs"
    for rel in ("notebooks/b.ipynb", "notebooks/a.ipynb", "notebooks/examples/a.ipynb", "other/c.ipynb", "d.ipynb"):
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text("{}", encoding="utf-8")
    found = [Path(p).relative_to(docs).as_posix() for p in notebook_render.notebooks(config, docs)]
    assert found == ["notebooks/a.ipynb", "notebooks/b.ipynb", "notebooks/examples/a.ipynb"]


def test_a_page_the_second_process_does_not_render_is_left_to_the_build(tmp_path):
    """A notebook it cannot render, a notebook that is not a page of the build, or a process that
    stops: no page from it (the build renders those itself, and raises their errors there), and no
    wait past the process's end."""
    from publish.mkdocs import notebook_render

    config = _plugin_config()
    docs = _notebooks_in(tmp_path, "masking.ipynb", "scaling.ipynb")
    broken, good, other = (str(docs / "notebooks" / n) for n in ("a-broken.ipynb", "masking.ipynb", "scaling.ipynb"))
    Path(broken).write_text("{not json", encoding="utf-8")
    renderer = notebook_render.start(config, docs, ROOT)
    try:
        renderer.send_pages([], {broken: "notebooks/a-broken/", good: "notebooks/masking/"})
        assert renderer.get(broken, wait=True) is None
        assert renderer.get(good, wait=True) is not None  # the one after it is still rendered
        assert renderer.get(other, wait=True) is None  # not a page of this build
        assert "error" in renderer.results[broken] and "not a page" in renderer.results[other]["error"]
    finally:
        renderer.stop()
    assert renderer.why_not(broken).startswith("JSONDecodeError: ")  # what the build logs
    job = {"options": {}, "toc_depth": 3, "notebooks": [good]}
    script = "import sys; print('no luck', file=sys.stderr); sys.exit(3)"
    stopped = notebook_render.Renderer(job, ROOT, [sys.executable, "-c", script])
    try:
        assert stopped.get(good, wait=True) is None
        assert stopped.why_not(good) == "it stopped (exit 3): no luck"  # what the build logs
    finally:
        stopped.stop()
    silent = notebook_render.start(config, docs, ROOT)  # the build stops before it knows its pages
    silent.stop()
    assert silent.get(good, wait=True) is None
    assert notebook_render.start({**config, "execute": True}, docs, ROOT) is None
    assert notebook_render.start({**config, "cache": True}, docs, ROOT) is None


def test_a_rebuild_takes_again_the_pages_that_still_hold_and_renders_the_others(tmp_path, monkeypatch):
    """Under `mkdocs serve` (one process, a build after each edit) a notebook page of the last
    build is used again while its notebook, the addresses of the pages it links to and the code
    that renders it are unchanged; a second process renders the others, and only them."""
    from publish.mkdocs import notebook_render

    config = _plugin_config()
    docs = _notebooks_in(tmp_path, "masking.ipynb", "scaling.ipynb")
    masking, scaling = (str(docs / "notebooks" / n) for n in ("masking.ipynb", "scaling.ipynb"))
    address = nbs.site_url() + nbs.page_address("masking.md")
    pages, urls = [(address, "masking/")], {masking: "notebooks/masking/", scaling: "notebooks/scaling/"}

    def build(cache):
        renderer = notebook_render.start(config, docs, ROOT, cache)
        try:
            renderer.send_pages(pages, urls)
            got = {src: renderer.get(src, wait=True) for src in urls}
            keys = notebook_render.cache_keys(renderer.job, renderer.content, pages, urls)
        finally:
            renderer.stop()
        assert all(got.values()), renderer.why_not(masking) + renderer.why_not(scaling)
        return renderer, got, {src: (keys[src], got[src]) for src in urls}

    first, pages_1, cache = build({})
    assert isinstance(first, notebook_render.Renderer)
    again, pages_2, _ = build(cache)  # nothing changed: no second process at all
    assert isinstance(again, notebook_render.Reuse) and again.renderer is None
    assert all(pages_2[src] is pages_1[src] for src in urls)

    text = Path(scaling).read_text(encoding="utf-8")
    assert '"# Why' in text
    Path(scaling).write_text(text.replace('"# Why', '"# Edited: why', 1), encoding="utf-8")  # one notebook edited
    edited, pages_3, cache = build(cache)
    assert edited.renderer.job["notebooks"] == [scaling]
    assert pages_3[masking] is pages_1[masking] and "Edited: why" in pages_3[scaling]["content"]
    assert "Edited" not in pages_1[scaling]["content"]

    pages = [(address, "elsewhere/masking/")]  # the page masking's notebook links to has moved
    moved, pages_4, cache = build(cache)
    assert moved.renderer.job["notebooks"] == [masking, scaling]  # (what their links lead to may change)
    assert pages_4[masking] is not pages_1[masking] and pages_4[masking]["content"] == pages_1[masking]["content"]

    # the rendering code edited (as a file of publish/ would be): every page again
    monkeypatch.setattr(notebook_render, "code_fingerprint", lambda: ("edited",))
    recoded, _, _ = build(cache)
    assert recoded.renderer.job["notebooks"] == [masking, scaling]


def test_a_notebook_that_cannot_be_read_is_left_to_the_process_and_not_kept(tmp_path):
    """start() reads each notebook before the process does; one it cannot read (here a folder that
    has a notebook's name) does not stop it, and has no key, so no page of it is kept."""
    from publish.mkdocs import notebook_render

    config = _plugin_config()
    docs = _notebooks_in(tmp_path, "masking.ipynb")
    (docs / "notebooks" / "a-folder.ipynb").mkdir()
    renderer = notebook_render.start(config, docs, ROOT)
    renderer.stop()
    assert [Path(src).name for src in renderer.job["notebooks"]] == ["a-folder.ipynb", "masking.ipynb"]
    assert [Path(src).name for src in renderer.content] == ["masking.ipynb"]
    urls = {src: "notebooks/x/" for src in renderer.job["notebooks"]}
    assert [Path(src).name for src in notebook_render.cache_keys(renderer.job, renderer.content, [], urls)] == [
        "masking.ipynb"
    ]


_THREE_BUILDS = """
import json, sys
import mkdocs.commands.build as build
from mkdocs.config import load_config
from publish.mkdocs import notebook_render
given = []
init = notebook_render.Renderer.__init__
def counted(self, job, *args, **kwargs):
    given.append(len(job["notebooks"]))
    init(self, job, *args, **kwargs)
notebook_render.Renderer.__init__ = counted
counts = []
for site in ("s1", "s2", "s3"):
    if site == "s3":
        path = "docs/notebooks/scaling.ipynb"
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace('"# Why', '"# Edited: why', 1))
    build.build(load_config("mkdocs.yml", site_dir=site))
    counts.append(list(given))
    given.clear()
print(json.dumps(counts))
"""


def test_mkdocs_serve_renders_again_only_the_notebook_that_was_edited(tmp_path):
    """The hook under `mkdocs serve`: builds in one process of a small site with two notebook
    pages. The first renders both in the second process, the next (no edit) starts none and
    writes the same pages, the one after an edit of one notebook renders that one alone."""
    docs = _notebooks_in(tmp_path, "masking.ipynb", "scaling.ipynb")
    for name in ("index", "masking", "scaling"):
        (docs / f"{name}.md").write_text(f"# {name.title()}\n\nText.\n", encoding="utf-8")
    hook = ROOT / "publish/mkdocs/hooks/notebook_pages.py"
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - mkdocs-jupyter:\n      include: ['notebooks/*.ipynb']\n"
        "      execute: false\n      cache: false\n      include_requirejs: false\n"
        f"      custom_mathjax_url: ''\n      ignore: ['*.md']\nhooks:\n  - {json.dumps(str(hook))}\n",
        encoding="utf-8",
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-c", _THREE_BUILDS], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [[2], [], [1]]
    page = {site: {n: (tmp_path / site / "notebooks" / n / "index.html").read_text(encoding="utf-8")
                   for n in ("masking", "scaling")} for site in ("s1", "s2", "s3")}  # fmt: skip
    assert page["s2"] == page["s1"]
    assert page["s3"]["masking"].replace("Edited: why", "Why") == page["s1"]["masking"]  # (the nav has its title)
    assert "Edited: why" in page["s3"]["scaling"] and "Edited" not in page["s1"]["scaling"]


def test_the_code_fingerprint_sees_an_edit_of_the_rendering_code(tmp_path, monkeypatch):
    """The fingerprint of a notebook page's code covers the publish package and KaTeX's script,
    and changes when one of its files is edited."""
    from publish.markdown.katex_math import KATEX_JS
    from publish.mkdocs import notebook_render

    version, stats = notebook_render.code_fingerprint()
    covered = {Path(name) for name, *_ in stats}
    assert {ROOT / "publish/mkdocs/notebook_pages.py", ROOT / "publish/markdown/katex_math.py", KATEX_JS} <= covered
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(notebook_render, "_PUBLISH", tmp_path)
    before = notebook_render.code_fingerprint()
    assert before == notebook_render.code_fingerprint()
    (tmp_path / "sub" / "a.py").write_text("x = 22\n", encoding="utf-8")
    assert notebook_render.code_fingerprint() != before
