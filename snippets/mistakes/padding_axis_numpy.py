# --8<-- [start:math]
import numpy as np

batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to 3 tokens
X = np.array([[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
              [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]]],  # [PAD]: an all-zero embedding
             dtype=np.float64)  # (2, 3, 4); identity projections: Q = K = V = X
lengths = np.array([3, 2])
real = np.arange(3)[None, :] < lengths[:, None]     # (2, 3): True where the token is real
S = X @ X.swapaxes(-1, -2) / np.sqrt(X.shape[-1])   # (2, 3, 3): a row per query, a column per key


def softmax(S):
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


right = softmax(np.where(real[:, None, :], S, -np.inf))  # mask (2, 1, 3): hides a key
with np.errstate(invalid="ignore"):  # NumPy would warn: invalid value encountered in subtract
    wrong = softmax(np.where(real[:, :, None], S, -np.inf))  # WRONG: mask (2, 3, 1) hides a query
# --8<-- [end:math]


def show(title, M, tokens):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("         " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))


show('"The cat [PAD]", the mask on the keys\' axis', right[1], batch[1])
show('"The cat [PAD]", the mask on the queries\' axis (wrong)', wrong[1], batch[1])
