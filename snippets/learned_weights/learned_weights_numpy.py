# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4): one embedding per row

# Three different matrices, drawn in this order from one seeded generator.
rng = np.random.default_rng(42)
W_Q = rng.normal(0, 0.5, (4, 4))
W_K = rng.normal(0, 0.5, (4, 4))
W_V = rng.normal(0, 0.5, (4, 4))

Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (3, 4) each, now three different matrices
d_k = K.shape[1]                      # 4
scaled = Q @ K.T / np.sqrt(d_k)       # (3, 3)
weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))  # e^(scaled score - its row's largest)
weights = weights / weights.sum(axis=1, keepdims=True)  # softmax per row
output = weights @ V                  # (3, 4)
# --8<-- [end:math]


def fmt(x):
    """x at 4 decimals, without a "-0.0000" for a tiny negative number."""
    return f"{x:.4f}".replace("-0.0000", "0.0000")


def show(title, M, rows, columns):
    """Print a matrix with labelled rows and columns."""
    print(title)
    print("     " + "".join(f"{c:>8}" for c in columns))
    for label, row in zip(rows, M.tolist(), strict=True):
        print(f"{label:<5}" + "".join(f"{fmt(x):>8}" for x in row))
    print()


dims = ["x1", "x2", "x3", "x4"]
cols = ["c1", "c2", "c3", "c4"]
show("W_Q", W_Q, dims, cols)
show("W_K", W_K, dims, cols)
show("W_V", W_V, dims, cols)
show("weights (softmax of each row)", weights, tokens, tokens)
for token, j in zip(tokens, weights.argmax(axis=1).tolist(), strict=True):
    print(f"{token} attends most to {tokens[j]}")
print()
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(fmt(x) for x in row) + "]")
