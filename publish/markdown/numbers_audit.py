"""A Python-Markdown extension: the numbers audit in every build, and the claims out of the page.

In the Markdown a number says which quantity it is: ``66.5%{{weights[bank, bank]}}``. The
numbers audit (:mod:`publish.audit`) reads the claim; the reader sees ``66.5%``. A line that
declares the source of the claims below it (``<!-- audit source: bank_of_river -->``) is
removed too, so the page's HTML is what it would be without the audit's markup. Registered in
mkdocs.yml under ``markdown_extensions`` as ``publish.markdown.numbers_audit``, with two settings:

- ``audit`` (default true; mkdocs.yml reads ``NUMBERS_AUDIT``): audit the page being built, the
  file as it is on disk, and log each problem as a warning, the page, the line, the number, the
  claim and the code's value (:class:`publish.audit.Problem`), on MkDocs' logger: ``mkdocs serve``
  prints it. The test suite sets it off for its builds, since it audits every page itself
  (tests/content/test_docs_numbers.py): a wrong number is reported once.
- ``on_page`` (default false; ``NUMBERS_AUDIT_ON_PAGE``, which ``make serve`` sets): show the same
  problems in a warning box at the top of the page, under its title, where the contributor looks.
- ``report``: what receives each page's problems (default: the warnings above). A strict MkDocs
  build does not rely on MkDocs counting those warnings, which ``--quiet`` drops before strict mode
  counts them (mkdocs/mkdocs#4126): a hook (:mod:`publish.mkdocs.strict_audit`) gives the
  extension a :class:`~publish.mkdocs.strict_audit.Report` instead, and stops the build with every
  problem of every page in one error (:class:`mkdocs.exceptions.PluginError`, which MkDocs logs at
  ERROR, under any flag), once all pages are converted and before any is written: ``mkdocs build
  --strict`` with ``-q`` or ``-v``, and ``strict: true`` in mkdocs.yml, alike.

An extension rather than a MkDocs hook, so that a build with Zensical (which runs extensions but
no hook) audits too. It learns the page's file from the build tool: under MkDocs from its ``page``
setting, a :class:`BuiltPage` that the hook :mod:`publish.mkdocs.strict_audit` gives it and tells of
each page in ``on_page_markdown`` (MkDocs' documented event, with the page); under Zensical from its
rendering context on the Markdown instance. A conversion outside a build (a test's) has no file and
is not audited; a page is audited once, by its first conversion (a docstring's Markdown inside the
page, mkdocstrings', may be that one).

The claim pattern runs after inline code and math are set aside (priority below the backtick's 190
and pymdownx.arithmatex's 189.9), so a claim written inside code or math is shown as written,
and before links, attribute lists and emphasis see the text.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as etree
from pathlib import Path

from markdown import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from .. import ROOT
from ..audit.claims import CLAIM
from ..audit.page import SOURCE_DECLARATION

# Under "mkdocs.", whose warnings `mkdocs build --strict` counts.
log = logging.getLogger("mkdocs.publish.numbers_audit")
CLASS = "numbers-audit"  # the warning box's class, beside Material's "admonition warning"


class _Claim(InlineProcessor):
    def handleMatch(self, m, data):  # noqa: N802 (Python-Markdown's name)
        return "", m.start(0), m.end(0)


class _Declarations(Preprocessor):
    def run(self, lines):
        return [line for line in lines if not SOURCE_DECLARATION.match(line)]


class BuiltPage:
    """The page a build converts, as its build tool's hook tells it: its Markdown file, and whether
    the audit read it yet (a page's Markdown may be converted in pieces: mkdocstrings' docstrings)."""

    def __init__(self):
        self.path: Path | None = None
        self.audited = False

    def start(self, path: str | Path) -> None:
        """The build converts the page whose file is ``path`` next."""
        self.path, self.audited = Path(path), False


def page_file(md) -> tuple[object, Path] | None:
    """(Zensical's object for the page being converted, the page's Markdown file), or None when
    the conversion is not a page of a Zensical build."""
    if "rendering_context" in md.preprocessors:  # Zensical: the page being rendered, and the config
        context = md.preprocessors["rendering_context"]
        page, config = getattr(context, "page", None), getattr(context, "config", None) or {}
        if getattr(page, "path", None):
            path = Path(page.path)
            return page, path if path.is_absolute() else Path(config.get("docs_dir", "docs")) / path
    return None


def _name(path: Path) -> str:
    """The page as the audit names it: relative to the repository (docs/real-numbers.md)."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def problems_of(path: Path) -> list[str]:
    """Every problem the numbers audit finds in the page file ``path``, as it reports them."""
    from ..audit import audit_text  # noqa: PLC0415 - the quantities load only for a build that audits

    try:
        return [str(p) for p in audit_text(path.read_text(encoding="utf-8"), _name(path), ROOT)]
    except ValueError as exc:  # the front matter's audit settings (AuditConfigError), an unknown source
        return [str(exc)]


