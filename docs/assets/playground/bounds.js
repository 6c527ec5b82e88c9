// How far the playground's float64 numbers may be from exact arithmetic on the numbers typed: the
// twin of selfattn_ref.examples.errors and of the bounds of selfattn_ref/examples/digits.py
// (input_error, product_error, softmax_error, power_error, sum_error), the same rule, so that a
// cell prints the digits a page would (format.js prints each number with its bound). No DOM here.
//
// A product of matrices is off by at most γ_k = k·u / (1 − k·u) times the sum of its terms' sizes
// (u = 2^-53), plus what its factors' errors carry (0 for whole numbers float64 adds exactly);
// the softmax and e^score by their values at the ends of their scores' intervals. The browser
// tests hold these bounds to NumPy's on many seeded cases.

const U = 2 ** -53;

/** Higham's γ_n: the bound on the relative error of a sum of n terms, as a share of their sizes. */
export function gamma(n) {
  return (n * U) / (1 - n * U);
}

const map2 = (M, f) => M.map((row, i) => row.map((x, j) => f(x, i, j)));
const zeros = (M) => map2(M, () => 0);

/** A product of matrices of sizes (entries ≥ 0): A (n, k) · B (k, m). */
function product(A, B) {
  return A.map((row) => B[0].map((_, j) => row.reduce((s, a, t) => s + a * B[t][j], 0)));
}

/** The error of a number typed as a decimal: u times its size; 0 for a whole one (digits.input_error). */
export function typedError(x) {
  return Number.isInteger(x) && Math.abs(x) <= 2 ** 53 ? 0 : U * Math.abs(x);
}

/** The error of numbers typed as decimals, each as typedError. */
export function inputError(M) {
  return map2(M, typedError);
}

// Math.pow(10000, x) for x = 2p/d (itself rounded, by u·x at most, which e^(x·ln 10000) turns into
// ln(10000)·u < 9.3u of the power) and Math.pow's own rounding (within an ulp): 16u of the power
// leaves room. Math.sin and Math.cos are within an ulp of their value (2u at most, |value| ≤ 1),
// and move by no more than their angle's error (their slopes are at most 1).
const POWER = 16 * U;
const TRIG = 2 * U;

/**
 * The error of the sinusoidal positional encoding (n, d) as positional.js computes it, against sin
 * and cos of pos / 10000^(2p/d) computed exactly: {divisor (pairs,), angle (n, pairs), PE (n, d)}.
 * Pair 0's divisor is 1 and its angle pos, exactly; the angle 0 gives sin 0 = 0 and cos 0 = 1 exactly.
 */
export function positionErrors(n, d) {
  const pairs = Math.ceil(d / 2);
  const divisor = Array.from({ length: pairs }, (_, p) => (p === 0 ? 0 : POWER * divisorOf(p, d)));
  const angle = Array.from({ length: n }, (_, pos) =>
    divisor.map((dDiv, p) => {
      if (pos === 0 || p === 0) return 0;
      const div = divisorOf(p, d);
      const a = pos / div;
      const below = div - dDiv; // the smallest the exact divisor can be
      return (a * dDiv) / below + U * a;
    }),
  );
  const PE = angle.map((row, pos) =>
    Array.from({ length: d }, (_, k) => (pos === 0 ? 0 : row[Math.floor(k / 2)] + TRIG)),
  );
  return { divisor, angle, PE };
}

const divisorOf = (p, d) => Math.pow(10000, (2 * p) / d); // positional.js's divisor

/** The error of A · B computed in float64, A and B carrying errors dA and dB (digits.product_error). */
export function productError(A, B, dA, dB) {
  const absA = map2(A, Math.abs);
  const absB = map2(B, Math.abs);
  const size = product(absA, absB);
  const wholeRow = A.map((row) => row.every(Number.isInteger));
  const wholeCol = B[0].map((_, j) => B.every((row) => Number.isInteger(row[j])));
  const carried = [product(dA, absB), product(absA, dB), product(dA, dB)];
  const g = gamma(A[0].length);
  return map2(size, (s, i, j) => {
    const rounding = wholeRow[i] && wholeCol[j] && s <= 2 ** 53 ? 0 : g * s;
    return rounding + carried[0][i][j] + carried[1][i][j] + carried[2][i][j];
  });
}

/**
 * The error of the softmax W of each row of the logits L (−∞ where masked), the logits carrying
 * errors dL (digits.softmax_error): weight j is 1 / (1 + A), A the sum of e^(L_k − L_j) over the
 * other keys; the exact weight lies between its values with every L_k − L_j moved by dL_k + dL_j
 * one way and the other, which differ from it by sums of e^(L_k − L_j)·expm1(±(dL_k + dL_j)).
 * Plus the softmax's own rounding. 0 where masked.
 */
export function softmaxError(L, dL, W) {
  return L.map((row, i) => {
    const allowed = row.map((x) => Number.isFinite(x));
    const count = allowed.filter(Boolean).length;
    let top = -Infinity;
    for (const x of row) if (x > top) top = x;
    const gap = row.map((x, k) => (allowed[k] ? top - x : 0));
    const spread = gap.reduce((s, g, k) => s + W[i][k] * g, 0);
    return row.map((x, j) => {
      if (!allowed[j]) return 0;
      let A = 0;
      let up = 0;
      let down = 0;
      row.forEach((y, k) => {
        if (!allowed[k] || k === j) return;
        const a = Math.exp(y - x);
        const s = dL[i][k] + dL[i][j];
        A += a;
        up += a * Math.expm1(s);
        down -= a * Math.expm1(-s);
      });
      const falls = (Number.isFinite(up) ? up / (1 + A + up) : 1) / (1 + A);
      const rises = down / (1 + A - down) / (1 + A);
      const moved = Number.isFinite(A) ? Math.max(falls, rises) : 0;
      const w = W[i][j];
      const rounding = (U * (gap[j] + spread) + (count + 5) * U) * w;
      return moved + 2 * rounding + (count + 5) * U * w;
    });
  });
}

