"""`make zensical`: the site built with Zensical beside the MkDocs build, and what differs, measured.

Material for MkDocs reached its end of life on 2026-11-05; its team's successor, Zensical, reads
mkdocs.yml and runs the same Python-Markdown and pymdownx extensions (publish/markdown/), but neither
MkDocs hooks (publish/mkdocs/: what only MkDocs runs) nor MkDocs plugins such as mkdocs-jupyter. This
script builds the site both ways and prints the gap as a list of counts: pages missing, pages whose
content differs (headings, code blocks, tables, math, tabs, admonitions, links that lead nowhere),
the navigation, the search index, the scripts and styles the pages load, and the build times.

    python publish/zensical_report.py [--site-dir site-zensical] [--mkdocs-site DIR]

Zensical writes into --site-dir (refused if it holds anything but a previous Zensical build of this
script), from a copy of mkdocs.yml that only adds site_dir (.zensical-*.yml beside it, removed after the
build); the MkDocs build goes to a temporary folder unless --mkdocs-site names one already built
(`make build` writes site/).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup

from .files import atomic_write, unsafe
from .source import mkdocs_yml

ROOT = Path(__file__).resolve().parents[1]
MARK = ".zensical-build"  # left in --site-dir, so that a later run knows the folder is its own

# What a page's content holds, by CSS selector, inside Material's article.
CONTENT = {
    "headings": "h2, h3, h4, h5, h6",
    "code blocks": "div.highlight, div.jp-InputArea, div.jp-OutputArea",
    "tables": "table",
    "math": ".arithmatex",
    "tab sets": ".tabbed-set",
    "admonitions": ".admonition, details",
    "figures": "img, svg:not(.md-icon svg):not(.twemoji svg)",
    "links": "a[href]:not(.md-content__button):not(.headerlink)",
}
# Elements that overrides/partials/ give an accessible name (axe-core requires one).
NAMED = {"search dialog": "[data-md-component=search][role=dialog]", "progress bar": "[role=progressbar]"}


@dataclass
class Build:
    name: str
    dir: Path
    seconds: float
    output: str

    def pages(self) -> dict[str, Path]:
        """Every HTML page by its path in the site (assets left out)."""
        return {
            p.relative_to(self.dir).as_posix(): p
            for p in sorted(self.dir.rglob("*.html"))
            if "assets" not in p.relative_to(self.dir).parts
        }


@dataclass
class Page:
    title: str
    counts: Counter
    words: int
    dead_links: list[str] = field(default_factory=list)
    scripts: set[str] = field(default_factory=set)
    styles: set[str] = field(default_factory=set)
    edit_link: bool = False
    data_modules: list[str] = field(default_factory=list)
    notebook_links: Counter = field(default_factory=Counter)  # "page" / "raw .ipynb" -> links in content
    unnamed: list[str] = field(default_factory=list)  # NAMED elements without an aria-label


def asset_name(url: str) -> str:
    """A script's or stylesheet's file name without the theme's content hash (bundle.a5f9d56c.min.js)."""
    return re.sub(r"\.[0-9a-f]{8}(?=\.min\.)", "", Path(urlsplit(url).path).name)


def read_page(build: Build, rel: str) -> Page:
    path = build.dir / rel
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article") or soup.body or soup
    h1 = article.find("h1")
    counts = Counter({name: len(article.select(sel)) for name, sel in CONTENT.items()})
    dead = []
    notebooks = Counter()
    for a in article.select(CONTENT["links"]):
        href = a["href"]
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        if "notebooks/" in parts.path:
            notebooks["raw .ipynb" if parts.path.endswith(".ipynb") else "page"] += 1
        target = (path.parent / unquote(parts.path)).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            dead.append(href)
    return Page(
        title=h1.get_text(" ", strip=True) if h1 else "",
        counts=counts,
        words=len(article.get_text(" ", strip=True).split()),
        dead_links=dead,
        scripts={asset_name(s["src"]) for s in soup.select("script[src]")},
        styles={asset_name(s["href"]) for s in soup.select("link[rel=stylesheet][href]")},
        edit_link=soup.select_one('a[rel="edit"], a.md-content__button[href*="/edit/"]') is not None,
        data_modules=[e["data-module"] for e in soup.select("[data-module]")],
        notebook_links=notebooks,
        unnamed=[name for name, sel in NAMED.items() if any(not e.get("aria-label") for e in soup.select(sel))],
    )


