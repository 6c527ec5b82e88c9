"""mkdocs.yml as the build reads it with no environment set (``!ENV [NAME, default]`` is the
default): the navigation's pages in reading order, the project's repository, the published address.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

from publish import ROOT


class _Loader(yaml.SafeLoader):
    """mkdocs.yml as the build reads it with no environment set: `!ENV [NAME, default]` is the default."""


_Loader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)[-1])


def nav(mkdocs_yml: Path = ROOT / "mkdocs.yml") -> list[tuple[str, str]]:
    """(title, page under docs/) of every Markdown page of the navigation, in reading order."""
    config = yaml.load(mkdocs_yml.read_text(encoding="utf-8"), _Loader)
    out: list[tuple[str, str]] = []

    def walk(items, title=None):
        for item in items:
            if isinstance(item, dict):
                for key, value in item.items():
                    walk(value if isinstance(value, list) else [value], key)
            elif isinstance(item, str) and item.endswith(".md"):
                out.append((title or item, item))

    walk(config.get("nav") or [])
    return out


def repository(mkdocs_yml: Path = ROOT / "mkdocs.yml") -> str:
    """The project's repository, as mkdocs.yml's edit_uri names it (https://github.com/<owner>/<name>):
    the site sets no repo_url, with which Material would fetch the repository's stars from an outside
    API on every page view, so the pages that tell a reader to clone it link it themselves."""
    config = yaml.load(mkdocs_yml.read_text(encoding="utf-8"), _Loader)
    m = re.match(r"(https://github\.com/[\w.-]+/[\w.-]+)/edit/", str(config.get("edit_uri", "")))
    if not m:
        raise ValueError(
            f"mkdocs.yml: edit_uri must be https://github.com/<owner>/<name>/edit/..., got {config.get('edit_uri')!r}"
        )
    return m.group(1)


@functools.cache
def site_url() -> str:
    """The site's address as published: mkdocs.yml's ``site_url`` with no SITE_URL set, ending in "/"."""
    url = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), _Loader)["site_url"]
    if not re.match(r"https://[^/\s]+/", url):
        raise ValueError(f"mkdocs.yml: site_url must be an https:// address, got {url!r}")
    return url if url.endswith("/") else url + "/"
