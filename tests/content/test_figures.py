"""The figures: each weight matrix a page shows has a heatmap beside its table, whose cells and
alternative text state the reference's numbers at the page's rounding; the positional-encoding
page has its encoding as a heatmap and the experiment's accuracies as bars; every colour reads.

The figures are inline SVG in the generated includes (publish/generate/figures.py); the
suite's staleness test holds them equal to what the code draws now. Here each one is parsed
and held equal to the reference, computed again from the package, not read from the generator.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from publish import GENERATED
from publish.fmt import cell, is_integral, num
from publish.generate.figures import BACKGROUND, BAR, BAR_AXIS, BLACK, CHAR, FONT, SERIES, WHITE, contrast, text_on
from publish.generate.topics import (
    attention_that_learns,
    language_model,
    masking,
    multi_head,
    positional_encoding,
    rnn_comparison,
    rotary,
)
from publish.generate.topics.next_word import labels
from publish.source.includes import include
from selfattn_ref import corpus, examples
from selfattn_ref import language_model as lm
from selfattn_ref.attention import softmax
from selfattn_ref.positional import sinusoidal_positional_encoding
from selfattn_ref.topics import batched_heads as batched_source
from selfattn_ref.topics import language_model as heads
from selfattn_ref.topics import learning
from selfattn_ref.topics import rotary as rotary_source

from pages import PAGES, page_id

SVG = "{http://www.w3.org/2000/svg}"
FIGURE_LINE = re.compile(r"^\s*(<svg .*</svg>)\s*$", re.M)


def reference() -> dict[str, tuple]:
    """Each generated file with a heatmap: (matrix, row labels, column labels, decimals), from the package."""
    out = {}
    for slug in examples.available():
        ex = examples.load(slug)
        st = examples.run(ex)
        if st.heads:  # one heatmap per head
            for k, head in enumerate(st.heads, 1):
                out[f"{slug}/head_{k}_weights.md"] = (head.weights, ex.tokens, ex.tokens, ex.decimals)
        else:
            out[f"{slug}/weights.md"] = (st.weights, ex.tokens, ex.tokens, ex.decimals)
    cat = examples.load("the_cat_sat")
    out["scaling/the_cat_sat_unscaled.md"] = (softmax(examples.run(cat).scores), cat.tokens, cat.tokens, cat.decimals)
    dec = examples.load(masking.SLUG).decimals
    z, p = masking.zeroing(), masking.padding()
    out["masking/zeroed.md"] = (z.zeroed, z.tokens, z.tokens, dec)
    out["masking/padded_weights.md"] = (p.weights[1], p.sentences[1], p.sentences[1], dec)
    out["masking/padded_weights_unmasked.md"] = (p.weights_unmasked[1], p.sentences[1], p.sentences[1], dec)
    H = multi_head.heads()
    for h in range(multi_head.NUM_HEADS):
        out[f"multi_head/head_{h + 1}_weights.md"] = (H.weights[h], H.tokens, H.tokens, H.decimals)
    for slug in positional_encoding.SENTENCES:
        tok = examples.load(slug).tokens
        w = positional_encoding.with_positions(slug)["weights"]
        out[f"positional_encoding/{slug}_weights.md"] = (w, tok, tok, positional_encoding.DECIMALS)
    out["rnn_comparison/weights.md"] = rnn_comparison.attention_weights()
    b = batched_source.batch()
    for k, sentence in enumerate(b.sentences):
        for h in range(batched_source.NUM_HEADS):
            weights = b.steps.weights[k, h]
            out[f"batched_heads/weights_{k + 1}_{h + 1}.md"] = (
                weights,
                sentence,
                sentence,
                examples.load(batched_source.SLUG).decimals,
            )
    for slug in rotary_source.SENTENCES:
        st = rotary_source.sentence(slug)
        out[f"rotary/weights_{slug}.md"] = (st.weights, st.tokens, st.tokens, rotary.DECIMALS)
    learning_toy = learning.toy()
    out["learning/weights.md"] = (learning_toy.weights, learning_toy.tokens, learning_toy.tokens, 4)
    out["learning/weights_after.md"] = (learning_toy.weights_after, learning_toy.tokens, learning_toy.tokens, 4)
    letters = attention_that_learns.example_letters()  # the training run's record
    for s in attention_that_learns.snapshots():
        out[f"attention_that_learns/step_{s['step']}_heatmap.md"] = (
            s["example"],
            letters,
            letters,
            attention_that_learns.DECIMALS,
        )
    steps = lm.forward(language_model.HEATMAP)  # the trained language model's four heads
    for b, h in language_model.PAIRS:
        words = labels(steps.words)
        out[f"language_model/head_{b}_{h}_heatmap.md"] = (steps.blocks[b - 1].weights[h - 1], words, words, 2)
    from publish.generate.topics.flash_attention import DECIMALS
    from selfattn_ref.topics import flash_attention, grouped_query, sliding_window

    for size in flash_attention.TILES:
        t = flash_attention.tiled(size)
        out[f"flash_attention/weights_tiles_of_{size}.md"] = (t.online.weights, t.tokens, t.tokens, DECIMALS)
    out["flash_attention/weights_plain.md"] = (t.weights, t.tokens, t.tokens, DECIMALS)
    s = grouped_query.shared()
    for h in range(grouped_query.NUM_HEADS):
        out[f"grouped_query/weights_{h + 1}.md"] = (s.weights[h], s.tokens, s.tokens, s.decimals)
        out[f"grouped_query/weights_{h + 1}_multi_head.md"] = (s.weights_multi_head[h], s.tokens, s.tokens, s.decimals)
    w = sliding_window.cat_sat()
    out["sliding_window/weights.md"] = (w.weights, w.tokens, w.tokens, w.decimals)
    out["sliding_window/weights_causal.md"] = (w.weights_causal, w.tokens, w.tokens, w.decimals)
    n, d = positional_encoding.LONG
    out["positional_encoding/encoding_heatmap.md"] = (
        sinusoidal_positional_encoding(n, d),
        [str(i) for i in range(n)],
        [f"x{k + 1}" for k in range(d)],
        positional_encoding.DECIMALS,
    )
    return out


REFERENCE = reference()


def svg_of(relpath: str) -> ET.Element:
    text = (GENERATED / relpath).read_text(encoding="utf-8")
    lines = FIGURE_LINE.findall(text)
    assert len(lines) == 1, f"docs/generated/{relpath} holds {len(lines)} figures, not one"
    return ET.fromstring(lines[0])


def cells_of(svg: ET.Element) -> list[ET.Element]:
    """The cells' groups, in reading order: each a box (a path) and its text."""
    [group] = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "hm-cells"]
    cells = list(group)
    assert all([c.tag for c in g] == [f"{SVG}path", f"{SVG}text"] for g in cells), "a cell is not a path and a text"
    return cells


