"""mkdocs.yml, read as MkDocs reads it (:func:`mkdocs.utils.yaml.yaml_load`, with MkDocs' loader:
``!ENV``, ``INHERIT``, Python tags): :func:`config`, in this environment or as published (each
``!ENV [NAME, default]`` its default, whatever the environment holds); and what the tools ask of
it: the navigation's pages in reading order, the project's repository, the published address, a
Markdown extension's options.

Not :func:`mkdocs.config.load_config`: it validates the whole configuration, which imports every
plugin, hook and extension (a second and more), where the tools need a few keys as written.
"""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path

import yaml
from mkdocs.utils import yaml as mkdocs_yaml

from publish import ROOT

MKDOCS_YML = ROOT / "mkdocs.yml"


def _published_env(loader: yaml.Loader, node: yaml.Node):
    """``!ENV`` as published: the default of ``[NAME, ..., default]``, None for a bare ``!ENV NAME``
    (as :func:`yaml_env_tag.construct_env_tag` gives them with no such variable set)."""
    if isinstance(node, yaml.SequenceNode) and len(node.value) > 1:
        return loader.construct_object(node.value[-1])
    return None


def config(mkdocs_yml: Path = MKDOCS_YML, *, published: bool = True) -> dict:
    """mkdocs.yml as MkDocs' loader reads it, before MkDocs validates it. ``published``: each
    ``!ENV`` is its default, as the site is published (SITE_URL, NUMBERS_AUDIT, OFFLINE unset);
    else each is read from this process's environment, as a build started from it reads it.

    As published, it is read once for each text of the file (a copy of it each call, which the
    caller may change): ``make update`` asks for it once per worked example's page, and each read
    took a quarter of a second. Not when the file has another one under it (INHERIT)."""
    with open(mkdocs_yml, "rb") as f:
        data = f.read()
        if not published or b"INHERIT" in data:
            f.seek(0)
            return _read(f, published=published)  # (the file: MkDocs finds the one under it beside it)
    key = (str(Path(mkdocs_yml).resolve()), data)
    if key not in _PUBLISHED:
        _PUBLISHED.clear()
        _PUBLISHED[key] = _read(data, published=True)
    return copy.deepcopy(_PUBLISHED[key])


_PUBLISHED: dict[tuple[str, bytes], dict] = {}  # the last file read as published, by its path and bytes


def _read(source, *, published: bool) -> dict:
    loader = mkdocs_yaml.get_yaml_loader()
    if published:
        loader.add_constructor("!ENV", _published_env)  # (a class of its own: get_yaml_loader makes one a call)
    return mkdocs_yaml.yaml_load(source, loader)


def nav(mkdocs_yml: Path = MKDOCS_YML) -> list[tuple[str, str]]:
    """(title, page under docs/) of every Markdown page of the navigation, in reading order."""
    out: list[tuple[str, str]] = []

    def walk(items, title=None):
        for item in items:
            if isinstance(item, dict):
                for key, value in item.items():
                    walk(value if isinstance(value, list) else [value], key)
            elif isinstance(item, str) and item.endswith(".md"):
                out.append((title or item, item))

    walk(config(mkdocs_yml).get("nav") or [])
    return out


def repository(mkdocs_yml: Path = MKDOCS_YML) -> str:
    """The project's repository, as mkdocs.yml's edit_uri names it (https://github.com/<owner>/<name>):
    the site sets no repo_url, with which Material would fetch the repository's stars from an outside
    API on every page view, so the pages that tell a reader to clone it link it themselves."""
    edit_uri = config(mkdocs_yml).get("edit_uri")
    m = re.match(r"(https://github\.com/[\w.-]+/[\w.-]+)/edit/", str(edit_uri or ""))
    if not m:
        raise ValueError(f"mkdocs.yml: edit_uri must be https://github.com/<owner>/<name>/edit/..., got {edit_uri!r}")
    return m.group(1)


def markdown_extension(name: str, mkdocs_yml: Path = MKDOCS_YML, *, published: bool = True) -> dict:
    """The options mkdocs.yml gives the Markdown extension ``name`` ({} if it lists it without
    any); KeyError if it does not list it."""
    for item in config(mkdocs_yml, published=published).get("markdown_extensions") or []:
        if item == name:
            return {}
        if isinstance(item, dict) and name in item:
            return dict(item[name] or {})
    raise KeyError(f"mkdocs.yml lists no Markdown extension {name!r}")


def markdown_extensions(mkdocs_yml: Path = MKDOCS_YML, *, published: bool = True) -> dict[str, dict]:
    """Every Markdown extension mkdocs.yml lists, in its order, with its options."""
    out: dict[str, dict] = {}
    for item in config(mkdocs_yml, published=published).get("markdown_extensions") or []:
        name, options = (item, {}) if isinstance(item, str) else next(iter(item.items()))
        out[name] = dict(options or {})
    return out


@functools.cache
def site_url() -> str:
    """The site's address as published: mkdocs.yml's ``site_url`` with no SITE_URL set, ending in "/"."""
    url = config()["site_url"]
    if not re.match(r"https://[^/\s]+/", url):
        raise ValueError(f"mkdocs.yml: site_url must be an https:// address, got {url!r}")
    return url if url.endswith("/") else url + "/"
