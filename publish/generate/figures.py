"""Figures drawn from the reference's numbers: heatmaps of matrices and a bar chart, as SVG.

A small hand-written SVG writer, deterministic (the same numbers give the same bytes), so that
a figure is a generated file like a table: ``make update`` writes it into the Markdown include
beside its table (see :func:`publish.generate.tables.beside`), and the staleness test holds
it equal to what the code draws now. Nothing is drawn by hand.

Each figure is one line of inline SVG (Markdown leaves a single line of HTML alone, even
indented inside a tab or an admonition), with ``role="img"`` and an ``aria-label`` that states
every number it shows, and a ``<title>``. Every cell prints its value at the page's rounding,
formatted by :func:`publish.fmt.cell` as in the table beside it.

Colours, one palette per Material scheme: each cell carries both of its fills as CSS custom
properties (``--l`` for the light scheme, ``--d`` for the dark one), and its text colours as
classes on the cell's group, written only where they differ from the usual pair (black text on
the light scheme, white on the dark one): ``hm-w`` for white text on the light scheme, ``hm-k``
for black text on the dark one. extra.css picks the fill and text of the scheme in use, so a
figure follows the palette toggle at once (the figures need the site's CSS). A cell is kept
short, since a page can show a few hundred of them: its box is a ``<path>``, its text has no class.
The fills are interpolated in OKLab between a few stops; the text of a cell is black or white,
whichever contrasts more with its fill, which is always at least sqrt(21) = 4.58:1 (WCAG AA asks
4.5:1). Labels use ``currentColor`` (the ``<svg>``'s fill, which its texts inherit): the page's
own text colour. The figures are kept out of the search index (``data-search-exclude``): their
numbers are in the tables beside them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape

import numpy as np

from ..fmt import cell, is_integral, num

# --- colour ----------------------------------------------------------------------------------

BLACK, WHITE = "#000", "#fff"
# Material's page backgrounds: the default scheme's white and slate's hsl(232, 15%, 14%).
BACKGROUND = {"light": "#ffffff", "dark": "#1e2129"}


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb)


def _rgb(hex_: str) -> tuple[float, float, float]:
    if len(hex_) == 4:  # #abc
        hex_ = "#" + "".join(c * 2 for c in hex_[1:])
    return tuple(int(hex_[i : i + 2], 16) / 255 for i in (1, 3, 5))


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _oklab(hex_: str) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in _rgb(hex_))
    lms = (
        0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b,
        0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b,
        0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b,
    )
    l_, m_, s_ = (math.copysign(abs(x) ** (1 / 3), x) for x in lms)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def _from_oklab(lab) -> str:
    L, a, b = lab
    l_ = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m_ = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s_ = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3
    rgb = (
        4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_,
        -1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_,
        -0.0041960863 * l_ - 0.7034186147 * m_ + 1.7076147010 * s_,
    )
    return _hex(_gamma(min(max(c, 0.0), 1.0)) for c in rgb)


def luminance(hex_: str) -> float:
    """WCAG 2 relative luminance."""
    r, g, b = (_linear(c) for c in _rgb(hex_))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (at least 4.58:1 either way)."""
    return BLACK if contrast(fill, BLACK) >= contrast(fill, WHITE) else WHITE


@dataclass(frozen=True)
class Scale:
    """A colour scale from ``vmin`` to ``vmax``: evenly spaced colour stops for each scheme."""

    vmin: float
    vmax: float
    light: tuple[str, ...]
    dark: tuple[str, ...]
    ticks: tuple[float, ...]
    meaning: str  # how to read it, for the alternative text

    def fill(self, x: float, scheme: str) -> str:
        stops = self.light if scheme == "light" else self.dark
        t = (float(x) - self.vmin) / (self.vmax - self.vmin)
        t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
        i = min(int(t), len(stops) - 2)
        f = t - i
        a, b = _oklab(stops[i]), _oklab(stops[i + 1])
        return _from_oklab(tuple(p + (q - p) * f for p, q in zip(a, b, strict=True)))


