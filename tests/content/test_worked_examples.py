"""Worked examples from one spec file each: the generated pages, the scaffolding command, bad
specs stopping the build, the tests and `make update`, and the walk-through of
docs/add-an-example.md run as a newcomer would run it, in a copy of the repository."""

from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from bs4 import BeautifulSoup

from publish import DOCS, ROOT, files
from publish import cli as publish_cli
from publish.fmt import cell, is_integral, num
from publish.generate import example_pages as ep
from publish.generate import registry, scaffold, spec_messages, update
from selfattn_ref import examples
from selfattn_ref.cli import EXIT_USAGE

from pages import EDIT_URI

SLUGS = examples.available()
WALKTHROUGH = DOCS / "add-an-example.md"


# --- the generated files ---------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_every_example_has_a_page_scripts_and_a_notebook(slug):
    missing = [
        p.relative_to(ROOT).as_posix()
        for p in (ep.page_path(slug), ep.notebook_path(slug), *(ep.snippet_path(slug, lib) for lib in ep.LIBRARIES))
        if not p.is_file()
    ]
    assert not missing, f"missing {missing}; run `make update`"


def test_the_gallery_is_the_same_whichever_examples_there_are_and_the_build_adds_the_table():
    """The gallery page holds no example (a new example's pull request does not rewrite it): the
    extension publish.markdown.gallery puts the table there, a row per example in reading order."""
    import markdown

    text = (ep.PAGES_DIR / "index.md").read_text(encoding="utf-8")
    assert text == ep.index() and ep.GALLERY_MARKER in text.splitlines()
    assert not [slug for slug in SLUGS if f"]({slug}.md)" in text]
    html = markdown.Markdown(extensions=["tables", "publish.markdown.gallery"]).convert(text)
    rows = BeautifulSoup(html, "html.parser").select("table tbody tr")
    assert [tr.a["href"] for tr in rows] == [f"{ex.slug}.md" for ex in ep.in_reading_order(examples.load_all())]
    assert ep.GALLERY_MARKER not in html


@pytest.mark.parametrize("slug", SLUGS)
def test_page_shows_every_step_the_code_and_the_links(slug):
    ex = examples.load(slug)
    text = ep.page_path(slug).read_text(encoding="utf-8")
    includes = set(re.findall(r'--8<-- "([^"]+)"', text))
    tables = {f"docs/generated/{slug}/{name}.md" for name in ("embeddings", "output")}
    # With several heads, each head's steps: head_1_scores.md, head_1_weights.md, ...
    heads = [f"head_{k}_" for k in range(1, ex.heads + 1)] if ex.heads > 1 else [""]
    for h in heads:
        tables |= {f"docs/generated/{slug}/{h}{name}.md" for name in ("scores", "weights", "dot_products")}
        tables |= {f"docs/generated/{slug}/{h}{s}_{i}.md" for s in ("softmax", "mix") for i in range(len(ex.tokens))}
        if ex.scale:
            tables.add(f"docs/generated/{slug}/{h}scaled.md")
        if ex.heads > 1:
            tables |= {f"docs/generated/{slug}/{h}{m}.md" for m in ("Q", "K", "V", "output")}
    if ex.projections != "none":
        tables |= {f"docs/generated/{slug}/{m}.md" for m in "QKV"}
    if ex.heads > 1:
        assert f"- {ex.heads} heads, as in [Multi-head attention](../multi-head.md)" in text
        assert "## Concatenate and project" in text
    # each script's math, the whole of it (its script section: without the banner) and its output
    scripts = {
        f"snippets/examples/{slug}_{lib}{end}" for lib in ep.LIBRARIES for end in (".py:math", ".py:script", ".out")
    }
    assert tables | scripts <= includes, sorted((tables | scripts) - includes)
    assert f"(../playground.md?preset={slug})" in text
    assert f"(../notebooks/examples/{slug}.ipynb)" in text
    assert f"# {ex.title}\n" in text


