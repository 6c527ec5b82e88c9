"""The notebooks: generated from the pages' snippet files, saved with their outputs, showing the
pages' numbers, loading nothing from elsewhere, each output what a kernel prints.

- Each worked-example page has a notebook (docs/notebooks/<page>.ipynb) in the nav, linked from
  the page; the file is what publish/generate/notebooks.py writes now (the suite's staleness
  test covers it as well), valid nbformat, with fixed cell ids, and its code cells are the
  page's snippet files, byte for byte, in the page's order.
- A link of the page is, in its notebook, a link to the site's page at its published address
  (site_url), which works in a downloaded .ipynb; the notebook pages of the site link within it.
- In the site that `mkdocs build --strict` builds (the session's build, conftest.py), every code
  cell of every notebook shows as its output exactly the snippet's recorded output, the .out
  file the page shows under the same code; and the page offers the .ipynb for download, with
  those outputs: every notebook a reader downloads has the output of every cell that prints.
- No build runs a notebook. A kernel running each notebook from the top prints, cell by cell,
  exactly the outputs the file holds, with the same cell numbers (publish/harness/notebook_cache.py keeps
  the run under a key made of the notebook's bytes and the kernel's environment, so that it runs
  again exactly when its output could change: its cells import numpy or torch only and read
  nothing else).
- Nothing of mkdocs-jupyter's template that would load from a CDN is left in the pages.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from publish import DOCS, ROOT
from publish.generate import notebooks as nbs
from publish.generate.exercises import load_all as load_exercises
from publish.generate.producers import generate
from publish.generate.snippets import recorded_versions, shown_whole
from publish.harness import notebook_cache
from publish.markdown import katex_math
from publish.markdown.katex_math import KatexError
from publish.mkdocs.notebook_pages import clean, plain
from publish.source import includes, mkdocs_yml
from selfattn_ref import examples

# The worked examples' pages, as the issue that asked for notebooks lists them.
# Every page that shows code (a worked example) has a notebook of that code.
WORKED_EXAMPLE_PAGES = {p.stem for p in DOCS.glob("*.md") if '--8<-- "snippets/' in p.read_text(encoding="utf-8")}
NOTEBOOKS = {nb.page: nb for nb in nbs.NOTEBOOKS}
PAGES = sorted(NOTEBOOKS)


MKDOCS = mkdocs_yml.config()  # as published: each !ENV its default
JUPYTER = next(p["mkdocs-jupyter"] for p in MKDOCS["plugins"] if isinstance(p, dict) and "mkdocs-jupyter" in p)


def _nav_files(items) -> list[str]:
    out = []
    for item in items:
        for value in item.values() if isinstance(item, dict) else [item]:
            out += _nav_files(value) if isinstance(value, list) else [value]
    return out


# --- the files ------------------------------------------------------------------------------


def test_every_worked_example_page_has_a_notebook():
    assert set(NOTEBOOKS) == WORKED_EXAMPLE_PAGES
    nav = _nav_files(MKDOCS["nav"])
    missing = [nbs.relpath(nb) for nb in nbs.NOTEBOOKS if nbs.relpath(nb) not in nav]
    assert not missing, f"notebooks missing from the nav of mkdocs.yml: {missing}"


@pytest.mark.parametrize("name", PAGES)
def test_the_page_links_to_its_notebook(name):
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    assert f"](notebooks/{name}.ipynb)" in text, f"docs/{name}.md has no link to notebooks/{name}.ipynb"


@pytest.fixture(scope="module")
def generated() -> dict[Path, str]:
    """Every generated file as `make update` would write it now (made once for the module)."""
    return generate()


@pytest.mark.parametrize("name", PAGES)
def test_notebook_file_is_generated_and_current(name, generated):
    path = nbs.NOTEBOOKS_DIR / f"{name}.ipynb"
    want = generated
    assert path in want, f"{path.relative_to(ROOT)} is not registered with the generated files"
    assert path.is_file() and path.read_text(encoding="utf-8") == want[path], (
        f"{path.relative_to(ROOT)} differs from what the page and its snippets give now; run `make update`"
    )


def made(name: str) -> nbformat.NotebookNode:
    """The page's notebook as `make update` writes it from the page as it is now. The tests of what
    a notebook holds read it, not the saved file: after an edit of the page they check the notebook
    the page gets, and test_notebook_file_is_generated_and_current alone says that the saved one is
    out of date and to run `make update` (it was also "lacks the page's link", and the like)."""
    return _made(name, nbs.page_path(name).read_text(encoding="utf-8"))


@functools.cache
def _made(name: str, page: str) -> nbformat.NotebookNode:  # keyed on the page's text
    return nbformat.reads(nbs.dumps(nbs.notebook(NOTEBOOKS[name])), as_version=4)


@pytest.mark.parametrize("name", PAGES)
def test_notebook_is_valid_and_saved_as_jupyter_saves_it(name):
    text = (nbs.NOTEBOOKS_DIR / f"{name}.ipynb").read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    nbformat.validate(nb)
    assert nbformat.writes(nb) + "\n" == text, "opening and saving the notebook in Jupyter would change the file"
    ids = [c.id for c in nb.cells]
    assert len(set(ids)) == len(ids), f"duplicate cell ids: {ids}"
    code = [c for c in nb.cells if c.cell_type == "code"]
    # saved as run from the top: cells numbered in order, each with its snippet's recorded output
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    assert code[0].outputs == [] and all(c.outputs for c in code[1:]), name
    assert nb.metadata.kernelspec.name == "python3"


def test_cell_ids_name_the_cell():
    """Cell ids are the cell's place and its snippet's name: fixed, and the same on every run."""
    nb = nbs.notebook(NOTEBOOKS["real-numbers"])
    ids = [c["id"] for c in nb["cells"]]
    assert ids[:2] == ["intro", "imports"]
    assert [i for i in ids if c_is_code(nb, i)] == [
        "imports",
        "01-stable_softmax_numpy",
        "02-self_attention_numpy",
        "03-word_order_numpy",
    ]
    text = [i for i in ids[1:] if not c_is_code(nb, i)]
    assert text == [f"text-{k:02d}" for k in range(1, len(text) + 1)]
    assert nbs.dumps(nb) == nbs.dumps(nbs.notebook(NOTEBOOKS["real-numbers"]))


def c_is_code(nb: dict, cell_id: str) -> bool:
    return next(c for c in nb["cells"] if c["id"] == cell_id)["cell_type"] == "code"


_PAGE_HEADING = re.compile(r"^(#{2,6}) (.+)$", re.M)
# What the site's Markdown has and Jupyter would show as typed: an include, a tab, an admonition, a
# link to a page of the site, a figure, a comment, a claim of the numbers audit ("0.5{{weights[a, b]}}").
LEFTOVER = re.compile(r"--8<--|^\s*(===|!!!|\?\?\?) |\]\((?!https?://)[^)]*\)|<svg|<!--|\{\{[^{}\n]*\}\}", re.M)


@pytest.mark.parametrize("name", PAGES)
def test_notebook_reads_like_its_page(name):
    """The page's headings, in order, and its sentences are the notebook's Markdown cells, in plain
    Markdown that Jupyter shows (no include, tab, admonition, link to a page of the site or claim
    of the numbers audit left: the reader sees "66.5%", as on the page)."""
    nb = made(name)
    markdown = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    page = page.split('!!! tip "This page as a notebook"')[0]
    headings = [h for _, h in _PAGE_HEADING.findall(page)]
    got = [h for _, h in _PAGE_HEADING.findall(markdown)]
    assert got == headings, (got, headings)
    assert not LEFTOVER.search(markdown), LEFTOVER.search(markdown).group(0)
    # Every paragraph of plain prose on the page (first lines that are neither markup nor a link) is
    # there; or, after an "<!-- in the notebook: ... -->" comment (a paragraph about the page itself:
    # its tabs, a PyTorch version), the comment's text in its place.
    paragraphs = page.split("\n\n")
    firsts = []
    for before, p in zip(["", *paragraphs[:-1]], paragraphs, strict=True):
        if m := re.fullmatch(r"\s*<!-- in the notebook: (.+?) -->\s*", before):
            firsts.append(m.group(1))
            assert p.split("\n")[0] not in markdown, "the page's own paragraph is in the notebook too"
        elif p and p[0].isalpha() and "](" not in p.split("\n")[0] and not p.startswith(("audit", "---")):
            firsts.append(p.split("\n")[0])
    missing = [f for f in firsts if nbs.without_claims(f) not in markdown]
    assert not missing, missing[:5]
    assert nb.cells[0].source.startswith(f"# {nbs.title(name)}")


EMPTY_FENCE = re.compile(r"^\s*```\w*\n\s*```\s*$", re.M)
INDENTED_TABLE = re.compile(r"^[ \t]+\|.*\|\s*$", re.M)


# Words about the site's page that a notebook does not have: its tabs, what it folds, its buttons.
PAGE_ONLY_WORDS = re.compile(r"(?i)\btabs?\b|\bfold(?:s|ed)?\b|with the printing|\bbuttons?\b|\bclick")


def page_only_words(notebook: dict) -> list[str]:
    """The lines of a notebook's text that speak of what only the site's page has, but those that
    say it is the page's ("On the site's page, a PyTorch version ...")."""
    return [
        line
        for cell in notebook["cells"]
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).split("\n")
        if PAGE_ONLY_WORDS.search(line) and "site's page" not in line
    ]