# Attention weights, 0 to 1: pale to deep indigo on white; on slate, dark to pale indigo.
WEIGHTS = Scale(
    0.0,
    1.0,
    light=("#f4f5fb", "#7986cb", "#1a237e"),
    dark=("#262a3d", "#5c6bc0", "#e8eaf6"),
    ticks=(0.0, 0.5, 1.0),
    meaning="the stronger the colour, the larger the weight",
)
# Values from -1 to 1 (the sinusoidal encoding): orange below 0, indigo above, neutral at 0.
SIGNED = Scale(
    -1.0,
    1.0,
    light=("#bf360c", "#f5f5f5", "#1a237e"),
    dark=("#ffab91", "#262a3d", "#c5cae9"),
    ticks=(-1.0, 0.0, 1.0),
    meaning="orange below 0, indigo above 0, the stronger the colour the further from 0",
)

# Bars: indigo 600 on white (7.4:1), indigo 200 on slate (8.0:1); WCAG asks 3:1 of graphics.
BAR = {"light": "#3949ab", "dark": "#9fa8da"}

# --- SVG -------------------------------------------------------------------------------------

FONT = 13  # px, Material's table text (0.64rem of 20px)
CHAR = 8.0  # px, a generous width per character at FONT, for laying out labels
# Characters that Markdown's inline syntax would act on, written as character references. A figure
# sits in a paragraph inside a `markdown` <div>, where Python-Markdown reads links and emphasis even
# inside a tag's attributes: the aria-label needs them too (a spec's title is in it).
_MARKDOWN = {c: f"&#{ord(c)};" for c in "[]_*`\\${}"}


def _text(s: str) -> str:
    return escape(str(s), _MARKDOWN)


def _attr(s: str) -> str:
    return escape(str(s), {**_MARKDOWN, '"': "&quot;", "\n": " "})


def _width(s: str) -> float:
    return len(str(s)) * CHAR


def _fills(light: str, dark: str) -> str:
    """The style of a shape filled ``light`` on the light scheme and ``dark`` on the dark one."""
    return f"--l:{light};--d:{dark}"


def _ink_classes(light: str, dark: str) -> str:
    """The class attribute (or nothing) that gives a cell on these fills its text colours."""
    classes = [c for c, odd in (("hm-w", text_on(light) == WHITE), ("hm-k", text_on(dark) == BLACK)) if odd]
    return f' class="{" ".join(classes)}"' if classes else ""


def _svg(width: float, height: float, label: str, title: str, body: list[str], cls: str) -> str:
    w, h = math.ceil(width), math.ceil(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" role="img" aria-label="{_attr(label)}" '
        'data-search-exclude="" '
        f'width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-size="{FONT}" fill="currentColor">'
        f"<title>{_text(title)}</title>" + "".join(body) + "</svg>"
    )


def _legend(scale: Scale, x: float, y: float) -> list[str]:
    """A colour bar of 20 steps, 140 px wide, with its end and middle values under it."""
    steps, width, height = 20, 140.0, 10.0
    step = width / steps
    out = ['<g class="hm-legend">']
    for k in range(steps):
        v = scale.vmin + (scale.vmax - scale.vmin) * (k + 0.5) / steps
        light, dark = scale.fill(v, "light"), scale.fill(v, "dark")
        out.append(f'<path style="{_fills(light, dark)}" d="M{x + k * step:g} {y:g}h{step:g}v{height:g}h-{step:g}z"/>')
    out.append(
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" fill="none" '
        'stroke="currentColor" stroke-opacity="0.4"/>'
    )
    out.append('<g text-anchor="middle">')
    for t in scale.ticks:
        tx = x + width * (t - scale.vmin) / (scale.vmax - scale.vmin)
        label = cell(t, 1, is_integral([t])).replace("-", "−")
        out.append(f'<text x="{tx:g}" y="{y + height + FONT + 2:g}">{label}</text>')
    out.append("</g></g>")
    return out