@pytest.mark.parametrize("slug", SLUGS)
def test_where_each_token_looks_is_the_largest_weight(slug):
    """One sentence per token under the weights (with several heads, under each head's, in its tab)."""
    ex = examples.load(slug)
    st = examples.run(ex)
    text = ep.page_path(slug).read_text(encoding="utf-8")
    for k, w in enumerate([h.weights for h in st.heads] or [st.weights]):
        for i, token in enumerate(ex.tokens):
            if ex.causal and i == 0:
                assert f"- **{token}** comes first and can only attend to itself." in text
                continue
            found = re.findall(
                rf"^ *- \*\*{re.escape(token)}\*\* (attends most to|spreads its attention evenly, the same weight on) "
                r"(.+?)(, as much to each)?\.$",
                text,
                re.M,
            )
            assert len(found) == max(1, len(st.heads)), f"no sentence for {token!r} in each head"
            how, whom, each = found[k]
            named = re.findall(r"“([^”]+)”|(itself)", whom)
            named = [token if itself else quoted for quoted, itself in named]
            top = [ex.tokens[j] for j in range(len(w[i])) if num(w[i, j], ex.decimals) == num(w[i].max(), ex.decimals)]
            visible = i + 1 if ex.causal else len(ex.tokens)
            assert named == top, (whom, top)
            # "attends most" only where some key gets less: every key it may see, the same, is an even spread
            assert how.startswith("spreads") == (len(top) == visible), (how, top)
            assert bool(each) == (1 < len(top) < visible), (each, top)


@pytest.mark.parametrize("slug", SLUGS)
def test_notebook_shows_the_scripts_recorded_output(slug):
    nb = json.loads(ep.notebook_path(slug).read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1
    script = ep.snippet_path(slug, "numpy")
    # the script as the page's "whole script" block shows it: its script section, which leaves the
    # banner out, without the math section's markers
    lines = script.read_text(encoding="utf-8").splitlines(keepends=True)
    markers = {f"# --8<-- [{e}:{s}]\n" for e in ("start", "end") for s in ("math", "script")}
    assert sum(line in markers for line in lines) == 4 and "(make update); do not edit." in lines[0]
    assert "".join(code[0]["source"]) + "\n" == "".join(line for line in lines[2:] if line not in markers)
    assert "".join(code[0]["outputs"][0]["text"]) == script.with_suffix(".out").read_text(encoding="utf-8")


# --- the built site ---------------------------------------------------------------------------


def weights_cells(html: Path) -> list[list[list[str]]]:
    """The cells of every table of weights on the page (one per head)."""
    soup = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
    return [
        [[td.get_text(strip=True) for td in tr.find_all("td")][1:] for tr in table.find("tbody").find_all("tr")]
        for table in soup.select(".weights-figure table")
    ]


def expected_weights(ex: examples.Example) -> list[list[list[str]]]:
    st = examples.run(ex)
    return [
        [[cell(x, ex.decimals, is_integral(w)) for x in row] for row in w]
        for w in [h.weights for h in st.heads] or [st.weights]
    ]


def check_built_page(site: Path, ex: examples.Example) -> None:
    """The page of the worked example ``ex`` in the built ``site``: the reference's weights, in
    the nav, its edit link on its spec, its notebook's page beside it."""
    slug = ex.slug
    html = site / "examples" / slug / "index.html"
    assert html.is_file()
    assert weights_cells(html) == expected_weights(ex)
    soup = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
    nav = {a.get("href") for a in soup.select("nav.md-nav--primary a")}
    assert f"../{slug}/" in nav or "./" in nav, sorted(h for h in nav if h)
    edit = soup.select_one("a.md-content__button[rel=edit]")
    assert edit is not None and edit["href"] == f"{EDIT_URI.removesuffix('docs/')}selfattn_ref/examples/{slug}.toml"
    assert (site / "notebooks" / "examples" / slug / "index.html").is_file()


def check_gallery_nav(site: Path, slugs: list[str]) -> None:
    """The built ``site``'s nav lists the gallery and the page of every worked example of ``slugs``."""
    soup = BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser")
    hrefs = {a.get("href") for a in soup.select("nav.md-nav--primary a")}
    assert {f"examples/{slug}/" for slug in slugs} | {"examples/"} <= hrefs, sorted(h for h in hrefs if h)


# (The walk-through's Test step leaves these two out, and test_the_walkthrough_adds_a_checked_page
# makes their checks on the copy's own build: they would build the copy a second time.)
@pytest.mark.parametrize("slug", SLUGS)
def test_built_page_is_in_the_nav_and_shows_the_references_weights(strict_build, slug):
    assert strict_build.proc.returncode == 0, strict_build.proc.stderr
    check_built_page(strict_build.dir, examples.load(slug))


def test_the_gallery_lists_every_example_in_the_nav(strict_build):
    check_gallery_nav(strict_build.dir, SLUGS)


# --- the scaffolding command --------------------------------------------------------------------


@pytest.fixture
def examples_dir(tmp_path, monkeypatch):
    """A copy of the examples folder that new_example and load_all use instead of the package's,
    without an example named or titled as the one these tests make, the walk-through's river_bank:
    a contributor who followed the walk-through has one, and the tests failed on it."""
    folder = tmp_path / "examples"
    folder.mkdir()
    for ex in examples.load_all():
        if ex.slug != "river_bank" and ex.title.casefold() != "the river bank":
            shutil.copy(ex.path, folder / ex.path.name)
    monkeypatch.setattr(examples, "EXAMPLES_DIR", folder)
    # the commands write inside the repository only (publish.files): here, inside this test's folder
    monkeypatch.setattr(update, "_atomic_write", functools.partial(files.atomic_write, root=tmp_path))
    return folder


@pytest.mark.parametrize(
    "target, shown",
    [("../maskin.md", "docs/maskin.md"), ("river_bnk.md#step-1", "docs/examples/river_bnk.md"),
     ("../../README.md", "README.md"),
     ("../generated/the_cat_sat/weights.md", "docs/generated/the_cat_sat/weights.md")],
)  # fmt: skip
def test_a_description_link_to_no_page_is_refused_naming_the_spec_key_and_line(examples_dir, target, shown):
    """Issue 51: a description's link to a missing page passed the spec check, and the build then
    failed naming the generated page. The spec check (make update, the build, the tests) names the
    spec file, the key and the line, and the links that do lead to a page pass."""
    base = (examples_dir / "the_cat_sat.toml").read_text(encoding="utf-8").replace('"The cat sat"', '"The river bank"')
    good = "See [Masking](../masking.md), [The cat sat](the_cat_sat.md#the-input) and [this](river_bank.md)."
    path = examples_dir / "river_bank.toml"
    path.write_text(base.replace("walks through it.", f"walks through it.\n{good}"), encoding="utf-8")
    update.check_specs(examples.load_all())
    text = base.replace("walks through it.", f"walks through it.\nA [link]({target}) to nothing.")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f"A [link]({target}) to nothing.") + 1
    with pytest.raises(examples.SpecError) as refused:
        update.check_specs(examples.load_all())
    assert str(refused.value) == (
        f"{path}, line {line}: 'description' links to {target!r}, and {shown} is no page of the site: link a page "
        "of docs/ by its path from docs/examples/, as ../masking.md, or another example's page, as the_cat_sat.md"
    )


