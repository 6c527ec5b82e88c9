"""bench/ (`make bench`): the parts that decide what is measured, checked without measuring anything
(speed and size are the bench's figures, never a test's): the Lighthouse figure says what is missing
without node, the pages are served compressed as a real host sends them, and --pages takes only
article and topic pages."""

from __future__ import annotations

import gzip
import sys
import urllib.request
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import common  # noqa: E402
import lighthouse  # noqa: E402
import run  # noqa: E402

from publish.harness import server  # noqa: E402 - the bench's static server (and the suite's)


def test_without_node_the_lighthouse_figure_says_what_is_missing(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(lighthouse.Missing, match=r"^node and npm not found: .*not part of the README's set-up"):
        lighthouse.install()


def test_lighthouse_is_not_installed_through_a_linked_cache(monkeypatch, tmp_path):
    """A symlinked .cache/ had npm install Lighthouse outside the repository (issue 51, severe 4)."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    outside.mkdir()
    repo.mkdir()
    (repo / ".cache").symlink_to(outside)
    monkeypatch.setattr(lighthouse, "REPO", repo)
    monkeypatch.setattr(lighthouse, "CACHE", repo / ".cache" / "bench" / "lighthouse")
    monkeypatch.setattr(lighthouse, "_node", lambda: ("node", "npm"))
    with pytest.raises(lighthouse.Missing, match=r"\.cache is a symbolic link .*a folder on the way"):
        lighthouse.install()
    assert list(outside.iterdir()) == []


def test_lighthouse_is_pinned_to_a_12_release_and_runs_headless_with_the_tests_flags():
    major, minor, patch = (int(n) for n in lighthouse.LIGHTHOUSE_VERSION.split("."))
    assert major == 12
    assert lighthouse.CHROME_FLAGS[0] == "--headless"
    assert {"--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"} <= set(
        lighthouse.CHROME_FLAGS
    )
    assert lighthouse.CACHE.is_relative_to(common.REPO / ".cache")  # gitignored


def _get(url: str, accept: str) -> tuple[dict, bytes]:
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": accept})) as r:
        return dict(r.headers), r.read()


def test_the_compressing_server_sends_text_gzipped_and_fonts_as_they_are(tmp_path):
    page = "<p>" + "attention " * 500 + "</p>"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(page, encoding="utf-8")
    (tmp_path / "f.woff2").write_bytes(b"wOF2" + bytes(200))
    with common.static_server(tmp_path, compress=True) as (httpd, base):
        common.start(httpd)
        headers, body = _get(base + "a/", "gzip, deflate, br")
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body).decode() == page
        assert len(body) < len(page) / 10
        headers, body = _get(base + "f.woff2", "gzip")
        assert "Content-Encoding" not in headers and body.startswith(b"wOF2")
        headers, body = _get(base + "a/", "identity")
        assert "Content-Encoding" not in headers and body.decode() == page


def test_pages_takes_only_article_topic_and_interactive_pages(tmp_path):
    for path in ("masking", "scaling", "playground"):
        (tmp_path / path).mkdir()
        (tmp_path / path / "index.html").write_text("<article></article>", encoding="utf-8")
    assert run.chosen_articles(tmp_path, "masking,/scaling/") == ["masking/", "scaling/"]
    assert run.chosen_articles(tmp_path, "playground") == ["playground/"]  # [lighthouse] audits it too
    with pytest.raises(RuntimeError, match=r"--pages \['glossary/'\]: not article, topic or interactive pages"):
        run.chosen_articles(tmp_path, "glossary")
    with pytest.raises(RuntimeError, match=r"missing from the build: \['real-numbers/'\]"):
        run.chosen_articles(tmp_path, "real-numbers")


def test_the_page_budgets_hold_every_page_that_has_a_notebook():
    """Every article and topic page (the nav's "Notebooks" section names one notebook per such
    page) is one that the [pages] and [lighthouse] figures measure: a new section of the nav (the
    language model's) is not left out of the budgets."""
    nav = run.mkdocs_yml.config()["nav"]
    notebooks = next(item["Notebooks"] for item in nav if isinstance(item, dict) and "Notebooks" in item)
    pages = [Path(p).stem + "/" for entry in notebooks for p in entry.values() if p.endswith(".ipynb")]
    assert pages and {"next-word/", "trained-model/"} <= set(pages)
    assert sorted(run.article_pages()) == sorted(pages)


def test_every_topic_page_of_the_nav_is_measured_whatever_its_section():
    """A section added to the nav (Attention at scale) and a page on its own in it (Common mistakes)
    are article or topic pages too: before, only "The articles" and "Beyond the articles" were."""
    articles = run.article_pages()
    assert {"real-numbers/", "masking/", "batched-heads/", "cross-attention/", "mistakes/"} <= set(articles)
    assert not {"", "index/", "examples/index/", "playground/", "glossary/", "notebooks/index/"} & set(articles)
    assert not [p for p in articles if p.startswith("notebooks/")]


def _audit(score: float, tbt: float, dom: int = 1000, lcp: float = 2000.0) -> lighthouse.Audit:
    return lighthouse.Audit(score=score, fcp=1500.0, lcp=lcp, tbt=tbt, dom=dom, main_thread={})


def test_the_phone_budget_is_score_90_lcp_2_5_s_and_tbt_200_ms_with_bare_material_beside_it():
    bare = [_audit(80, 900), _audit(96, 300), _audit(94, 120)]  # medians 94 and 300 ms: over on TBT
    within = run.lighthouse_verdict([_audit(91, 150), _audit(89, 250), _audit(95, 120, lcp=2600)], bare)
    assert within.ok and within.score == 91 and within.tbt == 150 and within.lcp == 2000 and within.bare == 94
    assert within.bare_over == ("TBT 300 ms",)
    assert run.LighthouseVerdict.BUDGET == "≥ 90 · — · ≤ 2.5 s · ≤ 200 ms · —"
    assert run.lighthouse_verdict([_audit(89, 150)], bare).over == ("score 89",)
    assert run.lighthouse_verdict([_audit(95, 201)], bare).over == ("TBT 201 ms",)
    assert run.lighthouse_verdict([_audit(95, 100, lcp=2501)], bare).over == ("LCP 2,501 ms",)
    every = run.lighthouse_verdict([_audit(70, 480, dom=4787, lcp=3100)], [_audit(99, 40)])
    assert every.over == ("score 70", "LCP 3,100 ms", "TBT 480 ms") and not every.bare_over
    assert every.shown.endswith("3.1 s · 480 ms · 4,787")


def test_the_compressing_server_compresses_a_file_once_and_again_when_it_changes(tmp_path):
    page = tmp_path / "a.html"
    page.write_text("<p>" + "attention " * 500 + "</p>", encoding="utf-8")
    first = server._gzipped(page)
    assert server._gzipped(page) is first  # the same bytes object: not compressed again
    page.write_text("<p>" + "changed " * 600 + "</p>", encoding="utf-8")
    assert gzip.decompress(server._gzipped(page)).decode().startswith("<p>changed")


def test_the_suite_figures_time_the_makefiles_selections(tmp_path):
    """The [suite] figure runs what `make test` and `make test-fast` select, read from the Makefile;
    a Makefile without such a command is named."""
    assert run.MAKE_TEST == ("-m", "not targets")
    assert run.MAKE_TEST_FAST == ("-m", "not slow", "tests/package", "tests/snippets", "tests/content")
    other = tmp_path / "Makefile"
    other.write_text('test-fast: venv\n\t$(PY) -m pytest -n auto -m "not browser"\n', encoding="utf-8")
    assert run.make_selection("test-fast", other) == ("-m", "not browser")
    with pytest.raises(RuntimeError, match=r"Makefile: no `test:` target whose pytest command has -m"):
        run.make_selection("test", other)


def test_a_suite_run_names_the_tests_that_failed():
    counts = {"tests": 12, "failures": 11, "errors": 1, "skipped": 0}
    failed = tuple(f"tests/a.py::test_{i}" for i in range(12))
    said = run.describe(run.PytestRun(1.0, 1, {}, counts, failed))
    assert said.startswith("12 tests, 11 failed, 1 errors, 0 skipped (tests/a.py::test_0, ")
    assert "test_9, ..." in said and "test_10" not in said
    assert run.describe(run.PytestRun(1.0, 0, {}, {**counts, "failures": 0, "errors": 0})).endswith("0 skipped")


def test_the_training_figure_fails_on_a_record_that_is_not_what_training_gives(monkeypatch):
    """[training] compares the recorded weights exactly and the figures to 1e-9, and a record that
    differs is an ERROR naming where (nothing is trained here: bench/training.py's output is given)."""
    import json
    import subprocess

    import training

    assert training.differences({"a": [1.0, 2.0]}, {"a": [1.0, 2.0 + 1e-12]}) == []
    assert training.differences({"a": [1.0, 2.0]}, {"a": [1.0, 2.0 + 1e-12]}, rel=0) == [".a[1]: 2.0 != 2.000000000001"]
    assert training.differences({"a": "x"}, {"b": "x"}) == ["the top: keys ['a'] != ['b']"]
    assert training.differences({"w": "AAAA"}, {"w": "AAAB"}) == [".w: differs"]
    out = {"seconds": 12.0, "key_current": True, "figures": [], "weights": [".blocks[0].W_Q.float32: differs"],
           "bytes": 46686, "gzipped": 33005}  # fmt: skip
    done = subprocess.CompletedProcess([], 0, stdout=json.dumps(out) + "\n", stderr="")
    monkeypatch.setattr(run.subprocess, "run", lambda *a, **k: done)
    table = run.Table()
    with pytest.raises(RuntimeError, match=r"^the record is not what training gives \(run `make update`\): \.blocks"):
        run.bench_training(table, 1)
    out["weights"] = []
    done.stdout = json.dumps(out)
    run.bench_training(table, 1)
    assert [(r.figure, r.median, r.status) for r in table.rows] == [
        ("training the language model (record held)", "12.0 s", "OK"),
        ("its weights file, raw", "47 kB", "—"),
        ("its weights file, gzip -9", "33 kB", "—"),
    ]