def heatmap(
    M,
    rows,
    cols,
    decimals: int,
    *,
    title: str,
    row_title: str = "query",
    col_title: str = "key",
    scale: Scale = WEIGHTS,
    errors=None,
) -> str:
    """A heatmap of ``M`` with rows and columns labelled, the value in each cell, a colour bar.

    ``title`` names the matrix ("Attention weights of “bank of river”"); the aria-label is the
    title, how the axes read, each row's values and how to read the colours. ``errors``: the bound
    on each value's float64 error (:func:`selfattn_ref.examples.errors`), or None.
    """
    M = np.asarray(M, dtype=float)
    rows, cols = [str(r) for r in rows], [str(c) for c in cols]
    if M.shape != (len(rows), len(cols)):
        raise ValueError(f"M has shape {M.shape}, but there are {len(rows)} row and {len(cols)} column labels")
    if not np.all(np.isfinite(M)):
        raise ValueError("M must be finite to be drawn")
    integral = is_integral(M)
    errs = np.zeros(M.shape) if errors is None else np.asarray(errors)
    texts = [
        [cell(x, decimals, integral, e) for x, e in zip(row, erow, strict=True)]
        for row, erow in zip(M, errs, strict=True)
    ]
    cw = max(48.0, max(_width(t) for t in [*cols, *(t for r in texts for t in r)]) + 14)
    ch = 28.0
    lw = max(_width(r) for r in [*rows, row_title + " ↓"]) + 10
    top = 2 * (FONT + 6)  # the column title, then the column labels
    x0, y0 = lw, top
    # Labels are in the page's text colour (the <svg>'s fill); each group sets their alignment.
    body = [
        f'<text x="{x0:g}" y="{FONT:g}">{_text(col_title)} →</text>',
        f'<text x="{x0 - 8:g}" y="{top - 6:g}" text-anchor="end">{_text(row_title)} ↓</text>',
        '<g text-anchor="middle">',
        *(f'<text x="{x0 + (j + 0.5) * cw:g}" y="{top - 6:g}">{_text(c)}</text>' for j, c in enumerate(cols)),
        '</g><g text-anchor="end" dominant-baseline="central">',
        *(f'<text x="{x0 - 8:g}" y="{y0 + (i + 0.5) * ch:g}">{_text(r)}</text>' for i, r in enumerate(rows)),
        "</g>",
    ]
    cells = []  # in a group that centres their text
    for i in range(len(rows)):
        y = y0 + i * ch
        for j in range(len(cols)):
            light, dark = scale.fill(M[i, j], "light"), scale.fill(M[i, j], "dark")
            x = x0 + j * cw
            cells.append(
                f'<g style="{_fills(light, dark)}"{_ink_classes(light, dark)}>'
                f'<path d="M{x + 1:g} {y + 1:g}h{cw - 2:g}v{ch - 2:g}H{x + 1:g}z"/>'
                f'<text x="{x + cw / 2:g}" y="{y + ch / 2:g}">{_text(texts[i][j])}</text></g>'
            )
    body += ['<g class="hm-cells" text-anchor="middle" dominant-baseline="central">', *cells, "</g>"]
    legend_y = y0 + len(rows) * ch + 10
    body += _legend(scale, x0, legend_y)
    width = max(x0 + len(cols) * cw, x0 + 150) + 2
    height = legend_y + 10 + FONT + 6
    described = "; ".join(
        f"{r}: " + ", ".join(f"{c} {t}" for c, t in zip(cols, row, strict=True))
        for r, row in zip(rows, texts, strict=True)
    )
    label = (
        f"Heatmap of the {title}, one row per {row_title} and one column per {col_title}. "
        f"{described}. Colour scale from {cell(scale.vmin, 1, True)} to {cell(scale.vmax, 1, True)}: "
        f"{scale.meaning}."
    )
    return _svg(width, height, label, f"Heatmap of the {title}", body, "heatmap")


