"""MkDocs hook (mkdocs.yml, ``hooks:``): the notebook pages that mkdocs-jupyter renders, made
to load nothing from elsewhere and to look and work like the other pages.

mkdocs-jupyter's HTML template (0.26) puts into each page, beside the cells:

- a ``<script src="...">`` for MathJax (from a CDN unless ``custom_mathjax_url`` is set; here it
  is set to "", which leaves an empty ``src``) and its configuration;
- a module script that imports mermaid from a CDN when a cell has a diagram;
- 590 kB of inline ``<style>``: all of JupyterLab's CSS and Pygments' default colours, some of
  it unscoped (``pre { line-height: 125% }`` restyles every code block of the page);
- GitHub's ``<clipboard-copy>`` element, its script, and a hidden copy of each cell's code.

This hook removes all of these, and keeps notebook pages out of the search index. Code and
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
import re

import jinja2
import markupsafe
from bs4 import BeautifulSoup, Comment, NavigableString

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


def _mark_math(soup: BeautifulSoup, mark: str) -> list[str]:
    """Each formula of the Markdown cells replaced by a slot (its number between two ``mark``);
    returns the formulas' HTML (pymdownx.arithmatex's wrapper around KaTeX's output), slot by slot."""
    rendered: list[str] = []
    for cell in soup.find_all(class_="jp-RenderedMarkdown"):
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


def _with_code(soup: BeautifulSoup, pre) -> None:
    """``<pre>...</pre>`` as ``<pre><code>...</code></pre>``, the markup Material styles and copies."""
    code = soup.new_tag("code")
    for child in list(pre.contents):
        code.append(child.extract())
    pre.append(code)


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
_CELL_ID = re.compile(r"^cell-id=")


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
    body, mark = clean_body(html, addresses, notebook)
    return with_download_link(body, mark, notebook, article)


def with_download_link(body: str, mark: str, notebook: str | None, article: tuple[str, str] | None) -> str:
    """``body`` from :func:`clean_body` with its download link (see :func:`clean`) where its mark is."""
    link = ""
    if notebook:
        soup = BeautifulSoup("", "html.parser")
        _download_link(soup, notebook, article)
        link = str(soup)
    return body.replace(f"{mark}download{mark}", link, 1)


def clean_body(html: str, addresses: tuple[tuple[str, str], ...] = (), notebook: str | None = None) -> tuple[str, str]:
    """What :func:`clean` makes of ``html`` (of the file named ``notebook``), with ``mark`` (a
    character the page does not hold) around the word "download" where the download link goes;
    and that mark. The second process of a build (publish/mkdocs/notebook_render.py) cleans the pages;
    the link names the page a notebook comes from, known only to the build."""
    # The inline CSS first, with a regular expression (CSS holds no "</style>"): parsing
    # 590 kB of it as HTML would take longer than running a notebook.
    mark = _slot_mark(html)  # (the slots of _mark_math)
    soup = BeautifulSoup(_STYLE.sub("", html), "html.parser")
    # find_all rather than CSS selectors (soupsieve): the same elements, in a fraction of the time.
    for tag in soup.find_all(["style", "script", "clipboard-copy"]):
        tag.decompose()
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    for tag in soup.find_all(class_=["zeroclipboard-container", "clipboard-copy-txt"]):
        tag.decompose()
    # Cell wrappers are not controls: JupyterLab's tabindex would stop the keyboard at each one.
    for tag in soup.find_all(class_=["jp-Cell-inputWrapper", "jp-OutputArea-output"], tabindex=True):
        del tag["tabindex"]
    if (img := soup.find("img", alt=False)) is not None:  # nbconvert would say "No description has been provided"
        raise ValueError(f"{notebook or 'a notebook'}: an image without alt text ({str(img)[:80]})")
    # nbconvert's cell ids ("cell-id=01-name") as valid CSS identifiers ("cell-01-name"). Material
    # names each code block after its closest element with an id (for the copy button's target),
    # so each <pre> gets one of its own: the code and the output of a cell are two blocks.
    for cell in soup.find_all(class_="jp-Cell", id=_CELL_ID):
        cell["id"] = "cell-" + cell["id"].removeprefix("cell-id=")
    for area in soup.find_all(class_="jp-InputArea"):
        for block in area.find_all(class_="highlight"):
            for pre in block.find_all("pre", recursive=False):
                _with_code(soup, pre)
                _name_after_cell(pre, "code")
    for output in soup.find_all(class_="jp-OutputArea-output"):
        if "highlight" not in output.get("class", []):
            continue
        pre = output.find("pre", recursive=False)
        if pre is not None:
            _with_code(soup, pre)
            _name_after_cell(pre, "output")
            title = soup.new_tag("span", attrs={"class": "filename"})
            title.string = "Output"
            pre.insert_before(title)
    # Material's permalink style (toc: permalink: true) for the cells' heading anchors.
    for a in soup.find_all("a", class_="anchor-link"):
        a["class"] = ["headerlink"]
        a["title"] = "Permanent link"
    _local_links(soup, dict(addresses))
    formulas = _mark_math(soup, mark)
    intro = soup.find(class_="jp-RenderedMarkdown")  # the download link's place (_download_link)
    (intro if intro is not None else soup).append(NavigableString(f"{mark}download{mark}"))
    cleaned = code_markup.unwrap_plain_spans(str(soup))  # lighter, looks the same (see the module)
    cleaned = path_breaks.break_paths(cleaned)  # long names in the text break between parts, as on the pages
    return re.sub(f"{mark}(\\d+){mark}", lambda m: formulas[int(m.group(1))], cleaned), mark


