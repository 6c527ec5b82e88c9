"""A Jupyter notebook for each worked-example page, built from the page itself and its snippet files.

The notebooks are not written by hand and hold no code of their own. For each page in
:data:`NOTEBOOKS`, :func:`cells` reads the page (``docs/<page>.md``) and takes, in the page's
order, every snippet it includes with ``--8<-- "snippets/..."``: the ``*_numpy.py`` ones, and a
``*_torch.py`` one only where it has no NumPy twin (training a model), so that a kernel never
pays for importing PyTorch without a reason. The notebook reads like its page: the page's
headings and sentences, its tables included, are Markdown cells between the code cells
(:func:`page_markdown` turns the site's Markdown into plain Markdown that Jupyter shows: a
tab group of NumPy and PyTorch keeps its NumPy tab, an admonition becomes a bold title over
its text, a link to a page of the site leads to that page at the site's published address,
:func:`link_address`, so that it works in a downloaded notebook too). The imports come once, in a first code
cell, and each code cell is its snippet file as the page shows it whole (:func:`shown`: no line
that is there for the build) without them (:func:`without_imports`), so the cells run from the
top, every step in the page's order. ``make update`` writes the
result to ``docs/notebooks/<page>.ipynb`` (registered with :func:`~.registry.generated_file`), and
the suite's staleness test fails when a page or a snippet changed and the notebook did not.

Each code cell's output is its snippet's recorded run (the ``.out`` file the page shows under the
same code, which the snippet tests compare with a fresh run), and the cells are numbered as one
run from the top leaves them: the notebook is saved as executed, and the build renders it without
running it (mkdocs.yml). That a kernel running the notebook from the top prints exactly these
outputs is a test of its own (tests/content/test_notebooks.py, through publish/harness/notebook_cache.py).

The files are deterministic: cell ids are the cell's place and the snippet's name, and the JSON is
written the way nbformat writes it (one-space indent, sorted keys).
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from .. import DOCS, ROOT
from ..audit.claims import CLAIM
from ..escape import md_text, nb_markdown
from ..source import includes
from ..source.mkdocs_yml import site_url
from ..source.pages import CODE_SPAN, COMMENT, FENCE, body_lines, split_front_matter
from .registry import current, generated_file, name_of
from .snippets import SCRIPT_SECTION, fence_info, shown_whole
from .tables import NOTEBOOK_ONLY

FOLDER = "notebooks"  # under docs/
NOTEBOOKS_DIR = DOCS / FOLDER


@dataclass(frozen=True)
class Notebook:
    page: str  # docs/<page>.md; the notebook is docs/notebooks/<page>.ipynb
    note: str = ""  # a sentence added to the introduction, if the page needs one


# The worked examples' pages, in the order of the site's navigation.
NOTEBOOKS = (
    Notebook("real-numbers"),
    Notebook("queries-keys-values"),
    Notebook("learned-weights"),
    Notebook("learning"),
    Notebook("where-used"),
    Notebook("scaling"),
    Notebook("masking"),
    Notebook("positional-encoding", "The training run has no NumPy version: that cell needs PyTorch."),
    Notebook("attention-that-learns", "The training run has no NumPy version: that cell needs PyTorch."),
    Notebook("multi-head"),
    Notebook("transformer-block"),
    Notebook("rnn-comparison"),
    Notebook("mistakes"),
    Notebook("next-word", "Its scripts read the trained weights from a file of the repository: run it in a clone."),
    Notebook("trained-model", "Its script reads the trained weights from a file of the repository: run it in a clone."),
    Notebook("batched-heads"),
    Notebook("cross-attention"),
    Notebook("kv-cache"),
    Notebook("online-softmax"),
    Notebook("rotary"),
    Notebook("mistakes-at-scale"),
)

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$")


@dataclass(frozen=True)
class Block:
    snippet: str  # "snippets/real_numbers/stable_softmax_numpy.py"
    headings: tuple[str, ...]  # the page's headings it sits under, as written: ("## Masking", "### In code")


def page_path(page: str) -> Path:
    return DOCS / f"{page}.md"


def title(page: str) -> str:
    """The page's first level-1 heading."""
    for line in page_path(page).read_text(encoding="utf-8").splitlines():
        if m := _HEADING.match(line):
            if len(m.group(1)) == 1:
                return m.group(2)
    raise ValueError(f"docs/{page}.md has no level-1 heading")


