"""MkDocs hook (publish/mkdocs/hooks/page_weight.py, once the site is built): the site's copies of KaTeX's
fonts, assets/vendor/katex/fonts/*.woff2, cut to the characters that the site's math shows.

A page with math downloads each KaTeX font its formulas use whole (Main-Regular 26 kB, AMS-Regular
28 kB, Math-Italic 16 kB, ...), though the site's math draws a few dozen of their characters. After
the build, when every page is written, this collects every character of the text of KaTeX's HTML
(``<span class="katex-html">``, not the MathML beside it, which no KaTeX font draws) in every page
and in the site's scripts and data files (where the playground could keep prerendered labels; the
one walk over the site, site_files.py, reads them), and subsets each font to that one set, plus the
space and the no-break space, plus the whole script (Latin letters, digits, Greek) of any letter in it (see
``SCRIPTS``): a character that one font's formulas need is kept in every font, which costs little
and needs no knowledge of which KaTeX class picks which font. The subset keeps every glyph's
advance width, the fonts' vertical metrics (hhea, OS/2), every OpenType layout feature and the
legacy kern table and the hinting, so that what is kept is drawn and placed as before; KaTeX sizes
its boxes from its own CSS, not from the font files. Each subset font is checked (it maps every
character that the whole font mapped and that the site uses, with the same advance widths) before
it replaces the site's copy; a font that fontTools cannot subset, or whose subset fails the check,
stops the build with an error naming it, and its copy is left whole.

A subset font is kept in ``.cache/katex-fonts/`` (beside mkdocs.yml, gitignored) under the SHA-256 of
the whole font, the characters and fontTools' version: a rebuild that shows the same characters
(under ``make serve``, after editing a page's words) reuses it instead of subsetting 20 fonts again
(2.5 s); a new character, font or fontTools makes a new key, so a stale subset is never served.

The vendored files in docs/ are not touched; the site's copies are rewritten by the build that
wrote them, and a build without the hook (Zensical) ships the whole fonts, heavier, not different.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
from pathlib import Path

from ... import ROOT
from ...files import atomic_write, check_folder, read_bytes
from . import ThemeChanged, site_files
from .site_files import ALWAYS, _katex_text, characters  # noqa: F401 - the names the build and tests use

log = logging.getLogger("mkdocs.plugins.katex_fonts")

FONTS = Path("assets/vendor/katex/fonts")
CACHE_DIR = Path(".cache") / "katex-fonts"  # under the folder of mkdocs.yml
# Another folder for one build (bench/common.py's cold builds use an empty one, not deleting this).
CACHE_DIR_ENV = "KATEX_FONTS_CACHE_DIR"
SUBSET_VERSION = b"2"  # how subset_woff2 cuts, part of the cache key: 2 = the vendored timestamp kept
# Whole scripts kept when the math uses one of their letters: FreeType's auto-hinter (Chromium on
# Linux) sets a font's blue zones and stem widths for a script from reference letters of it (Latin
# "THEZOCQS", "xzroesc", ...; Greek "ΒΔΖΞΘΟ", "αειοπστω", ...), so a font without them would draw the
# letters it keeps a pixel differently.
SCRIPTS = (
    frozenset(range(0x30, 0x3A)) | frozenset(range(0x41, 0x5B)) | frozenset(range(0x61, 0x7B)),  # Latin, digits
    frozenset(range(0x370, 0x400)),  # Greek and Coptic
)


def _text(path) -> str:
    return Path(path).read_text(encoding="utf-8", errors="replace")


def used_characters(site: Path) -> set[str]:
    """:func:`characters` of the site's pages, scripts and data files (:mod:`.site_files`, the one
    walk over the built site)."""
    return set(ALWAYS).union(*(facts.katex_chars for _, facts in site_files.read(site)))


def with_scripts(chars: set[str]) -> set[str]:
    """``chars`` with every character of each of ``SCRIPTS`` that one of them is in."""
    codes = {ord(c) for c in chars}
    return chars | {chr(code) for script in SCRIPTS if not codes.isdisjoint(script) for code in script}


def subset_woff2(data: bytes, chars: set[str], name: str) -> bytes:
    """The woff2 font ``data`` cut to ``chars`` (glyphs that their layout rules reach included),
    checked: every character of ``chars`` that the whole font maps is mapped to a glyph of the same
    advance width. ``name`` names the font in the error raised when fontTools fails or the check does."""
    from io import BytesIO

    from fontTools import subset
    from fontTools.ttLib import TTFont

    try:
        whole = TTFont(BytesIO(data))
        options = subset.Options(
            layout_features=["*"],
            name_IDs=["*"],
            name_languages=["*"],
            legacy_kern=True,
            notdef_outline=True,
            glyph_names=True,
            flavor="woff2",
        )
        # The vendored font's timestamp kept: fontTools would write the time of the build into the
        # 'head' table, so that the same font cut to the same characters came out different bytes.
        font = TTFont(BytesIO(data), recalcTimestamp=False)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=[ord(c) for c in chars])
        subsetter.subset(font)
        out = BytesIO()
        font.save(out)
        cut = TTFont(BytesIO(out.getvalue()))
        whole_cmap, cut_cmap = whole.getBestCmap(), cut.getBestCmap()
        whole_hmtx, cut_hmtx = whole["hmtx"], cut["hmtx"]
    except Exception as e:
        raise RuntimeError(f"KaTeX font {name}: fontTools could not subset it ({type(e).__name__}: {e})") from e
    for code in sorted(ord(c) for c in chars):
        if code in whole_cmap:
            if code not in cut_cmap:
                raise RuntimeError(f"KaTeX font {name}: its subset lost U+{code:04X} ({chr(code)!r})")
            if cut_hmtx[cut_cmap[code]][0] != whole_hmtx[whole_cmap[code]][0]:
                raise RuntimeError(f"KaTeX font {name}: its subset changed the advance width of U+{code:04X}")
    return out.getvalue()


def cache_key(data: bytes, chars: set[str]) -> str:
    from fontTools import version as fonttools_version

    digest = hashlib.sha256(SUBSET_VERSION + b"\0" + data)
    digest.update(b"\0" + "".join(sorted(chars)).encode("utf-8") + b"\0" + fonttools_version.encode())
    return digest.hexdigest()


def cached_subset(data: bytes, chars: set[str], name: str, folder: Path) -> bytes:
    """subset_woff2, kept in ``folder`` under :func:`cache_key` (written whole, then renamed). The
    folder is one of the repository (or of the system's temporary folder, KATEX_FONTS_CACHE_DIR's)
    reached through no symbolic link, and so is the entry read or written (:func:`publish.files.check_folder`):
    UnsafePath otherwise."""
    folder = check_cache(folder)
    path = folder / f"{cache_key(data, chars)}.woff2"
    if path.is_file() or path.is_symlink():
        return read_bytes(path, folder)
    cut = subset_woff2(data, chars, name)
    atomic_write(path, cut, root=folder)
    return cut


def cache_folder(config) -> Path:
    """The folder of the subset fonts: KATEX_FONTS_CACHE_DIR, else .cache/katex-fonts/ beside mkdocs.yml."""
    return Path(os.environ.get(CACHE_DIR_ENV) or Path(config["config_file_path"]).parent / CACHE_DIR)


def check_cache(folder: Path) -> Path:
    """``folder`` (absolute) if the fonts may be cached there, else UnsafePath naming it and why
    (:func:`publish.files.check_folder`): a folder of the repository reached through no symbolic link
    (``.cache`` and ``.cache/katex-fonts`` are no links), or of the system's temporary folder; or
    the folder KATEX_FONTS_CACHE_DIR names, which whoever runs the build chose (the bench, the tests'
    copies of the repository, which share the repository's), if it is no link itself."""
    given = os.environ.get(CACHE_DIR_ENV)
    root = Path(os.path.abspath(given)).parent if given and Path(given) == Path(folder) else ROOT
    return check_folder(folder, f"the KaTeX fonts' cache ({CACHE_DIR_ENV} or {CACHE_DIR})", root)


# The second process: a new interpreter (multiprocessing's "spawn"), not a fork of MkDocs' process,
# whose other threads (KaTeX's V8 engine, the notebook pages' reader) could hold a lock a fork keeps.
_SPAWN = multiprocessing.get_context("spawn")


class _Early:
    """The second process subsetting the fonts while MkDocs writes the pages (:func:`on_env`)."""

    process: multiprocessing.process.BaseProcess | None = None
    chars: set[str] | None = None  # the characters it subsets the fonts to


def on_env(env, config, files) -> None:
    """Once every page is rendered, before MkDocs writes them: the fonts subset in a second process
    (:func:`subset_all`, in multiprocessing's Process), into the cache, to the characters that the
    pages' math (each page's content) and the scripts and data files among the site's files show, which is
    what :func:`used_characters` will find in the written site. A cold build on two cores then
    waits for the fonts, about 2.5 s of one core, only if writing the pages took less. If the
    process fails, :func:`on_post_build` subsets the fonts itself (and raises the error, if there is
    one); if the two sets differ, it does too (the cache key holds the characters: a subset made for
    other characters is never used) and warns, for the prediction here has missed something."""
    stop_early()
    fonts = sorted((Path(config["docs_dir"]) / FONTS).glob("*.woff2"))
    if not fonts:
        return
    pages = (f.page.content for f in files if f.page is not None and f.page.content)
    scripts = (
        _text(f.abs_src_path)
        for f in files
        if f.src_uri.endswith((".js", ".json")) and not f.is_documentation_page() and f.abs_src_path
    )
    chars = _Early.chars = with_scripts(characters(pages, scripts))
    try:
        _Early.process = _SPAWN.Process(
            target=subset_all, args=(cache_folder(config), fonts, chars), name="katex-fonts", daemon=True
        )
        _Early.process.start()
    except OSError:  # no second process: on_post_build subsets them
        _Early.process = None


def subset_all(folder: Path, fonts: list[Path], chars: set[str]) -> None:
    """Each of ``fonts`` cut to ``chars``, into the cache ``folder`` (:func:`cached_subset`): the
    second process's work. An error ends it quietly: on_post_build then subsets the fonts itself,
    and raises the error there, in the build."""
    try:
        for font in fonts:
            cached_subset(font.read_bytes(), chars, font.name, folder)
    except Exception:  # noqa: BLE001 - reported by on_post_build, which does the same work
        pass


def stop_early(wait: bool = False) -> None:
    """The second process waited for (``wait``: it is writing the fonts on_post_build reads) or stopped."""
    process, _Early.process = _Early.process, None
    if process is None:
        return
    if not wait:
        process.kill()
    process.join()


def on_post_build(config) -> None:
    early = _Early.chars if _Early.process is not None else None
    stop_early(wait=True)
    site = Path(config["site_dir"])
    fonts = sorted((site / FONTS).glob("*.woff2"))
    if not fonts:
        raise ThemeChanged(f"KaTeX's fonts are not {FONTS.as_posix()}/*.woff2 in the built site", "katex_fonts.py")
    folder = cache_folder(config)
    chars = used_characters(site)
    if chars == ALWAYS and any("katex" in facts.classes for _, facts in site_files.read(site)):
        raise ThemeChanged(
            'the built site holds KaTeX\'s math (class katex) but no text in a <span class="katex-html">, '
            "which is what the fonts are cut to",
            "site_files.py, _KATEX_HTML",
        )
    chars = with_scripts(chars)
    if early is not None and early != chars:
        log.warning(
            "KaTeX fonts: subset twice, because the characters of the pages' math differ from the written "
            f"site's (only in the pages: {''.join(sorted(early - chars))!r}; only in the site: "
            f"{''.join(sorted(chars - early))!r}): something writes math outside the pages' content "
            "(publish/mkdocs/page_weight/katex_fonts.py, on_env)"
        )
    for path in fonts:
        cut = cached_subset(path.read_bytes(), chars, path.name, folder)
        if len(cut) < path.stat().st_size:
            atomic_write(path, cut, root=site)