def log_problems(problems: list[str]) -> None:
    """A page's problems, each a warning on MkDocs' logger (the extension's default ``report``)."""
    for problem in problems:
        log.warning("numbers audit: %s", problem)


class _Audit(Treeprocessor):
    def __init__(self, md, on_page: bool, report, built: BuiltPage | None):
        super().__init__(md)
        self.on_page, self.report, self.built = on_page, report, built

    def _path(self) -> Path | None:
        """The file of the page being converted, if this conversion is the first of a page of a build."""
        if self.built is not None:  # MkDocs, through the hook
            if self.built.path is None or self.built.audited:
                return None
            self.built.audited = True
            return self.built.path
        found = page_file(self.md)
        if found is None:
            return None
        page, path = found
        if getattr(page, "_numbers_audited", False):  # a docstring's Markdown inside the page, under Zensical
            return None
        try:
            page._numbers_audited = True
        except AttributeError:
            pass
        return path

    def run(self, root):
        path = self._path()
        if path is None or path.suffix != ".md":
            return
        problems = problems_of(path)
        if problems:
            self.report(problems)
        if problems and self.on_page:
            children = list(root)
            at = next((i + 1 for i, el in enumerate(children) if el.tag == "h1"), 0)
            root.insert(at, warning_box(problems))


def warning_box(problems: list[str]) -> etree.Element:
    """Material's warning admonition listing ``problems`` (text, escaped when the page is written)."""
    box = etree.Element("div", {"class": f"admonition warning {CLASS}"})
    title = etree.SubElement(box, "p", {"class": "admonition-title"})
    n = len(problems)
    title.text = f"The numbers audit finds {n} problem{'s' if n != 1 else ''} on this page"
    note = etree.SubElement(box, "p")
    note.text = (
        "`mkdocs build --strict`, and so CI, fails on them; this box shows only under `make serve`, "
        "and the log says the same."
    )
    items = etree.SubElement(box, "ul")
    for problem in problems:
        etree.SubElement(items, "li").text = problem
    return box


class ClaimsExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {
            "audit": [True, "audit the page being built and log each problem as a warning"],
            "on_page": [False, "also show the problems at the top of the page (make serve)"],
            "report": [log_problems, "called with each page's problems (a strict build's Report; default: warnings)"],
            # (not None, which Python-Markdown would read as a true or false setting)
            "page": ["", "a BuiltPage that a build's hook tells of each page (MkDocs; none: Zensical's context)"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        md.inlinePatterns.register(_Claim(CLAIM.pattern, md), "publish-claims", 185)
        # After fenced code is set aside (25), so a declaration shown in a code block stays;
        # before raw HTML blocks are (20).
        md.preprocessors.register(_Declarations(md), "publish-claims-sources", 22)
        if self.getConfig("audit"):
            # After the inline patterns (20), so that a problem's text, braces and all, is shown as it is.
            config = self.getConfigs()
            audit = _Audit(md, bool(config["on_page"]), config["report"], config["page"] or None)
            md.treeprocessors.register(audit, "publish-numbers-audit", 19)


def makeExtension(**kwargs):  # noqa: N802 (Python-Markdown's name)
    return ClaimsExtension(**kwargs)