def whole_script(target: str) -> str | None:
    """The script an include's ``target`` shows whole: the file, or its "script" section where its
    first lines are for the build (publish.generate.snippets); None for any other include."""
    path, section = includes.split_target(target)
    if path.startswith("snippets/") and path.endswith(".py") and section in (None, SCRIPT_SECTION):
        return path
    return None


def page_snippets(page: str) -> list[Block]:
    """Every snippet file the page includes, in order, with the headings (level 2 and below) it sits under."""
    path: list[str] = []  # the current heading of each level, from level 2 down
    out = []
    for line in body_lines(page_path(page).read_text(encoding="utf-8")):
        if (inc := includes.include(line.text)) and (script := whole_script(inc[1])):
            out.append(Block(script, tuple(path)))
        elif not line.fenced and (m := _HEADING.match(line.text)) and len(m.group(1)) > 1:
            level = len(m.group(1))
            path = [*path[: level - 2], line.text.strip()]
    return out


def notebook_snippets(page: str) -> list[Block]:
    """The snippets a page's notebook runs: NumPy ones, and PyTorch ones that have no NumPy twin."""
    chosen = []
    for block in page_snippets(page):
        path = ROOT / block.snippet
        if path.stem.endswith("_numpy"):
            chosen.append(block)
        elif path.stem.endswith("_torch") and not path.with_name(path.stem[: -len("_torch")] + "_numpy.py").is_file():
            chosen.append(block)
    return chosen


def _markdown(cell_id: str, text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text.rstrip("\n"), id=cell_id)