def styles(el: ET.Element) -> dict[str, str]:
    return dict(part.split(":", 1) for part in el.get("style", "").split(";") if part)


def colours(g: ET.Element, scheme: str) -> tuple[str, str]:
    """(fill, text colour) of a cell on a scheme, as extra.css paints them: the fill is the cell's
    --l or --d; the text black on light and white on dark unless the class hm-w or hm-k says otherwise."""
    classes = set((g.get("class") or "").split())
    assert classes <= {"hm-w", "hm-k"}, classes
    if scheme == "light":
        return styles(g)["--l"], WHITE if "hm-w" in classes else BLACK
    return styles(g)["--d"], BLACK if "hm-k" in classes else WHITE


@pytest.mark.parametrize("relpath", sorted(REFERENCE))
def test_heatmap_prints_the_reference_at_the_pages_rounding(relpath):
    M, rows, cols, decimals = REFERENCE[relpath]
    M = np.asarray(M)
    integral = is_integral(M)
    want = [[cell(x, decimals, integral) for x in row] for row in M]
    svg = svg_of(relpath)
    assert svg.get("role") == "img"
    shown = [g.find(f"{SVG}text").text for g in cells_of(svg)]
    assert shown == [t for row in want for t in row], f"{relpath}: the cells print {shown}"
    # The alternative text states every row with its labels and numbers, in order.
    label = svg.get("aria-label")
    for r, row in zip(rows, want, strict=True):
        stated = f"{r}: " + ", ".join(f"{c} {t}" for c, t in zip(cols, row, strict=True))
        assert stated in label, f"{relpath}: the aria-label does not state {stated!r}:\n{label}"
    assert svg.find(f"{SVG}title").text.startswith("Heatmap of the ")
    if relpath.endswith("_heatmap.md"):
        return  # the encoding's scale diverges from 0; the weights' below runs one way
    # Each cell's fill follows its value: the larger the weight, the darker on the light scheme.
    fills = [colours(g, "light")[0] for g in cells_of(svg)]
    darkness = [contrast(fills[i], "#ffffff") for i in np.argsort(M.ravel(), kind="stable")]
    assert all(a <= b + 1e-9 for a, b in zip(darkness, darkness[1:], strict=False)), f"{relpath}: {fills}"


