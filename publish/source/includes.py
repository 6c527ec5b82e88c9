"""What a page's ``--8<--`` include holds, as pymdownx.snippets includes it: the one reading of a
snippet's sections for every tool (the notebooks' cells, a worked example's script shown whole),
by pymdownx.snippets' own preprocessor with the options mkdocs.yml gives it, so that what a tool
reads of a file is what the page shows.

- :func:`include`: the target of a line that includes a file (``--8<-- "file[:section]"``), read
  by pymdownx.snippets' own expression of such a line (RE_ALL_SNIPPETS), or None;
- :func:`split_target`: its file and section;
- :func:`missing`: why an include includes nothing (a file outside the repository, or none), or None;
- :func:`included`: the lines a ``--8<-- "file[:section]"`` line puts into a page;
- :func:`section`: the lines of a file's ``# --8<-- [start:NAME]`` ... ``[end:NAME]`` section, the
  markers of other sections inside it left out (SnippetPreprocessor.extract_section);
- :func:`is_marker`: whether a line is a section marker, which an include leaves out
  (SnippetPreprocessor.match_section);
- :func:`has_section`: whether a file's text starts a section of that name.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import markdown
from pymdownx.snippets import SnippetMissingError, SnippetPreprocessor

from publish import ROOT

from . import mkdocs_yml


@functools.cache
def snippets() -> SnippetPreprocessor:
    """pymdownx.snippets' preprocessor, as mkdocs.yml configures it, reading from the repository."""
    options = {**mkdocs_yml.markdown_extension("pymdownx.snippets"), "base_path": [str(ROOT)]}
    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
    return md.preprocessors["snippet"]


def include(line: str) -> tuple[str, str] | None:
    """(indentation, target) of ``line`` if it includes a file (``--8<-- "file[:section]"``, not
    escaped by ``;``), as pymdownx.snippets reads it; None for any other line, a block marker too."""
    m = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line)
    if m is None or m.group("escape") or not m.group("inline_marker"):
        return None
    return m.group("space"), m.group("snippet")[1:-1].strip()


def split_target(target: str) -> tuple[str, str | None]:
    """(file, section or None) of an include's ``target`` (``path``, ``path:section``, ``path:lines``),
    as the preprocessor splits it."""
    parsed = snippets().parse_snippet_target(target)
    if parsed is None:
        raise ValueError(f"no file in the include target {target[:80]!r}")
    return parsed["path"], parsed["section"]


def missing(target: str) -> str | None:
    """Why ``--8<-- "target"`` includes nothing (pymdownx.snippets, with check_paths, would stop the
    build with a traceback), or None: the file is outside the repository, or not in it."""
    path = split_target(target)[0]
    if snippets().get_snippet_path(path) is not None:
        return None
    where = os.path.abspath(os.path.join(ROOT, path))
    if not Path(where).is_relative_to(ROOT):
        return "a file outside the repository, which no page may include"
    return "no file of the repository"


def included(target: str) -> list[str]:
    """The lines ``--8<-- "target"`` puts into a page (``target``: a path from the repository's root,
    with ``:section`` or not), as the build includes them."""
    return snippets().run([f'--8<-- "{target}"'])


def is_marker(line: str) -> bool:
    """Whether ``line`` is a section marker (``# --8<-- [start:NAME]``, ``[end:NAME]``), which every
    include leaves out."""
    m = snippets().match_section(line)
    return m is not None and not m.group("escape")


def has_section(text: str, name: str) -> bool:
    """Whether ``text`` starts a section ``name``."""
    for line in text.split("\n"):
        m = snippets().match_section(line)
        if m is not None and not m.group("escape") and m.group("type") == "start" and m.group("name") == name:
            return True
    return False


def section(text: str, name: str) -> list[str]:
    """The lines of the section ``name`` of a file's ``text``, as ``--8<-- "file:name"`` includes
    them. ValueError if the text has no such section."""
    try:
        return snippets().extract_section(name, text.split("\n"))
    except SnippetMissingError:
        raise ValueError(f"no section {name!r} in the included file") from None