def test_new_example_from_the_two_heads_keeps_its_heads(examples_dir):
    path, text, ex = scaffold.prepare("two_more", title="Two more heads", base="the_cat_sat_two_heads")
    assert ex.heads == 2 and "\n# Heads of multi-head attention, 1 to 4," in text and "\nheads = 2\n" in text
    assert len(examples.run(ex).heads) == 2


def test_new_example_writes_a_valid_spec_from_another(examples_dir):
    path = scaffold.new_example("river_bank", title="The river bank", base="learned")
    assert path == examples_dir / "river_bank.toml"
    new, base = examples.load_file(path), examples.load("learned")
    assert new.title == "The river bank" and new.slug == "river_bank"
    assert (new.seed, new.std, new.projections, new.scale, new.causal) == (42, 0.5, "random", True, False)
    np.testing.assert_array_equal(new.E, base.E)
    np.testing.assert_array_equal(new.W_Q, base.W_Q)
    assert "river_bank" in [ex.slug for ex in examples.load_all()]


@pytest.mark.parametrize("base", SLUGS)
def test_the_scaffold_lists_every_key_the_loader_accepts(base):
    """CONTRIBUTING: the scaffold explains every key. Each key the loader accepts is written, or
    commented out where the example does not use it, and uncommented it is a valid spec."""
    text = scaffold.template("river_bank", "The river bank", examples.load(base))
    written = set(re.findall(r"^(\w+) = ", text, re.M))
    commented = set(re.findall(r"^# (\w+) = ", text, re.M))
    assert written | commented == examples._REQUIRED | examples._OPTIONAL, sorted(written | commented)
    assert not written & commented and examples._REQUIRED <= written, (written, commented)
    path = examples.EXAMPLES_DIR / "river_bank.toml"
    assert examples.load_text(text.replace("\n# order = 10\n", "\norder = 10\n"), path).order == 10
    if base == "the_cat_sat":  # identity matrices, scaled, d = 4: two heads of width 2
        assert examples.load_text(text.replace("\nheads = 1\n", "\nheads = 2\n"), path).heads == 2
    for kind, keys in (("random", ("seed", "std")), ("given", ("W_Q", "W_K", "W_V"))):
        spec = re.sub(r'^projections = ".*"$', f'projections = "{kind}"', text, flags=re.M)
        spec = re.sub(rf"^# ({'|'.join(keys)}) = ", r"\1 = ", spec, flags=re.M)
        for other in {"seed", "std", "W_Q", "W_K", "W_V"} - set(keys):
            spec = re.sub(rf"^{other} = (\[\n(?:  .*\n)*\]|.*)$", "", spec, flags=re.M)
        assert examples.load_text(spec, path).projections == kind


