# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4); identity projections: Q = K = V = X
d_k = X.shape[1]
S = X @ X.T / np.sqrt(d_k)                # (3, 3): row = query, column = key


def softmax(S, axis=-1):
    e = np.exp(S - S.max(axis=axis, keepdims=True))  # the largest score subtracted first
    return e / e.sum(axis=axis, keepdims=True)


right = softmax(S, axis=-1)               # each query's row adds up to 1
wrong = softmax(S, axis=0)                # WRONG: each key's column adds up to 1
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("softmax along rows (axis=-1)", right)
show("softmax down columns (axis=0, wrong)", wrong)
print("row sums (wrong):", ", ".join(f"{x:.4f}" for x in wrong.sum(axis=1).tolist()))
