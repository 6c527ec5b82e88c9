"""MkDocs hook (mkdocs.yml, ``hooks:``): the notebook pages that mkdocs-jupyter renders, made
to load nothing from elsewhere and to look and work like the other pages.

mkdocs-jupyter renders each notebook page with its own template and code, through the options
mkdocs.yml gives it; nothing of it, nbconvert or Jinja is replaced (tests/tools/test_notebook_pages.py).
This hook works on the HTML it made, in MkDocs' ``on_page_content``. That HTML has, beside the cells:

- a ``<script src="...">`` for MathJax (from a CDN unless ``custom_mathjax_url`` is set; here it
  is set to "", which leaves an empty ``src``) and its configuration;
- a module script that imports mermaid from a CDN when a cell has a diagram;
- 590 kB of inline ``<style>``: all of JupyterLab's CSS and Pygments' default colours, some of
  it unscoped (``pre { line-height: 125% }`` restyles every code block of the page);
- GitHub's ``<clipboard-copy>`` element, its script, and a hidden copy of each cell's code.

No option of mkdocs-jupyter 0.26 leaves these out (0.27's ``custom_template`` could, but turns its
cache off), and its math is MathJax's, loaded from an address: this hook removes all of these, and
keeps notebook pages out of the search index. Code and
output keep the ``highlight`` class (``highlight_extra_classes``) and get a ``<code>`` element
inside their ``<pre>``, so Material styles them as it styles every code block (with the contrast
fixes of extra.css) and gives them its own copy button; an output gets the title "Output", as
on the pages. Math in Markdown cells (``$...$``, ``$$...$$``, as Jupyter writes it) is rendered
with the vendored KaTeX as on the pages (publish/markdown/katex_math.py), inside the wrapper that
pymdownx.arithmatex writes; in the table of contents, as plain text. Long names in inline code
break between their parts, as on the pages (publish/markdown/path_breaks.py). The notebooks link to the
site's pages at their published addresses (publish/generate/notebooks.py), which work in a downloaded copy;
here each becomes a link to the same page of this build. A link to download the ``.ipynb`` and one
back to the page follow the introduction. The few rules the cells still need
are in extra.css.
"""

from __future__ import annotations

import functools
import html
import logging
import re
import shutil
import tempfile

import markupsafe
from bs4 import BeautifulSoup, Comment, NavigableString, Tag

from publish.markdown import code_markup, katex_math, path_breaks
from publish.markdown.postprocessor import VERBATIM

# The math of a Markdown cell's rendered text, read as Jupyter's MathJax reads it (processEscapes):
# $$...$$ and $...$ are math, \$ is a dollar and \\ a backslash (publish/escape.py writes a
# notebook's text so). Split by _PIECES, the odd pieces are these, in order.
_PIECES = re.compile(r"(\\[\\$]|\$\$.+?\$\$|(?<![\\$])\$(?!\$).+?(?<![\\$])\$)", re.S)
_ESCAPED = {"\\$": "$", "\\\\": "\\"}


def _pieces(text: str) -> list[tuple[str, str]]:
    """``text`` as ("text", ...), ("inline", tex) and ("display", tex) pieces, escapes read."""
    out: list[tuple[str, str]] = []
    for i, piece in enumerate(_PIECES.split(text)):
        if i % 2 == 0 or piece in _ESCAPED:
            piece = _ESCAPED.get(piece, piece)
            if out and out[-1][0] == "text":
                out[-1] = ("text", out[-1][1] + piece)
            elif piece:
                out.append(("text", piece))
        elif piece.startswith("$$"):
            out.append(("display", piece[2:-2]))
        else:
            out.append(("inline", piece[1:-1]))
    return out


def is_notebook(page) -> bool:
    """Whether ``page`` (or a file) is a notebook's page."""
    return getattr(page, "file", page).src_uri.endswith(".ipynb")


def plain(text: str) -> str:
    """``$x$`` and ``$$x$$`` in ``text`` as plain text (katex_math.plain_text): ``$-\\infty$`` → ``−∞``;
    ``\\$`` a dollar, ``\\\\`` a backslash (:func:`_pieces`)."""
    return "".join(value if kind == "text" else katex_math.plain_text(value) for kind, value in _pieces(text))


