// Generated from docs/assets/playground/app.js by publish.playground_bundle:playground_bundle (make update); do not edit.
// The modules, each after those it imports: attention.js, arith.js, ../../generated/playground/limits.js, format.js, explain.js, state.js, app.js; the files they fetch, inlined: ../../generated/playground/presets.json.
// A classic script, for pages opened from disk (file://), where browsers load no ES module and
// fetch() fails: docs/assets/javascripts/modules.js loads it there, and the modules themselves over http(s).
(() => {
  "use strict";
  const done = (globalThis[Symbol.for("selfattn.bundles")] ??= new Set());
  if (done.has("docs/assets/playground/app.js")) return; // once per document, as a module runs
  done.add("docs/assets/playground/app.js");
  const script = document.currentScript;
  if (!script || !script.src) throw new Error("app.bundle.js runs from a <script src>");
  const base = script.src;
  const inlined = new Map([
    [new URL("../../generated/playground/presets.json", base).href, "{\n  \"_generated_by\": \"publish.sources.playground:_presets_json\",\n  \"version\": 1,\n  \"default\": \"bank_of_river\",\n  \"learned\": \"learned\",\n  \"presets\": [\n    {\n      \"slug\": \"bank_of_river\",\n      \"title\": \"bank of river\",\n      \"tokens\": [\"bank\", \"of\", \"river\"],\n      \"embeddings\": [\n        [1, 0, 1, 0],\n        [0, 1, 0, 1],\n        [1, 1, 0, 0]\n      ],\n      \"projections\": \"none\",\n      \"scale\": false,\n      \"causal\": false,\n      \"heads\": 1,\n      \"decimals\": 3\n    },\n    {\n      \"slug\": \"the_cat_sat\",\n      \"title\": \"The cat sat\",\n      \"tokens\": [\"The\", \"cat\", \"sat\"],\n      \"embeddings\": [\n        [1, 0, 1, 0],\n        [0, 1, 0, 1],\n        [1, 1, 1, 1]\n      ],\n      \"projections\": \"identity\",\n      \"scale\": true,\n      \"causal\": false,\n      \"heads\": 1,\n      \"decimals\": 4\n    },\n    {\n      \"slug\": \"learned\",\n      \"title\": \"The cat sat, learned weights\",\n      \"tokens\": [\"The\", \"cat\", \"sat\"],\n      \"embeddings\": [\n        [1, 0, 1, 0],\n        [0, 1, 0, 1],\n        [1, 1, 1, 1]\n      ],\n      \"projections\": \"matrices\",\n      \"scale\": true,\n      \"causal\": false,\n      \"heads\": 1,\n      \"decimals\": 4,\n      \"W_Q\": [\n        [0.15235853987721568, -0.5199920531202478, 0.3752255979032286, 0.47028235819560693],\n        [-0.9755175943269182, -0.651089753431159, 0.06392020158364269, -0.1581212961717911],\n        [-0.008400578752144398, -0.42652196378679, 0.4396989874314143, 0.38889596771447416],\n        [0.03301534878060802, 0.5636206034840164, 0.2337546711260228, -0.4296462314416191]\n      ],\n      \"W_K\": [\n        [0.18437539204124942, -0.47944130041449945, 0.43922515065363626, -0.024962955493126448],\n        [-0.09243118177263028, -0.3404647722019707, 0.6112706693370151, -0.07726474103440108],\n        [-0.2141639110815536, -0.1760667752441148, 0.26615459277667436, 0.18272203218203917],\n        [0.2063663057979942, 0.21541050150394137, 1.0708238004352306, -0.2032075081923078]\n      ],\n      \"W_V\": [\n        [-0.25612136453576867, -0.40688636412393886, 0.3079897112877478, 0.5644861463604458],\n        [-0.056973728827437536, -0.420078238481264, -0.4122406078456198, 0.32529639391235055],\n        [0.37162708560172114, 0.2715771341525975, -0.33275485364434715, 0.11608066153335989],\n        [0.05834290457036411, 0.10934429836450647, 0.4357143889740949, 0.11179777438734113]\n      ],\n      \"origin\": {\n        \"generator\": \"numpy.random.default_rng\",\n        \"seed\": 42,\n        \"std\": 0.5\n      }\n    },\n    {\n      \"slug\": \"dog_bites_man\",\n      \"title\": \"dog bites man\",\n      \"tokens\": [\"dog\", \"bites\", \"man\"],\n      \"embeddings\": [\n        [1, 1, 1, 0],\n        [0, 0, 1, 1],\n        [1, 0, 1, 0]\n      ],\n      \"projections\": \"none\",\n      \"scale\": false,\n      \"causal\": false,\n      \"heads\": 1,\n      \"decimals\": 3\n    },\n    {\n      \"slug\": \"man_bites_dog\",\n      \"title\": \"man bites dog\",\n      \"tokens\": [\"man\", \"bites\", \"dog\"],\n      \"embeddings\": [\n        [1, 0, 1, 0],\n        [0, 0, 1, 1],\n        [1, 1, 1, 0]\n      ],\n      \"projections\": \"none\",\n      \"scale\": false,\n      \"causal\": false,\n      \"heads\": 1,\n      \"decimals\": 3\n    },\n    {\n      \"slug\": \"the_cat_sat_causal\",\n      \"title\": \"The cat sat, causal mask\",\n      \"tokens\": [\"The\", \"cat\", \"sat\"],\n      \"embeddings\": [\n        [1, 0, 1, 0],\n        [0, 1, 0, 1],\n        [1, 1, 1, 1]\n      ],\n      \"projections\": \"identity\",\n      \"scale\": true,\n      \"causal\": true,\n      \"heads\": 1,\n      \"decimals\": 4\n    },\n    {\n      \"slug\": \"the_cat_sat_two_heads\",\n      \"title\": \"The cat sat, features regrouped for two heads\",\n      \"tokens\": [\"The\", \"cat\", \"sat\"],\n      \"embeddings\": [\n        [1, 0, 1, 0],\n        [0, 1, 0, 1],\n        [1, 1, 1, 1]\n      ],\n      \"projections\": \"matrices\",\n      \"scale\": true,\n      \"causal\": false,\n      \"heads\": 2,\n      \"decimals\": 4,\n      \"W_Q\": [\n        [1, 0, 0, 0],\n        [0, 0, 1, 0],\n        [0, 1, 0, 0],\n        [0, 0, 0, 1]\n      ],\n      \"W_K\": [\n        [1, 0, 0, 0],\n        [0, 0, 1, 0],\n        [0, 1, 0, 0],\n        [0, 0, 0, 1]\n      ],\n      \"W_V\": [\n        [1, 0, 0, 0],\n        [0, 0, 1, 0],\n        [0, 1, 0, 0],\n        [0, 0, 0, 1]\n      ],\n      \"origin\": {\n        \"given\": true\n      }\n    }\n  ]\n}\n"],
  ]);
  const bundleFetch = (input, init) => {
    const href = new URL(input instanceof Request ? input.url : String(input), base).href;
    if (!inlined.has(href)) return fetch(input, init);
    const headers = { "Content-Type": "application/json" };
    return Promise.resolve(new Response(inlined.get(href), { headers }));
  };
  const __bundle_modules = [];
  // ---- attention.js ------------------------------------------------------------------------------
  __bundle_modules[0] = ((fetch, __bundle_import_meta_url) => (() => {
// The math of attention in plain JavaScript: score, normalize, mix.
//
// The twin of selfattn_ref/attention.py and selfattn_ref/examples (run), for the playground.
// tests/browser/test_playground.py imports this module in Chromium and holds every result equal
// to the NumPy reference (to 1e-9) on hundreds of seeded random cases. No DOM here.
//
// A matrix is an array of rows, each an array of numbers: X[i][k]. Shapes use n for the number
// of queries, m for the number of keys, d for their width and d_v for the width of the values.

/** Shape of a matrix as "(rows, cols)", for error messages. */
function shape(M) {
  return Array.isArray(M) ? `(${M.length}, ${Array.isArray(M[0]) ? M[0].length : "?"})` : typeof M;
}

/** Throw unless M is a non-empty rectangular matrix of finite numbers. */
function checkMatrix(M, name) {
  if (!Array.isArray(M) || M.length === 0 || !Array.isArray(M[0]) || M[0].length === 0) {
    throw new RangeError(`${name} must be a non-empty matrix, got ${shape(M)}`);
  }
  const width = M[0].length;
  for (let i = 0; i < M.length; i++) {
    const row = M[i];
    if (!Array.isArray(row) || row.length !== width) {
      throw new RangeError(`${name} is ragged: row ${i + 1} has ${Array.isArray(row) ? row.length : 0} entries, row 1 has ${width}`);
    }
    for (let k = 0; k < width; k++) {
      if (typeof row[k] !== "number" || !Number.isFinite(row[k])) {
        throw new RangeError(`${name} must hold finite numbers, got ${String(row[k])} at (${i + 1}, ${k + 1})`);
      }
    }
  }
  return M;
}

/** A @ B: (n, k) @ (k, m) -> (n, m). */
function matmul(A, B) {
  const n = A.length;
  const k = B.length;
  const m = B[0].length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = A[i];
    const row = new Array(m);
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += a[t] * B[t][j];
      row[j] = s;
    }
    out[i] = row;
  }
  return out;
}

/** Dot product of every query with every key: Q (n, d), K (m, d) -> (n, m). */
function scores(Q, K) {
  if (Q[0].length !== K[0].length) {
    throw new RangeError(`Q and K must have the same width, got Q ${shape(Q)} and K ${shape(K)}`);
  }
  const n = Q.length;
  const m = K.length;
  const d = Q[0].length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const q = Q[i];
    const row = new Array(m);
    for (let j = 0; j < m; j++) {
      const k = K[j];
      let s = 0;
      for (let t = 0; t < d; t++) s += q[t] * k[t];
      row[j] = s;
    }
    out[i] = row;
  }
  return out;
}

/**
 * Softmax of each row: positive weights that sum to 1.
 *
 * The row's largest entry is subtracted first, which keeps exp() from overflowing and changes
 * nothing else, as in selfattn_ref.attention.softmax. Entries of -Infinity (masked scores) get
 * weight 0; NaN, +Infinity or a row that is all -Infinity is an error.
 */
function softmax(S) {
  return S.map((row, i) => {
    let top = -Infinity;
    for (const x of row) {
      if (Number.isNaN(x) || x === Infinity) throw new RangeError(`S must not hold NaN or +Infinity (row ${i + 1})`);
      if (x > top) top = x;
    }
    if (top === -Infinity) throw new RangeError(`S row ${i + 1} is all -Infinity (nothing to attend to)`);
    const e = row.map((x) => Math.exp(x - top));
    let total = 0;
    for (const x of e) total += x;
    return e.map((x) => x / total);
  });
}

/** Weighted sums of the values: row i of the result is sum_j A[i][j] · V[j]. A (n, m), V (m, d_v). */
function mix(A, V) {
  if (A[0].length !== V.length) {
    throw new RangeError(`A must have one column per row of V, got A ${shape(A)} and V ${shape(V)}`);
  }
  return matmul(A, V);
}

/** (n, n) mask, true where query i may attend to key j: the lower triangle (j <= i). */
function causalMask(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => j <= i));
}

/** The identity matrix (d, d). */
function identity(d) {
  return Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
}

/** Columns start .. start + width - 1 of every row: M (n, k) -> (n, width). */
function columns(M, start, width) {
  return M.map((row) => row.slice(start, start + width));
}

/**
 * One head: its queries Q (n, d_k), keys K (n, d_k) and values V (n, d_v) scored, scaled by
 * 1/√d_k (its own d_k) when `scale`, masked and mixed. Returns {Q, K, V, scores, scaled, logits,
 * weights, output, mask, factor}: see attention().
 */
function head(Q, K, V, scale, mask) {
  const S = scores(Q, K); // (n, n)
  const factor = scale ? 1 / Math.sqrt(Q[0].length) : 1; // as NumPy: scores * (1/√d_k)
  const scaled = scale ? S.map((row) => row.map((x) => x * factor)) : null;
  const base = scaled ?? S;
  const logits = mask ? base.map((row, i) => row.map((x, j) => (mask[i][j] ? x : -Infinity))) : base;
  for (const row of logits) {
    for (const x of row) {
      if (Number.isNaN(x) || x === Infinity) throw new RangeError("the scores are too large to compute: use smaller numbers");
    }
  }
  const weights = softmax(logits);
  const output = mix(weights, V);
  return { Q, K, V, scores: S, scaled, logits, weights, output, mask, factor };
}

/** Why `heads` heads cannot split queries and keys of width dk and values of width dv, or null. */
function headsProblem(heads, dk, dv) {
  if (!Number.isInteger(heads) || heads < 1) return `heads must be a whole number from 1 up, got ${String(heads)}`;
  if (dk % heads !== 0 || dv % heads !== 0) {
    const widths = dk === dv ? `Q, K and V have ${dk} columns` : `Q and K have ${dk} columns, V ${dv}`;
    return `${heads} heads need widths that divide by ${heads}: ${widths}`;
  }
  return null;
}

/**
 * Every step of one self-attention computation, in the order the pages show them.
 *
 * X: the embeddings (n, d). projections: "none" (Q = K = V = X, the first article's
 * softmax(X·Xᵀ)·X), "identity" (W = I, so Q = X·I), or "matrices" with W_Q, W_K (d, d_k) and
 * W_V (d, d_v). scale: divide the scores by √d_k. causal: query i sees keys 0..i only.
 * heads: split the columns of Q, K and V into that many heads, as selfattn_ref.multihead does:
 * head h takes columns h·d_k/heads .. (h+1)·d_k/heads − 1 of Q and K (and the same share of
 * V's), attends on its own (scaled by 1/√ of its own width), and the heads' outputs side by side
 * are the output (W_O is the identity, as on the multi-head page).
 *
 * Returns {Q, K, V, heads, output, mask}: heads, one per head, each {Q, K, V, scores, scaled,
 * logits, weights, output, mask, factor} for that head's columns: scores = Q·Kᵀ (unmasked, as
 * the pages print them); scaled = scores · (1/√d_k), or null without scaling; logits = what the
 * softmax reads (scaled or not, masked entries -Infinity); factor the number the scores were
 * multiplied by; mask null unless causal. With one head, its fields are the result's too
 * (result.scores is result.heads[0].scores, and so on).
 */