# px for 100% in a bar chart: the site's chart (the word-order accuracies: labels, bars, percentages)
# is then 338 px wide, within a phone's 343 px column (375 px screen), so it shows at its own size and
# its text stays 13 px there (tests/browser/test_phone.py measures it).
BAR_AXIS = 190.0


def bars(groups, *, title: str, decimals: int = 1) -> str:
    """A horizontal bar chart of proportions (0 to 1) printed as percentages.

    ``groups`` is ``[(group label, [(bar label, proportion), ...]), ...]``: each group is a
    heading line and its bars under it, each bar with its percentage after its end.
    """
    axis = BAR_AXIS
    bar_h, gap = 20.0, 6.0
    lw = max(_width(label) for _, bs in groups for label, _ in bs) + 24
    body, y, described, spans = [], 4.0, [], []
    for group, bs in groups:
        body.append(f'<text x="0" y="{y + FONT:g}" font-weight="bold">{_text(group)}</text>')
        y += FONT + 8
        top, parts = y, []
        for label, p in bs:
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"bar {label!r} of {group!r}: {p} is not a proportion between 0 and 1")
            shown = f"{num(100 * p, decimals)}%"
            parts.append(f"{label} {shown}")
            body.append(
                f'<text x="{lw - 8:g}" y="{y + bar_h / 2:g}" text-anchor="end" dominant-baseline="central">'
                f"{_text(label)}</text>"
                f'<rect class="hm-fill" style="{_fills(BAR["light"], BAR["dark"])}" x="{lw:g}" y="{y:g}" '
                f'width="{max(axis * p, 1.0):g}" height="{bar_h:g}"/>'
                f'<text x="{lw + axis * p + 6:g}" y="{y + bar_h / 2:g}" dominant-baseline="central">'
                f"{_text(shown)}</text>"
            )
            y += bar_h + gap
        spans.append((top - gap / 2, y - gap / 2))
        described.append(f"{group}: " + ", ".join(parts))
        y += 8
    # The axis: 0%, 50% and 100%, with faint grid lines behind each group's bars (not through its
    # heading), and the ticks' labels under the last group.
    grid = []
    for t in (0.0, 0.5, 1.0):
        x = lw + axis * t
        grid.extend(
            f'<line x1="{x:g}" y1="{y0:g}" x2="{x:g}" y2="{y1:g}" stroke="currentColor" stroke-opacity="0.3"/>'
            for y0, y1 in spans
        )
        body.append(f'<text x="{x:g}" y="{y + FONT:g}" text-anchor="middle">{num(100 * t, 0)}%</text>')
    body[:0] = grid
    label = f"Bar chart of the {title}. " + "; ".join(described) + "."
    return _svg(lw + axis + 60, y + FONT + 6, label, f"Bar chart of the {title}", body, "barchart")


# --- lines and points ------------------------------------------------------------------------