@pytest.mark.parametrize("name", [*PAGES, *(f"examples/{slug}" for slug in sorted(examples.available()))])
def test_a_notebooks_text_describes_the_notebook(name):
    """The scaling notebook spoke of 'the two tabs' and the mistakes one of scripts 'folded under'
    each block: a notebook has one cell per script, no tabs and nothing folded. Such a paragraph
    of the page gets an '<!-- in the notebook: ... -->' comment with the notebook's words."""
    notebook = json.loads((nbs.NOTEBOOKS_DIR / f"{name}.ipynb").read_text(encoding="utf-8"))
    assert not page_only_words(notebook), f"notebooks/{name}.ipynb: " + " | ".join(page_only_words(notebook))


def test_the_page_only_words_are_found():
    cell = {"cell_type": "markdown", "source": ["So the two tabs measure the same thing.\n", "The script is folded"]}
    nb = {"cells": [cell, {**cell, "source": ["On the site's page, its PyTorch tab draws other numbers."]}]}
    assert page_only_words(nb) == ["So the two tabs measure the same thing.", "The script is folded"]
    assert page_only_words({"cells": [{**cell, "cell_type": "code"}]}) == []


@pytest.mark.parametrize("name", PAGES)
def test_notebook_shows_what_the_page_includes(name):
    """What the page includes that a notebook cannot show as the page does: a file's section as
    code (never an empty block), a table that sits in a list item out of the list (nbconvert's
    Markdown would show it as raw text), a figure as a line with its title, and the exercises as
    questions with folded hints and solutions instead of the page's form."""
    nb = made(name)
    markdown = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert not EMPTY_FENCE.search(markdown), EMPTY_FENCE.search(markdown).group(0)
    assert not INDENTED_TABLE.search(markdown), INDENTED_TABLE.search(markdown).group(0)
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    figures = len(re.findall(r'--8<-- "docs/generated/(?:diagrams|[\w/]+heatmap)[^"]*"', page))
    assert markdown.count("*The site's page draws this: ") >= figures
    assert "<form" not in markdown and 'class="exercise' not in markdown
    exercises = load_exercises().get(name, ())
    assert markdown.count("<summary>Worked solution</summary>") == len(exercises)
    for k, ex in enumerate(exercises, 1):
        assert f"**Exercise {k}.** {ex.question}" in markdown


