"""Pictures of the flow, drawn by code from the worked examples' own shapes, as SVG.

Four diagrams, each a generated include under ``docs/generated/diagrams/`` (``make update``
writes them; a test holds them equal to what this module draws now, and another reads each
SVG back and compares its boxes and arrows with the shapes the reference computes):

- ``flow.md``: self-attention on "The cat sat", X → Q, K, V → scores → ÷√d_k → softmax → ·V,
  every arrow labelled with the shape of the matrix it carries;
- ``multi_head.md``: multi-head attention on the same sentence with two heads: split,
  attend, concatenate, project;
- ``rnn_vs_attention.md``: the RNN encoder's chain of states and self-attention's direct
  connections from every token to every output, two pictures side by side (one above the other
  on a phone);
- ``transformer_block.md``: where attention sits in a transformer block (residual connections,
  layer normalization, the feed-forward network in its three steps), with the shapes of the block
  that docs/transformer-block.md computes on "bank of river".

A diagram is data first (:class:`Diagram`: boxes and arrows, each with its text), then SVG
(:func:`svg`). The drawing uses no colour of its own: strokes and text are ``currentColor``, the
page's text colour, so a diagram reads the same in the light and the dark scheme, and the boxes
are filled with the page's own background (``var(--md-default-bg-color)``) so that lines behind
them do not show through. Each SVG has ``role="img"``, an ``aria-label`` that says every box and
every arrow with its shape, and a ``<title>``; it is kept out of the search index.

Every SVG is at most :data:`MAX_WIDTH` wide, the text column of a 375 px phone, so that a phone
shows it at its own size, text at 11 px or more, instead of shrinking it to the column (a
wider drawing raises ``ValueError``); tests/browser/test_phone.py measures the rendered text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

from selfattn_ref import examples
from selfattn_ref.examples import load_rnn

from .figures import FONT, _attr, _text, _width
from .registry import generated

TIMES = "×"
# px: the widest a diagram may be, the width of Material's text column on a 375 px screen
# (375 px less 0.8 rem = 16 px of margin each side): a phone then shows it unshrunk.
MAX_WIDTH = 343


def shape(rows: int, cols: int) -> str:
    """A matrix's shape as the pages write it: ``3 × 4``."""
    return f"{rows} {TIMES} {cols}"


@dataclass(frozen=True)
class Box:
    id: str
    lines: tuple[str, ...]  # the first line is the box's name, the others what it holds
    x: float  # centre
    y: float  # top
    w: float = 150.0
    h: float = 44.0
    kind: str = "step"  # "step" (an operation), "data" (a matrix), "sum" (a ⊕ circle)


@dataclass(frozen=True)
class Arrow:
    src: str
    dst: str
    label: str = ""  # the shape of what the arrow carries
    side: str = ""  # "left"/"right": leave from the source's side and enter the target's side
    path: tuple[tuple[float, float], ...] = ()  # corner points between the two ends, if any


@dataclass
class Diagram:
    name: str
    title: str  # "Diagram of ..." follows
    boxes: list[Box] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    lines: list[tuple[str, str]] = field(default_factory=list)  # undirected links (all-to-all)
    notes: list[tuple[float, float, str]] = field(default_factory=list)  # free text: x, y, text
    summary: str = ""  # a sentence for the aria-label, after the boxes and arrows

    def box(self, id_: str) -> Box:
        return next(b for b in self.boxes if b.id == id_)


# --- the four diagrams, from the examples ------------------------------------------------------


@cache
def _the_cat_sat():
    ex = examples.load("the_cat_sat")
    return ex, examples.run(ex)


