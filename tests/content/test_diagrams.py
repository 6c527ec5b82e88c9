"""The diagrams of the flow (publish/generate/diagrams.py): each generated SVG is parsed and its boxes and
arrows are held equal to the shapes the reference package computes, here, from the examples
(not read from the generator); every arrow joins the two boxes it names; the drawing has an
accessible name and uses only the page's own colours, so it reads in light and dark alike; no
SVG is wider than a phone's text column and no text smaller than 11 px, so a phone shows them
unshrunk (tests/browser/test_phone.py measures them rendered). The staleness test
(test_docs_numbers.py) holds the files equal to what the code draws now."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from publish import DOCS, GENERATED
from publish.generate import diagrams
from selfattn_ref import examples
from selfattn_ref.examples import load_rnn
from selfattn_ref.topics import multi_head, transformer_block

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ("flow", "multi_head", "rnn_vs_attention", "transformer_block")
# How many pictures each diagram is: the RNN and attention are two, side by side or stacked.
PICTURES = {"flow": 1, "multi_head": 1, "rnn_vs_attention": 2, "transformer_block": 1}
PHONE_COLUMN = 343  # px, Material's text column on a 375 px screen (measured in test_phone.py)
MIN_FONT = 11  # px, the smallest text a diagram may have at its own size
# Where each diagram is shown.
SHOWN_ON = {
    "flow": "queries-keys-values.md",
    "multi_head": "multi-head.md",
    "rnn_vs_attention": "rnn-comparison.md",
    "transformer_block": "transformer-block.md",
}


def shape(M) -> str:
    r, c = M.shape
    return f"{r} × {c}"


def parse_all(name: str) -> list[ET.Element]:
    text = (GENERATED / "diagrams" / f"{name}.md").read_text(encoding="utf-8")
    svgs = re.findall(r"<svg .*?</svg>", text)
    assert len(svgs) == PICTURES[name], f"diagrams/{name}.md should hold {PICTURES[name]} SVG, it has {len(svgs)}"
    return [ET.fromstring(s) for s in svgs]


def parse(name: str) -> ET.Element:
    (root,) = parse_all(name)
    return root


def nodes(root) -> dict[str, dict]:
    """Each box: its texts and its geometry (x0, y0, x1, y1)."""
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "dg-node":
            continue
        rect, circle = g.find(f"{SVG}rect"), g.find(f"{SVG}circle")
        if rect is not None:
            x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
            box = (x, y, x + w, y + h)
        else:
            cx, cy, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
            box = (cx - r, cy - r, cx + r, cy + r)
        out[g.get("data-node")] = {"texts": [t.text for t in g.iter(f"{SVG}text")], "box": box}
    return out


def edges(root) -> list[dict]:
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "dg-edge":
            continue
        path = g.find(f"{SVG}path").get("d")
        points = [tuple(map(float, p.split(","))) for p in re.findall(r"-?[\d.]+,-?[\d.]+", path)]
        label = g.find(f"{SVG}text")
        out.append(
            {
                "from": g.get("data-from"),
                "to": g.get("data-to"),
                "points": points,
                "label": label.text if label is not None else "",
            }
        )
    return out


def labels(root) -> dict[tuple[str, str], str]:
    return {(e["from"], e["to"]): e["label"] for e in edges(root)}


def on_border(point, box, tol=1.0) -> bool:
    x, y = point
    x0, y0, x1, y1 = box
    inside = x0 - tol <= x <= x1 + tol and y0 - tol <= y <= y1 + tol
    near = min(abs(x - x0), abs(x - x1), abs(y - y0), abs(y - y1)) <= tol
    return inside and near


def all_roots():
    return [pytest.param(name, i, id=f"{name}-{i + 1}") for name in NAMES for i in range(PICTURES[name])]


@pytest.mark.parametrize(("name", "i"), all_roots())
def test_diagram_has_an_accessible_name_and_the_pages_colours(name, i):
    root = parse_all(name)[i]
    assert root.get("role") == "img"
    label = root.get("aria-label") or ""
    title = root.find(f"{SVG}title")
    assert title is not None and title.text.startswith("Diagram of "), title
    assert label.startswith(title.text), (label, title.text)
    # Every arrow's shape and every box's name is in the alternative text.
    for e in edges(root):
        assert e["label"] in label, (e, label)
    for n in nodes(root).values():
        assert n["texts"][0] in label, (n, label)
    # No colour of its own: text, lines and arrowheads in the page's text colour, boxes in its background.
    for el in root.iter():
        for attr in ("fill", "stroke"):
            value = el.get(attr)
            assert value in (None, "none", "currentColor"), f"{name}: <{el.tag}> has {attr}={value!r}"
        style = el.get("style")
        assert style in (None, "fill:var(--md-default-bg-color, #fff)"), f"{name}: <{el.tag}> style={style!r}"


@pytest.mark.parametrize(("name", "i"), all_roots())
def test_every_arrow_joins_the_boxes_it_names(name, i):
    root = parse_all(name)[i]
    boxes = nodes(root)
    for e in edges(root):
        start, end = e["points"][0], e["points"][-1]
        assert e["from"] in boxes, e
        assert on_border(start, boxes[e["from"]]["box"]), (name, e, boxes[e["from"]])
        if e["to"]:
            assert on_border(end, boxes[e["to"]]["box"]), (name, e, boxes[e["to"]])
        else:  # out of the picture, downwards, from the bottom of the last box
            assert end[1] > max(b["box"][3] for b in boxes.values()), (name, e)


@pytest.mark.parametrize(("name", "i"), all_roots())
def test_diagram_fits_a_phone_column_at_its_own_size(name, i):
    """At most the width of a 375 px phone's text column, so the phone does not shrink it, and
    no text under 11 px (the SVG's own font size is inherited by text without one)."""
    root = parse_all(name)[i]
    width = float(root.get("width"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}", root.attrib
    assert width <= PHONE_COLUMN, f"{name}: {width} px wide, the column of a phone is {PHONE_COLUMN} px"
    sizes = {float(t.get("font-size") or root.get("font-size")) for t in root.iter(f"{SVG}text")}
    assert sizes and min(sizes) >= MIN_FONT, (name, sorted(sizes))


LABEL_CHAR = 0.6  # em: a generous width per character of a shape label (12 px: 7.2 px)


def label_rects(root) -> list[tuple[dict, tuple[float, float, float, float]]]:
    """Each arrow's shape label with the rectangle its text takes, estimated from its length."""
    out = []
    for g in root.iter(f"{SVG}g"):
        text = g.find(f"{SVG}text") if g.get("class") == "dg-edge" else None
        if text is None:
            continue
        size = float(text.get("font-size") or root.get("font-size"))
        x, y, w = float(text.get("x")), float(text.get("y")), len(text.text) * LABEL_CHAR * size
        x0 = {"start": x, "end": x - w, "middle": x - w / 2}[text.get("text-anchor")]
        out.append(
            ({"from": g.get("data-from"), "to": g.get("data-to"), "label": text.text}, (x0, y - 6, x0 + w, y + 6))
        )
    return out


def crosses(points, rect, steps: int = 200) -> bool:
    """Whether the polyline through points passes through rect (sampled every few tenths of a px)."""
    x0, y0, x1, y1 = rect
    for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
        for k in range(steps + 1):
            x, y = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
            if x0 < x < x1 and y0 < y < y1:
                return True
    return False


def overlap(r, s) -> bool:
    return r[0] < s[2] and s[0] < r[2] and r[1] < s[3] and s[1] < r[3]


def label_clashes(root) -> list[str]:
    """Every shape label that a line (its own arrow's too), a box or another label runs through."""
    clashes = []
    boxes = nodes(root)
    placed = label_rects(root)
    for k, (edge, rect) in enumerate(placed):
        name = f"{edge['label']!r} ({edge['from']} to {edge['to'] or 'the output'})"
        for other in edges(root):
            if crosses(other["points"], rect):  # its own arrow included: a label sits beside it
                clashes.append(f"{name} crosses the arrow {other['from']} to {other['to'] or 'the output'}")
        clashes += [f"{name} covers the box {b}" for b, n in boxes.items() if overlap(rect, n["box"])]
        clashes += [f"{name} covers the label {o['label']!r}" for o, r in placed[k + 1 :] if overlap(rect, r)]
    return clashes


@pytest.mark.parametrize(("name", "i"), all_roots())
def test_shape_labels_are_clear_of_other_lines_boxes_and_labels(name, i):
    """A shape label sits beside its own arrow, on no arrow, box or other label (before, the label
    of K into the scores crossed its own line, and the split into two heads the other head's)."""
    assert label_clashes(parse_all(name)[i]) == []


def test_a_label_in_the_way_is_moved_and_a_clash_is_caught():
    """Two arrows converging on one box, as Q and K on the scores: the label of the second is put
    on the far side of its line, clear of the first; the same labels drawn where the first of the
    candidates is (right of each arrow's middle) are caught by the check above."""
    D = diagrams.Diagram("converge", "a test")
    D.boxes += [
        diagrams.Box("a", ("a",), 58, 100, w=100, h=58),
        diagrams.Box("b", ("b",), 166, 100, w=100, h=58),
        diagrams.Box("s", ("s",), 112, 210),
    ]
    D.arrows += [diagrams.Arrow("a", "s", "3 × 4"), diagrams.Arrow("b", "s", "3 × 4")]
    root = ET.fromstring(diagrams.svg(D))
    assert label_clashes(root) == []
    # The old place, right of the middle of each arrow (raised if flat), puts b's label on its line.
    naive = ET.fromstring(diagrams.svg(D))
    for g in naive.iter(f"{SVG}g"):
        text = g.find(f"{SVG}text") if g.get("class") == "dg-edge" else None
        if text is not None:
            path = g.find(f"{SVG}path").get("d")
            (sx, sy), (tx, ty) = [tuple(map(float, p.split(","))) for p in re.findall(r"-?[\d.]+,-?[\d.]+", path)]
            text.set("x", str((sx + tx) / 2 + 6))
            text.set("y", str((sy + ty) / 2 - 10))
            text.set("text-anchor", "start")
    assert any("crosses the arrow" in c for c in label_clashes(naive)), label_clashes(naive)


def test_a_diagram_too_wide_for_a_phone_is_refused():
    wide = diagrams.Diagram("wide", "a test")
    wide.boxes += [diagrams.Box("a", ("a",), 100, 10), diagrams.Box("b", ("b",), 300, 10)]
    with pytest.raises(ValueError, match=r"diagram 'wide' is 383 px wide, more than MAX_WIDTH = 343 px"):
        diagrams.svg(wide)
    narrow = diagrams.Diagram("narrow", "a test", boxes=[diagrams.Box("a", ("a",), 100, 10)])
    assert 'width="183"' in diagrams.svg(narrow)
    assert diagrams.MAX_WIDTH == PHONE_COLUMN


@pytest.mark.parametrize(("name", "page"), SHOWN_ON.items())
def test_each_diagram_is_on_its_page(name, page):
    text = (DOCS / page).read_text(encoding="utf-8")
    assert f'--8<-- "docs/generated/diagrams/{name}.md"' in text, page


def test_the_flow_has_the_shapes_of_the_cat_sat():
    ex = examples.load("the_cat_sat")
    st = examples.run(ex)
    root = parse("flow")
    got = labels(root)
    want = {
        ("X", "Q"): shape(ex.E),
        ("X", "K"): shape(ex.E),
        ("X", "V"): shape(ex.E),
        ("Q", "S"): shape(st.Q),
        ("K", "S"): shape(st.K),
        ("S", "scale"): shape(st.scores),
        ("scale", "A"): shape(st.scaled),
        ("A", "Y"): shape(st.weights),
        ("V", "Y"): shape(st.V),
        ("Y", ""): shape(st.output),
    }
    assert got == want
    boxes = nodes(root)
    assert f"embeddings, {shape(ex.E)}" in boxes["X"]["texts"]
    for name in ("W_Q", "W_K", "W_V"):
        assert any(f"{name}: {shape(getattr(ex, name))}" in t for t in boxes[name[-1]]["texts"]), boxes[name[-1]]
    assert boxes["scale"]["texts"][0] == f"÷ √d_k = √{st.K.shape[1]}"
    # Top to bottom in the order of the steps: X, then Q, K, V, then scores, scaling, softmax, output.
    tops = [boxes[k]["box"][1] for k in ("X", "Q", "S", "scale", "A", "Y")]
    assert tops == sorted(tops) and len(set(tops)) == len(tops), tops
    assert boxes["Q"]["box"][1] == boxes["K"]["box"][1] == boxes["V"]["box"][1]


def test_multi_head_splits_and_concatenates_with_the_reference_shapes():
    H = multi_head.heads()
    h = multi_head.NUM_HEADS
    ex = examples.load(multi_head.SLUG)
    st = examples.run(ex)
    root = parse("multi_head")
    got = labels(root)
    assert got[("X", "QKV")] == shape(ex.E)
    assert f"{shape(st.Q)} each" in nodes(root)["QKV"]["texts"]
    for k in range(1, h + 1):
        assert got[("QKV", f"split{k}")] == f"{shape(H.Q[k - 1])} each"
        assert got[(f"split{k}", f"head{k}")] == f"{shape(H.V[k - 1])} each"
        assert got[(f"head{k}", "concat")] == shape(H.head_outputs[k - 1])
        assert nodes(root)[f"head{k}"]["texts"] == [f"head {k} attends", f"softmax(Q{k}·K{k}ᵀ ÷ √{H.d_head})·V{k}"]
    assert got[("concat", "out")] == shape(H.output)
    assert got[("out", "")] == shape(H.output)
    assert nodes(root)["out"]["texts"][1] == f"W_O: {shape(multi_head.W_O)}"
    assert len([n for n in nodes(root) if n.startswith("head")]) == h


def test_the_rnn_is_a_chain_and_attention_all_to_all():
    rnn = load_rnn("the_cat_sat")
    tokens = list(rnn.tokens)
    n = len(tokens)
    chain_svg, attention_svg = parse_all("rnn_vs_attention")  # two pictures: the chain, then attention
    boxes = nodes(chain_svg)
    chain = [(e["from"], e["to"]) for e in edges(chain_svg)]
    assert sorted(chain) == sorted(
        [(f"h{t - 1}", f"h{t}") for t in range(1, n + 1)] + [(f"x{t}", f"h{t}") for t in range(1, n + 1)]
    )
    assert [boxes[f"x{t}"]["texts"][0] for t in range(1, n + 1)] == tokens
    assert [nodes(attention_svg)[f"a{t}"]["texts"][0] for t in range(1, n + 1)] == tokens
    assert edges(attention_svg) == []
    links = {
        (g.get("data-from"), g.get("data-to")) for g in attention_svg.iter(f"{SVG}g") if g.get("class") == "dg-link"
    }
    assert links == {(f"a{j}", f"y{i}") for i in range(1, n + 1) for j in range(1, n + 1)}

    def notes(root):
        return [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "dg-note"]

    assert notes(chain_svg) == ["RNN encoder", f"{n} steps, one after another"]
    assert notes(attention_svg) == ["self-attention", "1 step, every token to every output"]
    # Each picture says on its own what it shows and what the other one does not.
    assert chain_svg.get("aria-label").startswith(f"Diagram of an RNN encoder on “{' '.join(tokens)}”")
    assert f"{tokens[0]} reaches h{n} through {n} updates" in chain_svg.get("aria-label")
    assert f"({n} × {n} = {n * n} connections)" in attention_svg.get("aria-label")
    # Their arrowheads are defined once each, under ids of their own (one page holds both).
    ids = [m.get("id") for r in (chain_svg, attention_svg) for m in r.iter(f"{SVG}marker")]
    assert len(ids) == len(set(ids)) == 2, ids


def test_the_transformer_block_keeps_the_shape_and_has_two_residuals():
    """The block of the page on "bank of river": every arrow carries X's shape but the two inside
    the feed-forward network, which carry d_ff columns; the steps in the order computed."""
    B = transformer_block.block()
    root = parse("transformer_block")
    got = labels(root)
    boxes = nodes(root)
    residual = {k for k, v in got.items() if v == "residual"}
    assert residual == {("X", "add1"), ("ln1", "add2")}
    inner = {("lin1", "relu"), ("relu", "lin2")}
    assert {got[k] for k in inner} == {shape(B.steps.hidden)} == {shape(B.steps.relu)} == {"3 × 8"}
    assert {v for k, v in got.items() if k not in residual | inner} == {shape(B.X)} == {shape(B.steps.output)}
    order = ["X", "attn", "add1", "ln1", "lin1", "relu", "lin2", "add2", "ln2"]
    tops = [boxes[k]["box"][1] for k in order]
    assert tops == sorted(tops) and len(set(tops)) == len(tops), tops
    W = B.weights
    assert boxes["lin1"]["texts"][1] == f"W_1: {shape(W.W_1)}, b_1: {W.b_1.shape[0]}"
    assert boxes["lin2"]["texts"][1] == f"W_2: {shape(W.W_2)}, b_2: {W.b_2.shape[0]}"
    assert boxes["attn"]["texts"][0] == f"self-attention, {W.num_heads} head" == "self-attention, 1 head"
    assert [boxes[k]["texts"][0] for k in ("add1", "add2")] == ["+", "+"]
    assert boxes["ln1"]["texts"][0] == "layer norm: Z" and boxes["ln2"]["texts"][0] == "layer norm: out"
    assert "bank of river" in root.get("aria-label")
