// Whether a line of worked arithmetic holds at the rounding it shows, as the site's numbers audit
// reads it (publish/audit/arithmetic.py, the twin of this module). No DOM here.
//
// A number written with k decimals stands for anything within half a unit of its last place
// ("2.718" is 2.7175 to 2.7185); a number without a point is exact. Each side of "=" (or "≈") is
// evaluated as an interval, and the line holds when every side overlaps the next. So, at 0
// decimals, "1 ÷ 2 = 1" does not hold (1 and 2 are exact, and 1/2 is not 1), where "1.0 ÷ 1.5 =
// 0.7" does. The playground writes each explanation at the decimals the reader chose, unless a
// line would not hold there: then the whole explanation takes more decimals (see explain.js).
//
// Beside the audit's arithmetic (numbers, [vectors], + − × · ÷ / √, brackets), a side may be
// "e^x" or "e^(x)", e to the power of a number: the softmax's terms ("e^2 = 7.389").
// tests/browser/test_playground_teaching.py runs the audit itself on the lines this accepts.

const TOKEN = /\d+(?:\.\d+)?|e\^|[-−+×·*/÷√()[\],]/gu;
// Floats are a little less exact than the audit's Decimals: a line holds here only with room to
// spare, so that every line accepted here is accepted there (a doubtful one gets more decimals).
const SLACK = 1e-9; // of the uncertainty
const FLOAT = 1e-14; // of the values' size: some 100 times a float's last place

// A number is {v, u}: its value and how far from it the number written may be; a vector, an array of them.

/** A decimal as written. */
function literal(text) {
  const point = text.indexOf(".");
  const places = point < 0 ? 0 : text.length - point - 1;
  return { v: Number(text), u: places === 0 ? 0 : 0.5 * 10 ** -places };
}

function lift(v, w, f) {
  if (w === undefined) return Array.isArray(v) ? v.map((x) => f(x)) : f(v);
  if (Array.isArray(v) && Array.isArray(w)) {
    if (v.length !== w.length) throw new Error("vectors of different lengths");
    return v.map((x, i) => f(x, w[i]));
  }
  if (Array.isArray(v)) return v.map((x) => f(x, w));
  if (Array.isArray(w)) return w.map((y) => f(v, y));
  return f(v, w);
}

const add = (s) => (a, b) => ({ v: a.v + s * b.v, u: a.u + b.u });
const mul = (a, b) => ({ v: a.v * b.v, u: Math.abs(a.v) * b.u + Math.abs(b.v) * a.u + a.u * b.u });
function div(a, b) {
  // A division by a number shown as 0 holds at no rounding (the audit says it "divides by zero"):
  // NaN agrees with no other side, so the line takes more decimals, or says ≈.
  if (b.v === 0) return { v: NaN, u: 0 };
  const q = a.v / b.v;
  return { v: q, u: (a.u + Math.abs(q) * b.u) / Math.abs(b.v) };
}
function sqrt(a) {
  if (a.v < 0) throw new Error("root of a negative number");
  const r = Math.sqrt(a.v);
  return { v: r, u: r ? a.u / (2 * r) : Math.sqrt(a.u) };
}
function exp(a) {
  if (a.u === 0) return { v: Math.exp(a.v), u: a.v === 0 ? 0 : Math.exp(a.v) * 1e-15 }; // e^0 = 1 exactly
  const hi = Math.exp(a.v + a.u);
  const lo = Math.exp(a.v - a.u);
  return { v: (hi + lo) / 2, u: (hi - lo) / 2 };
}

/** One side of an equation as {v, u} (or a list of them), or null if it is not arithmetic. */
export function evaluate(text, exact = false) {
  const toks = String(text).match(TOKEN) ?? [];
  if (toks.join("") !== String(text).replace(/\s+/gu, "")) return null;
  let i = 0;
  const peek = () => toks[i];
  const take = () => toks[i++];
  function expr() {
    let v = term();
    while (["+", "-", "−"].includes(peek())) {
      const op = take();
      v = lift(v, term(), add(op === "+" ? 1 : -1));
    }
    return v;
  }
  function term() {
    let v = factor();
    while (["×", "·", "*", "/", "÷"].includes(peek())) {
      const op = take();
      v = lift(v, factor(), op === "/" || op === "÷" ? div : mul);
    }
    return v;
  }
  function factor() {
    const t = take();
    if (t === undefined) throw new Error("incomplete");
    if (t === "-" || t === "−") return lift(factor(), undefined, (a) => ({ v: -a.v, u: a.u }));
    if (t === "√") return lift(factor(), undefined, sqrt);
    if (t === "e^") return lift(factor(), undefined, exp);
    if (t === "(") {
      const v = expr();
      if (take() !== ")") throw new Error("unbalanced");
      return v;
    }
    if (t === "[") {
      const items = [expr()];
      while (peek() === ",") {
        take();
        items.push(expr());
      }
      if (take() !== "]" || items.some(Array.isArray)) throw new Error("bad vector");
      return items;
    }
    if (/^\d/.test(t)) return exact ? { v: Number(t), u: 0 } : literal(t);
    throw new Error(`unexpected ${t}`);
  }
  try {
    const v = expr();
    return i === toks.length ? v : null;
  } catch {
    return null;
  }
}

function agree(a, b) {
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => agree(x, b[i]));
  if (a.u === 0 && b.u === 0) return a.v === b.v; // exact: integers, added and multiplied exactly
  const room = (a.u + b.u) * (1 - SLACK) - FLOAT * (Math.abs(a.v) + Math.abs(b.v));
  return Math.abs(a.v - b.v) <= room;
}

/**
 * Whether the equation `text` ("a × b + c = d", "e^2 = 7.389", sides separated by = or ≈) holds at
 * the rounding it shows. Every side must be arithmetic; a side that is not (a name, a word) throws,
 * since the caller meant to check it.
 */
export function holds(text) {
  const sides = String(text).split(/\s*[=≈]\s*/u);
  const values = sides.map((side) => evaluate(side));
  const bad = sides.findIndex((_, k) => values[k] === null);
  if (sides.length < 2 || bad >= 0) throw new Error(`not arithmetic: ${sides[bad] ?? text}`);
  return values.every((v, k) => k === 0 || agree(values[k - 1], v));
}

/**
 * Whether a reader who redoes the line with the numbers as shown gets the result shown: each side,
 * computed exactly from the rounded numbers it shows, rounds to the next side. A line can hold
 * (above) and not add up as shown: "0.3 × 0 + 0.3 × 1 + 0.3 × 1 = 0.7", where 0.6 is shown-exact and
 * the unrounded weights give 0.7. The playground then says so, as the pages do.
 */
export function addsUpAsShown(text) {
  const sides = String(text).split(/\s*[=≈]\s*/u);
  for (let k = 1; k < sides.length; k++) {
    const done = evaluate(sides[k - 1], true);
    const shown = evaluate(sides[k]);
    if (done === null || shown === null) return true; // not arithmetic: nothing to redo
    const pairs = Array.isArray(done) ? done.map((d, q) => [d, shown[q]]) : [[done, shown]];
    for (const [d, w] of pairs) {
      if (!d || !w || Array.isArray(d) || Array.isArray(w)) return true;
      if (Math.abs(d.v - w.v) > w.u * (1 + SLACK) + FLOAT * (Math.abs(d.v) + Math.abs(w.v))) return false;
    }
  }
  return true;
}