def flow() -> Diagram:
    """Self-attention on "The cat sat", one box per step, shapes from the example's matrices.

    Narrow enough for a phone's column (:data:`MAX_WIDTH`): Q, K and V side by side, the scores'
    steps under Q and K, the outputs under V."""
    ex, st = _the_cat_sat()
    n, d_model = ex.E.shape
    d_k, d_v = st.K.shape[1], st.V.shape[1]
    cx, gap = 166.0, 108.0
    col = cx - gap / 2  # the column of the scores, between Q and K
    D = Diagram("flow", f"self-attention on “{ex.title}”")
    D.boxes += [
        Box("X", ("X", f"embeddings, {shape(n, d_model)}"), cx, 10, w=160, kind="data"),
        Box("Q", ("Q = X·W_Q", "queries", f"W_Q: {shape(d_model, d_k)}"), cx - gap, 100, w=100, h=58, kind="data"),
        Box("K", ("K = X·W_K", "keys", f"W_K: {shape(d_model, d_k)}"), cx, 100, w=100, h=58, kind="data"),
        Box("V", ("V = X·W_V", "values", f"W_V: {shape(d_model, d_v)}"), cx + gap, 100, w=100, h=58, kind="data"),
        Box("S", ("S = Q·Kᵀ", "scores"), col, 210),
        Box("scale", (f"÷ √d_k = √{d_k}", "scaled scores"), col, 300),
        Box("A", ("A = softmax", "row by row: weights, sum 1"), col, 390, w=184),
        Box("Y", ("Y = A·V", "outputs"), cx + gap, 480, w=100, kind="data"),
    ]
    D.arrows += [
        Arrow("X", "Q", shape(n, d_model)),
        Arrow("X", "K", shape(n, d_model)),
        Arrow("X", "V", shape(n, d_model)),
        Arrow("Q", "S", shape(n, d_k)),
        Arrow("K", "S", shape(n, d_k)),
        Arrow("S", "scale", shape(n, n)),
        Arrow("scale", "A", shape(n, n)),
        Arrow("A", "Y", shape(n, n)),
        Arrow("V", "Y", shape(n, d_v)),
        Arrow("Y", "", shape(n, d_v)),  # out of the picture: the outputs, one row per token
    ]
    D.summary = (
        f"{n} tokens of {d_model} numbers go in as X ({shape(n, d_model)}); "
        f"{n} outputs of {d_v} numbers come out ({shape(n, d_v)})."
    )
    return D


def multi_head() -> Diagram:
    """Multi-head attention on "The cat sat" with two heads: split, attend, concatenate, project."""
    from selfattn_ref.topics.multi_head import NUM_HEADS, SLUG, W_O

    ex = examples.load(SLUG)
    st = examples.run(ex)
    n, d_model = ex.E.shape
    h = NUM_HEADS
    d_head = d_model // h
    cx = 170.0
    xs = [cx + (k - (h - 1) / 2) * 164 for k in range(h)]
    D = Diagram("multi_head", f"multi-head attention on “{ex.title}” with {h} heads")
    D.boxes.append(Box("X", ("X", f"embeddings, {shape(n, d_model)}"), cx, 10, w=160, kind="data"))
    D.boxes.append(Box("QKV", ("Q, K, V = X·W_Q, X·W_K, X·W_V", f"{shape(n, st.Q.shape[1])} each"), cx, 100, w=270))
    D.arrows.append(Arrow("X", "QKV", shape(n, d_model)))
    for k, x in enumerate(xs, 1):
        first, last = (k - 1) * d_head + 1, k * d_head
        cols = f"columns {first} and {last}" if last == first + 1 else f"columns {first} to {last}"
        D.boxes.append(Box(f"split{k}", (f"head {k}: Q{k}, K{k}, V{k}", cols), x, 200, w=150, kind="data"))
        formula = f"softmax(Q{k}·K{k}ᵀ ÷ √{d_head})·V{k}"
        D.boxes.append(Box(f"head{k}", (f"head {k} attends", formula), x, 300, w=150))
        D.arrows.append(Arrow("QKV", f"split{k}", f"{shape(n, d_head)} each"))
        D.arrows.append(Arrow(f"split{k}", f"head{k}", f"{shape(n, d_head)} each"))
    D.boxes.append(Box("concat", ("concatenate", "the heads side by side"), cx, 400, w=180))
    for k in range(1, h + 1):
        D.arrows.append(Arrow(f"head{k}", "concat", shape(n, d_head)))
    D.boxes.append(Box("out", ("· W_O", f"W_O: {shape(*W_O.shape)}"), cx, 490, w=180))
    D.arrows.append(Arrow("concat", "out", shape(n, h * d_head)))
    D.arrows.append(Arrow("out", "", shape(n, d_model)))
    D.summary = (
        f"{h} heads of width d_head = {d_model} ÷ {h} = {d_head}; concatenated they have "
        f"{h * d_head} columns again, the width of X."
    )
    return D