def nav_links(build: Build) -> list[str]:
    """The pages the home page's navigation links to, as paths in the site."""
    index = build.dir / "index.html"
    soup = BeautifulSoup(index.read_text(encoding="utf-8"), "html.parser")
    nav = soup.select_one("nav.md-nav--primary") or soup
    out = []
    for a in nav.select("a.md-nav__link[href]"):
        href = urlsplit(a["href"]).path
        if a["href"].startswith("#"):
            continue
        target = (build.dir / unquote(href or ".")).resolve().relative_to(build.dir.resolve()).as_posix()
        out.append(target if target != "." else "")
    return sorted(set(out))


def search_entries(build: Build) -> int | None:
    for rel, key in (("search/search_index.json", "docs"), ("search.json", "items")):
        path = build.dir / rel
        if path.is_file():
            return len(json.loads(path.read_text(encoding="utf-8"))[key])
    return None


def run_build(name: str, cmd: list[str], site: Path, env: dict[str, str]) -> Build:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{name} build failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return Build(name, site, seconds, proc.stdout + proc.stderr)


def own_folder(site: Path) -> None:
    """--site-dir is new, empty, or a previous Zensical build of this script; anything else is refused."""
    if site.exists() and any(site.iterdir()) and not (site / MARK).is_file():
        sys.exit(f"{site} holds files that this script did not write (no {MARK}): choose another --site-dir")


def build_zensical(site: Path) -> Build:
    if problem := unsafe(site / MARK, ROOT):  # outside the repository, or a symbolic link on the way
        sys.exit(f"--site-dir {site}: Zensical builds only into a folder of the repository ({ROOT}): {problem}")
    own_folder(site)
    # What the MkDocs hook writes before a build and Zensical runs no hook for: the files gathered
    # from every worked example (the playground's presets and bundle), which git ignores.
    from .generate.update import UpdateError, write_gathered  # noqa: PLC0415 - the report's other uses need none of it

    try:
        write_gathered()
    except (UpdateError, ValueError) as exc:  # ValueError: a spec that does not load (SpecError)
        sys.exit(str(exc))
    zensical = shutil.which("zensical", path=str(Path(sys.executable).parent)) or shutil.which("zensical")
    if zensical is None:
        sys.exit("zensical is not installed: `make zensical` installs it (requirements.lock pins it)")
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")  # copied as written, site_dir added
    if "site_dir" in mkdocs_yml.config():
        sys.exit("mkdocs.yml sets site_dir: teach publish/zensical_report.py to keep it")
    # mkdocs.yml as it is with site_dir added, beside it (paths in it are relative to its folder),
    # under a name of this script's own, removed after the build.
    # The folder is marked as this script's before the build too: a build that fails half-way
    # leaves files, and the next run must still know them for its own.
    site.mkdir(parents=True, exist_ok=True)
    mark = lambda: atomic_write(site / MARK, "written by publish/zensical_report.py (zensical build)\n", root=ROOT)  # noqa: E731
    mark()
    try:
        with tempfile.NamedTemporaryFile("w", dir=ROOT, prefix=".zensical-", suffix=".yml", encoding="utf-8") as config:
            config.write(f"{text}\n# added by publish/zensical_report.py\nsite_dir: {json.dumps(str(site))}\n")
            config.flush()
            return run_build("Zensical", [zensical, "build", "-f", config.name], site, {})
    finally:
        if site.is_dir():
            mark()


