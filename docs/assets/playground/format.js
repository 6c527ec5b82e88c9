// Numbers as the pages print them: the twin of publish/fmt.py and of the tables
// and worked lines in publish/tables.py. No DOM here.
//
// Python formats f"{x:.3f}" from the exact binary value and rounds a tie (a value that lies
// exactly halfway, such as 0.125 or 2.5) to the even digit; JavaScript's toFixed rounds a tie
// away from zero. fixed() does what Python does. The browser tests compare the two on many
// values, ties included.

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

/** `x` at `decimals` places, with no "-0.000" (publish.fmt.num). */
export function num(x, decimals) {
  let s = (x < 0 ? "-" : "") + fixedAbs(Math.abs(x), decimals);
  if (s.replace(/^-+/, "").replace(/^[0.]+|[0.]+$/g, "") === "") s = s.replace(/^-+/, "");
  return s;
}

/** Whether every finite entry is a whole number (publish.fmt.is_integral). */
export function isIntegral(values) {
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
export function cell(x, decimals, integral) {
  if (x === -Infinity) return "−∞";
  return integral ? BigInt(x).toString() : num(x, decimals);
}

/** "[0.910, 0.335, 0.665, 0.090]", integers staying integers (publish.fmt.vector). */
export function vector(v, decimals) {
  const integral = isIntegral(v);
  return "[" + v.map((x) => cell(x, decimals, integral)).join(", ") + "]";
}

/** Every cell of a matrix as text, integrality judged on the whole matrix (tables.matrix_table). */
export function matrixCells(M, decimals) {
  const integral = isIntegral(M);
  return M.map((row) => row.map((x) => cell(x, decimals, integral)));
}