@pytest.mark.parametrize(
    ("slug", "title", "message"),
    [
        ("River", None, "'River' is not a valid example name"),
        ("river-bank", None, "'river-bank' is not a valid example name"),
        ("the_cat_sat", None, "an example named 'the_cat_sat' already exists"),
        ("new_one", "The  CAT sat", "the title 'The CAT sat' is taken by the example 'the_cat_sat'"),
        ("new_two", "Zz\rimport os; os.system('x') #", "--title: the title must be one line"),
        ("new_three", "Zz <img src=x>", "--title: the title holds '<': a title may not hold any of < > &"),
        ("contributing", None, "the name 'contributing' is reserved (docs/generated/contributing/ holds the generated"),
    ],
)
def test_new_example_refuses(examples_dir, capsys, slug, title, message):
    argv = ["new-example", slug, "--no-update", *(["--title", title] if title else [])]
    before = sorted(p.stem for p in examples_dir.glob("*.toml"))
    assert publish_cli.main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert sorted(p.stem for p in examples_dir.glob("*.toml")) == before  # nothing written


def test_new_example_from_an_unknown_example(examples_dir, capsys):
    assert publish_cli.main(["new-example", "x", "--from", "nope", "--no-update"]) == EXIT_USAGE
    assert "--from 'nope' is not an example" in capsys.readouterr().err


# --- a bad spec stops everything, naming the file, the key and the line ---------------------------


def test_the_messages_on_the_page_are_the_checks_own():
    cases = spec_messages.cases()
    assert [what for what, _, _ in cases] == [
        "A misspelt key",
        "Ragged embeddings",
        "A missing comma",
        "More tokens than vectors",
        "A seed that is not an integer",
        "A title that another example has",
    ]
    for what, _, message in cases:
        assert re.match(
            r"selfattn_ref/examples/\w+\.toml, line \d+: "
            r"('\w+'|unknown key|not valid TOML \(.*\)\. A comma is probably)",
            message,
        ), (what, message)


SPEC_EDITS = {  # what a contributor may do to any example's spec: none of it is the page's business
    "decimals": lambda text: re.sub(r"^decimals = \d+", "decimals = 3", text, flags=re.M),
    "comment spacing": lambda text: text.replace("],  #", "], #").replace("  # ", "    # "),
    "title": lambda text: re.sub(r'^title = "', 'title = "Another ', text, count=1, flags=re.M),
    "rows on one line": lambda text: re.sub(r"\],\s*(#[^\n]*)?\n\s*\[", "], [", text),
}


@pytest.mark.parametrize("edit", [*SPEC_EDITS, "the_cat_sat.toml removed"])
def test_an_edit_of_any_example_spec_leaves_the_pages_messages_whole(tmp_path, monkeypatch, edit):
    """The page's messages of bad specs (docs/add-an-example.md) break a spec that
    publish/generate/spec_messages.py owns, not one that contributors edit: an edit of the spec whose
    text they broke (issue 51: the_cat_sat.toml's decimals, a comment's spacing), or its removal,
    changes none of the broken lines and crashes neither `make update` nor the build. The one case
    that needs another example (a title it has) takes that example's spec as it is."""
    for path in examples.EXAMPLES_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem == spec_messages.OTHER and edit in SPEC_EDITS:  # the spec the page's cases broke, edited
            text = SPEC_EDITS[edit](text)
        if path.stem != spec_messages.OTHER or edit in SPEC_EDITS:
            (tmp_path / path.name).write_text(text, encoding="utf-8")
    before = spec_messages.cases()
    monkeypatch.setattr(examples, "EXAMPLES_DIR", tmp_path)
    taken = examples.load_all()[0] if edit not in SPEC_EDITS else examples.load("the_cat_sat")
    after = spec_messages.cases()
    assert after[:-1] == before[:-1]  # the owned spec's cases: the same lines, the same messages
    what, line, message = after[-1]
    assert what == "A title that another example has" and line == f"title = {json.dumps(taken.title)}", after[-1]
    files = sorted([f"selfattn_ref/examples/{taken.path.name}", spec_messages.SHOWN])  # the second names the first
    assert message.startswith(f"{files[1]}, line ") and f"'title' {taken.title!r} is also the title of" in message
    assert f"the title of {files[0]}, line " in message, message
    assert message.endswith("every example has a page of its own, so titles must differ"), message


