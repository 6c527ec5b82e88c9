# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4); identity projections: Q = K = V = X
big = 30 * X                              # larger embeddings, (3, 4)
S = big @ big.T / np.sqrt(big.shape[1])   # (3, 3), scaled scores from 0 to 1800

right = np.exp(S - S.max(axis=-1, keepdims=True))   # the row's largest score subtracted first
right = right / right.sum(axis=-1, keepdims=True)
with np.errstate(over="ignore", invalid="ignore"):  # NumPy would warn: overflow encountered in exp
    wrong = np.exp(S) / np.exp(S).sum(axis=-1, keepdims=True)  # WRONG: e^900 = inf, inf / inf = nan
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


print("largest scaled score:", S.max())
show("softmax with the max subtracted", right)
show("softmax without it (wrong)", wrong)