def test_a_figures_title_is_text_in_the_notebook():
    """A figure's title (it may hold an example's title, from a spec) lands in Markdown escaped
    (publish.escape.md_text): shown as typed, never markup."""
    from publish.generate.registry import pending

    path = "docs/generated/zz/figure.md"
    svg = '<svg role="img"><title>weights of “a *b* &lt;i&gt;x&lt;/i&gt; [c](d)”</title></svg>'
    with pending({ROOT / path: f"<!-- banner -->\n\n{svg}\n"}):
        lines = nbs._generated_include(path, "")
    shown = "weights of “a &ast;b&ast; &lt;i&gt;x&lt;/i&gt; &lsqb;c&rsqb;(d)”"
    assert lines == [f"*The site's page draws this: {shown}.*", ""]


def test_a_files_section_is_the_lines_between_its_markers():
    """publish.source.includes.section, the notebooks' reading of an include with a section: what
    pymdownx.snippets includes (the markers of a section inside it left out)."""
    code = (
        "a = 1\n# --8<-- [start:two]\nb = 2\n# --8<-- [start:in]\nc = 3\n# --8<-- [end:in]\n# --8<-- [end:two]\nd = 4\n"
    )
    assert includes.section(code, "two") == ["b = 2", "c = 3"]
    with pytest.raises(ValueError, match="no section 'three'"):
        includes.section(code, "three")


def test_the_imports_cell_is_grouped_as_ruffs_isort_wants_it():
    """The standard library's imports, a blank line, then the others (``make lint`` runs ruff's I001
    over the notebooks: a page whose scripts imported math and numpy got the cell
    "import math\\nimport numpy as np", which failed it); each line once, whatever the snippets' order."""
    lines = ["import numpy as np", "import math", "from pathlib import Path", "import numpy as np", "import json"]
    assert nbs.import_cell(lines) == "import json\nimport math\nfrom pathlib import Path\n\nimport numpy as np"
    assert nbs.import_cell(["import torch", "import numpy as np"]) == "import numpy as np\nimport torch"
    assert nbs.import_cell(["import numpy as np"]) == "import numpy as np"


@pytest.mark.parametrize("name", PAGES)
def test_code_cells_are_the_pages_snippets_in_order(name):
    """Every NumPy snippet the page includes, and every PyTorch one without a NumPy twin, in the
    page's order, each cell the file as the page shows it whole (publish.generate.snippets.shown_whole: no
    line for the build): no second copy of code that could drift."""
    included = [  # every script the page shows whole: the file, or its "script" section
        path
        for path, section in (
            includes.split_target(inc[1])
            for inc in map(includes.include, (DOCS / f"{name}.md").read_text(encoding="utf-8").split("\n"))
            if inc
        )
        if path.startswith("snippets/") and path.endswith(".py") and section in (None, "script")
    ]
    expected = [
        s
        for s in included
        if s.endswith("_numpy.py")
        or (s.endswith("_torch.py") and not (ROOT / s.replace("_torch.py", "_numpy.py")).exists())
    ]
    nb = made(name)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    # The imports once, first; then each snippet without its imports.
    texts = [shown_whole((ROOT / s).read_text(encoding="utf-8")) for s in expected]
    want_imports = nbs.import_cell([line for t in texts for line in nbs.imports(t)])
    assert code[0] == want_imports, (code[0], want_imports)
    code = code[1:]
    assert len(code) == len(expected) > 0, (code, expected)
    for source, snippet, text in zip(code, expected, texts, strict=True):
        assert source == nbs.without_imports(text), f"the cell for {snippet} differs"
        assert not nbs.imports(source), snippet
    # The one PyTorch cell, and only where the page's code has no NumPy version.
    torch_cells = [s for s in expected if s.endswith("_torch.py")]
    training = {
        "positional-encoding": ["snippets/positional_encoding/train_torch.py"],
        "attention-that-learns": ["snippets/attention_that_learns/train_torch.py"],
    }
    assert torch_cells == training.get(name, [])


# --- links -----------------------------------------------------------------------------------

MD_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
FENCED = re.compile(r"^\s*```.*?^\s*```", re.M | re.S)


def _markdown_cells(path: Path) -> str:
    return "\n\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", PAGES)
def test_every_link_of_the_page_is_a_link_to_the_site_in_its_notebook(name):
    """A link of the page keeps its words and, in the notebook, leads to the same page of the
    published site (site_url): a downloaded .ipynb has no site beside it to follow a relative link to."""
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8").split('!!! tip "This page as a notebook"')[0]
    links = [(w, t) for w, t in MD_LINK.findall(FENCED.sub("", page)) if not t.startswith(("http://", "https://"))]
    assert links, f"docs/{name}.md has no link to another page"
    markdown = _words("\n\n".join(c.source for c in made(name).cells if c.cell_type == "markdown"))
    for words, target in links:
        want = f"[{_words(nbs.without_claims(words))}]({nbs.link_address(target, name)})"
        assert want in markdown, f"notebooks/{name}.ipynb lacks the page's link {want}"


def test_after_an_edit_of_a_page_the_notebook_tests_say_to_run_make_update(tmp_path, monkeypatch):
    """Issue 51: after a link was added to a page, its notebook's content tests failed too, with
    "notebooks/masking.ipynb lacks the page's link" and no word of `make update`. They check the
    notebook the page gets now; the one test that fails is the one that says to run it."""
    edited = (DOCS / "masking.md").read_text(encoding="utf-8")
    heading = next(line for line in edited.split("\n") if line.startswith("# "))
    edited = edited.replace(heading, f"{heading}\n\nIts symbols are listed on [the page of symbols](notation.md).", 1)
    (tmp_path / "masking.md").write_text(edited, encoding="utf-8")
    monkeypatch.setitem(globals(), "DOCS", tmp_path)
    monkeypatch.setattr(nbs, "page_path", lambda page: tmp_path / f"{page}.md")
    test_every_link_of_the_page_is_a_link_to_the_site_in_its_notebook("masking")
    test_notebook_reads_like_its_page("masking")
    path = nbs.NOTEBOOKS_DIR / "masking.ipynb"
    stale = r"notebooks/masking\.ipynb differs from what the page .* run `make update`"
    with pytest.raises(AssertionError, match=stale):
        test_notebook_file_is_generated_and_current("masking", {path: nbs.dumps(nbs.notebook(NOTEBOOKS["masking"]))})