def hand_edited(monkeypatch, slug: str = "the_cat_sat") -> tuple[Path, int, str]:
    """As if a contributor had typed into ``slug``'s page: what `make update` writes for it (the
    registry's text) differs from the file at one line, the file left as it is. (path, line, what
    the file has there)."""
    real = registry.generate
    path = ep.page_path(slug)
    lines = path.read_text(encoding="utf-8").split("\n")
    lineno = next(i for i, line in enumerate(lines, 1) if line.startswith("- Numbers are rounded to"))

    def generate(every, **kwargs):
        out = real(every, **kwargs)
        if path in out:
            out[path] = out[path].replace(lines[lineno - 1], "- Numbers are rounded as the spec says.", 1)
        return out

    monkeypatch.setattr(registry, "generate", generate)
    return path, lineno, lines[lineno - 1]


def test_a_stale_generated_page_stops_the_build_naming_the_line_and_the_spec(monkeypatch, tmp_path):
    """Issue 51: after an edit of a generated page the build said only "out of date, run make
    update", and make update then discarded the edit. The build names the file and the line, and
    says that the change belongs in the spec, which make update writes the page from."""
    from mkdocs.exceptions import PluginError

    from publish.mkdocs import worked_examples

    path, lineno, had = hand_edited(monkeypatch)
    monkeypatch.setattr(worked_examples, "check_folders", lambda config: None)  # (tests/tools/test_safe_folders.py)
    config = type("Config", (), {"config_file_path": str(ROOT / "mkdocs.yml"), "site_dir": str(tmp_path / "site")})()
    with pytest.raises(PluginError) as stopped:
        worked_examples.on_config(config)
    message = str(stopped.value)
    assert (
        f"docs/examples/the_cat_sat.md (line {lineno} is {had!r}, where `make update` writes "
        "'- Numbers are rounded as the spec says.')"
    ) in message, message
    assert (
        "After an edit of a spec, run `make update`. A generated file is never edited by hand: `make update` "
        "rewrites it from its spec, and an edit made in it is lost: make the change in the spec "
        "(selfattn_ref/examples/<name>.toml)"
    ) in message, message


def test_make_update_says_which_hand_edit_it_replaces_and_where_it_belongs(monkeypatch, capsys):
    """It rewrote a generated page edited by hand without a word: it says what it replaces, where,
    and where the change belongs (once per spec, its page first)."""
    path, lineno, had = hand_edited(monkeypatch)
    written = {}
    monkeypatch.setattr(update, "_atomic_write", lambda p, text: written.__setitem__(p, text))
    new = registry.generate(examples.load_all(), per_example_only=True)[path]
    update.apply(update.Plan(writes={path: new}), verbose=True)
    assert written == {path: new}
    assert capsys.readouterr().out.splitlines() == [
        "wrote docs/examples/the_cat_sat.md",
        f"replaced what 1 file(s) generated from selfattn_ref/examples/the_cat_sat.toml held (docs/examples/"
        f"the_cat_sat.md: line {lineno} is {had!r}, where `make update` writes '- Numbers are rounded as the spec "
        "says.'): an edit made by hand in a generated file is lost; make it in selfattn_ref/examples/the_cat_sat.toml",
    ]