# Where a formula goes in the cleaned HTML: a private-use character around its number, put in as
# text and replaced by KaTeX's HTML once the page is a string again (so KaTeX's HTML reaches the
# page as KaTeX wrote it, as on the pages, instead of through the parser and back). The character
# is one the notebook does not hold (as itself or as a character reference): whatever it holds, no
# text of it is taken for a slot.


def _slot_mark(html: str) -> str:
    lower = html.lower()
    for code in range(0xE000, 0xF900):
        if chr(code) not in html and f"&#{code};" not in lower and f"&#x{code:x};" not in lower:
            return chr(code)
    raise ValueError("a notebook holds every private-use character of the Basic Multilingual Plane")


def _mark_math(cells: list[Tag], mark: str) -> list[str]:
    """Each formula of the Markdown ``cells`` replaced by a slot (its number between two ``mark``);
    returns the formulas' HTML (pymdownx.arithmatex's wrapper around KaTeX's output), slot by slot."""
    rendered: list[str] = []
    for cell in cells:
        for node in list(cell.find_all(string=True)):
            if not isinstance(node, NavigableString) or isinstance(node, Comment):
                continue
            if ("$" not in node and "\\" not in node) or node.find_parent([*VERBATIM, "code"]):
                continue
            pieces = _pieces(str(node))
            if pieces == [("text", str(node))]:
                continue
            new = []
            for i, (kind, tex) in enumerate(pieces):
                if kind == "text":
                    if tex:
                        new.append(NavigableString(tex))
                    continue
                display = kind == "display"
                formula = katex_math.in_page(tex, display)
                # As on the pages: a formula that keeps to the punctuation after it takes it along,
                # and a short one is kept whole.
                rest = pieces[i + 1][1] if i + 1 < len(pieces) and pieces[i + 1][0] == "text" else ""
                after = katex_math.closing_punctuation(rest)
                if not display and after and katex_math.keeps_to_its_punctuation(tex, formula):
                    kept = f'<span class="arithmatex">{formula}</span>{markupsafe.escape(after)}'
                    html = f'<span class="nowrap">{kept}</span>'
                    pieces[i + 1] = ("text", rest[len(after) :])
                elif not display and katex_math.held_whole(tex, formula):
                    html = f'<span class="arithmatex nowrap">{formula}</span>'
                elif display:  # with its line's height, as on the pages (extra.css's placeholder)
                    html = f'<div class="arithmatex" style="{katex_math.height_style(formula)}">{formula}</div>'
                else:
                    html = f'<span class="arithmatex">{formula}</span>'
                new.append(NavigableString(f"{mark}{len(rendered)}{mark}"))
                rendered.append(html)
            node.replace_with(*new)
    return rendered


def _with_code(soup: BeautifulSoup, pre: Tag) -> Tag:
    """``<pre>...</pre>`` as ``<pre><code>...</code></pre>``, the markup Material styles and copies;
    the new ``<pre>`` (the old one, renamed, is the ``<code>``: moving a highlighted block's
    thousand spans one by one into a new element took a fifth of the cleaning)."""
    outer = soup.new_tag("pre", attrs=pre.attrs)
    pre.name, pre.attrs = "code", {}
    pre.wrap(outer)
    return outer


def _name_after_cell(pre, part: str) -> None:
    """``<pre id="cell-01-name-code">`` (or ``-output``, ``-output-2``...): unique on the page."""
    cell = pre.find_parent(class_="jp-Cell", id=True)
    if cell is None:
        return  # Material numbers it
    pre["id"] = f"{cell['id']}-{part}"
    area = pre.find_parent(class_="jp-OutputArea")
    if part == "output" and area is not None and (index := area.find_all("pre").index(pre)):
        pre["id"] += f"-{index + 1}"


_STYLE = re.compile(r"<style\b[^>]*>.*?</style>", re.S | re.I)
_TEMPLATE_TAGS = {"style", "script", "clipboard-copy"}
_TEMPLATE_CLASSES = {"zeroclipboard-container", "clipboard-copy-txt"}  # the copy widget and its copy of the code
_WRAPPERS = {"jp-Cell-inputWrapper", "jp-OutputArea-output"}


