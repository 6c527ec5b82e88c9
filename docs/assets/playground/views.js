// What the playground draws with, in both its modes (app.js, and model_app.js for the language
// model): elements made with createElement and textContent (no text a reader typed, and nothing
// from a link, ever goes through innerHTML), lines of worked arithmetic, and the tables of results,
// heatmaps among them, whose numbers explain themselves. No math here.

// --- small DOM helpers ------------------------------------------------------------------------

/** An element with attributes (set with setAttribute, or as properties for a few) and children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "class") el.className = v;
    else if (k === "checked" || k === "value" || k === "disabled" || k === "hidden") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Lines of worked arithmetic in `el` (a <code>), one element each: a long line wraps between its
 * terms, at its spaces (never inside a number: playground.css), its next lines indented under its
 * first; the lines whose indices are in `rows` are rows of a table, aligned under the words'
 * labels, and are kept whole (their box scrolls sideways instead, as a table's does). Each line
 * ends with a line break, so the text reads (and copies) as before, one line a line.
 */
export function setLines(el, lines, rows = []) {
  const keep = new Set(rows);
  const text = lines.join("\n");
  if (el.dataset.lines === text && el.dataset.rows === [...keep].join(",")) return;
  el.dataset.lines = text;
  el.dataset.rows = [...keep].join(",");
  el.replaceChildren(
    ...lines.map((line, k) => h("span", { class: keep.has(k) ? "pg-line pg-row" : "pg-line", text: k < lines.length - 1 ? `${line}\n` : line })),
  );
}

// --- the heatmap's colours --------------------------------------------------------------------

// From weight 0 to weight 1, per colour scheme. The text of each cell is black or white,
// whichever contrasts more with its background: one of the two always reaches 4.5:1.
const HEAT = {
  default: { cold: [255, 255, 255], hot: [40, 53, 147] }, // white to indigo 800
  slate: { cold: [33, 36, 46], hot: [140, 158, 255] }, // slate background to indigo A100
};