def test_the_pages_key_table_states_the_checks_limits():
    """The limits the page states are the ones load_file enforces, each in the row of its key (the
    numbers audit holds each figure to its quantity; this, that it is in the row it limits)."""
    from publish.audit.claims import CLAIM

    shown = CLAIM.sub("", WALKTHROUGH.read_text(encoding="utf-8"))  # as the reader sees it, the claims removed
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| (.+) \|$", shown, re.M)}
    assert f"at most {examples.MAX_TOKENS}" in rows["tokens"]
    assert f"at most {examples.MAX_WIDTH}" in rows["embeddings"]
    assert f"0 to {examples.MAX_DECIMALS}" in rows["decimals"]
    from selfattn_ref.examples.rules import LIMITS, TOKEN_FORBIDDEN

    assert f"at most {LIMITS['titleLength']} characters" in rows["title"]
    assert (
        f"at most {LIMITS['tokenLength']} characters" in rows["tokens"] and " ".join(TOKEN_FORBIDDEN) in rows["tokens"]
    )
    assert f"at most {LIMITS['descriptionLength']:,} characters" in rows["description"]
    assert f"at most {LIMITS['magnitude']:,.0f} in size" in rows["embeddings"]
    assert f"a [seed](glossary.md#seed) from 0 to {LIMITS['seed']}" in shown


# --- the walk-through of docs/add-an-example.md (run by tests/support/walkthrough.py) ---------------


@pytest.mark.slow
def test_the_walkthrough_adds_a_checked_page(copy_build):
    """The page's commands in a copy of the repository (tests/support/copy_build.py runs them, and adds
    the changes of the tests that share the copy's build before the Regenerate step)."""
    w, copy = copy_build.walkthrough, copy_build.copy
    assert [title for title, _ in w.commands] == ["Scaffold", "Regenerate", "Preview", "Test"]
    # the playground's presets and its bundle, the language model's weights and its mode's bundle
    assert len(w.gathered) == 4, w.gathered
    for title, command in w.commands:
        args, proc = next(((a, p) for t, a, p in w.ran if t == title), (None, None))
        assert proc is not None, f"{title}: {command} did not run: an earlier command failed"
        if title == "Preview":
            assert args == ["make", "serve"]
            # The copy's build fails only on the bad links of test_site_build's page, which it
            # holds too: no warning names this example (nor anything but that page).
            assert not copy_build.other_warnings(), proc.stdout + proc.stderr
            assert copy_build.strict_abort_only(), proc.stdout + proc.stderr
        else:
            if title == "Test":
                assert args == ["make", "test"]
            else:
                assert args[:3] == ["python", "-m", "publish"], command
            assert proc.returncode == 0, f"{title}: {command}\n{proc.stdout}\n{proc.stderr}"
        if title == "Scaffold":
            slug = w.slug
            path = copy / "selfattn_ref" / "examples" / f"{slug}.toml"
            assert path.is_file() and (copy / "docs" / "examples" / f"{slug}.md").is_file()
            # it wrote everything `make update` would: the tests pass with no other command
            assert all(text is not None for text in w.after_scaffold.values()) and any(
                f'"slug": "{slug}"' in text for p, text in w.after_scaffold.items() if p.suffix == ".json"
            )
            again = w.again
            assert again.stdout.splitlines()[-1] == "everything recorded is up to date", again.stdout + again.stderr
        if title == "Test":
            counts = re.search(r"(\d+) passed", proc.stdout)
            assert counts and int(counts.group(1)) >= 15 and "failed" not in proc.stdout, proc.stdout
    slug = w.slug
    ex = examples.load_file(copy / "selfattn_ref" / "examples" / f"{slug}.toml")
    html = copy / "site" / "examples" / slug / "index.html"
    # the built-site tests of a worked example, which the Test step leaves out (WALKTHROUGH_TESTS),
    # on the Preview step's build of the copy
    check_built_page(copy / "site", ex)
    check_gallery_nav(copy / "site", sorted(p.stem for p in (copy / "selfattn_ref" / "examples").glob("*.toml")))
    page = html.read_text(encoding="utf-8")
    assert ex.title in page and f"playground/?preset={slug}" in page
    out = (copy / "snippets" / "examples" / f"{slug}_numpy.out").read_text(encoding="utf-8")
    assert num(examples.run(ex).output[0, 0], ex.decimals) in out


def test_the_pages_claim_sample_is_the_line_it_says_it_is():
    """The sample of a number with its claim on add-an-example.md is a line of the page it names,
    so the audit of that page checks it."""
    [sample] = re.findall(r"^```markdown\n(.*?)\n```", WALKTHROUGH.read_text(encoding="utf-8"), re.S | re.M)
    assert sample in (WALKTHROUGH.parent / "real-numbers.md").read_text(encoding="utf-8").splitlines()