/** The error of t = e^x (0 where x is −∞), x carrying the error dx (digits.power_error). */
export function powerError(x, dx, t) {
  if (!Number.isFinite(x)) return 0;
  return t * Math.expm1(dx) * (1 + 2 * U) + 2 * U * t;
}

/** The error of the sum of `terms`, each carrying the errors `dTerms` (digits.sum_error). */
export function sumError(terms, dTerms) {
  const size = terms.reduce((s, t) => s + Math.abs(t), 0);
  return gamma(terms.length) * size + dTerms.reduce((s, d) => s + d, 0);
}

/** The bounds of one head's numbers: its scores, the scores the softmax reads, weights, output and softmax terms. */
function headErrors(a, dQ, dK, dV) {
  const dS = productError(a.Q, a.K[0].map((_, t) => a.K.map((row) => row[t])), dQ, dK[0].map((_, t) => dK.map((row) => row[t])));
  // times 1/√d_k: that factor and the product each rounded once more (examples._attention_errors)
  const dL = a.scaled ? map2(dS, (d, i, j) => d * a.factor + 3 * U * Math.abs(a.scores[i][j]) * a.factor) : dS;
  const dW = softmaxError(a.logits, dL, a.weights);
  const terms = a.logits.map((row) => row.map((x) => Math.exp(x))); // e^score, as the pages write it (e^−∞ = 0)
  const dTerms = a.logits.map((row, i) => row.map((x, j) => powerError(x, dL[i][j], terms[i][j])));
  // e^(s − max(s)), as the code computes it: the shift's own rounding, and the errors of both scores
  const shifted = a.logits.map((row) => {
    let top = -Infinity;
    let at = 0;
    row.forEach((x, k) => {
      if (x > top) [top, at] = [x, k];
    });
    return { top, at };
  });
  const dShifted = a.logits.map((row, i) =>
    row.map((x, j) => {
      const { top, at } = shifted[i];
      const gap = x - top;
      return powerError(gap, dL[i][j] + dL[i][at] + U * Math.abs(gap), Math.exp(gap));
    }),
  );
  return {
    Q: dQ,
    K: dK,
    V: dV,
    scores: dS,
    scaled: a.scaled ? dL : null,
    logits: dL,
    weights: dW,
    output: productError(a.weights, a.V, dW, dV),
    terms: dTerms,
    totals: terms.map((row, i) => sumError(row, dTerms[i])),
    shifted: dShifted,
    shiftedTotals: a.logits.map((row, i) => sumError(row.map((x) => Math.exp(x - shifted[i].top)), dShifted[i])),
  };
}

/**
 * A result of attention() with the bound on every number's error attached: result.errors = {E, PE,
 * divisor, angle, X, W_Q, W_K, W_V, Q, K, V, output} and head.errors for each head ({Q, K, V,
 * scores, scaled, logits, weights, output, terms, totals, shifted, shiftedTotals}). E: of the words'
 * vectors as given; PE, divisor and angle: of the positional encoding (positionErrors), null without
 * it; X: of what the steps read, E + PE (each sum rounded once more) or E. args: what attention()
 * was given ({X, positions, projections, W_Q, W_K, W_V}); typed: whether W_Q, W_K and W_V were typed
 * (their decimals rounded into float64), not drawn by a seed (exact, as the identity is). Returns
 * the result.
 */
export function withErrors(result, { X, projections = "none", W_Q = null, W_K = null, W_V = null }, typed = false) {
  const dE = inputError(X);
  const positions = result.PE ? positionErrors(result.PE.length, result.PE[0].length) : null;
  const dX = positions
    ? map2(result.X, (x, i, k) => {
        const parts = dE[i][k] + positions.PE[i][k];
        return parts === 0 && Number.isInteger(x) ? 0 : parts + U * Math.abs(x); // the sum rounded once
      })
    : dE;
  const d = X[0].length;
  const eye = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
  let [dQ, dK, dV] = [dX, dX, dX];
  let dWs = [null, null, null];
  if (projections !== "none") {
    const Ws = projections === "identity" ? [eye, eye, eye] : [W_Q, W_K, W_V];
    dWs = Ws.map((W) => (typed && projections !== "identity" ? inputError(W) : zeros(W)));
    [dQ, dK, dV] = Ws.map((W, t) => productError(result.X, W, dX, dWs[t]));
  }
  const width = result.heads[0].Q[0].length;
  const widthV = result.heads[0].V[0].length;
  result.heads.forEach((a, h) => {
    const cols = (M, w) => M.map((row) => row.slice(h * w, (h + 1) * w));
    a.errors = headErrors(a, cols(dQ, width), cols(dK, width), cols(dV, widthV));
  });
  // The heads' outputs side by side (times W_O = I, exact): each row joins the heads' rows.
  const output = dX.map((_, i) => result.heads.flatMap((a) => a.errors.output[i]));
  result.errors = {
    E: dE,
    PE: positions ? positions.PE : null,
    divisor: positions ? positions.divisor : null,
    angle: positions ? positions.angle : null,
    X: dX,
    W_Q: dWs[0],
    W_K: dWs[1],
    W_V: dWs[2],
    Q: dQ,
    K: dK,
    V: dV,
    output,
  };
  return result;
}