def _walk(soup: BeautifulSoup) -> dict[str, list]:
    """What :func:`clean` changes, by kind, in document order, found in one walk over the page (a
    search of the tree for each kind took a third of the cleaning): the template's styles, scripts
    and copy widget, comments, the wrappers with a tabindex, images, cells with nbconvert's ids,
    code blocks, outputs with Material's code styles, heading anchors, links, Markdown cells."""
    found: dict[str, list] = {kind: [] for kind in ("template", "comment", "tabindex", "img", "cell", "highlight",
                                                    "output", "anchor", "link", "markdown")}  # fmt: skip
    for node in soup.descendants:
        if not isinstance(node, Tag):
            if isinstance(node, Comment):
                found["comment"].append(node)
            continue
        classes = node.get("class") or ()
        if node.name in _TEMPLATE_TAGS or not _TEMPLATE_CLASSES.isdisjoint(classes):
            found["template"].append(node)
        if node.has_attr("tabindex") and not _WRAPPERS.isdisjoint(classes):
            found["tabindex"].append(node)
        if node.name == "img":
            found["img"].append(node)
        if "jp-Cell" in classes and node.get("id", "").startswith("cell-id="):
            found["cell"].append(node)
        if "highlight" in classes:
            found["highlight"].append(node)
            if "jp-OutputArea-output" in classes:
                found["output"].append(node)
        if node.name == "a":
            if "anchor-link" in classes:
                found["anchor"].append(node)
            if node.has_attr("href"):
                found["link"].append(node)
        if "jp-RenderedMarkdown" in classes:
            found["markdown"].append(node)
    return found


def clean(
    html: str,
    notebook: str | None = None,
    article: tuple[str, str] | None = None,
    addresses: tuple[tuple[str, str], ...] = (),
) -> str:
    """The page's HTML without what the module docstring lists; with a download link to the
    file ``notebook`` (its name) if given, and a link back to the page it comes from if
    ``article`` (its URL relative to the notebook page, and its title) is given. A link to a
    published address of ``addresses`` ((address, URL relative to this page) pairs) becomes a link
    to that URL, its query and fragment kept: the notebook links to the published site (so that a
    downloaded copy's links work), its page on this build to this build's pages."""
    # The inline CSS first, with a regular expression (CSS holds no "</style>"): parsing
    # 590 kB of it as HTML would take longer than running a notebook.
    mark = _slot_mark(html)  # (the slots of _mark_math)
    soup = BeautifulSoup(_STYLE.sub("", html), "html.parser")
    found = _walk(soup)
    for node in found.pop("template") + found.pop("comment"):
        if not node.decomposed:  # (not in what went before it)
            node.decompose()
    # What was inside them is gone too: no pass below sees it, as none saw it when each searched the tree.
    found = {kind: [node for node in nodes if not node.decomposed] for kind, nodes in found.items()}
    # Cell wrappers are not controls: JupyterLab's tabindex would stop the keyboard at each one.
    for tag in found["tabindex"]:
        del tag["tabindex"]
    # nbconvert would say "No description has been provided".
    if img := next((img for img in found["img"] if not img.has_attr("alt")), None):
        raise ValueError(f"{notebook or 'a notebook'}: an image without alt text ({str(img)[:80]})")
    # nbconvert's cell ids ("cell-id=01-name") as valid CSS identifiers ("cell-01-name"). Material
    # names each code block after its closest element with an id (for the copy button's target),
    # so each <pre> gets one of its own: the code and the output of a cell are two blocks.
    for cell in found["cell"]:
        cell["id"] = "cell-" + cell["id"].removeprefix("cell-id=")
    for block in found["highlight"]:
        if block.find_parent(class_="jp-InputArea") is None:
            continue
        for pre in block.find_all("pre", recursive=False):
            _name_after_cell(_with_code(soup, pre), "code")
    for output in found["output"]:
        pre = output.find("pre", recursive=False)
        if pre is not None:
            pre = _with_code(soup, pre)
            _name_after_cell(pre, "output")
            title = soup.new_tag("span", attrs={"class": "filename"})
            title.string = "Output"
            pre.insert_before(title)
    # Material's permalink style (toc: permalink: true) for the cells' heading anchors.
    for a in found["anchor"]:
        a["class"] = ["headerlink"]
        a["title"] = "Permanent link"
    _local_links(found["link"], dict(addresses))
    formulas = _mark_math(found["markdown"], mark)
    # The download link's place, after the introduction: put in once the page is a string again,
    # as the formulas are, so that no pass below reads its text (a worked example's title).
    intro = found["markdown"][0] if found["markdown"] else soup
    intro.append(NavigableString(f"{mark}download{mark}"))
    cleaned = code_markup.unwrap_plain_spans(str(soup))  # lighter, looks the same (see the module)
    cleaned = path_breaks.break_paths(cleaned)  # long names in the text break between parts, as on the pages
    cleaned = re.sub(f"{mark}(\\d+){mark}", lambda m: formulas[int(m.group(1))], cleaned)
    return cleaned.replace(f"{mark}download{mark}", _download_link(notebook, article) if notebook else "", 1)