def rnn_vs_attention() -> tuple[Diagram, Diagram]:
    """The RNN encoder's chain and self-attention's all-to-all connections, on "The cat sat".

    Two pictures, each narrow enough for a phone's column: the page shows them side by side on a
    wide screen and one above the other on a narrow one (``.diagram-figure`` wraps)."""
    rnn = load_rnn("the_cat_sat")
    tokens = list(rnn.tokens)
    n = len(tokens)
    sentence = " ".join(tokens)
    step, w, h = 76.0, 56.0, 36.0
    top, bottom = 80.0, 170.0  # the rows of the states (outputs) and of the tokens
    # The RNN: inputs at the bottom, a chain of states above them, h0 on the left.
    R = Diagram("rnn_chain", f"an RNN encoder on “{sentence}”")
    left = 36.0
    R.boxes.append(Box("h0", ("h0 = 0",), left, top, w=w, h=h, kind="data"))
    for t, tok in enumerate(tokens, 1):
        x = left + t * step
        R.boxes.append(Box(f"x{t}", (tok,), x, bottom, w=w, h=h, kind="data"))
        R.boxes.append(Box(f"h{t}", (f"h{t}",), x, top, w=w, h=h))
        R.arrows.append(Arrow(f"x{t}", f"h{t}"))
        R.arrows.append(Arrow(f"h{t - 1}", f"h{t}", side="right"))
    middle = left + n * step / 2
    R.notes += [(middle, 30, "RNN encoder"), (middle, 50, f"{n} steps, one after another")]
    R.summary = f"{tokens[0]} reaches h{n} through {n} updates, h1 to h{n}, one after another."
    # Self-attention: the same tokens at the bottom, one output each above, every token to every output.
    A = Diagram("attention_all_to_all", f"self-attention on “{sentence}”")
    left = 0.0
    for t, tok in enumerate(tokens, 1):
        x = left + (t - 1) * step
        A.boxes.append(Box(f"a{t}", (tok,), x, bottom, w=w, h=h, kind="data"))
        A.boxes.append(Box(f"y{t}", (f"y{t}",), x, top, w=w, h=h))
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            A.lines.append((f"a{j}", f"y{i}"))
    middle = left + (n - 1) * step / 2
    A.notes += [(middle, 30, "self-attention"), (middle, 50, "1 step, every token to every output")]
    A.summary = (
        f"Every token reaches every output in 1 weighted sum ({n} × {n} = {n * n} connections), "
        f"where the RNN needs {n} updates one after another."
    )
    return R, A


def transformer_block() -> Diagram:
    """The transformer block of docs/transformer-block.md on "bank of river", post-norm as in the
    original paper (layer norm after each residual sum), the feed-forward network in its three
    steps; shapes from the block the page computes (:mod:`selfattn_ref.topics.transformer_block`)."""
    from selfattn_ref.topics.transformer_block import SLUG, block

    B = block()
    n, d_model = B.X.shape
    d_ff = B.steps.hidden.shape[-1]
    W = B.weights
    heads = f"{W.num_heads} head" + ("s" if W.num_heads != 1 else "")
    cx = 118.0  # on the left, so that the residual connections and their labels fit on the right
    D = Diagram("transformer_block", f"a transformer block on “{examples.load(SLUG).title}”")
    D.boxes += [
        Box("X", ("X", f"input, {shape(n, d_model)}"), cx, 10, w=180, kind="data"),
        Box("attn", (f"self-attention, {heads}", "every token looks at every token"), cx, 96, w=220),
        Box("add1", ("+",), cx, 180, w=36, h=36, kind="sum"),
        Box("ln1", ("layer norm: Z", "each row: mean 0, variance 1"), cx, 256, w=200),
        Box("lin1", ("FFN: · W_1 + b_1", f"W_1: {shape(*W.W_1.shape)}, b_1: {W.b_1.shape[0]}"), cx, 346, w=200),
        Box("relu", ("FFN: ReLU", "max(0, ·) on each entry"), cx, 436, w=200),
        Box("lin2", ("FFN: · W_2 + b_2", f"W_2: {shape(*W.W_2.shape)}, b_2: {W.b_2.shape[0]}"), cx, 526, w=200),
        Box("add2", ("+",), cx, 610, w=36, h=36, kind="sum"),
        Box("ln2", ("layer norm: out", "each row: mean 0, variance 1"), cx, 686, w=200),
    ]
    far = cx + 124
    D.arrows += [
        Arrow("X", "attn", shape(n, d_model)),
        Arrow("attn", "add1", shape(n, d_model)),
        Arrow("X", "add1", "residual", side="right", path=((far, 32), (far, 198))),
        Arrow("add1", "ln1", shape(n, d_model)),
        Arrow("ln1", "lin1", shape(n, d_model)),
        Arrow("lin1", "relu", shape(n, d_ff)),
        Arrow("relu", "lin2", shape(n, d_ff)),
        Arrow("lin2", "add2", shape(n, d_model)),
        Arrow("ln1", "add2", "residual", side="right", path=((far, 278), (far, 628))),
        Arrow("add2", "ln2", shape(n, d_model)),
        Arrow("ln2", "", shape(n, d_model)),
    ]
    D.summary = (
        f"Every arrow between the steps carries {shape(n, d_model)}, one row per token: a block gives back "
        f"the shape it was given, so blocks stack. Inside the feed-forward network each row is {d_ff} numbers "
        f"wide ({shape(n, d_ff)}), d_ff = {d_ff // d_model} × d_model."
    )
    return D