def _local_links(soup: BeautifulSoup, addresses: dict[str, str]) -> None:
    """Each link to a published address of ``addresses`` as the URL it maps to, query and fragment kept."""
    for a in soup.find_all("a", href=True) if addresses else ():
        href = a["href"]
        cut = min((i for i in (href.find("?"), href.find("#")) if i >= 0), default=len(href))
        local = addresses.get(href[:cut])
        if local is not None:
            a["href"] = local + href[cut:]


def _download_link(soup: BeautifulSoup, name: str, article: tuple[str, str] | None = None) -> None:
    """A link to the notebook file, after the introduction, and one back to the page the notebook
    comes from (the notebook's introduction names that page in words). mkdocs-jupyter
    (include_source) copies the .ipynb, saved with its outputs, beside the page's HTML file, so
    its bare name is a relative link that works under any site_url and in the offline build; so
    does the page's relative URL."""
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
    intro = soup.find(class_="jp-RenderedMarkdown")
    (intro if intro is not None else soup).append(p)


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


def retitled(toc_tokens: list[dict], title: str | None, page_html: str) -> tuple[list[dict], str | None]:
    """mkdocs-jupyter's table of contents (its tokens) and title of a notebook page, named as the
    page shows its headings (:func:`shown_headings`; in plain text, :func:`plain`, where the page has
    no heading of that id)."""
    shown = shown_headings(page_html)

    def named(tokens: list[dict]) -> list[dict]:
        return [
            {**t, "name": shown.get(t.get("id"), plain(t["name"])), "children": named(t.get("children", []))}
            for t in tokens
        ]

    tokens = named(toc_tokens)
    if title is not None:
        title = next((t["name"] for t in tokens if t.get("level") == 1), plain(title))
    return tokens, title


def _retitle(items, shown: dict[str, str]) -> None:
    for item in items:
        item.title = shown.get(item.id, plain(item.title))
        _retitle(item.children, shown)


class _CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's compiled templates, kept in memory for the life of the process.

    mkdocs-jupyter makes a new nbconvert exporter for each notebook, and each exporter a new Jinja
    environment, which compiled nbconvert's ten or so templates again: a third of a notebook's
    rendering (3 s of a cold build on this machine). Jinja checks each entry against its
    template's source (a checksum) and against its own and Python's versions before using it, so a
    changed template is compiled again. One cache per kind of environment (async or not, its
    extensions): what else shapes the compiled code."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_compiled: dict[tuple, _CompiledTemplates] = {}


