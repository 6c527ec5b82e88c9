# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4)
W_Q = np.array([[1, 0], [0, 1], [1, 0], [0, 0]], dtype=np.float64)  # (4, 2), stand-ins for learned weights
W_K = np.array([[0, 1], [1, 0], [0, 0], [1, 1]], dtype=np.float64)  # (4, 2)
d_k = W_Q.shape[1]

right = (X @ W_Q) @ (X @ W_K).T / np.sqrt(d_k)  # queries and keys from their own matrices
wrong = (X @ W_Q) @ (X @ W_Q).T / np.sqrt(d_k)  # WRONG: keys made with W_Q too
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("scaled scores, K = X @ W_K", right)
show("scaled scores, K = X @ W_Q (wrong)", wrong)
print("symmetric?", np.allclose(right, right.T), "and (wrong)", np.allclose(wrong, wrong.T))