function luminance([r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The background and text colours of a heatmap cell (exported for the contrast test). */
export function heatColours(weight, scheme) {
  const { cold, hot } = HEAT[scheme] ?? HEAT.default;
  const t = Math.min(1, Math.max(0, weight));
  const rgb = cold.map((c, i) => Math.round(c + (hot[i] - c) * t));
  const L = luminance(rgb);
  const onBlack = (L + 0.05) / 0.05;
  const onWhite = 1.05 / (L + 0.05);
  return { background: `rgb(${rgb.join(", ")})`, color: onBlack >= onWhite ? "#000" : "#fff" };
}

export function currentScheme() {
  return document.body.getAttribute("data-md-color-scheme") === "slate" ? "slate" : "default";
}

/** The colour scale of the weights, under a heatmap: the same colours as its cells, in either scheme. */
export class Legend {
  constructor(id) {
    this.bar = h("span", { class: "pg-legend-bar", "aria-hidden": "true" });
    this.element = h("p", { class: "pg-legend", id }, h("span", { text: "Colour scale: weight 0" }), this.bar, h("span", { text: "1" }));
  }

  /** Painted in the colour scheme shown (again only when it changed). */
  paint() {
    const scheme = currentScheme();
    if (this.bar.dataset.scheme === scheme) return;
    this.bar.dataset.scheme = scheme;
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => heatColours(t, scheme).background);
    this.bar.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
  }
}

// --- a table of results -----------------------------------------------------------------------

/** A matrix shown as a table, updated in place: only cells whose text changed are touched. */
export class MatrixView {
  /**
   * explain: the name of the table for explainCell() ("scores", "scaled", "weights", "output"):
   * each number then takes focus (one tab stop per table, the arrow keys move between numbers).
   */
  constructor({ id, caption, corner, heat = false, labelledBy = null, explain = null }) {
    this.heat = heat;
    this.explain = explain;
    // A table is named by its caption, or by a heading just above it (labelledBy).
    this.caption = labelledBy ? null : h("caption", { id: `${id}-caption`, text: caption });
    this.table = h("table", { class: heat ? "pg-table pg-heat" : "pg-table", id, "aria-labelledby": labelledBy });
    // The box scrolls sideways when the table is wider than the page, so it takes focus (the
    // keyboard can scroll it), always: whether it overflows cannot be measured while the
    // browser skips it off screen (content-visibility in playground.css). Material's code
    // blocks do the same. A table whose numbers take focus needs no other tab stop: the focused
    // number scrolls into view.
    this.wrap = h(
      "div",
      { class: "pg-scroll", tabindex: explain ? null : "0", role: "region", "aria-labelledby": labelledBy ?? `${id}-caption` },
      this.table,
    );
    if (explain) this.table.dataset.explain = explain;
    this.corner = corner;
    this.rows = [];
    this.cols = [];
    this.cells = [];
    this.texts = [];
    this.rowHeads = [];
    this.colHeads = [];
    this.scheme = null;
  }

  build(rows, cols) {
    const headRow = h("tr", {}, h("th", { scope: "col", class: "pg-corner", text: this.corner }));
    this.colHeads = cols.map((c) => {
      const th = h("th", { scope: "col", text: c });
      headRow.append(th);
      return th;
    });
    const body = h("tbody");
    this.rowHeads = [];
    this.texts = rows.map(() => cols.map(() => null));
    this.cells = rows.map((r) => {
      const th = h("th", { scope: "row", text: r });
      this.rowHeads.push(th);
      const tr = h("tr", {}, th);
      const cells = cols.map(() => {
        const td = h("td");
        if (this.explain) td.tabIndex = -1;
        tr.append(td);
        return td;
      });
      body.append(tr);
      return cells;
    });
    this.table.replaceChildren(...(this.caption ? [this.caption] : []), h("thead", {}, headRow), body);
    if (this.explain && this.cells.length > 0) this.cells[0][0].tabIndex = 0; // the table's tab stop
    this.rows = rows.slice();
    this.cols = cols.slice();
    this.scheme = null;
  }

  /** [i, j] of a cell of this table, or null. */
  indexOf(td) {
    for (let i = 0; i < this.cells.length; i++) {
      const j = this.cells[i].indexOf(td);
      if (j >= 0) return [i, j];
    }
    return null;
  }

  /** Cell (i, j) becomes the table's one tab stop. */
  rove(i, j) {
    for (const row of this.cells) for (const td of row) if (td.tabIndex === 0) td.tabIndex = -1;
    this.cells[i][j].tabIndex = 0;
  }

  /** texts[i][j]: what each cell shows; weights (heatmap only): each cell's value in [0, 1]. */
  update(texts, rows, cols, weights = null) {
    if (rows.length !== this.rows.length || cols.length !== this.cols.length) this.build(rows, cols);
    rows.forEach((r, i) => {
      if (this.rows[i] !== r) {
        setText(this.rowHeads[i], r);
        this.rows[i] = r;
      }
    });
    cols.forEach((c, j) => {
      if (this.cols[j] !== c) {
        setText(this.colHeads[j], c);
        this.cols[j] = c;
      }
    });
    for (let i = 0; i < texts.length; i++) {
      const row = texts[i];
      const cells = this.cells[i];
      const shown = this.texts[i];
      for (let j = 0; j < row.length; j++) {
        if (shown[j] !== row[j]) {
          cells[j].textContent = row[j];
          shown[j] = row[j];
        }
      }
    }
    if (weights) this.paint(weights);
  }

  paint(weights) {
    const scheme = currentScheme();
    const changedScheme = scheme !== this.scheme;
    this.scheme = scheme;
    for (let i = 0; i < weights.length; i++) {
      for (let j = 0; j < weights[i].length; j++) {
        const td = this.cells[i][j];
        const key = `${scheme}:${Math.round(weights[i][j] * 1000)}`;
        if (!changedScheme && td.dataset.heat === key) continue;
        const { background, color } = heatColours(weights[i][j], scheme);
        td.dataset.heat = key;
        td.style.backgroundColor = background;
        td.style.color = color;
      }
    }
  }
}

// --- how a number was made --------------------------------------------------------------------

/** Classes that mark a few elements each: set(cls, elements) gives exactly those the class (the previous ones lose it). */
export class Marks {
  constructor() {
    this.marked = {};
  }

  set(cls, elements) {
    const before = this.marked[cls] ?? [];
    const now = new Set(elements);
    for (const el of before) if (!now.has(el)) el.classList.remove(cls);
    for (const el of now) el.classList.add(cls);
    this.marked[cls] = [...now];
  }
}

/**
 * The box that says how a number of a table was made, for the tables of `views` ({name:
 * MatrixView}, each made with `explain: name`): a click on a number, or the focus arriving on it
 * (onFocus, for focusin and click), explains it; the arrow keys, Home and End move between the
 * numbers of a table, and Escape closes the box (onKeydown). explanationOf({table, i, j}) gives
 * {title, lines, anchor, cell, used} (the box goes after `anchor`; `cell` is marked pg-explained and
 * the elements of `used` pg-used), or null when that number is no longer shown; announce(text)
 * reads an explanation the reader asked for out; placed() runs once the box is in place.
 */
export class CellExplainer {
  constructor({ id, views, explanationOf, announce, marks, placed = () => {} }) {
    Object.assign(this, { views, explanationOf, announce, marks, placed });
    this.title = h("p", { class: "pg-explain-title", id: `${id}-title` });
    this.code = h("code", {});
    const close = h("button", { type: "button", class: "pg-button", id: `${id}-close`, text: "Close" });
    this.box = h(
      "div",
      { class: "pg-explain", id, role: "region", "aria-labelledby": `${id}-title`, hidden: true },
      this.title,
      h("pre", { class: "pg-scroll", tabindex: "0", "aria-label": "The arithmetic, one step a line" }, this.code),
      close,
    );
    close.addEventListener("click", () => this.close(true));
    this.at = null; // {table, i, j} of the cell explained
    this.quiet = false; // the focus going back to a number, which is not asked to explain it again
  }

  /** The view of an explainable table, and its name. */
  viewOf(table) {
    const name = table?.dataset.explain;
    return name && this.views[name] ? [this.views[name], name] : [null, null];
  }

  onFocus(e) {
    const td = e.target;
    if (this.quiet || !(td instanceof HTMLTableCellElement) || td.tagName !== "TD") return;
    const [view, name] = this.viewOf(td.closest("table"));
    const at = view?.indexOf(td);
    if (!at) return;
    view.rove(...at);
    this.explain(name, ...at);
  }

  onKeydown(e) {
    const td = e.target;
    if (!(td instanceof HTMLTableCellElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    const [view] = this.viewOf(td.closest("table"));
    const at = view?.indexOf(td);
    if (!at) return;
    if (e.key === "Escape") {
      this.close(true);
      e.preventDefault();
      return;
    }
    const [i, j] = at;
    const rows = view.cells.length;
    const cols = view.cells[0].length;
    const moves = {
      ArrowUp: [i - 1, j],
      ArrowDown: [i + 1, j],
      ArrowLeft: [i, j - 1],
      ArrowRight: [i, j + 1],
      Home: [i, 0],
      End: [i, cols - 1],
    };
    const to = moves[e.key];
    if (!to) return;
    e.preventDefault();
    const [r, c] = to;
    if (r < 0 || c < 0 || r >= rows || c >= cols) return;
    view.cells[r][c].focus();
  }

  /** Explain cell (i, j) of the table named `table`, and say so. */
  explain(table, i, j) {
    this.at = { table, i, j };
    this.render(true);
  }

  /** The explanation again (after the numbers changed), or closed if its number is gone. */
  render(announce) {
    const at = this.at;
    if (!at) return;
    const shown = this.explanationOf(at);
    if (shown === null) {
      this.close(false);
      return;
    }
    const { title, lines, anchor, cell, used = [] } = shown;
    setText(this.title, title);
    setLines(this.code, lines);
    this.box.dataset.table = at.table;
    this.box.dataset.cell = `${at.i},${at.j}`;
    if (this.box.previousElementSibling !== anchor) anchor.after(this.box);
    this.box.hidden = false;
    this.placed();
    this.marks.set("pg-explained", cell ? [cell] : []);
    this.marks.set("pg-used", used);
    if (announce) this.announce(`${title} ${lines.join(" ")}`);
  }

  close(returnFocus) {
    const at = this.at;
    this.at = null;
    this.box.hidden = true;
    this.marks.set("pg-explained", []);
    this.marks.set("pg-used", []);
    if (returnFocus && at) {
      this.quiet = true; // back to the number, without explaining it again
      this.views[at.table].cells[at.i]?.[at.j]?.focus({ preventScroll: true });
      this.quiet = false;
    }
  }
}