@pytest.mark.parametrize("relpath", sorted(r for r in REFERENCE if not r.endswith("_heatmap.md")))
def test_heatmap_matches_the_table_beside_it(relpath):
    """A weight table's figure prints what the table beside it prints, in the same order."""
    text = (GENERATED / relpath).read_text(encoding="utf-8")
    assert '<div class="weights-figure" markdown>' in text
    rows = [line for line in text.splitlines() if line.startswith("| **")]
    ncols = len(REFERENCE[relpath][2])
    table = [c.strip() for r in rows for c in r.strip("|").split("|")[1 : 1 + ncols]]
    shown = [g.find(f"{SVG}text").text for g in cells_of(svg_of(relpath))]
    assert shown == table


@pytest.mark.parametrize("relpath", sorted(REFERENCE))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_cell_reads_in_both_schemes(relpath, scheme):
    svg = svg_of(relpath)
    for g in cells_of(svg):
        fill, ink = colours(g, scheme)
        assert ink == text_on(fill), f"{relpath} [{scheme}]: {ink} on {fill}, not the colour that contrasts more"
        ratio = contrast(fill, ink)
        assert ratio >= 4.5, f"{relpath} [{scheme}]: {ink} on {fill} is {ratio:.2f}:1"


def test_cells_use_both_text_colours_in_both_schemes():
    """Both text colours show on each scheme somewhere, so the classes hm-w and hm-k are in use
    (and checked above): white on the darker light-scheme fills, black on the lighter dark ones."""
    inks = {
        scheme: {colours(g, scheme)[1] for r in REFERENCE for g in cells_of(svg_of(r))} for scheme in ("light", "dark")
    }
    assert inks == {"light": {BLACK, WHITE}, "dark": {BLACK, WHITE}}, inks


def test_bars_are_visible_on_both_backgrounds():
    for scheme in ("light", "dark"):
        assert contrast(BAR[scheme], BACKGROUND[scheme]) >= 3.0  # WCAG 1.4.11, graphical objects


def test_accuracy_bars_are_the_experiments_numbers():
    from selfattn_ref.training.word_order import experiment

    without, with_pe = experiment()
    svg = svg_of("positional_encoding/accuracy.md")
    assert svg.get("role") == "img"
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    want = [
        f"{num(100 * x, 1)}%"
        for x in (without.train_accuracy, without.held_out_accuracy, with_pe.train_accuracy, with_pe.held_out_accuracy)
    ]
    assert [t for t in texts if t.endswith("%") and t not in ("0%", "50%", "100%")] == want
    label = svg.get("aria-label")
    assert f"Without positional encoding: training {want[0]}, held-out {want[1]}" in label, label
    assert f"With positional encoding: training {want[2]}, held-out {want[3]}" in label, label
    # The bars' lengths are the accuracies: BAR_AXIS px for 100%.
    accuracies = (without.train_accuracy, without.held_out_accuracy, with_pe.train_accuracy, with_pe.held_out_accuracy)
    widths = [float(r.get("width")) for r in svg.iter(f"{SVG}rect")]
    assert widths == pytest.approx([max(BAR_AXIS * x, 1.0) for x in accuracies])


