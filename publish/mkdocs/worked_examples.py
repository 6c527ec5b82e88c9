"""MkDocs hook (mkdocs.yml, ``hooks:``): the worked examples, from their spec files to the site.

- Before anything else (the first on_config), the output folder and the caches must be folders of
  the repository (or of the system's temporary folder, where ``mkdocs serve`` builds) reached
  through no symbolic link, and the sources (docs/, snippets/, the specs) hold no link and no FIFO
  (:func:`check_folders`): MkDocs empties its output folder, and a link there would have it
  delete and write elsewhere; a source that is a link could publish /proc/self/environ.
- Then every spec in ``selfattn_ref/examples/`` is loaded and checked
  (:func:`selfattn_ref.examples.load_all`): a bad spec (an unknown key, ragged embeddings, a
  token count that differs from the vector count, a seed that is not an integer, a duplicate
  slug or title) stops the build with the message naming the file, the key and the line.
- Each example's generated files (its page, scripts, notebook and tables: the per-example
  producers of :mod:`publish.generate.registry`) must be what the spec gives now, and the recordings of
  its scripts must have been made from the scripts as they are (their fingerprint files); if one
  is missing or stale the build stops and says to run ``make update``. A slug that a page or a
  generated folder has already is refused.
- The files gathered from every example (:func:`publish.generate.registry.gathered`: the playground's presets
  and its bundle, which git ignores) are written as the examples give them now, before MkDocs
  reads docs/: a build never needs ``make update``, and adding an example rewrites no shared file.
- The navigation entry ``Worked examples`` becomes a section: the gallery, then one page per
  example, in reading order (each spec's `order`). mkdocs.yml names no example, so a new one needs no wiring.
- A generated page's "edit" button opens its spec file (the page itself is not to be edited);
  the gallery, generated from all of them, has none.
- A page's ``--8<--`` include of a file that is not in the repository (outside it, or a typo)
  stops the build with the page, the line and the path (:func:`on_page_markdown`), where
  pymdownx.snippets would stop it with a traceback.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from publish import ROOT
from publish.files import UnsafePath, UnsafeRead, check_folder, check_sources, mark_building, unmark_building
from publish.generate import example_pages as ep
from publish.generate.update import UpdateError, check_specs, stale_examples, write_gathered
from publish.mkdocs.page_weight import katex_fonts
from publish.source import includes

# MkDocs loads a hook from its file, outside any package: the imports are absolute, and
# on_config checks that they found the package of the project being built.
from selfattn_ref import examples
from selfattn_ref._validate import excerpt

NAV_TITLE = "Worked examples"


def check_folders(config) -> None:
    """PluginError, before anything is read, written or deleted, when the build would write through
    a symbolic link or outside the repository, or read a source that is a link or not a regular file
    (:mod:`publish.files` decides): its output folder (``site_dir``, ``-d``, which MkDocs empties
    first), the KaTeX fonts' cache, every file of docs/, snippets/ and the specs."""
    try:
        check_folder(config.site_dir, "the output folder (site_dir, --site-dir)", emptied=True)
        katex_fonts.check_cache(katex_fonts.cache_folder(config))
        check_sources()
    except (UnsafePath, UnsafeRead) as exc:
        raise PluginError(str(exc)) from None


# First of every on_config (the plugins' and the other hooks' too): nothing starts before the checks.
@event_priority(100)
def on_config(config):
    project = Path(config.config_file_path).resolve().parent
    if ROOT.resolve() != project:
        raise PluginError(
            f"the hook imported selfattn_ref from {ROOT}, but the site being built is {project}: "
            "run mkdocs from the project's root, or set PYTHONPATH to it"
        )
    check_folders(config)
    mark_building(config.site_dir)  # until on_post_build: a build stopped half-way is still a build's
    try:
        every = examples.load_all()
        check_specs(every)
    except examples.SpecError as exc:
        raise PluginError(f"bad worked-example spec: {exc}") from None
    stale = stale_examples(every)
    if stale:
        names = ", ".join(stale[:5]) + (" ..." if len(stale) > 5 else "")
        raise PluginError(
            f"{len(stale)} generated file(s) of the worked examples are missing or not what `make update` "
            f"writes from selfattn_ref/examples/*.toml: {names}. After an edit of a spec, run `make update`. "
            "A generated file is never edited by hand: `make update` rewrites it from its spec, and an edit "
            "made in it is lost: make the change in the spec (selfattn_ref/examples/<name>.toml)"
        )
    try:  # the playground's presets and bundle, gathered from every example (git ignores them)
        write_gathered(every)
    except UpdateError as exc:
        raise PluginError(str(exc)) from None
    nav = config.nav or []
    for i, item in enumerate(nav):
        if isinstance(item, dict) and NAV_TITLE in item:
            pages = [{"All examples": f"{ep.FOLDER}/index.md"}]
            pages += [{ex.title: f"{ep.FOLDER}/{ex.slug}.md"} for ex in ep.in_reading_order(every)]
            nav[i] = {NAV_TITLE: pages}
            break
    else:
        raise PluginError(f"mkdocs.yml: the nav has no '{NAV_TITLE}' entry for the worked examples")
    # Editing a spec under `mkdocs serve` rebuilds, and the check above then says to run `make update`.
    config.watch.append(str(examples.EXAMPLES_DIR))
    return config


# Last of every on_post_build: the folder is a whole build now, with its 404.html and sitemap.xml.
@event_priority(-100)
def on_post_build(config):
    unmark_building(config.site_dir)


def on_page_markdown(markdown, page, config, files):
    """PluginError naming the page, the line and the file, for an include of a file that is not in
    the repository (``--8<-- "/etc/passwd"``, a typo): pymdownx.snippets would stop the build with
    a traceback (check_paths: true). Its own reading of the line and of the path decides."""
    for number, line in enumerate(page.file.content_string.split("\n"), 1):
        found = includes.include(line)
        if found is None:
            continue
        try:
            problem = includes.missing(found[1])
        except ValueError as exc:
            problem = str(exc)
        if problem:
            raise PluginError(
                f"{page.file.src_uri}, line {number}: --8<-- {excerpt(found[1])} includes {problem}. "
                "An include names a file by its path from the repository's root (docs/generated/..., snippets/...)"
            )
    return markdown


def on_page_context(context, page, config, nav):
    src = page.file.src_uri
    if src.startswith(f"{ep.FOLDER}/") and src.endswith(".md") and page.edit_url:
        base = page.edit_url[: -len(f"docs/{src}")] if page.edit_url.endswith(f"docs/{src}") else None
        slug = src[len(ep.FOLDER) + 1 : -len(".md")]
        if slug == "index" or base is None:
            page.edit_url = None
        else:
            page.edit_url = f"{base}selfattn_ref/examples/{slug}.toml"
    return context
