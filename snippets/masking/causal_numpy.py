# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4); identity projections, so Q = K = V = X
Q = K = V = X

n, d_k = Q.shape
scaled = Q @ K.T / np.sqrt(d_k)          # (3, 3), the scaled scores

# The causal mask as a matrix to add: 0 where query i may see key j (j <= i), -inf above.
allowed = np.tril(np.ones((n, n), dtype=bool))  # (3, 3), True on and below the diagonal
M = np.where(allowed, 0.0, -np.inf)
masked = scaled + M


def softmax(S):
    """Softmax of each row; e^-inf = 0, so a masked key gets weight 0."""
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


weights = softmax(masked)                # (3, 3)
output = weights @ V                     # (3, 4)
# --8<-- [end:math]

# Check: token i attending to tokens 0..i only, with the later ones left out altogether.
prefix = np.array([softmax(scaled[i, : i + 1]) @ V[: i + 1] for i in range(n)])


def show(title, M):
    """Print M with one labelled row per token (4 decimals unless all whole)."""
    finite = M[np.isfinite(M)]  # leave out the -inf entries
    decimals = 0 if (finite == finite.round()).all() else 4
    print(title)
    print("     " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.{decimals}f}" for x in row))
    print()


show("M (0 = may attend, -inf = hidden)", M)
show("scaled scores + M", masked)
show("weights (softmax of each row)", weights)
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
print()
print("same as attending to each prefix alone:", np.allclose(output, prefix, rtol=0, atol=1e-12))