def test_no_link_of_a_notebook_is_relative():
    """In every notebook (the pages' and the worked examples'), a link is an absolute address; one
    to this site is a page's published address, never a .md path."""
    found = 0
    for path in sorted(nbs.NOTEBOOKS_DIR.rglob("*.ipynb")):
        for words, target in MD_LINK.findall(_markdown_cells(path)):
            found += 1
            where = f"{path.relative_to(ROOT)}: [{words}]({target})"
            assert re.match(r"https?://", target), f"{where} is relative: Jupyter cannot follow it"
            address = target.split("#")[0].split("?")[0]
            assert not address.endswith((".md", ".ipynb")), f"{where} names a source file, not a page"
    assert found >= 60, found


def test_a_link_address_is_the_pages_published_address():
    site = nbs.site_url()
    assert site == MKDOCS["site_url"] and site.startswith("https://")
    cases = {
        ("glossary.md#mask", "masking"): "glossary/#mask",
        ("playground.md?preset=bank_of_river", "real-numbers"): "playground/?preset=bank_of_river",
        ("#the-whole-calculation-in-code", "queries-keys-values"): "queries-keys-values/#the-whole-calculation-in-code",
        ("notebooks/scaling.ipynb", "scaling"): "notebooks/scaling/",
        ("index.md", "scaling"): "",
        ("examples/index.md", "scaling"): "examples/",
        ("../masking.md", "examples/the_cat_sat"): "masking/",
    }
    for (target, page), address in cases.items():
        assert nbs.link_address(target, page) == site + address, (target, page)
    for target in ("missing.md", "../outside.md"):
        with pytest.raises(ValueError, match=f"docs/masking.md links to '{re.escape(target)}', which is no file"):
            nbs.link_address(target, "masking")


def test_clean_turns_the_published_addresses_into_this_builds():
    site = nbs.site_url()
    html = (
        f'<div class="jp-RenderedMarkdown"><p><a href="{site}playground/?preset=x">p</a> '
        f'<a href="{site}glossary/#mask">g</a> <a href="{site}">home</a> <a href="https://example.org/">out</a></p></div>'
    )
    addresses = ((f"{site}playground/", "../../playground/"), (f"{site}glossary/", "../../glossary/"), (site, "../../"))
    out = clean(html, addresses=addresses)
    hrefs = re.findall(r'href="([^"]*)"', out)
    assert hrefs == ["../../playground/?preset=x", "../../glossary/#mask", "../../", "https://example.org/"]


# --- the built site ---------------------------------------------------------------------------


def _built(strict_build) -> Path:
    assert strict_build.proc.returncode == 0, strict_build.proc.stdout + strict_build.proc.stderr
    return strict_build.dir


def _page(strict_build, page: str) -> BeautifulSoup:
    """A built notebook page, parsed once per worker for the tests that read it (parsing each for
    every test took seconds): they only read it."""
    html = _built(strict_build) / "notebooks" / page / "index.html"
    assert html.is_file(), f"the build has no {html.relative_to(strict_build.dir)}"
    return _parsed(html)


@functools.cache
def _parsed(html: Path) -> BeautifulSoup:
    return BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")


def _code_cells(soup: BeautifulSoup):
    """(cell id, code shown, stdout shown, other outputs) for each code cell of a built notebook."""
    out = []
    for cell in soup.select(".jp-CodeCell[id^='cell-']"):
        code = cell.select_one(".jp-InputArea pre code")
        stdout = "".join(
            pre.get_text() for pre in cell.select(".jp-OutputArea-output[data-mime-type='text/plain'] pre")
        )
        other = [
            o.get("data-mime-type")
            for o in cell.select(".jp-OutputArea-output")
            if o.get("data-mime-type") != "text/plain"
        ]
        out.append((cell["id"].removeprefix("cell-"), code.get_text() if code else None, stdout, other))
    return out


@pytest.mark.parametrize("name", PAGES)
def test_built_notebook_prints_what_the_page_shows(strict_build, name):
    """Each cell of the built page shows exactly the recorded output of its snippet: the .out file
    the page includes under the same code, so every number agrees with the page."""
    cells = _code_cells(_page(strict_build, name))
    snippets = [ROOT / b.snippet for b in nbs.notebook_snippets(name)]
    assert [c[0] for c in cells] == ["imports"] + [f"{i:02d}-{p.stem}" for i, p in enumerate(snippets, start=1)]
    assert cells[0][2] == "" and not cells[0][3], cells[0]
    for (cell_id, code, stdout, other), snippet in zip(cells[1:], snippets, strict=True):
        want = nbs.without_imports(shown_whole(snippet.read_text(encoding="utf-8")))
        assert code is not None and code.rstrip("\n") == want, cell_id
        assert not other, f"{name}: cell {cell_id} has outputs other than printed text: {other}"
        recorded = snippet.with_suffix(".out").read_text(encoding="utf-8")
        assert stdout == recorded, (
            f"notebook {name}, cell {cell_id}: the build's output differs from {snippet.with_suffix('.out').name}:\n"
            f"--- built\n{stdout}\n--- recorded\n{recorded}"
        )