def _share_compiled_templates() -> None:
    """nbconvert's template environments take their compiled templates from _CompiledTemplates."""
    from nbconvert.exporters.templateexporter import TemplateExporter

    create = TemplateExporter._create_environment
    if getattr(create, "_shares_compiled_templates", False):
        return

    def create_environment(self):
        environment = create(self)
        kind = (environment.is_async, tuple(sorted(environment.extensions)))
        environment.bytecode_cache = _compiled.setdefault(kind, _CompiledTemplates())
        return environment

    create_environment._shares_compiled_templates = True
    TemplateExporter._create_environment = create_environment


def _lean_exporter() -> None:
    """mkdocs-jupyter's exporter without two passes whose work clean() undoes: about half of a
    notebook's rendering (4 s of a cold build on this machine), the page's HTML the same.

    - nbconvert's HTMLExporter ends by parsing the whole page with BeautifulSoup to give each cell
      wrapper and output a tabindex (which clean() removes: they are not controls) and each image
      without alt text a placeholder (a notebook of this site shows no image: clean() refuses one
      without alt text).
    - The template inlines 590 kB of JupyterLab's CSS and a copy widget's script, which clean()
      removes with every <style> and <script>: their resources are empty instead."""
    from mkdocs_jupyter import nbconvert2
    from nbconvert.exporters.html import HTMLExporter
    from nbconvert.exporters.templateexporter import TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    if getattr(nbconvert2.HTMLExporter, "_lean", False):
        return

    class LeanHTMLExporter(HTMLExporter):
        _lean = True

        def from_notebook_node(self, nb, resources=None, **kw):  # HTMLExporter's, up to its soup
            langinfo = nb.metadata.get("language_info", {})
            lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
            self.register_filter(
                "highlight_code", self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self))
            )
            resources = self._init_resources(resources)
            data_types = WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=resources)
            self.register_filter("filter_data_type", data_types)
            return TemplateExporter.from_notebook_node(self, nb, resources, **kw)

        def _init_resources(self, resources):
            resources = super()._init_resources(resources)
            resources["include_css"] = resources["include_js"] = lambda name: markupsafe.Markup("")
            return resources

    nbconvert2.HTMLExporter = LeanHTMLExporter


def on_config(config):
    _share_compiled_templates()
    _lean_exporter()
    return config


def on_page_content(html: str, page, config, files, mark: str | None = None) -> str:
    """A notebook page cleaned (clean()); or, given ``mark``, only given its download link, its
    HTML cleaned by the build's second process (publish/mkdocs/notebook_render.py, clean_body)."""
    if not is_notebook(page):
        return html
    # Out of the search index (Material's search reads page.meta): the code is the pages' own,
    # indexed there, and indexing it twice would add 50 kB to the index every page loads.
    page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    name = page.file.src_uri.rsplit("/", 1)[-1]
    if mark is not None:  # (its title and table of contents named by the second process: retitled)
        return with_download_link(html, mark, name, _article(page, files))
    shown = shown_headings(html)
    _retitle(page.toc.items, shown)
    if page.toc.items and page.toc.items[0].level == 1:
        page.title = page.toc.items[0].title
    return _clean_once(html, name, _article(page, files), _addresses(page.file, files))


def published_pages(files) -> list[tuple[str, str]]:
    """(published address, URL in this build) of every page of the build."""
    from publish.generate import notebooks

    base = notebooks.site_url()
    return [(base + notebooks.page_address(f.src_uri), f.url) for f in files.documentation_pages()]


def addresses_from(pages: list[tuple[str, str]], url: str) -> tuple[tuple[str, str], ...]:
    """``pages`` (:func:`published_pages`) with each URL relative to the page at ``url``: where the
    notebook's links to the site's pages (publish.generate.notebooks.link_address) lead from that page."""
    from mkdocs.utils import get_relative_url

    return tuple((address, get_relative_url(page, url)) for address, page in pages)


def _addresses(file, files) -> tuple[tuple[str, str], ...]:
    return addresses_from(published_pages(files), file.url)


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
