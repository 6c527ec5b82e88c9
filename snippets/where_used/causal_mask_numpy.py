# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4); identity projections, so Q = K = V = X
Q = K = V = X

n, d_k = Q.shape
scaled = Q @ K.T / np.sqrt(d_k)          # (3, 3), as without a mask

# The causal mask: query i may look at keys 0..i (lower triangle, diagonal included).
mask = np.tril(np.ones((n, n), dtype=bool))
masked = np.where(mask, scaled, -np.inf)  # a later key's score becomes -inf
weights = np.exp(masked - masked.max(axis=1, keepdims=True))  # e^(score - its row's largest); e^-inf = 0
weights = weights / weights.sum(axis=1, keepdims=True)  # softmax per row
output = weights @ V
# --8<-- [end:math]


def show(title, M, columns):
    """Print M with one labelled row per token (4 decimals unless all whole)."""
    finite = M[M > -np.inf]  # leave out the -inf entries
    decimals = 0 if (finite == finite.round()).all() else 4
    print(title)
    print("     " + "".join(f"{c:>8}" for c in columns))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.{decimals}f}" for x in row))
    print()


show("mask (1 = may attend)", mask.astype(np.float64), tokens)
show("scaled scores, masked", masked, tokens)
show("weights (softmax of each row)", weights, tokens)
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