# Lines and points: the bars' indigo, and a deep orange (light: #d84315, 4.6:1 on white; dark:
# #ffab91, 9.6:1 on slate), told apart by shape too (solid or dashed lines, circles or squares), so
# that no figure relies on colour alone (WCAG 1.4.1).
SERIES = (BAR, {"light": "#d84315", "dark": "#ffab91"})
DASHES = ("", "6 4", "2 3", "10 3 2 3")  # a line's pattern, by its place in the list
PLOT = (220.0, 180.0)  # px: the plotting area of a line chart, which with its labels fits a phone's column


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values from ``lo`` to ``hi``: a step of 1, 2 or 5 times a power of 10."""
    span = hi - lo
    raw = span / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(k * power for k in (1, 2, 5, 10) if k * power >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    return [round(first + k * step, 10) for k in range(int((hi - first) / step + 1e-9) + 1)]


def _tick_text(t: float) -> str:
    return (f"{t:g}" if abs(t) < 1e6 else f"{t:.0f}").replace("-", "−")


def _frame(xs: tuple[float, float], ys: tuple[float, float], x_title: str, y_title: str, left: float, top: float,
           x_ticks: list[float], y_ticks: list[float],
           size: tuple[float, float]) -> tuple[list[str], Callable, Callable]:  # fmt: skip
    """The axes of a plot of ``size`` px: faint grid lines at the ticks, their labels, the axes'
    titles; and the functions from data to px."""
    w, h = size
    sx = lambda x: left + (x - xs[0]) / (xs[1] - xs[0]) * w  # noqa: E731
    sy = lambda y: top + h - (y - ys[0]) / (ys[1] - ys[0]) * h  # noqa: E731
    body = []
    for t in x_ticks:
        body.append(f'<line x1="{sx(t):g}" y1="{top:g}" x2="{sx(t):g}" y2="{top + h:g}" stroke="currentColor" '
                    'stroke-opacity="0.2"/>')  # fmt: skip
    for t in y_ticks:
        body.append(f'<line x1="{left:g}" y1="{sy(t):g}" x2="{left + w:g}" y2="{sy(t):g}" stroke="currentColor" '
                    'stroke-opacity="0.2"/>')  # fmt: skip
    body.append(f'<rect x="{left:g}" y="{top:g}" width="{w:g}" height="{h:g}" fill="none" stroke="currentColor" '
                'stroke-opacity="0.5"/>')  # fmt: skip
    body.append('<g text-anchor="middle">')
    body += [f'<text x="{sx(t):g}" y="{top + h + FONT + 4:g}">{_tick_text(t)}</text>' for t in x_ticks]
    body.append(f'<text x="{left + w / 2:g}" y="{top + h + 2 * FONT + 10:g}">{_text(x_title)}</text></g>')
    body.append('<g text-anchor="end" dominant-baseline="central">')
    body += [f'<text x="{left - 6:g}" y="{sy(t):g}">{_text(_tick_text(t))}</text>' for t in y_ticks]
    body.append("</g>")
    body.append(f'<text x="0" y="{top - 10:g}">{_text(y_title)} ↑</text>')
    return body, sx, sy


@dataclass(frozen=True)
class Series:
    """One line of :func:`lines`: ``points`` (x, y), or a level drawn across the whole chart."""

    label: str
    points: tuple[tuple[float, float], ...] = ()
    level: float | None = None  # a horizontal line at this y instead of points


def lines(series: list[Series], *, title: str, x_title: str, y_title: str, decimals: int = 3,
          y_max: float | None = None, x_name: str = "") -> str:  # fmt: skip
    """A line chart: each series a line in its own colour and pattern (solid, dashed, dotted), with
    a key under the chart; a series with a ``level`` is a horizontal line across the chart. With
    ``y_max``, the chart's y axis stops there: a line that goes higher is cut at the top, and a note
    under the key gives the points above it (each at ``x_name`` and its x: "at step 0"). The
    alternative text states every point of every line at ``decimals``."""
    if not series or len(series) > len(DASHES):
        raise ValueError(f"a line chart draws 1 to {len(DASHES)} lines, got {len(series)}")
    for s in series:
        if (s.level is None) == (not s.points) or any(not all(map(math.isfinite, p)) for p in s.points):
            raise ValueError(f"line {s.label!r}: give finite points or a level, not both")
    xs = [x for s in series for x, _ in s.points]
    ys = [y for s in series for _, y in s.points] + [s.level for s in series if s.level is not None]
    top_y = max(ys) if y_max is None else y_max
    x_ticks, y_ticks = _ticks(min(xs), max(xs)), _ticks(min(0.0, min(ys)), top_y)
    x_range, y_range = (min(xs), max(xs)), (y_ticks[0], max(y_ticks[-1], top_y) if y_max is None else y_max)
    left = max(_width(_tick_text(t)) for t in y_ticks) + 14
    top = FONT + 16
    body, sx, sy = _frame(x_range, y_range, x_title, y_title, left, top, x_ticks, y_ticks, PLOT)
    right = left + PLOT[0]
    key_y = top + PLOT[1] + 2 * FONT + 28
    described, above = [], []
    body.append(f'<clipPath id="{_clip_id(title)}"><rect x="{left:g}" y="{top:g}" width="{PLOT[0]:g}" '
                f'height="{PLOT[1]:g}"/></clipPath><g clip-path="url(#{_clip_id(title)})">')  # fmt: skip
    key = []
    for k, s in enumerate(series):
        colour = SERIES[k % len(SERIES)]
        dash = f' stroke-dasharray="{DASHES[k]}"' if DASHES[k] else ""
        style = _fills(colour["light"], colour["dark"])
        if s.level is not None:
            d = f"M{sx(x_range[0]):g} {sy(s.level):g}H{right:g}"
            described.append(f"{s.label}: {num(s.level, decimals)} throughout")
        else:
            d = "M" + "L".join(f"{sx(x):.1f} {sy(y):.1f}" for x, y in s.points)
            described.append(f"{s.label}: " + ", ".join(f"at {_tick_text(x)} {num(y, decimals)}" for x, y in s.points))
            above += [f"{s.label} at {x_name} {_tick_text(x)}".replace("  ", " ") + f": {num(y, decimals)}"
                      for x, y in s.points if y > y_range[1]]  # fmt: skip
        body.append(f'<path class="ln-stroke" style="{style}" d="{d}" fill="none" stroke-width="2"{dash}/>')
        y = key_y + k * (FONT + 6)
        key.append(f'<path class="ln-stroke" style="{style}" d="M0 {y:g}h28" fill="none" stroke-width="2"{dash}/>'
                   f'<text x="36" y="{y:g}" dominant-baseline="central">{_text(s.label)}</text>')  # fmt: skip
    body.append("</g>")
    body += key
    height = key_y + len(series) * (FONT + 6)
    notes = [f"↑ {a}, above the chart" for a in above]
    for note in notes:
        body.append(f'<text x="0" y="{height + 4:g}">{_text(note)}</text>')
        height += FONT + 6
    width = max(right + 10, 36 + max(_width(s.label) for s in series), *(_width(n) * 0.85 for n in notes))
    label = f"Line chart of the {title}, {y_title} against {x_title}. " + "; ".join(described) + "."
    return _svg(width, height, label, f"Line chart of the {title}", body, "linechart")


def _clip_id(title: str) -> str:
    """An id for a figure's clip path, the same for the same title (a page holds each figure once)."""
    import hashlib

    return "clip-" + hashlib.sha256(title.encode()).hexdigest()[:8]