def test_bar_grid_lines_sit_behind_the_bars_and_clear_the_headings():
    """The faint 0/50/100% lines come before the bars (drawn under them) and stop short of each
    group's bold heading, so no line runs through its text."""
    svg = svg_of("positional_encoding/accuracy.md")
    children = list(svg)
    lines = [i for i, e in enumerate(children) if e.tag == f"{SVG}line"]
    rects = [i for i, e in enumerate(children) if e.tag == f"{SVG}rect"]
    assert lines and rects and max(lines) < min(rects)
    headings = [float(t.get("y")) for t in svg.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert len(headings) == 2
    for line in svg.iter(f"{SVG}line"):
        y1, y2 = float(line.get("y1")), float(line.get("y2"))
        for baseline in headings:  # the heading's text runs from about a font size above its baseline
            assert y2 <= baseline - FONT or y1 >= baseline + 3, (y1, y2, baseline)


# --- every weight table a page shows has its heatmap -------------------------------------------


def generated_includes(text: str) -> list[str]:
    """The generated tables a page includes, as paths under docs/generated/."""
    targets = [inc[1] for inc in map(include, text.split("\n")) if inc]
    return [t.removeprefix("docs/generated/") for t in targets if t.startswith("docs/generated/") and t.endswith(".md")]


def is_weight_table(text: str) -> bool:
    """A table whose rows are tokens attending to tokens and each add up to 1: attention weights."""
    rows = [line for line in text.splitlines() if line.startswith("| **")]
    header = next((line for line in text.splitlines() if line.startswith("| query ↓ key →")), None)
    if not rows or header is None:
        return False
    n = len(header.strip("|").split("|")) - 1
    try:
        sums = [sum(float(c) for c in r.strip("|").split("|")[1 : 1 + n]) for r in rows]
    except ValueError:  # −∞ in a masked score table
        return False
    return all(abs(s - 1) < 0.01 for s in sums)


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_weight_table_on_a_page_has_a_heatmap(page):
    included = generated_includes(page.read_text(encoding="utf-8"))
    missing = [
        rel
        for rel in included
        if is_weight_table((GENERATED / rel).read_text(encoding="utf-8")) and rel not in REFERENCE
    ]
    assert not missing, f"{page_id(page)} shows weight tables without a (tested) heatmap: {missing}"


def test_the_weight_table_detector_finds_them():
    found = sorted(
        p.relative_to(GENERATED).as_posix() for p in GENERATED.rglob("*.md") if is_weight_table(p.read_text())
    )
    assert "bank_of_river/weights.md" in found and "multi_head/head_2_weights.md" in found
    assert "bank_of_river/scores.md" not in found
    assert set(found) <= set(REFERENCE), set(found) - set(REFERENCE)


def test_the_positional_encoding_page_shows_both_figures():
    text = (GENERATED.parent / "positional-encoding.md").read_text(encoding="utf-8")
    for rel in ("positional_encoding/encoding_heatmap.md", "positional_encoding/accuracy.md"):
        assert f'--8<-- "docs/generated/{rel}"' in text


# --- a heatmap's axes say what its table's corner says ----------------------------------------------

CORNER = re.compile(r"^\| (\S[^|]*?) ↓ (\S[^|]*?) → \|", re.M)


@pytest.mark.parametrize(
    "relpath",
    sorted(
        str(p.relative_to(GENERATED))
        for p in GENERATED.rglob("*.md")
        if 'class="heatmap"' in p.read_text(encoding="utf-8") and CORNER.search(p.read_text(encoding="utf-8"))
    ),
)
def test_a_heatmap_names_its_axes_as_its_table_does(relpath):
    """Beside a table whose corner reads "rows ↓ columns →" (query and key; the RNN page's scoring
    methods and encoder states), the heatmap's axis titles and its alternative text say the same."""
    rows, cols = CORNER.search((GENERATED / relpath).read_text(encoding="utf-8")).groups()
    svg = svg_of(relpath)
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert f"{cols} →" in texts and f"{rows} ↓" in texts, (relpath, texts[:4])
    assert f"one row per {rows} and one column per {cols}" in svg.get("aria-label"), relpath


# --- the language model's loss curve and its points in two dimensions -----------------------------


def test_lines_and_points_are_visible_on_both_backgrounds():
    for colour in SERIES:
        for scheme in ("light", "dark"):
            assert contrast(colour[scheme], BACKGROUND[scheme]) >= 3.0, (colour, scheme)  # WCAG 1.4.11


def test_the_loss_curve_is_the_records():
    """Every point of both curves, at 3 decimals, from the training run's record; the two levels;
    the points above the chart's top named under it; every line drawn in its own pattern."""
    r = language_model.run()["run"]
    svg = svg_of("language_model/loss_curve.md")
    label = svg.get("aria-label")
    train = ", ".join(f"at {c['step']} {num(c['train_loss'], 3)}" for c in r["curve"])
    held = ", ".join(f"at {c['step']} {num(c['held_out_loss'], 3)}" for c in r["curve"])
    assert f"training: {train};" in label and f"held-out: {held};" in label, label
    assert f"bigram, held-out: {num(r['held_out']['bigram']['all']['loss'], 3)} throughout" in label
    assert f"best possible: {num(r['held_out']['best']['all']['loss'], 3)} throughout" in label
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    above = [c for c in r["curve"] if c["train_loss"] > language_model.Y_MAX]
    assert [c["step"] for c in above] == [0]  # only the first point is off the chart
    assert f"↑ training at step 0: {num(above[0]['train_loss'], 3)}, above the chart" in texts
    paths = [p for p in svg.iter(f"{SVG}path") if p.get("class") == "ln-stroke"]
    assert len({p.get("stroke-dasharray") for p in paths}) == 4  # four lines, four patterns (each twice: line, key)


def test_the_embedding_map_is_the_librarys_projection():
    m = heads.embedding_map()
    svg = svg_of("language_model/embedding_map.md")
    label = svg.get("aria-label")
    for word, (x, y) in zip(corpus.VOCABULARY, m.points, strict=True):
        shown = f"“{word}”" if word == "." else word
        assert f"{shown} ({num(x, 2)}, {num(y, 2)})" in label, word
    assert f"which hold {num(100 * m.shares[0], 1)}% and {num(100 * m.shares[1], 1)}% of their variance" in label
    assert len([c for c in svg.iter(f"{SVG}circle")]) == len(corpus.VOCABULARY)


@pytest.mark.parametrize("name", ["embedding_map", "bank_map"])
def test_the_pca_figures_name_the_projection_on_their_axes(name):
    """What a sighted reader sees says how the points were projected, not only the label a screen
    reader reads: both axes are PCA directions."""
    texts = [t.text for t in svg_of(f"language_model/{name}.md").iter(f"{SVG}text")]
    assert "PCA direction 1" in texts and "PCA direction 2 ↑" in texts, texts


def test_the_rows_of_bank_are_drawn_by_sense_in_two_shapes():
    group = heads.sentences_of("bank")
    p = heads.principal_components(heads.decisive_rows(group, 2))
    svg = svg_of("language_model/bank_map.md")
    label = svg.get("aria-label")
    for sense, mark in (("river", "circle"), ("money", "rect")):
        sel = np.array([s.sense == sense for s in group])
        stated = (f"{sense} sentences ({sel.sum()} points): PCA direction 1 from {num(p.points[sel, 0].min(), 2)} to "
                  f"{num(p.points[sel, 0].max(), 2)}")  # fmt: skip
        assert stated in label, label
        assert len([e for e in svg.iter(f"{SVG}{mark}") if e.get("class") == "hm-fill"]) == sel.sum() + 1  # and the key


@pytest.mark.parametrize("relpath", ["language_model/bank_map.md", "language_model/embedding_map.md",
                                     "language_model/loss_curve.md"])  # fmt: skip
def test_every_text_that_starts_at_its_x_fits_in_its_figure(relpath):
    """A text drawn from its x rightwards (a key's name, a label) ends inside the figure's width, at
    the least width per character the layouts count (0.8 of figures.CHAR, the scatter's labels): the
    bank map's key, "money sentences", ran past it and was cut, at a phone's width as at a laptop's."""
    svg = svg_of(relpath)
    width = float(svg.get("viewBox").split()[2])
    starts = [t for t in svg.iter(f"{SVG}text") if t.get("text-anchor") in (None, "start") and t.get("x")]
    over = [(t.text, float(t.get("x")) + len(t.text or "") * 0.8 * CHAR) for t in starts
            if float(t.get("x")) + len(t.text or "") * 0.8 * CHAR > width + 0.5]  # fmt: skip
    assert not over, f"{relpath}: texts past the width {width:g}: {over}"