def _code(cell_id: str, text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(text.rstrip("\n"), id=cell_id)


# --- the page as plain Markdown ----------------------------------------------------------------

_IMPORT = re.compile(r"^(?:import [\w.]+(?: as \w+)?|from [\w.]+ import .+)\s*$")
# A sentence for the notebook in place of the page's next paragraph (one about the page itself: its
# tabs, a PyTorch version the notebook does not run). The page leaves the comment out.
_IN_NOTEBOOK = re.compile(r"^(\s*)<!-- in the notebook: (.+?) -->\s*$")
_TAB = re.compile(r'^(\s*)=== "([^"]+)"\s*$')
_ADMONITION = re.compile(r'^(\s*)(?:!!!|\?\?\?\+?)\s+[\w-]+(?:\s+"([^"]*)")?\s*$')
_PAGE_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?://)([^)\s]*)\)")


def without_claims(line: str) -> str:
    """A line of prose without the numbers audit's claims (``66.5%{{weights[bank, bank]}}`` reads
    ``66.5%``), as publish.markdown.numbers_audit shows the page; a claim written inside inline code stays."""
    out, at = [], 0
    for m in CODE_SPAN.finditer(line):
        out += [CLAIM.sub("", line[at : m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, CLAIM.sub("", line[at:])])


LIBRARY_TABS = {"NumPy", "PyTorch"}
SELF_NOTE = "This page as a notebook"  # the page's pointer to this notebook: left out of it
# Notes about the site's page itself (its tabs, what is folded where), left out of the notebook too.
PAGE_ONLY_NOTES = {SELF_NOTE, "What you need"}
# A fold whose title says what the page folds: its body (the whole script, a code cell) without it.
UNTITLED_FOLDS = {"The whole script, with the printing"}


def imports(code: str) -> list[str]:
    """The snippet's import lines (at the start of a line: top level)."""
    return [line.rstrip() for line in code.splitlines() if _IMPORT.match(line)]


def import_cell(lines: list[str]) -> str:
    """The notebook's first code cell: the snippets' import lines once each, grouped as ruff's isort
    rule (I001, which ``make lint`` runs over the notebooks) wants them: the standard library's, then
    the others, a blank line between; in a group the ``import`` lines, then the ``from`` lines, each
    sorted by module."""

    def module(line: str) -> str:
        return line.split()[1]

    def group(lines: list[str]) -> list[str]:
        plain = sorted((x for x in lines if x.startswith("import ")), key=module)
        return plain + sorted((x for x in lines if x.startswith("from ")), key=module)

    once = list(dict.fromkeys(lines))
    stdlib = [x for x in once if module(x).split(".")[0] in sys.stdlib_module_names]
    others = [x for x in once if x not in stdlib]
    return "\n\n".join("\n".join(group(g)) for g in (stdlib, others) if g)


def without_imports(code: str) -> str:
    """The snippet without its import lines, which the notebook's first code cell makes once, and
    without the section markers that the page's include uses (pymdownx.snippets drops them too)."""
    lines = [
        line for line in code.rstrip("\n").splitlines() if not _IMPORT.match(line) and not includes.is_marker(line)
    ]
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)


def _indented(lines: list[str], i: int, indent: int) -> tuple[list[str], int]:
    """The block that starts at line i: blank lines and lines indented by more than ``indent``,
    dedented by ``indent + 4``; and the index after it."""
    body = []
    while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
        body.append(lines[i][indent + 4 :] if lines[i].strip() else "")
        i += 1
    while body and not body[-1]:
        body.pop()
    return body, i


def _flatten(lines: list[str]) -> list[str]:
    """Tabs and admonitions as plain Markdown: the NumPy tab of a NumPy/PyTorch group, each tab of
    another group under its bold label, an admonition's text under its bold title."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := _ADMONITION.match(line):
            pad = m.group(1)
            body, i = _indented(lines, i + 1, len(pad))
            if (m.group(2) or "") not in PAGE_ONLY_NOTES:
                out += [f"{pad}**{m.group(2)}**", ""] if m.group(2) and m.group(2) not in UNTITLED_FOLDS else []
                out += [pad + b if b else "" for b in _flatten(body)] + [""]
            continue
        if m := _TAB.match(line):
            pad = m.group(1)
            tabs: list[tuple[str, list[str]]] = []
            while i < len(lines) and (m := _TAB.match(lines[i])) and m.group(1) == pad:
                body, i = _indented(lines, i + 1, len(pad))
                tabs.append((m.group(2), body))
                while i < len(lines) and not lines[i].strip() and i + 1 < len(lines) and _TAB.match(lines[i + 1]):
                    i += 1
            labels = {label for label, _ in tabs}
            if labels <= LIBRARY_TABS and "NumPy" in labels:
                tabs = [(label, body) for label, body in tabs if label == "NumPy"]
                out += [pad + b if b else "" for b in _flatten(tabs[0][1])] + [""]
            else:
                for label, body in tabs:
                    out += [f"{pad}**{label}**", ""] + [pad + b if b else "" for b in _flatten(body)] + [""]
            continue
        out.append(line)
        i += 1
    return out


_SVG_TITLE = re.compile(r"<title>([^<]*)</title>")


def _generated_include(path: str, pad: str) -> list[str]:
    """A generated table, as Jupyter can show it: no header comment, no wrapper; a figure (its
    colours come from the site's CSS) as a line that names it, with its title. A table that the
    page puts in a list item comes out of the list: nbconvert's Markdown (the notebook's page on the
    site) shows a table inside a list item as its raw text."""
    exercises = re.fullmatch(r"docs/generated/exercises/([\w-]+)\.md", path)
    if exercises:
        from .exercises import notebook_markdown

        return [pad + line if line else "" for line in notebook_markdown(exercises.group(1)).splitlines()]
    kept, figures = [], []
    text = current(ROOT / path)  # as this run of `make update` writes it, if it does
    if text is None:
        raise ValueError(f"{path} does not exist: the page includes it")
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(NOTEBOOK_ONLY):  # the numbers of a figure, for the notebook alone (tables.notebook_only)
            kept += json.loads(s.removeprefix(NOTEBOOK_ONLY).removesuffix("-->").strip()).splitlines()
            continue
        if s.startswith("<svg"):
            figures += [html.unescape(t) for t in _SVG_TITLE.findall(s)]
        if s.startswith(("<!--", "<svg", "<div", "</div")):
            continue
        kept.append(line)
    table = any(line.lstrip().startswith("|") for line in kept)
    if table:
        pad = ""
    out = [pad + line if line else "" for line in kept]
    if figures:  # before the table it draws, if there is one
        named = "; ".join(md_text(f) for f in figures)
        line = f"{pad}*The site's page draws this: {named}.{' Its numbers:' if table else ''}*"
        out = [line, "", *(out if not out or out[0] else out[1:])]
    return out


def page_parts(page: str) -> list[tuple[str, str]]:
    """The page in order, as ("markdown", text) and ("code", snippet path) parts: the notebook's cells."""
    text = split_front_matter(page_path(page).read_text(encoding="utf-8"))[2]
    chosen = {b.snippet for b in notebook_snippets(page)}
    lines = _flatten(text.splitlines())
    parts: list[tuple[str, str]] = []
    md: list[str] = []

    def flush():
        body = "\n".join(md).strip("\n")
        body = _PAGE_LINK.sub(lambda m: f"[{m[1]}]({link_address(m[2], page)})", re.sub(r"\n{3,}", "\n\n", body))
        body = nb_markdown(body)  # what the site shows as text, text in Jupyter too (publish/escape.py)
        if body.strip():
            parts.append(("markdown", body))
        md.clear()

    i = 0
    while i < len(lines):
        if m := _IN_NOTEBOOK.match(lines[i]):  # the paragraph after it, as the notebook says it
            if re.search(r"\d", m.group(2)):
                raise ValueError(
                    f"docs/{page}.md: '<!-- in the notebook: ... -->' holds a digit; a number there escapes the "
                    "numbers audit (write it in the paragraph the comment stands for)"
                )
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            while i < len(lines) and lines[i].strip():
                i += 1
            md += [m.group(1) + without_claims(m.group(2)), ""]
            continue
        line = COMMENT.sub("", lines[i])
        i += 1
        if not lines[i - 1].strip() == line.strip() and not line.strip():
            continue  # a line that was only a comment
        if (m := _HEADING.match(line)) and len(m.group(1)) == 1:
            continue  # the title: the introduction has it
        if FENCE.match(line):
            fence_open = line
            body = []
            while i < len(lines) and not FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence
            inc = [includes.include(b) for b in body if b.strip()]
            targets = [m[1] for m in inc if m]
            if len(targets) == 1 and len(inc) == 1 and targets[0].startswith("snippets/"):
                whole = whole_script(targets[0])
                if whole and whole in chosen:
                    flush()
                    parts.append(("code", whole))
                continue  # a math section, an output (.out) or a PyTorch twin: the notebook prints its own
            pad = fence_open[: len(fence_open) - len(fence_open.lstrip())]
            lang, _, _ = fence_info(fence_open.strip().lstrip("`~"))  # ```python or ```{ .python ... }
            md.append(f"{pad}```{lang}")
            for b in body:
                if m := includes.include(b):  # as the page includes it (pymdownx.snippets)
                    code = "\n".join(includes.included(m[1]))
                    md += [pad + c if c else "" for c in code.rstrip("\n").splitlines()]
                else:
                    md.append(b)
            md.append(f"{pad}```")
            continue
        if m := includes.include(line):
            md += _generated_include(m[1], m[0])
            continue
        md.append(without_claims(line))
    flush()
    return parts


# --- links -------------------------------------------------------------------------------------
# A link of the page is, in its notebook, a link to the site's page at its published address: a
# downloaded .ipynb, opened in Jupyter, has no site beside it. (On the site's notebook pages the hook
# turns these addresses back into links within the build: publish.mkdocs.notebook_pages.)


def page_address(path: str) -> str:
    """Where the file ``docs/<path>`` is published, relative to :func:`site_url` (MkDocs' directory
    URLs): a page ``x.md``, or a notebook ``x.ipynb`` (mkdocs-jupyter makes it a page), at ``x/``;
    ``x/index.md`` at ``x/``; any other file at its path."""
    if path == "index.md" or path.endswith("/index.md"):
        return path.removesuffix("index.md")
    if path.endswith((".md", ".ipynb")):
        return path.rsplit(".", 1)[0] + "/"
    return path


def link_address(target: str, page: str) -> str:
    """The absolute address of a link ``target`` written in ``docs/<page>.md`` (``glossary.md#mask``,
    ``playground.md?preset=x``, ``#a-heading``), to a file that exists under docs/."""
    rest, hash_, fragment = target.partition("#")
    path, question, query = rest.partition("?")
    here = f"{page}.md"
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(here), path)) if path else here
    if resolved.startswith("../") or not (DOCS / resolved).is_file():
        raise ValueError(f"docs/{here} links to {target!r}, which is no file under docs/")
    return site_url() + page_address(resolved) + question + query + hash_ + fragment


