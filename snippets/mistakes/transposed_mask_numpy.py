# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4); identity projections: Q = K = V = X
n, d_k = X.shape
S = X @ X.T / np.sqrt(d_k)                # (3, 3), the scaled scores


def softmax(S, axis=-1):
    e = np.exp(S - S.max(axis=axis, keepdims=True))  # the largest score subtracted first
    return e / e.sum(axis=axis, keepdims=True)


right = softmax(np.where(np.tril(np.ones((n, n), dtype=bool)), S, -np.inf))  # on and below the diagonal
wrong = softmax(np.where(np.triu(np.ones((n, n), dtype=bool)), S, -np.inf))  # WRONG: triu sees the future
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("causal mask with tril", right)
show("mask with triu (wrong)", wrong)
