// The math of attention in plain JavaScript: score, normalize, mix.
//
// The twin of selfattn_ref/attention.py and selfattn_ref/examples (run), for the playground.
// tests/browser/test_playground.py imports this module in Chromium and holds every result equal
// to the NumPy reference (to 1e-9) on hundreds of seeded random cases. No DOM here.
//
import { sinusoidalPositionalEncoding } from "./positional.js";

// A matrix is an array of rows, each an array of numbers: X[i][k]. Shapes use n for the number
// of queries, m for the number of keys, d for their width and d_v for the width of the values.

/** Shape of a matrix as "(rows, cols)", for error messages. */
function shape(M) {
  return Array.isArray(M) ? `(${M.length}, ${Array.isArray(M[0]) ? M[0].length : "?"})` : typeof M;
}

/** Throw unless M is a non-empty rectangular matrix of finite numbers. */
export function checkMatrix(M, name) {
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
export function matmul(A, B) {
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
export function scores(Q, K) {
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
export function softmax(S) {
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
export function mix(A, V) {
  if (A[0].length !== V.length) {
    throw new RangeError(`A must have one column per row of V, got A ${shape(A)} and V ${shape(V)}`);
  }
  return matmul(A, V);
}

/** (n, n) mask, true where query i may attend to key j: the lower triangle (j <= i). */
export function causalMask(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => j <= i));
}

/** The identity matrix (d, d). */
export function identity(d) {
  return Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
}

/** Columns start .. start + width - 1 of every row: M (n, k) -> (n, width). */
export function columns(M, start, width) {
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
export function headsProblem(heads, dk, dv) {
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
 * X: the embeddings (n, d). positions: "sinusoidal" adds the sinusoidal positional encoding
 * PE (n, d) to them first (positional.js), as docs/positional-encoding.md does, so that every step
 * reads X + PE; null (or false) adds nothing. projections: "none" (Q = K = V = X, the first article's
 * softmax(X·Xᵀ)·X), "identity" (W = I, so Q = X·I), or "matrices" with W_Q, W_K (d, d_k) and
 * W_V (d, d_v). scale: divide the scores by √d_k. causal: query i sees keys 0..i only.
 * heads: split the columns of Q, K and V into that many heads, as selfattn_ref.multihead does:
 * head h takes columns h·d_k/heads .. (h+1)·d_k/heads − 1 of Q and K (and the same share of
 * V's), attends on its own (scaled by 1/√ of its own width), and the heads' outputs side by side
 * are the output (W_O is the identity, as on the multi-head page).
 *
 * Returns {embeddings, PE, X, W_Q, W_K, W_V, projections, projected, Q, K, V, heads, output, mask}: embeddings
 * the X given; PE the encoding added (null without positions); X what the steps read (embeddings +
 * PE, or the embeddings); W_Q, W_K, W_V the matrices Q, K and V were made with (the identity
 * matrices for "identity", null for "none", where projected is false; projections as given); heads, one per head, each {Q, K, V, scores, scaled,
 * logits, weights, output, mask, factor} for that head's columns: scores = Q·Kᵀ (unmasked, as
 * the pages print them); scaled = scores · (1/√d_k), or null without scaling; logits = what the
 * softmax reads (scaled or not, masked entries -Infinity); factor the number the scores were
 * multiplied by; mask null unless causal. With one head, its fields are the result's too
 * (result.scores is result.heads[0].scores, and so on).
 */
export function attention({
  X: embeddings,
  positions = null,
  projections = "none",
  W_Q = null,
  W_K = null,
  W_V = null,
  scale = false,
  causal = false,
  heads = 1,
}) {
  checkMatrix(embeddings, "X");
  const d = embeddings[0].length;
  if (positions && positions !== "sinusoidal") throw new RangeError(`positions must be "sinusoidal" or null, got ${String(positions)}`);
  const PE = positions ? sinusoidalPositionalEncoding(embeddings.length, d) : null; // (n, d)
  const X = PE ? embeddings.map((row, i) => row.map((x, k) => x + PE[i][k])) : embeddings; // (n, d)
  let Q, K, V;
  let Ws = [null, null, null];
  if (projections === "none") {
    Q = K = V = X;
  } else if (projections === "identity" || projections === "matrices") {
    Ws = projections === "identity" ? [identity(d), identity(d), identity(d)] : [W_Q, W_K, W_V];
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
  const made = { embeddings, PE, X, W_Q: Ws[0], W_K: Ws[1], W_V: Ws[2], projections, projected: projections !== "none" };
  if (heads === 1) {
    const one = head(Q, K, V, scale, mask);
    return { ...made, ...one, heads: [one] };
  }
  const dk = Q[0].length / heads;
  const dv = V[0].length / heads;
  const each = Array.from({ length: heads }, (_, h) =>
    head(columns(Q, h * dk, dk), columns(K, h * dk, dk), columns(V, h * dv, dv), scale, mask),
  );
  const output = X.map((_, i) => each.flatMap((r) => r.output[i])); // Concat(head_1, ..., head_h)·I
  return { ...made, Q, K, V, heads: each, output, mask, scores: null, scaled: null, logits: null, weights: null, factor: null };
}