def _local_links(links: list[Tag], addresses: dict[str, str]) -> None:
    """Each of ``links`` that leads to a published address of ``addresses`` as the URL it maps to,
    query and fragment kept."""
    for a in links if addresses else ():
        href = a["href"]
        cut = min((i for i in (href.find("?"), href.find("#")) if i >= 0), default=len(href))
        local = addresses.get(href[:cut])
        if local is not None:
            a["href"] = local + href[cut:]


def _download_link(name: str, article: tuple[str, str] | None = None) -> str:
    """A link to the notebook file, which goes after the introduction, and one back to the page the
    notebook comes from (the notebook's introduction names that page in words). mkdocs-jupyter
    (include_source) copies the .ipynb, saved with its outputs, beside the page's HTML file, so
    its bare name is a relative link that works under any site_url and in the offline build; so
    does the page's relative URL."""
    soup = BeautifulSoup("", "html.parser")
    p = soup.new_tag("p", attrs={"class": "notebook-download"})
    a = soup.new_tag("a", attrs={"href": name, "download": ""})
    a.string = f"Download the notebook ({name})"
    p.append(a)
    p.append(" to run it in Jupyter")
    if article is not None:
        href, title = article
        p.append(", or go back to the page \u201c")  # the title in quotes: an example's is lower case
        back = soup.new_tag("a", attrs={"href": href})
        back.string = title  # text: BeautifulSoup escapes it
        p.append(back)
        p.append("\u201d")
    p.append(".")
    return str(p)


_HEADING = re.compile(r'<h([1-6]) id="([^"]*)"[^>]*>(.*?)</h\1>', re.S)


def shown_headings(page_html: str) -> dict[str, str]:
    """{id: the heading's text as the notebook page shows it} of nbconvert's HTML of a notebook:
    its anchor link left out, its math as plain text (:func:`plain`). mkdocs-jupyter names a page
    and its table of contents from the notebook's Markdown read by Python-Markdown, another
    renderer: a heading's character references and escapes (publish/escape.py, ``nb_text``) would
    show as typed in the source, ``&bsol;&dollar;``, not as the page shows them."""
    out = {}
    for m in _HEADING.finditer(page_html):
        soup = BeautifulSoup(m.group(3), "html.parser")
        for a in soup.find_all("a", class_=["anchor-link", "headerlink"]):
            a.decompose()
        out[html.unescape(m.group(2))] = plain(soup.get_text())
    return out


def _retitle(items, shown: dict[str, str]) -> None:
    for item in items:
        item.title = shown.get(item.id, plain(item.title))
        _retitle(item.children, shown)


# mkdocs-jupyter logs a line at INFO for each notebook it converts and each it copies beside its
# page, 40 on each build and rebuild, among which `mkdocs serve`'s log buried the numbers audit's
# messages: its warnings stay.
JUPYTER_LOGS = ("mkdocs.plugins.mkdocs_jupyter", "mkdocs.mkdocs-jupyter")


