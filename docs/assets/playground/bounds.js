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

/** The error of numbers typed as decimals: u times their size; 0 for whole ones (digits.input_error). */
export function inputError(M) {
  return map2(M, (x) => (Number.isInteger(x) && Math.abs(x) <= 2 ** 53 ? 0 : U * Math.abs(x)));
}

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
 * A result of attention() with the bound on every number's error attached: result.errors = {X, Q,
 * K, V, output} and head.errors for each head ({Q, K, V, scores, scaled, logits, weights, output,
 * terms, totals, shifted, shiftedTotals}). args: what attention() was given ({X, projections, W_Q,
 * W_K, W_V}); typed: whether W_Q, W_K and W_V were typed (their decimals rounded into float64),
 * not drawn by a seed (exact, as the identity is). Returns the result.
 */
export function withErrors(result, { X, projections = "none", W_Q = null, W_K = null, W_V = null }, typed = false) {
  const dX = inputError(X);
  let [dQ, dK, dV] = [dX, dX, dX];
  if (projections !== "none") {
    const d = X[0].length;
    const eye = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
    const Ws = projections === "identity" ? [eye, eye, eye] : [W_Q, W_K, W_V];
    [dQ, dK, dV] = Ws.map((W) => productError(X, W, dX, typed && projections !== "identity" ? inputError(W) : zeros(W)));
  }
  const width = result.heads[0].Q[0].length;
  const widthV = result.heads[0].V[0].length;
  result.heads.forEach((a, h) => {
    const cols = (M, w) => M.map((row) => row.slice(h * w, (h + 1) * w));
    a.errors = headErrors(a, cols(dQ, width), cols(dK, width), cols(dV, widthV));
  });
  // The heads' outputs side by side (times W_O = I, exact): each row joins the heads' rows.
  const output = dX.map((_, i) => result.heads.flatMap((a) => a.errors.output[i]));
  result.errors = { X: dX, Q: dQ, K: dK, V: dV, output };
  return result;
}