# Each function returns one diagram or a tuple of them, shown side by side (stacked when narrow).
DIAGRAMS = {
    "flow": flow,
    "multi_head": multi_head,
    "rnn_vs_attention": rnn_vs_attention,
    "transformer_block": transformer_block,
}


# --- drawing ------------------------------------------------------------------------------------

ARROW_ID = "dg-arrow"
# Boxes hide the lines behind them with the page's own background (Material's variable, per scheme).
FILL = "fill:var(--md-default-bg-color, #fff)"


def _anchor(b: Box, where: str) -> tuple[float, float]:
    return {
        "top": (b.x, b.y),
        "bottom": (b.x, b.y + b.h),
        "left": (b.x - b.w / 2, b.y + b.h / 2),
        "right": (b.x + b.w / 2, b.y + b.h / 2),
    }[where]


def _ends(D: Diagram, a: Arrow) -> tuple[tuple[float, float], tuple[float, float]]:
    s = D.box(a.src)
    if not a.dst:  # out of the picture, downwards
        x, y = _anchor(s, "bottom")
        return (x, y), (x, y + 34)
    t = D.box(a.dst)
    if a.side and not a.path and abs(s.y - t.y) < 1:  # side by side: right edge to left edge
        return _anchor(s, "right"), _anchor(t, "left")
    if a.path:
        return _anchor(s, a.side or "bottom"), _anchor(t, a.side or "top")
    if t.y + t.h <= s.y:  # upwards
        return _anchor(s, "top"), _anchor(t, "bottom")
    return _anchor(s, "bottom"), _anchor(t, "top")


def _box_svg(b: Box) -> str:
    x0 = b.x - b.w / 2
    shape_ = (
        f'<circle cx="{b.x:g}" cy="{b.y + b.h / 2:g}" r="{b.h / 2:g}" class="dg-fill" style="{FILL}" '
        'stroke="currentColor"/>'
        if b.kind == "sum"
        else f'<rect x="{x0:g}" y="{b.y:g}" width="{b.w:g}" height="{b.h:g}" rx="{6 if b.kind == "step" else 0}" '
        f'class="dg-fill" style="{FILL}" stroke="currentColor"/>'
    )
    texts = []
    k = len(b.lines)
    for i, line in enumerate(b.lines):
        y = b.y + b.h / 2 + (i - (k - 1) / 2) * (FONT + 3)
        weight = ' font-weight="bold"' if i == 0 and k > 1 else ""
        size = "" if i == 0 else f' font-size="{FONT - 2}"'
        texts.append(
            f'<text x="{b.x:g}" y="{y:g}" text-anchor="middle" dominant-baseline="central" '
            f'fill="currentColor"{weight}{size}>{_text(line)}</text>'
        )
    return f'<g class="dg-node" data-node="{_attr(b.id)}">{shape_}{"".join(texts)}</g>'


LABEL_H = 14.0  # px: the height a shape label takes, FONT - 1 plus a little


def _segments(D: Diagram) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """Every straight piece of line in the picture, with the arrow (or link) it belongs to."""
    out = []
    for a in D.arrows:
        (sx, sy), (tx, ty) = _ends(D, a)
        points = [(sx, sy), *a.path, (tx, ty)]
        out += [(f"{a.src}>{a.dst}", p, q) for p, q in zip(points, points[1:], strict=False)]
    for src, dst in D.lines:
        out.append((f"{src}-{dst}", _anchor(D.box(src), "top"), _anchor(D.box(dst), "bottom")))
    return out


