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
// The audit computes with Decimals, exactly; here each value is a float64, and a line holds here
// only if it holds for the exact values: each value carries a bound on how far float64's roundings
// of this very evaluation may have moved it (e, grown at each operation as selfattn_ref's bounds
// grow: half a unit of the last place of each result, and what its operands' errors carry), and
// the intervals must overlap by more than the two values' e. So every line accepted here is
// accepted there, also with large terms that cancel (999999.1×999999.7 + 999999.3×(−999999.1)), where
// a float64 evaluation is off by far more than its result's last place.
const SLACK = 1e-9; // of the uncertainty: what its own float64 arithmetic can move
const FLOAT = 1e-14; // of the values' size, where a line is only redone as shown (addsUpAsShown)
const U = 2 ** -53; // float64's unit roundoff

// A number is {v, u, e}: its value, how far from it the number written may be, and how far this
// evaluation's roundings may have moved v (see above); a vector, an array of them.

/** A decimal as written: its value, half a unit of its last place, and the rounding of reading it. */
function literal(text) {
  const point = text.indexOf(".");
  const places = point < 0 ? 0 : text.length - point - 1;
  const v = Number(text);
  return { v, u: places === 0 ? 0 : 0.5 * 10 ** -places, e: Number.isInteger(v) && v <= 2 ** 53 ? 0 : U * v };
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

// Whole numbers up to 2^53 that carry no error are added, multiplied and divided exactly (when the
// result is whole too, as 6 ÷ 2 and √4 are): no rounding is added to them.
const whole = (...xs) => xs.every((x) => x.e === 0 && Number.isInteger(x.v) && Math.abs(x.v) <= 2 ** 53);
const rounded = (v, exact) => (exact && Number.isInteger(v) && Math.abs(v) <= 2 ** 53 ? 0 : U * Math.abs(v));

const add = (s) => (a, b) => {
  const v = a.v + s * b.v;
  return { v, u: a.u + b.u, e: a.e + b.e + rounded(v, whole(a, b)) };
};
function mul(a, b) {
  const v = a.v * b.v;
  const carried = Math.abs(a.v) * b.e + Math.abs(b.v) * a.e + a.e * b.e;
  // u is computed from the float64 values: off by what their errors carry into it
  const u = Math.abs(a.v) * b.u + Math.abs(b.v) * a.u + a.u * b.u;
  return { v, u, e: carried + a.e * b.u + b.e * a.u + rounded(v, whole(a, b)) };
}
// Arithmetic that has no value ("0.000 ÷ 0.000", "√(0 − 1)") is NaN, which every operation carries
// on: the side holds nothing (evaluate gives UNDEFINED), so no line with it does.
const NO_VALUE = Object.freeze({ v: NaN, u: NaN, e: NaN });

function div(a, b) {
  if (b.v === 0) return NO_VALUE;
  const q = a.v / b.v;
  const u = (a.u + Math.abs(q) * b.u) / Math.abs(b.v);
  if (whole(a, b) && Number.isInteger(q) && q * b.v === a.v) return { v: q, u, e: 0 };
  const below = Math.abs(b.v) - b.e; // the smallest the exact divisor can be
  if (!(below > 0)) return { v: q, u, e: Infinity };
  const e = (a.e + Math.abs(q) * b.e) / below + (b.e * u) / below + U * Math.abs(q);
  return { v: q, u, e };
}
function sqrt(a) {
  if (a.v < 0) return NO_VALUE;
  const r = Math.sqrt(a.v);
  const u = r ? a.u / (2 * r) : Math.sqrt(a.u);
  if (whole(a) && Number.isInteger(r) && r * r === a.v) return { v: r, u, e: 0 };
  return { v: r, u, e: (r ? a.e / (2 * r) : Math.sqrt(a.e)) + U * r };
}
function exp(a) {
  if (a.u === 0) {
    const v = Math.exp(a.v);
    return { v, u: 0, e: a.v === 0 && a.e === 0 ? 0 : v * Math.expm1(a.e) + 4 * U * v }; // e^0 = 1 exactly
  }
  const hi = Math.exp(a.v + a.u);
  const lo = Math.exp(a.v - a.u);
  return { v: (hi + lo) / 2, u: (hi - lo) / 2, e: hi * Math.expm1(a.e) + 8 * U * hi };
}

/**
 * One side of an equation as {v, u, e} (or a list of them), null if it is not arithmetic, or
 * UNDEFINED if it is arithmetic without a value (it divides by zero: "0.000 ÷ 0.000").
 */
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
    if (t === "-" || t === "−") return lift(factor(), undefined, (a) => ({ v: -a.v, u: a.u, e: a.e }));
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
    if (/^\d/.test(t)) return exact ? { ...literal(t), u: 0 } : literal(t);
    throw new Error(`unexpected ${t}`);
  }
  try {
    const v = expr();
    if (i !== toks.length) return null;
    return (Array.isArray(v) ? v : [v]).some((x) => Number.isNaN(x.v)) ? UNDEFINED : v;
  } catch {
    return null;
  }
}

/** What evaluate() gives for arithmetic that has no value. */
export const UNDEFINED = Object.freeze({ undefined: true });

function agree(a, b) {
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => agree(x, b[i]));
  if (a.u === 0 && b.u === 0 && a.e === 0 && b.e === 0) return a.v === b.v; // exact: integers, added and multiplied exactly
  const room = (a.u + b.u) * (1 - SLACK) - (a.e + b.e); // the exact values' distance is at most |a.v − b.v| + a.e + b.e
  return Math.abs(a.v - b.v) <= room;
}

/**
 * Whether the equation `text` ("a × b + c = d", "e^2 = 7.389", sides separated by = or ≈) holds at
 * the rounding it shows. Every side must be arithmetic; a side that is not (a name, a word) throws,
 * since the caller meant to check it. A side without a value ("0.000 ÷ 0.000", terms too small to
 * show at this rounding) holds nothing: false, as the audit reports a division by zero.
 */
export function holds(text) {
  const sides = String(text).split(/\s*[=≈]\s*/u);
  const values = sides.map((side) => evaluate(side));
  const bad = sides.findIndex((_, k) => values[k] === null);
  if (sides.length < 2 || bad >= 0) throw new Error(`not arithmetic: ${sides[bad] ?? text}`);
  if (values.includes(UNDEFINED)) return false;
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
    if ([done, shown].some((v) => v === null || v === UNDEFINED)) return true; // no value: nothing to redo
    const pairs = Array.isArray(done) ? done.map((d, q) => [d, shown[q]]) : [[done, shown]];
    for (const [d, w] of pairs) {
      if (!d || !w || Array.isArray(d) || Array.isArray(w)) return true;
      if (Math.abs(d.v - w.v) > w.u * (1 + SLACK) + FLOAT * (Math.abs(d.v) + Math.abs(w.v)) + d.e + w.e) return false;
    }
  }
  return true;
}