function attention({ X, projections = "none", W_Q = null, W_K = null, W_V = null, scale = false, causal = false, heads = 1 }) {
  checkMatrix(X, "X");
  const d = X[0].length;
  let Q, K, V;
  if (projections === "none") {
    Q = K = V = X;
  } else if (projections === "identity" || projections === "matrices") {
    const Ws = projections === "identity" ? [identity(d), identity(d), identity(d)] : [W_Q, W_K, W_V];
    const names = ["W_Q", "W_K", "W_V"];
    Ws.forEach((W, t) => {
      checkMatrix(W, names[t]);
      if (W.length !== d) {
        throw new RangeError(`${names[t]} must have one row per embedding dimension, got X ${shape(X)} and ${names[t]} ${shape(W)}`);
      }
    });
    if (Ws[0][0].length !== Ws[1][0].length) {
      throw new RangeError(`W_Q and W_K must have the same number of columns, got ${Ws[0][0].length} and ${Ws[1][0].length}`);
    }
    [Q, K, V] = Ws.map((W) => matmul(X, W));
  } else {
    throw new RangeError(`projections must be "none", "identity" or "matrices", got ${String(projections)}`);
  }
  const problem = headsProblem(heads, Q[0].length, V[0].length);
  if (problem) throw new RangeError(problem);
  const mask = causal ? causalMask(X.length) : null;
  if (heads === 1) {
    const one = head(Q, K, V, scale, mask);
    return { ...one, heads: [one] };
  }
  const dk = Q[0].length / heads;
  const dv = V[0].length / heads;
  const each = Array.from({ length: heads }, (_, h) =>
    head(columns(Q, h * dk, dk), columns(K, h * dk, dk), columns(V, h * dv, dv), scale, mask),
  );
  const output = X.map((_, i) => each.flatMap((r) => r.output[i])); // Concat(head_1, ..., head_h)·I
  return { Q, K, V, heads: each, output, mask, scores: null, scaled: null, logits: null, weights: null, factor: null };
}
return Object.freeze({ __proto__: null, checkMatrix, matmul, scores, softmax, mix, causalMask, identity, columns, headsProblem, attention });
  })())(bundleFetch, new URL("attention.js", base).href);
  // ---- arith.js ----------------------------------------------------------------------------------
  __bundle_modules[1] = ((fetch, __bundle_import_meta_url) => (() => {
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
  if (b.v === 0) throw new Error("division by zero");
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
function evaluate(text) {
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
    if (/^\d/.test(t)) return literal(t);
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
function holds(text) {
  const sides = String(text).split(/\s*[=≈]\s*/u);
  const values = sides.map(evaluate);
  const bad = sides.findIndex((_, k) => values[k] === null);
  if (sides.length < 2 || bad >= 0) throw new Error(`not arithmetic: ${sides[bad] ?? text}`);
  return values.every((v, k) => k === 0 || agree(values[k - 1], v));
}
return Object.freeze({ __proto__: null, evaluate, holds });
  })())(bundleFetch, new URL("arith.js", base).href);
  // ---- ../../generated/playground/limits.js ------------------------------------------------------
  __bundle_modules[2] = ((fetch, __bundle_import_meta_url) => (() => {
// Generated by publish.playground_limits:limits_module (make update); do not edit.
const SPEC_LIMITS = Object.freeze({
  "words": 16,
  "dims": 16,
  "tokenLength": 24,
  "titleLength": 80,
  "descriptionLength": 2000,
  "decimals": 10,
  "magnitude": 1000000.0,
  "seed": 4294967295,
  "heads": 4
});
const TOKEN_FORBIDDEN = "|`<>*[]\\";
const DIGITS = 15;  // the most digits a printed number has (selfattn_ref.examples.digits)
// Code point ranges from Python's Unicode 14.0.0 (selfattn_ref.examples.rules; the
// format: publish/playground_limits.py, encode_ranges):
// what a token may not hold anywhere (control, format, private-use, unassigned and blank
// characters, spaces, lone surrogates), and the combining marks, which cannot start a token.
const TOKEN_REFUSED = "0,20,a,0,12,0,2,0,1d,2,3,0,1c,0,3,21,d,0,2a2,0,29,1,7,3,8,0,2,0,15,0,18e,0,27,1,33,1,4,0,38,7,1c,3,7,10,17,0,c1,0,31,1,3c,1,66,d,3c,1,32,1,10,0,1d,1,2,0,c,4,20,8,4b,0,a2,0,9,1,3,1,17,0,8,0,2,2,5,1,a,1,3,1,5,7,2,3,3,0,6,1,1a,1,4,0,7,3,3,1,17,0,8,0,3,0,3,0,3,1,2,0,6,3,3,1,4,2,2,6,5,0,2,6,12,9,4,0,a,0,4,0,17,0,8,0,3,0,6,1,b,0,4,0,4,1,2,e,5,1,d,6,8,0,4,0,9,1,3,1,17,0,8,0,3,0,6,1,a,1,3,1,4,6,4,3,3,0,6,1,13,9,3,0,7,2,4,0,5,2,3,0,2,0,3,2,3,2,4,2,d,3,6,2,4,0,5,1,2,5,2,d,16,4,e,0,4,0,18,0,11,1,a,0,4,0,5,6,3,0,4,1,2,1,5,1,b,6,17,0,4,0,18,0,b,0,6,1,a,0,4,0,5,6,3,5,3,0,5,1,b,0,3,c,e,0,4,0,34,0,4,0,7,3,11,1,1b,0,4,0,13,2,19,0,a,0,2,1,8,2,2,3,7,0,2,0,9,5,b,1,4,b,3b,3,1e,24,3,0,2,0,6,0,19,0,2,0,18,1,6,0,2,0,7,1,b,1,5,1f,49,0,25,3,28,0,25,0,10,0,e,24,c7,0,2,4,2,1,90,1,e9,0,5,1,8,0,2,0,5,1,2a,0,5,1,22,0,5,1,8,0,2,0,5,1,10,0,3a,0,5,1,44,1,21,2,1b,5,57,1,7,1,281,0,1d,2,5a,6,17,8,19,8,15,b,e,0,4,0,3,b,35,1,29,1,b,5,b,5,c,4,b,5,5a,6,2c,4,47,9,20,0,d,3,d,3,2,2,2b,1,6,a,2d,3,1b,5,c,2,3f,1,42,0,1e,1,c,5,b,5,f,1,20,30,4e,2,30,0,75,7,3d,2,10,2,3d,6,2c,1,c,7,2c,4,217,1,7,1,27,1,7,1,9,0,2,0,2,0,2,0,20,1,36,0,10,0,f,1,7,0,14,1,4,0,a,10,19,7,30,10,3,1,1c,0,e,2,22,e,22,e,8d,3,298,18,c,14,3a1,0,374,1,21,0,15e,4,2e,0,2,4,2,1,39,6,3,d,19,8,8,0,8,0,8,0,8,0,8,0,8,0,8,0,8,0,7f,21,1b,0,5a,b,d7,19,d,4,40,0,57,1,68,4,2c,0,34,0,2b,0,55,b,30,0,726e,2,38,8,15d,13,b9,7,cc,4,3,0,2,0,6,17,3c,2,b,5,39,7,47,7,d,5,75,a,1f,2,4f,0,c,3,22,0,38,8,f,1,b,1,68,17,1d,9,7,1,7,1,7,8,8,0,8,0,3d,3,7f,1,b,5,2ba5,b,18,3,32,2103,16f,1,6b,25,8,b,6,4,1b,0,6,0,2,0,3,0,3,0,7e,f,1be,1,37,6,2,1f,11,f,b,5,34,0,14,0,5,3,6,0,88,3,a0,0,1f,2,7,1,7,1,7,1,4,2,8,0,8,c,3,1,d,0,1b,0,14,0,3,0,10,1,f,21,7c,4,4,3,2e,2,59,0,e,2,2,2e,2f,81,1e,2,32,e,1d,3,25,8,1f,4,2c,4,1f,0,26,3,f,29,9f,1,b,5,25,3,25,3,29,7,35,a,d,0,10,0,8,0,3,0,c,0,10,0,8,0,3,42,138,8,17,9,9,17,7,0,2b,0,a,44,7,1,2,0,2d,0,3,2,2,1,18,0,49,7,a,2f,14,0,3,4,22,2,1c,4,2,3f,39,3,15,1,33,0,3,4,9,0,4,0,1e,1,4,3,b,6,a,6,41,1f,28,3,d,8,37,2,1e,1,1c,4,1b,6,5,b,8,4f,4a,36,34,c,34,6,2f,7,b,125,20,0,2b,0,4,1,3,4d,29,7,2b,15,1b,25,1d,13,18,8,4f,3,25,8,3f,0,6,c,1a,6,b,5,36,0,13,7,28,8,61,0,15,a,13,0,2d,40,8,0,2,0,5,0,10,0,c,5,3c,4,b,5,5,0,9,1,3,1,17,0,8,0,3,0,6,0,b,1,3,1,4,1,2,5,2,4,8,1,8,2,6,8a,5d,0,6,1d,49,7,b,a5,37,1,27,21,46,a,b,5,e,12,3b,5,b,35,1c,1,10,3,18,b8,3d,63,54,b,9,1,2,1,9,0,3,0,1f,0,3,1,d,8,b,45,9,1,2f,1,c,1a,49,7,54,c,4a,106,a,0,2e,0,f,9,1e,2,21,1,17,0,f,48,8,0,3,0,2d,2,2,0,3,0,a,7,b,5,7,0,3,0,26,0,3,0,7,6,b,135,1a,b6,2,e,33,c,39c,65,70,0,6,a,c5,a4b,64,c,430,fd0,248,21b8,23a,6,20,0,b,3,52,0,b,5,1f,1,7,9,47,9,b,0,8,0,16,4,14,2af,5c,64,4c,3,3a,6,12,3f,6,a,3,d,17f9,7,4d7,29,a,22e6,5,0,8,0,3,0,124,2c,4,10,5,7,18d,903,6c,4,e,2,a,6,b,1,5,125f,2f,1,18,8,75,3b,f7,9,28,1,31,0,1a,7,71,14,47,99,15,b,58,8,1a,86,56,0,48,0,3,1,2,1,3,1,5,0,d,0,2,0,8,0,42,0,5,1,9,0,8,0,1d,0,5,0,6,0,2,2,8,0,155,1,125,1,2bf,e,6,0,10,44f,20,e0,8,0,12,1,8,0,3,0,6,d4,2e,2,f,1,b,3,3,13f,20,10,3b,4,2,4df,8,0,5,0,3,0,10,0,c6,1,11,28,4d,3,b,3,3,310,45,4b,3e,c1,5,0,1c,0,3,0,2,1,2,0,b,0,5,0,2,0,2,5,2,3,2,0,2,0,2,0,4,0,3,0,2,1,2,0,2,0,2,0,2,0,2,0,3,0,2,1,5,0,8,0,5,0,5,0,2,0,b,0,12,4,4,0,6,0,12,33,3,10d,2d,3,65,b,10,1,10,0,10,0,26,9,af,37,1e,c,2d,3,a,6,3,d,7,99,3d9,4,11,2,e,2,75,b,5a,6,d,3,2,e,d,3,39,7,b,5,29,7,1f,1,3,4d,155,b,f,1,6,2,6,2,8,8,1e,2,c,4,7,9,b,5,9,7,8,8,94,0,38,24,b,405,a6e1,1f,103a,6,df,1,1683,d,1d32,c1e,21f,5e1,134c,decb4";
const MARKS = "300,6f,114,6,108,2c,2,0,2,1,2,1,2,0,49,a,31,14,11,0,66,6,3,5,3,1,2,3,24,0,1f,1a,5c,a,3b,8,a,0,19,3,2,8,2,2,2,4,2c,2,3d,7,2b,17,2,20,37,2,2,11,2,6,b,1,1e,2,39,0,2,6,3,1,3,2,a,0,b,1,1b,0,3,2,39,0,2,4,5,1,3,2,4,0,1f,1,4,0,c,2,39,0,2,7,2,2,2,2,15,1,17,5,2,2,39,0,2,6,3,1,3,2,8,2,b,1,1f,0,3c,4,4,2,2,3,a,0,29,4,38,0,2,6,2,2,2,3,8,1,c,1,1e,2,39,0,2,6,2,2,2,3,8,1,c,1,1d,3,38,1,2,6,2,2,2,3,a,0,b,1,1e,2,47,0,5,5,2,0,2,7,13,1,3e,0,3,6,d,7,63,0,3,8,c,5,4b,1,1c,0,2,0,2,0,5,1,32,13,2,1,6,a,2,23,a,0,65,13,18,3,5,2,2,2,3,6,4,3,e,b,2,0,b,3,2c0,2,3b3,3,1d,2,1e,1,1f,1,41,1f,a,0,2e,2,2,0,76,1,23,0,77,b,5,b,dc,4,3a,9,2,1c,3,0,31,1e,32,4,30,10,27,8,d,2,1f,c,39,d,31,13,99,2,2,14,5,0,7,0,3,2,c7,3f,2d1,20,bff,2,8e,0,61,1f,22b,5,6a,1,75d5,3,2,9,21,1,51,1,111,0,4,0,5,0,18,4,5,0,54,1,33,11,1b,11,e,0,27,7,1a,c,2d,3,30,d,25,0,44,d,d,0,9,1,2e,2,33,0,2,2,3,1,6,1,2,0,2a,4,6,1,ed,7,2,1,4f31,0,2e2,f,11,f,3ce,0,e3,0,96,4,687,2,2,1,6,3,29,2,5,0,a6,1,23e,3,184,1,9a,a,32,3,7b,2,36,e,2a,0,3,1,b,3,2e,a,8,0,3e,2,25,d,11,1,2d,0,d,2,31,d,9,3,2,1,5d,b,7,0,a1,b,16,3,38,1,2,6,3,1,3,2,a,0,b,1,3,6,4,4,c1,11,18,0,52,13,ec,6,3,8,1c,1,53,10,6b,c,66,e,101,e,f6,5,2,1,3,3,2,0,2,1,8e,6,3,6,4,0,1d,9,29,6,2,3,9,0,a,a,2f,f,196,7,2,7,53,15,2,d,7b,5,4,0,2,1,2,6,2,0,43,4,2,1,2,4,15c,3,4bfa,4,3c,6,419,0,2,36,8,3,52,0,c,1,4cac,1,1262,2d,3,16,21f,4,4,5,9,7,3,6,1f,3,95,2,7bc,36,5,31,9,0,f,0,17,4,2,e,551,6,2,10,3,6,2,1,2,4,106,6,178,0,3e,3,5e1,6,6e,6,c17b6,ef";
return Object.freeze({ __proto__: null, SPEC_LIMITS, TOKEN_FORBIDDEN, DIGITS, TOKEN_REFUSED, MARKS });
  })())(bundleFetch, new URL("../../generated/playground/limits.js", base).href);
  // ---- format.js ---------------------------------------------------------------------------------
  __bundle_modules[3] = ((fetch, __bundle_import_meta_url) => (() => {
// Numbers as the pages print them: the twin of publish/fmt.py (which prints through
// selfattn_ref/examples/digits.py) and of the tables and worked lines in publish/tables.py. No DOM here.
//
// Python formats f"{x:.3f}" from the exact binary value and rounds a tie (a value that lies
// exactly halfway, such as 0.125 or 2.5) to the even digit; JavaScript's toFixed rounds a tie
// away from zero. fixed() does what Python does. The browser tests compare the two on many
// values, ties included.
//
// The rule of digits.py: at most DIGITS (15) digits in a number, those before the point
// included, as many as every float64 holds; a number of more than 15 digits before the point
// prints in exponent notation (1.000e+20), never with digits a float64 does not have.

const { DIGITS } = __bundle_modules[2];

const TIE_DIGITS = 25; // enough to tell an exact tie from its nearest float (see fixed())

/** |x| at `decimals` places, rounded half to even like Python, without a sign. */
function fixedAbs(a, decimals) {
  if (a >= 1e21) {
    // toFixed switches to exponent notation here; floats this large are integers.
    return BigInt(a).toString() + (decimals > 0 ? "." + "0".repeat(decimals) : "");
  }
  const rounded = a.toFixed(decimals); // correctly rounded, ties away from zero
  // A tie times 10^decimals is exactly k + 0.5 (both are floats, and the product is exact):
  // anything else is not a tie, which spares the long expansion below in nearly every call.
  const scaled = a * 10 ** decimals;
  if (scaled < 2 ** 52 && scaled - Math.floor(scaled) !== 0.5) return rounded;
  // A tie at `decimals` places has exactly decimals + 1 digits after the point, the last a 5.
  // The float nearest to a tie but not equal to it differs within TIE_DIGITS places, so a
  // longer expansion that reads "...5000..." is the tie itself.
  const long = a.toFixed(decimals + TIE_DIGITS);
  const point = long.indexOf(".");
  const tail = long.slice(point + 1 + decimals);
  if (tail[0] !== "5" || !/^0*$/.test(tail.slice(1))) return rounded;
  const truncated = decimals > 0 ? long.slice(0, point + 1 + decimals) : long.slice(0, point);
  const lastDigit = Number(truncated[truncated.length - 1]);
  return lastDigit % 2 === 0 ? truncated : rounded; // down to the even digit, or up to it
}

/**
 * |x| >= 1e15 in exponent notation with `places` decimals, as Python's f"{x:.{places}e}" (ties to
 * even, from the exact value). Here a tie is a whole number (its last kept digit stands for 10 or
 * more), whose digits BigInt gives exactly; any other value toExponential rounds correctly.
 */
function exponentAbs(a, places) {
  if (!Number.isInteger(a)) return a.toExponential(places).replace(/e\+(\d)$/, "e+0$1");
  const digits = BigInt(a).toString();
  let kept = digits.slice(0, places + 1);
  const rest = digits.slice(places + 1);
  let exponent = digits.length - 1;
  const half = rest[0] === "5" && /^0*$/.test(rest.slice(1));
  if (rest[0] > "5" || (rest[0] === "5" && !half) || (half && Number(kept[kept.length - 1]) % 2 === 1)) {
    kept = (BigInt(kept) + 1n).toString();
    if (kept.length > places + 1) {
      kept = kept.slice(0, places + 1); // 9.99...e+k rounded up is 1.00...e+(k+1)
      exponent += 1;
    }
  }
  return kept[0] + (places > 0 ? "." + kept.slice(1) : "") + "e+" + String(exponent).padStart(2, "0");
}

/** The decimals `x` prints with when `decimals` are asked for (digits.decimals_shown). */
function decimalsShown(x, decimals) {
  const a = Math.abs(x);
  if (!Number.isFinite(a)) return decimals;
  let places = Math.max(0, Math.min(decimals, DIGITS - BigInt(Math.trunc(a)).toString().length));
  if (places > 0 && fixedAbs(a, places).length - 1 > DIGITS) places -= 1; // rounding carried into one more digit
  return places;
}

/** `x` at `decimals` places, at most DIGITS digits, with no "-0.000" (publish.fmt.num, digits.number_text). */
function num(x, decimals) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const a = Math.abs(x);
  let text = fixedAbs(a, decimalsShown(x, decimals));
  if (text.split(".")[0].length > DIGITS) text = exponentAbs(a, Math.min(decimals, DIGITS - 1));
  const zero = !/[1-9]/.test(text.split("e")[0]);
  return (x < 0 && !zero ? "-" : "") + text;
}

/** A whole number of an integral table (digits.integer_text): "12", or beyond DIGITS digits "4.5e+27". */
function integerText(x) {
  if (fixedAbs(Math.abs(x), 0).length <= DIGITS) return BigInt(x).toString();
  const [mantissa, exponent] = ((x < 0 ? "-" : "") + exponentAbs(Math.abs(x), DIGITS - 1)).split("e");
  return mantissa.replace(/\.?0+$/, "") + "e" + exponent;
}

/** Whether every finite entry is a whole number (publish.fmt.is_integral). */
function isIntegral(values) {
  for (const x of values) {
    if (Array.isArray(x)) {
      if (!isIntegral(x)) return false;
    } else if (Number.isFinite(x) && x !== Math.round(x)) {
      return false;
    }
  }
  return true;
}

/** A table cell: integers as integers in an integral table, else `decimals` places. */
function cell(x, decimals, integral) {
  if (x === -Infinity) return "−∞";
  return integral ? integerText(x) : num(x, decimals);
}

/** "[0.910, 0.335, 0.665, 0.090]", integers staying integers (publish.fmt.vector). */
function vector(v, decimals) {
  const integral = isIntegral(v);
  return "[" + v.map((x) => cell(x, decimals, integral)).join(", ") + "]";
}

/** Every cell of a matrix as text, integrality judged on the whole matrix (tables.matrix_table). */
function matrixCells(M, decimals) {
  const integral = isIntegral(M);
  return M.map((row) => row.map((x) => cell(x, decimals, integral)));
}
return Object.freeze({ __proto__: null, num, isIntegral, cell, vector, matrixCells });
  })())(bundleFetch, new URL("format.js", base).href);
  // ---- explain.js --------------------------------------------------------------------------------
  __bundle_modules[4] = ((fetch, __bundle_import_meta_url) => (() => {
// How each number of the playground was made, and one word's row step by step. No DOM here.
//
// Every function reads a result of attention() (attention.js) and recomputes nothing the result
// does not already hold, except the terms a reader needs to see: the products of a dot product,
// e to the power of each score and their total, the products of a weighted sum. These are
// computed as attention.js computes them (same order), so that the terms add up to the number in
// the table. tests/browser/test_playground_teaching.py holds every term equal to NumPy's, and
// every line of arithmetic equal to the worked line the example's page shows for the same cell
// (docs/generated/<example>/dot_products.md, softmax_<i>.md, columns_<i>.md, mix_<i>.md).
//
// The arithmetic is the pages': weight = e^score ÷ the row's total of e^score (bank of river:
// 2.718 ÷ 11.107 = 0.245). The code subtracts the row's largest score first, which changes no
// weight; the explanation shows that too, in one line, and shows only that form where e^score
// would be too large (or too small) to write.
//
// Every explanation is true at the rounding it shows, as the site's numbers audit reads worked
// arithmetic (arith.js): written at the decimals the reader chose, or, when a line would not
// add up there ("1 ÷ 2 = 1" at 0 decimals), with as many more as it needs, saying so.
//
// r: a result of attention(); a head h: r.heads[h], which has {Q, K, V, scores, scaled, logits,
// weights, output, mask, factor} (with one head, r.heads[0] is r); i a query (row), j a key
// (column), c a column of the output. Counting is from 0 here; the labels shown count from 1.

const { holds } = __bundle_modules[1];
const { cell, isIntegral, num, vector } = __bundle_modules[3];

const MORE_DECIMALS = 3; // at most this many more than the reader chose, to make a line hold
const MAX_DECIMALS = 10; // never more than the playground offers
// e^score is written out, as the pages write it, while it is at most this large (the pages print
// no number of 10^15 or more: selfattn_ref.examples.rules.MAX_PRINTED).
const MAX_WRITTEN = 1e15;

/** The head that output column c belongs to, and c's place among that head's columns. */
function headOfColumn(r, c) {
  const width = r.heads[0].V[0].length;
  return { h: Math.floor(c / width), c: c % width };
}

/** Step 1, one cell: the dot product of query i with key j, term by term (in head h). */
function explainScore(r, i, j, h = 0) {
  const a = r.heads[h];
  const q = a.Q[i];
  const k = a.K[j];
  const products = q.map((x, t) => x * k[t]);
  return { kind: "score", h, i, j, q, k, products, value: a.scores[i][j] };
}

/** The scaled (and masked) score: the score divided by √d_k, or −∞ where the mask hides key j. */
function explainScaled(r, i, j, h = 0) {
  const a = r.heads[h];
  const masked = a.mask !== null && !a.mask[i][j];
  return {
    kind: "scaled",
    h,
    i,
    j,
    score: a.scores[i][j],
    scale: a.scaled !== null,
    factor: a.factor,
    dk: a.Q[0].length,
    masked,
    value: a.logits[i][j],
  };
}

/**
 * The terms of the softmax of row i of a head: e^s for each score s the softmax reads (0 where
 * masked) and their total, as the pages write them; and e^(s − max(s)), max(s) the row's largest, and their
 * total, as the code computes them.
 */
function softmaxTerms(a, i) {
  const row = a.logits[i];
  let top = -Infinity;
  for (const x of row) if (x > top) top = x;
  const exps = row.map((x) => Math.exp(x - top)); // e^(−∞) = 0 for a masked score
  let total = 0;
  for (const x of exps) total += x;
  const powers = row.map((x) => Math.exp(x)); // may overflow to Infinity or underflow to 0
  let powersTotal = 0;
  for (const x of powers) powersTotal += x;
  return { logits: row, top, exps, total, powers, powersTotal };
}

/** Step 2, one cell: weight (i, j) = e^(s_j) / Σ e^s over row i (= e^(s_j − max(s)) / Σ e^(s − max(s))). */
function explainWeight(r, i, j, h = 0) {
  const a = r.heads[h];
  return { kind: "weight", h, i, j, ...softmaxTerms(a, i), value: a.weights[i][j] };
}

/** Step 3, one cell: output (i, c) = Σ_j weight (i, j) · V (j, c), with the weights of c's head. */
function explainOutput(r, i, c) {
  const { h, c: own } = headOfColumn(r, c);
  const a = r.heads[h];
  const weights = a.weights[i];
  const values = a.V.map((row) => row[own]);
  const products = weights.map((w, j) => w * values[j]);
  return { kind: "output", h, i, c, weights, values, products, value: r.output[i][c] };
}

const EXPLAIN = { scores: explainScore, scaled: explainScaled, weights: explainWeight };

/** The explanation of a cell of one of the tables "scores", "scaled", "weights" (of head h), "output". */
function explainCell(r, table, i, j, h = 0) {
  return table === "output" ? explainOutput(r, i, j) : EXPLAIN[table](r, i, j, h);
}

/**
 * The cells an explanation reads, as {table, i, j} (j null: the whole row i; i null: the whole
 * column j). Table names: "Q", "K", "V" (or "X", the words' vectors, when there are no
 * projections), "scores", "logits" (the scores the softmax reads), "weights"; the columns of Q,
 * K and V are those of the whole matrices (a head's columns are a part of them); "scores",
 * "logits" and "weights" are those of head e.h.
 */
function usedCells(e, projecting) {
  const src = (name) => (projecting ? name : "X");
  switch (e.kind) {
    case "score": {
      const width = e.q.length;
      const cols = Array.from({ length: width }, (_, t) => e.h * width + t);
      return [
        ...cols.map((j) => ({ table: src("Q"), i: e.i, j })),
        ...cols.map((j) => ({ table: src("K"), i: e.j, j })),
      ];
    }
    case "scaled":
      return [{ table: "scores", h: e.h, i: e.i, j: e.j }];
    case "weight":
      return [{ table: "logits", h: e.h, i: e.i, j: null }];
    case "output":
      return [
        { table: "weights", h: e.h, i: e.i, j: null },
        { table: src("V"), i: null, j: e.c },
      ];
    default:
      return [];
  }
}

// --- as text ----------------------------------------------------------------------------------

/** The name of column c (from 0) of V and of the output: x1, x2, ... without projections, else c1, c2, ... */
function columnName(c, projecting) {
  return `${projecting ? "c" : "x"}${c + 1}`;
}

/** "c3–c4": the columns of Q, K (and V) that head h takes, or "" with one head. */
function headColumns(r, h, which, projecting) {
  if (r.heads.length === 1) return "";
  const width = (which === "V" ? r.heads[h].V : r.heads[h].Q)[0].length;
  const first = columnName(h * width, projecting);
  return width === 1 ? first : `${first}–${columnName(h * width + width - 1, projecting)}`;
}

/** Numbers as the tables show them: integers as integers when the whole matrix is integral. */
function formatter(M, decimals) {
  const integral = isIntegral(M);
  return (x) => (x === -Infinity ? "−∞" : cell(x, decimals, integral));
}

/**
 * Build an explanation at the decimals the reader chose, or at the fewest more (up to
 * MORE_DECIMALS more) at which every claim holds. build(p) gives {lines, claims}: claims are
 * {line, text}, the arithmetic of line `line` in the audit's syntax (as the line writes it, unless
 * `implied`: what a sentence says in words). Returns {lines, claims,
 * decimals}, or null if no rounding up to the limit makes every claim hold.
 */
function fit(build, decimals, extra = MORE_DECIMALS) {
  const last = Math.max(decimals, Math.min(MAX_DECIMALS, decimals + extra));
  for (let p = decimals; p <= last; p++) {
    const out = build(p);
    if (out.claims.every((c) => holds(c.text))) return { ...out, decimals: p };
  }
  return null;
}

/**
 * The lines of build(p) at the fitted rounding, with a line saying so when it is not the one the
 * reader chose. If none fits (numbers beyond what a float holds exactly), the reader's rounding,
 * with "≈" for "=" on each line that does not hold, and a line saying why.
 */
function fitted(build, decimals) {
  const out = fit(build, decimals);
  if (out) return withNote(out, decimals);
  const plain = build(decimals);
  const lines = plain.lines.slice();
  for (const c of plain.claims) {
    if (!holds(c.text)) lines[c.line] = lines[c.line].replace(/ = /gu, " ≈ ");
  }
  lines.push(`(≈: rounded to ${decimals} decimal${decimals === 1 ? "" : "s"}, these numbers do not add up exactly.)`);
  return { lines, claims: plain.claims, decimals };
}

function withNote(out, decimals) {
  if (out.decimals === decimals) return out;
  const k = out.decimals;
  return {
    ...out,
    lines: [
      ...out.lines,
      `(Written with ${k} decimal${k === 1 ? "" : "s"} here: at the ${decimals} chosen, this arithmetic would not add up.)`,
    ],
  };
}

/** A claim for line `line`: the arithmetic part of it (what follows `prefix`). */
function claim(lines, text) {
  return { line: lines.length - 1, text };
}

/**
 * The dot product written out as the example pages write it (docs/generated/<slug>/dot_products.md):
 * "bank · river = 1×1 + 0×1 + 1×0 + 0×0 = 1", integers as integers when both vectors are.
 */
function dotLine(a, b, u, v, total, decimals) {
  const integral = isIntegral(u) && isIntegral(v);
  const f = (x) => cell(x, decimals, integral);
  const terms = u.map((x, t) => `${f(x)}×${f(v[t])}`).join(" + ");
  return { text: `${a} · ${b} = ${terms} = ${f(total)}`, arithmetic: `${terms} = ${f(total)}` };
}

/**
 * One column of step 3 written out as the example pages write it (docs/generated/<slug>/columns_<i>.md):
 * "x1: 0.665 × 1 + 0.090 × 0 + 0.245 × 1 = 0.910", the values as V's table shows them.
 */
function columnLine(name, weights, values, V, value, decimals) {
  const fv = formatter(V, decimals);
  const terms = weights.map((w, j) => `${num(w, decimals)} × ${fv(values[j])}`).join(" + ");
  return { text: `${name}: ${terms} = ${num(value, decimals)}`, arithmetic: `${terms} = ${num(value, decimals)}` };
}

/**
 * Step 3 for query i written out, as docs/generated/<slug>/mix_<i>.md has it, at the reader's
 * rounding or more (see fit()): {text, decimals, note}.
 *
 *       0.665 × [1, 0, 1, 0]   (bank)
 *     + 0.090 × [0, 1, 0, 1]   (of)
 *     + 0.245 × [1, 1, 0, 0]   (river)
 *     = [0.910, 0.335, 0.665, 0.090]
 */
function mixText(tokens, weightsRow, V, outputRow, decimals) {
  const build = (p) => {
    const ws = weightsRow.map((w) => num(w, p));
    const width = Math.max(...ws.map((w) => w.length));
    const lines = ws.map((w, j) => `${j === 0 ? "  " : "+ "}${w.padStart(width)} × ${vector(V[j], p)}   (${tokens[j]})`);
    lines.push(`= ${vector(outputRow, p)}`);
    const text = ws.map((w, j) => `${w} × ${vector(V[j], p)}`).join(" + ") + ` = ${vector(outputRow, p)}`;
    return { lines, claims: [{ line: lines.length - 1, text }] };
  };
  return fitted(build, decimals);
}

/** The words of a step's scores: "score", or "scaled score" once divided by √d_k (the pages' names). */
function scoreWord(a) {
  return a.scaled !== null ? "scaled score" : "score";
}

/** "e^2.5 has 2 digits" style: how large (or small) e^m is, for the sentence that says why e^score is not written. */
function size(m) {
  const digits = Math.floor(m * Math.LOG10E);
  if (m > 0) return `e^${num(m, 0)} has ${(digits + 1).toLocaleString("en")} digits before the point`;
  return `e^${num(m, 0)} is about 10^${digits}`;
}

/**
 * The softmax of one row as lines: e^score for each key and their total, as the pages write them
 * (softmax_<i>.md), then the weight of key j; and in one line the code's way, e^(s − max(s)), which
 * gives the same weights. pagesForm false: the code's way only (where e^score is too large or too
 * small to write). j null (a step): every key's weight, in the layout of the pages' table.
 */
function softmaxLines(t, a, labels, j, p, pagesForm) {
  const L = labels;
  const s = formatter(t.logits, p);
  const word = scoreWord(a);
  const m = t.top;
  const terms = pagesForm ? t.powers : t.exps;
  const total = pagesForm ? t.powersTotal : t.total;
  const minus = (x) => (x.startsWith("-") ? `(${x})` : x);
  const power = (k) => (pagesForm ? `e^${s(t.logits[k])}` : `e^(${s(t.logits[k])} − ${minus(s(m))})`);
  const shown = t.logits.map((_, k) => num(terms[k], p)); // e^−∞ = 0 where masked, as the pages show it
  const weights = a.weights[t.row].map((x) => num(x, p));
  const lines = [];
  const claims = [];
  // Claims hold the lines' arithmetic; a row of the step's table holds several.
  const claimAll = (texts) => texts.forEach((text) => claims.push(claim(lines, text)));
  const powers = t.logits.map((x, k) => (x === -Infinity ? null : `${power(k)} = ${shown[k]}`));
  const sum = `${shown.join(" + ")} = ${num(total, p)}`;
  const share = (k) => `${shown[k]} ÷ ${num(total, p)} = ${weights[k]}`;
  if (j === null) {
    const e = pagesForm ? `e^${word}` : `e^(${word} − max)`;
    const rows = alignedRows(L, [
      [word, t.logits.map((x) => s(x))],
      [e, shown],
      [`÷ total ${num(total, p)}`, weights],
    ]);
    lines.push(rows[0], rows[1]);
    lines.push(rows[2]);
    claimAll(powers.filter(Boolean));
    lines.push(rows[3]);
    claimAll(t.logits.map((_, k) => share(k)));
    lines.push(`total = ${sum}`);
    claimAll([sum]);
  } else {
    const width = Math.max(...L.map((l) => [...l].length));
    const pad = (l) => l + " ".repeat(width - [...l].length);
    t.logits.forEach((x, k) => {
      const mark = k === j ? "   ← this cell" : "";
      lines.push(x === -Infinity ? `  ${pad(L[k])}  e^−∞ = 0 (masked)${mark}` : `  ${pad(L[k])}  ${powers[k]}${mark}`);
      if (x !== -Infinity) claimAll([powers[k]]);
    });
    lines.push(`total = ${sum}`);
    claimAll([sum]);
    lines.push(`weight = ${share(j)}`);
    claimAll([share(j)]);
  }
  if (pagesForm && m !== 0) {
    // The code's way, in one line: every term and the total divided by e^m, so no weight changes.
    const shifted = t.exps.map((x) => num(x, p));
    const k = j ?? t.logits.indexOf(m);
    const quotient = `${shifted[k]} ÷ ${num(t.total, p)} = ${weights[k]}`;
    lines.push(
      `The code first subtracts the row's largest ${word}, max(s) = ${s(m)}: e^(s − max(s)) gives ${listed(shifted)}, ` +
        `total ${num(t.total, p)}, and ${j === null ? `for ${L[k]} ` : ""}${quotient}: the same weight${j === null ? "s" : ""} ` +
        "(every term and the total are divided by the same e^max(s)).",
    );
    claimAll([quotient]);
    // What the line says in words ("gives 1.000, 0.135 and 0.368, total 1.503") holds too.
    const implied = [`${shifted.join(" + ")} = ${num(t.total, p)}`];
    implied.push(...t.logits.flatMap((x, q) => (x === -Infinity ? [] : [`e^(${s(x)} − ${minus(s(m))}) = ${shifted[q]}`])));
    for (const text of implied) claims.push({ ...claim(lines, text), implied: true });
  }
  return { lines, claims };
}

/** "a, b and c". */
function listed(items) {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * The softmax of row i of head a, fitted: the pages' form (e^score) where it can be written,
 * else the code's form (e^(s − max(s))) with a sentence saying why. {lines, decimals}.
 */
function softmaxFitted(a, i, labels, j, decimals, intro) {
  const t = { ...softmaxTerms(a, i), row: i };
  const writable = t.top <= Math.log(MAX_WRITTEN) && Number.isFinite(t.powersTotal) && t.powersTotal > 0;
  const word = scoreWord(a);
  const pages = (p) => {
    const body = softmaxLines(t, a, labels, j, p, true);
    return { lines: [intro(`e to the power of each ${word}, then each divided by the row's total:`), ...body.lines], claims: shift(body.claims, 1) };
  };
  if (writable) {
    const out = fit(pages, decimals);
    if (out) return withNote(out, decimals);
  }
  const why = t.top > 0 ? "too large" : "too small";
  const code = (p) => {
    const body = softmaxLines(t, a, labels, j, p, false);
    const m = formatter(t.logits, p)(t.top);
    const head = intro(
      `e^${word} would be ${why} to write here (${size(t.top)}), so, as the code does, each ${word} first loses the ` +
        `row's largest, max(s) = ${m}, which changes no weight (every term and the total are divided by the same e^max(s)):`,
    );
    return { lines: [head, ...body.lines], claims: shift(body.claims, 1) };
  };
  return fitted(code, decimals);
}

function shift(claims, by) {
  return claims.map((c) => ({ ...c, line: c.line + by }));
}

/**
 * An explanation as {title, lines, claims, decimals}: a sentence naming the cell, then the
 * arithmetic, one step a line, with the numbers rounded as the tables round them (or with more
 * decimals, said in a last line, where the arithmetic would not add up at the reader's rounding);
 * claims, the arithmetic each line states ({line, text}), which holds at that rounding. labels:
 * the words' labels.
 */
function explanationText(e, r, labels, decimals, projecting) {
  const L = labels;
  const many = r.heads.length > 1;
  const inHead = many ? `In head ${e.h + 1}, the` : "The";
  const a = r.heads[e.h];
  if (e.kind === "score") {
    const [q, k] = projecting ? ["query", "key"] : ["vector", "vector"];
    const cols = (M) => (many ? ` in head ${e.h + 1} (columns ${headColumns(r, e.h, "Q", projecting)} of ${projecting ? M : "X"})` : "");
    const build = (p) => {
      const line = dotLine(L[e.i], L[e.j], e.q, e.k, e.value, p);
      const lines = [
        `${L[e.i]}'s ${q}${cols("Q")} = ${vector(e.q, p)}`,
        `${L[e.j]}'s ${k}${cols("K")} = ${vector(e.k, p)}`,
        line.text,
      ];
      return { lines, claims: [{ line: 2, text: line.arithmetic }] };
    };
    return {
      title: `${many ? `In head ${e.h + 1}, the score` : "Score"} of ${L[e.i]} against ${L[e.j]}: the dot product of ${L[e.i]}'s ${q} with ${L[e.j]}'s ${k}.`,
      ...fitted(build, decimals),
    };
  }
  if (e.kind === "scaled") {
    const d = many ? "d_head" : "d_k";
    const title = `${inHead} score of ${L[e.i]} against ${L[e.j]} as the softmax reads it.`;
    const build = (p) => {
      const fs = formatter(a.scores, p);
      const finite = a.logits.map((row) => row.filter((x) => x !== -Infinity));
      const fl = formatter(finite, p);
      const lines = [];
      const claims = [];
      if (e.scale) {
        const scaled = e.score * e.factor;
        lines.push(`score = ${fs(e.score)}`);
        lines.push(`score ÷ √${d} = ${fs(e.score)} ÷ √${e.dk} = ${fl(scaled)}`);
        claims.push(claim(lines, `${fs(e.score)} ÷ √${e.dk} = ${fl(scaled)}`));
      } else {
        lines.push(`score = ${fs(e.score)} (not divided: "Divide the scores by √d_k" is off)`);
      }
      if (e.masked) {
        lines.push(`${L[e.j]} comes after ${L[e.i]}: the causal mask replaces this score by −∞, so its weight will be 0.`);
      } else if (a.mask !== null) {
        lines.push(`${L[e.j]} is not after ${L[e.i]}: the causal mask leaves this score as it is.`);
      }
      return { lines, claims };
    };
    return { title, ...fitted(build, decimals) };
  }
  if (e.kind === "weight") {
    const title = `${inHead} weight ${L[e.i]} gives ${L[e.j]}: its share of row ${L[e.i]} after the softmax.`;
    return { title, ...softmaxFitted(a, e.i, L, e.j, decimals, (text) => `Row ${L[e.i]}: ${text}`) };
  }
  // output
  const name = columnName(e.c, projecting);
  const V = projecting ? "V" : "V (here V = X)";
  const head = many
    ? `head ${e.h + 1} mixes columns ${headColumns(r, e.h, "V", projecting)} of ${V} with its own weights: row ${L[e.i]} of head ${e.h + 1}'s weights`
    : `row ${L[e.i]} of the weights`;
  const build = (p) => {
    const line = columnLine(name, e.weights, e.values, a.V, e.value, p);
    const lines = [line.text];
    if (many) lines.push("The heads' outputs side by side, times W_O = I (the identity), are the output: this is its column " + name + ".");
    return { lines, claims: [{ line: 0, text: line.arithmetic }] };
  };
  return {
    title: `Output of ${L[e.i]}, column ${name}: ${head} times column ${name} of ${V}, added up.`,
    ...fitted(build, decimals),
  };
}

// --- one row, step by step --------------------------------------------------------------------

// The steps by the names every page gives them (docs/notation.md, "The steps, by name").
const STEPS = Object.freeze(["score", "scale", "mask", "normalize", "mix"]);

/**
 * Row i of head h through the five steps, in order: score, scale, mask, normalize (the softmax),
 * mix. Each step:
 * {id, on, values} (values: the row after the step), with the terms the step needs.
 */
function rowSteps(r, i, { scale, causal }, h = 0) {
  const a = r.heads[h];
  const scores = a.scores[i];
  const scaled = a.scaled ? a.scaled[i] : scores;
  const t = softmaxTerms(a, i);
  return [
    { id: "score", on: true, values: scores },
    { id: "scale", on: scale, before: scores, values: scaled, factor: a.factor, dk: a.Q[0].length },
    { id: "mask", on: causal, before: scaled, values: a.logits[i] },
    { id: "normalize", on: true, before: a.logits[i], top: t.top, exps: t.exps, total: t.total, powers: t.powers, powersTotal: t.powersTotal, values: a.weights[i] },
    { id: "mix", on: true, weights: a.weights[i], values: a.output[i] },
  ];
}

/** Rows of numbers under the words' labels, aligned: [[name, texts], ...] -> lines. */
function alignedRows(labels, rows) {
  const len = (t) => [...t].length;
  const pad = (t, w) => " ".repeat(Math.max(0, w - len(t))) + t;
  const first = Math.max(...rows.map(([name]) => len(name)));
  const widths = labels.map((l, j) => Math.max(len(l), ...rows.map(([, texts]) => len(texts[j]))));
  const line = (name, texts) => (name + " ".repeat(first - len(name)) + "  " + texts.map((t, j) => pad(t, widths[j])).join("  ")).trimEnd();
  return [line("", labels), ...rows.map(([name, texts]) => line(name, texts))];
}

/** A step as {title, lines, decimals}, of head h. */
function stepText(step, r, i, labels, decimals, projecting, h = 0) {
  const L = labels;
  const w = L[i];
  const a = r.heads[h];
  const many = r.heads.length > 1;
  const k = STEPS.indexOf(step.id) + 1;
  const head = `Step ${k} of ${STEPS.length}, ${step.id}${many ? ` (head ${h + 1})` : ""}: `;
  const plain = (title, lines) => ({ title, lines, decimals });
  const fs = formatter(a.scores, decimals);
  const finite = a.logits.map((row) => row.filter((x) => x !== -Infinity));
  const f = (x) => (x === -Infinity ? "−∞" : (a.scaled ? formatter(finite, decimals) : fs)(x));
  if (step.id === "score") {
    const what = projecting ? `${w}'s query against each word's key` : `${w}'s vector against each word's vector`;
    const cols = many ? ` on columns ${headColumns(r, h, "Q", projecting)}` : "";
    return plain(`${head}${what}${cols}, a dot product each.`, alignedRows(L, [["score", step.values.map(fs)]]));
  }
  const d = many ? "d_head" : "d_k";
  if (step.id === "scale") {
    if (!step.on) {
      return plain(`${head}off ("Divide the scores by √d_k" is not checked): the scores go on as they are.`, alignedRows(L, [["score", step.values.map(fs)]]));
    }
    const build = (p) => {
      const s = formatter(a.scores, p);
      const t = formatter(finite, p);
      const lines = alignedRows(L, [
        ["score", step.before.map(s)],
        ["scaled", step.values.map(t)],
      ]);
      const claims = step.values.map((x, q) => ({ line: 2, text: `${s(step.before[q])} ÷ √${step.dk} = ${t(x)}` }));
      return { lines, claims };
    };
    return { title: `${head}each score divided by √${d} = √${step.dk}.`, ...fitted(build, decimals) };
  }
  if (step.id === "mask") {
    if (!step.on) {
      return plain(`${head}off (no causal mask): ${w} sees every word, itself included.`, alignedRows(L, [["score", step.values.map(f)]]));
    }
    const hidden = step.values.filter((x) => x === -Infinity).length;
    const which =
      hidden === 0
        ? `no word comes after ${w}, so nothing is hidden`
        : hidden === 1
          ? `the word after ${w} gets −∞`
          : `the ${hidden} words after ${w} get −∞`;
    return plain(
      `${head}${which} (the causal mask).`,
      alignedRows(L, [
        ["before", step.before.map(f)],
        ["masked", step.values.map(f)],
      ]),
    );
  }
  if (step.id === "normalize") {
    const out = softmaxFitted(a, i, L, null, decimals, (text) => `Row ${w}: ${text}`);
    return {
      title: `${head}the softmax: e to the power of each ${scoreWord(a)}, each divided by their total, so the weights add up to 1.`,
      ...out,
    };
  }
  const V = many ? `head ${h + 1}'s V (columns ${headColumns(r, h, "V", projecting)} of V)` : projecting ? "V" : "V (= X)";
  const out = mixText(L, step.weights, a.V, step.values, decimals);
  return { title: `${head}the weights times the rows of ${V}, added up: ${w}'s output${many ? ` in head ${h + 1}` : ""}.`, ...out };
}

// --- try this -------------------------------------------------------------------------------

/** The first word whose name is `name` (trimmed), or -1. */
function find(words, name) {
  return words.findIndex((w) => w.trim() === name);
}

const sameRow = (a, b) => a.length === b.length && a.every((x, t) => x === b[t]);

/**
 * The "try this" tasks. Each check reads a state (state.js) and its result, and says whether the
 * reader has achieved it (in any head, when there are several).
 */
const TASKS = Object.freeze([
  {
    id: "bank-river",
    text: "Make “bank” attend to “river” more than to itself (start from the bank of river example and change a number of bank or of river).",
    done: "bank now gives river a larger weight than itself.",
    check(state, r) {
      const b = find(state.words, "bank");
      const v = find(state.words, "river");
      return b >= 0 && v >= 0 && r.heads.some((a) => a.weights[b][v] > a.weights[b][b]);
    },
  },
  {
    id: "causal-first",
    text: "Switch the causal mask on and look at the first word's row of weights: what may it attend to?",
    done: "Only to itself: the first word has no word before it, so its own weight is 1.",
    check(state, r) {
      return state.causal && state.words.length >= 2 && r.heads[0].weights[0][0] === 1;
    },
  },
  {
    id: "sharp",
    text: "Make a word that may look at two or more words put more than 99% of its weight on just one of them (hint: large numbers make large scores).",
    done: "Large scores make the softmax choose one word almost alone.",
    check(state, r) {
      return r.heads.some((a) =>
        a.weights.some((row, i) => {
          const open = a.mask ? a.mask[i].filter(Boolean).length : row.length;
          return open >= 2 && Math.max(...row) > 0.99;
        }),
      );
    },
  },
  {
    id: "twins",
    text: "Write a sentence with a word twice, as in “the cat sat on the mat”, give both the same numbers, and compare their outputs (without the causal mask).",
    done: "Same vector, same output: attention alone cannot tell where a word stands.",
    check(state) {
      if (state.causal) return false;
      const names = state.words.map((w) => w.trim());
      return names.some((a, i) => names.some((b, j) => j > i && a === b && sameRow(state.X[i], state.X[j])));
    },
  },
]);

/** The ids of the tasks a state and its result achieve. */
function tasksAchieved(state, r) {
  return TASKS.filter((t) => t.check(state, r)).map((t) => t.id);
}
return Object.freeze({ __proto__: null, headOfColumn, explainScore, explainScaled, explainWeight, explainOutput, explainCell, usedCells, columnName, headColumns, dotLine, columnLine, mixText, explanationText, rowSteps, alignedRows, stepText, tasksAchieved, STEPS, TASKS });
  })())(bundleFetch, new URL("explain.js", base).href);
  // ---- state.js ----------------------------------------------------------------------------------
  __bundle_modules[5] = ((fetch, __bundle_import_meta_url) => (() => {
// The playground's state: what the reader may type, and the state as a link. No DOM here.
//
// A state is {words, X, scale, causal, projections, W_Q, W_K, W_V, heads, decimals, selected}:
//   words        1 to 16 names, each one word (1 to 24 characters in NFC, no spaces, no control,
//                invisible, unassigned or private-use characters, not starting with a combining
//                mark, none of | ` < > * [ ] \): a worked example's token rules
//                (selfattn_ref/examples/rules.py, which generated/playground/limits.js states). Unlike
//                a spec's tokens, a word may come back ("the cat sat on the mat"): words are told
//                apart by position, see wordLabels()
//   X            one vector per word, 1 to 16 numbers each, all the same length
//   projections  "none" (softmax(X·Xᵀ)·X), "identity", "learned" (the learned example's
//                matrices, which need as many dimensions as that example has) or "custom"
//                (W_Q, W_K, W_V: matrices the reader edits, one row per dimension; W_Q and W_K
//                have d_k columns, W_V d_v, each from 1 to 16)
//   heads        1 to 4, dividing d_k and d_v: the heads of multi-head attention (attention.js)
//   decimals     0 to 10; selected: the word whose step 3 is written out
//
// In a link the state is the hash (or the query string: the pages link with ?preset=... since
// MkDocs checks every #anchor of a link between pages):
//   #preset=<slug>   a worked example as it is (with &word=<1..n> for the word whose step 3 is
//                    written out and &decimals=<0..10>, when they are not the example's own)
//   #s=<base64url>   the whole state, as UTF-8 JSON ("heads" only when it is not 1)
// decodeLink() reads either and says, in a sentence, why a link cannot be used.

// The limits of a worked example, written by `make update` from selfattn_ref/examples/rules.py.
const { MARKS, SPEC_LIMITS, TOKEN_FORBIDDEN, TOKEN_REFUSED } = __bundle_modules[2];
const { headsProblem } = __bundle_modules[0];

const LIMITS = Object.freeze({
  words: SPEC_LIMITS.words,
  dims: SPEC_LIMITS.dims,
  columns: SPEC_LIMITS.dims, // of W_Q, W_K (d_k) and of W_V (d_v), as a spec's (rules.py)
  heads: SPEC_LIMITS.heads,
  nameLength: SPEC_LIMITS.tokenLength,
  magnitude: SPEC_LIMITS.magnitude, // every score stays a finite float (16 · (16 · 1e6 · 1e6)² < 1.8e308)
  decimals: SPEC_LIMITS.decimals,
  linkLength: 20000,
});

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const MAGNITUDE = "1,000,000";

/**
 * What a typed number means: {value} or {error}. Accepts 2, -0.5, .5, 1e-3 and the minus sign
 * the site prints (−). The message never repeats what was typed.
 */
function parseNumber(text) {
  const t = String(text).trim().replace(/^\u2212/, "-");
  if (t === "") return { error: "Empty: type a number, such as 0.5 or -2." };
  if (!NUMBER.test(t)) return { error: "Not a number: use digits, a point and a minus sign, such as 0.5 or -2." };
  const value = Number(t);
  if (!Number.isFinite(value) || Math.abs(value) > LIMITS.magnitude) {
    return { error: `Too large: use a number between -${MAGNITUDE} and ${MAGNITUDE}.` };
  }
  return { value: value === 0 ? 0 : value }; // no -0
}

/** Code point ranges as limits.js writes them (hexadecimal gap, length less one, ...): [starts, ends]. */
function decodeRanges(text) {
  const n = text.split(",").map((x) => parseInt(x, 16));
  const starts = [];
  const ends = [];
  for (let i = 0, end = 0; i < n.length; i += 2) {
    starts.push(end + n[i]);
    end += n[i] + n[i + 1];
    ends.push(end);
  }
  return [starts, ends];
}

function inRanges([starts, ends], code) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code < starts[mid]) hi = mid - 1;
    else if (code > ends[mid]) lo = mid + 1;
    else return true;
  }
  return false;
}

// What rules.py refuses, from Python's Unicode (not the browser's, which assigns more code points).
const REFUSED = decodeRanges(TOKEN_REFUSED);
const COMBINING = decodeRanges(MARKS);

/**
 * Why a word's name cannot be used (null if it can): a worked example's token rule (rules.py),
 * on the name in NFC. Two words may have the same name.
 */
function nameError(name) {
  const raw = String(name);
  if (raw.trim() === "") return "Empty: give the word a name.";
  const t = raw.normalize("NFC");
  const length = [...t].length;
  if (length > LIMITS.nameLength) {
    return `Too long: a name has at most ${LIMITS.nameLength} characters, this one has ${length.toLocaleString("en")}.`;
  }
  // The name as typed too: a code point that Python's Unicode has not assigned stays so in NFC there.
  const refused = [...raw, ...t].find((c) => inRanges(REFUSED, c.codePointAt(0)) && !TOKEN_FORBIDDEN.includes(c));
  if (refused !== undefined) {
    if (/[\p{Z}\p{Cc}]/u.test(refused)) return "A name is one word: no spaces or control characters.";
    const code = refused.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
    return `A name may not hold U+${code}: it shows as nothing, or Unicode keeps it unassigned or for private use.`;
  }
  if (inRanges(COMBINING, t.codePointAt(0))) return "A name may not start with a combining mark (an accent with no letter before it).";
  const forbidden = [...t].find((c) => TOKEN_FORBIDDEN.includes(c));
  if (forbidden !== undefined) return `A name may not hold any of ${[...TOKEN_FORBIDDEN].join(" ")}.`;
  return null;
}

const SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉";

/**
 * The labels the tables show: each name as typed (trimmed), and a name that comes more than once
 * followed by its position as a subscript, counted from 1: "the cat sat on the mat" is labelled
 * the₁, cat, sat, on, the₅, mat.
 */
function wordLabels(names) {
  const trimmed = names.map((n) => String(n).trim());
  const count = new Map();
  for (const t of trimmed) count.set(t, (count.get(t) ?? 0) + 1);
  return trimmed.map((t, i) =>
    count.get(t) > 1 ? t + String(i + 1).replace(/\d/g, (c) => SUBSCRIPTS[+c]) : t,
  );
}

// --- links ------------------------------------------------------------------------------------

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError("the state is not base64url text");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let binary;
  try {
    binary = atob(b64);
  } catch {
    throw new LinkError("the state is not base64url text");
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError("the state is not UTF-8 text");
  }
}

