# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4): one embedding per row

# Project. A trained model learns these matrices; here they are the identity.
W_Q = np.eye(4)
W_K = np.eye(4)
W_V = np.eye(4)
Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (3, 4) each, and all three equal X

# Score, scale, normalize (softmax per row), mix (weighted sum of the values).
d_k = K.shape[1]                 # 4, the width of a key
scores = Q @ K.T                 # (3, 3): row i holds query i against every key
scaled = scores / np.sqrt(d_k)   # divided by √4 = 2
weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))  # e^(scaled score - its row's largest)
weights = weights / weights.sum(axis=1, keepdims=True)  # softmax: rows sum to 1
output = weights @ V             # (3, 4): row i is a weighted sum of the values
# --8<-- [end:math]


def show(title, M, columns):
    """Print M with one labelled row per token (4 decimals unless all whole)."""
    decimals = 0 if (M == M.round()).all() else 4
    print(title)
    print("     " + "".join(f"{c:>8}" for c in columns))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.{decimals}f}" for x in row))
    print()


show("Q = X W_Q (K and V are the same)", Q, ["c1", "c2", "c3", "c4"])
show("scores Q K^T", scores, tokens)
show("scaled by sqrt(d_k) = sqrt(4)", scaled, tokens)
show("weights (softmax of each row)", weights, tokens)
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
