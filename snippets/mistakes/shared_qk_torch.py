# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4)
W_Q = torch.tensor([[1, 0], [0, 1], [1, 0], [0, 0]], dtype=torch.float64)  # (4, 2), stand-ins for learned weights
W_K = torch.tensor([[0, 1], [1, 0], [0, 0], [1, 1]], dtype=torch.float64)  # (4, 2)
d_k = W_Q.shape[1]

right = (X @ W_Q) @ (X @ W_K).T / d_k**0.5  # queries and keys from their own matrices
wrong = (X @ W_Q) @ (X @ W_Q).T / d_k**0.5  # WRONG: keys made with W_Q too
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("scaled scores, K = X @ W_K", right)
show("scaled scores, K = X @ W_Q (wrong)", wrong)
print("symmetric?", torch.allclose(right, right.T), "and (wrong)", torch.allclose(wrong, wrong.T))
