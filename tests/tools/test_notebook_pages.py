"""How MkDocs makes the notebook pages (publish/mkdocs/notebook_pages.py): mkdocs-jupyter renders
each with its own code, through its documented options, and the hook cleans the HTML it made in
MkDocs' on_page_content; nothing of mkdocs-jupyter, nbconvert or Jinja is replaced. Under
`mkdocs serve` a rebuild converts again only the notebook that was edited (mkdocs-jupyter's own
cache, in a folder of the serve process); a build converts every notebook. Tests of the tools: no
page or notebook edit can fail them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from publish import ROOT
from publish.generate import notebooks as nbs

# Builds of a small site in one process: with on_startup's command "serve", as `mkdocs serve` makes
# them (the second after no edit, the third after an edit of one notebook), then with "build". For
# each build: how many notebooks mkdocs-jupyter converted, and whose render made each notebook page.
# Before and after, every function and class of mkdocs-jupyter, nbconvert, Jinja and MkDocs' pages
# (and every attribute of those classes), by identity: what a patch would change.
_BUILDS = """
import json, sys, types
import jinja2.environment, mkdocs.structure.pages, nbconvert.exporters.html, nbconvert.exporters.templateexporter
import mkdocs.commands.build as build
import mkdocs_jupyter.convert, mkdocs_jupyter.nbconvert2, mkdocs_jupyter.plugin
from mkdocs.config import load_config
MODULES = (mkdocs_jupyter.plugin, mkdocs_jupyter.convert, mkdocs_jupyter.nbconvert2, nbconvert.exporters.html,
           nbconvert.exporters.templateexporter, jinja2.environment, mkdocs.structure.pages)
def snapshot():
    out = {}
    for module in MODULES:
        for name, value in vars(module).items():
            if callable(value):
                out[f"{module.__name__}.{name}"] = id(value)
            if isinstance(value, type):
                out.update({f"{module.__name__}.{name}.{a}": id(v) for a, v in vars(value).items()})
    return out
before = snapshot()
converted = []
nb2html = mkdocs_jupyter.convert.nb2html
def counted(*args, **kwargs):
    converted.append(args[0])
    return nb2html(*args, **kwargs)
mkdocs_jupyter.convert.nb2html = counted
counts, renders = [], []
for command, sites in (("serve", ("s1", "s2", "s3")), ("build", ("b1", "b2"))):
    first = True
    for site in sites:
        if site == "s3":
            path = "docs/notebooks/scaling.ipynb"
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace('"# Why', '"# Edited: why', 1))
        config = load_config("mkdocs.yml", site_dir=site)
        if first:
            config.plugins.on_startup(command=command, dirty=False)
            first = False
        build.build(config)
        counts.append(len(converted))
        converted.clear()
    config.plugins.on_shutdown()
mkdocs_jupyter.convert.nb2html = nb2html
probe = sys.modules["probe.py"]  # (MkDocs loads a hook under its file's name)
changed = sorted(k for k, v in snapshot().items() if before.get(k) != v)
print(json.dumps({"counts": counts, "renders": sorted(set(probe.renders)), "changed": changed}))
"""

_PROBE = """
renders = []
def on_page_content(html, page, config, files):
    if page.file.src_uri.endswith(".ipynb"):
        render = page.render.__func__
        renders.append(f"{render.__module__}.{render.__qualname__}")
    return html
"""


def test_mkdocs_jupyter_renders_the_pages_unpatched_and_serve_converts_again_only_an_edited_notebook(tmp_path):
    """Builds of a small site with two notebook pages and the site's notebook hook. Each notebook
    page is made by mkdocs-jupyter's own render, and no function or class of mkdocs-jupyter,
    nbconvert, Jinja or MkDocs' pages is replaced. As `mkdocs serve` builds: the first converts both
    notebooks, the next (no edit) none and writes the same pages, the one after an edit of one
    notebook that one alone. As `mkdocs build` builds: every notebook, each time."""
    docs = tmp_path / "docs"
    (docs / "notebooks").mkdir(parents=True)
    for name in ("masking", "scaling"):
        (docs / "notebooks" / f"{name}.ipynb").write_bytes((nbs.NOTEBOOKS_DIR / f"{name}.ipynb").read_bytes())
    for name in ("index", "masking", "scaling"):
        (docs / f"{name}.md").write_text(f"# {name.title()}\n\nText.\n", encoding="utf-8")
    (tmp_path / "probe.py").write_text(_PROBE, encoding="utf-8")
    hook = ROOT / "publish/mkdocs/hooks/notebook_pages.py"
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - mkdocs-jupyter:\n      include: ['notebooks/*.ipynb']\n"
        "      execute: false\n      cache: false\n      include_requirejs: false\n"
        f"      custom_mathjax_url: ''\n      ignore: ['*.md']\nhooks:\n  - {json.dumps(str(hook))}\n  - probe.py\n",
        encoding="utf-8",
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-c", _BUILDS], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["renders"] == ["mkdocs_jupyter.plugin.Plugin.on_pre_page.<locals>.new_render"]
    assert got["changed"] == []
    assert got["counts"] == [2, 0, 1, 2, 2]
    page = {site: {n: (tmp_path / site / "notebooks" / n / "index.html").read_text(encoding="utf-8")
                   for n in ("masking", "scaling")} for site in ("s1", "s2", "s3", "b1")}  # fmt: skip
    assert page["s2"] == page["s1"]
    assert page["s3"]["masking"].replace("Edited: why", "Why") == page["s1"]["masking"]  # (the nav has its title)
    assert "Edited: why" in page["s3"]["scaling"] and "Edited" not in page["s1"]["scaling"]
    assert page["b1"]["masking"] == page["s3"]["masking"]
    assert "jupyter-wrapper" in page["s1"]["masking"] and "--jp-" not in page["s1"]["masking"]  # (cleaned: no CSS)
    assert not list(Path(tmp_path).glob(".cache/mkdocs-jupyter")), "a build kept mkdocs-jupyter's cache"