def build_mkdocs(site: Path) -> Build:
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    return run_build("MkDocs", cmd, site, {"NO_MKDOCS_2_WARNING": "1"})


def version(module: str) -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as v

    try:
        return v(module)
    except PackageNotFoundError:
        return "?"


def report(mk: Build, zs: Build) -> list[str]:
    out: list[str] = []
    say = out.append
    mk_pages, zs_pages = mk.pages(), zs.pages()
    say(f"# MkDocs {version('mkdocs')} + Material {version('mkdocs-material')} vs Zensical {version('zensical')}")
    say("")
    mk_time = f"{mk.seconds:.1f} s (strict)" if mk.seconds == mk.seconds else "(given, not timed)"
    say(f"- build time: MkDocs {mk_time}, Zensical {zs.seconds:.1f} s")
    hooks = mkdocs_yml.config().get("hooks") or []
    say(f"- MkDocs hooks in mkdocs.yml, which Zensical does not run: {len(hooks)} ({', '.join(hooks)})")
    warnings = [ln.strip() for ln in zs.output.splitlines() if re.search(r"warn|error", ln, re.I)]
    say(f"- Zensical's build printed {len(warnings)} warning or error lines" + (":" if warnings else ""))
    out += [f"    {w}" for w in warnings[:20]]
    missing = sorted(set(mk_pages) - set(zs_pages))
    extra = sorted(set(zs_pages) - set(mk_pages))
    say(f"- pages: MkDocs {len(mk_pages)}, Zensical {len(zs_pages)}; missing from Zensical: {len(missing)}")
    by_folder = Counter(p.split("/")[0] if "/" in p else "(top)" for p in missing)
    for folder, n in sorted(by_folder.items()):
        names = [p for p in missing if (p.split("/")[0] if "/" in p else "(top)") == folder]
        say(f"    {folder}/: {n} ({', '.join(names[:4])}{', ...' if n > 4 else ''})")
    ipynb = sorted(p.relative_to(zs.dir).as_posix() for p in zs.dir.rglob("*.ipynb"))
    if ipynb:
        say(f"    Zensical copies the {len(ipynb)} notebooks as raw .ipynb files instead (mkdocs-jupyter renders them)")
    if extra:
        say(f"- pages only Zensical built: {len(extra)} ({', '.join(extra[:6])})")

    mk_nav, zs_nav = nav_links(mk), nav_links(zs)
    lost = sorted(set(mk_nav) - set(zs_nav))
    gained = sorted(set(zs_nav) - set(mk_nav))
    say(f"- navigation (home page): MkDocs links {len(mk_nav)} pages, Zensical {len(zs_nav)}")
    examples = [p for p in lost if p.startswith("examples/") and p != "examples/index.html"]
    if examples:
        say(f"    worked examples no longer in the nav: {len(examples)} (publish/mkdocs/worked_examples.py lists them)")
    other = [p for p in lost if p not in examples]
    if other:
        say(f"    other nav entries lost: {len(other)} ({', '.join(other[:6])}{', ...' if len(other) > 6 else ''})")
    if gained:
        say(
            f"    nav entries only in Zensical: {len(gained)} "
            f"({', '.join(gained[:6])}{', ...' if len(gained) > 6 else ''})"
        )

    mk_search, zs_search = search_entries(mk), search_entries(zs)
    say(f"- search index entries: MkDocs {mk_search}, Zensical {zs_search}")

    common = sorted(set(mk_pages) & set(zs_pages))
    differ: list[str] = []
    totals = Counter()
    scripts_lost: Counter = Counter()
    styles_lost: Counter = Counter()
    edit_lost = 0
    modules_lost = 0
    notebook_links = {"MkDocs": Counter(), "Zensical": Counter()}
    unnamed = {"MkDocs": Counter(), "Zensical": Counter()}
    dead_total = Counter()
    for rel in common:
        a, b = read_page(mk, rel), read_page(zs, rel)
        changes = []
        if a.title != b.title:
            changes.append(f"title {a.title!r} -> {b.title!r}")
        for name in CONTENT:
            if a.counts[name] != b.counts[name]:
                changes.append(f"{name} {a.counts[name]} -> {b.counts[name]}")
                totals[name] += 1
        if abs(a.words - b.words) > max(20, 0.05 * a.words):
            changes.append(f"words {a.words} -> {b.words}")
            totals["words (±5%)"] += 1
        new_dead = [h for h in b.dead_links if h not in a.dead_links]
        if new_dead:
            changes.append(f"{len(new_dead)} links to nothing ({', '.join(sorted(set(new_dead))[:3])})")
            dead_total[rel] = len(new_dead)
        scripts_lost.update(a.scripts - b.scripts)
        styles_lost.update(a.styles - b.styles)
        edit_lost += a.edit_link and not b.edit_link
        notebook_links["MkDocs"].update(a.notebook_links)
        notebook_links["Zensical"].update(b.notebook_links)
        unnamed["MkDocs"].update(a.unnamed)
        unnamed["Zensical"].update(b.unnamed)
        modules_lost += bool(a.data_modules) and a.data_modules != b.data_modules
        if changes:
            differ.append(f"    {rel}: " + "; ".join(changes))
    say(f"- pages in both: {len(common)}; with a difference in their content: {len(differ)}")
    out += differ
    if totals:
        say("    pages differing, by what: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    if dead_total:
        say(f"- links (in content) that lead to no file in the Zensical build: {sum(dead_total.values())}, "
            f"on {len(dead_total)} pages")  # fmt: skip
    own = {
        "katex.js", "tabs.js", "scrollable.js", "modules.js", "search-on-demand.js", "same-page-links.js", "extra.css",
        "katex.min.css",
    }  # fmt: skip
    lost_own = sorted(n for n in scripts_lost | styles_lost if n in own)
    say(
        "- the site's own scripts and styles on every page: "
        + (f"missing from Zensical's pages: {', '.join(lost_own)}" if lost_own else "all kept")
    )
    theirs = sorted(n for n in scripts_lost | styles_lost if n not in own)
    if theirs:
        say(f"    files the MkDocs pages load and Zensical's do not: {', '.join(theirs[:8])}")
    say(f"- edit links (content.action.edit): lost on {edit_lost} of {len(common)} pages")
    for name, links in notebook_links.items():
        say(f"- links to notebooks in the pages' content, {name}: " + (", ".join(
            f"{n} to a {kind}" for kind, n in sorted(links.items())) or "none"))  # fmt: skip
    for name in NAMED:
        say(f"- {name} without an accessible name (overrides/partials/): MkDocs on {unnamed['MkDocs'][name]} pages, "
            f"Zensical on {unnamed['Zensical'][name]} pages")  # fmt: skip
    say(f"- interactive elements (data-module, the playground): lost on {modules_lost} pages")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-dir", type=Path, default=ROOT / "site-zensical", help="where Zensical builds")
    parser.add_argument("--mkdocs-site", type=Path, help="an MkDocs build to compare with (else one is made)")
    args = parser.parse_args(argv)
    site = args.site_dir.resolve()
    print(f"building with Zensical into {site} ...", file=sys.stderr)
    zs = build_zensical(site)
    if args.mkdocs_site:
        mk = Build("MkDocs", args.mkdocs_site.resolve(), float("nan"), "")
        print("\n".join(report(mk, zs)))
        return 0
    with tempfile.TemporaryDirectory(prefix="mkdocs-site-") as tmp:
        print(f"building with MkDocs into {tmp} ...", file=sys.stderr)
        mk = build_mkdocs(Path(tmp) / "site")
        print("\n".join(report(mk, zs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
