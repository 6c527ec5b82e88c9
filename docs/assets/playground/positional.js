// The sinusoidal positional encoding (Vaswani et al., 2017), in plain JavaScript. No DOM here.
//
// The twin of selfattn_ref/positional.py (sinusoidal_positional_encoding), for the playground:
// tests/browser/test_playground.py holds it, and attention() with the positions added, equal to
// the NumPy reference (to 1e-9). Positions and entries are numbered from 0, as the paper and
// docs/positional-encoding.md number them: entries 2p and 2p + 1 are the columns x(2p + 1) and
// x(2p + 2) of the tables, which count from 1.

/** The divisor of pair p at width d: 10000^(2p/d), as NumPy computes it (np.power(10000.0, 2p / d)). */
export function divisor(p, d) {
  return Math.pow(10000, (2 * p) / d);
}

/**
 * The encoding (n, d): PE[pos][2p] = sin(pos / 10000^(2p/d)) and PE[pos][2p + 1] = cos(the same
 * angle). Works for odd d too (the last column is a sine).
 */
export function sinusoidalPositionalEncoding(n, d) {
  return Array.from({ length: n }, (_, pos) =>
    Array.from({ length: d }, (_, k) => {
      const angle = pos / divisor(Math.floor(k / 2), d);
      return k % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }),
  );
}