def shown(snippet: str) -> str:
    """The snippet file (``snippets/...``) as its page shows it whole, which its cell runs: without
    the lines above its ``script`` section (publish.generate.snippets.shown_whole)."""
    return shown_whole((ROOT / snippet).read_text(encoding="utf-8"))


def libraries(page: str) -> str:
    """What a page's notebook needs: "NumPy", or "NumPy and PyTorch" when it runs a PyTorch script
    (one with no NumPy twin)."""
    return "NumPy and PyTorch" if any(b.snippet.endswith("_torch.py") for b in notebook_snippets(page)) else "NumPy"


def cells(nb: Notebook) -> list[nbformat.NotebookNode]:
    blocks = notebook_snippets(nb.page)
    if not blocks:
        raise ValueError(f"docs/{nb.page}.md includes no snippet the notebook could run")
    needs = libraries(nb.page)
    intro = (
        f"# {title(nb.page)}\n\n"
        f"The page *{title(nb.page)}* of the site as a notebook: its text, its tables and its code, in "
        f"order. The first code cell imports what the others need; run the cells from the top. They "
        f"need {'only ' if needs == 'NumPy' else ''}{needs}, and each prints what the page shows "
        f"under the same code."
    )
    if nb.note:
        intro += f" {nb.note}"
    intro = nb_markdown(intro)
    seen = [line for b in blocks for line in imports(shown(b.snippet))]
    out = [_markdown("intro", intro), _ran(_code("imports", import_cell(seen)), 1, "")]
    k = 0
    text = 0
    for kind, value in page_parts(nb.page):
        if kind == "markdown":
            text += 1
            out.append(_markdown(f"text-{text:02d}", value))
        else:
            k += 1
            name = Path(value).stem
            recording = current((ROOT / value).with_suffix(".out"))  # the recording about to be written, if any
            out.append(_ran(_code(f"{k:02d}-{name}", without_imports(shown(value))), k + 1, recording))
    return out