class _Serve:
    """Under `mkdocs serve` (one process, a build after each edit), mkdocs-jupyter keeps the pages it
    converted in its cache (its options ``cache`` and ``cache_dir``), in a folder of this process:
    a rebuild converts only the notebooks that changed. A build (``mkdocs build``, the tests, CI)
    converts every notebook and keeps nothing (mkdocs.yml: ``cache: false``)."""

    cache_dir: str | None = None


def on_startup(command: str, dirty: bool) -> None:
    if command == "serve" and _Serve.cache_dir is None:
        _Serve.cache_dir = tempfile.mkdtemp(prefix="mkdocs-jupyter-")


def on_config(config):
    for name in JUPYTER_LOGS:
        logging.getLogger(name).setLevel(logging.WARNING)
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        return config
    if _Serve.cache_dir is not None:
        jupyter.config["cache"], jupyter.config["cache_dir"] = True, _Serve.cache_dir
    if "mathjax_version" in jupyter.config:
        # mkdocs-jupyter 0.27 (which needs Python 3.12; the lock's 0.26.3 has no such option, and a
        # strict build refuses an option the plugin does not know): by default it writes a Markdown
        # cell's math for MathJax 4 and puts a MathJax loader, with its CDN address, in every page.
        # Version 2 keeps the math as Jupyter writes it, which clean() renders, and adds no loader.
        jupyter.config["mathjax_version"] = 2
    return config


def on_shutdown() -> None:
    if _Serve.cache_dir is not None:
        shutil.rmtree(_Serve.cache_dir, ignore_errors=True)
        _Serve.cache_dir = None


def on_page_content(html: str, page, config, files) -> str:
    """A notebook page, as mkdocs-jupyter rendered it, cleaned (:func:`clean`); its table of contents
    and title named as the page shows its headings (:func:`shown_headings`)."""
    if not is_notebook(page):
        return html
    # Out of the search index (Material's search reads page.meta): the code is the pages' own,
    # indexed there, and indexing it twice would add 50 kB to the index every page loads.
    page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    _retitle(page.toc.items, shown_headings(html))
    if page.toc.items and page.toc.items[0].level == 1:
        page.title = page.toc.items[0].title
    name = page.file.src_uri.rsplit("/", 1)[-1]
    return _clean_once(html, name, _article(page, files), _addresses(page.file, files))


def _addresses(file, files) -> tuple[tuple[str, str], ...]:
    """(published address, URL relative to the page of ``file``) of every page of the build: where
    the notebook's links to the site's pages (publish.generate.notebooks.link_address) lead from there."""
    from mkdocs.utils import get_relative_url

    from publish.generate import notebooks

    base = notebooks.site_url()
    return tuple(
        (base + notebooks.page_address(f.src_uri), get_relative_url(f.url, file.url))
        for f in files.documentation_pages()
    )


def _article(page, files) -> tuple[str, str] | None:
    """The page a notebook comes from (notebooks/<path>.ipynb from <path>.md): its URL relative to
    the notebook's page, and its name as the notebook's introduction gives it (the page's heading;
    a worked example's title); None for a notebook that no page makes."""
    src = page.file.src_uri
    if not src.startswith("notebooks/"):
        return None
    article = files.get_file_from_path(src.removeprefix("notebooks/").removesuffix(".ipynb") + ".md")
    if article is None:
        return None
    from publish.generate import notebooks  # (the notebooks' generator: imported only when a page needs it)

    stem = article.src_uri.removesuffix(".md")
    if stem in {nb.page for nb in notebooks.NOTEBOOKS}:
        title = notebooks.title(stem)  # its heading, as the notebook's introduction names the page
    else:  # a worked example's page: its title
        title = article.page.title if article.page is not None and article.page.title else page.title
    return article.url_relative_to(page.file), title


# Under `mkdocs serve` the process lives on: a notebook page whose HTML from mkdocs-jupyter is the
# same as at the last build (its cache made it) is not cleaned again, a second each on this machine.
_clean_once = functools.lru_cache(maxsize=128)(
    lambda html, notebook, article, addresses: clean(html, notebook=notebook, article=article, addresses=addresses)
)
