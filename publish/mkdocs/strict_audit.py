"""MkDocs hook (publish/mkdocs/hooks/strict_audit.py, the first of the hooks): the numbers audit
is told which page MkDocs converts, and a strict build stops on a number the audit finds wrong,
whatever the log level.

The extension learns the page from a :class:`~publish.markdown.numbers_audit.BuiltPage` (its
``page`` setting, given in ``on_config``), which ``on_page_markdown`` (MkDocs' event, with the page)
points at each page's file before MkDocs converts it: no object of MkDocs' own is read from the
Markdown instance.

The audit itself is the Markdown extension :mod:`publish.markdown.numbers_audit`, which every build
runs and which logs each problem as a warning. MkDocs' ``--quiet`` drops warnings before strict
mode counts them (mkdocs/mkdocs#4126), so in a strict build (``--strict`` or ``strict: true``)
this hook gives the extension a :class:`Report` instead (its ``report`` setting), and stops the
build with every problem of every page in one error (:class:`mkdocs.exceptions.PluginError`, which
MkDocs logs at ERROR, under any flag), once all pages are converted and before any is written.
Zensical runs no hook: its build logs the warnings.
"""

from __future__ import annotations

from publish.markdown.numbers_audit import BuiltPage

EXTENSION = "publish.markdown.numbers_audit"  # its name in mkdocs.yml's markdown_extensions


class Report:
    """The problems of every page of one strict build, as the extension finds them."""

    def __init__(self):
        self.problems: list[str] = []

    def __call__(self, problems: list[str]) -> None:
        self.problems.extend(problems)


def on_config(config):
    """The extension is told of each page (a BuiltPage, see on_page_markdown); in a strict build
    (``--strict`` or ``strict: true``) it reports to a Report (on_env stops the build on it) rather
    than log warnings that a log level can drop."""
    if EXTENSION in config.markdown_extensions:
        settings = config.mdx_configs.setdefault(EXTENSION, {})
        settings["page"] = BuiltPage()
        if config.strict:
            settings["report"] = Report()
    return config


def on_page_markdown(markdown, page, config, files):
    """MkDocs converts ``page`` next: the extension audits its file."""
    built = config.mdx_configs.get(EXTENSION, {}).get("page")
    if isinstance(built, BuiltPage) and page.file.abs_src_path:
        built.start(page.file.abs_src_path)
    return markdown


def on_env(env, config, files):
    """Every page is converted (so audited), none is written yet: a strict build stops here on the
    problems the audit found, all of them, in one error that no log level hides."""
    report = config.mdx_configs.get(EXTENSION, {}).get("report")
    if isinstance(report, Report) and report.problems:
        from mkdocs.exceptions import PluginError  # noqa: PLC0415 - MkDocs' alone (Zensical runs no hook)

        n = len(report.problems)
        raise PluginError(
            f"numbers audit: {n} problem{'s' if n != 1 else ''}, on which a strict build stops "
            "(each names the file to edit and its line):\n" + "\n".join(f"  {p}" for p in report.problems)
        )
    return env