def _ran(cell: nbformat.NotebookNode, count: int, printed: str | None) -> nbformat.NotebookNode:
    """``cell`` as a run of the notebook from the top leaves it: the ``count``-th cell run, with what
    it ``printed`` (its snippet's recording) as its output; as never run if there is no recording yet."""
    if printed is None:
        return cell
    cell.execution_count = count
    if printed:
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
    return cell


def new_notebook(cells: list, generated_by: str, generated_from: str) -> nbformat.NotebookNode:
    """A notebook of the site (nbformat 4): Python 3's kernel, and the generated file's banner in its
    metadata, under ``selfattn_ref``."""
    return nbformat.v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "selfattn_ref": {
                "generated_by": generated_by,
                "generated_from": generated_from,
                "note": "Written by `make update`; do not edit.",
            },
        },
    )


def notebook(nb: Notebook) -> nbformat.NotebookNode:
    return new_notebook(cells(nb), name_of(notebook), f"docs/{nb.page}.md and the snippets it includes")


def dumps(nb: nbformat.NotebookNode) -> str:
    """As Jupyter saves it (nbformat.writes, with the line break at the end nbformat.write adds), so
    that opening and saving in Jupyter changes nothing."""
    return nbformat.writes(nb) + "\n"


def relpath(nb: Notebook) -> str:
    """The notebook's path under docs/."""
    return f"{FOLDER}/{nb.page}.ipynb"


def _register(nb: Notebook) -> None:
    generated_file(DOCS / relpath(nb), writer=notebook, owns=(NOTEBOOKS_DIR, "*.ipynb"))(lambda: dumps(notebook(nb)))


for _nb in NOTEBOOKS:
    _register(_nb)