def scatter(points, labels, *, title: str, x_title: str, y_title: str, groups=None, decimals: int = 2,
            words: bool = True, size: tuple[float, float] = PLOT) -> str:  # fmt: skip
    """A scatter plot of ``points`` (m, 2). With ``words``, each point is a dot with its label
    beside it (placed where it overlaps no label placed before it, if it can); without, the points
    are marks of their group: ``groups`` (m,) names each point's group, drawn as circles for the
    first group and squares for the second, in two colours, with a key. The alternative text
    states every point's coordinates at ``decimals`` (with groups: each group's range instead).
    ``size``: the plotting area in px."""
    P = np.asarray(points, dtype=float)
    labels = [str(t) for t in labels]
    if P.ndim != 2 or P.shape[1] != 2 or P.shape[0] != len(labels) or not np.all(np.isfinite(P)):
        raise ValueError(f"points must be finite, (m, 2), one per label; got shape {P.shape} for {len(labels)} labels")
    names = list(dict.fromkeys(groups)) if groups is not None else []
    if groups is not None and (len(groups) != len(labels) or len(names) > len(SERIES)):
        raise ValueError(f"groups must name each point's group, at most {len(SERIES)} groups")
    pad = lambda lo, hi: (lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))  # noqa: E731
    xr, yr = pad(P[:, 0].min(), P[:, 0].max()), pad(P[:, 1].min(), P[:, 1].max())
    x_ticks = [t for t in _ticks(*xr) if xr[0] <= t <= xr[1]]
    y_ticks = [t for t in _ticks(*yr) if yr[0] <= t <= yr[1]]
    left = max(_width(_tick_text(t)) for t in y_ticks) + 14
    top = FONT + 16
    body, sx, sy = _frame(xr, yr, x_title, y_title, left, top, x_ticks, y_ticks, size)
    # the boxes of the dots, and of the labels as they are drawn: a label goes where it covers none
    placed = [(sx(x) - 3, sy(y) - 3, sx(x) + 3, sy(y) + 3) for x, y in P] if words else []
    marks, texts = [], []
    for (x, y), label, group in zip(P, labels, groups if groups is not None else [None] * len(labels), strict=True):
        cx, cy = sx(x), sy(y)
        k = names.index(group) if group is not None else 0
        style = _fills(SERIES[k]["light"], SERIES[k]["dark"])
        if k == 0:
            marks.append(f'<circle class="hm-fill" style="{style}" cx="{cx:.1f}" cy="{cy:.1f}" r="3"/>')
        else:
            marks.append(
                f'<rect class="hm-fill" style="{style}" x="{cx - 3:.1f}" y="{cy - 3:.1f}" width="6" height="6"/>'
            )
        if words:
            w = _width(label) * 0.8
            options = [(cx + 5, cy, "start"), (cx - 5, cy, "end"), (cx, cy - 9, "middle"), (cx, cy + 11, "middle")]

            def box(o, w=w):
                x0 = o[0] if o[2] == "start" else o[0] - w if o[2] == "end" else o[0] - w / 2
                return (x0, o[1] - FONT / 2, x0 + w, o[1] + FONT / 2)

            free = [o for o in options if not any(_overlap(box(o), b) for b in placed)]
            o = (free or options)[0]
            placed.append(box(o))
            anchor = "" if o[2] == "start" else f' text-anchor="{o[2]}"'
            texts.append(f'<text x="{o[0]:.1f}" y="{o[1]:.1f}"{anchor}>{_text(label)}</text>')
    body += marks + ['<g dominant-baseline="central">', *texts, "</g>"]
    width, height = left + size[0] + 40, top + size[1] + 2 * FONT + 16
    if groups is not None:  # the key, under the x axis's title
        y = height + 4
        x = left
        for k, name in enumerate(names):
            style = _fills(SERIES[k]["light"], SERIES[k]["dark"])
            if k == 0:
                mark = f'<circle class="hm-fill" style="{style}" cx="{x + 4:g}" cy="{y:g}" r="4"/>'
            else:
                mark = f'<rect class="hm-fill" style="{style}" x="{x:g}" y="{y - 4:g}" width="8" height="8"/>'

            body.append(mark + f'<text x="{x + 14:g}" y="{y:g}" dominant-baseline="central">{_text(name)}</text>')
            x += 14 + _width(name) + 18
        height += FONT + 8
    if groups is None:
        described = "; ".join(
            f"{t} ({num(x, decimals)}, {num(y, decimals)})" for t, (x, y) in zip(labels, P, strict=True)
        )
    else:
        g = np.asarray(groups)
        described = "; ".join(
            f"{name} ({int((g == name).sum())} points): {x_title} from {num(P[g == name, 0].min(), decimals)} to "
            f"{num(P[g == name, 0].max(), decimals)}, {y_title} from {num(P[g == name, 1].min(), decimals)} to "
            f"{num(P[g == name, 1].max(), decimals)}"
            for name in names
        )
    label = f"Scatter plot of the {title}, {y_title} against {x_title}. {described}."
    return _svg(width, height, label, f"Scatter plot of the {title}", body, "scatterplot")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