/** A link that cannot be used; the message says why, in words a reader can act on. */
class LinkError extends Error {}

function presetBySlug(presets, slug) {
  return presets.presets.find((p) => p.slug === slug);
}

/** The state of a worked example, as the presets file has it. */
function stateFromPreset(presets, slug) {
  const p = presetBySlug(presets, slug);
  if (!p) throw new LinkError(`there is no example named "${String(slug).slice(0, 60)}"`);
  const copy = (M) => M.map((row) => row.slice());
  const state = {
    words: p.tokens.slice(),
    X: copy(p.embeddings),
    scale: p.scale,
    causal: p.causal,
    projections: p.projections,
    W_Q: null,
    W_K: null,
    W_V: null,
    heads: p.heads ?? 1,
    decimals: p.decimals,
    selected: 0,
  };
  if (p.projections === "matrices") {
    if (slug === presets.learned) {
      state.projections = "learned";
    } else {
      state.projections = "custom";
      state.W_Q = copy(p.W_Q);
      state.W_K = copy(p.W_K);
      state.W_V = copy(p.W_V);
    }
  }
  return state;
}

/** The matrices the state projects with: {projections, W_Q, W_K, W_V} as attention() takes them. */
function projectionsOf(state, presets) {
  if (state.projections === "learned") {
    const p = presetBySlug(presets, presets.learned);
    return { projections: "matrices", W_Q: p.W_Q, W_K: p.W_K, W_V: p.W_V };
  }
  if (state.projections === "custom") {
    return { projections: "matrices", W_Q: state.W_Q, W_K: state.W_K, W_V: state.W_V };
  }
  return { projections: state.projections };
}