@pytest.mark.parametrize("name", PAGES)
def test_built_notebook_offers_its_file_for_download_with_the_outputs_it_shows(strict_build, name):
    """The download link's file is the notebook the page was rendered from: the source's cells, each
    code cell with the output the page shows under it (the snippet's recording)."""
    soup = _page(strict_build, name)
    link = soup.select_one("p.notebook-download a[download]")
    assert link is not None, f"notebooks/{name}/ has no download link"
    # a browser saves it under the name its address ends in (an empty download attribute), as the
    # link says (tests/browser/test_notebooks_and_figures.py downloads one)
    assert link["download"] == "" and link["href"] == f"{name}.ipynb", link
    assert link.get_text() == f"Download the notebook ({name}.ipynb)"
    target = (strict_build.dir / "notebooks" / name / link["href"]).resolve()
    assert target.is_file(), f"the download link {link['href']!r} names no file of the built site"
    downloaded = nbformat.read(target, as_version=4)
    nbformat.validate(downloaded)
    source = nbformat.read(nbs.NOTEBOOKS_DIR / f"{name}.ipynb", as_version=4)
    assert [(c.id, c.cell_type, c.source) for c in downloaded.cells] == [
        (c.id, c.cell_type, c.source) for c in source.cells
    ]
    shown = {cell_id: stdout for cell_id, _, stdout, _ in _code_cells(soup)}
    for cell in (c for c in downloaded.cells if c.cell_type == "code"):
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        assert text == shown[cell.id], f"{target.name}, cell {cell.id}: the download's output is not the page's"
        assert cell.execution_count is not None and "execution" not in cell.metadata, cell.id