def _crosses(p, q, box: tuple[float, float, float, float]) -> bool:
    """Whether the segment p-q passes through the rectangle (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    (px, py), (qx, qy) = p, q
    t0, t1 = 0.0, 1.0  # Liang-Barsky clipping
    for d, lo, hi, start in ((qx - px, x0, x1, px), (qy - py, y0, y1, py)):
        if abs(d) < 1e-9:
            if not lo <= start <= hi:
                return False
            continue
        a, b = (lo - start) / d, (hi - start) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
        if t0 > t1:
            return False
    return True


def _overlaps(r, s) -> bool:
    return r[0] < s[2] and s[0] < r[2] and r[1] < s[3] and s[1] < r[3]


def _label_places(D: Diagram) -> dict[int, tuple[float, float, str]]:
    """Where each arrow's shape label goes: (x, y, text-anchor), keyed by the arrow's index.

    An arrow along a path has its label beside the path's long side, a flat arrow between two
    boxes side by side above it. Any other arrow's label goes beside the arrow, clear of its own
    line: the first of these places that touches no other line, no box and no label already
    placed: right of the middle, left of it, then the same a third of the way from either end."""
    segments = _segments(D)
    boxes = [(b.x - b.w / 2, b.y, b.x + b.w / 2, b.y + b.h) for b in D.boxes]
    placed: list[tuple[float, float, float, float]] = []
    places: dict[int, tuple[float, float, str]] = {}
    for i, a in enumerate(D.arrows):
        if not a.label:
            continue
        (sx, sy), (tx, ty) = _ends(D, a)
        w = _width(a.label) * 0.95
        if a.path:
            places[i] = (a.path[0][0] + 6, (a.path[0][1] + a.path[-1][1]) / 2, "start")
        elif a.side and abs(sy - ty) < 1:
            places[i] = ((sx + tx) / 2, sy - 8, "middle")
        if i in places:
            x, y, anchor = places[i]
            x0 = x - w / 2 if anchor == "middle" else x
            placed.append((x0, y - LABEL_H / 2, x0 + w, y + LABEL_H / 2))
            continue

        candidates = []
        for t in (0.5, 1 / 3, 2 / 3):
            y = sy + (ty - sy) * t
            xs = (_x_at(sx, sy, tx, ty, y - LABEL_H / 2), _x_at(sx, sy, tx, ty, y + LABEL_H / 2))
            candidates.append((max(xs) + 6, y, "start"))
            candidates.append((min(xs) - 6, y, "end"))
        own = f"{a.src}>{a.dst}"
        others = [(p, q) for key, p, q in segments if key != own]
        rects = [_label_rect(c, w) for c in candidates]
        clear = [
            not any(_crosses(p, q, r) for p, q in others) and not any(_overlaps(r, o) for o in boxes + placed)
            for r in rects
        ]
        k = clear.index(True) if True in clear else 0
        places[i] = candidates[k]
        placed.append(rects[k])
    return places


def _x_at(sx: float, sy: float, tx: float, ty: float, y: float) -> float:
    """The x of the line from (sx, sy) to (tx, ty) at height y."""
    return sx if abs(ty - sy) < 1e-9 else sx + (tx - sx) * (y - sy) / (ty - sy)


def _label_rect(place: tuple[float, float, str], w: float) -> tuple[float, float, float, float]:
    x, y, anchor = place
    x0 = x if anchor == "start" else x - w
    return (x0, y - LABEL_H / 2, x0 + w, y + LABEL_H / 2)


def _arrow_svg(D: Diagram, a: Arrow, place: tuple[float, float, str] | None = None) -> str:
    (sx, sy), (tx, ty) = _ends(D, a)
    points = [(sx, sy), *a.path, (tx, ty)]  # a path leaves sideways, runs along, comes back in
    d = "M" + " L".join(f"{x:g},{y:g}" for x, y in points)
    body = f'<path d="{d}" fill="none" stroke="currentColor" stroke-width="1.3" marker-end="url(#{ARROW_ID})"/>'
    if a.label and place:
        lx, ly, anchor = place
        body += (
            f'<text class="dg-shape" x="{lx:g}" y="{ly:g}" text-anchor="{anchor}" dominant-baseline="central" '
            f'fill="currentColor" font-size="{FONT - 1}">{_text(a.label)}</text>'
        )
    return f'<g class="dg-edge" data-from="{_attr(a.src)}" data-to="{_attr(a.dst)}">{body}</g>'


def _line_svg(D: Diagram, src: str, dst: str) -> str:
    (sx, sy), (tx, ty) = _anchor(D.box(src), "top"), _anchor(D.box(dst), "bottom")
    return (
        f'<g class="dg-link" data-from="{_attr(src)}" data-to="{_attr(dst)}">'
        f'<line x1="{sx:g}" y1="{sy:g}" x2="{tx:g}" y2="{ty:g}" stroke="currentColor" stroke-opacity="0.7"/></g>'
    )


def describe(D: Diagram) -> str:
    """The alternative text: the title, each box with its text, each arrow with its shape."""
    names = {b.id: " ".join(b.lines) for b in D.boxes}
    boxes = "; ".join(names[b.id] for b in D.boxes)
    arrows = "; ".join(
        f"{names[a.src]} to {names[a.dst] if a.dst else 'the output'}" + (f", {a.label}" if a.label else "")
        for a in D.arrows
    )
    text = f"Diagram of {D.title}. Boxes: {boxes}." + (f" Arrows: {arrows}." if arrows else "")
    if D.lines:
        text += f" {len(D.lines)} lines join each token to each output."
    return text + (f" {D.summary}" if D.summary else "")


def svg(D: Diagram) -> str:
    """The diagram as one line of inline SVG (see the module's docstring)."""
    places = _label_places(D)
    right = max(b.x + b.w / 2 for b in D.boxes)
    left = min([b.x - b.w / 2 for b in D.boxes] + [x - _width(t) / 2 for x, _, t in D.notes if t])
    for i, (lx, _, anchor) in places.items():
        w = _width(D.arrows[i].label) * 0.95
        x0 = {"start": lx, "end": lx - w, "middle": lx - w / 2}[anchor]
        right, left = max(right, x0 + w), min(left, x0)
    for a in D.arrows:
        if a.path:
            right = max(right, a.path[0][0])
    for x, _, note in D.notes:
        right = max(right, x + _width(note) / 2)
    bottom = max(b.y + b.h for b in D.boxes) + (40 if any(not a.dst for a in D.arrows) else 10)
    shift = 8 - min(left, 8)
    width, height = math.ceil(right + shift + 8), math.ceil(bottom)
    if width > MAX_WIDTH:
        raise ValueError(
            f"diagram {D.name!r} is {width} px wide, more than MAX_WIDTH = {MAX_WIDTH} px (a phone's "
            "text column): narrow its boxes or split it into pictures side by side"
        )
    defs = (
        f'<defs><marker id="{ARROW_ID}-{D.name}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>'
    )
    body = [defs]
    body += [_line_svg(D, s, t) for s, t in D.lines]
    body += [
        _arrow_svg(D, a, places.get(i)).replace(f"url(#{ARROW_ID})", f"url(#{ARROW_ID}-{D.name})")
        for i, a in enumerate(D.arrows)
    ]
    body += [_box_svg(b) for b in D.boxes]
    body += [
        f'<text class="dg-note" x="{x:g}" y="{y:g}" text-anchor="middle" fill="currentColor"'
        f"{' font-weight=' + chr(34) + 'bold' + chr(34) if i % 2 == 0 else ''}>{_text(t)}</text>"
        for i, (x, y, t) in enumerate(D.notes)
        if t
    ]
    inner = "".join(body)
    if shift:
        inner = f'<g transform="translate({shift:g},0)">{inner}</g>'
    title = f"Diagram of {D.title}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" role="img" aria-label="{_attr(describe(D))}" '
        f'data-search-exclude="" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-size="{FONT}"><title>{_text(title)}</title>{inner}</svg>'
    )


def parts(name: str) -> tuple[Diagram, ...]:
    """The pictures of one diagram: one, or several shown side by side."""
    drawn = DIAGRAMS[name]()
    return drawn if isinstance(drawn, tuple) else (drawn,)


def include(name: str) -> str:
    """The text of ``docs/generated/diagrams/<name>.md``: the SVGs in a figure block, each in a
    paragraph of its own (the block is a wrapping flex row, extra.css)."""
    body = "\n\n".join(svg(D) for D in parts(name))
    return f'<div class="diagram-figure" markdown>\n\n{body}\n\n</div>\n'


@generated("diagrams/flow.md")
def _flow() -> str:
    return include("flow")


@generated("diagrams/multi_head.md")
def _multi_head() -> str:
    return include("multi_head")


@generated("diagrams/rnn_vs_attention.md")
def _rnn_vs_attention() -> str:
    return include("rnn_vs_attention")


@generated("diagrams/transformer_block.md")
def _transformer_block() -> str:
    return include("transformer_block")