/** The number of dimensions the learned weights need. */
function learnedDims(presets) {
  return presetBySlug(presets, presets.learned).W_Q.length;
}

/**
 * Whether two states hold the same example: the same words, numbers and settings. The decimals
 * shown and the word written out may differ (they change no number).
 */
function sameExample(a, b) {
  const strip = (s) => ({ ...canonical(s), decimals: null, selected: null });
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

function canonical(s) {
  const custom = s.projections === "custom";
  return {
    words: s.words,
    X: s.X,
    scale: s.scale,
    causal: s.causal,
    projections: s.projections,
    W_Q: custom ? s.W_Q : null,
    W_K: custom ? s.W_K : null,
    W_V: custom ? s.W_V : null,
    heads: s.heads ?? 1,
    decimals: s.decimals,
    selected: s.selected,
  };
}

/** The hash for a state: "preset=<slug>" when it is a worked example as it is, else "s=...". */
function encodeLink(state, presets) {
  for (const p of presets.presets) {
    const example = stateFromPreset(presets, p.slug);
    if (!sameExample(state, example)) continue;
    let link = `preset=${p.slug}`;
    if (state.selected) link += `&word=${state.selected + 1}`;
    if (state.decimals !== example.decimals) link += `&decimals=${state.decimals}`;
    return link;
  }
  const c = canonical(state);
  const out = { v: 1, words: c.words, X: c.X, scale: c.scale, causal: c.causal, projections: c.projections };
  if (state.projections === "custom") Object.assign(out, { W_Q: c.W_Q, W_K: c.W_K, W_V: c.W_V });
  if (c.heads !== 1) out.heads = c.heads;
  out.decimals = c.decimals;
  if (c.selected) out.selected = c.selected;
  return `s=${toBase64Url(JSON.stringify(out))}`;
}

const isPlainObject = (o) => o !== null && typeof o === "object" && !Array.isArray(o);

function checkNumbers(M, name, rows, cols) {
  if (!Array.isArray(M) || M.length !== rows) {
    throw new LinkError(`${name} must have ${rows} rows`);
  }
  M.forEach((row, i) => {
    if (!Array.isArray(row)) throw new LinkError(`row ${i + 1} of ${name} is not a list of numbers`);
    if (row.length !== cols) {
      throw new LinkError(`row ${i + 1} of ${name} has ${row.length} numbers where row 1 has ${cols} (a ragged table)`);
    }
    for (const x of row) {
      if (typeof x !== "number" || !Number.isFinite(x) || Math.abs(x) > LIMITS.magnitude) {
        throw new LinkError(`${name} holds an entry that is not a number between -${MAGNITUDE} and ${MAGNITUDE}`);
      }
    }
  });
  return M.map((row) => row.map((x) => (x === 0 ? 0 : x)));
}

/** A full state from the JSON of an "s=" link; throws LinkError saying what is wrong. */
function validateState(obj, presets) {
  if (!isPlainObject(obj)) throw new LinkError("the state is not a JSON object");
  if (obj.v !== 1) throw new LinkError("the state has an unknown version");
  const known = new Set(["v", "words", "X", "scale", "causal", "projections", "W_Q", "W_K", "W_V", "heads", "decimals", "selected"]);
  const unknown = Object.keys(obj).find((k) => !known.has(k));
  if (unknown !== undefined) throw new LinkError("the state holds a key the playground does not know");
  const { words } = obj;
  if (!Array.isArray(words) || words.length < 1 || words.length > LIMITS.words) {
    const got = Array.isArray(words) ? ` (it has ${words.length})` : "";
    throw new LinkError(`a sentence has 1 to ${LIMITS.words} words${got}`);
  }
  words.forEach((w, i) => {
    if (typeof w !== "string") throw new LinkError(`word ${i + 1} is not text`);
    const problem = nameError(w);
    if (problem) throw new LinkError(`word ${i + 1}: ${problem.charAt(0).toLowerCase()}${problem.slice(1).replace(/\.$/, "")}`);
  });
  if (!Array.isArray(obj.X) || obj.X.length !== words.length) {
    throw new LinkError("there must be one vector per word");
  }
  const d = Array.isArray(obj.X[0]) ? obj.X[0].length : 0;
  if (d < 1 || d > LIMITS.dims) throw new LinkError(`a vector has 1 to ${LIMITS.dims} numbers`);
  const X = checkNumbers(obj.X, "the vectors", words.length, d);
  for (const key of ["scale", "causal"]) {
    if (typeof obj[key] !== "boolean") throw new LinkError(`"${key}" must be true or false`);
  }
  const projections = obj.projections;
  if (!["none", "identity", "learned", "custom"].includes(projections)) {
    throw new LinkError("the projections must be none, identity, learned or custom");
  }
  let W_Q = null;
  let W_K = null;
  let W_V = null;
  if (projections === "custom") {
    // d rows each; W_Q and W_K the same number of columns (d_k), W_V its own (d_v).
    const width = (k) => {
      const first = Array.isArray(obj[k]) && Array.isArray(obj[k][0]) ? obj[k][0].length : 0;
      if (first < 1 || first > LIMITS.columns) throw new LinkError(`${k} must have 1 to ${LIMITS.columns} columns`);
      return first;
    };
    [W_Q, W_K, W_V] = ["W_Q", "W_K", "W_V"].map((k) => checkNumbers(obj[k], k, d, width(k)));
    if (W_Q[0].length !== W_K[0].length) {
      throw new LinkError(`W_Q and W_K must have the same number of columns, got ${W_Q[0].length} and ${W_K[0].length}`);
    }
  } else if (["W_Q", "W_K", "W_V"].some((k) => k in obj)) {
    throw new LinkError("matrices are given but the projections are not custom");
  }
  if (projections === "learned" && d !== learnedDims(presets)) {
    throw new LinkError(`the learned weights need vectors of ${learnedDims(presets)} numbers`);
  }
  const heads = obj.heads ?? 1;
  if (!Number.isInteger(heads) || heads < 1 || heads > LIMITS.heads) {
    throw new LinkError(`"heads" must be a whole number from 1 to ${LIMITS.heads}`);
  }
  const dk = projections === "custom" ? W_Q[0].length : d;
  const dv = projections === "custom" ? W_V[0].length : d;
  const problem = headsProblem(heads, dk, dv);
  if (problem) throw new LinkError(problem);
  const decimals = obj.decimals;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > LIMITS.decimals) {
    throw new LinkError(`"decimals" must be a whole number from 0 to ${LIMITS.decimals}`);
  }
  const selected = obj.selected ?? 0;
  if (!Number.isInteger(selected) || selected < 0 || selected >= words.length) {
    throw new LinkError("the selected word is not one of the words");
  }
  return { words: words.slice(), X, scale: obj.scale, causal: obj.causal, projections, W_Q, W_K, W_V, heads, decimals, selected };
}

