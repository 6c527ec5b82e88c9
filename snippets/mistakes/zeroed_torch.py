# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4); identity projections: Q = K = V = X
n, d_k = X.shape
S = X @ X.T / d_k**0.5                # (3, 3), the scaled scores
allowed = torch.ones(n, n, dtype=torch.bool).tril()


def softmax(S, axis=-1):
    e = torch.exp(S - S.amax(dim=axis, keepdim=True))  # the largest score subtracted first
    return e / e.sum(dim=axis, keepdim=True)


right = softmax(S.masked_fill(~allowed, -torch.inf))  # mask first, then softmax
wrong = softmax(S).masked_fill(~allowed, 0.0)      # WRONG: softmax first, then zero the future
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("mask, then softmax", right)
show("softmax, then zero (wrong)", wrong)
print("row sums (wrong):", ", ".join(f"{x:.4f}" for x in wrong.sum(dim=1).tolist()))