def test_every_downloadable_notebook_has_the_output_of_every_cell_that_prints(strict_build):
    """Every .ipynb of the built site (the pages' and the worked examples'): each code cell that
    calls print has printed text under it, and no cell shows an error."""
    site = _built(strict_build)
    notebooks = sorted(site.rglob("*.ipynb"))
    assert len(notebooks) >= len(PAGES) + 5, notebooks
    printing = 0
    for path in notebooks:
        for cell in (c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"):
            kinds = [o.output_type for o in cell.outputs]
            assert "error" not in kinds, f"{path.relative_to(site)}, cell {cell.id}: {kinds}"
            if any(
                isinstance(n, ast.Call) and getattr(n.func, "id", "") == "print"
                for n in ast.walk(ast.parse(cell.source))
            ):
                printing += 1
                text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
                assert text.strip(), f"{path.relative_to(site)}, cell {cell.id} prints, and the file shows no output"
    assert printing >= 30, printing


def _in_build(site: Path, path: Path, fragment: str, where: str) -> None:
    """``path`` (under the build) is a file of the build, or a folder with its page; ``fragment``
    an id on it."""
    page = path / "index.html" if path.is_dir() else path
    assert page.is_file() and page.resolve().is_relative_to(site.resolve()), f"{where} leads to no page of the build"
    if fragment:
        assert f'id="{fragment}"' in page.read_text(encoding="utf-8"), f"{where}: no #{fragment} there"


def test_the_notebooks_links_lead_to_pages_of_the_build(strict_build):
    """A notebook page of the site links within this build (the hook turns the notebook's published
    addresses into its pages' URLs), each link to a page and fragment that exist; in every .ipynb a
    reader downloads, each link to the site's published address names a page of the build too."""
    site = _built(strict_build)
    base = nbs.site_url()
    local = 0
    for html in sorted((site / "notebooks").rglob("*/index.html")):
        text = html.read_text(encoding="utf-8")
        content = text[text.index('class="jupyter-wrapper') :]
        for href in re.findall(r'<a\b[^>]*?\bhref="([^"]*)"', content):
            where = f"{html.relative_to(site)}: {href}"
            assert not href.startswith(base), f"{where} leaves this build for the published site"
            if href.startswith(("#", "http://", "https://")):
                continue
            local += 1
            path, _, fragment = href.partition("#")
            _in_build(site, html.parent / path.split("?")[0], fragment, where)
    assert local >= 60, local
    published = 0
    for nb in sorted(site.rglob("*.ipynb")):
        for _, target in MD_LINK.findall(_markdown_cells(nb)):
            if target.startswith(base):
                published += 1
                path, _, fragment = target.removeprefix(base).partition("#")
                _in_build(site, site / path.split("?")[0], fragment, f"{nb.relative_to(site)}: {target}")
    assert published >= 60, published


def test_every_notebook_page_links_back_to_its_page(strict_build):
    """Each notebook page (the articles' and the worked examples') links to the page it comes
    from, by that page's heading: the notebook's own text names it so, in words only. (Only the
    paragraph and the heading are parsed: parsing whole pages took seconds.)"""
    site = _built(strict_build)
    pages = sorted(p.parent for p in (site / "notebooks").rglob("index.html") if p.parent != site / "notebooks")
    assert len(pages) >= len(PAGES), pages
    for folder in pages:
        rel = folder.relative_to(site / "notebooks")
        found = re.findall(r'<p class="notebook-download">.*?</p>', (folder / "index.html").read_text(encoding="utf-8"))
        assert len(found) == 1, f"notebooks/{rel}/: {len(found)} download paragraphs"
        links = BeautifulSoup(found[0], "html.parser").select("a:not([download])")
        assert len(links) == 1, f"notebooks/{rel}/: {len(links)} links back to its page"
        target = (folder / links[0]["href"] / "index.html").resolve()
        assert target == (site / rel / "index.html").resolve(), f"notebooks/{rel}/ links back to {links[0]['href']}"
        [heading] = re.findall(r"<h1\b.*?</h1>", target.read_text(encoding="utf-8"), re.S)[:1]
        h1 = BeautifulSoup(heading, "html.parser").h1
        for a in h1.select("a.headerlink"):
            a.decompose()
        # The page's heading, as the notebook's introduction names it.
        assert links[0].get_text() == h1.get_text().strip(), (rel, links[0].get_text(), h1.get_text())


def test_the_notebooks_page_lists_every_notebook_with_what_it_needs(strict_build):
    """/notebooks/ lists the pages' notebooks in the nav's order, each by its page's title and
    with what it needs (PyTorch only where a code cell imports it), and says which versions made
    the outputs: those of the recorded outputs (their fingerprint files)."""
    site = _built(strict_build)
    soup = BeautifulSoup((site / "notebooks" / "index.html").read_text(encoding="utf-8"), "html.parser")
    rows = [tr.find_all("td") for tr in soup.select("article table tr") if tr.find("td")]
    assert [(folder_of(cells[0].a["href"]), cells[0].get_text()) for cells in rows] == [
        (nb.page, nbs.title(nb.page)) for nb in NOTEBOOKS.values()
    ]
    for cells in rows:
        page = folder_of(cells[0].a["href"])
        code = "\n".join(
            "".join(c["source"])
            for c in json.loads((nbs.NOTEBOOKS_DIR / f"{page}.ipynb").read_text())["cells"]
            if c["cell_type"] == "code"
        )
        want = "NumPy and PyTorch" if re.search(r"^import torch", code, re.M) else "NumPy"
        assert cells[1].get_text() == want, page
    versions = recorded_versions()
    assert versions, "the recordings were not all made with the same versions: run `make update --all`"
    text = soup.select_one("article").get_text(" ")
    for name, label in (("python", "Python"), ("numpy", "NumPy"), ("torch", "PyTorch")):
        assert f"{label} {versions[name].split('+')[0]}" in text, (name, versions[name])
    home = BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser")
    nav = {a["href"] for a in home.select("nav a")}
    assert "notebooks/" in nav, "the notebooks' page is not in the navigation"


def test_the_install_commands_cover_every_import_of_the_notebooks():
    """The notebooks' page's shell block (which no test can run: it downloads) installs, per line,
    what every notebook imports: the first line what a NumPy-only notebook needs, plus Jupyter; the
    PyTorch line what the others add. Each import name maps to its distribution as installed here."""
    from importlib.metadata import packages_distributions

    page = (DOCS / "notebooks" / "index.md").read_text(encoding="utf-8")
    [block] = re.findall(r"^```bash\n(.*?)^```", page, re.M | re.S)
    lines = [line.split("#")[0].split() for line in block.splitlines()]
    installs = [line[4:] for line in lines if line[:4] == ["python", "-m", "pip", "install"]]
    assert len(installs) == 2 and "jupyterlab" in installs[0], installs
    assert ["jupyter", "lab"] in lines, block
    dists = packages_distributions()
    for nb in NOTEBOOKS.values():
        code = "\n".join(
            "".join(c["source"])
            for c in json.loads((nbs.NOTEBOOKS_DIR / f"{nb.page}.ipynb").read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == "code"
        )
        modules = set(re.findall(r"^(?:import|from) (\w+)", code, re.M)) - set(sys.stdlib_module_names)
        needed = {d.lower() for m in modules for d in dists[m]}
        offered = set(installs[0]) | (set(installs[1]) if nbs.libraries(nb.page) != "NumPy" else set())
        assert needed <= offered, (nb.page, needed, offered)


def folder_of(href: str) -> str:
    """The notebook page a link of /notebooks/ leads to: "masking/" -> "masking"."""
    return href.strip("/").rsplit("/", 1)[-1]


CDN_WORDS = re.compile(r"mathjax|require\.?js|mermaid|cdnjs|jsdelivr|unpkg|clipboard-copy", re.I)


@pytest.mark.parametrize("name", PAGES)
def test_built_notebook_loads_nothing_from_elsewhere(strict_build, name):
    """No script or style of mkdocs-jupyter's template is left: no CDN URL, nothing inline."""
    html = (_built(strict_build) / "notebooks" / name / "index.html").read_text(encoding="utf-8")
    soup = _page(strict_build, name)
    assert soup.select_one("article").find(["script", "style", "link"]) is None
    assert not CDN_WORDS.search(html), CDN_WORDS.search(html).group(0)
    loads = [t.get("src") for t in soup.find_all(src=True)]
    loads += [t.get("href") for t in soup.find_all("link") if "canonical" not in (t.get("rel") or [])]
    outside = [u for u in loads if re.match(r"(https?:)?//", u or "")]
    assert not outside, f"notebooks/{name}/ loads from other hosts: {outside}"
    # JupyterLab's CSS alone was 590 kB; a notebook page now carries its page's prose, tables and
    # build-time math (about 150-220 kB), so a page over 400 kB has taken the CSS back in
    assert len(html) < 400_000, f"notebooks/{name}/index.html is {len(html)} bytes: did the inline CSS come back?"


def test_math_in_a_notebook_is_rendered_by_katex(strict_build):
    """A heading with math ("Why $-\\infty$ ..."): KaTeX's HTML in the content, plain text in the
    table of contents."""
    soup = _page(strict_build, "masking")
    math = soup.select(".jupyter-wrapper .arithmatex")
    assert math and all(m.select_one(".katex annotation").get_text() for m in math), math
    assert "-\\infty" in [m.select_one("annotation").get_text() for m in math]
    toc = [" ".join(a.get_text().split()) for a in soup.select(".md-sidebar--secondary .md-nav__link")]
    assert "Why −∞ before the softmax, and not 0 after it" in toc, toc
    assert not any("$" in t or "\\" in t for t in toc), toc


def test_clean_removes_the_template_and_renders_math():
    html = (
        '<script src="https://cdn.example/mathjax.js"> </script><style>pre { line-height: 125%; }</style>'
        '<div class="jp-RenderedMarkdown"><h2>Why $-\\infty$ and $$x^2$$<a class="anchor-link" href="#w">¶</a>'
        "</h2><p><code>$kept$</code> costs $5</p></div>"
        '<div class="jp-InputArea"><clipboard-copy for="cell-1">c</clipboard-copy>'
        '<div class="highlight"><pre><span>print(1)</span></pre></div>'
        '<div class="clipboard-copy-txt">print(1)</div></div>'
        '<div class="jp-OutputArea-output highlight" tabindex="0"><pre>1\n</pre></div>'
    )
    out = clean(html, notebook="x.ipynb")
    assert "<script" not in out and "<style" not in out and "clipboard" not in out and "cdn" not in out
    soup = BeautifulSoup(out, "html.parser")
    inline, display = soup.select(".arithmatex")
    assert inline.name == "span" and inline.select_one(".katex annotation").get_text() == "-\\infty"
    assert inline.select_one(".katex-display") is None
    assert display.name == "div" and display.select_one(".katex-display annotation").get_text() == "x^2"
    assert "<code>$kept$</code> costs $5" in out  # code, and a lone dollar, are not math
    assert "<pre><code><span>print(1)</span></code></pre>" in out
    assert '<span class="filename">Output</span><pre><code>1\n</code></pre>' in out
    assert 'class="headerlink"' in out and "tabindex" not in out
    assert '<a download="" href="x.ipynb">' in out
    assert plain("Why $-\\infty$ and $$x^2$$") == "Why −∞ and x^2"
    # KaTeX's HTML as KaTeX wrote it, as on the pages (not re-serialized by the parser)
    infinity = katex_math.in_page("-\\infty", False)
    assert f'<span class="arithmatex">{infinity}</span>' in out
    display = katex_math.in_page("x^2", True)
    assert f'<div class="arithmatex" style="{katex_math.height_style(display)}">{display}</div>' in out


def test_a_notebooks_formula_keeps_the_punctuation_after_it_as_on_the_pages():
    """A Markdown cell's "width $d$:" keeps the colon with the formula (span.nowrap, as
    publish/markdown/katex_math.py does on the pages); a long formula does not; a short one of several
    boxes is kept whole (the class nowrap on its own element), one of one box needs nothing."""
    long = r"q \cdot k = q_1 k_1 + q_2 k_2 + q_3 k_3"
    out = clean(f'<div class="jp-RenderedMarkdown"><p>width $d$: and ${long}$. End</p></div>')
    d = katex_math.in_page("d", False)
    assert f'<span class="nowrap"><span class="arithmatex">{d}</span>:</span> and ' in out
    assert f'<span class="arithmatex">{katex_math.in_page(long, False)}</span>. End' in out
    short = clean('<div class="jp-RenderedMarkdown"><p>so $d = 512$ and $h_t$ end</p></div>')
    assert f'<span class="arithmatex nowrap">{katex_math.in_page("d = 512", False)}</span> and ' in short
    assert f'<span class="arithmatex">{katex_math.in_page("h_t", False)}</span> end' in short


def test_the_build_logs_no_line_per_notebook(strict_build):
    """A build's log (and `mkdocs serve`'s after each edit) holds what a contributor must read, the
    numbers audit's messages among them: not mkdocs-jupyter's lines for each notebook converted and
    copied beside its page (40 a build; its warnings still show)."""
    log = strict_build.proc.stdout + strict_build.proc.stderr
    assert strict_build.proc.returncode == 0, log[-2000:]
    assert "Documentation built" in log, log[-2000:]
    assert "jupyter file" not in log and "Converting notebook" not in log, log[-2000:]


def test_clean_keeps_private_use_characters_and_still_renders_formulas():
    """The build marks formulas with a private-use character; a notebook that holds some (a spec's
    token U+E000 once crashed the strict build here) keeps them, and its formulas still render."""
    out = clean('<div class="jp-RenderedMarkdown"><p>\ue000 &#xE001; &#57346; \ue0030\ue003 $x$</p></div>')
    assert "\ue000 \ue001 \ue002 \ue0030\ue003 " in out
    assert f'<span class="arithmatex">{katex_math.in_page("x", False)}</span>' in out


def test_clean_refuses_an_image_without_alt_text():
    """nbconvert would give it "No description has been provided" (no notebook of the site shows an image)."""
    html = '<div class="jp-RenderedMarkdown"><p><img src="x.png"></p></div>'
    with pytest.raises(ValueError, match=r"x\.ipynb: an image without alt text"):
        clean(html, notebook="x.ipynb")


def test_a_formula_katex_rejects_in_a_notebook_names_it():
    html = '<div class="jp-RenderedMarkdown"><p>The mask $\\frac{1$ here.</p></div>'
    with pytest.raises(KatexError, match=r"\\\(\\frac\{1\\\).*Unexpected end of input"):
        clean(html)


# --- no build runs a notebook; a kernel prints what each one shows -------------------------------


def test_no_build_runs_a_notebook():
    assert JUPYTER["execute"] is False and "execute_ignore" not in JUPYTER
    assert JUPYTER["allow_errors"] is False
    assert JUPYTER["include_source"] is True  # the download: the saved notebook, outputs and all
    assert JUPYTER["include_requirejs"] is False
    assert "publish/mkdocs/hooks/notebook_pages.py" in MKDOCS["hooks"]
    assert "notebook_cache" not in (ROOT / "publish/mkdocs/hooks/notebook_pages.py").read_text(encoding="utf-8")


def _printed(nb) -> list[tuple[str, int | None, str, list[str]]]:
    """(id, execution count, printed text, kinds of any other output) of each code cell."""
    return [
        (
            c.id,
            c.execution_count,
            "".join(o.get("text", "") for o in c.outputs if o.output_type == "stream" and o.get("name") == "stdout"),
            [o.get("name") or o.output_type for o in c.outputs if o.get("name") != "stdout"],
        )
        for c in nb.cells
        if c.cell_type == "code"
    ]


@pytest.mark.parametrize("name", PAGES)
def test_a_kernel_running_the_notebook_from_the_top_prints_what_it_shows(name):
    """The saved outputs are a run: a Jupyter kernel running the notebook from the top, as a reader
    does, prints in each cell exactly the text the file shows under it, nothing on stderr, no
    error, and numbers the cells as the file does. (Kept under the notebook's key in
    .cache/notebooks/: the same bytes in the same environment are run once.)"""
    path = nbs.NOTEBOOKS_DIR / f"{name}.ipynb"
    saved = nbformat.read(path, as_version=4)
    ran = nbformat.read(notebook_cache.Cache(notebook_cache.CACHE_DIR, "python3").ensure([path])[path], as_version=4)
    want = _printed(saved)
    assert all(count is not None for _, count, _, _ in want), f"{name}: a code cell is saved as never run"
    for (cell_id, count, text, other), (_, ran_count, ran_text, ran_other) in zip(want, _printed(ran), strict=True):
        assert not ran_other and not other, f"{name}, cell {cell_id}: not printed text: {ran_other or other}"
        assert ran_count == count, f"{name}, cell {cell_id}: saved as run {count}, run {ran_count} from the top"
        assert ran_text == text, f"{name}, cell {cell_id}: a kernel prints\n{ran_text}\nand the file shows\n{text}"


# What a cell may use and still be keyed by its own bytes: numpy, torch, nothing read from outside.
OUTSIDE = re.compile(r"\bopen\(|\.load\(|read_text|read_bytes|environ|__file__|\binput\(|urlopen|subprocess")


# What a cell that reads a file of the repository it names (publish.snippets.data_files: the
# language model's weights, which the key covers) may use for it, beside numpy or torch.
READS_A_FILE = {"base64", "json", "pathlib"}


@pytest.mark.parametrize("name", PAGES)
def test_a_notebooks_output_depends_only_on_its_bytes_and_the_kernel(name):
    """The cache's key (the notebook's bytes, the files of the repository its code names, the
    kernel's environment) is the whole of what its output depends on: its cells import numpy or
    torch only and read nothing from elsewhere, but a file of the repository they name."""
    from publish.generate.snippets import data_files

    nb = nbformat.read(nbs.NOTEBOOKS_DIR / f"{name}.ipynb", as_version=4)
    named = data_files("\n".join(c.source for c in nb.cells if c.cell_type == "code"))
    allowed = {"numpy", "torch"} | (READS_A_FILE if named else set())
    for cell in (c for c in nb.cells if c.cell_type == "code"):
        imports = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", cell.source, re.M))
        assert imports <= allowed, f"{name}, cell {cell.id} imports {sorted(imports)}"
        reads = OUTSIDE.search(cell.source)
        assert not reads or (named and reads.group(0) == "read_text"), (
            f"{name}, cell {cell.id} reads {reads.group(0)!r}"
        )


def test_the_key_covers_the_files_a_notebook_names():
    """The language model's notebooks read its weights: a new weights file is a new key, so a run
    made with the old weights is never served for the new (the other notebooks' keys do not move)."""
    from selfattn_ref import language_model as lm

    env = notebook_cache.environment()
    for name, names_it in (("next-word", True), ("trained-model", True), ("masking", False)):
        raw = (nbs.NOTEBOOKS_DIR / f"{name}.ipynb").read_bytes()
        same = notebook_cache.key(raw, "python3", False, env, files={lm.DATA: lm.DATA.read_bytes()})
        other = notebook_cache.key(raw, "python3", False, env, files={lm.DATA: b"{}"})
        assert same == notebook_cache.key(raw, "python3", False, env)
        assert (other != same) == names_it, name


def test_the_key_covers_the_notebook_and_the_kernels_environment():
    env = notebook_cache.environment()
    assert {"python", "numpy", "torch", "ipykernel"} <= set(env) and "missing" not in (env["numpy"], env["torch"])
    base = notebook_cache.key(b"{}", "python3", False, env)
    assert notebook_cache.key(b"{}", "python3", False, dict(env)) == base
    assert notebook_cache.key(b"{} ", "python3", False, env) != base
    assert notebook_cache.key(b"{}", "python3", False, {**env, "numpy": "0.0"}) != base
    assert notebook_cache.key(b"{}", "python3", False, {**env, "python": "CPython 3.0"}) != base
    assert notebook_cache.key(b"{}", "other", False, env) != base
    assert notebook_cache.key(b"{}", "python3", True, env) != base


def test_without_claims_keeps_the_number_and_what_inline_code_shows():
    line = "puts 66.5%{{weights[bank, bank]}} on itself, $2${{d_k; √d_k}} and `x{{kept}}`, ``a{{b}}`` {{c}}."
    assert nbs.without_claims(line) == "puts 66.5% on itself, $2$ and `x{{kept}}`, ``a{{b}}`` ."
    assert nbs.without_claims("no claim here") == "no claim here"


def test_a_sentence_for_the_notebook_replaces_its_paragraph_and_holds_no_number(monkeypatch, tmp_path):
    """``<!-- in the notebook: ... -->`` gives the notebook a sentence in place of the next
    paragraph (one about the page's tabs); a number there would escape the numbers audit."""
    page = tmp_path / "x.md"
    monkeypatch.setattr(nbs, "page_path", lambda name: page)
    monkeypatch.setattr(nbs, "notebook_snippets", lambda name: [])
    page.write_text(
        "# X\n\n<!-- in the notebook: The code below does it. -->\n\nThe two tabs below\ndo it two ways.\n\nNext.\n",
        encoding="utf-8",
    )
    assert nbs.page_parts("x") == [("markdown", "The code below does it.\n\nNext.")]
    page.write_text("# X\n\n<!-- in the notebook: It takes 3 steps. -->\n\nThe tabs below.\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"docs/x\.md: .* holds a digit"):
        nbs.page_parts("x")