/** A whole number from a link's text, or null. */
function wholeNumber(text) {
  return /^\d{1,3}$/.test(text) ? Number(text) : null;
}

function presetWithOptions(presets, params) {
  const state = stateFromPreset(presets, params.get("preset"));
  if (params.has("word")) {
    const word = wholeNumber(params.get("word"));
    if (word === null || word < 1 || word > state.words.length) {
      throw new LinkError(`"word" must be a whole number from 1 to ${state.words.length}`);
    }
    state.selected = word - 1;
  }
  if (params.has("decimals")) {
    const decimals = wholeNumber(params.get("decimals"));
    if (decimals === null || decimals > LIMITS.decimals) {
      throw new LinkError(`"decimals" must be a whole number from 0 to ${LIMITS.decimals}`);
    }
    state.decimals = decimals;
  }
  return state;
}

/**
 * The state a link asks for: {state, error}. `hash` and `search` as location has them
 * ("#s=..." / "?preset=..."); the hash wins. state is null when the link names no state;
 * error (a sentence) when it names one that cannot be used.
 */
function decodeLink(hash, search, presets) {
  for (const part of [hash, search]) {
    const text = String(part || "").replace(/^[#?]/, "");
    if (text === "") continue;
    if (text.length > LIMITS.linkLength) return { state: null, error: "the link is too long" };
    const params = new URLSearchParams(text);
    const keys = [...params.keys()];
    const ours = keys.filter((k) => k === "s" || k === "preset");
    if (ours.length === 0) {
      if (part === hash) return { state: null, error: "the link's #part names no playground state" };
      continue; // another query string: not ours
    }
    if (ours.length > 1) return { state: null, error: "the link names more than one state" };
    // The #part is the playground's alone; a query string may carry others' keys too (Material's
    // search adds ?h=<the words searched for>), which are left alone.
    const extra = ours[0] === "preset" ? ["word", "decimals"] : [];
    const mine = part === hash ? keys : keys.filter((k) => k === ours[0] || extra.includes(k));
    if (mine.some((k) => k !== ours[0] && !extra.includes(k)) || new Set(mine).size !== mine.length) {
      return { state: null, error: "the link holds a part the playground does not know" };
    }
    try {
      if (ours[0] === "preset") return { state: presetWithOptions(presets, params), error: null };
      let obj;
      const json = fromBase64Url(params.get("s"));
      try {
        obj = JSON.parse(json);
      } catch {
        throw new LinkError("the state is not valid JSON");
      }
      return { state: validateState(obj, presets), error: null };
    } catch (e) {
      if (e instanceof LinkError) return { state: null, error: e.message };
      throw e;
    }
  }
  return { state: null, error: null };
}
return Object.freeze({ __proto__: null, parseNumber, nameError, wordLabels, LinkError, stateFromPreset, projectionsOf, learnedDims, sameExample, encodeLink, validateState, decodeLink, LIMITS });
  })())(bundleFetch, new URL("state.js", base).href);
  // ---- app.js ------------------------------------------------------------------------------------
  __bundle_modules[6] = ((fetch, __bundle_import_meta_url) => (() => {
// The playground page (docs/playground.md): an editor for words, vectors and projections, and
// every step of self-attention recomputed on each keystroke.
//
// The math is attention.js, the formatting format.js and the state (what may be typed, links)
// state.js; this module only draws. The page is built with createElement and textContent: no
// text a reader typed, and nothing from a link, ever goes through innerHTML.
//
// The presets are the worked examples as selfattn_ref defines them, from
// generated/playground/presets.json (written by `make update`).
//
// Material's instant navigation swaps page content without reloading modules: this module runs
// once, and mounts the playground whenever Material's document$ shows a page that has
// #playground (and unmounts it when the page goes).

const { attention, headsProblem, identity } = __bundle_modules[0];
const { STEPS, TASKS, columnName, explainCell, explanationText, headColumns, mixText, rowSteps, stepText, tasksAchieved, usedCells } = __bundle_modules[4];
const { cell, isIntegral, matrixCells, num } = __bundle_modules[3];
const { LIMITS, decodeLink, encodeLink, learnedDims, nameError, parseNumber, projectionsOf, sameExample, stateFromPreset, wordLabels } = __bundle_modules[5];

const PRESETS_URL = new URL("../../generated/playground/presets.json", __bundle_import_meta_url);
const GENERATED_HEADER = /^<!--[^\n]*-->\s*/; // tolerated: older generated files began with a comment line
const URL_DELAY = 300; // ms after the last change before the address bar follows
const W_NAMES = ["W_Q", "W_K", "W_V"];

let presetsPromise = null;
let carriedNotice = null; // {text, href}: see applyLink()

/** The presets file, fetched once per page load. */
function loadPresets() {
  presetsPromise ??= fetch(PRESETS_URL)
    .then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status} for ${PRESETS_URL}`);
      return r.text();
    })
    .then((text) => JSON.parse(text.replace(GENERATED_HEADER, "")))
    .catch((e) => {
      presetsPromise = null; // try again on the next visit
      throw e;
    });
  return presetsPromise;
}

// --- small DOM helpers ------------------------------------------------------------------------

/** An element with attributes (set with setAttribute, or as properties for a few) and children. */
function h(tag, attrs = {}, ...children) {
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

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** "1, 2 or 4" (heads). */
function orList(items) {
  return items.length === 1 ? String(items[0]) : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** A grid of fields that nobody typed in yet: each shows its value (fieldText). */
function untyped(M) {
  return M.map((row) => row.map(() => null));
}

/**
 * What a number field shows for a value it was given rather than typed: the value as it is when it
 * has at most `decimals` decimals ("0.5", "-2"), else rounded to them as the tables round it (the
 * learned weights: "0.152", not "0.15235477536311405"). The playground computes with the value.
 */
function fieldText(x, decimals) {
  return Number(num(x, decimals)) === x ? String(x) : num(x, decimals);
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
function heatColours(weight, scheme) {
  const { cold, hot } = HEAT[scheme] ?? HEAT.default;
  const t = Math.min(1, Math.max(0, weight));
  const rgb = cold.map((c, i) => Math.round(c + (hot[i] - c) * t));
  const L = luminance(rgb);
  const onBlack = (L + 0.05) / 0.05;
  const onWhite = 1.05 / (L + 0.05);
  return { background: `rgb(${rgb.join(", ")})`, color: onBlack >= onWhite ? "#000" : "#fff" };
}

function currentScheme() {
  return document.body.getAttribute("data-md-color-scheme") === "slate" ? "slate" : "default";
}

// --- a table of results -----------------------------------------------------------------------

/** A matrix shown as a table, updated in place: only cells whose text changed are touched. */
class MatrixView {
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

// --- the playground ---------------------------------------------------------------------------

class Playground {
  constructor(root, presets) {
    this.root = root;
    this.presets = presets;
    this.cleanups = [];
    this.urlTimer = 0;
    this.last = null; // the last result that could be computed
    this.errors = new Map(); // field key -> message
    this.build();
    this.applyLink(true);
    const onHash = () => this.applyLink(false);
    window.addEventListener("hashchange", onHash);
    this.cleanups.push(() => window.removeEventListener("hashchange", onHash));
    // The address follows the edits a moment later; leaving the page (a reload, or a link that
    // Material's instant navigation follows) writes it at once, so that Back returns to it.
    const flush = () => {
      if (this.urlTimer) this.writeUrl();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("click", flush, true);
    this.cleanups.push(() => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("click", flush, true);
    });
    const observer = new MutationObserver(() => this.repaint());
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    this.cleanups.push(() => observer.disconnect());
    // A box that scrolls sideways shows it as the site's wide tables do (extra.css: a shadow at
    // each edge that has more to show, on an element marked data-scrollable). scrollable.js marks
    // the pages' tables when a page is shown, before the playground has drawn its own: these are
    // marked here, whenever a box or what it holds changes size.
    this.scrollObserver = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const box = entry.target.closest(".pg-scroll");
        if (box) box.toggleAttribute("data-scrollable", box.scrollWidth > box.clientWidth + 1);
      }
    });
    this.observed = new WeakSet();
    this.watchScrolling();
    this.cleanups.push(() => this.scrollObserver.disconnect());
  }

  /** Every box that may scroll sideways, and what it holds, observed (once each). */
  watchScrolling() {
    if (!this.scrollObserver) return; // not yet: the constructor observes every box once it is made
    for (const box of this.root.querySelectorAll(".pg-scroll")) {
      for (const el of [box, box.firstElementChild]) {
        if (el && !this.observed.has(el)) {
          this.observed.add(el);
          this.scrollObserver.observe(el);
        }
      }
    }
  }

  destroy() {
    this.writeUrl();
    for (const fn of this.cleanups) fn();
    this.cleanups = [];
  }

  // ---- the static frame ----------------------------------------------------------------------

  build() {
    const presetOptions = this.presets.presets.map((p) => h("option", { value: p.slug, text: p.title }));
    this.presetSelect = h(
      "select",
      { id: "pg-preset" },
      ...presetOptions,
      h("option", { value: "", text: "Your own", disabled: true }),
    );
    this.projSelect = h(
      "select",
      { id: "pg-projections", "aria-describedby": "pg-projections-help pg-projections-message" },
      h("option", { value: "none", text: "None: softmax(X·Xᵀ)·X" }),
      h("option", { value: "identity", text: "Identity: Q = K = V = X·I" }),
      h("option", { value: "learned", text: "Learned weights: seeded random stand-ins" }),
      h("option", { value: "custom", text: "Your own matrices" }),
    );
    this.projHelp = h("span", { id: "pg-projections-help", class: "pg-help" });
    this.projMessage = h("p", { id: "pg-projections-message", class: "pg-message", role: "alert" });
    this.headsSelect = h(
      "select",
      { id: "pg-heads", "aria-describedby": "pg-heads-help pg-heads-message" },
      ...Array.from({ length: LIMITS.heads }, (_, k) => h("option", { value: String(k + 1), text: String(k + 1) })),
    );
    this.headsHelp = h("span", { id: "pg-heads-help", class: "pg-help" });
    this.headsMessage = h("p", { id: "pg-heads-message", class: "pg-message", role: "alert" });
    this.scaleBox = h("input", { type: "checkbox", id: "pg-scale" });
    this.causalBox = h("input", { type: "checkbox", id: "pg-causal" });
    this.decimalsSelect = h(
      "select",
      { id: "pg-decimals" },
      ...Array.from({ length: LIMITS.decimals + 1 }, (_, i) => h("option", { value: String(i), text: String(i) })),
    );
    this.copyButton = h("button", { type: "button", class: "pg-button", id: "pg-copy", text: "Copy a link to this" });
    this.copyStatus = h("span", { class: "pg-help", role: "status", id: "pg-copy-status" });
    this.resetButton = h("button", {
      type: "button",
      class: "pg-button",
      id: "pg-reset",
      text: "Reset",
      "aria-describedby": "pg-reset-help",
    });
    this.resetHelp = h("span", { class: "pg-sr", id: "pg-reset-help" });
    this.notice = h("div", { class: "pg-notice", id: "pg-notice", role: "alert" });

    const field = (label, control, ...rest) => h("div", { class: "pg-field" }, label, control, ...rest);
    const controls = h(
      "div",
      { class: "pg-controls", role: "group", "aria-label": "Example and settings" },
      field(h("label", { for: "pg-preset", text: "Example" }), this.presetSelect),
      field(h("label", { for: "pg-projections", text: "Projections" }), this.projSelect, this.projHelp),
      field(h("label", { for: "pg-heads", text: "Heads" }), this.headsSelect, this.headsHelp),
      h(
        "div",
        { class: "pg-field pg-checks" },
        h(
          "label",
          { class: "pg-check" },
          this.scaleBox,
          h("span", {}, "Divide the scores by √d_k", (this.scaleHeads = h("span", {}))),
        ),
        h("label", { class: "pg-check" }, this.causalBox, " Causal mask: each word sees only itself and the words before it"),
      ),
      field(h("label", { for: "pg-decimals", text: "Decimals shown" }), this.decimalsSelect),
      h("div", { class: "pg-field pg-share" }, this.resetButton, this.resetHelp, this.copyButton, this.copyStatus),
    );

    // The words and their vectors.
    this.wordsTable = h("table", { class: "pg-table pg-input", id: "pg-words" });
    // Each list sits in an alert region (a list with role=alert would no longer be a list).
    this.wordsErrors = h("ul", { class: "pg-errors", id: "pg-words-errors" });
    this.structureMessage = h("p", { class: "pg-message", id: "pg-structure-message", role: "alert" });
    this.addWordButton = h("button", { type: "button", class: "pg-button", id: "pg-add-word", text: "Add a word" });
    this.addDimButton = h("button", { type: "button", class: "pg-button", id: "pg-add-dim", text: "Add a dimension" });
    this.removeDimButton = h("button", {
      type: "button",
      class: "pg-button",
      id: "pg-remove-dim",
      text: "Remove the last dimension",
    });
    const words = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-words-heading" },
      h("h2", { id: "pg-words-heading", text: "Words and their vectors" }),
      h("p", {
        class: "pg-help",
        text:
          "One row per word. Type any number (negative, decimal); the arrow keys and Enter move between " +
          `cells. From 1 to ${LIMITS.words} words and 1 to ${LIMITS.dims} dimensions.`,
      }),
      h("div", { class: "pg-scroll pg-scroll--input" }, this.wordsTable),
      h("div", { role: "alert" }, this.wordsErrors),
      h("div", { class: "pg-buttons" }, this.addWordButton, this.addDimButton, this.removeDimButton),
      this.structureMessage,
    );

    // "Try this": small tasks beside the editor, each ticked when the reader achieves it.
    this.taskItems = new Map();
    const taskList = h(
      "ul",
      { class: "pg-tasks", id: "pg-tasks" },
      ...TASKS.map((t) => {
        const state = h("strong", { class: "pg-task-state", text: "Not yet" });
        const note = h("span", { class: "pg-task-note" });
        const li = h(
          "li",
          { id: `pg-task-${t.id}`, "data-done": "false" },
          h("span", { class: "pg-task-mark", "aria-hidden": "true" }),
          h("span", { class: "pg-task-body" }, h("span", { text: t.text }), " ", state, " ", note),
        );
        this.taskItems.set(t.id, { li, state, note, task: t });
        return li;
      }),
    );
    this.tasksDone = new Set();
    const tasks = h(
      "aside",
      { class: "pg-section pg-try", "aria-labelledby": "pg-try-heading" },
      h("h2", { id: "pg-try-heading", text: "Try this" }),
      taskList,
    );

    // The reader's own matrices, and the learned ones (read only).
    this.matrixErrors = h("ul", { class: "pg-errors", id: "pg-matrices-errors" });
    this.matricesBox = h("div", { class: "pg-matrices" });
    const widthSelect = (id) =>
      h("select", { id }, ...Array.from({ length: LIMITS.columns }, (_, k) => h("option", { value: String(k + 1), text: String(k + 1) })));
    this.dkSelect = widthSelect("pg-dk");
    this.dvSelect = widthSelect("pg-dv");
    this.roundedNote = h("p", { class: "pg-help", id: "pg-rounded-note" });
    this.customSection = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-custom-heading", hidden: true },
      h("h2", { id: "pg-custom-heading", text: "Your projection matrices" }),
      h("p", {
        class: "pg-help",
        text:
          "Q = X·W_Q, K = X·W_K and V = X·W_V: one row per dimension of the vectors, one column per dimension of " +
          "Q and K (d_k, the same for both) and of V (d_v).",
      }),
      h(
        "div",
        { class: "pg-buttons" },
        h("div", { class: "pg-field" }, h("label", { for: "pg-dk", text: "Columns of W_Q and W_K (d_k)" }), this.dkSelect),
        h("div", { class: "pg-field" }, h("label", { for: "pg-dv", text: "Columns of W_V (d_v)" }), this.dvSelect),
      ),
      this.roundedNote,
      this.matricesBox,
      h("div", { role: "alert" }, this.matrixErrors),
    );
    this.learnedViews = W_NAMES.map((name) => new MatrixView({ id: `pg-learned-${name}`, caption: name, corner: "" }));
    this.learnedNote = h("p", { class: "pg-help" });
    this.learnedSection = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-learned-heading", hidden: true },
      h("h2", { id: "pg-learned-heading", text: "The learned weights" }),
      this.learnedNote,
      h("div", { class: "pg-matrices" }, ...this.learnedViews.map((v) => v.wrap)),
    );

    // The results.
    this.stale = h("p", {
      class: "pg-stale",
      id: "pg-stale",
      role: "status",
    });
    this.views = {
      Q: new MatrixView({ id: "pg-Q", caption: "Q", corner: "Q" }),
      K: new MatrixView({ id: "pg-K", caption: "K", corner: "K" }),
      V: new MatrixView({ id: "pg-V", caption: "V", corner: "V" }),
      scores: new MatrixView({ id: "pg-scores", caption: "Scores", corner: "query ↓ key →", explain: "scores" }),
      scaled: new MatrixView({
        id: "pg-scaled",
        corner: "query ↓ key →",
        labelledBy: "pg-scaled-heading",
        explain: "scaled",
      }),
      weights: new MatrixView({
        id: "pg-weights",
        caption: "Weights",
        corner: "query ↓ key →",
        heat: true,
        explain: "weights",
      }),
      output: new MatrixView({ id: "pg-output", caption: "Outputs", corner: "output", explain: "output" }),
    };
    this.qkvSection = h(
      "details",
      { class: "pg-details" },
      h("summary", { text: "Q, K and V" }),
      h("div", { class: "pg-matrices" }, this.views.Q.wrap, this.views.K.wrap, this.views.V.wrap),
    );
    this.scoresFormula = h("p", { class: "pg-help" });
    this.scaledHeading = h("h3", { id: "pg-scaled-heading" });
    this.scaledFormula = h("p", { class: "pg-help" });
    this.scaledBox = h("div", {}, this.scaledHeading, this.scaledFormula, this.views.scaled.wrap);
    this.selectedSelect = h("select", { id: "pg-selected" });
    this.mixPre = h("pre", {
      class: "pg-mix pg-scroll",
      id: "pg-mix",
      tabindex: "0",
      role: "region",
      "aria-label": "Step 3 for the chosen word, written out",
    });
    this.mixCode = h("code", {});
    this.mixPre.append(this.mixCode);

    // How a number was made: shown under its table when the reader clicks or focuses it.
    this.explainTitle = h("p", { class: "pg-explain-title", id: "pg-explain-title" });
    this.explainCode = h("code", {});
    this.explainClose = h("button", { type: "button", class: "pg-button", id: "pg-explain-close", text: "Close" });
    this.explainBox = h(
      "div",
      { class: "pg-explain", id: "pg-explain", role: "region", "aria-labelledby": "pg-explain-title", hidden: true },
      this.explainTitle,
      h("pre", { class: "pg-scroll", tabindex: "0", "aria-label": "The arithmetic, one step a line" }, this.explainCode),
      this.explainClose,
    );
    this.explained = null; // {table, i, j} of the cell explained
    // What the reader asked for, read out by screen readers (explanations, steps, tasks done).
    this.live = h("div", { class: "pg-sr", id: "pg-live", role: "status", "aria-live": "polite" });

    // One word, step by step.
    this.stepWord = h("select", { id: "pg-step-word" });
    this.stepPrev = h("button", { type: "button", class: "pg-button", id: "pg-step-prev", text: "Previous step" });
    this.stepNext = h("button", { type: "button", class: "pg-button pg-button--primary", id: "pg-step-next", text: "Next step" });
    this.stepItems = STEPS.map((id) => h("li", { "data-step": id, text: id }));
    this.stepTitle = h("p", { class: "pg-step-title", id: "pg-step-title" });
    this.stepCode = h("code", {});
    this.stepBox = h(
      "div",
      { class: "pg-step", id: "pg-step", hidden: true },
      this.stepTitle,
      h("pre", { class: "pg-scroll", tabindex: "0", "aria-labelledby": "pg-step-title", role: "region" }, this.stepCode),
    );
    this.step = -1; // the step shown, -1 before the first
    const stepper = h(
      "div",
      { class: "pg-stepper", role: "group", "aria-labelledby": "pg-stepper-heading" },
      h("h3", { id: "pg-stepper-heading", text: "Follow one word through the steps" }),
      h(
        "div",
        { class: "pg-buttons" },
        h("div", { class: "pg-field" }, h("label", { for: "pg-step-word", text: "Word to follow" }), this.stepWord),
        this.stepPrev,
        this.stepNext,
      ),
      h("ol", { class: "pg-step-list", id: "pg-step-list", "aria-label": "The steps" }, ...this.stepItems),
      this.stepBox,
    );

    // The colour scale of the weights: the same colours as the cells, in either scheme.
    this.legendBar = h("span", { class: "pg-legend-bar", "aria-hidden": "true" });
    this.legend = h(
      "p",
      { class: "pg-legend", id: "pg-legend" },
      h("span", { text: "Colour scale: weight 0" }),
      this.legendBar,
      h("span", { text: "1" }),
    );
    // Several heads: which head's scores and weights the tables show.
    this.headSelect = h("select", { id: "pg-head", "aria-describedby": "pg-head-help" });
    this.headHelp = h("p", { class: "pg-help", id: "pg-head-help" });
    this.headBox = h(
      "div",
      { class: "pg-head", id: "pg-head-box", hidden: true },
      h("div", { class: "pg-field" }, h("label", { for: "pg-head", text: "Head shown" }), this.headSelect),
      this.headHelp,
    );
    this.shownHead = 0;
    this.outputHelp = h("p", { class: "pg-help", id: "pg-output-help" });
    const results = h(
      "section",
      { class: "pg-section pg-results", "aria-labelledby": "pg-results-heading" },
      h("h2", { id: "pg-results-heading", text: "Every step" }),
      this.stale,
      h("p", {
        class: "pg-help",
        text:
          "Click a number of the tables below, or move to it with Tab and the arrow keys, to see how it was made; " +
          "the numbers it was made from are outlined.",
      }),
      this.headBox,
      stepper,
      this.qkvSection,
      h("h3", { text: "Step 1: score every pair" }),
      this.scoresFormula,
      this.views.scores.wrap,
      this.scaledBox,
      h("h3", { text: "Step 2: normalize each row (softmax)" }),
      h("p", {
        class: "pg-help",
        text:
          "Each row adds up to 1. The nearer a cell's colour is to the 1 end of the colour scale under the table, " +
          "the more that word (row) attends to that word (column).",
      }),
      this.views.weights.wrap,
      this.legend,
      h("h3", { text: "Step 3: mix the values" }),
      this.outputHelp,
      this.views.output.wrap,
      (this.mixHeading = h("h3", { text: "Step 3 for one word, written out" })),
      h("div", { class: "pg-field" }, h("label", { for: "pg-selected", text: "Word" }), this.selectedSelect),
      this.mixPre,
    );

    this.root.replaceChildren(
      this.notice,
      controls,
      this.projMessage,
      this.headsMessage,
      h("div", { class: "pg-workbench" }, words, tasks),
      this.learnedSection,
      this.customSection,
      results,
      this.live,
    );
    this.notice.hidden = true;

    // Events, delegated to the root: one listener for every field of the grids.
    const on = (el, type, fn) => {
      el.addEventListener(type, fn);
    };
    on(this.root, "input", (e) => this.onInput(e));
    on(this.root, "keydown", (e) => this.onKeydown(e));
    on(this.presetSelect, "change", () => this.loadState(stateFromPreset(this.presets, this.presetSelect.value), true));
    on(this.projSelect, "change", () => this.onProjections());
    on(this.headsSelect, "change", () => this.onHeads());
    for (const select of [this.dkSelect, this.dvSelect]) {
      on(select, "change", () => {
        this.resizeCustom(this.m.x[0].length, { dk: Number(this.dkSelect.value), dv: Number(this.dvSelect.value) });
        this.rebuilt();
        select.focus();
      });
    }
    on(this.headSelect, "change", () => {
      this.shownHead = Number(this.headSelect.value);
      if (this.last) this.render();
    });
    on(this.scaleBox, "change", () => this.changed());
    on(this.causalBox, "change", () => this.changed());
    on(this.decimalsSelect, "change", () => this.changed());
    on(this.selectedSelect, "change", () => this.changed());
    on(this.addWordButton, "click", () => this.addWord());
    on(this.addDimButton, "click", () => this.addDim());
    on(this.removeDimButton, "click", () => this.removeDim());
    on(this.copyButton, "click", () => this.copyLink());
    on(this.resetButton, "click", () => this.reset());
    on(results, "focusin", (e) => this.onCellFocus(e));
    on(results, "click", (e) => this.onCellFocus(e)); // a number that has the focus already
    on(results, "keydown", (e) => this.onCellKeydown(e));
    on(this.explainClose, "click", () => this.closeExplanation(true));
    on(this.stepNext, "click", () => this.moveStep(1));
    on(this.stepPrev, "click", () => this.moveStep(-1));
    on(this.stepWord, "change", () => {
      if (this.step < 0) this.step = 0;
      this.renderStep(true);
    });
    on(this.qkvSection, "toggle", () => {
      if (this.qkvSection.open && this.last) this.render();
    });
  }

  // ---- state in, state out -------------------------------------------------------------------

  /** Read the link (on load and when the hash changes). */
  applyLink(first) {
    // A state is "#preset=..." or "#s=...": a #part without "=" is an anchor (the skip link, a
    // heading's permalink, or the anchor that Material's navigation.tracking carries over from
    // the page before during instant navigation), never an error to report.
    let hash = location.hash;
    if (!hash.includes("=")) {
      if (!first && hash.length > 1) this.writeUrl(); // once scrolled to it, the address holds the state again
      hash = "";
      if (!first) return;
    }
    const { state, error } = decodeLink(hash, first ? location.search : "", this.presets);
    if (error) {
      this.loadState(stateFromPreset(this.presets, this.presets.default), true);
      const text = `This link could not be opened: ${error}. The playground shows the ${this.defaultTitle()} example instead.`;
      this.showNotice(text);
      // The first change of the #part of a page that was loaded in full makes Material fetch
      // the page again and swap its content in (instant navigation): the playground that
      // replaces this one shows the notice too, as long as the address is the one written here.
      carriedNotice = { text, href: location.href };
      return;
    }
    if (first && carriedNotice?.href === location.href) {
      this.loadState(stateFromPreset(this.presets, this.presets.default), false);
      this.showNotice(carriedNotice.text);
      return;
    }
    carriedNotice = null;
    if (state) {
      this.hideNotice();
      this.loadState(state, false);
    } else if (first) {
      this.loadState(stateFromPreset(this.presets, this.presets.default), false);
    }
  }

  defaultTitle() {
    return this.presetTitle(this.presets.default);
  }

  presetTitle(slug) {
    return this.presets.presets.find((p) => p.slug === slug).title;
  }

  /** Back to the example last chosen (or opened by a link), as it was. */
  reset() {
    const slug = this.resetSlug;
    this.hideNotice();
    this.loadState(stateFromPreset(this.presets, slug), true);
    this.step = -1;
    this.renderStep(false);
    setText(this.copyStatus, "");
    this.announce(`Reset to the example “${this.presetTitle(slug)}”.`);
  }

  /** Read out by screen readers (a polite live region): only what the reader asked for. */
  announce(text) {
    // The same text twice is read twice only if the region changes in between.
    if (this.live.textContent === text) this.live.textContent = "";
    requestAnimationFrame(() => setText(this.live, text));
  }

  showNotice(text) {
    const dismiss = h("button", { type: "button", class: "pg-button", text: "Dismiss" });
    dismiss.addEventListener("click", () => this.hideNotice());
    this.notice.replaceChildren(h("p", { text }), dismiss);
    this.notice.hidden = false;
  }

  hideNotice() {
    carriedNotice = null;
    this.notice.hidden = true;
    this.notice.replaceChildren();
  }

  /** Show a whole state: every field is rebuilt. writeLink: the address bar follows now. */
  loadState(state, writeLink) {
    // x and w: the text the reader typed in each field, or null where the field shows its value
    // (from an example, a link or the learned weights: see fieldText); xv and wv: the values.
    this.m = {
      names: state.words.slice(),
      x: untyped(state.X),
      xv: state.X.map((row) => row.slice()),
      w: null,
      wv: null,
      scale: state.scale,
      causal: state.causal,
      projections: state.projections,
      heads: state.heads ?? 1,
      decimals: state.decimals,
      selected: state.selected,
    };
    this.shownHead = 0;
    if (state.projections === "custom") this.setCustom(state.W_Q, state.W_K, state.W_V);
    const example = this.presets.presets.find((p) => sameExample(state, stateFromPreset(this.presets, p.slug)));
    if (example) this.resetSlug = example.slug;
    this.resetSlug ??= this.presets.default;
    setText(this.resetHelp, `Back to the example “${this.presetTitle(this.resetSlug)}” as it was.`);
    this.closeExplanation(false);
    this.errors.clear();
    this.scaleBox.checked = state.scale;
    this.causalBox.checked = state.causal;
    this.projSelect.value = state.projections;
    this.headsSelect.value = String(this.m.heads);
    this.decimalsSelect.value = String(state.decimals);
    setText(this.projMessage, "");
    setText(this.headsMessage, "");
    setText(this.structureMessage, "");
    this.buildGrids();
    this.recompute();
    if (writeLink) this.writeUrl();
  }

  setCustom(W_Q, W_K, W_V) {
    const Ws = [W_Q, W_K, W_V];
    this.m.w = Object.fromEntries(W_NAMES.map((n, t) => [n, untyped(Ws[t])]));
    this.m.wv = Object.fromEntries(W_NAMES.map((n, t) => [n, Ws[t].map((row) => row.slice())]));
  }

  /** The state shown now, or null while a field holds something that is not allowed. */
  state() {
    if (this.errors.size > 0) return null;
    const custom = this.m.projections === "custom";
    return {
      words: this.m.names.slice(),
      X: this.m.xv.map((row) => row.slice()),
      scale: this.m.scale,
      causal: this.m.causal,
      projections: this.m.projections,
      W_Q: custom ? this.m.wv.W_Q.map((row) => row.slice()) : null,
      W_K: custom ? this.m.wv.W_K.map((row) => row.slice()) : null,
      W_V: custom ? this.m.wv.W_V.map((row) => row.slice()) : null,
      heads: this.m.heads,
      decimals: this.m.decimals,
      selected: this.m.selected,
    };
  }

  /** The widths of Q and K (d_k) and of V (d_v) that the projections give. */
  widths() {
    const d = this.m.x[0].length;
    if (this.m.projections === "custom") return { dk: this.m.wv.W_Q[0].length, dv: this.m.wv.W_V[0].length };
    return { dk: d, dv: d };
  }

  scheduleUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => this.writeUrl(), URL_DELAY);
  }

  writeUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = 0;
    const state = this.state();
    if (!state || !this.root.isConnected) return;
    const url = new URL(location.href);
    url.searchParams.delete("preset");
    url.searchParams.delete("s");
    url.hash = encodeLink(state, this.presets);
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  async copyLink() {
    this.writeUrl();
    if (!this.state()) {
      setText(this.copyStatus, "Fix the marked fields first: a link holds only a state that can be computed.");
      return;
    }
    try {
      await navigator.clipboard.writeText(location.href);
      setText(this.copyStatus, "Link copied.");
    } catch {
      setText(this.copyStatus, "Copy the address from the address bar: it holds everything shown here.");
    }
  }

  // ---- the editable grids --------------------------------------------------------------------

  /** A word's label in the tables: its name, with its position when the name comes twice. */
  rowLabel(i) {
    const name = this.m.names[i];
    return this.errors.has(`name-${i}`) || name.trim() === "" ? `word ${i + 1}` : wordLabels(this.m.names)[i];
  }

  /** A number field: `text` as typed, or null to show `value` (fieldText). */
  numberInput(key, text, value, label) {
    const shown = text ?? fieldText(value, this.m.decimals);
    const rounded = text === null && Number(shown) !== value;
    return h("input", {
      type: "text",
      id: `pg-${key}`,
      class: rounded ? "pg-number pg-rounded" : "pg-number",
      value: shown,
      title: rounded ? `Rounded to ${this.m.decimals} decimals; the playground computes with ${String(value)}` : null,
      "data-key": key,
      "aria-label": label,
      autocomplete: "off",
      spellcheck: "false",
      autocapitalize: "off",
      enterkeyhint: "next",
    });
  }

  buildGrids() {
    const { names, x } = this.m;
    const d = x[0].length;
    const n = names.length;
    const head = h("tr", {}, h("th", { scope: "col", text: "word" }));
    for (let k = 0; k < d; k++) head.append(h("th", { scope: "col", text: `x${k + 1}` }));
    head.append(h("th", { scope: "col", class: "pg-sr", text: "remove" }));
    const body = h("tbody");
    for (let i = 0; i < n; i++) {
      const tr = h("tr", { "data-row": i });
      tr.append(
        h(
          "td",
          {},
          h("input", {
            type: "text",
            id: `pg-name-${i}`,
            class: "pg-name",
            value: names[i],
            "data-key": `name-${i}`,
            "aria-label": `Name of word ${i + 1}`,
            autocomplete: "off",
            spellcheck: "false",
            enterkeyhint: "next",
          }),
        ),
      );
      for (let k = 0; k < d; k++) {
        tr.append(h("td", {}, this.numberInput(`x-${i}-${k}`, x[i][k], this.m.xv[i][k], `${this.rowLabel(i)}, x${k + 1}`)));
      }
      const remove = h("button", {
        type: "button",
        class: "pg-remove",
        "data-remove": i,
        "aria-label": `Remove ${this.rowLabel(i)}`,
        title: "Remove this word",
        text: "×",
      });
      remove.addEventListener("click", () => this.removeWord(i));
      tr.append(h("td", {}, remove));
      body.append(tr);
    }
    this.wordsTable.replaceChildren(
      h("caption", { class: "pg-sr", text: "Words and their vectors" }),
      h("thead", {}, head),
      body,
    );

    // The reader's matrices, when the projections are theirs.
    const custom = this.m.projections === "custom";
    this.customSection.hidden = !custom;
    if (custom) {
      const tables = W_NAMES.map((name) => {
        const W = this.m.w[name];
        const thead = h("tr", {}, h("th", { scope: "col", class: "pg-corner", text: name }));
        W[0].forEach((_, j) => thead.append(h("th", { scope: "col", text: `c${j + 1}` })));
        const tbody = h("tbody");
        W.forEach((row, i) => {
          const tr = h("tr", {}, h("th", { scope: "row", text: `x${i + 1}` }));
          row.forEach((v, j) => {
            const label = `${name}, row x${i + 1}, column c${j + 1}`;
            tr.append(h("td", {}, this.numberInput(`${name}-${i}-${j}`, v, this.m.wv[name][i][j], label)));
          });
          tbody.append(tr);
        });
        const table = h(
          "table",
          { class: "pg-table pg-input", id: `pg-${name}` },
          h("caption", { text: name }),
          h("thead", {}, thead),
          tbody,
        );
        return h("div", { class: "pg-scroll pg-scroll--input" }, table);
      });
      this.matricesBox.replaceChildren(...tables);
      const { dk, dv } = this.widths();
      this.dkSelect.value = String(dk);
      this.dvSelect.value = String(dv);
    } else {
      this.matricesBox.replaceChildren();
    }
    const rounded = this.root.querySelectorAll(".pg-rounded").length > 0;
    setText(
      this.roundedNote,
      rounded
        ? `Numbers with more digits than ${this.m.decimals} decimals (the learned weights, or a link's) are shown ` +
            "rounded to them, as the tables are; the playground computes with every digit until you type over one."
        : "",
    );
    this.roundedNote.hidden = !rounded;
    this.validateAll();
    this.watchScrolling();
    this.m.names.forEach((_, i) => this.relabelRow(i)); // labels follow the names' checks
    this.syncStructureButtons();
    this.syncSelected(true);
  }

  /** Every field checked again (after a rebuild). */
  validateAll() {
    this.errors.clear();
    // Only what the reader typed: a field that shows its value holds a number already.
    this.m.x.forEach((row, i) => row.forEach((t, k) => t !== null && this.checkNumber(`x-${i}-${k}`, t)));
    if (this.m.w && this.m.projections === "custom") {
      for (const name of W_NAMES) {
        this.m.w[name].forEach((row, i) => row.forEach((t, j) => t !== null && this.checkNumber(`${name}-${i}-${j}`, t)));
      }
    }
    this.checkNames();
    this.renderErrors();
  }

  checkNumber(key, text) {
    const [kind, i, k] = key.split("-");
    const parsed = parseNumber(text);
    const values = kind === "x" ? this.m.xv : this.m.wv?.[kind];
    if (values) values[+i][+k] = parsed.error ? NaN : parsed.value;
    this.setError(key, parsed.error ?? null);
  }

  checkNames() {
    const { names } = this.m;
    names.forEach((name, i) => {
      this.setError(`name-${i}`, nameError(name));
    });
  }

  setError(key, message) {
    const input = this.root.querySelector(`#pg-${CSS.escape(key)}`);
    if (message) {
      this.errors.set(key, message);
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", `pg-${key}-error`);
      }
    } else {
      this.errors.delete(key);
      if (input && input.hasAttribute("aria-invalid")) {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
  }

  fieldName(key) {
    const [kind, i, k] = key.split("-");
    if (kind === "name") return `Name of word ${+i + 1}`;
    if (kind === "x") return `${this.rowLabel(+i)}, x${+k + 1}`;
    return `${kind}, row x${+i + 1}, column c${+k + 1}`;
  }

  /** The messages under each grid, one per field that holds something not allowed. */
  renderErrors() {
    const lists = { words: [], matrices: [] };
    for (const [key, message] of this.errors) {
      const li = h(
        "li",
        { id: `pg-${key}-error` },
        h("button", { type: "button", class: "pg-goto", "data-goto": key, text: this.fieldName(key) }),
        `: ${message}`,
      );
      (key.startsWith("W_") ? lists.matrices : lists.words).push([key, li]);
    }
    const order = (a, b) => this.fieldOrder(a[0]) - this.fieldOrder(b[0]);
    for (const [list, items] of [
      [this.wordsErrors, lists.words],
      [this.matrixErrors, lists.matrices],
    ]) {
      items.sort(order);
      const signature = items.map(([k]) => `${k}:${this.errors.get(k)}:${this.fieldName(k)}`).join("|");
      if (list.dataset.signature === signature) continue;
      list.dataset.signature = signature;
      list.replaceChildren(...items.map(([, li]) => li));
    }
    const stale = this.errors.size > 0;
    setText(
      this.stale,
      stale && this.last
        ? "These results are for the last numbers that could be computed: fix the fields marked above to update them."
        : "",
    );
    this.stale.hidden = !stale;
  }

  fieldOrder(key) {
    const [kind, i, k] = key.split("-");
    const d = 32;
    const base = { name: 0, x: 0, W_Q: 1, W_K: 2, W_V: 3 }[kind] * d * d * 2;
    return base + +i * (d + 1) + (kind === "name" ? 0 : +k + 1);
  }

  syncStructureButtons() {
    const n = this.m.names.length;
    const d = this.m.x[0].length;
    const flag = (button, off) => button.setAttribute("aria-disabled", off ? "true" : "false");
    flag(this.addWordButton, n >= LIMITS.words);
    flag(this.addDimButton, d >= LIMITS.dims);
    flag(this.removeDimButton, d <= 1);
    for (const b of this.wordsTable.querySelectorAll(".pg-remove")) flag(b, n <= 1);
  }

  structureRefused(message, button) {
    setText(this.structureMessage, message);
    button.setAttribute("aria-describedby", "pg-structure-message");
  }

  structureDone() {
    setText(this.structureMessage, "");
    for (const b of this.root.querySelectorAll("[aria-describedby='pg-structure-message']")) b.removeAttribute("aria-describedby");
  }

  freshName() {
    for (let k = this.m.names.length + 1; ; k++) {
      const name = `word${k}`;
      if (!this.m.names.some((n) => n.trim() === name)) return name;
    }
  }

  addWord() {
    const n = this.m.names.length;
    if (n >= LIMITS.words) {
      this.structureRefused(`A sentence here has at most ${LIMITS.words} words: remove one before adding another.`, this.addWordButton);
      return;
    }
    const d = this.m.x[0].length;
    this.m.names.push(this.freshName());
    this.m.x.push(Array(d).fill(null));
    this.m.xv.push(Array(d).fill(0));
    this.structureDone();
    this.rebuilt();
    const input = this.root.querySelector(`#pg-name-${n}`);
    input.focus();
    input.select();
  }

  removeWord(i) {
    const n = this.m.names.length;
    const button = this.wordsTable.querySelector(`[data-remove="${i}"]`);
    if (n <= 1) {
      this.structureRefused("A sentence needs at least one word: this is the last one.", button);
      return;
    }
    this.m.names.splice(i, 1);
    this.m.x.splice(i, 1);
    this.m.xv.splice(i, 1);
    if (this.m.selected >= i && this.m.selected > 0) this.m.selected -= 1;
    this.structureDone();
    this.rebuilt();
    const next = this.wordsTable.querySelector(`[data-remove="${Math.min(i, n - 2)}"]`);
    (next ?? this.addWordButton).focus();
  }

  /**
   * The reader's matrices resized to d rows, W_Q and W_K to dk columns and W_V to dv (by default:
   * as many as before, or d for a square matrix, which stays square). New entries are those of the
   * identity matrix; the others keep their values.
   */
  resizeCustom(d, { dk, dv } = {}) {
    for (const name of W_NAMES) {
      const before = this.m.wv[name];
      const square = before[0].length === before.length;
      const cols = (name === "W_V" ? dv : dk) ?? (square ? d : before[0].length);
      for (const key of ["w", "wv"]) {
        const W = this.m[key][name];
        const entry = (i, j) => (key === "w" ? null : i === j ? 1 : 0);
        W.length = Math.min(W.length, d);
        W.forEach((row, i) => {
          row.length = Math.min(row.length, cols);
          while (row.length < cols) row.push(entry(i, row.length));
        });
        while (W.length < d) {
          const i = W.length;
          W.push(Array.from({ length: cols }, (_, j) => entry(i, j)));
        }
      }
    }
  }

  /** The dimensions change under the learned weights: they become the reader's own. */
  leaveLearned(d) {
    if (this.m.projections !== "learned") return;
    const learned = projectionsOf({ projections: "learned" }, this.presets);
    this.setCustom(learned.W_Q, learned.W_K, learned.W_V);
    this.m.projections = "custom";
    this.projSelect.value = "custom";
    this.resizeCustom(d);
    setText(
      this.projMessage,
      `The learned weights need vectors of ${learnedDims(this.presets)} numbers, so the projections are now your own ` +
        "matrices, starting from the learned ones.",
    );
  }

  addDim() {
    const d = this.m.x[0].length;
    if (d >= LIMITS.dims) {
      this.structureRefused(`A vector here has at most ${LIMITS.dims} numbers.`, this.addDimButton);
      return;
    }
    this.m.x.forEach((row) => row.push(null));
    this.m.xv.forEach((row) => row.push(0));
    this.leaveLearned(d + 1);
    if (this.m.projections === "custom") this.resizeCustom(d + 1);
    this.structureDone();
    this.rebuilt();
    this.addDimButton.focus();
  }

  removeDim() {
    const d = this.m.x[0].length;
    if (d <= 1) {
      this.structureRefused("A vector needs at least one number.", this.removeDimButton);
      return;
    }
    this.m.x.forEach((row) => row.pop());
    this.m.xv.forEach((row) => row.pop());
    this.leaveLearned(d - 1);
    if (this.m.projections === "custom") this.resizeCustom(d - 1);
    this.structureDone();
    this.rebuilt();
    this.removeDimButton.focus();
  }

  rebuilt() {
    setText(this.headsMessage, "");
    this.fitHeads();
    this.buildGrids();
    this.recompute();
    this.scheduleUrl();
  }

  /** The numbers of heads, from 1 up, that split the widths of Q, K and V now. */
  allowedHeads() {
    const { dk, dv } = this.widths();
    return Array.from({ length: LIMITS.heads }, (_, k) => k + 1).filter((k) => !headsProblem(k, dk, dv));
  }

  onHeads() {
    const k = Number(this.headsSelect.value);
    const { dk, dv } = this.widths();
    const problem = headsProblem(k, dk, dv);
    setText(this.headsMessage, "");
    if (problem) {
      this.headsSelect.value = String(this.m.heads);
      const what = this.m.projections === "custom" ? "the dimensions or the columns of your matrices" : "the dimensions";
      setText(
        this.headsMessage,
        `${problem}. Here ${orList(this.allowedHeads())} can split them; change ${what} first to have ${k}.`,
      );
      return;
    }
    this.m.heads = k;
    this.shownHead = 0;
    this.rebuilt();
  }

  /** After the widths change: back to one head if the heads no longer split them, saying so. */
  fitHeads() {
    const { dk, dv } = this.widths();
    const problem = headsProblem(this.m.heads, dk, dv);
    if (!problem) return;
    this.m.heads = 1;
    this.shownHead = 0;
    this.headsSelect.value = "1";
    setText(this.headsMessage, `${problem}, so the playground is back to 1 head.`);
  }

  onProjections() {
    const value = this.projSelect.value;
    const d = this.m.x[0].length;
    setText(this.projMessage, "");
    if (value === "learned" && d !== learnedDims(this.presets)) {
      this.projSelect.value = this.m.projections;
      const k = learnedDims(this.presets);
      setText(
        this.projMessage,
        `The learned weights are ${k} × ${k}: they need vectors of ${k} numbers, and these have ${d}. ` +
          `Add or remove dimensions first, or choose your own matrices.`,
      );
      return;
    }
    if (value === "custom" && this.m.projections !== "custom") {
      // The reader's matrices start from the projections in effect until now.
      if (this.m.projections === "learned") {
        const learned = projectionsOf({ projections: "learned" }, this.presets);
        this.setCustom(learned.W_Q, learned.W_K, learned.W_V);
      } else {
        this.setCustom(identity(d), identity(d), identity(d));
      }
    }
    this.m.projections = value;
    this.rebuilt();
  }

  onInput(e) {
    const target = e.target;
    const key = target.dataset?.key;
    if (!key) return;
    const [kind, i, k] = key.split("-");
    if (kind === "name") {
      this.m.names[+i] = target.value;
      this.checkNames();
      this.m.names.forEach((_, r) => this.relabelRow(r));
      this.syncSelected(false);
    } else if (kind === "x") {
      this.m.x[+i][+k] = target.value;
      this.checkNumber(key, target.value);
    } else {
      this.m.w[kind][+i][+k] = target.value;
      this.checkNumber(key, target.value);
    }
    this.renderErrors();
    this.recompute();
    this.scheduleUrl();
  }

  relabelRow(i) {
    const label = this.rowLabel(i);
    const row = this.wordsTable.tBodies[0].rows[i];
    row.querySelectorAll(".pg-number").forEach((input, k) => input.setAttribute("aria-label", `${label}, x${k + 1}`));
    row.querySelector(".pg-remove").setAttribute("aria-label", `Remove ${label}`);
  }

  /** Arrow keys and Enter move between the cells of a grid, as in a spreadsheet. */
  onKeydown(e) {
    const input = e.target;
    if (!(input instanceof HTMLInputElement) || !input.dataset.key || e.altKey || e.ctrlKey || e.metaKey) return;
    const cell = input.closest("td");
    const tr = cell?.parentElement;
    const table = tr?.closest("table");
    if (!table) return;
    const col = cell.cellIndex;
    const rows = [...table.tBodies[0].rows];
    const r = rows.indexOf(tr);
    let target = null;
    const inputAt = (row, c) => row?.cells[c]?.querySelector("input") ?? null;
    if (e.key === "ArrowUp") target = inputAt(rows[r - 1], col);
    else if (e.key === "ArrowDown" || (e.key === "Enter" && !e.shiftKey)) target = inputAt(rows[r + 1], col);
    else if (e.key === "Enter" && e.shiftKey) target = inputAt(rows[r - 1], col);
    else if (e.key === "ArrowLeft" && input.selectionStart === 0 && input.selectionEnd === 0) target = inputAt(tr, col - 1);
    else if (e.key === "ArrowRight" && input.selectionStart === input.value.length && input.selectionEnd === input.value.length) {
      target = inputAt(tr, col + 1);
    } else return;
    if (e.key === "Enter") e.preventDefault();
    if (!target) return;
    e.preventDefault();
    target.focus();
    target.select();
  }

  /** The step-3 word choice follows the words. */
  syncSelected(rebuild) {
    const n = this.m.names.length;
    if (this.m.selected >= n) this.m.selected = n - 1;
    const options = this.selectedSelect.options;
    if (rebuild || options.length !== n) {
      this.selectedSelect.replaceChildren(...this.m.names.map((_, i) => h("option", { value: String(i), text: this.rowLabel(i) })));
    } else {
      for (let i = 0; i < n; i++) setText(options[i], this.rowLabel(i));
    }
    this.selectedSelect.value = String(this.m.selected);
    // The word followed step by step: the same words, its own choice.
    const chosen = Math.min(Number(this.stepWord.value) || 0, n - 1);
    if (rebuild || this.stepWord.options.length !== n) {
      this.stepWord.replaceChildren(...this.m.names.map((_, i) => h("option", { value: String(i), text: this.rowLabel(i) })));
    } else {
      for (let i = 0; i < n; i++) setText(this.stepWord.options[i], this.rowLabel(i));
    }
    this.stepWord.value = String(chosen);
  }

  changed() {
    this.m.scale = this.scaleBox.checked;
    this.m.causal = this.causalBox.checked;
    const decimals = Number(this.decimalsSelect.value);
    const rounding = decimals !== this.m.decimals;
    this.m.decimals = decimals;
    this.m.selected = Number(this.selectedSelect.value);
    if (rounding) this.buildGrids(); // the fields that show a value rounded show it at the new rounding
    this.recompute();
    this.scheduleUrl();
  }

  // ---- the results ---------------------------------------------------------------------------

  recompute() {
    const state = this.state();
    if (!state) {
      this.renderErrors();
      return;
    }
    let result;
    try {
      result = attention({
        X: state.X,
        ...projectionsOf(state, this.presets),
        scale: state.scale,
        causal: state.causal,
        heads: state.heads,
      });
    } catch (e) {
      // The limits of state.js keep every result finite; shown rather than thrown, just in case.
      this.stale.hidden = false;
      setText(this.stale, `These numbers cannot be computed (${e.message}); the results shown are the last that could be.`);
      return;
    }
    this.last = { state, result, labels: wordLabels(state.words) };
    this.render();
    this.renderErrors();
    this.syncPreset(state);
  }

  syncPreset(state) {
    const n = state.words.length;
    const d = state.X[0].length;
    const match = this.presets.presets.find(
      (p) =>
        p.tokens.length === n &&
        p.embeddings[0].length === d &&
        sameExample(state, stateFromPreset(this.presets, p.slug)),
    );
    const value = match ? match.slug : "";
    if (this.presetSelect.value !== value) this.presetSelect.value = value;
  }

  render() {
    const { state, result: r, labels } = this.last;
    const dec = state.decimals;
    const dims = (M, prefix) => M[0].map((_, j) => `${prefix}${j + 1}`);
    const projecting = state.projections !== "none";
    const many = r.heads.length > 1;
    if (this.shownHead >= r.heads.length) this.shownHead = 0;
    const h0 = this.shownHead;
    const a = r.heads[h0]; // the head the tables show

    // The projections.
    const learned = state.projections === "learned";
    this.learnedSection.hidden = !learned;
    if (learned) {
      const p = this.presets.presets.find((q) => q.slug === this.presets.learned);
      const origin = p.origin ?? {};
      setText(
        this.learnedNote,
        `Drawn by NumPy, not typed: numpy.random.default_rng(${origin.seed}).normal(0, ${origin.std}, (${p.W_Q.length}, ${p.W_Q.length})) three ` +
          "times, in the order W_Q, W_K, W_V (the learned-weights page). Rounded here; the playground computes with every digit.",
      );
      W_NAMES.forEach((name, t) => {
        const W = p[name];
        this.learnedViews[t].update(matrixCells(W, dec), W.map((_, i) => `x${i + 1}`), dims(W, "c"));
      });
    }
    const projHelp = {
      none: "Q = K = V = X: each word's own vector",
      identity: "Q = X·I, K = X·I, V = X·I: the same as X",
      learned: "Q = X·W_Q, K = X·W_K, V = X·W_V with the learned weights",
      custom: "Q = X·W_Q, K = X·W_K, V = X·W_V with your matrices",
    }[state.projections];
    setText(this.projHelp, projHelp);

    // The heads: each takes its share of the columns of Q, K and V.
    const dk = r.Q[0].length;
    const dHead = a.Q[0].length;
    setText(
      this.headsHelp,
      many ? `${r.heads.length} heads of width d_head = ${dk} / ${r.heads.length} = ${dHead}` : "one head, as on the other pages",
    );
    setText(this.scaleHeads, many ? " (each head by √d_head, the width of its own keys)" : "");
    this.headBox.hidden = !many;
    if (many) {
      if (this.headSelect.options.length !== r.heads.length) {
        this.headSelect.replaceChildren(...r.heads.map((_, k) => h("option", { value: String(k), text: `Head ${k + 1}` })));
      }
      this.headSelect.value = String(h0);
      const parts = r.heads.map((_, k) => `head ${k + 1} columns ${headColumns(r, k, "Q", projecting)}`);
      const X = projecting ? "Q, K and V" : "X (Q = K = V = X)";
      setText(
        this.headHelp,
        `Each head scores, scales, normalizes and mixes its own columns of ${X}: ${parts.join(", ")}. ` +
          "Steps 1 and 2 below show the head chosen here; step 3 puts the heads' outputs side by side.",
      );
    }

    this.qkvSection.hidden = !projecting;
    if (projecting && this.qkvSection.open) {
      // Only while shown: at 16 × 16 that is 768 numbers less per keystroke (see "toggle").
      for (const name of ["Q", "K", "V"]) {
        const M = r[name];
        this.views[name].update(matrixCells(M, dec), labels, dims(M, "c"));
      }
    }

    // Step 1.
    const inHead = many ? ` In head ${h0 + 1}: columns ${headColumns(r, h0, "Q", projecting)} only.` : "";
    setText(
      this.scoresFormula,
      (projecting ? "S = Q·Kᵀ: query i against key j." : "S = X·Xᵀ: each word's vector against every other's.") + inHead,
    );
    this.views.scores.update(matrixCells(a.scores, dec), labels, labels);

    // The scores the softmax reads, when they differ from S.
    const shown = state.scale || state.causal;
    this.scaledBox.hidden = !shown;
    if (shown) {
      setText(
        this.scaledHeading,
        state.scale && state.causal ? "Scaled and masked scores" : state.scale ? "Scaled scores" : "Masked scores",
      );
      const parts = [];
      if (state.scale) parts.push(many ? `S ÷ √d_head, with d_head = ${dHead}` : `S ÷ √d_k, with d_k = ${dHead}`);
      if (state.causal) parts.push("−∞ where a word would look at a later word (its weight becomes 0)");
      setText(this.scaledFormula, parts.join("; ") + ".");
      const finite = a.logits.map((row) => row.filter((x) => x !== -Infinity));
      const integral = isIntegral(finite);
      const texts = a.logits.map((row) => row.map((x) => cell(x, dec, integral)));
      this.views.scaled.update(texts, labels, labels);
    }

    // Step 2 and step 3. The output's columns are V's: c1, c2, ... as V's table, or x1, x2, ... as
    // the words' vectors when there are no projections (V = X), as the pages and Notation name them.
    this.views.weights.update(matrixCells(a.weights, dec), labels, labels, a.weights);
    const outCols = r.output[0].map((_, c) => columnName(c, projecting));
    this.views.output.update(matrixCells(r.output, dec), labels, outCols);
    const V = projecting ? "V" : "V (here V = X)";
    setText(
      this.outputHelp,
      many
        ? `Each head mixes its own columns of ${V} with its own weights; side by side, times W_O = I (the identity, ` +
            `as on the multi-head page), they are the output: columns ${headColumns(r, 0, "V", projecting)} from head 1, and so on.`
        : `Each output row is the weights of that row times the rows of ${V}, added up: column ${outCols[0]} of the ` +
            `output mixes column ${outCols[0]} of V, and so on.`,
    );
    const i = Math.min(state.selected, labels.length - 1);
    const mix = mixText(labels, a.weights[i], a.V, a.output[i], dec);
    setText(this.mixHeading, many ? `Step 3 for one word in head ${h0 + 1}, written out` : "Step 3 for one word, written out");
    setText(this.mixCode, mix.lines.join("\n"));
    this.paintLegend();

    this.renderExplanation(false);
    this.renderStep(false);
    this.renderTasks();
  }

  repaint() {
    if (this.last) this.views.weights.paint(this.last.result.heads[this.shownHead].weights);
    this.paintLegend();
  }

  paintLegend() {
    const scheme = currentScheme();
    if (this.legendBar.dataset.scheme === scheme) return;
    this.legendBar.dataset.scheme = scheme;
    const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => heatColours(t, scheme).background);
    this.legendBar.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
  }

  // ---- how a number was made -----------------------------------------------------------------

  /** The view of an explainable table, and its name for explainCell(). */
  viewOf(table) {
    const name = table?.dataset.explain;
    return name ? [this.views[name], name] : [null, null];
  }

  onCellFocus(e) {
    if (this.quietFocus) return;
    const td = e.target;
    if (!(td instanceof HTMLTableCellElement) || td.tagName !== "TD") return;
    const [view, name] = this.viewOf(td.closest("table"));
    const at = view?.indexOf(td);
    if (!at) return;
    view.rove(...at);
    this.explain(name, ...at);
  }

  /** The arrow keys, Home and End move between the numbers of a table; Escape closes the explanation. */
  onCellKeydown(e) {
    const td = e.target;
    if (!(td instanceof HTMLTableCellElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    const [view] = this.viewOf(td.closest("table"));
    const at = view?.indexOf(td);
    if (!at) return;
    if (e.key === "Escape") {
      this.closeExplanation(true);
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

  /** Explain cell (i, j) of a table ("scores", "scaled", "weights", "output"), and say so. */
  explain(table, i, j) {
    this.explained = { table, i, j };
    this.renderExplanation(true);
  }

  renderExplanation(announce) {
    const at = this.explained;
    if (!at || !this.last) return;
    const { state, result: r, labels } = this.last;
    const view = this.views[at.table];
    const hiddenScaled = at.table === "scaled" && this.scaledBox.hidden;
    if (hiddenScaled || at.i >= view.cells.length || at.j >= view.cells[0].length) {
      this.closeExplanation(false);
      return;
    }
    const projecting = state.projections !== "none";
    const e = explainCell(r, at.table, at.i, at.j, this.shownHead);
    const { title, lines } = explanationText(e, r, labels, state.decimals, projecting);
    setText(this.explainTitle, title);
    setText(this.explainCode, lines.join("\n"));
    this.explainBox.dataset.table = at.table;
    this.explainBox.dataset.cell = `${at.i},${at.j}`;
    const anchor = view === this.views.weights ? this.legend : view.wrap; // under the colour scale
    if (this.explainBox.previousElementSibling !== anchor) anchor.after(this.explainBox);
    this.explainBox.hidden = false;
    this.mark("pg-explained", [view.cells[at.i][at.j]]);
    // A head's scores and weights are outlined only while the tables show that head.
    const used = usedCells(e, projecting).filter((u) => u.h === undefined || u.h === this.shownHead);
    this.mark("pg-used", used.flatMap((u) => this.cellsOf(u)));
    if (announce) this.announce(`${title} ${lines.join(" ")}`);
  }

  closeExplanation(returnFocus) {
    const at = this.explained;
    this.explained = null;
    this.explainBox.hidden = true;
    this.mark("pg-explained", []);
    this.mark("pg-used", []);
    if (returnFocus && at) {
      this.quietFocus = true; // back to the number, without explaining it again
      this.views[at.table].cells[at.i]?.[at.j]?.focus({ preventScroll: true });
      this.quietFocus = false;
    }
  }

  /** The elements of a {table, i, j} of usedCells(): j null for a row, i null for a column. */
  cellsOf({ table, i, j }) {
    let grid;
    if (table === "X") {
      // The words' vectors: the number fields of the grid (each row's first cell is the name).
      grid = [...this.wordsTable.tBodies[0].rows].map((tr) => [...tr.cells].slice(1, -1));
    } else if (table === "logits") {
      grid = (this.scaledBox.hidden ? this.views.scores : this.views.scaled).cells;
    } else {
      grid = this.views[table].cells;
    }
    if (i !== null && j !== null) return grid[i]?.[j] ? [grid[i][j]] : [];
    if (i !== null) return grid[i] ?? [];
    return grid.map((row) => row[j]).filter(Boolean);
  }

  /** Exactly `elements` carry the class `cls` (the previous ones lose it). */
  mark(cls, elements) {
    this.marked ??= {};
    const before = this.marked[cls] ?? [];
    const now = new Set(elements);
    for (const el of before) if (!now.has(el)) el.classList.remove(cls);
    for (const el of now) el.classList.add(cls);
    this.marked[cls] = [...now];
  }

  // ---- one word, step by step ----------------------------------------------------------------

  moveStep(delta) {
    if (delta < 0 && this.step <= 0) {
      this.announce("This is the first step.");
      return;
    }
    // "Next step" after the last one starts again at the first.
    this.step = this.step < 0 ? 0 : (this.step + delta) % STEPS.length;
    this.renderStep(true);
  }

  renderStep(announce) {
    const k = this.step;
    // A step that the settings turn off (scaling, the causal mask) says so in the list too.
    const off = { scale: this.last && !this.last.state.scale, mask: this.last && !this.last.state.causal };
    this.stepItems.forEach((li, t) => {
      if (t === k) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
      const id = STEPS[t];
      setText(li, off[id] ? `${id} (off)` : id);
      li.classList.toggle("pg-step-off", Boolean(off[id]));
    });
    this.stepPrev.setAttribute("aria-disabled", k <= 0 ? "true" : "false");
    if (k < 0 || !this.last) {
      this.stepBox.hidden = true;
      this.mark("pg-step-row", []);
      return;
    }
    const { state, result: r, labels } = this.last;
    const i = Math.min(Number(this.stepWord.value) || 0, labels.length - 1);
    const projecting = state.projections !== "none";
    const step = rowSteps(r, i, state, this.shownHead)[k];
    const { title, lines } = stepText(step, r, i, labels, state.decimals, projecting, this.shownHead);
    setText(this.stepTitle, title);
    setText(this.stepCode, lines.join("\n"));
    this.stepBox.dataset.step = step.id;
    this.stepBox.hidden = false;
    const shown = !this.scaledBox.hidden;
    const table = {
      score: this.views.scores,
      scale: state.scale ? this.views.scaled : this.views.scores,
      mask: shown ? this.views.scaled : this.views.scores,
      normalize: this.views.weights,
      mix: this.views.output,
    }[step.id];
    this.mark("pg-step-row", table.cells[i] ?? []);
    if (announce) this.announce(`${title} ${lines.join(" ")}`);
  }

  // ---- try this ------------------------------------------------------------------------------

  /** A task once achieved stays ticked (until the page is left). */
  renderTasks() {
    const { state, result } = this.last;
    for (const id of tasksAchieved(state, result)) {
      if (this.tasksDone.has(id)) continue;
      this.tasksDone.add(id);
      const item = this.taskItems.get(id);
      item.li.dataset.done = "true";
      setText(item.state, "Done.");
      setText(item.note, item.task.done);
      this.announce(`Task done: ${item.task.done}`);
    }
  }
}

// --- mounting ---------------------------------------------------------------------------------

let current = null;

const STYLESHEET = new URL("playground.css", __bundle_import_meta_url).href;

/** The playground's stylesheet, in the head (instant navigation drops what no page's head has). */
function ensureStylesheet() {
  let link = [...document.querySelectorAll("link[rel=stylesheet]")].find((l) => l.href === STYLESHEET);
  if (!link) {
    link = h("link", { rel: "stylesheet", href: STYLESHEET });
    link.dataset.loaded = "false";
    link.addEventListener("load", () => (link.dataset.loaded = "true"), { once: true });
    document.head.append(link);
  }
  if (link.dataset.loaded === "false") {
    return new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true }); // unstyled beats nothing
    });
  }
  return Promise.resolve();
}

function mount() {
  const root = document.getElementById("playground");
  if (current && current.root !== root) {
    current.destroy();
    current = null;
  }
  if (!root || current) return;
  if (root.dataset.state === "loading") return;
  root.dataset.state = "loading";
  Promise.all([loadPresets(), ensureStylesheet()])
    .then(([presets]) => {
      if (!root.isConnected || current) return;
      current = new Playground(root, presets);
      root.dataset.state = "ready";
      root.setAttribute("aria-busy", "false");
    })
    .catch((e) => {
      root.dataset.state = "failed";
      root.replaceChildren(
        h("p", { class: "pg-message", role: "alert", text: `The playground could not load its examples: ${e.message}` }),
      );
    });
}

if (globalThis.document$ && typeof globalThis.document$.subscribe === "function") {
  globalThis.document$.subscribe(() => mount());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mount, { once: true });
} else {
  mount();
}
return Object.freeze({ __proto__: null, fieldText, heatColours });
  })())(bundleFetch, new URL("app.js", base).href);
})();
